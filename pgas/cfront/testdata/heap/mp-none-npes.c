/* mp-fence-npes.c without its fence: the box array has one slot per PE,
 * so the translation is made per N.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: as examples/shmem/mp-none.c. PE 0's two puts to PE 1 (box[1],
 * then the flag) are not ordered without a fence or quiet: the flag can
 * be delivered first, PE 1's wait returns, and its load of box[1] reads 0
 * while the put of box[1] is still pending. The cycle
 *   [put box[1]] -po-> [put flag] -rf-> wait_until -po-> load box[1]
 *   -fr-> [put box[1]]
 * is not sequentially consistent: a violation at every N >= 2.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long *box = shmem_calloc(npes, sizeof(long));
    long *flag = shmem_malloc(sizeof(long));
    if (me == 0) {
        shmem_long_p(&box[1], 1, 1);
        shmem_long_p(flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
        printf("%ld\n", box[1]);
    }
    shmem_free(box);
    shmem_free(flag);
    shmem_finalize();
    return 0;
}
