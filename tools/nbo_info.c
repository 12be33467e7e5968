/*
 * nbo_info - what libnbo can do on this machine, as ucx_info and fi_info do.
 *
 * Output: "# libnbo VERSION" and "# MPI: LIBRARY", then one line per engine,
 * "engine NAME usable|unusable DETAIL" (the device and transports, or why
 * not), most capable first, then one line per NBO_* variable: its name, the
 * value in effect, the default, "env" when the environment sets it, and its
 * meaning.
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

static const char usage[] =
    "usage: nbo_info [-e | -c | -h]\n"
    "What libnbo can do on this machine: its version, the MPI library, every\n"
    "engine and the configuration the NBO_* environment gives.  It calls\n"
    "MPI_Init: run it alone or under mpiexec.\n"
    "  -e, --engines  engines only: one line each, usable or not, and why\n"
    "  -c, --config   configuration only: each NBO_* variable, its value in\n"
    "                 effect, its default, whether it is set, its meaning\n"
    "  -h, --help     this help\n";

static void print_engines(void)
{
    printf("# engines (most capable first is chosen by NBO_ENGINE=auto)\n");
    const nbo_engine_kind_t kinds[] = {NBO_ENGINE_VERBS, NBO_ENGINE_UCX, NBO_ENGINE_MPI};
    for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        char detail[256];
        int rc = nbo_engine_available(kinds[i], detail, sizeof(detail));
        printf("engine %-6s %-10s %s\n", nbo_engine_name(kinds[i]),
               rc == NBO_SUCCESS ? "usable" : "unusable", detail);
    }
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

/* name, variable, how to print the current value, default, meaning */
static void row(const char *var, const char *value, const char *def, const char *meaning)
{
    const char *set = getenv(var);
    printf("%-17s %-10s %-8s %-4s %s\n", var, value, def, set && *set ? "env" : "", meaning);
}

static void print_config(void)
{
    nbo_config_t def, c;
    nbo_config_init(&def);
    nbo_config_init(&c);
    int rc = nbo_config_from_env(&c);
    printf("# configuration (variable, value in effect, default, set from env, meaning)\n");
    if (rc != NBO_SUCCESS)
        printf("# ERROR: %s; showing defaults for the bad variable\n", nbo_strerror(rc));
    char v[64], d[64];
    row("NBO_ENGINE", nbo_engine_name(c.engine), nbo_engine_name(def.engine),
        "engine: mpi | ucx | verbs | auto");
    row("NBO_PROGRESS", nbo_progress_name(c.progress), nbo_progress_name(def.progress),
        "progress: inline | thread | auto (thread when the host runs the waits)");
    row("NBO_PROGRESS_SCHED", nbo_progress_sched_name(c.progress_sched),
        nbo_progress_sched_name(def.progress_sched),
        "progress thread scheduling: batch (never preempts the application) | normal | auto (batch unless an engine is polled)");
    row("NBO_ALGORITHM", nbo_algorithm_name(c.algorithm), nbo_algorithm_name(def.algorithm),
        "all-to-all algorithm: auto | pairwise | bruck");
#define NUM(var, field, fmt, meaning)                                                      \
    snprintf(v, sizeof(v), fmt, c.field);                                                  \
    snprintf(d, sizeof(d), fmt, def.field);                                                \
    row(var, v, d, meaning)
    NUM("NBO_WINDOW", window, "%d", "sends per communication window (W)");
    NUM("NBO_BRUCK_MAX", bruck_max, "%zu", "auto uses Bruck up to this many bytes per peer");
    NUM("NBO_TIMEOUT", timeout_ms, "%d", "ms without progress before a request fails (0: never)");
    NUM("NBO_PROGRESS_CPU", progress_cpu, "%d", "core the progress thread is pinned to (-1: none)");
    NUM("NBO_SPIN_US", spin_us, "%d", "us the progress thread polls before it sleeps");
    NUM("NBO_CHECK", check, "%d", "1: compare call signatures across ranks");
    NUM("NBO_CUDA_CHUNK", cuda_chunk, "%zu", "bytes per pipeline stage when GPU buffers are staged");
#undef NUM
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
            return opt == 'h' ? 0 : 2;
        }
    }
    MPI_Init(&argc, &argv);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(lib, &n);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = 0;
    printf("# libnbo %s\n# MPI: %s\n", nbo_version(), lib);
    if (engines) {
        print_engines();
        print_cuda();
    }
    if (config)
        print_config();
    MPI_Finalize();
    return 0;
}
