package oracle_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

var generous = oracle.Bounds{MaxNodes: 200_000, Timeout: 20 * time.Second}

// oneToOne is 1to1 of Figure 1: write(x, right, y, q); barrier; r <- y;
// assume(r == 1).
func oneToOne() *pgas.Program {
	b := progbuild.New("1to1", 2, []string{"x", "y"}, []string{"r"}, []string{"q"})
	b.Seq(
		b.Write("x", "rank N % 1 +", "y", "q"),
		progbuild.Barrier(),
		b.Load("r", "y"),
		b.Assume("r 1 =="),
	)
	return b.Build()
}

// oneToOnePolls is 1to1 with the handle idiom of Section 2.4, taken
// literally, before the barrier: set one := 1, issue the write, then a read of the rank's own
// `one` into the shadow address h through the same queue, and wait
// (load h; assume h == 1) before the barrier.
//
// Hand analysis: FIFO order makes the write's popb precede the read's popb,
// which precedes a load of h that sees 1, so the 1to1 cycle through y is
// gone. But the wait itself is a violation by the definitions: the load of
// h may run before the read's popb writes h (it sees 0 and the assume
// blocks; the computation still ends in a final state once the queue
// drains), giving read -po-> load(h) -cf-> popb(h) ↔ read. The class graph
// has R -> L (po) and L -> R (cf): a cycle. No SC computation orders load
// (h) before that popb, since in SC the popb follows the read at once.
// So this program is NOT robust, for every N, and the shortest violation
// is one rank's store, write, read, load, popa, popa, popb, popb.
func oneToOnePolls() *pgas.Program {
	b := progbuild.New("1to1poll", 2, []string{"x", "y", "one", "h"}, []string{"r"}, []string{"q"})
	b.Seq(
		b.Store("one", "1"),
		b.Write("x", "rank N % 1 +", "y", "q"),
		b.Read("h", "rank", "one", "q"),
		b.Load("r", "h"),
		b.Assume("r 1 =="),
		progbuild.Barrier(),
		b.Load("r", "y"),
	)
	return b.Build()
}

// TestOneToOne: (1to1, 2) is not robust (Example 2). The shortest violating
// prefix has 7 events: both writes and the barrier must come first (po),
// then rank 1's load of y, then rank 2's popa and popb that write (1,y)
// after it; only that popb closes the cycle load1 -cf-> popb2 ↔ write2
// -po-> bar2 ↔ bar1 -po-> load1. Rank 1's pending popa and popb complete
// it to 9 events.
func TestOneToOne(t *testing.T) {
	p := oneToOne()
	res := oracle.Explore(p, 2, generous)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.Violation == nil || !res.Complete {
		t.Fatalf("no violation found (complete %v, truncated %q)", res.Complete, res.Truncated)
	}
	if len(res.Violation) != 9 {
		t.Errorf("violation of %d events, want 9: %v", len(res.Violation), res.Violation)
	}
	h := pgas.HappensBefore(res.Violation)
	rels := map[pgas.Rel]int{}
	for _, e := range res.Cycle {
		rels[e.Rel]++
	}
	if rels[pgas.RelCF] != 1 || rels[pgas.RelPO] != 2 || rels[pgas.RelID] != 2 {
		t.Errorf("cycle is not the one of Figure 3:\n%s", h.FormatCycle(p, res.Cycle))
	}
	if res.RangeErr != nil {
		t.Errorf("unexpected range error %v", res.RangeErr)
	}
	// With N = 1 the write goes to the rank itself and the barrier is
	// alone; the load may still read y before the popb writes it, but the
	// popb's class is po-before the barrier, which is po-before the load:
	// load -cf-> popb ↔ write -po-> bar -po-> load is a cycle, with one
	// rank. Not robust either.
	if res := oracle.Explore(p, 1, generous); res.Violation == nil || !res.Complete {
		t.Errorf("(1to1, 1): no violation found")
	}
}

func TestOneToOnePolls(t *testing.T) {
	p := oneToOnePolls()
	for _, n := range []int{1, 2} {
		res := oracle.Explore(p, n, generous)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if res.Violation == nil || !res.Complete {
			t.Fatalf("N=%d: no violation found (complete %v)", n, res.Complete)
		}
		h := pgas.HappensBefore(res.Violation)
		var kinds []pgas.Kind
		for _, e := range res.Cycle {
			kinds = append(kinds, h.Events[e.From].Kind)
		}
		want := []pgas.Kind{pgas.KRead, pgas.KLoad, pgas.KPopb}
		if !slices.Equal(kinds, want) || res.Cycle[1].Rel != pgas.RelCF || h.Events[res.Cycle[1].From].Cell.Addr != 3 {
			t.Errorf("N=%d: not the polling cycle through h:\n%s", n, h.FormatCycle(p, res.Cycle))
		}
		if len(res.Violation) != 8 {
			t.Errorf("N=%d: violation of %d events, want 8: %v", n, len(res.Violation), res.Violation)
		}
	}
}

