/* alltoall.c without shmem_quiet and with shmem_sync_all: the
 * non-blocking puts are never completed before the receivers read.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: a non-blocking put may be delivered at any time until a quiet or
 * barrier_all of its issuer (1.6, put_nbi), and sync_all is neither. PE
 * 0's put into PE 1's recvbuf[0] can land after PE 1 passed the sync and
 * read it:
 *   put_nbi (PE 0) -po-> sync (PE 0) <-> sync (PE 1) -po-> load recvbuf[0]
 *   (PE 1) -cf-> delivery of the put <-> put: a cycle.
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
    shmem_sync_all();
    for (int j = 0; j < npes; j++) {
        if (recvbuf[j] != 10 * j + me) {
            printf("PE %d: slot %d holds %ld\n", me, j, recvbuf[j]);
            shmem_global_exit(1);
        }
    }
    shmem_finalize();
    return 0;
}
