/*
 * nbo_info - what libnbo can do on this machine, as ucx_info and fi_info do.
 *
 * Output: "# libnbo VERSION", "# MPI: LIBRARY, thread level LEVEL" (the
 * library it runs with, MPI_Get_library_version) and "# MPI built with:
 * NAME VERSION (MPI X.Y)" (the mpi.h it was compiled against);
 * the optional parts of this build, "built PART yes|no DETAIL"; one line
 * per engine, "engine NAME usable|unusable DETAIL" (the device and
 * transports, or why not); the CUDA line; one line
 * per codec, "codec NAME usable|unusable DETAIL"; what NBO_ENGINE=auto and
 * NBO_PROGRESS=auto resolve to here, "auto engine NAME progress MODE caps
 * CAPS DETAIL", found by creating an nbo communicator on MPI_COMM_WORLD as
 * an application would, and, when the environment asks for another engine
 * or progress mode, the same line for it, "configured ...".  Then one line
 * per NBO_* variable libnbo reads, in groups (nbo_config_t, UCX engine,
 * verbs engine, libnbo-mpi): its name, the value in effect, the default,
 * "env" when the environment sets it or "INVALID" when libnbo rejects the
 * value, and its meaning.  Other NBO_UCX_* variables that are set are
 * listed with the UCX engine; other NBO_* variables that are set are named
 * as read by nobody.
 *
 * Exit status: 0; 1 when the environment holds an invalid NBO_* value (each
 * bad variable is named on stderr and marked INVALID: nbo_comm_create would
 * fail with NBO_ERR_CONFIG); 2 for an unknown option; 3 when the
 * configuration is valid but nbo_comm_create fails with it here (an engine
 * asked for by name that is not usable, say).
 *
 * The options are in `usage` below (--help); scripts/gen-api-doc.py turns it
 * and this comment into the nbo_info(1) man page.
 */
#include <getopt.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nbo_engines.h" /* NBO_HAVE_UCX, NBO_HAVE_VERBS, NBO_HAVE_CUDA, NBO_HAVE_ZFP (meson) */

static const char usage[] =
    "usage: nbo_info [-e | -c | -h]\n"
    "What libnbo can do on this machine: its version, the MPI library, the\n"
    "optional parts built, every engine and codec, what NBO_ENGINE=auto and\n"
    "NBO_PROGRESS=auto resolve to, and every NBO_* variable libnbo reads.  It\n"
    "initialises MPI with MPI_THREAD_MULTIPLE and creates an nbo communicator\n"
    "on MPI_COMM_WORLD: run it alone or under mpiexec (every rank prints).  It\n"
    "exits with 1, naming the variable on stderr, when an NBO_* value is\n"
    "invalid.\n"
    "  -e, --engines  build, engines and what auto resolves to only\n"
    "  -c, --config   configuration only: each NBO_* variable, its value in\n"
    "                 effect, its default, whether it is set, its meaning\n"
    "  -h, --help     this help\n";

enum { EXIT_CONFIG = 1, EXIT_USAGE = 2, EXIT_CREATE = 3 };

/* The variables of nbo_config_t (nbo.h), in the order they are printed. */
static const char *const config_vars[] = {
    "NBO_ENGINE", "NBO_PROGRESS", "NBO_PROGRESS_SCHED", "NBO_ALGORITHM", "NBO_WINDOW",
    "NBO_BRUCK_MAX", "NBO_TIMEOUT", "NBO_PROGRESS_CPU", "NBO_SPIN_US", "NBO_FOREGROUND_US",
    "NBO_CHECK", "NBO_CUDA_CHUNK", "NBO_ALLREDUCE_SMALL", "NBO_ALLGATHER_SMALL", "NBO_BCAST_SMALL",
    "NBO_CODEC", "NBO_CODEC_RATE"};
#define N_CONFIG_VARS (sizeof(config_vars) / sizeof(config_vars[0]))

/* ------------------------------------------------------------------ build */

#ifndef NBO_HAVE_PMPI
#define NBO_HAVE_PMPI 0
#endif
#ifndef NBO_HAVE_P3O
#define NBO_HAVE_P3O 0
#endif
#ifndef NBO_HAVE_P3O_CUDA
#define NBO_HAVE_P3O_CUDA 0
#endif