// oneToOneWaits is oneToOnePolls with the wait as an atomic await
// (Cmd.Guard, docs/language.md "Waits and happens-before"): the load of h
// happens only once h is 1, so a failed poll leaves no event.
//
// Hand analysis (robust for every N): FIFO order makes the write's popb
// precede the shadow read's popb, which precedes the await (it reads the 1
// that popb wrote), which is po-before the barrier. The only cross-rank
// accesses are the write's popb to y of rank r+1 and that rank's load of y
// after the barrier, so popb -cf-> load always points from the write's
// class to a class after the barrier, the same direction as write -po->
// barrier ↔ barrier -po-> load. The other accesses are the rank's own:
// one (stored before the shadow read's popa reads it), h (written by the
// shadow popb, then read by the await), x (read by the write's popa, never
// written), all in the order po imposes. No edge points backwards.
func oneToOneWaits() *pgas.Program {
	b := progbuild.New("1to1wait", 2, []string{"x", "y", "one", "h"}, []string{"r"}, []string{"q"})
	b.Seq(
		b.Store("one", "1"),
		b.Write("x", "rank N % 1 +", "y", "q"),
		b.Read("h", "rank", "one", "q"),
		b.Await("r", "h", "r 1 =="),
		progbuild.Barrier(),
		b.Load("r", "y"),
	)
	return b.Build()
}

func TestOneToOneWaits(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		res := oracle.Explore(oneToOneWaits(), n, generous)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if res.Violation != nil {
			h := pgas.HappensBefore(res.Violation)
			t.Fatalf("N=%d: violation\n%s", n, h.FormatCycle(oneToOneWaits(), res.Cycle))
		}
		if !res.Complete || res.RangeErr != nil {
			t.Errorf("N=%d: complete %v (%q), range error %v", n, res.Complete, res.Truncated, res.RangeErr)
		}
	}
}

// messagePassing: rank 1 stores 1 to x and writes it to y of rank 2;
// rank 2 polls y in a loop until it sees 1. Other ranks do nothing.
//
// Hand analysis (robust for every N): the only cell two ranks touch is
// (2,y), written once, by the popb of rank 1's write W. Loads of y before
// that popb have cf edges into W's class, loads after it get cf edges from
// it; po on rank 2 runs from earlier loads to later ones, and nothing of
// rank 2 leads back into rank 1, whose only other class (the store to x)
// precedes W in po and in cf (popa reads x after the store). So no class
// can reach itself. The loop keeps X finite (the polling rank only moves
// between two control states with r in {0,1}), and the summary finite
// (older loads of y are dominated by newer ones), so the search ends and
// is complete although the program loops.
func messagePassing() *pgas.Program {
	b := progbuild.New("mp", 2, []string{"x", "y"}, []string{"r"}, []string{"q"})
	b.Edge("start", "send", b.Assume("rank 1 =="))
	b.Edge("send", "s1", b.Store("x", "1"))
	b.Edge("s1", "sent", b.Write("x", "2", "y", "q"))
	b.Edge("start", "poll", b.Assume("rank 2 =="))
	b.Edge("poll", "check", b.Load("r", "y"))
	b.Edge("check", "poll", b.Assume("r 0 =="))
	b.Edge("check", "got", b.Assume("r 1 =="))
	return b.Build()
}

func TestMessagePassing(t *testing.T) {
	for _, n := range []int{2, 3} {
		res := oracle.Explore(messagePassing(), n, generous)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if res.Violation != nil {
			h := pgas.HappensBefore(res.Violation)
			t.Fatalf("N=%d: violation\n%s", n, h.FormatCycle(messagePassing(), res.Cycle))
		}
		if !res.Complete || res.RangeErr != nil {
			t.Errorf("N=%d: complete %v (%q), range error %v", n, res.Complete, res.Truncated, res.RangeErr)
		}
	}
}

// TestSelfRead: one rank looping on read(0, 1, 0, 0) (footnote 1) is not
// robust: in read·read·popa·popa·popb the second popa reads cell (1,0)
// before the first popb writes it, so R2 -cf-> R1 while R1 -po-> R2. That
// is the shortest violating prefix (5 events; the second popb completes
// it). With MaxQueue 1 only one request can be in flight, which rules the
// violation out, and the search must say it was truncated.
func TestSelfRead(t *testing.T) {
	b := progbuild.New("fn1", 1, []string{"a0"}, nil, []string{"q0"})
	b.Edge("start", "start", b.Read("0", "1", "0", "0"))
	p := b.Build()
	res := oracle.Explore(p, 1, oracle.Bounds{MaxQueue: 3, MaxNodes: 10_000})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Violation) != 6 {
		t.Fatalf("violation %v, want 6 events", res.Violation)
	}
	res = oracle.Explore(p, 1, oracle.Bounds{MaxQueue: 1, MaxNodes: 10_000})
	if res.Violation != nil || res.Complete || res.Truncated != "queue" {
		t.Fatalf("MaxQueue 1: violation %v, complete %v, truncated %q", res.Violation, res.Complete, res.Truncated)
	}
}

