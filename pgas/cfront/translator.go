package cfront

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
	"modernc.org/cc/v4"
)

// Limits of the translation, below those of .pgas (docs/language.md) so
// that the generated program never hits them first.
const (
	maxInlineDepth = 16
	maxLines       = 4000
	maxArray       = 32
	maxValues      = 256
	maxCells       = 60 // of .pgas's 64 addresses; the .pgas compiler may add hidden ones
)

// refusal is a construct outside the subset: the translation stops at the
// first one (a refusal often makes what follows meaningless).
type refusal struct {
	pos pgas.Pos
	msg string
}

// kind is what a C object becomes.
type kind int

const (
	kSym   kind = iota // a symmetric object (global or static): an address, or consecutive ones
	kCell              // a local whose address is taken: a private address
	kReg               // a local: a register
	kConst             // a local set once to an expression of constants, my_pe and n_pes: substituted
	kCtx               // a shmem_ctx_t global: a context
	kPtr               // a pointer parameter of an inlined function: an address term
	kArgv              // main's argv: strings known to the translation (libc_args.go)
)

// entity is what a C declarator denotes in the translation.
type entity struct {
	kind   kind
	name   string   // .pgas name (address, register, context)
	length int      // array length; 0 for a scalar
	elem   int64    // element size in bytes
	expr   string   // kConst: the expression
	ptr    addrTerm // kPtr: the cells the pointer designates
	lo     int64    // kConst: a lower bound of its value, when loOK
	loOK   bool
}

// frame is one inlined function instance.
type frame struct {
	fn     string
	vars   map[*cc.Declarator]*entity
	labels map[string]string
	ret    string // label at the end of the body
	result string // register receiving the return value ("" for void)
	loops  []loop
	cases  map[*cc.LabeledStatement]string // case and default labels (switch.go)
	// resultType is the function's result type (a bool result is 0 or 1)
	resultType cc.Type
}

type loop struct{ brk, cont string }

type translator struct {
	file       string
	src        []byte
	lines      []int // byte offset of each line start of src
	opt        Options
	out        []string
	orig       []Origin
	cur        Origin
	used       map[string]bool
	names      map[string]string
	global     map[*cc.Declarator]*entity
	funcs      map[string]*cc.FunctionDefinition
	frames     []*frame
	addrs      []string // declarations of the address line
	regs       []string
	ctxs       []string
	init       []initStore
	nlabel     int
	ntemp      int // temps in use (a stack: released per statement)
	temps      []string
	maxc       int64 // largest constant in a value position
	gcell      string
	getctx     string
	lockctx    string
	novalue    int      // > 0: constants met are not data values (offsets, counts, PEs)
	arrays     []string // .pgas names of arrays, for naming their cells
	ncells     int      // addresses declared
	defctx     string
	end        string
	smTemp     map[string]int    // temps that may hold SIZE_MAX, as their sentinel (waitmany.go)
	smLocal    map[string]int    // locals that may, likewise
	libRegs    map[string]libReg // optind, opterr, getopt's state, once used (libc_getopt.go)
	getoptOpts string            // getopt's option string, once called
	// zeroTest: the memcmp about to be translated is compared with 0
	zeroTest    bool
	wantValue   bool              // the library call being translated is used for its value
	argvCrash   bool              // argv[k] beyond argc stops the PE (a string routine reads it)
	assumptions []pgas.Assumption // modelling choices the program exercises
}

type initStore struct {
	addr string
	val  int64
	org  Origin
}

