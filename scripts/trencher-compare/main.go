package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"
)

func main() {
	ours := flag.String("pgasrob", "pgasrob", "path of the pgasrob binary")
	theirs := flag.String("trencher", os.Getenv("PGASROB_TRENCHER"), "path of the trencher binary (default $PGASROB_TRENCHER)")
	runs := flag.Int("runs", 5, "runs per tool and input; the median is reported")
	slow := flag.Duration("slow", 5*time.Second, "a first run longer than this is not repeated")
	timeout := flag.Duration("timeout", 60*time.Second, "kill a run after this long")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: trencher-compare [flags] FILE...\n\nCPU time of pgasrob tso against trencher -r, medians, as a Markdown table.\n\nflags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *theirs == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	fmt.Println("| input | pgasrob CPU | trencher CPU | ours / theirs |")
	fmt.Println("|---|---|---|---|")
	for _, f := range flag.Args() {
		a, aok := median(*runs, *slow, *timeout, *ours, "tso", f)
		b, bok := median(*runs, *slow, *timeout, *theirs, "-r", f)
		ratio := "—"
		if aok && bok && a > 0 && b > 0 && a < *timeout && b < *timeout {
			ratio = fmt.Sprintf("%.2f", float64(a)/float64(b))
		}
		fmt.Printf("| %s | %s | %s | %s |\n", filepath.Base(f), show(a, aok, *timeout), show(b, bok, *timeout), ratio)
	}
}

func show(d time.Duration, ok bool, timeout time.Duration) string {
	if !ok {
		return fmt.Sprintf("crashed after %.1f ms", float64(d)/1e6)
	}
	if d >= timeout {
		return "> " + timeout.String()
	}
	return fmt.Sprintf("%.1f ms", float64(d)/1e6)
}

// median runs the command up to n times and returns the median CPU time,
// or timeout when a run was killed; ok is false when the program died of a
// signal (the reference tool overflows its stack on large inputs) or
// exited with a status that is not a verdict (0 or 1).
func median(n int, slow, timeout time.Duration, bin string, args ...string) (d time.Duration, ok bool) {
	var ts []time.Duration
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		cmd := exec.CommandContext(ctx, bin, args...)
		err := cmd.Run()
		killed := ctx.Err() == context.DeadlineExceeded
		cancel()
		if killed {
			return timeout, true
		}
		if cmd.ProcessState == nil {
			fmt.Fprintf(os.Stderr, "trencher-compare: %s: %v\n", bin, err)
			os.Exit(2)
		}
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		// pgasrob exits 1 for NOT ROBUST; anything else is a failure.
		if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
			return cpu, false
		}
		ts = append(ts, cpu)
		if ts[0] > slow {
			break
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2], true
}
