/*
 * codec_cost.h - what a codec of libnbo costs the CPU in p3o_bench's
 * setting: one column exchange of a grid (the block a rank sends its peer
 * when ROW = 1: (nx/2+1) ny nz / P^2 complex numbers) as a persistent
 * nbo_alltoall between the ranks of the benchmark, exact and compressed,
 * on the same engine.  With the transfer time taken as proportional to the
 * bytes moved,
 *   codec = t_codec - t_exact * wire / raw
 * is the encoding and decoding time of one exchange, and compression pays
 * on a link whose rate L moves the saved bytes slower than that:
 *   (raw - wire) / L > codec   <=>   L < (raw - wire) / codec.
 * On one host (shared memory) the transfers are short and the difference
 * is mostly the codec; on a link the same formula holds for a blocking
 * exchange (a pipelined one may hide part of the codec behind the FFTs, or
 * lose the CPU it needs to them).
 */
#ifndef P3O_BENCH_CODEC_COST_H
#define P3O_BENCH_CODEC_COST_H

#include <stdio.h>

#include "measure.h"

/* One codec of --codecs. */
typedef struct codec_choice {
    nbo_codec_t codec;
    int         rate;      /* zfp */
    char        name[16];  /* "none", "fp32", "zfp:16" */
} codec_choice_t;

void codec_choice_name(const codec_choice_t *c, char *buf, size_t len);

typedef struct codec_cost {
    int            ok;
    char           error[160];
    int            size[3];
    codec_choice_t codec;
    char           engine[32];
    double         raw, wire;         /* bytes this rank sends (to all peers) per exchange */
    double         t_exact, t_codec;  /* seconds per exchange, best rep, max over ranks */
    double         codec_s;           /* estimated codec time per exchange */
    double         ns_per_byte;       /* codec_s per raw byte */
    double         crossover_gbit;    /* link rate (Gbit/s) below which the codec pays */
} codec_cost_t;

/* Collective over comm. */
void codec_cost_measure(MPI_Comm comm, const setup_t *base, const int size[3],
                        const codec_choice_t *codec, codec_cost_t *out);

void report_codec_cost(FILE *f, const codec_cost_t *c, int n);

#endif
