/* Message passing through the members of a symmetric struct, the payload
 * an array member initialised from a local array, with compound
 * and nested assignments.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 *
 * Why: PE 0 puts both payload cells (a non-blocking put from a private
 * source, completed by the quiet), then the flag; the quiet delivers the
 * payload before the flag is even issued. PE 1 waits for the flag and
 * reads the payload: every conflict goes forward along
 *   [put payload] < quiet < [put flag] < wait < loads,
 * so no cycle. The local array, its initialiser and the sum are private
 * registers and cells of PE 0 and PE 1; PE 1's put of 0
 * into its own flag, on a wrong payload, comes after its wait, forward too. PE 2 does nothing.
 */
#include <shmem.h>

struct msg {
    long payload[2];
    long flag;
};

struct msg box;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0) {
        long src[2] = {1};
        src[1] += 1;
        shmem_long_put_nbi(box.payload, src, 2, 1);
        shmem_quiet();
        shmem_long_p(&box.flag, 1, 1);
    } else if (me == 1) {
        long first, sum;
        shmem_long_wait_until(&box.flag, SHMEM_CMP_EQ, 1);
        if ((sum = (first = box.payload[0])) != 1 || (sum += box.payload[1]) != 2)
            shmem_long_p(&box.flag, 0, 1);
    }
    shmem_finalize();
    return 0;
}
