/*
 * ofi_stats.h - what the OFI engine ran, and who ran it: process-wide
 * counters a test linking the static library reads (tests/ofi).  Internal.
 */
#ifndef NBO_OFI_STATS_H
#define NBO_OFI_STATS_H

typedef struct nbo_ofi_stats {
    long host_tasks;      /* SEND/RECV tasks the host posted (post())          */
    long offload_tasks;   /* SEND/RECV tasks handed to the provider as a list */
    long offload_runs;    /* lists (parts) offloaded                            */
    long start_copies;    /* COPY tasks of an offloaded part, done at its start */
    long fallbacks;       /* offloadable parts run on the host path (limits)    */
    long progress_calls;  /* progress() calls                                   */
    long inflight_polls;  /* progress() calls that found an offloaded part
                             still receiving: host wake-ups during the offload */
    long tail_polls;      /* progress() calls after its done message, while its
                             last sends are counted                          */
    long nudges;          /* stalled parts' counters nudged (ofi_trigger.c)     */
} nbo_ofi_stats_t;

/* A snapshot of the counters. */
void nbo_ofi_stats_read(nbo_ofi_stats_t *out);

#endif
