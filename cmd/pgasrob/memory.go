package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/pgas"
)

// The --max-memory discipline. The searches account for what they hold
// (visited sets, the move cache) against a share of the budget, but the
// process also pays for the garbage collector's headroom, transient copies
// while a hash table grows, witnesses and the runtime itself. So the
// command (1) gives the searches searchShare of the budget, (2) sets the
// Go runtime's soft memory limit below the budget so that the collector
// works harder instead of letting the heap double, and (3) watches the
// process's resident set and cancels the work, with the budget as
// the cause, when it nears the budget. What the user sees is UNKNOWN with
// "memory budget of M MiB reached", M being the number they gave.

// searchShare is the part of --max-memory given to the searches' own
// accounting; the rest is headroom for the collector and the runtime.
const searchShare = 0.5

// guardPeriod is how often the guard reads the resident set.
const guardPeriod = 5 * time.Millisecond

// searchBytes is the budget in bytes for the searches' own accounting.
func searchBytes(mib int64) int64 { return int64(float64(mib<<20) * searchShare) }

// memoryGuard returns a context that is cancelled, with the budget as its
// cause, when the process's resident set reaches 85% of mib MiB, and sets
// the runtime's soft limit to 70% of it. stop ends the guard.
func memoryGuard(parent context.Context, mib int64) (ctx context.Context, stop func()) {
	return pressureGuard(parent, mib, nil)
}

// pressureGuard is memoryGuard that also keeps pr (nil: none) up to date
// with the process's memory pressure (pressure.go): the state cache and
// the bounded tables of the searches then give way before the guard's
// 85% ends the work.
func pressureGuard(parent context.Context, mib int64, pr *automata.Pressure) (ctx context.Context, stop func()) {
	limit := mib << 20
	var gauge *heapGauge
	var freed time.Time // the last debug.FreeOSMemory
	if pr != nil {
		gauge = newHeapGauge()
	}
	old := debug.SetMemoryLimit(limit * 7 / 10)
	ctx, cancel := context.WithCancelCause(parent)
	// A timer that re-arms itself rather than a ticker's goroutine: a
	// command done within guardPeriod starts no goroutine for the guard.
	var mu sync.Mutex
	stopped := false
	var t *time.Timer
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(guardPeriod, func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped || ctx.Err() != nil {
			return
		}
		rss := resident()
		if pr != nil && rss > limit*85/100 && time.Since(freed) > freeEvery {
			// Part of the resident set may be memory the collector has
			// freed and the runtime not yet given back: give it back
			// before the resident set ends the work (pressure.go).
			debug.FreeOSMemory()
			freed, rss = time.Now(), resident()
		}
		if rss > limit*85/100 {
			cancel(fmt.Errorf("memory budget of %d MiB reached", mib))
			return
		}
		if pr != nil {
			pr.Set(pressed(pr.On(), gauge.live(), rss, limit))
		}
		t.Reset(guardPeriod)
	})
	return ctx, func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
}

// compileGuard watches the memory of reading and compiling a program,
// before a command's own guard starts; the function it returns ends the
// watch (the first call) and returns the budget's error if it was reached.
func compileGuard(mib int64) func() error {
	ctx, stop := memoryGuard(context.Background(), mib)
	var over error
	stopped := false
	return func() error {
		if !stopped {
			if ctx.Err() != nil {
				over = context.Cause(ctx)
			}
			stop()
			stopped = true
		}
		return over
	}
}

// resident is the process's resident set as the kernel counts it
// (/proc/self/statm), which is what an out-of-memory kill looks at. Where
// that file cannot be read it falls back to the memory the Go runtime holds
// from the OS and has not given back, an upper bound of the resident set
// less the binary. (runtime/metrics would give that figure without
// stopping the world, but its initialisation alone costs a tenth of a small
// TSO check.)
func resident() int64 {
	if b, err := pgas.ReadLimited("/proc/self/statm", 1<<20, "statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 2 {
			if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return pages * int64(os.Getpagesize())
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Sys - ms.HeapReleased)
}

// defaultMemoryMiB is the default of --max-memory: 60% of the memory the
// kernel says is available when the command starts, so that a decision
// that fits the machine is not cut short by a fixed default, and at least
// 256 MiB. Without /proc/meminfo it is 1536 MiB.
func defaultMemoryMiB() int64 {
	// pgas.ReadLimited rather than os.Open: it leaves the runtime's
	// network poller alone (see there), which a small check never needs.
	b, err := pgas.ReadLimited("/proc/meminfo", 1<<20, "meminfo")
	if err != nil {
		return 1536
	}
	for line := range strings.Lines(string(b)) {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				break
			}
			return max(256, kb*6/10>>10)
		}
	}
	return 1536
}

// memoryFlagHelp is the usage text of --max-memory.
const memoryFlagHelp = "bound in MiB on the peak memory of the whole process (the default is 60% of the memory available at start)"
