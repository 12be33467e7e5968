/*
 * tune.c - the online tuner of persistent requests (NBO_TUNE,
 * docs/tuning.md).  The trial, in the first starts:
 *   1. each candidate (algorithm, window) runs REPS starts in turn;
 *   2. the ranks agree on each one's time on its slowest rank, and the two
 *      fastest run again, alternating, FINAL_REPS starts each;
 *   3. the ranks agree on those two again, and every rank keeps the faster.
 * One noisy start can put a candidate in the final, but not win it.
 *
 * Every rank must run the same list at the same start, so the candidates
 * and the start at which each runs are a function of what the ranks share
 * (the call's arguments and the configuration, select.c's rule), and the
 * only thing measured, the times, is agreed before anything depends on
 * it.  The trial needs no message of its own; each agreement (a few
 * integers) is begun at one start and read at the next, so no start waits
 * for it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core.h"
#include "tune.h"

enum {
    TUNE_MAX = 10, /* candidates: 2 algorithms x 5 windows, in one agreement */
    TUNE_REPS = 2,            /* starts per candidate: the first may pay for warm-up */
    TUNE_TRIAL = 20,          /* the trial's starts, at most */
    TUNE_FINAL_MAX = 4,       /* starts per finalist, at most */
    TUNE_CHECK = 32,          /* kept: starts per drift check */
};

_Static_assert(TUNE_MAX <= NBO_AGREE_MAX, "one agreement holds the candidates' times");

