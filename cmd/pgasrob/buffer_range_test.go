package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A buffer the collapse law shrinks is shrunk for each N of a range: the
// program, within the cell limits at full size, is translated per N
// (cfront.BuffersPerN); the warnings, printed once, say what the first N
// kept, and every ROBUST N names the assumption. The verdicts are
// those of message passing: NOT ROBUST without a fence (the payload's
// last element may arrive after the flag PE 1 has seen), ROBUST with one.
func TestDecideRangeBuffers(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		fence, word string
		code        int
	}{{"", ": NOT ROBUST", exitNotRobust}, {"shmem_fence();", ": ROBUST", exitRobust}} {
		src := `#include <shmem.h>
#include <stdio.h>
static long data[16];
static long flag;
int main(void) {
  int me = shmem_my_pe();
  long src[16];
  if (me == 0) {
    shmem_long_put(data, src, 16, 1);
    ` + c.fence + `
    shmem_long_p(&flag, 1, 1);
  }
  if (me == 1) {
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    printf("%ld\n", data[15]);
  }
  return 0;
}
`
		f := filepath.Join(dir, "mp.c")
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCmd("decide", f, "-n", "2..3")
		all := out + errs
		if c.code == exitRobust && strings.Count(all, "buffer-collapse") != 2 {
			t.Errorf("fence %q: want buffer-collapse assumed for both N\n%s", c.fence, all)
		}
		if code != c.code {
			t.Errorf("fence %q: exit %d, want %d\n%s", c.fence, code, c.code, all)
		}
		for _, want := range []string{"N = 2" + c.word, "N = 3" + c.word,
			"buffer data: 16 elements checked as 3 for N = 2, data[0..1], data[15]"} {
			if !strings.Contains(all, want) {
				t.Errorf("fence %q: no %q in\n%s", c.fence, want, all)
			}
		}
	}
}
