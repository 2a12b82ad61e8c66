package tso

import (
	"github.com/pgasrob/pgasrob/automata"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Persistence (persistence-fences.md, Sections 6-8).
//
// A complete run is persistent if some SC run has its trace: the program
// order of every thread (its reads and writes with their values) and the
// store order (all memory updates, in order). Theorem 1 reduces the
// existence of a fragile run to that of an SC run of type ⋆ with pivot p:
//
//	π1 · e1 u1 · π3 · e2 u2
//
// (i) SC; (ii) e1 a write of p to y, u1 its update; (iii) π3 only reads,
// locals, checks and noops of p; (iv) e2 u2 a write of another thread r to
// x ≠ y with a value v' ≠ v; (v) a read e of p from x with value v is
// enabled after π1·e1·u1·π3. Witness(π) = π1·e1·π3·e·e2·u2·u1 is then a
// fragile TSO run.
//
// A pattern is the Attack {Thread: p, Store: e1's instruction, Last: e's
// instruction}. Each is decided by SC reachability of the program with
// persistence roles (persistRole), in the phases of Section 8 but as
// roles and state fields of the SC system rather than extra instructions
// (like robustness): phase 0 runs π1; e1 starts phase 1, in which only p
// runs the π3 copy of its code; e records x and v and starts phase 2, in
// which the other threads run; the goal is reached when the memory holds a
// value other than v at x and no thread holds the lock.
//
// Phase 2 is wider than Π⋆ (iv), which allows exactly one write e2·u2: any
// SC run ρ of the other threads is allowed. This is needed for Trencher's
// locked sections (and would be for the paper's arw): a thread whose only
// write to x sits in "lock; read x; write x; unlock" cannot make e2 the
// very next move after π3, and it cannot run its lock before e1 either (p
// could not run then), so no run of type ⋆ exists although
// π1·e1·π3·e·lock·rd·wr·ud·unlock·u1 is fragile. Theorem 1's "if" direction
// thus fails for atomic read-writes of the fringe (a deviation, in
// docs/deviations.md). Soundness of the wider goal: let ρ be any SC run of
// the fringe threads after e with the lock free at its end, and
// W = π1·e1·π3·e·ρ·u1 (a complete TSO run: p's buffer holds only e1, since
// π3 has no writes, and u1 may land once the lock is free). u1 is the last
// update of W. In an SC run with the trace of W, e1 is followed at once by
// u1, which is last in the store order, and e comes after e1 in program
// order; so e runs after every update and reads the final value of x,
// which is mem(x) after ρ ≠ v. But e reads v in W: no SC run has W's
// trace. For lock-free programs the wider goal adds nothing (ρ = e2·u2 is
// one of its runs, and Theorem 1 says type ⋆ runs are complete); the
// differential tests against the oracle check completeness in general.
//
// Where e reads: x ≠ y and π3 has no writes, so in W p's buffer holds no
// store to x and e reads memory; the memory at that point is the memory
// after π1 (e1 is still buffered, π3 writes nothing), which is what the SC
// system holds when e is taken. v is that value.
//
// The SC system keeps the TSO memory of W throughout: y keeps its old
// value in memory until u1 (which lands after the goal), and p's own reads
// of y in π3 see the buffered value of e1 (persistY/persistYVal), as the
// TSO semantics has it. The type ⋆ run of the paper lands u1 at once
// instead; p sees the same values either way, and the fringe threads of
// phase 2 must see the old y, since u1 has not landed in W.

// Roles of the persistence instrumentation (rExt .. rExt+4).
const (
	rPerPhase0 = rExt + iota // π1: any thread, SC, while the phase is 0
	rPerE1                   // e1: p's write is buffered; phase 1 starts
	rPerPi3                  // π3: p's reads, locals, checks, noops
	rPerE                    // e: p's read of x ≠ y; records x, v; phase 2 starts
	rPerPhase2               // ρ: the other threads, SC, in phase 2
)

func init() {
	criteria[Persistence] = &criterionDef{
		attacks:    persistAttacks,
		instrument: persistInstrument,
		witness:    persistWitness,
		replay:     persistReplay,
		oracle:     oracle.Persistence,
	}
	for r, n := range map[role]string{rPerPhase0: "persist-phase0", rPerE1: "persist-e1", rPerPi3: "persist-pi3",
		rPerE: "persist-e", rPerPhase2: "persist-phase2"} {
		extRoleNames[r] = n
	}
}

// pi3Op says whether an instruction may occur in π3 (Π⋆ (iii)): no write,
// no fence that waits for the buffer, no lock or unlock. An address-list
// fence constrains nothing under TSO (the machine runs it as a no-op), so
// it is an internal event like a noop.
func pi3Op(o prog.Op) bool {
	switch o {
	case prog.OpRead, prog.OpLocal, prog.OpCheck, prog.OpNoop, prog.OpFence:
		return true
	}
	return false
}

// pi3Reach[q] is the set of labels reachable from q by π3 instructions.
func pi3Reach(th *prog.Thread) [][]bool { return reachVia(th, pi3Op) }

// persistAttacks lists the patterns (p, e1, e): every write e1 and read e
// of one thread. A pattern is refuted syntactically when no π3 path leads
// from e1's target to e's source, when e1 and e name the same constant
// address (Π⋆ (ii) wants x ≠ y), or when no other thread has a write that
// can reach e's address (no run ρ can change x).
//
// FindFences needs, of a feasible pattern (p, e1, e), that every fence set
// avoiding the locations on fence-free paths of p from e1's target to e's
// source keeps it feasible. It does: e1, the π3 instructions and e all
// leave locations on such a path (π3 crosses no mfence, sfence, lock or
// unlock), so a fence set avoiding them keeps those transitions as they
// are; any other fence of p runs in π1, where p is SC (its buffer is
// empty, the fence is a no-op), and every fence of another thread runs in
// π1 or ρ, both SC. The goal-reaching path is thus still a path of the
// fenced program's instrumentation.
//
// Check refuses persistence under PSO (the pattern theorem is for TSO).
func persistAttacks(p *prog.Program, m prog.Model) (attacks []Attack, refuted []bool) {
	for ti, th := range p.Threads {
		reach := pi3Reach(th)
		for si, st := range th.Trans {
			if st.Op != prog.OpWrite {
				continue
			}
			for li, lt := range th.Trans {
				if lt.Op != prog.OpRead {
					continue
				}
				attacks = append(attacks, Attack{Thread: ti, Store: si, Last: li})
				y, yc := st.Addr.Const()
				x, xc := lt.Addr.Const()
				ref := !reach[st.To][lt.From] || yc && xc && x == y || !otherWriter(p, ti, lt.Addr)
				refuted = append(refuted, ref)
			}
		}
	}
	return attacks, refuted
}

// otherWriter reports whether a thread other than ti has a write that may
// go to the address of addr.
func otherWriter(p *prog.Program, ti int, addr *prog.Expr) bool {
	a, ac := addr.Const()
	for tj, th := range p.Threads {
		if tj == ti {
			continue
		}
		for _, t := range th.Trans {
			if t.Op != prog.OpWrite {
				continue
			}
			if b, bc := t.Addr.Const(); !ac || !bc || a == b {
				return true
			}
		}
	}
	return false
}

// persistInstrument builds the threads of one pattern. Labels 0..L-1 of
// every thread are its code in phases 0 and 2; the pivot's copy L..2L-1 is
// π3, and 2L is where it stops after e.
func persistInstrument(p *prog.Program, a Attack, shape Attacker) ([]ithread, sysExt) {
	out := make([]ithread, len(p.Threads))
	for ti, th := range p.Threads {
		L := len(th.Labels)
		it := ithread{labels: L}
		for k, t := range th.Trans {
			it.add(t.From, t.To, rPerPhase0, k)
			if ti != a.Thread {
				it.add(t.From, t.To, rPerPhase2, k)
			}
		}
		if ti == a.Thread {
			it.labels = 2*L + 1
			st, last := th.Trans[a.Store], th.Trans[a.Last]
			it.add(st.From, L+st.To, rPerE1, a.Store)
			for k, t := range th.Trans {
				if pi3Op(t.Op) {
					it.add(L+t.From, L+t.To, rPerPi3, k)
				}
			}
			it.add(L+last.From, 2*L, rPerE, a.Last)
		}
		it.index()
		out[ti] = it
	}
	return out, &persistExt{}
}

// persistExt holds the state of the phases: the phase, y's cell and the
// value e1 buffered for it, x's cell and the value v e read.
type persistExt struct {
	phase, y, yVal, x, v automata.Field
}

func (e *persistExt) layout(s *scSystem, l *automata.Layout) {
	nc := automata.BitsFor(len(s.p.Cells))
	e.phase = l.Field(2)
	e.y, e.x = l.Field(nc), l.Field(nc)
	e.yVal, e.v = l.Field(s.vbits), l.Field(s.vbits)
}

func (e *persistExt) exec(s *scSystem, ti int, it *itrans, t *prog.Trans, regs []int64) bool {
	b := s.buf
	switch it.role {
	case rPerPhase0:
		return e.phase.Get(b) == 0 && s.plain(ti, t, regs)
	case rPerPhase2:
		return e.phase.Get(b) == 2 && s.plain(ti, t, regs)
	case rPerE1:
		c, ok := s.cell(t.Addr, regs)
		if !ok || e.phase.Get(b) != 0 {
			return false
		}
		e.y.Set(b, uint64(c))
		e.phase.Set(b, 1)
		return s.put(e.yVal, t.Val.Eval(regs))
	case rPerPi3:
		if t.Op != prog.OpRead {
			return s.plain(ti, t, regs)
		}
		c, ok := s.cell(t.Addr, regs)
		if !ok {
			return false
		}
		v := s.get(s.mem[c], b)
		if uint64(c) == e.y.Get(b) {
			v = s.get(e.yVal, b) // p's own buffered store
		}
		return s.put(s.regs[ti][t.Reg], v)
	case rPerE:
		c, ok := s.cell(t.Addr, regs)
		if !ok || uint64(c) == e.y.Get(b) {
			return false
		}
		e.x.Set(b, uint64(c))
		e.phase.Set(b, 2)
		return s.put(e.v, s.get(s.mem[c], b))
	}
	return false
}

func (e *persistExt) accepting(s *scSystem, st automata.State) bool {
	if e.phase.Get(st) != 2 || s.lock.Get(st) != 0 {
		return false
	}
	return s.get(s.mem[e.x.Get(st)], st) != s.get(e.v, st)
}

// The partial-order reduction of por.go is argued for the robustness
// goal; it stays off here.
func (e *persistExt) reducible() bool { return false }
