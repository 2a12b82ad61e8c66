package tso

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestStrategiesAgree: depth-first (the default) and breadth-first search
// of the instrumented programs give the same verdict and the same feasible
// attacks, attack by attack, and every depth-first witness replays (issue
// 10). Random programs of both models, and the corpus under TSO.
func TestStrategiesAgree(t *testing.T) {
	count := 300
	if testing.Short() {
		count = 60
	}
	compare := func(name string, p *prog.Program, m prog.Model) {
		d := check(p, m, Options{Jobs: 1, All: true})
		b := check(p, m, Options{Jobs: 1, All: true, BreadthFirst: true})
		if d.Verdict != b.Verdict {
			t.Fatalf("%s %v: depth-first %v, breadth-first %v\n%s", name, m, d.Verdict, b.Verdict, p.File)
		}
		if d.WitnessErr != nil {
			t.Fatalf("%s %v: depth-first witness does not replay: %v", name, m, d.WitnessErr)
		}
		if fmt.Sprint(d.FeasibleAttacks()) != fmt.Sprint(b.FeasibleAttacks()) {
			t.Errorf("%s %v: feasible attacks differ:\n%v\n%v", name, m, d.FeasibleAttacks(), b.FeasibleAttacks())
		}
	}
	for i := 0; i < count; i++ {
		r := rand.New(rand.NewPCG(uint64(9000+i), 0))
		src := gen.Generate(r, gen.Config{Fences: i%2 == 0})
		p, err := prog.ParseProgram(fmt.Sprintf("seed%d", 9000+i), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		compare(p.File, p, prog.TSO)
		compare(p.File, p, prog.PSO)
	}
	if testing.Short() {
		return
	}
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := prog.ParseProgram(f, src)
		if err != nil {
			t.Fatal(err)
		}
		compare(strings.TrimSuffix(filepath.Base(f), ".txt"), p, prog.TSO)
	}
}
