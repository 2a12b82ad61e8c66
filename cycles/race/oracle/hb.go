package oracle

import (
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// ev is an event of a computation with what api_hb needs to know of it.
type ev struct {
	pgas.Event
	step int // the index of the step of X that produced it
	// for an issue event (send, recv, read, write) of a context: the item
	item    pgas.Item
	hasItem bool
	ctx     int // the context or queue of a fence, quiet, atomic, issue or pop; -1 if none
	epoch   int // for an atomic: the epoch of (rank, ctx) when it ran
}

// apiHB is the graph of api_hb's generating edges over a computation.
type apiHB struct {
	p    *pgas.Program
	evs  []ev
	pred [][]int
}

func isIssue(k pgas.Kind) bool { return k == pgas.KRead || k == pgas.KWrite }

func (g *apiHB) edge(from, to int) { g.pred[to] = append(g.pred[to], from) }

// build adds every generating edge of api_hb (docs/criteria.md).
func build(p *pgas.Program, evs []ev) *apiHB {
	g := &apiHB{p: p, evs: evs, pred: make([][]int, len(evs))}
	issueOf := make([]int, len(evs)) // for a pop: its issue event
	popaOf := map[int]int{}          // issue -> its popa
	popbOf := map[int]int{}          // issue -> its popb
	for i := range evs {
		issueOf[i] = -1
	}
	// match pops to issues: by Item for contexts, FIFO position otherwise
	type rq struct{ r, q int }
	nonPop := map[int]int{} // per rank: count of non-pop events so far
	issueByItem := map[[3]int]int{}
	fifoIssues := map[rq][]int{}
	fifoPopa := map[rq]int{}
	fifoPopb := map[rq][]int{} // issues in popa order, waiting for their popb
	for i, e := range evs {
		if !e.Kind.IsPop() {
			if isIssue(e.Kind) {
				if p.IsCtx(e.Queue) {
					issueByItem[[3]int{e.Rank, e.Queue, nonPop[e.Rank]}] = i
				} else {
					k := rq{e.Rank, e.Queue}
					fifoIssues[k] = append(fifoIssues[k], i)
				}
			}
			nonPop[e.Rank]++
			continue
		}
		var is int
		if p.IsCtx(e.Queue) {
			is = issueByItem[[3]int{e.Rank, e.Queue, e.Item}]
		} else {
			k := rq{e.Rank, e.Queue}
			if e.Kind == pgas.KPopa {
				is = fifoIssues[k][fifoPopa[k]]
				fifoPopa[k]++
				fifoPopb[k] = append(fifoPopb[k], is)
			} else {
				is = fifoPopb[k][0]
				fifoPopb[k] = fifoPopb[k][1:]
			}
		}
		issueOf[i] = is
		if e.Kind == pgas.KPopa {
			popaOf[is] = i
		} else {
			popbOf[is] = i
		}
	}
	lastOf := map[int]int{} // per rank: its last non-pop event, or the blocking popa after it
	for i, e := range evs {
		if e.Kind.IsPop() {
			is := issueOf[i]
			if e.Kind == pgas.KPopa {
				g.edge(is, i)
			} else if a, ok := popaOf[is]; ok && a < i {
				g.edge(a, i)
			} else {
				g.edge(is, i)
			}
			if e.Kind == pgas.KPopa && evs[is].step == e.step {
				lastOf[e.Rank] = i // local completion of a blocking put
			}
			continue
		}
		if l, ok := lastOf[e.Rank]; ok {
			g.edge(l, i)
		}
		lastOf[e.Rank] = i
	}
	// barriers: the events of one barrier step are one synchronisation
	for i, e := range evs {
		if e.Kind != pgas.KBar {
			continue
		}
		for j, f := range evs {
			if f.Kind == pgas.KBar && f.step == e.step && j != i {
				g.edge(j, i)
			}
		}
	}
	// FIFO order of pops on a queue of the calculus
	lastPop := map[[3]int]int{}
	for i, e := range evs {
		if e.Kind.IsPop() && !p.IsCtx(e.Queue) {
			k := [3]int{e.Rank, e.Queue, int(e.Kind)}
			if l, ok := lastPop[k]; ok {
				g.edge(l, i)
			}
			lastPop[k] = i
		}
	}
	// contexts: fence order, signal after data, quiet, atomics after fences
	for i, e := range evs {
		switch {
		case e.Kind == pgas.KPopb && p.IsCtx(e.Queue):
			it := evs[issueOf[i]].item
			if it.Recv {
				continue
			}
			for j := 0; j < i; j++ {
				f := evs[j]
				if f.Kind != pgas.KPopb || f.Rank != e.Rank || !p.IsCtx(f.Queue) {
					continue
				}
				o := evs[issueOf[j]].item
				if o.Recv {
					continue
				}
				if f.Queue == e.Queue && o.Dst.Rank == it.Dst.Rank && o.Epoch < it.Epoch {
					g.edge(j, i)
				}
				if it.After >= 0 && o.Head == it.After {
					g.edge(j, i)
				}
			}
		case e.Kind == pgas.KQuiet:
			for j := 0; j < i; j++ {
				f := evs[j]
				if f.Kind.IsPop() && f.Rank == e.Rank && f.Queue == e.ctx && issueOf[j] < i {
					g.edge(j, i)
				}
			}
		case e.Kind == pgas.KAmo || e.Kind == pgas.KAFetch:
			for j := 0; j < i; j++ {
				f := evs[j]
				if f.Kind != pgas.KPopb || f.Rank != e.Rank || f.Queue != e.ctx {
					continue
				}
				o := evs[issueOf[j]].item
				if !o.Recv && o.Dst.Rank == e.Cell.Rank && o.Epoch < e.epoch {
					g.edge(j, i)
				}
			}
		}
	}
	// synchronises-with: an atomic read that the program sees takes the
	// release sequence of the value it reads
	for i, e := range evs {
		if !g.observing(e) {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			f := evs[j]
			if !f.HasCell || f.Cell != e.Cell || !writes(f.Kind) {
				continue
			}
			if hiddenAddr(p, e.Cell.Addr) {
				g.edge(j, i)
				break
			}
			if !g.atomicWrite(j) {
				break
			}
			g.edge(j, i)
			if !g.rmw(j) {
				break
			}
		}
	}
	return g
}

func writes(k pgas.Kind) bool { return k == pgas.KStore || k == pgas.KPopb || k == pgas.KAmo }

func hiddenAddr(p *pgas.Program, a int) bool {
	return a >= 0 && a < len(p.Addrs) && strings.HasPrefix(p.Addrs[a], "$")
}

// observing: an await, or a fetching atomic.
func (g *apiHB) observing(e ev) bool {
	switch e.Kind {
	case pgas.KAmo, pgas.KAFetch:
		return true
	case pgas.KLoad:
		return g.p.Trans[e.Trans].Cmd.Guard != nil
	}
	return false
}

// deliversAtomic: the popb of amo_add, amo_inc, amo_set, amo_and, amo_or,
// amo_xor, or of a signal.
func (g *apiHB) deliversAtomic(e ev) bool {
	if e.Kind != pgas.KPopb {
		return false
	}
	t := g.p.Trans[e.Trans]
	if t.Cmd.Op != pgas.OpSend {
		return false
	}
	switch t.Sugar {
	case "amo_add", "amo_inc", "amo_set", "amo_and", "amo_or", "amo_xor":
		return true
	}
	return t.Cmd.After
}

func (g *apiHB) atomicWrite(i int) bool {
	e := g.evs[i]
	return e.Kind == pgas.KAmo || g.deliversAtomic(e)
}

func (g *apiHB) rmw(i int) bool {
	e := g.evs[i]
	if e.Kind == pgas.KAmo {
		return true
	}
	// a delivery that reads the cell first: an add or a bitwise update,
	// not amo_set (AmoNone) nor a signal set
	if !g.deliversAtomic(e) {
		return false
	}
	switch g.p.Trans[e.Trans].Cmd.Amo {
	case pgas.AmoAdd, pgas.AmoAnd, pgas.AmoOr, pgas.AmoXor:
		return true
	}
	return false
}

// isAtomic: an atomic access (the atomics, their deliveries, awaits).
func (g *apiHB) isAtomic(i int) bool { return g.atomicWrite(i) || g.observing(g.evs[i]) }

func (g *apiHB) isRMA(i int) bool {
	k := g.evs[i].Kind
	return k.IsPop() || k == pgas.KAmo || k == pgas.KAFetch
}

func (g *apiHB) isAccess(i int) bool {
	e := g.evs[i]
	if !e.HasCell || hiddenAddr(g.p, e.Cell.Addr) {
		return false
	}
	switch e.Kind {
	case pgas.KLoad, pgas.KStore, pgas.KPopa, pgas.KPopb, pgas.KAmo, pgas.KAFetch:
		return true
	}
	return false
}

// before computes, for every event, the set of events api_hb orders
// before it (the transitive closure of the generating edges).
func (g *apiHB) before() [][]bool {
	n := len(g.evs)
	reach := make([][]bool, n)
	for i := range n {
		reach[i] = make([]bool, n)
		stack := append([]int(nil), g.pred[i]...)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reach[i][j] {
				continue
			}
			reach[i][j] = true
			stack = append(stack, g.pred[j]...)
		}
	}
	return reach
}

// races lists the pairs (i, j), i < j, of racing events.
func (g *apiHB) races() [][2]int {
	reach := g.before()
	var out [][2]int
	for j := range g.evs {
		if !g.isAccess(j) {
			continue
		}
		for i := 0; i < j; i++ {
			if !g.isAccess(i) || reach[j][i] {
				continue
			}
			a, b := g.evs[i], g.evs[j]
			if a.Cell != b.Cell || !(writes(a.Kind) || writes(b.Kind)) {
				continue
			}
			if !(g.isRMA(i) || g.isRMA(j)) || (g.isAtomic(i) && g.isAtomic(j)) {
				continue
			}
			out = append(out, [2]int{i, j})
		}
	}
	return out
}
