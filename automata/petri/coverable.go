package petri

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/pgasrob/pgasrob/automata"
)

// Coverability of Petri nets by backward reachability over upward-closed
// sets (Abdulla, Cerans, Jonsson, Tsay 1996): the set of markings from which
// a target is coverable is upward closed, so it is represented by its finite
// set of minimal elements (its basis). Starting from the targets, each round
// adds the minimal pre-images of basis elements; by Dickson's lemma no
// infinite sequence of markings avoids an ordered pair, so the basis
// stabilises and the search ends. It is complete: when it ends without
// meeting an initial marking, no initial marking covers a target.
//
// Backward search was chosen over Karp-Miller because it needs no
// acceleration (no ω in the states it stores), it starts from a generalized
// initial marking with "any number of tokens" places for free, and every
// basis element remembers the transition that produced it, so a coverable
// answer comes with a concrete run: fire the recorded transitions forward
// from the initial marking that covers the element found.

// Omega in Net.Initial stands for "any number of tokens".
const Omega int32 = -1

// PlaceCount is one entry of a sparse marking.
type PlaceCount struct {
	Place, Count int32
}

// Marking is a sparse vector of tokens: places in increasing order, every
// count positive. The empty marking has no tokens.
type Marking []PlaceCount

// Get returns the tokens on place p.
func (m Marking) Get(p int32) int32 {
	i, ok := slices.BinarySearchFunc(m, p, func(e PlaceCount, p int32) int { return int(e.Place - p) })
	if !ok {
		return 0
	}
	return m[i].Count
}

// Leq reports m <= o place by place.
func (m Marking) Leq(o Marking) bool {
	j := 0
	for _, e := range m {
		for j < len(o) && o[j].Place < e.Place {
			j++
		}
		if j == len(o) || o[j].Place != e.Place || o[j].Count < e.Count {
			return false
		}
	}
	return true
}

// MarkingOf builds a sparse marking from a dense vector.
func MarkingOf(dense []int32) Marking {
	var m Marking
	for p, c := range dense {
		if c > 0 {
			m = append(m, PlaceCount{int32(p), c})
		}
	}
	return m
}

// Transition consumes Pre and produces Post.
type Transition struct {
	Pre, Post Marking
	Label     automata.Label
}

// PlaceBound is an invariant the caller guarantees of every reachable
// marking: at most Max tokens on Places together. The search drops markings
// that break it (no reachable marking covers them), which keeps the basis
// from filling with impossible combinations, for example two control
// states of one thread.
type PlaceBound struct {
	Places []int32
	Max    int32
}

// Net is a Petri net with a generalized initial marking.
type Net struct {
	Places int
	Trans  []Transition
	// Initial has one entry per place: a token count, or Omega.
	Initial []int32
	Bounds  []PlaceBound
	// Reachable, if set, is an over-approximation the caller guarantees:
	// it returns false only for markings that no reachable marking
	// covers. The search drops those (a forward analysis of the caller
	// keeps the backward search out of unreachable parts of the net).
	Reachable func(Marking) bool
}

// Stats describe a coverability search.
type Stats struct {
	Basis     int   // live basis elements at the end
	Generated int64 // markings stored over the whole search (the states of the search)
	PreImages int64 // pre-images computed
	Bytes     int64 // estimated memory of the stored markings
	Elapsed   time.Duration
}

// Result is the answer of Coverable. Outcome automata.NonEmpty means some
// target is coverable: Start is an initial marking (Net.Initial with every
// Omega replaced by a count) and Run a sequence of transition indices
// enabled from Start in turn, ending in a marking that covers Target.
type Result struct {
	Outcome automata.Outcome
	Reason  string
	Limit   automata.Limit
	Start   []int32
	Run     []int
	Target  int // index into the targets
	Stats   Stats
}

// cover is one stored marking: how it was derived (transition trans from
// element next, or target number -1-next when trans < 0).
type cover struct {
	m     Marking
	trans int32
	next  int32
	key   int32 // the place of m under which the element is filed in byKey
	dead  bool
}

type coverSearch struct {
	net     *Net
	byPost  [][]int32 // byPost[p]: transitions producing on p
	elems   []cover
	byKey   [][]int32 // byKey[p]: live elements filed under p, one of their places
	inv     [][]int32 // inv[p]: elements with tokens on p (dead ones removed lazily)
	empty   int32     // a live element with no tokens, or -1
	bytes   int64
	live    int
	inBound [][]int // inBound[p]: indices of Bounds that count place p
}

