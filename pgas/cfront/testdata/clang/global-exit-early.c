/* The producer stops the program before it sends the flag.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: PE 0 puts data and then calls shmem_global_exit: its flag put
 * never happens. PE 1 waits for a flag that never comes, so its load of
 * data never executes either: the only conflicting accesses left are the
 * put of data and nothing on PE 1, and a happens-before cycle needs a
 * conflict in each direction between the two PEs. (The other PEs may run
 * on for any number of steps before the exit reaches them; here they are
 * blocked.)
 */
#include <shmem.h>

long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        shmem_long_p(&data, 1, 1);
        shmem_global_exit(0);
        shmem_long_p(&flag, 1, 1);
    } else if (me == 1) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        long v = data;
    }
    shmem_finalize();
    return 0;
}
