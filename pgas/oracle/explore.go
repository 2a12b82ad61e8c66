package oracle

import (
	"context"
	"fmt"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
)

// Bounds limit an exploration. A zero or negative field means no bound,
// except MaxNodes, where it means DefaultMaxNodes.
type Bounds struct {
	MaxEvents int           // longest computation prefix explored, in events
	MaxQueue  int           // most pending requests per (rank, queue): len(fa)+len(fb), or a context's items
	MaxNodes  int64         // most states expanded
	Timeout   time.Duration // wall-clock limit
	// Context, if set, stops the exploration when it is done (cut
	// "stopped"): a portfolio cancels the oracle once the other procedure
	// has answered.
	Context context.Context
	// Pace, if set, is called every 64 states expanded: a portfolio that
	// runs the exploration by turns with another search hands the turn
	// over there.
	Pace func()
	// Reduce, if set, takes a pop alone where nothing that may run
	// before it conflicts with it (reduce.go): the verdict is the same,
	// the states and the violation found may differ. With MaxEvents or
	// MaxQueue, a reduced run that is Complete cut nothing, so it explored
	// the whole reduced graph of the unbounded X; a cut leaves it
	// incomplete, as without the reduction (but the cuts may fall
	// elsewhere).
	Reduce bool
	// Commuting takes robustness modulo commuting updates: the conflict
	// relation cf_c of docs/deviations.md, entry 14, in which two popbs
	// of non-fetching atomics of one commuting operation on one cell do
	// not conflict (summary_commute.go). Reduce stays exact with it: two
	// steps the reduction swaps share no cell that either writes, so
	// they change no edge of cf_c either. The zero value is the paper's cf.
	Commuting bool
}

// DefaultMaxNodes keeps an unbounded exploration within a few hundred MiB.
const DefaultMaxNodes = 400_000

// Result of an exploration.
type Result struct {
	// Violation is a violating computation of C(P,N) (it ends with every
	// queue empty), certified with pgas.Replay and pgas.HappensBefore; nil
	// if none was found. Its violating prefix is as short as possible
	// among the prefixes explored; the pops of requests still pending at
	// that point are appended queue by queue (for a program with
	// contexts, the first enabled pop each time).
	Violation []pgas.Event
	// Cycle is the happens-before cycle of Violation (pgas.HB.Cycle).
	Cycle []pgas.HBEdge
	// RangeErr is a reachable run-time error, one with the shortest path
	// found: after ErrPath, command ErrTrans of rank ErrRank is enabled but
	// cannot execute. Or it is an atomic add that wraps (What "atomic",
	// pgas.Step.Wrap): after ErrPath, rank ErrRank takes a step of
	// transition ErrTrans (the atomic, or the popb of the send it issued)
	// whose result is outside 0..values-1. That step does execute in X
	// (modulo values), but the search goes no further along it, so that no
	// verdict rests on a value the real program does not compute; it
	// explores every other step.
	RangeErr          *pgas.RangeError
	ErrRank, ErrTrans int
	ErrPath           []pgas.Event
	// Complete is true when no bound cut the search short. Then, if
	// Violation is nil, no computation of X(P,N) without a wrap is
	// violating, and if RangeErr is nil too, no range error is reachable,
	// no add wraps, and the program is robust. A search that finds a
	// violation stops there, so range errors behind it are not looked for.
	// A violating prefix never contains a wrap; the pops appended to it
	// may wrap, which changes no event and so no happens-before.
	Complete bool
	// Truncated names the first bound that was hit: "events", "queue",
	// "nodes", "timeout" or "stopped"; empty if Complete.
	Truncated string
	Explored  int64 // states expanded
	// Err reports bad arguments, a compiler bug (an expression that fails
	// other than by a range error), or an internal error of the oracle (a
	// violation that failed its certification). No verdict then.
	Err error
}

type node struct {
	parent int32
	depth  int // events from the initial state
	evs    []pgas.Event
	x      *pgas.XState // nil once expanded
	sum    *summary
}

