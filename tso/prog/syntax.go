package prog

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is a source position; Line and Col count from 1, Col in bytes.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is an input error with its position. Every error of Parse and
// Compile is an *Error, so callers can print "file:line:col: message".
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Node is an expression in the syntax tree. Trencher writes expressions in
// prefix notation, so the tree is built without precedence rules.
type Node struct {
	Pos  Pos
	Op   string // "" for a leaf; an operator otherwise
	Num  int64  // a constant leaf when Reg == ""
	Reg  string // a register leaf
	Args []*Node
}

func (n *Node) String() string {
	switch {
	case n.Op == "" && n.Reg != "":
		return n.Reg
	case n.Op == "":
		return strconv.FormatInt(n.Num, 10)
	}
	parts := []string{n.Op}
	for _, a := range n.Args {
		parts = append(parts, a.String())
	}
	return strings.Join(parts, " ")
}

// SynInstr is one instruction as written.
type SynInstr struct {
	Pos   Pos
	Name  string  // read, write, mfence, sfence, fence, local, check, noop, lock, unlock
	Reg   string  // read, local
	RegAt Pos     // position of Reg
	Args  []*Node // write: value, address; read: address; local: value; check: condition; fence: addresses
}

// SynTrans is a "transition FROM TO INSTRUCTION" line.
type SynTrans struct {
	Pos      Pos
	From, To string
	FromPos  Pos // of the source state
	Instr    SynInstr
}

// SynThread is a "thread NAME ... end" block. "thread NAME *" marks a
// replicated thread: any number of copies of it run (docs/tso.md,
// Parameterized programs).
type SynThread struct {
	Pos        Pos
	Name       string
	Replicated bool
	StarPos    Pos // of the "*" when Replicated
	Init       string
	InitPos    Pos
	Trans      []SynTrans
}

// File is the syntax tree of one input file.
type File struct {
	Name       string
	MemorySize int // 0 when the file has no memory_size directive
	MemPos     Pos
	Threads    []*SynThread
}

type token struct {
	text string
	pos  Pos
	eol  bool // last token of its line
}

// lex splits the input into whitespace-separated tokens. A token starting
// with '#' starts a comment that runs to the end of the line; Trencher only
// allows comments outside thread blocks, accepting them everywhere costs
// nothing and breaks no corpus file.
func lex(name string, src []byte) []token {
	var toks []token
	line, col := 1, 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			if len(toks) > 0 {
				toks[len(toks)-1].eol = true
			}
			line++
			col = 1
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			col++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			start, startCol := i, col
			for i < len(src) && !isSpace(src[i]) {
				i++
				col++
			}
			toks = append(toks, token{text: string(src[start:i]), pos: Pos{File: name, Line: line, Col: startCol}})
		}
	}
	if len(toks) > 0 {
		toks[len(toks)-1].eol = true
	}
	return toks
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// Nesting bound for prefix expressions: deep enough for any hand-written
// program, shallow enough that hostile input cannot exhaust the stack.
const maxExprDepth = 64

var binaryOps = map[string]bool{
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"&&": true, "||": true, "+": true, "-": true, "*": true, "&": true,
}

var keywords = map[string]bool{
	"thread": true, "initial": true, "transition": true, "end": true, "memory_size": true,
}

type parser struct {
	toks []token
	i    int
	name string
	end  Pos
}

