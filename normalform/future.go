package normalform

import (
	"github.com/bits-and-blooms/bitset"

	"github.com/pgasrob/pgasrob/pgas"
)

// Future summarises, for every rank and control state, which cells the
// rank may still access from there (by its own loads and stores, by its
// atomics and by the pops of the remote commands it may still issue) and whether it may still
// take part in a barrier. Expressions that do not read registers are
// evaluated exactly (rank and N are known); the others stand for every
// address or every rank. Consumers use it to drop guesses that can no
// longer be completed, which never changes a verdict.
type Future struct {
	cells   [][][]uint64 // cells[r-1][q]: bit set over (rank-1)*|ADR| + addr
	reads   [][][]uint64 // reads[r-1][q]: the cells whose value the rank may still read
	trans   [][][]uint64 // trans[r-1][t]: the cells transition t may touch when rank r runs it
	stores  [][][]uint64 // stores[r-1][q]: the cells the rank may still store to (settled.go)
	pops    [][][]uint64 // pops[r-1][q]: the cells the pops of the rank's remote commands may still touch
	popbDst []uint64     // the cells some popb (of any rank's remote command) or atomic may write
	barrier []bool       // barrier[q]: a barrier is reachable from q
	Words   int          // words per cell set
}

// Cells returns the cell set of rank r at control state q.
func (f *Future) Cells(r, q int) []uint64 { return f.cells[r-1][q] }

// Reads returns the cells whose current value rank r may still read from
// control state q: by a load, or as the source of a remote command (Y
// copies the value when the command executes, for a popb in part 1).
func (f *Future) Reads(r, q int) []uint64 { return f.reads[r-1][q] }

// TransCells returns the cells transition t may touch when rank r runs it.
func (f *Future) TransCells(r, t int) []uint64 { return f.trans[r-1][t] }

// Pops returns the cells that the popa and popb of the remote commands
// rank r may still issue from control state q may touch: the only events
// that can fall in parts 2–4.
func (f *Future) Pops(r, q int) []uint64 { return f.pops[r-1][q] }

// Barrier reports whether a barrier is reachable from q.
func (f *Future) Barrier(q int) bool { return f.barrier[q] }

// Future returns the summary for y's program and N, computed once by New.
func (y *Y) Future() *Future { return y.future }

