/*
 * compile_bruck.c - Bruck's all-to-all for small uniform blocks: ceil(log2 P)
 * rounds instead of P-1 messages, at the price of local copies.
 *
 * Scratch layout (B = block bytes):
 *   A  [P blocks]  rotated working array: A[i] starts as the block for rank+i
 *   S  [max n_k]   staging for the blocks sent in one round
 *   R_k[n_k]       one receive area per round, so every receive can be
 *                  posted up front like in the pairwise schedule
 * Round k (d = 2^k) sends every A[j] whose bit k is set to rank+d and
 * receives the same slots from rank-d.  At the end A[i] holds the block from
 * rank-i, which goes to its place in the receive buffer.
 */
#include "sched_algs.h"
#include "sched_build.h"

static int round_count(int P, int d)
{
    int n = 0;
    for (int j = 1; j < P; j++)
        if (j & d)
            n++;
    return n;
}

int nbo_compile_bruck(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    const size_t B = a->sbytes[0];
    if (P == 1) { /* the only block is our own */
        b->s->tmp_bytes = sched_build_own_tmp(a);
        sched_build_own_block(b, a, 0);
        return NBO_SUCCESS;
    }
    if (B == 0)
        return NBO_SUCCESS;

    int nmax = 0, rounds = 0;
    for (int d = 1; d < P; d <<= 1, rounds++)
        if (round_count(P, d) > nmax)
            nmax = round_count(P, d);
    const size_t A = 0, S = (size_t)P * B;
    size_t roff[32]; /* rounds <= 31 for int P */
    size_t tmp = S + (size_t)nmax * B;
    for (int k = 0, d = 1; d < P; d <<= 1, k++) {
        roff[k] = tmp;
        tmp += (size_t)round_count(P, d) * B;
    }
    b->s->tmp_bytes = tmp;

    /* Rotate: A[i] = block for rank r+i.  In place, this also saves the
     * outgoing data before anything can overwrite it. */
    const nbo_buf_t sbuf = a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND;
    for (int i = 0; i < P; i++) {
        int j = (r + i) % P;
        if (a->send_contig)
            sched_build_copy(b, NBO_BUF_TMP, A + (size_t)i * B, sbuf, a->sdispl[j], B);
        else
            sched_build_pack(b, j, NBO_BUF_TMP, A + (size_t)i * B, B);
    }

    int recv_task[32];
    for (int k = 0, d = 1; d < P; d <<= 1, k++)
        recv_task[k] = sched_build_recv(b, (r - d + P) % P, NBO_BUF_TMP, roff[k],
                                        (size_t)round_count(P, d) * B);

    for (int k = 0, d = 1; d < P; d <<= 1, k++) {
        int m = 0;
        for (int j = 1; j < P; j++)
            if (j & d)
                sched_build_copy(b, NBO_BUF_TMP, S + (size_t)m++ * B, NBO_BUF_TMP, A + (size_t)j * B, B);
        int w[2];
        w[0] = sched_build_send(b, (r + d) % P, NBO_BUF_TMP, S, (size_t)m * B);
        w[1] = recv_task[k];
        sched_build_wait(b, w, 2);
        m = 0;
        for (int j = 1; j < P; j++)
            if (j & d)
                sched_build_copy(b, NBO_BUF_TMP, A + (size_t)j * B, NBO_BUF_TMP, roff[k] + (size_t)m++ * B, B);
    }

    /* Un-rotate: A[i] came from rank r-i. */
    for (int i = 0; i < P; i++) {
        int src = (r - i + P) % P;
        if (a->recv_contig)
            sched_build_copy(b, NBO_BUF_RECV, a->rdispl[src], NBO_BUF_TMP, A + (size_t)i * B, B);
        else
            sched_build_unpack(b, src, NBO_BUF_TMP, A + (size_t)i * B, B);
    }
    return NBO_SUCCESS;
}
