/* A consumer that checks what it received and stops the whole program with
 * shmem_global_exit on a wrong value, as test programs do; the producer
 * forgets the fence.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: the check comes after the load that closes the cycle of mp-none.c
 * (examples/shmem): [put data] ->po [put flag] ->cf wait ->po load data
 * ->cf [put data]. Stopping afterwards removes no event of that
 * computation, so the cycle is there whichever branch the check takes.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        if (data != 1) {
            fprintf(stderr, "PE %d: wrong data\n", me);
            shmem_global_exit(EXIT_FAILURE);
        }
    }
    shmem_finalize();
    return 0;
}