static void print_build(void)
{
    printf("# optional parts of this build (meson options and found libraries)\n");
    static const struct {
        const char *name;
        int         built;
        const char *what;
    } parts[] = {
        {"ucx", NBO_HAVE_UCX, "the UCX engine (-Ducx)"},
        {"verbs", NBO_HAVE_VERBS, "the verbs engine (-Dverbs)"},
        {"cuda", NBO_HAVE_CUDA, "CUDA device buffers (-Dcuda)"},
        {"zfp", NBO_HAVE_ZFP, "the zfp codec of compressed all-to-alls (-Dzfp)"},
        {"libnbo-mpi", NBO_HAVE_PMPI, "MPI_Ialltoall(v) of unmodified programs, libnbo-mpi(7)"},
        {"p3dfft_overlap", NBO_HAVE_P3O,
         NBO_HAVE_P3O_CUDA ? "pencil 3-D FFT, p3dfft_overlap(3), with its GPU path"
                           : "pencil 3-D FFT, p3dfft_overlap(3)"},
    };
    for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        printf("built  %-14s %-3s %s\n", parts[i].name, parts[i].built ? "yes" : "no",
               parts[i].what);
}

/* ---------------------------------------------------------------- engines */

/* Returns 1 when UCX rejects a UCX_* or NBO_UCX_* value (an invalid
 * configuration for NBO_ENGINE=ucx). */
static int print_engines(void)
{
    int bad = 0;
    printf("# engines (built into this libnbo, usable here?)\n");
    const nbo_engine_kind_t kinds[] = {NBO_ENGINE_MPI, NBO_ENGINE_UCX, NBO_ENGINE_VERBS};
    for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        char detail[256];
        int rc = nbo_engine_available(kinds[i], detail, sizeof(detail));
        printf("engine %-6s %-10s %s\n", nbo_engine_name(kinds[i]),
               rc == NBO_SUCCESS ? "usable" : "unusable", detail);
        bad |= rc == NBO_ERR_CONFIG;
    }
    return bad;
}

/* GPU buffers: built with CUDA?  A GPU here?  Which engines move device
 * memory themselves is per communicator (nbo_comm_query, NBO_CAP_DEVICE_MEM). */
static void print_cuda(void)
{
    char detail[256];
    int rc = nbo_cuda_available(detail, sizeof(detail));
    printf("# device buffers (CUDA)\n");
    printf("cuda          %-10s %s\n", rc == NBO_SUCCESS ? "usable" : "unusable", detail);
}

/* Codecs of compressed all-to-alls (NBO_CODEC): built here? */
static void print_codecs(void)
{
    printf("# codecs of compressed all-to-alls (NBO_CODEC, docs/compression.md)\n");
    const nbo_codec_t codecs[] = {NBO_CODEC_NONE, NBO_CODEC_FP32, NBO_CODEC_ZFP};
    for (unsigned i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
        char detail[256];
        int rc = nbo_codec_available(codecs[i], detail, sizeof(detail));
        printf("codec  %-6s %-10s %s\n", nbo_codec_name(codecs[i]),
               rc == NBO_SUCCESS ? "usable" : "unusable", detail);
    }
}

static const char *caps_names(unsigned caps, char *buf, size_t len)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {NBO_CAP_HW_WAITS, "hw-waits"},
        {NBO_CAP_OFFLOAD, "offload"},
        {NBO_CAP_EVENT_FD, "event-fd"},
        {NBO_CAP_DEVICE_MEM, "device-mem"},
    };
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]) && n < len; i++)
        if (caps & names[i].bit)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", names[i].name);
    if (!buf[0])
        snprintf(buf, len, "-");
    return buf;
}

/* What cfg resolves to: the library's own choice, made by nbo_comm_create
 * (the engines in the order auto tries them, agreed on by every rank, and
 * the progress rule for the engine and the MPI thread level). */
static int resolve(const char *label, const nbo_config_t *cfg)
{
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, cfg, &comm);
    if (rc != NBO_SUCCESS) {
        printf("%-10s engine %-6s progress %-7s failed: %s\n", label, nbo_engine_name(cfg->engine),
               nbo_progress_name(cfg->progress), nbo_strerror(rc));
        return rc;
    }
    nbo_comm_info_t info;
    rc = nbo_comm_query(comm, &info);
    if (rc == NBO_SUCCESS) {
        char caps[64];
        printf("%-10s engine %-6s progress %-7s caps %-16s %s\n", label,
               nbo_engine_name(info.engine), nbo_progress_name(info.progress),
               caps_names(info.engine_caps, caps, sizeof(caps)), info.engine_detail);
    }
    int rc2 = nbo_comm_free(&comm);
    return rc != NBO_SUCCESS ? rc : rc2;
}

/* The MPI of the mpi.h this was compiled against, in its own macros: a
 * build runs only with a library of the same MPI, maybe another version. */