// Explore searches X(p, n) for a violating computation and for reachable
// range errors, shortest first (by number of events).
func Explore(p *pgas.Program, n int, b Bounds) Result {
	if p == nil || n < 1 {
		return Result{Err: fmt.Errorf("oracle: need a program and N >= 1 (N = %d)", n)}
	}
	if b.MaxNodes <= 0 {
		b.MaxNodes = DefaultMaxNodes
	}
	var deadline time.Time
	if b.Timeout > 0 {
		deadline = time.Now().Add(b.Timeout)
	}
	if b.Commuting && !hasCommuting(p) {
		// No update commutes with another: cf_c has the cycles of the
		// paper's cf (entry 14), whose summary is smaller and reducible.
		b.Commuting = false
	}
	m := pgas.NewMachine(p, n)
	e := &explorer{p: p, n: n, m: m, b: b, seen: map[string]int32{}}
	if b.Reduce {
		// The reduction's independence is the paper's (no common cell
		// with a write), finer than neither cf nor cf_c: swapping two
		// such steps keeps every edge of both, so it serves cf_c too.
		e.red = newReducer(p, n)
	}
	sum0 := newSummary(n, len(p.Addrs), len(p.Queues))
	if b.Commuting {
		sum0 = newCommSummary(p, n)
	}
	root := &node{parent: -1, x: m.Initial(), sum: sum0}
	e.add(root)

	var res Result
	var best struct {
		from int32
		evs  []pgas.Event
		x    *pgas.XState
		len  int
	}
	best.from = -1
	for d := 0; d < len(e.buckets); d++ {
		if best.from >= 0 && d >= best.len {
			break // every later prefix is at least as long
		}
		for _, i := range e.buckets[d] {
			nd := e.nodes[i]
			if nd.x == nil || nd.depth != d {
				continue // expanded already, or moved to a shorter depth
			}
			if res.Explored >= b.MaxNodes {
				e.cut("nodes")
				break
			}
			if !deadline.IsZero() && res.Explored%64 == 0 && time.Now().After(deadline) {
				e.cut("timeout")
				break
			}
			if b.Context != nil && res.Explored%64 == 0 && b.Context.Err() != nil {
				e.cut("stopped")
				break
			}
			if b.Pace != nil && res.Explored%64 == 0 {
				b.Pace()
			}
			res.Explored++
			x, sum := nd.x, nd.sum
			nd.x, nd.sum = nil, nil
			steps, errs := m.Steps(x)
			for _, ce := range errs {
				re := ce.Range()
				if re == nil {
					res.Err = fmt.Errorf("oracle: internal error in the program: %v", ce)
					return res
				}
				if res.RangeErr == nil {
					res.RangeErr, res.ErrRank, res.ErrTrans = re, ce.Rank, ce.Trans
					res.ErrPath = e.path(i)
				}
			}
			if e.red != nil {
				steps = e.ample(x, sum, d, steps)
			}
			for _, st := range steps {
				mv, next, evs := st.Move, st.Next, st.Events
				if st.Wrap != nil {
					if res.RangeErr == nil {
						res.RangeErr, res.ErrRank, res.ErrTrans = st.Wrap, evs[0].Rank, evs[0].Trans
						res.ErrPath = e.path(i)
					}
					continue
				}
				if b.MaxEvents > 0 && d+len(evs) > b.MaxEvents {
					e.cut("events")
					continue
				}
				if ev := evs[0]; b.MaxQueue > 0 && (ev.Kind == pgas.KRead || ev.Kind == pgas.KWrite) && next.Pending(ev.Rank, ev.Queue) > b.MaxQueue {
					e.cut("queue")
					continue
				}
				s2, cyclic := sum.apply(x, mv, evs)
				if cyclic {
					if best.from < 0 || d+len(evs) < best.len {
						best.from, best.evs, best.x, best.len = i, evs, next, d+len(evs)
					}
					continue
				}
				e.add(&node{parent: i, depth: d + len(evs), evs: evs, x: next, sum: s2})
			}
		}
		if e.truncated == "nodes" || e.truncated == "timeout" || e.truncated == "stopped" {
			break
		}
	}
	res.Truncated = e.truncated
	res.Complete = e.truncated == ""
	if best.from >= 0 {
		e.certify(&res, append(e.path(best.from), best.evs...), best.x)
	}
	return res
}

type explorer struct {
	p         *pgas.Program
	n         int
	m         *pgas.Machine
	b         Bounds
	nodes     []*node
	seen      map[string]int32
	buckets   [][]int32 // node indices by depth
	truncated string
	keybuf    []byte
	red       *reducer // nil: no reduction
}

