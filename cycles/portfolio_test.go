package cycles

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas/gen"
)

// The three procedures give the same verdict wherever they answer: the
// cycle-type search, the oracle alone, and the portfolio with the oracle
// started at once (so that either may win). A NOT ROBUST from the oracle
// carries a certified direct witness.
func TestProceduresAgree(t *testing.T) {
	progs := examplePrograms(t)
	r := rand.New(rand.NewPCG(31, 41))
	examples := len(progs)
	progs = append(progs, randomPrograms(t, r, 100, func(r *rand.Rand) gen.Config {
		return gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4}
	})...)
	oracleAnswers := 0
	for k, p := range progs {
		for _, n := range []int{2, 3} {
			if n == 3 && (k < examples || len(p.Trans) > 10) {
				continue
			}
			base := Options{MaxStates: 300_000, Jobs: 1}
			a, err := Decide(p, n, base)
			if err != nil {
				t.Fatal(err)
			}
			for _, proc := range []Procedure{Oracle, Auto} {
				opt := base
				opt.Procedure, opt.OracleDelay = proc, time.Nanosecond
				b, err := Decide(p, n, opt)
				if err != nil {
					t.Fatalf("%s N = %d %v: %v", p.Name, n, proc, err)
				}
				if a.Verdict == Unknown || b.Verdict == Unknown {
					continue
				}
				if a.Verdict != b.Verdict {
					t.Fatalf("%s N = %d: automata %v, %v %v (%s)", p.File, n, a.Verdict, proc, b.Verdict, b.Procedure)
				}
				if b.Procedure == "oracle" {
					oracleAnswers++
					if b.Verdict == NotRobust && (b.Witness == nil || !b.Witness.Direct || len(b.Witness.HB) == 0) {
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

// TestOracleTakesTurns: with two jobs, the default shared exploration and
// the oracle started at once, the oracle takes turns with the shared
// search (the per-type helper keeps its slot), and the verdicts are those
// of the search alone, whoever answers; no run hangs. The programs are
// the examples at N = 3 and random ones at N = 2 and 3.
func TestOracleTakesTurns(t *testing.T) {
	progs := examplePrograms(t)
	progs = append(progs, randomPrograms(t, rand.New(rand.NewPCG(37, 43)), 40, func(r *rand.Rand) gen.Config {
		return gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4 + r.IntN(3)}
	})...)
	before := pacedOracles.Load()
	oracleAnswers, compared := 0, 0
	for _, p := range progs {
		for _, n := range []int{2, 3} {
			base := Options{MaxStates: 200_000, Jobs: 2, Exploration: Shared}
			a, err := Decide(p, n, base)
			if err != nil {
				t.Fatal(err)
			}
			opt := base
			opt.Procedure, opt.OracleDelay = Auto, time.Nanosecond
			b, err := Decide(p, n, opt)
			if err != nil {
				t.Fatalf("%s N = %d: %v", p.File, n, err)
			}
			if a.Verdict == Unknown || b.Verdict == Unknown {
				continue
			}
			compared++
			if a.Verdict != b.Verdict {
				t.Fatalf("%s N = %d: search %v, portfolio %v (%s)", p.File, n, a.Verdict, b.Verdict, b.Procedure)
			}
			if b.Procedure == "oracle" {
				oracleAnswers++
			}
		}
	}
	paced := pacedOracles.Load() - before
	t.Logf("%d verdicts compared, %d answered by the oracle, %d oracles by turns", compared, oracleAnswers, paced)
	if paced < 20 || compared < 60 {
		t.Errorf("the test exercises too little: %d oracles by turns, %d verdicts compared", paced, compared)
	}
}