// TestRangeErrorPath: rank r stores r to x, loads it back into r, and then
// loads address r. For rank 2 that is address 2, outside {x, y}; the
// shortest path to it is rank 2's store and load.
func TestRangeErrorPath(t *testing.T) {
	b := progbuild.New("oob", 3, []string{"x", "y"}, []string{"r", "s"}, []string{"q"})
	ts := b.Seq(
		b.Store("x", "rank"),
		b.Load("r", "x"),
		b.Load("s", "r"),
	)
	p := b.Build()
	res := oracle.Explore(p, 2, generous)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.RangeErr == nil || res.RangeErr.What != "address" || res.RangeErr.Val != 2 {
		t.Fatalf("range error %v, want address 2", res.RangeErr)
	}
	if res.ErrRank != 2 || res.ErrTrans != ts[2] || len(res.ErrPath) != 2 ||
		res.ErrPath[0].Rank != 2 || res.ErrPath[0].Kind != pgas.KStore || res.ErrPath[1].Kind != pgas.KLoad {
		t.Fatalf("error at rank %d trans %d after %v", res.ErrRank, res.ErrTrans, res.ErrPath)
	}
	if _, err := pgas.ReplayPrefix(p, 2, res.ErrPath); err != nil {
		t.Fatalf("error path does not replay: %v", err)
	}
	// Local accesses of different ranks never conflict: robust, and the
	// search is complete.
	if res.Violation != nil || !res.Complete {
		t.Errorf("violation %v, complete %v", res.Violation, res.Complete)
	}
}

// TestBounds: cutting 1to1 at 6 events hides its violation (it needs 7, see
// TestOneToOne) and must be reported as incomplete; so must a node budget.
func TestBounds(t *testing.T) {
	res := oracle.Explore(oneToOne(), 2, oracle.Bounds{MaxEvents: 6})
	if res.Violation != nil || res.Complete || res.Truncated != "events" {
		t.Errorf("MaxEvents 6: violation %v complete %v truncated %q", res.Violation, res.Complete, res.Truncated)
	}
	res = oracle.Explore(oneToOne(), 2, oracle.Bounds{MaxEvents: 7})
	if res.Violation == nil {
		t.Errorf("MaxEvents 7: violation not found")
	}
	res = oracle.Explore(messagePassing(), 2, oracle.Bounds{MaxNodes: 5})
	if res.Complete || res.Truncated != "nodes" || res.Explored != 5 {
		t.Errorf("MaxNodes 5: complete %v truncated %q explored %d", res.Complete, res.Truncated, res.Explored)
	}
	if res := oracle.Explore(oneToOne(), 0, generous); res.Err == nil {
		t.Errorf("N = 0 accepted")
	}
}

// TestBarrierOnly: barriers alone are never violating, even looping; the
// state space is finite (one control state, summary of one class), so
// the search is complete.
func TestBarrierOnly(t *testing.T) {
	b := progbuild.New("bars", 1, []string{"a"}, nil, []string{"q"})
	b.Edge("start", "start", progbuild.Barrier())
	res := oracle.Explore(b.Build(), 3, generous)
	if res.Violation != nil || !res.Complete {
		t.Fatalf("violation %v, complete %v (%q)", res.Violation, res.Complete, res.Truncated)
	}
}

// FuzzExplore: on any program the generator can make (loops and range
// errors included) the oracle neither panics nor reports an internal
// error, stays within its bounds, and certifies what it reports.
func FuzzExplore(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(2), true, true)
	f.Add(uint64(2), uint8(4), uint8(3), false, false)
	f.Add(uint64(3), uint8(5), uint8(1), true, false)
	f.Fuzz(func(t *testing.T, seed uint64, ncmds, n uint8, loops, bad bool) {
		p := progbuild.Random(progbuild.NewRand(seed), 1+int(ncmds%5), loops, bad)
		nr := 1 + int(n%3)
		res := oracle.Explore(p, nr, oracle.Bounds{MaxEvents: 24, MaxQueue: 3, MaxNodes: 3000, Timeout: 5 * time.Second})
		if res.Err != nil {
			t.Fatalf("%v\n%v", res.Err, p)
		}
		if res.Explored > 3000 {
			t.Fatalf("explored %d states, bound 3000", res.Explored)
		}
		if res.Violation != nil {
			if _, err := pgas.Replay(p, nr, res.Violation); err != nil {
				t.Fatalf("violation does not replay: %v", err)
			}
			if pgas.HappensBefore(res.Violation).Cycle() == nil {
				t.Fatalf("violation without a cycle")
			}
		}
		if res.RangeErr != nil {
			if _, err := pgas.ReplayPrefix(p, nr, res.ErrPath); err != nil {
				t.Fatalf("error path does not replay: %v", err)
			}
		}
	})
}
