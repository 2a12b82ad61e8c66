package tso

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// The combined first search (issue 27).
//
// The per-attack check builds one instrumented program P_A per attack A
// and searches them one after the other. Where a violation is near, most
// of that work goes into attacks that are infeasible, searched before the
// feasible one. The reference tool instead instruments the program once,
// letting the attack be chosen inside the run: any thread may, at any of
// its stores, become the attacker and delay that store, and then, at any
// of its loads, take its last action. Runs of that one program P_* are
// exactly the runs of the P_A (the choice made at the start of the
// attack, and never again), so its goal is reachable iff some attack is
// feasible, and the first goal a depth-first search meets ends the check.
//
// Here P_* is searched first, by the same engine (automata.Search on an
// scSystem), with the same reductions (dead registers, the partial-order
// reduction of por.go, whose argument holds for P_* as it does for each
// P_A: the attack's choices are rAttStart and rAttLast, never private) and
// in the goal-directed order of directed.go, within a state budget. Its
// answer is only a guide:
//
//   - a goal found names its attack (the path's rAttStart and rAttLast
//     steps); the path is turned into a relaxed computation and replayed on
//     the Machine exactly as a per-attack witness is (buildWitness), which
//     checks that the computation is the attack's and that its
//     happens-before relation is cyclic. Only a certified witness ends the
//     check (NOT ROBUST, with that attack Feasible and the others not
//     searched); anything else falls back to the per-attack searches.
//   - no goal within the budget (or an exhausted P_*) decides nothing: the
//     per-attack searches run as before and decide.
//
// The one thing P_* needs beyond the P_A's fields is a bit saying that an
// attacker has started (chosen), which rAttStart tests and sets, so that a
// second thread cannot start an attack of its own.

// Labels of a thread of P_*, with L the thread's own labels: the original
// code at 0..L-1 (every thread, hb down), the attacker's copy at L..2L-1,
// the helpers' copy after their first dependent action at 2L..3L-1, their
// locked-section copy at 3L..4L-1 (instrument's third copy) and the
// attacker's wait label at 4L. Only the stores and loads of the attacks
// in todo may start an attack or end it (todo nil: all): a goal of P_*
// through a store s and a load l of thread t has a fence-free path from
// s to l in t's code (the attacker's copy has no fences), so (t, s, l) is
// not refuted syntactically, and leaving the refuted attacks' other
// stores and loads out loses no goal.
func instrumentCombined(p *prog.Program, todo []Attack) []ithread {
	type move struct{ thread, trans int }
	var ends map[move]bool
	if todo != nil {
		ends = map[move]bool{}
		for _, a := range todo {
			ends[move{a.Thread, a.Store}], ends[move{a.Thread, a.Last}] = true, true
		}
	}
	end := func(t, k int) bool { return ends == nil || ends[move{t, k}] }
	out := make([]ithread, len(p.Threads))
	for ti, th := range p.Threads {
		L := len(th.Labels)
		A, H, T, wait := L, 2*L, 3*L, 4*L
		it := ithread{labels: 4*L + 1}
		for k, t := range th.Trans {
			// Before the hb flag rises every thread runs its own code;
			// rHelperPre's "hb is down" guard is no restriction for the
			// attacker, which leaves its code at its first delayed store.
			it.add(t.From, t.To, rHelperPre, k)
			switch t.Op {
			case prog.OpWrite:
				if end(ti, k) {
					it.add(t.From, A+t.To, rAttStart, k)
				}
				it.add(A+t.From, A+t.To, rAttCopy, k)
			case prog.OpRead:
				if end(ti, k) {
					it.add(A+t.From, wait, rAttLast, k)
				}
				it.add(A+t.From, A+t.To, rAttCopy, k)
			case prog.OpLocal, prog.OpCheck, prog.OpNoop, prog.OpFence:
				// Under TSO an address-list fence orders nothing the one
				// FIFO does not (instrument).
				it.add(A+t.From, A+t.To, rAttCopy, k)
			}
			// The helper rules of instrument, shifted to H and T.
			it.addHelper(t, k, H, T)
		}
		it.index()
		out[ti] = it
	}
	return out
}

// choosesAttack reports whether threads are P_*'s: some thread may both
// start an attack and act as a helper, which no P_A allows.
func choosesAttack(threads []ithread) bool {
	for _, th := range threads {
		start, help := false, false
		for _, t := range th.trans {
			start = start || t.role == rAttStart
			help = help || t.role == rHelperEnter
		}
		if start && help {
			return true
		}
	}
	return false
}

// choose sets the chosen bit of the successor, or reports that another
// attacker has started already.
func (s *scSystem) choose() bool {
	if s.chosen.Get(s.buf) != 0 {
		return false
	}
	s.chosen.Set(s.buf, 1)
	return true
}

