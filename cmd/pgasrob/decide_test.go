package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
)

const (
	oneToOne      = "../../examples/1to1.pgas"
	oneToOneFixed = "../../examples/1to1-fixed.pgas"
)

// runCmd runs the command line in-process.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// writeFile puts a program into a temporary directory.
func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A program whose only run-time error is reachable under SC: the load
// returns the 1 just stored, and 1 + 1 is outside values 0..1.
const runtimeErrorSrc = `values 2
address x
register r
    mem[x] <- 1
    r <- mem[x]
    r <- r + 1
`

func TestDecideCommand(t *testing.T) {
	bad := writeFile(t, "bad.pgas", "values 2\naddress x\n    mem[x] <- 1\n    mem[z] <- 1\n")
	rte := writeFile(t, "rte.pgas", runtimeErrorSrc)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings expected in stdout
		stderr []string // substrings expected in stderr
	}{
		// The witness of 1to1 (hand analysis in examples/1to1.pgas): a
		// cycle through both ranks, load -cf-> popb <-> write -po-> bar
		// <-> bar -po-> load, so it has po, cf and ↔ edges.
		{"1to1 not robust", []string{oneToOne, "-n", "2"}, exitNotRobust,
			[]string{"N = 2: NOT ROBUST", "cycle type (1 2)", "τ1", "τ2", "<enter>", "<leave>", "-po->", "-cf->", "-↔->", "certified", "states/s", "bytes/state"}, nil},
		{"1to1-fixed robust", []string{oneToOneFixed, "-n", "2"}, exitRobust, []string{"N = 2: ROBUST (", "states/s"}, nil},
		{"range", []string{oneToOneFixed, "-n", "1..2"}, exitRobust, []string{"N = 1: ROBUST", "N = 2: ROBUST"}, nil},
		{"range not robust", []string{oneToOne, "-n", "1..2", "--all"}, exitNotRobust, []string{"N = 1: NOT ROBUST", "cycle type (1):", "N = 2: NOT ROBUST", "cycle types 3 of 3 settled"}, nil},
		{"state budget", []string{oneToOne, "-n", "2", "--max-states", "10"}, exitUnknown,
			[]string{"N = 2: UNKNOWN", "state budget of 10 states reached", "explored before stopping: 10 states"}, nil},
		// Whatever the search got to, a robust verdict after the deadline
		// is not trusted (cycles.Decide), so this is UNKNOWN every time.
		{"time budget", []string{oneToOneFixed, "-n", "2", "--timeout", "1ns"}, exitUnknown,
			[]string{"N = 2: UNKNOWN", "time budget of 1ns reached"}, nil},
		{"static error", []string{bad, "-n", "2"}, exitUsage, nil, []string{bad + ":4:9: undefined name z"}},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.pgas"), "-n", "2"}, exitUsage, nil, []string{"pgasrob decide: open", "no such file"}},
		// One limit with one message, whatever the N (issue 8, row 8).
		{"N far out of range", []string{oneToOne, "-n", "1000"}, exitUsage, nil, []string{"-n 1000: decide supports at most N = 16 (the limit of the state encoding)"}},
		{"range past the limit", []string{oneToOne, "-n", "2..17"}, exitUsage, nil, []string{"-n 2..17: decide supports at most N = 16"}},
		// The cycle types are no limit (issue 7): 119,481,296 of them at
		// N = 12, streamed; the per-type searches go depth-first and stop
		// at the first violation (cycle type (1 2), as at N = 2).
		{"N = 12 streamed", []string{oneToOne, "-n", "12", "--procedure", "automata", "--jobs", "2"}, exitNotRobust,
			[]string{"N = 12: NOT ROBUST", "certified", "passed over by symmetry, of 119481296", "note: the shared exploration carries at most"}, nil},
		{"run-time error", []string{rte, "-n", "2"}, exitUsage,
			[]string{"RUN-TIME ERROR", "rte.pgas:6:10: value 2 outside 0..1", "#1   load   rank 1  (1,x)", "line 5: r <- mem[x]"}, nil},
		{"no -n", []string{oneToOne}, exitUsage, nil, []string{"pgasrob decide: missing -n N"}},
		{"no file", []string{"-n", "2"}, exitUsage, nil, []string{"pgasrob decide: missing FILE"}},
		// Several files are a project (decide_project.go): each decided, then the summary.
		{"two files", []string{oneToOne, oneToOneFixed, "-n", "2"}, exitNotRobust, []string{"1to1.pgas, N = 2: NOT ROBUST", "1to1-fixed.pgas, N = 2: ROBUST", "exit code 1 (the most severe)"}, nil},
		{"bad N", []string{oneToOne, "-n", "two"}, exitUsage, nil, []string{"pgasrob decide: -n \"two\": not a number"}},
		{"empty range", []string{oneToOne, "-n", "3..2"}, exitUsage, nil, []string{"lo <= hi"}},
		{"unknown flag", []string{oneToOne, "-n", "2", "--nope"}, exitUsage, nil, []string{"pgasrob decide: unknown flag: --nope", "--help"}},
		{"bad flag value", []string{oneToOne, "-n", "2", "--timeout", "soon"}, exitUsage, nil, []string{"pgasrob decide: invalid argument \"soon\""}},
		{"jobs 0", []string{oneToOne, "-n", "2", "--jobs", "0"}, exitUsage, nil, []string{"--jobs must be in 1..1024"}},
		{"memory overflow", []string{oneToOne, "-n", "2", "--max-memory", "9223372036854775807"}, exitUsage, nil, []string{"--max-memory must be in"}},
		{"negative budget", []string{oneToOne, "-n", "2", "--max-states", "-1"}, exitUsage, nil, []string{"must not be negative"}},
		{"help", []string{"--help"}, exitRobust, nil, []string{"usage: pgasrob decide FILE", "exit codes: 0 robust, 1 not robust", "--max-states"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCmd(append([]string{"decide"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errs)
				}
			}
			if len(tt.stderr) == 0 && errs != "" {
				// Progress goes to a terminal only; a buffer gets nothing.
				t.Errorf("unexpected stderr:\n%s", errs)
			}
		})
	}
}

