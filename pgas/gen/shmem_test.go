package gen

import (
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// Programs with Shmem must compile and pass CheckN for N = 1..3, and
// across many seeds every OpenSHMEM call and statement kind must occur.
func TestGenerateShmemCompiles(t *testing.T) {
	kinds := map[Kind]int{}
	calls := map[string]int{}
	ctxPrograms := 0
	for ci, c := range configs() {
		c.Shmem = true
		for seed := uint64(0); seed < 400; seed++ {
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
			if prog.HasCtx() {
				ctxPrograms++
			}
			for _, s := range p.Stmts {
				kinds[s.Kind]++
				if s.Call != "" {
					calls[s.Call]++
				}
				if s.Guard != nil {
					calls["when"]++
				}
			}
		}
	}
	for k := SLoad; k <= SQuiet; k++ {
		if kinds[k] == 0 {
			t.Errorf("statement kind %d never generated", k)
		}
	}
	for _, c := range append(shmemParams, fetchParams...) {
		if calls[c.call] == 0 {
			t.Errorf("%s never generated", c.call)
		}
	}
	if calls["when"] == 0 || ctxPrograms < 1000 {
		t.Errorf("%d awaits, %d of 1600 programs with OpenSHMEM commands", calls["when"], ctxPrograms)
	}
}

// Shrinking an OpenSHMEM program for "has a put with signal" ends with
// that statement alone (every other statement, declaration and context
// can go), and the result compiles.
func TestShrinkShmem(t *testing.T) {
	found := 0
	for seed := uint64(0); seed < 200 && found < 5; seed++ {
		p := Generate(rand.New(rand.NewPCG(seed, 7)), Config{Shmem: true, Cmds: 6, Queues: 2})
		has := func(q *Program) bool {
			for _, s := range q.Stmts {
				if s.Kind == SShmem && s.Call == "put_signal" {
					return true
				}
			}
			return false
		}
		if !has(p) {
			continue
		}
		found++
		small := Shrink(p, has, 0)
		if !compiles(small) || !has(small) || len(small.Stmts) != 1 || len(small.Contexts) != 1 || len(small.Queues) != 0 {
			t.Errorf("seed %d: shrunk to\n%s", seed, small)
		}
	}
	if found == 0 {
		t.Fatal("no program with put_signal")
	}
}

// With SignalElems, puts with signal of several elements occur, compile
// and pass CheckN (every element's cells exist).
func TestGenerateSignalElems(t *testing.T) {
	several := 0
	for seed := uint64(0); seed < 400; seed++ {
		c := Config{Shmem: true, Addrs: 2 + int(seed%3), Cmds: 6, SignalElems: 3}
		p := Generate(rand.New(rand.NewPCG(seed, 11)), c)
		src := p.String()
		prog, err := pgas.Compile("gen.pgas", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		for n := 1; n <= 3; n++ {
			if err := pgas.CheckN(prog, n); err != nil {
				t.Fatalf("seed %d N=%d: %v\n%s", seed, n, err, src)
			}
		}
		for _, tr := range prog.Trans {
			if tr.Cmd.Chain {
				several++
				break
			}
		}
	}
	if several < 20 {
		t.Errorf("only %d of 400 programs have a put with signal of several elements", several)
	}
}
