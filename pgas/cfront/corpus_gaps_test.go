package cfront

// The constructs that stopped the public corpora of issue 33 (tests-sos,
// the specification's examples) and are now translated: nbi fetching
// atomics followed at once by a quiet, getenv as a test, storage of ended
// blocks, dead code. The verdicts of programs using them are in the
// litmus files (examples/shmem/mp-amo-nbi*.c, flag-atomic-nbi.c,
// getenv-*.c, block-reuse.c), checked by the oracle and by decide.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// An nbi fetching atomic is its blocking form only where a quiet of its
// context follows at once; anywhere else it is refused at the call.
func TestNbiAtomicRefused(t *testing.T) {
	for _, c := range []struct {
		globals, main string
		col           int
		want          string
	}{
		{"long x, f;", "shmem_long_atomic_fetch_add_nbi(&f, &x, 1, 1); shmem_quiet();", 33, "the fetch argument of shmem_long_atomic_fetch_add_nbi is the symmetric object f"},
		{"long x;", "long f; shmem_long_atomic_fetch_add_nbi(&f, &x, 1, 1); x = 2; shmem_quiet();", 9, "is translated only when a quiet of its context follows it at once"},
		{"long x;", "long f; shmem_long_atomic_swap_nbi(&f, &x, 1, 1); shmem_fence(); shmem_quiet();", 9, "shmem_long_atomic_swap_nbi is translated only when"},
		{"long x;", "long f[2]; for (int i = 0; i < 2; i++) shmem_long_atomic_fetch_inc_nbi(&f[i], &x, i); shmem_quiet();", 40, "shmem_long_atomic_fetch_inc_nbi is translated only when"},
		{"long x;", "long f; shmem_long_atomic_compare_swap_nbi(&f, &x, 0, 1, 1);", 9, "compare_swap_nbi is translated only when"},
		{"long x; shmem_ctx_t c;", "long f; shmem_ctx_create(0, &c); shmem_ctx_long_atomic_fetch_xor_nbi(c, &f, &x, 1, 1); shmem_quiet();", 34, "fetch_xor_nbi is translated only when"},
		{"long x;", "long f; if (shmem_my_pe()) shmem_long_atomic_fetch_and_nbi(&f, &x, 1, 1); else shmem_quiet(); x = 1; shmem_quiet();", 28, "fetch_and_nbi is translated only when"},
	} {
		_, err := Translate("t.c", []byte(wrap(c.globals, c.main)), Options{})
		l := errList(t, err)
		if e := l[0]; e.Pos.Line != 6 || e.Pos.Col != c.col || !strings.Contains(e.Msg, c.want) {
			t.Errorf("%s / %s: got %v; want 6:%d: …%s…", c.globals, c.main, err, c.col, c.want)
		}
	}
}

// Where the quiet follows at once (through register steps, a break out of
// a switch, the quiet of shmem_barrier_all, a context's own quiet), the
// call is the blocking atomic and a store of its result.
func TestNbiAtomicTranslated(t *testing.T) {
	for _, c := range []struct {
		globals, main string
		want          []string
	}{
		{"long x;", "long f; shmem_long_atomic_fetch_add_nbi(&f, &x, 3, 1); shmem_quiet();",
			[]string{"tmp0 <- amo_fetch_add(3, (rank - rank + 1 + 1), x, ctx_default)", "mem[f] <- tmp0    # nbi-fetch ctx_default", "quiet ctx_default"}},
		{"long x;", "long f; int k = 0; switch (shmem_my_pe()) { case 0: shmem_long_atomic_swap_nbi(&f, &x, 2, 1); k++; break; default: break; } shmem_barrier_all();",
			[]string{"tmp0 <- amo_swap(2, (rank - rank + 1 + 1), x, ctx_default)"}},
		{"long x; shmem_ctx_t c;", "long f; shmem_ctx_create(0, &c); shmem_ctx_long_atomic_compare_swap_nbi(c, &f, &x, 0, 1, 1); shmem_ctx_quiet(c);",
			[]string{"tmp0 <- amo_cswap(0, 1, (rank - rank + 1 + 1), x, c)"}},
		{"unsigned int x;", "unsigned int f; shmem_atomic_fetch_or_nbi(SHMEM_CTX_DEFAULT, &f, &x, 2u, 1); shmem_quiet();",
			[]string{"mem[f] <- tmp0    # nbi-fetch ctx_default"}},
	} {
		r, err := Translate("t.c", []byte(wrap(c.globals, c.main)), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.main, err)
			continue
		}
		var lines []string
		for _, l := range splitLines(string(r.Source)) {
			lines = append(lines, strings.TrimSpace(l))
		}
		if !has(lines, c.want...) {
			t.Errorf("%s: want %q in\n%s", c.main, c.want, r.Source)
		}
	}
}

