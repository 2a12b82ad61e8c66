package tso

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/pgasrob/pgasrob/automata"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// The pattern lists of every criterion (attacks of robustness, patterns of
// persistence and TRF) pair each store of a thread with each later
// instruction of the same thread. The list is quadratic in a thread's
// length by nature, so it is counted first and refused when it would not
// fit the memory budget (tooManyPatterns); the reachability that refutes
// patterns syntactically is computed per store (or per last instruction,
// whichever are fewer) in memory linear in the thread, never as a
// labels-by-labels matrix (issue 29, item 1).

// patternSpec says which pairs a criterion lists and which it refutes.
type patternSpec struct {
	// cross: the transitions a path from the store to the last
	// instruction may take (for robustness, those a delayed store crosses).
	cross func(prog.Op) bool
	// last: the instructions that end a pattern.
	last func(prog.Op) bool
	// refute, if set, refutes a pattern for a reason other than the path.
	refute func(ti int, st, lt *prog.Trans) bool
}

// patternBytes is what one listed pattern costs a check: the Attack and
// its refuted flag, its AttackResult and its index in the to-do list.
const patternBytes = int64(unsafe.Sizeof(Attack{}) + 1 + unsafe.Sizeof(AttackResult{}) + unsafe.Sizeof(int(0)))

// countPatterns is the length of the list spec gives for p, computed
// without listing it.
func countPatterns(p *prog.Program, spec patternSpec) int64 {
	var n int64
	for _, th := range p.Threads {
		var stores, lasts int64
		for _, t := range th.Trans {
			if t.Op == prog.OpWrite {
				stores++
			}
			if spec.last(t.Op) {
				lasts++
			}
		}
		n += stores * lasts
	}
	return n
}

// tooManyPatterns returns why a check with this many patterns is not
// started, or "": the list may take a quarter of the searches' memory
// budget. The number of patterns is the product of a thread's stores and
// loads, so a long thread can ask for gigabytes before any search begins.
func tooManyPatterns(n int64, c Criterion, opt Options) string {
	maxBytes := opt.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	if n <= maxBytes/4/patternBytes {
		return ""
	}
	return fmt.Sprintf("the program has %d %ss; listing them would take about %d MiB, more than the memory budget of %d MiB allows",
		n, patternWord(c), n*patternBytes>>20, userBytes(opt)>>20)
}

// patternWord is what a criterion calls its patterns.
func patternWord(c Criterion) string {
	if c == Robustness {
		return "attack"
	}
	return "pattern"
}

// listPatterns lists, thread by thread, every pair (store, last) of spec
// in the order of the transitions (stores outer, lasts inner), with
// refuted set when no path of cross transitions leads from the store's
// target to the last instruction's source, or spec.refute says so. It
// stops with ctx's error when ctx ends.
func listPatterns(ctx context.Context, p *prog.Program, spec patternSpec) (attacks []Attack, refuted []bool, err error) {
	for ti, th := range p.Threads {
		var stores, lasts []int
		for k, t := range th.Trans {
			if t.Op == prog.OpWrite {
				stores = append(stores, k)
			}
			if spec.last(t.Op) {
				lasts = append(lasts, k)
			}
		}
		if len(stores) == 0 || len(lasts) == 0 {
			continue
		}
		base := len(attacks)
		for _, si := range stores {
			for _, li := range lasts {
				attacks = append(attacks, Attack{Thread: ti, Store: si, Last: li})
				refuted = append(refuted, true)
			}
		}
		w := newWalker(th, spec.cross)
		// From each store forwards, or from each last instruction
		// backwards: the fewer searches, each linear in the thread.
		forward := len(stores) <= len(lasts)
		outer, inner := stores, lasts
		if !forward {
			outer, inner = lasts, stores
		}
		for oi, o := range outer {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			if forward {
				w.walk(th.Trans[o].To, true)
			} else {
				w.walk(th.Trans[o].From, false)
			}
			for ii, in := range inner {
				si, li, k := o, in, base+oi*len(lasts)+ii
				at := th.Trans[li].From
				if !forward {
					si, li, k = in, o, base+ii*len(lasts)+oi
					at = th.Trans[si].To
				}
				if !w.reached(at) {
					continue
				}
				refuted[k] = spec.refute != nil && spec.refute(ti, &th.Trans[si], &th.Trans[li])
			}
		}
	}
	return attacks, refuted, nil
}

