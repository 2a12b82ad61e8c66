package automata

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// The parallel frontier (Options.Workers). Breadth-first search spends
// most of its time in Successors; inserting into the visited set is a
// small part. So the successors of the frontier are computed by worker
// goroutines, each on its own fork of the System, a batch of consecutive
// frontier states at a time, into the batch's own buffers (the packed
// successors, their hashes, and where each source state's successors
// end). The search goroutine then reads the batches in frontier order and
// inserts their successors exactly as the sequential search inserts what
// Successors emits: the visited order, the parent links, the transition
// count, the accepting checks, OnAccept, every budget decision and the
// witness are the same, state for state. Meanwhile the workers already
// expand the next batches (pipelining): a batch may take any state the
// visited set holds, and the search keeps a few batches ahead of the state
// it inserts from.
//
// This sameness needs a System whose successors depend on the state only,
// not on what the search did before (OnAccept's side effects): a fork may
// compute a batch before an OnAccept call that precedes it in the
// sequential order.

// A Forker is a System that can be searched by several goroutines at
// once. Fork returns a System with the same Width, Initial and Successors
// (in the same order) whose Successors may run in another goroutine at the
// same time as the original's and every other fork's methods: it owns its
// scratch buffers, and what it shares with the original (caches, tables)
// is safe for concurrent use. The parallel search calls only Successors on
// forks; the search goroutine calls Initial and Accepting on the original,
// and its Successors for the states it expands itself, while the forks
// run.
type Forker interface {
	System
	Fork() System
}

// batch is a run of frontier states [lo, hi) and, once a worker is done
// with it, their successors.
type batch struct {
	lo, hi int
	src    []uint64 // the states' words: a view of the store's arena, or buf
	buf    []uint64 // the states decoded, when the store is collapsed
	succ   []uint64 // successors, width words each, in emission order
	hashes []uint64 // hash of each successor
	ends   []uint32 // ends[i]: successors of state lo+i end at hashes[ends[i]]
	cut    bool     // the worker stopped before hi (cancellation)
	err    any      // a panic of Successors, raised again by the search
	done   chan struct{}
	bytes  int64 // the buffers' size when the search last received it
}

// pipeline feeds the breadth-first search with expanded batches.
type pipeline struct {
	st      *store
	workers int
	tasks   chan *batch
	queue   []*batch // dispatched, in frontier order
	free    []*batch
	cur     *batch
	next    int   // first state not dispatched yet
	held    int64 // bytes of the batches' buffers, as last seen by the search
	quit    atomic.Bool
	wg      sync.WaitGroup
	stopped bool
}

// A batch has minBatch to maxBatch states: enough that waking a worker
// costs little beside the successors (a batch per few states made the
// workers cost a quarter more CPU on small searches of the ring), few
// enough that a cancelled worker stops soon and the buffers stay small.
// While fewer than minBatch states wait, the search goroutine expands
// them itself.
const (
	minBatch = 32
	maxBatch = 512
)

// ParallelAfter is the number of states a search expands alone before it
// starts its workers: most searches of a check are small, and for them the
// workers would cost more than they save. Tests of Fork implementations
// set it to 0 so that their small searches run in parallel.
var ParallelAfter = 1024

// newPipeline starts the workers; from is the first state they expand.
func newPipeline(f Forker, st *store, workers int, ctx context.Context, from int) *pipeline {
	pl := &pipeline{st: st, workers: workers, tasks: make(chan *batch, 2*workers+2), next: from}
	for range workers {
		sys := f.Fork()
		pl.wg.Add(1)
		go pl.work(sys, ctx)
	}
	return pl
}

// work expands the batches it is given with its own fork.
func (pl *pipeline) work(sys System, ctx context.Context) {
	defer pl.wg.Done()
	w := pl.st.width
	var b *batch
	emit := func(_ Label, s State) {
		if len(s) != w {
			panic(fmt.Sprintf("automata: system emitted a state of %d words, want %d", len(s), w))
		}
		b.succ = append(b.succ, s...)
		b.hashes = append(b.hashes, hash(s))
	}
	for b = range pl.tasks {
		pl.expand(sys, b, ctx, emit)
		b.done <- struct{}{}
	}
}

