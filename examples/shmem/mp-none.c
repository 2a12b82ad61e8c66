/* Message passing with nothing between the two puts.
 *
 * PE 0 puts data, then a flag, to PE 1; PE 1 waits for the flag and reads
 * the data.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: two puts are unordered even to the same PE (OpenSHMEM 1.6, the put
 * section; docs/shmem-calculus.md), so the flag may be delivered first.
 * PE 1's wait then passes (popb flag ->cf the await), its load of data
 * reads 0 (load ->cf popb data), and PE 0 issued data before flag:
 *   [put data] ->po [put flag] ->cf wait_until ->po load data ->cf [put data]
 * a happens-before cycle. PEs 2 and 3 do nothing.
 */
#include <shmem.h>
#include <assert.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        assert(data == 1);
    }
    shmem_finalize();
    return 0;
}
