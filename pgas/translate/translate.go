package translate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// Role says which part of a PGAS command a framework instruction stands for.
type Role uint8

const (
	RoleCommand       Role = iota // the command itself: load, store, assignment, assume
	RoleGuard                     // a range check: the PGAS command cannot execute out of range
	RoleStoreFence                // sfence after a local store that other ranks can see
	RoleSource                    // load of a remote operation's source (its popa)
	RoleQueueFence                // address-list fence keeping one queue's stores in order
	RoleDest                      // buffered store of a remote operation's destination (its popb)
	RoleWait                      // sfence standing for a wait (handle, get, put, waitq)
	RoleHidden                    // a hidden event of a wait, dropped (noop)
	RoleBarrierCount              // the rank's barrier generation, a local step
	RoleBarrierArrive             // store of the rank's arrival flag
	RoleBarrierPoll               // load of another rank's arrival flag
	RoleBarrierCheck              // check that it has arrived
)

var roleNames = [...]string{"command", "range check", "store fence", "source (popa)", "queue fence",
	"destination (popb)", "wait", "hidden", "barrier count", "barrier arrival", "barrier poll", "barrier check"}

func (r Role) String() string { return roleNames[r] }

// Origin links one transition of the translated program to the PGAS
// transition it comes from.
type Origin struct {
	Trans int // index into pgas.Program.Trans
	Role  Role
}

// Result is a translated program.
type Result struct {
	Text []byte // Trencher text format with the store-atomic fences
	N    int
	// Origins[r-1][i] is where transition i of thread r comes from, in the
	// order package tso numbers a thread's transitions (file order).
	Origins [][]Origin
	// Fences reports whether an address-list fence was needed; the
	// framework's locality attacker is then required.
	Fences bool
}

// Global is the framework address of cell (rank, addr).
func Global(p *pgas.Program, rank, addr int) int { return (rank-1)*len(p.Addrs) + addr }

// Hidden register names start with '$', which no .pgas name can contain.
const (
	regVal  = "$v" // the value a remote operation carries
	regGen  = "$k" // barrier generation: 1, 2, 1, 2, ... (0 before the first)
	regPoll = "$b" // a polled arrival flag
)

// Translate compiles (p, n). It fails on expressions the framework's
// operators cannot express (division or remainder of a register) and on
// the OpenSHMEM commands (docs/shmem-calculus.md), which the rules of
// docs/translate.md do not cover.
func Translate(p *pgas.Program, n int) (*Result, error) {
	if err := refuseShmem(p); err != nil {
		return nil, err
	}
	if err := refuseWide(p); err != nil {
		return nil, err
	}
	if err := refuseSubsetBarrier(p, n); err != nil {
		return nil, err
	}
	t := &translator{p: p, n: n, res: &Result{N: n, Origins: make([][]Origin, n)}}
	t.analyse()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s translated for N = %d by pgasrob translate (docs/translate.md)\n", nameOf(p), n)
	fmt.Fprintf(&b, "# cell (k, a) is address (k-1)*%d + a", len(p.Addrs))
	if t.barrier {
		fmt.Fprintf(&b, "; the release flag is address %d, the arrival flag of rank k > 1 is address %d + k-1", t.barBase(), t.barBase())
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "memory_size %d\n", t.memSize())
	for r := 1; r <= n; r++ {
		b.WriteString("\n")
		if err := t.thread(&b, r); err != nil {
			return nil, err
		}
	}
	t.res.Text = []byte(b.String())
	return t.res, nil
}

// refuseShmem names the first OpenSHMEM command of p. A user's await
// (r <- mem[a] when g) counts: the rules translate a guarded load as the
// wait of a handle, whose shadow the framework cannot see.
func refuseShmem(p *pgas.Program) error {
	for _, tr := range p.Trans {
		c := tr.Cmd
		name := tr.Sugar
		switch {
		case c.Op.IsCtxOp():
			if name == "" {
				name = c.Op.String()
			}
		case c.Op == pgas.OpLoad && c.Guard != nil && tr.Sugar == "":
			name = "await"
		default:
			continue
		}
		return fmt.Errorf("the instrumentation route does not take OpenSHMEM commands: %s at %v", name, tr.Pos)
	}
	return nil
}

// refuseSubsetBarrier names the first barrier over part of the ranks: the
// central barrier of barrierCode synchronises every rank, and no flag
// scheme for a set is argued in docs/translate.md.
func refuseSubsetBarrier(p *pgas.Program, n int) error {
	bs := p.BarrierSets(n)
	for t, tr := range p.Trans {
		if tr.Cmd.Op == pgas.OpBarrier && (bs.Err[t] != nil || bs.Mask[t] != pgas.AllRanks(n)) {
			return fmt.Errorf("the instrumentation route does not take a barrier over part of the ranks: %s at %v (decide it with --via exact)", tr.Text, tr.Pos)
		}
	}
	return nil
}

