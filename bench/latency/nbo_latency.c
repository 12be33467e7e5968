/*
 * nbo_latency.c - the latency of small collectives: start + wait, no
 * computation, as a solver's dot product or norm runs them.
 *
 * For each collective (-C) and size (-S) it times three methods side by
 * side: MPI's non-blocking call + MPI_Wait, libnbo's non-blocking call +
 * nbo_wait, and libnbo's persistent request (nbo_start + nbo_wait), libnbo
 * on the communicator nbo_comm_create gives with no configuration (the
 * environment's NBO_* and the defaults apply).  Blocks of -n back-to-back
 * operations alternate between the methods, -r blocks each; a block's time
 * is the slowest rank's, and the figure is the median block per operation,
 * so a noisy machine's drift touches every method alike.
 */
#include "sizes.h"
#include "stats.h"
#include "bench.h" /* the collectives' table (bench/driver/colls.c) */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M_MPI, M_NBO, M_NBO_PERSISTENT, M_N };

#define MAX_BLOCKS 101

typedef struct {
    coll_t colls[COLL_N];
    int ncolls;
    size_t sizes[64];
    int nsizes;
    int iters;   /* -n: operations per block */
    int blocks;  /* -r: blocks per method */
    double compute_us; /* -w: busy compute between start and wait */
    const char *csv;
} lat_options_t;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: nbo_latency [-C COLL[,COLL..]|all] [-S S1,S2,..] [-n N] [-r R] [-w US]\n"
        "                   [-o FILE.csv]\n"
        "  -C  collectives, comma separated, or all (default alltoall,allreduce,allgather,\n"
        "      bcast); sizes as nbo_bench's -m: bytes per peer, the vector's bytes\n"
        "      (MPI_FLOAT, MPI_SUM), the block per rank, the message from root 0\n"
        "  -S  sizes, K suffix allowed (default 8,64,512,4K,32K,64K)\n"
        "  -n  back-to-back operations per block (default 200)\n"
        "  -r  blocks per method, alternating (default 15; medians over them)\n"
        "  -w  busy compute of US microseconds between start and wait, as a pipelined\n"
        "      solver overlaps its dot products (default 0: start + wait)\n"
        "  -o  CSV, one line per collective and size (rank 0)\n");
}

static int parse_colls(const char *s, lat_options_t *o)
{
    o->ncolls = coll_parse_list(s, o->colls);
    return o->ncolls > 0 ? 0 : -1;
}

static int parse_sizes(const char *s, lat_options_t *o)
{
    o->nsizes = bench_size_list(s, o->sizes, 64);
    return o->nsizes > 0 ? 0 : -1;
}

static int parse(int argc, char **argv, lat_options_t *o, int rank)
{
    *o = (lat_options_t){.iters = 200, .blocks = 15};
    parse_colls("alltoall,allreduce,allgather,bcast", o);
    parse_sizes("8,64,512,4K,32K,64K", o);
    int ch, bad = 0;
    while ((ch = getopt(argc, argv, "C:S:n:r:w:o:h")) != -1) {
        switch (ch) {
        case 'C': bad |= parse_colls(optarg, o); break;
        case 'S': bad |= parse_sizes(optarg, o); break;
        case 'n': o->iters = atoi(optarg); bad |= o->iters < 1; break;
        case 'r': o->blocks = atoi(optarg); bad |= o->blocks < 1 || o->blocks > MAX_BLOCKS; break;
        case 'w': o->compute_us = atof(optarg); bad |= !(o->compute_us >= 0); break;
        case 'o': o->csv = optarg; break;
        case 'h':
            if (rank == 0)
                usage(stdout);
            return 1;
        default: bad = 1;
        }
    }
    if (bad && rank == 0)
        usage(stderr);
    return bad ? -1 : 0;
}

typedef struct {
    coll_op_t *op;
    double compute_s;
    nbo_comm_t comm;
    nbo_request_t persistent;
} case_t;

