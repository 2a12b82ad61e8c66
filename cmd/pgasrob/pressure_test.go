package main

import (
	"runtime"
	"testing"
)

// TestPressed: the signal goes on past half the budget in live heap or
// three quarters in resident set, and off again only below 40 % of it
// in live heap (with the resident set below three quarters): between the
// two it keeps its value, so it does not flap around one threshold.
func TestPressed(t *testing.T) {
	const mib = 1 << 20
	limit := int64(1000 * mib)
	for _, c := range []struct {
		now       bool
		live, rss int64
		want      bool
	}{
		{false, 300 * mib, 600 * mib, false},
		{false, 501 * mib, 600 * mib, true},
		{false, 300 * mib, 751 * mib, true},
		{false, 450 * mib, 700 * mib, false}, // between: stays off
		{true, 450 * mib, 700 * mib, true},   // between: stays on
		{true, 399 * mib, 700 * mib, false},
		{true, 100 * mib, 760 * mib, true},
	} {
		if got := pressed(c.now, c.live, c.rss, limit); got != c.want {
			t.Errorf("pressed(%v, live %d MiB, rss %d MiB) = %v, want %v", c.now, c.live/mib, c.rss/mib, got, c.want)
		}
	}
}

// TestHeapGauge: the live heap reads as a positive figure below what the
// runtime holds (a gauge of 0 would leave the signal to the resident set
// alone).
func TestHeapGauge(t *testing.T) {
	keep := make([]byte, 8<<20)
	for i := range keep {
		keep[i] = byte(i)
	}
	runtime.GC() // the live heap is the last collection's figure
	g := newHeapGauge()
	if live := g.live(); live <= 0 || live > resident()+int64(len(keep)) {
		t.Fatalf("live heap %d bytes, resident %d", live, resident())
	}
	_ = keep[len(keep)-1]
}
