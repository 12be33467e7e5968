/*
 * tune.c - the online tuner of persistent requests (NBO_TUNE,
 * docs/tuning.md).  The trial, in the first starts:
 *   1. each candidate (algorithm, window) in turn runs a block of starts,
 *      the first of which is not counted (the first block's first few);
 *   2. the ranks agree on each one's time per start on its slowest rank,
 *      and every rank keeps the one of least time.
 * A block's time is what the application pays: from its first counted
 * start to the start after its last, over the counted starts, as a
 * benchmark times a loop.  A run's own time, from its start to the
 * completion the library records, leaves out the waiter's wake-up and
 * the time a rank that started early spends ahead of the others.
 * The first start after a switch pays for what the previous list left
 * behind (the first of all for the connections; after that the network's
 * state, e.g. TCP windows sized for another pattern), as a benchmark's
 * warm-up does: the application runs the kept list back to back, so the
 * runs that follow it are what it pays.  A new communicator's connections
 * take several starts to ramp up (TCP's windows grow a round trip at a
 * time), so the request first runs its own choice, as it would untuned,
 * for TUNE_RAMP starts (not before a retrial: they are warm), and
 * the starts the trial's budget leaves over go to the first block's
 * warm-up too.  Means, not fastest runs: a window wide enough
 * to overflow a switch's buffers now and then has a fast run and a slow
 * mean.  The kept choice is clocked alike, per TUNE_CHECK starts.
 *
 * Every rank must run the same list at the same start, so the candidates
 * and the start at which each runs are a function of what the ranks share
 * (the call's arguments and the configuration, select.c's rule), and the
 * only thing measured, the times, is agreed before anything depends on
 * it.  The trial needs no message of its own; the agreement (a few
 * integers) is begun at one start and read at the next, so no start waits
 * for it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "tune.h"

enum {
    TUNE_MAX = 10, /* candidates: 2 algorithms x 5 windows, in one agreement */
    TUNE_TRIAL = 20,          /* the trial's starts, where the candidates fit */
    TUNE_REPS_MAX = 4,        /* counted starts per candidate, at most */
    TUNE_LEAD_MAX = 4,        /* more warm-up starts before the first block, at most */
    TUNE_RAMP = 8,            /* the request's own choice first, while connections ramp up */
    TUNE_CHECK = 32,          /* kept: starts per drift check */
};

_Static_assert(TUNE_MAX <= NBO_AGREE_MAX, "one agreement holds the candidates' times");

struct nbo_tune {
    nbo_choice_t cand[TUNE_MAX];
    int          ncand;
    int          starts;     /* trial starts made */
    int          cur;        /* the candidate of the plan */
    double       block_t0;   /* the running block's first counted start (nbo_now) */
    double       sum[TUNE_MAX]; /* seconds, this rank's counted starts of each */
    int          runs[TUNE_MAX];
    int          reps;       /* counted starts per candidate */
    int          lead;       /* the first block's warm-up starts beyond the one */
    struct nbo_agreement *vote; /* the trial's agreement in flight */
    int          calls;      /* a class of non-persistent calls (NBO_TUNE_CALLS) */
    int          done;       /* the trial is over: the plan is the choice */
    /* Kept: each TUNE_CHECK starts, the slowest rank's mean run of them is
     * agreed without waiting (begun at one check, ended at the next); a
     * time beyond TUNE_DRIFT times the trial's runs the trial again. */
    int          kept_us;    /* the kept candidate's agreed trial time */
    int          since;      /* starts since the trial or the last check */
    double       check_t0;   /* the start the kept choice's clock runs from */
    struct nbo_agreement *check;
    int          retrials;
};

/* How much slower than in its trial the kept choice may run before the
 * trial is run again: beyond the noise of a shared machine, in ratio and
 * in time (a few scheduler wake-ups). */
static const double TUNE_DRIFT = 1.5;
enum { TUNE_DRIFT_US = 200 };

