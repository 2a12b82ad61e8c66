package pgas

import "fmt"

// ReplayError says which event of a sequence X(P,N) does not accept, and
// why.
type ReplayError struct {
	Index int    // position of the event in the sequence; len(events) for "queues not empty at the end"
	Event Event  // the event (zero for the end of the sequence)
	Msg   string // what is wrong
}

func (e *ReplayError) Error() string {
	if e.Event == (Event{}) {
		return fmt.Sprintf("event %d: %s", e.Index, e.Msg)
	}
	return fmt.Sprintf("event %d (%v): %s", e.Index, e.Event, e.Msg)
}

// Replay checks that events is a computation of X(p, n), a word of
// C(P,N): it runs from the initial state, and ends in a final state (every
// queue empty). It returns the state reached, or a *ReplayError for the
// first event that X cannot produce.
//
// A non-pop event must be produced by its own transition (Event.Trans),
// which must leave the control state of its rank and be executable there;
// the event it produces must equal the given one in every field (kind,
// cell, queue). A pop must find its queue non-empty and equal the event the
// head of the queue produces (same cell and transition); a pop of a
// context pops the item its Event.Item names. A barrier is N consecutive
// bar events of ranks 1..N, one move of X, and a blocking send is its
// issue followed at once by its popa.
func Replay(p *Program, n int, events []Event) (*XState, error) {
	s, err := ReplayPrefix(p, n, events)
	if err != nil {
		return s, err
	}
	if !s.Final() {
		return s, &ReplayError{Index: len(events), Msg: "the sequence ends with requests still in the queues (not a final state of X)"}
	}
	return s, nil
}

// ReplayPrefix is Replay without the requirement that the last state is
// final: it checks that events is a prefix of a computation.
func ReplayPrefix(p *Program, n int, events []Event) (*XState, error) {
	if n < 1 {
		return nil, &ReplayError{Index: 0, Msg: fmt.Sprintf("N = %d, must be at least 1", n)}
	}
	m := NewMachine(p, n)
	s := m.Initial()
	for i := 0; i < len(events); {
		e := events[i]
		fail := func(format string, args ...any) (*XState, error) {
			return s, &ReplayError{Index: i, Event: e, Msg: fmt.Sprintf(format, args...)}
		}
		if e.Rank < 1 || e.Rank > n {
			return fail("rank %d outside 1..%d", e.Rank, n)
		}
		var mv Move
		width := 1
		switch e.Kind {
		case KPopa, KPopb:
			if e.Queue < 0 || e.Queue >= len(p.Queues) {
				return fail("no queue %d", e.Queue)
			}
			mv = Move{Kind: MovePopa, Rank: e.Rank, Queue: e.Queue, Item: e.Item}
			if e.Kind == KPopb {
				mv.Kind = MovePopb
			}
		case KBar:
			if e.Rank != 1 {
				return fail("a barrier must start with the event of rank 1 (its %d events appear together, in rank order)", n)
			}
			width = n
			mv = Move{Kind: MoveBarrier, Bar: make([]int, n)}
			for r := 1; r <= n; r++ {
				if i+r-1 >= len(events) {
					return s, &ReplayError{Index: i + r - 1, Msg: fmt.Sprintf("the barrier is cut off: the bar event of rank %d is missing", r)}
				}
				b := events[i+r-1]
				if b.Kind != KBar || b.Rank != r {
					return s, &ReplayError{Index: i + r - 1, Event: b, Msg: fmt.Sprintf("expected the bar event of rank %d: a barrier's %d events appear together, in rank order", r, n)}
				}
				mv.Bar[r-1] = b.Trans
			}
		default:
			if e.Trans < 0 || e.Trans >= len(p.Trans) {
				return fail("no transition %d", e.Trans)
			}
			t := &p.Trans[e.Trans]
			if t.From != s.Control(e.Rank) {
				return fail("rank %d is at %s but the transition (line %d: %s) leaves %s", e.Rank,
					m.label(s.Control(e.Rank)), t.Pos.Line, t.Text, m.label(t.From))
			}
			if t.Cmd.Op == OpBarrier {
				return fail("transition %d is a barrier, the event is a %v", e.Trans, e.Kind)
			}
			mv = Move{Kind: MoveCmd, Rank: e.Rank, Trans: e.Trans}
		}
		next, evs, err := m.Apply(s, mv)
		if err != nil {
			if err == errBlocked {
				return fail("not enabled: %v", err)
			}
			return fail("cannot execute: %v", err)
		}
		for k, got := range evs {
			if i+k >= len(events) {
				return s, &ReplayError{Index: i + k, Msg: fmt.Sprintf("the move is cut off: X produces %+v here", got)}
			}
			if got != events[i+k] {
				return s, &ReplayError{Index: i + k, Event: events[i+k], Msg: fmt.Sprintf("X produces %+v here", got)}
			}
		}
		if mv.Kind == MoveCmd {
			width = len(evs) // a blocking send: its issue and its popa
		}
		s = next
		i += width
	}
	return s, nil
}
