package normalform

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

// TestMeasureY (PGASROB_MEASURE=1) explores Y without marks or
// reduction and counts the distinct projections of its states, to see
// which component multiplies them.
func TestMeasureY(t *testing.T) {
	if os.Getenv("PGASROB_MEASURE") == "" {
		t.Skip("set PGASROB_MEASURE=1")
	}
	files, _ := filepath.Glob("../examples/*.pgas")
	for _, f := range files {
		p, err := pgas.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 2; n <= 4; n++ {
			y, err := New(p, n)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			proj := map[string]map[string]bool{"ctl": {}, "ctl+mem+reg": {}, "ctl+ctr": {}}
			s := make(automata.State, y.Words())
			y.Initial(s)
			stack := []automata.State{s}
			key := func(s automata.State) string {
				var b []byte
				for _, w := range s[:y.words] {
					b = binary.LittleEndian.AppendUint64(b, w)
				}
				return string(b)
			}
			seen[key(s)] = true
			for len(stack) > 0 && len(seen) < 3_000_000 {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				var c, m, k []byte
				for r := 0; r < n; r++ {
					c = append(c, byte(y.st[r].Get(s)))
					for _, f := range y.mem[r] {
						m = append(m, byte(f.Get(s)))
					}
					for _, f := range y.reg[r] {
						m = append(m, byte(f.Get(s)))
					}
					for q := range y.pa[r] {
						k = append(k, byte(y.pa[r][q].Get(s)), byte(y.pb[r][q].Get(s)))
					}
				}
				proj["ctl"][string(c)] = true
				proj["ctl+mem+reg"][string(c)+"|"+string(m)] = true
				proj["ctl+ctr"][string(c)+"|"+string(k)] = true
				moves, _ := y.Moves(s)
				for _, mv := range moves {
					if kk := key(mv.Target); !seen[kk] {
						seen[kk] = true
						stack = append(stack, mv.Target)
					}
				}
			}
			t.Logf("%-22s N=%d Y=%8d ctl=%6d ctl+mem+reg=%7d ctl+ctr=%7d", filepath.Base(f), n, len(seen), len(proj["ctl"]), len(proj["ctl+mem+reg"]), len(proj["ctl+ctr"]))
		}
	}
}
