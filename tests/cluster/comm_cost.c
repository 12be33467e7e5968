/*
 * comm_cost.c - what one libnbo communicator costs each rank: resident
 * memory and open file descriptors (sockets, on TCP transports) added by
 * nbo_comm_create plus one all-to-all (which connects providers that
 * connect on first use), the largest over the ranks.  A probe for
 * docs/running.md, not a test: it asserts nothing.  Engine from
 * NBO_ENGINE; run it one rank per host (nbo-cluster.sh run -N P).
 */
#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbo_test.h"
#include "resident_memory.h"

int main(int argc, char **argv)
{
    resident_memory_small_pages();
    int provided, me, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    /* MPI's own connections first, so that they are not counted. */
    char *s = calloc((size_t)P, 4096), *r = calloc((size_t)P, 4096);
    MPI_Alltoall(s, 4096, MPI_BYTE, r, 4096, MPI_BYTE, MPI_COMM_WORLD);

    long kib0 = resident_memory_kib(), fd0 = open_fds();
    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_AUTO, 0, NBO_ALG_AUTO);
    int ok = 0;
    (void)nbo_test_alltoall_once(comm, &ok);
    long d[2] = {resident_memory_kib() - kib0, open_fds() - fd0}, max[2];
    MPI_Reduce(d, max, 2, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    int all_ok = 0;
    MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    nbo_comm_info_t info;
    if (me == 0 && nbo_comm_query(comm, &info) == NBO_SUCCESS)
        printf("comm_cost P=%d engine=%s (%s): +%ld KiB resident, +%ld fds per rank (max), "
               "all-to-all %s\n", P, info.engine, info.engine_detail, max[0], max[1],
               all_ok ? "right" : "WRONG");
    nbo_comm_free(&comm);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
