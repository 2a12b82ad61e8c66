package oracle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// Persistence decides persistence by brute force from the definition of
// persistence-fences.md Section 6: it enumerates the complete TSO runs of p
// on the Machine and the SC runs (every write followed at once by its
// update), collects the trace of each (program order with values, store
// order), and reports FRAGILE (NotRobust) iff some TSO trace is the trace
// of no SC run. It knows nothing of patterns, phases or instrumentation.
// Runs are merged only when machine state and trace so far coincide, so it
// terminates on loop-free programs only; the budget makes anything larger
// UNKNOWN. Events of a fragile run come back in Result.Events.
func Persistence(p *prog.Program, m prog.Model, b Budget) Result {
	if m != prog.TSO {
		return Result{Verdict: prog.Unknown, Reason: "the persistence oracle enumerates TSO runs only"}
	}
	return persistCompare(persistEnumerate(p, b, false))
}

// PersistenceBounded is Persistence for programs with loops: it
// enumerates the runs of at most b.MaxEvents reads and writes (64 if
// zero) and cuts longer ones instead of giving up. An SC run with the
// trace of a run has its reads and writes, so the bound cuts both sides
// alike. FRAGILE is a verdict; when no run was cut, so is PERSISTENT;
// otherwise the answer is UNKNOWN with "no fragile run of at most N
// events" as the reason.
func PersistenceBounded(p *prog.Program, m prog.Model, b Budget) Result {
	if m != prog.TSO {
		return Result{Verdict: prog.Unknown, Reason: "the persistence oracle enumerates TSO runs only"}
	}
	tso, sc, r := persistEnumerate(p, b, true)
	r = persistCompare(tso, sc, r)
	if r.Verdict == prog.Robust && tso.s.cut {
		r.Verdict, r.Reason = prog.Unknown, fmt.Sprintf("no fragile run of at most %d events", b.limit())
	}
	return r
}

func persistCompare(tso, sc *persistRuns, r Result) Result {
	if r.Verdict == prog.Unknown {
		return r
	}
	r.Verdict = prog.Robust
	for key, evs := range tso.traces {
		if _, ok := sc.traces[key]; !ok {
			r.Verdict, r.Events = prog.NotRobust, evs
			break
		}
	}
	return r
}

// PersistenceRuns is one enumeration of the persistence oracle, kept for
// the questions a test asks beyond the verdict.
type PersistenceRuns struct {
	Result  Result // the verdict Persistence gives
	tso, sc *persistRuns
}

// EnumeratePersistence enumerates the TSO and SC runs of p as
// Persistence does and keeps them.
func EnumeratePersistence(p *prog.Program, b Budget) *PersistenceRuns {
	tso, sc, r := persistEnumerate(p, b, false)
	return &PersistenceRuns{Result: persistCompare(tso, sc, r), tso: tso, sc: sc}
}

// SCHasTrace reports whether some SC run has the trace of the computation
// on mc.
func (e *PersistenceRuns) SCHasTrace(mc *prog.Machine) bool {
	_, ok := e.sc.traces[persistTrace(mc)]
	return ok
}

// SameConfigs reports whether the plain configurations (control labels,
// registers, memory; every buffer empty) reachable under TSO are those
// reachable under SC. The paper's "strong persistence" (Section 6) says a
// persistent program passes. It is false when the enumeration ran out of
// budget (Result.Verdict Unknown).
func (e *PersistenceRuns) SameConfigs() bool {
	if e.Result.Verdict == prog.Unknown || len(e.tso.configs) != len(e.sc.configs) {
		return false
	}
	for c := range e.tso.configs {
		if !e.sc.configs[c] {
			return false
		}
	}
	return true
}

// persistRuns is what one enumeration collects: the trace of every
// complete run (with the events of the first run found for it) and every
// plain configuration.
type persistRuns struct {
	traces  map[string][]prog.Event
	configs map[string]bool
	s       *search[*prog.Machine]
}

