package cycles

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// TestBitwiseDifferential is TestShmemDifferential on programs whose
// arithmetic atomics are turned into bitwise ones (amo_and, amo_or,
// amo_xor and their fetching forms, pgas.AmoAnd/Or/Xor): X's rules (the
// oracle) and Y's must agree through whole decisions, including the wraps
// of or and xor past values-1. The generator itself is left alone (its
// programs per seed are pinned by other tests); the calls are rewritten in
// its output. Only programs with a bitwise atomic count; some must be
// decided by both sides, robust and not.
func TestBitwiseDifferential(t *testing.T) {
	count := sized(2000, 4000)
	if testing.Short() {
		count = 800
	}
	stats := map[CompareStatus]int{}
	verdicts := map[string]int{}
	ops := []string{"and", "or", "xor"}
	for seed := uint64(0); seed < uint64(count); seed++ {
		r := rand.New(rand.NewPCG(seed, 33))
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: 2 + r.IntN(3), Regs: 1 + r.IntN(2), Queues: 1, Cmds: 3 + r.IntN(3),
			Loops: r.IntN(5) == 0, Shmem: true}
		src := gen.Generate(r, cfg).String()
		var b strings.Builder
		for _, line := range strings.SplitAfter(src, "\n") {
			op := ops[r.IntN(len(ops))]
			for _, from := range []string{"amo_fetch_add(", "amo_swap(", "amo_add(", "amo_set("} {
				if strings.Contains(line, from) && r.IntN(4) != 0 {
					to := "amo_" + op + "("
					if from == "amo_fetch_add(" || from == "amo_swap(" {
						to = "amo_fetch_" + op + "("
					}
					line = strings.Replace(line, from, to, 1)
					break
				}
			}
			b.WriteString(line)
		}
		src = b.String()
		p, err := pgas.Compile("bitwise.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if !hasBitwise(p) {
			continue
		}
		n := 2 + int(seed%2)
		c := Compare(p, n, CompareBudget{DecideStates: 300_000, DecideTime: DefaultCompareBudget.DecideTime, Oracle: DefaultCompareBudget.Oracle})
		stats[c.Status]++
		if c.Status == Agree {
			verdicts[c.Decide]++
		}
		if c.Status == Disagree {
			t.Errorf("seed %d, N = %d: decide %s, oracle %s: %s\n%s", seed, n, c.Decide, c.Oracle, c.Detail, src)
		}
	}
	t.Logf("programs with a bitwise atomic: %v; agreed verdicts %v", stats, verdicts)
	if len(verdicts) < 2 {
		t.Errorf("the agreed verdicts %v are all alike: the family proves little", verdicts)
	}
}

func hasBitwise(p *pgas.Program) bool {
	for _, tr := range p.Trans {
		if tr.Cmd.Amo.Bitwise() {
			return true
		}
	}
	return false
}
