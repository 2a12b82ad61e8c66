package pool

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Item is one item handed to a search.
type Item struct {
	// Index is the item's place in the list (Run) or in the feed (Feed).
	Index int
	// Ctx is the run's context, also cancelled when an item before this
	// one wins (any other item, with AnyWins); already cancelled with Skip.
	Ctx context.Context
	// Skip is set when an item before this one had already won when it
	// was handed out: the search should record it as skipped and return.
	Skip bool
	// Taken counts the items handed out so far, this one included, and
	// Running the others handed out and not finished.
	Taken, Running int
}

// Pool runs searches in list order. Its zero value runs them one at a
// time; set the fields before the first run, and use a Pool for one run.
type Pool struct {
	// Workers is the number of searches that run at once (at least 1).
	Workers int
	// Join, in Run, lets the calling goroutine work alone for that long
	// before the other workers start; a run over by then starts none.
	Join time.Duration
	// AnyWins makes a win cancel every other search, earlier ones too.
	AnyWins bool

	mu      sync.Mutex
	bound   int // the index of the first win so far
	won     bool
	taken   int
	running int
	cancels map[int]context.CancelFunc
}

// Beaten reports whether an item before i has won (any item but i, with
// AnyWins). A search that ends without an answer after it was beaten was
// cut short by the winner.
func (p *Pool) Beaten(i int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.beaten(i)
}

func (p *Pool) beaten(i int) bool {
	if p.AnyWins {
		return p.won && p.bound != i
	}
	return p.won && p.bound < i
}

// start hands out an item: in a Run, the next (the taken-th from 0),
// unless all n are taken or ctx has ended; in a Feed (n < 0), item i.
func (p *Pool) start(ctx context.Context, n, i int) (Item, context.CancelFunc, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n >= 0 {
		i = p.taken
		if i >= n || ctx.Err() != nil {
			return Item{}, nil, false
		}
	}
	if p.cancels == nil {
		p.cancels, p.bound = map[int]context.CancelFunc{}, math.MaxInt
	}
	p.taken++
	it := Item{Index: i, Skip: p.beaten(i), Taken: p.taken, Running: p.running}
	p.running++
	var cancel context.CancelFunc
	it.Ctx, cancel = context.WithCancel(ctx)
	if it.Skip {
		cancel() // beaten already: no win will come to cancel it
	}
	p.cancels[i] = cancel
	return it, cancel, true
}

// finish records the end of item i's search; a win cancels the searches
// it beats.
func (p *Pool) finish(i int, win bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running--
	delete(p.cancels, i)
	if !win || (p.won && (p.AnyWins || p.bound < i)) {
		return
	}
	p.won, p.bound = true, i
	for j, c := range p.cancels {
		if p.beaten(j) {
			c()
		}
	}
}

// search searches an item (see start); it reports false if there is none.
func (p *Pool) search(ctx context.Context, n, i int, search func(Item) bool) bool {
	it, cancel, ok := p.start(ctx, n, i)
	if !ok {
		return false
	}
	win := search(it)
	cancel()
	p.finish(it.Index, win)
	return true
}

func (p *Pool) workers() int { return max(p.Workers, 1) }

// Run searches items 0 … n-1, handing them out in order; search reports
// whether its item wins. It returns when every search has ended. Once
// ctx ends, no further item is handed out.
func (p *Pool) Run(ctx context.Context, n int, search func(Item) bool) {
	work := func() {
		for p.search(ctx, n, 0, search) {
		}
	}
	var wg sync.WaitGroup
	var over atomic.Bool
	var joinMu sync.Mutex
	join := func() {
		joinMu.Lock()
		defer joinMu.Unlock()
		if over.Load() {
			return
		}
		for range p.workers() - 1 {
			wg.Add(1)
			go func() { defer wg.Done(); work() }()
		}
	}
	var timer *time.Timer
	switch {
	case p.workers() == 1:
	case p.Join > 0:
		timer = time.AfterFunc(p.Join, join)
	default:
		join()
	}
	work()
	joinMu.Lock()
	over.Store(true)
	joinMu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	wg.Wait()
}

// Feed searches the items that feed puts, handing them out in the order
// put is called (the Index of the k-th is k); put waits for a free
// worker and reports whether more items are wanted (not once ctx has
// ended, nor with AnyWins once an item has won). Feed returns when feed
// has returned and every search has ended.
func Feed[T any](ctx context.Context, p *Pool, feed func(put func(T) bool), search func(Item, T) bool) {
	type job struct {
		i int
		v T
	}
	next := make(chan job)
	var wg sync.WaitGroup
	for range p.workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				p.search(ctx, -1, j.i, func(it Item) bool { return search(it, j.v) })
			}
		}()
	}
	k := 0
	feed(func(v T) bool {
		if ctx.Err() != nil {
			return false
		}
		p.mu.Lock()
		stop := p.AnyWins && p.won
		p.mu.Unlock()
		if stop {
			return false
		}
		next <- job{k, v}
		k++
		return true
	})
	close(next)
	wg.Wait()
}

// Slots are tokens for the searches allowed to run at once, which a
// caller can lend out (a portfolio gives one to its oracle) and a search
// can borrow while nobody else claims them (frontier workers).
type Slots struct{ c chan struct{} }

// NewSlots returns n free slots.
func NewSlots(n int) *Slots {
	s := &Slots{c: make(chan struct{}, n)}
	s.Give(n)
	return s
}

// Take waits for a free slot; it reports false if ctx ended first.
func (s *Slots) Take(ctx context.Context) bool {
	select {
	case <-s.c:
		return true
	case <-ctx.Done():
		return false
	}
}

// TryTake takes a slot if one is free.
func (s *Slots) TryTake() bool {
	select {
	case <-s.c:
		return true
	default:
		return false
	}
}

// Borrow takes up to n free slots without waiting and returns how many.
func (s *Slots) Borrow(n int) int {
	k := 0
	for k < n && s.TryTake() {
		k++
	}
	return k
}

// Free is the number of free slots.
func (s *Slots) Free() int { return len(s.c) }

// Give returns n slots.
func (s *Slots) Give(n int) {
	for range n {
		s.c <- struct{}{}
	}
}