struct nbo_tune {
    nbo_choice_t cand[TUNE_MAX];
    int          ncand;
    int          starts;     /* trial starts made */
    int          cur;        /* the candidate of the plan */
    double       t0;         /* this start's time (nbo_now) */
    double       best[TUNE_MAX]; /* seconds, this rank's fastest run of each */
    int          final_reps; /* starts per finalist (0: no final, one agreement) */
    int          fin[2];     /* the finalists, once the first agreement is read */
    struct nbo_agreement *vote; /* the trial's agreement in flight */
    int          done;       /* the trial is over: the plan is the choice */
    /* Kept: each TUNE_CHECK starts, the slowest rank's fastest run of them
     * is agreed without waiting (begun at one check, ended at the next); a
     * time beyond TUNE_DRIFT times the trial's (the fastest of its runs
     * too, so like is compared with like) runs the trial again. */
    int          kept_us;    /* the kept candidate's agreed trial time */
    int          since;      /* starts since the trial or the last check */
    double       recent;     /* this rank's fastest run since the last check */
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
 * fits with the windows 1, 2, 4, 8 and P - 1 (a window beyond P - 1 sends
 * no more at once), as far as TUNE_MAX allows. */
static void candidates(struct nbo_tune *t, const struct nbo_request *r)
{
    const nbo_sched_args_t *a = &r->plan.args;
    const nbo_tune_t mode = r->comm->cfg.tune;
    const int P = a->size, wmax = P > 1 ? P - 1 : 1;
    const int clip = tunes_window(mode) ? wmax : 0;
    add(t, a->algorithm, a->window, clip);
    nbo_algorithm_t algs[TUNE_MAX];
    int nalg = 1;
    algs[0] = a->algorithm;
    if (tunes_algorithm(mode) && r->comm->cfg.algorithm == NBO_ALG_AUTO)
        nalg = nbo_sched_candidates(a, algs, TUNE_MAX);
    static const int wins[] = {1, 2, 4, 8};
    for (int k = 0; k < nalg; k++) {
        if (!tunes_window(mode) || !nbo_sched_windowed(a, algs[k])) {
            add(t, algs[k], a->window, 0);
            continue;
        }
        for (int i = 0; i < (int)(sizeof(wins) / sizeof(wins[0])); i++)
            add(t, algs[k], wins[i], clip);
        add(t, algs[k], wmax, clip);
    }
}

static int eligible(const struct nbo_request *r)
{
    return r->persistent && r->comm->cfg.tune != NBO_TUNE_OFF && r->comm->size > 1 &&
           r->mem == &nbo_mem_host;
}

static void say(const struct nbo_request *r, const struct nbo_tune *t, const int *us, int pick)
{
    if (!r->comm->cfg.log || r->comm->rank != 0)
        return;
    fprintf(stderr, "libnbo: NBO_TUNE: P=%d, %d candidates of %d starts each", r->comm->size,
            t->ncand, TUNE_REPS);
    if (t->final_reps)
        fprintf(stderr, ", the two fastest %d more", t->final_reps);
    fprintf(stderr, " (us, slowest rank):");
    for (int i = 0; i < t->ncand; i++)
        fprintf(stderr, " %s/W=%d %d%s", nbo_algorithm_name(t->cand[i].algorithm),
                t->cand[i].window, us[i], i == pick ? "*" : "");
    fprintf(stderr, "; kept %s W=%d\n", nbo_algorithm_name(t->cand[pick].algorithm),
            t->cand[pick].window);
}

/* The agreement's values: each time negated (the max over ranks is minus
 * the min of minus), in microseconds. */
static void encode(const struct nbo_tune *t, int *us)
{
    for (int i = 0; i < t->ncand; i++)
        us[i] = t->best[i] < INT_MAX * 1e-6 ? -(int)(t->best[i] * 1e6) : INT_MIN + 1;
}

/* The candidates by agreed time, the fastest first (ties: the earlier). */
static void rank_by_time(const int *us, int n, int *first, int *second)
{
    *first = 0, *second = n > 1 ? 1 : 0;
    for (int i = 0; i < n; i++)
        if (us[i] < us[*first])
            *first = i;
    if (*second == *first)
        *second = 0;
    for (int i = 0; i < n; i++)
        if (i != *first && (us[i] < us[*second] || *second == *first))
            *second = i;
}

/* Keep pick: the trial is over. */
static int keep(struct nbo_request *r, struct nbo_tune *t, const int *us, int pick)
{
    t->done = 1;
    t->kept_us = us[pick];
    say(r, t, us, pick);
    if (pick == t->cur)
        return NBO_SUCCESS;
    t->cur = pick;
    return nbo_plan_rebuild(r, &t->cand[pick]);
}

/* Read the agreement begun at the previous start: the slowest rank's
 * time of each candidate, in us. */
static int read_vote(struct nbo_request *r, struct nbo_tune *t, int *us)
{
    struct nbo_agreement *a = t->vote;
    t->vote = NULL;
    int rc = nbo_agree_end(r->comm, a, us);
    for (int i = 0; i < t->ncand; i++)
        us[i] = -us[i];
    return rc;
}

/* The start at index s of the trial (every rank the same s): begin or
 * read an agreement, and say which candidate this start runs. */
static int trial_step(struct nbo_request *r, struct nbo_tune *t, int s, int *run)
{
    const int first = t->ncand * TUNE_REPS;                /* step 1's starts */
    const int final_end = first + 1 + 2 * t->final_reps;   /* step 2 began before it */
    int us[TUNE_MAX], rc;
    *run = t->cur;
    if (s < first) {
        *run = s / TUNE_REPS;
        return NBO_SUCCESS;
    }
    if (s == first || (t->final_reps && s == final_end)) { /* begin; the list stays */
        encode(t, us);
        t->vote = nbo_agree_begin(r->comm, us, t->ncand);
        return t->vote ? NBO_SUCCESS : NBO_ERR_MPI;
    }
    if (s > first + 1 && s < final_end) { /* the final, alternating */
        *run = t->fin[(s - first - 1) % 2];
        return NBO_SUCCESS;
    }
    if ((rc = read_vote(r, t, us)) != NBO_SUCCESS)
        return rc;
    if (t->final_reps && s == first + 1) {
        rank_by_time(us, t->ncand, &t->fin[0], &t->fin[1]);
        t->best[t->fin[0]] = t->best[t->fin[1]] = INT_MAX * 1e-6; /* the final's runs alone */
        *run = t->fin[0];
        return NBO_SUCCESS;
    }
    int pick = t->fin[0], other = t->fin[1];
    if (!t->final_reps)
        rank_by_time(us, t->ncand, &pick, &other);
    else if (us[other] < us[pick])
        pick = other;
    return keep(r, t, us, pick);
}

/* The trial again: every rank decides alike, on the same agreed time. */
static void retry(struct nbo_request *r, struct nbo_tune *t, int us)
{
    if (r->comm->cfg.log && r->comm->rank == 0)
        fprintf(stderr,
                "libnbo: NBO_TUNE: %s W=%d ran in %d us at best against %d in its trial: "
                "trial again\n",
                nbo_algorithm_name(t->cand[t->cur].algorithm), t->cand[t->cur].window, us,
                t->kept_us);
    t->done = 0;
    t->starts = 0;
    t->since = 0;
    t->fin[0] = t->fin[1] = 0;
    t->retrials++;
    for (int i = 0; i < TUNE_MAX; i++)
        t->best[i] = INT_MAX * 1e-6;
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
    int v = -(int)(t->recent < INT_MAX * 1e-6 ? t->recent * 1e6 : INT_MAX); /* max = -min(-x) */
    t->recent = INT_MAX * 1e-6;
    t->check = nbo_agree_begin(r->comm, &v, 1);
    return t->check ? NBO_SUCCESS : NBO_ERR_MPI;
}

/* The two fastest candidates run FINAL_REPS starts more each, as many
 * as TUNE_TRIAL leaves after step 1 and the two agreements' starts. */
static int final_reps(int ncand)
{
    int reps = (TUNE_TRIAL - ncand * TUNE_REPS - 2) / 2;
    if (ncand < 2 || reps < 1)
        return 0;
    return reps < TUNE_FINAL_MAX ? reps : TUNE_FINAL_MAX;
}

/* Starts from the first of the trial to the one that keeps the choice. */
static int trial_length(const struct nbo_tune *t)
{
    return t->ncand * TUNE_REPS + 1 + (t->final_reps ? 1 + 2 * t->final_reps : 0);
}

int nbo_tune_start(struct nbo_request *r)
{
    struct nbo_tune *t = r->tune;
    if (!t) {
        if (!eligible(r))
            return NBO_SUCCESS;
        if (!(t = calloc(1, sizeof(*t))))
            return NBO_ERR_NOMEM;
        candidates(t, r);
        for (int i = 0; i < TUNE_MAX; i++)
            t->best[i] = INT_MAX * 1e-6;
        t->final_reps = final_reps(t->ncand);
        t->done = t->ncand < 2;
        t->recent = INT_MAX * 1e-6;
        r->tune = t;
    }
    int rc = NBO_SUCCESS;
    if (t->done) {
        rc = drift_check(r, t);
    } else {
        int run;
        rc = trial_step(r, t, t->starts++, &run);
        if (rc == NBO_SUCCESS && !t->done && run != t->cur &&
            (rc = nbo_plan_rebuild(r, &t->cand[run])) == NBO_SUCCESS)
            t->cur = run;
    }
    t->t0 = nbo_now();
    return rc;
}

void nbo_tune_finished(struct nbo_request *r, int status)
{
    struct nbo_tune *t = r->tune;
    if (!t || status != NBO_SUCCESS)
        return;
    const double s = nbo_now() - t->t0;
    if (t->done) {
        if (s < t->recent)
            t->recent = s;
    } else if (s < t->best[t->cur]) {
        t->best[t->cur] = s;
    }
}

int nbo_tune_query(const struct nbo_request *r, nbo_choice_t *choice, int *trial_left)
{
    const struct nbo_tune *t = r->tune;
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
