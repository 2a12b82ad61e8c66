package cfront

// The collapse law in the front end (buffer.go, buffer_plan.go): which
// buffers are shrunk, to what, and what the translation becomes. The
// verdicts are compared with the full-size programs and the oracle in
// buffer_diff_test.go.

import (
	"errors"
	"strings"
	"testing"
)

// bufTranslate translates src for n PEs and returns its .pgas lines.
func bufTranslate(t *testing.T, src string, n int) (*Result, []string) {
	t.Helper()
	r, err := Translate("b.c", []byte(src), Options{N: n})
	if err != nil {
		t.Fatalf("translate: %v\n%s", err, src)
	}
	return r, strings.Split(string(r.Source), "\n")
}

func countPrefix(lines []string, prefix string) int {
	k := 0
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			k++
		}
	}
	return k
}

func addressLine(lines []string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, "address ") {
			return l
		}
	}
	return ""
}

// A fence example at its published size, 99 elements: dest[0] is printed
// alone, so {0} and {1..98} are the intervals, and N = 3 keeps 1 + 3
// elements of dest and, coupled by the puts, of source. Each put is then
// 4 one-element sends, and no value of the initializer is stored.
func TestBufferShrinkFence(t *testing.T) {
	src := wrap("static long dest[99];\nstatic long targ;", `long source[99] = {1, 2, 3, 4, 5};
  long one = 1;
  if (shmem_my_pe() == 0) {
    shmem_long_put(dest, source, 99, 1);
    shmem_long_put(dest, source, 99, 2);
    shmem_fence();
    shmem_long_put(&targ, &one, 1, 1);
  }
  shmem_barrier_all();
  printf("%ld\n", dest[0]);`)
	r, lines := bufTranslate(t, "#include <stdio.h>\n"+src, 3)
	if a := addressLine(lines); !strings.Contains(a, "dest[4]") || !strings.Contains(a, "source[4]") {
		t.Errorf("want dest and source of 4 cells: %s", a)
	}
	if k := countPrefix(lines, "putmem(source"); k != 8 {
		t.Errorf("want 2 puts of 4 elements, got %d sends\n%s", k, r.Source)
	}
	if countPrefix(lines, "mem[source") != 4 || strings.Contains(string(r.Source), "<- 5") {
		t.Errorf("want the initializer as 4 stores of 0\n%s", r.Source)
	}
	var msgs []string
	for _, w := range r.Warnings {
		msgs = append(msgs, w.Msg)
	}
	if !strings.Contains(strings.Join(msgs, "\n"), "buffer dest: 99 elements checked as 4 for N = 3, dest[0], dest[1..3]") {
		t.Errorf("warnings: %q", msgs)
	}
	if !hasAssumption(r, assumeCollapse) {
		t.Errorf("no %s assumption: %v", assumeCollapse, r.Assumptions)
	}
}

func hasAssumption(r *Result, id string) bool {
	for _, a := range r.Assumptions {
		if a.ID == id {
			return true
		}
	}
	return false
}

// The specification's put example in our words: a loop fills a private
// buffer with i, a put sends it, a loop prints the symmetric one. At N = 2
// both keep 2 elements; the loops run to 2, the stored value is 0.
func TestBufferShrinkLoops(t *testing.T) {
	src := "#include <stdio.h>\n" + wrap("static short dest[16];", `short source[16];
  if (shmem_my_pe() == 0) {
    for (int i = 0; i < 16; i++)
      source[i] = i;
    for (int i = 1; i < shmem_n_pes(); i++)
      shmem_put(dest, source, 16, i);
  }
  shmem_barrier_all();
  for (int i = 15; i >= 0; --i) {
    printf("%d: %hd\n", i, dest[i]);
  }`)
	r, lines := bufTranslate(t, src, 2)
	text := string(r.Source)
	if a := addressLine(lines); !strings.Contains(a, "dest[2]") || !strings.Contains(a, "source[2]") {
		t.Errorf("want 2 cells each: %s", a)
	}
	if !strings.Contains(text, "< 2)") || strings.Contains(text, "16") || strings.Contains(text, "15") {
		t.Errorf("want the bounds rewritten to 2 (and 1 for the descending loop)\n%s", text)
	}
	if countPrefix(lines, "putmem(") != 2 {
		t.Errorf("want one put of 2 sends\n%s", text)
	}
}

