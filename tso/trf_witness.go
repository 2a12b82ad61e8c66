package tso

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// TriangularRace is the evidence of a triangular race, part of a Witness
// (Witness.Race). The Witness's Steps and Events are the SC run up to and
// including the racing write, replayed on the Machine with every store
// reaching memory at once; StoreEvent is the pending write and LastEvent
// the racing read.
type TriangularRace struct {
	// Write is the event of the racing write, by thread Other.
	Write, Other int
	// TSO is the computation in which t's writes from the pending one on
	// stay in its buffer until after the racing write, and TSOEvents its
	// events (aligned with Witness.Events); nil when that computation does
	// not read the same values as the SC run (then the race is a
	// violation of the criterion with no visible reordering: Note says
	// why).
	TSO       []Step
	TSOEvents []prog.Event
	Note      string
}

// trfWitness turns the SC path of a feasible pattern into its witness.
func trfWitness(p *prog.Program, m prog.Model, ar *AttackResult) (*Witness, error) {
	if ar.Outcome != Feasible || ar.sys == nil {
		return nil, fmt.Errorf("pattern is not feasible")
	}
	var steps []Step
	for _, st := range ar.path[1:] {
		t, k := splitLabel(st.Label)
		orig := int(ar.sys.threads[t].trans[k].orig)
		steps = append(steps, Step{Kind: StepExec, Thread: t, Trans: orig})
		if p.Threads[t].Trans[orig].Op == prog.OpWrite {
			steps = append(steps, Step{Kind: StepFlush, Thread: t})
		}
	}
	return trfCertify(p, m, ar.Attack, steps)
}

// trfReplay certifies a witness recorded elsewhere from its SC steps.
func trfReplay(p *prog.Program, m prog.Model, w *Witness) (*Witness, error) {
	return trfCertify(p, m, w.Attack, w.Steps)
}

// trfCertify replays the SC run on the Machine and checks the definition
// on its events, not on the instrumentation: the run ends with a write of
// x by a thread u != t; t's last step is a read of x (instruction
// a.Last) made while the lock was free, after which t did nothing; and
// t's write a.Store to y != x was executed before it with no mfence,
// sfence, lock or unlock of t in between. Then it builds the TSO
// computation of the race.
func trfCertify(p *prog.Program, m prog.Model, a Attack, steps []Step) (*Witness, error) {
	r := newReplay(p, prog.TSO, a)
	readLockFree := false
	// An SC run: every store is flushed by the very next step.
	owe := -1
	for _, s := range steps {
		if s.Thread < 0 || s.Thread >= len(p.Threads) || s.Kind == StepAdvance || owe >= 0 && (s.Kind != StepFlush || s.Thread != owe) {
			return nil, fmt.Errorf("trf witness: step %+v is not a step of an SC run", s)
		}
		if s.Kind == StepExec && s.Thread == a.Thread && s.Trans == a.Last {
			readLockFree = r.mc.Lock < 0
		}
		if err := r.do(s); err != nil {
			return nil, err
		}
		owe = -1
		if s.Kind == StepExec && p.Threads[s.Thread].Trans[s.Trans].Op == prog.OpWrite {
			owe = s.Thread
		}
	}
	w := r.w
	w.Model = m
	w.Events = r.mc.Events
	ev := w.Events
	race := &TriangularRace{Write: len(ev) - 1}
	for i, e := range ev {
		if e.Kind == prog.EvStore && e.Land < 0 {
			return nil, fmt.Errorf("trf witness: store %d never reached memory in the SC run", i)
		}
	}
	if race.Write < 0 || ev[race.Write].Kind != prog.EvStore || ev[race.Write].Thread == a.Thread {
		return nil, fmt.Errorf("trf witness: the run does not end with another thread's write")
	}
	wr := ev[race.Write]
	race.Other = wr.Thread
	// The racing read: t's last event, after which t takes no step.
	w.LastEvent = -1
	lastStep := -1
	for i, s := range w.Steps {
		if s.Thread == a.Thread {
			lastStep = i
		}
	}
	if lastStep < 0 || w.Steps[lastStep].Kind != StepExec || w.Steps[lastStep].Trans != a.Last {
		return nil, fmt.Errorf("trf witness: the pattern's read is not the last step of its thread")
	}
	w.LastEvent = w.Steps[lastStep].Event
	rd := ev[w.LastEvent]
	if rd.Kind != prog.EvLoad || rd.Cell != wr.Cell || w.LastEvent > race.Write {
		return nil, fmt.Errorf("trf witness: the read and the write do not race on one address")
	}
	if !readLockFree {
		return nil, fmt.Errorf("trf witness: the read is inside a locked section")
	}
	// The pending write: the last execution of a.Store before the read,
	// with no full fence of t after it.
	w.StoreEvent = -1
	for i := lastStep - 1; i >= 0; i-- {
		s := w.Steps[i]
		if s.Thread != a.Thread || s.Kind != StepExec {
			continue
		}
		if p.Threads[a.Thread].Trans[s.Trans].Op.IsFull() {
			break
		}
		if s.Trans == a.Store {
			w.StoreEvent = s.Event
			break
		}
	}
	if w.StoreEvent < 0 || ev[w.StoreEvent].Cell == rd.Cell {
		return nil, fmt.Errorf("trf witness: no write of the pattern to another address is pending at the read")
	}
	w.Race = race
	race.TSO, race.TSOEvents, race.Note = trfTSO(p, a, w)
	return w, nil
}

