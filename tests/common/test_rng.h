/*
 * test_rng.h - splitmix64, the seeded generator of the stress tests: the
 * same seed gives the same stream on every rank, so ranks that draw an
 * operation sequence from it post the same collectives in the same order.
 */
#ifndef TEST_RNG_H
#define TEST_RNG_H

#include <stdint.h>

typedef struct { uint64_t s; } rng_t;

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline int rng_below(rng_t *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

#endif
