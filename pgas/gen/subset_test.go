package gen

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// With SubsetBarriers the programs still compile for N = 1..4, and both
// forms of a barrier over part of the ranks occur: inside "if" on its
// members, and bare. The compiled barrier carries the set, and the
// membership condition holds exactly on the set's ranks.
func TestGenerateSubsetBarriers(t *testing.T) {
	guarded, bare := 0, 0
	for seed := uint64(0); seed < 400; seed++ {
		c := Config{SubsetBarriers: true, Shmem: seed%2 == 0, Cmds: 6}
		p := Generate(rand.New(rand.NewPCG(seed, 11)), c)
		src := p.String()
		prog, err := pgas.Compile("gen.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		for n := 1; n <= 4; n++ {
			if err := pgas.CheckN(prog, n); err != nil {
				t.Fatalf("seed %d N=%d: %v\n%s", seed, n, err, src)
			}
		}
		for _, s := range p.Stmts {
			switch {
			case s.Kind != SBarrier || s.Set == "":
			case s.Member != "":
				guarded++
			default:
				bare++
			}
		}
	}
	if guarded == 0 || bare == 0 {
		t.Errorf("in 400 programs: %d guarded and %d bare barriers over a set, want both", guarded, bare)
	}
}

// Each set of subsetSets has the membership condition that goes with it,
// for N = 1..6: the condition holds on rank r iff r is in the set.
func TestSubsetSetsMembers(t *testing.T) {
	for _, sc := range subsetSets {
		src := "values 2\naddress x\nregister m\n    m <- " + sc[1] + "\n    barrier " + sc[0] + "\n"
		prog, err := pgas.Compile("set.pgas", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", sc[0], err)
		}
		var asg, bar *pgas.Cmd
		for i := range prog.Trans {
			switch c := &prog.Trans[i].Cmd; c.Op {
			case pgas.OpAssign:
				asg = c
			case pgas.OpBarrier:
				bar = c
			}
		}
		for n := 1; n <= 6; n++ {
			set, err := prog.BarrierSet(bar, n)
			if err != nil {
				t.Fatalf("%s N=%d: %v", sc[0], n, err)
			}
			for r := 1; r <= n; r++ {
				v, err := asg.Val.Eval(pgas.Env{Rank: int64(r), N: int64(n), Regs: []int64{0}})
				if err != nil || (v != 0) != set.Has(r) {
					t.Errorf("%s N=%d rank %d: condition %s gives %d, member %v", sc[0], n, r, sc[1], v, set.Has(r))
				}
			}
		}
	}
}