// refuseWide names a value the framework's 32-bit constants cannot hold:
// the ends of the domain (the translation's range guards compare with
// them) or a constant of an expression.
func refuseWide(p *pgas.Program) error {
	fits := func(v int64) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }
	if !fits(p.Lo) || !fits(p.Hi()) {
		return fmt.Errorf("the instrumentation route takes 32-bit values only: the domain is %d..%d", p.Lo, p.Hi())
	}
	for _, tr := range p.Trans {
		c := tr.Cmd
		for _, e := range []*pgas.Expr{c.Addr, c.Val, c.Guard, c.Local, c.Rank, c.Remote, c.Queue, c.Val2} {
			if e == nil {
				continue
			}
			for _, in := range e.Code {
				if in.Op == pgas.XConst && !fits(in.Arg) {
					return fmt.Errorf("the instrumentation route takes 32-bit values only: constant %d at %v", in.Arg, e.Pos)
				}
			}
		}
	}
	return nil
}

func nameOf(p *pgas.Program) string {
	if p.Name != "" {
		return p.Name
	}
	return p.File
}

type translator struct {
	p   *pgas.Program
	n   int
	res *Result
	// seen[a] is true when some remote operation may access address a of
	// some rank: a local store to it must be visible at once (sfence).
	seen    []bool
	barrier bool
	// nonzero collects divisors the command being translated must not
	// find 0 (a run-time error in PGAS: the command cannot execute).
	nonzero []string
}

func (t *translator) barBase() int { return t.n * len(t.p.Addrs) }

func (t *translator) memSize() int {
	m := t.barBase()
	if t.barrier {
		m += t.n
	}
	if m == 0 {
		m = 1
	}
	return m
}

// analyse finds the addresses remote operations may reach and whether
// barriers occur.
func (t *translator) analyse() {
	t.seen = make([]bool, len(t.p.Addrs))
	for i := range t.p.Trans {
		c := &t.p.Trans[i].Cmd
		switch {
		case c.Op == pgas.OpBarrier:
			t.barrier = true
		case t.isOp(c):
			for r := 1; r <= t.n; r++ {
				for _, a := range t.values(c.Remote, r, len(t.p.Addrs)) {
					t.seen[a] = true
				}
			}
		}
	}
}

// isOp reports a user's remote operation (not the shadow read of a wait).
func (t *translator) isOp(c *pgas.Cmd) bool {
	if c.Op != pgas.OpRead && c.Op != pgas.OpWrite {
		return false
	}
	return !t.shadowOnly(c.Local)
}

// shadowOnly reports whether e is a constant naming a hidden address.
func (t *translator) shadowOnly(e *pgas.Expr) bool {
	v, ok := e.Const()
	return ok && v >= 0 && int(v) < len(t.p.Shadow) && t.p.Shadow[v]
}

// values lists the values e may take on rank r within 0..limit-1 (all of
// them when e reads a register).
func (t *translator) values(e *pgas.Expr, r, limit int) []int {
	if v, err := e.Eval(pgas.Env{Rank: int64(r), N: int64(t.n), Regs: make([]int64, len(t.p.Regs))}); err == nil && !readsReg(e) {
		if v >= 0 && v < int64(limit) {
			return []int{int(v)}
		}
		return nil
	}
	all := make([]int, limit)
	for i := range all {
		all[i] = i
	}
	return all
}

func readsReg(e *pgas.Expr) bool { return len(e.Regs()) > 0 }

// dests lists the global addresses the operations of rank r on queue q may
// write.
func (t *translator) dests(r, q int) []int {
	set := map[int]bool{}
	A := len(t.p.Addrs)
	for i := range t.p.Trans {
		c := &t.p.Trans[i].Cmd
		if !t.isOp(c) || !contains(t.values(c.Queue, r, len(t.p.Queues)), q) {
			continue
		}
		if c.Op == pgas.OpRead {
			for _, l := range t.values(c.Local, r, A) {
				set[Global(t.p, r, l)] = true
			}
			continue
		}
		for _, k := range t.values(c.Rank, r, t.n+1) {
			if k == 0 {
				continue
			}
			for _, m := range t.values(c.Remote, r, A) {
				set[Global(t.p, k, m)] = true
			}
		}
	}
	out := make([]int, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	sort.Ints(out)
	return out
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
