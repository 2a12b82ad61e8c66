/* As signal-set-fence.c with shmem_signal_add and no fence.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: the signal update is delivered like a non-fetching atomic,
 * unordered with the data put: [p data] ->po [signal] ->cf await ->po
 * load data ->cf [p data].
 */
#include <shmem.h>
#include <assert.h>
long data;
uint64_t sig;
int main(void) {
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_signal_add(&sig, 1, 1);
    } else if (me == 1) {
        shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    return 0;
}
