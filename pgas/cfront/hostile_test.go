package cfront

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// Odd uses of the constructs of issue 33: each is translated or refused
// with a position, never an internal error; what is translated compiles.
func TestHostileC(t *testing.T) {
	head := "#include <shmem.h>\n#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n#include <inttypes.h>\nlong x, a[4]; struct s { long p; long q[2]; } v;\n"
	for _, body := range []string{
		"switch (x) { }", "switch (x) default: x = 1;", "switch (x) { case 1: switch (x) { case 1: break; } case 2: break; }",
		"for (int i = 0; i < 2; i++) switch (i) { case 0: continue; default: break; }",
		"switch (x) { case 1: { case 2: x = 1; } }", "switch (1) { case 1: x = 1; }",
		"x = x & 0x7fffffffffffffff;", "x = x << 70;", "x = x >> -1;", "x = ~(unsigned)x;", "x ^= x;", "x = -1 & x;",
		"x = (x | 1) & (x ^ 2);", "unsigned u = 3; u >>= 1; u &= ~1u;",
		"memset(&x, 0, 8);", "memset(a, 0, x);", "memset(a, x, 8);", "memcpy(a, &v, 8);", "memcpy(&v, a, sizeof v);", "memset(a, 0, 40);",
		"printf(\"%*d %-5.2s %%\\n\", 3, 4, \"ab\");", "printf(\"%\" PRId64 \"\\n\", (int64_t)x);", "printf(\"%\");", "printf(\"%q\", 1);",
		"printf(x ? \"a\" : \"b\");", "puts(0);", "fflush(0);", "putchar(x);",
		"x = atoi(\"99999999999999999999\");", "x = strtol(\"12\", 0, 1);", "x = strtol(\"z\", 0, 36);", "x = atoi(\"  -3\") + 3;",
		"x = v.q[1] + (&v)->q[0];", "x = a[x];", "x = (x = 1, x + 1);", "x = x++ + ++x;", "a[x++] = x;",
		"x = sizeof(struct s);", "struct s w = v;", "struct s w; w = v;", "x = _Generic(x, long: 1, default: 2);",
		"x = abs(-2) + labs(x);", "x = strcmp(\"a\", \"b\") < 0;", "x = strncmp(\"ab\", \"ac\", 1);",
		"exit(x); x = 2;", "abort();", "shmem_global_exit(x + 1);",
	} {
		src := head + "int main(int argc, char **argv) {\n" + body + "\nreturn 0; }\n"
		r, err := Translate("h.c", []byte(src), Options{})
		if err != nil {
			var list pgas.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || list[0].Pos.Line < 1 || strings.Contains(err.Error(), "internal error") || strings.Contains(err.Error(), "check.go") && !strings.Contains(err.Error(), "h.c") {
				t.Errorf("%s: %v", body, err)
			}
			continue
		}
		if _, err := pgas.Compile("h.c.pgas", r.Source); err != nil && !strings.Contains(err.Error(), "outside 0..") {
			t.Errorf("%s: the translation does not compile: %v\n%s", body, err, r.Source)
		}
	}
}
