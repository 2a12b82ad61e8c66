package cfront_test

// A blocking put, or put-with-signal, of several elements whose symmetric
// source another PE writes: the call reads its source cells in every
// order (api_rma.go, sourceOrder), not just in index order.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// srcHidden: PE 1 puts src[0..1] to dst on PE 0 (CALL); PE 0 writes
// src[0] on PE 1, waits for it (quiet) and reads dst[1].
//
// Hand argument. Write Rᵢ for the read of src[i] (at issue: the put is
// blocking) and Wᵢ for the delivery of dst[i]; in SC each element's Rᵢ
// and Wᵢ are one step. Let X be PE 0's write of src[0], Y its load of
// dst[1]; X is complete before Y (quiet). The relaxed run "R₀ reads the
// old src[0], X, Y reads the old dst[1], then W₁" needs, in SC, R₀ < X
// (R₀ reads before X), X < Y, Y < R₁W₁ (Y reads before W₁). If the call
// reads src[0] first (index order) this is an SC order too: R₀W₀ < X <
// Y < R₁W₁, so that run is no violation, and nothing else of PE 1
// conflicts with PE 0 (R₁ and W₀ touch cells PE 0 does not): ROBUST. If
// it reads src[1] first, R₁W₁ < R₀W₀ as well, and R₁W₁ < R₀W₀ < X < Y <
// R₁W₁ is a cycle: NOT ROBUST. The specification fixes no order, so the
// program is NOT ROBUST; index order alone hides it.
const srcHidden = `#include <shmem.h>
#include <stdio.h>
static long src[2], dst[2], sig;
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  if (me == 1)
    CALL;
  if (me == 0) {
    shmem_long_p(&src[0], 1, 1);
    shmem_quiet();
    printf("%ld\n", dst[1]);
  }
  shmem_finalize();
  return 0;
}
`

var twoWay = regexp.MustCompile(`goto (\w+), (\w+)\n`)

// TestSourceOrderHidden decides srcHidden with the put and with the
// put-with-signal (its signal changes nothing above: no one reads it):
// NOT ROBUST, and the oracle agrees; with the choice cut down to its
// index-order branch (the second: permutations lists 1 0 first), ROBUST,
// the verdict the translation in index order gave (before, the call was
// refused instead).
func TestSourceOrderHidden(t *testing.T) {
	for _, call := range []string{"shmem_long_put(dst, src, 2, 0)", "shmem_long_put_signal(dst, src, 2, &sig, 1, SHMEM_SIGNAL_SET, 0)"} {
		src := strings.Replace(srcHidden, "CALL", call, 1)
		res, err := cfront.Translate("hide.c", []byte(src), cfront.Options{N: 2})
		if err != nil {
			t.Fatalf("%s: %v", call, err)
		}
		text := string(res.Source)
		m := twoWay.FindStringSubmatch(text)
		if m == nil || strings.Count(text, "goto "+m[1]+", ") != 1 {
			t.Fatalf("%s: no choice of two orders in\n%s", call, text)
		}
		second := text[strings.Index(text, m[2]+":\n"):]
		if strings.Contains(call, "signal") && !strings.Contains(second, ", 2, 0, 1)") ||
			!strings.Contains(call, "signal") && strings.Index(second, "putmem(src,") > strings.Index(second, "putmem(src + 1,") {
			t.Fatalf("%s: the second branch is not index order:\n%s", call, text)
		}
		indexOnly := strings.Replace(text, m[0], "goto "+m[2]+"\n", 1)
		for _, c := range []struct {
			what, text string
			want       cycles.Verdict
		}{{"every order", text, cycles.NotRobust}, {"index order", indexOnly, cycles.Robust}} {
			p, err := pgas.Compile("hide.pgas", []byte(c.text))
			if err != nil {
				t.Fatalf("%s, %s: %v\n%s", call, c.what, err, c.text)
			}
			r, err := decideWidened(p, 2, cycles.Options{Jobs: 1, Timeout: time.Minute})
			if err != nil || r.Verdict != c.want {
				t.Errorf("%s, %s: got %v %v, want %v", call, c.what, r.Verdict, err, c.want)
			}
			o := exploreWidened(p, 2, oracle.Bounds{MaxQueue: 8, MaxNodes: 1_000_000, Timeout: 20 * time.Second})
			if o.Err != nil || (o.Violation == nil) != (c.want == cycles.Robust) || o.Violation == nil && !o.Complete {
				t.Errorf("%s, %s: the oracle: violation %v, complete %v, err %v; want %v", call, c.what, o.Violation != nil, o.Complete, o.Err, c.want)
			}
		}
	}
}

