package oracle_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// Hand-analysed programs with the OpenSHMEM commands (docs/shmem-calculus.md),
// N = 2. Rank 1 plays the producer and rank 2 the consumer: each rank
// takes the branch whose assume names it, so the programs are SPMD. Every
// expected verdict is argued next to its program; the oracle's violations
// are certified by Replay and HappensBefore inside Explore.

// roles builds a program whose rank 1 runs prod and rank 2 runs cons.
func roles(b *progbuild.Builder, prod, cons []pgas.Cmd) *pgas.Program {
	chain := func(name string, cmds []pgas.Cmd) {
		from := "start"
		for i, c := range cmds {
			to := fmt.Sprintf("%s%d", name, i+1)
			b.Edge(from, to, c)
			from = to
		}
	}
	chain("p", append([]pgas.Cmd{b.Assume("rank 1 ==")}, prod...))
	chain("c", append([]pgas.Cmd{b.Assume("rank 2 ==")}, cons...))
	return b.Build()
}

func shmemBuilder(name string) *progbuild.Builder {
	b := progbuild.New(name, 2, []string{"data", "flag", "one", "h"}, []string{"r"}, []string{"c", "d"})
	b.Contexts("c", "d")
	return b
}

// explore runs the oracle to completion and returns its violation.
func explore(t *testing.T, p *pgas.Program) oracle.Result {
	t.Helper()
	res := oracle.Explore(p, 2, generous)
	if res.Err != nil || !res.Complete || res.RangeErr != nil {
		t.Fatalf("%s: err %v, complete %v (%s), range error %v", p.Name, res.Err, res.Complete, res.Truncated, res.RangeErr)
	}
	return res
}

// wantRobust checks the verdict; for a violation, that its cycle has a
// cf edge into or out of an event on the given address (the race the
// hand analysis names).
func wantRobust(t *testing.T, p *pgas.Program, robust bool, raceAddr string) {
	t.Helper()
	res := explore(t, p)
	if (res.Violation == nil) != robust {
		t.Fatalf("%s: robust %v, want %v; violation %v", p.Name, res.Violation == nil, robust, res.Violation)
	}
	if robust {
		return
	}
	h := pgas.HappensBefore(res.Violation)
	a := slices.Index(p.Addrs, raceAddr)
	for _, e := range res.Cycle {
		if e.Rel == pgas.RelCF && h.Events[e.To].Cell.Addr == a {
			return
		}
	}
	t.Errorf("%s: the cycle has no cf edge on %s:\n%s", p.Name, raceAddr, h.FormatCycle(p, res.Cycle))
}

// Message passing: rank 1 stores one := 1 and puts it to data and then to
// flag of rank 2; rank 2 awaits flag == 1 and loads data.
//
// Without a fence (NOT ROBUST): the puts are unordered, so flag's popb can
// come first; rank 2's await then reads it, its load of data reads 0, and
// data's popb comes last: put_d -po-> put_f ↔ popb_f -cf-> await -po->
// load_d -cf-> popb_d ↔ put_d.
//
// With a fence between the puts (ROBUST): the flag's popb waits for the
// data's (same target, earlier epoch), the await reads flag after that
// popb and the load of data follows it, so popb_d -cf-> load_d points
// forward like everything else. Rank 2 writes nothing, so no edge enters
// rank 1's classes from rank 2; rank 1's own accesses to one (store, then
// the popas that read it) follow po.
func shmemMP(name string, fence bool) *pgas.Program {
	b := shmemBuilder(name)
	prod := []pgas.Cmd{b.Store("one", "1"), b.PutNbi("one", "2", "data", "c")}
	if fence {
		prod = append(prod, b.Fence("c"))
	}
	prod = append(prod, b.PutNbi("one", "2", "flag", "c"))
	return roles(b, prod, []pgas.Cmd{b.Await("r", "flag", "r 1 =="), b.Load("r", "data")})
}

func TestShmemMessagePassing(t *testing.T) {
	wantRobust(t, shmemMP("mp", false), false, "data")
	wantRobust(t, shmemMP("mp-fence", true), true, "")
}

// Fence is per target PE (NOT ROBUST): rank 1 puts data to itself and
// flag to rank 2 with a fence between; rank 2 awaits its flag and reads
// data of rank 1 with a fetching atomic. The fence does not order the two
// puts (different targets), so flag can arrive first and the atomic read
// data before its popb: put_d -po-> fence -po-> put_f ↔ popb_f -cf->
// await -po-> afetch_d -cf-> popb_d ↔ put_d. With quiet in place of the
// fence (ROBUST), data's popb precedes the put of flag, hence the await
// and the atomic; no other edge points back into rank 1.
func fenceOtherPE(name string, quiet bool) *pgas.Program {
	b := shmemBuilder(name)
	order := b.Fence("c")
	if quiet {
		order = b.Quiet("c")
	}
	prod := []pgas.Cmd{b.Store("one", "1"), b.PutNbi("one", "1", "data", "c"), order, b.PutNbi("one", "2", "flag", "c")}
	cons := []pgas.Cmd{b.Await("r", "flag", "r 1 =="), b.Atomic("r", pgas.AmoFetch, "1", "data", "", "", "d")}
	return roles(b, prod, cons)
}

