package cycles

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The walk against the list CycleTypes builds (the reference): the same
// types in the same order, the positions typeRank gives, and the count
// TypeCount gives.
func TestTypeWalkMatchesList(t *testing.T) {
	for n := 1; n <= 8; n++ {
		list := CycleTypes(n)
		if got := TypeCount(n); got != int64(len(list)) {
			t.Fatalf("N = %d: TypeCount %d, list has %d", n, got, len(list))
		}
		i := 0
		w := &typeWalk{n: n, visit: func(c CycleType, pos int64) bool {
			if pos != int64(i) || i >= len(list) || c.String() != list[i].String() {
				t.Fatalf("N = %d: walk gives %v at %d, list has %v at %d", n, c, pos, list[min(i, len(list)-1)], i)
			}
			if r := typeRank(c, n); r != pos {
				t.Fatalf("N = %d: typeRank(%v) = %d, want %d", n, c, r, pos)
			}
			i++
			return true
		}}
		if !w.run() || i != len(list) || w.pos != int64(len(list)) {
			t.Fatalf("N = %d: walk ended after %d types (pos %d), want %d", n, i, w.pos, len(list))
		}
	}
	// Σ_k N!/((N-k)!·k), computed apart (N = 10 and 11 are also quoted in
	// docs/cli.md).
	for n, want := range map[int]int64{10: 1112083, 11: 10976184, 12: 119481296, 16: 3809950977008} {
		if got := TypeCount(n); got != want {
			t.Errorf("TypeCount(%d) = %d, want %d", n, got, want)
		}
	}
}

// symmetryPrograms are the examples, programs whose symmetry groups
// differ (full, a class beside a constant rank, rotation only, rotation
// with classes at N = 4, none), and random programs.
func symmetryPrograms(t *testing.T) []*pgas.Program {
	progs := examplePrograms(t)
	srcs := []string{
		"values 2\naddress x\nqueue q\n  write(x, rank, x, q)\n",
		"values 2\naddress x, y\nqueue q\n  read(x, 1, y, q)\n  mem[y] <- 0\n",
		"values 2\naddress x\nqueue q\n  write(x, rank % N + 1, x, q)\n",
		"values 2\naddress x\nqueue q\n  write(x, (rank + 1) % N + 1, x, q)\n",
		"values 2\naddress x\nqueue q\n  write(x, N, x, q)\n  write(x, 1, x, q)\n",
	}
	// Random programs (pgas/gen imports this package, so they are drawn
	// here): remote commands whose rank arguments mix the shapes above.
	r := rand.New(rand.NewPCG(11, 2026))
	ranks := []string{"rank", "1", "N", "rank % N + 1", "(rank + 1) % N + 1", "2"}
	for i := 0; i < 40; i++ {
		src := "values 2\naddress x, y\nqueue q\n"
		for range 1 + r.IntN(3) {
			cmd := []string{"write", "read"}[r.IntN(2)]
			src += fmt.Sprintf("  %s(x, %s, y, q)\n", cmd, ranks[r.IntN(len(ranks))])
		}
		srcs = append(srcs, src)
	}
	for i, src := range srcs {
		p, err := pgas.Compile(fmt.Sprintf("sym%d", i), []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		progs = append(progs, p)
	}
	return progs
}

// The representative of each type, found per type (symGroup.canon,
// isRep, and the walk pruned by keepPrefix), against the orbits computed
// over the whole list with the group's generators (orbits, which shares
// none of that code), N = 2..6.
func TestRepresentativesMatchOrbits(t *testing.T) {
	groups := map[string]int{}
	for _, p := range symmetryPrograms(t) {
		for n := 2; n <= 6; n++ {
			if pgas.CheckN(p, n) != nil {
				continue
			}
			types := CycleTypes(n)
			rep := orbits(context.Background(), types, symmetries(p, n))
			g := newSymGroup(p, n, false)
			groups[fmt.Sprintf("rot=%v classes=%d", g.rot, len(g.members))]++
			var reps []int64
			for i, c := range types {
				if got := typeRank(g.canon(c), n); got != int64(rep[i]) {
					t.Fatalf("%s N = %d: canon(%v) = %v, orbits say %v", p.Name, n, c, g.canon(c), types[rep[i]])
				}
				if g.isRep(c) != (rep[i] == i) {
					t.Fatalf("%s N = %d: isRep(%v) = %v, orbits say representative %v", p.Name, n, c, g.isRep(c), types[rep[i]])
				}
				if rep[i] == i {
					reps = append(reps, int64(i))
				}
			}
			var walked []int64
			w := &typeWalk{n: n, keep: g.keepPrefix, visit: func(c CycleType, pos int64) bool {
				if g.isRep(c) {
					walked = append(walked, pos)
				}
				return true
			}}
			w.run()
			if fmt.Sprint(walked) != fmt.Sprint(reps) || w.pos != int64(len(types)) {
				t.Fatalf("%s N = %d: pruned walk finds representatives %v (passing %d types), want %v (%d)", p.Name, n, walked, w.pos, reps, len(types))
			}
		}
	}
	// The programs must reach every shape of group, or the test proves less
	// than it says.
	for _, shape := range []string{"rot=false classes=0", "rot=true classes=0", "rot=false classes=1", "rot=true classes=1", "rot=true classes=2"} {
		if groups[shape] == 0 {
			t.Errorf("no program with a group of shape %s (have %v)", shape, groups)
		}
	}
}
