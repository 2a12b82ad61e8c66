package cycles

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// The streamed decision (cycle types walked, not listed) against the
// listed one at small N, where both run: with All, every representative
// the listed decision searched is searched by the streamed one with the
// same outcome, and the counts agree with the list; without All, the same
// verdict, by the per-type search and by the shared exploration over the
// representatives. The examples at N = 2..3 and random programs at N = 2..4.
func TestStreamedAgreesWithListed(t *testing.T) {
	type prog struct {
		p    *pgas.Program
		maxN int
	}
	var progs []prog
	for _, p := range examplePrograms(t) {
		progs = append(progs, prog{p, 3})
	}
	small := func(r *rand.Rand) gen.Config {
		return gen.Config{Addrs: 2, Queues: 1 + r.IntN(2), Values: 2, Cmds: 2 + r.IntN(3)}
	}
	for _, p := range randomPrograms(t, rand.New(rand.NewPCG(5, 2026)), 25, small) {
		progs = append(progs, prog{p, 4})
	}
	decide := func(p *pgas.Program, n int, opt Options, streamed bool) *Result {
		t.Helper()
		if streamed {
			defer streamAbove(1)()
		}
		res, err := Decide(p, n, opt)
		if err != nil {
			t.Fatalf("%s N = %d streamed %v: %v", p.File, n, streamed, err)
		}
		if res.Partial != (streamed && res.Verdict != RunError && len(res.Types) > 0) && res.Verdict != RunError {
			t.Fatalf("%s N = %d streamed %v: Partial %v", p.File, n, streamed, res.Partial)
		}
		return res
	}
	compared := 0
	for _, pr := range progs {
		p := pr.p
		for n := 2; n <= pr.maxN; n++ {
			all := Options{Jobs: 2, MaxStates: 50_000, All: true}
			listed, streamed := decide(p, n, all, false), decide(p, n, all, true)
			if listed.Verdict == Unknown || streamed.Verdict == Unknown || listed.Verdict == RunError {
				if listed.Verdict != streamed.Verdict && listed.Verdict != Unknown && streamed.Verdict != Unknown {
					t.Fatalf("%s N = %d: listed %v, streamed %v", p.File, n, listed.Verdict, streamed.Verdict)
				}
				continue
			}
			compared++
			if listed.Verdict != streamed.Verdict {
				t.Fatalf("%s N = %d --all: listed %v, streamed %v", p.File, n, listed.Verdict, streamed.Verdict)
			}
			byType := map[string]TypeResult{}
			var reps, sym, feasible int64
			for _, tr := range listed.Types {
				byType[tr.Cycle.String()] = tr
				if tr.SymmetricTo != nil {
					sym++
					continue
				}
				reps++
				if tr.Outcome == automata.NonEmpty {
					feasible++
				}
			}
			k := streamed.Counts
			if int64(len(streamed.Types)) != reps || k.BySymmetry != sym || k.Feasible != feasible || k.Total != TypeCount(n) || k.Skipped != 0 {
				t.Fatalf("%s N = %d: streamed lists %d types, counts %+v; listed has %d representatives, %d by symmetry, %d feasible", p.File, n, len(streamed.Types), k, reps, sym, feasible)
			}
			for i, tr := range streamed.Types {
				want, ok := byType[tr.Cycle.String()]
				if !ok || want.SymmetricTo != nil || want.Outcome != tr.Outcome || (i > 0 && typeLess(tr.Cycle, streamed.Types[i-1].Cycle)) {
					t.Fatalf("%s N = %d: streamed %v %v (position %d), listed %v symmetric to %v", p.File, n, tr.Cycle, tr.Outcome, i, want.Outcome, want.SymmetricTo)
				}
			}
			for _, ex := range []Exploration{PerType, Shared} {
				first := Options{Jobs: 2, MaxStates: 50_000, Exploration: ex}
				a, b := decide(p, n, first, false), decide(p, n, first, true)
				if a.Verdict != b.Verdict && a.Verdict != Unknown && b.Verdict != Unknown {
					t.Fatalf("%s N = %d %v: listed %v, streamed %v", p.File, n, ex, a.Verdict, b.Verdict)
				}
				if b.Verdict == NotRobust && (b.Witness == nil || len(b.Witness.HB) == 0) {
					t.Fatalf("%s N = %d %v: streamed NOT ROBUST without a certified witness", p.File, n, ex)
				}
			}
		}
	}
	if compared < 30 {
		t.Errorf("only %d decisions compared", compared)
	}
}

