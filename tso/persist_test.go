package tso

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// persistDiff compares the pattern search with the oracle on one program
// and checks the invariants; it returns the two verdicts.
func persistDiff(t *testing.T, p *prog.Program, src string) (checker, byOracle, robust prog.Verdict) {
	t.Helper()
	res := check(p, prog.TSO, Options{Criterion: Persistence, MaxStates: 200_000, Jobs: 1, Timeout: 10 * time.Second})
	if res.WitnessErr != nil {
		t.Fatalf("witness: %v\nprogram:\n%s", res.WitnessErr, src)
	}
	if res.Verdict == prog.NotRobust && (res.Witness == nil || res.Witness.Fragile == nil) {
		t.Fatalf("FRAGILE without a fragile run\nprogram:\n%s", src)
	}
	// One enumeration serves the oracle's verdict (Persistence is
	// persistCompare of it), the witness check and the states check.
	runs := oracle.EnumeratePersistence(p, oracle.Budget{MaxNodes: 300_000, Timeout: 10 * time.Second})
	o := runs.Result
	if res.Verdict != prog.Unknown && o.Verdict != prog.Unknown && res.Verdict != o.Verdict {
		t.Fatalf("checker %s, oracle %s\nprogram:\n%s", Persistence.VerdictString(res.Verdict), Persistence.VerdictString(o.Verdict), src)
	}
	if res.Verdict == prog.NotRobust && o.Verdict != prog.Unknown {
		witnessNotSC(t, p, res.Witness, runs, src)
	}
	if o.Verdict == prog.Robust && !runs.SameConfigs() {
		// Strong persistence (Section 6) fails.
		t.Fatalf("persistent, but TSO and SC reach different configurations\nprogram:\n%s", src)
	}
	rob := check(p, prog.TSO, Options{MaxStates: 200_000, Jobs: 1, Timeout: 10 * time.Second})
	return res.Verdict, o.Verdict, rob.Verdict
}

// TestPersistDiffRandom runs the pattern search and the oracle on random
// loop-free programs (with locked read-modify-writes and mfences) and
// wants the same verdict. PGASROB_DIFF_N sets the number of programs (the
// long run of the issue: 20000); the default keeps the test short.
func TestPersistDiffRandom(t *testing.T) {
	n := sized(120, 400)
	if testing.Short() {
		n = 150
	}
	if s := os.Getenv("PGASROB_DIFF_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("PGASROB_DIFF_N: %v", err)
		}
	}
	r := rand.New(rand.NewPCG(11, 1))
	counts := map[string]int{}
	start := time.Now()
	for i := 0; i < n; i++ {
		src := gen.Generate(r, gen.Config{})
		p, err := prog.ParseProgram(fmt.Sprintf("random-%d", i), []byte(src))
		if err != nil {
			t.Fatalf("generator wrote a bad program: %v\n%s", err, src)
		}
		cv, ov, rv := persistDiff(t, p, src)
		counts["checker "+Persistence.VerdictString(cv)]++
		counts["oracle "+Persistence.VerdictString(ov)]++
		counts[Robustness.VerdictString(rv)+" & "+Persistence.VerdictString(ov)]++
		if n >= 2000 && (i+1)%1000 == 0 {
			t.Logf("%d programs in %v: %v", i+1, time.Since(start), counts)
		}
	}
	t.Logf("%d programs in %v: %v", n, time.Since(start), counts)
	if counts["checker UNKNOWN"]+counts["oracle UNKNOWN"] > n/50 {
		t.Errorf("too many undecided programs: %v", counts)
	}
	if counts["oracle FRAGILE"] < n/10 || counts["oracle PERSISTENT"] < n/10 {
		t.Errorf("the generator gives too one-sided a sample: %v", counts)
	}
}

