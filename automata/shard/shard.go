package shard

import (
	"fmt"
	"sort"
)

// Shard names one of Count parts of a list of independent searches (the
// cycle types of a decision, the attacks of a TSO check), so that the
// parts can run as separate processes, for instance the tasks of a Slurm
// job array, and be merged afterwards. Index counts from 1; the zero
// Shard is the whole list.
type Shard struct {
	Index, Count int
}

// Whole reports whether s is the whole list (no sharding).
func (s Shard) Whole() bool { return s.Count <= 1 }

func (s Shard) String() string {
	if s.Whole() {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Valid reports whether s names a part that exists.
func (s Shard) Valid() bool {
	return s == Shard{} || (s.Count >= 1 && s.Index >= 1 && s.Index <= s.Count)
}

// Assign splits items with the given cost estimates into k parts and
// returns the part (0..k-1) of each item. It is the greedy
// longest-processing-time rule: items in decreasing order of cost (ties by
// position) each go to the part with the least cost so far (ties: the
// lowest part), which is within 4/3 of the best split and, with equal
// costs, deals the items out in turn, so every part gets a mix of the
// list's beginning and end. It depends only on its arguments: every shard
// of a run computes the same split.
func Assign(costs []float64, k int) []int {
	part := make([]int, len(costs))
	if k <= 1 {
		return part
	}
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] > costs[order[b]] })
	load := make([]float64, k)
	for _, i := range order {
		best := 0
		for j := 1; j < k; j++ {
			if load[j] < load[best] {
				best = j
			}
		}
		part[i] = best
		load[best] += max(costs[i], 0)
	}
	return part
}
