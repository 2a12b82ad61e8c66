package cycles

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// TestRuntimeCheckReduced: the partial-order reduction of the run-time
// error check (errSystem) finds a run-time error exactly when the check
// over every sequentially consistent interleaving does, on random programs
// whose address expressions may go out of range, with and without loops,
// and the computation it reports reaches the error.
func TestRuntimeCheckReduced(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 2026))
	count := 1000
	if testing.Short() {
		count = 200
	}
	found, clean, reduced, full := 0, 0, int64(0), int64(0)
	for i := 0; i < count; i++ {
		cfg := gen.Config{Addrs: 2 + r.IntN(2), Values: 2 + r.IntN(2), Regs: 1 + r.IntN(2), Queues: 1 + r.IntN(2), Cmds: 3 + r.IntN(4),
			Loops: i%3 == 0, RangeErrors: true}
		gp := gen.Generate(r, cfg)
		// At the end, a store whose address goes out of range unless the
		// first address holds 0 then, which depends on the interleaving:
		// the error is reachable on some sequentially consistent runs only.
		src := gp.String() + fmt.Sprintf("    %s <- mem[%s]\n    mem[%s + %s] <- 1\n", gp.Regs[0], gp.Addrs[0], gp.Addrs[len(gp.Addrs)-1], gp.Regs[0])
		p, err := pgas.Compile("rand.pgas", []byte(src))
		if err != nil {
			t.Fatalf("generated program does not compile: %v\n%s", err, src)
		}
		for n := 2; n <= 3; n++ {
			y, err := normalform.New(p, n)
			if err != nil {
				continue
			}
			errRed, stRed, whyRed := findRuntimeError(context.Background(), y, Options{Jobs: 1, MaxStates: 200_000}, automata.DefaultMaxBytes)
			errAll, stAll, whyAll := findRuntimeError(context.Background(), y, Options{Jobs: 1, MaxStates: 200_000, NoReduction: true}, automata.DefaultMaxBytes)
			if whyRed != "" || whyAll != "" {
				continue // a budget: no evidence
			}
			reduced += stRed.States
			full += stAll.States
			if (errRed != nil) != (errAll != nil) {
				t.Fatalf("N = %d: reduced check found an error: %v, full check: %v\n%s", n, errRed != nil, errAll != nil, src)
			}
			if errRed == nil {
				clean++
				continue
			}
			found++
			if !reaches(y, errRed.Path) {
				t.Fatalf("N = %d: the reduced check's computation does not reach a run-time error\n%s", n, src)
			}
		}
	}
	if found < count/10 || clean < count/10 {
		t.Fatalf("%d decisions with a run-time error, %d without: too few of one kind for the comparison to mean much", found, clean)
	}
	t.Logf("%d with a run-time error, %d without; %d states reduced, %d unreduced", found, clean, reduced, full)
}

// reaches replays path in the sequentially consistent Y, event by event
// through the moves, and reports whether some command then errs.
func reaches(y *normalform.Y, path []pgas.Event) bool {
	sc := *y
	sc.SC = true
	s := make(automata.State, sc.Words())
	sc.Initial(s)
	for k := 0; k < len(path); {
		moves, errs := sc.Moves(s)
		if len(errs) > 0 {
			return false // an error before the end of the path
		}
		next := -1
		for i := range moves {
			ev := moves[i].Events
			if len(ev) > 0 && k+len(ev) <= len(path) && sameEvents(ev, path[k:k+len(ev)]) {
				next = i
				break
			}
		}
		if next < 0 {
			return false
		}
		k += len(moves[next].Events)
		s = append(automata.State(nil), moves[next].Target...)
	}
	_, errs := sc.Moves(s)
	return len(errs) > 0
}

func sameEvents(a []normalform.HEvent, b []pgas.Event) bool {
	for i := range a {
		if !reflect.DeepEqual(a[i].Event, b[i]) {
			return false
		}
	}
	return true
}
