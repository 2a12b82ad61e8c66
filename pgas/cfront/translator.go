package cfront

import (
	"context"
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
	maxCells       = 60 // of .pgas's 64 addresses; the .pgas compiler may add hidden ones
)

// refusal is a construct outside the subset. It ends the translation of
// the declaration or statement it is in (guard); the translation goes on
// with the next one, so that one run reports every refusal of the file,
// up to pgas.MaxErrors.
type refusal struct {
	pos pgas.Pos
	msg string
}

// stop ends the translation at once: a budget ran out.
type stop struct{ err error }

// consequence ends the translation of a construct that uses a declaration
// already refused: the refusal has been reported, and another message
// about the same name would only mislead.
type consequence struct{}

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
	kFile              // a FILE * local: a register, NULL or open (libc_file.go)
	kStr               // a char * local into constant strings: a register (libc_strptr.go)
)

// entity is what a C declarator denotes in the translation.
type entity struct {
	kind   kind
	name   string   // .pgas name (address, register, context)
	length int      // array length; 0 for a scalar
	elem   int64    // element size in bytes
	expr   string   // kConst: the expression
	ptr    addrTerm // kPtr: the cells the pointer designates
	elems  []*entity
	lo     int64 // kConst: a lower bound of its value, when loOK
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
	needN   bool // a size or count needed N, which Options.N left open (ErrNeedsN)
	file    string
	src     []byte
	lines   []int // byte offset of each line start of src
	opt     Options
	out     []string
	orig    []Origin
	cur     Origin
	used    map[string]bool
	names   map[string]string
	global  map[*cc.Declarator]*entity
	funcs   map[string]*cc.FunctionDefinition
	frames  []*frame
	addrs   []string // declarations of the address line
	regs    []string
	ctxs    []string
	init    []initStore
	nlabel  int
	ntemp   int // temps in use (a stack: released per statement)
	temps   []string
	maxc    int64 // largest constant in a value position
	minc    int64 // least constant in a value position
	wide    bool  // an object or constant outside C's int (domain.go)
	gcell   string
	getctx  string
	lockctx string
	apiExt
	novalue    int      // > 0: constants met are not data values (offsets, counts, PEs)
	arrays     []string // .pgas names of arrays, for naming their cells
	ncells     int      // addresses declared
	defctx     string
	end        string
	smTemp     map[string]int          // temps that may hold SIZE_MAX, as their sentinel (waitmany.go)
	smLocal    map[string]int          // locals that may, likewise
	heap       *heapState              // pointers and heap objects (pointer.go)
	errs       pgas.ErrorList          // the refusals met so far
	near       pgas.Pos                // the declaration or statement being translated
	steps      int                     // emits since the last look at the context
	uses       map[string]bool         // the modelling choices exercised (warnings.go)
	refused    map[*cc.Declarator]bool // declared by a refused declaration
	libRegs    map[string]libReg       // optind, opterr, getopt's state, once used (libc_getopt.go)
	getoptOpts string                  // getopt's option string, once called
	// zeroTest: the memcmp about to be translated is compared with 0
	zeroTest  bool
	wantValue bool      // the library call being translated is used for its value
	argvCrash bool      // argv[k] beyond argc stops the PE (a string routine reads it)
	pool      reusePool // storage of ended blocks (reuse.go)

	buf *bufPlan // buffers shrunk by the collapse law (buffer_plan.go)

	sr    *staticPlan // static locals of main sharing cells (statics.go)
	srOff bool        // the plan was dropped: translate without it
	bits  bitsState   // unsigned values read as bit patterns (unsigned_bits.go)

	// the char * locals into constant strings, those given more than
	// literals, and their strings (libc_strptr.go)
	strPtrs, strNeeds map[*cc.Declarator]bool
	strs              strTable
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
	amo_cswap put_signal put_signal_add put_signal_nbi put_signal_add_nbi blocking after
	amo_and amo_or amo_xor amo_fetch_and amo_fetch_or amo_fetch_xor`)

// fresh returns an unused .pgas name close to base, recording the C name
// it stands for when that differs.
func (t *translator) fresh(base, cname string) string {
	base = asciiName(base)
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

// asciiName spells a C identifier in the letters of .pgas names: a
// character outside ASCII (C allows them in identifiers) becomes _uXXXX,
// its code point. The spelling is the same at every use, and Names maps it
// back to the C name for every message.
func asciiName(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "_u%04x", r)
		}
	}
	return b.String()
}

func (t *translator) label() string {
	t.nlabel++
	return fmt.Sprintf("L%d", t.nlabel)
}

// emit appends a line of .pgas whose origin is the current C construct.
func (t *translator) emit(format string, args ...any) {
	t.tick()
	if len(t.out) > maxEmitted { // prune.go: the live lines are held to maxLines
		panic(refusal{t.cur.Pos, fmt.Sprintf("the program is too large for the checker (more than %d generated lines)", maxLines)})
	}
	line := fmt.Sprintf(format, args...)
	t.staticBarrier(line) // statics.go
	t.out = append(t.out, "    "+line)
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
		// a limit of the whole program (cells, registers): the construct
		// that reached it
		switch {
		case t.cur.Pos.Line > 0:
			return t.cur.Pos
		case t.near.Line > 0:
			return t.near
		}
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
	t.tick()
	old := t.cur
	t.cur = Origin{Pos: t.pos(n), Text: t.text(n)}
	return old
}

// maxText bounds the C text kept for one construct: a condition of
// thousands of terms must not be copied into every line generated from it
// (the output of translate would grow with the square of the input).
const maxText = 160

// text is the source of n as written, on its first line, without a final
// semicolon. A macro is shown as written, not expanded: cc gives every
// token of an expansion the position of the macro's name, so the text ends
// after the last token's name, with its arguments if it takes some.
func (t *translator) text(n cc.Node) string {
	p := n.Position()
	if p.Filename != t.file || p.Line < 1 || p.Line > len(t.lines) {
		return clip(strings.TrimSpace(cc.NodeSource(n)))
	}
	start := t.lines[p.Line-1] + p.Column - 1
	eol := len(t.src)
	if p.Line < len(t.lines) {
		eol = t.lines[p.Line] - 1
	}
	if start < 0 || start > eol {
		return clip(strings.TrimSpace(cc.NodeSource(n)))
	}
	end := eol
	if toks := cc.NodeTokens(n); len(toks) > 0 {
		if e, ok := t.tokenEnd(toks[len(toks)-1]); ok && e >= start && e <= eol {
			end = e
		}
	}
	return clip(strings.TrimRight(strings.TrimSpace(string(t.src[start:end])), ";"))
}

// tokenEnd is the offset in t.src just after tok as written: tok itself,
// or the macro call it was expanded from.
func (t *translator) tokenEnd(tok cc.Token) (int, bool) {
	p := tok.Position()
	if p.Filename != t.file || p.Line < 1 || p.Line > len(t.lines) {
		return 0, false
	}
	off := t.lines[p.Line-1] + p.Column - 1
	if off < 0 || off > len(t.src) {
		return 0, false
	}
	lit := tok.SrcStr()
	if lit != "" && strings.HasPrefix(string(t.src[off:min(len(t.src), off+len(lit))]), lit) {
		return off + len(lit), true
	}
	// a macro's name, then its arguments if a parenthesis follows
	i := off
	for i < len(t.src) && (t.src[i] == '_' || t.src[i] >= 'a' && t.src[i] <= 'z' || t.src[i] >= 'A' && t.src[i] <= 'Z' || t.src[i] >= '0' && t.src[i] <= '9' || t.src[i] >= 0x80) {
		i++
	}
	if i == off {
		return 0, false
	}
	j := i
	for j < len(t.src) && (t.src[j] == ' ' || t.src[j] == '\t') {
		j++
	}
	if j < len(t.src) && t.src[j] == '(' {
		depth := 0
		for k := j; k < len(t.src) && t.src[k] != '\n'; k++ {
			switch t.src[k] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return k + 1, true
				}
			}
		}
	}
	return i, true
}

// clip keeps s within maxText bytes, cut at a rune, marked by "...".
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText - 3
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}

// run translates the whole translation unit. Refusals are collected
// (guard); a budget's end stops at once; any other panic is a bug of the
// translation, an *InternalError, unless a refusal came first (it is then
// taken for a consequence of the construct refused).
func (t *translator) run(ast *cc.AST) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, t.failure(r)
		}
	}()
	t.defctx = t.fresh("ctx_default", "SHMEM_CTX_DEFAULT")
	t.ctxs = append(t.ctxs, t.defctx)
	// unsigned_bits.go: before the globals' initialisers are read
	t.bits.root = ast.TranslationUnit
	t.movedPointers(ast)
	t.stringSources(ast) // libc_strptr.go
	t.globals(ast)
	main := t.funcs["main"]
	if main == nil && len(t.errs) == 0 {
		t.refuse(nil, "no function main: the program of every PE starts there")
	}
	if main != nil {
		if !t.srOff {
			t.sr = planStatics(t.funcs) // statics.go
		}
		t.end = t.fresh("END", "")
		t.guard(main, func() { t.runMain(main) })
		t.staticsDone()
	}
	t.apiFinish()
	if len(t.errs) == 0 {
		t.prune() // prune.go
	}
	if len(t.errs) > 0 && t.buf != nil && len(t.buf.perN) > 0 {
		t.needN = true // one N may shrink the buffers below the limits
	}
	if len(t.errs) > 0 {
		sortErrors(t.errs)
		if t.needN {
			return nil, &needsNError{capErrors(t.errs)}
		}
		return nil, capErrors(t.errs)
	}
	res = t.assemble()
	res.Assumptions = append(t.assumptions(), t.bufAssumptions()...)
	if t.buf != nil {
		res.Elems, res.Warnings = t.buf.elems, append(res.Warnings, t.buf.warnings()...)
	}
	return res, nil
}

// failure turns what ended the translation into its error.
func (t *translator) failure(r any) error {
	switch v := r.(type) {
	case stop:
		return v.err
	case refusal:
		t.errs = append(t.errs, &pgas.Error{Pos: v.pos, Msg: v.msg})
	case consequence:
	default:
		if len(t.errs) == 0 {
			return &InternalError{Pos: t.pos(nil), Msg: fmt.Sprint(r)}
		}
	}
	sortErrors(t.errs)
	return capErrors(t.errs)
}

// guard translates one declaration or statement, n, by f: a refusal in it
// is recorded and the translation goes on after it. Past pgas.MaxErrors
// refusals it stops. A run-time panic after a refusal is taken for a
// consequence of what was refused (a name left undeclared) and dropped.
func (t *translator) guard(n cc.Node, f func()) {
	near, cur := t.near, t.cur
	nframes, novalue := len(t.frames), t.novalue
	nloops := 0
	if nframes > 0 {
		nloops = len(t.frame().loops)
	}
	t.near = t.pos(n)
	defer func() {
		t.near = near
		r := recover()
		if r == nil {
			return
		}
		// leave the translator as the construct found it: frames of
		// calls inlined in it, loops entered, constant contexts
		t.frames, t.novalue = t.frames[:nframes], novalue
		if nframes > 0 {
			f := t.frame()
			f.loops = f.loops[:min(nloops, len(f.loops))]
		}
		switch v := r.(type) {
		case consequence:
			t.cur = cur
		case refusal:
			t.markRefused(n)
			e := &pgas.Error{Pos: v.pos, Msg: v.msg}
			for _, old := range t.errs {
				if old.Pos == e.Pos && old.Msg == e.Msg {
					e = nil // an inlined function refused at each call
					break
				}
			}
			if e != nil {
				t.errs = append(t.errs, e)
			}
			t.cur = cur
			if len(t.errs) >= pgas.MaxErrors {
				panic(stop{capErrors(t.errs)})
			}
		case stop:
			panic(v)
		default:
			if len(t.errs) == 0 {
				panic(r)
			}
			t.cur = cur
		}
	}()
	f()
}

// markRefused records the declarators of a refused declaration, so that
// their uses end quietly (consequence) instead of being refused again as
// unknown names.
func (t *translator) markRefused(n cc.Node) {
	var d *cc.Declaration
	switch x := n.(type) {
	case *cc.BlockItem:
		d = x.Declaration
	case *cc.ExternalDeclaration:
		d = x.Declaration
	}
	if d == nil {
		return
	}
	if t.refused == nil {
		t.refused = map[*cc.Declarator]bool{}
	}
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		if l.InitDeclarator != nil && l.InitDeclarator.Declarator != nil {
			t.refused[l.InitDeclarator.Declarator] = true
		}
	}
}

// tick looks at the context every few hundred steps: a budget that ran
// out stops the translation.
func (t *translator) tick() {
	if t.steps++; t.steps&255 != 0 {
		return
	}
	if ctx := t.opt.Context; ctx != nil && ctx.Err() != nil {
		panic(stop{&BudgetError{Phase: "translating", Cause: context.Cause(ctx)}})
	}
}

// assemble puts the declarations in front of the translated body.
func (t *translator) assemble() *Result {
	body, bodyOrig := t.out, t.orig
	t.out, t.orig = nil, nil
	t.cur = Origin{Pos: pgas.Pos{File: t.file, Line: 1, Col: 1}, Text: filepath.Base(t.file)}
	t.out = append(t.out, "# translated from "+filepath.Base(t.file)+" by pgasrob (pgas/cfront)")
	t.out = append(t.out, "program "+t.programName())
	t.out = append(t.out, t.window())
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
	return &Result{Source: []byte(strings.Join(t.out, "\n") + "\n"), Lines: t.orig, Names: t.names, Arrays: t.arrays, Widen: t.widening()}
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
