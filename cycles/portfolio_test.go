package cycles_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"pgasrob/cycles"
	"pgasrob/pgas"
	"pgasrob/pgas/gen"
)

// The three procedures give the same verdict wherever they answer: the
// cycle-type search, the oracle alone, and the portfolio with the oracle
// started at once (so that either may win). A NOT ROBUST from the oracle
// carries a certified direct witness.
func TestProceduresAgree(t *testing.T) {
	progs := loadExamples(t)
	r := rand.New(rand.NewPCG(31, 41))
	examples := len(progs)
	for i := 0; i < 100; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4})
		p, err := pgas.Compile("rand", []byte(gp.String()))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	oracleAnswers := 0
	for k, p := range progs {
		for _, n := range []int{2, 3} {
			if n == 3 && (k < examples || len(p.Trans) > 10) {
				continue
			}
			base := cycles.Options{MaxStates: 300_000, Jobs: 1}
			a, err := cycles.Decide(p, n, base)
			if err != nil {
				t.Fatal(err)
			}
			for _, proc := range []cycles.Procedure{cycles.Oracle, cycles.Auto} {
				opt := base
				opt.Procedure, opt.OracleDelay = proc, time.Nanosecond
				b, err := cycles.Decide(p, n, opt)
				if err != nil {
					t.Fatalf("%s N = %d %v: %v", p.Name, n, proc, err)
				}
				if a.Verdict == cycles.Unknown || b.Verdict == cycles.Unknown {
					continue
				}
				if a.Verdict != b.Verdict {
					t.Fatalf("%s N = %d: automata %v, %v %v (%s)", p.File, n, a.Verdict, proc, b.Verdict, b.Procedure)
				}
				if b.Procedure == "oracle" {
					oracleAnswers++
					if b.Verdict == cycles.NotRobust && (b.Witness == nil || !b.Witness.Direct || len(b.Witness.HB) == 0) {
						t.Fatalf("%s N = %d: oracle NOT ROBUST without a certified direct witness", p.File, n)
					}
				}
			}
		}
	}
	if oracleAnswers < 50 {
		t.Fatalf("only %d answers from the oracle", oracleAnswers)
	}
}
