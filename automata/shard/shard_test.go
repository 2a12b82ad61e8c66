package shard

import (
	"math/rand/v2"
	"testing"
)

func TestAssign(t *testing.T) {
	tests := []struct {
		costs []float64
		k     int
		want  []int
	}{
		{[]float64{1, 1, 1, 1, 1}, 2, []int{0, 1, 0, 1, 0}},
		{[]float64{1, 1, 1}, 1, []int{0, 0, 0}},
		{[]float64{1, 1}, 5, []int{0, 1}},
		// 7 alone balances 3+2+2: LPT puts the big item first.
		{[]float64{2, 7, 3, 2}, 2, []int{1, 0, 1, 1}},
		{nil, 3, []int{}},
	}
	for _, tc := range tests {
		got := Assign(tc.costs, tc.k)
		if len(got) != len(tc.want) {
			t.Fatalf("Assign(%v, %d) = %v, want %v", tc.costs, tc.k, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("Assign(%v, %d) = %v, want %v", tc.costs, tc.k, got, tc.want)
			}
		}
	}
}

// Every item gets exactly one part, and the heaviest part is within the
// LPT bound of 4/3 of the best split, found here by trying every split.
func TestAssignBalance(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 300; trial++ {
		n, k := 1+r.IntN(8), 1+r.IntN(3)
		costs := make([]float64, n)
		for i := range costs {
			costs[i] = float64(1 + r.IntN(1000))
		}
		part := Assign(costs, k)
		load := make([]float64, k)
		for i, p := range part {
			if p < 0 || p >= k {
				t.Fatalf("item %d in part %d of %d", i, p, k)
			}
			load[p] += costs[i]
		}
		if worst, best := maxLoad(costs, part, k), bestSplit(costs, k); worst > best*4/3+1e-9 {
			t.Fatalf("costs %v in %d parts: worst load %v > 4/3 of the best %v", costs, k, worst, best)
		}
	}
}

func maxLoad(costs []float64, part []int, k int) float64 {
	load := make([]float64, k)
	for i, p := range part {
		load[p] += costs[i]
	}
	worst := 0.0
	for _, l := range load {
		worst = max(worst, l)
	}
	return worst
}

// bestSplit tries all k^n splits.
func bestSplit(costs []float64, k int) float64 {
	part := make([]int, len(costs))
	best := -1.0
	var try func(i int)
	try = func(i int) {
		if i == len(costs) {
			if w := maxLoad(costs, part, k); best < 0 || w < best {
				best = w
			}
			return
		}
		for p := 0; p < k; p++ {
			part[i] = p
			try(i + 1)
		}
	}
	try(0)
	return best
}

func TestShardValid(t *testing.T) {
	for _, tc := range []struct {
		s  Shard
		ok bool
	}{{Shard{}, true}, {Shard{1, 1}, true}, {Shard{3, 3}, true}, {Shard{0, 3}, false}, {Shard{4, 3}, false}, {Shard{1, 0}, false}} {
		if tc.s.Valid() != tc.ok {
			t.Errorf("%+v.Valid() = %v", tc.s, !tc.ok)
		}
	}
}
