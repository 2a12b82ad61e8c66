package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// The --max-memory discipline. The searches account for what they hold
// (visited sets, the move cache) against a share of the budget, but the
// process also pays for the garbage collector's headroom, transient copies
// while a hash table grows, witnesses and the runtime itself. So the
// command (1) gives the searches searchShare of the budget, (2) sets the
// Go runtime's soft memory limit below the budget so that the collector
// works harder instead of letting the heap double, and (3) watches the
// memory the runtime has mapped and cancels the work, with the budget as
// the cause, when it nears the budget. What the user sees is UNKNOWN with
// "memory budget of M MiB reached", M being the number they gave.

// searchShare is the part of --max-memory given to the searches' own
// accounting; the rest is headroom for the collector and the runtime.
const searchShare = 0.5

// guardPeriod is how often the guard reads the runtime's figures.
const guardPeriod = 5 * time.Millisecond

// searchBytes is the budget in bytes for the searches' own accounting.
func searchBytes(mib int64) int64 { return int64(float64(mib<<20) * searchShare) }

// memoryGuard returns a context that is cancelled, with the budget as its
// cause, when the process's mapped memory reaches 85% of mib MiB, and sets
// the runtime's soft limit to 70% of it. stop ends the guard.
func memoryGuard(parent context.Context, mib int64) (ctx context.Context, stop func()) {
	limit := mib << 20
	old := debug.SetMemoryLimit(limit * 7 / 10)
	ctx, cancel := context.WithCancelCause(parent)
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(guardPeriod)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if mapped() > limit*85/100 {
					cancel(fmt.Errorf("memory budget of %d MiB reached", mib))
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
}

var memSamples = []metrics.Sample{
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// mapped is the memory the Go runtime holds from the OS and has not given
// back: an upper bound of this process's resident set, less the binary.
func mapped() int64 {
	metrics.Read(memSamples)
	return int64(memSamples[0].Value.Uint64()) - int64(memSamples[1].Value.Uint64())
}

// defaultMemoryMiB is the default of --max-memory: 60% of the memory the
// kernel says is available when the command starts, so that a decision
// that fits the machine is not cut short by a fixed default, and at least
// 256 MiB. Without /proc/meminfo it is 1536 MiB.
func defaultMemoryMiB() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 1536
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
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
