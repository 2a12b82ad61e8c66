package tso

import (
	"github.com/pgasrob/pgasrob/automata"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Triangular-race freedom (Owens, ECOOP 2010; docs/criteria.md).
//
// Definition as implemented. In an SC run, a write of thread t is pending
// from its execution until t next executes mfence, sfence, lock or unlock
// (an address-list fence does not drain a TSO buffer, so it does not end
// it). A triangular race is a read of x by t, outside a locked section,
// while a write of t to some y != x is pending, that forms a data race
// with a write of x by another thread u: the two are adjacent in the run,
// a locked section of u counting as one atomic step. A program is
// triangular-race free when no SC run has one.
//
// Patterns. A pattern is Attack{t, Store: the pending write, Last: the
// read}. It is feasible iff this instrumented program reaches its goal
// under SC: t runs its code until it executes Store (role trfPend, which
// records the cell y written and moves t to the copy of its code), runs
// the copy (every instruction but mfence, sfence, lock and unlock, which
// would end the pending state), and executes Last (trfRead) only if the
// cell x it reads is not y; t then stops for good. The other threads run
// their code throughout, and a write of x by one of them after the read
// (trfRace) is the goal.
//
// Why "a later write of x while t stays stopped" is the adjacency of the
// definition: let the run be ρ·r·σ·w with r the read and w the first
// write of x after it by another thread, σ free of t's steps. Moving r to
// just before w (or before the lock of w's locked section) changes nothing
// observable: r reads the same value, since σ writes no x, and only t's
// registers see it; σ's steps do not depend on t. If the lock is free at r
// it is free again at w's section's start, so r stays enabled there. So
// the race is adjacent. Conversely an adjacent pair w·r (write first) can
// be swapped: before w, r was enabled (w changes nothing of t, and the lock
// was free), and w stays enabled after r. The oracle (tso/oracle/trf.go)
// checks adjacency itself, so the differential tests check this argument.
//
// Store and Last may have other writes of t between them: any pending
// write to an address other than x makes the race, so the pattern of the
// oldest such write covers the others.
//
// Fence insertion (fences.go) is valid for these patterns: in a feasible
// pattern's run, t goes from Store's target to Last's source through its
// pending copy, which has no draining instruction, so on locations of a
// fence-free path between them. A fence set avoiding those locations keeps
// that stretch; its mfences elsewhere are no-ops under SC (the other
// threads, t before Store), so the same run with those mfence steps added
// is a run of the fenced program and still ends in the race.

// Roles of the TRF instrumentation (rExt+16 ..; rExt .. rExt+15 belong to
// persistence).
const (
	rTRFPend = rExt + 16 + iota // t's pattern write: record y, enter the pending copy
	rTRFCopy                    // t in the pending copy: run the instruction under SC
	rTRFRead                    // t's pattern read of x != y: record x, stop t
	rTRFRace                    // another thread writes x after the read: the goal
)

func init() {
	extRoleNames[rTRFPend] = "trf-pending-write"
	extRoleNames[rTRFCopy] = "trf-pending"
	extRoleNames[rTRFRead] = "trf-read"
	extRoleNames[rTRFRace] = "trf-racing-write"
	criteria[TRF] = &criterionDef{
		attacks:    trfPatterns,
		instrument: trfInstrument,
		witness:    trfWitness,
		replay:     trfReplay,
		oracle:     oracle.TRF,
	}
}

// trfPatterns lists the pairs (write, later read) of each thread. A pair
// is refuted syntactically when every path from the write to the read
// crosses mfence, sfence, lock or unlock (the write cannot be pending at
// the read); when both addresses are the same constant (x != y fails);
// or when no other thread has a write that may reach the read's address.
// The model plays no part: the criterion is about SC runs.
func trfPatterns(p *prog.Program, m prog.Model) (attacks []Attack, refuted []bool) {
	for ti, th := range p.Threads {
		reach := fenceFree(th)
		for si, st := range th.Trans {
			if st.Op != prog.OpWrite {
				continue
			}
			for li, ld := range th.Trans {
				if ld.Op != prog.OpRead {
					continue
				}
				attacks = append(attacks, Attack{Thread: ti, Store: si, Last: li})
				ref := !reach[st.To][ld.From] || !writtenByOthers(p, ti, ld.Addr)
				if y, ok := st.Addr.Const(); ok {
					if x, ok := ld.Addr.Const(); ok && x == y {
						ref = true
					}
				}
				refuted = append(refuted, ref)
			}
		}
	}
	return attacks, refuted
}

// writtenByOthers reports whether a thread other than t has a write that
// may store to address a (a constant, or anything when a is not).
func writtenByOthers(p *prog.Program, t int, a *prog.Expr) bool {
	x, xc := a.Const()
	for ui, th := range p.Threads {
		if ui == t {
			continue
		}
		for _, w := range th.Trans {
			if w.Op != prog.OpWrite {
				continue
			}
			if y, yc := w.Addr.Const(); !xc || !yc || x == y {
				return true
			}
		}
	}
	return false
}

// trfInstrument builds the instrumented threads of pattern a: t with its
// code (labels 0..L-1), the pending copy (L..2L-1) and the stop label 2L;
// the others with their code and the racing-write role beside each write.
func trfInstrument(p *prog.Program, a Attack, _ Attacker) ([]ithread, sysExt) {
	out := make([]ithread, len(p.Threads))
	for ti, th := range p.Threads {
		L := len(th.Labels)
		it := ithread{labels: L}
		for k, t := range th.Trans {
			it.add(t.From, t.To, rExec, k)
		}
		if ti == a.Thread {
			it.labels = 2*L + 1
			st, ld := th.Trans[a.Store], th.Trans[a.Last]
			it.add(st.From, L+st.To, rTRFPend, a.Store)
			for k, t := range th.Trans {
				if !t.Op.IsFull() {
					it.add(L+t.From, L+t.To, rTRFCopy, k)
				}
			}
			it.add(L+ld.From, 2*L, rTRFRead, a.Last)
		} else {
			for k, t := range th.Trans {
				if t.Op == prog.OpWrite {
					it.add(t.From, t.To, rTRFRace, k)
				}
			}
		}
		it.index()
		out[ti] = it
	}
	return out, &trfExt{}
}

// trfExt holds the cells y (pending write) and x (read), whether the read
// happened, and whether the racing write did (the goal).
type trfExt struct {
	y, x, read, raced automata.Field
}

func (e *trfExt) layout(s *scSystem, l *automata.Layout) {
	nc := len(s.p.Cells)
	e.y = l.Field(automata.BitsFor(nc))
	e.x = l.Field(automata.BitsFor(nc))
	e.read = l.Field(1)
	e.raced = l.Field(1)
}

func (e *trfExt) exec(s *scSystem, ti int, it *itrans, t *prog.Trans, regs []int64) bool {
	b := s.buf
	switch it.role {
	case rTRFPend:
		c, ok := s.cell(t.Addr, regs)
		if !ok || !s.plain(ti, t, regs) {
			return false
		}
		e.y.Set(b, uint64(c))
		return true
	case rTRFCopy:
		return s.plain(ti, t, regs)
	case rTRFRead:
		c, ok := s.cell(t.Addr, regs)
		if !ok || uint64(c) == e.y.Get(b) || !s.plain(ti, t, regs) {
			return false
		}
		e.x.Set(b, uint64(c))
		e.read.Set(b, 1)
		return true
	case rTRFRace:
		if e.read.Get(b) == 0 {
			return false
		}
		c, ok := s.cell(t.Addr, regs)
		if !ok || uint64(c) != e.x.Get(b) || !s.plain(ti, t, regs) {
			return false
		}
		e.raced.Set(b, 1)
		return true
	}
	return false
}

func (e *trfExt) accepting(s *scSystem, st automata.State) bool { return e.raced.Get(st) != 0 }

// reducible: por.go's argument carries over. Its private transitions
// (by instruction and address) touch the TRF fields only as follows. t's
// pattern write records y, which only t's own pattern read tests. t's
// pattern read of a cell that t owns or nobody writes sets x and the read
// flag, but then no other thread can ever write x, so the racing-write
// guards are false before and after it, and the goal is unreachable in
// both graphs. A racing write on a private cell never fires: x is read by
// t, so a cell owned by another thread (or never written) is never x.
// The reduced graph is a subgraph, so a goal found there is real; the
// differential tests against the oracle run with the reduction on.
func (e *trfExt) reducible() bool { return true }
