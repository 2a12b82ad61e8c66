package cycles

import (
	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
)

// moveEntry is one Y state's moves, with the state's words (states may
// share a hash).
type moveEntry struct {
	key   automata.State
	moves []normalform.Move
}

// entryCost estimates the bytes an entry holds, allocator rounding and
// map overhead included: the entry and its key with the map's share
// (about 96 bytes), and per move the Move itself (88), its event and
// target arrays (64 and 8 bytes an element) and about 48 bytes of
// rounding over its three allocations. (It used to count 48 bytes an
// event and nothing for rounding, a quarter to a half too little.)
func entryCost(e *moveEntry) int64 {
	return int64(96+8*len(e.key)) + movesCost(e.moves)
}

// movesCost is the part of entryCost for the moves.
func movesCost(moves []normalform.Move) int64 {
	c := int64(0)
	for _, mv := range moves {
		c += int64(136 + 64*len(mv.Events) + 8*len(mv.Target) + 8*len(mv.BarTrans))
	}
	return c
}
