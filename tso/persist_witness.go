package tso

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// FragileRun is the persistence part of a witness: the run
// Witness(π) = π1·e1·π3·e·ρ·u1 of persistence-fences.md Section 7 (with
// ρ = e2·u2 in the paper; any SC run of the other threads here, see
// persist.go), replayed on the Machine, and its trace recomputed from the
// replayed events.
type FragileRun struct {
	Pivot int
	// Y and X are the addresses of e1 and e; V is the value e reads and
	// V2 the value e2 leaves at X (V2 != V).
	Y, X  int64
	V, V2 int64
	// E1, E and E2 index Witness.Events: the pivot's delayed write, its
	// complementary read, and the last update of X before u1.
	E1, E, E2 int
	// ProgOrder[t] lists thread t's events in program order; StoreOrder
	// the stores in the order they reached memory (Section 6).
	ProgOrder  [][]int
	StoreOrder []int
}

// persistWitness turns the SC path of a feasible pattern into the run
// Witness(π) on the Machine: phases 0 and 2 run under SC (a write lands
// at once), e1 stays in p's buffer through π3, e and ρ, and lands last.
func persistWitness(p *prog.Program, m prog.Model, ar *AttackResult) (*Witness, error) {
	if ar.Outcome != Feasible || ar.sys == nil {
		return nil, fmt.Errorf("pattern is not feasible")
	}
	r := newReplay(p, m, ar.Attack)
	for _, st := range ar.path[1:] {
		t, k := splitLabel(st.Label)
		it := ar.sys.threads[t].trans[k]
		exec := Step{Kind: StepExec, Thread: t, Trans: int(it.orig)}
		write := p.Threads[t].Trans[it.orig].Op == prog.OpWrite
		exec.Delayed = it.role == rPerE1
		if err := r.do(exec); err != nil {
			return nil, err
		}
		switch it.role {
		case rPerE1:
			r.w.StoreEvent = r.w.Steps[len(r.w.Steps)-1].Event
		case rPerE:
			r.w.LastEvent = r.w.Steps[len(r.w.Steps)-1].Event
		case rPerPhase0, rPerPhase2:
			if write {
				if err := r.do(Step{Kind: StepFlush, Thread: t}); err != nil {
					return nil, err
				}
			}
		}
	}
	// u1: the delayed write reaches memory, last.
	if err := r.do(Step{Kind: StepFlush, Thread: ar.Attack.Thread}); err != nil {
		return nil, err
	}
	return finishFragile(r)
}

// persistReplay certifies a witness recorded elsewhere by replaying its
// steps.
func persistReplay(p *prog.Program, m prog.Model, w *Witness) (*Witness, error) {
	r := newReplay(p, m, w.Attack)
	for _, s := range w.Steps {
		if s.Thread < 0 || s.Thread >= len(p.Threads) {
			return nil, fmt.Errorf("witness replay: no thread %d", s.Thread)
		}
		if err := r.do(s); err != nil {
			return nil, err
		}
	}
	r.w.StoreEvent, r.w.LastEvent = w.StoreEvent, w.LastEvent
	return finishFragile(r)
}

