package race

import "testing"

// TestDoneNeedsEveryPlace: allMarked, done's first rule, holds only when
// every rank and every pending pop is marked (future.go's rule is tested
// in future_test.go). A race whose second access
// is the delivery of an operation issued before e1 is usually found from
// the other order too, so the verdict tests do not pin each condition;
// this test does: any unmarked place keeps the state.
func TestDoneNeedsEveryPlace(t *testing.T) {
	full := func() *pstate {
		return &pstate{phase: 1, rank: []bool{true, true},
			ci: [][]uint8{{bitPopa | bitPopb}, nil}, fa: [][]uint8{nil, {bitPopa}}, fb: [][]uint8{{bitPopb}, nil},
			faM: []bool{false, false}, fbM: []bool{false, false}}
	}
	m := &mon{}
	if !m.allMarked(full()) {
		t.Fatal("a state with every place marked is not done")
	}
	for name, spoil := range map[string]func(s *pstate){
		"a rank":          func(s *pstate) { s.rank[1] = false },
		"an item's popb":  func(s *pstate) { s.ci[0][0] = bitPopa },
		"an item's popa":  func(s *pstate) { s.ci[0][0] = bitPopb },
		"a FIFO request":  func(s *pstate) { s.fa[1][0] = 0 },
		"a FIFO transfer": func(s *pstate) { s.fb[0][0] = 0 },
	} {
		s := full()
		spoil(s)
		if m.allMarked(s) {
			t.Errorf("unmarked %s: done", name)
		}
	}
	// an accepting state is never dropped
	s := full()
	s.phase = 2
	if m.done(s) {
		t.Error("phase 2 (accepting): done")
	}
	// a FIFO whose earlier marked pop marks the rest (faM, fbM) is done
	s = full()
	s.fa[1][0], s.faM[1], s.fb[0][0], s.fbM[0] = 0, true, 0, true
	if !m.allMarked(s) {
		t.Error("FIFO places marked by an earlier pop: not done")
	}
}
