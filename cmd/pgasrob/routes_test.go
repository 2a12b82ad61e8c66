package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/translate"
)

var testRouteBudget = routeBudget{states: 200_000, nodes: 200_000, timeout: 20 * time.Second}

// TestDifferences: each program of pgas/translate/testdata shows the
// difference it is named after (hand argument in its header): decide and
// the X(P,N) oracle find a violation, the translation is robust under the
// framework (tso.Check and tso/oracle.Robustness), and Explain names the cause.
func TestDifferences(t *testing.T) {
	files, _ := filepath.Glob("../../pgas/translate/testdata/*.pgas")
	if len(files) < len(translate.Causes) {
		t.Fatalf("%d difference programs for %d causes", len(files), len(translate.Causes))
	}
	seen := map[translate.Cause]bool{}
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		c := compareRoutes(p, 2, testRouteBudget)
		want := translate.Cause(strings.TrimSuffix(filepath.Base(f), ".pgas"))
		if c.Status != translate.RoutesDiffer || c.Cause != want || c.PGAS != "NOT ROBUST" || c.Framework != "ROBUST" {
			t.Errorf("%s: status %d, cause %q, PGAS %s, instrumentation %s (%s); want cause %q", f, c.Status, c.Cause, c.PGAS, c.Framework, c.Detail, want)
		}
		seen[c.Cause] = true
	}
	for _, c := range translate.Causes {
		if !seen[c] {
			t.Errorf("no program shows cause %q", c)
		}
	}
}

var viaHeader = regexp.MustCompile(`# Instrumentation route \(pgasrob decide --via instrumentation, N = 2 and 3\):\n# (NOT ROBUST|framework ROBUST)\.`)

// TestExamplesBothRoutes runs every example through both routes at N = 2
// and 3 and checks the instrumentation route's verdict against the
// example's header, and the relation: NOT ROBUST through the translation
// only where decide says NOT ROBUST.
func TestExamplesBothRoutes(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.pgas")
	for _, f := range files {
		src, _ := os.ReadFile(f)
		m := viaHeader.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no instrumentation route line in the header", f)
			continue
		}
		code, out, errOut := runCmd("decide", f, "-n", "2..3", "--via", "instrumentation", "--json")
		var v decideViaJSON
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%s: %v\n%s%s", f, err, out, errOut)
		}
		want := map[string]int{"NOT ROBUST": exitNotRobust, "framework ROBUST": exitUnknown}[string(m[1])]
		if code != want || len(v.Results) != 2 {
			t.Errorf("%s: exit %d with %d results, header says %s", f, code, len(v.Results), m[1])
		}
		for _, r := range v.Results {
			exact, _, _ := runCmd("decide", f, "-n", strconv.Itoa(r.N), "--procedure", "automata")
			if r.Verdict == "NOT ROBUST" && exact != exitNotRobust {
				t.Errorf("%s N = %d: NOT ROBUST through the translation, exact route exit %d", f, r.N, exact)
			}
			if r.Verdict == "NOT ROBUST" && (r.Attack == nil || r.LastAction == nil || r.Attack.Line == 0 || len(r.Witness) == 0) {
				t.Errorf("%s N = %d: witness not mapped to source lines: %+v", f, r.N, r)
			}
		}
	}
}

// TestDifftestInstrumentation is the CI run of the two routes against each
// other: generated programs, no disagreement (a broken relation or an
// unexplained difference), and the documented causes counted. The
// programs are those of the generator without contexts (the default of
// --instrumentation, whose route refuses them:
// TestDifftestInstrumentationContexts).
func TestDifftestInstrumentation(t *testing.T) {
	count := strconv.Itoa(sized(500, 1000))
	if testing.Short() {
		count = "100"
	}
	code, out, errOut := runCmd("difftest", "--instrumentation", "--count", count, "--seed", "20261123", "--json")
	var v difftestJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	if code != exitRobust || v.Disagree != 0 {
		t.Fatalf("exit %d, %d disagreements: %+v", code, v.Disagree, v.Disagreements)
	}
	if v.Agree < v.Programs*9/10 || len(v.Differences) == 0 {
		t.Errorf("%d of %d programs compared, differences %v", v.Agree, v.Programs, v.Differences)
	}
	for c := range v.Differences {
		if !strings.Contains(strings.Join(causeNames(), " "), c) {
			t.Errorf("undocumented cause %q", c)
		}
	}
}

func causeNames() []string {
	var s []string
	for _, c := range translate.Causes {
		s = append(s, string(c))
	}
	return s
}

// TestRoutesCatchBug: a disagreement on the instrumentation side is
// reported with a shrunken reproducer and exit 1.
func TestRoutesCatchBug(t *testing.T) {
	defer func(f func(*pgas.Program, int, routeBudget) translate.Comparison) { compareRoutesFunc = f }(compareRoutesFunc)
	compareRoutesFunc = func(p *pgas.Program, n int, b routeBudget) translate.Comparison {
		c := compareRoutes(p, n, b)
		if c.Status == translate.RoutesDiffer {
			c.Status, c.Detail = translate.RoutesBroken, "pretend"
		}
		return c
	}
	code, out, _ := runCmd("difftest", "--instrumentation", "--count", "40", "--seed", "5", "--json")
	var v difftestJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if code != exitNotRobust || v.Disagree == 0 || v.Disagreements[0].Source == "" {
		t.Fatalf("exit %d, %d disagreements", code, v.Disagree)
	}
}
