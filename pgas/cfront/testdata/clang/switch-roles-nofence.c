/* Roles chosen by a switch on an enum, with the fence forgotten (the bug).
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST
 *
 * Why: the switch selects the same code as switch-roles.c without the
 * fence: PE 0 and PE 1 run mp-none.c of examples/shmem, whose two puts to
 * PE 1 are unordered; the cycle [put data] ->po [put flag] ->cf wait ->po
 * load data ->cf [put data] exists.
 */
#include <shmem.h>

enum role { PRODUCER, CONSUMER };
long data, flag;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int steps = 0;
    long got = 0;
    switch (me) {
    case PRODUCER:
        shmem_long_p(&data, 1, 1);
        shmem_long_p(&flag, 1, 1);
        break;
    case CONSUMER:
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
        got = data;
        /* fall through */
    default:
        steps += 1;
    }
    shmem_finalize();
    return got == 1 ? 0 : steps;
}
