package tso

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// FuzzCheck: whatever parses can be checked under both models within small
// budgets without a panic, and a NOT ROBUST answer always comes with a
// witness that survived its replay.
func FuzzCheck(f *testing.F) {
	for _, dir := range []string{filepath.Join("..", "..", "shared", "corpus", "trencher"), filepath.Join("..", "examples", "tso")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil && len(src) < 2000 {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("memory_size 2 thread t initial q transition q q local a + a 1 transition q r read x a end"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := prog.ParseProgram("fuzz", src)
		if err != nil {
			return
		}
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			r := check(p, m, Options{MaxStates: 5000, MaxBytes: 32 << 20, Timeout: 2 * time.Second, Jobs: 1})
			if r.Verdict == prog.NotRobust && r.WitnessErr != nil {
				t.Fatalf("%v: witness replay failed: %v\n%s", m, r.WitnessErr, p)
			}
		}
	})
}