// getenv is a choice per PE and name, made once; only its comparison with
// NULL is modelled.
func TestGetenv(t *testing.T) {
	src := wrap("long x;", "if (getenv(\"A\") != NULL) x = 1;\nfor (int i = 0; i < 2; i++) if (!getenv(\"B\")) x = 2;\nif (getenv(\"B\")) x = 3;")
	r, err := Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.Source)
	// A is asked once, outside any loop: a choice into a temporary; B
	// twice: a register keeps the first answer
	if strings.Contains(s, "env_A") || strings.Count(s, "if env_B != 0 goto") != 2 || strings.Count(s, "goto L") < 4 {
		t.Errorf("translation:\n%s", s)
	}
	for _, c := range []struct{ body, want string }{
		{"x = getenv(\"N\")[0];", "getenv used other than compared with NULL"},
		{"char *e = getenv(\"N\");", "getenv used other than compared with NULL"},
		{"if (getenv(\"N\") == getenv(\"M\")) x = 1;", "getenv used other than compared with NULL"},
		{"const char *n = \"N\"; if (getenv(n)) x = 1;", "getenv of a name that is not a string literal"},
	} {
		_, err := Translate("t.c", []byte(wrap("long x;", c.body)), Options{})
		if l := errList(t, err); !strings.Contains(l[0].Msg, c.want) {
			t.Errorf("%s: got %v, want …%s…", c.body, err, c.want)
		}
	}
}

// Forty blocks of a macro expanded per type, each with a register local
// and a local whose address is taken, fit the checker: the storage of an
// ended block is taken again (two registers and one cell, not forty).
func TestStorageOfEndedBlocks(t *testing.T) {
	var body strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&body, "do { static long remote; long old; int k = %d; shmem_long_atomic_fetch_add_nbi(&old, &remote, k, 0); shmem_quiet(); if (old > k) rc = 1; } while (0);\n", i)
	}
	r, err := Translate("t.c", []byte(wrap("", "int rc = 0;\n"+body.String())), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.Source)
	if strings.Contains(s, "old_1") || strings.Contains(s, "k_1") || !strings.Contains(s, "remote_39") {
		t.Errorf("translation:\n%s", s)
	}
	if r.Names["old"] != "old" && r.Names["old"] != "" {
		t.Errorf("old stands for %q", r.Names["old"])
	}
	// a cell an nbi get may still write after its block is not reused
	src := wrap("long z;", "{ long v; shmem_long_get_nbi(&v, &z, 1, 0); }\n{ long w = 5; shmem_long_put(&z, &w, 1, 0); }\nshmem_quiet();")
	r, err = Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Source), "address z, v, w") {
		t.Errorf("v and w must have cells of their own:\n%s", r.Source)
	}
}