// typeLess is the order of CycleTypes: shorter first, then
// lexicographic.
func typeLess(a, b CycleType) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// The decisions the list used to forbid (N > 10): answered, never a list.
func TestStreamedLargeN(t *testing.T) {
	oneToOne, err := pgas.Load("../examples/1to1.pgas")
	if err != nil {
		t.Fatal(err)
	}
	// The unfenced ring at N = 12 (119,481,296 cycle types): rotations
	// only, so about 10^7 representatives, too many for the shared
	// exploration; the per-type searches go depth-first and type (1 2)
	// holds the violation of 1to1.pgas's comment (write, barrier, load
	// between neighbours), found in about 5,600 states.
	res, err := Decide(oneToOne, 12, Options{Jobs: 2, Exploration: Shared, MaxStates: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != NotRobust || res.Witness == nil || len(res.Witness.HB) == 0 || !res.Partial || res.Counts.Total != 119481296 || res.Note == "" {
		t.Fatalf("1to1 N = 12: %v (%s), witness %v, partial %v, counts %+v, note %q", res.Verdict, res.Reason, res.Witness != nil, res.Partial, res.Counts, res.Note)
	}
	if len(res.Types) > 4 || res.Counts.Skipped < res.Counts.Total-100 {
		t.Errorf("1to1 N = 12: %d types listed, counts %+v: the decision did not stop at its violation", len(res.Types), res.Counts)
	}

	// A robust ring at N = 11 (rank r reads x of rank r+1 into its own y:
	// nobody writes x, nobody else touches y, so no conflict at all) under
	// a state bound: the bound is the decision's, so it ends UNKNOWN after
	// a few hundred one-state searches, listing no more than it searched.
	ring, err := pgas.Compile("ringread", []byte("values 2\naddress x, y\nqueue q\n  read(x, rank % N + 1, y, q)\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = Decide(ring, 11, Options{Jobs: 2, Exploration: Shared, MaxStates: 400})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Counts
	if res.Verdict != Unknown || !strings.Contains(res.Reason, "state budget") || k.Searched == 0 || k.Feasible != 0 ||
		int64(len(res.Types)) != k.Searched || k.Skipped < k.Total/2 {
		t.Fatalf("ring N = 11: %v (%s), %d listed, counts %+v", res.Verdict, res.Reason, len(res.Types), k)
	}

	// Every rank writes its own x: every renaming is a symmetry, one
	// representative per length, decided by the shared exploration.
	own, err := pgas.Compile("own", []byte("values 2\naddress x\nqueue q\n  write(x, rank, x, q)\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = Decide(own, 13, Options{Jobs: 2, Exploration: Shared})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Robust || len(res.Types) != 13 || res.Counts.BySymmetry != TypeCount(13)-13 || res.Note != "" {
		t.Fatalf("own N = 13: %v (%s), %d listed, counts %+v, note %q", res.Verdict, res.Reason, len(res.Types), res.Counts, res.Note)
	}
}

// Shards of a streamed decision merge into the unsharded one: with All,
// the same representatives with the same outcomes and the same counts;
// without, the same verdict. A missing shard makes a robust merge UNKNOWN.
func TestStreamedShardsMerge(t *testing.T) {
	defer streamAbove(1)()
	progs := examplePrograms(t)
	r := rand.New(rand.NewPCG(9, 2026))
	for i := 0; i < 10; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2, Queues: 1, Values: 2, Cmds: 2 + r.IntN(3)})
		p, err := pgas.Compile("rand", []byte(gp.String()))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	robust := 0
	for _, p := range progs {
		for _, all := range []bool{true, false} {
			opt := Options{Jobs: 1, MaxStates: 50_000, All: all}
			whole, err := Decide(p, 3, opt)
			if err != nil {
				t.Fatal(err)
			}
			if whole.Verdict == Unknown || whole.Verdict == RunError {
				continue
			}
			for k := 1; k <= 3; k++ {
				var parts []Part
				for i := 1; i <= k; i++ {
					opt.Shard = shard.Shard{Index: i, Count: k}
					res, err := Decide(p, 3, opt)
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, Part{Index: i, Result: res})
				}
				opt.Shard = shard.Shard{}
				m, err := Merge(p, 3, opt, k, parts)
				if err != nil {
					t.Fatalf("%s all %v K = %d: %v", p.File, all, k, err)
				}
				if m.Verdict != whole.Verdict || (m.Verdict == NotRobust && len(m.Witness.HB) == 0) {
					t.Fatalf("%s all %v K = %d: merged %v (%s), unsharded %v", p.File, all, k, m.Verdict, m.Reason, whole.Verdict)
				}
				if all && (m.Counts != whole.Counts || len(m.Types) != len(whole.Types)) {
					t.Fatalf("%s K = %d: merged counts %+v (%d listed), unsharded %+v (%d)", p.File, k, m.Counts, len(m.Types), whole.Counts, len(whole.Types))
				}
				for j := range m.Types {
					if all && (m.Types[j].Cycle.String() != whole.Types[j].Cycle.String() || m.Types[j].Outcome != whole.Types[j].Outcome) {
						t.Fatalf("%s K = %d: merged %v %v, unsharded %v %v", p.File, k, m.Types[j].Cycle, m.Types[j].Outcome, whole.Types[j].Cycle, whole.Types[j].Outcome)
					}
				}
				if k == 2 && whole.Verdict == Robust {
					robust++
					m, err := Merge(p, 3, opt, k, []Part{parts[0], {Index: 2, Missing: "missing"}})
					if err != nil || m.Verdict != Unknown || !strings.Contains(m.Reason, "shard 2/2 missing") {
						t.Fatalf("%s: one shard of two: %v, %v", p.File, err, m)
					}
				}
			}
		}
	}
	if robust == 0 {
		t.Error("no robust program: the missing-shard case was not tested")
	}
}

// streamAbove makes decisions stream their cycle types (stream_run.go)
// whenever N has more than limit of them, until the returned function
// restores the limit: the tests compare the streamed decision with the
// listed one at small N.
func streamAbove(limit int64) (restore func()) {
	old := listLimit
	listLimit = limit
	return func() { listLimit = old }
}