// persistEnumerate enumerates the TSO runs of p, then its SC runs, within
// one budget; bounded cuts runs longer than b.MaxEvents instead of giving
// up. r is Unknown if a side stopped, else it holds the node count only.
func persistEnumerate(p *prog.Program, b Budget, bounded bool) (tso, sc *persistRuns, r Result) {
	deadline := b.deadline()
	for _, isSC := range []bool{false, true} {
		e := &persistRuns{traces: map[string][]prog.Event{}, configs: map[string]bool{},
			s: newSearch[*prog.Machine](b, deadline, "a run has more than %d events (a loop?)")}
		e.s.bounded = bounded
		e.s.key = func(mc *prog.Machine) string { return persistState(mc) + persistTrace(mc) }
		e.s.length = func(mc *prog.Machine) int { return len(mc.Events) }
		e.s.visit = e.visit
		e.s.moves = tsoMoves
		if isSC {
			e.s.moves = scMoves
		}
		e.s.explore(prog.NewMachine(p, prog.TSO))
		r.Nodes += e.s.nodes
		if e.s.stop != "" {
			r.Verdict, r.Reason = prog.Unknown, e.s.stop
			return nil, nil, r
		}
		if isSC {
			sc = e
		} else {
			tso = e
		}
	}
	return tso, sc, r
}

// visit records the trace and configuration of a complete run; the
// enumeration goes on to the end.
func (e *persistRuns) visit(mc *prog.Machine) bool {
	if mc.Quiescent() {
		tr := persistTrace(mc)
		if _, ok := e.traces[tr]; !ok {
			e.traces[tr] = mc.Events
		}
		e.configs[persistState(mc)] = true
	}
	return false
}

// tsoMoves are the steps of TSO: a thread executes an instruction, or the
// oldest store of its buffer reaches memory.
func tsoMoves(mc *prog.Machine, next func(*prog.Machine)) {
	for t, th := range mc.P.Threads {
		for _, k := range th.Out[mc.PC[t]] {
			if n := mc.Clone(); n.Exec(t, k) == nil {
				next(n)
			}
		}
		if _, all := mc.Pending(t); all {
			if n := mc.Clone(); n.Flush(t) == nil {
				next(n)
			}
		}
	}
}

// scMoves are the steps of SC on the same machine: every write reaches
// memory at once.
func scMoves(mc *prog.Machine, next func(*prog.Machine)) {
	for t, th := range mc.P.Threads {
		for _, k := range th.Out[mc.PC[t]] {
			n := mc.Clone()
			if n.Exec(t, k) != nil {
				continue
			}
			if th.Trans[k].Op == prog.OpWrite && n.Flush(t) != nil {
				continue
			}
			next(n)
		}
	}
}

// persistState encodes the machine's configuration: labels, registers,
// memory, lock and buffer contents.
func persistState(mc *prog.Machine) string {
	var b strings.Builder
	w := func(v int64) { b.WriteString(strconv.FormatInt(v, 10)); b.WriteByte(',') }
	for t := range mc.PC {
		w(int64(mc.PC[t]))
		for _, r := range mc.Regs[t] {
			w(r)
		}
		b.WriteByte('[')
		for _, en := range mc.Buffer(t) {
			w(int64(en.Cell))
			w(en.Val)
		}
		b.WriteString("]|")
	}
	for _, v := range mc.Mem {
		w(v)
	}
	w(int64(mc.Lock))
	return b.String()
}

// persistTrace encodes the trace so far (Section 6): per thread its reads
// and writes (instruction, address, value) in order, and the store order
// as the sequence of threads whose updates landed. Buffers are FIFO under
// TSO and SC alike, so a thread's k-th update is its k-th write: the
// thread names the update, as ud_p(x, v) does in the paper.
func persistTrace(mc *prog.Machine) string {
	var b strings.Builder
	w := func(v int64) { b.WriteString(strconv.FormatInt(v, 10)); b.WriteByte(',') }
	for t := range mc.PC {
		b.WriteByte('#')
		for _, ev := range mc.Events {
			if ev.Thread == t {
				w(int64(ev.Kind))
				w(int64(ev.Trans))
				w(int64(ev.Cell))
				w(ev.Val)
			}
		}
	}
	order := make([]int64, 0, len(mc.Events))
	for _, ev := range mc.Events {
		if ev.Kind == prog.EvStore && ev.Land >= 0 {
			for int64(len(order)) <= int64(ev.Land) {
				order = append(order, -1)
			}
			order[ev.Land] = int64(ev.Thread)
		}
	}
	b.WriteString("#so")
	for _, t := range order {
		w(t)
	}
	return b.String()
}
