package cycles

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// oracleBounds lets the oracle explore as far as the memory budget
// allows (about 2 KiB per state on small programs), without a queue
// bound, so that its answers are exact whenever it finishes, and with
// its partial-order reduction (pgas/oracle/reduce.go), which keeps the
// verdict. (difftest and compare.go use the unreduced oracle as the
// reference.)
func (sd *typeSearch) oracleBounds(ctx context.Context) oracle.Bounds {
	return oracle.Bounds{MaxNodes: max(100_000, sd.maxBytes/2048), Context: ctx, Reduce: !noOracleReduction, Commuting: sd.opt.Commuting}
}

// noOracleReduction turns the oracle's reduction off, for the benchmarks
// that compare the portfolio with and without it in one run.
var noOracleReduction = false

// fromOracle turns an oracle exploration into a decision: NOT ROBUST for
// a violation (certified by the oracle and certified again here), ROBUST
// when it explored everything and met neither a violation nor a run-time
// error, nil otherwise (no answer).
func (sd *typeSearch) fromOracle(o oracle.Result, res *Result) (*Result, error) {
	res.Stats.States += o.Explored
	switch {
	case o.Err != nil:
		return nil, fmt.Errorf("%w: %v", ErrInternal, o.Err)
	case o.Violation != nil:
		w := &Witness{Direct: true, Computation: o.Violation}
		for _, e := range o.Violation {
			w.Parts[0] = append(w.Parts[0], Letter{Head: 1, Event: e})
		}
		if err := w.certify(sd.p, sd.n, sd.opt.Commuting); err != nil {
			return nil, fmt.Errorf("%w: the oracle's violation does not hold up against the plain semantics: %v", ErrInternal, err)
		}
		res.Verdict, res.Witness = NotRobust, w
	case o.Complete && o.RangeErr == nil:
		res.Verdict = Robust
	default:
		return nil, nil
	}
	res.Procedure = "oracle"
	res.Elapsed = time.Since(sd.start)
	return res, nil
}

func (sd *typeSearch) oracleOnly(ctx context.Context, res *Result) (*Result, error) {
	o := oracle.Explore(sd.p, sd.n, sd.oracleBounds(ctx))
	r, err := sd.fromOracle(o, res)
	if err != nil || r != nil {
		return r, err
	}
	res.Verdict, res.Procedure, res.Elapsed = Unknown, "oracle", time.Since(sd.start)
	switch {
	case o.RangeErr != nil:
		// Not reachable under SC (checked first), so only in a relaxed
		// computation: the program is not robust, but the oracle found
		// the error before a violation and stopped there.
		res.Reason = fmt.Sprintf("the oracle reached a run-time error that no sequentially consistent computation reaches (%v), which only a violation explains; the cycle-type search gives the witness", o.RangeErr)
	case o.Truncated == "stopped":
		res.Reason = budgetReason(ctx, sd.opt, "oracle: "+stopReason(ctx))
	default:
		res.Reason = fmt.Sprintf("oracle: bound on %s reached after %d states", o.Truncated, o.Explored)
	}
	return res, nil
}

func stopReason(ctx context.Context) string {
	if ctx.Err() == nil {
		return "stopped"
	}
	return context.Cause(ctx).Error()
}

// portfolio races the cycle-type search against the oracle, which starts
// after OracleDelay. The search's answer is taken unless it is UNKNOWN
// while the oracle still runs; the oracle's only when it is exact.
func (sd *typeSearch) portfolio(ctx context.Context, res *Result) (*Result, error) {
	delay := sd.opt.OracleDelay
	if delay <= 0 {
		delay = DefaultOracleDelay
	}
	type answer struct {
		res *Result
		err error
	}
	searchCtx, stopSearch := context.WithCancel(ctx)
	defer stopSearch()
	oracleCtx, stopOracle := context.WithCancel(ctx)
	defer stopOracle()
	base := *res
	if sd.jobs > 1 && sd.sharedHelped() {
		sd.sharedUp = make(chan struct{})
	}
	searched := make(chan answer, 1)
	go func() {
		r := base
		out, err := sd.run(searchCtx, &r)
		searched <- answer{out, err}
	}()
	timer := time.NewTimer(delay)
	defer timer.Stop()
	var explored chan oracle.Result
	var pending *answer    // the search's UNKNOWN, kept while the oracle runs
	var up <-chan struct{} // while the oracle waits for the shared search
	start := func() {
		explored = make(chan oracle.Result, 1)
		b := sd.oracleBounds(oracleCtx)
		if t := sd.shared.Load(); t != nil {
			pacedOracles.Add(1)
			// The shared exploration holds one slot and its per-type
			// helper the other: the oracle takes turns with the shared
			// search, and the helper keeps its core. (Taking the
			// helper's slot put it by turns with the shared search, at
			// a third of a core: on prodcons at N = 5, where the
			// per-type searches are the fastest way, the oracle then
			// answered first, after twice their time.)
			b.Pace = t.pace()
			go func() {
				defer t.leave()
				explored <- oracle.Explore(sd.p, sd.n, b)
			}()
			return
		}
		go func() { explored <- oracle.Explore(sd.p, sd.n, b) }()
		if sd.jobs > 1 {
			// Give the oracle a core: one fewer cycle-type search runs
			// once the next one finishes.
			go sd.slots.Take(searchCtx)
		}
	}
	for {
		select {
		case a := <-searched:
			if a.err != nil || a.res.Verdict != Unknown || explored == nil {
				return a.res, a.err
			}
			pending = &a
		case <-timer.C:
			switch {
			case pending != nil, explored != nil:
				// Answered, or the oracle already started (by up after
				// the timer was reset for it).
			case sd.sharedUp != nil && up == nil && sd.shared.Load() == nil:
				// The shared exploration is being set up (at N = 10
				// that takes a while): the oracle joins its turns then,
				// or after another delay if it is still not there.
				up = sd.sharedUp
				timer.Reset(max(delay, DefaultOracleDelay))
			default:
				start()
			}
		case <-up:
			up = nil
			if explored == nil && pending == nil {
				start()
			}
		case o := <-explored:
			explored = nil
			r := base
			out, err := sd.fromOracle(o, &r)
			if err != nil || out != nil {
				stopSearch()
				if pending == nil {
					<-searched // let the search goroutine end before returning
				}
				return out, err
			}
			if pending != nil {
				return pending.res, pending.err
			}
		}
	}
}

// sharedHelped reports whether the search runs the shared exploration
// with its per-type helper (run, exploreShared).
func (sd *typeSearch) sharedHelped() bool {
	return sd.plan.shared() && !sd.opt.noHelper
}

// pacedOracles counts the oracles that took turns with a shared search
// (for the tests).
var pacedOracles atomic.Int64

// sharedIsUp lets a portfolio's oracle waiting for the shared search
// start: the search has set its turns, or will not run.
func (sd *typeSearch) sharedIsUp() {
	sd.upOnce.Do(func() {
		if sd.sharedUp != nil {
			close(sd.sharedUp)
		}
	})
}
