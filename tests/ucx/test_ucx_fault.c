/*
 * test_ucx_fault.c - a peer that stops answering must not hang libnbo (P = 2).
 *
 * Rank 1 stops itself (SIGSTOP) before its all-to-all; rank 0's 1 MiB
 * all-to-all (a rendezvous send that nobody fetches, a receive nobody
 * fills) must fail with NBO_ERR_TIMEOUT after NBO_TIMEOUT, through cancel()
 * and, for the stuck send, a forced close of the endpoint.  Rank 0 then
 * resumes rank 1, whose own all-to-all must fail too (the endpoint to it
 * is gone: NBO_ERR_PEER, or a timeout), not hang and not succeed.  Rank 0
 * keeps its communicator (and progress thread) 0.3 s longer meanwhile, so
 * its faulted worker must stay quiet (UCX 1.13 aborts the resumed peer if
 * it answers), and its progress thread must not spin meanwhile (under 30 %
 * of a core for the process).  Both free the communicator and finish.  Run with NBO_PEER_ERRORS=1 and a
 * short NBO_TIMEOUT.
 */
#include <mpi.h>
#include <nbo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nbo_test.h"

#define N (1 << 20)

int main(int argc, char **argv)
{
    int provided, rank, size, bad = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            printf("test_ucx_fault needs exactly 2 ranks: SKIP\n");
        MPI_Finalize();
        return 77;
    }
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    strcpy(cfg.engine, "ucx");
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc == NBO_ERR_ENGINE) {
        if (rank == 0)
            printf("test_ucx_fault: UCX engine not usable here: SKIP\n");
        MPI_Finalize();
        return 77;
    }
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "[%d] comm_create: %s\n", rank, nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *s = calloc(2, N), *r = calloc(2, N);
    int pid = (int)getpid(), peer_pid = 0;
    MPI_Sendrecv(&pid, 1, MPI_INT, 1 - rank, 0, &peer_pid, 1, MPI_INT, 1 - rank, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1)
        raise(SIGSTOP); /* rank 0 resumes us once its request has failed */

    nbo_request_t req;
    double t0 = MPI_Wtime();
    rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    double waited = MPI_Wtime() - t0;
    double limit = cfg.timeout_ms * 1e-3 + 5.0;
    if (rank == 0) {
        if (rc != NBO_ERR_TIMEOUT) {
            fprintf(stderr, "rank 0: wanted NBO_ERR_TIMEOUT, got %d (%s)\n", rc, nbo_strerror(rc));
            bad = 1;
        }
        kill((pid_t)peer_pid, SIGCONT);
        /* The resumed peer reconnects now; with the progress thread still
         * running, this communicator's worker must not answer it, nor spin
         * on the events it leaves unread. */
        double c0 = nbo_test_cpu(), w0 = MPI_Wtime();
        usleep(300000);
        double busy = (nbo_test_cpu() - c0) / (MPI_Wtime() - w0);
        printf("[0] CPU while the faulted worker is quiet: %.0f %% of a core\n", 100 * busy);
        if (busy > 0.3) {
            fprintf(stderr, "rank 0: the progress thread spun after the fault (%.0f %%)\n",
                    100 * busy);
            bad = 1;
        }
    } else if (rc == NBO_SUCCESS) {
        fprintf(stderr, "rank 1: all-to-all with a peer that gave up succeeded\n");
        bad = 1;
    }
    if (waited > limit) {
        fprintf(stderr, "[%d] failing took %.1f s (timeout %d ms)\n", rank, waited, cfg.timeout_ms);
        bad = 1;
    }
    printf("[%d] request ended with \"%s\" after %.2f s\n", rank, nbo_strerror(rc), waited);
    fflush(stdout);
    rc = nbo_comm_free(&comm);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "[%d] comm_free: %s\n", rank, nbo_strerror(rc));
        bad = 1;
    }
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ucx_fault: %s\n", all ? "FAIL" : "PASS");
    free(s);
    free(r);
    MPI_Finalize();
    return all ? 1 : 0;
}
