/*
 * test_pmpi_nonblocking.c - MPI_Ialltoall(v) requests in every completion call,
 * mixed with point-to-point requests, plus MPI_IN_PLACE and a derived
 * datatype.  Plain MPI; results checked against hand-computed values.
 */
#include <stdlib.h>
#include <string.h>

#include "pt.h"

/* gcc reads MPI_STATUSES_IGNORE, a sentinel pointer, as a zero-size array;
 * passing it on purpose is part of what these tests check. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int *alloc_ints(size_t n) { return calloc(n ? n : 1, sizeof(int)); }

/* One MPI_Ialltoall of n ints per peer, completed with MPI_Wait or a
 * MPI_Test loop. */
static void basic(int n, int use_test, int seed)
{
    int *s = alloc_ints((size_t)n * pt_size), *r = alloc_ints((size_t)n * pt_size);
    pt_fill(s, n, MPI_COMM_WORLD, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, &req));
    if (use_test) {
        int flag = 0;
        while (!flag)
            PT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    } else {
        MPI_Status st;
        PT_MPI(MPI_Wait(&req, &st));
        int cancelled = 1;
        MPI_Test_cancelled(&st, &cancelled);
        PT_CHECK(!cancelled, "status of a completed ialltoall says cancelled");
    }
    PT_CHECK(req == MPI_REQUEST_NULL, "completed request not set to MPI_REQUEST_NULL");
    pt_check(r, n, MPI_COMM_WORLD, seed, use_test ? "ialltoall+test" : "ialltoall+wait");
    free(s);
    free(r);
}

