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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

pm_settings_t pm_cfg;
pthread_mutex_t pm_mutex = PTHREAD_MUTEX_INITIALIZER;
atomic_long pm_served, pm_live_comms, pm_live_ops;

static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
static atomic_int finalizing;

static int env_is(const char *name, const char *a, const char *b)
{
    const char *v = getenv(name);
    return v && (strcmp(v, a) == 0 || (b && strcmp(v, b) == 0));
}

/* NBO_PMPI_COLLS names, and what is served when it is unset. */
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
    {"all", PM_ALLTOALL | PM_ALLREDUCE | PM_REDUCE_SCATTER_BLOCK | PM_ALLGATHER | PM_ALLGATHERV |
                PM_BCAST},
    {"none", 0},
};
/* Those measured faster than or equal to MPICH's own non-blocking forms at
 * 64 KiB, 1 MiB and 4 MiB (docs/pmpi.md, "Choosing NBO_PMPI_COLLS"). */
#define PM_COLLS_DEFAULT                                                                \
    (PM_ALLTOALL | PM_ALLREDUCE | PM_REDUCE_SCATTER_BLOCK | PM_ALLGATHERV | PM_BCAST)

/* A comma-separated list of coll_names; an unknown name is said on stderr
 * (whatever NBO_PMPI_LOG says: a typo must not pass unseen) and skipped. */
static unsigned colls_parse(const char *list)
{
    unsigned bits = 0;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        size_t k = 0;
        while (k < sizeof(coll_names) / sizeof(coll_names[0]) && strcmp(t, coll_names[k].name))
            k++;
        if (k < sizeof(coll_names) / sizeof(coll_names[0]))
            bits |= coll_names[k].bits;
        else
            fprintf(stderr, "libnbo-mpi: NBO_PMPI_COLLS: unknown collective '%s' ignored "
                            "(alltoall, allreduce, reduce_scatter_block, allgather, "
                            "allgatherv, bcast, all, none)\n", t);
    }
    return bits;
}

static void settings_read(void)
{
    pm_cfg.enabled = !env_is("NBO_PMPI", "off", "0");
    pm_cfg.log = env_is("NBO_PMPI_LOG", "1", "yes");
    pm_cfg.blocking = env_is("NBO_PMPI_BLOCKING", "1", "on");
    pm_cfg.want_multiple = pm_cfg.enabled && !env_is("NBO_PROGRESS", "inline", NULL);
    const char *colls = getenv("NBO_PMPI_COLLS");
    pm_cfg.colls = colls ? colls_parse(colls) : PM_COLLS_DEFAULT;
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

/* Under NBO_PMPI_LOG, rank 0 says which collectives libnbo may serve. */
static void log_colls(void)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!pm_cfg.log || rank != 0)
        return;
    char line[160] = "";
    for (size_t k = 0; k < sizeof(coll_names) / sizeof(coll_names[0]); k++)
        if (__builtin_popcount(coll_names[k].bits) == 1 && (pm_cfg.colls & coll_names[k].bits))
            snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s",
                     *line ? "," : "", coll_names[k].name);
    pm_log("collectives libnbo may serve (NBO_PMPI_COLLS): %s", *line ? line : "none");
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
