package oracle

import (
	"context"
	"fmt"
	"time"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// Budget bounds an oracle. Zero fields mean no bound.
type Budget struct {
	MaxNodes int64 // distinct nodes explored (machine state, and what the question keeps of the history)
	// MaxEvents bounds the length of a computation (loads and stores; SC
	// steps for TRF); 0 means 64. Programs with loops have unboundedly
	// long ones.
	MaxEvents int
	Timeout   time.Duration
	Context   context.Context
}

// limit is MaxEvents with its default.
func (b Budget) limit() int {
	if b.MaxEvents <= 0 {
		return 64
	}
	return b.MaxEvents
}

// deadline is the end of the time budget, or the zero time.
func (b Budget) deadline() time.Time {
	if b.Timeout > 0 {
		return time.Now().Add(b.Timeout)
	}
	return time.Time{}
}

// over says why a search that has explored nodes must stop, or "": the
// node budget, the deadline or the context (the last two looked at every
// 1,024 nodes).
func (b Budget) over(nodes int64, deadline time.Time) string {
	switch {
	case b.MaxNodes > 0 && nodes > b.MaxNodes:
		return fmt.Sprintf("node budget of %d reached", b.MaxNodes)
	case nodes&1023 == 0 && !deadline.IsZero() && time.Now().After(deadline):
		return "time budget reached"
	case nodes&1023 == 0 && b.Context != nil && b.Context.Err() != nil:
		return "cancelled"
	}
	return ""
}

// Result is an oracle's answer. Verdict Robust means the criterion holds.
type Result struct {
	Verdict prog.Verdict
	Nodes   int64
	Reason  string
	// Events of a violating computation, for NotRobust (robustness and
	// persistence), and the happens-before cycle on them (robustness).
	Events []prog.Event
	Cycle  []prog.Edge
}

// search is the skeleton the three oracles share: a depth-first
// enumeration of the nodes that a question's moves reach, each node
// expanded once per key, within the budget. A question supplies the key
// (what of the node determines its future for that question), the length
// the budget bounds, what to look at in each node, and the moves.
type search[N any] struct {
	b        Budget
	deadline time.Time
	seen     map[string]bool
	nodes    int64
	// stop says why the search ended without an answer; found that the
	// question was answered (visit returned true).
	stop  string
	found bool
	// cut: with bounded, nodes longer than the limit are dropped (and cut
	// records it) instead of ending the search with tooLong.
	bounded, cut bool
	tooLong      string // format of the stop reason, with the limit as %d

	key    func(N) string
	length func(N) int
	// visit looks at a node before its moves and reports whether it
	// answers the question; it may set stop.
	visit func(N) bool
	// moves calls next on every successor of a node, in a fixed order.
	moves func(n N, next func(N))
}

func newSearch[N any](b Budget, deadline time.Time, tooLong string) *search[N] {
	return &search[N]{b: b, deadline: deadline, seen: map[string]bool{}, tooLong: tooLong}
}

func (s *search[N]) explore(n N) {
	if s.found || s.stop != "" {
		return
	}
	k := s.key(n)
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	s.nodes++
	if s.length(n) > s.b.limit() {
		if s.bounded {
			s.cut = true
		} else {
			s.stop = fmt.Sprintf(s.tooLong, s.b.limit())
		}
		return
	}
	if s.stop = s.b.over(s.nodes, s.deadline); s.stop != "" {
		return
	}
	if s.visit(n) {
		s.found = true
		return
	}
	s.moves(n, s.explore)
}

// verdict is the answer of a search run to its end: NotRobust if the
// question was answered, Unknown with the reason if it stopped, Robust
// otherwise.
func (s *search[N]) verdict() Result {
	r := Result{Nodes: s.nodes}
	switch {
	case s.found:
		r.Verdict = prog.NotRobust
	case s.stop != "":
		r.Verdict, r.Reason = prog.Unknown, s.stop
	default:
		r.Verdict = prog.Robust
	}
	return r
}
