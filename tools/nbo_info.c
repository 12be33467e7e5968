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
 * per NBO_* variable libnbo reads, in groups (nbo_config_t, each built
 * engine's, libnbo-mpi): its name, the value in effect, the default,
 * "env" when the environment sets it or "INVALID" when libnbo rejects the
 * value, and its meaning.  Other variables of an engine's prefix that are
 * set (NBO_UCX_*) are listed with it; other NBO_* variables that are set are named
 * as read by nobody.
 *
 * Exit status: 0; 1 when the environment holds an invalid NBO_* value (each
 * bad variable is named on stderr and marked INVALID: nbo_comm_create would
 * fail with NBO_ERR_CONFIG); 2 for an unknown option; 3 when the
 * configuration is valid but nbo_comm_create fails with it here (an engine
 * asked for by name that is not usable, say).
 *
 * With --json the same facts are one JSON object on stdout, written by
 * the same functions (nbo_json.h), rank 0's alone under mpiexec: "libnbo",
 * "mpi", "build", "engines", "cuda", "codecs", "resolution" (-e and the
 * default), "settings", "invalid_engines", "unread" (-c and the default)
 * and "valid".  The exit status is the same.
 *
 * The options are in `usage` below (--help); help2man turns it into the
 * nbo_info(1) man page (docs/meson.build).
 */
#include <getopt.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "nbo_engines.h" /* NBO_HAVE_CUDA, NBO_HAVE_ZFP (meson) */
#include "../libnbo/settings.h" /* the tables of every NBO_* variable */
#include "../offload/engine.h"
#include "offload/nbo_engine_list.h" /* NBO_ENGINES_LISTED (offload/meson.build) */
#include "../pmpi/pm_settings.h"
#include "nbo_json.h"

static const char usage[] =
    "Usage: nbo_info [-e | -c] [-j] | -m | -h\n"
    "\n" /* help2man: the usage alone in its paragraph makes the SYNOPSIS */
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
    "  -j, --json     the same facts as one JSON object (rank 0's alone under\n"
    "                 mpiexec): every part built, engine, codec, what auto\n"
    "                 resolves to, each variable with its value, default and\n"
    "                 validity\n"
    "  -m, --settings-md  the Markdown tables of every NBO_* variable, without\n"
    "                 MPI (--settings-md=LAYER: one layer's: libnbo, libnbo-mpi\n"
    "                 or NAME engine)\n"
    "  -h, --help     this help\n";

enum { EXIT_CONFIG = 1, EXIT_USAGE = 2, EXIT_CREATE = 3 };

/* --json: every function below writes its facts here instead of its text
 * lines (js.out NULL on the ranks that stay quiet). */
static int json;
static nbo_json_t js;


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

/* One part of the build: a text line, or a member of the "build" array. */
static void build_part(const char *name, int built, const char *what)
{
    if (!json) {
        printf("built  %-14s %-3s %s\n", name, built ? "yes" : "no", what);
        return;
    }
    nbo_json_begin(&js, NULL, '{');
    nbo_json_string(&js, "name", name);
    nbo_json_bool(&js, "built", built);
    nbo_json_string(&js, "what", what);
    nbo_json_end(&js, '}');
}

static void print_build(void)
{
    if (json)
        nbo_json_begin(&js, "build", '[');
    else
        printf("# optional parts of this build (meson options and found libraries)\n");
    static const struct {
        const char *name;
        int         built;
        const char *what;
    } parts[] = {
        {"cuda", NBO_HAVE_CUDA, "CUDA device buffers (-Dcuda)"},
        {"zfp", NBO_HAVE_ZFP, "the zfp codec of compressed all-to-alls (-Dzfp)"},
        {"libnbo-mpi", NBO_HAVE_PMPI, "MPI_Ialltoall(v) of unmodified programs, libnbo-mpi(7)"},
        {"p3dfft_overlap", NBO_HAVE_P3O,
         NBO_HAVE_P3O_CUDA ? "pencil 3-D FFT, p3dfft_overlap(3), with its GPU path"
                           : "pencil 3-D FFT, p3dfft_overlap(3)"},
    };
    /* Every engine of offload/meson.build's list, built or not. */
    static const char *const listed[] = {NBO_ENGINES_LISTED};
    for (unsigned i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
        char what[64];
        snprintf(what, sizeof(what), "the %s engine (offload/%s, -Dengines)", listed[i], listed[i]);
        build_part(listed[i], nbo_engine_find(listed[i]) != NULL, what);
    }
    for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        build_part(parts[i].name, parts[i].built, parts[i].what);
    if (json)
        nbo_json_end(&js, ']');
}

/* A usable|unusable line ("engine ucx ...", "cuda ..."), or its JSON
 * object: an array's member with its "name", or the member label (name
 * NULL). */
static void usable_line(const char *label, const char *name, int usable, const char *detail)
{
    if (!json) {
        printf("%-6s %-6s %-10s %s\n", label, name ? name : "", usable ? "usable" : "unusable",
               detail);
        return;
    }
    nbo_json_begin(&js, name ? NULL : label, '{');
    if (name)
        nbo_json_string(&js, "name", name);
    nbo_json_bool(&js, "usable", usable);
    nbo_json_string(&js, "detail", detail);
    nbo_json_end(&js, '}');
}

/* ---------------------------------------------------------------- engines */

/* The engines that reject a value of their variables or of their
 * library's (UCX_*): an invalid configuration for NBO_ENGINE=NAME. */
static char engines_bad[128];

/* Probes every built engine, in the order auto tries them, printing a line
 * for each when print; fills engines_bad.  Returns 1 when one is there. */
static int probe_engines(int print)
{
    if (print && json)
        nbo_json_begin(&js, "engines", '[');
    else if (print)
        printf("# engines (built into this libnbo, usable here?)\n");
    size_t n = 0;
    for (int i = 0; nbo_engine_at(i); i++) {
        char detail[256];
        const char *e = nbo_engine_at(i);
        int rc = nbo_engine_available(e, detail, sizeof(detail));
        if (print)
            usable_line("engine", e, rc == NBO_SUCCESS, detail);
        if (rc == NBO_ERR_CONFIG && n < sizeof(engines_bad))
            n += (size_t)snprintf(engines_bad + n, sizeof(engines_bad) - n, "%s%s", n ? ", " : "", e);
    }
    if (print && json)
        nbo_json_end(&js, ']');
    return engines_bad[0] != 0;
}

/* GPU buffers: built with CUDA?  A GPU here?  Which engines move device
 * memory themselves is per communicator (nbo_comm_query, NBO_CAP_DEVICE_MEM). */
static void print_cuda(void)
{
    char detail[256];
    int rc = nbo_cuda_available(detail, sizeof(detail));
    if (!json)
        printf("# device buffers (CUDA)\n");
    usable_line("cuda", NULL, rc == NBO_SUCCESS, detail);
}

/* Codecs of compressed all-to-alls (NBO_CODEC): built here? */
static void print_codecs(void)
{
    if (json)
        nbo_json_begin(&js, "codecs", '[');
    else
        printf("# codecs of compressed all-to-alls (NBO_CODEC, docs/compression.md)\n");
    const nbo_codec_t codecs[] = {NBO_CODEC_NONE, NBO_CODEC_FP32, NBO_CODEC_ZFP};
    for (unsigned i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
        char detail[256];
        int rc = nbo_codec_available(codecs[i], detail, sizeof(detail));
        usable_line("codec", nbo_codec_name(codecs[i]), rc == NBO_SUCCESS,
                    detail);
    }
    if (json)
        nbo_json_end(&js, ']');
}

static const struct { unsigned bit; const char *name; } cap_names[] = {
    {NBO_CAP_HW_WAITS, "hw-waits"},
    {NBO_CAP_OFFLOAD, "offload"},
    {NBO_CAP_EVENT_FD, "event-fd"},
    {NBO_CAP_DEVICE_MEM, "device-mem"},
};

static const char *caps_names(unsigned caps, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]) && n < len; i++)
        if (caps & cap_names[i].bit)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", cap_names[i].name);
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
    if (rc != NBO_SUCCESS && json) {
        nbo_json_begin(&js, label, '{');
        nbo_json_string(&js, "engine", cfg->engine);
        nbo_json_string(&js, "progress", nbo_progress_name(cfg->progress));
        nbo_json_string(&js, "error", nbo_strerror(rc));
        nbo_json_end(&js, '}');
        return rc;
    }
    if (rc != NBO_SUCCESS) {
        printf("%-10s engine %-6s progress %-7s failed: %s\n", label, cfg->engine,
               nbo_progress_name(cfg->progress), nbo_strerror(rc));
        return rc;
    }
    nbo_comm_info_t info;
    rc = nbo_comm_query(comm, &info);
    if (rc == NBO_SUCCESS && json) {
        nbo_json_begin(&js, label, '{');
        nbo_json_string(&js, "engine", info.engine);
        nbo_json_string(&js, "progress", nbo_progress_name(info.progress));
        nbo_json_begin(&js, "caps", '[');
        for (unsigned i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++)
            if (info.engine_caps & cap_names[i].bit)
                nbo_json_string(&js, NULL, cap_names[i].name);
        nbo_json_end(&js, ']');
        nbo_json_string(&js, "detail", info.engine_detail);
        nbo_json_end(&js, '}');
    } else if (rc == NBO_SUCCESS) {
        char caps[64];
        printf("%-10s engine %-6s progress %-7s caps %-16s %s\n", label,
               info.engine, nbo_progress_name(info.progress),
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
    if (json) {
        nbo_json_begin(&js, "resolution", '{');
        nbo_json_int(&js, "ranks", size);
        nbo_json_string(&js, "thread_level", thread_level_name(provided));
    } else
        printf("# what auto resolves to here: nbo_comm_create on MPI_COMM_WORLD (%d rank%s, thread level %s;\n"
               "# an application below MPI_THREAD_MULTIPLE gets progress inline)\n",
               size, size == 1 ? "" : "s", thread_level_name(provided));
    nbo_config_t a;
    nbo_config_init(&a); /* engine and progress auto */
    int rc = resolve("auto", &a);
    /* Every rank creates the same communicators, or none: under mpiexec
     * the ranks' environments may differ. */
    int want = env_ok && (strcasecmp(env->engine, "auto") != 0 || env->progress != NBO_PROGRESS_AUTO);
    int all = want, any = want;
    MPI_Allreduce(&want, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&want, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const char *why = NULL; /* the configured communicator not created */
    if (all) {
        int rc2 = resolve("configured", env);
        if (rc == NBO_SUCCESS)
            rc = rc2;
    } else if (!env_ok)
        why = "the NBO_* environment is invalid";
    else if (any)
        why = "the ranks' NBO_ENGINE and NBO_PROGRESS differ";
    if (json) {
        /* "configured": null when the environment asks for auto alone. */
        if (!all)
            nbo_json_string(&js, "configured", NULL);
        nbo_json_string(&js, "configured_not_resolved", why);
        nbo_json_end(&js, '}');
    } else if (why)
        printf("configured not resolved: %s\n", why);
    return rc;
}

/* ---------------------------------------------------------- configuration */

/* Every table of NBO_* variables: libnbo's, each built engine's,
 * libnbo-mpi's; NULL-terminated. */
static const nbo_setting_table_t *tables[16];

static void tables_collect(void)
{
    int n = 0;
    tables[n++] = &nbo_config_table;
    for (int i = 0; nbo_engines[i] && n < 14; i++)
        if (nbo_engines[i]->settings)
            tables[n++] = nbo_engines[i]->settings;
    tables[n++] = &pm_settings_table;
    tables[n] = NULL;
}

static const nbo_setting_t *known(const char *name, size_t len)
{
    for (int t = 0; tables[t]; t++)
        for (const nbo_setting_t *s = tables[t]->settings; s->name; s++)
            if (strlen(s->name) == len && strncmp(s->name, name, len) == 0)
                return s;
    return NULL;
}

/* Room for any layer's settings struct: a value is parsed into it to be
 * checked with the layer's own parser. */
static union {
    long double align;
    char        bytes[4096];
} scratch;

/* The environment's value of s: 1 when set and invalid. */
static int invalid(const nbo_setting_t *s)
{
    const char *set = getenv(s->name);
    if (!set || !*set || s->offset + s->size > sizeof(scratch.bytes))
        return 0;
    return nbo_setting_set(s, scratch.bytes, set) != NBO_SUCCESS;
}

/* One variable: a text row, or a member of its table's "variables" (value
 * and def NULL: none; set: the environment sets it; wrong: INVALID). */
static void row(const char *var, size_t var_len, const char *value, const char *def, int set,
                int wrong, const char *meaning)
{
    if (!json) {
        printf("%-21.*s %-10s %-8s %-7s %s\n", (int)var_len, var, value ? value : "-",
               def ? def : "-", wrong ? "INVALID" : set ? "env" : "", meaning);
        return;
    }
    nbo_json_begin(&js, NULL, '{');
    nbo_json_string_n(&js, "name", var, var_len);
    nbo_json_string(&js, "value", value);
    nbo_json_string(&js, "default", def);
    nbo_json_bool(&js, "set", set);
    nbo_json_bool(&js, "valid", !wrong);
    nbo_json_string(&js, "meaning", meaning);
    nbo_json_end(&js, '}');
}

extern char **environ;

/* c: the configuration the environment gives.  Returns the number of
 * invalid variables (an engine in engines_bad counts as one). */
static int print_config(const nbo_config_t *env)
{
    int bad = 0;
    if (json)
        nbo_json_begin(&js, "settings", '[');
    else
        printf("# configuration: variable, value in effect, default, env|INVALID, meaning\n");
    for (int t = 0; tables[t]; t++) {
        if (json) {
            nbo_json_begin(&js, NULL, '{');
            nbo_json_string(&js, "layer", tables[t]->layer);
            nbo_json_string(&js, "reader", tables[t]->reader);
            nbo_json_begin(&js, "variables", '[');
        } else
            printf("# %s\n", tables[t]->reader);
        for (const nbo_setting_t *s = tables[t]->settings; s->name; s++) {
            const char *set = getenv(s->name);
            char v[256];
            int wrong = invalid(s);
            bad += wrong;
            if (tables[t] == &nbo_config_table && !wrong)
                nbo_setting_format(s, env, v, sizeof(v)); /* as libnbo resolved it */
            else
                snprintf(v, sizeof(v), "%s", set && *set ? set : s->def);
            row(s->name, strlen(s->name), *v ? v : NULL, *s->def ? s->def : NULL, set && *set, wrong,
                s->doc);
        }
        /* Set variables of the engine's prefix (NBO_UCX_*) that no row names. */
        const char *pre = tables[t]->passthrough;
        size_t plen = pre ? strlen(pre) : 0;
        for (char **e = environ; pre && *e; e++) {
            const char *eq = strchr(*e, '=');
            size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
            if (strncmp(*e, pre, plen) == 0 && !known(*e, len))
                row(*e, len, eq ? eq + 1 : "", NULL, 1, 0,
                    "passed to the engine's library for libnbo's use only");
        }
        if (json) {
            nbo_json_end(&js, ']');
            nbo_json_end(&js, '}');
        }
    }
    if (json) {
        nbo_json_end(&js, ']');
        nbo_json_begin(&js, "invalid_engines", '[');
        for (const char *e = engines_bad; *e;) {
            size_t len = strcspn(e, ",");
            nbo_json_string_n(&js, NULL, e, len);
            e += len;
            e += strspn(e, ", ");
        }
        nbo_json_end(&js, ']');
        nbo_json_begin(&js, "unread", '[');
    } else if (engines_bad[0])
        printf("# INVALID: an engine rejects a value of its library's or NBO_* variables (named on "
               "stderr): %s\n", engines_bad);
    bad += engines_bad[0] != 0;
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        int passed = 0;
        for (int t = 0; tables[t]; t++)
            passed |= tables[t]->passthrough &&
                      strncmp(*e, tables[t]->passthrough, strlen(tables[t]->passthrough)) == 0;
        if (strncmp(*e, "NBO_", 4) != 0 || passed || known(*e, len))
            continue;
        if (json)
            nbo_json_string_n(&js, NULL, *e, len);
        else
            printf("# set, but read by no part of libnbo: %.*s\n", (int)len, *e);
    }
    if (json)
        nbo_json_end(&js, ']');
    return bad;
}

/* The names of the invalid variables, on stderr. */
static void name_invalid(void)
{
    fprintf(stderr, "nbo_info: invalid configuration:");
    for (int t = 0; tables[t]; t++)
        for (const nbo_setting_t *s = tables[t]->settings; s->name; s++)
            if (invalid(s))
                fprintf(stderr, " %s", s->name);
    if (engines_bad[0])
        fprintf(stderr, " (rejected by the engine%s %s)", strchr(engines_bad, ',') ? "s" : "",
                engines_bad);
    fprintf(stderr, "\n");
}

/* --settings-md[=LAYER]: the Markdown tables of docs/ (check_settings_doc.sh
 * compares them); every layer, each under a heading, or LAYER's alone. */
static int print_settings_md(const char *layer)
{
    int found = 0;
    for (int t = 0; tables[t]; t++) {
        if (layer && strcmp(layer, tables[t]->layer) != 0)
            continue;
        if (!layer)
            printf("%s### %s\n\n", found ? "\n" : "", tables[t]->layer);
        nbo_settings_print_md(tables[t]->settings, tables[t] == &nbo_config_table, stdout);
        found = 1;
    }
    if (!found)
        fprintf(stderr, "nbo_info: no settings table '%s' in this build\n", layer);
    return found ? 0 : EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int engines = 1, config = 1, opt;
    static const struct option longopts[] = {
        {"engines", no_argument, NULL, 'e'},
        {"config", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {"settings-md", optional_argument, NULL, 'm'},
        {"json", no_argument, NULL, 'j'},
        {NULL, 0, NULL, 0}};
    tables_collect();
    while ((opt = getopt_long(argc, argv, "ecjm::h", longopts, NULL)) != -1) {
        if (opt == 'm')
            return print_settings_md(optarg); /* no MPI: the build runs it */
        if (opt == 'j')
            json = 1;
        else if (opt == 'e')
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
    /* --json: the document goes to stdout alone; what the libraries print
     * there themselves (UCX's warnings) goes to stderr. */
    FILE *doc = NULL;
    if (json) {
        int fd = dup(STDOUT_FILENO);
        doc = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!doc || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            perror("nbo_info: --json");
            return EXIT_USAGE;
        }
    }
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(lib, &n);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = 0;
    if (json) {
        /* One document: rank 0's (every rank still takes part in the
         * collective communicator creation). */
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        nbo_json_init(&js, rank == 0 ? doc : NULL);
        nbo_json_begin(&js, NULL, '{');
        nbo_json_string(&js, "libnbo", nbo_version());
        nbo_json_begin(&js, "mpi", '{');
        nbo_json_string(&js, "library", lib);
        nbo_json_string(&js, "thread_level", thread_level_name(provided));
        nbo_json_string(&js, "built_with", built_mpi());
        char std[16];
        snprintf(std, sizeof(std), "%d.%d", MPI_VERSION, MPI_SUBVERSION);
        nbo_json_string(&js, "standard", std);
        nbo_json_end(&js, '}');
    } else {
        printf("# libnbo %s\n# MPI: %s, thread level %s\n", nbo_version(), lib,
               thread_level_name(provided));
        printf("# MPI built with: %s (MPI %d.%d)\n", built_mpi(), MPI_VERSION, MPI_SUBVERSION);
    }

    /* The environment's configuration, checked in every mode: the library
     * prints each bad value on stderr. */
    nbo_config_t env;
    nbo_config_init(&env);
    int env_ok = nbo_config_from_env(&env) == NBO_SUCCESS;

    int status = EXIT_SUCCESS, engine_bad;
    if (engines) {
        print_build();
        engine_bad = probe_engines(1);
        print_cuda();
        print_codecs();
        if (print_resolution(&env, env_ok && !engine_bad) != NBO_SUCCESS)
            status = EXIT_CREATE;
    } else
        engine_bad = probe_engines(0);
    if (config)
        print_config(&env);
    int tables_bad = 0; /* an engine's or libnbo-mpi's variable */
    for (int t = 0; tables[t]; t++)
        for (const nbo_setting_t *v = tables[t]->settings; v->name; v++)
            tables_bad |= invalid(v);
    if (!env_ok || engine_bad || tables_bad) {
        name_invalid();
        status = EXIT_CONFIG;
    }
    if (json) {
        nbo_json_bool(&js, "valid", status != EXIT_CONFIG);
        nbo_json_end(&js, '}');
        fclose(doc);
    }
    fflush(stdout);
    MPI_Finalize();
    return status;
}
