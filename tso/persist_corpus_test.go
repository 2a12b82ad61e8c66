package tso

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// persistHeader reads the "# key: value" lines at the top of a test file.
func persistHeader(src string) map[string]string {
	h := map[string]string{}
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		if k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": "); ok && !strings.Contains(k, " ") {
			h[k] = strings.TrimSpace(v)
		}
	}
	return h
}

// TestPersistTestdata checks the hand-analysed programs of
// testdata/persist: the verdict and minimum fence count written in each
// file (with the argument next to it), the robustness verdict where given,
// the fence position where given, and, for loop-free programs, the oracle.
func TestPersistTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/persist/*.txt")
	if len(files) < 6 {
		t.Fatalf("found %d programs in testdata/persist", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h := persistHeader(string(src))
		p, err := prog.ParseProgram(f, src)
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Criterion: Persistence, Jobs: 1, MaxStates: 1_000_000}
		res := check(p, prog.TSO, opt)
		if got := strings.ToLower(Persistence.VerdictString(res.Verdict)); got != h["expect"] {
			t.Errorf("%s: %s, want %s (%s)", f, got, h["expect"], res.Reason)
		}
		if res.Verdict == prog.NotRobust && (res.Witness == nil || res.Witness.Fragile == nil) {
			t.Errorf("%s: no certified witness: %v", f, res.WitnessErr)
		}
		if want, ok := h["robust"]; ok {
			if got := check(p, prog.TSO, Options{Jobs: 1}).Verdict == prog.Robust; got != (want == "yes") {
				t.Errorf("%s: robust %v, want %s", f, got, want)
			}
		}
		fr := findFences(p, prog.TSO, FenceOptions{Options: opt})
		if fr.Verdict != prog.Robust {
			t.Errorf("%s: fences: %s", f, fr.Reason)
			continue
		}
		if want, _ := strconv.Atoi(h["fences"]); len(fr.Fences) != want {
			t.Errorf("%s: %d fences, want %s", f, len(fr.Fences), h["fences"])
		}
		if at := h["fence-at"]; at != "" {
			var got []string
			for _, fe := range fr.Fences {
				got = append(got, p.Threads[fe.Thread].Name+" "+p.Threads[fe.Thread].Labels[fe.Label])
			}
			if strings.Join(got, ", ") != at {
				t.Errorf("%s: fences at %v, want %s", f, got, at)
			}
		}
		if o := oracle.Persistence(p, prog.TSO, oracle.Budget{MaxNodes: 100_000}); o.Verdict != prog.Unknown && o.Verdict != res.Verdict {
			t.Errorf("%s: oracle says %s", f, Persistence.VerdictString(o.Verdict))
		}
		if runs := oracle.EnumeratePersistence(p, oracle.Budget{MaxNodes: 100_000}); h["expect"] == "persistent" && runs.Result.Verdict != prog.Unknown && !runs.SameConfigs() {
			t.Errorf("%s: persistent, but TSO and SC reach different configurations", f)
		}
	}
}

// TestPersistCorpus decides persistence of the 24 Trencher programs with a
// minimum fence set each. The issue expected every robust program to be
// persistent; that is false (the persistence paper, Section 12, calls the
// two criteria incomparable): trf.txt is testdata/persist/wr.txt, fragile
// by the hand argument there, and clh-lock.txt and nbw-w-lr-rl.txt are
// robust with witnesses replayed and certified by finishFragile. The test
// pins those three; a robust file that is fragile for another reason would
// need its own argument. Conversely nbw-w-wr.txt is persistent but not
// robust.
func TestPersistCorpus(t *testing.T) {
	dir := corpusDir(t)
	var robustFragile, persistentNotRobust []string
	start := time.Now()
	var states int64
	oracleDecided := 0
	for _, e := range readExpected(t, dir) {
		src, err := os.ReadFile(filepath.Join(dir, e.file))
		if err != nil {
			t.Fatal(err)
		}
		p, err := prog.ParseProgram(e.file, src)
		if err != nil {
			t.Fatal(err)
		}
		opt := Options{Criterion: Persistence, Jobs: 1, Timeout: time.Minute}
		res := check(p, prog.TSO, opt)
		states += res.Stats.States
		switch {
		case res.Verdict == prog.Unknown:
			t.Errorf("%s: UNKNOWN: %s", e.file, res.Reason)
			continue
		case res.Verdict == prog.NotRobust && (res.Witness == nil || res.Witness.Fragile == nil):
			t.Errorf("%s: FRAGILE without a certified witness: %v", e.file, res.WitnessErr)
		case res.Verdict == prog.NotRobust && e.robust:
			robustFragile = append(robustFragile, e.file)
		case res.Verdict == prog.Robust && !e.robust:
			persistentNotRobust = append(persistentNotRobust, e.file)
		}
		// The bounded oracle (runs of at most 8 reads and writes) must not
		// contradict the checker where it decides.
		if o := oracle.PersistenceBounded(p, prog.TSO, oracle.Budget{MaxEvents: 8, MaxNodes: 20_000}); o.Verdict != prog.Unknown {
			oracleDecided++
			if o.Verdict != res.Verdict {
				t.Errorf("%s: bounded oracle %s, checker %s", e.file, Persistence.VerdictString(o.Verdict), Persistence.VerdictString(res.Verdict))
			}
		}
		fr := findFences(p, prog.TSO, FenceOptions{Options: opt})
		if fr.Verdict != prog.Robust {
			t.Errorf("%s: fences: %s", e.file, fr.Reason)
		} else if (len(fr.Fences) == 0) != (res.Verdict == prog.Robust) {
			t.Errorf("%s: %d fences for a %s program", e.file, len(fr.Fences), Persistence.VerdictString(res.Verdict))
		}
	}
	sort.Strings(robustFragile)
	if got := strings.Join(robustFragile, " "); got != "clh-lock.txt nbw-w-lr-rl.txt trf.txt" {
		t.Errorf("robust but fragile: %s", got)
	}
	if got := strings.Join(persistentNotRobust, " "); got != "nbw-w-wr.txt" {
		t.Errorf("persistent but not robust: %s", got)
	}
	// Evidence for the persistent, non-robust file: no fragile run of at
	// most 16 reads and writes (the checker's witnesses in the corpus have
	// up to 22 events; clh-lock.txt's has 22).
	src, err := os.ReadFile(filepath.Join(dir, "nbw-w-wr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram("nbw-w-wr.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	if o := oracle.PersistenceBounded(p, prog.TSO, oracle.Budget{MaxEvents: 16, MaxNodes: 100_000}); o.Verdict == prog.NotRobust {
		t.Errorf("nbw-w-wr.txt: the bounded oracle finds a fragile run")
	}
	if oracleDecided < 8 {
		t.Errorf("the bounded oracle decided only %d files", oracleDecided)
	}
	t.Logf("corpus: %d search states, %v; bounded oracle decided %d files", states, time.Since(start), oracleDecided)
}