// Coverable decides whether some marking reachable from an initial
// marking of net covers one of targets. Budget.MaxStates bounds the stored
// markings, Budget.MaxBytes their memory; both, the timeout and the
// context end the search with automata.Unknown.
func Coverable(net *Net, targets []Marking, opt automata.Options) Result {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	maxBytes := opt.MaxBytes
	if maxBytes == 0 {
		maxBytes = automata.DefaultMaxBytes
	}
	start := time.Now()
	s := newCoverSearch(net)
	res := Result{Outcome: automata.Unknown}
	finish := func() Result {
		res.Stats.Basis, res.Stats.Generated, res.Stats.Bytes = s.live, int64(len(s.elems)), s.bytes
		res.Stats.Elapsed = time.Since(start)
		return res
	}
	for i, t := range targets {
		if !s.withinBounds(t) {
			continue
		}
		if k := s.insert(t, -1, int32(-1-i)); k >= 0 && s.initial(t) {
			s.success(&res, k)
			return finish()
		}
	}
	seen := make([]int64, len(net.Trans))
	for i := range seen {
		seen[i] = -1
	}
	for cur := 0; cur < len(s.elems); cur++ {
		if s.elems[cur].dead {
			continue // a smaller element generates everything it would
		}
		if reason, lim := s.over(ctx, opt, maxBytes, start); reason != "" {
			res.Reason, res.Limit = reason, lim
			return finish()
		}
		m := s.elems[cur].m
		for _, pc := range m {
			for _, ti := range s.byPost[pc.Place] {
				if seen[ti] == int64(cur) {
					continue
				}
				seen[ti] = int64(cur)
				res.Stats.PreImages++
				pre, ok := s.preImage(m, &net.Trans[ti])
				if !ok {
					if pre == nil {
						continue
					}
					res.Reason = "a token count outgrew 2^30"
					return finish()
				}
				k := s.insert(pre, int(ti), int32(cur))
				if k >= 0 && s.initial(pre) {
					s.success(&res, k)
					return finish()
				}
				if s.elems[cur].dead {
					break // the new element is below the current one
				}
			}
			if s.elems[cur].dead {
				break
			}
		}
	}
	res.Outcome = automata.Empty
	return finish()
}

func newCoverSearch(net *Net) *coverSearch {
	s := &coverSearch{net: net, byPost: make([][]int32, net.Places), byKey: make([][]int32, net.Places),
		inv: make([][]int32, net.Places), empty: -1, inBound: make([][]int, net.Places)}
	for ti, t := range net.Trans {
		for _, pc := range t.Post {
			s.byPost[pc.Place] = append(s.byPost[pc.Place], int32(ti))
		}
	}
	for bi, b := range net.Bounds {
		for _, p := range b.Places {
			s.inBound[p] = append(s.inBound[p], bi)
		}
	}
	return s
}

func (s *coverSearch) over(ctx context.Context, opt automata.Options, maxBytes int64, start time.Time) (string, automata.Limit) {
	switch {
	case opt.MaxStates > 0 && int64(len(s.elems)) > opt.MaxStates:
		return fmt.Sprintf("state budget of %d markings reached", opt.MaxStates), automata.OtherLimit
	case s.bytes > maxBytes:
		return fmt.Sprintf("memory budget of %d MiB reached", maxBytes>>20), automata.MemoryLimit
	case ctx.Err() != nil:
		return automata.StopReason(ctx), automata.OtherLimit
	case opt.Timeout > 0 && time.Since(start) > opt.Timeout:
		return fmt.Sprintf("time budget of %v reached", opt.Timeout), automata.OtherLimit
	}
	return "", automata.OtherLimit
}

// preImage is the least marking from which t can fire and then cover m:
// max(m - post, 0) + pre. It returns nil, false for a marking that breaks
// a bound, and a non-nil marking with false when a count overflows.
func (s *coverSearch) preImage(m Marking, t *Transition) (Marking, bool) {
	out := make(Marking, 0, len(m)+len(t.Pre))
	i, j := 0, 0
	post := t.Post
	for _, pc := range m {
		for j < len(post) && post[j].Place < pc.Place {
			j++
		}
		c := pc.Count
		if j < len(post) && post[j].Place == pc.Place {
			c -= post[j].Count
		}
		for i < len(t.Pre) && t.Pre[i].Place < pc.Place {
			out = append(out, t.Pre[i])
			i++
		}
		if i < len(t.Pre) && t.Pre[i].Place == pc.Place {
			c = max(c, 0) + t.Pre[i].Count
			i++
		}
		if c > 0 {
			out = append(out, PlaceCount{pc.Place, c})
		}
	}
	out = append(out, t.Pre[i:]...)
	for _, pc := range out {
		if pc.Count > 1<<30 {
			return out, false
		}
	}
	if !s.withinBounds(out) || s.net.Reachable != nil && !s.net.Reachable(out) {
		return nil, false
	}
	return out, true
}

