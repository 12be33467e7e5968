/*
 * bench.h - nbo_bench, the overlap benchmark driver: one program, one
 * command line, one report, with an API backend per way of running a
 * collective (as UCX's perftest has one per API):
 *
 *   mpi      MPI's blocking call (MPI_Alltoall), its non-blocking one
 *            (MPI_Ialltoall) or its persistent one (MPI_Alltoall_init +
 *            MPI_Start): what an unmodified MPI program runs, so the same
 *            rows measure MPI alone, MPI with its own progress thread, and
 *            libnbo-mpi.so preloaded
 *   nbo      libnbo's API (nbo_ialltoall, nbo_alltoall_init + nbo_start),
 *            one row per engine, progress mode, window and codec
 *   sockets  the testbed's ceiling: plain TCP sockets, the exchange on a
 *            thread of its own (all-to-all only)
 *
 * A row is one method (a backend with its settings), one collective and
 * one size; the parts (-M) are OSU's phases, the work-based one and the
 * application loop, all run by bench/common/loops.c.
 */
#ifndef NBO_BENCH_H
#define NBO_BENCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "busy.h" /* now_s, cpu_s and the work (bench/common) */
#include "threads.h" /* the ceiling's exchange thread's name (bench/common) */
#include "nbo.h"

/* MPI 4.0's persistent collectives; MPI 3.1 libraries may offer them as
 * MPIX_ in an extension (Open MPI 4.1: mpi-ext.h, "pcollreq"). */
#if MPI_VERSION >= 4
#define BENCH_MPI_PERSISTENT 1
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define BENCH_MPI_PERSISTENT 1
#define MPI_Alltoall_init MPIX_Alltoall_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#define MPI_Reduce_scatter_block_init MPIX_Reduce_scatter_block_init
#define MPI_Allgather_init MPIX_Allgather_init
#define MPI_Allgatherv_init MPIX_Allgatherv_init
#define MPI_Bcast_init MPIX_Bcast_init
#define MPI_Barrier_init MPIX_Barrier_init
#define MPI_Reduce_init MPIX_Reduce_init
#define MPI_Gather_init MPIX_Gather_init
#endif
#endif
#ifndef BENCH_MPI_PERSISTENT
#define BENCH_MPI_PERSISTENT 0
#endif

#define BENCH_MAX_CONC 64   /* most concurrent collectives per operation (-k) */
#define BENCH_MAX_WINDOWS 16
#define BENCH_MAX_SIZES 64
#define BENCH_MAX_ITERS 10000000 /* what -T may ask for a very short operation */
#define BENCH_MAX_CODECS 8  /* -z entries */

/* ---------------------------------------------------------- collectives */

typedef enum {               /* what a size (-m) means                        */
    COLL_ALLTOALL,           /* bytes per peer, MPI_CHAR (-z: MPI_DOUBLE)     */
    COLL_ALLREDUCE,          /* the vector's bytes, MPI_FLOAT, MPI_SUM        */
    COLL_REDUCE_SCATTER_BLOCK, /* the whole vector's bytes, P blocks          */
    COLL_ALLGATHER,          /* each rank's block, MPI_CHAR                   */
    COLL_ALLGATHERV,         /* each rank's block (equal counts)              */
    COLL_BCAST,              /* the message from root 0, MPI_CHAR             */
    COLL_BARRIER,            /* no data: one row, size 0                      */
    COLL_REDUCE,             /* the vector's bytes, MPI_FLOAT, MPI_SUM, to root 0 */
    COLL_GATHER,             /* each rank's block to root 0, MPI_CHAR         */
    COLL_N
} coll_t;

typedef enum { FORM_BLOCKING, FORM_NONBLOCKING, FORM_PERSISTENT } coll_form_t;

/* "allreduce"; MPI's name of a form ("MPI_Allreduce", "MPI_Iallreduce",
 * "MPI_Allreduce_init"). */
const char *coll_name(coll_t c);
const char *coll_mpi_name(coll_t c, coll_form_t form);
int coll_parse(const char *word, coll_t *c);
/* A comma list of names, or "all": how many went into out (up to COLL_N),
 * or -1 for an unknown name. */
int coll_parse_list(const char *list, coll_t out[COLL_N]);
/* The largest whole number of elements not above size (one element per
 * rank's block for reduce_scatter_block; 0: none fits, and always for the
 * barrier, which moves no data). */
size_t coll_fit_size(coll_t c, size_t size, int nprocs, int doubles);

/* One collective of one size: the inputs and outputs of `conc`
 * operations that run at once. */
