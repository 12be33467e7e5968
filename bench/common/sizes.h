/*
 * sizes.h - byte sizes on the benchmarks' command lines ("64K", "1M",
 * "65536"), shared by all of them (no MPI, no libnbo).
 */
#ifndef NBO_BENCH_SIZES_H
#define NBO_BENCH_SIZES_H

#include <stddef.h>

/* The size at s, with an optional K, M or G (powers of 1024); 0 on error.
 * *end (if end) is set past what was read. */
size_t bench_size(const char *s, const char **end);
/* A comma list of sizes ("8,4K,1M") into out[0..max): their count, or -1
 * when one is 0, malformed, or past max. */
int bench_size_list(const char *s, size_t *out, int max);

#endif