func newTranslator(name string, src []byte, opt Options) *translator {
	t := &translator{file: name, src: src, opt: opt, used: map[string]bool{}, names: map[string]string{},
		global: map[*cc.Declarator]*entity{}, funcs: map[string]*cc.FunctionDefinition{}}
	t.lines = []int{0}
	for i, b := range src {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	for _, k := range pgasKeywords {
		t.used[k] = true
	}
	return t
}

// pgasKeywords are the words a generated name must avoid: the keywords of
// docs/language.md and the statement names of docs/shmem-calculus.md.
var pgasKeywords = strings.Fields(`program values address register queue mem rank N read write get put
	barrier assume assert goto if while else wait waitq quiet context fence when putmem putmem_nbi
	putval getmem getmem_nbi amo_add amo_inc amo_set amo_fetch amo_fetch_add amo_fetch_inc amo_swap
	amo_cswap put_signal put_signal_add put_signal_nbi put_signal_add_nbi blocking after`)

// fresh returns an unused .pgas name close to base, recording the C name
// it stands for when that differs.
func (t *translator) fresh(base, cname string) string {
	n := base
	for i := 1; t.used[n]; i++ {
		n = fmt.Sprintf("%s_%d", base, i)
	}
	t.used[n] = true
	if cname != "" && cname != n {
		t.names[n] = cname
	}
	return n
}

func (t *translator) label() string {
	t.nlabel++
	return fmt.Sprintf("L%d", t.nlabel)
}

// emit appends a line of .pgas whose origin is the current C construct.
func (t *translator) emit(format string, args ...any) {
	if len(t.out) > maxLines {
		panic(refusal{t.cur.Pos, fmt.Sprintf("the program is too large for the checker (more than %d generated lines)", maxLines)})
	}
	t.out = append(t.out, "    "+fmt.Sprintf(format, args...))
	t.orig = append(t.orig, t.cur)
}

func (t *translator) place(l string) {
	t.out = append(t.out, l+":")
	t.orig = append(t.orig, t.cur)
}

func (t *translator) refuse(n cc.Node, format string, args ...any) {
	panic(refusal{t.pos(n), fmt.Sprintf(format, args...)})
}

func (t *translator) pos(n cc.Node) pgas.Pos {
	if n == nil {
		return pgas.Pos{File: t.file, Line: 1, Col: 1}
	}
	p := n.Position()
	f := p.Filename
	if f == "" {
		f = t.file
	}
	return pgas.Pos{File: f, Line: p.Line, Col: p.Column}
}

// at makes n the origin of the lines emitted until the next call, with its
// C text as written; it returns the previous origin.
func (t *translator) at(n cc.Node) Origin {
	old := t.cur
	t.cur = Origin{Pos: t.pos(n), Text: t.text(n)}
	return old
}

// text is the source of n as written on its first line, without a final
// semicolon; macro expansions are shown as written, not expanded.
func (t *translator) text(n cc.Node) string {
	p := n.Position()
	if p.Filename != t.file || p.Line < 1 || p.Line > len(t.lines) {
		return strings.TrimSpace(cc.NodeSource(n))
	}
	start := t.lines[p.Line-1] + p.Column - 1
	end := len(t.src)
	if p.Line < len(t.lines) {
		end = t.lines[p.Line] - 1
	}
	if start < 0 || start > end {
		return strings.TrimSpace(cc.NodeSource(n))
	}
	s := string(t.src[start:end])
	if want := strings.Join(strings.Fields(cc.NodeSource(n)), ""); want != "" {
		s = cutAt(s, len(want))
	}
	return strings.TrimRight(strings.TrimSpace(s), ";")
}

// cutAt returns the prefix of s holding n non-blank bytes, extended to
// close any parenthesis it opened.
func cutAt(s string, n int) string {
	depth, seen := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
		if s[i] != ' ' && s[i] != '\t' {
			seen++
		}
		if seen >= n && depth <= 0 {
			return s[:i+1]
		}
	}
	return s
}

// run translates the whole translation unit.
func (t *translator) run(ast *cc.AST) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			ref, ok := r.(refusal)
			if !ok {
				// a bug of the translation: an error, not a crash
				ref = refusal{t.cur.Pos, fmt.Sprintf("internal error of the C front end (please report): %v", r)}
				if ref.pos.Line == 0 {
					ref.pos = pgas.Pos{File: t.file, Line: 1, Col: 1}
				}
			}
			res, err = nil, pgas.ErrorList{{Pos: ref.pos, Msg: ref.msg}}
		}
	}()
	t.defctx = t.fresh("ctx_default", "SHMEM_CTX_DEFAULT")
	t.ctxs = append(t.ctxs, t.defctx)
	t.globals(ast)
	main := t.funcs["main"]
	if main == nil {
		t.refuse(nil, "no function main: the program of every PE starts there")
	}
	t.end = t.fresh("END", "")
	t.runMain(main)
	return t.assemble(), nil
}

// assemble puts the declarations in front of the translated body.
func (t *translator) assemble() *Result {
	body, bodyOrig := t.out, t.orig
	t.out, t.orig = nil, nil
	t.cur = Origin{Pos: pgas.Pos{File: t.file, Line: 1, Col: 1}, Text: filepath.Base(t.file)}
	t.out = append(t.out, "# translated from "+filepath.Base(t.file)+" by pgasrob (pgas/cfront)")
	t.out = append(t.out, "program "+t.programName())
	t.out = append(t.out, fmt.Sprintf("values %d", t.values()))
	if len(t.addrs) > 0 {
		t.out = append(t.out, "address "+strings.Join(t.addrs, ", "))
	}
	if len(t.regs) > 0 {
		t.out = append(t.out, "register "+strings.Join(t.regs, ", "))
	}
	t.out = append(t.out, "context "+strings.Join(t.ctxs, ", "))
	for range t.out {
		t.orig = append(t.orig, t.cur)
	}
	for _, s := range t.init {
		t.cur = s.org
		t.emit("mem[%s] <- %d", s.addr, s.val)
	}
	if len(t.init) > 0 {
		t.emit("barrier")
	}
	t.out = append(t.out, body...)
	t.orig = append(t.orig, bodyOrig...)
	t.out = append(t.out, t.end+":")
	t.orig = append(t.orig, t.cur)
	return &Result{Source: []byte(strings.Join(t.out, "\n") + "\n"), Lines: t.orig, Names: t.names, Arrays: t.arrays, Assumptions: t.assumptions}
}

func (t *translator) programName() string {
	base := strings.TrimSuffix(filepath.Base(t.file), filepath.Ext(t.file))
	var b strings.Builder
	for _, r := range base {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "c_" + s
	}
	for _, k := range pgasKeywords {
		if s == k {
			s += "_c"
		}
	}
	return s
}
