package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

func main() {
	bin := flag.String("pgasrob", "pgasrob", "the pgasrob binary")
	n := flag.String("n", "2", "the PE counts given to decide")
	limit := flag.Duration("timeout", 60*time.Second, "time limit per file (passed as --timeout; the process gets 10 s more)")
	extra := flag.String("args", "", "further arguments for decide, space separated")
	flag.Parse()
	var files []string
	for _, d := range flag.Args() {
		m, _ := filepath.Glob(filepath.Join(d, "*.c"))
		files = append(files, m...)
	}
	sort.Strings(files)
	counts := map[string]int{}
	reasons := map[string]int{}
	fmt.Println("| file | main, integer API | outcome | first message |")
	fmt.Println("|---|---|---|---|")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		class := inClass(src)
		outcome, msg := run(*bin, f, *n, *limit, strings.Fields(*extra))
		key := outcome
		if class {
			key += " (in class)"
		}
		counts[key]++
		if outcome == "refused" {
			reasons[shape(msg)]++
		}
		fmt.Printf("| %s | %v | %s | %s |\n", filepath.Base(f), yes(class), outcome, strings.ReplaceAll(msg, "|", `\|`))
	}
	fmt.Println()
	fmt.Println("| outcome | files |")
	fmt.Println("|---|---|")
	for _, k := range sortedKeys(counts) {
		fmt.Printf("| %s | %d |\n", k, counts[k])
	}
	fmt.Println()
	fmt.Println("| refusal | files |")
	fmt.Println("|---|---|")
	for _, k := range sortedKeys(reasons) {
		fmt.Printf("| %s | %d |\n", k, reasons[k])
	}
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

var (
	hasMain  = regexp.MustCompile(`\bint\s+main\s*\(`)
	nonInt   = regexp.MustCompile(`\b(float|double|_Complex|complex)\b|shmem_(float|double|longdouble|complexf|complexd)_|\bMPI_`)
	position = regexp.MustCompile(`^[^:]*:\d+:\d+: `)
	digits   = regexp.MustCompile(`\d+`)
)

// inClass reports whether a file has a main and uses only the integer API:
// no floating-point or complex type, no MPI.
func inClass(src []byte) bool { return hasMain.Match(src) && !nonInt.Match(src) }

// run decides one file and returns its outcome and the first line of its
// message.
func run(bin, file, n string, limit time.Duration, extra []string) (string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), limit+10*time.Second)
	defer cancel()
	args := append([]string{"decide", file, "-n", n, "--timeout", limit.String()}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			return "not run", err.Error()
		}
	}
	text := out.String()
	first := firstLine(text)
	switch {
	case code == 0:
		return "ROBUST", ""
	case code == 1:
		return "NOT ROBUST", ""
	case code == 3:
		return "UNKNOWN", first
	case code == 2 && strings.Contains(text, "RUN-TIME ERROR"):
		return "run-time error", first
	case code == 2:
		return "refused", position.ReplaceAllString(first, "")
	}
	return fmt.Sprintf("exit %d", code), first
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 160 {
				l = l[:160] + "…"
			}
			return l
		}
	}
	return ""
}

// shape groups refusals that differ only in names and numbers.
func shape(msg string) string {
	msg = position.ReplaceAllString(msg, "")
	if i := strings.IndexAny(msg, ":("); i > 0 {
		msg = msg[:i]
	}
	if w := strings.Fields(msg); len(w) > 4 {
		msg = strings.Join(w[:4], " ") + " …"
	}
	return digits.ReplaceAllString(msg, "#")
}

func sortedKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if m[ks[i]] != m[ks[j]] {
			return m[ks[i]] > m[ks[j]]
		}
		return ks[i] < ks[j]
	})
	return ks
}
