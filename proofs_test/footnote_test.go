package proofs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// Footnote 1: one rank running q0 --read(0,0,0,0)--> q0 (here: rank 1,
// address x, queue q). With a = read, b = popa, c = popb, C(P,1) ∩ a*b*c*
// is {a^p b^p c^p}: every read's popa and popb must occur (computations end
// with empty queues), and the language is not context-free. The normal-form
// computations (Y's language) give the same set, since a^p b^p · c^p is a
// normal-form split. Checked for p ≤ 4.
func TestFootnote1(t *testing.T) {
	const src = "values 2\naddress x\nqueue q\nL: read(x, 1, x, q); goto L\n"
	p, err := pgas.Compile("footnote1.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	const maxP = 4
	abc := func(tau []pgas.Event) (string, bool) {
		var b strings.Builder
		for _, e := range tau {
			b.WriteByte(map[pgas.Kind]byte{pgas.KRead: 'a', pgas.KPopa: 'b', pgas.KPopb: 'c'}[e.Kind])
		}
		w := b.String()
		if strings.Trim(w, "abc") != "" {
			t.Fatalf("unexpected event in %v", tau)
		}
		// in a*b*c*?
		rest := strings.TrimLeft(strings.TrimLeft(strings.TrimLeft(w, "a"), "b"), "c")
		return w, rest == ""
	}
	want := map[string]bool{}
	for k := 0; k <= maxP; k++ {
		want[strings.Repeat("a", k)+strings.Repeat("b", k)+strings.Repeat("c", k)] = true
	}
	comps, ok := computations(p, 1, 3*maxP, 1_000_000)
	if !ok {
		t.Fatal("enumeration of X cut short")
	}
	gotX := map[string]bool{}
	for _, tau := range comps {
		if w, in := abc(tau); in {
			gotX[w] = true
		}
	}
	lang, ok := yLanguage(p, 1, 3*maxP, 1_000_000, false)
	if !ok {
		t.Fatal("enumeration of Y cut short")
	}
	// Rebuild Y's words from the keys: the kind is the first field.
	gotY := map[string]bool{}
	for k := range lang {
		var b strings.Builder
		for _, ev := range strings.Split(strings.TrimSuffix(k, ";"), ";") {
			if ev == "" {
				continue
			}
			b.WriteByte(map[string]byte{fmt.Sprint(int(pgas.KRead)): 'a', fmt.Sprint(int(pgas.KPopa)): 'b', fmt.Sprint(int(pgas.KPopb)): 'c'}[strings.SplitN(ev, ".", 2)[0]])
		}
		w := b.String()
		if strings.TrimLeft(strings.TrimLeft(strings.TrimLeft(w, "a"), "b"), "c") == "" {
			gotY[w] = true
		}
	}
	for name, got := range map[string]map[string]bool{"X": gotX, "Y": gotY} {
		if len(got) != len(want) {
			t.Errorf("%s: got %v, want {a^p b^p c^p : p <= %d}", name, keys(got), maxP)
		}
		for w := range want {
			if !got[w] {
				t.Errorf("%s: missing %q", name, w)
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
