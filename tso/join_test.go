package tso

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestWorkersJoinAnyTime: Check starts on one goroutine and its other
// workers join after helpDelay. Whether they join at once, midway or
// never, every corpus file and random program gets the same verdict, the
// same first feasible attack and the same witness (without All, later
// attacks are cut off only once an earlier one is feasible, whoever
// searched it), and with All the same outcome for every attack.
func TestWorkersJoinAnyTime(t *testing.T) {
	defer func(d time.Duration) { helpDelay = d }(helpDelay)
	dir := corpusDir(t)
	var progs []*prog.Program
	for _, e := range readExpected(t, dir) {
		progs = append(progs, loadCorpus(t, dir, e.file))
	}
	// Every thread of the unfenced ring has feasible attacks, of similar
	// cost: workers that start together race to them.
	for n := 4; n <= 7; n++ {
		p, err := prog.ParseProgram(fmt.Sprintf("uring-%d", n), []byte(gen.UnfencedRing(n)))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	for i := 0; i < 40; i++ {
		src := gen.Generate(rand.New(rand.NewPCG(uint64(i), 2027)), gen.Config{Threads: 2 + i%3, Fences: i%4 == 0})
		p, err := prog.ParseProgram(fmt.Sprintf("random-%d", i), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	for _, all := range []bool{false, true} {
		for _, p := range progs {
			var first *Result
			for _, d := range []time.Duration{time.Hour, 0, 50 * time.Microsecond} {
				helpDelay = d
				// Breadth-first searches of the ring's attacks are slower
				// than depth-first ones: a wider window for the race.
				r := check(p, prog.TSO, Options{Jobs: 3, All: all, MaxStates: 200_000, BreadthFirst: len(p.Threads) > 3})
				if first == nil {
					first = r
					continue
				}
				if r.Verdict != first.Verdict || r.Found != first.Found && all {
					t.Fatalf("%s all=%v delay %v: %v (%d feasible), alone %v (%d)", p.File, all, d, r.Verdict, r.Found, first.Verdict, first.Found)
				}
				if (r.Witness == nil) != (first.Witness == nil) || r.Witness != nil && !reflect.DeepEqual(r.Witness.Steps, first.Witness.Steps) {
					t.Fatalf("%s all=%v delay %v: the witness differs from the one-goroutine check's", p.File, all, d)
				}
				for i := range r.Attacks {
					a, b := r.Attacks[i], first.Attacks[i]
					if all && a.Outcome != b.Outcome {
						t.Fatalf("%s delay %v attack %d: %v, alone %v", p.File, d, i, a.Outcome, b.Outcome)
					}
				}
			}
		}
	}
}
