package tso

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestPersistFlattenMarked runs the abstraction on the corpus files marked
// as parameterized (testdata/param/MARKED) and on the plain corpus, and
// logs what it proves. A PERSISTENT for a marked file holds for every
// number of copies; the test checks each against the concrete checker on
// the instances with 1 and 2 copies.
func TestPersistFlattenMarked(t *testing.T) {
	for _, m := range readMarked(t) {
		p := loadMarked(t, m)
		fr := CheckPersistenceFlattened(p, Options{Jobs: 1, MaxStates: 1_000_000})
		t.Logf("%s: %s (%s)\n%s", m.file, Persistence.VerdictString(fr.Verdict), fr.Reason, fr.Format(p))
		if fr.Verdict != prog.Robust || fr.Concrete != nil {
			continue
		}
		for _, k := range []int{1, 2} {
			q, _ := Instance(p, uniformCopies(p, k))
			if r := check(q, prog.TSO, Options{Criterion: Persistence, Jobs: 1}); r.Verdict == prog.NotRobust {
				t.Errorf("%s: abstraction PERSISTENT, %d copies FRAGILE", m.file, k)
			}
		}
	}
}

// TestPersistFlattenTestdata checks the hand-analysed programs of
// testdata/persist/flatten (argument in each file), and for a PERSISTENT
// answer the oracle on the instances with 1..3 copies.
func TestPersistFlattenTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/persist/flatten/*.txt")
	if len(files) < 2 {
		t.Fatalf("found %d programs", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := prog.ParseProgram(f, src)
		if err != nil {
			t.Fatal(err)
		}
		fr := CheckPersistenceFlattened(p, Options{Jobs: 1})
		if got, want := strings.ToLower(Persistence.VerdictString(fr.Verdict)), persistHeader(string(src))["expect"]; got != want {
			t.Errorf("%s: %s, want %s (%s)", f, got, want, fr.Reason)
		}
		for k := 1; k <= 3 && fr.Verdict == prog.Robust; k++ {
			q, _ := Instance(p, uniformCopies(p, k))
			if o := oracle.Persistence(q, prog.TSO, oracle.Budget{MaxNodes: 200_000}); o.Verdict != prog.Robust {
				t.Errorf("%s: %d copies: oracle %s", f, k, Persistence.VerdictString(o.Verdict))
			}
		}
	}
}

// TestPersistFlattenRandom: the flattening abstraction is sound. On random
// loop-free programs, a PERSISTENT from the abstraction must be the
// oracle's answer too; with thread t0 replicated, it must hold for the
// instances with 1 and 2 copies of t0 (oracle, where it decides). A
// FRAGILE must come with a concrete witness.
func TestPersistFlattenRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(12, 3))
	counts := map[string]int{}
	budget := oracle.Budget{MaxNodes: 50_000, Timeout: 2 * time.Second}
	for i := 0; i < n; i++ {
		src := gen.Generate(r, gen.Config{Threads: 3, Instrs: 3})
		rep := i%2 == 1
		if rep {
			src = strings.Replace(src, "thread t0\n", "thread t0 *\n", 1)
		}
		p, err := prog.ParseProgram(fmt.Sprintf("random-%d", i), []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		fr := CheckPersistenceFlattened(p, Options{MaxStates: 200_000, Jobs: 1})
		counts[fmt.Sprintf("replicated=%v %s concrete=%v", rep, Persistence.VerdictString(fr.Verdict), fr.Concrete != nil)]++
		switch fr.Verdict {
		case prog.NotRobust:
			if fr.Concrete == nil || fr.Concrete.Witness == nil || fr.Concrete.Witness.Fragile == nil {
				t.Fatalf("FRAGILE without a concrete witness\n%s", src)
			}
		case prog.Robust:
			ks := []int{1}
			if rep {
				ks = []int{1, 2}
			}
			for _, k := range ks {
				q, _ := Instance(p, uniformCopies(p, k))
				o := oracle.Persistence(q, prog.TSO, budget)
				counts[fmt.Sprintf("oracle %d copies %s", k, Persistence.VerdictString(o.Verdict))]++
				if o.Verdict == prog.NotRobust {
					t.Fatalf("abstraction PERSISTENT, oracle FRAGILE with %d copies\n%s", k, src)
				}
			}
		}
	}
	t.Logf("%d programs: %v", n, counts)
	if counts["replicated=true PERSISTENT concrete=false"] < n/20 || counts["replicated=false PERSISTENT concrete=false"] < n/20 {
		t.Errorf("the abstraction proves too little to be tested: %v", counts)
	}
}
