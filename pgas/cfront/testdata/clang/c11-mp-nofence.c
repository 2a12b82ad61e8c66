/* Message passing written with the C11 generic routines, the C library
 * around them (stderr, usleep, memset on a private buffer) and no fence: the bug.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: as mp-none.c of examples/shmem: without the fence the two puts to
 * PE 1 are unordered, flag may arrive first, and PE 1 then reads data
 * before the put of data is delivered:
 *   [put data] ->po [put flag] ->cf wait_until ->po load data ->cf [put data]
 * is a happens-before cycle.
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
