package oracle

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// TestCommSummaryAgainstDefinition walks random computations of programs
// full of commuting atomics and checks, after every move, that the cf_c
// summary reports a cycle exactly when pgas.HappensBeforeCommuting of the
// prefix is violating. Unlike a comparison of verdicts, this sees a
// missing edge that another computation would make up for.
func TestCommSummaryAgainstDefinition(t *testing.T) {
	walks, cyclic := 0, 0
	for i := 0; i < 400; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 43))
		cfg := gen.Config{Addrs: 2, Values: []int{2, 4}[r.IntN(2)], Regs: 1, Queues: 1, Cmds: 3 + r.IntN(4), Shmem: true, Atomics: true}
		if i%3 == 0 { // a signed window: adds of both signs (entry 14)
			cfg.Wide, cfg.Window = true, [2]int64{-3, 2}
		}
		p, err := pgas.Compile("comm.pgas", []byte(gen.Generate(r, cfg).String()))
		if err != nil {
			t.Fatal(err)
		}
		n := 2 + r.IntN(2)
		m := pgas.NewMachine(p, n)
		for w := 0; w < 20; w++ {
			walks++
			x, sum := m.Initial(), newCommSummary(p, n)
			var evs []pgas.Event
			for step := 0; step < 40; step++ {
				steps, _ := m.Steps(x)
				if len(steps) == 0 {
					break
				}
				st := steps[r.IntN(len(steps))]
				s2, cyc := sum.apply(x, st.Move, st.Events)
				evs = append(evs, st.Events...)
				if want := pgas.HappensBeforeCommuting(p, evs).Violating(); cyc != want {
					t.Fatalf("program %d: after %v the summary says cyclic %v, the definition %v\n%v", i, evs, cyc, want, p)
				}
				if cyc {
					cyclic++
					break
				}
				x, sum = st.Next, s2
			}
		}
	}
	t.Logf("%d walks, %d ended in a cycle", walks, cyclic)
	if cyclic == 0 {
		t.Errorf("no walk met a cycle")
	}
}

// TestCommuteClassAgreesWithProgram compares the oracle's class function
// with pgas.Program.CommuteClass, which it shares no code with, on every
// send of random programs full of commuting atomics, signed windows
// included: the two readings of entry 14 must define one relation.
func TestCommuteClassAgreesWithProgram(t *testing.T) {
	counts := map[int]int{}
	for i := 0; i < 600; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 47))
		cfg := gen.Config{Addrs: 2, Values: []int{2, 3, 4}[r.IntN(3)], Regs: 2, Queues: 1, Cmds: 6, Shmem: true, Atomics: true, Wide: i%2 == 0}
		p, err := pgas.Compile("comm.pgas", []byte(gen.Generate(r, cfg).String()))
		if err != nil {
			t.Fatal(err)
		}
		cls := commuteClass(p)
		for tr := range p.Trans {
			e := pgas.Event{Kind: pgas.KPopb, Trans: tr}
			mine, theirs := cls(e), p.CommuteClass(e)
			want := map[int]int{0: 0, 10: pgas.ClassAddUp, 11: pgas.ClassAnd, 12: pgas.ClassOr, 13: pgas.ClassXor, 14: pgas.ClassAddDown}[mine]
			if want != theirs {
				t.Fatalf("program %d, %s: oracle class %d, procedure %d\n%v", i, p.CmdString(p.Trans[tr].Cmd), mine, theirs, p)
			}
			counts[theirs]++
		}
	}
	t.Logf("transitions by class: %v", counts)
	if counts[pgas.ClassAddUp] == 0 || counts[pgas.ClassAddDown] == 0 || counts[0] == 0 {
		t.Errorf("a class is missing from the sample: %v", counts)
	}
}
