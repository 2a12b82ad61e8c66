package cycles

import (
	"context"
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// Yardsticks measure a decision's work against what one pass over Y
// would need (issue 7): ProductStates is the sum over the searched cycle
// types of their product states; ReducedY the states of Y explored with
// the partial-order reduction and no marks (the product with no cycle
// type); YMarks the distinct pairs (state of Y, marks μ) that the product
// searches expanded, over all cycle types. ProductStates / YMarks is what
// a search shared by all cycle types could save at most on states.
type Yardsticks struct {
	ProductStates, ReducedY, YMarks int64
}

// ymarkSet collects distinct (Y, μ) keys from concurrent searches.
type ymarkSet struct {
	shards [64]struct {
		sync.Mutex
		m map[string]struct{}
	}
	n atomic.Int64
}

func newYmarkSet() *ymarkSet {
	s := &ymarkSet{}
	for i := range s.shards {
		s.shards[i].m = map[string]struct{}{}
	}
	return s
}

func (s *ymarkSet) add(key []byte) {
	h := uint64(14695981039346656037) // FNV-1a
	for _, b := range key {
		h ^= uint64(b)
		h *= 1099511628211
	}
	sh := &s.shards[h%uint64(len(s.shards))]
	sh.Lock()
	if _, ok := sh.m[string(key)]; !ok {
		sh.m[string(key)] = struct{}{}
		s.n.Add(1)
	}
	sh.Unlock()
}

// counting is a product that records the (Y, μ) pair of every state it
// expands.
type counting struct {
	*product
	set *ymarkSet
	key []byte
}

func (c *counting) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	c.key = c.key[:0]
	for _, w := range s[:c.y.Words()] {
		c.key = binary.LittleEndian.AppendUint64(c.key, w)
	}
	for _, f := range c.mu {
		c.key = append(c.key, byte(f.Get(s)))
	}
	c.set.add(c.key)
	c.product.Successors(s, emit)
}

// reducedY explores Y with the partial-order reduction and no marks.
func reducedY(ctx context.Context, p *pgas.Program, y *normalform.Y, cache *moveTable, opt Options, maxBytes int64) int64 {
	prod := newProduct(y, CycleType{}, cache.moves)
	if !opt.NoReduction {
		prod.reduce = newReducer(p, prod.future.Words)
	}
	r := automata.Search(prod, automata.Options{Budget: automata.Budget{MaxStates: opt.MaxStates, MaxBytes: maxBytes}, Context: ctx})
	return r.Stats.States
}
