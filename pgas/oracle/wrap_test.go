package oracle_test

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// Atomic adds that wrap (Result.RangeErr): the oracle reports the first
// wrap it meets as a range error, with the path to the state before the
// step, and explores every other step.

// An inc on x = 1 with values 2: the delivery computes 2. The path is the
// store and the issue of the inc; the delivery is what wraps.
func TestWrapPath(t *testing.T) {
	src := "values 2\naddress x\ncontext c\nmem[x] <- 1\namo_inc(1, x, c)\n"
	p, err := pgas.Compile("w.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := oracle.Explore(p, 1, generous)
	if res.Err != nil || !res.Complete || res.Violation != nil || res.RangeErr == nil {
		t.Fatalf("err %v, complete %v, violation %v, range error %v", res.Err, res.Complete, res.Violation, res.RangeErr)
	}
	inc := p.Out[p.Trans[0].To][0]
	if res.RangeErr.What != "atomic" || res.RangeErr.Val != 2 || res.RangeErr.Pos.Line != 5 ||
		res.ErrRank != 1 || res.ErrTrans != inc || len(res.ErrPath) != 2 {
		t.Fatalf("range error %v at rank %d trans %d (inc is %d) after %v", res.RangeErr, res.ErrRank, res.ErrTrans, inc, res.ErrPath)
	}
	if w, _, err := pgas.Wraps(p, 1, res.ErrPath); err != nil || w != nil {
		t.Fatalf("the path to the wrap: %v, %v", w, err)
	}
}

// Unfenced message passing (a violation) next to two incs that wrap: the
// oracle still finds the violation, and its violating prefix holds no
// wrap (a wrap may only come in the pops appended to complete it).
func TestWrapThenViolation(t *testing.T) {
	l := litmus{
		prod: "amo_inc(2, sig, c)\namo_inc(2, sig, c)\nputval(1, 2, data, c)\nputval(1, 2, flag, c)",
		cons: mpCons,
	}
	p, err := pgas.Compile("wv.pgas", []byte(l.source()))
	if err != nil {
		t.Fatal(err)
	}
	res := oracle.Explore(p, 2, generous)
	if res.Err != nil || res.Violation == nil {
		t.Fatalf("err %v, violation %v, range error %v", res.Err, res.Violation, res.RangeErr)
	}
	w, i, err := pgas.Wraps(p, 2, res.Violation)
	if err != nil {
		t.Fatal(err)
	}
	// The shortest violating prefix leaves both incs pending (the cycle
	// is on data); completing it delivers them, and the second wraps.
	if w == nil || !pgas.HappensBefore(res.Violation[:i]).Violating() {
		t.Fatalf("wrap %v at event %d of %v", w, i, res.Violation)
	}
	// Without the violation's race (a fence), only the wrap is left.
	l.prod = "amo_inc(2, sig, c)\namo_inc(2, sig, c)\nputval(1, 2, data, c)\nfence c\nputval(1, 2, flag, c)"
	p, err = pgas.Compile("wf.pgas", []byte(l.source()))
	if err != nil {
		t.Fatal(err)
	}
	res = oracle.Explore(p, 2, generous)
	if res.Err != nil || !res.Complete || res.Violation != nil || res.RangeErr == nil || res.RangeErr.What != "atomic" {
		t.Fatalf("fenced: err %v, violation %v, range error %v", res.Err, res.Violation, res.RangeErr)
	}
}
