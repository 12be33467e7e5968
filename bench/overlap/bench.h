/*
 * bench.h - shared types of the overlap benchmark (nbo_overlap).
 *
 * One "method" is one way of doing an all-to-all: MPI_Alltoall, MPICH's
 * MPI_Ialltoall, or libnbo with one engine and progress mode.  For each
 * method and message size the benchmark fills one result row.
 */
#ifndef NBO_BENCH_H
#define NBO_BENCH_H

#include <mpi.h>
#include <stddef.h>

#include "nbo.h"

#define BENCH_MAX_CONC 64   /* most concurrent all-to-alls (-c) */
#define BENCH_MAX_WINDOWS 16
#define BENCH_MAX_SIZES 64
#define BENCH_MAX_ITERS 10000000 /* what -T may ask for a very short operation */

/* ------------------------------------------------------------- options */

typedef struct options {
    size_t min_size, max_size;  /* bytes per peer, powers of two between */
    size_t sizes[BENCH_MAX_SIZES];           /* the sizes to run, from -m or -S      */
    int nsizes;
    int iters_small, iters_large; /* timed iterations (OSU: 1000 / 100)  */
    int skip_small, skip_large;   /* warm-up iterations (OSU: 200 / 10)  */
    size_t large_size;          /* above it the "large" counts apply     */
    int tests;                  /* -t: test calls spread over the compute */
    int concurrency;            /* -c: concurrent all-to-alls per op     */
    int windows[BENCH_MAX_WINDOWS]; /* -W: window sweep (nbo only)       */
    int nwindows;
    int persistent;             /* -p: nbo_alltoall_init + nbo_start     */
    int ceiling;                /* socket ceiling row (default on)       */
    int blocking;               /* MPI_Alltoall row (default on)         */
    int mpi_nb;                 /* MPI_Ialltoall row (default on)        */
    int nbo;                    /* nbo rows (default on)                 */
    const char *only_engine;    /* -e: restrict nbo engines ("mpi,ucx")  */
    const char *only_progress;  /* -m-like filter: "inline,thread"       */
    const char *csv_path;       /* -o: CSV file (rank 0)                 */
    const char *label;          /* -L: prefix for MPI method names       */
    int verdict;                /* print verdict lines                   */
    int check;                  /* verify the data once per method/size  */
    double budget_s;            /* -b: seconds per method and size (0: none) */
    double min_time_s;          /* -T: least measured seconds per phase  */
    int own_barrier;            /* -B own (default): each method's barrier
                                   travels on its own connections; -B mpi:
                                   MPI_Barrier for every method, as OSU  */
} options_t;

int options_parse(int argc, char **argv, options_t *o, int rank);
int options_iters(const options_t *o, size_t size);
int options_skip(const options_t *o, size_t size);
/* The iteration counts of one method and size, from the one operation
 * `probe` seconds long: at least -T seconds of measured operations per
 * phase, then fewer if the -b budget needs it. */
void options_fit(const options_t *o, size_t size, double probe, int *iters, int *skip);
/* Is word in the comma list (a NULL list holds everything)? */
int options_wants(const char *list, const char *word);

/* ------------------------------------------------------------- methods */

typedef enum {
    METHOD_BLOCKING,   /* MPI_Alltoall: all communication in "Init"      */
    METHOD_MPI_NB,     /* MPI_Ialltoall                                  */
    METHOD_NBO         /* nbo_ialltoall / persistent nbo requests        */
} method_kind_t;

typedef struct method {
    method_kind_t kind;
    char name[64];             /* no spaces, no commas: used in CSV/plots */
    nbo_config_t config;       /* METHOD_NBO                              */
    nbo_comm_t comm;           /* open between method_open and _close     */
    int persistent;
    int conc;
    /* The barrier between iterations: a persistent 1-byte nbo all-to-all on
     * comm (own_barrier), else MPI_Barrier. */
    int own_barrier;
    nbo_request_t barrier;
    char *barrier_buf;         /* P send bytes, then P receive bytes      */
    /* per size: requests, persistent ones bound to the buffers */
    MPI_Request mreq[BENCH_MAX_CONC];
    nbo_request_t nreq[BENCH_MAX_CONC];
} method_t;

