/*
 * test_tune.c - NBO_TUNE: a persistent request's first starts try each
 * candidate (algorithm, window), then every rank keeps the same one.
 * Links libnbo's static library to read the plan (tune.h).  Checks: the
 * data is right at every start, across every rebuild; the trial ends by
 * start 29 (8 starts of the request's own choice, then 21 at most) at the
 * same start on every rank; every rank keeps the same choice;
 * NBO_TUNE=window keeps the configured algorithm, NBO_TUNE=algorithm the
 * configured window, off tunes nothing; and, in
 * inline progress (where a run ends at the caller's wait), the trial keeps
 * the candidate of least mean, neither the one with the fastest run nor
 * one whose mean a slow first run after a switch would spoil, and runs
 * made slow by waiting late start the trial again on every rank.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../libnbo/core.h"
#include "../../libnbo/tune.h"
#include "mpitest.h"

enum { BLOCK = 512, STARTS = 34, COUNT = 3000 };

static void alltoall_once(nbo_request_t *req, unsigned char *s, unsigned char *r, unsigned seed)
{
    for (int p = 0; p < mt_size; p++)
        mt_fill(s + (size_t)p * BLOCK, BLOCK, mt_rank, p, seed);
    memset(r, 0, (size_t)mt_size * BLOCK);
    MT_OK(nbo_start(req));
    MT_OK(nbo_wait(req));
    unsigned char want[BLOCK];
    for (int p = 0; p < mt_size; p++) {
        mt_fill(want, BLOCK, p, mt_rank, seed);
        if (memcmp(r + (size_t)p * BLOCK, want, BLOCK) != 0) {
            mt_fail("tuned alltoall, start %u: block from rank %d wrong", seed, p);
            return;
        }
    }
}

static void allreduce_once(nbo_request_t *req, int *in, int *out, unsigned seed)
{
    int *ref = malloc(sizeof(int) * COUNT);
    for (int i = 0; i < COUNT; i++)
        in[i] = (int)((seed * 7919u + (unsigned)i * 31u + (unsigned)mt_rank) % 1000u);
    MPI_Allreduce(in, ref, COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_OK(nbo_start(req));
    MT_OK(nbo_wait(req));
    mt_compare(out, ref, sizeof(int) * COUNT, "tuned allreduce");
    free(ref);
}

/* Every rank's choice and trial length equal rank 0's. */
static void same_everywhere(nbo_request_t req, const char *what)
{
    nbo_choice_t c;
    int left, v[3], lo[3], hi[3];
    nbo_tune_query(req, &c, &left);
    v[0] = (int)c.algorithm;
    v[1] = c.window;
    v[2] = left;
    MPI_Allreduce(v, lo, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(v, hi, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (memcmp(lo, hi, sizeof(lo)) != 0)
        mt_fail("%s: ranks differ (algorithm %d-%d, window %d-%d, trial left %d-%d)", what,
                lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
}

/* mode, with the configured algorithm alg and window w: the trial, then
 * the kept choice.  Returns the kept choice. */
static nbo_choice_t tuned_alltoall(nbo_tune_t mode, nbo_algorithm_t alg, int w)
{
    nbo_config_t cfg;
    mt_config(&cfg, alg);
    cfg.window = w;
    cfg.tune = mode;
    nbo_comm_t comm;
    nbo_choice_t kept = {NBO_ALG_AUTO, 0};
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
    const size_t n = (size_t)mt_size * BLOCK;
    unsigned char *s = malloc(n), *r = malloc(n);
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(nbo_alltoall_init(s, BLOCK, MPI_BYTE, r, BLOCK, MPI_BYTE, comm, &req));
    int trial = -1; /* the start whose query first says the trial is over */
    for (unsigned i = 0; i < STARTS && !mt_failures(); i++) {
        alltoall_once(&req, s, r, i);
        nbo_choice_t c;
        int left;
        const int tuned = nbo_tune_query(req, &c, &left);
        if (tuned != (mode != NBO_TUNE_OFF && mt_size > 1))
            mt_fail("mode %d: tuned %d at start %u", (int)mode, tuned, i);
        if (left == 0 && trial < 0)
            trial = (int)i;
        if (i == 0 || left == 0)
            same_everywhere(req, "tuned alltoall");
        int pub_w = -1, pub_left = -1; /* the public view says the same */
        MT_OK(nbo_request_tuning(req, &pub_w, &pub_left));
        if (pub_w != c.window || pub_left != left)
            mt_fail("nbo_request_tuning: W = %d, %d left; the plan: W = %d, %d left", pub_w,
                    pub_left, c.window, left);
        kept = c;
    }
    if (trial < 0 || trial > 29)
        mt_fail("mode %d: the trial lasted %d starts (at most 29)", (int)mode, trial);
    MT_OK(nbo_request_free(&req));
    MT_OK(nbo_comm_free(&comm));
    free(s);
    free(r);
    return kept;
}

/* A communicator on MPI_COMM_WORLD, configured as the run says, with mode. */
static nbo_comm_t tuned_comm(nbo_tune_t mode)
{
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.tune = mode;
    nbo_comm_t comm = NBO_COMM_NULL;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
    return comm;
}

static void tuned_allreduce(void)
{
    nbo_comm_t comm = tuned_comm(NBO_TUNE_ON);
    int *in = malloc(sizeof(int) * COUNT), *out = malloc(sizeof(int) * COUNT);
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(nbo_allreduce_init(in, out, COUNT, MPI_INT, MPI_SUM, comm, &req));
    for (unsigned i = 0; i < STARTS && !mt_failures(); i++)
        allreduce_once(&req, in, out, i);
    same_everywhere(req, "tuned allreduce");
    MT_OK(nbo_request_free(&req));
    MT_OK(nbo_comm_free(&comm));
    free(in);
    free(out);
}

/* NBO_TUNE_CALLS: non-persistent all-to-alls of one size class, on two
 * pairs of buffers in turn, run the class's trial and then its kept
 * choice; every rank runs the same candidate at every call, the data are
 * right at every call, and a class of another size starts its own trial. */
static void tuned_calls(void)
{
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.tune = NBO_TUNE_ON;
    cfg.tune_calls = 1;
    nbo_comm_t comm;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
    const size_t n = (size_t)mt_size * BLOCK;
    unsigned char *s[2] = {malloc(n), malloc(n)}, *r[2] = {calloc(1, n), calloc(1, n)};
    unsigned char want[BLOCK];
    int trial = -1;
    nbo_choice_t kept = {NBO_ALG_AUTO, 0};
    for (unsigned i = 0; i < STARTS + 4 && !mt_failures(); i++) {
        const int b = (int)(i % 2);
        for (int p = 0; p < mt_size; p++)
            mt_fill(s[b] + (size_t)p * BLOCK, BLOCK, mt_rank, p, i);
        nbo_request_t req;
        MT_OK(nbo_ialltoall(s[b], BLOCK, MPI_BYTE, r[b], BLOCK, MPI_BYTE, comm, &req));
        nbo_choice_t c;
        int left;
        const int tuned = nbo_tune_query(req, &c, &left);
        if (tuned != (mt_size > 1))
            mt_fail("call %u: tuned %d with NBO_TUNE_CALLS on", i, tuned);
        same_everywhere(req, "tuned calls");
        MT_OK(nbo_wait(&req));
        for (int p = 0; p < mt_size; p++) {
            mt_fill(want, BLOCK, p, mt_rank, i);
            if (memcmp(r[b] + (size_t)p * BLOCK, want, BLOCK) != 0)
                mt_fail("tuned call %u: block from rank %d wrong", i, p);
        }
        if (left == 0 && trial < 0)
            trial = (int)i;
        if (trial >= 0 && left == 0 && (int)i > trial &&
            (c.algorithm != kept.algorithm || c.window != kept.window))
            mt_fail("call %u: %s W=%d after the trial kept %s W=%d", i,
                    nbo_algorithm_name(c.algorithm), c.window, nbo_algorithm_name(kept.algorithm),
                    kept.window);
        if (left == 0)
            kept = c;
    }
    if (mt_size > 1 && (trial < 0 || trial > 29))
        mt_fail("NBO_TUNE_CALLS: the trial lasted %d calls (at most 29)", trial);
    /* Another size class: its first call is in a trial of its own. */
    nbo_request_t req;
    MT_OK(nbo_ialltoall(s[0], BLOCK / 8, MPI_BYTE, r[0], BLOCK / 8, MPI_BYTE, comm, &req));
    nbo_choice_t c;
    int left = 0;
    nbo_tune_query(req, &c, &left);
    MT_OK(nbo_wait(&req));
    if (mt_size > 2 && left == 0) /* P = 2: one candidate, no trial */
        mt_fail("NBO_TUNE_CALLS: a call of 1/8 the size shares the first class's trial");
    MT_OK(nbo_comm_free(&comm));
    for (int b = 0; b < 2; b++)
        free(s[b]), free(r[b]);
}

/* The trial keeps the candidate of least mean, not the one with the
 * fastest run, and does not count a candidate's first run after a switch
 * (a warm-up).  Inline progress, where a run ends at the wait: each wait
 * is made late by the candidate's script.  Bruck (a candidate beside
 * pairwise W = 1, 2, 4) runs on time every other run and 60 ms late
 * otherwise; pairwise W = 1 is 300 ms late at its first run after a
 * switch and 5 ms late after that; the others 50 ms late.  So Bruck has
 * the fastest run, and pairwise W = 1 the least mean once warm but not
 * with its first run counted. */
static void least_mean(void)
{
    nbo_comm_t comm = tuned_comm(NBO_TUNE_ON);
    const size_t n = (size_t)mt_size * BLOCK;
    unsigned char *s = calloc(1, n), *r = calloc(1, n);
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(nbo_alltoall_init(s, BLOCK, MPI_BYTE, r, BLOCK, MPI_BYTE, comm, &req));
    nbo_choice_t c, prev = {NBO_ALG_AUTO, 0};
    int left = 1, bruck_runs = 0;
    for (int i = 0; i < 40 && left > 0 && !mt_failures(); i++) {
        MT_OK(nbo_start(&req));
        nbo_tune_query(req, &c, &left);
        const int warm = c.algorithm == prev.algorithm && c.window == prev.window;
        prev = c;
        if (c.algorithm == NBO_ALG_BRUCK)
            usleep(bruck_runs++ % 2 == 0 ? 0 : 60000);
        else if (c.window == 1)
            usleep(warm ? 5000 : 300000);
        else
            usleep(50000);
        MT_OK(nbo_wait(&req));
        MT_OK(nbo_request_tuning(req, NULL, &left));
    }
    nbo_tune_query(req, &c, &left);
    same_everywhere(req, "least mean");
    if (c.algorithm != NBO_ALG_PAIRWISE || c.window != 1)
        mt_fail("kept %s W = %d, not pairwise W = 1, the candidate of least mean",
                nbo_algorithm_name(c.algorithm), c.window);
    MT_OK(nbo_request_free(&req));
    MT_OK(nbo_comm_free(&comm));
    free(s);
    free(r);
}

/* After the trial, every run made slower than the trial's by waiting 20
 * ms before nbo_wait: within 2 drift checks (64 starts) the trial runs
 * again.  Inline progress only: there a run ends at the wait. */
static void drift(void)
{
    nbo_comm_t comm = tuned_comm(NBO_TUNE_WINDOW);
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    const size_t n = (size_t)mt_size * BLOCK;
    unsigned char *s = calloc(1, n), *r = calloc(1, n);
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(nbo_alltoall_init(s, BLOCK, MPI_BYTE, r, BLOCK, MPI_BYTE, comm, &req));
    int left = 1, again = 0;
    for (int i = 0; i < 40 && left > 0 && !mt_failures(); i++) { /* the trial */
        MT_OK(nbo_start(&req));
        MT_OK(nbo_wait(&req));
        MT_OK(nbo_request_tuning(req, NULL, &left));
    }
    for (int i = 0; i < 3 * 32 && !again && !mt_failures(); i++) {
        MT_OK(nbo_start(&req));
        usleep(20000);
        MT_OK(nbo_wait(&req));
        MT_OK(nbo_request_tuning(req, NULL, &left));
        again = left > 0;
    }
    int all;
    MPI_Allreduce(&again, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (left != 0 && !all)
        mt_fail("the trial ran again on some ranks only");
    if (info.progress == NBO_PROGRESS_INLINE && !all)
        mt_fail("runs slower than in the trial (20 ms late waits) did not start it again");
    MT_OK(nbo_request_free(&req));
    MT_OK(nbo_comm_free(&comm));
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_tune");
    tuned_alltoall(NBO_TUNE_ON, NBO_ALG_AUTO, 8);
    tuned_calls();
    nbo_choice_t c = tuned_alltoall(NBO_TUNE_WINDOW, NBO_ALG_PAIRWISE, 8);
    if (c.algorithm != NBO_ALG_PAIRWISE)
        mt_fail("NBO_TUNE=window kept %s, not the configured pairwise",
                nbo_algorithm_name(c.algorithm));
    c = tuned_alltoall(NBO_TUNE_ALGORITHM, NBO_ALG_AUTO, 3);
    if (c.window != 3)
        mt_fail("NBO_TUNE=algorithm kept W = %d, not the configured 3", c.window);
    c = tuned_alltoall(NBO_TUNE_OFF, NBO_ALG_AUTO, 2);
    if (c.window != 2)
        mt_fail("NBO_TUNE=off: W = %d, not the configured 2", c.window);
    tuned_allreduce();
    nbo_comm_t probe = tuned_comm(NBO_TUNE_OFF);
    nbo_comm_info_t info;
    nbo_comm_query(probe, &info);
    MT_OK(nbo_comm_free(&probe));
    if (mt_size > 2 && info.progress == NBO_PROGRESS_INLINE)
        least_mean();
    if (mt_size > 2)
        drift();
    int w;
    MT_EXPECT(NBO_ERR_REQUEST_NULL, nbo_request_tuning(NBO_REQUEST_NULL, &w, NULL));
    return mt_finish();
}
