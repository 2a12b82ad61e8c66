/* Bitwise atomics on an unsigned object read as bit patterns
 * (unsigned_bits.go): x starts with every bit set, each PE ands every
 * PE's copy with ~(me + 1) (PE 0 clears bit 0, PE 1 bit 1, PE 2 both),
 * and when x has exactly bits 0 and 1 cleared, PE 0 passes a message to
 * PE 1 without a fence.
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 * Why: after the barrier, x is ~(uint64_t)3 on every PE at N = 2 and 3
 * (the ands commute), so the test holds on PEs 0 and 1;
 * then PE 0's two puts to PE 1 are unordered (no fence), and PE 1 may see
 * the flag and still the old data, as examples/shmem/mp-none.c. Were x's
 * value wrong, the test would fail and nothing would be sent (ROBUST).
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

static uint64_t x = ~(uint64_t)0;
static long data, flag;

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  for (int i = 0; i < shmem_n_pes(); i++)
    shmem_uint64_atomic_and(&x, ~(uint64_t)(me + 1), i);
  shmem_barrier_all();
  if (x == ~(uint64_t)3) {
    if (me == 0) { shmem_long_p(&data, 1, 1); shmem_long_p(&flag, 1, 1); }
    if (me == 1) { shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1); printf("%ld\n", data); }
  }
  shmem_finalize();
  return 0;
}
