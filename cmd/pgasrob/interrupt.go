package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interruptContext is the one interrupt discipline of every long-running
// command: the first SIGINT or SIGTERM cancels the returned context, so the
// work ends promptly and the command reports what it has (UNKNOWN, exit 3,
// valid JSON under --json). After that first signal the default handling
// is restored, so a second Ctrl-C kills the process at once.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}
