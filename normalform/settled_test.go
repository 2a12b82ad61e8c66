package normalform_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// hbKeys walks every path of Y with at most depth moves and collects the
// happens-before relation (pgas.HappensBefore, the definition) of each
// generated computation comp(σ). ok is false past limit paths.
func hbKeys(y *normalform.Y, depth, limit int) (keys map[string]bool, paths int, ok bool) {
	keys = map[string]bool{}
	var sigma []normalform.HEvent
	var rec func(s automata.State, d int)
	rec = func(s automata.State, d int) {
		if paths > limit {
			return
		}
		paths++
		tau, _ := normalform.Computation(sigma)
		keys[pgas.HappensBefore(tau).Key()] = true
		if d == depth {
			return
		}
		moves, _ := y.Moves(s)
		for _, mv := range moves {
			k := len(sigma)
			sigma = append(sigma, mv.Events...)
			rec(mv.Target, d+1)
			sigma = sigma[:k]
		}
	}
	s := make(automata.State, y.Words())
	y.Initial(s)
	rec(s, 0)
	return keys, paths, paths <= limit
}

// The settled-popa rule (settled.go) keeps, for every computation of the
// paper's Y, one with the same happens-before relation: the sets of
// relations of the paths of up to depth moves are equal with and without
// it (the rule keeps the number of moves), on random programs with
// queues, handles and waits and on the examples at N = 2. The relation
// decides robustness, and the marks and Z^cyc read only the events and
// their order on each cell, which the relation fixes.
func TestSettledPopasKeepHB(t *testing.T) {
	type prog struct {
		name string
		p    *pgas.Program
	}
	var progs []prog
	files, _ := filepath.Glob("../examples/*.pgas")
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{filepath.Base(f), p})
	}
	// Where a popa's part matters: a store to its cell after the command
	// (by the issuer, or by the owner of a read's source), or a popb into it.
	for i, src := range []string{
		"mem[x] <- 1\n write(x, rank % N + 1, y, q)\n mem[x] <- 0\n",
		"read(y, rank % N + 1, x, q)\n mem[x] <- 1\n",
		"mem[x] <- 1\n write(x, rank % N + 1, y, q)\n write(x, rank % N + 1, y, q)\n",
		// (r, x) is written by the popb of the other rank's write.
		"write(y, rank % N + 1, y, q)\n write(x, rank % N + 1, x, q)\n mem[y] <- 1\n",
	} {
		p, err := pgas.Compile("hand.pgas", []byte("values 2\naddress x, y\nqueue q\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{fmt.Sprintf("hand %d:\n%s", i, src), p})
	}
	total := 80
	if testing.Short() {
		total = 20
	}
	for seed := uint64(1); seed <= uint64(total); seed++ {
		r := rand.New(rand.NewPCG(seed, 77))
		g := gen.Generate(r, gen.Config{Addrs: 2, Queues: 1 + r.IntN(2), Cmds: 3 + r.IntN(2)})
		p, err := pgas.Compile(fmt.Sprintf("seed%d.pgas", seed), []byte(g.String()))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, g)
		}
		progs = append(progs, prog{fmt.Sprintf("seed %d:\n%s", seed, g), p})
	}
	compared, smaller := 0, 0
	for _, pr := range progs {
		full, err := normalform.New(pr.p, 2)
		if err != nil {
			t.Fatal(err)
		}
		full.AllParts = true
		settled, _ := normalform.New(pr.p, 2)
		const depth, limit = 7, 4_000
		want, nf, ok1 := hbKeys(full, depth, limit)
		got, nq, ok2 := hbKeys(settled, depth, limit)
		if !ok1 || !ok2 {
			continue
		}
		compared++
		if nq < nf {
			smaller++
		}
		for k := range want {
			if !got[k] {
				t.Fatalf("%s: a happens-before relation of the paper's Y is lost by the settled-popa rule:\n%s", pr.name, k)
			}
		}
		for k := range got {
			if !want[k] {
				t.Fatalf("%s: the settled-popa rule makes a relation the paper's Y lacks:\n%s", pr.name, k)
			}
		}
	}
	t.Logf("%d programs compared, %d with fewer paths", compared, smaller)
	if compared < len(progs)/2 || smaller < compared/10 {
		t.Fatalf("%d of %d programs compared, %d with fewer paths: the test means little", compared, len(progs), smaller)
	}
}
