/* Roles chosen by a switch on an enum, with fall-through and break.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: PE 0 (PRODUCER) puts data, fences, puts flag and breaks; PE 1
 * (CONSUMER) waits for flag, reads data, then falls through into default,
 * which only counts in a register. Every other PE takes default. So PE 0
 * and PE 1 run mp-fence.c of examples/shmem (robust: the fence delivers
 * data before flag), and the falls-through add no memory event. A switch
 * that fell from PRODUCER into CONSUMER would make PE 0 wait for a flag
 * nobody sends, which is no cycle either; this file breaks.
 */
#include <shmem.h>

enum role { PRODUCER, CONSUMER };
long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int steps = 0;
    long got = 0;
    switch (me) {
    case PRODUCER:
        shmem_long_p(&data, 1, 1);
        shmem_fence();
        shmem_long_p(&flag, 1, 1);
        break;
    case CONSUMER:
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        got = data;
        /* fall through */
    default:
        steps += 1;
    }
    shmem_finalize();
    return got == 1 ? 0 : steps;
}
