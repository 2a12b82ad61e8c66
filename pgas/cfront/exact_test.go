package cfront

// Issue 34 (exact or refused, on every C input) and issue 33, item 6
// (every refusal in one run): each test fails on the front end before the
// change named in its comment.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// errList returns the positioned errors of err, failing if it has none.
func errList(t *testing.T, err error) pgas.ErrorList {
	t.Helper()
	var l pgas.ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("want positioned errors, got %v", err)
	}
	return l
}

// TestPragmasRefused: a pragma we do not interpret was dropped silently
// ("Other pragmas are ignored"): an OpenMP program was checked as
// sequential code. Now each is refused at its position; those whose
// meaning the translation keeps are accepted.
func TestPragmasRefused(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
		want      string
	}{
		{"long x;\nint main(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 2; i++) shmem_long_p(&x, i, 0);\n  return 0;\n}\n", 5, 1, "OpenMP threads are not modelled: #pragma omp parallel for"},
		{"long x;\n#pragma omp threadprivate(x)\nint main(void) { return 0; }\n", 4, 1, "OpenMP threads are not modelled"},
		{"long x;\n  #pragma GCC unroll 4\nint main(void) { return 0; }\n", 4, 3, "#pragma GCC unroll 4 is not interpreted"},
		{"long x;\n#pragma pack(1)\nint main(void) { return 0; }\n", 4, 1, "#pragma pack"},
		{"long x;\n#pragma acc kernels\nint main(void) { return 0; }\n", 4, 1, "OpenACC offloading is not modelled"},
		{"long x;\nint main(void) {\n  /* _Pragma(\"no\") */ x = 1; _Pragma(\"omp barrier\") x = 2;\n  return 0;\n}\n", 5, 30, "OpenMP threads are not modelled: #pragma omp barrier"},
		{"long x;\n#define BARRIER _Pragma(\"omp barrier\")\nint main(void) { BARRIER; return 0; }\n", 4, 17, "OpenMP threads are not modelled"},
	} {
		_, err := Translate("f.c", []byte("#include <shmem.h>\n#include <stdlib.h>\n"+c.src), Options{})
		l := errList(t, err)
		e := l[0]
		if e.Pos.Line != c.line || e.Pos.Col != c.col || !strings.Contains(e.Msg, c.want) {
			t.Errorf("%q: got %v, want line %d: %q", c.src, err, c.line, c.want)
		}
		if e.Pos.Col < 1 || e.Pos.File != "f.c" {
			t.Errorf("%q: position %v", c.src, e.Pos)
		}
	}
	for _, ok := range []string{"#pragma pgasrob values 3", "#pragma STDC FP_CONTRACT ON", "#pragma GCC diagnostic ignored \"-Wunused\"", "#pragma message(\"hi\")"} {
		if _, err := Translate("f.c", []byte(ok+"\n"+wrap("long x;", "shmem_long_p(&x, 1, 0);")), Options{}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestAllRefusalsInOneRun: the translation stopped at the first refusal,
// so a file needed one run per construct. Now every refusal is reported,
// each at its position, in source order.
func TestAllRefusalsInOneRun(t *testing.T) {
	src := `#include <shmem.h>
long x;
void ext(void);
static long f(long k) { return f(k); }
int main(void) {
  double d = 1;
  ext();
  shmem_long_p(&x, 1, 0);
  x = f(1);
  ext();
  return 0;
}
`
	_, err := Translate("f.c", []byte(src), Options{})
	l := errList(t, err)
	var lines []int
	for _, e := range l {
		lines = append(lines, e.Pos.Line)
	}
	// the recursion at f's definition (line 4), floating point (6), the
	// undefined routine (7 and 10): four refusals, in source order
	if fmt.Sprint(lines) != "[4 6 7 10]" {
		t.Errorf("want the four refusals at lines 4, 6, 7, 10; got %v", err)
	}
}

// TestRefusedDeclarationOnce: the uses of a refused declaration are not
// refused again as unknown names.
func TestRefusedDeclarationOnce(t *testing.T) {
	_, err := Translate("f.c", []byte(wrap("long x;", "long a[40];\na[0] = 1;\nx = a[1];\nshmem_long_p(&x, a[2], 0);\ndouble d = 1;")), Options{})
	l := errList(t, err)
	if len(l) != 2 || !strings.Contains(l[0].Msg, "a of 40 cells") || !strings.Contains(l[1].Msg, "floating point") {
		t.Errorf("want the array and the double, once each; got %v", err)
	}
}

// TestTooManyRefusals: past pgas.MaxErrors the translation stops.
func TestTooManyRefusals(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		b.WriteString("  ext();\n")
	}
	_, err := Translate("f.c", []byte("#include <shmem.h>\nvoid ext(void);\nint main(void) {\n"+b.String()+"  return 0;\n}\n"), Options{})
	if l := errList(t, err); len(l) != pgas.MaxErrors {
		t.Errorf("%d errors, want %d", len(l), pgas.MaxErrors)
	}
}

// TestNonASCIIIdentifier: "long données;" gave an internal error (the
// translation did not compile) with the file name twice. C allows such
// names; the translation spells them in ASCII and shows them as written.
func TestNonASCIIIdentifier(t *testing.T) {
	p, err := Compile("f.c", []byte(wrap("long données; long donnée_s;", "shmem_long_p(&données, 1, 0); shmem_long_p(&donnée_s, 1, 0);")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Addrs, " ")
	if !strings.Contains(got, "données") || !strings.Contains(got, "donnée_s") {
		t.Errorf("addresses %v, want the C names", p.Addrs)
	}
}

// TestMessagesOfCorpus: over the fuzz corpus (the examples, the issue's
// inputs, the seeds), no message holds a dependency's text (a Go
// file:line, a type of cc, strconv, TODO) and no input is an internal
// error. Before, cc's messages reached the user as written.
func TestMessagesOfCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../examples/shmem/*.c")
	more, _ := filepath.Glob("../../examples/shmem/kernels/*.c")
	var srcs []string
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	srcs = append(srcs, issue34Seeds...)
	srcs = append(srcs,
		wrap("long x;", "foo(1);"),
		wrap("long x;", "x = 99999999999999999999;"),
		wrap("long x;", "x = undefined_var + 1;"),
		wrap("long x;", "x = 0x;"),
		wrap("long x;", "struct s v; x = v.f;"),
		"int main(void) { int x = ; }",
	)
	for _, s := range srcs {
		_, err := translateWatched(t, []byte(s))
		if err == nil {
			continue
		}
		var ie *InternalError
		if errors.As(err, &ie) {
			t.Errorf("internal error on %.80q: %v", s, err)
		}
		if m := dependencyText(err.Error()); m != "" {
			t.Errorf("%q in %v", m, err)
		}
	}
}

// TestCleanMessage: the three forms of the issue, rephrased.
func TestCleanMessage(t *testing.T) {
	for in, want := range map[string]string{
		"undefined: foo (check.go:5317:check:)":                                                           "undefined: foo",
		"TODO *cc.PrimaryExpression missed/failed type check":                                             "",
		`strconv.ParseUint: parsing "99999999999999999999": value out of range (check.go:5579:intConst:)`: `integer constant "99999999999999999999" is out of the range of every integer type`,
		"invalid type *cc.Declarator here":                                                                "invalid type construct here",
	} {
		if got := cleanMessage(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestPositionOfLimits: "too many cells" and "expression too complex"
// were placed at 1:1; now at the construct that passes the limit.
func TestPositionOfLimits(t *testing.T) {
	_, err := Translate("f.c", []byte("#include <shmem.h>\nlong a[32];\nlong b[32];\nint main(void) { shmem_long_p(&a[0], 1, 0); shmem_long_p(&b[0], 1, 0); return 0; }\n"), Options{})
	l := errList(t, err)
	if !strings.Contains(l[0].Msg, "too many cells") || l[0].Pos.Line != 3 {
		t.Errorf("want too many cells at line 3, got %v", err)
	}
	expr := "y"
	for i := 0; i < 40; i++ {
		expr = fmt.Sprintf("y * (%s)", expr)
	}
	_, err = Translate("f.c", []byte("#include <shmem.h>\nlong x, y;\nint main(void) {\n  x = 1;\n  x = "+expr+";\n  return 0;\n}\n"), Options{})
	l = errList(t, err)
	if l[0].Pos.Line != 5 {
		t.Errorf("want the error at line 5, got %v", err)
	}
}

// TestMacroConditionText: the text of a condition ending in a macro was
// cut where the expansion ended ("me == P" for "me == PRODUCER_PE").
func TestMacroConditionText(t *testing.T) {
	src := "#include <shmem.h>\n#define PRODUCER_PE 0\n#define NSTEPS 2\n#define TWICE(v) ((v) * 2)\nlong x;\nint main(void) {\n  int me = shmem_my_pe();\n  if (me == PRODUCER_PE)\n    for (int step = 0; step < NSTEPS; step++) shmem_long_p(&x, 1, 1);\n  if (me < TWICE(1)) x = 1;\n  return 0;\n}\n"
	p, err := Compile("f.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for _, tr := range p.Trans {
		texts[tr.Text] = true
	}
	for _, want := range []string{"if (me == PRODUCER_PE)", "step < NSTEPS", "if (me < TWICE(1))"} {
		found := false
		for s := range texts {
			if strings.Contains(s, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("no transition text holds %q: %v", want, texts)
		}
	}
}

// TestOutputLinear: a condition of 3,000 terms was copied into every
// line generated from it (quadratic output); each text is now clipped.
func TestOutputLinear(t *testing.T) {
	terms := make([]string, 3000)
	for i := range terms {
		terms[i] = fmt.Sprintf("me == %d", i%2)
	}
	src := wrap("long x;", "int me = shmem_my_pe(); if ("+strings.Join(terms, " && ")+") shmem_long_p(&x, 1, 0);")
	r, err := Translate("f.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := 0
	for _, o := range r.Lines {
		text += len(o.Text)
		if len(o.Text) > maxText+64 { // "if (" ... ")" or "name = " around a clipped text
			t.Fatalf("a text of %d bytes", len(o.Text))
		}
	}
	if len(r.Source)+text > 100*len(src) {
		t.Errorf("%d bytes of output and texts for %d of input", len(r.Source)+text, len(src))
	}
}

// TestPrecheck: shapes that took cc to gigabytes are refused by name, at
// their place; nesting in comments and strings does not count.
func TestPrecheck(t *testing.T) {
	// main's brace is open: the 256th parenthesis of line 2 is one too many
	deep := strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300)
	_, err := Translate("f.c", []byte("int main(void) {\n  long y = "+deep+";\n  return 0;\n}\n"), Options{})
	if l := errList(t, err); l[0].Pos.Line != 2 || l[0].Pos.Col != 11+maxNesting || !strings.Contains(l[0].Msg, "open at once") {
		t.Errorf("got %v", err)
	}
	long := "int main(void) { long y = 0; " + strings.Repeat("y = 1; ", maxLineBytes/7+1) + "return 0; }\n"
	_, err = Translate("f.c", []byte("#include <shmem.h>\n"+long), Options{})
	if l := errList(t, err); l[0].Pos.Line != 2 || !strings.Contains(l[0].Msg, "break it into several lines") {
		t.Errorf("got %v", err)
	}
	ok := wrap("long x;", "/* "+deep+" */ char *s = \""+strings.Repeat("(", 300)+"\"; shmem_long_p(&x, 1, 0);")
	if err := precheck("f.c", []byte(ok)); err != nil {
		t.Errorf("brackets in a comment or string counted: %v", err)
	}
}

