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
// context pops the item its Event.Item names. A barrier is the
// consecutive bar events of the ranks of its set, in rank order, one move
// of X (the set is the one Event.Item names: BarMask), and a blocking send
// is its issue followed at once by its popa.
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
	return replay(p, n, events, nil)
}

// Wraps replays events as a prefix of a computation (as ReplayPrefix) and
// returns the first atomic add among them whose result wraps (Step.Wrap),
// with the index of the event that performs it; nil and -1 if there is
// none. A computation with a wrap is no evidence about the real program:
// the value it computes does not fit in values. err is ReplayPrefix's.
func Wraps(p *Program, n int, events []Event) (wrap *RangeError, index int, err error) {
	index = -1
	_, err = replay(p, n, events, func(i int, w *RangeError) {
		if wrap == nil {
			wrap, index = w, i
		}
	})
	return wrap, index, err
}

// replay is ReplayPrefix; it calls onWrap, if set, with the index and the
// wrap of each event whose step wraps.
func replay(p *Program, n int, events []Event, onWrap func(int, *RangeError)) (*XState, error) {
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
			var err *ReplayError
			if mv, width, err = replayBarrier(p, n, events, i); err != nil {
				return s, err
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
		next, evs, wrap, err := m.ApplyWrap(s, mv)
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
		if wrap != nil && onWrap != nil {
			onWrap(i, wrap)
		}
		s = next
		i += width
	}
	return s, nil
}