func (s *coverSearch) withinBounds(m Marking) bool {
	if len(s.net.Bounds) == 0 {
		return true
	}
	var sums map[int]int32
	for _, pc := range m {
		for _, bi := range s.inBound[pc.Place] {
			if sums == nil {
				sums = map[int]int32{}
			}
			sums[bi] += pc.Count
			if sums[bi] > s.net.Bounds[bi].Max {
				return false
			}
		}
	}
	return true
}

// initial reports whether m is covered by the generalized initial marking.
func (s *coverSearch) initial(m Marking) bool {
	for _, pc := range m {
		if c := s.net.Initial[pc.Place]; c != Omega && c < pc.Count {
			return false
		}
	}
	return true
}

// insert adds m to the basis unless a live element is below it, and kills
// the live elements above it. It returns the new element's index or -1.
func (s *coverSearch) insert(m Marking, trans int, next int32) int {
	if s.empty >= 0 {
		return -1
	}
	for _, pc := range m {
		for _, k := range s.byKey[pc.Place] {
			if s.elems[k].m.Leq(m) {
				return -1
			}
		}
	}
	k := int32(len(s.elems))
	if len(m) == 0 {
		for i := range s.elems {
			s.kill(int32(i))
		}
		s.empty = k
	} else {
		// Elements above m have tokens on every place of m: scan the
		// shortest list of them.
		best := m[0].Place
		for _, pc := range m[1:] {
			if len(s.inv[pc.Place]) < len(s.inv[best]) {
				best = pc.Place
			}
		}
		kept := s.inv[best][:0]
		for _, o := range s.inv[best] {
			if s.elems[o].dead {
				continue
			}
			if m.Leq(s.elems[o].m) {
				s.kill(o)
				continue
			}
			kept = append(kept, o)
		}
		s.inv[best] = kept
	}
	s.elems = append(s.elems, cover{m: m, trans: int32(trans), next: next})
	s.live++
	s.bytes += int64(len(m))*8 + 48
	if len(m) > 0 {
		// Any place of an element finds it from every marking above it;
		// the one with the shortest list keeps the scans short.
		p := m[0].Place
		for _, pc := range m[1:] {
			if len(s.byKey[pc.Place]) < len(s.byKey[p]) {
				p = pc.Place
			}
		}
		s.elems[k].key = p
		s.byKey[p] = append(s.byKey[p], k)
		for _, pc := range m {
			s.inv[pc.Place] = append(s.inv[pc.Place], k)
		}
		s.bytes += int64(len(m)+1) * 4
	}
	return int(k)
}

func (s *coverSearch) kill(k int32) {
	e := &s.elems[k]
	if e.dead {
		return
	}
	e.dead = true
	s.live--
	if len(e.m) > 0 {
		f := s.byKey[e.key]
		if i := slices.Index(f, k); i >= 0 {
			s.byKey[e.key] = slices.Delete(f, i, i+1)
		}
	}
}

// success fills in the run of element k: its chain of transitions back to
// a target, fired forward from the initial marking that covers it, and
// checked on the way (a failure is reported as automata.Unknown, never as a run).
func (s *coverSearch) success(res *Result, k int) {
	st := slices.Clone(s.net.Initial)
	for p, c := range st {
		if c == Omega {
			st[p] = s.elems[k].m.Get(int32(p))
		}
	}
	e := s.elems[k]
	for e.trans >= 0 {
		res.Run = append(res.Run, int(e.trans))
		e = s.elems[e.next]
	}
	res.Target = int(-1 - e.next)
	cur := slices.Clone(st)
	for _, ti := range res.Run {
		t := &s.net.Trans[ti]
		for _, pc := range t.Pre {
			if cur[pc.Place] < pc.Count {
				res.Reason = "internal error: a recorded run is not enabled"
				res.Run = nil
				return
			}
			cur[pc.Place] -= pc.Count
		}
		for _, pc := range t.Post {
			cur[pc.Place] += pc.Count
		}
	}
	if !e.m.Leq(MarkingOf(cur)) {
		res.Reason = "internal error: a recorded run does not cover its target"
		res.Run = nil
		return
	}
	res.Outcome, res.Start = automata.NonEmpty, st
}