// decodeDecide runs decide --json and decodes its output twice: into the
// command's own type and into a generic map, to check the field names the
// schema in docs/cli.md promises.
func decodeDecide(t *testing.T, wantCode int, args ...string) (decideJSON, map[string]any) {
	t.Helper()
	code, out, errs := runCmd(append([]string{"decide", "--json"}, args...)...)
	if code != wantCode {
		t.Fatalf("exit %d, want %d\n%s%s", code, wantCode, out, errs)
	}
	var v decideJSON
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return v, m
}

func hasKeys(t *testing.T, what string, m any, keys ...string) {
	t.Helper()
	obj, ok := m.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, not an object", what, m)
	}
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s lacks field %q: %v", what, k, obj)
		}
	}
}

func TestDecideJSONSchema(t *testing.T) {
	v, m := decodeDecide(t, exitNotRobust, oneToOne, "-n", "1..2")
	hasKeys(t, "top level", m, "schema", "file", "program", "n", "results", "verdict", "exit_code")
	if v.Schema != decideSchema || v.Program != "oneToOne" || v.NArg != "1..2" || v.Verdict != "not robust" || v.ExitCode != exitNotRobust {
		t.Errorf("top level: %+v", v)
	}
	if len(v.Results) != 2 || v.Results[0].N != 1 || v.Results[1].N != 2 {
		t.Fatalf("want results for N = 1 and 2, got %d", len(v.Results))
	}
	r := m["results"].([]any)[1]
	hasKeys(t, "result", r, "n", "verdict", "exit_code", "stats", "cache", "cycle_types", "witness")
	rm := r.(map[string]any)
	hasKeys(t, "stats", rm["stats"], "states", "transitions", "bytes", "elapsed_ms", "states_per_second", "bytes_per_state")
	hasKeys(t, "cache", rm["cache"], "hits", "misses", "hit_rate")
	hasKeys(t, "cycle_types", rm["cycle_types"], "total", "checked", "feasible")
	hasKeys(t, "witness", rm["witness"], "cycle_type", "parts", "cycle", "certified")
	for _, res := range v.Results {
		if res.Verdict != "not robust" || res.ExitCode != exitNotRobust || res.Witness == nil || res.Stats.States <= 0 {
			t.Errorf("N = %d: %+v", res.N, res)
		}
		// Cycle types of N ranks: 1 for N = 1; (1), (2), (1 2) for N = 2.
		if want := map[int]int{1: 1, 2: 3}[res.N]; res.CycleTypes.Total != want {
			t.Errorf("N = %d: %d cycle types, want %d", res.N, res.CycleTypes.Total, want)
		}
		checkWitnessJSON(t, res.N, res.Witness)
	}
}

