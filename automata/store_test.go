package automata

import "testing"

// TestStorePages fills more than three pages (store.go) and checks every
// state, parent link and the byte count against a plain record kept
// beside it.
func TestStorePages(t *testing.T) {
	st := newStore(1)
	var want []uint64
	for i := 0; i < 3*pageStates+1234; i++ {
		v := uint64(i) * 0x9E3779B97F4A7C15
		parent := uint32(i / 2)
		if i == 0 {
			parent = noParent
		}
		if _, fresh := st.insert(State{v}, parent); !fresh {
			t.Fatalf("state %d reported as known", i)
		}
		want = append(want, v)
		if i%5 == 0 { // a repeat is found, not added
			if idx, fresh := st.insert(State{want[i/3]}, 0); fresh || idx != i/3 {
				t.Fatalf("repeat of state %d: index %d, fresh %v", i/3, idx, fresh)
			}
		}
	}
	if st.len() != len(want) || len(st.pages) != 4 {
		t.Fatalf("%d states in %d pages, want %d in 4", st.len(), len(st.pages), len(want))
	}
	for i, v := range want {
		if st.state(i)[0] != v || (i > 0 && st.parent(i) != uint32(i/2)) {
			t.Fatalf("state %d: %x parent %d, want %x parent %d", i, st.state(i)[0], st.parent(i), v, i/2)
		}
	}
	// Three full pages of 12 bytes per state, the last page and the table.
	min := int64(3*pageStates*12 + 1234*12 + len(want)*4)
	if b := st.bytes(); b < min || b > min+int64(pageStates*12+int(st.index.Bytes())) {
		t.Errorf("bytes() = %d, want about %d", b, min)
	}
	if p := st.path(len(want) - 1); len(p) < 2 || p[0] != 0 || p[len(p)-1] != len(want)-1 {
		t.Errorf("path to the last state: %v", p)
	}
}

// TestParallelAcrossPages: the parallel frontier reads its batches out of
// the arena's pages, so a search of several pages must still be the
// sequential one, state for state.
func TestParallelAcrossPages(t *testing.T) {
	g := ring(3 * pageStates)
	seq := Search(g, Options{})
	if seq.Stats.States < 2*pageStates {
		t.Fatalf("only %d states: the graph does not fill two pages", seq.Stats.States)
	}
	par := Search(g, Options{Workers: 3})
	if d := sameResult(seq, par); d != "" {
		t.Fatalf("sequential vs parallel: %s", d)
	}
}

// ring is a forkable system over 0..n-1 with edges v → v+1, v+7, 3v
// (mod n): all of it is reachable, over a long frontier.
type ring int

func (r ring) Width() int               { return 1 }
func (r ring) Initial(emit func(State)) { emit(State{0}) }
func (r ring) Accepting(State) bool     { return false }
func (r ring) Fork() System             { return r }

func (r ring) Successors(s State, emit func(Label, State)) {
	n := uint64(r)
	for l, w := range []uint64{s[0] + 1, s[0] + 7, 3 * s[0]} {
		emit(Label(l), State{w % n})
	}
}
