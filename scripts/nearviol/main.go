package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/pgasrob/pgasrob/tso/family"
	"github.com/pgasrob/pgasrob/tso/gen"
)

var gens = map[string]func(int) string{
	"flagring": family.FlagRing, "dijkstra": family.Dijkstra, "burns": family.Burns,
	"peterson": family.Peterson, "wsq": family.WorkSteal,
	// the families of issues 4 and 10, where we lead
	"private": gen.Private, "ring": gen.Ring, "uring": gen.UnfencedRing,
}

type run struct {
	verdict          string
	states           int64
	wall, cpu        time.Duration
	rssKiB           int64
	timedOut, failed bool
}

func main() {
	ours := flag.String("pgasrob", "pgasrob", "path of the pgasrob binary")
	theirs := flag.String("trencher", os.Getenv("PGASROB_TRENCHER"), "path of the trencher binary (empty: ours only)")
	old := flag.String("old", "", "path of an older pgasrob binary to measure in the same run (empty: none)")
	oldTimeout := flag.Duration("old-timeout", 10*time.Second, "kill a run of the older binary after this long")
	fams := flag.String("families", "flagring,dijkstra,burns,peterson,wsq", "families, comma-separated")
	sizes := flag.String("n", "2-12", "sizes, LO-HI")
	timeout := flag.Duration("timeout", 60*time.Second, "kill a run after this long")
	flag.Parse()
	var lo, hi int
	if _, err := fmt.Sscanf(*sizes, "%d-%d", &lo, &hi); err != nil {
		fmt.Fprintln(os.Stderr, "nearviol: -n wants LO-HI")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "nearviol")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer os.RemoveAll(dir)
	head, rule := "| program |", "|---|"
	if *old != "" {
		head, rule = head+" old: verdict | states | wall | CPU | RSS |", rule+"---|---|---|---|---|"
	}
	head, rule = head+" ours: verdict | states | wall | CPU | RSS |", rule+"---|---|---|---|---|"
	if *theirs != "" {
		head, rule = head+" reference: verdict | states | wall | CPU | RSS |", rule+"---|---|---|---|---|"
	}
	fmt.Println(head)
	fmt.Println(rule)
	for _, f := range strings.Split(*fams, ",") {
		gen := gens[f]
		if gen == nil {
			fmt.Fprintf(os.Stderr, "nearviol: no family %q\n", f)
			os.Exit(2)
		}
		for n := lo; n <= hi; n++ {
			text := gen(n)
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.txt", f, n))
			ref := filepath.Join(dir, fmt.Sprintf("%s-%d.ref.txt", f, n))
			must(os.WriteFile(file, []byte(text), 0o644))
			must(os.WriteFile(ref, []byte(regexp.MustCompile(`(?m)^memory_size.*\n`).ReplaceAllString(text, "")), 0o644))
			row := fmt.Sprintf("| %s N = %d |", f, n)
			if *old != "" {
				o := measure(*oldTimeout, *old, "tso", "--jobs", "1", "--json", file)
				o.parseOurs()
				row += fmt.Sprintf(" %s |", o.cells())
			}
			a := measure(*timeout, *ours, append(append([]string{"tso", "--jobs", "1", "--json"}, flag.Args()...), file)...)
			a.parseOurs()
			row += fmt.Sprintf(" %s |", a.cells())
			if *theirs != "" {
				b := measure(*timeout, *theirs, "-r", "-b", ref)
				b.parseTheirs()
				row += fmt.Sprintf(" %s |", b.cells())
			}
			fmt.Println(row)
		}
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

var out = map[*run][]byte{}

func measure(timeout time.Duration, bin string, args ...string) *run {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	start := time.Now()
	b, err := cmd.Output()
	r := &run{wall: time.Since(start)}
	out[r] = b
	if ctx.Err() != nil {
		r.timedOut = true
	}
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.rssKiB = ru.Maxrss
		}
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() && !r.timedOut {
			r.failed = true
		}
	}
	_ = err
	return r
}

func (r *run) parseOurs() {
	var j struct {
		Verdict string `json:"verdict"`
		Stats   struct {
			States int64 `json:"visited_states"`
		} `json:"stats"`
	}
	if json.Unmarshal(out[r], &j) == nil {
		r.verdict, r.states = j.Verdict, j.Stats.States
	}
}

func (r *run) parseTheirs() {
	s := string(out[r])
	if m := regexp.MustCompile(`visitedStatesCount (\d+)`).FindStringSubmatch(s); m != nil {
		fmt.Sscan(m[1], &r.states)
	}
	if m := regexp.MustCompile(`feasibleAttacksCount (\d+)`).FindStringSubmatch(s); m != nil {
		r.verdict = "robust"
		if m[1] != "0" {
			r.verdict = "not robust"
		}
	}
}

func (r *run) cells() string {
	v := r.verdict
	switch {
	case r.timedOut:
		v = "timeout"
	case r.failed:
		v = "crashed"
	case v == "":
		v = "?"
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
	return fmt.Sprintf("%s | %d | %s | %s | %d MiB", v, r.states, ms(r.wall), ms(r.cpu), r.rssKiB>>10)
}
