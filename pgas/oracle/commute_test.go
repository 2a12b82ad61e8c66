package oracle_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestCommutingLitmus runs the oracle under both conflict relations on
// the litmus programs of examples/commuting, whose headers argue each
// verdict by hand (docs/deviations.md, entry 14).
func TestCommutingLitmus(t *testing.T) {
	cases := []struct {
		file                 string
		strictRobust, robust bool
	}{
		{"two-adds.pgas", false, true},
		{"add-read-between.pgas", false, false},
		{"add-and.pgas", false, false},
		{"signal-adds.pgas", false, true},
		{"two-xors.pgas", false, true},
		{"xor-values3.pgas", false, false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f := filepath.Join("../../examples/commuting", c.file)
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := pgas.Compile(f, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, comm := range []bool{false, true} {
				res := oracle.Explore(p, 2, oracle.Bounds{Commuting: comm})
				if res.Err != nil || !res.Complete || res.RangeErr != nil {
					t.Fatalf("commuting=%v: err %v, complete %v, range %v", comm, res.Err, res.Complete, res.RangeErr)
				}
				want := c.strictRobust
				if comm {
					want = c.robust
				}
				if got := res.Violation == nil; got != want {
					t.Errorf("commuting=%v: robust %v, want %v", comm, got, want)
				}
				if res.Violation != nil && comm && !pgas.HappensBeforeCommuting(p, res.Violation).Violating() {
					t.Errorf("the violation is not violating under cf_c")
				}
			}
		})
	}
}