// TestBudgetContext: the front end ran outside every budget. A context
// that ends stops it with a *BudgetError naming the phase.
func TestBudgetContext(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("time budget of 1s reached")
	cancel(cause)
	_, err := Compile("f.c", []byte(wrap("long x;", "shmem_long_p(&x, 1, 0);")), Options{Context: ctx})
	var be *BudgetError
	if !errors.As(err, &be) || be.Phase == "" || !errors.Is(err, cause) {
		t.Fatalf("got %v, want a BudgetError with its cause", err)
	}
}

// TestPredefWarning: "#if __STDC_VERSION__ >= 201112L" removed the SHMEM
// calls of 13 public tests without a word. Now a removed group that names
// SHMEM routines and tests a macro we predefine is a warning at its
// directive; a kept group, or one on the user's own macro, is not.
func TestPredefWarning(t *testing.T) {
	body := func(cond string) string {
		return "#include <shmem.h>\nlong x;\nint main(void) {\n  shmem_init();\n  /* #if __STDC_VERSION__ */\n" + cond + "\n  shmem_long_p(&x, 1, 0);\n#else\n  x = 1;\n#endif\n  shmem_barrier_all();\n  return 0;\n}\n"
	}
	p, err := Compile("f.c", []byte(body("#if __STDC_VERSION__ >= 299901L")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) == 0 || p.Warnings[0].Pos.Line != 6 || !strings.Contains(p.Warnings[0].Msg, "__STDC_VERSION__") || !strings.Contains(p.Warnings[0].Msg, "shmem_long_p") {
		t.Errorf("warnings %v", p.Warnings)
	}
	for _, cond := range []string{"#if __STDC_VERSION__ >= 199901L", "#define MINE 0\n#if MINE", "#ifdef __STDC__"} {
		p, err := Compile("f.c", []byte(body(cond)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range p.Warnings {
			if strings.Contains(w.Msg, "removes SHMEM calls") {
				t.Errorf("%s: %v", cond, w)
			}
		}
	}
}

// TestSilentWarnings: a program that communicates nothing was ROBUST
// without a word; so was a PE that takes no part.
func TestSilentWarnings(t *testing.T) {
	p, err := Compile("f.c", []byte(wrap("long x;", "x = 1;")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Msg, "no SHMEM communication") {
		t.Errorf("warnings %v", p.Warnings)
	}
	// PE 0 puts to PE 1; PEs 1 and 2 do nothing else
	p, err = Compile("f.c", []byte(wrap("long x;", "if (shmem_my_pe() == 0) shmem_long_p(&x, 1, 1);")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("program warnings %v", p.Warnings)
	}
	w := PEWarnings(p, 3)
	if len(w) != 1 || !strings.Contains(w[0].Msg, "PE 1, PE 2 reach no SHMEM") {
		t.Errorf("PE warnings %v", w)
	}
	// PE 1 waits for the put: it takes part
	p, err = Compile("f.c", []byte(wrap("long x;", "if (shmem_my_pe() == 0) shmem_long_p(&x, 1, 1); else shmem_long_wait_until(&x, SHMEM_CMP_EQ, 1);")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := PEWarnings(p, 2); len(w) != 0 {
		t.Errorf("PE warnings %v", w)
	}
}

// TestAssumptions: the modelling choices a program exercises are listed,
// and only those.
func TestAssumptions(t *testing.T) {
	ids := func(src string) string {
		p, err := Compile("f.c", []byte(src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, a := range p.Assumptions {
			s = append(s, a.ID)
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct{ src, want string }{
		{wrap("long x;", "shmem_long_p(&x, 1, 0);"), ""},
		{wrap("long x[2];", "long s[2]; s[0] = 1; s[1] = 1; shmem_long_put(x, s, 2, 0);"), "index-order local-sc"},
		{wrap("long x;", "shmem_long_wait_until(&x, SHMEM_CMP_EQ, 1);"), "failed-polls"},
		{wrap("long x; shmem_ctx_t c;", "shmem_ctx_create(SHMEM_CTX_NOSTORE, &c); shmem_ctx_long_p(c, &x, 1, 0); shmem_ctx_destroy(c);"), "ctx-nostore"},
		{wrap("long x;", "/* SHMEM_CTX_NOSTORE */ x = 1;"), "local-sc"},
	} {
		if got := ids(c.src); got != c.want {
			t.Errorf("%s: assumptions %q, want %q", c.src, got, c.want)
		}
	}
}