// checkWitnessJSON checks a witness as printed against the definitions,
// independently of the procedure that found it: the parts are in normal
// form (Definition 4: τ2..τ4 hold only pops), the cycle is a closed walk,
// and recomputing happens-before (Section 3) from the printed events gives
// every printed edge.
func checkWitnessJSON(t *testing.T, n int, w *witnessJSON) {
	t.Helper()
	if len(w.Parts) != 4 || !w.Certified {
		t.Fatalf("N = %d: %d parts, certified %v", n, len(w.Parts), w.Certified)
	}
	p, err := pgas.Load(oneToOne)
	if err != nil {
		t.Fatal(err)
	}
	queue := map[string]int{}
	for i, q := range p.Queues {
		queue[q] = i
	}
	kinds := map[string]pgas.Kind{}
	for k := pgas.KLoad; k <= pgas.KBar; k++ {
		kinds[k.String()] = k
	}
	var evs []pgas.Event
	for k, part := range w.Parts {
		for _, e := range part {
			if e.Index != len(evs) || e.Part != k+1 {
				t.Errorf("event %+v numbered out of order", e)
			}
			kind, ok := kinds[e.Kind]
			if !ok {
				t.Fatalf("unknown kind %q", e.Kind)
			}
			if k > 0 && !kind.IsPop() {
				t.Errorf("τ%d holds %s, not a pop", k+1, e.Kind)
			}
			ev := pgas.Event{Kind: kind, Rank: e.Rank, Queue: -1}
			if e.Queue != "" {
				ev.Queue = queue[e.Queue]
			}
			if e.Cell != nil {
				ev.HasCell, ev.Cell = true, pgas.Cell{Rank: e.Cell.Rank, Addr: e.Cell.Addr}
				if p.Addrs[e.Cell.Addr] != e.Cell.Name {
					t.Errorf("cell name %q for address %d", e.Cell.Name, e.Cell.Addr)
				}
			}
			if e.Line == 0 || e.Text == "" {
				t.Errorf("event %+v has no source line", e)
			}
			evs = append(evs, ev)
		}
	}
	hb := pgas.HappensBefore(evs)
	edges := map[pgas.HBEdge]bool{}
	for _, e := range hb.Edges {
		edges[e] = true
	}
	if len(w.Cycle) < 2 {
		t.Fatalf("cycle %v too short", w.Cycle)
	}
	rels := map[string]int{}
	for i, e := range w.Cycle {
		next := w.Cycle[(i+1)%len(w.Cycle)]
		if e.To != next.From {
			t.Errorf("edge %d ends at #%d, edge %d starts at #%d", i, e.To, i+1, next.From)
		}
		if e.From < 0 || e.To < 0 || e.From >= len(evs) || e.To >= len(evs) {
			t.Fatalf("edge %+v outside the %d events", e, len(evs))
		}
		rels[e.Rel]++
		switch e.Rel {
		case "po":
			if !edges[pgas.HBEdge{From: e.From, To: e.To, Rel: pgas.RelPO}] {
				t.Errorf("#%d -po-> #%d is not a program-order edge", e.From, e.To)
			}
		case "cf":
			if !edges[pgas.HBEdge{From: e.From, To: e.To, Rel: pgas.RelCF}] {
				t.Errorf("#%d -cf-> #%d is not a conflict edge", e.From, e.To)
			}
		case "↔":
			if hb.Class[e.From] != hb.Class[e.To] {
				t.Errorf("#%d ↔ #%d are in different classes", e.From, e.To)
			}
		default:
			t.Errorf("unknown relation %q", e.Rel)
		}
	}
	if !hb.Violating() {
		t.Errorf("N = %d: the printed computation is not violating", n)
	}
	// Hand analysis (examples/1to1.pgas): the only conflict on the cycle
	// is a load of y before the popb that writes it.
	if rels["cf"] == 0 || rels["po"] == 0 {
		t.Errorf("N = %d: cycle %v lacks po or cf edges", n, w.Cycle)
	}
	for _, e := range w.Cycle {
		if e.Rel == "cf" && (evs[e.From].Kind != pgas.KLoad || evs[e.To].Kind != pgas.KPopb || p.Addrs[evs[e.To].Cell.Addr] != "y") {
			t.Errorf("N = %d: cf edge %v -> %v, want load -> popb of y", n, evs[e.From], evs[e.To])
		}
	}
}