static int tunes_algorithm(nbo_tune_t m) { return m == NBO_TUNE_ON || m == NBO_TUNE_ALGORITHM; }
static int tunes_window(nbo_tune_t m) { return m == NBO_TUNE_ON || m == NBO_TUNE_WINDOW; }

/* wmax > 0: a window beyond it is the same list as wmax (tuning windows). */
static void add(struct nbo_tune *t, nbo_algorithm_t alg, int w, int wmax)
{
    if (wmax > 0 && w > wmax)
        w = wmax;
    for (int i = 0; i < t->ncand; i++)
        if (t->cand[i].algorithm == alg && t->cand[i].window == w)
            return;
    if (t->ncand < TUNE_MAX)
        t->cand[t->ncand++] = (nbo_choice_t){.algorithm = alg, .window = w};
}

/* The plan's own choice first (the default), then every algorithm that
 * fits with the windows P - 1, 8, 4, 2 and 1 (a window beyond P - 1 sends
 * no more at once), as far as TUNE_MAX allows.  Widest first: a wide
 * window that follows narrower ones meets connections whose congestion
 * windows grew without loss, and overflows the switch for starts on end. */
static void candidates(struct nbo_tune *t, const nbo_sched_args_t *a, const struct nbo_comm *c)
{
    const nbo_tune_t mode = c->cfg.tune;
    const int P = a->size, wmax = P > 1 ? P - 1 : 1;
    const int clip = tunes_window(mode) ? wmax : 0;
    add(t, a->algorithm, a->window, clip);
    nbo_algorithm_t algs[TUNE_MAX];
    int nalg = 1;
    algs[0] = a->algorithm;
    if (tunes_algorithm(mode) && c->cfg.algorithm == NBO_ALG_AUTO)
        nalg = nbo_sched_candidates(a, algs, TUNE_MAX);
    static const int wins[] = {8, 4, 2, 1};
    for (int k = 0; k < nalg; k++) {
        if (!tunes_window(mode) || !nbo_sched_windowed(a, algs[k])) {
            add(t, algs[k], a->window, 0);
            continue;
        }
        add(t, algs[k], wmax, clip);
        for (int i = 0; i < (int)(sizeof(wins) / sizeof(wins[0])); i++)
            add(t, algs[k], wins[i], clip);
    }
}

static int eligible(const struct nbo_request *r)
{
    return r->persistent && r->comm->cfg.tune != NBO_TUNE_OFF && r->comm->size > 1 &&
           r->mem == &nbo_mem_host;
}

static void say(const struct nbo_comm *c, const struct nbo_tune *t, const int *us, int pick)
{
    if (!c->cfg.log || c->rank != 0)
        return;
    fprintf(stderr,
            "libnbo: NBO_TUNE%s: P=%d, %d warm-up starts, then %d candidates of 1 warm-up + %d "
            "starts each (us per start over the %d, slowest rank):",
            t->calls ? "_CALLS" : "", c->size, t->lead, t->ncand, t->reps, t->reps);
    for (int i = 0; i < t->ncand; i++)
        fprintf(stderr, " %s/W=%d %d%s", nbo_algorithm_name(t->cand[i].algorithm),
                t->cand[i].window, us[i], i == pick ? "*" : "");
    fprintf(stderr, "; kept %s W=%d\n", nbo_algorithm_name(t->cand[pick].algorithm),
            t->cand[pick].window);
}

/* The agreement's values: each candidate's time per start, negated (the max over
 * ranks is minus the min of minus), in microseconds. */
static void encode(const struct nbo_tune *t, int *us)
{
    for (int i = 0; i < t->ncand; i++) {
        const double v = t->runs[i] ? t->sum[i] / t->runs[i] : INT_MAX * 1e-6;
        us[i] = v < INT_MAX * 1e-6 ? -(int)(v * 1e6) : INT_MIN + 1;
    }
}

/* The candidate of least agreed time (ties: the earlier). */
static int least(const int *us, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (us[i] < us[best])
            best = i;
    return best;
}