// memset and memcpy of whole buffers are blocks too: at N = 2 both
// buffers keep 2 cells, the counts become 2 elements' bytes, and memset's
// byte becomes 0.
func TestBufferShrinkMem(t *testing.T) {
	src := "#include <string.h>\n#include <stdio.h>\n" + wrap("static int dest[50];", `int loc[50];
  memset(loc, 7, sizeof loc);
  shmem_int_put(dest, loc, 50, 1 - shmem_my_pe());
  shmem_barrier_all();
  memcpy(loc, dest, 50 * sizeof(int));
  for (int i = 0; i < 50; i++) printf("%d\n", loc[i]);`)
	r, lines := bufTranslate(t, src, 2)
	if a := addressLine(lines); !strings.Contains(a, "dest[2]") || !strings.Contains(a, "loc[2]") {
		t.Errorf("want 2 cells each: %s", a)
	}
	if countPrefix(lines, "mem[loc") != 4 || strings.Contains(string(r.Source), "117901063") {
		t.Errorf("want memset and memcpy of 2 cells, storing 0 for memset\n%s", r.Source)
	}
}

// Buffers the law does not cover keep their size, and the limits refuse
// them as before: an element read by a guard, an index from a variable,
// a loop counter used after the loop, a pointer to the buffer.
func TestBufferNotShrunk(t *testing.T) {
	for _, c := range []struct{ name, globals, body string }{
		{"guard", "static long dest[40];", `shmem_long_put(dest, dest, 40, 0);
  if (dest[1] == 0) shmem_quiet();`},
		{"variable index", "static long dest[40];", `int k = shmem_my_pe();
  shmem_long_put(dest, dest, 40, 0);
  printf("%ld\n", dest[k]);`},
		{"counter used after", "static long dest[40];", `int i;
  for (i = 0; i < 40; i++) dest[i] = 1;
  printf("%d\n", i);`},
		{"pointer", "static long dest[40];", `long *p = dest;
  shmem_long_p(p, 1, 0);`},
		{"atomic on an element", "static long dest[40];", `shmem_long_atomic_inc(&dest[3], 0);`},
		{"value from memory", "static long dest[40]; static long x;", `for (int i = 0; i < 40; i++) dest[i] = x;`},
		{"wait on an element", "static long dest[40];", `shmem_long_wait_until(&dest[0], SHMEM_CMP_EQ, 0);`},
		{"put from a scalar", "static long dest[40]; static long x;", `shmem_long_put(dest, &x, 1, 0);`},
		// cc gives "dest[k] = 1" the value 1: the store must still be seen
		// (shrunk to 2 elements, dest[2 * 1] would be a false run-time error)
		{"store at a variable index", "static long dest[40];", `shmem_long_put(dest, dest, 40, 0);
  dest[2 * shmem_my_pe()] = 1;`},
		{"store inside a comma", "static long dest[40]; static long x;", `shmem_long_put(dest, dest, 40, 0);
  x = (dest[2 * shmem_my_pe()] = 1, 2);`},
	} {
		src := "#include <stdio.h>\n" + wrap(c.globals, c.body)
		_, err := Translate("b.c", []byte(src), Options{N: 2})
		if err == nil || !strings.Contains(err.Error(), "40 cells: at most 32") {
			t.Errorf("%s: want the size refused, got %v", c.name, err)
		}
	}
}