typedef struct coll_op {
    coll_t coll;
    MPI_Comm comm;
    int rank, nprocs;
    size_t size;
    int conc;
    int doubles;              /* -z: the all-to-all moves MPI_DOUBLE      */
    char *send, *recv;        /* conc blocks of send_bytes / recv_bytes    */
    size_t send_bytes, recv_bytes;
    int count;                /* the count argument of the calls           */
    MPI_Datatype type;
    int *counts, *displs;     /* allgatherv                                */
} coll_op_t;

/* MPI_SUCCESS or MPI_ERR_NO_MEM; coll_op_fill gives the inputs. */
int coll_op_setup(coll_op_t *op, coll_t c, size_t size, int conc, int doubles, MPI_Comm comm);
void coll_op_free(coll_op_t *op);
/* Operation i's inputs (outputs cleared); after it, how many elements,
 * blocks or vectors are wrong (tol: a codec's bound on the all-to-all of
 * doubles, relative to each block's max-norm; 0 exact). */
void coll_op_fill(coll_op_t *op);
long coll_op_verify(const coll_op_t *op, double tol);
/* Operation i as MPI calls it (req: the non-blocking or persistent form's
 * request) and as libnbo does (persistent: nbo_<coll>_init). */
int coll_op_mpi(coll_op_t *op, int i, coll_form_t form, MPI_Request *req);
int coll_op_nbo(coll_op_t *op, int i, int persistent, nbo_comm_t comm, nbo_request_t *req);
/* What a codec's received doubles may differ from those sent (-z). */
double coll_tolerance(nbo_codec_t codec, int rate);

/* ------------------------------------------------------------- options */

enum { PART_OSU = 1, PART_WORK = 2, PART_APP = 4 };

typedef struct options {
    coll_t colls[COLL_N];       /* -c                                     */
    int ncolls;
    size_t sizes[BENCH_MAX_SIZES]; /* -m                                  */
    int nsizes;
    size_t max_size;
    int parts;                  /* -M: PART_*                             */
    int iters_small, iters_large; /* timed iterations (-O: OSU's 1000 / 100) */
    int skip_small, skip_large;   /* warm-up iterations (-O: 200 / 10)    */
    size_t large_size;          /* above it the "large" counts apply      */
    int tests;                  /* -t: test calls spread over the compute */
    int concurrency;            /* -k: concurrent collectives per operation */
    int windows[BENCH_MAX_WINDOWS]; /* -W: window sweep (nbo rows)        */
    int nwindows;
    int persistent;             /* -p: MPI's and libnbo's persistent forms */
    /* -a: the methods */
    int blocking, nonblocking;  /* the mpi backend's rows                 */
    int nbo, sockets;
    const char *only_engine;    /* -e: nbo engines ("mpi,ucx")            */
    const char *only_progress;  /* -P: "inline,thread"                    */
    const char *csv_path;       /* -o: CSV file (rank 0)                  */
    const char *label;          /* -L: this configuration's name          */
    const char *ref_path;       /* -R: the application loop's compute from this CSV */
    int verdict;                /* print verdict lines                    */
    double budget_s;            /* -b: seconds per method and size (0: none) */
    double min_time_s;          /* -T: least measured seconds per phase and block */
    int own_barrier;            /* -B own (default) | mpi                 */
    int app_n, app_blocks;      /* -n, -r: the application loop          */
    nbo_codec_t codecs[BENCH_MAX_CODECS]; /* -z: one nbo row each          */
    int codec_rates[BENCH_MAX_CODECS];
    int ncodecs;
} options_t;

/* 0: run; 1: help printed; -1: bad options (printed by rank 0). */
int options_parse(int argc, char **argv, options_t *o, int rank);
/* The iteration counts of one size, from the one operation `probe`
 * seconds long: at least -T seconds of measured operations per phase, then
 * fewer if the -b budget needs it. */
void options_fit(const options_t *o, size_t size, double probe, int *iters, int *skip);
/* Is word in the comma list (a NULL list holds everything)? */
int options_wants(const char *list, const char *word);

/* -------------------------------------------------------------- methods */

typedef struct method method_t;
typedef struct socket_mesh socket_mesh_t;
typedef struct socket_worker socket_worker_t;

/* One API backend: how a method opens, runs operations of a coll_op_t and
 * synchronizes its ranks.  Each returns 0 or its API's error code. */
