package race

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// futureProg: rank 2 puts 1 into x on rank 1, gets z of rank 1 into its
// own y, and adds to w on the rank its register s names; rank 1 stores x.
const futureProg = `values 2
address x, y, z, w
register s
context c
if rank == 2 {
 putval(1, 1, x, c)
 getmem_nbi(y, 1, z, c)
 amo_add(1, s, w, c)
}
if rank == 1 {
 mem[x] <- 1
}
`

func futureMon(t *testing.T, n int) (*mon, *pgas.Program) {
	t.Helper()
	p, err := pgas.Compile("future.pgas", []byte(futureProg))
	if err != nil {
		t.Fatal(err)
	}
	return newMon(p, n), p
}

func cellOf(p *pgas.Program, rank int, name string) pgas.Cell {
	for a, s := range p.Addrs {
		if s == name {
			return pgas.Cell{Rank: rank, Addr: a}
		}
	}
	panic(name)
}

// TestRankMayRace: what an unmarked rank at its first control state can
// still do against e1, argued per case from futureProg's rank-2 code.
func TestRankMayRace(t *testing.T) {
	m, p := futureMon(t, 2)
	acc := func(rank int, name string, write, rma, atomic bool) access {
		return access{ok: true, cell: cellOf(p, rank, name), write: write, rma: rma, atomic: atomic}
	}
	for _, c := range []struct {
		why  string
		e1   access
		want bool
	}{
		{"a plain store to x@1 and the put's delivery to x@1", acc(1, "x", true, false, false), true},
		{"the put names rank 1, not rank 2", acc(2, "x", true, false, false), false},
		{"the get only reads z@1, and so does a plain load", acc(1, "z", false, false, false), false},
		{"the get's read of z@1 against a plain store", acc(1, "z", true, false, false), true},
		{"the get writes its own y@2: a plain load of it", acc(2, "y", false, false, false), true},
		{"the get writes rank 2's y, not rank 1's", acc(1, "y", false, false, false), false},
		{"an atomic on x@1 against the put's plain delivery", acc(1, "x", true, true, true), true},
		{"an atomic against the add: both atomic", acc(1, "w", true, true, true), false},
		{"a plain load of w on any rank: the add's target is a register", acc(1, "w", false, false, false), true},
	} {
		if got := m.rankMayRace(2, p.Init, c.e1); got != c.want {
			t.Errorf("%s: rankMayRace = %v, want %v", c.why, got, c.want)
		}
	}
	// rank 1 never enters "if rank == 2": its own code only stores x@1
	if m.rankMayRace(1, p.Init, acc(1, "x", true, true, false)) != true {
		t.Error("rank 1's store of x@1 against an RMA write of x@1: no conflict")
	}
	if m.rankMayRace(1, p.Init, acc(1, "z", true, false, false)) {
		t.Error("rank 1 reaches rank 2's get of z through a dead branch")
	}
}

// drive applies to s the first step of X for which pick says so (guess:
// as the first access of a race).
func drive(t *testing.T, m *mon, x *pgas.Machine, s *pstate, pick func(st pgas.Step) (ok, guess bool)) *pstate {
	t.Helper()
	steps, _ := x.Steps(s.x)
	for _, st := range steps {
		if ok, guess := pick(st); ok {
			ns, _ := m.after(s, st, guess)
			return ns
		}
	}
	t.Fatalf("no step to take in\n%v", s.x)
	return nil
}

// TestDonePendingDelivery: the race of rank 1's store of x@1 with the
// delivery of rank 2's put, issued before the store, is found only while
// the put is pending. Rank 2 has nothing left that touches x@1, and rank
// 1 is marked; only the pending pop keeps the state, and once the
// delivery is marked (here: it has happened) the state is done.
func TestDonePendingDelivery(t *testing.T) {
	m, p := futureMon(t, 2)
	x := pgas.NewMachine(p, 2)
	s := &pstate{x: x.Initial(), head: []int{-1, -1}}
	cmd := func(r int) func(st pgas.Step) (bool, bool) {
		return func(st pgas.Step) (bool, bool) { return st.Move.Kind == pgas.MoveCmd && st.Move.Rank == r, false }
	}
	// rank 2: its branch and the put (an item for x@1, unmarked)
	for range 2 {
		s = drive(t, m, x, s, cmd(2))
	}
	// rank 1: its branches, then the store of x@1, guessed
	for s.phase == 0 {
		s = drive(t, m, x, s, func(st pgas.Step) (bool, bool) {
			if st.Move.Kind != pgas.MoveCmd || st.Move.Rank != 1 {
				return false, false
			}
			e := st.Events[0]
			return true, e.Kind == pgas.KStore
		})
	}
	if s.phase != 1 || !s.rank[0] {
		t.Fatalf("the store was not guessed: %+v", s)
	}
	if !m.pendingMayRace(s) || m.done(s) {
		t.Fatal("the pending put to x@1 can still race with the store: state dropped")
	}
	// with the delivery marked (as a fence or quiet would make it),
	// nothing left can race with the store
	for i := range s.ci {
		for j := range s.ci[i] {
			own(s.ci, i)[j] = bitPopa | bitPopb
		}
	}
	if m.pendingMayRace(s) || !m.done(s) {
		t.Error("every pending pop marked, rank 2 has nothing left on x@1: state kept")
	}
}

// TestTemplatesUnknownOp: a command future.go does not know (one added to
// pgas later) may access any cell in any way: the stopping rule must not
// drop a state because of it.
func TestTemplatesUnknownOp(t *testing.T) {
	p := &pgas.Program{Trans: []pgas.Trans{{Cmd: pgas.Cmd{Op: pgas.OpAtomic + 1}}}}
	m := &mon{p: p, n: 2}
	e1 := access{ok: true, cell: pgas.Cell{Rank: 2, Addr: 3}, atomic: true}
	tp := templates(p, 0)
	if len(tp) != 1 || !m.mayConflict(e1, tp[0], 1) {
		t.Fatalf("unknown command: templates %+v, no conflict with an atomic read of a cell on another rank", tp)
	}
}
