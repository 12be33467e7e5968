/* settings.c - the NBO_* variables of nbo_config_t: the one table the
 * parser, nbo_info and the documentation tables read. */
#include <limits.h>
#include <strings.h>

#include <nbo.h>
#include "../offload/engine.h" /* nbo_engine_find */
#include "../util/setting.h"
#include "../util/util.h"
#include "settings.h"
#include "schedule.h" /* the NBO_SCHED_*_SMALL defaults */

#define NBO_STR_(x) #x
#define NBO_STR(x) NBO_STR_(x)
#define F(f) NBO_SETTING_FIELD(nbo_config_t, f)

const char *const nbo_progress_names[] = {"auto", "inline", "thread"};
const char *const nbo_alg_names[] = {"auto", "pairwise", "bruck", "ring",
                                     "recursive_doubling", "rabenseifner",
                                     "recursive_halving", "binomial",
                                     "scatter_allgather", "ordered",
                                     "dissemination", "linear"};
const char *const nbo_sched_names[] = {"auto", "batch", "normal"};
const char *const nbo_codec_names[] = {"none", "fp32", "zfp"};
const char *const nbo_tune_names[] = {"off", "on", "window", "algorithm"};

#define KW(names) NBO_SETTING_KEYWORD, names, NBO_ARRAY_LEN(names), 0, 0, NULL, 0, NULL
#define INT(lo, hi) NBO_SETTING_INT, NULL, 0, lo, hi, NULL, 0, NULL
#define TEXT(values, accept) NBO_SETTING_TEXT, NULL, 0, 0, 0, values, 0, accept
#define SIZE(lo, hi) NBO_SETTING_SIZE, NULL, 0, lo, hi, NULL, 0, NULL

/* NBO_ENGINE: auto, or an engine built into this libnbo (case ignored). */
static int engine_accept(const char *v)
{
    return strcasecmp(v, "auto") == 0 || nbo_engine_find(v) != NULL;
}

/* In the order nbo_info lists them.  Defaults: docs/configuration.md has
 * the measurements behind them. */