static void vbasic(int seed)
{
    int p = pt_size, st, rt;
    int *sc = alloc_ints(p), *sd = alloc_ints(p), *rc = alloc_ints(p), *rd = alloc_ints(p);
    pt_vlayout(MPI_COMM_WORLD, sc, sd, rc, rd, &st, &rt);
    int *s = alloc_ints(st), *r = alloc_ints(rt);
    pt_vfill(s, MPI_COMM_WORLD, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD, &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    pt_vcheck(r, MPI_COMM_WORLD, seed, "ialltoallv");
    free(s), free(r), free(sc), free(sd), free(rc), free(rd);
}

/* Two all-to-alls and a ring exchange, completed by one call of each kind. */
enum { WAITALL, WAITANY, WAITSOME, TESTALL, TESTANY, TESTSOME, NKINDS };
static const char *kind_name[] = {"waitall", "waitany", "waitsome", "testall", "testany",
                                  "testsome"};

static void mixed(int kind, int seed)
{
    const int n = 300;
    int p = pt_size;
    int *s1 = alloc_ints((size_t)n * p), *r1 = alloc_ints((size_t)n * p);
    int *s2 = alloc_ints((size_t)2 * p), *r2 = alloc_ints((size_t)2 * p);
    int ring_out[64], ring_in[64];
    for (int i = 0; i < 64; i++)
        ring_out[i] = pt_val(pt_rank, 77, i, seed);
    pt_fill(s1, n, MPI_COMM_WORLD, seed);
    pt_fill(s2, 2, MPI_COMM_WORLD, seed + 1);
    int right = (pt_rank + 1) % p, left = (pt_rank + p - 1) % p;
    MPI_Request reqs[4];
    PT_MPI(MPI_Irecv(ring_in, 64, MPI_INT, left, 5, MPI_COMM_WORLD, &reqs[0]));
    PT_MPI(MPI_Ialltoall(s1, n, MPI_INT, r1, n, MPI_INT, MPI_COMM_WORLD, &reqs[1]));
    PT_MPI(MPI_Isend(ring_out, 64, MPI_INT, right, 5, MPI_COMM_WORLD, &reqs[2]));
    PT_MPI(MPI_Ialltoall(s2, 2, MPI_INT, r2, 2, MPI_INT, MPI_COMM_WORLD, &reqs[3]));

    int done = 0, guard = 0;
    MPI_Status sts[4];
    while (done < 4 && guard++ < 100000000) {
        int idx[4], out = 0, flag = 0, one;
        switch (kind) {
        case WAITALL:
            PT_MPI(MPI_Waitall(4, reqs, sts));
            done = 4;
            break;
        case TESTALL:
            PT_MPI(MPI_Testall(4, reqs, &flag, MPI_STATUSES_IGNORE));
            if (flag)
                done = 4;
            break;
        case WAITANY:
            PT_MPI(MPI_Waitany(4, reqs, &one, MPI_STATUS_IGNORE));
            PT_CHECK(one != MPI_UNDEFINED && reqs[one] == MPI_REQUEST_NULL,
                     "waitany returned index %d", one);
            done++;
            break;
        case TESTANY:
            PT_MPI(MPI_Testany(4, reqs, &one, &flag, MPI_STATUS_IGNORE));
            if (flag && one != MPI_UNDEFINED)
                done++;
            break;
        case WAITSOME:
            PT_MPI(MPI_Waitsome(4, reqs, &out, idx, MPI_STATUSES_IGNORE));
            PT_CHECK(out > 0 && out != MPI_UNDEFINED, "waitsome returned %d", out);
            if (out > 0 && out != MPI_UNDEFINED)
                done += out;
            break;
        case TESTSOME:
            PT_MPI(MPI_Testsome(4, reqs, &out, idx, sts));
            if (out != MPI_UNDEFINED)
                done += out;
            break;
        }
    }
    PT_CHECK(done == 4, "%s: %d of 4 requests completed", kind_name[kind], done);
    for (int i = 0; i < 4; i++)
        PT_CHECK(reqs[i] == MPI_REQUEST_NULL, "%s: request %d not freed", kind_name[kind], i);
    if (kind == WAITALL) {
        int cnt = -1;
        MPI_Get_count(&sts[0], MPI_INT, &cnt);
        PT_CHECK(cnt == 64 && sts[0].MPI_SOURCE == left, "waitall: receive status wrong");
    }
    pt_check(r1, n, MPI_COMM_WORLD, seed, kind_name[kind]);
    pt_check(r2, 2, MPI_COMM_WORLD, seed + 1, kind_name[kind]);
    for (int i = 0; i < 64; i++)
        if (ring_in[i] != pt_val(left, 77, i, seed)) {
            pt_fail("%s: ring element %d wrong", kind_name[kind], i);
            break;
        }
    free(s1), free(r1), free(s2), free(r2);
}

/* MPI_Request_get_status polls until done, then MPI_Wait frees. */
static void get_status(int seed)
{
    const int n = 50;
    int *s = alloc_ints((size_t)n * pt_size), *r = alloc_ints((size_t)n * pt_size);
    pt_fill(s, n, MPI_COMM_WORLD, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, &req));
    int flag = 0;
    for (long i = 0; !flag && i < 100000000; i++)
        PT_MPI(MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE));
    PT_CHECK(flag, "request_get_status never reported completion");
    PT_CHECK(req != MPI_REQUEST_NULL, "request_get_status freed the request");
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    pt_check(r, n, MPI_COMM_WORLD, seed, "request_get_status");
    free(s), free(r);
}

/* A collective cannot be cancelled: MPI_Cancel leaves it to complete. */
static void cancel(int seed)
{
    const int n = 20;
    int *s = alloc_ints((size_t)n * pt_size), *r = alloc_ints((size_t)n * pt_size);
    pt_fill(s, n, MPI_COMM_WORLD, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, &req));
    MPI_Cancel(&req);
    MPI_Status st;
    PT_MPI(MPI_Wait(&req, &st));
    int cancelled = 1;
    MPI_Test_cancelled(&st, &cancelled);
    PT_CHECK(!cancelled, "an ialltoall reported cancelled");
    pt_check(r, n, MPI_COMM_WORLD, seed, "cancel");
    free(s), free(r);
}

