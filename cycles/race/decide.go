package race

import (
	"context"
	"fmt"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

// Verdict is the answer of Decide.
type Verdict int

const (
	RaceFree     Verdict = iota // no computation of X(P,N) has a data race
	Race                        // a computation has one: Result.Witness
	Unknown                     // a budget ran out first: Result.Reason
	RunTimeError                // a command fails to evaluate (a value out of range, an atomic add that wraps): Result.RunErr
)

func (v Verdict) String() string {
	return [...]string{"RACE-FREE", "RACE", "UNKNOWN", "RUN-TIME ERROR"}[v]
}

// Options bound a decision.
type Options struct {
	MaxStates int64
	MaxBytes  int64 // 0: automata.DefaultMaxBytes, shared by the search and the monitor's table
	Timeout   time.Duration
	Context   context.Context
}

// Witness is a race: a computation of X(P,N) whose events I and J (the
// last one) race: they conflict and api_hb does not order them.
type Witness struct {
	Events []pgas.Event
	I, J   int
}

// Result is the outcome of Decide.
type Result struct {
	Verdict Verdict
	Reason  string
	Stats   automata.Stats
	Witness *Witness
	// RunErr is the first run-time error met, with a computation that
	// reaches the state in which it happens (the failing step is not in it).
	RunErr     error
	RunErrPath []pgas.Event
}

// system is the product of X(P,N) and the monitor as an automata.System:
// a state is one word, the number of a product state in the table.
type system struct {
	m      *pgas.Machine
	mon    *mon
	index  map[string]uint64
	kbuf   []byte // intern's key buffer
	states []*pstate
	bytes  int64
	max    int64
	cancel context.CancelFunc
	full   bool
	// the first run-time error and the state it happens in
	runErr   error
	runErrAt uint64
}

func (s *system) Width() int { return 1 }

func (s *system) intern(ps *pstate) uint64 {
	// The key is built in a buffer reused from state to state: a state
	// seen before (most successors) then costs no string.
	s.kbuf = s.mon.appendKey(s.kbuf[:0], ps)
	if i, ok := s.index[string(s.kbuf)]; ok {
		return i
	}
	k := string(s.kbuf)
	i := uint64(len(s.states))
	s.index[k] = i
	s.states = append(s.states, ps)
	s.bytes += int64(len(k))*2 + 256
	if s.bytes > s.max && !s.full {
		s.full = true
		s.cancel()
	}
	return i
}

func (s *system) Initial(emit func(automata.State)) {
	ps := &pstate{x: s.m.Initial(), head: make([]int, s.m.N())}
	for i := range ps.head {
		ps.head[i] = -1
	}
	emit(automata.State{s.intern(ps)})
}

func (s *system) Accepting(st automata.State) bool { return s.states[st[0]].phase == 2 }

// move is one transition of the product, for the witness.
type move struct {
	events []pgas.Event
	guess  bool
	next   *pstate
}

// moves lists the transitions of ps in a fixed order: each step of X,
// then, in phase 0 and when the step accesses a cell, the same step with
// that access guessed as the first of a race.
func (s *system) moves(ps *pstate, at uint64) []move {
	if ps.phase == 2 {
		return nil
	}
	steps, errs := s.steps(ps.x)
	if len(errs) > 0 && s.runErr == nil {
		s.runErr, s.runErrAt = errs[0], at
	}
	out := make([]move, 0, len(steps)+1)
	for _, st := range steps {
		if st.Wrap != nil {
			// the real program computes a value X cannot hold: a
			// run-time error, and no verdict rests on what follows
			if s.runErr == nil {
				s.runErr, s.runErrAt = st.Wrap, at
			}
			continue
		}
		ns, h := s.mon.after(ps, st, false)
		if h != nil {
			ns.phase = 2
		}
		if !s.mon.done(ns) {
			out = append(out, move{events: st.Events, next: ns})
		}
		if ps.phase != 0 {
			continue
		}
		if e1 := classify(s.mon.p, accessEvent(st.Events)); s.mon.mayRace(e1) && !s.mon.guessUseless(st, e1) {
			if gs, _ := s.mon.after(ps, st, true); !s.mon.done(gs) {
				out = append(out, move{events: st.Events, guess: true, next: gs})
			}
		}
	}
	return out
}

func (s *system) Successors(st automata.State, emit func(automata.Label, automata.State)) {
	for i, mv := range s.moves(s.states[st[0]], st[0]) {
		emit(automata.Label(i), automata.State{s.intern(mv.next)})
	}
}

// Decide decides data-race freedom of p for n ranks.
func Decide(p *pgas.Program, n int, opt Options) *Result {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	max := opt.MaxBytes
	if max == 0 {
		max = automata.DefaultMaxBytes
	}
	// half for the monitor's table, half for the search's visited set
	sys := &system{m: pgas.NewMachine(p, n), mon: newMon(p, n), index: map[string]uint64{}, max: max / 2, cancel: cancel}
	sr := automata.Search(sys, automata.Options{Budget: automata.Budget{MaxStates: opt.MaxStates, MaxBytes: max / 2, Timeout: opt.Timeout}, Context: ctx})
	res := &Result{Stats: sr.Stats}
	res.Stats.Bytes += sys.bytes
	switch {
	case sr.Outcome == automata.NonEmpty:
		res.Verdict = Race
		res.Witness = sys.witness(sr.Path)
	case sys.runErr != nil:
		res.Verdict, res.RunErr = RunTimeError, sys.runErr
		res.RunErrPath = sys.pathTo(sys.runErrAt)
	case sr.Outcome == automata.Empty:
		res.Verdict = RaceFree
	default:
		res.Verdict, res.Reason = Unknown, sr.Reason
		if sys.full {
			res.Reason = fmt.Sprintf("memory budget of %d MiB reached", max>>20)
		}
	}
	return res
}

// witness turns an accepting path into the race's computation.
func (s *system) witness(path []automata.Step) *Witness {
	w := &Witness{I: -1}
	for k := 1; k < len(path); k++ {
		mv := s.moves(s.states[path[k-1].State[0]], path[k-1].State[0])[path[k].Label]
		if mv.guess {
			w.I = len(w.Events) + accessIndex(mv.events)
		}
		w.Events = append(w.Events, mv.events...)
	}
	// the accepting step's access is its last event (a blocking put's
	// popa comes after its issue event)
	w.J = len(w.Events) - 1
	return w
}

func accessIndex(evs []pgas.Event) int {
	for i, e := range evs {
		if e.HasCell {
			return i
		}
	}
	return 0
}

// pathTo is a computation reaching product state i, by a breadth-first
// search of the product over phase-0 states only (no guess is needed to
// reach a state of X).
func (s *system) pathTo(target uint64) []pgas.Event {
	goal := s.states[target].x.Key()
	type node struct {
		ps     *pstate
		parent int
		evs    []pgas.Event
	}
	nodes := []node{{ps: s.states[0], parent: -1}}
	seen := map[string]bool{s.states[0].x.Key(): true}
	for i := 0; i < len(nodes) && len(nodes) < 1<<20; i++ {
		if nodes[i].ps.x.Key() == goal {
			var out [][]pgas.Event
			for j := i; j > 0; j = nodes[j].parent {
				out = append(out, nodes[j].evs)
			}
			var evs []pgas.Event
			for j := len(out) - 1; j >= 0; j-- {
				evs = append(evs, out[j]...)
			}
			return evs
		}
		steps, _ := s.m.Steps(nodes[i].ps.x)
		for _, st := range steps {
			if st.Wrap != nil {
				continue
			}
			k := st.Next.Key()
			if !seen[k] {
				seen[k] = true
				nodes = append(nodes, node{ps: &pstate{x: st.Next}, parent: i, evs: st.Events})
			}
		}
	}
	return nil
}
