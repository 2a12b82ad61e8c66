package main

import (
	"errors"
	"fmt"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// raceWidened is race.Decide with the widening of decideWidened: for a
// program whose value domain a front end inferred, a run-time error that
// is a value leaving that domain (a stored value, an atomic add that
// wraps) says the domain was too small, not that the program fails; the
// decision starts again with a wider one, up to the range of the
// program's C types. The race procedure reports such a value in any
// computation, not only a sequentially consistent one, so the last window
// holds every value of every computation and its verdict is the verdict
// with C's integers. The program that answered is returned, for the next
// N.
func raceWidened(p *pgas.Program, n int, opt race.Options) (*pgas.Program, *race.Result) {
	var work race.Result
	for {
		res := race.Decide(p, n, opt)
		res.Stats.Add(work.Stats)
		var re *pgas.RangeError
		if p.Widen == nil || res.Verdict != race.RunTimeError || !errors.As(res.RunErr, &re) || re.What != "value" && re.What != "atomic" {
			return p, res
		}
		q, werr := p.WidenFor(re)
		switch {
		case werr != nil:
			res.Verdict, res.RunErr, res.RunErrPath = race.Unknown, nil, nil
			res.Reason = fmt.Sprintf("the value %d (%v) needs a wider value domain than this program's arithmetic can have: %v", re.Val, re.Pos, werr)
			return p, res
		case q == nil:
			w := p.Widen
			switch {
			case cfront.GuardIsLimit(re.Val):
				msg, _ := cfront.GuardError(re.Val)
				res.Verdict, res.RunErr, res.RunErrPath = race.Unknown, nil, nil
				res.Reason = fmt.Sprintf("%v: %s", re.Pos, msg)
			case guard(re.Val):
				msg, _ := cfront.GuardError(re.Val)
				res.RunErr = fmt.Errorf("%v: %s", re.Pos, msg)
			case w.Type != "":
				res.RunErr = fmt.Errorf("%v: signed overflow: the value %d is outside %s's range %d..%d (undefined behaviour in C)", re.Pos, re.Val, w.Type, w.Lo, w.Hi)
			default:
				res.Verdict, res.RunErr, res.RunErrPath = race.Unknown, nil, nil
				res.Reason = fmt.Sprintf("the value %d (%v) is outside %d..%d, the widest value domain of the checker", re.Val, re.Pos, w.Lo, w.Hi)
			}
			return p, res
		}
		work.Stats = res.Stats
		p = q // a stopped context makes the next attempt UNKNOWN
	}
}