// finishFragile recomputes the trace of the replayed run and checks the
// argument that no SC run has it (persist.go): the run is complete; e1 is
// the pattern's write and its update is the last of the store order; e is
// the pattern's read, after e1 in program order, of an address x ≠ y; and
// e read a value other than the final value of x. In an SC run with this
// trace, e1's update follows e1 at once and is last in the store order, so
// e comes after every update and reads the final value of x: a
// contradiction.
func finishFragile(r *replay) (*Witness, error) {
	w, a, mc := r.w, r.w.Attack, r.mc
	w.Events = mc.Events
	fail := func(f string, args ...any) (*Witness, error) {
		return nil, fmt.Errorf("witness replay: "+f, args...)
	}
	if w.StoreEvent < 0 || w.LastEvent < 0 || w.StoreEvent >= len(w.Events) || w.LastEvent >= len(w.Events) {
		return fail("the run does not contain the pattern")
	}
	for t := range mc.P.Threads {
		if !mc.Empty(t) {
			return fail("thread %d's buffer is not empty at the end", t)
		}
	}
	e1, e := w.Events[w.StoreEvent], w.Events[w.LastEvent]
	if e1.Kind != prog.EvStore || e1.Thread != a.Thread || e1.Trans != a.Store {
		return fail("e1 is not the pattern's write")
	}
	if e.Kind != prog.EvLoad || e.Thread != a.Thread || e.Trans != a.Last || e.Seq < e1.Seq {
		return fail("e is not the pattern's read after e1")
	}
	if e.Cell == e1.Cell {
		return fail("e reads the address e1 writes")
	}
	fr := &FragileRun{Pivot: a.Thread, Y: mc.P.Cells[e1.Cell], X: mc.P.Cells[e.Cell], V: e.Val, V2: mc.Mem[e.Cell],
		E1: w.StoreEvent, E: w.LastEvent, E2: -1, ProgOrder: make([][]int, len(mc.P.Threads))}
	for i, ev := range w.Events {
		fr.ProgOrder[ev.Thread] = append(fr.ProgOrder[ev.Thread], i)
		if ev.Kind == prog.EvStore {
			fr.StoreOrder = append(fr.StoreOrder, i)
		}
	}
	sort.Slice(fr.StoreOrder, func(i, j int) bool { return w.Events[fr.StoreOrder[i]].Land < w.Events[fr.StoreOrder[j]].Land })
	if n := len(fr.StoreOrder); n == 0 || fr.StoreOrder[n-1] != w.StoreEvent {
		return fail("e1's update is not the last of the store order")
	}
	for _, i := range fr.StoreOrder {
		if w.Events[i].Cell == e.Cell {
			fr.E2 = i
		}
	}
	if fr.E2 < 0 || w.Events[fr.E2].Thread == a.Thread || fr.V2 == fr.V {
		return fail("no other thread left a value other than %d at [%d]", fr.V, fr.X)
	}
	w.Fragile = fr
	return w, nil
}

// formatFragile prints the pattern, the trace and the argument.
func (w *Witness) formatFragile(p *prog.Program, b *strings.Builder) {
	f := w.Fragile
	ev := func(i int) string {
		e := w.Events[i]
		if e.Kind == prog.EvStore {
			return fmt.Sprintf("wr(%d,%d)", p.Cells[e.Cell], e.Val)
		}
		return fmt.Sprintf("rd(%d,%d)", p.Cells[e.Cell], e.Val)
	}
	fmt.Fprintf(b, "pivot %s: e1 = %s, complementary read e = %s, e2 = %s by %s\n",
		p.Threads[f.Pivot].Name, ev(f.E1), ev(f.E), ev(f.E2), p.Threads[w.Events[f.E2].Thread].Name)
	fmt.Fprintf(b, "trace of the run (recomputed from the replay):\n")
	for t, evs := range f.ProgOrder {
		parts := make([]string, len(evs))
		for i, e := range evs {
			parts[i] = ev(e)
		}
		fmt.Fprintf(b, "  program order %-8s %s\n", p.Threads[t].Name+":", strings.Join(parts, " "))
	}
	parts := make([]string, len(f.StoreOrder))
	for i, e := range f.StoreOrder {
		parts[i] = fmt.Sprintf("ud_%s(%d,%d)", p.Threads[w.Events[e].Thread].Name, p.Cells[w.Events[e].Cell], w.Events[e].Val)
	}
	fmt.Fprintf(b, "  store order: %s\n", strings.Join(parts, " "))
	fmt.Fprintf(b, "no SC run has this trace: the update of e1 is the last of the store order, so in an SC run\n"+
		"e1 and e after it come after every update, and e reads the final value %d of [%d], not %d\n", f.V2, f.X, f.V)
}