// trfTSO replays the SC run's instructions under TSO with t's writes from
// the pending one on left in its buffer until the end, every other store
// reaching memory at once. It returns nil and the reason when that
// computation reads other values than the SC run (a reader needed one of
// t's buffered values, or t read its own value where SC saw another's),
// or when the pending write does not land after the racing write.
func trfTSO(p *prog.Program, a Attack, w *Witness) ([]Step, []prog.Event, string) {
	r := newReplay(p, prog.TSO, a)
	delaying := false
	for _, s := range w.Steps {
		if s.Kind != StepExec {
			continue
		}
		if s.Thread == a.Thread && s.Event == w.StoreEvent {
			delaying = true
		}
		d := delaying && s.Thread == a.Thread && p.Threads[s.Thread].Trans[s.Trans].Op == prog.OpWrite
		s.Delayed = d
		if err := r.do(s); err != nil {
			return nil, nil, "under TSO with the write kept buffered the run blocks: " + err.Error()
		}
		if p.Threads[s.Thread].Trans[s.Trans].Op == prog.OpWrite && !d {
			if err := r.do(Step{Kind: StepFlush, Thread: s.Thread}); err != nil {
				return nil, nil, "under TSO with the write kept buffered the run blocks: " + err.Error()
			}
		}
	}
	for !r.mc.Empty(a.Thread) {
		if err := r.do(Step{Kind: StepFlush, Thread: a.Thread}); err != nil {
			return nil, nil, err.Error()
		}
	}
	ev := r.mc.Events
	if len(ev) != len(w.Events) {
		return nil, nil, "internal: event counts differ"
	}
	for i, e := range ev {
		if e.Kind == prog.EvLoad && e.Val != w.Events[i].Val {
			return nil, nil, fmt.Sprintf("keeping the write buffered changes the value read by %s, so no TSO computation with this run's values shows the race", p.DescribeEvent(w.Events[i]))
		}
	}
	if ev[w.StoreEvent].Land < ev[w.Race.Write].Land {
		return nil, nil, "internal: the pending write landed before the racing write"
	}
	return r.w.Steps, ev, ""
}

// formatRace prints a triangular-race witness.
func (w *Witness) formatRace(p *prog.Program) string {
	var b strings.Builder
	race := w.Race
	src := func(e prog.Event) string {
		t := p.Threads[e.Thread].Trans[e.Trans]
		return fmt.Sprintf("%s (%s)", p.Describe(e.Thread, e.Trans), t.Pos)
	}
	fmt.Fprintf(&b, "triangular race: %s\n", w.Attack.Format(p))
	fmt.Fprintf(&b, "  pending write: %s\n", src(w.Events[w.StoreEvent]))
	fmt.Fprintf(&b, "  racing read:   %s\n", src(w.Events[w.LastEvent]))
	fmt.Fprintf(&b, "  racing write:  %s\n", src(w.Events[race.Write]))
	fmt.Fprintf(&b, "sequentially consistent run:\n")
	n := 0
	for _, s := range w.Steps {
		if s.Kind != StepExec {
			continue
		}
		n++
		line := p.Describe(s.Thread, s.Trans)
		switch s.Event {
		case -1:
		case w.StoreEvent:
			line += "   <- pending write"
		case w.LastEvent:
			line += "   <- racing read"
		case race.Write:
			line += "   <- racing write"
		}
		if s.Event >= 0 && w.Events[s.Event].Kind == prog.EvLoad {
			line += fmt.Sprintf("  = %d", w.Events[s.Event].Val)
		}
		fmt.Fprintf(&b, "  %3d  %s\n", n, line)
	}
	if race.TSO == nil {
		fmt.Fprintf(&b, "no TSO computation keeps the pending write buffered with these values: %s\n", race.Note)
		return b.String()
	}
	fmt.Fprintf(&b, "TSO computation (the pending write still buffered at the racing read):\n")
	for i, s := range race.TSO {
		th := p.Threads[s.Thread]
		if s.Kind == StepFlush {
			e := race.TSOEvents[s.Event]
			mark := ""
			if s.Event == w.StoreEvent {
				mark = "   <- pending write reaches memory"
			}
			fmt.Fprintf(&b, "  %3d  %s st  [%d] := %d%s\n", i+1, th.Name, p.Cells[e.Cell], e.Val, mark)
			continue
		}
		line := p.Describe(s.Thread, s.Trans)
		if s.Event >= 0 && race.TSOEvents[s.Event].Kind == prog.EvLoad {
			line += fmt.Sprintf("  = %d", race.TSOEvents[s.Event].Val)
		}
		if s.Delayed {
			line += "   <- buffered"
		}
		fmt.Fprintf(&b, "  %3d  %s\n", i+1, line)
	}
	return b.String()
}
