package main

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptInstalledLate: the SIGINT/SIGTERM handler is installed
// after signalDelay and then turns the signal into a cancellation whose
// cause names it; stopping before the delay installs nothing and cancels
// with no signal as the cause.
func TestInterruptInstalledLate(t *testing.T) {
	ctx, stop := interruptContext()
	stop()
	time.Sleep(2 * signalDelay)
	if c := context.Cause(ctx); c != context.Canceled {
		t.Fatalf("stopped before the delay: cause %v, want context.Canceled", c)
	}

	ctx, stop = interruptContext()
	defer stop()
	time.Sleep(3 * signalDelay)
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM after the delay did not cancel the context")
	}
	if got := context.Cause(ctx).Error(); got != "terminated signal received" {
		t.Errorf("cause %q", got)
	}
}

// TestMemoryGuardCancels: the guard, armed by a timer rather than a
// goroutine, still fires: with a budget far below what the process holds,
// it cancels within a few periods and names the budget.
func TestMemoryGuardCancels(t *testing.T) {
	ctx, stop := memoryGuard(context.Background(), 1)
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a 1 MiB budget did not cancel")
	}
	if got := context.Cause(ctx).Error(); got != "memory budget of 1 MiB reached" {
		t.Errorf("cause %q", got)
	}

	ctx, stop = memoryGuard(context.Background(), 1<<20)
	time.Sleep(4 * guardPeriod)
	stop()
	if c := context.Cause(ctx); c != context.Canceled {
		t.Errorf("a 1 TiB budget: cause %v, want context.Canceled after stop", c)
	}
}

// TestResident: the guard's figure is the kernel's resident set: within
// what /proc/self/status says (read independently) give or take what the
// test allocates in between, and never zero.
func TestResident(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/status is Linux's")
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	var kb int64
	for l := range strings.Lines(string(b)) {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, err = strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	r := resident()
	if r <= 0 || kb <= 0 {
		t.Fatalf("resident %d, VmRSS %d kB", r, kb)
	}
	if d := r - kb<<10; d < -(16<<20) || d > 16<<20 {
		t.Errorf("resident %d bytes, VmRSS %d kB", r, kb)
	}
}
