/* Store buffering on one heap block of two cells, each reached through a
 * helper that returns a pointer.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: as examples/shmem/sb.c. PE 0 puts 1 into cell 0 of PE 1 and reads
 * its own cell 1; PE 1 puts into cell 1 of PE 0 and reads its cell 0. A
 * blocking put returns before delivery, so both loads may read 0:
 *   [put c0] ->po load c1 ->cf [put c1] ->po load c0 ->cf [put c0]
 */
#include <shmem.h>

static long *cell(long *base, int i) {
    return base + i;
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long *xy = (long *) shmem_malloc(2 * sizeof(long));
    long r = 0;
    if (me == 0) {
        shmem_long_p(cell(xy, 0), 1, 1);
        r = *cell(xy, 1);
    } else if (me == 1) {
        shmem_long_p(cell(xy, 1), 1, 0);
        r = xy[0];
    }
    shmem_finalize();
    return 0;
}
