/*
 * test_pmpi_reentry.c - five blocking MPI_Alltoall calls of 64 KiB per peer,
 * results checked, run with NBO_PMPI_BLOCKING=1 and NBO_CHECK=1: libnbo
 * serves them on one communicator of its own, and its own MPI traffic
 * (NBO_CHECK's exchanges, an engine's bootstrap) goes to MPI, never back
 * into the library.  Under the library (--expect=nbo) exactly five calls
 * are served and one libnbo communicator is alive.
 */
#include <stdlib.h>

#include "pt.h"

enum { CALLS = 5, N = 16384 }; /* ints per peer: 64 KiB, the default threshold */

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "test_pmpi_reentry");
    int *s = malloc((size_t)N * pt_size * sizeof(int));
    int *r = malloc((size_t)N * pt_size * sizeof(int));
    if (!s || !r)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int k = 0; k < CALLS; k++) {
        pt_fill(s, N, MPI_COMM_WORLD, k);
        PT_MPI(MPI_Alltoall(s, N, MPI_INT, r, N, MPI_INT, MPI_COMM_WORLD));
        pt_check(r, N, MPI_COMM_WORLD, k, "alltoall");
    }
    if (pt_expect_nbo()) {
        PT_CHECK(pt_served() == CALLS, "libnbo served %ld calls, want %d", pt_served(), CALLS);
        PT_CHECK(pt_live_comms() == 1, "%ld libnbo communicators alive, want 1",
                 pt_live_comms());
    }
    free(s);
    free(r);
    return pt_finish();
}
