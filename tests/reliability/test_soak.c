/*
 * test_soak.c - many operations in a row: memory must not grow, nothing may
 * leak or hang.
 *
 *   test_soak [OPS]      (default 100000)
 *
 * Phase 1: OPS back-to-back nbo_ialltoall + nbo_wait (alternating sizes, so
 * both algorithms and the scratch paths run).  Phase 2: OPS operations 16
 * outstanding at a time, completed with nbo_waitall.  Every 1000th result is
 * checked.  RSS is sampled after a warm-up (a tenth of phase 1, at least
 * 1000 operations: providers touch their preallocated receive buffers and
 * rings on first use) and at the end of each phase; a growth of more than
 * 2 MiB fails (a leak of even one small allocation per operation is
 * 190000 x 32 B = 5.8 MiB).
 *
 * With NBO_SOAK_RDMA=1 (the verbs engine, tests/verbs/guest_suite.sh) the
 * kernel's count of this process's RDMA objects (QPs, CQs, MRs, PDs) is
 * taken at the same points: it may not grow, and must be 0 after
 * nbo_comm_free.  The soak needs OPS > 1000 (the RSS base is taken at the
 * warm-up's end).
 */
#include <string.h>
#include <unistd.h>

#include "nbo_test.h"
#include "rdma_objects.h"
#include "resident_memory.h"

#define OUTSTANDING 16
#define MAXB 512

static int P, me;

static void fill(unsigned char *s, int b, int op)
{
    for (int i = 0; i < b * P; i++)
        s[i] = (unsigned char)(op + me * 7 + i);
}

static int check(const unsigned char *r, int b, int op)
{
    for (int p = 0; p < P; p++)
        for (int i = 0; i < b; i++)
            if (r[p * b + i] != (unsigned char)(op + p * 7 + me * b + i))
                return 1;
    return 0;
}

int main(int argc, char **argv)
{
    resident_memory_small_pages(); /* before anything is mapped */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    long ops = argc > 1 ? atol(argv[1]) : 100000;
    const long warm_up = ops / 10 > 1000 ? ops / 10 : 1000;
    if (ops <= warm_up) { /* no RSS base would be taken: say so, not "growth" */
        if (me == 0)
            fprintf(stderr, "test_soak: OPS %ld must exceed the warm-up's %ld\n", ops, warm_up);
        MPI_Finalize();
        return 2;
    }
    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_AUTO, 0, NBO_ALG_AUTO);
    int rc;
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    unsigned char *s = malloc((size_t)OUTSTANDING * MAXB * P);
    unsigned char *r = malloc((size_t)OUTSTANDING * MAXB * P);
    int errors = 0;
    long base = 0, after1 = 0, after2 = 0;
    const char *re = getenv("NBO_SOAK_RDMA");
    const int rdma = re && atoi(re) == 1;
    int objs_base = 0, objs_end = 0, objs_freed = 0;

    /* Phase 1: back to back. */
    for (long op = 0; op < ops && !errors; op++) {
        int b = op & 1 ? 8 : MAXB; /* Bruck (P > 2) and pairwise */
        fill(s, b, (int)op);
        nbo_request_t req;
        rc = nbo_ialltoall(s, b, MPI_BYTE, r, b, MPI_BYTE, comm, &req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
        if (rc != NBO_SUCCESS || req != NBO_REQUEST_NULL) {
            fprintf(stderr, "rank %d op %ld: %s\n", me, op, nbo_strerror(rc));
            errors++;
        } else if (op % 1000 == 0 || op == ops - 1)
            errors += check(r, b, (int)op);
        if (op == warm_up) {
            base = resident_memory_kib();
            if (rdma)
                objs_base = rdma_objects_of_self();
        }
    }
    after1 = resident_memory_kib();

    /* Phase 2: 16 outstanding at a time. */
    nbo_request_t reqs[OUTSTANDING];
    for (long op = 0; op < ops && !errors; op += OUTSTANDING) {
        for (int k = 0; k < OUTSTANDING; k++) {
            unsigned char *sk = s + (size_t)k * MAXB * P, *rk = r + (size_t)k * MAXB * P;
            fill(sk, 64, (int)(op + k));
            rc = nbo_ialltoall(sk, 64, MPI_BYTE, rk, 64, MPI_BYTE, comm, &reqs[k]);
            if (rc != NBO_SUCCESS) {
                fprintf(stderr, "rank %d: ialltoall: %s\n", me, nbo_strerror(rc));
                errors++;
                reqs[k] = NBO_REQUEST_NULL;
            }
        }
        rc = nbo_waitall(OUTSTANDING, reqs);
        if (rc != NBO_SUCCESS) {
            fprintf(stderr, "rank %d: waitall: %s\n", me, nbo_strerror(rc));
            errors++;
        }
        if (op % 1024 == 0)
            for (int k = 0; k < OUTSTANDING; k++)
                errors += check(r + (size_t)k * MAXB * P, 64, (int)(op + k));
    }
    after2 = resident_memory_kib();
    if (rdma)
        objs_end = rdma_objects_of_self();
    rc = nbo_comm_free(&comm); /* fails with NBO_ERR_PENDING if a request leaked */
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "rank %d: nbo_comm_free: %s\n", me, nbo_strerror(rc));
        errors++;
    }
    if (rdma) {
        objs_freed = rdma_objects_of_self();
        if (objs_base <= 0 || objs_end != objs_base || objs_freed != 0) {
            fprintf(stderr, "rank %d: RDMA objects %d after warm-up, %d at the end, %d after "
                            "nbo_comm_free (want n > 0, n, 0)\n",
                    me, objs_base, objs_end, objs_freed);
            errors++;
        }
    }
    long growth = (after1 > after2 ? after1 : after2) - base;
    int bad = errors > 0 || growth > 2048, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    printf("%s: rank %d engine %s/%s: %ld ops back to back + %ld ops %d at a time, "
           "RSS %ld -> %ld -> %ld KiB (growth %ld KiB, limit 2048), %d errors\n",
           bad ? "FAIL" : "PASS", me, info.engine,
           nbo_progress_name(info.progress), ops, ops, OUTSTANDING, base, after1, after2, growth,
           errors);
    if (rdma)
        printf("rank %d: RDMA objects %d after warm-up, %d at the end, %d after nbo_comm_free\n",
               me, objs_base, objs_end, objs_freed);
    free(s);
    free(r);
    MPI_Finalize();
    return any;
}
