package main

import (
	"errors"
	"fmt"

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
	for {
		res, err := safeDecide(p, n, opt)
		if err != nil || res == nil || p.Widen == nil || res.Verdict != cycles.RunError || res.RunError == nil {
			return p, merged(res, spent, p), err
		}
		var re *pgas.RangeError
		if !errors.As(res.RunError.Err, &re) || re.What != "value" && re.What != "atomic" {
			return p, merged(res, spent, p), nil // an address, rank, queue or division: the program's
		}
		q, werr := p.WidenFor(re)
		switch {
		case werr != nil:
			res.Verdict, res.RunError = cycles.Unknown, nil
			res.Reason = fmt.Sprintf("the value %d (%v) needs a wider value domain than this program's arithmetic can have: %v", re.Val, re.Pos, werr)
			return p, merged(res, spent, p), nil
		case q == nil:
			overflow(p, res, re)
			return p, merged(res, spent, p), nil
		}
		spent = append(spent, res)
		p = q // a stopped context makes the next attempt UNKNOWN
	}
}

// overflow turns a value beyond the program's types into the program's
// error (C's int overflows) or into UNKNOWN (the checker's limit).
func overflow(p *pgas.Program, res *cycles.Result, re *pgas.RangeError) {
	w := p.Widen
	switch {
	case cfront.GuardIsLimit(re.Val):
		msg, _ := cfront.GuardError(re.Val)
		res.Verdict, res.RunError = cycles.Unknown, nil
		res.Reason = fmt.Sprintf("%v: %s", re.Pos, msg)
	case guard(re.Val):
		msg, _ := cfront.GuardError(re.Val)
		res.RunError.Err = fmt.Errorf("%v: %s", re.Pos, msg)
	case w.Type != "":
		res.RunError.Err = fmt.Errorf("%v: signed overflow: the value %d is outside %s's range %d..%d (undefined behaviour in C)", re.Pos, re.Val, w.Type, w.Lo, w.Hi)
	default:
		res.Verdict, res.RunError = cycles.Unknown, nil
		res.Reason = fmt.Sprintf("the value %d (%v) is outside %d..%d, the widest value domain of the checker", re.Val, re.Pos, w.Lo, w.Hi)
	}
}

// merged adds the work of the attempts that widened to the result, and
// says in its note which domain answered when it is not the inferred one
// (widened for this N or an earlier one).
func merged(res *cycles.Result, spent []*cycles.Result, p *pgas.Program) *cycles.Result {
	if res == nil {
		return res
	}
	for _, s := range spent {
		res.Stats.Add(s.Stats)
		res.Elapsed += s.Elapsed
	}
	w := p.Widen
	if w == nil || w.From == [2]int64{p.Lo, p.Hi()} {
		return res
	}
	note := fmt.Sprintf("values: the domain inferred from the program, %d..%d, was widened to %d..%d (a value of the program left it, which is no error of the program)",
		w.From[0], w.From[1], p.Lo, p.Hi())
	if res.Note != "" {
		note = res.Note + "; " + note
	}
	res.Note = note
	return res
}

// windowFor is the translation options whose domain holds every value
// the sequentially consistent runs of the C program src reach for each N
// of ns: the inferred domain, widened by the run-time error check alone
// (a decision that searches no cycle type). Repair works on the .pgas
// text of the translation, whose domain is declared: it must be wide
// enough from the start. A run-time error of the program itself is left
// for the repair to report.
func windowFor(file string, src []byte, ns []int, copt cfront.Options, opt cycles.Options) (cfront.Options, error) {
	if len(ns) == 1 {
		copt.N = ns[0] // a translation per N when ns names one (heap sizes in N)
	}
	p, err := cfront.Compile(file, src, copt)
	if err != nil || p.Widen == nil {
		return copt, err
	}
	opt.Only, opt.All, opt.Procedure, opt.Progress = []cycles.CycleType{}, false, cycles.Automata, nil
	for _, n := range ns {
		if p, _, err = decideWidened(p, n, opt); err != nil {
			return copt, err
		}
	}
	copt.Lo, copt.Hi = p.Lo, p.Hi()
	return copt, nil
}

// guard reports whether v is the value of one of the translation's
// run-time guards (cfront.GuardError names its cause).
func guard(v int64) bool {
	_, ok := cfront.GuardError(v)
	return ok
}
