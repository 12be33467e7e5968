/*
 * test_mixed_api.c - many libnbo requests on several nbo communicators,
 * completed with nbo_test, nbo_wait and nbo_waitall in random order,
 * interleaved with MPI's own collectives on the parent communicators, all
 * served by one progress thread.
 *
 * Every rank draws the same operation sequence from --seed and posts it in
 * the same order (each communicator sees its collectives in one order);
 * which completion call runs is drawn per rank.  Up to --slots libnbo
 * requests are outstanding; a blocking MPI collective on a parent
 * communicator (MPI_Allreduce, MPI_Bcast, MPI_Barrier) runs while they
 * are, so only the progress thread can move them meanwhile.  The data of
 * every completed operation is checked.
 *
 *   --ops=N (20000)  --seed=S (1)  --slots=K (16)  --comms=C (4: C-1
 *   duplicates of MPI_COMM_WORLD and one split into even and odd ranks)
 */
#include <stdint.h>
#include <string.h>

#include "nbo_test.h"
#include "test_rng.h"

#define MAX_SLOTS 64
#define MAX_COMMS 16

typedef enum { K_IALLTOALL, K_IALLTOALLV, K_START, K_ALLREDUCE, K_BCAST, K_BARRIER, NKINDS } kind_t;
static const char *kind_name[NKINDS] = {"nbo_ialltoall", "nbo_ialltoallv", "nbo_start",
                                        "MPI_Allreduce", "MPI_Bcast", "MPI_Barrier"};


typedef struct {
    MPI_Comm mpi;
    nbo_comm_t nbo;
    int rank, size;
    nbo_request_t pers; /* a persistent all-to-all of PERS_N ints per peer */
    int *ps, *pr, pers_active;
} comm_t;
#define PERS_N 300

typedef struct {
    long op;
    kind_t kind;
    int c, n;
} op_t;

typedef struct {
    op_t op;
    int busy;
    int *s, *r;
} slot_t;

static struct {
    long ops;
    uint64_t seed;
    int slots, ncomms;
} opt = {20000, 1, 16, 4};

static int me, P, failures;
static comm_t comms[MAX_COMMS];
static slot_t slot[MAX_SLOTS];
static nbo_request_t reqs[MAX_SLOTS];
static long calls[3];

static void fail(const char *what, int rc)
{
    fprintf(stderr, "mixed_api rank %d: FAIL %s: %s\n", me, what, nbo_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static int val(int src, int dst, int i, long op) { return src * 1000003 + dst * 1009 + i * 7 + (int)op * 31; }

/* All-to-allv counts: what src sends dst. */
static int vcount(int src, int dst, int n) { return (src + 2 * dst) % 4 * n / 4 + (src == dst); }

static op_t op_draw(rng_t *g, long k)
{
    static const int sizes[] = {1, 8, 64, 512, 2048};
    op_t o = {.op = k};
    o.kind = (kind_t)rng_below(g, NKINDS);
    o.c = rng_below(g, opt.ncomms);
    o.n = sizes[rng_below(g, 5)];
    return o;
}

static int *ints(size_t n) { return malloc((n ? n : 1) * sizeof(int)); }

static void check_block(const int *r, int src, int n, comm_t *cm, long op, const char *what)
{
    for (int i = 0; i < n; i++)
        if (r[i] != val(src, cm->rank, i, op)) {
            if (failures++ < 5)
                fprintf(stderr, "mixed_api rank %d: FAIL op %ld %s: from %d element %d is %d\n",
                        me, op, what, src, i, r[i]);
            return;
        }
}

/* The blocking MPI collectives run at once, in sequence order. */
static void run_mpi(op_t o)
{
    comm_t *cm = &comms[o.c];
    int n = o.n, *b = ints(n), *r = ints(n);
    for (int i = 0; i < n; i++)
        b[i] = val(cm->rank, 0, i, o.op);
    if (o.kind == K_ALLREDUCE) {
        MPI_Allreduce(b, r, n, MPI_INT, MPI_SUM, cm->mpi);
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int src = 0; src < cm->size; src++)
                want += val(src, 0, i, o.op);
            if (r[i] != want && failures++ < 5)
                fprintf(stderr, "mixed_api rank %d: FAIL op %ld MPI_Allreduce\n", me, o.op);
        }
    } else if (o.kind == K_BCAST) {
        int root = (int)(o.op % cm->size);
        MPI_Bcast(b, n, MPI_INT, root, cm->mpi);
        for (int i = 0; i < n; i++)
            if (b[i] != val(root, 0, i, o.op) && failures++ < 5)
                fprintf(stderr, "mixed_api rank %d: FAIL op %ld MPI_Bcast\n", me, o.op);
    } else
        MPI_Barrier(cm->mpi);
    free(b), free(r);
}

