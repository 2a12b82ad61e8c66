package cfront

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// Outside the subset, the translation refuses with the position of the
// construct and its name; it never approximates.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		globals, main string
		line, col     int // of the refused construct, in wrap's layout (main's body is line 6)
		want          string
	}{
		{"long **p;", "", 4, 6, "pointer to a pointer (p)"},
		// A blocking put of several elements reads its sources in no fixed
		// order; from a symmetric source another PE may write meanwhile,
		// when some operation of the program writes it (here the p): every
		// order is explored up to 4 elements (srcorder_test.go), more are
		// refused.
		{"long d[5], s[5];", "shmem_long_put(d, s, 5, 1); shmem_long_p(&s[1], 1, 0);", 6, 1, "blocking shmem_long_put of 5 elements from the symmetric object s"},
		{"long d[5], s[5]; uint64_t g;", "shmem_long_put_signal(d, s, 5, &g, 1, SHMEM_SIGNAL_SET, 1); shmem_long_get_nbi(s, d, 1, 0);", 6, 1, "blocking shmem_long_put_signal of 5 elements from the symmetric object s"},
		{"long d[2], s[2];", "shmem_long_put(d, s, 2, 1); shmem_long_p(&s[1], 1, 0);", 0, 0, ""},
		{"long d[2], s[2]; uint64_t g;", "shmem_long_put_signal(d, s, 2, &g, 1, SHMEM_SIGNAL_SET, 1); shmem_long_get_nbi(s, d, 1, 0);", 0, 0, ""},
		// and none does: only its own PE writes it, which is in the call
		{"long d[2], s[2];", "s[1] = 1; shmem_long_put(d, s, 2, 1);", 0, 0, ""},
		{"double d;", "", 4, 8, "floating point"},
		{"", "long *p = malloc(0);", 6, 11, "malloc of 0 bytes"},
		{"long x;", "void *q = shmem_malloc(8);", 6, 11, "shmem_malloc whose element type is not known"},
		{"long x;", "for (int i = 0; i < 2; i++) shmem_malloc(8);", 6, 29, "shmem_malloc in a loop"},
		{"struct s { int a; long b; } v;", "", 4, 29, "members of different sizes"},
		{"long x;", "x = x << x;", 6, 5, "shift by a computed amount (<<)"},
		{"long x, y;", "x = x & y;", 6, 5, "bitwise operator & between two computed values"},
		{"long x;", "x = x / 0;", 6, 5, "division by zero"},
		// exact as bit patterns (unsigned_bits.go) unless an order meets them
		{"unsigned long u;", "u = u | -2;", 0, 0, ""},
		{"unsigned long u; long r;", "r = (u | -2) < 3;", 6, 6, "| with the negative constant -2 in unsigned arithmetic"},
		{"unsigned long u; long r;", "u ^= -1; r = u > 3;", 6, 1, "^ with the negative constant -1 in unsigned arithmetic"},
		{"unsigned long u;", "u &= -2;", 0, 0, ""},
		{"long x;", "x %= 0;", 6, 1, "division by zero"},
		{"long x;", "x = 1.5;", 6, 5, "floating point constant 1.5"},
		{"long x;", "switch (x) { case 1 ... 2: break; }", 6, 14, "case range"},
		{"long x;", "pthread_self();", 6, 1, "POSIX threads are not modelled"},
		// unsequenced side effects (C11 6.5p2): undefined, refused
		{"long x;", "x = x++;", 6, 1, "x is modified and used (or modified twice) with no sequence point"},
		{"long a[2];", "int i = 0; a[i++] = i;", 6, 12, "i is modified and used"},
		{"long x;", "int i = 0; x = (i = 1) + i;", 6, 12, "i is modified and used"},
		{"long x;", "int i = 0; shmem_long_p(&x, i++, i);", 6, 12, "i is modified and used"},
		{"long x;", "int i = 0; long y = i++ + i;", 6, 21, "i is modified and used"},
		// sequenced: fine; the C11 generic routines name their
		// destination twice, once in _Generic's unevaluated control
		{"long a[2];", "int i = 0; shmem_p(&a[i++], 1, 1);", 0, 0, ""},
		// sequenced: fine
		{"long x;", "int i = 0; x = i++; i = i + 1; x = (i = 2, i + 1); if ((i = x) > 1 && i < 3) x = i ? i++ : i;", 0, 0, ""},
		{"long x[2];", "x[2] = 1;", 6, 1, "access to element 2..2 of x, which has 2"},
		{"long x;", "int v = 1; shmem_long_p(&v, 1, 1);", 6, 25, "v is not symmetric"},
		{"long x;", "shmem_long_put(&x, &x, 1, shmem_n_pes() > 1 ? 1 : 0);", 0, 0, ""},
		{"long x;", "int n = 2; n = 8; shmem_putmem(&x, &x, n, 1);", 6, 40, "only a constant count"},
		{"long a[2]; long s[3]; uint64_t g;", "shmem_long_put_signal(a, s, 3, &g, 1, SHMEM_SIGNAL_SET, 1);", 6, 23, "access to element 0..2 of a, which has 2"},
		{"long f[2];", "shmem_long_wait_until_some(f, 2, 0, 0, SHMEM_CMP_EQ, 1);", 6, 34, "indices argument of shmem_long_wait_until_some: a local array, not NULL"},
		{"int f(int n) { return n ? f(n - 1) : 0; }", "f(1);", 4, 1, "recursion (f calls itself"},
		{"int g(void) { return 1; } int (*fp)(void) = g;", "", 4, 31, "function pointer fp"},
		{"long x;", "foo(1);", 6, 1, "call of foo, which is neither a function of this file nor in the subset"},
		{"long x;", "x = 10000000000;", 6, 5, "constant 10000000000: the checker represents values in -4294967296..4294967296"},
		{"long __x;", "", 4, 6, "reserved"},
		{"unsigned long u; long r;", "r = u - 1 < 3;", 6, 5, "subtraction in unsigned arithmetic"},
		{"unsigned long u; long r;", "r = u < -1;", 6, 5, "comparison of the negative constant -1 with an unsigned value"},
		{"long r;", "int me = shmem_my_pe(); r = (unsigned)(me - 1) < 3;", 6, 29, "cast of a signed value to unsigned"},
		{"long r;", "int me = shmem_my_pe(); int n = shmem_n_pes(); r = (unsigned)((me + n - 1) % n) < 3;", 0, 0, ""},
	} {
		src := wrap(c.globals, c.main)
		_, err := Translate("t.c", []byte(src), Options{})
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: unexpected error %v", c.main, err)
			}
			continue
		}
		var list pgas.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%s / %s: want an error list, got %v", c.globals, c.main, err)
			continue
		}
		e := list[0]
		if !strings.Contains(e.Msg, c.want) || e.Pos.File != "t.c" || e.Pos.Line != c.line || e.Pos.Col != c.col {
			t.Errorf("%s / %s: got %v, want t.c:%d:%d: …%s…", c.globals, c.main, e, c.line, c.col, c.want)
		}
	}
}

