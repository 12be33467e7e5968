/*
 * test_verbs_fault.c - a peer killed in the middle of an all-to-all: the
 * survivors must get an error from nbo_wait within bounded time, not hang.
 *
 *   mpiexec -disable-auto-cleanup -n 3 test_verbs_fault RESULT_DIR
 *
 * Pairwise, one send per window.  The last rank (inline progress) starts a
 * 1 MiB-per-peer nbo_ialltoall and SIGKILLs itself at once: its first
 * window (a send to rank 0, all its receives) is on the NIC, the later
 * windows never will be, so rank 1 cannot complete and must get an error;
 * rank 0 may legitimately finish if everything it needed arrived first,
 * but then its data must be right.  Each survivor writes
 * "rc elapsed_ms data_ok" to RESULT_DIR/rank<r> and exits at once (MPI
 * itself cannot finish a job with a dead process); the caller judges the
 * files.  NBO_TIMEOUT bounds the wait for data that will never come.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nbo.h>

#include "fault_victim.h"

/* A survivor that dies instead of reporting says so. */
static void on_fatal(int sig)
{
    char msg[64];
    int n = snprintf(msg, sizeof(msg), "test_verbs_fault: pid %d got signal %d\n", (int)getpid(),
                     sig);
    if (write(2, msg, (size_t)n) < 0)
        _exit(128 + sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int reported;
static void on_exit_early(void)
{
    if (!reported)
        fprintf(stderr, "test_verbs_fault: pid %d exits (inside MPI?) before reporting\n",
                (int)getpid());
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    /* The victim forks so hydra does not end the job before the survivors
     * report (tests/common/fault_victim.h); reports are RESULT_DIR/rank<r>. */
    fault_victim_setup(argc >= 2 ? argv[1] : NULL, "%s/rank%d");
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    fault_victim_after_init();
    signal(SIGSEGV, on_fatal);
    signal(SIGBUS, on_fatal);
    signal(SIGABRT, on_fatal);
    signal(SIGTERM, on_fatal);
    atexit(on_exit_early);
    if (argc < 2 || size < 2) {
        fprintf(stderr, "usage: mpiexec -n P>=2 %s RESULT_DIR\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const size_t bytes = 1u << 20;
    unsigned char *s = calloc(bytes, (size_t)size), *r = calloc(bytes, (size_t)size);
    for (int d = 0; d < size; d++)
        memset(s + (size_t)d * bytes, 1 + rank * size + d, bytes);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    cfg.algorithm = NBO_ALG_PAIRWISE;
    cfg.window = 1;
    if (rank == size - 1)
        cfg.progress = NBO_PROGRESS_INLINE; /* nothing moves it on but the NIC */
    nbo_comm_t c = NBO_COMM_NULL;
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &c);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "rank %d: nbo_comm_create: %s\n", rank, nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* One healthy round first: every QP is known to work. */
    nbo_request_t req = NBO_REQUEST_NULL;
    rc = nbo_ialltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, c, &req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "rank %d: healthy round failed: %s\n", rank, nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_verbs_fault: healthy round done, P=%d\n", size);
    fflush(stdout);

    double t0 = now_ms();
    rc = nbo_ialltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, c, &req);
    if (rank == size - 1) {
        fprintf(stderr, "rank %d: killing myself mid-operation\n", rank);
        fflush(stderr);
        raise(SIGKILL);
    }
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    double ms = now_ms() - t0;
    int data_ok = 1;
    for (int p = 0; p < size && rc == NBO_SUCCESS; p++)
        for (size_t i = 0; i < bytes; i += 4093)
            if (r[(size_t)p * bytes + i] != (unsigned char)(1 + p * size + rank))
                data_ok = 0;
    char path[4096];
    snprintf(path, sizeof(path), "%s/rank%d", argv[1], rank);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d %.0f %d\n", rc, ms, data_ok);
        fclose(f);
    }
    printf("test_verbs_fault rank %d: nbo_wait returned %d (%s) after %.0f ms%s\n", rank, rc,
           nbo_strerror(rc), ms, rc == NBO_SUCCESS ? (data_ok ? ", data right" : ", DATA WRONG") : "");
    fflush(stdout);
    reported = 1;
    _exit(0); /* no MPI_Finalize: a peer is gone */
}
