package pgas

import (
	"strings"
	"testing"
)

// TestSugar checks each expansion of docs/language.md command by command.
// Addresses: x=0, y=1, a=2, a+1=3, then the hidden ones in order of first
// need; registers r, s, then $t.
func TestSugar(t *testing.T) {
	tests := []struct{ name, body, want, sugar string }{
		{"assert", "assert mem[a+1] + r == 2", lines(
			"@5 -> @5.1: $t <- mem[a+1]",
			"@5.1 -> @end: assume($t + r == 2)"), "assert assert"},
		{"assert inside parens", "assert !(mem[x] == 1)", lines(
			"@5 -> @5.1: $t <- mem[x]",
			"@5.1 -> @end: assume(!($t == 1))"), "assert assert"},
		{"assert of parenthesised mem", "assert (mem[x]) == 1", lines(
			"@5 -> @5.1: $t <- mem[x]",
			"@5.1 -> @end: assume($t == 1)"), "assert assert"},
		{"assert in parentheses", "assert (mem[x] == 1)", lines(
			"@5 -> @5.1: $t <- mem[x]",
			"@5.1 -> @end: assume($t == 1)"), "assert assert"},
		// The prologue stores 1 into $one before the first statement; the
		// shadow is reset, the write issued, and a read of $one into the
		// shadow follows on the same queue.
		{"write handle and wait", "write(x, 2, y, q) -> h\nwait h", lines(
			"@init -> @5: mem[$one] <- 1",
			"@5 -> @5.1: mem[$h.h] <- 0",
			"@5.1 -> @5.2: write(x, 2, y, q)",
			"@5.2 -> @6: read($h.h, rank, $one, q)",
			"@6 -> @end: $t <- mem[$h.h] when $t == 1"), "init handle handle handle wait"},
		{"read handle", "read(x, 2, y, p) -> g", lines(
			"@init -> @5: mem[$one] <- 1",
			"@5 -> @5.1: mem[$h.g] <- 0",
			"@5.1 -> @5.2: read(x, 2, y, p)",
			"@5.2 -> @end: read($h.g, rank, $one, p)"), "init handle handle handle"},
		{"get", "get(x, 1, y, p)", lines(
			"@init -> @5: mem[$one] <- 1",
			"@5 -> @5.1: mem[$sync] <- 0",
			"@5.1 -> @5.2: read(x, 1, y, p)",
			"@5.2 -> @5.3: read($sync, rank, $one, p)",
			"@5.3 -> @end: $t <- mem[$sync] when $t == 1"), "init get get get get"},
		{"put", "put(x, 1, y, q)", lines(
			"@init -> @5: mem[$one] <- 1",
			"@5 -> @5.1: mem[$sync] <- 0",
			"@5.1 -> @5.2: write(x, 1, y, q)",
			"@5.2 -> @5.3: read($sync, rank, $one, q)",
			"@5.3 -> @end: $t <- mem[$sync] when $t == 1"), "init put put put put"},
		{"waitq", "waitq p", lines(
			"@init -> @5: mem[$one] <- 1",
			"@5 -> @5.1: mem[$sync] <- 0",
			"@5.1 -> @5.2: read($sync, rank, $one, p)",
			"@5.2 -> @end: $t <- mem[$sync] when $t == 1"), "init waitq waitq waitq"},
		{"quiet is waitq", "quiet q", lines(
			"@init -> @5: mem[$one] <- 1",
			"@5 -> @5.1: mem[$sync] <- 0",
			"@5.1 -> @5.2: read($sync, rank, $one, q)",
			"@5.2 -> @end: $t <- mem[$sync] when $t == 1"), "init waitq waitq waitq"},
		{"if", "L: if r == s goto L\nbarrier", lines(
			"L -> L: assume(r == s)",
			"L -> @6: assume(!(r == s))",
			"@6 -> @end: barrier"), "if if "},
		// A sugared statement with "; goto" sends only its last command to
		// the targets.
		{"sugar with goto", "L: put(x, 1, y, q); goto L", lines(
			"@init -> L: mem[$one] <- 1",
			"L -> @5.1: mem[$sync] <- 0",
			"@5.1 -> @5.2: write(x, 1, y, q)",
			"@5.2 -> @5.3: read($sync, rank, $one, q)",
			"@5.3 -> L: $t <- mem[$sync] when $t == 1"), "init put put put put"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, header+tt.body+"\n")
			if got := transitions(p); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			var sugars []string
			for _, tr := range p.Trans {
				sugars = append(sugars, tr.Sugar)
				if tr.Sugar != "" && tr.Sugar != "init" && tr.Pos.Line < 5 {
					t.Errorf("sugar transition %v not at its statement", tr.Pos)
				}
			}
			if got := strings.Join(sugars, " "); got != tt.sugar {
				t.Errorf("sugar names %q, want %q", got, tt.sugar)
			}
			checkWellFormed(t, p)
		})
	}
}

// TestHiddenNames checks that hidden addresses are marked as shadows, come
// after the user's, are shared where the expansion allows it, and that the
// hidden register is added once.
func TestHiddenNames(t *testing.T) {
	p := mustCompile(t, header+"write(x, 1, y, q) -> h\nwait h\nwrite(x, 1, y, q) -> h\nread(x, 1, y, q) -> g\nget(x, 1, y, q)\nput(x, 1, y, q)\nwaitq q\nwait h\nwait g\nassert mem[x] == 0\n")
	want := "x y a a+1 $h.h $one $h.g $sync"
	if got := strings.Join(p.Addrs, " "); got != want {
		t.Errorf("addresses %q, want %q", got, want)
	}
	for i, s := range p.Shadow {
		if s != strings.HasPrefix(p.Addrs[i], "$") {
			t.Errorf("Shadow[%d] = %v for %s", i, s, p.Addrs[i])
		}
	}
	if got := strings.Join(p.Regs, " "); got != "r s $t" {
		t.Errorf("registers %q", got)
	}
	// Without sugar there is nothing hidden and no prologue.
	p = mustCompile(t, header+"write(x, 1, y, q)\n")
	if len(p.Addrs) != 4 || len(p.Regs) != 2 || p.Labels[p.Init] != "@5" {
		t.Errorf("plain program got hidden names: %v %v init %s", p.Addrs, p.Regs, p.Labels[p.Init])
	}
}
