package cycles

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// BenchmarkN4Families decides the issue-28 families (examples/n4) at
// N = 2..6 with the oracle alone and with the command's default (the
// portfolio over the shared search), each with the oracle's reduction
// off (old) and on (new), 60 s per decision, reporting states,
// states/s, B/state (search) and peak-MiB (benchProcedure). N = 6, the
// unreduced oracle beyond N = 4 and the old portfolio at N = 4 (whose
// search fills gigabytes in its 60 s) only with PGASROB_BENCH_BIG set:
//
//	go test ./cycles -run '^$' -bench N4Families -benchtime 1x
func BenchmarkN4Families(b *testing.B) {
	files, err := filepath.Glob("../examples/n4/*.pgas")
	if err != nil || len(files) == 0 {
		b.Fatalf("no families: %v", err)
	}
	big := os.Getenv("PGASROB_BENCH_BIG") != ""
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".pgas")
		for n := 2; n <= 6; n++ {
			for _, proc := range []Procedure{Oracle, Auto} {
				for _, red := range []string{"old", "new"} {
					b.Run(fmt.Sprintf("%s/N=%d/proc=%v/oracle=%s", name, n, proc, red), func(b *testing.B) {
						if !big && (n >= 6 || n >= 5 && red == "old" || n >= 4 && red == "old" && proc == Auto) {
							b.Skip("set PGASROB_BENCH_BIG=1")
						}
						noOracleReduction = red == "old"
						defer func() { noOracleReduction = false }()
						benchProcedure(b, p, n, proc, Shared)
					})
				}
			}
		}
	}
}
