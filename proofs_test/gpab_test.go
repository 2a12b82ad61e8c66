package proofs_test

import (
	"fmt"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
)

// Deviation 8: normalform.Y replaces the ε-rules gpa'/gpb' of Table 2 by
// choosing the parts (m, n) of a remote command's popa and popb when the
// command executes. The literal rules keep counters pa(r,q) ≤ pb(r,q) that
// only grow: gpa' raises pa while pa < pb, gpb' raises pb while pb < 4, and
// write'/read' use the current values. From counters (pa, pb) the ε-moves
// reach exactly the pairs pa ≤ m ≤ n ≤ 4 with pb ≤ n (raise pb to n first,
// then pa to m), and the command leaves the counters at (m, n).
//
// So the literal Y, run alongside, offers at every state exactly the set
// {(m, n) : pa ≤ m ≤ n ≤ 4, pb ≤ n} for each remote command, with (pa, pb)
// the last pair chosen on the same (rank, queue), (1, 1) at first. This
// test walks every path of Y on tiny programs and compares the offered set
// with that one, command by command: equal offers at every state give
// equal languages. (Y forgets the counters of a queue that is never used
// again, normalform/live.go; such a queue has no command left to compare.)
func TestExecutionTimeChoiceIsGpab(t *testing.T) {
	total := count(200)
	compared := 0
	for seed := uint64(1); seed <= uint64(total); seed++ {
		g, p, n := program(t, seed, tiny)
		n = 2
		y, err := normalform.New(p, n)
		if err != nil {
			t.Fatal(err)
		}
		y.AllParts = true // the paper's Y: every part the counters allow

		type counters map[[2]int][2]int // (rank, queue) -> (pa, pb)
		seen := map[string]bool{}
		var rec func(s automata.State, c counters, depth int) string
		rec = func(s automata.State, c counters, depth int) string {
			k := fmt.Sprint(s, c)
			if depth > 12 || seen[k] {
				return ""
			}
			seen[k] = true
			moves, _ := y.Moves(s)
			offered := map[string]map[[2]int]bool{}
			for i := range moves {
				mv := &moves[i]
				if len(mv.Events) != 3 || !mv.Events[1].Event.Kind.IsPop() {
					continue
				}
				k := fmt.Sprint(mv.Rank, mv.Trans)
				if offered[k] == nil {
					offered[k] = map[[2]int]bool{}
				}
				offered[k][[2]int{mv.Events[1].Head, mv.Events[2].Head}] = true
			}
			for i := range moves {
				mv := &moves[i]
				if len(mv.Events) != 3 || !mv.Events[1].Event.Kind.IsPop() {
					continue
				}
				q := [2]int{mv.Rank, mv.Events[0].Event.Queue}
				pa, pb := 1, 1
				if v, ok := c[q]; ok {
					pa, pb = v[0], v[1]
				}
				want := map[[2]int]bool{}
				for m := pa; m <= normalform.Heads; m++ {
					for nn := max(m, pb); nn <= normalform.Heads; nn++ {
						want[[2]int{m, nn}] = true
					}
				}
				got := offered[fmt.Sprint(mv.Rank, mv.Trans)]
				if fmt.Sprint(sortedPairs(got)) != fmt.Sprint(sortedPairs(want)) {
					return fmt.Sprintf("rank %d, %s: Y offers parts %v, literal gpa'/gpb' from (pa, pb) = (%d, %d) offer %v",
						mv.Rank, p.Describe(mv.Events[0].Event), sortedPairs(got), pa, pb, sortedPairs(want))
				}
				compared++
			}
			for i := range moves {
				mv := &moves[i]
				c2 := counters{}
				for k, v := range c {
					c2[k] = v
				}
				if len(mv.Events) == 3 && mv.Events[1].Event.Kind.IsPop() {
					c2[[2]int{mv.Rank, mv.Events[0].Event.Queue}] = [2]int{mv.Events[1].Head, mv.Events[2].Head}
				}
				if msg := rec(mv.Target, c2, depth+1); msg != "" {
					return msg
				}
			}
			return ""
		}
		s0 := make(automata.State, y.Words())
		y.Initial(s0)
		if msg := rec(s0, counters{}, 0); msg != "" {
			t.Fatalf("seed %d, N=%d: %s\n%s", seed, n, msg, g)
		}
	}
	if compared == 0 {
		t.Fatal("no remote command compared")
	}
	t.Logf("%d offers compared", compared)
}

func sortedPairs(m map[[2]int]bool) [][2]int {
	var out [][2]int
	for a := 1; a <= normalform.Heads; a++ {
		for b := 1; b <= normalform.Heads; b++ {
			if m[[2]int{a, b}] {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}
