package pgas

import "slices"

// ctxState is the OpenSHMEM part of a state of X (semantics_ctx.go),
// behind one pointer of XState: the items of context q of rank r at
// (r-1)*|QUE| + q, the fence epochs likewise, per rank the number of its
// non-pop events so far (the issue index of its next item) and the issue
// index of its last send (-1 if none).
type ctxState struct {
	ci   [][]Item
	ep   []int
	np   []int
	last []int
	// wrap carries, from the rule that built this state to Steps and
	// ApplyWrap, the atomic add of that step whose result wrapped; they
	// take it out at once, so no state kept anywhere holds one.
	wrap *RangeError
}

func (m *Machine) newCtxState() *ctxState {
	c := &ctxState{
		ci:   make([][]Item, m.n*m.nque),
		ep:   make([]int, m.n*m.nque),
		np:   make([]int, m.n),
		last: make([]int, m.n),
	}
	for r := range c.last {
		c.last[r] = -1
	}
	return c
}

// clone shares the item lists (copied on write, ownCtx) and copies the
// counters; the wrap stays behind.
func (c *ctxState) clone() *ctxState {
	return &ctxState{ci: c.ci, ep: slices.Clone(c.ep), np: slices.Clone(c.np), last: slices.Clone(c.last)}
}
