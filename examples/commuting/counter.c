/* A shared counter on PE 0: every PE increments it and adds 2, without a
 * fence, then all meet at a barrier and PE 0 reads the total. The -1
 * sentinel makes the inferred window signed (-1..2 and wider as the sums
 * need), as most C programs have it.
 *
 * Strict (--strict-conflicts): NOT ROBUST at N = 2. A PE's two updates
 * are in po, their deliveries may land in the other order:
 * [inc] ->po [add] ->↔ popb(add) ->cf popb(inc) ->↔ [inc].
 * Default: ROBUST at N = 2 and 3. The operands are 1 and 2, both >= 0, so
 * all the popbs on counter@PE0 are adds of one class: no cf_c edge between
 * them. The barrier completes them all before PE 0's load, which conflicts
 * with each (it reads what they wrote) in the one order the barrier
 * allows: every cycle would need an edge back across the barrier.
 */
#include <shmem.h>

int counter = 0;
int total = -1;

int main(void) {
    shmem_init();
    shmem_atomic_inc(&counter, 0);
    shmem_atomic_add(&counter, 2, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        total = counter;
    shmem_finalize();
    return 0;
}