// srcOrderProgram is a family for the collapse law (entry 15): buffers
// src, dst of n elements, PE 1 puts src to PE 0 (call: blocking, or with
// a signal), PE 0 writes cells of src on PE 1 (write) and waits for that
// (quiet), then optionally for the signal, and reads cells of dst (read).
// With sync ≥ 1 a barrier separates the write from the call, with sync 2
// another the call from the read. LEN is n and LAST n-1 in call, write
// and read.
func srcOrderProgram(n int, call, write, read string, sync int, wait bool) string {
	w := ""
	if wait {
		w = "shmem_long_wait_until(&sig, SHMEM_CMP_EQ, 1);"
	}
	b1, b2 := "", ""
	if sync >= 1 {
		b1 = "shmem_barrier_all();"
	}
	if sync >= 2 {
		b2 = "shmem_barrier_all();"
	}
	r := strings.NewReplacer("LEN", fmt.Sprint(n), "LAST", fmt.Sprint(n-1))
	return fmt.Sprintf(`#include <shmem.h>
#include <stdio.h>
static long src[%d], dst[%d], sig;
int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  if (me == 0) {
    %s
    shmem_quiet();
  }
  %s
  if (me == 1)
    %s;
  %s
  if (me == 0) {
    %s
    %s
  }
  shmem_finalize();
  return 0;
}
`, n, n, r.Replace(write), b1, r.Replace(call), b2, w, r.Replace(read))
}

// TestSourceOrderCollapse: for n = 3, 4 the collapsed translation at
// N = 2 (every order of its fewer elements) and the full-size one (n!
// orders) give the same verdict, and the oracle on the full-size program
// agrees. The first two programs are srcHidden at size n (NOT ROBUST by
// the same argument, with LAST for 1). Constant indices split the
// buffers into intervals, so those collapse only at n = 4.
//
// The fifth: the barrier orders PE 0's write before the call, so only
// the deliveries to dst race with PE 0's reads of dst[0] then dst[1]. If
// the call issues element 1 before element 0 (R₁W₁ < R₀W₀ in SC), the
// run "W₀, Y₀ reads the new dst[0], Y₁ reads the old dst[1], W₁" needs
// R₀W₀ < Y₀ < Y₁ < R₁W₁ < R₀W₀, a cycle: NOT ROBUST, though in index
// order it is an SC order (R₀W₀ < Y₀ < Y₁ < R₁W₁). The sixth has a
// second barrier before the reads, which then see every delivery, and PE
// 0's write is complete before the call: every conflict is ordered by
// the barriers, ROBUST.
func TestSourceOrderCollapse(t *testing.T) {
	put, psig := "shmem_long_put(dst, src, LEN, 0)", "shmem_long_put_signal(dst, src, LEN, &sig, 1, SHMEM_SIGNAL_SET, 0)"
	// A put of one element to src[0] (as in srcHidden), or of all of
	// them, from a private buffer.
	w0 := "long loc[LEN]; for (int i = 0; i < LEN; i++) loc[i] = 1; shmem_long_put(src, loc, 1, 1);"
	wAll := "long loc[LEN]; for (int i = 0; i < LEN; i++) loc[i] = 1; shmem_long_put(src, loc, LEN, 1);"
	r0, rLast := `printf("%ld\n", dst[0]);`, `printf("%ld\n", dst[LAST]);`
	rAll := `for (int i = 0; i < LEN; i++) printf("%ld\n", dst[i]);`
	collapsed := 0
	for _, n := range []int{3, 4} {
		for k, c := range []struct {
			call, write, read string
			sync              int
			wait              bool
			want              string // "" when only agreement is asserted
		}{
			{put, w0, rLast, 0, false, "NOT ROBUST"},
			{psig, w0, rLast, 0, false, "NOT ROBUST"},
			{put, wAll, rAll, 0, false, ""},
			{psig, wAll, rAll, 0, true, ""},
			{put, wAll, rAll, 1, false, "NOT ROBUST"},
			{put, wAll, rAll, 2, false, "ROBUST"},
			{psig, wAll, rAll, 1, true, ""},
			{psig, w0, r0, 1, false, ""},
		} {
			src := []byte(srcOrderProgram(n, c.call, c.write, c.read, c.sync, c.wait))
			small, err := cfront.Compile("so.c", src, cfront.Options{N: 2})
			if err != nil {
				t.Fatalf("n = %d, #%d: %v", n, k, err)
			}
			full, err := cfront.Compile("so.c", src, cfront.Options{})
			if err != nil {
				t.Fatalf("n = %d, #%d (full): %v", n, k, err)
			}
			if shrunk(full) {
				t.Fatalf("n = %d, #%d: the full-size program is collapsed", n, k)
			}
			if shrunk(small) {
				collapsed++
			}
			opt := cycles.Options{Jobs: 1, Timeout: time.Minute}
			a := cbufVerdict(decideWidened(small, 2, opt))
			b := cbufVerdict(decideWidened(full, 2, opt))
			o := exploreWidened(full, 2, oracle.Bounds{MaxQueue: 8, MaxNodes: 2_000_000, Timeout: 30 * time.Second})
			if a == "" || a != b {
				t.Errorf("n = %d, #%d: collapsed %q, full size %q\n%s", n, k, a, b, src)
				continue
			}
			if c.want != "" && a != c.want {
				t.Errorf("n = %d, #%d: got %s, want %s", n, k, a, c.want)
			}
			if o.Err != nil || o.Violation == nil && !o.Complete {
				t.Errorf("n = %d, #%d: the oracle did not finish (%v)", n, k, o.Err)
				continue
			}
			if got := map[bool]string{true: cycles.Robust.String(), false: cycles.NotRobust.String()}[o.Violation == nil]; got != a {
				t.Errorf("n = %d, #%d: decide %s, the oracle %s on the full-size program", n, k, a, got)
			}
			t.Logf("n = %d, #%d: %s, collapsed %v", n, k, a, shrunk(small))
		}
	}
	if collapsed < 6 {
		t.Errorf("only %d programs collapsed: the family does not test the law", collapsed)
	}
}

