package prog

import (
	"fmt"
	"sort"
	"strings"
)

// Op is the kind of an instruction.
type Op uint8

const (
	OpRead   Op = iota // Reg <- mem[Addr]
	OpWrite            // mem[Addr] <- Val
	OpMFence           // wait until the thread's buffers are empty (Trencher's mfence)
	OpSFence           // the framework's sfence; the same as mfence
	OpFence            // the framework's address-list fence over Addrs
	OpLocal            // Reg <- Val
	OpCheck            // blocks unless Val is non-zero
	OpNoop
	OpLock   // flush, then run alone until unlock
	OpUnlock // flush, then let the others run again
)

var opNames = [...]string{"read", "write", "mfence", "sfence", "fence", "local", "check", "noop", "lock", "unlock"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// IsFull reports whether the instruction waits for all of the thread's
// buffers to drain: no store can be delayed across it.
func (o Op) IsFull() bool {
	return o == OpMFence || o == OpSFence || o == OpLock || o == OpUnlock
}

// Trans is one transition of a thread.
type Trans struct {
	From, To int
	Op       Op
	Reg      int     // OpRead, OpLocal; -1 otherwise
	Addr     *Expr   // OpRead, OpWrite
	Val      *Expr   // OpWrite value, OpLocal value, OpCheck condition
	Addrs    []*Expr // OpFence
	Pos      Pos
	Text     string // the instruction as written, for witnesses
	// Line is where the "transition" keyword is and FromPos where the
	// source state is written, for WriteFenced.
	Line    int
	FromPos Pos
}

// Thread is one thread: a finite automaton over instructions.
type Thread struct {
	Name string
	// Replicated marks a template of which any number of copies run
	// ("thread NAME *"); only CheckParameterized gives it that meaning,
	// every other engine runs the one copy written.
	Replicated bool
	Labels     []string // control states; Labels[Init] is the initial one
	Init       int
	Regs       []string
	Trans      []Trans
	Out        [][]int // Out[q] lists the transitions leaving q
}

// DefaultMemorySize is Trencher's default number of addresses.
const DefaultMemorySize = 10

// Program is a checked and compiled program.
type Program struct {
	File       string
	MemorySize int // addresses are 0..MemorySize-1
	Threads    []*Thread
	// Cells are the addresses the engines track, in increasing order: the
	// constant addresses of the program when every address expression is a
	// constant, otherwise all of 0..MemorySize-1.
	Cells  []int64
	cellOf map[int64]int
	// HasFence is true if some thread uses an address-list fence; PSO then
	// needs the locality-based attacker (singularity fails).
	HasFence bool
}

// CellOf maps an address to its cell index.
func (p *Program) CellOf(a int64) (int, bool) {
	c, ok := p.cellOf[a]
	return c, ok
}

// ParseProgram parses and compiles src.
func ParseProgram(name string, src []byte) (*Program, error) {
	f, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	return Compile(f)
}

// Compile checks a syntax tree and compiles it.
func Compile(f *File) (*Program, error) {
	p := &Program{File: f.Name, MemorySize: f.MemorySize}
	if p.MemorySize == 0 {
		p.MemorySize = DefaultMemorySize
	}
	if len(f.Threads) == 0 {
		return nil, &Error{Pos: Pos{File: f.Name, Line: 1, Col: 1}, Msg: "the program has no thread"}
	}
	seen := map[string]bool{}
	allConst := true
	consts := map[int64]bool{}
	for _, st := range f.Threads {
		if seen[st.Name] {
			return nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("thread %s defined twice", st.Name)}
		}
		seen[st.Name] = true
		th := &Thread{Name: st.Name, Replicated: st.Replicated}
		labels := map[string]int{}
		label := func(s string) int {
			if i, ok := labels[s]; ok {
				return i
			}
			labels[s] = len(th.Labels)
			th.Labels = append(th.Labels, s)
			return len(th.Labels) - 1
		}
		th.Init = label(st.Init)
		regs := map[string]int{}
		reg := func(s string) int {
			if i, ok := regs[s]; ok {
				return i
			}
			regs[s] = len(th.Regs)
			th.Regs = append(th.Regs, s)
			return len(th.Regs) - 1
		}
		for _, tr := range st.Trans {
			in := tr.Instr
			t := Trans{From: label(tr.From), To: label(tr.To), Reg: -1, Pos: in.Pos, Text: instrText(in), Line: tr.Pos.Line, FromPos: tr.FromPos}
			addr := func(n *Node) (*Expr, error) {
				e := compileExpr(n, reg)
				if v, ok := e.Const(); ok {
					if v < 0 || v >= int64(p.MemorySize) {
						return nil, &Error{Pos: n.Pos, Msg: fmt.Sprintf("address %d outside 0..%d (see memory_size)", v, p.MemorySize-1)}
					}
					consts[v] = true
				} else {
					allConst = false
				}
				return e, nil
			}
			var err error
			switch in.Name {
			case "read":
				t.Op = OpRead
				t.Reg = reg(in.Reg)
				t.Addr, err = addr(in.Args[0])
			case "write":
				t.Op = OpWrite
				t.Val = compileExpr(in.Args[0], reg)
				t.Addr, err = addr(in.Args[1])
			case "local":
				t.Op = OpLocal
				t.Reg = reg(in.Reg)
				t.Val = compileExpr(in.Args[0], reg)
			case "check":
				t.Op = OpCheck
				t.Val = compileExpr(in.Args[0], reg)
			case "mfence":
				t.Op = OpMFence
			case "sfence":
				t.Op = OpSFence
			case "noop":
				t.Op = OpNoop
			case "lock":
				t.Op = OpLock
			case "unlock":
				t.Op = OpUnlock
			case "fence":
				t.Op = OpFence
				p.HasFence = true
				for _, a := range in.Args {
					e, err := addr(a)
					if err != nil {
						return nil, err
					}
					t.Addrs = append(t.Addrs, e)
				}
			default:
				return nil, &Error{Pos: in.Pos, Msg: fmt.Sprintf("unknown instruction %q", in.Name)}
			}
			if err != nil {
				return nil, err
			}
			th.Trans = append(th.Trans, t)
		}
		th.Out = make([][]int, len(th.Labels))
		for i, t := range th.Trans {
			th.Out[t.From] = append(th.Out[t.From], i)
		}
		p.Threads = append(p.Threads, th)
	}
	p.cellOf = map[int64]int{}
	if allConst {
		for a := range consts {
			p.Cells = append(p.Cells, a)
		}
		sort.Slice(p.Cells, func(i, j int) bool { return p.Cells[i] < p.Cells[j] })
	} else {
		for a := 0; a < p.MemorySize; a++ {
			p.Cells = append(p.Cells, int64(a))
		}
	}
	for i, a := range p.Cells {
		p.cellOf[a] = i
	}
	return p, nil
}

