/* A blocking put whose source buffer is reused at once: shmem_putmem
 * returns once its source has been read (local completion), so PE 0 may
 * overwrite buf right after it. PE 1 reads what arrived. The C twin of
 * examples/shmem-calculus/putmem-reuse.pgas.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: the put's issue and the read of its source are one step; only the
 * delivery into PE 1's data comes later. The second store to buf is after
 * both (po and cf forward); PE 1's load of data conflicts only with the
 * delivery, in one direction. No two classes have edges both ways: no
 * cycle. put-nbi-reuse.c is the same with shmem_putmem_nbi.
 */
#include <shmem.h>

long buf, data;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        buf = 1;
        shmem_putmem(&data, &buf, sizeof(long), 1);
        buf = 2;
    } else if (me == 1) {
        long r = data;
    }
    shmem_finalize();
    return 0;
}
