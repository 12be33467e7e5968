/*
 * pm_state.c - settings, MPI_Init / MPI_Init_thread / MPI_Finalize, the log.
 *
 * MPI_Init*: libnbo's progress thread makes MPI calls of its own, so it
 * needs MPI_THREAD_MULTIPLE.  Unless NBO_PROGRESS=inline we ask MPI for it
 * (an application that asked for less gets what MPI provides, which the
 * standard allows).  Where MPI gives less, libnbo progresses inline: its
 * AUTO mode picks inline by itself and pm_comm.c retries an explicit
 * NBO_PROGRESS=thread as inline, saying so in the log.
 *
 * MPI_Finalize: libnbo's state is released before MPI's, because freeing
 * an nbo communicator is collective and must not run from inside
 * PMPI_Finalize (attribute callbacks on MPI_COMM_WORLD/SELF).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_settings.h"
#include "pmpi.h"

pm_settings_t pm_cfg;
pthread_mutex_t pm_mutex = PTHREAD_MUTEX_INITIALIZER;
atomic_long pm_served, pm_live_comms, pm_live_ops;

static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
static atomic_int finalizing;

static int is(const char *v, const char *a, const char *b)
{
    return strcmp(v, a) == 0 || (b && strcmp(v, b) == 0);
}

/* NBO_PMPI_COLLS names (NBO_PMPI_MIN_SIZE's too). */
static const struct {
    const char *name;
    unsigned bits;
} coll_names[] = {
    {"alltoall", PM_ALLTOALL},
    {"allreduce", PM_ALLREDUCE},
    {"reduce_scatter_block", PM_REDUCE_SCATTER_BLOCK},
    {"allgather", PM_ALLGATHER},
    {"allgatherv", PM_ALLGATHERV},
    {"bcast", PM_BCAST},
    {"neighbor", PM_NEIGHBOR},
    {"barrier", PM_BARRIER},
    {"reduce", PM_REDUCE},
    {"gather", PM_GATHER},
    {"scatter", PM_SCATTER},
    {"scan", PM_SCAN},
    {"reduce_scatter", PM_REDUCE_SCATTER},
    {"alltoallw", PM_ALLTOALLW},
    {"all", PM_ALL_COLLS},
    {"none", 0},
};
#define N_COLL_NAMES (sizeof(coll_names) / sizeof(coll_names[0]))

/* The bits of NBO_PMPI_COLLS name `name`; 0 with *found unset if none. */
static unsigned coll_bits(const char *name, int *found)
{
    for (size_t k = 0; k < N_COLL_NAMES; k++)
        if (strcmp(name, coll_names[k].name) == 0) {
            *found = 1;
            return coll_names[k].bits;
        }
    *found = 0;
    return 0;
}

const char *pm_coll_name(pm_coll_t coll)
{
    for (size_t k = 0; k < N_COLL_NAMES; k++)
        if (coll_names[k].bits == (unsigned)coll)
            return coll_names[k].name;
    return "?";
}

/* A comma-separated list of coll_names; an unknown name is said on stderr
 * (whatever NBO_PMPI_LOG says: a typo must not pass unseen) and skipped. */
static unsigned colls_parse(const char *list)
{
    unsigned bits = 0;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        int found = 0;
        bits |= coll_bits(t, &found);
        if (!found)
            fprintf(stderr, "libnbo-mpi: NBO_PMPI_COLLS: unknown collective '%s' ignored "
                            "(alltoall, allreduce, reduce_scatter_block, allgather, "
                            "allgatherv, bcast, neighbor, barrier, reduce, gather, scatter, "
                            "scan, reduce_scatter, all, none)\n", t);
    }
    return bits;
}

/* "64K", "1M", "0" (K, M, G: powers of 1024): bytes; -1 if not a size. */
static long long size_parse(const char *s)
{
    if (*s < '0' || *s > '9')
        return -1; /* no sign, no blank */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    }
    if (errno || *end || v > (unsigned long long)(LLONG_MAX >> shift))
        return -1;
    return (long long)(v << shift);
}

const char *pm_size_str(long long bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"", "K", "M", "G"};
    int u = 0;
    while (u < 3 && bytes >= 1024 && bytes % 1024 == 0)
        bytes /= 1024, u++;
    snprintf(buf, len, "%lld%s", bytes, unit[u]);
    return buf;
}

/* One name=bytes entry of NBO_PMPI_MIN_SIZE into min[]; 0 if it is not one. */
static int min_entry(char *entry, long long min[PM_NCOLLS])
{
    char *eq = strchr(entry, '=');
    if (!eq)
        return 0;
    *eq = '\0';
    int found = 0;
    unsigned bits = coll_bits(entry, &found);
    *eq = '=';
    long long bytes = size_parse(eq + 1);
    if (!bits || bytes < 0)
        return 0;
    for (int k = 0; k < PM_NCOLLS; k++)
        if (bits & (1u << k))
            min[k] = bytes;
    return 1;
}

/* Entries left to right, a later one overriding; a bad one is said on
 * stderr and skipped, as NBO_PMPI_COLLS's unknown names are. */
