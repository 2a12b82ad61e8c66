package repair

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

func load(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// The non-robust examples, with repairs worked out by hand:
//
//   - 1to1.pgas: the write to the right neighbour's y may still be in
//     flight at the barrier (Example 1 of the paper). Waiting for it on a
//     handle before the barrier (line 31) is the fix of 1to1-fixed.pgas,
//     cost 1; waiting after the barrier is 1to1-late-wait.pgas, still not
//     robust, and nothing cheaper than one wait exists.
//   - 1to1-late-wait.pgas: the same write already has a handle h, waited
//     on after the barrier; a second "wait h" before the barrier (line 25)
//     is the fix, cost 1.
//   - mp-unsync.pgas: rank 1 writes data, then flag, to rank 2, which
//     asserts flag then data. The data write must complete before the flag
//     write is issued: a wait on its handle before line 31, cost 1 (the
//     only statement between the two writes).
func TestRepairExamples(t *testing.T) {
	cases := []struct {
		file string
		ns   []int
		want []Candidate
	}{
		{"1to1.pgas", []int{2}, []Candidate{{Kind: Wait, Op: pgas.Pos{Line: 30, Col: 5}, At: pgas.Pos{Line: 31, Col: 5}}}},
		{"1to1.pgas", []int{1, 2, 3}, []Candidate{{Kind: Wait, Op: pgas.Pos{Line: 30, Col: 5}, At: pgas.Pos{Line: 31, Col: 5}}}},
		{"1to1-late-wait.pgas", []int{2, 3}, []Candidate{{Kind: Wait, Op: pgas.Pos{Line: 24, Col: 5}, At: pgas.Pos{Line: 25, Col: 5}}}},
		{"mp-unsync.pgas", []int{2}, []Candidate{{Kind: Wait, Op: pgas.Pos{Line: 30, Col: 5}, At: pgas.Pos{Line: 31, Col: 5}}}},
	}
	for _, tc := range cases {
		src := load(t, tc.file)
		res, err := Repair(tc.file, src, tc.ns, Options{Costs: DefaultCosts()})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if res.Verdict != Repaired || len(res.Insertions) != len(tc.want) {
			t.Fatalf("%s %v: %v %s, %d insertions", tc.file, tc.ns, res.Verdict, res.Reason, len(res.Insertions))
		}
		for i, w := range tc.want {
			if res.Insertions[i].Candidate != w {
				t.Errorf("%s: insertion %+v, want %+v", tc.file, res.Insertions[i].Candidate, w)
			}
		}
		if !res.Minimality.Proven || res.Cost != 1 {
			t.Errorf("%s: cost %d, minimality %+v", tc.file, res.Cost, res.Minimality)
		}
		// The repaired text is a program that decide and the oracle
		// find robust for every N asked.
		p, err := pgas.Compile(tc.file, res.Source)
		if err != nil {
			t.Fatalf("%s: repaired source: %v\n%s", tc.file, err, res.Source)
		}
		for _, n := range tc.ns {
			if d, _ := cycles.Decide(p, n, cycles.Options{}); d.Verdict != cycles.Robust {
				t.Errorf("%s N = %d: repaired program %v", tc.file, n, d.Verdict)
			}
		}
		if len(res.Oracle) != len(tc.ns) {
			t.Errorf("%s: %d oracle checks", tc.file, len(res.Oracle))
		}
	}
	// The repair of 1to1 is the text of 1to1-fixed up to the handle name.
	res, _ := Repair("1to1.pgas", load(t, "1to1.pgas"), []int{2}, Options{Costs: DefaultCosts()})
	body := func(src []byte) string {
		_, after, _ := strings.Cut(string(src), "queue q\n")
		return strings.ReplaceAll(after, "h1", "h")
	}
	if got, want := body(res.Source), body(load(t, "1to1-fixed.pgas")); got != want {
		t.Errorf("repair of 1to1:\n%s\nwant the statements of 1to1-fixed:\n%s", got, want)
	}
}

func TestRepairRobustExamples(t *testing.T) {
	for _, f := range []string{"1to1-fixed.pgas", "get.pgas", "handle.pgas", "mp-put.pgas", "mp-sameq.pgas", "mp-spin.pgas", "prodcons.pgas", "put.pgas", "waitq.pgas"} {
		src := load(t, f)
		res, err := Repair(f, src, []int{2}, Options{Costs: DefaultCosts()})
		if err != nil || res.Verdict != AlreadyRobust || len(res.Insertions) != 0 || string(res.Source) != string(src) {
			t.Errorf("%s: %v %v, %d insertions", f, err, res.Verdict, len(res.Insertions))
		}
	}
}

// Costs steer the choice: when synchronous operations are cheap, 1to1 is
// repaired by turning its write into a put; a line override can price the
// wait before the barrier out, and then the next cheapest cut is a waitq
// before the barrier (2, less than a put at 3).
func TestRepairCosts(t *testing.T) {
	src := load(t, "1to1.pgas")
	cs, err := ParseCosts("c", []byte("sync 0  # free\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Repair("1to1.pgas", src, []int{2}, Options{Costs: cs})
	if err != nil || res.Verdict != Repaired || len(res.Insertions) != 1 || res.Insertions[0].Kind != Sync || res.Cost != 0 {
		t.Fatalf("sync 0: %v %v %+v", err, res.Verdict, res.Insertions)
	}
	if !strings.Contains(string(res.Source), "    put(x, rank % N + 1, y, q)\n") {
		t.Errorf("no put in\n%s", res.Source)
	}
	cs, _ = ParseCosts("c", []byte("wait 31 9\n"))
	res, _ = Repair("1to1.pgas", src, []int{2}, Options{Costs: cs})
	if res.Verdict != Repaired || res.Cost != 2 || res.Insertions[0].Kind != WaitQ || res.Insertions[0].At.Line != 31 {
		t.Fatalf("wait before line 31 at 9: %v cost %d %+v", res.Verdict, res.Cost, res.Insertions)
	}
	for _, bad := range []struct{ src, want string }{
		{"barrier 1\n", "c:1:1: unknown kind"},
		{"wait x\n", "c:1:6: cost"},
		{"\nwaitq 0 2\n", "c:2:7: line"},
		{"sync 1 2 3\n", "c:1:1: want KIND COST"},
	} {
		if _, err := ParseCosts("c", []byte(bad.src)); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.src, err, bad.want)
		}
	}
}

// On random programs, checked against the brute-force oracle, which
// shares no code with the search: a repaired program has no violation,
// and every cheaper set of candidate insertions leaves one.
func TestRepairRandomAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	bounds := oracle.Bounds{MaxQueue: 4, MaxNodes: 200_000}
	repaired, proved := 0, 0
	for i := 0; i < 150 && repaired < 15; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2, Queues: 1 + r.IntN(2), Values: 2, Cmds: 4})
		src := []byte(gp.String())
		res, err := Repair("rand.pgas", src, []int{2}, Options{Costs: DefaultCosts(), Decide: cycles.Options{MaxStates: 200_000}})
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if res.Verdict != Repaired {
			continue
		}
		repaired++
		p, err := pgas.Compile("r", res.Source)
		if err != nil {
			t.Fatal(err)
		}
		if o := oracle.Explore(p, 2, bounds); o.Violation != nil {
			t.Fatalf("oracle: the repaired program has a violation\n%s", res.Source)
		}
		if !res.Minimality.Proven {
			continue
		}
		cands, err := Candidates("r", src)
		if err != nil {
			t.Fatal(err)
		}
		cost := DefaultCosts()
		var rec func(from int, set []Candidate, sum int64)
		rec = func(from int, set []Candidate, sum int64) {
			if out, err := Apply("r", src, set); err == nil {
				if q, err := pgas.Compile("r", out); err == nil && pgas.CheckN(q, 2) == nil {
					o := oracle.Explore(q, 2, bounds)
					if o.Complete && o.Violation == nil && o.RangeErr == nil {
						t.Fatalf("cheaper set %+v (cost %d < %d) is robust by the oracle\n%s", set, sum, res.Cost, out)
					}
				}
			}
			for k := from; k < len(cands); k++ {
				if c := cost.Of(cands[k]); sum+c < res.Cost {
					rec(k+1, append(set, cands[k]), sum+c)
				}
			}
		}
		rec(0, nil, 0)
		proved++
	}
	if repaired < 5 || proved < 5 {
		t.Fatalf("only %d programs repaired, %d minimal ones checked", repaired, proved)
	}
	t.Logf("%d random programs repaired, %d checked minimal against the oracle", repaired, proved)
}

