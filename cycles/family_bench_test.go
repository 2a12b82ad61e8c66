package cycles

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The queue family of issue 7: small programs with two queues, remote
// writes and reads completed by handles (`-> h` / `wait h`) or by `waitq`,
// a barrier and, in one variant, a bounded loop. Their plain state space
// X(P,N) is small, but the product of Y^M with the cycle types explodes
// (waits and queues multiply the 4-headed normal form), so they measure
// the cycle-type search against the oracle and the portfolio:
//
//	go test ./cycles -run '^$' -bench 'QueueFamily|ExamplesProcedures' -benchtime 1x
//	go test ./cycles -run '^$' -bench 'QueueFamily/.*/N=[23]' -count 3 | benchstat -col /proc -
//
// Every variant has the same skeleton, one round per rank r with right
// neighbour r' = r % N + 1:
//
//	S: mem[x] <- 1; mem[z] <- 1
//	O: write(x, r', y, q1) [-> h]           W1: x into y of r'
//	   read(w, r', z, q2) [-> g]            R:  z of r' into own w, or
//	   write(z, r', w, q2) [-> g]           W2: z into w of r'
//	   wait h | waitq q1; wait g | waitq q2
//	B: barrier
//	L: assert mem[y] == 1; assert mem[w] == 1
//
// Hand argument, common to all variants. Both operations of a rank are
// complete before its barrier: a wait on a handle passes once the shadow
// read issued after the operation on the same queue has completed, and by
// FIFO (in popa and in popb) so has the operation; waitq likewise. So
// every pop of a rank's operations precedes the barrier, hence every
// rank's loads. The conflicts are then:
//   - popa(W1) and popa(W2) read the issuer's own x, z, stored in S before
//     the issue: S -> O, forward;
//   - popb(W1) and popb(W2) write y, w of r', which r' only loads in L,
//     after the barrier: O -> L, forward; popb(R) writes the issuer's own
//     w, loaded in L after its own wait: forward;
//   - popa(R) of rank r reads (r', z), which r' stores in its S: either
//     [R_r] ->cf store z(r') (backward, O -> S) or the other way round;
//   - shadow cells ($h.h, $sync, $one) are only the issuer's own, accessed
//     reset -> popa/popb -> await: forward (docs/language.md).
//
// So without a read, every po and cf edge goes forward in S < O < B < L
// and there is no cycle. With a read, a cycle must use a backward edge
// [R_r] -> store z(r'); from there it can only go on by po on r' (no one
// else touches (r', z)), and it cannot come back through B or L (loads
// have no conflict successors: y and w are written before B). So it
// leaves r' only by the next backward edge, and the cycle is the ring
//
//	[R_1] -> store z(2) -> [R_2] -> store z(3) -> ... -> store z(1) -> [R_1]
//
// which would need, in time, popa(R_1) < store z(2) < issue(R_2) <
// popa(R_2) < ... < store z(1) < issue(R_1) < popa(R_1), impossible: po
// and cf edges go forward in the computation and a popa follows its
// issue (the store-buffering shape of examples/handle.pgas). Every
// variant is ROBUST for every N; TestQueueFamily confirms it at N = 2
// with Decide and with the oracle.
type queueVariant struct {
	name string
	// read: the operation on q2 is R (a read of z of r') instead of W2.
	read bool
	// handle1, handle2: complete the operation on q1 (q2) with a handle
	// and "wait", instead of "waitq".
	handle1, handle2 bool
	// loop: run the round twice, with a counter in a register (values 3)
	// and a second barrier after the loads.
	loop bool
}

// The variants and their verdicts (all ROBUST, by the argument above):
var queueVariants = []queueVariant{
	// handles: W1 -> h on q1, R -> g on q2, wait h, wait g. ROBUST: the
	// read's only backward edge would need the impossible ring in time.
	{name: "handles", read: true, handle1: true, handle2: true},
	// waitq: W1 on q1, W2 on q2, waitq q1, waitq q2. ROBUST: writes only,
	// every edge forward in S < O < B < L.
	{name: "waitq"},
	// mixed: W1 -> h on q1, R on q2, wait h, waitq q2 (a handle and a
	// queue wait). ROBUST, as handles.
	{name: "mixed", read: true, handle1: true},
	// loop: W1 -> h on q1, W2 on q2, wait h, waitq q2, barrier, loads,
	// barrier, two rounds. ROBUST: each round is forward as in waitq,
	// and the second barrier B' follows every rank's loads of round 1
	// and precedes every event of round 2 (in po and in time, all
	// operations of round 1 being complete before B), so every conflict
	// between rounds goes from round 1 to round 2: the class graph is
	// ordered S1 < O1 < B1 < L1 < B'1 < S2 < O2 < B2 < L2 < B'2.
	{name: "loop", handle1: true, loop: true},
}

