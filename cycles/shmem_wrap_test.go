package cycles

import (
	"errors"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The review case amo-add-wraps (pgas/oracle/shmem_review_test.go): rank 1
// increments rank 2's flag, fences, puts data and increments the flag
// again; rank 2 awaits a non-zero flag and loads data. With values 3 the
// await may see the second increment (flag = 2) and then miss the put of
// the same epoch: put -po-> inc2 ↔ (flag = 2) -cf-> await -po-> load data
// -cf-> popb(put) ↔ put, NOT ROBUST. With values 2 the second increment
// wraps (1 + 1 outside 0..1), already under SC: the answer must be the
// run-time error, never a verdict computed on the wrapped value (modulo 2
// the flag returns to 0 and the cycle disappears, which gave ROBUST).
func TestAtomicWrapIsRunError(t *testing.T) {
	src := func(values string) string {
		return "values " + values + `
address flag, data
register r
context c
    if rank != 1 goto CONS
    amo_inc(2, flag, c)
    fence c
    putval(1, 2, data, c)
    amo_inc(2, flag, c)
    goto END
CONS:
    r <- mem[flag] when r != 0
    r <- mem[data]
END:
`
	}
	for _, tc := range []struct {
		values string
		want   Verdict
	}{{"2", RunError}, {"3", NotRobust}} {
		p, err := pgas.Compile("wrap.pgas", []byte(src(tc.values)))
		if err != nil {
			t.Fatal(err)
		}
		for _, proc := range []Procedure{Automata, Oracle, Auto} {
			res, err := Decide(p, 2, Options{Jobs: 1, Procedure: proc})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.want {
				t.Errorf("values %s, %v: verdict %v, want %v (%s)", tc.values, proc, res.Verdict, tc.want, res.Reason)
			}
			if tc.want == RunError {
				var re *pgas.RangeError
				if !errors.As(res.RunError.Err, &re) || re.What != "atomic" {
					t.Errorf("values %s, %v: run-time error %v, want an atomic wrap", tc.values, proc, res.RunError.Err)
				}
			}
		}
	}
}
