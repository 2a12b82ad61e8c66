/* Load buffering: each of PE 0 and PE 1 reads its own cell, then puts 1
 * into the other's.
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 ROBUST
 *
 * Why: a cycle needs both loads to read 1, i.e. load x (PE 0) after the
 * delivery of PE 1's put, issued after PE 1's load of y, which must come
 * after the delivery of PE 0's put, issued after PE 0's load of x:
 * load x < ... < load x, impossible. (The calculus, like OpenSHMEM, never
 * lets a put overtake an earlier load of its own PE.) Loads reading 0 give
 * only edges from a load to a put, which close no cycle.
 */
#include <shmem.h>

long x, y;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        r = x;
        shmem_long_p(&y, 1, 1);
    } else if (me == 1) {
        r = y;
        shmem_long_p(&x, 1, 0);
    }
    shmem_finalize();
    return 0;
}
