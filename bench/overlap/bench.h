/*
 * bench.h - shared types of the overlap benchmark (nbo_overlap).
 *
 * One "method" is one way of doing the collective that -C names (all-to-all
 * by default): MPI's blocking call (MPI_Alltoall), MPI's non-blocking one
 * (MPI_Ialltoall), or libnbo's with one engine and progress mode.  For each
 * method and message size the benchmark fills one result row.
 */
#ifndef NBO_BENCH_H
#define NBO_BENCH_H

#include <mpi.h>
#include <stddef.h>

#include "busy.h" /* now_s, cpu_s and the work (bench/common) */
#include "threads.h" /* the ceiling's exchange thread's name (bench/common) */
#include "nbo.h"

#define BENCH_MAX_CONC 64   /* most concurrent all-to-alls (-c) */
#define BENCH_MAX_WINDOWS 16
#define BENCH_MAX_SIZES 64
#define BENCH_MAX_ITERS 10000000 /* what -T may ask for a very short operation */
#define BENCH_MAX_CODECS 8  /* -z entries */

/* ------------------------------------------------------------- options */

typedef enum {             /* -C: the collective every method row runs   */
    COLL_ALLTOALL,         /* -S: bytes per peer                         */
    COLL_ALLREDUCE,        /* -S: the vector's bytes, MPI_DOUBLE, MPI_SUM */
    COLL_ALLGATHER,        /* -S: the block per rank                     */
    COLL_BCAST,            /* -S: the message, root 0                    */
    COLL_N
} coll_t;

typedef struct options {
    coll_t coll;                /* -C                                    */
    size_t min_size, max_size;  /* -S/-m unit (coll_t), powers of two between */
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
    int ceiling;                /* socket ceiling row (default on; all-to-all only) */
    int blocking;               /* MPI's blocking row (default on)       */
    int mpi_nb;                 /* MPI's non-blocking row (default on)   */
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
    /* -z: codecs of the nbo rows (docs/compression.md), one row each; with
     * -z every row's all-to-all moves MPI_DOUBLE (sizes multiples of 8). */
    nbo_codec_t codecs[BENCH_MAX_CODECS];
    int codec_rates[BENCH_MAX_CODECS];
    int ncodecs;
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
/* "alltoall", "allreduce", "allgather", "bcast". */
const char *coll_name(coll_t c);

/* ------------------------------------------------------------- methods */

typedef enum {
    METHOD_BLOCKING,   /* MPI_Alltoall...: all communication in "Init"   */
    METHOD_MPI_NB,     /* MPI_Ialltoall...                               */
    METHOD_NBO         /* nbo_ialltoall... / persistent nbo requests     */
} method_kind_t;

typedef struct method {
    method_kind_t kind;
    coll_t coll;
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
    char *send, *recv;         /* conc * P * size bytes each: operation i
                                  uses the P * size bytes from i * P * size */
    size_t size;
    int nprocs;
} buffers_t;

/* ---------------------------------------------------------- collectives */

/* -z: the all-to-all moves MPI_DOUBLE (smooth data) instead of MPI_BYTE. */
void coll_set_doubles(int on);
/* What a method's received doubles may differ from those sent, relative
 * to each block's max-norm: 0 (exact), the codec's bound, or the measured
 * envelope of docs/compression.md for zfp. */
double coll_tolerance(nbo_codec_t codec, int rate);

/* "MPI_Allreduce", or "MPI_Iallreduce" when nonblocking. */
const char *coll_mpi_name(coll_t c, int nonblocking);
/* Operation i's part of base (b->send or b->recv). */
char *coll_block(const buffers_t *b, char *base, int i);
/* One collective of size (-S units) from s into r (bcast: r at root 0 and
 * everywhere else): MPI's blocking call when req is NULL, else its
 * non-blocking one. */
int coll_mpi(coll_t c, char *s, char *r, size_t size, MPI_Comm comm, MPI_Request *req);
/* libnbo's: nbo_i<coll>, or the persistent nbo_<coll>_init. */
int coll_nbo(coll_t c, char *s, char *r, size_t size, nbo_comm_t comm, int persistent,
             nbo_request_t *req);
/* Fill conc operations' inputs (outputs zeroed); after one operation,
 * count the outputs that are wrong (per all-to-all or allgather block, per
 * allreduce vector, per broadcast message). */
void coll_fill(coll_t coll, buffers_t *b, int conc, int rank);
/* tol: coll_tolerance() of the method (the all-to-all of doubles only). */
int coll_verify(coll_t coll, const buffers_t *b, int conc, int rank, double tol);

/* Opens the method on comm (nbo: nbo_comm_create).  Collective.  Returns 0,
 * or an NBO_ERR_* code and a reason in why (same on all ranks). */
int  method_open(method_t *m, MPI_Comm comm, char *why, size_t whylen);
void method_close(method_t *m);
/* Per size: bind persistent requests (no-op otherwise). */
int  method_prepare(method_t *m, buffers_t *b, MPI_Comm comm);
void method_unprepare(method_t *m);
/* One operation = conc collectives. */
int  method_start(method_t *m, buffers_t *b, MPI_Comm comm);
int  method_test(method_t *m, int *done);
int  method_wait(method_t *m);
/* The barrier between iterations, on the method's own connections: MPI's
 * for the MPI rows, the nbo communicator's for nbo rows (-B own). */
int  method_barrier(method_t *m, MPI_Comm comm);

/* ------------------------------------------------------------- ceiling */

typedef struct socket_mesh socket_mesh_t;
/* Collective: TCP sockets between every pair of ranks, addresses exchanged
 * over MPI.  NULL (on every rank) when it could not be built. */
socket_mesh_t *socket_mesh_open(MPI_Comm comm, char *why, size_t whylen);
void socket_mesh_close(socket_mesh_t *s);
/* All-to-all of b->size bytes per peer through blocking waits (poll). */
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
    /* Work phase, CPU us per operation: the library's own (its progress
     * thread, and the caller inside start/test/wait), and every other
     * thread but the caller (a provider's or MPI's threads). */
    double cpu_lib, cpu_prov;
    double alone_vs_idle;      /* compute alone / the same work on an idle
                                  core before MPI_Init (1: nothing else ran) */
    double start_preempt;      /* times the caller was preempted per start
                                  call (OSU phase)                        */
    int has_overlap;           /* 0 for MPI's blocking row: only latency  */
    int errors;
} result_t;

/* alone_vs_idle above this is worth a note in the verdict. */
#define ALONE_SLOW 1.2

void report_header(FILE *out, const char *method, const char *detail);
void report_row(FILE *out, const result_t *r);
void report_csv_header(FILE *csv);
void report_csv_row(FILE *csv, const result_t *r);
/* inline_rows: consider nbo rows progressed inline (only with -t calls).
 * blocking, nonblocking: the names of MPI's rows to compare against. */
void report_verdicts(FILE *out, const result_t *rows, int nrows, int inline_rows,
                     const char *blocking, const char *nonblocking);

#endif
