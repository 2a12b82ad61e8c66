/* getenv-sb.c where the quiet is left out only if SB_FAST is set at the
 * first getenv and unset at the second.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the environment of a PE does not change while it runs (the program
 * calls no setenv), so the two getenv("SB_FAST") of a PE agree and the
 * condition for leaving out the quiet never holds: every run is one of
 * sb-quiet.c, which is ROBUST (popb x < quiet < load y and popb y < quiet
 * < load x close no cycle with the loads before the puts' delivery). A
 * translation that chose anew at each call would find the cycle of sb.c.
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
        if (!(fast && getenv("SB_FAST") == NULL))
            shmem_quiet();
        r = y;
    } else if (me == 1) {
        int fast = getenv("SB_FAST") != NULL;
        shmem_long_p(&y, 1, 0);
        if (!(fast && !getenv("SB_FAST")))
            shmem_quiet();
        r = x;
    }
    shmem_finalize();
    return 0;
}
