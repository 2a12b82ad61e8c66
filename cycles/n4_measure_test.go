package cycles

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestMeasureN4 (issue 28; PGASROB_MEASURE_N4=LO..HI, e.g. 2..4) measures,
// for every examples/*.pgas and examples/n4/*.pgas and each N, the sizes
// that tell which factor of the search explodes:
//
//	sc-x      states of X(P,N) reachable under SC (every remote command
//	          followed at once by its popa and popb)
//	x         states of X(P,N) reachable (no happens-before summary)
//	x-ctl     their distinct control vectors; x-q their distinct
//	          (control, queue contents) projections
//	oracle    states the oracle expands ((X, summary) pairs); oracle-red
//	          with its partial-order reduction (pgas/oracle/reduce.go)
//	sc-y      states of the run-time error check (SC part of Y)
//	red-y     reduced Y (yardstick); ymarks distinct (Y, marks) pairs;
//	prod      Σ product states of the per-type search (yardsticks)
//	shared    states of the shared search alone (no helper, no oracle)
//
// each with its time and the process's peak RSS over that step
// (PGASROB_MEASURE_STEPS=oracle-red,sc-y runs only those;
// PGASROB_MEASURE_ONLY=name only
// the files whose path contains it). Every
// step is bounded (PGASROB_MEASURE_TIMEOUT, default 60 s; X at 2 M
// states, the oracle at 1 M, the searches at 2 GiB); a bounded step
// prints ">".
func TestMeasureN4(t *testing.T) {
	spec := os.Getenv("PGASROB_MEASURE_N4")
	if spec == "" {
		t.Skip("set PGASROB_MEASURE_N4=2..4")
	}
	lo, hi := measureRange(t, spec)
	timeout := 60 * time.Second
	if d, err := time.ParseDuration(os.Getenv("PGASROB_MEASURE_TIMEOUT")); err == nil {
		timeout = d
	}
	files, _ := filepath.Glob("../examples/n4/*.pgas")
	more, _ := filepath.Glob("../examples/*.pgas")
	files = append(files, more...)
	if only := os.Getenv("PGASROB_MEASURE_ONLY"); only != "" {
		var keep []string
		for _, f := range files {
			if strings.Contains(f, only) {
				keep = append(keep, f)
			}
		}
		files = keep
	}
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := lo; n <= hi; n++ {
			var cols []string
			steps := os.Getenv("PGASROB_MEASURE_STEPS") // e.g. "oracle-red,sc-y"; empty: all
			step := func(name string, run func() (string, bool)) {
				if steps != "" && !strings.Contains(","+steps+",", ","+name+",") {
					return
				}
				runtime.GC()
				debug.FreeOSMemory()
				resetPeakRSS()
				start := time.Now()
				v, cut := run()
				if cut {
					v = ">" + v
				}
				cols = append(cols, fmt.Sprintf("%s=%s (%.2fs %dMiB)", name, v, time.Since(start).Seconds(), peakRSS()>>20))
			}
			step("sc-x", func() (string, bool) { n, cut := countX(p, n, true, 2_000_000, timeout); return n.String(), cut })
			step("x", func() (string, bool) { n, cut := countX(p, n, false, 2_000_000, timeout); return n.String(), cut })
			for _, red := range []bool{false, true} {
				name := map[bool]string{false: "oracle", true: "oracle-red"}[red]
				step(name, func() (string, bool) {
					o := oracle.Explore(p, n, oracle.Bounds{MaxNodes: 1_000_000, Timeout: timeout, Reduce: red})
					return fmt.Sprintf("%d", o.Explored), !o.Complete && o.Violation == nil
				})
			}
			step("sc-y", func() (string, bool) {
				y, err := normalform.New(p, n)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				_, st, _ := findRuntimeError(ctx, y, Options{}, automata.DefaultMaxBytes)
				return fmt.Sprintf("%d", st.States), false
			})
			step("yard", func() (string, bool) {
				r, err := Decide(p, n, Options{Yardsticks: true, All: true, Timeout: timeout, Jobs: 1, MaxBytes: 2 << 30})
				if err != nil {
					t.Fatal(err)
				}
				if y := r.Yardsticks; y != nil {
					return fmt.Sprintf("%v prod=%d red-y=%d ymarks=%d", r.Verdict, y.ProductStates, y.ReducedY, y.YMarks), false
				}
				return fmt.Sprintf("%v states=%d", r.Verdict, r.Stats.States), r.Verdict == Unknown
			})
			step("shared", func() (string, bool) {
				r, err := Decide(p, n, Options{Exploration: Shared, noHelper: true, Timeout: timeout, Jobs: 1, MaxBytes: 2 << 30})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("%v %d", r.Verdict, r.Stats.States), r.Verdict == Unknown
			})
			t.Logf("%s N=%d %s", filepath.Base(f), n, strings.Join(cols, " "))
		}
	}
}

