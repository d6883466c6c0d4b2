/*
 * akp_rand.h - the provider tests' deterministic random numbers: xorshift64
 * (Marsaglia, "Xorshift RNGs", 2003) on one per-program state `rs`, seeded
 * by each test's main so a failure reproduces from its printed seed.
 */
#ifndef AKP_RAND_H
#define AKP_RAND_H

#include <stddef.h>
#include <stdint.h>

static uint64_t rs;

static inline uint64_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

/* A number below n (0 for n == 0). */
static inline size_t rndn(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static inline void rbytes(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)rnd();
}

#endif