/* One operation of method m; returns an MPI or NBO error code (0: fine). */
static int one_op(case_t *k, int m)
{
    if (m == M_MPI) {
        MPI_Request r;
        int rc = coll_op_mpi(k->op, 0, FORM_NONBLOCKING, &r);
        if (rc == MPI_SUCCESS && k->compute_s > 0)
            busy_for_time(k->compute_s, 0, NULL, NULL);
        return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    nbo_request_t r, *req = m == M_NBO_PERSISTENT ? &k->persistent : &r;
    int rc = m == M_NBO_PERSISTENT ? nbo_start(req)
                                   : coll_op_nbo(k->op, 0, 0, k->comm, req);
    if (rc == NBO_SUCCESS && k->compute_s > 0)
        busy_for_time(k->compute_s, 0, NULL, NULL);
    return rc != NBO_SUCCESS ? rc : nbo_wait(req);
}

/* One block: n operations back to back; the slowest rank's seconds. */
static double block(case_t *k, int m, int n, int *err)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_s();
    for (int i = 0; i < n; i++)
        *err |= one_op(k, m) != 0;
    double t = now_s() - t0, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* The result of one operation of each method is right. */
static int verify(case_t *k)
{
    int errors = 0, err = 0;
    for (int m = 0; m < M_N; m++) {
        coll_op_fill(k->op);
        err |= one_op(k, m) != 0;
        errors += (int)coll_op_verify(k->op, 0);
    }
    return errors + err;
}

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    lat_options_t o;
    int prc = parse(argc, argv, &o, rank);
    if (prc != 0) {
        MPI_Finalize();
        return prc < 0 ? 2 : 0;
    }
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm);
    if (rc != NBO_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "nbo_latency: nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Finalize();
        return 1;
    }
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    FILE *csv = NULL;
    if (rank == 0) {
        printf("# nbo_latency: P = %d, libnbo default (engine %s, progress %s), "
               "%d operations per block, median of %d blocks, %g us of compute between start "
               "and wait; us per operation\n",
               P, info.engine, nbo_progress_name(info.progress), o.iters,
               o.blocks, o.compute_us);
        printf("%-20s %8s %12s %10s %8s %16s %8s %6s\n", "collective", "size", "MPI_I<coll>",
               "nbo", "x MPI", "nbo_persistent", "x MPI", "check");
        if (o.csv && !(csv = fopen(o.csv, "w")))
            perror(o.csv);
        if (csv)
            fprintf(csv, "collective,size,P,engine,progress,compute_us,mpi_us,nbo_us,nbo_persistent_us,"
                         "nbo_ratio,persistent_ratio,errors\n");
    }
    int failed = 0;
    for (int ci = 0; ci < o.ncolls; ci++)
        for (int si = 0; si < o.nsizes; si++) {
            coll_t coll = o.colls[ci];
            size_t size = coll_fit_size(coll, o.sizes[si], P, 0);
            if (coll == COLL_BARRIER ? si > 0 : size != o.sizes[si])
                continue; /* whole elements; the barrier once */
            coll_op_t op;
            int err = coll_op_setup(&op, coll, size, 1, 0, MPI_COMM_WORLD) != MPI_SUCCESS;
            case_t k = {.op = &op, .compute_s = o.compute_us * 1e-6, .comm = comm,
                        .persistent = NBO_REQUEST_NULL};
            if (!err)
                err = coll_op_nbo(&op, 0, 1, comm, &k.persistent) != 0;
            int errors = err ? 1 : verify(&k), all_errors;
            MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (all_errors) { /* nothing to time: buffers, a request or a result failed */
                if (k.persistent != NBO_REQUEST_NULL)
                    nbo_request_free(&k.persistent);
                coll_op_free(&op);
                failed = 1;
                if (rank == 0)
                    printf("%-20s %8zu %12s %10s %8s %16s %8s %6s\n", coll_name(coll), size, "-",
                           "-", "-", "-", "-", "FAIL");
                if (csv)
                    fprintf(csv, "%s,%zu,%d,%s,%s,%g,,,,,,%d\n", coll_name(coll), size, P,
                            info.engine, nbo_progress_name(info.progress), o.compute_us,
                            all_errors);
                continue;
            }
            double t[M_N][MAX_BLOCKS], med[M_N];
            for (int m = 0; m < M_N; m++) /* warm-up: connections, caches */
                block(&k, m, o.iters / 4 + 1, &err);
            for (int r = 0; r < o.blocks; r++)
                for (int m = 0; m < M_N; m++)
                    t[m][r] = block(&k, (m + r) % M_N, o.iters, &err) / o.iters * 1e6;
            /* t[m][r] ran method (m + r) % M_N: rotate the start so that no
             * method always follows the same one. */
            double by[M_N][MAX_BLOCKS];
            for (int r = 0; r < o.blocks; r++)
                for (int m = 0; m < M_N; m++)
                    by[(m + r) % M_N][r] = t[m][r];
            for (int m = 0; m < M_N; m++)
                med[m] = bench_median(by[m], o.blocks);
            if (k.persistent != NBO_REQUEST_NULL)
                nbo_request_free(&k.persistent);
            coll_op_free(&op);
            all_errors += err;
            failed |= all_errors != 0;
            if (rank == 0) {
                printf("%-20s %8zu %12.2f %10.2f %8.2f %16.2f %8.2f %6s\n", coll_name(coll), size,
                       med[M_MPI], med[M_NBO], med[M_NBO] / med[M_MPI], med[M_NBO_PERSISTENT],
                       med[M_NBO_PERSISTENT] / med[M_MPI], all_errors ? "FAIL" : "ok");
                if (csv)
                    fprintf(csv, "%s,%zu,%d,%s,%s,%g,%.3f,%.3f,%.3f,%.3f,%.3f,%d\n",
                            coll_name(coll), size, P, info.engine,
                            nbo_progress_name(info.progress), o.compute_us, med[M_MPI], med[M_NBO],
                            med[M_NBO_PERSISTENT], med[M_NBO] / med[M_MPI],
                            med[M_NBO_PERSISTENT] / med[M_MPI], all_errors);
                fflush(stdout);
            }
        }
    if (csv)
        fclose(csv);
    nbo_comm_free(&comm);
    MPI_Finalize();
    return failed ? 1 : 0;
}
