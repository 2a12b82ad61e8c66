package oracle

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// numbers is a search over the integers: n moves to 2n and 2n+1 below
// 16, and to n/2 (already seen, so never expanded twice); a node's length
// is its number of binary digits.
func numbers(b Budget, visit func(int) bool) (*search[int], []int) {
	var order []int
	s := newSearch[int](b, time.Time{}, "longer than %d")
	s.key = strconv.Itoa
	s.length = func(n int) int { return len(strconv.FormatInt(int64(n), 2)) }
	s.visit = func(n int) bool {
		order = append(order, n)
		return visit(n)
	}
	s.moves = func(n int, next func(int)) {
		for _, m := range []int{2 * n, 2*n + 1, n / 2} {
			if m > 0 && m < 16 {
				next(m)
			}
		}
	}
	s.explore(1)
	return s, order
}

// TestSearchSkeleton: the skeleton expands every node once, depth-first in
// the order of the moves, stops at the first node visit accepts, stops
// with the reason on the node budget and the length limit, and with
// bounded cuts long nodes and goes on.
func TestSearchSkeleton(t *testing.T) {
	none := func(int) bool { return false }
	s, order := numbers(Budget{}, none)
	want := "1 2 4 8 9 5 10 11 3 6 12 13 7 14 15"
	if got := strings.TrimSpace(strconvs(order)); got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	if r := s.verdict(); r.Verdict != prog.Robust || r.Nodes != 15 {
		t.Errorf("complete search: %v after %d nodes, want ROBUST after 15", r.Verdict, r.Nodes)
	}

	s, order = numbers(Budget{}, func(n int) bool { return n == 5 })
	if r := s.verdict(); r.Verdict != prog.NotRobust || order[len(order)-1] != 5 || r.Nodes != 6 {
		t.Errorf("found 5: %v after %v", r.Verdict, order)
	}

	s, _ = numbers(Budget{MaxNodes: 4}, none)
	if r := s.verdict(); r.Verdict != prog.Unknown || !strings.Contains(r.Reason, "node budget of 4") {
		t.Errorf("node budget: %v (%s)", r.Verdict, r.Reason)
	}

	s, _ = numbers(Budget{MaxEvents: 3}, none)
	if r := s.verdict(); r.Verdict != prog.Unknown || r.Reason != "longer than 3" {
		t.Errorf("length limit: %v (%s)", r.Verdict, r.Reason)
	}

	s = newSearch[int](Budget{MaxEvents: 3}, time.Time{}, "longer than %d")
	s.bounded = true
	var seen []int
	s.key, s.length = strconv.Itoa, func(n int) int { return len(strconv.FormatInt(int64(n), 2)) }
	s.visit = func(n int) bool { seen = append(seen, n); return false }
	s.moves = func(n int, next func(int)) { next(2 * n); next(2*n + 1) }
	s.explore(1)
	if r := s.verdict(); r.Verdict != prog.Robust || !s.cut || len(seen) != 7 {
		t.Errorf("bounded: %v, cut %v, visited %v; want ROBUST, cut, the 7 numbers of at most 3 digits", r.Verdict, s.cut, seen)
	}
}

func strconvs(v []int) string {
	var b strings.Builder
	for _, n := range v {
		b.WriteString(strconv.Itoa(n) + " ")
	}
	return b.String()
}
