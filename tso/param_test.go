package tso

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

var paramExpectRE = regexp.MustCompile(`(?m)^# expect: (robust|not robust)$`)
var paramCopiesRE = regexp.MustCompile(`(?m)^# copies: (\d+)$`)

// paramOpt are the budgets of the parameterized tests: small enough that a
// program outside the method (data growing with the number of copies)
// ends in UNKNOWN quickly.
func paramOpt() Options {
	return Options{MaxStates: 200_000, MaxBytes: 256 << 20, Jobs: 1, Timeout: time.Minute}
}

// crossCheck is the cross-check every parameterized verdict gets: the
// plain checker on the instances with 1..k copies of each replicated
// thread. A violation in one of them must exist iff the verdict is NOT
// ROBUST and k reaches the witness's copies (an instance with more copies
// has every computation of one with fewer: the extra copies stay idle).
func crossCheck(t *testing.T, p *prog.Program, r *ParamResult, k int) {
	t.Helper()
	need := 0
	if r.Verdict == prog.NotRobust {
		for ti, th := range p.Threads {
			if th.Replicated {
				need = max(need, r.Copies[ti])
			}
		}
		if r.Witness == nil || r.WitnessErr != nil {
			t.Fatalf("NOT ROBUST without a replayed witness: %v", r.WitnessErr)
		}
		if r.InstanceCheck == nil || r.InstanceCheck.Verdict != prog.NotRobust {
			t.Fatalf("the witness instance %v is not NOT ROBUST for the plain checker", r.Copies)
		}
	}
	for i := 1; i <= k; i++ {
		q, _ := Instance(p, uniformCopies(p, i))
		c := check(q, prog.TSO, Options{MaxStates: 1_000_000, Jobs: 2})
		switch {
		case c.Verdict == prog.Unknown:
			t.Logf("instance %d: unknown (%s)", i, c.Reason)
		case c.Verdict == prog.NotRobust && r.Verdict == prog.Robust:
			t.Fatalf("parameterized ROBUST, but the instance with %d copies is NOT ROBUST", i)
		case c.Verdict == prog.Robust && r.Verdict == prog.NotRobust && i >= need:
			t.Fatalf("parameterized NOT ROBUST with copies %v, but the instance with %d copies is robust", r.Copies, i)
		}
	}
}

// TestParamExamples checks the hand-derived verdicts in the headers of
// examples/tso/param-*.txt, the cut-off evidence of the robust ones and,
// for the others, that the witness needs the copies the header says: the
// instance with one copy fewer is robust.
func TestParamExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "tso", "param-*.txt"))
	if err != nil || len(files) < 6 {
		t.Fatalf("want at least six parameterized examples, found %d: %v", len(files), err)
	}
	robust, not := 0, 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m := paramExpectRE.FindSubmatch(src)
			if m == nil {
				t.Fatal(`no "# expect: robust" or "# expect: not robust" header`)
			}
			p, err := prog.ParseProgram(file, src)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Replicated() {
				t.Fatal("no replicated thread")
			}
			r := checkParameterized(p, paramOpt(), 3)
			want := prog.Robust
			if string(m[1]) == "not robust" {
				want = prog.NotRobust
				not++
			} else {
				robust++
			}
			if r.Verdict != want {
				t.Fatalf("verdict %v, want %v (%s)", r.Verdict, want, r.Reason)
			}
			if want == prog.Robust && r.Confirmed != 3 {
				t.Errorf("cut-off evidence: instances confirmed up to %d, want 3 (%s)", r.Confirmed, r.CutoffReason)
			}
			crossCheck(t, p, r, 3)
			if want == prog.NotRobust {
				c := paramCopiesRE.FindSubmatch(src)
				if c == nil {
					t.Fatal(`no "# copies: N" header`)
				}
				n, _ := strconv.Atoi(string(c[1]))
				got := 0
				for ti, th := range p.Threads {
					if th.Replicated {
						got = max(got, r.Copies[ti])
					}
				}
				if got < n {
					t.Errorf("witness with %d copies, the header says %d are needed", got, n)
				}
				if n > 1 {
					q, _ := Instance(p, uniformCopies(p, n-1))
					if c := check(q, prog.TSO, Options{MaxStates: 1_000_000, Jobs: 2}); c.Verdict != prog.Robust {
						t.Errorf("the instance with %d copies is %v, the header says it is robust", n-1, c.Verdict)
					}
				}
			}
		})
	}
	if robust < 3 || not < 3 {
		t.Errorf("%d robust and %d not robust examples, want at least three of each", robust, not)
	}
}

