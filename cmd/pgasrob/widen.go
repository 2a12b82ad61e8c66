package main

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// decideWidened is safeDecide for a program whose value domain a front
// end inferred (pgas.Program.Widen): when the only finding is a value
// leaving that domain (a stored or assigned value, or an atomic add that
// wraps), the domain was ours, too small, not the program's; the decision
// starts again with a wider one, up to the range of the program's C
// types. Beyond that range the value is the program's overflow: a
// run-time error for C's int (signed overflow), UNKNOWN where the limit
// is the checker's own (pgas.MaxValue). docs/shmem-calculus.md, "Inferred
// domains", argues that the verdict for the last window is the verdict of
// the program with unbounded integers. The program that answered is
// returned too, and kept for the next N (a wider window is never wrong).
func decideWidened(p *pgas.Program, n int, opt cycles.Options) (*pgas.Program, *cycles.Result, error) {
	var spent []*cycles.Result
	from := [2]int64{p.Lo, p.Hi()}
	for {
		res, err := safeDecide(p, n, opt)
		if err != nil || res == nil || p.Widen == nil || res.Verdict != cycles.RunError || res.RunError == nil {
			return p, merged(res, spent, from, p), err
		}
		var re *pgas.RangeError
		if !errors.As(res.RunError.Err, &re) || re.What != "value" && re.What != "atomic" {
			return p, merged(res, spent, from, p), nil // an address, rank, queue or division: the program's
		}
		lo, hi, ok := wider(p, re.Val)
		if !ok {
			overflow(p, res, re)
			return p, merged(res, spent, from, p), nil
		}
		q, werr := p.WithDomain(lo, hi)
		if werr != nil {
			res.Verdict, res.RunError = cycles.Unknown, nil
			res.Reason = fmt.Sprintf("the value %d (%v) needs a wider value domain, %d..%d, which this program's arithmetic cannot have: %v", re.Val, re.Pos, lo, hi, werr)
			return p, merged(res, spent, from, p), nil
		}
		spent = append(spent, res)
		p = q // a stopped context makes the next attempt UNKNOWN
	}
}

// wider is the window after v left p's: the side v left doubled (a bit
// more per value), at least to v, within the program's types.
func wider(p *pgas.Program, v int64) (lo, hi int64, ok bool) {
	w := p.Widen
	if v < w.Lo || v > w.Hi {
		return 0, 0, false
	}
	lo, hi = p.Lo, p.Hi()
	if v > hi {
		hi = min(int64(1)<<bits.Len64(uint64(max(v, 2*hi+1))), w.Hi+1) - 1
	}
	if v < lo {
		lo = max(-(int64(1) << bits.Len64(uint64(-min(v, 2*lo-1)-1))), w.Lo)
	}
	return lo, hi, true
}

// overflow turns a value beyond the program's types into the program's
// error (C's int overflows) or into UNKNOWN (the checker's limit).
func overflow(p *pgas.Program, res *cycles.Result, re *pgas.RangeError) {
	w := p.Widen
	switch {
	case cfront.IsSizeMaxGuard(re.Val):
		res.RunError.Err = fmt.Errorf("%v: SIZE_MAX, the \"none\" of shmem_test_any or shmem_wait_until_any, used as a value (only == and != SIZE_MAX are in the subset)", re.Pos)
	case w.Type != "":
		res.RunError.Err = fmt.Errorf("%v: signed overflow: the value %d is outside %s's range %d..%d (undefined behaviour in C)", re.Pos, re.Val, w.Type, w.Lo, w.Hi)
	default:
		res.Verdict, res.RunError = cycles.Unknown, nil
		res.Reason = fmt.Sprintf("the value %d (%v) is outside %d..%d, the widest value domain of the checker", re.Val, re.Pos, w.Lo, w.Hi)
	}
}

// merged adds the work of the attempts that widened to the result, and
// says in its note that the domain was widened.
func merged(res *cycles.Result, spent []*cycles.Result, from [2]int64, p *pgas.Program) *cycles.Result {
	if res == nil || len(spent) == 0 {
		return res
	}
	for _, s := range spent {
		res.Stats.Add(s.Stats)
		res.Elapsed += s.Elapsed
	}
	note := fmt.Sprintf("values: the domain inferred from the program, %d..%d, was widened to %d..%d (%d retries: a value of the program left it, which is no error of the program)",
		from[0], from[1], p.Lo, p.Hi(), len(spent))
	if res.Note != "" {
		note = res.Note + "; " + note
	}
	res.Note = note
	return res
}
