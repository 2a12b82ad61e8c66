package tso

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// StepKind is the kind of a step of a relaxed computation.
type StepKind uint8

const (
	StepExec    StepKind = iota // an instruction (for a store: its issue)
	StepAdvance                 // PSO: a store moves to the all-addresses buffer
	StepFlush                   // a buffered store (or fence) reaches memory
)

// Step of a relaxed computation, as replayed on the Machine.
type Step struct {
	Kind    StepKind
	Thread  int
	Trans   int  // StepExec
	Cell    int  // StepAdvance
	Event   int  // the load or store event the step created or landed, -1 if none
	Delayed bool // a store issued now but reaching memory after later actions of its thread
}

// Witness is a relaxed computation of the original program whose
// happens-before relation is cyclic, found through an attack.
type Witness struct {
	Attack Attack
	Model  prog.Model
	Steps  []Step
	Events []prog.Event
	Cycle  []prog.Edge // edge by edge, recomputed from the replay
	// StoreEvent is the attacking (first delayed) store, LastEvent the
	// attacker's last action.
	StoreEvent, LastEvent int
	// Fragile is set for persistence (persist_witness.go): the pattern's
	// events, the trace and why no SC run has it; Cycle is then nil.
	Fragile *FragileRun
	// Race is set for triangular-race freedom (trf_witness.go): the race
	// and its TSO computation; Cycle is then nil.
	Race *TriangularRace
}

