/* config.c - configuration defaults, NBO_* environment variables, names. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nbo.h>
#include "../util/util.h"
#include "schedule.h" /* the NBO_*_SMALL defaults */

/* Defaults.  W = 8 and Bruck up to 256 B per peer: see docs/configuration.md
 * for the measurements behind them. */
void nbo_config_init(nbo_config_t *c)
{
    if (!c)
        return;
    memset(c, 0, sizeof(*c));
    c->engine = NBO_ENGINE_AUTO;
    c->progress = NBO_PROGRESS_AUTO;
    c->algorithm = NBO_ALG_AUTO;
    c->window = 8;
    c->bruck_max = 256;
    c->timeout_ms = 60000;
    c->progress_cpu = -1;
    c->spin_us = 0;
    /* A waiter polls as MPI's waits do, long enough for a small
     * collective's round trips on one node (docs/configuration.md). */
    c->foreground_us = 50;
    /* Batch where the thread sleeps on descriptors: wake-ups that preempt
     * the computing application cost it a context switch or two per start
     * call; a polling thread needs its timer wake-ups on time
     * (docs/configuration.md). */
    c->progress_sched = NBO_PROGRESS_SCHED_AUTO;
    c->check = 0;
    /* bench/cuda/gpu-bench.sh on an H100, one host: no size from 64 KiB to
     * 4 MiB beat another beyond the noise (docs/cuda.md). */
    c->cuda_chunk = (size_t)1 << 20;
    /* Where the latency-bound algorithms (recursive doubling, Bruck,
     * binomial) give way to the bandwidth-bound ones: MPICH's short-message
     * sizes, as the compilers define them (docs/configuration.md). */
    c->allreduce_small = NBO_SCHED_ALLREDUCE_SMALL;
    c->allgather_small = NBO_SCHED_ALLGATHER_SMALL;
    c->bcast_small = NBO_SCHED_BCAST_SMALL;
    /* Exact unless asked (docs/compression.md); ZFP's rate 16 halves
     * single and quarters double payloads. */
    c->codec = NBO_CODEC_NONE;
    c->codec_rate = 16;
}

static const char *const engine_names[] = {"auto", "mpi", "ucx", "verbs"};
static const char *const progress_names[] = {"auto", "inline", "thread"};
static const char *const alg_names[] = {"auto", "pairwise", "bruck", "ring",
                                        "recursive_doubling", "rabenseifner",
                                        "recursive_halving", "binomial",
                                        "scatter_allgather", "ordered"};
static const char *const sched_names[] = {"auto", "batch", "normal"};
static const char *const codec_names[] = {"none", "fp32", "zfp"};

/* Every NBO_* variable of nbo_config_t: a keyword out of names[] (case
 * does not matter) or a decimal integer in [lo, hi]. */
enum { V_ENGINE, V_PROGRESS, V_ALGORITHM, V_SCHED, V_WINDOW, V_BRUCK_MAX, V_TIMEOUT,
       V_PROGRESS_CPU, V_SPIN_US, V_FOREGROUND_US, V_CHECK, V_CUDA_CHUNK, V_ALLREDUCE_SMALL, V_ALLGATHER_SMALL,
       V_BCAST_SMALL, V_CODEC, V_CODEC_RATE, V_COUNT };
