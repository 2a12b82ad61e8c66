package normalform

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

func compile(t *testing.T, src string) *pgas.Program {
	t.Helper()
	p, err := pgas.Compile("test.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// language enumerates comp(σ) for every path of Y from s0 (the program must
// be loop-free), as strings "part|event event ...|part ..." so that the
// parts are visible.
func language(t *testing.T, y *Y) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	var sigma []HEvent
	var rec func(s automata.State, depth int)
	rec = func(s automata.State, depth int) {
		if depth > 60 {
			t.Fatal("path too long: is the program loop-free?")
		}
		out[render(sigma)] = true // every state of Y is final
		moves, _ := y.Moves(s)
		for _, mv := range moves {
			n := len(sigma)
			sigma = append(sigma, mv.Events...)
			rec(mv.Target, depth+1)
			sigma = sigma[:n]
		}
	}
	s := make(automata.State, y.Words())
	y.Initial(s)
	rec(s, 0)
	return out
}

func render(sigma []HEvent) string {
	var parts [Heads][]string
	for _, he := range sigma {
		e := he.Event
		w := fmt.Sprintf("%s%d", e.Kind, e.Rank)
		if e.HasCell {
			w += fmt.Sprintf("(%d,%d)", e.Cell.Rank, e.Cell.Addr)
		}
		parts[he.Head-1] = append(parts[he.Head-1], w)
	}
	var b []string
	for _, p := range parts {
		b = append(b, strings.Join(p, " "))
	}
	return strings.Join(b, " | ")
}

const oneToOne = `values 2
address x, y
queue q
register r
    write(x, rank % N + 1, y, q)
    barrier
    r <- mem[y]
`

// TestExample9 checks Lemma 12 on the computations of Examples 1 and 9:
// Y(1to1, 2) generates the normal-form violation τ^nf of Figure 4 and not
// τ_1to1, which is not in normal form (its popa events are out of the
// order of their writes within τ1).
func TestExample9(t *testing.T) {
	y, err := New(compile(t, oneToOne), 2)
	if err != nil {
		t.Fatal(err)
	}
	lang := language(t, y)
	// x is address 0, y is address 1. τ^nf = write·popa·write·popa·bar·
	// bar·load | popb·popb, the popb of rank 1 into (2,y) first.
	nf := "write1 popa1(1,0) write2 popa2(2,0) bar1 bar2 load1(1,1) | popb1(2,1) popb2(1,1) |  | "
	if !lang[nf] {
		t.Errorf("Y does not generate τ^nf:\n%s", nf)
	}
	// τ_1to1 = write·write·popa·popa·bar·bar·load·popb·popb (bold events
	// of rank 2) is not in normal form: both popa events would share a
	// part in the opposite order of their writes. No split of it into
	// parts is generated.
	tau := "write1 write2 popa2(2,0) popa1(1,0) bar1 bar2 load1(1,1) popb2(1,1) popb1(2,1)"
	for s := range lang {
		if strings.Join(strings.Fields(strings.ReplaceAll(s, "|", " ")), " ") == tau {
			t.Errorf("Y generates τ_1to1 as %s", s)
		}
	}
	// Sanity check of the test: the same events in normal-form order are
	// generated.
	if !lang["write1 popa1(1,0) write2 popa2(2,0) bar1 bar2 load1(1,1) popb2(1,1) popb1(2,1) |  |  | "] &&
		!lang["write1 popa1(1,0) write2 popa2(2,0) bar1 bar2 load1(1,1) | popb1(2,1) popb2(1,1) |  | "] {
		t.Error("Y misses the normal-form reorderings of τ_1to1")
	}
	// Every generated computation has only pops outside part 1.
	for s := range lang {
		for _, part := range strings.Split(s, " | ")[1:] {
			for _, w := range strings.Fields(part) {
				if !strings.HasPrefix(w, "pop") {
					t.Fatalf("part after τ1 holds %s in %s", w, s)
				}
			}
		}
	}
}

// TestLivenessKeepsLanguage checks that resetting dead registers, counters
// and cells (forgetDead) merges states without changing the language.
func TestLivenessKeepsLanguage(t *testing.T) {
	for name, src := range map[string]string{
		"1to1": oneToOne,
		"regs": `values 3
address a, b
queue q
register r, s
    mem[a] <- 1
    r <- mem[a]
    s <- r + 1
    mem[b] <- s
    read(a, rank % N + 1, b, q)
    r <- mem[a]
    assume(r == 2)
    mem[b] <- 0
`,
	} {
		t.Run(name, func(t *testing.T) {
			p := compile(t, src)
			y1, _ := New(p, 2)
			y2, _ := New(p, 2)
			y2.keepDead = true
			l1, l2 := language(t, y1), language(t, y2)
			if len(l1) != len(l2) {
				t.Fatalf("%d computations with liveness, %d without", len(l1), len(l2))
			}
			for s := range l2 {
				if !l1[s] {
					t.Fatalf("lost computation %s", s)
				}
			}
		})
	}
}

// TestSCPartsAreOne checks that Y.SC generates only computations with every
// pop in τ1 right after its command.
func TestSCPartsAreOne(t *testing.T) {
	y, _ := New(compile(t, oneToOne), 2)
	y.SC = true
	lang := language(t, y)
	keys := make([]string, 0, len(lang))
	for s := range lang {
		keys = append(keys, s)
		if !strings.HasSuffix(s, " |  |  | ") {
			t.Errorf("SC computation with later parts: %s", s)
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		t.Fatal("no computations")
	}
}

func TestTooLarge(t *testing.T) {
	p := compile(t, "values 256\naddress a[64]\n mem[a] <- 1\n")
	if _, err := New(p, 16); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("err = %v, want a 'too large' error", err)
	}
}