typedef struct backend {
    const char *api;                           /* "mpi", "nbo", "sockets" */
    int (*open)(method_t *m, char *why, size_t whylen); /* collective     */
    void (*close)(method_t *m);
    int (*prepare)(method_t *m, coll_op_t *op);  /* per size (persistent requests) */
    void (*unprepare)(method_t *m, coll_op_t *op);
    int (*start)(method_t *m, coll_op_t *op);   /* conc collectives        */
    int (*test)(method_t *m, coll_op_t *op, int *done);
    int (*wait)(method_t *m, coll_op_t *op);
    int (*once)(method_t *m, coll_op_t *op);    /* pure phase (NULL: start + wait) */
    int (*blocking)(method_t *m, coll_op_t *op); /* the application loop's blocking form */
    int (*sync)(method_t *m);                   /* the barrier before each iteration */
} backend_t;

extern const backend_t bench_backend_mpi, bench_backend_nbo, bench_backend_sockets;
/* MPI's blocking call on each of the method's operations: the mpi
 * backend's, and the application loop's blocking form of the nbo rows. */
int backend_mpi_blocking(method_t *m, coll_op_t *op);

struct method {
    const backend_t *be;
    char name[64];             /* no spaces, no commas: used in CSV/plots */
    MPI_Comm world;
    int conc;
    coll_form_t form;          /* mpi: blocking, non-blocking or persistent */
    int persistent;            /* nbo                                     */
    int own_barrier;
    nbo_config_t config;       /* nbo                                     */
    nbo_comm_t comm;
    nbo_request_t barrier;     /* nbo: a 1-byte persistent all-to-all     */
    char *barrier_buf;
    MPI_Request mreq[BENCH_MAX_CONC];
    nbo_request_t nreq[BENCH_MAX_CONC];
    socket_mesh_t *mesh;       /* sockets                                 */
    socket_worker_t *worker;
};

/* ------------------------------------------------------ sockets (ceiling) */

/* Collective: TCP sockets between every pair of ranks, addresses exchanged
 * over MPI.  NULL (on every rank) when it could not be built. */
socket_mesh_t *socket_mesh_open(MPI_Comm comm, char *why, size_t whylen);
void socket_mesh_close(socket_mesh_t *s);
/* All-to-all of n bytes per peer through blocking waits (poll). */
int socket_mesh_alltoall(socket_mesh_t *s, const char *send, char *recv, size_t n);
/* A barrier on the same sockets: a 1-byte exchange.  Not while a
 * socket_worker runs an exchange. */
int socket_mesh_barrier(socket_mesh_t *s);
/* The same exchange on a thread of its own: post starts one exchange of
 * op, wait blocks until it is over (0 or -1). */
socket_worker_t *socket_worker_start(socket_mesh_t *s);
void socket_worker_post(socket_worker_t *w, const coll_op_t *op);
int  socket_worker_wait(socket_worker_t *w);
void socket_worker_stop(socket_worker_t *w);

/* -------------------------------------------------------------- results */

typedef struct result {
    char method[64];
    char engine[16], progress[16];
    coll_t coll;
    int window, conc, persistent, nprocs;
    size_t size;
    int iters;
    double overall, compute, init, test, wait, pure; /* us, rank averages */
    double overlap;            /* OSU formula, %                          */
    double work_overall, compute_alone, work_overlap; /* us, us, %        */
    double cpu_pure, cpu_work; /* process CPU us per operation            */
    /* Work phase, CPU us per operation: the library's own (its progress
     * thread, and the caller inside start/test/wait), and every other
     * thread but the caller (a provider's or MPI's threads). */
    double cpu_lib, cpu_prov;
    double alone_vs_idle;      /* compute alone / the same work on an idle
                                  core before MPI_Init (1: nothing else ran) */
    double start_preempt;      /* times the caller was preempted per start
                                  call (OSU phase)                        */
    int has_osu, has_work, has_app; /* which parts ran                    */
    /* the application loop, us per iteration, medians */
    int app_n, app_blocks, app_ref;
    double app_comp, app_exch, app_block, app_ovl;
    double hidden, nb_vs_blocking, comp_vs_idle;
    long served;               /* calls libnbo-mpi served (-1: not loaded) */
    long errors;
} result_t;

/* alone_vs_idle above this is worth a note in the verdict. */
#define ALONE_SLOW 1.2

void report_header(FILE *out, const result_t *r, const char *detail, int parts);
void report_row(FILE *out, const result_t *r, int parts);
/* The application-loop table of one method and collective's rows. */
void report_app(FILE *out, const result_t *rows, int n, const char *blocking,
                const char *ref_path);
void report_csv_header(FILE *csv);
void report_csv_row(FILE *csv, const result_t *r, const char *label);
/* One line per collective and size: the best nbo row against MPI's.
 * inline_rows: count nbo rows progressed inline (only with -t calls). */
void report_verdicts(FILE *out, const result_t *rows, int nrows, int inline_rows);

#endif
