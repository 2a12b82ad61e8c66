/* Store buffering inside a team of the odd PEs made by
 * shmem_team_split_strided (start 1, stride 2, size 2: PEs 1 and 3).
 *
 * expect: N=2 ROBUST, N=3 ROBUST, N=4 NOT ROBUST
 *
 * Why: each member puts 1 into x of the next member (team numbers mod
 * the team's size, translated to PE numbers), then reads its own x; a
 * member that is its own next does nothing. With N = 2 or 3 PE 3 does not
 * exist, the triplet is invalid and every PE gets SHMEM_TEAM_INVALID, so
 * nothing happens and there is no cycle. With N = 4 the
 * team is PEs 1 and 3, each putting into the other's x: PE 1's load of
 * x@1 may come before PE 3's put to it is delivered, and PE 3's load of
 * x@3 before PE 1's, the cycle of sb.c:
 *   [put x@3] ->po load x@1 ->cf [put x@1] ->po load x@3 ->cf [put x@3].
 * The split synchronises nothing (docs/shmem.md, "Teams and
 * synchronisation"); PEs 0 and 2 are outside the team and do nothing.
 */
#include <shmem.h>

long x;
long r;

int main(void) {
    shmem_init();
    shmem_team_t odd;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
        int me = shmem_team_my_pe(odd);
        int next = (me + 1) % shmem_team_n_pes(odd);
        int to = shmem_team_translate_pe(odd, next, SHMEM_TEAM_WORLD);
        if (to != shmem_my_pe()) {
            shmem_long_p(&x, 1, to);
            r = x;
        }
    }
    shmem_team_destroy(odd);
    shmem_finalize();
    return 0;
}
