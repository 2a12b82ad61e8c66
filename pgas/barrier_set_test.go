package pgas

import (
	"strings"
	"testing"
)

const subsetSrc = `values 2
address x
register r
queue q
    if rank <= 2 {
        barrier {1, 2}
    }
    if rank >= 3 {
        barrier {3..N}
    }
    barrier
`

// A barrier's set is evaluated per N: ranks and ranges, duplicates
// merged; without a set it is every rank; out of range is a RangeError.
func TestBarrierSet(t *testing.T) {
	p, err := Compile("s.pgas", []byte("values 2\nregister r\n    barrier {1, N, 2..N - 1, 1}\n    barrier\n    barrier {N + 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var bars []*Cmd
	for i := range p.Trans {
		if p.Trans[i].Cmd.Op == OpBarrier {
			bars = append(bars, &p.Trans[i].Cmd)
		}
	}
	// at N = 2 the range 2..1 is empty; at N = 1 its first end, 2, is
	// no rank
	if _, err := p.BarrierSet(bars[0], 1); err == nil || !strings.Contains(err.Error(), "rank 2 outside 1..1") {
		t.Errorf("N=1: %v", err)
	}
	for n, want := range map[int]RankMask{2: 3, 4: 15} {
		if got, err := p.BarrierSet(bars[0], n); err != nil || got != want {
			t.Errorf("N=%d: set %v %v, want %v", n, got, err, want)
		}
		if got, _ := p.BarrierSet(bars[1], n); got != AllRanks(n) {
			t.Errorf("N=%d: a barrier without a set is %v", n, got)
		}
	}
	if _, err := p.BarrierSet(bars[2], 3); err == nil || !strings.Contains(err.Error(), "rank 4 outside 1..3") {
		t.Errorf("{N + 1}: got %v", err)
	}
	if got := p.CmdString(*bars[0]); got != "barrier {1, N, 2..N - 1, 1}" {
		t.Errorf("CmdString: %q", got)
	}
	if err := CheckN(p, 2); err == nil || !strings.Contains(err.Error(), "5:14: N + 1: rank 3 outside 1..2 for N = 2") {
		t.Errorf("CheckN: %v", err)
	}
}

// Every member moves together and the others stay; the two sets give two
// moves when both are enabled; the bar events carry the set (BarItem),
// and Replay accepts exactly the members' events in rank order.
func TestSubsetBarrierMoves(t *testing.T) {
	p, err := Compile("s.pgas", []byte(subsetSrc))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(p, 4)
	s := m.Initial()
	var events []Event
	// the ifs' assumes first: for each rank, the one that holds
	for moved := true; moved; {
		moved = false
		for _, st := range mustSteps(t, m, s) {
			if st.Move.Kind == MoveCmd {
				s, events, moved = st.Next, append(events, st.Events...), true
				break
			}
		}
	}
	var bars []Step
	for _, st := range mustSteps(t, m, s) {
		if st.Move.Kind == MoveBarrier {
			bars = append(bars, st)
		}
	}
	if len(bars) != 2 {
		t.Fatalf("want the barriers over {1, 2} and {3, 4}, got %d moves", len(bars))
	}
	if got := bars[0].Move.Bar; got[0] < 0 || got[1] < 0 || got[2] != -1 || got[3] != -1 {
		t.Errorf("first barrier %v, want ranks 1 and 2 only", got)
	}
	for i, b := range bars {
		want := []RankMask{3, 12}[i]
		if len(b.Events) != 2 || b.Events[0].Item != int(want) || BarMask(b.Events[1].Item, 4) != want {
			t.Errorf("barrier %d: events %v, want two bar events over %v", i, b.Events, want)
		}
	}
	good := append(append([]Event(nil), events...), bars[1].Events...)
	if _, err := ReplayPrefix(p, 4, good); err != nil {
		t.Errorf("replay of the barrier over {3, 4}: %v", err)
	}
	swapped := append(append([]Event(nil), events...), bars[1].Events[1], bars[1].Events[0])
	if _, err := ReplayPrefix(p, 4, swapped); err == nil || !strings.Contains(err.Error(), "must start with the event of rank 3") {
		t.Errorf("replay of the barrier's events out of order: %v", err)
	}
	cut := append(append([]Event(nil), events...), bars[0].Events[0])
	if _, err := ReplayPrefix(p, 4, cut); err == nil || !strings.Contains(err.Error(), "cut off") {
		t.Errorf("replay of half a barrier: %v", err)
	}
	mixed := append(append([]Event(nil), events...), bars[0].Events[0], bars[1].Events[1])
	if _, err := ReplayPrefix(p, 4, mixed); err == nil {
		t.Errorf("replay of events of two barriers as one: accepted")
	}
}

func mustSteps(t *testing.T, m *Machine, s *XState) []Step {
	t.Helper()
	steps, errs := m.Steps(s)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	return steps
}

// A rank that reaches a barrier over a set without it cannot take it:
// a run-time error of the program at the barrier.
func TestSubsetBarrierNotMember(t *testing.T) {
	p, err := Compile("s.pgas", []byte("values 2\n    barrier {1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(p, 2)
	steps, errs := m.Steps(m.Initial())
	if len(steps) != 1 || steps[0].Move.Kind != MoveBarrier || len(steps[0].Events) != 1 || len(errs) != 1 || errs[0].Rank != 2 {
		t.Fatalf("steps %v, errors %v: want rank 1's barrier alone and rank 2's error", steps, errs)
	}
	re := errs[0].Range()
	if re == nil || re.What != "barrier" || !strings.Contains(re.Error(), "2:5: rank 2 takes a barrier over {1} (of 1..2)") {
		t.Errorf("error %v", errs[0])
	}
}

// ↔ joins the k-th barrier over one set of each of its members, and
// nothing else: two barriers over disjoint sets are two classes, and a
// barrier over every rank is a third.
func TestSubsetBarrierClasses(t *testing.T) {
	bar := func(r int, set RankMask) Event { return Event{Kind: KBar, Rank: r, Queue: -1, Item: BarItem(set, 4)} }
	evs := []Event{bar(1, 3), bar(2, 3), bar(3, 12), bar(4, 12), bar(1, 3), bar(2, 3),
		bar(1, 15), bar(2, 15), bar(3, 15), bar(4, 15)}
	h := HappensBefore(evs)
	want := []int{0, 0, 1, 1, 2, 2, 3, 3, 3, 3}
	for i, c := range h.Class {
		if c != want[i] {
			t.Fatalf("classes %v, want %v", h.Class, want)
		}
	}
}

// The checker refuses a set that depends on the rank or on registers, or
// reads memory, at the item.
func TestSubsetBarrierCheck(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"values 2\n    barrier {rank}\n", "2:14: a barrier's set may use constants and N only, not rank"},
		{"values 2\nregister r\n    barrier {1..r}\n", "3:17: a barrier's set may use constants and N only, not a register"},
		{"values 2\naddress x\n    barrier {mem[x]}\n", "3:14: mem[...] is not allowed in a barrier's set"},
		{"values 2\n    barrier {}\n", "2:13: a barrier's set names at least one rank"},
	} {
		_, err := Compile("s.pgas", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want …%s…", c.src, err, c.want)
		}
	}
}

// A set that is empty for this N (a range whose last end is below its
// first) has no member: every rank that reaches it meets the error.
func TestSubsetBarrierEmpty(t *testing.T) {
	p, err := Compile("s.pgas", []byte("values 2\n    barrier {2..1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(p, 2)
	steps, errs := m.Steps(m.Initial())
	if len(steps) != 0 || len(errs) != 2 {
		t.Fatalf("steps %v, errors %v: want both ranks' errors", steps, errs)
	}
	if got := errs[0].Error(); !strings.Contains(got, "rank 1 takes a barrier over no rank (its set is empty for N = 2)") {
		t.Errorf("error %q", got)
	}
}
