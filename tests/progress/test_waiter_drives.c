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
 * (UCX), main drives: the progress thread goes to sleep about once and
 * does not wake for the K operations' events.  The second thread's waits
 * (another waiter drives) and the hand-back when main leaves must lose no
 * wake-up: main returns within a fraction of the thread's 1 s idle sleep
 * after the last operation.  All data must be right.  With the MPI engine
 * (no descriptor) nobody drives; the rest must hold all the same.
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

static int P, me;

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

/* K all-to-alls on B, each started and waited for, the first `pause_us`
 * apart (rank 1 paces them, so that rank 0's second thread is blocked in
 * nbo_wait when each one's data arrives); 0 if all right. */
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

struct helper {
    nbo_comm_t b;
    int bad;
    long sleeps;   /* the progress thread's, over the K operations */
    double end;
};

static void *helper_main(void *arg)
{
    struct helper *h = arg;
    struct timespec settle = {0, 100 * 1000 * 1000};
    nanosleep(&settle, NULL); /* main is in nbo_wait by now */
    long s0 = nbo_thread_sleeps();
    h->bad = run_b(h->b, 0);
    h->sleeps = nbo_thread_sleeps() - s0;
    h->end = nbo_test_now();
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (P != 2 || provided < MPI_THREAD_MULTIPLE) {
        if (me == 0)
            fprintf(stderr, "test_waiter_drives needs P = 2 and MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    nbo_comm_t a = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    nbo_comm_t b = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    nbo_comm_info_t info;
    nbo_comm_query(a, &info);
    int drives = (info.engine_caps & NBO_CAP_EVENT_FD) != 0;

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
        } else
            bad = 1;
        bad |= h.bad || late > LATE_S || (drives && (h.sleeps < 0 || h.sleeps > SLEEPS));
    } else {
        struct timespec settle = {0, 100 * 1000 * 1000};
        nanosleep(&settle, NULL);
        bad = run_b(b, PAUSE_US);
        rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, a, &req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    bad |= rc != NBO_SUCCESS || !right(r, K);
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s: engine %s: %d all-to-alls on B while main waited on A: data %s; the progress "
               "thread slept %ld times meanwhile (limit %d where the waiter drives: %s); main "
               "returned %.3f s after the last (limit %.1f s); wait: %s\n",
               any ? "FAIL" : "PASS", nbo_engine_name(info.engine), K, h.bad ? "WRONG" : "right",
               h.sleeps, SLEEPS, drives ? "it does" : "not here, no descriptor",
               late, LATE_S, nbo_strerror(rc));
    free(s);
    free(r);
    nbo_comm_free(&b);
    nbo_comm_free(&a);
    MPI_Finalize();
    return any;
}
