package main

import (
	"runtime/metrics"
	"time"
)

// Memory pressure (automata.Pressure), as the guard of a decision sees
// it. The searches' own counts (visited sets, the move table, the memos)
// miss what the process pays beside them: the normal form's tables, the
// garbage collector's headroom, transient copies, the runtime. So the
// signal is taken from the process itself, in two readings:
//
//   - the Go heap's live bytes after the last collection: what the
//     process holds and cannot give back. The soft limit is 70% of the
//     budget, so live bytes past pressureLive leave the collector too
//     little headroom and the state cache whatever room it needs;
//   - the resident set, which the guard stops at 85%: past pressureRSS
//     the guard is near whatever the heap says.
//
// The signal goes off again below pressureOff of the budget in both
// readings (a search that ended gave its visited set back), so that the
// searches started then get an exact visited set of their own; a
// search that has frozen its visited set stays frozen.
//
// At its 85% the guard first has the runtime give the memory it freed
// back to the system (debug.FreeOSMemory: a full collection, at most
// once every freeEvery, which bounds its cost on a large heap), so that
// memory the heap no longer uses does not end the work.
const (
	pressureLive = 0.50
	pressureRSS  = 0.75
	pressureOff  = 0.40
	freeEvery    = 10 * time.Second
)

// pressed is the next value of the signal, now being the current one,
// for live heap bytes, resident bytes rss and a budget of limit bytes.
func pressed(now bool, live, rss, limit int64) bool {
	l := float64(limit)
	if float64(live) > pressureLive*l || float64(rss) > pressureRSS*l {
		return true
	}
	if now {
		return float64(live) > pressureOff*l || float64(rss) > pressureRSS*l
	}
	return false
}

// heapGauge reads the live heap from runtime/metrics (no stop of the
// world); it is only made by a guard that keeps a pressure signal.
type heapGauge struct{ s []metrics.Sample }

func newHeapGauge() *heapGauge {
	return &heapGauge{s: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// live is the heap's live bytes as of the last collection, 0 when the
// runtime does not give them.
func (g *heapGauge) live() int64 {
	metrics.Read(g.s)
	if g.s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(g.s[0].Value.Uint64())
}