// TestPersistPSO: persistence is decided for TSO only: Check refuses the
// request with an error (no budget would change the answer), the checker's
// own callers get UNKNOWN with the reason, and so does the oracle.
func TestPersistPSO(t *testing.T) {
	p, err := prog.ParseProgram("sb", []byte("thread a\ninitial q0\ntransition q0 q1 write 1 0\ntransition q1 q2 read r 1\nend\nthread b\ninitial q0\ntransition q0 q1 write 1 1\nend\n"))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := Check(p, prog.PSO, Options{Criterion: Persistence, Jobs: 1}); err == nil || !strings.Contains(err.Error(), "TSO only") {
		t.Errorf("Check under PSO: %v, %v; want an error for TSO only", res, err)
	}
	if _, err := Check(p, prog.TSO, Options{Criterion: Criterion(len(Criteria())), Jobs: 1}); err == nil {
		t.Errorf("Check with an unknown criterion: no error")
	}
	if _, err := FindFences(p, prog.PSO, FenceOptions{Options: Options{Criterion: Persistence, Jobs: 1}}); err == nil {
		t.Errorf("FindFences for persistence under PSO: no error")
	}
	if _, err := CheckParameterized(p, Options{Criterion: Persistence, Jobs: 1}, 0); err == nil {
		t.Errorf("CheckParameterized for persistence: no error")
	}
	res := check(p, prog.PSO, Options{Criterion: Persistence, Jobs: 1})
	if res.Verdict != prog.Unknown || !strings.Contains(res.Reason, "TSO only") {
		t.Errorf("PSO: %s (%s), want UNKNOWN for TSO only", res.Verdict, res.Reason)
	}
	if o := oracle.Persistence(p, prog.PSO, oracle.Budget{}); o.Verdict != prog.Unknown {
		t.Errorf("oracle under PSO: %s", o.Verdict)
	}
}

// witnessNotSC replays a fragile witness on a fresh Machine and checks,
// against the oracle's enumeration of all SC runs, that none has its
// trace: the exhaustive counterpart of the argument finishFragile checks.
func witnessNotSC(t *testing.T, p *prog.Program, w *Witness, runs *oracle.PersistenceRuns, src string) {
	t.Helper()
	mc := prog.NewMachine(p, prog.TSO)
	for _, s := range w.Steps {
		var err error
		if s.Kind == StepExec {
			err = mc.Exec(s.Thread, s.Trans)
		} else {
			err = mc.Flush(s.Thread)
		}
		if err != nil {
			t.Fatalf("witness step: %v\nprogram:\n%s", err, src)
		}
	}
	if runs.SCHasTrace(mc) {
		t.Fatalf("an SC run has the witness's trace\n%s\nprogram:\n%s", w.Format(p), src)
	}
}

// TestPersistReplay: a witness replays to the same fragile run, and a
// damaged one (u1 missing, or e1 landing before e) is an error.
func TestPersistReplay(t *testing.T) {
	src, err := os.ReadFile("testdata/persist/sb.txt")
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram("sb.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	res := check(p, prog.TSO, Options{Criterion: Persistence, Jobs: 1})
	w := res.Witness
	if w == nil || w.Fragile == nil {
		t.Fatalf("no witness: %v", res.WitnessErr)
	}
	replay := criteria[Persistence].replay
	again, err := replay(p, prog.TSO, w)
	if err != nil || again.Format(p) != w.Format(p) {
		t.Fatalf("replay: %v\n%s", err, again.Format(p))
	}
	short := *w
	short.Steps = w.Steps[:len(w.Steps)-1]
	if _, err := replay(p, prog.TSO, &short); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("replay without u1: %v", err)
	}
	// Land e1 at once: the run is then SC, and the argument must fail.
	var early []Step
	for _, s := range w.Steps[:len(w.Steps)-1] {
		early = append(early, s)
		if s.Event == w.StoreEvent && s.Kind == StepExec {
			early = append(early, Step{Kind: StepFlush, Thread: s.Thread})
		}
	}
	sc := *w
	sc.Steps = early
	if _, err := replay(p, prog.TSO, &sc); err == nil {
		t.Errorf("an SC run passed as fragile")
	}
}
