package cycles

import (
	"context"
	"time"

	"pgasrob/automata"
)

// helper runs the per-type search on the wanted types in order, until
// every type is settled or ctx ends.
func (sr *sharedRun) helper(ctx context.Context, cache *moveTable, maxBytes int64) {
	states := &sr.helperStates
	sd := sr.sd
	for k, c := range sr.searched {
		if ctx.Err() != nil {
			return
		}
		if !sr.wanted(k) {
			continue
		}
		// A slot per running search, as in run: the portfolio takes one
		// away when the oracle joins.
		select {
		case <-sd.slots:
		case <-ctx.Done():
			return
		}
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
		before := states.Load()
		tr := searchType(sd.p, sd.y, c, cache, sd.opt, typeCtx, maxBytes, func(s automata.Stats) { states.Store(before + s.States) }, nil)
		close(stop)
		cancel()
		sd.slots <- struct{}{}
		states.Store(before + tr.Stats.States)
		if tr.Outcome != automata.Unknown {
			sr.settle(k, tr, false)
		}
	}
}
