package cfront_test

// Hand-argued tests of buffers of per-PE blocks (buffer_block.go) and of
// sizes held in locals set once to a constant.

import (
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// blockMP is message passing through PE 0's block of an all-to-all
// buffer of 10 elements per PE: PE 0 puts its block into all[0..9] on
// PE 1 (non-blocking), then sets PE 1's flag; PE 1 waits for the flag,
// computes the sender's number from it (k = flag - 1, a value known only
// at run time), sums the sender's block all[k * 10 + j] and checks the
// sum at the end (a dead check, entry 18).
func blockMP(fence string) string {
	return `#include <shmem.h>
#include <stdlib.h>
static long flag;
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  long *all = shmem_malloc(10 * npes * sizeof(long));
  long *my = malloc(10 * sizeof(long));
  long sum = 0;
  for (int i = 0; i < 10; i++) my[i] = me * 10 + i;
  if (me == 0) {
    shmem_long_put_nbi(&all[me * 10], my, 10, 1);
    ` + fence + `
    shmem_long_p(&flag, 1, 1);
  }
  if (me == 1) {
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    long k = flag - 1;
    for (int j = 0; j < 10; j++) sum += all[k * 10 + j];
  }
  if (sum != 45 && me == 1) shmem_global_exit(1);
  shmem_finalize();
  return 0;
}
`
}

// TestBlockMessagePassing: without a fence, the put's delivery of an
// element of the block may come after the flag's, which PE 1 has seen
// before loading that element: the message-passing cycle (NOT ROBUST,
// as examples/shmem/mp-none.c). With shmem_fence() the deliveries to PE 1
// are ordered and PE 1 loads after its wait: ROBUST. The buffer is
// checked as 2 elements per block (N = 2, one interval of 10), and the
// verdicts are those of the hand argument.
func TestBlockMessagePassing(t *testing.T) {
	for _, c := range []struct {
		fence  string
		robust bool
	}{{"", false}, {"shmem_fence();", true}} {
		p, err := cfront.Compile("mp.c", []byte(blockMP(c.fence)), cfront.Options{N: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !blocked(p) || !strings.Contains(assumptionText(p), "all: 20 elements checked as 4 (all[0..1] of each block of 10)") {
			t.Fatalf("want all shrunk to 2 per block: %s", assumptionText(p))
		}
		r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
		if err != nil || (r.Verdict == cycles.Robust) != c.robust || (r.Verdict != cycles.Robust && r.Verdict != cycles.NotRobust) {
			t.Errorf("fence %q: got %v %v, want robust = %v", c.fence, r.Verdict, err, c.robust)
		}
	}
}

func assumptionText(p *pgas.Program) string {
	var s []string
	for _, a := range p.Assumptions {
		s = append(s, a.Text)
	}
	return strings.Join(s, "\n")
}

// TestBlockKeptWhole: each shape outside the block forms keeps the
// buffer at its size (5 per PE, 10 cells at N = 2: translated whole), so
// nothing is shrunk unseen: an index that is not k * B + rest, a block
// number that reads the buffer itself, one that uses the loop counter, a
// constant block number (the translation would fold k * B whole), a rest
// past the block.
func TestBlockKeptWhole(t *testing.T) {
	for _, use := range []string{
		"all[from] = 1;",
		"for (int i = 0; i < 5; i++) printf(\"%ld\\n\", all[all[0] * 5 + i]);",
		"for (int i = 0; i < 5; i++) printf(\"%ld\\n\", all[i * 5 + i]);",
		"printf(\"%ld\\n\", all[1 * 5 + 2]);",
		"all[from * 5 + 5] = 1;",
		"for (int i = 0; i < 5; i++) printf(\"%ld\\n\", all[from * 4 + i]);",
		// an index array a get may write (its cells could change between
		// the elements of a run)
		"shmem_long_get(&ix[0], &flag, 1, 1); for (int i = 0; i < 5; i++) printf(\"%ld\\n\", all[ix[0] * 5 + i]);",
	} {
		src := `#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
static long flag;
int main(void) {
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  long *all = shmem_malloc(5 * npes * sizeof(long));
  long my[5];
  long *ix = malloc(sizeof(long));
  int from = flag;
  shmem_long_put(&all[me * 5], my, 5, 1);
  ` + use + `
  return 0;
}
`
		p, err := cfront.Compile("w.c", []byte(src), cfront.Options{N: 2})
		if err != nil {
			t.Fatalf("%s: %v", use, err)
		}
		if blocked(p) {
			t.Errorf("%s: all shrunk: %s", use, assumptionText(p))
		}
	}
}

// TestBlockSizeLocal: a size held in a local set once to a constant
// (size_t size = 20, the put-with-signal example's shape) counts as 20:
// the message and the data are shrunk to N = 2 elements, and the single
// message from PE 0 to PE 1, which only waits for its signal, is ROBUST
// (one writer, one reader of each cell: no cycle).
func TestBlockSizeLocal(t *testing.T) {
	src := `#include <shmem.h>
#include <stdlib.h>
int main(void) {
  shmem_init();
  int size = 20;
  int mype = shmem_my_pe();
  static uint64_t sig = 0;
  long *message = malloc(size * sizeof(long));
  for (int i = 0; i < size; i++) message[i] = mype;
  long *data = shmem_calloc(size, sizeof(long));
  if (mype == 0) shmem_long_put_signal(data, message, size, &sig, 1, SHMEM_SIGNAL_SET, 1);
  else shmem_wait_until(&sig, SHMEM_CMP_EQ, 1);
  free(message);
  shmem_free(data);
  shmem_finalize();
  return 0;
}
`
	p, err := cfront.Compile("s.c", []byte(src), cfront.Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if txt := assumptionText(p); !strings.Contains(txt, "message: 20 elements checked as 2") || !strings.Contains(txt, "data: 20 elements checked as 2") {
		t.Fatalf("want message and data shrunk to 2: %s", txt)
	}
	r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
	if err != nil || r.Verdict != cycles.Robust {
		t.Errorf("got %v %v, want ROBUST", r.Verdict, err)
	}
}