static void post(int k, op_t o)
{
    slot_t *sl = &slot[k];
    comm_t *cm = &comms[o.c];
    int p = cm->size, n = o.n, rc = NBO_SUCCESS;
    sl->op = o;
    sl->busy = 1;
    sl->s = sl->r = NULL;
    if (o.kind == K_IALLTOALL) {
        sl->s = ints((size_t)n * p), sl->r = ints((size_t)n * p);
        for (int d = 0; d < p; d++)
            for (int i = 0; i < n; i++)
                sl->s[d * n + i] = val(cm->rank, d, i, o.op);
        rc = nbo_ialltoall(sl->s, n, MPI_INT, sl->r, n, MPI_INT, cm->nbo, &reqs[k]);
    } else if (o.kind == K_IALLTOALLV) {
        int sc[p], sd[p], rcn[p], rd[p], st = 0, rt = 0;
        for (int d = 0; d < p; d++) {
            sc[d] = vcount(cm->rank, d, n), sd[d] = st, st += sc[d];
            rcn[d] = vcount(d, cm->rank, n), rd[d] = rt, rt += rcn[d];
        }
        sl->s = ints(st), sl->r = ints(rt);
        for (int d = 0; d < p; d++)
            for (int i = 0; i < sc[d]; i++)
                sl->s[sd[d] + i] = val(cm->rank, d, i, o.op);
        rc = nbo_ialltoallv(sl->s, sc, sd, MPI_INT, sl->r, rcn, rd, MPI_INT, cm->nbo, &reqs[k]);
    } else {
        for (int d = 0; d < p; d++)
            for (int i = 0; i < PERS_N; i++)
                cm->ps[d * PERS_N + i] = val(cm->rank, d, i, o.op);
        cm->pers_active = 1;
        reqs[k] = cm->pers;
        rc = nbo_start(&reqs[k]);
    }
    if (rc != NBO_SUCCESS)
        fail(kind_name[o.kind], rc);
}

static void finish(int k)
{
    slot_t *sl = &slot[k];
    comm_t *cm = &comms[sl->op.c];
    int p = cm->size, n = sl->op.n;
    if (sl->op.kind == K_IALLTOALL) {
        for (int s = 0; s < p; s++)
            check_block(sl->r + s * n, s, n, cm, sl->op.op, "nbo_ialltoall");
    } else if (sl->op.kind == K_IALLTOALLV) {
        int off = 0;
        for (int s = 0; s < p; s++) {
            check_block(sl->r + off, s, vcount(s, cm->rank, n), cm, sl->op.op, "nbo_ialltoallv");
            off += vcount(s, cm->rank, n);
        }
    } else {
        for (int s = 0; s < p; s++)
            check_block(cm->pr + s * PERS_N, s, PERS_N, cm, sl->op.op, "nbo_start");
        cm->pers_active = 0;
    }
    free(sl->s), free(sl->r);
    sl->busy = 0;
    reqs[k] = NBO_REQUEST_NULL;
}

static int busy_slot(rng_t *r)
{
    int k;
    do
        k = rng_below(r, opt.slots);
    while (!slot[k].busy);
    return k;
}

/* One completion call drawn from r; returns how many completed. */
static int complete(rng_t *r)
{
    int c = rng_below(r, 3), done = 0, rc, flag = 0;
    calls[c]++;
    if (c == 0 || c == 1) {
        int k = busy_slot(r);
        rc = c == 0 ? nbo_wait(&reqs[k]) : nbo_test(&reqs[k], &flag);
        if (rc != NBO_SUCCESS)
            fail(c == 0 ? "nbo_wait" : "nbo_test", rc);
        if (c == 0 || flag)
            finish(k), done = 1;
    } else {
        rc = nbo_waitall(opt.slots, reqs);
        if (rc != NBO_SUCCESS)
            fail("nbo_waitall", rc);
        for (int k = 0; k < opt.slots; k++)
            if (slot[k].busy)
                finish(k), done++;
    }
    return done;
}

