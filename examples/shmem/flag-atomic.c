/* The entry protocol of flag-put.c with the flags raised by a fetching
 * atomic (shmem_long_atomic_swap), which is complete when it returns.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the swap reads and writes the remote flag in one event before the
 * PE goes on (docs/shmem-calculus.md, "Why a fetching atomic is one
 * event"). The cycle of flag-put.c would need
 *   swap flag0 < load flag1 < swap flag1 < load flag0 < swap flag0,
 * impossible; the other orders of the two conflicts close no cycle.
 * (A non-fetching shmem_atomic_set would not do: it is delivered like a
 * put, later.)
 */
#include <shmem.h>

long flag0, flag1;
long inside;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_atomic_swap(&flag0, 1, 1);
        if (flag1 == 0)
            inside = 1;
    } else if (me == 1) {
        shmem_long_atomic_swap(&flag1, 1, 0);
        if (flag0 == 0)
            inside = 1;
    }
    shmem_finalize();
    return 0;
}