typedef struct buffers {
    char *send, *recv;         /* conc * P * size bytes each              */
    size_t size;
    int nprocs;
} buffers_t;

/* Opens the method on comm (nbo: nbo_comm_create).  Collective.  Returns 0,
 * or an NBO_ERR_* code and a reason in why (same on all ranks). */
int  method_open(method_t *m, MPI_Comm comm, char *why, size_t whylen);
void method_close(method_t *m);
/* Per size: bind persistent requests (no-op otherwise). */
int  method_prepare(method_t *m, buffers_t *b, MPI_Comm comm);
void method_unprepare(method_t *m);
/* One operation = conc all-to-alls. */
int  method_start(method_t *m, buffers_t *b, MPI_Comm comm);
int  method_test(method_t *m, int *done);
int  method_wait(method_t *m);
/* The barrier between iterations, on the method's own connections: MPI's
 * for the MPI rows, the nbo communicator's for nbo rows (-B own). */
int  method_barrier(method_t *m, MPI_Comm comm);

/* ------------------------------------------------------------- compute */

double now_s(void);             /* monotonic seconds, also before MPI_Init */
double cpu_s(void);             /* process CPU time, all threads */
/* Busy compute until `seconds` of wall time have passed (OSU's dummy
 * compute), with `tests` method_test calls spread over it.  Returns the time
 * spent in the test calls. */
double compute_for_time(double seconds, method_t *m, int tests);
/* A fixed amount of work, independent of time (units calibrated below),
 * with `tests` method_test calls spread over it.  Returns test time. */
double compute_work(double units, method_t *m, int tests);
/* Work units per second on this core, measured alone. */
double compute_calibrate(void);

/* ------------------------------------------------------------- ceiling */

typedef struct socket_mesh socket_mesh_t;
/* Collective: TCP sockets between every pair of ranks, addresses exchanged
 * over MPI.  NULL (on every rank) when it could not be built. */
socket_mesh_t *socket_mesh_open(MPI_Comm comm, char *why, size_t whylen);
void socket_mesh_close(socket_mesh_t *s);
/* Exchange b->size bytes with every peer through blocking waits (poll). */
int socket_mesh_alltoall(socket_mesh_t *s, buffers_t *b);
/* A barrier on the same sockets: a 1-byte exchange.  Not while a
 * socket_worker runs an exchange. */
int socket_mesh_barrier(socket_mesh_t *s);
/* The same exchange on a thread of its own (the work-based ceiling):
 * post starts one exchange of b, wait blocks until it is over (0 or -1). */
typedef struct socket_worker socket_worker_t;
socket_worker_t *socket_worker_start(socket_mesh_t *s, buffers_t *b);
void socket_worker_post(socket_worker_t *w);
int  socket_worker_wait(socket_worker_t *w);
void socket_worker_stop(socket_worker_t *w);

/* -------------------------------------------------------------- results */

typedef struct result {
    char method[64];
    char engine[16], progress[16];
    int window, conc;
    size_t size;
    int iters;
    double overall, compute, init, test, wait, pure; /* us, rank averages */
    double overlap;            /* OSU formula, %                          */
    double work_overall, compute_alone, work_overlap; /* us, us, %        */
    double cpu_pure, cpu_work; /* process CPU us per operation            */
    double alone_vs_idle;      /* compute alone / the same work on an idle
                                  core before MPI_Init (1: nothing else ran) */
    double start_preempt;      /* times the caller was preempted per start
                                  call (OSU phase)                        */
    int has_overlap;           /* 0 for MPI_Alltoall: only latency        */
    int errors;
} result_t;

/* alone_vs_idle above this is worth a note in the verdict. */
#define ALONE_SLOW 1.2

void report_header(FILE *out, const char *method, const char *detail);
void report_row(FILE *out, const result_t *r);
void report_csv_header(FILE *csv);
void report_csv_row(FILE *csv, const result_t *r);
/* inline_rows: consider nbo rows progressed inline (only with -t calls). */
void report_verdicts(FILE *out, const result_t *rows, int nrows, int inline_rows);

#endif