static const char *built_mpi(void)
{
#if defined(OPEN_MPI)
#define NBO_STR_(x) #x
#define NBO_STR(x) NBO_STR_(x)
    return "Open MPI " NBO_STR(OMPI_MAJOR_VERSION) "." NBO_STR(OMPI_MINOR_VERSION) "." NBO_STR(
        OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
    return "MPICH " MPICH_VERSION;
#else
    return "unknown MPI";
#endif
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:     return "single";
    case MPI_THREAD_FUNNELED:   return "funneled";
    case MPI_THREAD_SERIALIZED: return "serialized";
    case MPI_THREAD_MULTIPLE:   return "multiple";
    }
    return "?";
}

/* env: the configuration the environment gives (env_ok: it is valid).
 * Returns NBO_SUCCESS or the error of the first resolution that failed. */
static int print_resolution(const nbo_config_t *env, int env_ok)
{
    int provided = MPI_THREAD_SINGLE, size = 1;
    MPI_Query_thread(&provided);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("# what auto resolves to here: nbo_comm_create on MPI_COMM_WORLD (%d rank%s, thread level %s;\n"
           "# an application below MPI_THREAD_MULTIPLE gets progress inline)\n",
           size, size == 1 ? "" : "s", thread_level_name(provided));
    nbo_config_t a;
    nbo_config_init(&a); /* engine and progress auto */
    int rc = resolve("auto", &a);
    /* Every rank creates the same communicators, or none: under mpiexec
     * the ranks' environments may differ. */
    int want = env_ok && (env->engine != NBO_ENGINE_AUTO || env->progress != NBO_PROGRESS_AUTO);
    int all = want, any = want;
    MPI_Allreduce(&want, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&want, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all) {
        int rc2 = resolve("configured", env);
        if (rc == NBO_SUCCESS)
            rc = rc2;
    } else if (!env_ok)
        printf("configured not resolved: the NBO_* environment is invalid\n");
    else if (any)
        printf("configured not resolved: the ranks' NBO_ENGINE and NBO_PROGRESS differ\n");
    return rc;
}

/* ---------------------------------------------------------- configuration */

static void row(const char *var, const char *value, const char *def, const char *flag,
                const char *meaning)
{
    printf("%-21s %-10s %-8s %-7s %s\n", var, value, def, flag, meaning);
}

/* A variable of nbo_config_t: INVALID when nbo_config_set rejects the value
 * the environment gives (the library's own parser).  Returns 1 if so. */
static int config_row(const char *var, const char *value, const char *def, const char *meaning)
{
    const char *set = getenv(var);
    if (!set || !*set) {
        row(var, value, def, "", meaning);
        return 0;
    }
    nbo_config_t scratch;
    nbo_config_init(&scratch);
    int bad = nbo_config_set(&scratch, var, set) != NBO_SUCCESS;
    row(var, bad ? set : value, def, bad ? "INVALID" : "env", meaning);
    return bad;
}

/* Variables outside nbo_config_t, read by an engine or by libnbo-mpi. */
typedef struct {
    const char *var, *def, *meaning;
} extra_t;

static const extra_t ucx_vars[] = {
    {"NBO_UCX_TLS", "-", "transports of libnbo's UCX context (-: UCX_TLS, else UCX's choice)"},
    {"NBO_UCX_RNDV_THRESH", "-",
     "rendezvous threshold (-: libnbo's over TCP without RDMA, else UCX's)"},
    {"NBO_UCX_ZCOPY_THRESH", "-",
     "zero-copy threshold (-: inf, UCX's copy path, over TCP without RDMA; auto: UCX's)"},
    {"NBO_PEER_ERRORS", "0", "1: peer error handling on every endpoint (no shared memory)"},
    {"NBO_REGCACHE", "1", "0: no registration cache (UCX registers on the fly)"},
};
static const extra_t verbs_vars[] = {
    {"NBO_VERBS_DEVICE", "-", "RDMA device name (-: the first with an active port)"},
    {"NBO_VERBS_PORT", "0", "port number (0: the first active one)"},
    {"NBO_VERBS_GID_INDEX", "-1", "GID table index (-1: the first non-zero GID on RoCE)"},
    {"NBO_VERBS_BOUNCE", "4096", "largest message sent through bounce buffers (0: none)"},
    {"NBO_VERBS_ACK_TIMEOUT", "14", "IB local ACK timeout exponent (14: 67 ms)"},
    {"NBO_VERBS_DEBUG", "0", "1: print NIC completion errors; 2: flush errors too"},
};
static const extra_t pmpi_vars[] = {
    {"NBO_PMPI", "on", "off or 0: every call passes through to MPI"},
    {"NBO_PMPI_LOG", "0", "1: a line per communicator saying who serves it"},
    {"NBO_PMPI_COLLS", "all",
     "collectives served: alltoall,allreduce,reduce_scatter_block,allgather,allgatherv,bcast, "
     "all or none"},
    /* pmpi/pm_state.c's PM_MIN_SIZE_DEFAULT (check_nbo_info.sh compares them) */
    {"NBO_PMPI_MIN_SIZE",
     "alltoall=64K,allreduce=64K,reduce_scatter_block=64K,allgather=128K,allgatherv=128K,bcast=64K",
     "NAME=BYTES,...: a call of a collective below its size is served by MPI"},
    {"NBO_PMPI_BLOCKING", "0", "1: blocking MPI_Alltoall(v) served by libnbo too"},
};

