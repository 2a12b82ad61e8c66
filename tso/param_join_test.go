package tso

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// joinOnly runs f with the join taking over at once (absLimit 0), as it
// does on its own beyond absLimit precise abstract states.
func joinOnly(f func()) {
	absLimit = 0
	defer func() { absLimit = 100_000 }()
	f()
}

// paramJoinProgram is the smallest shape of the long-witness program of
// cmd/pgasrob: no replicated thread, and the attack of t0 only after a
// loop, so its goal lies beyond global states that the single threads
// alone reach (no copy is ever around).
const paramJoinProgram = `thread t0
initial q0
transition q0 q1 read r 2
transition q1 q2 check < r 2
transition q2 q3 write + r 1 2
transition q3 q0 mfence
transition q1 q4 check >= r 2
transition q4 q5 write 1 0
transition q5 q6 read s 1
end

thread t1
initial q0
transition q0 q1 write 1 1
transition q1 q2 read s 0
end
`

// TestParamJoinWithoutCopies: a program with no replicated thread, decided
// by the join, gets the verdict of the plain checker. The join used to
// visit a global state only when its set of local states grew, so with no
// copies it stopped after the initial state's successors, and the backward
// search, told that nothing else was reachable, refuted every attack.
func TestParamJoinWithoutCopies(t *testing.T) {
	p, err := prog.ParseProgram("loop", []byte(paramJoinProgram))
	if err != nil {
		t.Fatal(err)
	}
	var r *ParamResult
	joinOnly(func() { r = checkParameterized(p, paramOpt(), 0) })
	if r.Verdict != prog.NotRobust || !r.Stats.Joined {
		t.Fatalf("join: %v (joined %v, %s), want NOT ROBUST", r.Verdict, r.Stats.Joined, r.Reason)
	}
	crossCheck(t, p, r, 1)
}

// TestParamJoinCorpus: the same on a corpus program that the join decided
// ROBUST against its own cut-off instance.
func TestParamJoinCorpus(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(corpusDir(t), "cilk-the-wsq-wrongdoing.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram("cilk-the-wsq-wrongdoing.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	// Its 160,000 global states take the join over by themselves.
	r := checkParameterized(p, Options{MaxStates: 1_000_000, MaxBytes: 512 << 20, Jobs: 1, Timeout: time.Minute}, 0)
	if r.Verdict != prog.NotRobust || !r.Stats.Joined {
		t.Fatalf("%v (joined %v, %s), want NOT ROBUST by the join", r.Verdict, r.Stats.Joined, r.Reason)
	}
	crossCheck(t, p, r, 1)
}

// TestParamJoinRandom is the brute-force cross-check of the join alone:
// random programs, with and without a replicated thread, against the
// plain checker on the instances with 1 and 2 copies. Without a replicated
// thread the join is exact, so a decided verdict must be the instance's.
func TestParamJoinRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 41))
	n := 120
	if testing.Short() {
		n = 40
	}
	opt := Options{MaxStates: 20_000, MaxBytes: 64 << 20, Jobs: 1, Timeout: 5 * time.Second}
	decided, plain, plainNot, not := 0, 0, 0, 0
	for iter := 0; iter < n; iter++ {
		src := gen.Generate(rng, gen.Config{Threads: 2 + iter%2, Instrs: 5, Addrs: 2, Values: 3})
		p, err := prog.ParseProgram(fmt.Sprintf("random%d", iter), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		replicated := iter%3 != 0
		if replicated {
			p.Threads[rng.IntN(len(p.Threads))].Replicated = true
		}
		var r *ParamResult
		joinOnly(func() { r = checkParameterized(p, opt, 0) })
		if r.Verdict == prog.Unknown {
			continue
		}
		decided++
		if r.Verdict == prog.NotRobust {
			not++
		}
		t.Run(fmt.Sprint(iter), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("program:\n%s", p)
				}
			}()
			crossCheck(t, p, r, 2)
			if replicated {
				return
			}
			plain++
			c := check(p, prog.TSO, Options{MaxStates: 1_000_000, Jobs: 1})
			if c.Verdict == prog.NotRobust {
				plainNot++
			}
			if c.Verdict != prog.Unknown && c.Verdict != r.Verdict {
				t.Fatalf("no replicated thread: join %v, plain checker %v", r.Verdict, c.Verdict)
			}
		})
	}
	t.Logf("%d of %d decided by the join, %d not robust; %d without a replicated thread, %d of them not robust", decided, n, not, plain, plainNot)
	if decided < n/2 || not == 0 || not == decided || plainNot == 0 || plainNot == plain {
		t.Errorf("%d of %d decided, %d not robust, %d plain, %d of them not robust: the test lost its power", decided, n, not, plain, plainNot)
	}
}
