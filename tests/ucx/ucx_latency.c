/*
 * ucx_latency.c - nbo_ialltoall + nbo_wait against MPI_Alltoall, same run,
 * same buffers: median and mean microseconds per call for 1 KiB, 64 KiB
 * and 1 MiB per peer.  The engine and progress mode come from NBO_*.
 *
 *   mpiexec -n 2 ucx_latency [iterations]     (default 300)
 */
#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over iterations of the slowest rank's time. */
static void summarize(double *t, int iters, double *median, double *mean)
{
    MPI_Allreduce(MPI_IN_PLACE, t, iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double sum = 0;
    for (int i = 0; i < iters; i++)
        sum += t[i];
    qsort(t, (size_t)iters, sizeof(double), cmp);
    *median = t[iters / 2] * 1e6;
    *mean = sum / iters * 1e6;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    if (iters < 1)
        iters = 1;

    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm);
    if (rc != NBO_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Finalize();
        return rc == NBO_ERR_ENGINE ? 77 : 1;
    }
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    if (rank == 0)
        printf("# P=%d engine=%s (%s) progress=%s, %d iterations, times in us "
               "(median / mean of the slowest rank)\n",
               size, info.engine, info.engine_detail,
               nbo_progress_name(info.progress), iters);
    if (rank == 0)
        printf("%-10s %14s %14s %14s %14s\n", "bytes/peer", "nbo median", "nbo mean", "MPI median",
               "MPI mean");

    static const int sizes[] = {1024, 65536, 1 << 20};
    double *t = malloc(sizeof(double) * (size_t)iters), *tm = malloc(sizeof(double) * (size_t)iters);
    for (int k = 0; k < 3; k++) {
        int n = sizes[k];
        char *s = malloc((size_t)n * (size_t)size), *r = malloc((size_t)n * (size_t)size);
        memset(s, rank, (size_t)n * (size_t)size);
        double nbo_med, nbo_mean, mpi_med, mpi_mean;
        for (int warm = 0; warm < 10; warm++) {
            nbo_request_t req;
            nbo_ialltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, &req);
            nbo_wait(&req);
            MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
        }
        /* Alternate the two, call by call, so both see the same machine
         * (on a shared, oversubscribed host the load changes by the second). */
        for (int i = 0; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            nbo_request_t req;
            rc = nbo_ialltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, &req);
            if (rc == NBO_SUCCESS)
                rc = nbo_wait(&req);
            t[i] = MPI_Wtime() - t0;
            if (rc != NBO_SUCCESS) {
                fprintf(stderr, "[%d] nbo: %s\n", rank, nbo_strerror(rc));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
            tm[i] = MPI_Wtime() - t0;
        }
        summarize(t, iters, &nbo_med, &nbo_mean);
        summarize(tm, iters, &mpi_med, &mpi_mean);
        if (rank == 0)
            printf("%-10d %14.1f %14.1f %14.1f %14.1f\n", n, nbo_med, nbo_mean, mpi_med, mpi_mean);
        free(s);
        free(r);
    }
    free(t);
    free(tm);
    nbo_comm_free(&comm);
    MPI_Finalize();
    return 0;
}
