/* Flags as bits of one word: PE 0 puts data, fences, then sets bit 0 of
 * PE 1's word with shmem_atomic_or; PE 1 polls the word with
 * shmem_atomic_fetch_and (mask 1) and reads the data when the bit is set.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: the fence delivers the data before the or; a fetch that sees the
 * bit comes after the or, hence after the data: no cycle. Each atomic is
 * one event (fetching) or delivered like a put (the or).
 */
#include <shmem.h>
#include <assert.h>
unsigned long word, data;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_ulong_p(&data, 1, 1);
        shmem_fence();
        shmem_ulong_atomic_or(&word, 1, 1);
    } else if (me == 1) {
        if (shmem_ulong_atomic_fetch_and(&word, 1, 1) == 1)
            assert(data == 1);
    }
    return 0;
}
