/* Two flags raised by plain puts (Dekker's entry protocol): each of PE 0
 * and PE 1 raises its flag in the other's memory, then looks at the flag
 * the other raised in its own memory; it enters when that flag is 0.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: a put returns before its data arrives, so both PEs can raise their
 * flag and both read 0 before either flag lands (the store-buffering
 * cycle of sb.c):
 *   [put flag0] ->po load flag1 ->cf [put flag1] ->po load flag0 ->cf [put flag0]
 * Both enter. flag-atomic.c raises the flags with an atomic swap instead.
 */
#include <shmem.h>

long flag0, flag1; /* flag0 is raised by PE 0 in PE 1's memory, flag1 by PE 1 in PE 0's */
long inside;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&flag0, 1, 1);
        if (flag1 == 0)
            inside = 1;
    } else if (me == 1) {
        shmem_long_p(&flag1, 1, 0);
        if (flag0 == 0)
            inside = 1;
    }
    shmem_finalize();
    return 0;
}
