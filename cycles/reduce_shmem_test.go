package cycles

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// TestReductionsAgreeShmem is TestReductionsAgree on programs with the
// OpenSHMEM commands, per cycle type (All): with and without the
// partial-order reduction and rank symmetry, each type decided by both
// must have the same outcome (docs/deviations.md, "The reductions with
// contexts").
func TestReductionsAgreeShmem(t *testing.T) {
	count := sized(36, 60)
	if testing.Short() {
		count = 20
	}
	rng := rand.New(rand.NewPCG(35, 11))
	variants := []Options{
		{NoReduction: true, NoSymmetry: true},
		{NoSymmetry: true},
		{NoReduction: true},
		{},
	}
	compared, ctx := 0, 0
	for i := 0; i < count; i++ {
		cfg := gen.Config{Addrs: 2 + i%2, Values: 2, Regs: 1 + i%2, Queues: 1, Cmds: 3 + i%3, Loops: i%5 == 0, Shmem: true}
		src := gen.Generate(rng, cfg).String()
		p, err := pgas.Compile("random.pgas", []byte(src))
		if err != nil {
			t.Fatalf("generated program does not compile: %v\n%s", err, src)
		}
		if !p.HasCtx() {
			continue
		}
		ctx++
		n := 2 + i%2
		var outs []map[string]automata.Outcome
		for _, opt := range variants {
			opt.Jobs, opt.MaxStates, opt.All = 1, 200_000, true
			r, err := Decide(p, n, opt)
			if err != nil {
				t.Fatalf("N=%d %+v: %v\n%s", n, opt, err, src)
			}
			m := map[string]automata.Outcome{}
			for _, tr := range r.Types {
				m[tr.Cycle.String()] = tr.Outcome
			}
			outs = append(outs, m)
		}
		for k, m := range outs[1:] {
			for ty, o := range m {
				if o0, ok := outs[0][ty]; ok && o != automata.Unknown && o0 != automata.Unknown && o != o0 {
					t.Errorf("N=%d type %s: variant %d says %v, the unreduced search %v\n%s", n, ty, k+1, o, o0, src)
				}
				compared++
			}
		}
	}
	t.Logf("%d programs with contexts, %d type outcomes compared", ctx, compared)
	if ctx < count/2 {
		t.Errorf("only %d of %d programs use contexts", ctx, count)
	}
}

// TestReductionKeepsDisabledAtomicAwait is TestReductionKeepsDisabledAwait
// with an atomic await: rank 1 chooses between a store to a cell only it
// touches and an atomic fetch of g that waits for g = 1, disabled until
// rank 2's putval of g lands. Exploring only the enabled store would lose
// the await. Hand analysis: rank 2 puts y, then g, unfenced; rank 1
// awaits g = 1, then loads y = 0 before y's popb: [put y] ->po [put g]
// ->cf afetch g ->po load y ->cf [put y], the message-passing cycle. Not
// robust.
func TestReductionKeepsDisabledAtomicAwait(t *testing.T) {
	p := compile(t, `values 2
address g, y, one
register r
context c
    mem[one] <- 1
    if rank == 2 goto W
A:  mem[one] <- 0 ; goto E
A:  r <- amo_fetch(1, g, c) when r == 1 ; goto B
B:  r <- mem[y] ; goto E
W:  putval(1, 1, y, c)
    putval(1, 1, g, c)
E:  r <- 0
`)
	decideAndOracle(t, p, 2, false)
}