// A switch on a constant jumps to its case; the other cases, and code
// after an exit, are left out, so a program expanding a macro per
// operation and type fits the checker's 4000 lines.
func TestDeadCodeLeftOut(t *testing.T) {
	var cases strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&cases, "case %d: x = %d; x = x + 1; x = x + 2; x = x + 3; x = x + 4; x = x + 5; x = x + 6; break;\n", i, i)
	}
	var body strings.Builder
	for j := 0; j < 12; j++ {
		fmt.Fprintf(&body, "switch (OP) {\n%s}\n", cases.String())
	}
	src := wrap("long x;\nenum { OP = 7 };", body.String()+"exit(0); x = 99;")
	r, err := Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.Source)
	if strings.Contains(s, "mem[x] <- 8\n") || strings.Contains(s, "mem[x] <- 99") || strings.Count(s, "mem[x] <- 7\n") != 12 {
		t.Errorf("translation:\n%s", s)
	}
	// a label reached by a jump back is live
	src = wrap("long x;", "int i = 0;\ngoto B;\nA: x = 1;\ni++;\nB: if (i < 2) goto A;")
	if r, err = Translate("t.c", []byte(src), Options{}); err != nil || !strings.Contains(string(r.Source), "mem[x] <- 1") {
		t.Errorf("%v:\n%s", err, r.Source)
	}
}

// A cast to an unsigned type of a local assigned after its declaration is
// exact when every value assigned to it is known non-negative; otherwise
// it is refused as before.
func TestCastOfAssignedLocal(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{"int n; n = shmem_n_pes(); x = (unsigned long) ((n * (n - 1)) / 2);", true},
		{"int n, m; m = shmem_my_pe(); n = m + 1; if (x > (unsigned long) n) x = 0;", true},
		{"int n = 0; if (x) n = shmem_n_pes(); x = (unsigned long) n;", true},
		{"int n; n = shmem_my_pe() - 1; x = (unsigned long) n;", false},
		{"int n; n = shmem_n_pes(); n++; x = (unsigned long) n;", false},
		{"int n; n = shmem_n_pes(); n = n - 2; x = (unsigned long) n;", false},
		{"int n, m; n = 1; m = n; n = m; x = (unsigned long) n;", false},
	} {
		_, err := Translate("t.c", []byte(wrap("unsigned long x;", c.body)), Options{})
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "cast of a signed value")):
			t.Errorf("%s: want the cast refused, got %v", c.body, err)
		}
	}
}

// Strides that are substituted locals (`const ptrdiff_t dst = 2;`) are
// constants of the translation, as counts are.
func TestStridesOfLocals(t *testing.T) {
	src := wrap("long a[8], b[8];", "const long dst = 2; int sst = 1; shmem_long_iput(a, b, dst, sst, 3, 1);")
	r, err := Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"putmem(b, (rank - rank + 1 + 1), a, ctx_default", "putmem(b + 1, (rank - rank + 1 + 1), a + 2, ctx_default", "putmem(b + 2, (rank - rank + 1 + 1), a + 4, ctx_default"} {
		if !strings.Contains(string(r.Source), w) {
			t.Errorf("want %q in\n%s", w, r.Source)
		}
	}
}

// A local declared without an initialiser whose one write is the result
// of shmem_test_any may be compared with SIZE_MAX, as an initialised one
// may; a second write is refused as before.
func TestSizeMaxAssignedOnce(t *testing.T) {
	loop := "size_t idx; int n = 0;\nwhile (n < 2) {\n idx = shmem_int_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n if (idx != SIZE_MAX) n++;\n}"
	r, err := Translate("t.c", []byte(wrap("#include <stdint.h>\nint f[2];", loop)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Source), "if !((idx != 2)) goto") {
		t.Errorf("translation:\n%s", r.Source)
	}
	_, err = Translate("t.c", []byte(wrap("#include <stdint.h>\nint f[2];", loop+"\nidx = 0;")), Options{})
	if err == nil || !strings.Contains(err.Error(), "SIZE_MAX") {
		t.Errorf("want a refusal, got %v", err)
	}
}

