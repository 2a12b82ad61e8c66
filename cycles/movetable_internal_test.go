package cycles

import (
	"slices"
	"testing"

	"github.com/pgasrob/pgasrob/normalform"
)

// TestRankStarts: where each rank's moves start, for moves in rank order
// with the barriers (rank 0) last, and nil for moves out of that order.
func TestRankStarts(t *testing.T) {
	moves := func(ranks ...int) []normalform.Move {
		var mv []normalform.Move
		for _, r := range ranks {
			mv = append(mv, normalform.Move{Rank: r})
		}
		return mv
	}
	for _, c := range []struct {
		ranks []int
		want  []int32 // ranks 1..n+1 of n = 3, index 0 unused
	}{
		{[]int{1, 1, 1, 2, 3, 3}, []int32{0, 0, 3, 4, 6}},
		{[]int{1, 3, 3, 0, 0}, []int32{0, 0, 1, 1, 3}},
		{[]int{2, 2}, []int32{0, 0, 0, 2, 2}},
		{nil, []int32{0, 0, 0, 0, 0}},
		{[]int{0}, []int32{0, 0, 0, 0, 0}},
		{[]int{2, 1}, nil},
		{[]int{1, 0, 2}, nil},
	} {
		got := rankStarts(moves(c.ranks...), 3)
		if !slices.Equal(got, c.want) {
			t.Errorf("ranks %v: starts %v, want %v", c.ranks, got, c.want)
		}
	}
}
