package petri

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
)

func mk(pairs ...int32) Marking {
	var m Marking
	for i := 0; i < len(pairs); i += 2 {
		m = append(m, PlaceCount{pairs[i], pairs[i+1]})
	}
	return m
}

// mutex is a net of any number of processes (place 0: idle, Omega) around
// a lock (place 2, one token): take moves idle+lock to critical (place 1),
// release moves it back. Two processes are never critical at once, one is.
func mutexNet() *Net {
	return &Net{Places: 3, Initial: []int32{Omega, 0, 1}, Trans: []Transition{
		{Pre: mk(0, 1, 2, 1), Post: mk(1, 1)},
		{Pre: mk(1, 1), Post: mk(0, 1, 2, 1)},
	}}
}

func TestCoverableMutex(t *testing.T) {
	n := mutexNet()
	if r := Coverable(n, []Marking{mk(1, 2)}, automata.Options{}); r.Outcome != automata.Empty {
		t.Fatalf("two critical processes: %v (%s), want empty", r.Outcome, r.Reason)
	}
	r := Coverable(n, []Marking{mk(1, 1)}, automata.Options{})
	if r.Outcome != automata.NonEmpty || len(r.Run) != 1 || r.Start[0] != 1 || r.Start[2] != 1 {
		t.Fatalf("one critical process: %+v, want a run of one take from one idle process", r)
	}
	// The empty target is covered by every marking.
	if r := Coverable(n, []Marking{nil}, automata.Options{}); r.Outcome != automata.NonEmpty || len(r.Run) != 0 {
		t.Fatalf("empty target: %+v", r)
	}
}

// A counter that needs k processes: each process adds one token to place
// 1 and stops (place 2); the target asks for k tokens on place 1, so the
// run starts from k idle processes.
func TestCoverableCountsProcesses(t *testing.T) {
	n := &Net{Places: 3, Initial: []int32{Omega, 0, 0}, Trans: []Transition{{Pre: mk(0, 1), Post: mk(1, 1, 2, 1)}}}
	r := Coverable(n, []Marking{mk(1, 4)}, automata.Options{})
	if r.Outcome != automata.NonEmpty || r.Start[0] != 4 || len(r.Run) != 4 {
		t.Fatalf("got %+v, want a run of 4 steps from 4 processes", r)
	}
	// With a bound of 3 tokens on place 1 the target is impossible.
	n.Bounds = []PlaceBound{{Places: []int32{1}, Max: 3}}
	if r := Coverable(n, []Marking{mk(1, 4)}, automata.Options{}); r.Outcome != automata.Empty {
		t.Fatalf("bounded: %v", r.Outcome)
	}
}

func TestCoverableBudgets(t *testing.T) {
	// Doubling: each step consumes one token on place 1 and produces two
	// on place 2 ... the backward search needs many markings for large
	// targets, so a budget of 2 stops it.
	n := &Net{Places: 3, Initial: []int32{1, 0, 0}, Trans: []Transition{
		{Pre: mk(0, 1), Post: mk(0, 1, 1, 1)},
		{Pre: mk(1, 2), Post: mk(2, 1)},
	}}
	r := Coverable(n, []Marking{mk(2, 50)}, automata.Options{Budget: automata.Budget{MaxStates: 2}})
	if r.Outcome != automata.Unknown || r.Reason == "" {
		t.Fatalf("state budget: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := Coverable(n, []Marking{mk(2, 50)}, automata.Options{Context: ctx}); r.Outcome != automata.Unknown || r.Reason != "interrupted" {
		t.Fatalf("cancelled: %v %q", r.Outcome, r.Reason)
	}
	if r := Coverable(n, []Marking{mk(2, 50)}, automata.Options{}); r.Outcome != automata.NonEmpty {
		t.Fatalf("unbounded: %v %q", r.Outcome, r.Reason)
	}
}

// bruteCover is the oracle: breadth-first search over the markings
// reachable from start, stopping at capTokens tokens per place (an
// under-approximation when the net is not bounded by it).
func bruteCover(n *Net, start []int32, targets []Marking, capTokens int32) bool {
	key := func(m []int32) string {
		return string(func() []byte {
			b := make([]byte, len(m))
			for i, c := range m {
				b[i] = byte(c)
			}
			return b
		}())
	}
	covers := func(m []int32) bool {
		for _, t := range targets {
			if t.Leq(MarkingOf(m)) {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{key(start): true}
	queue := [][]int32{start}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if covers(m) {
			return true
		}
	next:
		for _, t := range n.Trans {
			o := slices.Clone(m)
			for _, pc := range t.Pre {
				if o[pc.Place] < pc.Count {
					continue next
				}
				o[pc.Place] -= pc.Count
			}
			for _, pc := range t.Post {
				o[pc.Place] += pc.Count
				if o[pc.Place] > capTokens {
					continue next
				}
			}
			if k := key(o); !seen[k] {
				seen[k] = true
				queue = append(queue, o)
			}
		}
	}
	return false
}

func randomMarking(r *rand.Rand, places, maxTok int) Marking {
	d := make([]int32, places)
	for k := r.IntN(3); k >= 0; k-- {
		d[r.IntN(places)] += int32(1 + r.IntN(maxTok))
	}
	return MarkingOf(d)
}

// TestCoverableRandom compares the backward search with the forward
// oracle on random small nets: every run it reports must be a real one
// (checked by the oracle from its start marking), and when it says
// "empty" the oracle finds nothing from any start with up to 3 tokens on
// each Omega place.
func TestCoverableRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	agreeCov, agreeEmpty := 0, 0
	for iter := 0; iter < 400; iter++ {
		places := 2 + r.IntN(4)
		n := &Net{Places: places, Initial: make([]int32, places)}
		for p := range n.Initial {
			switch r.IntN(4) {
			case 0:
				n.Initial[p] = Omega
			case 1:
				n.Initial[p] = 1
			}
		}
		for k := 1 + r.IntN(5); k > 0; k-- {
			n.Trans = append(n.Trans, Transition{Pre: randomMarking(r, places, 2), Post: randomMarking(r, places, 2)})
		}
		targets := []Marking{randomMarking(r, places, 3)}
		res := Coverable(n, targets, automata.Options{Budget: automata.Budget{MaxStates: 20000}})
		switch res.Outcome {
		case automata.NonEmpty:
			if !bruteCover(n, res.Start, targets, 64) {
				t.Fatalf("net %+v target %v: run %v from %v is not confirmed", n, targets, res.Run, res.Start)
			}
			agreeCov++
		case automata.Empty:
			omegas := []int{}
			for p, c := range n.Initial {
				if c == Omega {
					omegas = append(omegas, p)
				}
			}
			for k := 0; k < 1<<(2*len(omegas)); k++ {
				st := slices.Clone(n.Initial)
				for i, p := range omegas {
					st[p] = int32(k >> (2 * i) & 3)
				}
				if bruteCover(n, st, targets, 8) {
					t.Fatalf("net %+v target %v: oracle covers from %v, search says empty", n, targets, st)
				}
			}
			agreeEmpty++
		}
	}
	if agreeCov < 40 || agreeEmpty < 40 {
		t.Errorf("too few decided cases: %d coverable, %d empty", agreeCov, agreeEmpty)
	}
}