/* Keep pick: the trial is over. */
static int keep(const struct nbo_comm *c, struct nbo_tune *t, const int *us, int pick)
{
    t->done = 1;
    t->kept_us = us[pick];
    say(c, t, us, pick);
    return pick;
}

/* The trial's steps (every rank the same s, from 0): lead warm-up starts,
 * the candidates' blocks of 1 + reps starts, then at step_vote the
 * agreement begins (the list stays) and at the next step it is read and
 * the choice kept. */
static int step_vote(const struct nbo_tune *t) { return t->lead + t->ncand * (1 + t->reps); }

/* Read the agreement begun at the previous step (no lock held: it may
 * poll progress): the slowest rank's time of each candidate, in us. */
static int read_vote(const struct nbo_comm *c, struct nbo_agreement *a, int n, int *us)
{
    int rc = nbo_agree_end((struct nbo_comm *)c, a, us);
    for (int i = 0; i < n; i++)
        us[i] = -us[i];
    return rc;
}

/* Step s begins at now: a block's clock starts at its first counted
 * start and stops at the start after its last (the next block's warm-up,
 * or the agreement's start). */
static void clock_step(struct nbo_tune *t, int s, double now)
{
    const int block = 1 + t->reps, b = s - t->lead;
    if (b < 0 || s > step_vote(t))
        return;
    if (b % block == 0 && b > 0) {
        t->sum[b / block - 1] = now - t->block_t0;
        t->runs[b / block - 1] = t->reps;
    }
    if (b % block == 1)
        t->block_t0 = now;
}

/* Step s of the trial: run a candidate's block, begin the agreement, or
 * keep the choice the agreement read (voted, at step_vote + 1); *run is
 * the candidate this step runs. */
static int trial_step(const struct nbo_comm *c, struct nbo_tune *t, int s, const int *voted,
                      int *run)
{
    const int vote = step_vote(t), block = 1 + t->reps;
    *run = t->cur;
    if (s < vote) {
        *run = s < t->lead ? 0 : (s - t->lead) / block;
        return NBO_SUCCESS;
    }
    if (s == vote) {
        int us[TUNE_MAX];
        encode(t, us);
        t->vote = nbo_agree_begin((struct nbo_comm *)c, us, t->ncand);
        return t->vote ? NBO_SUCCESS : NBO_ERR_MPI;
    }
    *run = keep(c, t, voted, least(voted, t->ncand));
    return NBO_SUCCESS;
}

/* One step of the trial or, once kept, the kept candidate: *run.  A step
 * that reads an agreement does it first, with unlock/relock around it
 * when the caller holds the library's lock (nbo_agree_end polls). */
static int tune_step(const struct nbo_comm *c, struct nbo_tune *t, int locked, int *run)
{
    *run = t->cur;
    if (t->done)
        return NBO_SUCCESS;
    const int s = t->starts++;
    const double now = nbo_now();
    clock_step(t, s, now);
    int voted[TUNE_MAX] = {0};
    if (s == step_vote(t) + 1) {
        t->check_t0 = now; /* the kept choice's clock */
        struct nbo_agreement *a = t->vote;
        if (!a) /* its begin failed, and that start said so */
            return NBO_ERR_MPI;
        t->vote = NULL;
        if (locked)
            nbo_unlock();
        int rc = read_vote(c, a, t->ncand, voted);
        if (locked)
            nbo_lock();
        if (rc != NBO_SUCCESS)
            return rc;
    }
    return trial_step(c, t, s, voted, run);
}

/* Counted starts per candidate: as many as TUNE_TRIAL leaves after each
 * one's warm-up and the agreement's start, 1 to TUNE_REPS_MAX. */
static int reps_for(int ncand)
{
    const int reps = (TUNE_TRIAL - 1) / (ncand > 0 ? ncand : 1) - 1;
    return reps < 1 ? 1 : reps < TUNE_REPS_MAX ? reps : TUNE_REPS_MAX;
}

