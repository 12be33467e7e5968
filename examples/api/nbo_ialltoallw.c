#include <stdlib.h>
#include <nbo.h>

/* Rank p gets column p of this rank's row-major n x P matrix (a strided
 * type on the send side), n contiguous doubles per peer in col. */
int columns(nbo_comm_t comm, const double *matrix, int n, int P, double *col)
{
    MPI_Datatype column;
    MPI_Type_vector(n, 1, P, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    int *sc = calloc(P, sizeof(int)), *sd = calloc(P, sizeof(int));
    int *rc = calloc(P, sizeof(int)), *rd = calloc(P, sizeof(int));
    MPI_Datatype *st = calloc(P, sizeof(MPI_Datatype)), *rt = calloc(P, sizeof(MPI_Datatype));
    for (int p = 0; p < P; p++) {
        sc[p] = 1; sd[p] = p * (int)sizeof(double); st[p] = column; /* column p */
        rc[p] = n; rd[p] = p * n * (int)sizeof(double); rt[p] = MPI_DOUBLE;
    }
    nbo_request_t req;
    int err = nbo_ialltoallw(matrix, sc, sd, st, col, rc, rd, rt, comm, &req);
    MPI_Type_free(&column); /* the request keeps its own copy */
    if (err == NBO_SUCCESS)
        err = nbo_wait(&req);
    free(sc); free(sd); free(rc); free(rd); free(st); free(rt);
    return err;
}
