/*
 * test_pmpi_persistent.c - MPI_Alltoall_init / MPI_Alltoallv_init requests: MPI_Start
 * 100 times, MPI_Startall with persistent point-to-point requests, every
 * completion call, inactive-request semantics, MPI_Request_free.
 */
#include <stdlib.h>

#include "pt.h"

/* gcc reads MPI_STATUSES_IGNORE, a sentinel pointer, as a zero-size array;
 * passing it on purpose is part of what these tests check. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int *alloc_ints(size_t n) { return calloc(n ? n : 1, sizeof(int)); }

/* Start/Wait 100 times; contents change between starts, buffers do not. */
static void start_many(void)
{
    const int n = 64;
    int *s = alloc_ints((size_t)n * pt_size), *r = alloc_ints((size_t)n * pt_size);
    MPI_Request req = MPI_REQUEST_NULL;
    PT_MPI(MPI_Alltoall_init(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    PT_CHECK(req != MPI_REQUEST_NULL, "alltoall_init gave MPI_REQUEST_NULL");

    /* Inactive: MPI_Wait returns at once, MPI_Test says done, the handle
     * stays.  (MPICH 4.0.2's own persistent collectives hang here.) */
    MPI_Request keep = req;
    int flag = 0;
    if (pt_expect_nbo()) {
        PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        PT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        PT_CHECK(flag && req == keep, "inactive persistent request: flag %d, handle changed %d",
                 flag, req != keep);
    }

    for (int it = 0; it < 100; it++) {
        pt_fill(s, n, MPI_COMM_WORLD, 1000 + it);
        PT_MPI(MPI_Start(&req));
        if (it % 2) {
            PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            flag = 0;
            while (!flag)
                PT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        }
        PT_CHECK(req == keep, "start %d: persistent handle changed", it);
        pt_check(r, n, MPI_COMM_WORLD, 1000 + it, "persistent start");
    }
    /* Free a completed (inactive) persistent request. */
    PT_MPI(MPI_Request_free(&req));
    PT_CHECK(req == MPI_REQUEST_NULL, "request_free left the handle set");
    free(s), free(r);
}

/* MPI_Startall of two persistent all-to-alls and a persistent ring
 * exchange, completed by Waitall, Waitany, Waitsome, Testall in turn. */
static void startall_mixed(void)
{
    const int n = 16;
    int p = pt_size, st, rt;
    int *sc = alloc_ints(p), *sd = alloc_ints(p), *rc = alloc_ints(p), *rd = alloc_ints(p);
    pt_vlayout(MPI_COMM_WORLD, sc, sd, rc, rd, &st, &rt);
    int *s1 = alloc_ints((size_t)n * p), *r1 = alloc_ints((size_t)n * p);
    int *s2 = alloc_ints(st), *r2 = alloc_ints(rt);
    int out[8], in[8];
    int right = (pt_rank + 1) % p, left = (pt_rank + p - 1) % p;
    MPI_Request reqs[4];
    PT_MPI(MPI_Alltoall_init(s1, n, MPI_INT, r1, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &reqs[0]));
    PT_MPI(MPI_Recv_init(in, 8, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[1]));
    PT_MPI(MPI_Alltoallv_init(s2, sc, sd, MPI_INT, r2, rc, rd, MPI_INT, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &reqs[2]));
    PT_MPI(MPI_Send_init(out, 8, MPI_INT, right, 9, MPI_COMM_WORLD, &reqs[3]));
    MPI_Request orig[4] = {reqs[0], reqs[1], reqs[2], reqs[3]};

    for (int it = 0; it < 12; it++) {
        int seed = 2000 + it;
        pt_fill(s1, n, MPI_COMM_WORLD, seed);
        pt_vfill(s2, MPI_COMM_WORLD, seed);
        for (int i = 0; i < 8; i++)
            out[i] = pt_val(pt_rank, 99, i, seed);
        PT_MPI(MPI_Startall(4, reqs));
        int done = 0, idx[4], cnt, one, flag;
        switch (it % 4) {
        case 0:
            PT_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
            done = 4;
            break;
        case 1:
            while (done < 4) {
                PT_MPI(MPI_Waitany(4, reqs, &one, MPI_STATUS_IGNORE));
                if (one == MPI_UNDEFINED)
                    break;
                done++;
            }
            /* All inactive now: Waitany says MPI_UNDEFINED. */
            if (pt_expect_nbo()) {
                PT_MPI(MPI_Waitany(4, reqs, &one, MPI_STATUS_IGNORE));
                PT_CHECK(one == MPI_UNDEFINED, "waitany on inactive requests gave %d", one);
            }
            break;
        case 2:
            while (done < 4) {
                PT_MPI(MPI_Waitsome(4, reqs, &cnt, idx, MPI_STATUSES_IGNORE));
                if (cnt == MPI_UNDEFINED)
                    break;
                done += cnt;
            }
            break;
        case 3:
            flag = 0;
            while (!flag)
                PT_MPI(MPI_Testall(4, reqs, &flag, MPI_STATUSES_IGNORE));
            done = 4;
            break;
        }
        PT_CHECK(done == 4, "startall round %d: %d of 4 completed", it, done);
        for (int i = 0; i < 4; i++)
            PT_CHECK(reqs[i] == orig[i], "round %d: persistent handle %d changed", it, i);
        pt_check(r1, n, MPI_COMM_WORLD, seed, "startall alltoall");
        pt_vcheck(r2, MPI_COMM_WORLD, seed, "startall alltoallv");
        for (int i = 0; i < 8; i++)
            if (in[i] != pt_val(left, 99, i, seed)) {
                pt_fail("round %d: ring element %d wrong", it, i);
                break;
            }
    }
    /* MPI_Request_get_status on an active persistent all-to-all. */
    pt_fill(s1, n, MPI_COMM_WORLD, 7);
    PT_MPI(MPI_Start(&reqs[0]));
    int flag = 0;
    for (long i = 0; !flag && i < 100000000; i++)
        PT_MPI(MPI_Request_get_status(reqs[0], &flag, MPI_STATUS_IGNORE));
    PT_CHECK(flag, "request_get_status on a persistent request never completed");
    PT_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    pt_check(r1, n, MPI_COMM_WORLD, 7, "persistent request_get_status");

    for (int i = 0; i < 4; i++) {
        PT_MPI(MPI_Request_free(&reqs[i]));
        PT_CHECK(reqs[i] == MPI_REQUEST_NULL, "request_free %d left the handle", i);
    }
    free(s1), free(r1), free(s2), free(r2), free(sc), free(sd), free(rc), free(rd);
}

/* MPI lets a communicator be freed while a persistent request on it
 * lives: the request keeps working, and libnbo's state for it is released
 * at MPI_Finalize.  A second request is left for MPI_Finalize to free. */
static int *outlive_recv; /* bound to left_over until MPI_Finalize */

static void outlive_comm(void)
{
    const int n = 8;
    int *s = alloc_ints((size_t)n * pt_size), *r = alloc_ints((size_t)n * pt_size);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Request req, left_over;
    PT_MPI(MPI_Alltoall_init(s, n, MPI_INT, r, n, MPI_INT, dup, MPI_INFO_NULL, &req));
    PT_MPI(MPI_Alltoall_init(s, n, MPI_INT, r, n, MPI_INT, dup, MPI_INFO_NULL, &left_over));
    MPI_Comm_free(&dup);
    for (int it = 0; it < 3; it++) {
        pt_fill(s, n, MPI_COMM_WORLD, 3000 + it);
        PT_MPI(MPI_Start(&req));
        PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        pt_check(r, n, MPI_COMM_WORLD, 3000 + it, "persistent after MPI_Comm_free");
    }
    PT_MPI(MPI_Request_free(&req));
    (void)left_over; /* freed by MPI_Finalize */
    free(s);
    outlive_recv = r; /* stays allocated (and reachable) until exit */
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "test_pmpi_persistent");
    start_many();
    startall_mixed();
    outlive_comm();
    return pt_finish();
}