/* The first block's extra warm-up: what TUNE_TRIAL leaves over. */
static int lead_for(int ncand, int reps)
{
    const int lead = TUNE_TRIAL - 1 - ncand * (1 + reps);
    return lead < 0 ? 0 : lead < TUNE_LEAD_MAX ? lead : TUNE_LEAD_MAX;
}

/* The trial again: every rank decides alike, on the same agreed time. */
static void retry(struct nbo_request *r, struct nbo_tune *t, int us)
{
    if (r->comm->cfg.log && r->comm->rank == 0)
        fprintf(stderr,
                "libnbo: NBO_TUNE: %s W=%d ran in %d us on average against %d in its trial: "
                "trial again\n",
                nbo_algorithm_name(t->cand[t->cur].algorithm), t->cand[t->cur].window, us,
                t->kept_us);
    t->done = 0;
    t->starts = 0;
    t->since = 0;
    t->retrials++;
    t->lead = lead_for(t->ncand, t->reps); /* no TUNE_RAMP: the connections are warm */
    for (int i = 0; i < TUNE_MAX; i++) {
        t->sum[i] = 0;
        t->runs[i] = 0;
    }
}

static int drift_check(struct nbo_request *r, struct nbo_tune *t)
{
    if (t->ncand < 2 || ++t->since < TUNE_CHECK)
        return NBO_SUCCESS;
    t->since = 0;
    if (t->check) {
        int v;
        struct nbo_agreement *a = t->check;
        t->check = NULL;
        int rc = nbo_agree_end(r->comm, a, &v);
        if (rc != NBO_SUCCESS)
            return rc;
        if (-v > TUNE_DRIFT * t->kept_us + TUNE_DRIFT_US) {
            retry(r, t, -v);
            return NBO_SUCCESS;
        }
    }
    const double now = nbo_now(), mean = (now - t->check_t0) / TUNE_CHECK;
    int v = -(int)(mean < INT_MAX * 1e-6 ? mean * 1e6 : INT_MAX); /* max = -min(-x) */
    t->check_t0 = now;
    t->check = nbo_agree_begin(r->comm, &v, 1);
    return t->check ? NBO_SUCCESS : NBO_ERR_MPI;
}

/* Starts from the first of the trial to the one that keeps the choice. */
static int trial_length(const struct nbo_tune *t) { return step_vote(t) + 1; }

static struct nbo_tune *tune_new(const nbo_sched_args_t *a, const struct nbo_comm *c)
{
    struct nbo_tune *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    candidates(t, a, c);
    t->reps = reps_for(t->ncand);
    t->lead = TUNE_RAMP + lead_for(t->ncand, t->reps);
    t->done = t->ncand < 2;
    return t;
}

int nbo_tune_start(struct nbo_request *r)
{
    struct nbo_tune *t = r->tune;
    if (!t) {
        if (!eligible(r))
            return NBO_SUCCESS;
        if (!(t = r->tune = tune_new(&r->plan.args, r->comm)))
            return NBO_ERR_NOMEM;
    }
    int run, rc = t->done ? drift_check(r, t) : NBO_SUCCESS;
    if (rc == NBO_SUCCESS)
        rc = tune_step(r->comm, t, 0, &run);
    if (rc == NBO_SUCCESS && run != t->cur && (rc = nbo_plan_rebuild(r, &t->cand[run])) == NBO_SUCCESS)
        t->cur = run;
    return rc;
}

/* ------------------------------------------------ non-persistent calls
 * NBO_TUNE_CALLS: a communicator keeps one trial per class of call, the
 * collective and the power of two of its bytes (the same on every rank of
 * a valid call), and runs it over that class's calls as a persistent
 * request's runs over its starts: every rank counts the class's calls
 * alike, since MPI orders a communicator's collectives. */

enum { TUNE_CLASSES = 32 };

struct nbo_tune_classes {
    struct {
        int              coll, log2_bytes, commutative, in_place;
        struct nbo_tune *t;
    } slot[TUNE_CLASSES];
    int n;
};

static int log2_floor(size_t x)
{
    int k = 0;
    while (x >>= 1)
        k++;
    return k;
}