func instrText(in SynInstr) string {
	parts := []string{in.Name}
	if in.Reg != "" {
		parts = append(parts, in.Reg)
	}
	for _, a := range in.Args {
		parts = append(parts, a.String())
	}
	return strings.Join(parts, " ")
}

// String prints the program back in the input format.
func (p *Program) String() string {
	var b strings.Builder
	if p.MemorySize != DefaultMemorySize {
		fmt.Fprintf(&b, "memory_size %d\n", p.MemorySize)
	}
	for _, th := range p.Threads {
		star := ""
		if th.Replicated {
			star = " *"
		}
		fmt.Fprintf(&b, "thread %s%s\ninitial %s\n", th.Name, star, th.Labels[th.Init])
		for _, t := range th.Trans {
			fmt.Fprintf(&b, "transition %s %s %s\n", th.Labels[t.From], th.Labels[t.To], t.Text)
		}
		b.WriteString("end\n")
	}
	return b.String()
}

// Describe names a transition for people: "t0 q1->q2 read r 1 (file:3:20)".
func (p *Program) Describe(thread, trans int) string {
	th := p.Threads[thread]
	t := th.Trans[trans]
	return fmt.Sprintf("%s %s->%s %s", th.Name, th.Labels[t.From], th.Labels[t.To], t.Text)
}

// Replicated reports whether some thread of p is marked replicated.
func (p *Program) Replicated() bool {
	for _, th := range p.Threads {
		if th.Replicated {
			return true
		}
	}
	return false
}

// Empty returns a program with p's file, memory, cells and fences but no
// threads, for the programs built from p's threads (instances of a
// replicated program, the flattened programs of persistence).
func (p *Program) Empty() *Program {
	return &Program{File: p.File, MemorySize: p.MemorySize, Cells: p.Cells, cellOf: p.cellOf, HasFence: p.HasFence}
}
