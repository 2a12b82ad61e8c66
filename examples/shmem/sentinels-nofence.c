/* sentinels.c without its fence: the sentinels -1, 1337 and INT_MAX
 * (inferred domain -1..2147483648, no pragma), and the bug of mp-none.c.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: two puts to PE 1 are unordered without a fence, so the flag READY
 * may be delivered first. PE 1's wait then passes (popb flag ->cf the
 * await), its load of the payload reads -1 (load ->cf popb payload), and
 * PE 0 issued the payload's put before the flag's:
 *   [put payload] ->po [put flag] ->cf wait_until ->po load payload
 *   ->cf [put payload]
 * a happens-before cycle. In the real program PE 1 then records seen = -1:
 * the sentinel is what makes the bug visible, compared for equality only.
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
