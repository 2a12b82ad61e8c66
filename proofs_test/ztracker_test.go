package proofs_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
)

// zState is a state of the literal automaton Z^{r1,r2} of the appendix,
// with the rules HB1–HB8 in their intended form (docs/deviations.md 1, 3):
//
//	HB1  init loops on every letter except the leave-marked event of r1;
//	HB2  init → (kind, cell) on the leave-marked event of r1 (not a bar);
//	HB3  (k, c) loops on letters that do not write c;
//	HB4  (k, c) → accept on the enter-marked event of r2 accessing c, one
//	     of the two a write;
//	HB5  accept loops;
//	HB6  init → barrier(j) on a bar of rank j that is the leave event of
//	     r1 or the enter event of r2;
//	HB7  barrier(j) → barrier(j+1) on the bar of rank j+1 ∉ {r1, r2}: only
//	     inside one barrier, whose bars are generated in rank order;
//	HB8  barrier(j) → accept on the bar of rank j+1 that plays the other
//	     role.
type zState struct {
	kind   int // 0 init, 1 access, 2 barrier, 3 accept
	write  bool
	cell   pgas.Cell
	last   int  // barrier: rank of the last bar read
	byLeav bool // barrier: started on r1's leave event
}

// asWrittenHB1 and asWritten switch zStep to the rules as extracted from
// the paper: HB1 loops on everything except an enter-marked event of r1;
// HB7/HB8 take any bar of the right ranks, in any barrier. Only the
// deviation tests set them.
var asWritten, asWrittenHB1 bool

func zStep(st zState, l cycles.Letter, r1, r2 int) []zState {
	e, m := l.Event, l.Mark
	isLeave := e.Rank == r1 && m&normalform.Leave != 0
	isEnter := e.Rank == r2 && m&normalform.Enter != 0
	var out []zState
	switch st.kind {
	case 0:
		if !asWrittenHB1 && !isLeave || asWrittenHB1 && (e.Rank != r1 || m&normalform.Enter == 0) {
			out = append(out, st) // HB1
		}
		if isLeave && e.Kind != pgas.KBar && e.HasCell {
			out = append(out, zState{kind: 1, write: e.Kind.IsWrite(), cell: e.Cell}) // HB2
		}
		if e.Kind == pgas.KBar && (isLeave || isEnter) {
			out = append(out, zState{kind: 2, last: e.Rank, byLeav: isLeave}) // HB6
		}
	case 1:
		touches := e.HasCell && e.Cell == st.cell
		if isEnter && touches && (st.write || e.Kind.IsWrite()) {
			out = append(out, zState{kind: 3}) // HB4
		}
		if !(touches && e.Kind.IsWrite()) {
			out = append(out, st) // HB3
		}
	case 2:
		if e.Kind == pgas.KBar && (asWritten || e.Rank == st.last+1) {
			if st.byLeav && isEnter || !st.byLeav && isLeave || asWritten && (isEnter || isLeave) {
				out = append(out, zState{kind: 3}) // HB8
			}
			if e.Rank != r1 && e.Rank != r2 {
				out = append(out, zState{kind: 2, last: e.Rank, byLeav: st.byLeav}) // HB7
			}
		}
	case 3:
		out = append(out, st) // HB5
	}
	return out
}

// zAccepts runs Z^{r1,r2} as a non-deterministic automaton over the
// marked computation.
func zAccepts(tau []cycles.Letter, r1, r2 int) bool {
	cur := map[zState]bool{{}: true}
	for _, l := range tau {
		next := map[zState]bool{}
		for st := range cur {
			for _, s2 := range zStep(st, l, r1, r2) {
				next[s2] = true
			}
		}
		cur = next
	}
	return cur[zState{kind: 3}]
}