static void min_parse(const char *list, long long min[PM_NCOLLS])
{
    char *buf = strdup(list);
    if (!buf)
        return;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
        if (!min_entry(t, min))
            fprintf(stderr, "libnbo-mpi: NBO_PMPI_MIN_SIZE: bad entry '%s' ignored "
                            "(NAME=BYTES, K/M/G suffixes; NAME: alltoall, allreduce, "
                            "reduce_scatter_block, allgather, allgatherv, bcast, neighbor, "
                            "barrier, reduce, gather, scatter, scan, reduce_scatter, all)\n", t);
    free(buf);
}

static void settings_read(void)
{
    pm_env_t e;
    pm_env_read(&e);
    pm_cfg.enabled = !is(e.pmpi, "off", "0");
    pm_cfg.log = is(e.log, "1", "yes");
    pm_cfg.blocking = is(e.blocking, "1", "on");
    const char *progress = getenv("NBO_PROGRESS"); /* libnbo's own variable */
    pm_cfg.want_multiple = pm_cfg.enabled && !(progress && is(progress, "inline", NULL));
    pm_cfg.colls = colls_parse(e.colls);
    /* Each collective the variable leaves out keeps its default size. */
    min_parse(nbo_setting_find(pm_settings_table.settings, "NBO_PMPI_MIN_SIZE")->def, pm_cfg.min_size);
    min_parse(e.min_size, pm_cfg.min_size);
}

void pm_settings_load(void) { pthread_once(&settings_once, settings_read); }

int pm_active(void)
{
    pm_settings_load();
    if (!pm_cfg.enabled || atomic_load(&finalizing))
        return 0;
    int init = 0, fin = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    return init && !fin;
}

void pm_log(const char *fmt, ...)
{
    if (!pm_cfg.log)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "libnbo-mpi: %s\n", line);
    fflush(stderr);
}

int pm_error(MPI_Comm comm, int nbo_err)
{
    int code = pm_errcode(nbo_err);
    pm_log("libnbo failed: %s", nbo_strerror(nbo_err));
    if (comm != MPI_COMM_NULL)
        PMPI_Comm_call_errhandler(comm, code);
    return code;
}

/* Under NBO_PMPI_LOG, rank 0 says which collectives libnbo may serve, and
 * from what size. */
static void log_colls(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!pm_cfg.log || rank != 0)
        return;
    char line[160] = "", sizes[256] = "", num[32];
    for (size_t k = 0; k < N_COLL_NAMES; k++) {
        unsigned bit = coll_names[k].bits;
        if (__builtin_popcount(bit) != 1)
            continue; /* all, none */
        const char *name = coll_names[k].name;
        if (pm_cfg.colls & bit)
            snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s",
                     *line ? "," : "", name);
        if (bit == PM_NEIGHBOR || bit == PM_BARRIER)
            continue; /* no size rule (pm_neighbor.c, pm_rooted.c) */
        snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes), "%s%s=%s",
                 *sizes ? "," : "", name,
                 pm_size_str(pm_cfg.min_size[pm_coll_index(bit)], num, sizeof(num)));
    }
    pm_log("collectives libnbo may serve (NBO_PMPI_COLLS): %s", *line ? line : "none");
    pm_log("sizes below which MPI serves them (NBO_PMPI_MIN_SIZE): %s", sizes);
}

static void after_init(int provided)
{
    if (pm_cfg.enabled) {
        pm_errors_init();
        log_colls();
    }
    if (pm_cfg.want_multiple && provided < MPI_THREAD_MULTIPLE)
        pm_log("MPI provides thread level %d, not MPI_THREAD_MULTIPLE: "
               "libnbo progresses inline (inside MPI calls)", provided);
}

PM_EXPORT int MPI_Init(int *argc, char ***argv)
{
    pm_settings_load();
    if (!pm_cfg.want_multiple) {
        int rc = PMPI_Init(argc, argv);
        if (rc == MPI_SUCCESS)
            after_init(MPI_THREAD_SINGLE);
        return rc;
    }
    int provided = MPI_THREAD_SINGLE;
    int rc = PMPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    if (rc == MPI_SUCCESS)
        after_init(provided);
    return rc;
}

PM_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    pm_settings_load();
    int ask = pm_cfg.want_multiple && required < MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
                                                                     : required;
    int rc = PMPI_Init_thread(argc, argv, ask, provided);
    if (rc == MPI_SUCCESS)
        after_init(*provided);
    return rc;
}

PM_EXPORT int MPI_Finalize(void)
{
    if (pm_active()) {
        pm_pop_destroy_all();
        pm_comm_release_all();
        pm_failed_clear();
        atomic_store(&finalizing, 1);
    }
    return PMPI_Finalize();
}

/* For tests and tools: dlsym(RTLD_DEFAULT, "nbo_pmpi_stats") tells an MPI
 * program whether it runs under the library and what it did. */
PM_EXPORT int nbo_pmpi_stats(long *served, long *live_comms, long *live_ops)
{
    pm_settings_load();
    if (served)
        *served = atomic_load(&pm_served);
    if (live_comms)
        *live_comms = atomic_load(&pm_live_comms);
    if (live_ops)
        *live_ops = atomic_load(&pm_live_ops);
    return pm_cfg.enabled;
}