// The controls of TestBufferNotShrunk: the same programs without what
// stops the law are shrunk (so the refusals above are not an accident).
func TestBufferShrunkControls(t *testing.T) {
	for _, c := range []struct{ name, globals, body string }{
		{"constant index", "static long dest[40];", `shmem_long_put_nbi(dest, dest + 0, 40, 0);
  printf("%ld\n", dest[1]);`},
		{"counter declared outside, used only by loops", "static long dest[40];", `int i;
  for (i = 0; i < 40; i++) dest[i] = 1;
  for (i = 39; i >= 0; i -= 1) printf("%d %ld\n", i, dest[i]);`},
		{"value from a local", "static long dest[40];", `int me = shmem_my_pe();
  for (int i = 0; i < 40; i++) dest[i] = me;`},
	} {
		src := "#include <stdio.h>\n" + wrap(c.globals, c.body)
		if _, err := Translate("b.c", []byte(src), Options{N: 2}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// Without one N the buffers keep their size: a program within the limits
// says so in an assumption (decide with a range then translates per N),
// one beyond them asks for one N.
func TestBufferNoN(t *testing.T) {
	src := wrap("static long dest[8], src[8];", `shmem_long_put(dest, src, 8, 0);`)
	r, err := Translate("b.c", []byte(src), Options{})
	if err != nil || !hasAssumption(r, assumeFullSize) || r.Elems != nil {
		t.Fatalf("want full size with the %s assumption: %v %v", assumeFullSize, err, r)
	}
	big := wrap("static long dest[99], src[99];", `shmem_long_put(dest, src, 99, 0);`)
	if _, err := Translate("b.c", []byte(big), Options{}); !errors.Is(err, ErrNeedsN) {
		t.Errorf("want ErrNeedsN, got %v", err)
	}
	if _, err := Translate("b.c", []byte(big), Options{N: 4}); err != nil {
		t.Errorf("N = 4: %v", err)
	}
}

// Intervals: dest[0] printed and dest[9] stored alone make {0}, {1..8} and
// {9}; N = 2 keeps dest[0], dest[1..2] and dest[9], and the compiled
// program names its cells by their C indices (witnesses speak of them).
func TestBufferIntervalsNamed(t *testing.T) {
	src := "#include <stdio.h>\n" + wrap("static long dest[10], src[10];", `shmem_long_put(dest, src, 10, 1 - shmem_my_pe());
  dest[9] = 7;
  shmem_barrier_all();
  printf("%ld\n", dest[0]);`)
	p, err := Compile("b.c", []byte(src), Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"dest[0]", "dest[1]", "dest[2]", "dest[9]"}
	got := strings.Join(p.Addrs, " ")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("want %s among %s", w, got)
		}
	}
	if strings.Contains(got, "dest[3]") {
		t.Errorf("dest[3] is not kept: %s", got)
	}
}

// Heap buffers: a pointer set once by its declaration to a block of a
// constant size is a buffer too. At N = 2 the symmetric block keeps 3
// cells ({0..98} then u[99], stored alone) and the private one, coupled by
// the put, likewise; the allocations shrink with them. A pointer assigned
// again, or a size from a variable, keeps its block (refused at 100).
func TestBufferShrinkHeap(t *testing.T) {
	src := "#include <stdio.h>\n" + wrap("", `long *u = shmem_malloc(100 * sizeof(long));
  long *loc = (long *) malloc(100 * sizeof(long));
  for (int i = 0; i < 100; i++) loc[i] = i;
  shmem_long_put(u, loc, 100, 1 - shmem_my_pe());
  u[99] = 5;
  shmem_barrier_all();
  for (int i = 0; i < 100; i++) printf("%ld\n", u[i]);
  free(loc);
  shmem_free(u);`)
	p, err := Compile("b.c", []byte(src), Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Addrs, " ")
	for _, w := range []string{"u@7[0]", "u@7[1]", "u@7[99]", "loc@8[99]"} {
		if !strings.Contains(got, w) {
			t.Errorf("want %s among %s", w, got)
		}
	}
	if strings.Contains(got, "u@7[2]") {
		t.Errorf("u[2] is not kept: %s", got)
	}
	for _, c := range []struct{ name, body string }{
		{"assigned again", `long *u = shmem_malloc(100 * sizeof(long));
  u = u + 1;`},
		{"size from a variable written twice", `int n = 100;
  n = n + 0;
  long *u = shmem_malloc(n * sizeof(long));
  shmem_long_put(u, u, 100, 0);`},
	} {
		_, err := Translate("b.c", []byte(wrap("", c.body)), Options{N: 2})
		if err == nil || (!strings.Contains(err.Error(), "of 100 elements: at most 32") && !strings.Contains(err.Error(), "size of shmem_malloc computed at run time")) {
			t.Errorf("%s: want the size refused, got %v", c.name, err)
		}
	}
}

// A private buffer stored at a computed index is kept at its size: in
// C, chk[2 * me] = 1 with chk[3] is fine on PE 1; shrunk to chk[0..1], it
// was a run-time error of the translation (cc gives the assignment the
// value 1, and the analysis took it for a constant such as sizeof).
func TestBufferStoreComputedIndex(t *testing.T) {
	src := wrap("", `long chk[3] = {0};
  chk[2 * shmem_my_pe()] = 1;`)
	r, err := Translate("b.c", []byte(src), Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if hasAssumption(r, "buffer-collapse") {
		t.Errorf("chk shrunk although stored at a computed index:\n%s", r.Source)
	}
}
