/*
 * test_pmpi_overlap.c - does an MPI_Ialltoall progress while the caller computes
 * without making any MPI call?  Plain MPI, meant for the emulated cluster
 * (one rank per host, TCP between them) with libnbo-mpi preloaded.
 *
 *   t_comm    Ialltoall + Wait at once (best of 3)
 *   t_wait    Ialltoall, compute 1.5 t_comm with no MPI call, then Wait:
 *             the time left in the Wait (max over ranks)
 *   overlap = 1 - t_wait / t_comm     (1: all hidden, 0: none)
 *
 * --bytes=N per peer (default 1 MiB), --min-overlap=X fails below X,
 * --expect=nbo|mpi as in pt.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pt.h"

static volatile double sink;

/* Busy work for about `seconds`, with no MPI call at all. */
static void compute(double seconds)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    double x = 1.0;
    do {
        for (int i = 0; i < 20000; i++)
            x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) < seconds);
    sink = x;
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "test_pmpi_overlap");
    long bytes = 1 << 20;
    double min_overlap = -1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--bytes=", 8) == 0)
            bytes = atol(argv[i] + 8);
        if (strncmp(argv[i], "--min-overlap=", 14) == 0)
            min_overlap = atof(argv[i] + 14);
    }
    char *s = malloc((size_t)bytes * pt_size), *r = malloc((size_t)bytes * pt_size);
    memset(s, pt_rank, (size_t)bytes * pt_size);
    MPI_Request req;

    double t_comm = 1e30;
    for (int k = 0; k < 4; k++) { /* the first one also creates libnbo's state */
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        PT_MPI(MPI_Ialltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD,
                             &req));
        PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        t = MPI_Wtime() - t;
        if (k > 0 && t < t_comm)
            t_comm = t;
    }
    MPI_Allreduce(MPI_IN_PLACE, &t_comm, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

    double t_wait = 1e30;
    for (int k = 0; k < 3; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        PT_MPI(MPI_Ialltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD,
                             &req));
        compute(1.5 * t_comm);
        double t = MPI_Wtime();
        PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        t = MPI_Wtime() - t;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (t < t_wait)
            t_wait = t;
    }
    for (int src = 0; src < pt_size; src++)
        PT_CHECK(r[(size_t)src * bytes] == (char)src && r[(size_t)src * bytes + bytes - 1] == (char)src,
                 "data from %d wrong", src);
    double overlap = 1.0 - t_wait / t_comm;
    if (overlap < 0)
        overlap = 0;
    if (pt_rank == 0)
        printf("test_pmpi_overlap P=%d bytes/peer=%ld: t_comm %.2f ms, wait after compute %.2f ms, "
               "overlap %.2f\n", pt_size, bytes, t_comm * 1e3, t_wait * 1e3, overlap);
    if (min_overlap >= 0)
        PT_CHECK(overlap >= min_overlap, "overlap %.2f below %.2f", overlap, min_overlap);
    free(s), free(r);
    return pt_finish();
}