// queueFamily writes the .pgas text of a variant.
func queueFamily(v queueVariant) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	values, label := 2, "   "
	if v.loop {
		values, label = 3, "L: "
	}
	line("# queue family (cycles/family_bench_test.go): %s", v.name)
	line("program queue_%s", v.name)
	line("values %d", values)
	line("address x, y, z, w")
	if v.loop {
		line("register i")
	}
	line("queue q1, q2")
	line("")
	handle := func(on bool, h string) string {
		if on {
			return " -> " + h
		}
		return ""
	}
	complete := func(on bool, h, q string) string {
		if on {
			return "wait " + h
		}
		return "waitq " + q
	}
	line("%s mem[x] <- 1", label)
	line("    mem[z] <- 1")
	line("    write(x, rank %% N + 1, y, q1)%s", handle(v.handle1, "h"))
	if v.read {
		line("    read(w, rank %% N + 1, z, q2)%s", handle(v.handle2, "g"))
	} else {
		line("    write(z, rank %% N + 1, w, q2)%s", handle(v.handle2, "g"))
	}
	line("    %s", complete(v.handle1, "h", "q1"))
	line("    %s", complete(v.handle2, "g", "q2"))
	line("    barrier")
	line("    assert mem[y] == 1")
	line("    assert mem[w] == 1")
	if v.loop {
		line("    barrier")
		line("    i <- i + 1")
		line("    if i < 2 goto L")
	}
	return b.String()
}

func compileQueueVariant(tb testing.TB, v queueVariant) *pgas.Program {
	tb.Helper()
	p, err := pgas.Compile(v.name+".pgas", []byte(queueFamily(v)))
	if err != nil {
		tb.Fatalf("%s: %v\n%s", v.name, err, queueFamily(v))
	}
	return p
}

// Every variant compiles for N = 2..5 and is robust at N = 2, by the
// cycle-type search and by the oracle.
func TestQueueFamily(t *testing.T) {
	for _, v := range queueVariants {
		p := compileQueueVariant(t, v)
		for n := 2; n <= 5; n++ {
			if err := pgas.CheckN(p, n); err != nil {
				t.Fatalf("%s N = %d: %v", v.name, n, err)
			}
		}
		o := oracle.Explore(p, 2, oracle.Bounds{})
		if o.Err != nil || o.Violation != nil || o.RangeErr != nil || !o.Complete {
			t.Fatalf("%s N = 2: oracle: err %v, violation %v, range error %v, complete %v (%s)", v.name, o.Err, o.Violation != nil, o.RangeErr, o.Complete, o.Truncated)
		}
		if testing.Short() {
			continue // the loop's product has 2.7 M states at N = 2
		}
		r, err := Decide(p, 2, Options{Procedure: Automata})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Robust {
			t.Fatalf("%s N = 2: %v (%s)", v.name, r.Verdict, r.Reason)
		}
		t.Logf("%s N = 2: ROBUST, automata %d states, oracle %d states", v.name, r.Stats.States, o.Explored)
	}
}

var benchProcedures = []Procedure{Automata, Oracle, Auto}

// BenchmarkQueueFamily decides every variant for N = 2..4 (5 with
// PGASROB_BENCH_BIG set) under each procedure, 60 s per decision.
// PGASROB_BENCH_YARDSTICKS=1 adds the yardsticks of the cycle-type
// search (product states, reduced Y, distinct (Y, marks) pairs) to the
// automata runs, at the cost of memory and one more search.
func BenchmarkQueueFamily(b *testing.B) {
	for _, v := range queueVariants {
		p := compileQueueVariant(b, v)
		for n := 2; n <= 5; n++ {
			for _, proc := range benchProcedures {
				b.Run(fmt.Sprintf("%s/N=%d/proc=%v", v.name, n, proc), func(b *testing.B) {
					if n >= 5 && os.Getenv("PGASROB_BENCH_BIG") == "" {
						b.Skip("N = 5 takes minutes; set PGASROB_BENCH_BIG=1")
					}
					benchProcedure(b, p, n, proc, PerType)
				})
			}
		}
	}
}