// TestSourceOrderRefused: more than 4 elements (here the full size, no
// N) are still refused at the call, by name; a private source or an
// _nbi put is never in question.
func TestSourceOrderRefused(t *testing.T) {
	p0, r4 := "shmem_long_p(&src[0], 1, 1);", `printf("%ld\n", dst[4]);`
	src := srcOrderProgram(5, "shmem_long_put(dst, src, LEN, 0)", p0, r4, 0, false)
	_, err := cfront.Translate("so.c", []byte(src), cfront.Options{})
	var l pgas.ErrorList
	if err == nil || !strings.Contains(err.Error(), "every order is explored only up to 4 elements") || !errors.As(err, &l) || l[0].Pos.Line != 13 {
		t.Errorf("n = 5: got %v", err)
	}
	for _, call := range []string{"shmem_long_put_nbi(dst, src, LEN, 0)", "{ long s[5]; s[4] = 1; shmem_long_put(dst, s, LEN, 0); }"} {
		if _, err := cfront.Translate("so.c", []byte(srcOrderProgram(5, call, p0, r4, 0, false)), cfront.Options{}); err != nil {
			t.Errorf("%s: %v", call, err)
		}
	}
}

// TestSourceOrderStrided: shmem_iput of 2 elements from a symmetric
// source another PE writes (the atomic) is a choice of its two orders,
// its sends at source cells 0 and 2 (stride 2).
func TestSourceOrderStrided(t *testing.T) {
	src := "#include <shmem.h>\nstatic long a[4], b[4];\nint main(void) {\n  shmem_long_iput(a, b, 1, 2, 2, 1);\n  shmem_long_atomic_inc(&b[0], 0);\n  return 0;\n}\n"
	res, err := cfront.Translate("s.c", []byte(src), cfront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(res.Source)
	m := twoWay.FindStringSubmatch(text)
	if m == nil || strings.Count(text, "putmem(b + 2, ") != 2 || strings.Count(text, "putmem(b, ") != 2 {
		t.Errorf("want a choice of the two orders of the sends from b and b + 2:\n%s", text)
	}
}
