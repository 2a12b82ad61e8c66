package proofs_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

var long = flag.Bool("proofs.long", false, "check ten times as many random programs")

// count scales a test's full number of programs n: CI runs a third of it,
// but at least 40 (the suite must stay under ten minutes on a loaded
// machine),
// PGASROB_FULL=1 all of it, -proofs.long ten times it. Under -short the
// checks of a test's power (enough programs decided, both verdicts
// represented) are skipped: a tenth of the programs is too few for them;
// the correctness checks stay.
func count(n int) int {
	switch {
	case *long:
		return 10 * n
	case full():
		return n
	case testing.Short():
		return max(n/10, 1)
	}
	return max(n/3, min(n, 40)) // at least 40: the power checks need a sample
}

// full reports whether the large random comparisons run at full size
// (PGASROB_FULL=1; README, "Testing").
func full() bool { return os.Getenv("PGASROB_FULL") != "" }

// small is the program shape of the issue: 2-3 addresses, 2 values, 1-2
// queues, at most 4 statements, no loops.
func small(r *rand.Rand) gen.Config {
	return gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 4}
}

// program generates the program of one seed and compiles it.
func program(t *testing.T, seed uint64, cfg func(*rand.Rand) gen.Config) (*gen.Program, *pgas.Program, int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := cfg(r)
	n := 2
	if r.IntN(5) == 0 {
		n = 3
	}
	g := gen.Generate(r, c)
	p, err := pgas.Compile(fmt.Sprintf("seed%d.pgas", seed), []byte(g.String()))
	if err != nil {
		t.Fatalf("seed %d: generated program does not compile: %v\n%s", seed, err, g)
	}
	return g, p, n
}

// report fails the test with the seed and the program shrunk under
// stillFails.
func report(t *testing.T, seed uint64, n int, g *gen.Program, stillFails func(p *pgas.Program) bool, msg string) {
	t.Helper()
	small := gen.Shrink(g, func(c *gen.Program) bool {
		p, err := pgas.Compile("shrunk.pgas", []byte(c.String()))
		return err == nil && stillFails(p)
	}, 300)
	t.Errorf("seed %d, N=%d: %s\nprogram:\n%s\nshrunk:\n%s", seed, n, msg, g, small)
}