// BenchmarkExamplesProcedures decides every examples/*.pgas at N = 3 and
// 4 under each procedure, 60 s per decision.
func BenchmarkExamplesProcedures(b *testing.B) {
	files, err := filepath.Glob("../examples/*.pgas")
	if err != nil || len(files) == 0 {
		b.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".pgas")
		for _, n := range []int{3, 4} {
			for _, proc := range benchProcedures {
				b.Run(fmt.Sprintf("%s/N=%d/proc=%v", name, n, proc), func(b *testing.B) {
					benchProcedure(b, p, n, proc, PerType)
				})
			}
		}
	}
}

// benchTimeout bounds every decision of the two benchmarks above.
const benchTimeout = 60 * time.Second

// benchProcedure is benchDecide (bench_test.go) for a compiled program,
// one procedure and one exploration, with what the comparison needs besides: UNKNOWN is
// logged, not fatal; peak-MiB is the peak of this decision alone (the
// process's VmHWM is reset before it, where /proc allows, after a GC
// that returns the previous runs' memory); B/state is reported only when
// the cycle-type search answered (the oracle's states are not in
// Stats.Bytes); and it reports the states of the run-time error check
// (Y restricted to sequentially consistent computations, the same for
// every procedure) apart from the states of the procedure proper
// (product states summed over the cycle types, or the oracle's), and
// whether the oracle answered.
func benchProcedure(b *testing.B, p *pgas.Program, n int, proc Procedure, ex Exploration) {
	scStates := runtimeCheckStates(b, p, n)
	opt := Options{Procedure: proc, Timeout: benchTimeout, Exploration: ex}
	yard := proc == Automata && os.Getenv("PGASROB_BENCH_YARDSTICKS") != ""
	opt.Yardsticks = yard
	var r *Result
	var err error
	var peak int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		debug.FreeOSMemory()
		resetPeakRSS()
		b.StartTimer()
		if r, err = Decide(p, n, opt); err != nil {
			b.Fatal(err)
		}
		peak = max(peak, peakRSS())
	}
	st := r.Stats
	b.ReportMetric(float64(st.States), "states")
	b.ReportMetric(float64(st.States)/r.Elapsed.Seconds(), "states/s")
	b.ReportMetric(float64(scStates), "sc-states")
	b.ReportMetric(float64(st.States-scStates), "search-states")
	if r.Procedure == "automata" {
		b.ReportMetric(st.BytesPerState(), "B/state")
	}
	if h, m := r.CacheHits, r.CacheMiss; h+m > 0 {
		b.ReportMetric(100*float64(h)/float64(h+m), "cache-hit-%")
	}
	if peak > 0 {
		b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	}
	byOracle := 0.0
	if r.Procedure == "oracle" {
		byOracle = 1
	}
	b.ReportMetric(byOracle, "by-oracle")
	unknown := 0.0
	if r.Verdict == Unknown {
		unknown = 1
		b.Logf("%s N=%d proc=%v: UNKNOWN after %v (%s), %d states", p.Name, n, proc, r.Elapsed.Round(time.Millisecond), r.Reason, st.States)
	} else {
		b.Logf("%s N=%d proc=%v: %v by %s, %d states (%d of the run-time check), %v", p.Name, n, proc, r.Verdict, r.Procedure, st.States, scStates, r.Elapsed.Round(time.Millisecond))
	}
	b.ReportMetric(unknown, "unknown")
	if y := r.Yardsticks; yard && y != nil {
		b.ReportMetric(float64(y.ProductStates), "product-states")
		b.ReportMetric(float64(y.ReducedY), "reduced-Y")
		b.ReportMetric(float64(y.YMarks), "Y-marks")
	}
}

// runtimeCheckStates is the number of states of Decide's run-time error
// check, which every procedure runs first: the sequentially consistent
// part of Y. It runs outside the timed region.
func runtimeCheckStates(b *testing.B, p *pgas.Program, n int) int64 {
	b.Helper()
	y, err := normalform.New(p, n)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), benchTimeout)
	defer cancel()
	_, st, _ := findRuntimeError(ctx, y, Options{}, automata.DefaultMaxBytes)
	return st.States
}

// resetPeakRSS resets the process's VmHWM to its current resident set
// (Linux >= 4.0: clear_refs 5); it does nothing where that is not
// allowed.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
