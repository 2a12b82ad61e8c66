/* put-reuse.c with a non-blocking put: the source may be read until the
 * put completes, so reusing it at once is a bug.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: the put reads buf late, after PE 0 stored 2 into it (store ->cf
 * the read of the source), while the store is po-after the put's issue:
 *   [put] ->po store buf = 2 ->cf [put]
 * a cycle through two classes. (OpenSHMEM: the source of an nbi put must
 * not be changed before a quiet.)
 */
#include <shmem.h>

long buf, data;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        buf = 1;
        shmem_putmem_nbi(&data, &buf, sizeof(long), 1);
        buf = 2;
    } else if (me == 1) {
        long r = data;
    }
    shmem_finalize();
    return 0;
}
