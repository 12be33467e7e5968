/*
 * test_waiter_drives.c - an application thread blocked in nbo_wait runs
 * the engine events itself, and the progress thread stands aside.
 *
 * Rank 0's main thread waits on an all-to-all of communicator A that can
 * only end once rank 1 has run K all-to-alls on communicator B, pausing
 * before each.  A second thread of rank 0 runs its side of those K
 * operations meanwhile and is blocked in nbo_wait when their data arrive,
 * so K events come while main waits: without a driving waiter the
 * progress thread wakes for each.  With an engine that has a descriptor
 * (UCX), main drives: the progress thread must not go to sleep more than a
 * few times over the K operations.  The second thread's waits (another
 * waiter drives) and the hand-back when main leaves must lose no wake-up:
 * main returns within a fraction of the thread's 1 s idle sleep after the
 * last operation.  All data must be right.  With the MPI engine (no
 * descriptor) nobody drives; the rest must hold all the same.
 *
 * With the argument "mpi-b", B uses the MPI engine and is created while
 * main already waits: the driving waiter cannot sleep on a descriptor for
 * it and must hand back to the thread, which polls it; each of the K
 * operations would otherwise stall for up to the waiter's 1 s sleep.
 */
#include "nbo_test.h"
#include "nbo_thread.h"

#include <pthread.h>
#include <string.h>

#define K       50       /* all-to-alls on B while main waits on A */
#define N       4096     /* bytes per peer */
#define PAUSE_US 1000    /* rank 1's pause before each of them */
#define SLEEPS  4        /* most sleeps of the progress thread meanwhile */
#define LATE_S  0.5      /* a lost wake-up would cost up to 1 s */
#define STALL_S 5.0      /* the K operations on B, at most (stalled: ~K s) */

static int P, me, mpi_b;

static void fill(char *s, int op)
{
    for (int j = 0; j < P; j++)
        memset(s + (size_t)j * N, 'a' + (me * 7 + j + op) % 26, N);
}

static int right(const char *r, int op)
{
    for (int j = 0; j < P; j++)
        for (int k = 0; k < N; k++)
            if (r[(size_t)j * N + k] != 'a' + (j * 7 + me + op) % 26)
                return 0;
    return 1;
}

/* K all-to-alls on B, each started pause_us after the previous one ended
 * and waited for (rank 1 paces them, so that rank 0's second thread is
 * blocked in nbo_wait when each one's data arrives); 0 if all right. */
static int run_b(nbo_comm_t b, long pause_us)
{
    char *s = malloc((size_t)N * P), *r = malloc((size_t)N * P);
    int bad = 0;
    for (int op = 0; op < K && !bad; op++) {
        struct timespec pause = {0, pause_us * 1000};
        nanosleep(&pause, NULL);
        fill(s, op);
        memset(r, 0, (size_t)N * P);
        nbo_request_t req;
        int rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, b, &req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
        bad = rc != NBO_SUCCESS || !right(r, op);
    }
    free(s);
    free(r);
    return bad;
}

/* B: as A, from the environment, or (mpi-b) over the MPI engine. */
static nbo_comm_t comm_b(void)
{
    if (!mpi_b)
        return nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    strcpy(cfg.engine, "mpi");
    cfg.progress = NBO_PROGRESS_THREAD;
    nbo_comm_t b = NBO_COMM_NULL;
    if (nbo_comm_create(MPI_COMM_WORLD, &cfg, &b) != NBO_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    return b;
}

static void settle(void)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

struct helper {
    nbo_comm_t b;
    int bad;
    long sleeps;   /* the progress thread's, over the K operations */
    double took, end;
};

static void *helper_main(void *arg)
{
    struct helper *h = arg;
    settle(); /* main is in nbo_wait by now */
    if (mpi_b)
        h->b = comm_b();
    long s0 = nbo_thread_sleeps();
    double t0 = nbo_test_now();
    h->bad = run_b(h->b, 0);
    h->sleeps = nbo_thread_sleeps() - s0;
    h->end = nbo_test_now();
    h->took = h->end - t0;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    mpi_b = argc > 1 && strcmp(argv[1], "mpi-b") == 0;
    if (P != 2 || provided < MPI_THREAD_MULTIPLE) {
        if (me == 0)
            fprintf(stderr, "test_waiter_drives needs P = 2 and MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    nbo_comm_t a = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    nbo_comm_t b = mpi_b ? NBO_COMM_NULL : comm_b();
    nbo_comm_info_t info;
    nbo_comm_query(a, &info);
    /* Does main drive throughout?  Not with a polled engine in the set. */
    int drives = (info.engine_caps & NBO_CAP_EVENT_FD) != 0 && !mpi_b;

    char *s = malloc((size_t)N * P), *r = calloc((size_t)N, (size_t)P);
    fill(s, K);
    MPI_Barrier(MPI_COMM_WORLD);
    nbo_request_t req;
    struct helper h = {.b = b, .sleeps = -1};
    int bad = 0, rc;
    double late = 0;
    if (me == 0) {
        rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, a, &req);
        pthread_t t;
        if (rc == NBO_SUCCESS && pthread_create(&t, NULL, helper_main, &h) == 0) {
            rc = nbo_wait(&req);
            late = nbo_test_now();
            pthread_join(t, NULL);
            late -= h.end;
            b = h.b;
        } else
            bad = 1;
        bad |= h.bad || late > LATE_S || h.took > STALL_S ||
               (drives && (h.sleeps < 0 || h.sleeps > SLEEPS));
    } else {
        settle();
        if (mpi_b)
            b = comm_b();
        bad = run_b(b, PAUSE_US);
        rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, a, &req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    bad |= rc != NBO_SUCCESS || !right(r, K);
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s: engine %s: %d all-to-alls on B (%s) while main waited on A: data %s, "
               "%.2f s (limit %.0f s); the progress thread slept %ld times meanwhile (limit %d "
               "where main drives throughout: %s); main returned %.3f s after the last (limit "
               "%.1f s); wait: %s\n",
               any ? "FAIL" : "PASS", info.engine, K,
               mpi_b ? "engine mpi, created meanwhile" : "as A", h.bad ? "WRONG" : "right",
               h.took, STALL_S, h.sleeps, SLEEPS, drives ? "yes" : "no", late, LATE_S,
               nbo_strerror(rc));
    free(s);
    free(r);
    nbo_comm_free(&b);
    nbo_comm_free(&a);
    MPI_Finalize();
    return any;
}