const nbo_setting_t nbo_config_settings[] = {
    {"NBO_ENGINE", TEXT("auto or an engine's name (nbo_info -e lists them)", engine_accept),
     "auto", F(engine),
     "engine: auto (the first usable on every rank) or one by name"},
    {"NBO_PROGRESS", KW(nbo_progress_names), "auto", F(progress),
     "progress: inline, thread, or auto (thread when the host runs the waits)"},
    /* Batch where the thread sleeps on descriptors: wake-ups that preempt
     * the computing application cost it a context switch or two per start. */
    {"NBO_PROGRESS_SCHED", KW(nbo_sched_names), "auto", F(progress_sched),
     "progress thread scheduling: batch (never preempts the application), normal, "
     "or auto (batch unless an engine is polled)"},
    {"NBO_ALGORITHM", KW(nbo_alg_names), "auto", F(algorithm),
     "algorithm: auto, or one the collective has (else its auto choice)"},
    {"NBO_WINDOW", INT(1, 1 << 20), "8", F(window), "sends per communication window (W)"},
    {"NBO_BRUCK_MAX", SIZE(0, LONG_MAX), "256", F(bruck_max),
     "all-to-all: auto uses Bruck up to this many bytes per peer"},
    {"NBO_TIMEOUT", INT(0, INT_MAX), "60000", F(timeout_ms),
     "ms without progress before a request fails with NBO_ERR_TIMEOUT (0: never)"},
    {"NBO_PROGRESS_CPU", NBO_SETTING_INT, NULL, 0, -1, 1 << 16, "last", NBO_PROGRESS_CPU_LAST,
     NULL, "-1", F(progress_cpu),
     "core the progress thread is pinned to (-1: none; last: the last core of the affinity mask)"},
    {"NBO_SPIN_US", INT(0, 1000000), "0", F(spin_us),
     "us the progress thread (or a waiter driving it) polls after a completion before it sleeps"},
    /* A waiter polls as MPI's waits do, long enough for a small
     * collective's round trips on one node. */
    {"NBO_FOREGROUND_US", INT(0, 1000000), "50", F(foreground_us),
     "thread mode: us a call is left to its caller before the progress thread takes it over"},
    {"NBO_CHECK", INT(0, 1), "0", F(check), "1: compare call signatures across ranks"},
    /* An H100, one host: no size from 64 KiB to 4 MiB beat another beyond
     * the noise (docs/cuda.md). */
    {"NBO_CUDA_CHUNK", SIZE(4096, 1L << 30), "1048576", F(cuda_chunk),
     "bytes per pipeline stage when GPU buffers are staged (ignored without CUDA)"},
    /* MPICH's short-message sizes, as the compilers define them. */
    {"NBO_ALLREDUCE_SMALL", SIZE(0, LONG_MAX), NBO_STR(NBO_SCHED_ALLREDUCE_SMALL),
     F(allreduce_small), "allreduce: auto uses recursive doubling up to this many bytes"},
    {"NBO_ALLGATHER_SMALL", SIZE(0, LONG_MAX), NBO_STR(NBO_SCHED_ALLGATHER_SMALL),
     F(allgather_small),
     "allgather(v): auto uses recursive doubling or Bruck up to this many bytes in all"},
    {"NBO_BCAST_SMALL", SIZE(0, LONG_MAX), NBO_STR(NBO_SCHED_BCAST_SMALL), F(bcast_small),
     "bcast: auto uses the binomial tree up to this many bytes"},
    /* A guess, not measured (docs/configuration.md): the tree forwards
     * each byte up to log2 P times, the linear root moves it once. */
    {"NBO_GATHER_SMALL", SIZE(0, LONG_MAX), NBO_STR(NBO_SCHED_GATHER_SMALL), F(gather_small),
     "gather, scatter: auto uses the binomial tree up to this many bytes per block"},
    /* MPICH's REDUCE_SHORT_MSG_SIZE, not measured here. */
    {"NBO_REDUCE_LARGE", SIZE(0, LONG_MAX), NBO_STR(NBO_SCHED_REDUCE_LARGE), F(reduce_large),
     "reduce with a commutative op: auto uses Rabenseifner (reduce-scatter, then gather) above "
     "this many bytes, the binomial tree up to it"},
    /* Exact unless asked (docs/compression.md). */
    {"NBO_CODEC", KW(nbo_codec_names), "none", F(codec),
     "all-to-all of floating-point types: none, fp32 or zfp (lossy, opt-in)"},
    /* ZFP's rate 16 halves single and quarters double payloads. */
    {"NBO_CODEC_RATE", INT(1, 64), "16", F(codec_rate), "zfp codec: bits per value"},
    {"NBO_TUNE", KW(nbo_tune_names), "off", F(tune),
     "persistent requests: off, on (try algorithms and windows in the first starts, keep the "
     "fastest on average), window or algorithm (try only those)"},
    {"NBO_TUNE_CALLS", INT(0, 1), "0", F(tune_calls),
     "1: NBO_TUNE's trial also runs over non-persistent calls, one per collective and power "
     "of two of bytes per communicator"},
    {"NBO_LOG", INT(0, 1), "0", F(log),
     "1: say on stderr, once per reason, when an engine takes a slower path (an offload it falls back from)"},
    {NULL},
};

const nbo_setting_table_t nbo_config_table = {
    "libnbo", "nbo_config_t (nbo_comm_create with NULL, nbo_config_from_env)",
    nbo_config_settings, NULL};

/* The enum fields are stored as int. */
_Static_assert(sizeof(nbo_progress_mode_t) == sizeof(int), "enum fields are ints");
_Static_assert(sizeof(nbo_codec_t) == sizeof(int), "enum fields are ints");
_Static_assert(sizeof(nbo_tune_t) == sizeof(int), "enum fields are ints");
