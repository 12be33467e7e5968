/*
 * test_pmpi_errors.c - a served all-to-all that fails reports libnbo's reason in
 * MPI's terms: MPI_Error_string of the code the completion call gives
 * (its return value, or the status's MPI_ERROR for MPI_ERR_IN_STATUS)
 * starts with "libnbo: ".
 *
 * In an all-to-allv, rank 0 receives fewer elements from each peer than
 * the peer sends it (an erroneous program that no rank can see alone), so
 * its receives are truncated and its request fails at completion.  Its
 * peers may then wait in vain for what it no longer sends: they either
 * complete or fail the same way, after NBO_TIMEOUT (the test sets 1.5 s).  Once per completion call that reports errors
 * differently: MPI_Wait, MPI_Waitall with statuses, MPI_Testany.
 *
 * --check: with NBO_CHECK=1 libnbo finds the mismatch before it starts,
 * and every rank's MPI_Ialltoall itself returns the libnbo code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pt.h"

#define N 1000 /* ints per peer: large enough for the pairwise schedule */

static void expect_libnbo(int code, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(code, msg, &len);
    PT_CHECK(code != MPI_SUCCESS, "%s: no error reported", what);
    PT_CHECK(strncmp(msg, "libnbo: ", 8) == 0, "%s: error string is \"%s\", not libnbo's", what,
             msg);
    if (code != MPI_SUCCESS)
        printf("errors: rank %d: %s -> \"%s\"\n", pt_rank, what, msg);
}

/* The all-to-allv of one_failure: N ints to every peer, and as many
 * received but on rank 0, which expects half from every other rank. */
static int start_v(const int *s, int *r, MPI_Comm comm, MPI_Request *req)
{
    int *sc = malloc(pt_size * sizeof(int)), *rc = malloc(pt_size * sizeof(int));
    int *sd = malloc(pt_size * sizeof(int)), *rd = malloc(pt_size * sizeof(int));
    for (int p = 0; p < pt_size; p++) {
        sc[p] = N, sd[p] = rd[p] = p * N;
        rc[p] = pt_rank == 0 && p != 0 ? N / 2 : N;
    }
    int e = MPI_Ialltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm, req);
    free(sc), free(rc), free(sd), free(rd);
    return e;
}

/* One failing all-to-allv on a fresh communicator, completed by `how`. */
static void one_failure(int how)
{
    static const char *names[] = {"MPI_Wait", "MPI_Waitall", "MPI_Testany"};
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int *s = calloc((size_t)N * pt_size, sizeof(int)), *r = calloc((size_t)N * pt_size, sizeof(int));
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    PT_MPI(start_v(s, r, comm, &req[0]));
    int rc = MPI_SUCCESS, idx = -1, flag = 0;
    MPI_Status st[2];
    st[0].MPI_ERROR = st[1].MPI_ERROR = MPI_SUCCESS;
    switch (how) {
    case 0:
        rc = MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        break;
    case 1:
        rc = MPI_Waitall(2, req, st);
        if (rc == MPI_ERR_IN_STATUS)
            rc = st[0].MPI_ERROR;
        break;
    case 2:
        while (!flag && rc == MPI_SUCCESS)
            rc = MPI_Testany(2, req, &idx, &flag, MPI_STATUS_IGNORE);
        break;
    }
    if (pt_rank == 0 || rc != MPI_SUCCESS)
        expect_libnbo(rc, names[how]);
    PT_CHECK(req[0] == MPI_REQUEST_NULL, "%s: the failed request was not freed", names[how]);
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    free(s), free(r);
}

/* NBO_CHECK=1: the call itself fails, on every rank alike. */
static void checked_failure(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int *s = calloc((size_t)N * pt_size, sizeof(int)), *r = calloc((size_t)N * pt_size, sizeof(int));
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = start_v(s, r, comm, &req);
    expect_libnbo(rc, "MPI_Ialltoallv with NBO_CHECK=1");
    PT_CHECK(req == MPI_REQUEST_NULL, "a failed MPI_Ialltoallv returned a request");
    MPI_Comm_free(&comm);
    free(s), free(r);
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "errors");
    if (argc > 1 && strcmp(argv[argc - 1], "--check") == 0)
        checked_failure();
    else
        for (int how = 0; how < 3; how++)
            one_failure(how);
    return pt_finish();
}
