package cycles

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The producer-consumer family (issue 7, "waits and queues"): rank 2
// consumes, every other rank produces K = 2 items and a flag into rank
// 2's cells, as in examples/prodcons.pgas, in three ways:
//
//	pc-sameq:  items and flag on one queue q.
//	pc-waitq:  items on q1, "waitq q1", flag on q2.
//	pc-nowait: items on q1, flag on q2, no wait.
//
// The consumer asserts flag, then both items (an assert blocks on 0).
//
// Hand analysis. Each producer issues W(b0), W(b1), W(f) in that order;
// each popb writes a cell of rank 2, which only the consumer loads.
//   - pc-sameq, ROBUST for every N: one queue is FIFO in popb, so a
//     producer's popbs land in issue order. Among producers every edge
//     joins popbs of one cell, and program order only goes from b0 to
//     b1 to f, so a cycle through producers alone would need po from f
//     back to b0. Through the consumer: it loads f after the popb(f) of
//     some producer k, and loads b0, b1 after that; if a load of b
//     precedes popb_i(b) of producer i, then popb_k(f) < load f <
//     load b < popb_i(b) < popb_i(f), so the edge between W_k(f) and
//     W_i(f) goes from k to i, forward again: no cycle.
//   - pc-waitq, ROBUST: "waitq q1" completes both items before W(f) is
//     issued, so popb(b0), popb(b1) < W(f) < popb(f) in time, which is
//     the order pc-sameq gets from FIFO; the argument above applies.
//   - pc-nowait, NOT ROBUST: the queues are independent, so popb(f) may
//     land first and the consumer read f = 1 while b0 is still 0; its
//     load of b0 then precedes popb(b0): W(b0) ->po W(f) ->cf load f
//     ->po load b0 ->cf W(b0), the cycle of examples/mp-unsync.pgas
//     (there the load of 0 blocks the assert, which does not matter).
//
// TestWaitsFamily checks these verdicts with Decide and the oracle at
// N = 2 and 3 (N = 2 only under -short).
type pcVariant struct {
	name   string
	queues int  // 1: everything on q; 2: items on q1, flag on q2
	waitq  bool // "waitq q1" before the flag
	robust bool // the verdict of the hand analysis above
}

var pcVariants = []pcVariant{
	{name: "pc-sameq", queues: 1, robust: true},
	{name: "pc-waitq", queues: 2, waitq: true, robust: true},
	{name: "pc-nowait", queues: 2, robust: false},
}

func pcFamily(v pcVariant) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("# producer-consumer family (cycles/waits_family_test.go): %s", v.name)
	line("program %s", strings.ReplaceAll(v.name, "-", "_"))
	line("values 2")
	line("address b[2], f")
	qi, qf := "q", "q"
	if v.queues == 1 {
		line("queue q")
	} else {
		line("queue q1, q2")
		qi, qf = "q1", "q2"
	}
	line("")
	line("    if rank == 2 goto CONSUMER")
	line("    mem[b] <- 1")
	line("    mem[b+1] <- 1")
	line("    mem[f] <- 1")
	line("    write(b, 2, b, %s)", qi)
	line("    write(b+1, 2, b+1, %s)", qi)
	if v.waitq {
		line("    waitq %s", qi)
	}
	line("    write(f, 2, f, %s); goto END", qf)
	line("CONSUMER:")
	line("    assert mem[f] == 1")
	line("    assert mem[b] == 1")
	line("    assert mem[b+1] == 1")
	line("END:")
	return b.String()
}

func compilePC(tb testing.TB, v pcVariant) *pgas.Program {
	tb.Helper()
	p, err := pgas.Compile(v.name+".pgas", []byte(pcFamily(v)))
	if err != nil {
		tb.Fatalf("%s: %v\n%s", v.name, err, pcFamily(v))
	}
	return p
}

func TestWaitsFamily(t *testing.T) {
	top := 3
	if testing.Short() {
		top = 2
	}
	for _, v := range pcVariants {
		p := compilePC(t, v)
		want := NotRobust
		if v.robust {
			want = Robust
		}
		for n := 2; n <= top; n++ {
			r, err := Decide(p, n, Options{Procedure: Automata, Jobs: 1})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != want {
				t.Fatalf("%s N = %d: %v, the hand analysis says %v", v.name, n, r.Verdict, want)
			}
			o := oracle.Explore(p, n, oracle.Bounds{})
			if o.Err != nil || o.RangeErr != nil {
				t.Fatalf("%s N = %d: oracle: %v %v", v.name, n, o.Err, o.RangeErr)
			}
			if (o.Violation != nil) == v.robust || (v.robust && !o.Complete) {
				t.Fatalf("%s N = %d: oracle violation %v, complete %v; hand analysis robust = %v", v.name, n, o.Violation != nil, o.Complete, v.robust)
			}
		}
	}
}

// BenchmarkWaitsFamily decides the producer-consumer variants and the
// queue family (family_bench_test.go) at N = 2..4 (5 with
// PGASROB_BENCH_BIG set) with the cycle-type search per type, shared, and
// with the command's default (the portfolio over the shared search),
// reporting states, states/s, B/state and peak-MiB (benchProcedure):
//
//	go test ./cycles -run '^$' -bench WaitsFamily -benchtime 1x
func BenchmarkWaitsFamily(b *testing.B) {
	type prog struct {
		name string
		p    *pgas.Program
	}
	var progs []prog
	for _, v := range pcVariants {
		progs = append(progs, prog{v.name, compilePC(b, v)})
	}
	for _, v := range queueVariants {
		progs = append(progs, prog{"queue-" + v.name, compileQueueVariant(b, v)})
	}
	for _, pr := range progs {
		for n := 2; n <= 5; n++ {
			for _, c := range []struct {
				proc Procedure
				ex   Exploration
			}{{Automata, PerType}, {Automata, Shared}, {Auto, Shared}} {
				proc, ex := c.proc, c.ex
				b.Run(fmt.Sprintf("%s/N=%d/proc=%v/ex=%v", pr.name, n, proc, ex), func(b *testing.B) {
					if n >= 5 && os.Getenv("PGASROB_BENCH_BIG") == "" {
						b.Skip("N = 5 takes minutes; set PGASROB_BENCH_BIG=1")
					}
					benchProcedure(b, pr.p, n, proc, ex)
				})
			}
		}
	}
}
