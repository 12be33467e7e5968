/* config.c - configuration defaults, NBO_* environment variables, names. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nbo.h"

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
    /* Batch where the thread sleeps on descriptors: wake-ups that preempt
     * the computing application cost it a context switch or two per start
     * call; a polling thread needs its timer wake-ups on time
     * (docs/configuration.md). */
    c->progress_sched = NBO_PROGRESS_SCHED_AUTO;
    c->check = 0;
    /* bench/cuda/gpu-bench.sh on an H100, one host: no size from 64 KiB to
     * 4 MiB beat another beyond the noise (docs/cuda.md). */
    c->cuda_chunk = (size_t)1 << 20;
}

static int bad(const char *var, const char *val, const char *want)
{
    fprintf(stderr, "libnbo: %s=%s is not valid (expected %s)\n", var, val, want);
    return NBO_ERR_CONFIG;
}

/* Look `val` up in names[]; -1 if absent. */
static int pick(const char *val, const char *const names[], int n)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(val, names[i]) == 0)
            return i;
    return -1;
}

static int env_long(const char *var, long lo, long hi, long *out)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || x < lo || x > hi) {
        char want[64];
        snprintf(want, sizeof(want), "an integer in [%ld, %ld]", lo, hi);
        return bad(var, v, want);
    }
    *out = x;
    return 1;
}

static const char *const engine_names[] = {"auto", "mpi", "ucx", "verbs"};
static const char *const progress_names[] = {"auto", "inline", "thread"};
static const char *const alg_names[] = {"auto", "pairwise", "bruck"};
static const char *const sched_names[] = {"auto", "batch", "normal"};

int nbo_config_from_env(nbo_config_t *c)
{
    if (!c)
        return NBO_ERR_ARG;
    const char *v;
    int i;
    if ((v = getenv("NBO_ENGINE")) && *v) {
        if ((i = pick(v, engine_names, 4)) < 0)
            return bad("NBO_ENGINE", v, "mpi, ucx, verbs or auto");
        c->engine = (nbo_engine_kind_t)i;
    }
    if ((v = getenv("NBO_PROGRESS")) && *v) {
        if ((i = pick(v, progress_names, 3)) < 0)
            return bad("NBO_PROGRESS", v, "inline, thread or auto");
        c->progress = (nbo_progress_mode_t)i;
    }
    if ((v = getenv("NBO_ALGORITHM")) && *v) {
        if ((i = pick(v, alg_names, 3)) < 0)
            return bad("NBO_ALGORITHM", v, "pairwise, bruck or auto");
        c->algorithm = (nbo_algorithm_t)i;
    }
    if ((v = getenv("NBO_PROGRESS_SCHED")) && *v) {
        if ((i = pick(v, sched_names, 3)) < 0)
            return bad("NBO_PROGRESS_SCHED", v, "batch, normal or auto");
        c->progress_sched = (nbo_progress_sched_t)i;
    }
    long x;
    int rc;
    if ((rc = env_long("NBO_WINDOW", 1, 1 << 20, &x)) < 0) return rc;
    if (rc) c->window = (int)x;
    if ((rc = env_long("NBO_BRUCK_MAX", 0, LONG_MAX, &x)) < 0) return rc;
    if (rc) c->bruck_max = (size_t)x;
    if ((rc = env_long("NBO_TIMEOUT", 0, INT_MAX, &x)) < 0) return rc;
    if (rc) c->timeout_ms = (int)x;
    if ((rc = env_long("NBO_PROGRESS_CPU", -1, 1 << 16, &x)) < 0) return rc;
    if (rc) c->progress_cpu = (int)x;
    if ((rc = env_long("NBO_SPIN_US", 0, 1000000, &x)) < 0) return rc;
    if (rc) c->spin_us = (int)x;
    if ((rc = env_long("NBO_CHECK", 0, 1, &x)) < 0) return rc;
    if (rc) c->check = (int)x;
    if ((rc = env_long("NBO_CUDA_CHUNK", 4096, 1L << 30, &x)) < 0) return rc;
    if (rc) c->cuda_chunk = (size_t)x;
    return NBO_SUCCESS;
}

const char *nbo_engine_name(nbo_engine_kind_t k)
{
    return (unsigned)k < 4 ? engine_names[k] : "?";
}

const char *nbo_progress_name(nbo_progress_mode_t m)
{
    return (unsigned)m < 3 ? progress_names[m] : "?";
}

const char *nbo_algorithm_name(nbo_algorithm_t a)
{
    return (unsigned)a < 3 ? alg_names[a] : "?";
}

const char *nbo_progress_sched_name(nbo_progress_sched_t s)
{
    return (unsigned)s < 3 ? sched_names[s] : "?";
}
