package cfront_test

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// strIdiom is the program-name idiom of the tests-sos unit tests. argv[0]
// is the file name without its extension (libc_args.go), so with "d/t.c"
// strrchr finds the '/' and the then-branch runs, with "t.c" it returns
// NULL and the else-branch runs: BRANCH is the branch that must run; the
// other stores to chk[3], outside chk, a run-time error.
const strIdiom = `#include <shmem.h>
#include <stdio.h>
#include <string.h>

long x;

int main(int argc, char **argv) {
  char *pgm;
  long chk[3] = {0};
  int then = 0;
  shmem_init();
  if ((pgm = strrchr(argv[0], '/')))
    pgm++, then = 1;
  else
    pgm = argv[0];
  chk[3 * (then != BRANCH)] = 1;
  if (shmem_my_pe() == 0)
    printf("%s: %d PEs\n", pgm, shmem_n_pes());
  shmem_long_p(&x, 1, (shmem_my_pe() + 1) % shmem_n_pes());
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
`

func decideC(t *testing.T, name, src string, n int) cycles.Verdict {
	t.Helper()
	p, err := cfront.Compile(name, []byte(src), cfront.Options{N: n})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, err := decideWidened(p, n, cycles.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r.Verdict
}

// Hand argument for ROBUST: one p per PE and a barrier, nothing read
// remotely before it; the control (the wrong branch expected) must be a
// run-time error, so the branch the translation takes is C's.
func TestStringPointerIdiom(t *testing.T) {
	for _, c := range []struct {
		name, branch string
		want         cycles.Verdict
	}{{"d/t.c", "1", cycles.Robust}, {"t.c", "0", cycles.Robust}, {"d/t.c", "0", cycles.RunError}, {"t.c", "1", cycles.RunError}} {
		src := strings.Replace(strIdiom, "BRANCH", c.branch, 1)
		if got := decideC(t, c.name, src, 2); got != c.want {
			t.Errorf("%s, branch %s: got %v, want %v", c.name, c.branch, got, c.want)
		}
	}
}

// Stepping a pointer: "ab" has the slots a, b, its terminator and one
// past its end. Printing at the terminator is fine (an empty string);
// printing one past the end, or stepping beyond it, is undefined in C and
// a run-time error here.
func TestStringPointerSteps(t *testing.T) {
	for _, c := range []struct {
		steps int
		print bool
		want  cycles.Verdict
	}{{2, true, cycles.Robust}, {3, false, cycles.Robust}, {3, true, cycles.RunError}, {4, false, cycles.RunError}} {
		body := "char *p = \"ab\";\n  " + strings.Repeat("p++;\n  ", c.steps)
		if c.print {
			body += "printf(\"%s\\n\", p);\n  "
		}
		src := "#include <shmem.h>\n#include <stdio.h>\nlong x;\nint main(void) {\n  shmem_init();\n  " + body +
			"shmem_long_p(&x, 1, 0);\n  shmem_finalize();\n  return 0;\n}\n"
		if got := decideC(t, "s.c", src, 2); got != c.want {
			t.Errorf("%d steps, print %v: got %v, want %v", c.steps, c.print, got, c.want)
		}
	}
}

// What is not a pointer into a constant string stays outside: a char *
// given malloc's block is a pointer variable as before, and a string
// pointer compared with another string or used as a value is refused.
func TestStringPointerRefusals(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"char *p = \"ab\";\n  p++;\n  if (p == \"ab\") shmem_long_p(&x, 1, 0);", "comparison of the string pointer p with something other than NULL"},
		{"char *p = \"ab\";\n  p++;\n  p--;", "-- on the string pointer p"},
		{"char *p = \"ab\";\n  p += 2;", "pointer p set to a string and moved"},
		{"char *p = strchr(\"ab\", x);", "strchr of a string that is not a literal or argv[k], or of a character that is not a constant"},
	} {
		src := "#include <shmem.h>\n#include <stdio.h>\n#include <string.h>\nlong x;\nint main(void) {\n  shmem_init();\n  " + c.body + "\n  shmem_finalize();\n  return 0;\n}\n"
		_, err := cfront.Compile("r.c", []byte(src), cfront.Options{N: 2})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want %q, got %v", c.body, c.want, err)
		}
	}
}