// A C syntax or type error comes from cc with its position, as a
// pgas.ErrorList.
func TestCErrors(t *testing.T) {
	_, err := Translate("bad.c", []byte("int main(void) {\n  x = ;\n}\n"), Options{})
	var list pgas.ErrorList
	if !errors.As(err, &list) || list[0].Pos.File != "bad.c" || list[0].Pos.Line != 2 {
		t.Fatalf("got %v", err)
	}
	if _, err := Translate("n.c", []byte("long x;\n"), Options{}); err == nil || !strings.Contains(err.Error(), "no function main") {
		t.Errorf("no main: %v", err)
	}
	if _, err := Translate("i.c", []byte("#include \"other.h\"\nint main(void){return 0;}\n"), Options{}); err == nil {
		t.Errorf("an include of a host file was accepted")
	}
}

// Every emitted statement points at the C construct it comes from, with
// the call as written (macros not expanded).
func TestOrigins(t *testing.T) {
	src := wrap("long buf, src;", "shmem_putmem(&buf, &src, 8, 1);\n shmem_long_wait_until(&buf, SHMEM_CMP_EQ, 1);")
	r, err := Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for i, l := range splitLines(string(r.Source)) {
		o := r.Lines[i]
		switch {
		case strings.Contains(l, "putmem("):
			found++
			if o.Text != "shmem_putmem(&buf, &src, 8, 1)" || o.Pos.Line != 6 || o.Pos.Col != 1 {
				t.Errorf("put: origin %v %q", o.Pos, o.Text)
			}
		case strings.Contains(l, "when"):
			found++
			if o.Text != "shmem_long_wait_until(&buf, SHMEM_CMP_EQ, 1)" || o.Pos.Line != 7 {
				t.Errorf("wait: origin %v %q", o.Pos, o.Text)
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d of the 2 statements in\n%s", found, r.Source)
	}
}

func TestValuesPragma(t *testing.T) {
	_, r := body(t, "#pragma pgasrob values 7\n"+wrap("long x;", "x = 1;"))
	if !strings.Contains(string(r.Source), "\nvalues 7\n") {
		t.Errorf("pragma ignored:\n%s", r.Source)
	}
	_, err := Translate("t.c", []byte("#pragma pgasrob values 1\n"+wrap("", "")), Options{})
	if err == nil || !strings.Contains(err.Error(), "t.c:1:") {
		t.Errorf("bad pragma: %v", err)
	}
	// the window form, negative values included
	_, r = body(t, "#pragma pgasrob values -3..7\n"+wrap("long x;", "x = 1;"))
	if !strings.Contains(string(r.Source), "\nvalues -3..7\n") || r.Widen != nil {
		t.Errorf("pragma window ignored, or the domain still marked inferred:\n%s", r.Source)
	}
	// a constant value outside the declared domain is the user's error,
	// at its C position
	_, err = Compile("t.c", []byte("#pragma pgasrob values 4\n"+wrap("long x;", "x = 9;")), Options{})
	if err == nil || !strings.Contains(err.Error(), "t.c:") || !strings.Contains(err.Error(), "value 9 = 9 outside 0..3 (the domain") {
		t.Errorf("x = 9 with values 4: %v", err)
	}
	for _, bad := range []string{"values 1", "values -1..0", "values 1..5", "values -9999999999..3", "values", "nope 3"} {
		_, err := Translate("t.c", []byte("#pragma pgasrob "+bad+"\n"+wrap("", "")), Options{})
		if err == nil || !strings.Contains(err.Error(), "t.c:1:") {
			t.Errorf("bad pragma %q: %v", bad, err)
		}
	}
}

// Without the pragma the window holds every constant used as a value,
// negative ones and sentinels too, and one more than the largest (a loop
// counter stepping past its bound); the domain is marked inferred, and
// may widen up to C's int unless an object or a constant is wider.
func TestValuesInferred(t *testing.T) {
	for _, c := range []struct {
		decls, body, window string
		widen               [2]int64 // the widening's limit
	}{
		{"int x;", "x = 3;", "values 5", [2]int64{-2147483648, 2147483647}},
		{"int x;", "x = -1;", "values -1..1", [2]int64{-2147483648, 2147483647}},
		{"int x;", "x = 1337; if (x == -7) x = 2147483647;", "values -7..2147483648", [2]int64{-2147483648, 2147483647}},
		{"long x;", "x = 2;", "values 4", [2]int64{-4294967296, 4294967296}},
		{"unsigned x;", "x = 2;", "values 4", [2]int64{-4294967296, 4294967296}},
		{"int x;", "x = 3000000000;", "values 3000000002", [2]int64{-4294967296, 4294967296}},
	} {
		_, r := body(t, wrap(c.decls, c.body))
		if !strings.Contains(string(r.Source), "\n"+c.window+"\n") {
			t.Errorf("%s %s: want %q in\n%s", c.decls, c.body, c.window, r.Source)
		}
		if r.Widen == nil || r.Widen.Lo != c.widen[0] || r.Widen.Hi != c.widen[1] {
			t.Errorf("%s %s: widening %+v, want up to %v", c.decls, c.body, r.Widen, c.widen)
		}
	}
}
