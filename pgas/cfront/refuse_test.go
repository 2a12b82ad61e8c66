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
		{"long *p;", "", 4, 6, "pointer variable p"},
		// A blocking put of several elements reads its sources in no fixed
		// order; from a symmetric source another PE may write meanwhile.
		{"long d[2], s[2];", "shmem_long_put(d, s, 2, 1);", 6, 1, "blocking shmem_long_put of 2 elements from the symmetric object s"},
		{"long d[2], s[2]; uint64_t g;", "shmem_long_put_signal(d, s, 2, &g, 1, SHMEM_SIGNAL_SET, 1);", 6, 1, "blocking shmem_long_put_signal of 2 elements from the symmetric object s"},
		{"double d;", "", 4, 8, "floating point"},
		{"struct s { int a; long b; } v;", "", 4, 29, "members of different sizes"},
		{"", "long *p = malloc(8);", 6, 6, "pointer variable p"},
		{"long x;", "shmem_long_p(&x, shmem_ptr(&x, 1) != 0, 1);", 6, 18, "shmem_ptr"},
		{"long x;", "void *q = shmem_malloc(8);", 6, 6, "pointer variable q"},
		{"long x;", "shmem_malloc(8);", 6, 1, "dynamic allocation (shmem_malloc)"},
		{"long x;", "shmem_team_sync(SHMEM_TEAM_WORLD);", 6, 1, "teams and collectives (shmem_team_sync)"},
		{"long x;", "x = x << x;", 6, 5, "shift by a computed amount (<<)"},
		{"long x, y;", "x = x & y;", 6, 5, "bitwise operator & between two computed values"},
		{"long x;", "x = x / 0;", 6, 5, "division by zero"},
		{"unsigned long u;", "u = u | -2;", 6, 5, "| with the negative constant -2 in unsigned arithmetic"},
		{"unsigned long u;", "u ^= -1;", 6, 1, "^ with the negative constant -1 in unsigned arithmetic"},
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
		{"long x;", "int n = 2; shmem_putmem(&x, &x, n, 1);", 6, 33, "only a constant count"},
		{"long a[2]; long s[3]; uint64_t g;", "shmem_long_put_signal(a, s, 3, &g, 1, SHMEM_SIGNAL_SET, 1);", 6, 23, "access to element 0..2 of a, which has 2"},
		{"long f[2];", "shmem_long_wait_until_some(f, 2, 0, 0, SHMEM_CMP_EQ, 1);", 6, 34, "indices argument of shmem_long_wait_until_some: a local array, not NULL"},
		{"int f(int n) { return n ? f(n - 1) : 0; }", "f(1);", 4, 1, "recursion (f calls itself"},
		{"int g(void) { return 1; } int (*fp)(void) = g;", "", 4, 31, "pointer variable fp"},
		{"long x;", "foo(1);", 6, 1, "call of foo, which is neither a function of this file nor in the subset"},
		{"long x;", "x = 300;", 6, 5, "constant 300 is outside the data domain"},
		{"long __x;", "", 4, 6, "reserved"},
		{"unsigned long u; long r;", "r = u - 1 < 3;", 6, 5, "subtraction in unsigned arithmetic"},
		{"unsigned long u; long r; int s;", "r = u < s;", 6, 5, "comparison of a signed and an unsigned integer"},
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
	_, r = body(t, wrap("long x;", "x = 3;"))
	if !strings.Contains(string(r.Source), "\nvalues 4\n") {
		t.Errorf("inferred domain:\n%s", r.Source)
	}
}