// The edited source maps back to the input: every statement of the
// repaired program comes from a statement of the input or was inserted
// before one, and labels stay on the statements they named.
func TestApplyKeepsLabels(t *testing.T) {
	src := []byte("values 2\naddress x, y\nqueue q\n    write(x, 2, y, q)\nL:  mem[x] <- 1\n    goto L\n")
	p, err := pgas.Compile("l", src)
	if err != nil {
		t.Fatal(err)
	}
	a := analyse(p)
	set := []Candidate{{Kind: Wait, Op: pgas.Pos{Line: 4, Col: 5}, At: pgas.Pos{Line: 5, Col: 5}}, {Kind: WaitQ, Queue: "q", At: pgas.Pos{Line: 5, Col: 5}}}
	ed, err := a.apply(src, set)
	if err != nil {
		t.Fatal(err)
	}
	want := "values 2\naddress x, y\nqueue q\n    write(x, 2, y, q) -> h1\nL:  wait h1\n    waitq q\n    mem[x] <- 1\n    goto L\n"
	if string(ed.src) != want {
		t.Fatalf("got\n%s\nwant\n%s", ed.src, want)
	}
	q, err := pgas.Compile("l", ed.src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range q.Trans {
		if tr.Sugar == "init" {
			continue
		}
		orig, inserted, ok := ed.origin(strip(tr.Pos))
		if !ok {
			t.Fatalf("%s (%q) maps nowhere", tr.Pos, tr.Text)
		}
		if _, isStmt := a.byPos[orig]; !isStmt {
			t.Errorf("%s (%q) maps to %v, not a statement of the input (inserted %v)", tr.Pos, tr.Text, orig, inserted)
		}
		if strings.HasPrefix(tr.Text, "wait") != inserted {
			t.Errorf("%q: inserted = %v", tr.Text, inserted)
		}
	}
}

func TestDiff(t *testing.T) {
	got := Diff("x", []byte("a\nb\nc\nd\ne\nf\ng\n"), []byte("a\nB\nc\nd\ne\nf\nG\nh\n"))
	want := "--- x\n+++ x (repaired)\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -6,2 +6,3 @@\n f\n-g\n+G\n+h\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := Diff("x", []byte("a\n"), []byte("a\n")); d != "--- x\n+++ x (repaired)\n" {
		t.Errorf("no change: %q", d)
	}
}

// FuzzParseCosts: any cost file gives costs or an error with a position.
func FuzzParseCosts(f *testing.F) {
	for _, s := range []string{"wait 1\n", "sync 12 0 # x\n", "waitq x", "barrier 1", "fence 2 1", "wait 1 2 3", "\xff 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		cs, err := ParseCosts("c", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		for k := range cs.Kind {
			if cs.Kind[k] < 0 {
				t.Fatalf("negative cost")
			}
		}
	})
}
