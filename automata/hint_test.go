package automata

import (
	"strings"
	"sync/atomic"
	"testing"
)

// hintedGraph is the random graph of parallel_test.go collapsed, with its
// first part (the node) interned in a shared table and hinted: slots[v]
// is node v's slot. Every third hint names another node than the state
// emitted (the store must ignore it).
type hintedGraph struct {
	*graph
	in        *Interner
	slots     []atomic.Uint32
	hintW     State
	hintS     *atomic.Uint32
	decoded   int
	badDecode bool
}

func newHintedGraph(g *graph, in *Interner) *hintedGraph {
	return &hintedGraph{graph: g, in: in, slots: make([]atomic.Uint32, len(g.succ))}
}

func (h *hintedGraph) CollapseAt() int          { return 1 }
func (h *hintedGraph) CollapseTable() *Interner { return h.in }
func (h *hintedGraph) PartHint() (State, *atomic.Uint32) {
	return h.hintW, h.hintS
}

func (h *hintedGraph) PartDecoded(words State, n uint32) {
	h.decoded++
	if m, ok := h.in.Find(words); !ok || m != n {
		h.badDecode = true
	}
}

func (h *hintedGraph) Fork() System {
	f := *h
	f.graph = h.graph.Fork().(*graph)
	return &f
}

func (h *hintedGraph) Successors(s State, emit func(Label, State)) {
	for l, w := range h.succ[s[0]] {
		v := w
		if l%3 == 2 {
			v = (w + 1) % len(h.succ)
		}
		h.hintW, h.hintS = State{uint64(v)}, &h.slots[v]
		copy(h.buf, h.state(w))
		emit(Label(l), h.buf)
	}
	h.hintW, h.hintS = nil, nil
}

// TestHintSameSearch: a search whose system hints the numbers of its
// states' first parts finds what the same search without hints finds,
// state for state (outcome, states, transitions, witness), sequential,
// depth first and parallel, with the hints checked against the table
// (SetHintCheck); the hints are used, and the numbers of the states
// decoded for expansion are the table's.
func TestHintSameSearch(t *testing.T) {
	defer SetHintCheck(SetHintCheck(true))
	used := 0
	for seed := range int64(10) {
		g := randomGraph(seed, 3000+int(seed)*50)
		in := NewInterner(1)
		hg := newHintedGraph(g, in)
		for _, opt := range []Options{{}, {Budget: Budget{MaxStates: 100 + seed*37}}, {Strategy: DepthFirst}, {Workers: 3}, {}} {
			plain := Search(sharedGraph{g, NewInterner(1)}, opt)
			hinted := Search(hg, opt)
			if d := sameResult(plain, hinted); d != "" {
				t.Fatalf("seed %d %+v: unhinted vs hinted: %s", seed, opt, d)
			}
		}
		if hg.badDecode || hg.decoded == 0 {
			t.Fatalf("seed %d: %d states decoded, a wrong number among them: %v", seed, hg.decoded, hg.badDecode)
		}
		for i := range hg.slots {
			if hg.slots[i].Load() != 0 {
				used++
			}
		}
	}
	if used < 1000 {
		t.Fatalf("only %d slots filled: the hints are not used", used)
	}
}

// TestHintWrongCaught: a slot that holds another number than the
// table's is caught when hints are checked.
func TestHintWrongCaught(t *testing.T) {
	defer SetHintCheck(SetHintCheck(true))
	g := randomGraph(3, 2000)
	hg := newHintedGraph(g, NewInterner(1))
	Search(hg, Options{}) // fills the slots
	bad := -1
	for i := range hg.slots {
		if hg.slots[i].Load() > 1 {
			bad = i
			break
		}
	}
	if bad < 0 {
		t.Fatal("no slot filled")
	}
	hg.slots[bad].Store(hg.slots[bad].Load() - 1)
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || !strings.Contains(s, "part hint") {
			t.Fatalf("a wrong hint was not caught: recovered %v", r)
		}
	}()
	Search(hg, Options{})
}
