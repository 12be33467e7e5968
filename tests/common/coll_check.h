/*
 * coll_check.h - what the engine correctness programs (tests/ucx,
 * tests/ofi) share: a failure counter that prints the first few, a byte
 * pattern per (source, destination, index, round), and the comparison of
 * a result with MPI's own.  The program sets coll_check_name, and rank
 * and size after MPI_Init; failures counts over the run.
 */
#ifndef COLL_CHECK_H
#define COLL_CHECK_H

#include <nbo.h>

#include "any_failed.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *coll_check_name = "test";
static int rank, size, failures;

#define FAIL(...)                                                  \
    do {                                                           \
        if (failures++ < 5) {                                      \
            fprintf(stderr, "[%s %d/%d] ", coll_check_name, rank, size); \
            fprintf(stderr, __VA_ARGS__);                          \
            fputc('\n', stderr);                                   \
        }                                                          \
    } while (0)

static inline unsigned char pattern(int src, int dst, size_t i, unsigned round)
{
    uint32_t h = (uint32_t)src * 2654435761u ^ (uint32_t)dst * 40503u ^ round * 2246822519u;
    h += (uint32_t)i * 131u;
    return (unsigned char)(h ^ (h >> 11));
}

/* An all-to-all send buffer: n bytes for each destination. */
static inline void fill(unsigned char *buf, size_t n, unsigned round)
{
    for (int d = 0; d < size; d++)
        for (size_t i = 0; i < n; i++)
            buf[(size_t)d * n + i] = pattern(rank, d, i, round);
}

static inline void check(const char *what, int rc, const void *got, const void *want,
                         size_t bytes)
{
    if (rc != NBO_SUCCESS)
        FAIL("%s: %s", what, nbo_strerror(rc));
    else if (bytes && memcmp(got, want, bytes) != 0)
        FAIL("%s: data differs from MPI", what);
}

/* A started call's result: its wait's, or the start's error. */
static inline int finish(int rc, nbo_request_t *req)
{
    return rc == NBO_SUCCESS ? nbo_wait(req) : rc;
}

#endif
