/*
 * test_pmpi_mixed.c - many outstanding collectives on several communicators, some
 * served by libnbo (every collective libnbo-mpi serves, non-blocking and
 * persistent + MPI_Start, with MPI_IN_PLACE, user ops and derived types
 * drawn at random) and some by MPI (MPI_Ireduce, MPI_Iscan, MPI_Ibarrier,
 * and reductions on derived types), completed by a random choice of the
 * eight completion calls, each freed slot reposted at once.
 *
 * Every rank draws the same operation sequence from --seed and posts it in
 * the same order, so each communicator sees its collectives in the same
 * order everywhere, as MPI requires; which completion call runs is drawn
 * per rank.  The data of every completed operation is checked.  On an
 * error the last events of the failing rank are printed: the sequence that
 * led to it.
 *
 *   --ops=N          operations in all (20000)
 *   --seed=S         the sequence (1)
 *   --slots=K        operations outstanding (20)
 *   --comms=C        communicators: C-1 duplicates of MPI_COMM_WORLD and
 *                    one split into even and odd ranks (4)
 *   --persistent=0   no MPI_Alltoall_init/MPI_Start in the mix
 *   --skip=CALL      leave one completion call out (MPI_Testall, say:
 *                    MPICH 4.0.2's own persistent collectives fail it)
 *   --trace          print every event as it happens
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pt_coll.h"
#include "test_rng.h"

/* gcc reads MPI_STATUSES_IGNORE, a sentinel pointer, as a zero-size array. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define MAX_SLOTS 64
#define MAX_COMMS 16

/* Kinds 0 .. PC_NKINDS-1 are pt_coll.h's collectives (libnbo-mpi serves
 * those up to PC_BCAST, MPI the rest); then a barrier (MPI) and the start
 * of a persistent collective. */
#define K_BARRIER PC_NKINDS
#define K_PSTART  (PC_NKINDS + 1)
#define NKINDS    (PC_NKINDS + 2)
typedef int kind_t;
static const char *kind_name(kind_t k)
{
    return k < PC_NKINDS ? pc_kind_name[k] : k == K_BARRIER ? "ibarrier" : "start(persistent)";
}

/* The persistent collectives of each communicator: kind, count, variant. */
static const struct {
    pc_kind_t kind;
    int n, variant;
} pers_spec[] = {
    {PC_ALLTOALL, 16, 0},         {PC_ALLTOALL, 1024, 0},       {PC_ALLTOALLV, 0, 0},
    {PC_ALLREDUCE, 300, PC_INPLACE}, {PC_REDUCE_SCATTER_BLOCK, 40, PC_USEROP},
    {PC_ALLGATHER, 100, PC_DERIVED}, {PC_ALLGATHERV, 50, 0},    {PC_BCAST, 700, 0},
};
#define PERS_PER_COMM (int)(sizeof(pers_spec) / sizeof(pers_spec[0]))

typedef enum { C_WAIT, C_TEST, C_WAITALL, C_TESTALL, C_WAITANY, C_TESTANY, C_WAITSOME,
               C_TESTSOME, NCALLS } call_t;
static const char *call_name[NCALLS] = {"MPI_Wait", "MPI_Test", "MPI_Waitall", "MPI_Testall",
                                        "MPI_Waitany", "MPI_Testany", "MPI_Waitsome",
                                        "MPI_Testsome"};


typedef struct {
    MPI_Comm comm;
    int rank, size;
} comm_t;

/* A persistent collective, created once; each K_PSTART starts it. */
typedef struct {
    MPI_Request handle;
    int active;
    pc_call_t call;
} pers_t;

/* One operation of the sequence. */
typedef struct {
    long op;
    kind_t kind;
    int c, n, variant;
    pers_t *pers;
} op_t;

typedef struct {
    op_t op;
    int busy;
    pc_call_t call;
} slot_t;

static struct {
    long ops;
    uint64_t seed;
    int slots, ncomms, persistent, trace;
    int skip[NCALLS];
} opt = {20000, 1, 20, 4, 1, 0, {0}};

