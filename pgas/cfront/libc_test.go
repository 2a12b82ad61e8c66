package cfront

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The C library and the constructs of issue 33, fragment by fragment: the
// .pgas lines each must produce (in order), argued from the meaning the
// model gives it (docs/shmem.md, "The C library").
func TestLibcMapping(t *testing.T) {
	head := "#include <shmem.h>\n#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <stdbool.h>\n"
	for _, c := range []struct {
		name, src string
		args      []string
		want      []string
	}{
		// the stores of memset, in index order, one per element
		{"memset", "char a[2]; short s[1];\nint main(void) { memset(a, 1, sizeof a); memset(s, 0, 2); return 0; }", nil,
			[]string{"mem[a] <- 1", "mem[a + 1] <- 1", "mem[s] <- 0"}},
		// memcpy: a load of each source element, then its store
		{"memcpy", "long a[2], b[2];\nint main(void) { memcpy(a, b, 16); return 0; }", nil,
			[]string{"tmp0 <- mem[b]", "mem[a] <- tmp0", "tmp0 <- mem[b + 1]", "mem[a + 1] <- tmp0"}},
		// printf reads its integer arguments: one load; the string nothing
		{"printf", "long x;\nint main(void) { printf(\"%s %ld\\n\", \"x\", x); fflush(stdout); return 0; }", nil,
			[]string{"tmp0 <- mem[x]", "goto END"}},
		// sleep and usleep order nothing
		{"sleep", "long x;\nint main(void) { sleep(1); usleep(2); setbuf(stdout, NULL); setvbuf(stderr, NULL, _IONBF, 0); x = 1; return 0; }", nil, []string{"mem[x] <- 1"}},
		// argc and argv from --args; atoi computed at translation time
		{"atoi", "long x;\nint main(int argc, char **argv) { x = argc; if (argc > 1) x = atoi(argv[1]); return 0; }", []string{"7"},
			[]string{"mem[x] <- 2", "if !((2 > 1)) goto L1", "mem[x] <- 7"}},
		{"strcmp", "long x;\nint main(int argc, char *argv[]) { if (strcmp(argv[1], \"-v\") == 0) x = 1; return 0; }", []string{"-v"},
			[]string{"if !((0 == 0)) goto L1", "mem[x] <- 1"}},
		// optind starts at 1 (getopt with no option leaves it there), also
		// when first read in a right operand of && (translated twice)
		{"optind", "long x;\nint main(int argc, char **argv) { long v = x; if (v && optind == argc) x = 1; return 0; }", nil,
			[]string{"optind <- 1", "tmp0 <- mem[x]", "v <- tmp0", "if !(v) goto L1", "if !((optind == 1)) goto L1", "mem[x] <- 1"}},
		// argv[e] for an index known at run time: a branch per word, the
		// PE stops at or beyond argc (argv[0] is the file name without .c)
		{"argv[optind++]", "long x;\nint main(int argc, char **argv) { if (optind < argc) x = atoi(argv[optind++]); return 0; }", []string{"5"},
			[]string{"if tmp0 == 0 goto L3", "if tmp0 == 1 goto L4", "goto END", "L3:", "tmp2 <- 0", "goto L2", "L4:", "tmp2 <- 5", "goto L2", "L2:", "mem[x] <- tmp2"}},
		{"strcmp(argv[i])", "long x;\nint main(int argc, char **argv) { for (int i = 1; i < argc; i++) if (!strcmp(argv[i], \"-v\")) x = i; return 0; }", []string{"-q", "-v"},
			[]string{"if i == 0 goto L6", "if i == 1 goto L7", "if i == 2 goto L8", "goto END", "L6:", "tmp0 <- 1", "goto L5", "L7:", "tmp0 <- (-1)", "goto L5", "L8:", "tmp0 <- 0"}},
		// exit and abort stop the PE
		{"exit", "long x;\nint main(void) { exit(1); x = 1; return 0; }", nil, []string{"goto END"}}, // x = 1 is dead code (prune.go)
		{"global_exit", "long x;\nint main(void) { shmem_global_exit(1); return 0; }", nil, []string{"goto END"}},
		// a bool parameter and a bool result hold 0 or 1
		{"bool param", "long x;\nstatic bool nz(bool b) { return x + b; }\nint main(void) { long y = x; x = nz(y); return 0; }", nil,
			[]string{"nz_b <- (y != 0)", "tmp2 <- mem[x]", "tmp1 <- ((tmp2 + nz_b) != 0)"}},
		// a bool holds 0 or 1
		{"bool", "long x;\nint main(void) { bool b = x; x = b; return 0; }", nil, []string{"tmp0 <- mem[x]", "b <- (tmp0 != 0)", "mem[x] <- b"}},
		// memcmp compared with 0: 0 when equal, else 1
		{"memcmp", "long a[1], b[1];\nint main(void) { if (memcmp(a, b, 8) != 0) a[0] = 1; return 0; }", nil,
			[]string{"tmp0 <- 0", "tmp1 <- mem[a]", "tmp2 <- mem[b]", "if tmp1 == tmp2 goto L2_0", "tmp0 <- 1", "goto L2", "L2_0:", "L2:"}},
		// a switch: compares in order, then the default
		{"switch", "long x;\nint main(void) { switch (shmem_my_pe()) { case 1: x = 1; default: x = 2; } return 0; }", nil,
			[]string{"if (rank - 1) == 1 goto L2", "goto L3", "L2:", "mem[x] <- 1", "L3:", "mem[x] <- 2", "L1:"}},
		// struct members are cells at their offsets
		{"struct", "struct s { int a; int b[2]; } v[2];\nint main(void) { v[1].b[1] = 1; return 0; }", nil, []string{"mem[v + 5] <- 1"}},
		// a static local is one symmetric object, shared by every call;
		// an enum local set once is a constant
		{"static local", "long x;\nstatic void f(void) { static int n; n++; }\nint main(void) { enum e { A, B } v = B; f(); if (v == B) f(); return 0; }", nil,
			[]string{"tmp0 <- mem[n]", "mem[n] <- (tmp0 + 1)", "L1:", "if !(((1) == 1)) goto L2", "tmp0 <- mem[n]", "mem[n] <- (tmp0 + 1)"}},
		{"local init", "long x;\nint main(void) { long l[3] = {[1] = 1}; x = l[2]; return 0; }", nil,
			[]string{"mem[l] <- 0", "mem[l + 1] <- 1", "mem[l + 2] <- 0"}},
	} {
		r, err := Translate("t.c", []byte(head+c.src), Options{Args: c.args})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var lines []string
		for _, l := range splitLines(string(r.Source)) {
			if strings.HasPrefix(l, "    ") || strings.HasSuffix(l, ":") {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		if !has(lines, c.want...) {
			t.Errorf("%s: want %q in\n%s", c.name, c.want, r.Source)
		}
	}
}

// What the C library model cannot give an exact meaning is refused by
// name, at the call.
func TestLibcRefusals(t *testing.T) {
	head := "#include <shmem.h>\n#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n#include <time.h>\n#include <errno.h>\n#include <unistd.h>\n#include <pthread.h>\nlong x, a[2];\n"
	for _, c := range []struct{ body, want string }{
		{"x = clock();", "the value of clock"},
		{"time_t now; time(&now);", "time writing the time into an object"},
		{"x = memcmp(a, a, 8) < 0;", "memcmp used other than compared with 0"},
		{"x = rand();", "rand: the pseudo-random sequence"},
		{"x = getenv(\"N\")[0];", "getenv used other than compared with NULL"},
		{"x = errno;", "errno: it is set by routines outside the subset"},
		{"FILE *f = fopen(\"a\", \"r\"); fscanf(f, \"%ld\", &x);", "fscanf: files, input"},
		{"fprintf(0, \"a\");", "fprintf on a stream other than stdout or stderr"},
		{"printf(\"%f\", 1.0);", "floating-point value"},
		{"printf(\"%n\", &x);", "%n stores into memory"},
		{"printf(\"%d\");", "the format has 1 conversions for 0 arguments"},
		{"char s[4]; printf(\"%s\", s);", "%s of a string that is not a constant"},
		{"memset(a, 0, 12);", "not a whole number of elements"},
		{"memcpy(a, a + 1, 8);", "memcpy within one object"},
		{"x = strlen(\"ab\") + atoi(\"x\"); strcpy(0, \"a\");", "strcpy: string routines"},
		{"pthread_t th; pthread_create(&th, 0, 0, 0);", "pthread_create: POSIX threads are not modelled"},
		{"x = optopt;", "optopt: not modelled"},
		{"x = optarg[0];", "optarg other than as the argument of atoi"},
		{"x = 1 / 0;", "division by zero"},
	} {
		src := head + "int main(void) {\n" + c.body + "\nreturn 0; }\n"
		_, err := Translate("t.c", []byte(src), Options{})
		var list pgas.ErrorList
		if !errors.As(err, &list) || !strings.Contains(list[0].Msg, c.want) || list[0].Pos.Line != 11 {
			t.Errorf("%s: got %v, want line 11: …%s…", c.body, err, c.want)
		}
	}
}