func measureRange(t *testing.T, spec string) (int, int) {
	a, b, ok := strings.Cut(spec, "..")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("PGASROB_MEASURE_N4=%q: want LO..HI", spec)
	}
	return lo, hi
}

// xCounts are the distinct states of X and two projections of them.
type xCounts struct{ states, ctl, ctlQueues int }

func (c xCounts) String() string {
	return fmt.Sprintf("%d[ctl %d, ctl+q %d]", c.states, c.ctl, c.ctlQueues)
}

// countX explores X(p, n) breadth-first, all of it or (sc) only the states
// where every queue is empty, each remote command being followed by the
// pops of its request.
func countX(p *pgas.Program, n int, sc bool, max int, timeout time.Duration) (xCounts, bool) {
	m := pgas.NewMachine(p, n)
	seen := map[string]bool{}
	ctl, ctlq := map[string]bool{}, map[string]bool{}
	var frontier []*pgas.XState
	add := func(s *pgas.XState) {
		k := s.Key()
		if seen[k] {
			return
		}
		seen[k] = true
		c := fmt.Sprint(controls(s, n))
		ctl[c] = true
		ctlq[c+queueShape(s, n, len(p.Queues))] = true
		frontier = append(frontier, s)
	}
	add(m.Initial())
	deadline := time.Now().Add(timeout)
	for len(frontier) > 0 {
		if len(seen) > max || time.Now().After(deadline) {
			return xCounts{len(seen), len(ctl), len(ctlq)}, true
		}
		s := frontier[len(frontier)-1]
		frontier = frontier[:len(frontier)-1]
		steps, _ := m.Steps(s)
		for _, st := range steps {
			if !sc {
				add(st.Next)
				continue
			}
			if st.Move.Kind == pgas.MovePopa || st.Move.Kind == pgas.MovePopb {
				continue
			}
			add(drain(m, st.Next))
		}
	}
	return xCounts{len(seen), len(ctl), len(ctlq)}, false
}

// drain pops every pending request, popa before popb; under SC at most
// one request is pending, so the order is the SC one.
func drain(m *pgas.Machine, s *pgas.XState) *pgas.XState {
	for {
		steps, _ := m.Steps(s)
		moved := false
		for _, st := range steps {
			if st.Move.Kind == pgas.MovePopa || st.Move.Kind == pgas.MovePopb {
				s, moved = st.Next, true
				break
			}
		}
		if !moved {
			return s
		}
	}
}

func controls(s *pgas.XState, n int) []int {
	c := make([]int, n)
	for r := 1; r <= n; r++ {
		c[r-1] = s.Control(r)
	}
	return c
}

func queueShape(s *pgas.XState, n, nq int) string {
	var b strings.Builder
	for r := 1; r <= n; r++ {
		for q := 0; q < nq; q++ {
			fmt.Fprintf(&b, "|%v%v", s.FA(r, q), s.FB(r, q))
		}
	}
	return b.String()
}