// Parse reads a program in Trencher's format (see docs/tso.md). name is
// used in positions only.
func Parse(name string, src []byte) (*File, error) {
	p := &parser{toks: lex(name, src), name: name}
	line, col := 1, 1
	for _, c := range src {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	p.end = Pos{File: name, Line: line, Col: col}
	return p.file()
}

func (p *parser) errorf(pos Pos, format string, args ...any) error {
	for i, a := range args {
		if t, ok := a.(string); ok {
			args[i] = Clip(t)
		}
	}
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) peek() (token, bool) {
	if p.i < len(p.toks) {
		return p.toks[p.i], true
	}
	return token{pos: p.end}, false
}

func (p *parser) next(what string) (token, error) {
	t, ok := p.peek()
	if !ok {
		return t, p.errorf(t.pos, "unexpected end of file, expected %s", what)
	}
	p.i++
	return t, nil
}

func (p *parser) file() (*File, error) {
	f := &File{Name: p.name}
	for {
		t, ok := p.peek()
		if !ok {
			return f, nil
		}
		p.i++
		switch t.text {
		case "memory_size":
			n, err := p.next("a memory size")
			if err != nil {
				return nil, err
			}
			v, err := strconv.Atoi(n.text)
			if err != nil || v < 1 || v > 1<<16 {
				return nil, p.errorf(n.pos, "memory_size must be an integer in 1..65536, not %q", n.text)
			}
			if f.MemorySize != 0 {
				return nil, p.errorf(t.pos, "memory_size given twice")
			}
			f.MemorySize, f.MemPos = v, t.pos
		case "thread":
			th, err := p.thread(t.pos)
			if err != nil {
				return nil, err
			}
			f.Threads = append(f.Threads, th)
		default:
			return nil, p.errorf(t.pos, "expected \"thread\" or \"memory_size\", found %q", t.text)
		}
	}
}

func (p *parser) name_(what string) (token, error) {
	t, err := p.next(what)
	if err != nil {
		return t, err
	}
	if keywords[t.text] {
		return t, p.errorf(t.pos, "expected %s, found keyword %q", what, t.text)
	}
	return t, nil
}

func (p *parser) thread(pos Pos) (*SynThread, error) {
	nt, err := p.name_("a thread name")
	if err != nil {
		return nil, err
	}
	th := &SynThread{Pos: pos, Name: nt.text}
	if t, ok := p.peek(); ok && t.text == "*" && !nt.eol {
		p.i++
		th.Replicated, th.StarPos = true, t.pos
	}
	for {
		t, err := p.next("\"initial\", \"transition\" or \"end\"")
		if err != nil {
			return nil, err
		}
		switch t.text {
		case "end":
			if th.Init == "" {
				return nil, p.errorf(pos, "thread %s has no \"initial\" line", th.Name)
			}
			return th, nil
		case "initial":
			l, err := p.name_("an initial state")
			if err != nil {
				return nil, err
			}
			if th.Init != "" {
				return nil, p.errorf(t.pos, "thread %s has two \"initial\" lines", th.Name)
			}
			th.Init, th.InitPos = l.text, l.pos
		case "transition":
			tr, err := p.transition(t.pos)
			if err != nil {
				return nil, err
			}
			th.Trans = append(th.Trans, tr)
		default:
			return nil, p.errorf(t.pos, "expected \"initial\", \"transition\" or \"end\" in thread %s, found %q", th.Name, t.text)
		}
	}
}

func (p *parser) transition(pos Pos) (SynTrans, error) {
	tr := SynTrans{Pos: pos}
	from, err := p.name_("a source state")
	if err != nil {
		return tr, err
	}
	to, err := p.name_("a destination state")
	if err != nil {
		return tr, err
	}
	tr.From, tr.To, tr.FromPos = from.text, to.text, from.pos
	in, err := p.next("an instruction")
	if err != nil {
		return tr, err
	}
	tr.Instr = SynInstr{Pos: in.pos, Name: in.text}
	args := func(n int) error {
		for k := 0; k < n; k++ {
			e, err := p.expr(0)
			if err != nil {
				return err
			}
			tr.Instr.Args = append(tr.Instr.Args, e)
		}
		return nil
	}
	reg := func() error {
		r, err := p.next("a register")
		if err != nil {
			return err
		}
		if !isRegName(r.text) {
			return p.errorf(r.pos, "%q is not a register name", r.text)
		}
		tr.Instr.Reg, tr.Instr.RegAt = r.text, r.pos
		return nil
	}
	switch in.text {
	case "read":
		if err := reg(); err != nil {
			return tr, err
		}
		err = args(1)
	case "write":
		err = args(2)
	case "local":
		if err := reg(); err != nil {
			return tr, err
		}
		err = args(1)
	case "check":
		err = args(1)
	case "mfence", "sfence", "noop", "lock", "unlock":
	case "fence":
		// The address list runs to the end of the line: the token stream
		// has no other way to tell where it stops.
		if in.eol {
			return tr, p.errorf(in.pos, "fence needs at least one address on the same line")
		}
		for {
			e, err := p.expr(0)
			if err != nil {
				return tr, err
			}
			tr.Instr.Args = append(tr.Instr.Args, e)
			if p.toks[p.i-1].eol {
				break
			}
		}
	default:
		return tr, p.errorf(in.pos, "unknown instruction %q (want read, write, mfence, sfence, fence, local, check, noop, lock or unlock)", in.text)
	}
	return tr, err
}

func isRegName(s string) bool {
	if s == "" || keywords[s] || binaryOps[s] || s == "!" {
		return false
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return false
	}
	c := s[0]
	return c != '-' && c != '+' && (c < '0' || c > '9')
}

func (p *parser) expr(depth int) (*Node, error) {
	t, err := p.next("an expression")
	if err != nil {
		return nil, err
	}
	if depth > maxExprDepth {
		return nil, p.errorf(t.pos, "expression nested deeper than %d", maxExprDepth)
	}
	if binaryOps[t.text] || t.text == "!" {
		n := &Node{Pos: t.pos, Op: t.text}
		arity := 2
		if t.text == "!" {
			arity = 1
		}
		for k := 0; k < arity; k++ {
			a, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Args = append(n.Args, a)
		}
		return n, nil
	}
	if v, err := strconv.ParseInt(t.text, 10, 64); err == nil {
		if v < -1<<31 || v >= 1<<31 {
			return nil, p.errorf(t.pos, "constant %s does not fit in 32 bits", t.text)
		}
		return &Node{Pos: t.pos, Num: v}, nil
	}
	if isDigits(t.text) {
		return nil, p.errorf(t.pos, "constant %s does not fit in 32 bits", t.text)
	}
	if keywords[t.text] {
		return nil, p.errorf(t.pos, "expected an expression, found keyword %q", t.text)
	}
	if !isRegName(t.text) {
		return nil, p.errorf(t.pos, "%q is neither a number, a register nor an operator", t.text)
	}
	return &Node{Pos: t.pos, Reg: t.text}, nil
}

// isDigits reports whether s is an optional minus sign and decimal digits.
func isDigits(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Clip shortens a token quoted in an error message: a message must stay
// readable when the offending token is a megabyte long.
func Clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:max], len(s))
}
