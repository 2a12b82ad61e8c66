package tso

import (
	"fmt"

	"github.com/pgasrob/pgasrob/automata"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// Access levels of the auxiliary addresses (x,hb), ordered as in Section
// 5.2 of tso-robustness-attacks.md: no access < load access < store access.
const (
	lvNone  = 0
	lvLoad  = 1
	lvStore = 2
)

// scSystem runs a (possibly instrumented) program under SC as an
// automata.System. A state packs, per thread, the control label and the
// live registers; per cell the memory value; and for instrumented programs
// the auxiliary addresses of the papers: the buffered value (x,d) with its
// "set" bit, the access level (x,hb), the flag hb, the attacker's registers
// r_stA (a cell), r_delayval and r_fence, and the owner of the lock.
type scSystem struct {
	p       *prog.Program
	threads []ithread
	shape   Attacker
	attack  bool
	vbits   int
	live    [][][]bool // live[t][label][reg]
	// reducible[t][label] marks the labels where the partial-order
	// reduction expands thread t alone (por.go); nil: no reduction.
	reducible [][]bool

	pc     []automata.Field
	regs   [][]automata.Field
	mem    []automata.Field
	bufSet []automata.Field
	bufVal []automata.Field
	level  []automata.Field
	hb     automata.Field
	lock   automata.Field
	stAddr automata.Field
	delay  automata.Field
	rFence automata.Field
	width  int
	// chosen is the combined instrumentation's "an attacker has started"
	// bit (combined.go); combined says the system has it.
	chosen   automata.Field
	combined bool
	// frozen threads never move (stages.go); nil: none.
	frozen []bool

	// Trouble found while exploring: a value that does not fit vbits, or
	// an address outside the memory. Either makes an empty answer unsound.
	overflow bool
	badAddr  string

	// ext holds a criterion's own fields, roles and goal (criterion.go);
	// nil for robustness and plain SC runs.
	ext sysExt

	buf     automata.State
	scratch []int64
	// cellAt[a] is the cell of address a, or -1: a slice lookup instead of
	// Program.CellOf's map, which showed in profiles of small searches.
	cellAt []int32
	// forks made for a parallel search; gather takes over their trouble.
	forks []*scSystem
}

// Fork is a copy for another goroutine of the parallel search
// (automata.Forker): everything but the scratch space and the trouble
// flags is read-only once built. The original's gather collects the
// forks' trouble after the search.
func (s *scSystem) Fork() automata.System {
	f := *s
	f.buf = make(automata.State, s.width)
	f.scratch = make([]int64, len(s.scratch))
	f.overflow, f.badAddr, f.forks = false, "", nil
	s.forks = append(s.forks, &f)
	return &f
}

// gather takes over the overflow and bad-address findings of the forks
// once they have stopped (the first bad address of the lowest fork if the
// original found none: the message then names some bad address the
// search met, not necessarily the first in the sequential order).
func (s *scSystem) gather() {
	for _, f := range s.forks {
		s.overflow = s.overflow || f.overflow
		if s.badAddr == "" {
			s.badAddr = f.badAddr
		}
	}
	s.forks = nil
}

func newSCSystem(p *prog.Program, threads []ithread, shape Attacker, attack bool, vbits int) *scSystem {
	return newSCSystemExt(p, threads, shape, attack, nil, vbits)
}

// newSCSystemExt is newSCSystem with a criterion's extension; with one,
// attack must be false (the robustness fields are not needed).
func newSCSystemExt(p *prog.Program, threads []ithread, shape Attacker, attack bool, ext sysExt, vbits int) *scSystem {
	s := &scSystem{p: p, threads: threads, shape: shape, attack: attack, vbits: vbits, ext: ext}
	var l automata.Layout
	for ti, th := range p.Threads {
		s.pc = append(s.pc, l.Field(automata.BitsFor(threads[ti].labels)))
		s.regs = append(s.regs, l.Fields(len(th.Regs), vbits))
		s.live = append(s.live, liveRegs(th, threads[ti].labels, attack && threads[ti].labels == 2*len(th.Labels)+1))
	}
	nc := len(p.Cells)
	s.mem = l.Fields(nc, vbits)
	if attack {
		if shape != AttackerSingularity {
			s.bufSet = l.Fields(nc, 1)
			s.bufVal = l.Fields(nc, vbits)
		}
		s.level = l.Fields(nc, 2)
		s.hb = l.Field(1)
		s.stAddr = l.Field(automata.BitsFor(nc))
		if shape == AttackerSingularity {
			s.delay = l.Field(vbits)
		}
		if shape == AttackerLocality {
			s.rFence = l.Field(1)
		}
		if s.combined = choosesAttack(threads); s.combined {
			s.chosen = l.Field(1)
		}
	}
	if ext != nil {
		ext.layout(s, &l)
	}
	s.lock = l.Field(automata.BitsFor(len(p.Threads) + 1))
	if attack || ext != nil && ext.reducible() {
		// Only the instrumented programs' goal ignores the control
		// labels; reachSC's accept tests them, so it is never reduced.
		s.reducible = planPOR(p, threads)
	}
	s.width = l.Words()
	s.buf = make(automata.State, s.width)
	max := 0
	for _, th := range p.Threads {
		if len(th.Regs) > max {
			max = len(th.Regs)
		}
	}
	s.scratch = make([]int64, max)
	if n := len(p.Cells); n > 0 && p.Cells[n-1] < 1<<16 && p.Cells[0] >= 0 {
		s.cellAt = make([]int32, p.Cells[n-1]+1)
		for a := range s.cellAt {
			s.cellAt[a] = -1
		}
		for c, a := range p.Cells {
			s.cellAt[a] = int32(c)
		}
	}
	return s
}

// liveRegs is the classic backward liveness analysis on a thread's control
// flow, extended to the instrumented labels: a copy label has the liveness
// of its original, the attacker's wait label has none. Clearing dead registers keeps
// states that differ only in values nobody reads from being told apart.
func liveRegs(th *prog.Thread, labels int, attacker bool) [][]bool {
	L := len(th.Labels)
	live := make([][]bool, L)
	for q := range live {
		live[q] = make([]bool, len(th.Regs))
	}
	for changed := true; changed; {
		changed = false
		for _, t := range th.Trans {
			for r := range th.Regs {
				if live[t.From][r] {
					continue
				}
				used := false
				for _, e := range []*prog.Expr{t.Addr, t.Val} {
					if e != nil && e.UsesReg(r) {
						used = true
					}
				}
				for _, e := range t.Addrs {
					if e.UsesReg(r) {
						used = true
					}
				}
				if used || (live[t.To][r] && t.Reg != r) {
					live[t.From][r] = true
					changed = true
				}
			}
		}
	}
	out := make([][]bool, labels)
	for q := 0; q < labels; q++ {
		if !attacker || q < 2*L {
			out[q] = live[q%L]
		} else {
			out[q] = make([]bool, len(th.Regs))
		}
	}
	return out
}

func (s *scSystem) Width() int { return s.width }

func (s *scSystem) Initial(emit func(automata.State)) {
	st := make(automata.State, s.width)
	for ti, th := range s.p.Threads {
		s.pc[ti].Set(st, uint64(th.Init))
	}
	emit(st)
}

func (s *scSystem) Accepting(st automata.State) bool {
	if s.ext != nil {
		return s.ext.accepting(s, st)
	}
	// A helper inside a locked section would keep the delayed stores from
	// reaching memory, so the cycle is only complete once the lock is free.
	if !s.attack || s.hb.Get(st) == 0 || s.lock.Get(st) != 0 {
		return false
	}
	return s.level[s.stAddr.Get(st)].Get(st) != lvNone
}

// Labels of the SC system name the thread and the instrumented transition.
func scLabel(thread, trans int) automata.Label {
	return automata.Label(thread)<<32 | automata.Label(trans)
}

func splitLabel(l automata.Label) (thread, trans int) { return int(l >> 32), int(l & 0xffffffff) }

func (s *scSystem) Successors(st automata.State, emit func(automata.Label, automata.State)) {
	owner := int(s.lock.Get(st)) - 1
	if owner < 0 && s.reducible != nil {
		for ti := range s.threads {
			if s.reducible[ti][s.pc[ti].Get(st)] && !s.isFrozen(ti) && s.expand(ti, st, emit) > 0 {
				return
			}
		}
	}
	for ti := range s.threads {
		if owner >= 0 && owner != ti || s.isFrozen(ti) {
			continue
		}
		s.expand(ti, st, emit)
	}
}

func (s *scSystem) isFrozen(ti int) bool { return s.frozen != nil && s.frozen[ti] }

// expand emits the successors of st by thread ti and returns their number.
func (s *scSystem) expand(ti int, st automata.State, emit func(automata.Label, automata.State)) int {
	q := int(s.pc[ti].Get(st))
	regs := s.scratch[:len(s.regs[ti])]
	for r, f := range s.regs[ti] {
		regs[r] = s.get(f, st)
	}
	n := 0
	for _, k := range s.threads[ti].out[q] {
		it := &s.threads[ti].trans[k]
		copy(s.buf, st)
		if !s.exec(ti, it, regs) {
			continue
		}
		s.pc[ti].Set(s.buf, uint64(it.to))
		live := s.live[ti][it.to]
		for r, f := range s.regs[ti] {
			if !live[r] {
				f.Set(s.buf, 0)
			}
		}
		emit(scLabel(ti, int(k)), s.buf)
		n++
	}
	return n
}

func (s *scSystem) get(f automata.Field, st automata.State) int64 {
	v := f.Get(st)
	sh := 64 - uint(s.vbits)
	return int64(v<<sh) >> sh
}

// put stores v into field f of the successor, or records an overflow.
func (s *scSystem) put(f automata.Field, v int64) bool {
	lim := int64(1) << uint(s.vbits-1)
	if v < -lim || v >= lim {
		s.overflow = true
		return false
	}
	f.Set(s.buf, uint64(v))
	return true
}

func (s *scSystem) cell(e *prog.Expr, regs []int64) (int, bool) {
	a := e.Eval(regs)
	if a >= 0 && a < int64(len(s.cellAt)) && s.cellAt[a] >= 0 {
		return int(s.cellAt[a]), true
	}
	c, ok := s.p.CellOf(a)
	if !ok && s.badAddr == "" {
		s.badAddr = fmt.Sprintf("%v: address %d is outside the memory", e.Pos, a)
	}
	return c, ok
}

// plain executes an original instruction under SC on s.buf.
func (s *scSystem) plain(ti int, t *prog.Trans, regs []int64) bool {
	switch t.Op {
	case prog.OpRead:
		c, ok := s.cell(t.Addr, regs)
		return ok && s.put(s.regs[ti][t.Reg], s.get(s.mem[c], s.buf))
	case prog.OpWrite:
		c, ok := s.cell(t.Addr, regs)
		return ok && s.put(s.mem[c], t.Val.Eval(regs))
	case prog.OpLocal:
		return s.put(s.regs[ti][t.Reg], t.Val.Eval(regs))
	case prog.OpCheck:
		return t.Val.Eval(regs) != 0
	case prog.OpLock:
		if s.lock.Get(s.buf) != 0 {
			return false
		}
		s.lock.Set(s.buf, uint64(ti+1))
	case prog.OpUnlock:
		if s.lock.Get(s.buf) != uint64(ti+1) {
			return false
		}
		s.lock.Set(s.buf, 0)
	case prog.OpFence:
		for _, e := range t.Addrs {
			if _, ok := s.cell(e, regs); !ok {
				return false
			}
		}
	}
	return true
}

func (s *scSystem) exec(ti int, it *itrans, regs []int64) bool {
	t := &s.p.Threads[ti].Trans[it.orig]
	b := s.buf
	switch it.role {
	case rExec:
		return s.plain(ti, t, regs)
	case rHelperPre:
		return s.hb.Get(b) == 0 && s.plain(ti, t, regs)
	case rHelperLock:
		return s.hb.Get(b) != 0 && s.plain(ti, t, regs)
	case rHelperTent:
		if t.Op == prog.OpRead || t.Op == prog.OpWrite {
			c, ok := s.cell(t.Addr, regs)
			if !ok {
				return false
			}
			lv := s.level[c].Get(b)
			if t.Op == prog.OpRead && lv == lvStore || t.Op == prog.OpWrite && lv >= lvLoad {
				return false // dependent: rHelperEnter takes it
			}
		}
		return s.plain(ti, t, regs)
	case rHelperEnter, rHelperCopy:
		c := -1
		if t.Op == prog.OpRead || t.Op == prog.OpWrite {
			var ok bool
			if c, ok = s.cell(t.Addr, regs); !ok {
				return false
			}
		}
		lv := -1
		if c >= 0 {
			lv = int(s.level[c].Get(b))
		}
		if it.role == rHelperEnter {
			if t.Op == prog.OpRead && lv != lvStore || t.Op == prog.OpWrite && lv < lvLoad {
				return false
			}
		}
		if !s.plain(ti, t, regs) {
			return false
		}
		switch {
		case t.Op == prog.OpWrite:
			s.level[c].Set(b, lvStore)
		case t.Op == prog.OpRead && lv < lvLoad:
			s.level[c].Set(b, lvLoad)
		}
		return true
	case rAttStart:
		if s.combined && !s.choose() {
			return false
		}
		c, ok := s.cell(t.Addr, regs)
		if !ok {
			return false
		}
		s.stAddr.Set(b, uint64(c))
		v := t.Val.Eval(regs)
		if s.shape == AttackerSingularity {
			return s.put(s.delay, v)
		}
		s.bufSet[c].Set(b, 1)
		return s.put(s.bufVal[c], v)
	case rAttLast:
		c, ok := s.cell(t.Addr, regs)
		if !ok || !s.notBuffered(c) {
			return false
		}
		if t.Op == prog.OpWrite {
			if s.shape == AttackerLocality && s.rFence.Get(b) != 0 {
				return false
			}
			if !s.put(s.mem[c], t.Val.Eval(regs)) {
				return false
			}
			s.level[c].Set(b, lvStore)
		} else {
			s.level[c].Set(b, lvLoad)
		}
		s.hb.Set(b, 1)
		return true
	case rAttCopy:
		switch t.Op {
		case prog.OpRead:
			c, ok := s.cell(t.Addr, regs)
			if !ok {
				return false
			}
			var v int64
			switch {
			case s.shape == AttackerSingularity && int(s.stAddr.Get(b)) == c:
				v = s.get(s.delay, b)
			case s.shape != AttackerSingularity && s.bufSet[c].Get(b) != 0:
				v = s.get(s.bufVal[c], b)
			default:
				v = s.get(s.mem[c], b)
			}
			return s.put(s.regs[ti][t.Reg], v)
		case prog.OpWrite:
			c, ok := s.cell(t.Addr, regs)
			if !ok {
				return false
			}
			s.bufSet[c].Set(b, 1)
			return s.put(s.bufVal[c], t.Val.Eval(regs))
		}
		return s.plain(ti, t, regs)
	case rAttDirect:
		if t.Op == prog.OpFence {
			for _, e := range t.Addrs {
				c, ok := s.cell(e, regs)
				if !ok || s.bufSet[c].Get(b) != 0 {
					return false
				}
			}
			return true
		}
		c, ok := s.cell(t.Addr, regs)
		if !ok || !s.notBuffered(c) {
			return false
		}
		if s.shape == AttackerLocality && s.rFence.Get(b) != 0 {
			return false
		}
		return s.put(s.mem[c], t.Val.Eval(regs))
	case rAttFenceDelay:
		for _, e := range t.Addrs {
			if _, ok := s.cell(e, regs); !ok {
				return false
			}
		}
		s.rFence.Set(b, 1)
		return true
	}
	if it.role >= rExt && s.ext != nil {
		return s.ext.exec(s, ti, it, t, regs)
	}
	return false
}

// notBuffered reports that the attacker holds no delayed store to cell c.
func (s *scSystem) notBuffered(c int) bool {
	if s.shape == AttackerSingularity {
		return int(s.stAddr.Get(s.buf)) != c
	}
	return s.bufSet[c].Get(s.buf) == 0
}