func TestDecideJSONRobustAndUnknown(t *testing.T) {
	v, _ := decodeDecide(t, exitRobust, oneToOneFixed, "-n", "2")
	r := v.Results[0]
	if v.Verdict != "robust" || r.Witness != nil || r.CycleTypes.Total != 3 || r.CycleTypes.Feasible != 0 ||
		r.CycleTypes.Checked+r.CycleTypes.BySymmetry != 3 || r.Cache.Hits+r.Cache.Misses == 0 {
		t.Errorf("robust result: %+v", v)
	}
	v, _ = decodeDecide(t, exitUnknown, oneToOne, "-n", "2", "--max-states", "10")
	if r := v.Results[0]; v.Verdict != "unknown" || !strings.Contains(r.Reason, "state budget of 10") || r.Stats.States != 10 {
		t.Errorf("unknown result: %+v", v)
	}
	v, _ = decodeDecide(t, exitUsage, writeFile(t, "rte.pgas", runtimeErrorSrc), "-n", "1")
	if r := v.Results[0]; r.RuntimeError == nil || len(r.RuntimeError.Path) != 2 || r.Verdict != "run-time error" {
		t.Errorf("run-time error result: %+v", v)
	}
	bad := writeFile(t, "bad.pgas", "values 2\naddress x\n    mem[z] <- 1\n")
	v, _ = decodeDecide(t, exitUsage, bad, "-n", "2")
	if len(v.Errors) != 1 || v.Errors[0].Line != 3 || v.Errors[0].Col != 9 || v.Verdict != "input error" {
		t.Errorf("input error: %+v", v)
	}
}

// dotGraph is the little of the DOT language witnessDot uses: node
// statements with a label and edge statements with a label.
type dotGraph struct {
	nodes map[string]string // id -> label
	edges [][3]string       // from, to, label
}

var (
	dotNode = regexp.MustCompile(`^\s*(e\d+) \[label="((?:[^"\\]|\\.)*)"\];$`)
	dotEdge = regexp.MustCompile(`^\s*(e\d+) -> (e\d+) \[label="([^"]*)"[^\]]*\];$`)
	dotAttr = regexp.MustCompile(`^\s*(label|labelloc|style|node \[.*\]|subgraph cluster_\d+ \{|\}).*$`)
)

func parseDot(t *testing.T, src string) dotGraph {
	t.Helper()
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "digraph ") || !strings.HasSuffix(lines[0], "{") || lines[len(lines)-1] != "}" {
		t.Fatalf("not a digraph:\n%s", src)
	}
	g := dotGraph{nodes: map[string]string{}}
	depth := 1
	for _, l := range lines[1:] {
		switch {
		case dotNode.MatchString(l):
			m := dotNode.FindStringSubmatch(l)
			g.nodes[m[1]] = m[2]
		case dotEdge.MatchString(l):
			m := dotEdge.FindStringSubmatch(l)
			g.edges = append(g.edges, [3]string{m[1], m[2], m[3]})
		case dotAttr.MatchString(l):
			depth += strings.Count(l, "{") - strings.Count(l, "}")
		default:
			t.Errorf("unexpected DOT line %q", l)
		}
	}
	if depth != 0 {
		t.Errorf("unbalanced braces in:\n%s", src)
	}
	return g
}