// A collect whose count depends on the PE gets, for one N, block j of
// PE j's count at the sum of the counts before it.
func TestCollectPerPECount(t *testing.T) {
	src := wrap("int d[6], s[3];", "int me = shmem_my_pe();\nshmem_int_collect(SHMEM_TEAM_WORLD, d, s, me + 1);")
	r, err := Translate("t.c", []byte(src), Options{N: 3})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range splitLines(string(r.Source)) {
		lines = append(lines, strings.TrimSpace(l))
	}
	want := []string{"barrier",
		"getmem(d, (rank - rank + 1), s, ctx_default)",
		"getmem(d + 1, (rank - rank + 2), s, ctx_default)", "getmem(d + 2, (rank - rank + 2), s + 1, ctx_default)",
		"getmem(d + 3, (rank - rank + 3), s, ctx_default)", "getmem(d + 4, (rank - rank + 3), s + 1, ctx_default)",
		"getmem(d + 5, (rank - rank + 3), s + 2, ctx_default)", "barrier"}
	if !has(lines, want...) {
		t.Errorf("want %q in\n%s", want, r.Source)
	}
	if _, err := Translate("t.c", []byte(src), Options{}); err == nil || !strings.Contains(err.Error(), "give one N") {
		t.Errorf("without N: %v", err)
	}
	// at N = 4 the blocks need 10 cells of d's 6: a run-time error at the call
	r, err = Translate("t.c", []byte(src), Options{N: 4})
	if err != nil || !strings.Contains(string(r.Source), fmt.Sprint(poisonValue)) {
		t.Errorf("N = 4: %v\n%s", err, r.Source)
	}
}

// fopen is a choice between NULL and an open stream; the stream can be
// tested against NULL and closed, nothing else.
func TestFopen(t *testing.T) {
	head := "#include <stdio.h>\nlong x;"
	src := wrap(head, "FILE *fp = fopen(\"in\", \"r\");\nif (fp == NULL) exit(1);\nfclose(fp);\nFILE *g;\nif ((g = fopen(\"out\", \"w\")) != NULL) x = 1;")
	r, err := Translate("t.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := string(r.Source)
	if strings.Count(s, "goto L") < 4 || !strings.Contains(s, "if !((fp == 1)) goto") || !strings.Contains(s, "if !((g == 2)) goto") {
		t.Errorf("translation:\n%s", s)
	}
	for _, c := range []struct{ globals, body, want string }{
		{head, "FILE *fp = fopen(\"in\", \"r\"); fprintf(fp, \"a\");", "fprintf on a stream other than stdout or stderr"},
		{head, "const char *n = \"in\"; FILE *fp = fopen(n, \"r\");", "fopen of a name or mode that is not a string literal"},
		{head + "\nFILE *gf;", "x = 1;", "FILE * object gf outside a function's locals"},
		{head, "FILE *fp = stdout; x = 1;", "a FILE * other than fopen's result"},
		{head, "fclose(stdout);", "fclose of a stream other than"},
	} {
		_, err := Translate("t.c", []byte(wrap(c.globals, c.body)), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want …%s…", c.body, err, c.want)
		}
	}
}

// An unsigned subtraction whose result is known non-negative does not
// wrap around in C, so it is translated; any other is refused as before.
func TestUnsignedSubtractionKnownNonNegative(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{"int npes = shmem_n_pes(); x = (unsigned long) npes * 2 - 1;", true},
		{"int n; n = shmem_n_pes(); x = (unsigned long) n - 1;", true},
		{"x = (unsigned long) shmem_my_pe() - 1;", false},
		{"unsigned long y = x; x = y - 1;", false},
		{"int npes = shmem_n_pes(); x = (unsigned long) npes * 2 - 3;", false},
	} {
		_, err := Translate("t.c", []byte(wrap("unsigned long long x;", c.body)), Options{})
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), "subtraction in unsigned arithmetic")):
			t.Errorf("%s: want the subtraction refused, got %v", c.body, err)
		}
	}
}