// walker finds the labels reachable from (or reaching) one label by
// transitions cross accepts, reusing its arrays from one walk to the next.
type walker struct {
	th    *prog.Thread
	cross func(prog.Op) bool
	in    [][]int // in[q]: the transitions entering q (for backward walks)
	seen  []uint32
	stamp uint32
	stack []int
}

func newWalker(th *prog.Thread, cross func(prog.Op) bool) *walker {
	return &walker{th: th, cross: cross, seen: make([]uint32, len(th.Labels))}
}

// walk marks the labels reachable from q (forward) or from which q is
// reachable (backward), q included.
func (w *walker) walk(q int, forward bool) {
	if !forward && w.in == nil {
		w.in = make([][]int, len(w.th.Labels))
		for k, t := range w.th.Trans {
			w.in[t.To] = append(w.in[t.To], k)
		}
	}
	w.stamp++
	w.seen[q] = w.stamp
	w.stack = append(w.stack[:0], q)
	for len(w.stack) > 0 {
		x := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		edges := w.th.Out[x]
		if !forward {
			edges = w.in[x]
		}
		for _, k := range edges {
			t := &w.th.Trans[k]
			y := t.To
			if !forward {
				y = t.From
			}
			if !w.cross(t.Op) || w.seen[y] == w.stamp {
				continue
			}
			w.seen[y] = w.stamp
			w.stack = append(w.stack, y)
		}
	}
}

// reached reports whether the last walk marked q.
func (w *walker) reached(q int) bool { return w.seen[q] == w.stamp }

// between marks the labels on some path of cross transitions from one
// label to another: reachable from `from` and reaching `to`. It is the
// locations a fence must avoid to leave a pattern feasible (fences.go).
func between(th *prog.Thread, cross func(prog.Op) bool, from, to int) []bool {
	w := newWalker(th, cross)
	w.walk(from, true)
	on := make([]bool, len(th.Labels))
	for q := range on {
		on[q] = w.reached(q)
	}
	w.walk(to, false)
	for q := range on {
		on[q] = on[q] && w.reached(q)
	}
	return on
}

// writerMemo answers writtenByOthers once per thread and address: asked
// per pattern, it would scan the program once per pattern.
type writerMemo struct {
	p    *prog.Program
	memo map[[3]int64]bool
}

func newWriterMemo(p *prog.Program) *writerMemo {
	return &writerMemo{p: p, memo: map[[3]int64]bool{}}
}

// writes reports whether a thread other than t has a write that may store
// to address a (a constant, or anything when a is not).
func (m *writerMemo) writes(t int, a *prog.Expr) bool {
	x, xc := a.Const()
	key := [3]int64{int64(t), x, 0}
	if !xc {
		key = [3]int64{int64(t), 0, 1}
	}
	v, ok := m.memo[key]
	if !ok {
		v = writtenByOthers(m.p, t, a)
		m.memo[key] = v
	}
	return v
}

// stopReason says why ctx ended a check before its searches, in the words
// conclude uses for the searches.
func stopReason(ctx context.Context) string {
	if ctx.Err() == context.DeadlineExceeded {
		return "time budget reached"
	}
	return automata.StopReason(ctx)
}

// witnessStepBytes is a generous bound on what one step of an SC path
// costs as a witness: the relaxed steps and events it becomes, the
// happens-before search over them, and the text or JSON printed.
const witnessStepBytes = 1024

// witnessWithheld says why the witness of a feasible attack is not built,
// or "": its path is missing (automata.Result.PathWithheld), or so long
// that its witness would not fit the searches' memory budget. The verdict
// stands either way; only the evidence is left out (issue 29, item 0).
func witnessWithheld(ar *AttackResult, maxBytes int64, opt Options) string {
	if ar.withheld != "" {
		return ar.withheld
	}
	if n := int64(len(ar.path)); n*witnessStepBytes > maxBytes {
		return fmt.Sprintf("its witness of %d steps would take about %d MiB, more than the memory budget of %d MiB allows", n, n*witnessStepBytes>>20, userBytes(opt)>>20)
	}
	return ""
}
