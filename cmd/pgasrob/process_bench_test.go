package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	tsogen "github.com/pgasrob/pgasrob/tso/gen"
)

// BenchmarkProcess measures whole `pgasrob tso FILE` and `pgasrob decide`
// processes, start-up included, as a user running one file at a time
// pays them (issue 10: the reference tool is a process per file too). It
// builds the command once (static, as README.md builds it) and reports
// the child's CPU time per run (rusage user + system) as cpu-ms/op beside
// its wall time (ns/op); with PGASROB_TRENCHER set, the reference tool's CPU time
// on the same TSO file as trencher-cpu-ms/op. Compare builds with
// benchstat on cpu-ms/op:
//
//	go test ./cmd/pgasrob -run '^$' -bench Process -count 10
func BenchmarkProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "pgasrob")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Skipf("cannot build the command: %v\n%s", err, out)
	}
	trencher := os.Getenv("PGASROB_TRENCHER")
	dir := b.TempDir()
	type input struct {
		name string
		args []string
		tso  string // the file, for the reference tool
	}
	var inputs []input
	for _, f := range []struct {
		name string
		gen  func(int) string
		ns   []int
	}{{"uring", tsogen.UnfencedRing, []int{2, 4, 8}}, {"private", tsogen.Private, []int{2, 4, 6}}, {"ring", tsogen.Ring, []int{2, 4, 6}}} {
		for _, n := range f.ns {
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.txt", f.name, n))
			if err := os.WriteFile(file, []byte(f.gen(n)), 0o644); err != nil {
				b.Fatal(err)
			}
			inputs = append(inputs, input{fmt.Sprintf("tso/%s/N=%d", f.name, n), []string{"tso", file}, file})
		}
	}
	if corpus := filepath.Join("..", "..", "..", "shared", "corpus", "trencher"); dirExists(corpus) {
		for _, f := range []string{"trf", "dekker", "nbw-w-wr", "mcs-lock"} {
			file := filepath.Join(corpus, f+".txt")
			inputs = append(inputs, input{"tso/corpus/" + f, []string{"tso", file}, file})
		}
	}
	for _, f := range []string{"1to1", "handle"} {
		inputs = append(inputs, input{"decide/" + f + "/N=2", []string{"decide", filepath.Join("..", "..", "examples", f+".pgas"), "-n", "2"}, ""})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			var ours, theirs float64
			for i := 0; i < b.N; i++ {
				ours += childCPU(b, bin, in.args...)
				if trencher != "" && in.tso != "" {
					b.StopTimer()
					theirs += childCPU(b, trencher, "-r", in.tso)
					b.StartTimer()
				}
			}
			b.ReportMetric(ours/float64(b.N), "cpu-ms/op")
			if theirs > 0 {
				b.ReportMetric(theirs/float64(b.N), "trencher-cpu-ms/op")
			}
		})
	}
}

// childCPU runs a command to its end and returns its CPU time in ms. The
// exit code is not checked: NOT ROBUST exits 1.
func childCPU(b *testing.B, bin string, args ...string) float64 {
	c := exec.Command(bin, args...)
	if err := c.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			b.Fatalf("%s %v: %v", bin, args, err)
		}
	}
	ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		b.Skip("no rusage on this system")
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func dirExists(d string) bool {
	st, err := os.Stat(d)
	return err == nil && st.IsDir()
}