// ample narrows steps to those the reducer allows alone in state x at
// depth d, unless one of them leads to a state seen before at a depth
// of at most d. That is the cycle proviso: on a cycle of the reduced
// graph some edge s -> s' does not go deeper (with the final, shortest
// depths, the differences along the cycle sum to zero), and s' got that
// depth from a state of smaller depth than s, expanded before s, so s
// is expanded fully.
func (e *explorer) ample(x *pgas.XState, sum *summary, d int, steps []pgas.Step) []pgas.Step {
	amp := e.red.ample(x, steps)
	if amp == nil {
		return steps
	}
	for _, st := range amp {
		if st.Wrap != nil {
			// The exploration does not take a wrapping step (a run-time
			// error finding), so alone it would cut every computation
			// that postpones it.
			return steps
		}
		s2, cyclic := sum.apply(x, st.Move, st.Events)
		if cyclic {
			return steps // the loop below records the violation
		}
		e.keybuf = s2.appendKey(st.Next.AppendKey(e.keybuf[:0]))
		if j, seen := e.seen[string(e.keybuf)]; seen && e.nodes[j].depth <= d {
			return steps
		}
	}
	return amp
}

func (e *explorer) cut(why string) {
	if e.truncated == "" {
		e.truncated = why
	}
}

// add records a node, unless a node with the same key was reached already
// at the same or a smaller depth.
func (e *explorer) add(nd *node) {
	e.keybuf = nd.sum.appendKey(nd.x.AppendKey(e.keybuf[:0]))
	key := string(e.keybuf)
	if j, ok := e.seen[key]; ok {
		old := e.nodes[j]
		if old.x == nil || old.depth <= nd.depth {
			return
		}
		// A shorter way to a state not yet expanded: the same future, so
		// only the path changes. The state is taken from the new path:
		// keys leave out the issue indices of context items
		// (pgas.XState.Key), and the events explored from here must name
		// the items of this path.
		old.parent, old.depth, old.evs, old.x = nd.parent, nd.depth, nd.evs, nd.x
		e.push(nd.depth, j)
		return
	}
	j := int32(len(e.nodes))
	e.nodes = append(e.nodes, nd)
	e.seen[key] = j
	e.push(nd.depth, j)
}

func (e *explorer) push(d int, j int32) {
	for len(e.buckets) <= d {
		e.buckets = append(e.buckets, nil)
	}
	e.buckets[d] = append(e.buckets[d], j)
}

// path returns the events from the initial state to node i.
func (e *explorer) path(i int32) []pgas.Event {
	var parts [][]pgas.Event
	for ; i >= 0; i = e.nodes[i].parent {
		parts = append(parts, e.nodes[i].evs)
	}
	var evs []pgas.Event
	for k := len(parts) - 1; k >= 0; k-- {
		evs = append(evs, parts[k]...)
	}
	return evs
}

// certify completes a violating prefix ending in state x with the pops of
// its pending requests (some pop is enabled while one is pending: the
// oldest item of a rank waits for nothing, as fences and After only wait
// for older items; and extending a computation never removes a cycle),
// then checks the result against the definitions.
func (e *explorer) certify(res *Result, evs []pgas.Event, x *pgas.XState) {
	if !e.m.Program().HasCtx() {
		// Queue by queue, all popas then all popbs, as before contexts.
		for r := 1; r <= e.n; r++ {
			for q := range e.p.Queues {
				for _, k := range []pgas.MoveKind{pgas.MovePopa, pgas.MovePopb} {
					for (k == pgas.MovePopa && len(x.FA(r, q)) > 0) || (k == pgas.MovePopb && len(x.FB(r, q)) > 0) {
						if x, evs = e.completeOne(res, x, evs, pgas.Move{Kind: k, Rank: r, Queue: q}); x == nil {
							return
						}
					}
				}
			}
		}
	}
	for moves := e.m.PopMoves(x); len(moves) > 0; moves = e.m.PopMoves(x) {
		if x, evs = e.completeOne(res, x, evs, moves[0]); x == nil {
			return
		}
	}
	if _, err := pgas.Replay(e.p, e.n, evs); err != nil {
		res.Err = fmt.Errorf("oracle: internal error: the violation does not replay: %v", err)
		return
	}
	h := pgas.HappensBefore(evs)
	if e.b.Commuting {
		h = pgas.HappensBeforeCommuting(e.p, evs)
	}
	cyc := h.Cycle()
	if cyc == nil {
		res.Err = fmt.Errorf("oracle: internal error: the summary found a cycle that HappensBefore does not: %v", evs)
		return
	}
	res.Violation, res.Cycle = evs, cyc
}

// completeOne applies pop mv to x; on failure it sets res.Err and returns
// a nil state.
func (e *explorer) completeOne(res *Result, x *pgas.XState, evs []pgas.Event, mv pgas.Move) (*pgas.XState, []pgas.Event) {
	next, pe, err := e.m.Apply(x, mv)
	if err != nil {
		res.Err = fmt.Errorf("oracle: internal error completing the violation: %v", err)
		return nil, nil
	}
	return next, append(evs, pe...)
}
