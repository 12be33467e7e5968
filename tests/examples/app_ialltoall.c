/*
 * app_ialltoall.c - an unmodified MPI program for docs/troubleshooting.md:
 * MPI_Init (no thread level asked), one MPI_Ialltoall of 64 KiB per peer
 * (libnbo-mpi's default size to serve it), compute, MPI_Wait, check.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int P, me;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const int n = 64 * 1024 / (int)sizeof(int);
    int *send = malloc(sizeof(int) * n * P), *recv = calloc((size_t)n * P, sizeof(int));
    for (int i = 0; i < n * P; i++)
        send[i] = me * 1000000 + i;
    MPI_Request req;
    MPI_Ialltoall(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD, &req);
    double x = 0;
    for (int i = 1; i <= 1000000; i++)
        x += 1.0 / i;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    long wrong = 0;
    for (int p = 0; p < P; p++)
        for (int i = 0; i < n; i++)
            wrong += recv[p * n + i] != p * 1000000 + me * n + i;
    printf("app_ialltoall rank %d: %ld wrong values (%.3f)\n", me, wrong, x);
    free(send);
    free(recv);
    MPI_Finalize();
    return wrong != 0;
}