static const struct var {
    const char        *name;
    const char *const *names; /* NULL: an integer */
    int                nnames;
    long               lo, hi;
    const char        *word; /* an integer's one keyword (or NULL) ... */
    long               word_value; /* ... and what it stands for */
} vars[V_COUNT] = {
    [V_ENGINE] = {"NBO_ENGINE", engine_names, NBO_ARRAY_LEN(engine_names), 0, 0},
    [V_PROGRESS] = {"NBO_PROGRESS", progress_names, NBO_ARRAY_LEN(progress_names), 0, 0},
    [V_ALGORITHM] = {"NBO_ALGORITHM", alg_names, NBO_ARRAY_LEN(alg_names), 0, 0},
    [V_SCHED] = {"NBO_PROGRESS_SCHED", sched_names, NBO_ARRAY_LEN(sched_names), 0, 0},
    [V_WINDOW] = {"NBO_WINDOW", NULL, 0, 1, 1 << 20},
    [V_BRUCK_MAX] = {"NBO_BRUCK_MAX", NULL, 0, 0, LONG_MAX},
    [V_TIMEOUT] = {"NBO_TIMEOUT", NULL, 0, 0, INT_MAX},
    [V_PROGRESS_CPU] = {"NBO_PROGRESS_CPU", NULL, 0, -1, 1 << 16, "last", NBO_PROGRESS_CPU_LAST},
    [V_SPIN_US] = {"NBO_SPIN_US", NULL, 0, 0, 1000000},
    [V_FOREGROUND_US] = {"NBO_FOREGROUND_US", NULL, 0, 0, 1000000},
    [V_CHECK] = {"NBO_CHECK", NULL, 0, 0, 1},
    [V_CUDA_CHUNK] = {"NBO_CUDA_CHUNK", NULL, 0, 4096, 1L << 30},
    [V_ALLREDUCE_SMALL] = {"NBO_ALLREDUCE_SMALL", NULL, 0, 0, LONG_MAX},
    [V_ALLGATHER_SMALL] = {"NBO_ALLGATHER_SMALL", NULL, 0, 0, LONG_MAX},
    [V_BCAST_SMALL] = {"NBO_BCAST_SMALL", NULL, 0, 0, LONG_MAX},
    [V_CODEC] = {"NBO_CODEC", codec_names, NBO_ARRAY_LEN(codec_names), 0, 0},
    [V_CODEC_RATE] = {"NBO_CODEC_RATE", NULL, 0, 1, 64},
};

/* The value of variable v in value, or -1 (LONG_MIN for an integer) if
 * it is not valid. */
static long parse(const struct var *v, const char *value)
{
    if (v->word && strcasecmp(value, v->word) == 0)
        return v->word_value;
    if (v->names) {
        for (int i = 0; i < v->nnames; i++)
            if (strcasecmp(value, v->names[i]) == 0)
                return i;
        return -1;
    }
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (errno || end == value || *end || x < v->lo || x > v->hi)
        return LONG_MIN;
    return x;
}

static void store(nbo_config_t *c, int v, long x)
{
    switch (v) {
    case V_ENGINE:       c->engine = (nbo_engine_kind_t)x; break;
    case V_PROGRESS:     c->progress = (nbo_progress_mode_t)x; break;
    case V_ALGORITHM:    c->algorithm = (nbo_algorithm_t)x; break;
    case V_SCHED:        c->progress_sched = (nbo_progress_sched_t)x; break;
    case V_WINDOW:       c->window = (int)x; break;
    case V_BRUCK_MAX:    c->bruck_max = (size_t)x; break;
    case V_TIMEOUT:      c->timeout_ms = (int)x; break;
    case V_PROGRESS_CPU: c->progress_cpu = (int)x; break;
    case V_SPIN_US:      c->spin_us = (int)x; break;
    case V_FOREGROUND_US: c->foreground_us = (int)x; break;
    case V_CHECK:        c->check = (int)x; break;
    case V_CUDA_CHUNK:   c->cuda_chunk = (size_t)x; break;
    case V_ALLREDUCE_SMALL: c->allreduce_small = (size_t)x; break;
    case V_ALLGATHER_SMALL: c->allgather_small = (size_t)x; break;
    case V_BCAST_SMALL:  c->bcast_small = (size_t)x; break;
    case V_CODEC:        c->codec = (nbo_codec_t)x; break;
    case V_CODEC_RATE:   c->codec_rate = (int)x; break;
    }
}

static long clamp_size(size_t x) { return x > LONG_MAX ? LONG_MAX : (long)x; }

