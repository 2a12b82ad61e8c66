/* The bug: no quiet between the payload and the flag. Message passing
 * through the members of a symmetric struct, the payload an array member
 * initialised from a local array, with compound and nested assignments.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: without the quiet, the non-blocking put of the payload may be
 * delivered after the flag: PE 1's wait passes, its load of payload[0]
 * reads 0, and [put_nbi payload] ->po [put flag] ->cf wait ->po load
 * payload[0] ->cf [put_nbi payload] is a happens-before cycle.
 */
#include <shmem.h>

struct msg {
    long payload[2];
    long flag;
};

struct msg box;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long src[2] = {1};
        src[1] += 1;
        shmem_long_put_nbi(box.payload, src, 2, 1);

        shmem_long_p(&box.flag, 1, 1);
    } else if (me == 1) {
        long first, sum;
        shmem_long_wait_until(&box.flag, SHMEM_CMP_EQ, 1);
        if ((sum = (first = box.payload[0])) != 1 || (sum += box.payload[1]) != 2)
            shmem_long_p(&box.flag, 0, 1);
    }
    shmem_finalize();
    return 0;
}
