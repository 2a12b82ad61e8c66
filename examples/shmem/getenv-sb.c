/* Store buffering whose quiets an environment variable turns off.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: pgasrob does not know the environment of the run, so getenv's
 * answer (set or not) is each PE's nondeterministic choice, and a verdict
 * is about every environment. In one where SB_FAST is set on PEs 0 and 1,
 * neither quiets, and the cycle of sb.c exists:
 *   [put x] ->po load y ->cf [put y] ->po load x ->cf [put x].
 * PEs 2 and 3 do nothing.
 */
#include <shmem.h>
#include <stdlib.h>

long x, y;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        int fast = getenv("SB_FAST") != NULL;
        shmem_long_p(&x, 1, 1);
        if (!fast)
            shmem_quiet();
        r = y;
    } else if (me == 1) {
        int fast = getenv("SB_FAST") != NULL;
        shmem_long_p(&y, 1, 0);
        if (!fast)
            shmem_quiet();
        r = x;
    }
    shmem_finalize();
    return 0;
}
