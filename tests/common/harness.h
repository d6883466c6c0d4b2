/*
 * harness.h - what every test binary shares: the backend it runs under, a
 * deterministic RNG, hex decoding, and checks that count and report.
 *
 * A test binary runs under the backend named by AESKIT_BACKEND (ctest sets
 * it per registration).  If this CPU cannot run that backend, the binary
 * says so and exits 77 (ctest: skipped), never 0.
 */
#ifndef AESKIT_TEST_HARNESS_H
#define AESKIT_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"

static unsigned long th_checks, th_failures;

#define TH_CHECK(cond, ...)                                                     \
    do {                                                                        \
        th_checks++;                                                            \
        if (!(cond)) {                                                          \
            th_failures++;                                                      \
            if (th_failures <= 20) {                                            \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);            \
                fprintf(stderr, __VA_ARGS__);                                   \
                fputc('\n', stderr);                                            \
            }                                                                   \
        }                                                                       \
    } while (0)

/* The backend under test (NULL = library default); exits 77 if unavailable. */
static const char *th_backend(void)
{
    const char *be = getenv("AESKIT_BACKEND");
    if (!be || !*be)
        return NULL;
    int st = aeskit_backend_check(be);
    if (st != AESKIT_OK) {
        printf("SKIP: backend %s cannot run here: %s (CPU features: %s)\n", be,
               aeskit_strerror(st), aeskit_cpu_features());
        exit(77);
    }
    return be;
}

/* Multiplier for random-iteration counts (AESKIT_TEST_SCALE, default 1). */
static double th_scale(void)
{
    const char *s = getenv("AESKIT_TEST_SCALE");
    double v = s ? atof(s) : 1.0;
    return v > 0 ? v : 1.0;
}

/* xorshift64*: deterministic, seeded per test so failures reproduce. */
static uint64_t th_rng_state = 0x9e3779b97f4a7c15ull;
static void th_seed(uint64_t s) { th_rng_state = s ? s : 1; }
static uint64_t th_rand64(void)
{
    th_rng_state ^= th_rng_state >> 12;
    th_rng_state ^= th_rng_state << 25;
    th_rng_state ^= th_rng_state >> 27;
    return th_rng_state * 0x2545f4914f6cdd1dull;
}
static void th_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(th_rand64() >> 56);
}

/* Decodes hex (no separators) into out; returns the byte count. */
static size_t th_unhex(uint8_t *out, const char *hex)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* Prints the verdict line and returns the exit code. */
static int th_finish(const char *name)
{
    const char *be = getenv("AESKIT_BACKEND");
    printf("%s [%s]: %lu checks, %lu failed\n", name, be && *be ? be : aeskit_backend_default(),
           th_checks, th_failures);
    return th_failures ? 1 : 0;
}

#endif
