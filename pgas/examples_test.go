package pgas

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var verdictLine = regexp.MustCompile(`(?m)^# Expected verdict for N = (\d+): (NOT ROBUST|ROBUST)\b`)

// TestExamples compiles every example and checks that its header states
// the expected verdict (the decision procedure's tests compare against
// it) and that it runs on the N it names.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/*.pgas")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, f := range files {
		p, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkWellFormed(t, p)
		src, _ := os.ReadFile(f)
		m := verdictLine.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no \"# Expected verdict for N = n: ROBUST|NOT ROBUST\" line", f)
			continue
		}
		n := int(m[1][0] - '0')
		if err := CheckN(p, n); err != nil {
			t.Errorf("%s: CheckN(%d): %v", f, n, err)
		}
		if !strings.Contains(string(src), "Why") {
			t.Errorf("%s: the header does not explain the verdict", f)
		}
	}
}

// TestExample1to1 checks the compiled 1to1 program against Figure 1 and
// Example 1 of pgas-theory-full.md: a store, a write to the right
// neighbour, a barrier, and the assert as a load followed by an assume.
func TestExample1to1(t *testing.T) {
	p, err := Load("../examples/1to1.pgas")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mem[x] <- 1",
		"write(x, rank % N + 1, y, q)",
		"barrier",
		"$t <- mem[y]",
		"assume($t == 1)",
	}
	// A straight line: transition i goes from state i to state i+1.
	if len(p.Trans) != len(want) || len(p.Labels) != len(want)+1 {
		t.Fatalf("got\n%s", p)
	}
	for i, tr := range p.Trans {
		if got := p.CmdString(tr.Cmd); got != want[i] || tr.From != i || tr.To != i+1 {
			t.Errorf("transition %d: %d -> %d: %s, want %d -> %d: %s", i, tr.From, tr.To, got, i, i+1, want[i])
		}
	}
	// The right neighbour of rank r is r % N + 1: 1 -> 2 -> 1 for N = 2.
	w := p.Trans[1].Cmd
	for rank, want := range map[int64]int64{1: 2, 2: 1} {
		got, err := p.RankOf(w.Rank, Env{Regs: make([]int64, len(p.Regs)), Rank: rank, N: 2})
		if err != nil || got != want {
			t.Errorf("neighbour of %d: %d, %v", rank, got, err)
		}
	}
}

// BenchmarkCompile compiles all examples; the front end runs once per
// command, so this only guards against accidental blow-ups.
func BenchmarkCompile(b *testing.B) {
	files, _ := filepath.Glob("../examples/*.pgas")
	var srcs [][]byte
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	b.ResetTimer()
	for b.Loop() {
		for i, src := range srcs {
			if _, err := Compile(files[i], src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestShmemExamples compiles the examples of the OpenSHMEM constructs: each
// states its expected verdict with a reason, runs on N = 2 and 3, and uses
// some OpenSHMEM command. (Their verdicts are checked where the decision
// procedure is.)
func TestShmemExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/shmem-calculus/*.pgas")
	if err != nil || len(files) < 12 {
		t.Fatalf("found %d examples: %v", len(files), err)
	}
	for _, f := range files {
		p, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkWellFormed(t, p)
		if !p.HasCtx() {
			t.Errorf("%s: no OpenSHMEM command", f)
		}
		src, _ := os.ReadFile(f)
		if m := verdictLine.FindSubmatch(src); m == nil || string(m[1]) != "2" || !strings.Contains(string(src), "Why") {
			t.Errorf("%s: the header does not give the verdict for N = 2 and why", f)
		}
		for n := 2; n <= 3; n++ {
			if err := CheckN(p, n); err != nil {
				t.Errorf("%s: CheckN(%d): %v", f, n, err)
			}
		}
	}
}
