/*
 * step1_start_wait.c - tutorial step 1 (docs/tutorial.md): start an
 * all-to-all, compute while it runs, wait, check what arrived.
 *
 *   mpiexec -n 2 ./step1
 */
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>

/* Stands for the application's own work: no MPI or libnbo call inside. */
static double compute(long steps)
{
    double x = 0;
    for (long i = 1; i <= steps; i++)
        x += 1.0 / ((double)i * i);
    return x;
}

int main(int argc, char **argv)
{
    /* The progress thread calls MPI beside the application: it needs
     * MPI_THREAD_MULTIPLE, else libnbo progresses inline (in nbo_wait). */
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);

    nbo_comm_t comm; /* create once, use for many calls: it connects every pair */
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm); /* NULL: NBO_* variables */
    if (rc != NBO_SUCCESS) { /* the same code on every rank: all end here */
        fprintf(stderr, "nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Finalize();
        return 1;
    }

    const int n = 1 << 16; /* doubles per peer: 512 KiB */
    double *send = malloc(sizeof(double) * n * P), *recv = calloc((size_t)n * P, sizeof(double));
    for (int i = 0; i < n * P; i++)
        send[i] = me * 1e6 + i; /* block p goes to rank p */

    nbo_request_t req;
    rc = nbo_ialltoall(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, comm, &req);
    double x = compute(20000000); /* the exchange runs meanwhile */
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req); /* send may be reused, recv read, from here on */

    /* Block p of recv is rank p's block `me`: p * 1e6 + me * n + i. */
    long wrong = 0;
    for (int p = 0; p < P; p++)
        for (int i = 0; i < n; i++)
            wrong += recv[p * n + i] != p * 1e6 + (double)me * n + i;
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    printf("rank %d: engine %s, progress %s, %ld wrong values, %s (compute %.3f)\n", me,
           info.engine, nbo_progress_name(info.progress), wrong,
           rc == NBO_SUCCESS ? "ok" : nbo_strerror(rc), x);
    free(send);
    free(recv);
    nbo_comm_free(&comm); /* after the last wait, before MPI_Finalize */
    MPI_Finalize();
    return rc != NBO_SUCCESS || wrong != 0;
}
