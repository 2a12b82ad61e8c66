/* Three rounds of the shape of the tests-sos atomic tests, each with its
 * own static object: the statics share one cell (statics.go), since
 * barrier_all points separate their uses.
 * expect: N=2 ROBUST, N=3 ROBUST
 * Why: within a round the only accesses of another PE's copy are atomic
 * adds (blocking fetch-adds in the second round), which every PE issues
 * in the same order (PE 0's copy, then PE 1's, ...); two adds to one copy
 * conflict, but a cycle would need a PE's later add to reach one of its
 * earlier ones. The store before and the load after are ordered with
 * every add by the two barriers, and the quiet of the second barrier
 * delivers the adds before the load.
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int n = shmem_n_pes();
  int rc = 0;
  do {
    static long remote;
    remote = 0;
    shmem_barrier_all();
    for (int i = 0; i < n; i++) shmem_long_atomic_add(&remote, me + 1, i);
    shmem_barrier_all();
    if (remote != n * (n + 1) / 2) rc = 1;
  } while (0);
  do {
    static int remote;
    remote = 0;
    shmem_barrier_all();
    for (int i = 0; i < n; i++) (void)shmem_int_atomic_fetch_add(&remote, me + 1, i);
    shmem_barrier_all();
    if (remote != n * (n + 1) / 2) rc = 1;
  } while (0);
  do {
    static unsigned int remote;
    remote = 0;
    shmem_barrier_all();
    for (int i = 0; i < n; i++) shmem_uint_atomic_inc(&remote, i);
    shmem_barrier_all();
    if (remote != (unsigned int)n) rc = 1;
  } while (0);
  shmem_finalize();
  return rc;
}
