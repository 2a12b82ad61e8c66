package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// decided compiles an example of the repository and decides it for n,
// as "pgasrob decide" does (automata procedure, one job, so that the
// witness is the same every run).
func decided(t testing.TB, path string, n int) (*pgas.Program, Outcome) {
	t.Helper()
	file := filepath.Join("../../examples", path)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var p *pgas.Program
	if cfront.IsC(path) {
		p, err = cfront.Compile(path, src, cfront.Options{})
	} else {
		p, err = pgas.Compile(path, src)
	}
	if err != nil {
		t.Fatal(err)
	}
	res, err := cycles.Decide(p, n, cycles.Options{Jobs: 1, Procedure: cycles.Automata})
	if err != nil {
		t.Fatal(err)
	}
	code := map[cycles.Verdict]int{cycles.Robust: 0, cycles.NotRobust: 1, cycles.RunError: 2, cycles.Unknown: 3}[res.Verdict]
	return p, Outcome{N: n, Res: res, Code: code}
}

// The front end's warnings and assumptions reach the text and the JSON
// (the contract of pgas.Program.Warnings and .Assumptions).
func TestWarningsAndAssumptions(t *testing.T) {
	p, o := decided(t, "shmem/mp-quiet.c", 2)
	if o.Res.Verdict != cycles.Robust {
		t.Fatalf("mp-quiet.c is robust (its comment argues it); got %v", o.Res.Verdict)
	}
	p.Warnings = []pgas.Diag{{Pos: pgas.Pos{Line: 3, Col: 5}, Msg: "PE 2 communicates nothing"}}
	p.Assumptions = []pgas.Assumption{{ID: "ctx-order", Text: "puts on one context arrive in order"}}
	var b bytes.Buffer
	WriteWarnings(&b, p)
	WriteText(&b, "shmem/mp-quiet.c", p, o)
	got := b.String()
	if !strings.HasPrefix(got, "shmem/mp-quiet.c:3:5: warning: PE 2 communicates nothing\n") {
		t.Errorf("no warning line first:\n%s", got)
	}
	if !strings.Contains(got, "assuming ctx-order: see "+AssumptionsSection) {
		t.Errorf("no pointer to the assumptions:\n%s", got)
	}
	out, _ := json.Marshal(DecideJSON{Warnings: Warnings(p), Assumptions: Assumptions(p)})
	for _, want := range []string{`"warnings":[{"file":"shmem/mp-quiet.c","line":3,"col":5,"msg":"PE 2 communicates nothing"}]`, `"assumptions":[{"id":"ctx-order"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("JSON lacks %s: %s", want, out)
		}
	}
}

// The model speaks the user's terms: PEs from 0 and name@PE for C, the C
// call as the event's text; ranks from 1 and (r,x) for .pgas.
func TestModelTerms(t *testing.T) {
	p, o := decided(t, "shmem/flag-put.c", 2)
	if o.Res.Verdict != cycles.NotRobust {
		t.Fatalf("flag-put.c is not robust (its comment argues it); got %v", o.Res.Verdict)
	}
	m := NewWitness(p, 2, o.Res.Witness)
	put := false
	for _, ev := range m.Events {
		if ev.Proc != ev.Rank-1 || ev.Who != "PE "+string(rune('0'+ev.Proc)) {
			t.Errorf("event %d: PE %d (%q) for rank %d", ev.Index, ev.Proc, ev.Who, ev.Rank)
		}
		if ev.Cell != nil && !strings.Contains(ev.Cell.Text, "@PE") {
			t.Errorf("event %d: cell %q not in name@PE form", ev.Index, ev.Cell.Text)
		}
		put = put || strings.HasPrefix(ev.Text, "shmem_long_p(")
	}
	if !put {
		t.Errorf("no event carries the C call shmem_long_p(...)")
	}
	q, o2 := decided(t, "mp-unsync.pgas", 2)
	m2 := NewWitness(q, 2, o2.Res.Witness)
	for _, ev := range m2.Events {
		if ev.Proc != ev.Rank || ev.Cell != nil && !strings.HasPrefix(ev.Cell.Text, "(") {
			t.Errorf(".pgas event %d: proc %d cell %+v", ev.Index, ev.Proc, ev.Cell)
		}
	}
}