static comm_t comms[MAX_COMMS];
static pers_t pers[MAX_COMMS][PERS_PER_COMM];
static slot_t slot[MAX_SLOTS];
static MPI_Request reqs[MAX_SLOTS];
static long calls[NCALLS], posted[NKINDS];

/* --------------------------------------------------------------- events */

#define HISTORY 48
static char history[HISTORY][160];
static long nevents;

static void event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void event(const char *fmt, ...)
{
    char *line = history[nevents++ % HISTORY];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(history[0]), fmt, ap);
    va_end(ap);
    if (opt.trace)
        fprintf(stderr, "[%d] %s\n", pt_rank, line);
}

/* An MPI call failed: print what led to it and abort the job (a failed
 * collective leaves the peers waiting; aborting turns that into a FAIL). */
static void die(const char *what, int rc, const MPI_Status *st, int nst, const int *idx)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "mixed rank %d: FAIL %s returned %d: %s\n", pt_rank, what, rc, msg);
    for (int i = 0; st && i < nst; i++) {
        int k = idx ? idx[i] : i;
        if (st[i].MPI_ERROR == MPI_SUCCESS || st[i].MPI_ERROR == MPI_ERR_PENDING)
            continue;
        MPI_Error_string(st[i].MPI_ERROR, msg, &len);
        fprintf(stderr, "mixed rank %d:   slot %d (op %ld %s on comm %d): %s\n", pt_rank, k,
                slot[k].op.op, kind_name(slot[k].op.kind), slot[k].op.c, msg);
    }
    fprintf(stderr, "mixed rank %d: the last %ld events:\n", pt_rank,
            nevents < HISTORY ? nevents : HISTORY);
    for (long e = nevents > HISTORY ? nevents - HISTORY : 0; e < nevents; e++)
        fprintf(stderr, "mixed rank %d:   %s\n", pt_rank, history[e % HISTORY]);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ----------------------------------------------------- the sequence */

static op_t op_draw(rng_t *g, long k)
{
    static const int sizes[] = {1, 4, 32, 256, 2048};
    op_t o = {.op = k};
    for (;;) {
        o.kind = (kind_t)rng_below(g, NKINDS);
        if (o.kind != K_PSTART || opt.persistent)
            break;
    }
    o.c = rng_below(g, opt.ncomms);
    o.n = sizes[rng_below(g, 5)];
    o.variant = rng_below(g, 16); /* pc_variant_t bits; pc_setup keeps those that apply */
    if (o.kind == K_PSTART)
        o.pers = &pers[o.c][rng_below(g, PERS_PER_COMM)];
    return o;
}

static void post(slot_t *sl, op_t o)
{
    comm_t *cm = &comms[o.c];
    MPI_Request *rq = &reqs[sl - slot];
    sl->op = o;
    sl->busy = 1;
    int rc = MPI_SUCCESS;
    if (o.kind == K_BARRIER) {
        rc = MPI_Ibarrier(cm->comm, rq);
    } else if (o.kind == K_PSTART) {
        pc_fill(&o.pers->call, (int)o.op);
        o.pers->active = 1;
        *rq = o.pers->handle;
        rc = MPI_Start(rq);
    } else {
        pc_setup(&sl->call, (pc_kind_t)o.kind, cm->comm, o.n, (int)o.op, o.variant);
        rc = pc_start(&sl->call, rq);
    }
    posted[o.kind]++;
    event("post op %ld %s n=%d variant %d comm %d -> slot %ld", o.op, kind_name(o.kind), o.n,
          o.variant, o.c, (long)(sl - slot));
    if (rc != MPI_SUCCESS)
        die(kind_name(o.kind), rc, NULL, 0, NULL);
}

