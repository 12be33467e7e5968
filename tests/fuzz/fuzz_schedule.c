/*
 * fuzz_schedule.c - libFuzzer target for the schedule compiler.
 *
 * The input is decoded into a call (P, rank, per-peer byte counts and
 * displacements, window, algorithm, contiguity, in-place); the compiled task
 * list must satisfy the invariants every engine relies on:
 *   - every SEND/RECV names a real peer (not itself), a nonzero length, and
 *     stays inside its buffer; bytes to / from each peer equal the call's;
 *   - every SEND/RECV is covered by exactly one later WAIT whose count is
 *     the number of tasks naming it;
 *   - all RECVs precede the first SEND (no unexpected messages);
 *   - pairwise: no window holds more than W sends;
 *   - local tasks (COPY/PACK/UNPACK) stay inside their buffers;
 *   - every byte of every receive block is written exactly once (by a RECV
 *     + UNPACK, COPY or PACK), and nothing outside the blocks is written.
 * Any violation aborts, which libFuzzer reports with the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

#define MAXP 40
#define CHECK(c)                                                                        \
    do {                                                                                \
        if (!(c)) {                                                                     \
            fprintf(stderr, "invariant failed: %s (line %d)\n", #c, __LINE__);          \
            nbo_sched_print(&s, stderr);                                                \
            abort();                                                                    \
        }                                                                               \
    } while (0)

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
        .in_place = in_place,
        .send_contig = send_contig,
        .recv_contig = recv_contig,
        .algorithm = (nbo_algorithm_t)take(&in, 3),
        .window = 1 + (int)take(&in, 12),
        .bruck_max = take(&in, 0) * 4,
    };
    size_t sb[MAXP], sd[MAXP], rb[MAXP], rd[MAXP];
    size_t ublock = take(&in, 64);
    /* Blocks laid out in a random order with random gaps. */
    size_t soff = 0, roff = 0;
    for (int p = 0; p < P; p++) {
        rb[p] = uniform ? ublock : take(&in, 5) == 0 ? 0 : take(&in, 200);
        sb[p] = uniform ? ublock : take(&in, 5) == 0 ? 0 : take(&in, 200);
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
    soff = roff = 0;
    for (int p = 0; p < P; p++) { /* recompute spans after the fix-ups */
        if (sd[p] + sb[p] > soff) soff = sd[p] + sb[p];
        if (rd[p] + rb[p] > roff) roff = rd[p] + rb[p];
    }
    a.sbytes = sb; a.sdispl = sd; a.rbytes = rb; a.rdispl = rd;

    nbo_sched_t s;
    if (nbo_sched_compile(&a, &s) != NBO_SUCCESS)
        abort(); /* valid arguments must compile */

    const size_t buflen[NBO_BUF_COUNT] = {in_place ? roff : soff, roff, s.tmp_bytes};
    size_t sent[MAXP] = {0}, recvd[MAXP] = {0};
    int *covered = calloc((size_t)s.ntasks + 1, sizeof(int));
    unsigned char *written = calloc(roff + 1, 1);
    int first_send = -1, sends_in_window = 0;
    for (int i = 0; i < s.ntasks; i++) {
        const nbo_task_t *t = &s.tasks[i];
        switch (t->kind) {
        case NBO_TASK_SEND:
        case NBO_TASK_RECV:
            CHECK(t->peer >= 0 && t->peer < P && t->peer != rank && t->len > 0);
            CHECK(t->buf < NBO_BUF_COUNT && t->off + t->len <= buflen[t->buf]);
            CHECK(t->wait > i && t->wait < s.ntasks && s.tasks[t->wait].kind == NBO_TASK_WAIT);
            covered[t->wait]++;
            if (t->kind == NBO_TASK_SEND) {
                CHECK(!(in_place && t->buf == NBO_BUF_RECV)); /* in place sends from scratch */
                sent[t->peer] += t->len;
                if (first_send < 0)
                    first_send = i;
                sends_in_window++;
            } else {
                CHECK(first_send < 0); /* receives first */
                recvd[t->peer] += t->len;
                if (t->buf == NBO_BUF_RECV) {
                    CHECK(t->off >= rd[t->peer] && t->off + t->len <= rd[t->peer] + rb[t->peer]);
                    for (size_t b = t->off; b < t->off + t->len; b++)
                        written[b]++;
                }
            }
            break;
        case NBO_TASK_WAIT:
            CHECK(t->wait > 0);
            if (s.algorithm == NBO_ALG_PAIRWISE)
                CHECK(sends_in_window <= a.window);
            sends_in_window = 0;
            break;
        case NBO_TASK_COPY:
            CHECK(t->buf < NBO_BUF_COUNT && t->src_buf < NBO_BUF_COUNT);
            CHECK(t->off + t->len <= buflen[t->buf] && t->src_off + t->len <= buflen[t->src_buf]);
            if (t->buf == NBO_BUF_RECV)
                for (size_t b = t->off; b < t->off + t->len; b++)
                    written[b]++;
            break;
        case NBO_TASK_PACK:
            CHECK(!send_contig && t->peer >= 0 && t->peer < P && t->len == sb[t->peer]);
            CHECK(t->off + t->len <= buflen[t->buf]);
            if (t->buf == NBO_BUF_RECV) /* own block packed straight into place */
                for (size_t b = t->off; b < t->off + t->len; b++)
                    written[b]++;
            break;
        case NBO_TASK_UNPACK:
            CHECK(!recv_contig && t->peer >= 0 && t->peer < P && t->len == rb[t->peer]);
            CHECK(t->src_off + t->len <= buflen[t->src_buf]);
            for (size_t b = rd[t->peer]; b < rd[t->peer] + rb[t->peer]; b++)
                written[b]++;
            break;
        default:
            CHECK(0);
        }
    }
    for (int i = 0; i < s.ntasks; i++)
        if (s.tasks[i].kind == NBO_TASK_WAIT)
            CHECK(covered[i] == s.tasks[i].wait);
    if (s.algorithm == NBO_ALG_PAIRWISE) /* Bruck forwards other ranks' blocks */
        for (int p = 0; p < P; p++)
            if (p != rank)
                CHECK(sent[p] == sb[p] && recvd[p] == rb[p]);
    /* Every byte of every receive block written exactly once, outside none. */
    for (int p = 0; p < P; p++)
        if (!(in_place && p == rank)) /* in place, the own block stays put */
            for (size_t b = rd[p]; b < rd[p] + rb[p]; b++)
                CHECK(written[b] == 1);
    for (size_t b = 0; b < roff; b++) {
        int inside = 0;
        for (int p = 0; p < P && !inside; p++)
            inside = b >= rd[p] && b < rd[p] + rb[p];
        CHECK(inside || written[b] == 0);
    }
    free(covered);
    free(written);
    nbo_sched_destroy(&s);
    return 0;
}