func TestShmemFenceIsPerPE(t *testing.T) {
	wantRobust(t, fenceOtherPE("fence-other-pe", false), false, "data")
	wantRobust(t, fenceOtherPE("quiet-other-pe", true), true, "")
}

// Reusing a put's source buffer: rank 1 stores one := 1, puts one to data
// of rank 2 and stores one := 0 at once; rank 2 loads data.
//
// Non-blocking (NOT ROBUST): the popa may read one after the second store:
// put -po-> store0 -cf-> popa ↔ put, a cycle within rank 1.
//
// Blocking (ROBUST): the popa happens with the issue, before the second
// store, so popa -cf-> store0 follows po. Rank 2's single load meets only
// the popb on data, by one cf edge either way, and nothing leads from it
// back to rank 1.
func reuse(name string, blocking bool) *pgas.Program {
	b := shmemBuilder(name)
	put := b.PutNbi("one", "2", "data", "c")
	if blocking {
		put = b.Put("one", "2", "data", "c")
	}
	return roles(b, []pgas.Cmd{b.Store("one", "1"), put, b.Store("one", "0")}, []pgas.Cmd{b.Load("r", "data")})
}

func TestShmemBlockingPutReuse(t *testing.T) {
	wantRobust(t, reuse("reuse-nbi", false), false, "one")
	wantRobust(t, reuse("reuse-blocking", true), true, "")
}

// Quiet before a flag store: rank 1 puts one to data of rank 2, then
// stores its own flag := 1; rank 2 awaits flag@1 == 1 with an atomic fetch
// and loads its data.
//
// Without quiet (NOT ROBUST): put_d -po-> store_f -cf-> afetch_f -po->
// load_d -cf-> popb_d ↔ put_d, when data arrives after rank 2 reads it.
//
// With quiet (ROBUST): data's popb precedes the quiet, which precedes the
// store of flag, which precedes the atomic that sees it and the load of
// data: popb_d -cf-> load_d points forward, and rank 2 writes nothing.
func quietFlag(name string, quiet bool) *pgas.Program {
	b := shmemBuilder(name)
	prod := []pgas.Cmd{b.Store("one", "1"), b.PutNbi("one", "2", "data", "c")}
	if quiet {
		prod = append(prod, b.Quiet("c"))
	}
	prod = append(prod, b.Store("flag", "1"))
	cons := []pgas.Cmd{b.AtomicWhen("r", pgas.AmoFetch, "1", "flag", "", "", "d", "r 1 =="), b.Load("r", "data")}
	return roles(b, prod, cons)
}

func TestShmemQuietBeforeFlag(t *testing.T) {
	wantRobust(t, quietFlag("flag-no-quiet", false), false, "data")
	wantRobust(t, quietFlag("flag-quiet", true), true, "")
}

// Put-with-signal (ROBUST): rank 1 puts one to data of rank 2 with the
// signal flag := 1; rank 2 awaits flag == 1 and loads data. The signal's
// popb waits for the data's, so as with the fence the load of data comes
// after data's popb. The same message sent as data put and an unordered
// shmem_p of the flag (NOT ROBUST) is message passing without a fence.
func putSignal(name string, signal bool) *pgas.Program {
	b := shmemBuilder(name)
	flag := b.PutVal("1", "2", "flag", "c")
	if signal {
		flag = b.Signal("1", "2", "flag", "c", false)
	}
	prod := []pgas.Cmd{b.Store("one", "1"), b.PutNbi("one", "2", "data", "c"), flag}
	return roles(b, prod, []pgas.Cmd{b.Await("r", "flag", "r 1 =="), b.Load("r", "data")})
}

func TestShmemPutSignal(t *testing.T) {
	wantRobust(t, putSignal("put-signal", true), true, "")
	wantRobust(t, putSignal("put-then-p", false), false, "data")
}

