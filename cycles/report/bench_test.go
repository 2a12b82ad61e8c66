package report

import (
	"io"
	"os"
	"testing"
)

// The renderers on the 300-event computation of testdata/long-path.pgas
// (a run-time error after 299 events) and on flag-put.c's witness:
// measured, not asserted (benchstat compares runs).
func BenchmarkRender(b *testing.B) {
	p, o := decided(b, "../cycles/report/testdata/long-path.pgas", 1)
	src, _ := os.ReadFile("testdata/long-path.pgas")
	long := File{Path: "long-path.pgas", Prog: p, Src: src, Outcomes: []Outcome{o}}
	q, o2 := decided(b, "shmem/flag-put.c", 2)
	src2, _ := os.ReadFile("../../examples/shmem/flag-put.c")
	small := File{Path: "flag-put.c", Prog: q, Src: src2, Outcomes: []Outcome{o2}}
	for _, f := range []File{long, small} {
		b.Run("html/"+f.Path, func(b *testing.B) {
			for b.Loop() {
				_ = WriteHTML(io.Discard, f)
			}
		})
		b.Run("sarif/"+f.Path, func(b *testing.B) {
			for b.Loop() {
				_ = WriteSARIF(io.Discard, []File{f}, "0")
			}
		})
		b.Run("gcc/"+f.Path, func(b *testing.B) {
			for b.Loop() {
				WriteGCC(io.Discard, f.Path, f.Prog, f.Outcomes)
			}
		})
	}
}