func TestDecideDot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cycle.dot")
	code, out, errs := runCmd("decide", oneToOne, "-n", "2", "--dot", file)
	if code != exitNotRobust {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "written to "+file) {
		t.Errorf("stdout does not name the dot file:\n%s", out)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g := parseDot(t, string(src))
	// The edges form one closed walk over declared nodes, each labelled
	// with a relation of happens-before.
	if len(g.edges) < 3 {
		t.Fatalf("too few edges: %v", g.edges)
	}
	for i, e := range g.edges {
		if _, ok := g.nodes[e[0]]; !ok {
			t.Errorf("edge from undeclared node %s", e[0])
		}
		if _, ok := g.nodes[e[1]]; !ok {
			t.Errorf("edge to undeclared node %s", e[1])
		}
		if e[2] != "po" && e[2] != "cf" && e[2] != "↔" {
			t.Errorf("edge label %q", e[2])
		}
		if next := g.edges[(i+1)%len(g.edges)]; e[1] != next[0] {
			t.Errorf("edges %v and %v do not chain", e, next)
		}
	}
	for id, label := range g.nodes {
		if !strings.Contains(label, "rank") || !strings.Contains(label, "line") {
			t.Errorf("node %s label %q lacks rank or line", id, label)
		}
	}

	// With a range, one file per N, named FILE-N.ext.
	code, out, errs = runCmd("decide", oneToOne, "-n", "1..2", "--dot", file)
	if code != exitNotRobust {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, n := range []int{1, 2} {
		src, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("cycle-%d.dot", n)))
		if err != nil {
			t.Fatal(err)
		}
		parseDot(t, string(src))
	}

	// No violation, no graph.
	robust := filepath.Join(dir, "robust.dot")
	if code, _, _ := runCmd("decide", oneToOneFixed, "-n", "2", "--dot", robust); code != exitRobust {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(robust); !os.IsNotExist(err) {
		t.Errorf("a robust program produced %s", robust)
	}

	// An unwritable destination is an error, not a silent loss.
	code, _, errs = runCmd("decide", oneToOne, "-n", "2", "--dot", filepath.Join(dir, "no", "such", "dir.dot"))
	if code != exitUsage || !strings.Contains(errs, "no such file") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// The procedure's own failures must surface as exit 4 with "internal
// error", never as a verdict. cycles.Decide fails only when it is broken,
// so a stand-in plays that part.
func TestDecideInternalError(t *testing.T) {
	real := decideFunc
	defer func() { decideFunc = real }()
	fakes := map[string]func(*pgas.Program, int, cycles.Options) (*cycles.Result, error){
		"witness does not replay": func(*pgas.Program, int, cycles.Options) (*cycles.Result, error) {
			return nil, fmt.Errorf("%w: the witness does not replay", cycles.ErrInternal)
		},
		"other failure": func(*pgas.Program, int, cycles.Options) (*cycles.Result, error) {
			return nil, fmt.Errorf("cache: out of luck")
		},
		"panic": func(*pgas.Program, int, cycles.Options) (*cycles.Result, error) {
			panic("index out of range")
		},
		"violation without witness": func(_ *pgas.Program, n int, _ cycles.Options) (*cycles.Result, error) {
			return &cycles.Result{Verdict: cycles.NotRobust, N: n}, nil
		},
	}
	for name, fake := range fakes {
		t.Run(name, func(t *testing.T) {
			decideFunc = fake
			code, out, errs := runCmd("decide", oneToOne, "-n", "1..2")
			if code != exitInternal || !strings.Contains(errs, "internal error") || strings.Contains(out, "ROBUST") {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			if strings.Contains(out, "N = 2") {
				t.Errorf("went on to N = 2 after an internal error:\n%s", out)
			}
			decideFunc = fake
			code, out, _ = runCmd("decide", "--json", oneToOne, "-n", "2")
			var v decideJSON
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			if code != exitInternal || v.ExitCode != exitInternal || v.Verdict != "internal error" || len(v.Results) != 1 || v.Results[0].Error == "" {
				t.Errorf("exit %d, JSON %+v", code, v)
			}
		})
	}
}

// Every example states its expected verdict for N = 2 in its header
// comment, with the hand analysis behind it; the command must agree.
func TestDecideExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.pgas")
	if len(files) == 0 {
		t.Skip("no examples in ../../examples")
	}
	want := regexp.MustCompile(`(?m)^#\s*Expected verdict for N = 2: (NOT ROBUST|ROBUST)\b`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := want.FindSubmatch(src)
		if m == nil {
			t.Logf("%s states no verdict for N = 2; skipped", f)
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			code, out, errs := runCmd("decide", f, "-n", "2", "--timeout", "60s")
			wantCode := map[string]int{"ROBUST": exitRobust, "NOT ROBUST": exitNotRobust}[string(m[1])]
			if code != wantCode {
				t.Errorf("exit %d, header says %s\n%s%s", code, m[1], out, errs)
			}
		})
	}
}

