package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// interruptContext is the one interrupt discipline of every long-running
// command: the first SIGINT or SIGTERM cancels the returned context, so the
// work ends promptly and the command reports what it has (UNKNOWN, exit 3,
// valid JSON under --json). After that first signal the default handling
// is restored, so a second Ctrl-C kills the process at once.
//
// The handler is installed only after signalDelay. Installing it costs a
// thread locked to the signal mask and several thread hand-offs, about as
// much CPU as a whole check of a small TSO program; a command that is done
// before then never pays it, and a signal that arrives earlier ends the
// process as it would any program (docs/cli.md, exit codes).
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var mu sync.Mutex
	ended := false
	var release func()
	install := time.AfterFunc(signalDelay, func() {
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		done := make(chan struct{})
		release = func() {
			signal.Stop(ch)
			close(done)
		}
		go func() {
			select {
			case s := <-ch:
				signal.Stop(ch)
				cancel(fmt.Errorf("%v signal received", s))
			case <-done:
			}
		}()
	})
	return ctx, func() {
		install.Stop()
		mu.Lock()
		ended = true
		if release != nil {
			release()
			release = nil
		}
		mu.Unlock()
		cancel(context.Canceled)
	}
}

// signalDelay is how long a command runs before it takes over SIGINT and
// SIGTERM.
const signalDelay = 20 * time.Millisecond
