package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A C file that needs its header directory, a macro and an argument:
// without the flags it is refused (the header is not found), with them
// -I, -D and --args reach the front end, and a compilation database gives
// the same -I and -D as the command line.
func TestCFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "inc"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("inc/sizes.h", "#define NPUT 1\n")
	// PE 0 puts NPUT, then (with ORDERED) fences, then sets the flag; PE 1
	// waits and reads: mp-fence.c (robust) or mp-none.c (not robust) of
	// examples/shmem, chosen by -D. argv[1] must be "go" or PE 0 does
	// nothing (robust either way).
	c := write("k.c", `#include <shmem.h>
#include <string.h>
#include <stdlib.h>
#include "sizes.h"
long data, flag;
int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0 && argc > 1 && strcmp(argv[1], "go") == 0) {
        shmem_long_p(&data, NPUT, 1);
#ifdef ORDERED
        shmem_fence();
#endif
        shmem_long_p(&flag, atoi("1"), 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        long v = data;
    }
    shmem_finalize();
    return 0;
}
`)
	if code, _, errs := runCmd("check", c); code != exitUsage || !strings.Contains(errs, `"sizes.h"`) {
		t.Errorf("without -I: exit %d, %s", code, errs)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"-I", filepath.Join(dir, "inc"), "--args", "go"}, exitNotRobust},
		{[]string{"-I", filepath.Join(dir, "inc"), "-DORDERED", "--args", "go"}, exitRobust},
		{[]string{"-I", filepath.Join(dir, "inc"), "--args", "stay"}, exitRobust},
		{[]string{"-I", filepath.Join(dir, "inc")}, exitRobust},
	} {
		args := append([]string{"decide", c, "-n", "2"}, tc.args...)
		if code, out, errs := runCmd(args...); code != tc.want {
			t.Errorf("%v: exit %d, want %d\n%s%s", tc.args, code, tc.want, out, errs)
		}
	}
	db := write("compile_commands.json", `[{"directory": "`+dir+`", "file": "k.c", "arguments": ["cc", "-Iinc", "-D", "ORDERED", "-c", "k.c"]}]`)
	if code, out, errs := runCmd("decide", c, "-n", "2", "--compile-commands", db, "--args", "go"); code != exitRobust {
		t.Errorf("--compile-commands: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCmd("decide", c, "-n", "2", "--compile-commands", db, "--shard", "1/2"); code != exitUsage || !strings.Contains(errs, "does not go with --shard") {
		t.Errorf("C flags with --shard: exit %d, %s", code, errs)
	}
	other := write("other.json", `[{"directory": "/", "file": "x.c", "command": "cc -c x.c"}]`)
	if code, _, errs := runCmd("check", c, "--compile-commands", other); code != exitUsage || !strings.Contains(errs, "no entry for") {
		t.Errorf("no entry: exit %d, %s", code, errs)
	}
}