// referenceAccepted enumerates Y^M (Y's moves and the marking rules
// M1–M6, normalform.Markings) and keeps the marked computations that every
// literal Z^{r_i,r_{i+1}} of the cycle type accepts, whose marked ranks
// have all left (F_{Y^M}), and whose marked events span two ↔-classes (a
// cycle inside one class is no violation, docs/deviations.md 4).
func referenceAccepted(y *normalform.Y, cyc cycles.CycleType, maxLetters, limit int) (map[string]bool, bool) {
	eligible := func(r int) bool { return cyc.Has(r) }
	out := map[string]bool{}
	paths := 0
	var sigma []cycles.Letter
	var rec func(s automata.State, mu []normalform.Mu) bool
	rec = func(s automata.State, mu []normalform.Mu) bool {
		if paths++; paths > limit {
			return false
		}
		left := true
		for _, r := range cyc {
			left = left && mu[r-1].Left()
		}
		if left && acceptedByZ(sigma, cyc) {
			out[letterKey(sigma)] = true
		}
		moves, _ := y.Moves(s)
		for i := range moves {
			mv := &moves[i]
			if len(sigma)+len(mv.Events) > maxLetters {
				continue
			}
			type choice struct {
				marks []normalform.Mark
				mu    []normalform.Mu
			}
			var cs []choice
			normalform.Markings(mv, mu, eligible, func(marks []normalform.Mark, mu2 []normalform.Mu) {
				cs = append(cs, choice{append([]normalform.Mark(nil), marks...), append([]normalform.Mu(nil), mu2...)})
			})
			for _, c := range cs {
				k := len(sigma)
				for j, he := range mv.Events {
					sigma = append(sigma, cycles.Letter{Head: he.Head, Event: he.Event, Mark: c.marks[j]})
				}
				ok := rec(mv.Target, c.mu)
				sigma = sigma[:k]
				if !ok {
					return false
				}
			}
		}
		return true
	}
	s0 := make(automata.State, y.Words())
	y.Initial(s0)
	ok := rec(s0, make([]normalform.Mu, y.N))
	return out, ok
}

func acceptedByZ(sigma []cycles.Letter, cyc cycles.CycleType) bool {
	var tau []cycles.Letter // comp(σ): the parts in order
	for h := 1; h <= normalform.Heads; h++ {
		for _, l := range sigma {
			if l.Head == h {
				tau = append(tau, l)
			}
		}
	}
	for _, pr := range cyc.Pairs() {
		if !zAccepts(tau, pr[0], pr[1]) {
			return false
		}
	}
	evs := make([]pgas.Event, len(tau))
	for i, l := range tau {
		evs[i] = l.Event
	}
	class := pgas.HappensBefore(evs).Class
	first := -1
	for i, l := range tau {
		if l.Mark == 0 {
			continue
		}
		if first >= 0 && class[i] != first {
			return true
		}
		first = class[i]
	}
	return false
}

func letterKey(sigma []cycles.Letter) string {
	var b strings.Builder
	for _, l := range sigma {
		fmt.Fprintf(&b, "%d:%d;", l.Head, l.Mark)
		b.WriteString(key([]pgas.Event{l.Event}))
	}
	return b.String()
}

// The deterministic tracker of cycles/tracker.go (with the pruning of
// product.go) replaces the guessing of Lemma 10 over the literal automata
// Z^{r_i,r_{i+1}}. On tiny programs, for every cycle type, the marked
// computations the product accepts must be exactly those the literal
// automata (intended rules) accept, path for path.
func TestTrackerAgainstLiteralZ(t *testing.T) {
	trackerAgainstLiteralZ(t, count(80), tiny)
}

// The same with contexts: amo events are writes, afetch events reads.
func TestTrackerAgainstLiteralZShmem(t *testing.T) {
	trackerAgainstLiteralZ(t, count(40), tinyShmem)
}

func trackerAgainstLiteralZ(t *testing.T, total int, cfg func(*rand.Rand) gen.Config) {
	const maxLetters, limit = 15, 50_000
	checked, accepted := 0, 0
	for seed := uint64(1); seed <= uint64(total); seed++ {
		g, p, n := program(t, seed, cfg)
		n = 2
		y, err := normalform.New(p, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cycles.CycleTypes(n) {
			want, ok := referenceAccepted(y, c, maxLetters, limit)
			if !ok {
				continue
			}
			got := map[string]bool{}
			if !cycles.AcceptedMarked(y, c, maxLetters, limit, func(s []cycles.Letter) bool {
				got[letterKey(s)] = true
				return true
			}) {
				continue
			}
			checked++
			accepted += len(want)
			diff := ""
			for k := range want {
				if !got[k] {
					diff = "a marked computation the literal Z^cyc accepts is missing from the product"
				}
			}
			for k := range got {
				if !want[k] {
					diff = "the product accepts a marked computation the literal Z^cyc rejects"
				}
			}
			if diff != "" {
				t.Errorf("seed %d, N=%d, cycle type %v: %s\n%s", seed, n, c, diff, g)
				return
			}
		}
	}
	t.Logf("%d (program, cycle type) pairs checked, %d accepted marked computations", checked, accepted)
	if !testing.Short() && (checked < total || accepted == 0) {
		t.Errorf("too little checked: %d pairs, %d accepted", checked, accepted)
	}
}
