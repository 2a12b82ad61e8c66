package repair

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// Kind is a kind of insertion, in the language's own vocabulary.
type Kind int

const (
	// Wait waits on the handle of a remote operation before a later
	// statement ("wait h"); the operation gets a handle ("-> h") if it
	// has none.
	Wait Kind = iota
	// WaitQ waits for a queue to drain before a statement ("waitq q").
	WaitQ
	// Sync turns an asynchronous read or write into get or put.
	Sync
	// Fence inserts "fence c" before a statement that follows a send on
	// context c (docs/shmem-calculus.md): later sends to the same rank,
	// and later atomics on it, wait for the earlier ones.
	Fence
	// Quiet inserts "quiet c" before a statement that follows a send or
	// recv on context c: every item of c completes first.
	Quiet
	// Blocking makes a non-blocking OpenSHMEM operation blocking
	// (putmem_nbi becomes putmem, getmem_nbi getmem, put_signal_nbi
	// put_signal).
	Blocking
	// Atomic replaces a put of a value ("putval(e, k, m, c)", or
	// "amo_set(e, k, m, c)") by a fetching atomic swap
	// ("t <- amo_swap(e, k, m, c)"), complete when it returns; t is a
	// register dead after it, or a new one.
	Atomic
	numKinds
)

var kindNames = [numKinds]string{"wait", "waitq", "sync", "fence", "quiet", "blocking", "atomic"}

func (k Kind) String() string { return kindNames[k] }

// Candidate is one insertion the repair may choose. Positions are those of
// the input program: Op is the remote operation (Wait, Sync, Blocking,
// Atomic), At the statement an insertion goes before (Wait, WaitQ, Fence,
// Quiet).
type Candidate struct {
	Kind  Kind
	Op    pgas.Pos
	Queue string // WaitQ: the queue; Fence, Quiet: the context
	At    pgas.Pos
}

func (c Candidate) key() string {
	return fmt.Sprintf("%d|%d:%d|%s|%d:%d", c.Kind, c.Op.Line, c.Op.Col, c.Queue, c.At.Line, c.At.Col)
}

// op is a remote operation of the input program that a repair may wait
// for: an asynchronous read or write (not get/put, which already wait),
// or an OpenSHMEM send or recv (shmem.go).
type op struct {
	pos    pgas.Pos
	kw     string // "read" or "write"; for OpenSHMEM, the statement's keyword
	text   string // the command as written
	handle string // its handle, "" if none
	queue  string // its queue when written as a plain queue name, else ""
	entry  int    // control state before it
	exits  []int  // control states after its transitions
	shmem  bool   // an OpenSHMEM send or recv on a context
	ctx    string // its context when it is a constant, else ""
	send   bool   // a send (fences order sends only)
}

// stmt is a statement of the input program: its position and the control
// states its transitions leave from and reach.
type stmt struct {
	pos   pgas.Pos
	entry int
	exits []int
}

// analysis is what the candidates are built from.
type analysis struct {
	p     *pgas.Program
	ops   []op
	stmts []stmt
	byPos map[pgas.Pos]int // statement index by position
	succ  [][]int          // control-state graph
}

func analyse(p *pgas.Program) *analysis {
	a := &analysis{p: p, byPos: map[pgas.Pos]int{}, succ: make([][]int, len(p.Labels))}
	for _, tr := range p.Trans {
		a.succ[tr.From] = append(a.succ[tr.From], tr.To)
		if tr.Sugar == "init" {
			continue
		}
		pos := tr.Pos
		pos.File = ""
		i, ok := a.byPos[pos]
		if !ok {
			i = len(a.stmts)
			a.byPos[pos] = i
			a.stmts = append(a.stmts, stmt{pos: pos, entry: tr.From})
		}
		a.stmts[i].exits = append(a.stmts[i].exits, tr.To)
	}
	queues := map[string]bool{}
	for _, q := range p.Queues {
		queues[q] = true
	}
	seen := map[pgas.Pos]bool{}
	for _, tr := range p.Trans {
		if tr.Cmd.Op != pgas.OpRead && tr.Cmd.Op != pgas.OpWrite || tr.Sugar != "" && tr.Sugar != "handle" {
			continue
		}
		pos := tr.Pos
		pos.File = ""
		if seen[pos] {
			continue // a handle's shadow read is a read too
		}
		seen[pos] = true
		s := a.stmts[a.byPos[pos]]
		o := op{pos: pos, kw: "write", text: tr.Text, entry: s.entry, exits: s.exits}
		if tr.Cmd.Op == pgas.OpRead {
			o.kw = "read"
		}
		if _, h, ok := strings.Cut(tr.Text, "->"); ok {
			o.handle = strings.TrimSpace(h)
		}
		if q := tr.Cmd.Queue; q != nil && queues[q.Src] {
			o.queue = q.Src
		}
		a.ops = append(a.ops, o)
	}
	a.shmemOps()
	sort.Slice(a.ops, func(i, j int) bool { return before(a.ops[i].pos, a.ops[j].pos) })
	return a
}

func before(x, y pgas.Pos) bool { return x.Line < y.Line || x.Line == y.Line && x.Col < y.Col }

// reach is the set of control states reachable from the given ones.
func (a *analysis) reach(from []int) []bool {
	r := make([]bool, len(a.p.Labels))
	stack := append([]int(nil), from...)
	for _, s := range from {
		r[s] = true
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range a.succ[s] {
			if !r[t] {
				r[t] = true
				stack = append(stack, t)
			}
		}
	}
	return r
}

// after lists the statements that can run after o completes its issue:
// those whose entry is reachable from o's exits, o itself only when a
// loop leads back to it. These are the places a wait for o can go.
func (a *analysis) after(o op) []int {
	r := a.reach(o.exits)
	var out []int
	for i, s := range a.stmts {
		if !r[s.entry] {
			continue
		}
		if s.pos == o.pos {
			// Its own internal states (a handle's reset and shadow read)
			// are reachable from its exits only through a loop.
			looped := false
			for _, e := range o.exits {
				for _, t := range a.succ[e] {
					looped = looped || a.reach([]int{t})[o.entry]
				}
			}
			if !looped {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}

// between lists the statements on a path from o to the statement at b
// (b included): the places a wait for o cuts an order o ->po b.
func (a *analysis) between(o op, b pgas.Pos) []int {
	bi, ok := a.byPos[b]
	if !ok {
		return nil
	}
	var out []int
	for _, i := range a.after(o) {
		if i == bi || a.reach(a.stmts[i].exits)[a.stmts[bi].entry] {
			out = append(out, i)
		}
	}
	return out
}

// candidates lists every insertion of the vocabulary: for each
// asynchronous operation, turning it into get/put (if it has no handle)
// and a wait on its handle before each statement that can follow it; for
// each queue, a waitq before each statement that can follow an operation
// on it; for OpenSHMEM operations, their own fixes and a fence or quiet
// on their context before each statement that can follow them.
func (a *analysis) candidates() []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	add := func(c Candidate) {
		if k := c.key(); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	for _, o := range a.ops {
		for _, c := range o.fixes() {
			add(c)
		}
		for _, i := range a.after(o) {
			for _, c := range o.cutsBefore(a.stmts[i].pos) {
				add(c)
			}
		}
	}
	return out
}

func (a *analysis) opAt(pos pgas.Pos) (op, bool) {
	for _, o := range a.ops {
		if o.pos == pos {
			return o, true
		}
	}
	return op{}, false
}
