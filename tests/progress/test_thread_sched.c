/*
 * test_thread_sched.c - the progress thread has the scheduling class its
 * configuration asks for (NBO_PROGRESS_SCHED; auto: batch while it sleeps
 * on engine descriptors, normal when it polls an engine without one, the
 * MPI engine).
 *
 * The policy is the one the kernel reports (nbo_thread.h).  One run
 * per setting: the progress thread is per process and takes the setting of
 * the first thread-mode communicator.  Then an all-to-all must still
 * complete, with the right data.
 */
#define _GNU_SOURCE
#include "nbo_test.h"
#include "nbo_thread.h"

#include <sched.h>
#include <string.h>

int main(int argc, char **argv)
{
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int before = nbo_thread_policy();
    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    int polled = strcmp(info.engine, "mpi") == 0; /* no descriptor: the thread polls it */
    int want = cfg.progress_sched == NBO_PROGRESS_SCHED_BATCH ||
                       (cfg.progress_sched == NBO_PROGRESS_SCHED_AUTO && !polled)
                   ? SCHED_BATCH
                   : SCHED_OTHER;
    int got = nbo_thread_policy();

    int data_ok, rc = nbo_test_alltoall_once(comm, &data_ok);

    int bad = before != -1 || got != want || rc != NBO_SUCCESS || !data_ok, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    printf("%s: rank %d: engine %s, NBO_PROGRESS_SCHED=%s: thread nbo-progress policy %d (want %d; "
           "none before the communicator: %s), all-to-all: %s, data %s\n",
           bad ? "FAIL" : "PASS", me, info.engine,
           nbo_progress_sched_name(cfg.progress_sched), got, want,
           before == -1 ? "yes" : "no", nbo_strerror(rc), data_ok ? "right" : "WRONG");
    nbo_comm_free(&comm);
    MPI_Finalize();
    return any;
}
