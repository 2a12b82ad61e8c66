package cycles

import (
	"context"
	"sync"
	"time"

	"github.com/pgasrob/pgasrob/automata"
)

// helper runs the per-type search on the wanted types in order, until
// every type is settled or ctx ends.
func (sr *sharedRun) helper(ctx context.Context, cache *moveTable, maxBytes int64) {
	states := &sr.helperStates
	sd := sr.sd
	holding := false // the helper holds the turn (it runs by turns)
	readied := false
	ready := func() {
		if !readied && sr.helperReady != nil {
			close(sr.helperReady)
		}
		readied = true
	}
	defer func() {
		ready()
		if holding {
			sr.turns.release(true)
		}
	}()
	for k, c := range sr.searched {
		if ctx.Err() != nil {
			return
		}
		if !sr.wanted(k) {
			continue
		}
		// A slot per running search, as in runPerType. Without a free slot (one
		// job, or the portfolio took the second one for the oracle: the
		// helper would then wait for the shared search to end, which on a
		// violating program can take minutes), turns with the shared
		// search instead.
		byTurns := holding
		if !holding {
			if !sd.slots.TryTake() {
				byTurns, holding = true, true
				sr.turns.acquire()
				// The shares count from here: the time the shared search
				// ran while the helper had a slot is not owed to it.
				sr.turns.shared, sr.turns.helper = 0, 0
			}
		}
		ready()
		typeCtx, cancel := context.WithCancel(ctx)
		stop := make(chan struct{})
		go func() {
			// Stop this type's search when the shared search settles it.
			t := time.NewTicker(10 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					if !sr.wanted(k) {
						cancel()
						return
					}
				}
			}
		}()
		// With a slot of its own, the helper also takes the slots nobody
		// uses (more than two jobs) as frontier workers.
		hopt, extra := sd.opt, 0
		if !byTurns {
			hopt, extra = sd.frontierWorkers(sd.jobs)
		}
		before := states.Load()
		tr := searchType(sd.p, sd.y, c, cache, hopt, typeCtx, maxBytes, func(s automata.Stats) {
			states.Store(before + s.States)
			if byTurns {
				sr.turns.yield(true)
			}
		}, nil)
		close(stop)
		cancel()
		sd.slots.Give(extra)
		states.Store(before + tr.Stats.States)
		if tr.Outcome != automata.Unknown {
			sr.settle(k, tr, false)
		}
		if byTurns {
			// Keep the turn from one type to the next, handing it over
			// only when the shared search is owed time, and only after
			// settling: handing it back at every type, before settling,
			// let the shared search keep it until its next progress call,
			// thousands of its costly states later (the unfenced ring at
			// N = 8 with one job: 34 s instead of 1 s).
			sr.turns.yield(true)
		} else {
			sd.slots.Give(1)
		}
	}
}

// turns share one job between the shared search and its helper when the
// helper has no slot of its own (one job, or the oracle of the portfolio
// took the second): whoever holds mu runs, and each hands the turn over
// at its progress calls so that the helper gets about a third of the
// time. Without the helper, a violation of a short cycle type, which its
// own search finds in a few thousand states, waited for the shared search
// to reach it at the pace of every type together (the unfenced ring at
// N = 6: 9.5 s against 0.2 s); with it, a robust program pays about half
// as much again. (A fifth for the helper made the unfenced ring at N = 8
// take 4 s once the oracle had joined, against 3.2 s with a third.)
type turns struct {
	mu     sync.Mutex
	since  time.Time
	shared time.Duration // time the shared search has held the turn
	helper time.Duration
	// share, if set, replaces helperShare: the portfolio's oracle takes
	// turns with the shared search as an equal (portfolio.go).
	share time.Duration
	guest bool // the oracle has joined (pace)
}

// helperShare: the shared search runs until it has had helperShare times
// the helper's time.
const helperShare = 2

func (t *turns) acquire() {
	t.mu.Lock()
	t.since = time.Now()
}

func (t *turns) release(helper bool) {
	if d := time.Since(t.since); helper {
		t.helper += d
	} else {
		t.shared += d
	}
	t.mu.Unlock()
}

// yield hands the turn over when the other side is owed time. (A
// sync.Mutex hands itself to a goroutine that has waited over a
// millisecond, so the unlock and lock below do let the other one in.)
func (t *turns) yield(helper bool) {
	now := time.Since(t.since)
	sh, he := t.shared, t.helper
	if helper {
		he += now
	} else {
		sh += now
	}
	share := time.Duration(helperShare)
	if t.share > 0 {
		share = t.share
	}
	if owed := he*share < sh; owed == helper {
		return // the caller is the one owed time: it goes on
	}
	t.release(helper)
	t.acquire()
}

// pace returns the turn-taking of a newcomer that shares the shared
// search's slot as an equal (the portfolio's oracle): its first call waits
// for the turn, later ones hand it over when the shared search is owed
// time. leave gives the turn back for good.
func (t *turns) pace() func() {
	return func() {
		if !t.guest {
			t.acquire()
			t.guest, t.share = true, 1
			t.shared, t.helper = 0, 0
			return
		}
		t.yield(true)
	}
}

func (t *turns) leave() {
	// The guest's goroutine has stopped calling pace: if it holds the
	// turn (it does after its first call, between its yields), give it
	// back. guest is only read and written by that goroutine.
	if t.guest {
		t.release(true)
	}
}
