/* Message passing written with the C11 generic routines, the C library
 * around them (stderr, usleep, memset on a private buffer) and a fence.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_p and shmem_wait_until select shmem_long_p and
 * shmem_long_wait_until (data and flag are long), so this is mp-fence.c of
 * examples/shmem: the fence delivers data before flag to PE 1, whose wait
 * passes only on 1 and whose read of data then sees 1. Printing and
 * sleeping add no memory event; memset of the private buffer only stores
 * into PE 1's own cells, which nobody else reads. PE 2 does nothing.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long seen[2];
    memset(seen, 0, sizeof seen);
    if (me == 0) {
        shmem_p(&data, 1, 1);
        shmem_fence();
        usleep(10);
        shmem_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_wait_until(&flag, SHMEM_CMP_EQ, 1);
        seen[0] = data;
        if (seen[0] != 1)
            fprintf(stderr, "PE %d: data %ld\n", me, seen[0]);
    }
    shmem_finalize();
    return 0;
}
