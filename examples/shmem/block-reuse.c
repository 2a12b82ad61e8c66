/* Locals of two blocks, the first one's still the target of a pending
 * non-blocking get when the block ends: pgasrob gives the second block's
 * local its own cell (storage of an ended block is taken again only when
 * no operation on it may be pending: docs/shmem.md, "Storage of ended
 * blocks").
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: w is 5 when it is read (its own block stores 5 and only PE p's
 * blocking put reads it), so the store-buffering code under w != 5 never
 * runs. What runs: PE 0 and 1 each get z from the other (nobody writes
 * z, so the get conflicts with nothing) and put w into their own q (no
 * other PE touches q); with no conflict between PEs there is no cycle.
 * Had w shared v's cell, the get, completed only by the quiet, could
 * overwrite the 5 with z's 0, and the code under w != 5 is the cycle of
 * sb.c: NOT ROBUST. PEs 2 and 3 do nothing.
 */
#include <shmem.h>

long x, y, z, q;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me < 2) {
        int other = 1 - me;
        {
            long v;
            shmem_long_get_nbi(&v, &z, 1, other);
        }
        {
            long w = 5;
            shmem_long_put(&q, &w, 1, me);
            shmem_quiet();
            if (w != 5) {
                if (me == 0) {
                    shmem_long_p(&x, 1, 1);
                    r = y;
                } else {
                    shmem_long_p(&y, 1, 0);
                    r = x;
                }
            }
        }
    }
    shmem_finalize();
    return 0;
}