// A fuzzed -n must give a usage error or a verdict, never a panic.
func FuzzDecideN(f *testing.F) {
	for _, s := range []string{"2", "1..2", "0", "2..1", "x", "..", "1..", "..2", " 1 .. 2 ", "-1", "1...2", "99999999999999999999", "1..2..3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if lo, hi, err := parseRange(s); err == nil && (hi > 2 || hi-lo > 1) {
			return // a valid large N only costs time here
		}
		code, _, _ := runCmd("decide", oneToOne, "-n", s, "--max-states", "50")
		if code != exitUsage && code != exitNotRobust && code != exitUnknown {
			t.Errorf("-n %q: exit %d", s, code)
		}
	})
}

// TestDecideProcedure: --procedure oracle answers with a direct witness,
// says so, and agrees with the cycle-type search; a bad name is a usage
// error.
func TestDecideProcedure(t *testing.T) {
	code, out, errs := runCmd("decide", oneToOne, "-n", "2", "--procedure", "oracle")
	if code != exitNotRobust || !strings.Contains(out, "relaxed computation found by the oracle") || !strings.Contains(out, "decided by the oracle") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCmd("decide", oneToOneFixed, "-n", "2", "--procedure", "oracle")
	if code != exitRobust || !strings.Contains(out, "ROBUST") || !strings.Contains(out, "decided by the oracle") {
		t.Fatalf("robust by the oracle: exit %d\n%s", code, out)
	}
	// auto on a small program: the search answers before the oracle starts.
	v, _ := decodeDecide(t, exitNotRobust, oneToOne, "-n", "2")
	if v.Results[0].Procedure != "automata" || v.Results[0].Witness.Direct {
		t.Fatalf("auto on a small program: %+v", v.Results[0])
	}
	if code, _, errs := runCmd("decide", oneToOne, "-n", "2", "--procedure", "brute"); code != exitUsage || !strings.Contains(errs, "unknown procedure") {
		t.Fatalf("bad procedure: exit %d\n%s", code, errs)
	}
	// Both at once: prodcons at N = 3 is robust whoever answers.
	if code, out, errs := runCmd("decide", "../../examples/prodcons.pgas", "-n", "3", "--oracle-after", "0s"); code != exitRobust {
		t.Fatalf("--oracle-after 0s: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCmd("decide", oneToOne, "-n", "2", "--oracle-after", "-1s"); code != exitUsage || !strings.Contains(errs, "must not be negative") {
		t.Fatalf("negative --oracle-after: exit %d\n%s", code, errs)
	}
}
