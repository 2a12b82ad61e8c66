package cfront_test

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// A helper that polls with shmem_test and takes the comparison as a
// parameter (the pattern of the specification's shmem_test example and of
// tests-sos shmem_test.c) used to be refused ("comparison operator: one of
// the SHMEM_CMP_ constants"): the parameter, never assigned and passed a
// constant, is that constant in the inlined body.
//
// Hand argument, as examples/shmem/mp-fence.c and mp-none.c: PE 0 puts
// data then flag into PE 1; PE 1 polls flag with the helper, then reads
// data. With shmem_fence between the puts the data is delivered first:
// every conflict goes forward, ROBUST. Without it the flag may arrive
// first and PE 1 read the old data: NOT ROBUST, at every N >= 2.
func TestCmpParameter(t *testing.T) {
	prog := func(fence string) string {
		return `#include <shmem.h>
#include <stdio.h>
long data, flag;
static void wait_for(long *ivar, int cmp, long value) {
    while (!shmem_long_test(ivar, cmp, value))
        ;
}
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        ` + fence + `
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        wait_for(&flag, SHMEM_CMP_NE, 0);
        printf("%ld\n", data);
    }
    shmem_finalize();
    return 0;
}
`
	}
	var files []litmus
	for _, c := range []struct {
		fence  string
		robust bool
	}{{"shmem_fence();", true}, {"", false}} {
		src := prog(c.fence)
		p, err := cfront.Compile("cmp.c", []byte(src), cfront.Options{})
		if err != nil {
			t.Fatalf("fence %q: %v", c.fence, err)
		}
		files = append(files, litmus{file: "cmp.c fence " + c.fence, prog: p, expect: map[int]bool{2: c.robust, 3: c.robust}})
	}
	oracleVerdicts(t, files, []int{2, 3})
}

// The comparison must still be a constant the translation knows: a
// parameter the helper assigns, or one computed from the PE's number, is
// refused at the argument of shmem_test.
func TestCmpParameterRefused(t *testing.T) {
	for _, body := range []string{
		"cmp = cmp + 0; while (!shmem_long_test(ivar, cmp, 0)) ;",
		"while (!shmem_long_test(ivar, cmp + shmem_my_pe(), 0)) ;",
	} {
		src := "#include <shmem.h>\nlong flag;\nstatic void w(long *ivar, int cmp) { " + body + " }\nint main(void) { shmem_init(); w(&flag, SHMEM_CMP_NE); return 0; }\n"
		_, err := cfront.Compile("r.c", []byte(src), cfront.Options{})
		if err == nil || !strings.Contains(err.Error(), "comparison operator") {
			t.Errorf("%s: got %v, want the comparison refused", body, err)
		}
	}
}
