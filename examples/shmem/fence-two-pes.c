/* A fence between puts to two different PEs orders nothing: PE 0 puts
 * data into PE 1, fences, and raises a flag in its own memory; PE 1 reads
 * that flag with an atomic fetch and then its data. The C twin of
 * examples/shmem-calculus/fence-two-pes.pgas.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: the fence orders delivery per target PE; the flag goes to PE 0 and
 * may land while the data to PE 1 is still in flight:
 *   [put data] ->po [put flag] ->cf fetch (PE 1) ->po load data ->cf [put data]
 */
#include <shmem.h>
#include <assert.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_fence();
        shmem_long_p(&flag, 1, 0);
    } else if (me == 1) {
        if (shmem_long_atomic_fetch(&flag, 0) == 1)
            assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