func computeFuture(y *Y) *Future {
	p, n := y.P, y.N
	na := len(p.Addrs)
	cells := n * na
	f := &Future{Words: (cells + 63) / 64, barrier: make([]bool, len(p.Labels))}
	f.popbDst = make([]uint64, f.Words)
	set := func(s []uint64, c int) { bitset.From(s).Set(uint(c)) }
	for r := 1; r <= n; r++ {
		env := pgas.Env{Rank: int64(r), N: int64(n)}
		ranks := func(e *pgas.Expr) []int {
			if len(e.Regs()) == 0 {
				if v, err := e.Eval(env); err == nil && v >= 1 && v <= int64(n) {
					return []int{int(v)}
				}
				return nil // out of range: the command cannot run
			}
			all := make([]int, n)
			for i := range all {
				all[i] = i + 1
			}
			return all
		}
		addrs := func(e *pgas.Expr) []int {
			if len(e.Regs()) == 0 {
				if v, err := e.Eval(env); err == nil && v >= 0 && v < int64(na) {
					return []int{int(v)}
				}
				return nil
			}
			all := make([]int, na)
			for i := range all {
				all[i] = i
			}
			return all
		}
		// Cells touched by each transition itself.
		own := make([][]uint64, len(p.Trans))
		ownReads := make([][]uint64, len(p.Trans))
		ownStores := make([][]uint64, len(p.Trans))
		ownPops := make([][]uint64, len(p.Trans))
		for i, t := range p.Trans {
			s := make([]uint64, f.Words)
			rd := make([]uint64, f.Words)
			st := make([]uint64, f.Words)
			c := &t.Cmd
			switch c.Op {
			case pgas.OpLoad, pgas.OpStore:
				for _, a := range addrs(c.Addr) {
					set(s, (r-1)*na+a)
					if c.Op == pgas.OpLoad {
						set(rd, (r-1)*na+a)
					} else {
						set(st, (r-1)*na+a)
					}
				}
			case pgas.OpRead, pgas.OpWrite:
				for _, a := range addrs(c.Local) {
					set(s, (r-1)*na+a)
					if c.Op == pgas.OpWrite {
						set(rd, (r-1)*na+a)
					} else {
						set(f.popbDst, (r-1)*na+a)
					}
				}
				for _, rr := range ranks(c.Rank) {
					for _, a := range addrs(c.Remote) {
						set(s, (rr-1)*na+a)
						if c.Op == pgas.OpRead {
							set(rd, (rr-1)*na+a)
						} else {
							set(f.popbDst, (rr-1)*na+a)
						}
					}
				}
			}
			if c.Op.IsCtxOp() {
				f.ctxCells(c, r, na, s, rd, set, ranks, addrs)
			}
			own[i], ownReads[i], ownStores[i] = s, rd, st
			ownPops[i] = make([]uint64, f.Words)
			if c.Op == pgas.OpRead || c.Op == pgas.OpWrite || c.Op == pgas.OpSend || c.Op == pgas.OpRecv {
				ownPops[i] = s
			}
		}
		f.trans = append(f.trans, own)
		f.cells = append(f.cells, closure(p, own, f.Words))
		f.reads = append(f.reads, closure(p, ownReads, f.Words))
		f.stores = append(f.stores, closure(p, ownStores, f.Words))
		f.pops = append(f.pops, closure(p, ownPops, f.Words))
	}
	for changed := true; changed; {
		changed = false
		for _, t := range p.Trans {
			b := t.Cmd.Op == pgas.OpBarrier || f.barrier[t.To]
			if b && !f.barrier[t.From] {
				f.barrier[t.From], changed = true, true
			}
		}
	}
	return f
}

// ctxCells adds the cells an OpenSHMEM command of rank r touches to s
// (all), rd (those whose value Y reads: a send's source, an add's target,
// since Y applies a popb in τ1 at the issue, a recv's or an atomic's
// target) and popbDst (those a popb or an atomic may write: none of them
// is a settled source).
func (f *Future) ctxCells(c *pgas.Cmd, r, na int, s, rd []uint64, set func([]uint64, int), ranks func(*pgas.Expr) []int, addrs func(*pgas.Expr) []int) {
	if c.Op == pgas.OpFence || c.Op == pgas.OpQuiet {
		return
	}
	if c.Local != nil {
		for _, a := range addrs(c.Local) {
			set(s, (r-1)*na+a)
			if c.Op == pgas.OpSend {
				set(rd, (r-1)*na+a)
			} else {
				set(f.popbDst, (r-1)*na+a)
			}
		}
	}
	for _, rr := range ranks(c.Rank) {
		for _, a := range addrs(c.Remote) {
			x := (rr-1)*na + a
			set(s, x)
			if c.Op != pgas.OpSend || c.Amo == pgas.AmoAdd || c.Amo.Bitwise() {
				set(rd, x)
			}
			if c.Op == pgas.OpSend || c.Op == pgas.OpAtomic && c.Amo != pgas.AmoFetch {
				set(f.popbDst, x)
			}
		}
	}
}

// closure propagates per-transition cell sets backwards: the set of a
// control state is the union over every path leaving it.
func closure(p *pgas.Program, own [][]uint64, words int) [][]uint64 {
	fs := make([][]uint64, len(p.Labels))
	for q := range fs {
		fs[q] = make([]uint64, words)
	}
	for changed := true; changed; {
		changed = false
		for i, t := range p.Trans {
			for w := range fs[t.From] {
				v := fs[t.From][w] | own[i][w] | fs[t.To][w]
				if v != fs[t.From][w] {
					fs[t.From][w], changed = v, true
				}
			}
		}
	}
	return fs
}