// TestParamRobustForTwoNotThree is the "robust for 2, not for 3":
// the ring of param-ring3.txt, checked instance by instance and as a
// parameterized program, whose witness must be an instance of three.
func TestParamRobustForTwoNotThree(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "tso", "param-ring3.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram("ring3", src)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]prog.Verdict{1: prog.Robust, 2: prog.Robust, 3: prog.NotRobust} {
		q, _ := Instance(p, []int{k})
		if r := check(q, prog.TSO, Options{Jobs: 2}); r.Verdict != want {
			t.Errorf("%d copies: %v, want %v", k, r.Verdict, want)
		}
	}
	r := checkParameterized(p, paramOpt(), 0)
	if r.Verdict != prog.NotRobust || r.Copies[0] != 3 || len(r.Instance.Threads) != 3 {
		t.Fatalf("parameterized: %v with copies %v, want NOT ROBUST with 3", r.Verdict, r.Copies)
	}
	if r.Witness == nil || r.WitnessErr != nil || len(r.Witness.Cycle) != 6 {
		t.Fatalf("witness: %v; the cycle should pass the three copies (6 edges)", r.WitnessErr)
	}
}

// TestParamSingleAttacker: the attacker may be a single thread, with the
// copies as helpers; and a program with no replicated thread is just the
// one instance.
func TestParamSingleAttacker(t *testing.T) {
	src := "thread w\ninitial q0\ntransition q0 q1 write 1 1\ntransition q1 q2 read r 0\nend\n" +
		"thread t *\ninitial q0\ntransition q0 q1 write 1 0\ntransition q1 q2 mfence\ntransition q2 q3 read r 1\nend\n"
	p, err := prog.ParseProgram("single", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := checkParameterized(p, paramOpt(), 2)
	if r.Verdict != prog.NotRobust || r.Witness == nil || r.Witness.Attack.Thread != 0 {
		t.Fatalf("got %v (%v), want NOT ROBUST attacked by w", r.Verdict, r.WitnessErr)
	}
	crossCheck(t, p, r, 2)
	plain, err := prog.ParseProgram("sb", []byte(strings.ReplaceAll(src, "thread t *", "thread t")))
	if err != nil {
		t.Fatal(err)
	}
	if r := checkParameterized(plain, paramOpt(), 1); r.Verdict != prog.NotRobust || len(r.Instance.Threads) != 2 {
		t.Fatalf("unmarked program: %v", r.Verdict)
	}
}

// TestParamCorpus runs the corpus files that testdata/param/MARKED reads
// as parameterized programs. Expected verdicts: cilk-the-wsq (any number
// of thieves), lock-free-stack (any number of poppers), spinlock (any
// number of acquirers), nbw-w-r (any number of readers), nbw-w-wr-correct
// and parker-correct are robust: each is robust as given (EXPECTED) and
// its replicated thread gives no new attack (all refuted or infeasible).
// cilk-the-wsq-wrongdoing is not robust already with one popper
// (EXPECTED); with any number of poppers the tail index can fall without
// bound, so the counter abstraction is infinite and the attacks end in
// their budget; the verdict then comes from the cut-off instances.
func TestParamCorpus(t *testing.T) {
	dir := corpusDir(t)
	_ = dir
	want := map[string]prog.Verdict{
		"cilk-the-wsq.txt": prog.Robust, "cilk-the-wsq-wrongdoing.txt": prog.NotRobust, "lock-free-stack.txt": prog.Robust,
		"spinlock.txt": prog.Robust, "nbw-w-r.txt": prog.Robust, "nbw-w-wr-correct.txt": prog.Robust, "parker-correct.txt": prog.Robust,
	}
	for _, m := range readMarked(t) {
		t.Run(m.file, func(t *testing.T) {
			p := loadMarked(t, m)
			opt := paramOpt()
			opt.MaxStates = 20_000
			r := checkParameterized(p, opt, 2)
			w, ok := want[m.file]
			if !ok {
				t.Fatalf("no expected verdict for %s", m.file)
			}
			if r.Verdict != w {
				t.Fatalf("verdict %v, want %v (%s)", r.Verdict, w, r.Reason)
			}
			crossCheck(t, p, r, 2)
		})
	}
}

// TestParamRandom is the differential test: random small templates (one
// replicated thread beside one or two single threads) against the plain
// checker on the instances with 1..4 copies.
func TestParamRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 6))
	decided, not, multi, backward := 0, 0, 0, 0
	n := 200
	if testing.Short() {
		n = 50
	}
	for iter := 0; iter < n; iter++ {
		src := gen.Generate(rng, gen.Config{Threads: 2, Instrs: 4, Addrs: 2, Values: 2})
		p, err := prog.ParseProgram(fmt.Sprintf("random%d", iter), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p.Threads[rng.IntN(len(p.Threads))].Replicated = true
		// Locked increments make the data grow with the copies: those
		// programs end in UNKNOWN at this budget.
		r := checkParameterized(p, Options{MaxStates: 20_000, MaxBytes: 64 << 20, Jobs: 1, Timeout: 5 * time.Second}, 0)
		if r.Verdict == prog.Unknown {
			continue
		}
		decided++
		// Again with the coarse join only: the backward search then
		// meets goal markings the precise abstraction rules out, and must
		// refute them itself.
		absLimit = 0
		j := checkParameterized(p, Options{MaxStates: 20_000, MaxBytes: 64 << 20, Jobs: 1, Timeout: 5 * time.Second}, 0)
		absLimit = 100_000
		if j.Verdict != prog.Unknown && j.Verdict != r.Verdict {
			t.Fatalf("program %d: %v with the precise abstraction, %v with the join\n%s", iter, r.Verdict, j.Verdict, p)
		}
		for _, a := range j.Attacks {
			if a.Outcome == Infeasible && a.Stats.Markings > 0 {
				backward++
			}
		}
		if r.Verdict == prog.NotRobust {
			not++
			for ti, th := range p.Threads {
				if th.Replicated && r.Copies[ti] > 1 {
					multi++
				}
			}
		}
		t.Run(fmt.Sprint(iter), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("program:\n%s", p)
				}
			}()
			crossCheck(t, p, r, 4)
		})
	}
	t.Logf("%d of %d decided, %d not robust, %d of them with several copies; %d attacks refuted by a non-trivial backward search", decided, n, not, multi, backward)
	if decided < n/2 || not == 0 || not == decided || multi == 0 {
		t.Errorf("%d of %d decided, %d not robust: the test lost its power", decided, n, not)
	}
}