// newCombinedSystem is P_* for the attacks todo (nil: all) under SC with
// vbits-bit values.
func newCombinedSystem(p *prog.Program, todo []Attack, noReduction bool, vbits int) *scSystem {
	s := newSCSystem(p, instrumentCombined(p, todo), AttackerTSO, true, vbits)
	for ti, th := range p.Threads {
		// liveRegs reads label q as q mod L; at the wait label nothing is
		// read any more.
		s.live[ti][4*len(th.Labels)] = make([]bool, len(th.Regs))
	}
	if noReduction {
		s.reducible = nil
	}
	return s
}

// DefaultCombinedStates bounds the combined first search when
// Options.CombinedStates is zero.
var DefaultCombinedStates int64 = 1 << 17

// combinedBudget is the combined search's state budget before the
// user's MaxStates.
func combinedBudget(opt Options) int64 {
	if opt.CombinedStates == 0 {
		return DefaultCombinedStates
	}
	return opt.CombinedStates
}

// combinedRun is what the combined first search left: the attack it
// completed with a certified witness, or the work it spent in vain.
type combinedRun struct {
	found   int // index in Result.Attacks, -1: none
	witness *Witness
	// withheld, if set, says why the found attack's witness is not built:
	// it would not fit the memory budget (witnessWithheld).
	withheld string
	spent    automata.Stats
}

// useCombined says whether a check searches P_* first: robustness under
// TSO with more than one attack to search, and none of the options that
// ask for every attack's own search (All, NoPrune, a shard, breadth-first
// searches).
func useCombined(m prog.Model, opt Options, todo int) bool {
	return opt.Criterion == Robustness && m == prog.TSO && todo > 1 && opt.CombinedStates >= 0 &&
		!opt.All && !opt.NoPrune && !opt.BreadthFirst && opt.Shard.Whole()
}

// combinedFirst searches P_* within its budget and, when it reaches a
// goal whose witness replays, records the attack as Feasible in res.
func (res *Result) combinedFirst(ctx context.Context, p *prog.Program, opt Options, todo []int, maxBytes int64) combinedRun {
	run := combinedRun{found: -1}
	bits := opt.ValueBits
	if bits <= 0 {
		bits = 4
	}
	budget := combinedBudget(opt)
	if opt.MaxStates > 0 && opt.MaxStates < budget {
		budget = opt.MaxStates
	}
	attacks := make([]Attack, len(todo))
	for k, i := range todo {
		attacks[k] = res.Attacks[i].Attack
	}
	// In several orders and value widths, one after the other (order.go),
	// first with few of each class of identical threads (stages.go).
	sys, bits, r, spent := stagedOrders(ctx, p, attacks, opt, bits, budget, maxBytes)
	run.spent.Add(spent)
	if r.Outcome != automata.NonEmpty || r.Path == nil {
		// No goal, or its path did not fit the budget (PathWithheld): the
		// per-attack searches decide, and withhold a witness themselves
		// if theirs does not fit either.
		return run
	}
	a, ok := pathAttack(sys, r.Path)
	if !ok {
		combinedAnomalies.Add(1)
		return run
	}
	for _, i := range todo {
		if res.Attacks[i].Attack != a {
			continue
		}
		ar := AttackResult{Attack: a, Outcome: Feasible, Stats: run.spent, Bits: bits, path: r.Path, sys: sys}
		if why := witnessWithheld(&ar, maxBytes, opt); why != "" {
			res.Attacks[i] = ar
			run.found, run.withheld, run.spent = i, fmt.Sprintf("attack %s: %s", a.Format(p), why), automata.Stats{}
			return run
		}
		w, err := buildWitness(p, prog.TSO, &ar)
		if err != nil {
			combinedAnomalies.Add(1)
			return run
		}
		res.Attacks[i] = ar
		run.found, run.witness, run.spent = i, w, automata.Stats{}
		return run
	}
	// A goal for an attack that is refuted syntactically (or unknown)
	// would contradict NR1; it decides nothing.
	combinedAnomalies.Add(1)
	return run
}

// combinedAnomalies counts goals of P_* that named no attack left to
// search or whose witness failed its replay. Each is an internal error
// that the per-attack searches then hide from the verdict; the tests
// require none.
var combinedAnomalies atomic.Int64

// pathAttack reads the attack off a path of P_*: the thread and store of
// its rAttStart step, the load of its rAttLast step.
func pathAttack(sys *scSystem, path []automata.Step) (Attack, bool) {
	a := Attack{Thread: -1, Store: -1, Last: -1}
	for _, st := range path[1:] {
		t, k := splitLabel(st.Label)
		it := sys.threads[t].trans[k]
		switch it.role {
		case rAttStart:
			a.Thread, a.Store = t, int(it.orig)
		case rAttLast:
			if t != a.Thread {
				return a, false
			}
			a.Last = int(it.orig)
		}
	}
	return a, a.Thread >= 0 && a.Last >= 0
}
