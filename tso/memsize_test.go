package tso

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestMemorySizeInferred: a program in the reference format, which has no
// memory_size line, may use any address; the memory is as large as its
// constant addresses need (issue 29, item 8).
func TestMemorySizeInferred(t *testing.T) {
	src := gen.UnfencedRing(12) // addresses 0..11
	p := mustParse(t, src)
	if p.MemorySize != 12 || len(p.Cells) != 12 {
		t.Fatalf("memory of %d addresses, %d cells; want 12", p.MemorySize, len(p.Cells))
	}
	if out := p.String(); strings.Contains(out, "memory_size") {
		t.Errorf("printed back with a memory_size line the reference tool rejects:\n%s", out)
	}
	declared := mustParse(t, "memory_size 12\n"+src)
	if declared.String() != p.String() {
		t.Errorf("a declared size equal to the inferred one printed as\n%s", declared.String())
	}
	r, d := check(p, prog.TSO, Options{Jobs: 1}), check(declared, prog.TSO, Options{Jobs: 1})
	if r.Verdict != prog.NotRobust || d.Verdict != r.Verdict || r.Generated != d.Generated {
		t.Errorf("inferred: %v (%d attacks), declared: %v (%d attacks)", r.Verdict, r.Generated, d.Verdict, d.Generated)
	}

	// A computed address makes every address a cell: 0..11 here.
	q := mustParse(t, "thread t\ninitial q\ntransition q r write 1 11\ntransition r s read a 0\ntransition s u read b a\nend\n")
	if q.MemorySize != 12 || len(q.Cells) != 12 {
		t.Errorf("computed address: memory of %d addresses, %d cells; want 12", q.MemorySize, len(q.Cells))
	}
	// Small programs keep the reference's default of 10.
	if s := mustParse(t, "thread t\ninitial q\ntransition q r read a a\nend\n"); s.MemorySize != prog.DefaultMemorySize {
		t.Errorf("no constant address: memory of %d addresses, want %d", s.MemorySize, prog.DefaultMemorySize)
	}
	// Beyond what memory_size may declare: an error with a position.
	_, err := prog.ParseProgram("big.txt", []byte("thread t\ninitial q\ntransition q r write 1 70000\nend\n"))
	if err == nil || !strings.Contains(err.Error(), "big.txt:3:") || !strings.Contains(err.Error(), "70000") {
		t.Errorf("address 70000: error %v", err)
	}
}