static void comms_create(void)
{
    for (int c = 0; c < opt.ncomms; c++) {
        comm_t *cm = &comms[c];
        if (c < opt.ncomms - 1)
            MPI_Comm_dup(MPI_COMM_WORLD, &cm->mpi);
        else
            MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &cm->mpi);
        MPI_Comm_rank(cm->mpi, &cm->rank);
        MPI_Comm_size(cm->mpi, &cm->size);
        nbo_config_t cfg;
        nbo_config_init(&cfg);
        int rc = nbo_config_from_env(&cfg);
        cfg.progress = NBO_PROGRESS_THREAD;
        if (rc == NBO_SUCCESS)
            rc = nbo_comm_create(cm->mpi, &cfg, &cm->nbo);
        if (rc == NBO_ERR_ENGINE) {
            if (me == 0)
                printf("SKIP: engine %s not usable here\n", getenv("NBO_ENGINE"));
            MPI_Finalize();
            exit(77);
        }
        if (rc != NBO_SUCCESS)
            fail("nbo_comm_create", rc);
        cm->ps = ints((size_t)PERS_N * cm->size);
        cm->pr = ints((size_t)PERS_N * cm->size);
        rc = nbo_alltoall_init(cm->ps, PERS_N, MPI_INT, cm->pr, PERS_N, MPI_INT, cm->nbo,
                               &cm->pers);
        if (rc != NBO_SUCCESS)
            fail("nbo_alltoall_init", rc);
    }
}

static void comms_free(void)
{
    for (int c = 0; c < opt.ncomms; c++) {
        int rc = nbo_request_free(&comms[c].pers);
        if (rc == NBO_SUCCESS)
            rc = nbo_comm_free(&comms[c].nbo);
        if (rc != NBO_SUCCESS)
            fail("nbo_comm_free", rc);
        MPI_Comm_free(&comms[c].mpi);
        free(comms[c].ps), free(comms[c].pr);
    }
}

static void parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--ops=", 6) == 0)
            opt.ops = atol(argv[i] + 6);
        else if (strncmp(argv[i], "--seed=", 7) == 0)
            opt.seed = strtoull(argv[i] + 7, NULL, 10);
        else if (strncmp(argv[i], "--slots=", 8) == 0)
            opt.slots = atoi(argv[i] + 8);
        else if (strncmp(argv[i], "--comms=", 8) == 0)
            opt.ncomms = atoi(argv[i] + 8);
    }
    if (opt.slots < 1 || opt.slots > MAX_SLOTS)
        opt.slots = 16;
    if (opt.ncomms < 2 || opt.ncomms > MAX_COMMS)
        opt.ncomms = 4;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    parse(argc, argv);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (me == 0)
            printf("SKIP: MPI does not provide MPI_THREAD_MULTIPLE\n");
        MPI_Finalize();
        return 77;
    }
    comms_create();
    for (int k = 0; k < MAX_SLOTS; k++)
        reqs[k] = NBO_REQUEST_NULL;

    rng_t seq = {opt.seed}, mine = {opt.seed * 7919 + (uint64_t)me + 1};
    long next = 0, completed = 0, active = 0, mpi_ops = 0;
    op_t o = op_draw(&seq, 0);
    while (next < opt.ops || active > 0) {
        /* Post in sequence order: MPI's collectives at once (blocking),
         * libnbo's into a free slot; a persistent request still running
         * holds the sequence until it completes. */
        while (next < opt.ops) {
            if (o.kind >= K_ALLREDUCE) {
                run_mpi(o);
                mpi_ops++;
            } else {
                int k = 0;
                while (k < opt.slots && slot[k].busy)
                    k++;
                if (k == opt.slots || (o.kind == K_START && comms[o.c].pers_active))
                    break;
                post(k, o);
                active++;
            }
            if (++next < opt.ops)
                o = op_draw(&seq, next);
        }
        if (active > 0) {
            int d = complete(&mine);
            completed += d;
            active -= d;
        }
    }
    comms_free();
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("mixed_api P=%d: %ld operations (%ld libnbo, %ld MPI), seed %llu; nbo_wait %ld "
               "nbo_test %ld nbo_waitall %ld: %s\n",
               P, opt.ops, completed, mpi_ops, (unsigned long long)opt.seed, calls[0], calls[1],
               calls[2], all ? "FAIL" : "PASS");
    MPI_Finalize();
    return all ? 1 : 0;
}