static void extra_rows(const extra_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *set = getenv(v[i].var);
        row(v[i].var, set ? set : v[i].def, v[i].def, set ? "env" : "", v[i].meaning);
    }
}

static int known(const char *name, size_t len)
{
    for (size_t i = 0; i < N_CONFIG_VARS; i++)
        if (strlen(config_vars[i]) == len && strncmp(config_vars[i], name, len) == 0)
            return 1;
    const extra_t *groups[] = {ucx_vars, verbs_vars, pmpi_vars};
    const size_t sizes[] = {sizeof(ucx_vars) / sizeof(ucx_vars[0]),
                            sizeof(verbs_vars) / sizeof(verbs_vars[0]),
                            sizeof(pmpi_vars) / sizeof(pmpi_vars[0])};
    for (int g = 0; g < 3; g++)
        for (size_t i = 0; i < sizes[g]; i++)
            if (strlen(groups[g][i].var) == len && strncmp(groups[g][i].var, name, len) == 0)
                return 1;
    return 0;
}

extern char **environ;

/* c: the configuration the environment gives; ucx_bad: UCX rejected a
 * UCX_* or NBO_UCX_* value.  Returns the number of invalid variables. */
static int print_config(const nbo_config_t *env, int ucx_bad)
{
    nbo_config_t def, c = *env;
    nbo_config_init(&def);
    int bad = 0;
    char v[64], d[64];
    printf("# configuration: variable, value in effect, default, env|INVALID, meaning\n");
    printf("# nbo_config_t (nbo_comm_create with NULL, nbo_config_from_env)\n");
    bad += config_row("NBO_ENGINE", nbo_engine_name(c.engine), nbo_engine_name(def.engine),
                      "engine: mpi | ucx | verbs | auto");
    bad += config_row("NBO_PROGRESS", nbo_progress_name(c.progress),
                      nbo_progress_name(def.progress),
                      "progress: inline | thread | auto (thread when the host runs the waits)");
    bad += config_row("NBO_PROGRESS_SCHED", nbo_progress_sched_name(c.progress_sched),
                      nbo_progress_sched_name(def.progress_sched),
                      "progress thread scheduling: batch (never preempts the application) | "
                      "normal | auto (batch unless an engine is polled)");
    bad += config_row("NBO_ALGORITHM", nbo_algorithm_name(c.algorithm),
                      nbo_algorithm_name(def.algorithm),
                      "algorithm: auto, or one the collective has (pairwise, bruck, ring, ...)");
#define NUM(var, field, fmt, meaning)                                                      \
    snprintf(v, sizeof(v), fmt, c.field);                                                  \
    snprintf(d, sizeof(d), fmt, def.field);                                                \
    bad += config_row(var, v, d, meaning)
    NUM("NBO_WINDOW", window, "%d", "sends per communication window (W)");
    NUM("NBO_BRUCK_MAX", bruck_max, "%zu", "auto uses Bruck up to this many bytes per peer");
    NUM("NBO_TIMEOUT", timeout_ms, "%d", "ms without progress before a request fails (0: never)");
    NUM("NBO_PROGRESS_CPU", progress_cpu, "%d", "core the progress thread is pinned to (-1: none)");
    NUM("NBO_SPIN_US", spin_us, "%d", "us the progress thread polls before it sleeps");
    NUM("NBO_FOREGROUND_US", foreground_us, "%d",
        "thread mode: us nbo_wait polls without a completion before it sleeps");
    NUM("NBO_CHECK", check, "%d", "1: compare call signatures across ranks");
    NUM("NBO_CUDA_CHUNK", cuda_chunk, "%zu", "bytes per pipeline stage when GPU buffers are staged");
    NUM("NBO_ALLREDUCE_SMALL", allreduce_small, "%zu",
        "allreduce: auto uses recursive doubling up to this many bytes");
    NUM("NBO_ALLGATHER_SMALL", allgather_small, "%zu",
        "allgather(v): auto uses the small-message algorithm up to this many bytes in all");
    NUM("NBO_BCAST_SMALL", bcast_small, "%zu", "bcast: auto uses the binomial tree up to this many bytes");
    bad += config_row("NBO_CODEC", nbo_codec_name(c.codec), nbo_codec_name(def.codec),
                      "all-to-all of floating-point types: none | fp32 | zfp (lossy, opt-in)");
    NUM("NBO_CODEC_RATE", codec_rate, "%d", "zfp codec: bits per value, 1..64");
#undef NUM

    printf("# UCX engine (libnbo's UCX context reads NBO_UCX_<NAME> as UCX_<NAME>)\n");
    extra_rows(ucx_vars, sizeof(ucx_vars) / sizeof(ucx_vars[0]));
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (strncmp(*e, "NBO_UCX_", 8) == 0 && !known(*e, len))
            printf("%-21.*s %-10s %-8s %-7s %s\n", (int)len, *e, eq ? eq + 1 : "", "-", "env",
                   "a UCX setting for libnbo's context only");
    }
    if (ucx_bad) {
        printf("# INVALID: UCX rejects a UCX_* or NBO_UCX_* value (UCX names it on stderr)\n");
        bad++;
    }
    printf("# verbs engine\n");
    extra_rows(verbs_vars, sizeof(verbs_vars) / sizeof(verbs_vars[0]));
    printf("# libnbo-mpi (read by libnbo-mpi.so only)\n");
    extra_rows(pmpi_vars, sizeof(pmpi_vars) / sizeof(pmpi_vars[0]));

    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (strncmp(*e, "NBO_", 4) == 0 && strncmp(*e, "NBO_UCX_", 8) != 0 && !known(*e, len))
            printf("# set, but read by no part of libnbo: %.*s\n", (int)len, *e);
    }
    return bad;
}

