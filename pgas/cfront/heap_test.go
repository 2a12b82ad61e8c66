package cfront_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// heapFiles compiles each program of testdata/heap for each N its expect
// line names, with Options.N (sizes may depend on N), as one litmus per N.
func heapFiles(t *testing.T) []litmus {
	t.Helper()
	files, err := filepath.Glob("testdata/heap/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no heap programs: %v", err)
	}
	var out []litmus
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		line := regexp.MustCompile(`expect:[^\n]*`).Find(src)
		ms := expectRE.FindAllSubmatch(line, -1)
		if len(ms) < 2 {
			t.Fatalf("%s: the expect line must give verdicts for N = 2 and 3: %q", f, line)
		}
		for _, m := range ms {
			n, _ := strconv.Atoi(string(m[1]))
			p, err := cfront.Compile(f, src, cfront.Options{N: n})
			if err != nil {
				t.Fatalf("%s N=%d: %v", f, n, err)
			}
			out = append(out, litmus{file: f, prog: p, expect: map[int]bool{n: string(m[2]) == "ROBUST"}})
		}
	}
	return out
}

// The heap programs' verdicts, argued by hand in each file, by the
// brute-force oracle.
func TestHeapOracle(t *testing.T) {
	for _, l := range heapFiles(t) {
		for n := range l.expect {
			oracleVerdicts(t, []litmus{l}, []int{n})
		}
	}
}

// The same verdicts by decide (Theorem 16's procedure).
func TestHeapDecide(t *testing.T) {
	for _, l := range heapFiles(t) {
		for n, want := range l.expect {
			r, err := cycles.Decide(l.prog, n, cycles.Options{Jobs: 2, Timeout: 2 * time.Minute})
			if err != nil {
				t.Errorf("%s N=%d: %v", l.file, n, err)
				continue
			}
			if r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust {
				t.Errorf("%s N=%d: no verdict: %v %s", l.file, n, r.Verdict, r.Reason)
				continue
			}
			if got := r.Verdict == cycles.Robust; got != want {
				t.Errorf("%s N=%d: decide says %s, the file says %s", l.file, n, verdict(got), verdict(want))
			}
		}
	}
}

// A size in N gives a translation per N: the block of mp-fence-npes.c has
// N cells, and without N the translation asks for one.
func TestHeapSizePerN(t *testing.T) {
	src, err := os.ReadFile("testdata/heap/mp-fence-npes.c")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3, 5} {
		p, err := cfront.Compile("b.c", src, cfront.Options{N: n})
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		cells := 0
		for _, a := range p.Addrs {
			if regexp.MustCompile(`^box@\d+\[\d+\]$`).MatchString(a) {
				cells++
			}
		}
		if cells != n {
			t.Errorf("N=%d: %d cells of box in %v", n, cells, p.Addrs)
		}
	}
	if _, err := cfront.Compile("b.c", src, cfront.Options{}); err == nil || !regexp.MustCompile(`b.c:\d+:\d+: the size of this shmem_calloc depends on the number of PEs`).MatchString(err.Error()) {
		t.Errorf("without N: %v", err)
	}
}

// The modelling choices of the memory layout are recorded in
// Program.Assumptions exactly when the program exercises them (the
// others, warnings.go's, are TestAssumptions').
func TestHeapAssumptions(t *testing.T) {
	heapChoice := map[string]bool{"alloc-succeeds": true, "alloc-zero": true, "free-no-pending": true, "shmem-ptr-null": true}
	for _, c := range []struct {
		file string
		want []string
	}{
		{"testdata/heap/mp-none.c", []string{"alloc-succeeds", "alloc-zero", "free-no-pending"}},
		{"testdata/heap/sb-helper.c", []string{"alloc-succeeds", "alloc-zero"}},
		{"testdata/heap/ptr-fallback.c", []string{"shmem-ptr-null"}},
		{"../../examples/shmem/mp-none.c", nil},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := cfront.Compile(c.file, src, cfront.Options{N: 2})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range p.Assumptions {
			if heapChoice[a.ID] {
				got = append(got, a.ID)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: assumptions %v, want %v", c.file, got, c.want)
		}
	}
}

// A store through a pointer shmem_ptr gave for another PE is, in this
// translation (NULL for every PE but the caller), a run-time error at the
// store, where the C program would crash; PE 1 storing through
// shmem_ptr(&x, 1), its own x, is fine.
func TestShmemPtrNullStore(t *testing.T) {
	src := []byte(`#include <shmem.h>
long x;
int main(void) {
    shmem_init();
    long *p = shmem_ptr(&x, 1);
    if (shmem_my_pe() == 1)
        *p = 1;
    if (shmem_my_pe() == 0)
        *p = 1;
    return 0;
}
`)
	p, err := cfront.Compile("n.c", src, cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := oracle.Explore(p, 2, oracle.Bounds{MaxQueue: 8, MaxNodes: 100_000, Timeout: time.Minute})
	if r.RangeErr == nil || r.RangeErr.What != "address" || r.RangeErr.Pos.Line != 9 {
		t.Fatalf("want the address error of line 9, got %v (violation %v)", r.RangeErr, r.Violation)
	}
}

// A computed index outside its object is a run-time error at the access
// (issue 34: y[4] of long y[4] must not be x, the next object in the
// layout), here on the last iteration of a loop that runs one too far.
func TestComputedIndexOutside(t *testing.T) {
	src := []byte(`#include <shmem.h>
long y[4];
long x;
int main(void) {
    shmem_init();
    for (int i = 0; i <= 4; i++)
        y[i] = 1;
    return 0;
}
`)
	p, err := cfront.Compile("o.c", src, cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := oracle.Explore(p, 1, oracle.Bounds{MaxQueue: 8, MaxNodes: 100_000, Timeout: time.Minute})
	if r.RangeErr == nil || r.RangeErr.What != "address" || r.RangeErr.Pos.Line != 7 {
		t.Fatalf("want the address error of line 7, got %v", r.RangeErr)
	}
}
