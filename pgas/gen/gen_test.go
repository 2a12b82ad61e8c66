package gen

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

func configs() []Config {
	return []Config{
		{},
		{Addrs: 3, Queues: 2, Cmds: 4},
		{Loops: true},
		{Addrs: 3, Values: 3, Regs: 2, Queues: 2, Cmds: 6, Loops: true, RangeErrors: true},
	}
}

// wideConfigs are kept out of configs(), whose programs TestGenerateStable
// pins.
func wideConfigs() []Config {
	return []Config{{Wide: true, Regs: 2, Cmds: 6, Loops: true}, {Wide: true, Shmem: true, Cmds: 6}}
}

// A wide program declares its window and uses its sentinels, negative
// ones included, and the compiled program has that domain.
func TestGenerateWide(t *testing.T) {
	neg, big := false, false
	for seed := uint64(0); seed < 200; seed++ {
		p := Generate(rand.New(rand.NewPCG(seed, 7)), Config{Wide: true, Shmem: seed%2 == 0, Cmds: 6})
		prog, err := pgas.Compile("gen.pgas", []byte(p.String()))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p)
		}
		if prog.Lo != p.Lo || prog.Hi() != p.Hi {
			t.Fatalf("seed %d: domain %d..%d, want %d..%d", seed, prog.Lo, prog.Hi(), p.Lo, p.Hi)
		}
		neg = neg || strings.Contains(p.String(), "(-")
		big = big || strings.Contains(p.String(), "2147483647")
	}
	if !neg || !big {
		t.Errorf("no negative (%v) or no INT_MAX (%v) constant in 200 wide programs", neg, big)
	}
}

// Every generated program must compile and run on 1..3 ranks; across many
// seeds every statement kind must occur, or the generator has lost a kind.
func TestGenerateCompiles(t *testing.T) {
	seen := map[Kind]int{}
	for ci, c := range append(configs(), wideConfigs()...) {
		for seed := uint64(0); seed < 500; seed++ {
			p := Generate(rand.New(rand.NewPCG(seed, uint64(ci))), c)
			src := p.String()
			prog, err := pgas.Compile("gen.pgas", []byte(src))
			if err != nil {
				t.Fatalf("config %d seed %d: %v\n%s", ci, seed, err, src)
			}
			for n := 1; n <= 3; n++ {
				if err := pgas.CheckN(prog, n); err != nil {
					t.Fatalf("config %d seed %d N=%d: %v\n%s", ci, seed, n, err, src)
				}
			}
			for _, s := range p.Stmts {
				seen[s.Kind]++
			}
		}
	}
	for k := SLoad; k <= SGoto; k++ {
		if seen[k] == 0 {
			t.Errorf("statement kind %d never generated", k)
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		a := Generate(rand.New(rand.NewPCG(seed, 1)), Config{Loops: true}).String()
		b := Generate(rand.New(rand.NewPCG(seed, 1)), Config{Loops: true}).String()
		if a != b {
			t.Fatalf("seed %d: two runs differ:\n%s\n---\n%s", seed, a, b)
		}
	}
}

// Loop-free configurations must not produce backward jumps: the oracle is
// only complete on acyclic control flow.
func TestLoopFree(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		p := Generate(rand.New(rand.NewPCG(seed, 7)), Config{Cmds: 6})
		prog, err := pgas.Compile("gen.pgas", []byte(p.String()))
		if err != nil {
			t.Fatal(err)
		}
		if cyclic(prog) {
			t.Fatalf("seed %d: loop-free program has a cycle:\n%s", seed, p)
		}
	}
}

func cyclic(p *pgas.Program) bool {
	color := make([]int, len(p.Labels))
	var dfs func(q int) bool
	dfs = func(q int) bool {
		color[q] = 1
		for _, ti := range p.Out[q] {
			to := p.Trans[ti].To
			if color[to] == 1 || color[to] == 0 && dfs(to) {
				return true
			}
		}
		color[q] = 2
		return false
	}
	return dfs(p.Init)
}

// The predicate "has a barrier and a store" is kept by exactly one
// two-statement program shape, so the shrinker must reach it from any
// program that satisfies it: every other statement can go.
func TestShrink(t *testing.T) {
	has := func(p *Program, k Kind) bool {
		for _, s := range p.Stmts {
			if s.Kind == k {
				return true
			}
		}
		return false
	}
	fails := func(p *Program) bool { return has(p, SBarrier) && has(p, SStore) }
	n := 0
	for seed := uint64(0); seed < 400 && n < 20; seed++ {
		p := Generate(rand.New(rand.NewPCG(seed, 3)), Config{Cmds: 6, Addrs: 3, Queues: 2})
		if !fails(p) || len(p.Stmts) < 4 {
			continue
		}
		n++
		s := Shrink(p, fails, 0)
		if !fails(s) || !compiles(s) {
			t.Fatalf("seed %d: shrunk program lost the failure or does not compile:\n%s", seed, s)
		}
		if len(s.Stmts) != 2 || len(s.Addrs) != 1 || len(s.Queues) != 0 || len(s.Regs) != 0 {
			t.Errorf("seed %d: not minimal:\n%s\nfrom\n%s", seed, s, p)
		}
	}
	if n < 5 {
		t.Fatalf("only %d programs to shrink", n)
	}
}

func TestShrinkSource(t *testing.T) {
	src := "values 2\naddress x, y\nqueue q\n  mem[x] <- 1\n  read(x, rank % N + 1, y, q)\n  barrier\n  mem[y] <- 1\n"
	got := ShrinkSource(src, func(s string) bool { return strings.Contains(s, "barrier") }, 0)
	want := "values 2\nbarrier\n"
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// ShrinkSource must survive any input: it compiles every candidate, and
// the compiler must not panic or hang.
func FuzzShrinkSource(f *testing.F) {
	f.Add("values 2\naddress x\n mem[x] <- 1\n barrier\n")
	f.Add("values 2\nL: goto L\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		ShrinkSource(src, func(s string) bool { return len(s)%2 == 0 }, 50)
	})
}
