/* Sentinels as C programs use them, with no "#pragma pgasrob values":
 * -1 for "nobody" and "nothing yet", 1337 as a payload, INT_MAX as the
 * "ready" flag, all compared for equality only. The value domain is
 * inferred from these constants (-1..2147483648, docs/shmem.md): its width
 * costs bits per value, not states, since the checker never enumerates it.
 *
 * Every PE first claims a slot on PE 0 with a compare-and-swap from -1 to
 * its number; then PE 0 puts the payload 1337 to PE 1, fences, and puts
 * READY; PE 1 waits for READY and reads the payload.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the claims are fetching atomics on one cell, one per PE and each
 * PE's first access: an edge into a claim can only come from another
 * claim (cf) or from nothing before it in program order, so no cycle goes
 * through a claim. The rest is mp-fence.c: the fence orders the two puts
 * to PE 1 (the payload is delivered before the flag); PE 1's wait reads
 * READY from the flag's put, and its load of the payload, after the wait
 * in program order, then reads 1337 (popb payload ->cf load): every
 * conflict goes from PE 0's side to PE 1's, none back. With the fence
 * removed it is NOT ROBUST (sentinels-nofence.c). PEs 2 and 3 only claim.
 */
#include <shmem.h>

#define NOBODY (-1)
#define READY 2147483647 /* INT_MAX */

long owner = NOBODY; /* on PE 0: the PE that claimed the slot first */
long payload = -1;   /* on PE 1: -1 until PE 0's put arrives */
long flag = -1;      /* on PE 1: READY once the payload is there */
long seen;           /* on PE 1: 1 if it saw the payload, -1 if not */

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    long prev = shmem_long_atomic_compare_swap(&owner, NOBODY, me, 0);
    if (me == 0) {
        shmem_long_p(&payload, 1337, 1);
        shmem_fence();
        shmem_long_p(&flag, READY, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, READY);
        if (payload == 1337)
            seen = 1;
        else
            seen = -1;
    }
    shmem_finalize();
    return 0;
}