func TestParseReplicated(t *testing.T) {
	src := "thread a *\ninitial q\ntransition q r write 1 0\nend\nthread b\ninitial q\nend\n"
	f, err := prog.Parse("f.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Threads[0].Replicated || f.Threads[0].StarPos.String() != "f.txt:1:10" || f.Threads[1].Replicated {
		t.Fatalf("marks: %+v %+v", f.Threads[0], f.Threads[1])
	}
	p, err := prog.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != src {
		t.Fatalf("printed:\n%s\nwant:\n%s", p, src)
	}
	q, from := Instance(p, []int{2, 5})
	if len(q.Threads) != 3 || q.Threads[0].Name != "a.1" || q.Threads[1].Name != "a.2" || q.Threads[2].Name != "b" || from[1] != 0 || from[2] != 1 || q.Replicated() {
		t.Fatalf("instance: %s", q)
	}
	// The mark belongs on the thread's line; elsewhere a star is an error.
	for src, want := range map[string]string{
		"thread a\n*\ninitial q\nend":  "f.txt:2:1: expected \"initial\"",
		"thread a * *\ninitial q\nend": "f.txt:1:12: expected \"initial\"",
		"thread *":                     "f.txt:1:9: unexpected end of file",
	} {
		_, err := prog.ParseProgram("f.txt", []byte(src))
		var pe *prog.Error
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

// FuzzParamCheck: whatever parses can be checked as a parameterized
// program within small budgets without a panic, and NOT ROBUST always
// comes with a replayed witness.
func FuzzParamCheck(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "examples", "tso", "param-*.txt"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	for _, s := range []string{"thread t *\ninitial q\nend", "thread t * initial q transition q r write 1 0 transition r s read x 1 end thread u initial q transition q r write 1 1 transition r s read y 0 end",
		"thread * * initial q end", "thread t *\ninitial q\ntransition q q local a + a 1\ntransition q r write a 0\nend"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := prog.ParseProgram("fuzz", src)
		if err != nil {
			return
		}
		r := checkParameterized(p, Options{MaxStates: 5000, MaxBytes: 32 << 20, Timeout: 2 * time.Second, Jobs: 1}, 1)
		if r.Verdict == prog.NotRobust && (r.Witness == nil || r.WitnessErr != nil) {
			t.Fatalf("witness replay failed: %v\n%s", r.WitnessErr, p)
		}
	})
}

// TestIdentityWarnings: CLH gives each thread its own node addresses, so
// marking lock_unlock_1 replicated while lock_unlock_2 keeps its own
// constants is flagged at lock_unlock_2's first differing constant.
func TestIdentityWarnings(t *testing.T) {
	p := loadMarked(t, markedCorpus{file: "clh-lock.txt", template: "lock_unlock_1"})
	w := IdentityWarnings(p)
	if len(w) != 1 || !strings.Contains(w[0], "thread lock_unlock_2 is thread lock_unlock_1 up to constants") || !strings.HasPrefix(w[0], "clh-lock.txt (marked):") {
		t.Fatalf("warnings %q", w)
	}
	src, _ := os.ReadFile(filepath.Join("..", "examples", "tso", "param-sb-single.txt"))
	q, _ := prog.ParseProgram("sb-single", src)
	if w := IdentityWarnings(q); len(w) != 1 {
		// w and t differ in their constants only: that is what the
		// warning is about, whether or not it is intended.
		t.Fatalf("param-sb-single: %q", w)
	}
	r, _ := prog.ParseProgram("ring3", []byte("thread t *\ninitial q\ntransition q r write 1 0\nend\nthread u\ninitial q\ntransition q r read x 0\nend\n"))
	if w := IdentityWarnings(r); len(w) != 0 {
		t.Fatalf("different code: %q", w)
	}
}

// TestParamCounting: in examples/tso/param-counted.txt the attack of the
// single thread has goal states in the forward abstraction (which cannot
// tell that every copy has left S), so it is the backward search that
// refutes it, by counting copies (hand argument in the file).
func TestParamCounting(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "tso", "param-counted.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram("counted", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{100_000} {
		absLimit = limit
		r := checkParameterized(p, paramOpt(), 0)
		absLimit = 100_000
		if r.Verdict != prog.Robust {
			t.Fatalf("abstraction limit %d: %v (%s)", limit, r.Verdict, r.Reason)
		}
		counted := false
		for _, a := range r.Attacks {
			if a.Outcome == Infeasible && a.Stats.Markings > 0 {
				counted = true
			}
		}
		if !counted {
			t.Errorf("abstraction limit %d: no attack needed the backward search", limit)
		}
	}
}
