/* A hand-written all-to-all exchange: every PE sends block j of its data
 * to PE j (into slot me of PE j's receive buffer) with non-blocking puts,
 * completes them with shmem_quiet, and meets the others at a barrier;
 * then it checks what it received.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: shmem_quiet completes every put issued before it, and the barrier
 * comes after the quiet on every PE, so every delivery precedes every
 * read of the receive buffers (which happen after the barrier). Each
 * slot is written by one PE: no conflict goes backwards, no cycle.
 */
#include <shmem.h>
#include <stdio.h>

#define MAXPES 4

long sendbuf[MAXPES];
long recvbuf[MAXPES];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();

    if (npes > MAXPES)
        shmem_global_exit(2);
    for (int j = 0; j < npes; j++)
        sendbuf[j] = 10 * me + j;
    for (int j = 0; j < npes; j++)
        shmem_long_put_nbi(&recvbuf[me], &sendbuf[j], 1, j);
    shmem_quiet();
    shmem_barrier_all();
    for (int j = 0; j < npes; j++) {
        if (recvbuf[j] != 10 * j + me) {
            printf("PE %d: slot %d holds %ld\n", me, j, recvbuf[j]);
            shmem_global_exit(1);
        }
    }
    shmem_finalize();
    return 0;
}
