/*
 * test_call_cache.c - non-persistent calls kept for reuse (libnbo/call_cache.c).
 *
 * - The same small call on the same buffers, again and again with new
 *   data: every result right, and the second call runs the request the
 *   first one left (its handle comes back).
 * - Ranks that disagree on hits: rank 0 always uses the same buffers,
 *   the others rotate through more buffers than the cache holds, so their
 *   calls miss and evict while rank 0's hit: the calls must still match.
 * - Four collectives interleaved, each checked against MPI.
 * - A derived datatype freed and another created (MPI may hand out the
 *   same handle): the call with the new type moves the new type's layout.
 * - The communicator frees cleanly with calls kept in its cache.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define ROTATE 12 /* more buffers than the cache's slots */
#define ITERS 120
#define N 64      /* doubles per allreduce, bytes per other block */

static double value(int rank, int it, int i) { return (double)(rank + 1) * (it + 1) + i; }

static void allreduce_round(nbo_comm_t comm, double *in, double *out, int it)
{
    for (int i = 0; i < N; i++)
        in[i] = value(mt_rank, it, i);
    nbo_request_t req;
    MT_OK(nbo_iallreduce(in, out, N, MPI_DOUBLE, MPI_SUM, comm, &req));
    MT_OK(mt_complete(&req, it % 2));
    double ranks = mt_size * (mt_size + 1) / 2.0;
    for (int i = 0; i < N; i++)
        if (out[i] != ranks * (it + 1) + mt_size * (double)i) {
            mt_fail("allreduce iteration %d: element %d is %g", it, i, out[i]);
            return;
        }
}

static void others_round(nbo_comm_t comm, unsigned char *s, unsigned char *r, int it)
{
    const size_t n = (size_t)mt_size * N;
    unsigned char *ref = malloc(n);
    nbo_request_t req;
    char what[64];
    /* all-to-all */
    for (int d = 0; d < mt_size; d++)
        mt_fill(s + (size_t)d * N, N, mt_rank, d, (unsigned)it);
    MPI_Alltoall(s, N, MPI_BYTE, ref, N, MPI_BYTE, MPI_COMM_WORLD);
    MT_OK(nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req));
    MT_OK(nbo_wait(&req));
    snprintf(what, sizeof(what), "alltoall iteration %d", it);
    mt_compare(r, ref, n, what);
    /* allgather */
    mt_fill(s, N, mt_rank, 0, (unsigned)it + 7u);
    MPI_Allgather(s, N, MPI_BYTE, ref, N, MPI_BYTE, MPI_COMM_WORLD);
    MT_OK(nbo_iallgather(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req));
    MT_OK(nbo_wait(&req));
    snprintf(what, sizeof(what), "allgather iteration %d", it);
    mt_compare(r, ref, n, what);
    /* bcast from a root that moves */
    int root = it % mt_size;
    if (mt_rank == root)
        mt_fill(r, N, root, 0, (unsigned)it + 11u);
    memcpy(ref, r, N);
    MPI_Bcast(ref, N, MPI_BYTE, root, MPI_COMM_WORLD);
    MT_OK(nbo_ibcast(r, N, MPI_BYTE, root, comm, &req));
    MT_OK(nbo_wait(&req));
    snprintf(what, sizeof(what), "bcast iteration %d", it);
    mt_compare(r, ref, N, what);
    free(ref);
}

static void handle_comes_back(nbo_comm_t comm)
{
    double in = mt_rank, out = 0;
    nbo_request_t a, b;
    MT_OK(nbo_iallreduce(&in, &out, 1, MPI_DOUBLE, MPI_MAX, comm, &a));
    nbo_request_t first = a;
    MT_OK(nbo_wait(&a));
    MT_OK(nbo_iallreduce(&in, &out, 1, MPI_DOUBLE, MPI_MAX, comm, &b));
    if (b != first)
        mt_fail("the same call on the same buffers did not reuse the kept request");
    MT_OK(nbo_wait(&b));
    if (a != NBO_REQUEST_NULL || b != NBO_REQUEST_NULL)
        mt_fail("a completed non-persistent request was not set to NBO_REQUEST_NULL");
    if (out != mt_size - 1)
        mt_fail("allreduce MPI_MAX gave %g", out);
    /* An active kept request is the user's: a second identical call while
     * it runs gets a request of its own. */
    double out2 = 0;
    MT_OK(nbo_iallreduce(&in, &out, 1, MPI_DOUBLE, MPI_MAX, comm, &a));
    MT_OK(nbo_iallreduce(&in, &out2, 1, MPI_DOUBLE, MPI_MAX, comm, &b));
    if (a == b)
        mt_fail("two running calls share one request");
    MT_OK(nbo_wait(&b));
    MT_OK(nbo_wait(&a));
    if (out != mt_size - 1 || out2 != mt_size - 1)
        mt_fail("concurrent allreduces gave %g and %g", out, out2);
}

/* Block p of the all-to-all: one element of a vector of k ints, stride 2
 * (extent 2k - 1 ints).  One type per round, freed at its end, so that MPI
 * may hand the next round's type the same handle. */
static void derived_round(nbo_comm_t comm, int *s, int *r, int k, int it)
{
    MPI_Datatype t;
    MPI_Type_vector(k, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    const int e = 2 * k - 1, span = e * mt_size;
    for (int i = 0; i < span; i++) {
        s[i] = mt_rank * 100000 + it * 1000 + i;
        r[i] = -1;
    }
    nbo_request_t req;
    MT_OK(nbo_ialltoall(s, 1, t, r, 1, t, comm, &req));
    MT_OK(nbo_wait(&req));
    for (int p = 0; p < mt_size; p++)
        for (int j = 0; j < e; j++) {
            int at = p * e + j;
            int want = j % 2 == 0 ? p * 100000 + it * 1000 + mt_rank * e + j : -1;
            if (r[at] != want) {
                mt_fail("vector of %d ints, iteration %d: r[%d] = %d, want %d", k, it, at,
                        r[at], want);
                p = mt_size;
                break;
            }
        }
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_call_cache");
    nbo_comm_t comm;
    if (mt_comm_for(NBO_ALG_AUTO, &comm)) {
        double *din[ROTATE], *dout[ROTATE];
        unsigned char *bs[ROTATE], *br[ROTATE];
        for (int b = 0; b < ROTATE; b++) {
            din[b] = malloc(N * sizeof(double));
            dout[b] = malloc(N * sizeof(double));
            bs[b] = malloc((size_t)mt_size * N);
            br[b] = malloc((size_t)mt_size * N);
        }
        handle_comes_back(comm);
        for (int it = 0; it < ITERS && !mt_failures(); it++) {
            int b = mt_rank == 0 ? 0 : it % ROTATE; /* rank 0 hits, the others miss */
            allreduce_round(comm, din[b], dout[b], it);
            others_round(comm, bs[b], br[b], it);
        }
        int *s = malloc(8 * (size_t)mt_size * sizeof(int)), *r = malloc(8 * (size_t)mt_size * sizeof(int));
        for (int it = 0; it < 6 && !mt_failures(); it++)
            derived_round(comm, s, r, it % 2 ? 2 : 3, it);
        free(s);
        free(r);
        MT_OK(nbo_comm_free(&comm)); /* kept calls do not count as pending */
        for (int b = 0; b < ROTATE; b++) {
            free(din[b]);
            free(dout[b]);
            free(bs[b]);
            free(br[b]);
        }
    }
    return mt_finish();
}