// Await on a flag written by the rank's own non-blocking get (the handle
// idiom with a context): rank 1 stores one := 1, gets its own one into h
// and waits for h == 1.
//
// As an atomic await (ROBUST): the await executes only after the get's
// popb wrote 1 to h, so popb -cf-> await follows po; the get's popa reads
// one after the store. Rank 2 does nothing.
//
// As load; assume (NOT ROBUST): the load may read h = 0 before the popb:
// get -po-> load_h -cf-> popb_h ↔ get. The computation still ends in a
// final state, with rank 2 blocked at the assume.
func awaitGet(name string, await bool) *pgas.Program {
	b := shmemBuilder(name)
	prod := []pgas.Cmd{b.Store("one", "1"), b.GetNbi("h", "rank", "one", "c")}
	if await {
		prod = append(prod, b.Await("r", "h", "r 1 =="))
	} else {
		prod = append(prod, b.Load("r", "h"), b.Assume("r 1 =="))
	}
	return roles(b, prod, nil)
}

func TestShmemAwait(t *testing.T) {
	wantRobust(t, awaitGet("await-get", true), true, "")
	wantRobust(t, awaitGet("poll-get", false), false, "h")
}

// A fetching-atomic counter (ROBUST): every rank adds 1 to data of rank 1
// with fetch_add and stores the old value into its own h. The atomics are
// single events on one cell, ordered by one cf edge; each rank then
// writes only its own h, which nobody else accesses. Every final state
// has data@1 = N (DOM is 0..2, so no wrap-around at N = 2).
func TestShmemAtomicCounter(t *testing.T) {
	b := progbuild.New("counter", 3, []string{"data", "h"}, []string{"r"}, []string{"c"})
	b.Contexts("c")
	b.Seq(b.Atomic("r", pgas.AmoAdd, "1", "data", "1", "", "c"), b.Store("h", "r"))
	p := b.Build()
	if res := explore(t, p); res.Violation != nil {
		t.Errorf("counter: violation %v", res.Violation)
	}
	m := pgas.NewMachine(p, 2)
	all, ok := finals(m, 10_000)
	if !ok || len(all) == 0 {
		t.Fatalf("counter: %d final computations (complete %v)", len(all), ok)
	}
	done := 0
	for _, evs := range all {
		s, err := pgas.Replay(p, 2, evs)
		if err != nil {
			t.Fatal(err)
		}
		if end := p.Trans[1].To; s.Control(1) != end || s.Control(2) != end {
			continue // every control state is final: a rank may stop early
		}
		hs := []int64{s.Mem(pgas.Cell{Rank: 1, Addr: 1}), s.Mem(pgas.Cell{Rank: 2, Addr: 1})}
		slices.Sort(hs)
		done++
		if s.Mem(pgas.Cell{Rank: 1, Addr: 0}) != 2 || !slices.Equal(hs, []int64{0, 1}) {
			t.Errorf("counter: final state\n%v", s)
		}
	}
	if done == 0 {
		t.Errorf("counter: no computation where both ranks finish")
	}
}

// A loop that puts and quiets forever: every rank puts 1 to data of its
// right neighbour on c, quiets c and starts again. The issue indices of
// the items grow without bound, so the exploration is finite only because
// keys leave them out. ROBUST: there are no reads, and each cell is
// written only by the items of one rank, which quiet delivers one at a
// time in po order, so every cf edge follows po.
//
// With a fence in place of the quiet it stays ROBUST (the fence orders
// the puts, which all go to one rank), but items pile up: MaxQueue must
// cut the search there ("queue"), as it does for FIFO queues. With
// neither (NOT ROBUST), two puts to the same cell may arrive in the
// wrong order: put1 -po-> put2 ↔ popb2 -cf-> popb1 ↔ put1, four events.
func TestShmemLoops(t *testing.T) {
	loop := func(name string, sep pgas.Cmd, has bool) *pgas.Program {
		b := shmemBuilder(name)
		if !has {
			b.Edge("start", "start", b.PutVal("1", "rank N % 1 +", "data", "c"))
			return b.Build()
		}
		b.Edge("start", "sent", b.PutVal("1", "rank N % 1 +", "data", "c"))
		b.Edge("sent", "start", sep)
		return b.Build()
	}
	b := shmemBuilder("x")
	if res := explore(t, loop("put-quiet-loop", b.Quiet("c"), true)); res.Violation != nil {
		t.Errorf("put-quiet-loop: violation %v", res.Violation)
	}
	bounded := oracle.Bounds{MaxQueue: 2, Timeout: generous.Timeout}
	res := oracle.Explore(loop("put-fence-loop", b.Fence("c"), true), 2, bounded)
	if res.Err != nil || res.Violation != nil || res.Complete || res.Truncated != "queue" {
		t.Errorf("put-fence-loop: err %v, violation %v, complete %v, truncated %q", res.Err, res.Violation, res.Complete, res.Truncated)
	}
	res = oracle.Explore(loop("put-loop", pgas.Cmd{}, false), 2, bounded)
	if res.Err != nil || res.Violation == nil || len(res.Violation) != 4 {
		t.Errorf("put-loop: err %v, violation %v", res.Err, res.Violation)
	}
}