// The team-relative numbers of a strided team, as .pgas expressions
// evaluated by pgas's evaluator, agree with the team listed member by
// member (OpenSHMEM 1.6, shmem_team_split_strided: member i is PE start +
// i*stride; team_my_pe, team_n_pes and translate_pe give -1 outside).
func TestStridedTeamNumbers(t *testing.T) {
	eval := func(e string, rank, n, r int64) int64 {
		p, err := pgas.Compile("e.pgas", []byte("values 2\nregister r, s\ns <- ("+e+") + r - r\n"))
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		for _, tr := range p.Trans {
			if tr.Cmd.Val != nil {
				v, err := tr.Cmd.Val.Eval(pgas.Env{Regs: []int64{r, 0}, Rank: rank, N: n})
				if err != nil {
					t.Fatalf("%s: %v", e, err)
				}
				return v
			}
		}
		t.Fatalf("%s: nothing compiled", e)
		return 0
	}
	for n := int64(1); n <= 6; n++ {
		for start := int64(0); start < n; start++ {
			for stride := int64(0); stride <= 3; stride++ {
				for size := int64(1); size <= n; size++ {
					last := start + stride*(size-1)
					if last >= n || stride == 0 && size != 1 {
						continue
					}
					s := &stridedTeam{set: true, valid: true, start: start, stride: stride, size: size}
					index := map[int64]int64{}
					for i := int64(0); i < size; i++ {
						index[start+i*stride] = i
					}
					for me := int64(0); me < n; me++ {
						wantMe, wantN := int64(-1), int64(-1)
						if i, ok := index[me]; ok {
							wantMe, wantN = i, size
						}
						if got := eval(s.myPE(), me+1, n, 0); got != wantMe {
							t.Errorf("N=%d %v PE %d: team_my_pe %d, want %d", n, *s, me, got, wantMe)
						}
						if got := eval(s.nPEs(), me+1, n, 0); got != wantN {
							t.Errorf("N=%d %v PE %d: team_n_pes %d, want %d", n, *s, me, got, wantN)
						}
						if got := eval(s.fromWorld("r"), 1, n, me); got != wantMe {
							t.Errorf("N=%d %v: translate_pe(WORLD, %d) %d, want %d", n, *s, me, got, wantMe)
						}
					}
					for i := int64(-1); i <= size; i++ {
						want := int64(-1)
						if i >= 0 && i < size {
							want = start + i*stride
						}
						if got := eval(s.toWorld("r"), 1, n, i); got != want {
							t.Errorf("N=%d %v: translate_pe(team, %d) %d, want %d", n, *s, i, got, want)
						}
					}
				}
			}
		}
	}
}

// Strided teams in programs: accepted where only their numbers are used
// (their syncs: subbar_test.go), refused by name in collectives and
// contexts.
func TestStridedTeamPrograms(t *testing.T) {
	ok := wrap("long x;", "shmem_team_t tm; shmem_team_config_t *cfg; cfg = NULL;\nint npes = shmem_n_pes();\n"+
		"shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, cfg, 0, &tm);\n"+
		"if (tm != SHMEM_TEAM_INVALID) shmem_long_p(&x, shmem_team_my_pe(tm), shmem_team_translate_pe(tm, 0, SHMEM_TEAM_WORLD));\nshmem_team_destroy(tm);")
	r, err := Translate("t.c", []byte(ok), Options{N: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Source), "(N > 3 && (rank - 1) >= 1 && (rank - 1) <= 3 && ((rank - 1) - 1) % 2 == 0)") {
		t.Errorf("translation:\n%s", r.Source)
	}
	for _, c := range []struct{ body, want string }{
		{"shmem_team_t tm; shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, 1, NULL, 0, &tm); shmem_long_sum_reduce(tm, &x, &x, 1);", "a collective on a team of part of the PEs"},
		{"shmem_team_t tm; for (int i = 0; i < 2; i++) shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &tm);", "run more than once"},
		{"shmem_team_t tm; shmem_team_config_t c; shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, &c, 0, &tm);", "the config argument"},
		{"shmem_team_t tm; int k = shmem_my_pe(); shmem_team_split_strided(SHMEM_TEAM_WORLD, k, 1, 1, NULL, 0, &tm);", "the triplet"},
		{"shmem_team_t tm; x = shmem_team_n_pes(tm);", "before shmem_team_split_strided has set it"},
		{"shmem_team_t tm; shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &tm); shmem_ctx_t c; shmem_team_create_ctx(tm, 0, &c);", "shmem_team_create_ctx on a team of part of the PEs"},
	} {
		_, err := Translate("t.c", []byte(wrap("long x;", c.body)), Options{N: 4})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want …%s…", c.body, err, c.want)
		}
	}
}