/* The slot's operation completed: check its data, free the slot. */
static void finish(int k)
{
    slot_t *sl = &slot[k];
    op_t *o = &sl->op;
    char what[128];
    snprintf(what, sizeof(what), "op %ld %s n=%d variant %d comm %d", o->op, kind_name(o->kind),
             o->n, o->variant, o->c);
    event("done op %ld (slot %d)", o->op, k);
    if (o->kind == K_PSTART) {
        snprintf(what, sizeof(what), "op %ld start of persistent %s n=%d variant %d comm %d",
                 o->op, pc_kind_name[o->pers->call.kind], o->pers->call.n,
                 o->pers->call.variant, o->c);
        PT_CHECK(reqs[k] == o->pers->handle, "%s: the persistent handle changed", what);
        pc_check(&o->pers->call, what);
        o->pers->active = 0;
    } else {
        PT_CHECK(reqs[k] == MPI_REQUEST_NULL, "%s: completed request not set to null", what);
        if (o->kind != K_BARRIER) {
            pc_check(&sl->call, what);
            pc_free(&sl->call);
        }
    }
    sl->busy = 0;
    reqs[k] = MPI_REQUEST_NULL;
}

/* ------------------------------------------------------ completion */

static int busy_slot(rng_t *r)
{
    int k;
    do
        k = rng_below(r, opt.slots);
    while (!slot[k].busy);
    return k;
}

/* Run one completion call drawn from r; returns how many completed. */
static int complete(rng_t *r)
{
    int nslots = opt.slots, flag = 0, idx = MPI_UNDEFINED, out = 0, rc;
    int indices[MAX_SLOTS];
    MPI_Status sts[MAX_SLOTS], one;
    int use_st = rng_below(r, 2);
    MPI_Status *st = use_st ? sts : MPI_STATUSES_IGNORE;
    call_t c;
    do
        c = (call_t)rng_below(r, NCALLS);
    while (opt.skip[c]);
    calls[c]++;
    int done = 0;
    switch (c) {
    case C_WAIT:
    case C_TEST: {
        int k = busy_slot(r);
        event("%s slot %d (op %ld)", call_name[c], k, slot[k].op.op);
        rc = c == C_WAIT ? MPI_Wait(&reqs[k], use_st ? &one : MPI_STATUS_IGNORE)
                         : MPI_Test(&reqs[k], &flag, use_st ? &one : MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            die(call_name[c], rc, NULL, 0, NULL);
        if (c == C_WAIT || flag)
            finish(k), done = 1;
        break;
    }
    case C_WAITALL:
    case C_TESTALL:
        event("%s", call_name[c]);
        for (int k = 0; k < nslots; k++)
            sts[k].MPI_ERROR = MPI_SUCCESS;
        rc = c == C_WAITALL ? MPI_Waitall(nslots, reqs, st)
                            : MPI_Testall(nslots, reqs, &flag, st);
        if (rc != MPI_SUCCESS)
            die(call_name[c], rc, use_st ? sts : NULL, nslots, NULL);
        if (c == C_WAITALL || flag)
            for (int k = 0; k < nslots; k++)
                if (slot[k].busy)
                    finish(k), done++;
        break;
    case C_WAITANY:
    case C_TESTANY:
        event("%s", call_name[c]);
        rc = c == C_WAITANY ? MPI_Waitany(nslots, reqs, &idx, use_st ? &one : MPI_STATUS_IGNORE)
                            : MPI_Testany(nslots, reqs, &idx, &flag,
                                          use_st ? &one : MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            die(call_name[c], rc, NULL, 0, NULL);
        if (idx != MPI_UNDEFINED)
            finish(idx), done = 1;
        break;
    case C_WAITSOME:
    case C_TESTSOME:
        event("%s", call_name[c]);
        for (int k = 0; k < nslots; k++)
            sts[k].MPI_ERROR = MPI_SUCCESS;
        rc = c == C_WAITSOME ? MPI_Waitsome(nslots, reqs, &out, indices, st)
                             : MPI_Testsome(nslots, reqs, &out, indices, st);
        if (rc != MPI_SUCCESS)
            die(call_name[c], rc, use_st ? sts : NULL, out > 0 ? out : 0, indices);
        for (int i = 0; i < out && out != MPI_UNDEFINED; i++)
            finish(indices[i]), done++;
        break;
    default:
        break;
    }
    return done;
}

/* ------------------------------------------------------------- main */

static void parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--ops=", 6) == 0)
            opt.ops = atol(a + 6);
        else if (strncmp(a, "--seed=", 7) == 0)
            opt.seed = strtoull(a + 7, NULL, 10);
        else if (strncmp(a, "--slots=", 8) == 0)
            opt.slots = atoi(a + 8);
        else if (strncmp(a, "--comms=", 8) == 0)
            opt.ncomms = atoi(a + 8);
        else if (strncmp(a, "--persistent=", 13) == 0)
            opt.persistent = atoi(a + 13);
        else if (strncmp(a, "--skip=", 7) == 0) {
            for (int c = 0; c < NCALLS; c++)
                if (strcmp(a + 7, call_name[c]) == 0)
                    opt.skip[c] = 1;
        } else if (strcmp(a, "--trace") == 0)
            opt.trace = 1;
    }
    if (opt.slots < 1 || opt.slots > MAX_SLOTS)
        opt.slots = 20;
    if (opt.ncomms < 2 || opt.ncomms > MAX_COMMS)
        opt.ncomms = 4;
    int left = 0;
    for (int c = 0; c < NCALLS; c++)
        left += !opt.skip[c];
    if (!left)
        opt.skip[C_WAIT] = 0;
}

