package cycles

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// randomPrograms compiles count random programs, each from the generator
// configuration config draws with r (then the program, with r too).
func randomPrograms(tb testing.TB, r *rand.Rand, count int, config func(*rand.Rand) gen.Config) []*pgas.Program {
	tb.Helper()
	var progs []*pgas.Program
	for range count {
		gp := gen.Generate(r, config(r))
		p, err := pgas.Compile("rand", []byte(gp.String()))
		if err != nil {
			tb.Fatalf("%v\n%s", err, gp.String())
		}
		progs = append(progs, p)
	}
	return progs
}

// mixedConfig gives programs of 3 to 5 commands over 2 or 3 addresses and
// 1 or 2 queues, one in four with loops.
func mixedConfig(r *rand.Rand) gen.Config {
	return gen.Config{Addrs: 2 + r.IntN(2), Queues: 1 + r.IntN(2), Values: 2, Cmds: 3 + r.IntN(3), Loops: r.IntN(4) == 0}
}
