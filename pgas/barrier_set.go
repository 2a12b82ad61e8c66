package pgas

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Barriers over part of the ranks (docs/shmem-calculus.md, "Barriers over
// a set of ranks"). A barrier command may name the set of ranks it
// synchronises: "barrier {1, 3..N}". The set is written with constants
// and N only, so that it is fixed once N is known: every rank that takes
// the barrier agrees on it, and the decision procedures can compute it
// per transition. The rule (bar) then moves the members of the set
// together, each at a barrier transition over that same set; the other
// ranks take no part. Without a set, a barrier is over every rank.

// RankRange is one item of a barrier's set: the ranks First..Last, or the
// single rank First when Last is nil.
type RankRange struct {
	First, Last *Expr
}

// RankMask is a set of ranks: bit r-1 for rank r (N <= MaxRanks).
type RankMask uint64

// AllRanks is the set 1..n.
func AllRanks(n int) RankMask { return RankMask(1)<<uint(n) - 1 }

// Has reports whether rank r is in the set.
func (m RankMask) Has(r int) bool { return r >= 1 && r <= 64 && m&(1<<uint(r-1)) != 0 }

// Len is the number of ranks in the set.
func (m RankMask) Len() int { return bits.OnesCount64(uint64(m)) }

// Ranks lists the ranks of the set in increasing order.
func (m RankMask) Ranks() []int {
	var rs []int
	for v := uint64(m); v != 0; v &= v - 1 {
		rs = append(rs, bits.TrailingZeros64(v)+1)
	}
	return rs
}

func (m RankMask) String() string {
	var parts []string
	for _, r := range m.Ranks() {
		parts = append(parts, fmt.Sprint(r))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// BarrierSet evaluates the set of ranks of a barrier command for n ranks.
// A barrier without a set is over 1..n. A rank outside 1..n is a
// *RangeError (the program's run-time error, reported when a rank reaches
// the barrier).
func (p *Program) BarrierSet(c *Cmd, n int) (RankMask, error) {
	if c.Set == nil {
		return AllRanks(n), nil
	}
	env := Env{N: int64(n)}
	var m RankMask
	for _, it := range c.Set {
		lo, err := p.RankOf(it.First, env)
		if err != nil {
			return 0, err
		}
		hi := lo
		if it.Last != nil {
			if hi, err = p.RankOf(it.Last, env); err != nil {
				return 0, err
			}
		}
		for r := lo; r <= hi; r++ {
			m |= 1 << uint(r-1)
		}
	}
	return m, nil
}

// BarItem is what the bar events of a barrier over set m carry in
// Event.Item among n ranks: 0 for the set of every rank (so that a
// program without sets produces the events it always did), the mask
// otherwise. Happens-before and replay tell barriers apart by it.
func BarItem(m RankMask, n int) int {
	if m == AllRanks(n) {
		return 0
	}
	return int(m)
}

// BarMask is the inverse of BarItem.
func BarMask(item, n int) RankMask {
	if item == 0 {
		return AllRanks(n)
	}
	return RankMask(item)
}

// notMember is the run-time error of a rank that reaches a barrier over a
// set without it.
func notMember(pos Pos, r int, m RankMask, n int) *RangeError {
	return &RangeError{Pos: pos, What: "barrier", Val: int64(r), Min: int64(m), Max: int64(n)}
}

// setString prints a barrier's set as written.
func setString(set []RankRange) string {
	var parts []string
	for _, it := range set {
		s := it.First.String()
		if it.Last != nil {
			s += ".." + it.Last.String()
		}
		parts = append(parts, s)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// rankSet checks and compiles the set of a barrier statement: each item
// may use constants and N only (no register, no rank, no memory), so that
// the set is the same for every rank once N is known.
func (c *checker) rankSet(s *stmt) []RankRange {
	if s.set == nil {
		return nil
	}
	set := make([]RankRange, 0, len(s.set))
	compile := func(e exprNode) *Expr {
		if e == nil {
			return nil
		}
		if n, m := c.countMem(e); n > 0 {
			c.errorf(m.pos, "mem[...] is not allowed in a barrier's set: the set may use constants and N only")
			return gen("1", e.base().pos, Instr{XConst, 1})
		}
		x, ok := c.expr(e, -1)
		if !ok {
			return x
		}
		for _, in := range x.Code {
			if in.Op == XReg || in.Op == XRank {
				c.errorf(x.Pos, "a barrier's set may use constants and N only, not %s: every rank that takes the barrier must name the same set (branch on the rank instead: if rank <= 2 { barrier {1, 2} })",
					map[bool]string{true: "a register", false: "rank"}[in.Op == XReg])
				break
			}
		}
		return x
	}
	for _, it := range s.set {
		set = append(set, RankRange{First: compile(it.first), Last: compile(it.last)})
	}
	return set
}

// BarSets holds the set of every barrier transition for one N.
type BarSets struct {
	Mask  []RankMask // Mask[t]: the set of barrier transition t (0 for other transitions)
	Err   []error    // Err[t]: the set could not be evaluated (a rank outside 1..N)
	IsBar []bool     // IsBar[t]: transition t is a barrier
}

// BarrierSets evaluates the set of every barrier transition of p for n
// ranks.
func (p *Program) BarrierSets(n int) BarSets {
	b := BarSets{Mask: make([]RankMask, len(p.Trans)), Err: make([]error, len(p.Trans)), IsBar: make([]bool, len(p.Trans))}
	for t := range p.Trans {
		if c := &p.Trans[t].Cmd; c.Op == OpBarrier {
			b.Mask[t], b.Err[t] = p.BarrierSet(c, n)
			b.IsBar[t] = true
		}
	}
	return b
}

// Partial reports whether some barrier transition is over part of the
// ranks (an empty set included) or cannot be evaluated.
func (b *BarSets) Partial(n int) bool {
	for t, m := range b.Mask {
		if b.IsBar[t] && (m != AllRanks(n) || b.Err[t] != nil) {
			return true
		}
	}
	return false
}

// Check is the run-time error of rank r reaching barrier transition t of
// p: its set cannot be evaluated, or it does not contain r. nil when r
// may take it.
func (b *BarSets) Check(p *Program, t, r, n int) error {
	if b.Err[t] != nil {
		return b.Err[t]
	}
	if !b.Mask[t].Has(r) {
		return notMember(p.Trans[t].Pos, r, b.Mask[t], n)
	}
	return nil
}

// barrierMoves appends one move per combination of barrier transitions
// over one set, one per member of the set; there is none for a set unless
// each of its members can take a barrier over it. Sets come in the order
// in which ranks 1..N reach them; a rank that reaches a barrier it cannot
// take (Steps reports the error) takes part in none.
func (m *Machine) barrierMoves(s *XState, moves []Move) []Move {
	var sets []RankMask
	for r := 1; r <= m.n; r++ {
		for _, t := range m.p.Out[s.st[r-1]] {
			if m.p.Trans[t].Cmd.Op == OpBarrier && m.bars.Check(m.p, t, r, m.n) == nil && !slices.Contains(sets, m.bars.Mask[t]) {
				sets = append(sets, m.bars.Mask[t])
			}
		}
	}
	for _, set := range sets {
		moves = m.barrierMovesOf(s, set, moves)
	}
	return moves
}

// barrierMovesOf appends the barrier moves over one set.
func (m *Machine) barrierMovesOf(s *XState, set RankMask, moves []Move) []Move {
	members := set.Ranks()
	choices := make([][]int, len(members))
	for i, r := range members {
		for _, t := range m.p.Out[s.st[r-1]] {
			if m.p.Trans[t].Cmd.Op == OpBarrier && m.bars.Err[t] == nil && m.bars.Mask[t] == set {
				choices[i] = append(choices[i], t)
			}
		}
		if len(choices[i]) == 0 {
			return moves
		}
	}
	pick := make([]int, len(members))
	for {
		bar := make([]int, m.n)
		for r := range bar {
			bar[r] = -1
		}
		for i, r := range members {
			bar[r-1] = choices[i][pick[i]]
		}
		moves = append(moves, Move{Kind: MoveBarrier, Bar: bar})
		// Advance the odometer, last member fastest.
		i := len(members) - 1
		for ; i >= 0; i-- {
			pick[i]++
			if pick[i] < len(choices[i]) {
				break
			}
			pick[i] = 0
		}
		if i < 0 {
			return moves
		}
	}
}

// barrier applies a barrier move: the members of one set each take a
// barrier transition over that set, generating their bar events in rank
// order; the other ranks do not move.
func (m *Machine) barrier(s *XState, mv Move) (*XState, []Event, error) {
	if len(mv.Bar) != m.n {
		return nil, nil, fmt.Errorf("barrier needs %d transitions (-1 for a rank outside its set), got %d", m.n, len(mv.Bar))
	}
	var set RankMask
	for _, ti := range mv.Bar {
		if ti >= 0 && ti < len(m.p.Trans) {
			set = m.bars.Mask[ti]
			break
		}
	}
	if set == 0 {
		return nil, nil, fmt.Errorf("barrier move without a barrier transition")
	}
	next := s.clone()
	evs := make([]Event, 0, set.Len())
	for r := 1; r <= m.n; r++ {
		ti := mv.Bar[r-1]
		if !set.Has(r) {
			if ti != -1 {
				return nil, nil, fmt.Errorf("rank %d is outside the barrier's set %v but takes transition %d", r, set, ti)
			}
			continue
		}
		if ti < 0 || ti >= len(m.p.Trans) {
			return nil, nil, fmt.Errorf("no transition %d", ti)
		}
		t := &m.p.Trans[ti]
		if t.Cmd.Op != OpBarrier || t.From != s.st[r-1] {
			return nil, nil, fmt.Errorf("rank %d at %s has no barrier transition %d", r, m.label(s.st[r-1]), ti)
		}
		if err := m.bars.Check(m.p, ti, r, m.n); err != nil || m.bars.Mask[ti] != set {
			return nil, nil, fmt.Errorf("rank %d's barrier transition %d is not over the set %v", r, ti, set)
		}
		next.st[r-1] = t.To
		evs = append(evs, Event{Kind: KBar, Rank: r, Trans: ti, Queue: -1, Item: BarItem(set, m.n)})
		if next.ctxState != nil {
			next.np[r-1]++
		}
	}
	return next, evs, nil
}

// replayBarrier reads the barrier move that starts at events[i]: the bar
// events of the members of the set its Item names, adjacent and in rank
// order.
func replayBarrier(p *Program, n int, events []Event, i int) (Move, int, *ReplayError) {
	e := events[i]
	set := BarMask(e.Item, n)
	if set&^AllRanks(n) != 0 || set == 0 {
		return Move{}, 0, &ReplayError{Index: i, Event: e, Msg: fmt.Sprintf("the bar event names the set %d, not a set of ranks 1..%d", e.Item, n)}
	}
	members := set.Ranks()
	if e.Rank != members[0] {
		return Move{}, 0, &ReplayError{Index: i, Event: e, Msg: fmt.Sprintf("a barrier over %v must start with the event of rank %d (its %d events appear together, in rank order)", set, members[0], len(members))}
	}
	mv := Move{Kind: MoveBarrier, Bar: make([]int, n)}
	for r := range mv.Bar {
		mv.Bar[r] = -1
	}
	for k, r := range members {
		if i+k >= len(events) {
			return Move{}, 0, &ReplayError{Index: i + k, Msg: fmt.Sprintf("the barrier is cut off: the bar event of rank %d is missing", r)}
		}
		b := events[i+k]
		if b.Kind != KBar || b.Rank != r || b.Item != e.Item {
			return Move{}, 0, &ReplayError{Index: i + k, Event: b, Msg: fmt.Sprintf("expected the bar event of rank %d: a barrier's %d events over %v appear together, in rank order", r, len(members), set)}
		}
		mv.Bar[r-1] = b.Trans
	}
	return mv, len(members), nil
}
