/* Store buffering whose quiets are left out when an input file cannot be
 * opened.
 *
 * expect: N=2 NOT ROBUST, N=3 NOT ROBUST, N=4 NOT ROBUST
 *
 * Why: whether fopen succeeds depends on the machine, which pgasrob does
 * not know, so each fopen is a nondeterministic choice between NULL and
 * an open stream, and the verdict covers every outcome. Where both PEs 0
 * and 1 get NULL, neither quiets, and the cycle of sb.c exists:
 *   [put x] ->po load y ->cf [put y] ->po load x ->cf [put x].
 * fclose of the open stream orders nothing. PEs 2 and 3 do nothing.
 */
#include <shmem.h>
#include <stdio.h>

long x, y;
long r;

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me < 2) {
        FILE *fp;
        if (me == 0)
            shmem_long_p(&x, 1, 1);
        else
            shmem_long_p(&y, 1, 0);
        if ((fp = fopen("input.txt", "r")) != NULL) {
            shmem_quiet();
            fclose(fp);
        }
        r = me == 0 ? y : x;
    }
    shmem_finalize();
    return 0;
}
