/* A put to PE me+1: for the last PE there is no such PE, a run-time
 * error under every memory model (expect: N=2 RUN-TIME ERROR at line 8). */
#include <shmem.h>
long x;
int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    shmem_long_p(&x, 1, me + 1);
    shmem_finalize();
    return 0;
}