static void in_place(int seed)
{
    const int n = 40;
    int *r = alloc_ints((size_t)n * pt_size);
    pt_fill(r, n, MPI_COMM_WORLD, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, n, MPI_INT, MPI_COMM_WORLD,
                         &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    pt_check(r, n, MPI_COMM_WORLD, seed, "in_place");
    free(r);
}

/* Send every other int of a strided buffer (a vector type with a resized
 * extent), receive contiguous ints. */
static void derived(int seed)
{
    const int n = 30;
    int p = pt_size;
    MPI_Datatype vec, strided;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * n * sizeof(int)), &strided);
    MPI_Type_commit(&strided);
    int *s = alloc_ints((size_t)2 * n * p), *r = alloc_ints((size_t)n * p);
    for (int d = 0; d < p; d++)
        for (int i = 0; i < n; i++) {
            s[d * 2 * n + 2 * i] = pt_val(pt_rank, d, i, seed);
            s[d * 2 * n + 2 * i + 1] = -1;
        }
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, 1, strided, r, n, MPI_INT, MPI_COMM_WORLD, &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    pt_check(r, n, MPI_COMM_WORLD, seed, "derived datatype");
    MPI_Type_free(&strided);
    MPI_Type_free(&vec);
    free(s), free(r);
}

/* Doubles float cannot hold arrive bit for bit: libnbo-mpi never applies a
 * lossy codec (NBO_CODEC is set for one run of this program). */
static void doubles(int seed)
{
    const int n = 5000;
    int p = pt_size;
    double *s = malloc((size_t)n * p * sizeof(double));
    double *r = malloc((size_t)n * p * sizeof(double));
    for (int k = 0; k < n * p; k++)
        s[k] = 1.0 + (pt_rank * n * p + k + seed) * 0x1p-40;
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, MPI_COMM_WORLD, &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int src = 0; src < p; src++)
        for (int i = 0; i < n; i++) {
            double want = 1.0 + (src * n * p + pt_rank * n + i + seed) * 0x1p-40;
            if (r[src * n + i] != want) {
                pt_fail("doubles: from %d element %d is %.17g, want %.17g", src, i,
                        r[src * n + i], want);
                src = p;
                break;
            }
        }
    free(s), free(r);
}

/* Blocking MPI_Alltoall(v): MPI's unless NBO_PMPI_BLOCKING=1. */
static void blocking(int seed)
{
    const int n = 25;
    int p = pt_size, st, rt;
    int *s = alloc_ints((size_t)n * p), *r = alloc_ints((size_t)n * p);
    pt_fill(s, n, MPI_COMM_WORLD, seed);
    PT_MPI(MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD));
    pt_check(r, n, MPI_COMM_WORLD, seed, "blocking alltoall");
    int *sc = alloc_ints(p), *sd = alloc_ints(p), *rc = alloc_ints(p), *rd = alloc_ints(p);
    pt_vlayout(MPI_COMM_WORLD, sc, sd, rc, rd, &st, &rt);
    int *vs = alloc_ints(st), *vr = alloc_ints(rt);
    pt_vfill(vs, MPI_COMM_WORLD, seed + 1);
    PT_MPI(MPI_Alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, MPI_COMM_WORLD));
    pt_vcheck(vr, MPI_COMM_WORLD, seed + 1, "blocking alltoallv");
    free(s), free(r), free(vs), free(vr), free(sc), free(sd), free(rc), free(rd);
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "test_pmpi_nonblocking");
    int seed = 1;
    basic(1, 0, seed++);
    basic(1000, 1, seed++);
    basic(20000, 0, seed++);
    vbasic(seed++);
    for (int k = 0; k < NKINDS; k++)
        mixed(k, seed++);
    get_status(seed++);
    cancel(seed++);
    in_place(seed++);
    derived(seed++);
    doubles(seed++);
    blocking(seed++);
    return pt_finish();
}
