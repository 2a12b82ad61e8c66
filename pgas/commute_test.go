package pgas_test

import (
	"os"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestHappensBeforeCommuting takes the paper's violation of two unfenced
// adds (examples/commuting/two-adds.pgas: [A1] ->po [A2], popb(A2) ->cf
// popb(A1)) and checks that cf_c drops exactly that edge: no cf edge is
// left between the two popbs, and the class graph is acyclic. Under the
// paper's relation the same computation is violating.
func TestHappensBeforeCommuting(t *testing.T) {
	f := "../examples/commuting/two-adds.pgas"
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pgas.Compile(f, src)
	if err != nil {
		t.Fatal(err)
	}
	res := oracle.Explore(p, 2, oracle.Bounds{})
	if res.Violation == nil {
		t.Fatal("no violation under the paper's relation")
	}
	evs := res.Violation
	if !pgas.HappensBefore(evs).Violating() {
		t.Fatal("the oracle's violation is not violating")
	}
	h := pgas.HappensBeforeCommuting(p, evs)
	if h.Violating() {
		t.Errorf("violating under cf_c: %v", evs)
	}
	for _, e := range h.Edges {
		if e.Rel == pgas.RelCF && evs[e.From].Kind == pgas.KPopb && evs[e.To].Kind == pgas.KPopb {
			t.Errorf("cf_c edge between two adds: %v -> %v", evs[e.From], evs[e.To])
		}
	}
	if c := p.CommuteClass(evs[len(evs)-1]); evs[len(evs)-1].Kind == pgas.KPopb && c != 1 {
		t.Errorf("the class of an add's popb is %d, want 1", c)
	}
}

// TestCommuteClassSigns compiles one add per case on a signed window and
// checks its class against the sign of the operand argued by hand: the
// interval of the operand (registers in DOM, rank and N in 1..MaxRanks)
// decides ClassAddUp (never negative), ClassAddDown (never positive) or 0.
func TestCommuteClassSigns(t *testing.T) {
	cases := []struct {
		values, operand string
		want            int
	}{
		{"-3..4", "1", pgas.ClassAddUp},
		{"-3..4", "0", pgas.ClassAddUp},        // 0 is >= 0: either class would do
		{"-3..4", "(-2)", pgas.ClassAddDown},   // a negative constant
		{"-3..4", "rank", pgas.ClassAddUp},     // 1..MaxRanks
		{"-3..4", "rank - 1", pgas.ClassAddUp}, // C's shmem_my_pe(): 0..MaxRanks-1
		{"-3..4", "-rank", pgas.ClassAddDown},  // -MaxRanks..-1
		{"-3..4", "N - rank", 0},               // 1-16..16-1 (N and rank vary apart): either sign
		{"-3..4", "r", 0},                      // a register: -3..4
		{"-3..4", "r * r", 0},                  // -12..16: intervals do not see a square; a sound false alarm
		{"-3..4", "(r < 1) + 1", pgas.ClassAddUp},
		{"-3..4", "r % 2", 0},                  // the dividend's sign: either
		{"-3..4", "rank % 2", pgas.ClassAddUp}, // the dividend is >= 0
		{"-3..4", "(-rank) / 2", pgas.ClassAddDown},
		{"0..3", "r", pgas.ClassAddUp}, // Lo = 0: every value of DOM is >= 0
	}
	for _, c := range cases {
		src := "program p\nvalues " + c.values + "\naddress x\nregister r\ncontext c\n    amo_add(" + c.operand + ", 1, x, c)\n"
		p, err := pgas.Compile("p.pgas", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.operand, err)
		}
		got := -1
		for i, tr := range p.Trans {
			if tr.Cmd.Op == pgas.OpSend {
				got = p.CommuteClass(pgas.Event{Kind: pgas.KPopb, Trans: i})
			}
		}
		if got != c.want {
			t.Errorf("values %s, amo_add(%s): class %d, want %d", c.values, c.operand, got, c.want)
		}
	}
}
