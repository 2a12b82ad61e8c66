package cycles

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// BenchmarkCompare measures one differential comparison (oracle and
// Decide) on the default program shape.
func BenchmarkCompare(b *testing.B) {
	var progs []*pgas.Program
	for seed := uint64(0); seed < 64; seed++ {
		g := gen.Generate(rand.New(rand.NewPCG(seed, 0)), gen.Config{Addrs: 2, Queues: 1, Cmds: 4})
		p, err := pgas.Compile("bench.pgas", []byte(g.String()))
		if err != nil {
			b.Fatal(err)
		}
		progs = append(progs, p)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Compare(progs[i%len(progs)], 2, DefaultCompareBudget)
	}
}