// buildWitness turns the SC path of a feasible attack's instrumentation
// into a relaxed computation of the original program (Theorem 2 of
// tso-robustness-attacks.md read backwards), replays it on the Machine and
// recomputes happens-before. Any mismatch is an error: the instrumentation
// and the semantics disagree, which is an internal error, not a verdict.
func buildWitness(p *prog.Program, m prog.Model, ar *AttackResult) (*Witness, error) {
	if ar.Outcome != Feasible || ar.sys == nil {
		return nil, fmt.Errorf("attack is not feasible")
	}
	r := newReplay(p, m, ar.Attack)
	w, mc, do := r.w, r.mc, r.do
	// land issues the store just executed by t and lets it reach memory at
	// once, as SC would.
	land := func(t int) error {
		if m == prog.PSO {
			c := mc.Events[len(mc.Events)-1].Cell
			if err := do(Step{Kind: StepAdvance, Thread: t, Cell: c, Event: -1}); err != nil {
				return err
			}
		}
		return do(Step{Kind: StepFlush, Thread: t})
	}
	for _, st := range ar.path[1:] {
		t, k := splitLabel(st.Label)
		it := ar.sys.threads[t].trans[k]
		orig := int(it.orig)
		op := p.Threads[t].Trans[orig].Op
		exec := Step{Kind: StepExec, Thread: t, Trans: orig}
		switch it.role {
		case rExec, rHelperPre, rHelperEnter, rHelperCopy, rHelperLock, rHelperTent:
			if err := do(exec); err != nil {
				return nil, err
			}
			switch {
			case op == prog.OpWrite:
				if err := land(t); err != nil {
					return nil, err
				}
			case op == prog.OpFence && m == prog.PSO:
				// Under SC a fence leaves the buffer at once.
				if err := do(Step{Kind: StepFlush, Thread: t}); err != nil {
					return nil, err
				}
			}
		case rAttStart, rAttCopy:
			exec.Delayed = op == prog.OpWrite
			if err := do(exec); err != nil {
				return nil, err
			}
			if it.role == rAttStart {
				w.StoreEvent = w.Steps[len(w.Steps)-1].Event
			}
		case rAttDirect, rAttLast:
			if err := do(exec); err != nil {
				return nil, err
			}
			if it.role == rAttLast {
				w.LastEvent = w.Steps[len(w.Steps)-1].Event
			}
			switch {
			case op == prog.OpWrite:
				if err := land(t); err != nil {
					return nil, err
				}
			case op == prog.OpFence && m == prog.PSO:
				if err := do(Step{Kind: StepFlush, Thread: t}); err != nil {
					return nil, err
				}
			}
		case rAttFenceDelay:
			// The fence waits in the all-addresses buffer behind the
			// delayed stores to its addresses, which must move there first.
			tr := p.Threads[t].Trans[orig]
			for _, e := range tr.Addrs {
				c, err := mc.Cell(e, t)
				if err != nil {
					return nil, err
				}
				for len(mc.CellBuffers(t)[c]) > 0 {
					if err := do(Step{Kind: StepAdvance, Thread: t, Cell: c, Event: -1}); err != nil {
						return nil, err
					}
				}
			}
			if err := do(exec); err != nil {
				return nil, err
			}
		}
	}
	// τ4: the delayed stores reach memory, oldest first.
	for t := range p.Threads {
		for !mc.Empty(t) {
			if len(mc.Buffer(t)) == 0 {
				best := -1
				for c, q := range mc.CellBuffers(t) {
					if len(q) > 0 && (best < 0 || q[0].Event < mc.CellBuffers(t)[best][0].Event) {
						best = c
					}
				}
				if err := do(Step{Kind: StepAdvance, Thread: t, Cell: best, Event: -1}); err != nil {
					return nil, err
				}
			}
			if err := do(Step{Kind: StepFlush, Thread: t}); err != nil {
				return nil, err
			}
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return w, nil
}

// replay runs the steps of a witness on a fresh Machine, recording the
// events each step creates or lands.
type replay struct {
	mc *prog.Machine
	w  *Witness
}

func newReplay(p *prog.Program, m prog.Model, a Attack) *replay {
	return &replay{mc: prog.NewMachine(p, m), w: &Witness{Attack: a, Model: m, StoreEvent: -1, LastEvent: -1}}
}

func (r *replay) do(s Step) error {
	mc := r.mc
	var err error
	before := len(mc.Events)
	switch s.Kind {
	case StepExec:
		err = mc.Exec(s.Thread, s.Trans)
	case StepAdvance:
		err = mc.Advance(s.Thread, s.Cell)
		s.Event = -1
	case StepFlush:
		var head int
		if len(mc.Buffer(s.Thread)) > 0 {
			head = mc.Buffer(s.Thread)[0].Event
		}
		err = mc.Flush(s.Thread)
		s.Event = head
	default:
		err = fmt.Errorf("unknown step kind %d", s.Kind)
	}
	if err != nil {
		return fmt.Errorf("witness replay, step %d: %v", len(r.w.Steps)+1, err)
	}
	if s.Kind == StepExec {
		s.Event = -1
		if len(mc.Events) > before {
			s.Event = before
		}
	}
	r.w.Steps = append(r.w.Steps, s)
	return nil
}

// finish checks that the replayed computation is the attack's and that its
// happens-before relation, recomputed from the events, has a cycle.
func (r *replay) finish() error {
	w, a := r.w, r.w.Attack
	w.Events = r.mc.Events
	if w.StoreEvent < 0 || w.LastEvent < 0 || w.StoreEvent >= len(w.Events) || w.LastEvent >= len(w.Events) {
		return fmt.Errorf("witness replay: the path does not contain the attack")
	}
	if se := w.Events[w.StoreEvent]; se.Thread != a.Thread || se.Trans != a.Store || se.Kind != prog.EvStore {
		return fmt.Errorf("witness replay: the delayed store is not the attack's store")
	}
	if le := w.Events[w.LastEvent]; le.Thread != a.Thread || le.Trans != a.Last {
		return fmt.Errorf("witness replay: the last action is not the attack's")
	}
	if w.Events[w.StoreEvent].Land < 0 {
		return fmt.Errorf("witness replay: the delayed store never reached memory")
	}
	for t := range r.mc.P.Threads {
		if !r.mc.Empty(t) {
			return fmt.Errorf("witness replay: thread %d's buffer is not empty at the end", t)
		}
	}
	w.Cycle = prog.FindCycle(len(w.Events), prog.HappensBefore(w.Events), w.StoreEvent)
	if w.Cycle == nil {
		return fmt.Errorf("witness replay: the computation's happens-before relation is acyclic")
	}
	return nil
}

// replayWitness rebuilds the witness of attack a from its steps (as a
// shard wrote them to a file) by replaying them on the Machine: the events,
// the attack's delayed store and last action, and the happens-before cycle
// are all recomputed and checked, so a damaged file is an error.
func replayWitness(p *prog.Program, m prog.Model, a Attack, steps []Step, storeEvent, lastEvent int) (*Witness, error) {
	r := newReplay(p, m, a)
	for _, s := range steps {
		if s.Thread < 0 || s.Thread >= len(p.Threads) {
			return nil, fmt.Errorf("witness replay: no thread %d", s.Thread)
		}
		if err := r.do(s); err != nil {
			return nil, err
		}
	}
	r.w.StoreEvent, r.w.LastEvent = storeEvent, lastEvent
	if err := r.finish(); err != nil {
		return nil, err
	}
	return r.w, nil
}

// Format prints the witness: the attack, the computation with issue and
// store actions (delayed stores marked), and the cycle edge by edge.
func (w *Witness) Format(p *prog.Program) string {
	if w.Race != nil {
		return w.formatRace(p)
	}
	var b strings.Builder
	store, last := "attacking store", "attacker's last action"
	if w.Fragile != nil {
		store, last = "e1", "complementary read e"
		fmt.Fprintf(&b, "pattern (pivot, e1, e): %s\n", w.Attack.Format(p))
	} else {
		fmt.Fprintf(&b, "attack: %s\n", w.Attack.Format(p))
	}
	fmt.Fprintf(&b, "relaxed computation (%s):\n", w.Model)
	for i, s := range w.Steps {
		th := p.Threads[s.Thread]
		switch s.Kind {
		case StepExec:
			t := th.Trans[s.Trans]
			what := "   "
			switch {
			case t.Op == prog.OpWrite:
				what = "isu"
			case t.Op == prog.OpRead:
				what = "ld "
			}
			line := fmt.Sprintf("%s %s %s->%s %s", th.Name, what, th.Labels[t.From], th.Labels[t.To], t.Text)
			if t.Op == prog.OpRead {
				line += fmt.Sprintf("  = %d", w.Events[s.Event].Val)
			}
			if s.Event == w.StoreEvent {
				line += "   <- " + store + ", delayed"
			} else if s.Delayed {
				line += "   <- delayed"
			}
			if s.Event == w.LastEvent && s.Event >= 0 {
				line += "   <- " + last
			}
			fmt.Fprintf(&b, "  %3d  %s\n", i+1, line)
		case StepAdvance:
			fmt.Fprintf(&b, "  %3d  %s adv [%d] to the all-addresses buffer\n", i+1, th.Name, p.Cells[s.Cell])
		case StepFlush:
			if s.Event < 0 || s.Event >= len(w.Events) || w.Events[s.Event].Kind != prog.EvStore || w.Events[s.Event].Thread != s.Thread {
				fmt.Fprintf(&b, "  %3d  %s fence leaves the buffer\n", i+1, th.Name)
				continue
			}
			e := w.Events[s.Event]
			mark := ""
			if s.Event == w.StoreEvent {
				mark = "   <- " + store + " reaches memory"
			}
			fmt.Fprintf(&b, "  %3d  %s st  [%d] := %d%s\n", i+1, th.Name, p.Cells[e.Cell], e.Val, mark)
		}
	}
	if w.Fragile != nil {
		w.formatFragile(p, &b)
		return b.String()
	}
	fmt.Fprintf(&b, "happens-before cycle:\n")
	for _, e := range w.Cycle {
		fmt.Fprintf(&b, "  %-50s --%s--> %s\n", p.DescribeEvent(w.Events[e.From]), e.Kind, p.DescribeEvent(w.Events[e.To]))
	}
	return b.String()
}
