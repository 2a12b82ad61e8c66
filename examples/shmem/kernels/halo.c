/* A pipelined halo exchange on a ring, the shape of a 1-D stencil code:
 * every PE owns NCELL cells of a grid, sends its last cell to its right
 * neighbour with a put-with-signal each iteration, waits for the halo
 * from its left neighbour, updates its first cell and acknowledges the
 * halo with an atomic increment, so that the left neighbour does not
 * overwrite a halo that has not been read yet. At the end PE 0 gathers a
 * checksum with blocking gets and checks it.
 *
 * This is the "100-line kernel with two loops" of issue 26 (it has three:
 * the initialisation, the time steps and the gather). Its decide time at
 * N = 3 is quoted in docs/shmem.md.
 *
 * expect: N=2 ROBUST, N=3 ROBUST
 * *
 * Why: in iteration it, PE p's put-with-signal delivers the halo before
 * the signal ready = it+1 (signal after data); PE p+1 reads the halo only
 * after its signal_wait_until saw it+1, and acknowledges afterwards; PE p
 * sends the next halo only after its wait on ack saw it+1, i.e. after
 * PE p+1's read. So every conflict on halo and ready goes from an earlier
 * step of this handshake to a later one. The grid cells are local except
 * for the gather, which runs after a barrier_all (a quiet, then a
 * barrier) that follows every PE's last update. The checksum is PE 0's
 * own cell. No conflict goes backwards: no cycle.
 */
#include <shmem.h>
#include <stdint.h>

#define NCELL 2
#define ITERS 2

long grid[NCELL];   /* this PE's part of the grid */
long halo;          /* the left neighbour's last cell, put here by it */
uint64_t ready;     /* signal: the halo of iteration ready-1 has arrived */
long ack;           /* how many of my halos the right neighbour has read */
long checksum;      /* PE 0: the sum of the first cells, or -1 if wrong */

/* The value of a cell after a time step: the sum of the cell and its
 * left neighbour (a real code would weigh the terms; integers keep the
 * checksum exact). */
static long step(long left, long mine) {
    return left + mine;
}

/* Send my last cell to the right neighbour, tagged with the iteration. */
static void send_halo(int right, int it) {
    shmem_long_put_signal(&halo, &grid[NCELL - 1], 1, &ready, it + 1,
                          SHMEM_SIGNAL_SET, right);
}

/* Wait for the halo of iteration it, and return it. */
static long receive_halo(int it) {
    shmem_signal_wait_until(&ready, SHMEM_CMP_EQ, it + 1);
    return halo;
}

/* Wait until the right neighbour has read my halo of iteration it. */
static void wait_ack(int it) {
    shmem_long_wait_until(&ack, SHMEM_CMP_GE, it + 1);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    int right = (me + 1) % npes;
    int left = (me + npes - 1) % npes;

    /* Loop 1: initial values. */
    for (int i = 0; i < NCELL; i++)
        grid[i] = 1;
    shmem_barrier_all();

    /* Loop 2: the time steps. */
    for (int it = 0; it < ITERS; it++) {
        send_halo(right, it);
        long h = receive_halo(it);
        grid[0] = step(h, grid[0]);
        /* the halo is read: the left neighbour may send the next one */
        shmem_long_atomic_inc(&ack, left);
        wait_ack(it);
    }

    /* Every update is complete before anyone gathers. */
    shmem_barrier_all();

    /* Loop 3: PE 0 gathers the first cell of every PE. Every cell is
     * 1 + 1 = 2 after the first step and 1 + 2 = 3 after the second (the
     * halo is the neighbour's grid[1], always 1): the sum is 3N. */
    if (me == 0) {
        long sum = 0;
        for (int pe = 0; pe < npes; pe++) {
            long v = shmem_long_g(&grid[0], pe);
            sum = sum + v;
        }
        checksum = (sum == 3 * npes) ? sum : -1;
    }

    shmem_finalize();
    return 0;
}