static void comms_create(void)
{
    for (int c = 0; c < opt.ncomms; c++) {
        if (c < opt.ncomms - 1)
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[c].comm);
        else
            MPI_Comm_split(MPI_COMM_WORLD, pt_rank % 2, pt_rank, &comms[c].comm);
        MPI_Comm_rank(comms[c].comm, &comms[c].rank);
        MPI_Comm_size(comms[c].comm, &comms[c].size);
        if (!opt.persistent)
            continue;
        for (int j = 0; j < PERS_PER_COMM; j++) {
            pers_t *ps = &pers[c][j];
            pc_setup(&ps->call, pers_spec[j].kind, comms[c].comm, pers_spec[j].n, c * 100 + j,
                     pers_spec[j].variant);
            int rc = pc_persistent(&ps->call, &ps->handle);
            if (rc != MPI_SUCCESS)
                die(pc_kind_name[pers_spec[j].kind], rc, NULL, 0, NULL);
        }
    }
}

static void comms_free(void)
{
    for (int c = 0; c < opt.ncomms; c++) {
        for (int j = 0; opt.persistent && j < PERS_PER_COMM; j++) {
            PT_MPI(MPI_Request_free(&pers[c][j].handle));
            pc_free(&pers[c][j].call);
        }
        MPI_Comm_free(&comms[c].comm);
    }
}

static slot_t *free_slot(void)
{
    for (int k = 0; k < opt.slots; k++)
        if (!slot[k].busy)
            return &slot[k];
    return NULL;
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "mixed");
    pc_init();
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    parse(argc, argv);
    comms_create();
    for (int k = 0; k < MAX_SLOTS; k++)
        reqs[k] = MPI_REQUEST_NULL;

    rng_t seq = {opt.seed};                                /* the same on every rank */
    rng_t mine = {opt.seed * 7919 + (uint64_t)pt_rank + 1}; /* this rank's calls */
    long next = 0, completed = 0, active = 0;
    op_t pending = op_draw(&seq, next);
    while (completed < opt.ops) {
        /* Post in sequence order while a slot is free; a persistent
         * request still running holds the sequence until it completes. */
        slot_t *sl;
        while (next < opt.ops && (sl = free_slot()) &&
               !(pending.kind == K_PSTART && pending.pers->active)) {
            post(sl, pending);
            active++;
            if (++next < opt.ops)
                pending = op_draw(&seq, next);
        }
        int d = complete(&mine);
        completed += d;
        active -= d;
    }
    PT_CHECK(active == 0, "%ld operations still active", active);

    comms_free();
    pc_finalize();
    if (pt_rank == 0) {
        printf("mixed: %ld operations, seed %llu, %d slots, %d communicators; posted", opt.ops,
               (unsigned long long)opt.seed, opt.slots, opt.ncomms);
        for (int k = 0; k < NKINDS; k++)
            printf(" %s %ld", kind_name(k), posted[k]);
        printf("; calls");
        for (int c = 0; c < NCALLS; c++)
            printf(" %s %ld", call_name[c], calls[c]);
        printf("\n");
    }
    return pt_finish();
}