func (pl *pipeline) expand(sys System, b *batch, ctx context.Context, emit func(Label, State)) {
	defer func() {
		if e := recover(); e != nil {
			b.err = e
		}
	}()
	w := pl.st.width
	for i := b.lo; i < b.hi; i++ {
		if (i-b.lo)&15 == 0 && (pl.quit.Load() || ctx.Err() != nil) {
			b.cut = true
			return
		}
		k := i - b.lo
		sys.Successors(State(b.src[k*w:(k+1)*w:(k+1)*w]), emit)
		b.ends = append(b.ends, uint32(len(b.hashes)))
	}
}

// fill dispatches batches of the states stored and not yet dispatched,
// keeping at most 2 batches per worker in flight.
func (pl *pipeline) fill() {
	w := pl.st.width
	for len(pl.queue) < 2*pl.workers && pl.st.len()-pl.next >= minBatch {
		avail := pl.st.len() - pl.next
		n := min(maxBatch, max(minBatch, avail/(2*pl.workers)))
		// A batch reads one page of the arena (store.go): pages never
		// move once full, and the last one only to a new array.
		n = min(n, pageStates-pl.next&pageMask)
		var b *batch
		if k := len(pl.free); k > 0 {
			b, pl.free = pl.free[k-1], pl.free[:k-1]
		} else {
			b = &batch{done: make(chan struct{}, 1)}
		}
		b.lo, b.hi = pl.next, pl.next+n
		// A page only grows at its end (or moves to a new array, the old
		// one staying valid), so this view is never written to.
		if pl.st.parts != nil {
			// A collapsed arena holds indices: the workers get the
			// states decoded.
			b.buf = b.buf[:0]
			for i := b.lo; i < b.lo+n; i++ {
				b.buf = append(b.buf, pl.st.state(i)...)
			}
			b.src = b.buf
		} else {
			page, o := pl.st.pages[b.lo>>pageShift], b.lo&pageMask
			b.src = page[o*w : (o+n)*w : (o+n)*w]
		}
		b.succ, b.hashes, b.ends, b.cut, b.err = b.succ[:0], b.hashes[:0], b.ends[:0], false, nil
		pl.next = b.hi
		pl.queue = append(pl.queue, b)
		pl.tasks <- b
	}
}

// successors hands visit the successors of state at, in the order the
// System emits them, and reports false if the workers were stopped first
// (the search then stops for the context). States must be asked for in
// order: at is one more than the state asked for before, or the first.
// It returns done = false when no batch holds at because too few states
// wait: the caller then expands at itself (with the original System,
// which may run beside its forks).
func (pl *pipeline) successors(at int, visit func(s State, h uint64)) (ok, done bool) {
	if pl.cur == nil || at >= pl.cur.hi {
		if pl.cur != nil {
			pl.free = append(pl.free, pl.cur)
			pl.cur = nil
		}
		pl.fill()
		if len(pl.queue) == 0 {
			pl.next = at + 1
			return true, false
		}
		b := pl.queue[0]
		pl.queue = pl.queue[1:]
		<-b.done
		pl.cur = b
		n := int64(cap(b.succ))*8 + int64(cap(b.hashes))*8 + int64(cap(b.ends))*4 + int64(cap(b.buf))*8
		pl.held += n - b.bytes
		b.bytes = n
		if b.err != nil {
			panic(b.err)
		}
		pl.fill() // the workers may take more while this batch is read
	}
	b := pl.cur
	k := at - b.lo
	if k >= len(b.ends) {
		return false, true // cut short
	}
	from := uint32(0)
	if k > 0 {
		from = b.ends[k-1]
	}
	w := pl.st.width
	for j := from; j < b.ends[k]; j++ {
		visit(State(b.succ[int(j)*w:int(j+1)*w]), b.hashes[j])
	}
	return true, true
}

// stop ends the workers and waits for them: no fork runs after Search
// returns.
func (pl *pipeline) stop() {
	if pl.stopped {
		return
	}
	pl.stopped = true
	pl.quit.Store(true)
	close(pl.tasks)
	pl.wg.Wait()
}
