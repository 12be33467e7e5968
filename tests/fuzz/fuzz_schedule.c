/*
 * fuzz_schedule.c - libFuzzer target for the schedule compiler.
 *
 * The input is decoded into a call (P, rank, per-peer byte counts and
 * displacements, window, algorithm, contiguity, in-place); the compiled task
 * list must satisfy the invariants every engine relies on, as checked by
 * tests/unit/sched_check.c (the unit tests use the same checker): WAIT
 * coverage, receives first, at most W sends in flight, peers and lengths,
 * every receive byte written exactly once, buffers in bounds, and for a
 * compressed call (a codec byte) the ENCODE/DECODE rules.  A violation
 * aborts, which libFuzzer reports with the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libnbo/sched_algs.h"
#include "sched_check.h" /* tests/unit: the invariants, shared */
#include "../../offload/engine.h"

/* The compiler is built here without the engines: NBO_ENGINE's check
 * (libnbo/settings.c) knows none, and only "auto" is valid. */
const nbo_engine_ops_t *nbo_engine_find(const char *name)
{
    (void)name;
    return NULL;
}

#define MAXP 40

typedef struct { const uint8_t *p; size_t n; } input_t;

static unsigned take(input_t *in, unsigned mod)
{
    unsigned v = 0;
    if (in->n) {
        v = *in->p++;
        in->n--;
    }
    return mod ? v % mod : v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input_t in = {data, size};
    const int P = 1 + (int)take(&in, MAXP);
    const int rank = (int)take(&in, (unsigned)P);
    const unsigned flags = take(&in, 0);
    const int uniform = flags & 1, in_place = (flags >> 1) & 1;
    const int send_contig = in_place ? !((flags >> 3) & 1) : !((flags >> 2) & 1);
    const int recv_contig = in_place ? send_contig : !((flags >> 3) & 1);
    nbo_sched_args_t a = {
        .size = P,
        .rank = rank,
        .uniform = uniform,
        .algs = nbo_alltoall_algs,
        .in_place = in_place,
        .send_contig = send_contig,
        .recv_contig = recv_contig,
        .algorithm = (nbo_algorithm_t)take(&in, 3),
        .window = 1 + (int)take(&in, 12),
        .bruck_max = take(&in, 0) * 4,
    };
    /* Compression: codec none, fp32 or zfp on doubles or floats, the
     * blocks whole scalars (the compiler applies it to contiguous sides). */
    const unsigned cbyte = take(&in, 0);
    a.codec = (int)(cbyte % 3);
    a.codec_elem = a.codec ? 1 + (int)((cbyte >> 2) & 1) : 0;
    a.codec_rate = 1 + (int)take(&in, 64);
    const size_t unit = a.codec_elem == 1 ? 8 : a.codec_elem == 2 ? 4 : 1;
    size_t sb[MAXP], sd[MAXP], rb[MAXP], rd[MAXP];
    size_t ublock = take(&in, 64) * unit;
    /* Blocks laid out in a random order with random gaps. */
    size_t soff = 0, roff = 0;
    for (int p = 0; p < P; p++) {
        rb[p] = uniform ? ublock : take(&in, 5) == 0 ? 0 : take(&in, 200) * unit;
        sb[p] = uniform ? ublock : take(&in, 5) == 0 ? 0 : take(&in, 200) * unit;
        rd[p] = roff + take(&in, 4);
        roff = rd[p] + rb[p];
        sd[p] = soff + take(&in, 4);
        soff = sd[p] + sb[p];
    }
    sb[rank] = rb[rank]; /* a rank's own block must match */
    if (in_place)
        for (int p = 0; p < P; p++) {
            sb[p] = rb[p];
            sd[p] = rd[p];
        }
    a.sbytes = sb; a.sdispl = sd; a.rbytes = rb; a.rdispl = rd;

    nbo_sched_t s;
    if (nbo_sched_compile(&a, &s) != NBO_SUCCESS)
        abort(); /* valid arguments must compile */

    const char *why = sched_check(&a, &s);
    if (why) {
        fprintf(stderr, "invariant failed: %s\n", why);
        nbo_sched_print(&s, stderr);
        abort();
    }
    nbo_sched_destroy(&s);
    return 0;
}
