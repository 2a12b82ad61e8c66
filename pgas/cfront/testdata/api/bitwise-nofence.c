/* As bitwise-flags.c without the fence, the bit set by shmem_atomic_xor.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: the xor may be delivered before the data: [p data] ->po [xor word]
 * ->cf fetch_and (PE 1, sees the bit) ->po load data ->cf [p data].
 */
#include <shmem.h>
#include <assert.h>
unsigned long word, data;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_ulong_p(&data, 1, 1);
        shmem_ulong_atomic_xor(&word, 1, 1);
    } else if (me == 1) {
        if (shmem_ulong_atomic_fetch_and(&word, 1, 1) == 1)
            assert(data == 1);
    }
    return 0;
}