/* The names of the invalid variables, on stderr. */
static void name_invalid(int ucx_bad)
{
    fprintf(stderr, "nbo_info: invalid configuration:");
    for (size_t i = 0; i < N_CONFIG_VARS; i++) {
        const char *set = getenv(config_vars[i]);
        nbo_config_t scratch;
        nbo_config_init(&scratch);
        if (set && *set && nbo_config_set(&scratch, config_vars[i], set) != NBO_SUCCESS)
            fprintf(stderr, " %s", config_vars[i]);
    }
    if (ucx_bad)
        fprintf(stderr, " (a UCX_* or NBO_UCX_* value UCX rejects)");
    fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
    int engines = 1, config = 1, opt;
    static const struct option longopts[] = {
        {"engines", no_argument, NULL, 'e'},
        {"config", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    while ((opt = getopt_long(argc, argv, "ech", longopts, NULL)) != -1) {
        if (opt == 'e')
            config = 0;
        else if (opt == 'c')
            engines = 0;
        else {
            fputs(usage, opt == 'h' ? stdout : stderr);
            return opt == 'h' ? 0 : EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(lib, &n);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = 0;
    printf("# libnbo %s\n# MPI: %s, thread level %s\n", nbo_version(), lib,
           thread_level_name(provided));
    printf("# MPI built with: %s (MPI %d.%d)\n", built_mpi(), MPI_VERSION, MPI_SUBVERSION);

    /* The environment's configuration, checked in every mode: the library
     * prints each bad value on stderr. */
    nbo_config_t env;
    nbo_config_init(&env);
    int env_ok = nbo_config_from_env(&env) == NBO_SUCCESS;

    int status = EXIT_SUCCESS, ucx_bad;
    if (engines) {
        print_build();
        ucx_bad = print_engines();
        print_cuda();
        print_codecs();
        if (print_resolution(&env, env_ok && !ucx_bad) != NBO_SUCCESS)
            status = EXIT_CREATE;
    } else
        ucx_bad = nbo_engine_available(NBO_ENGINE_UCX, NULL, 0) == NBO_ERR_CONFIG;
    if (config)
        print_config(&env, ucx_bad);
    if (!env_ok || ucx_bad) {
        name_invalid(ucx_bad);
        status = EXIT_CONFIG;
    }
    fflush(stdout);
    MPI_Finalize();
    return status;
}