/* The collectives whose size every rank knows alike: one count and type
 * on every rank (MPI's signature rules), no root-only argument. */
static int class_bytes(const nbo_coll_call_t *k, size_t *bytes)
{
    int size;
    switch (k->coll) {
    case NBO_COLL_ALLTOALL: case NBO_COLL_ALLGATHER: case NBO_COLL_BCAST:
    case NBO_COLL_ALLREDUCE: case NBO_COLL_REDUCE_SCATTER_BLOCK:
        if (k->rcount < 0 || MPI_Type_size(k->rtype, &size) != MPI_SUCCESS)
            return 0;
        *bytes = (size_t)k->rcount * (size_t)size;
        return 1;
    default:
        return 0;
    }
}

static struct nbo_tune *class_find(struct nbo_comm *c, const nbo_coll_call_t *k,
                                   const nbo_sched_args_t *a, size_t bytes)
{
    struct nbo_tune_classes *cl = c->tune_classes;
    if (!cl && !(cl = c->tune_classes = calloc(1, sizeof(*cl))))
        return NULL;
    const int lg = log2_floor(bytes);
    for (int i = 0; i < cl->n; i++)
        if (cl->slot[i].coll == (int)k->coll && cl->slot[i].log2_bytes == lg &&
            cl->slot[i].commutative == a->commutative && cl->slot[i].in_place == a->in_place)
            return cl->slot[i].t;
    if (cl->n == TUNE_CLASSES) /* every rank fills the table alike: full everywhere */
        return NULL;
    struct nbo_tune *t = tune_new(a, c);
    if (!t)
        return NULL;
    t->calls = 1;
    cl->slot[cl->n].coll = (int)k->coll;
    cl->slot[cl->n].log2_bytes = lg;
    cl->slot[cl->n].commutative = a->commutative;
    cl->slot[cl->n].in_place = a->in_place;
    cl->slot[cl->n++].t = t;
    return t;
}

int nbo_tune_call(struct nbo_comm *c, const nbo_coll_call_t *k, nbo_sched_args_t *a,
                  struct nbo_tune **cls)
{
    *cls = NULL;
    size_t bytes;
    if (k->persistent || !c->cfg.tune_calls || c->cfg.tune == NBO_TUNE_OFF || c->size < 2 ||
        a->codec || !class_bytes(k, &bytes))
        return NBO_SUCCESS;
    nbo_lock(); /* the communicator's state, as every call of the library */
    struct nbo_tune *t = class_find(c, k, a, bytes);
    int run = 0, rc = t ? tune_step(c, t, 1, &run) : NBO_SUCCESS;
    if (t && rc == NBO_SUCCESS) {
        t->cur = run;
        a->algorithm = t->cand[run].algorithm;
        a->window = t->cand[run].window;
        *cls = t;
    }
    nbo_unlock();
    return rc;
}

int nbo_tune_call_learning(const struct nbo_tune *cls)
{
    return cls && !cls->done;
}

void nbo_tune_classes_free(struct nbo_comm *c)
{
    struct nbo_tune_classes *cl = c->tune_classes;
    if (!cl)
        return;
    for (int i = 0; i < cl->n; i++) {
        nbo_agree_drop(cl->slot[i].t->check);
        nbo_agree_drop(cl->slot[i].t->vote);
        free(cl->slot[i].t);
    }
    free(cl);
    c->tune_classes = NULL;
}

int nbo_tune_query(const struct nbo_request *r, nbo_choice_t *choice, int *trial_left)
{
    const struct nbo_tune *t = r->tune ? r->tune : r->tune_class;
    *choice = (nbo_choice_t){.algorithm = r->plan.args.algorithm, .window = r->plan.args.window};
    *trial_left = t && !t->done ? trial_length(t) - t->starts + 1 : 0;
    return t != NULL;
}

void nbo_tune_free(struct nbo_request *r)
{
    if (r->tune) {
        nbo_agree_drop(r->tune->check);
        nbo_agree_drop(r->tune->vote);
    }
    free(r->tune);
    r->tune = NULL;
}
