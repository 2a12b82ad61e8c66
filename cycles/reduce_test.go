package cycles

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// TestReductionsAgree decides random programs with and without the
// partial-order reduction and the rank symmetry: all variants must give the
// same verdict (the brute-force comparison in proofs_test covers the
// default configuration against the definitions).
func TestReductionsAgree(t *testing.T) {
	count := sized(40, 120)
	if testing.Short() {
		count = 30
	}
	rng := rand.New(rand.NewPCG(7, 11))
	variants := []Options{
		{NoReduction: true, NoSymmetry: true},
		{NoSymmetry: true},
		{NoReduction: true},
		{},
	}
	compared := 0
	for i := 0; i < count; i++ {
		cfg := gen.Config{Loops: i%3 == 0, Cmds: 3 + i%3}
		src := gen.Generate(rng, cfg).String()
		p, err := pgas.Compile("random.pgas", []byte(src))
		if err != nil {
			t.Fatalf("generated program does not compile: %v\n%s", err, src)
		}
		n := 2 + i%2
		var verdicts []Verdict
		for _, opt := range variants {
			opt.Jobs, opt.MaxStates = 1, 200_000
			r, err := Decide(p, n, opt)
			if err != nil {
				t.Fatalf("N=%d %+v: %v\n%s", n, opt, err, src)
			}
			verdicts = append(verdicts, r.Verdict)
		}
		if verdicts[0] == Unknown {
			continue
		}
		compared++
		for k, v := range verdicts {
			if v != verdicts[0] && v != Unknown {
				t.Errorf("N=%d: variant %d says %v, the unreduced search %v\n%s", n, k, v, verdicts[0], src)
			}
		}
	}
	if compared < count*9/10 {
		t.Errorf("only %d of %d programs were decided", compared, count)
	}
}
