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

func hashWords(s automata.State) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, w := range s {
		h ^= w
		h *= 0x100000001b3
		h ^= h >> 32
	}
	return h
}

// entryCost estimates the bytes an entry holds, allocator rounding and
// map overhead included: the entry and its key with the map's share
// (about 96 bytes), and per move the Move itself (88), its event and
// target arrays (64 and 8 bytes an element) and about 48 bytes of
// rounding over its three allocations. (It used to count 48 bytes an
// event and nothing for rounding, a quarter to a half too little.)
func entryCost(e *moveEntry) int64 {
	c := int64(96 + 8*len(e.key))
	for _, mv := range e.moves {
		c += int64(136 + 64*len(mv.Events) + 8*len(mv.Target) + 8*len(mv.BarTrans))
	}
	return c
}