static long load(const nbo_config_t *c, int v)
{
    switch (v) {
    case V_ENGINE:       return c->engine;
    case V_PROGRESS:     return c->progress;
    case V_ALGORITHM:    return c->algorithm;
    case V_SCHED:        return c->progress_sched;
    case V_WINDOW:       return c->window;
    case V_BRUCK_MAX:    return clamp_size(c->bruck_max);
    case V_TIMEOUT:      return c->timeout_ms;
    case V_PROGRESS_CPU: return c->progress_cpu;
    case V_SPIN_US:      return c->spin_us;
    case V_FOREGROUND_US: return c->foreground_us;
    case V_CHECK:        return c->check;
    case V_CUDA_CHUNK:   return clamp_size(c->cuda_chunk);
    case V_ALLREDUCE_SMALL: return clamp_size(c->allreduce_small);
    case V_ALLGATHER_SMALL: return clamp_size(c->allgather_small);
    case V_BCAST_SMALL:  return clamp_size(c->bcast_small);
    case V_CODEC:        return c->codec;
    case V_CODEC_RATE:   return c->codec_rate;
    }
    return LONG_MIN;
}

/* The ranges of the variables table hold for a configuration given as a
 * struct too: one definition of what is valid. */
int nbo_config_valid(const nbo_config_t *c)
{
    for (int v = 0; v < V_COUNT; v++) {
        const struct var *d = &vars[v];
        long x = load(c, v);
        int ok = d->names ? x >= 0 && x < d->nnames
                          : (x >= d->lo && x <= d->hi) || (d->word && x == d->word_value);
        if (!ok)
            return 0;
    }
    return 1;
}

int nbo_config_set(nbo_config_t *c, const char *name, const char *value)
{
    if (!c || !name || !value)
        return NBO_ERR_ARG;
    for (int v = 0; v < V_COUNT; v++) {
        if (strcmp(name, vars[v].name) != 0)
            continue;
        long x = parse(&vars[v], value);
        if (vars[v].names ? x < 0 : x == LONG_MIN)
            return NBO_ERR_CONFIG;
        store(c, v, x);
        return NBO_SUCCESS;
    }
    return NBO_ERR_ARG;
}

/* What a valid value of v looks like, for the message on stderr. */
static void expected(const struct var *v, char *out, size_t len)
{
    if (!v->names) {
        snprintf(out, len, "an integer in [%ld, %ld]%s%s", v->lo, v->hi,
                 v->word ? " or " : "", v->word ? v->word : "");
        return;
    }
    size_t n = 0;
    out[0] = 0;
    for (int i = 1; i < v->nnames && n < len; i++) /* names[0]: "auto" (or "none") */
        n += (size_t)snprintf(out + n, len - n, "%s%s", i > 1 ? ", " : "", v->names[i]);
    if (n < len)
        snprintf(out + n, len - n, " or %s", v->names[0]);
}

/* Every variable that is set is read, so that one run names every bad
 * value; the valid ones are applied. */
int nbo_config_from_env(nbo_config_t *c)
{
    if (!c)
        return NBO_ERR_ARG;
    int rc = NBO_SUCCESS;
    for (int v = 0; v < V_COUNT; v++) {
        const char *val = getenv(vars[v].name);
        if (!val || !*val)
            continue; /* empty counts as unset */
        if (nbo_config_set(c, vars[v].name, val) != NBO_SUCCESS) {
            char want[64];
            expected(&vars[v], want, sizeof(want));
            fprintf(stderr, "libnbo: %s=%s is not valid (expected %s)\n", vars[v].name, val, want);
            rc = NBO_ERR_CONFIG;
        }
    }
    return rc;
}

const char *nbo_engine_name(nbo_engine_kind_t k)
{
    return (unsigned)k < NBO_ARRAY_LEN(engine_names) ? engine_names[k] : "?";
}

const char *nbo_progress_name(nbo_progress_mode_t m)
{
    return (unsigned)m < NBO_ARRAY_LEN(progress_names) ? progress_names[m] : "?";
}

const char *nbo_algorithm_name(nbo_algorithm_t a)
{
    return (unsigned)a < NBO_ARRAY_LEN(alg_names) ? alg_names[a] : "?";
}

const char *nbo_progress_sched_name(nbo_progress_sched_t s)
{
    return (unsigned)s < NBO_ARRAY_LEN(sched_names) ? sched_names[s] : "?";
}

const char *nbo_codec_name(nbo_codec_t c)
{
    return (unsigned)c < NBO_ARRAY_LEN(codec_names) ? codec_names[c] : "?";
}
