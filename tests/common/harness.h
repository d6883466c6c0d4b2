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

/* Every helper here is static and marked unused: a test binary includes the
 * whole header but calls only some of it, and -Werror must stay quiet. */
#define TH_FN static __attribute__((unused))

static unsigned long th_checks __attribute__((unused)), th_failures __attribute__((unused));

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

/* The backend under test (NULL = library default); exits 77 if unavailable.
 * Also the start-up check every program should make: the header this test
 * was compiled with matches the library it runs with (exits 1 if not). */
TH_FN const char *th_backend(void)
{
    if (aeskit_abi_check() != AESKIT_OK) {
        printf("FAIL: header %s and library %s disagree (aeskit_abi_check)\n",
               AESKIT_VERSION_STRING, aeskit_version());
        exit(1);
    }
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
TH_FN double th_scale(void)
{
    const char *s = getenv("AESKIT_TEST_SCALE");
    double v = s ? atof(s) : 1.0;
    return v > 0 ? v : 1.0;
}

/* xorshift64*: deterministic, seeded per test so failures reproduce. */
static uint64_t th_rng_state __attribute__((unused)) = 0x9e3779b97f4a7c15ull;
TH_FN void th_seed(uint64_t s) { th_rng_state = s ? s : 1; }
TH_FN uint64_t th_rand64(void)
{
    th_rng_state ^= th_rng_state >> 12;
    th_rng_state ^= th_rng_state << 25;
    th_rng_state ^= th_rng_state >> 27;
    return th_rng_state * 0x2545f4914f6cdd1dull;
}
TH_FN void th_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(th_rand64() >> 56);
}

/* Decodes hex (no separators) into out; returns the byte count. */
TH_FN size_t th_unhex(uint8_t *out, const char *hex)
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
TH_FN int th_finish(const char *name)
{
    const char *be = getenv("AESKIT_BACKEND");
    printf("%s [%s]: %lu checks, %lu failed\n", name, be && *be ? be : aeskit_backend_default(),
           th_checks, th_failures);
    return th_failures ? 1 : 0;
}

/* Uniform-ish integer in [0, n) (n > 0); bias is irrelevant for tests. */
TH_FN size_t th_randn(size_t n) { return (size_t)(th_rand64() % n); }

/* Iteration count n scaled by AESKIT_TEST_SCALE, at least min. */
TH_FN size_t th_scaled(size_t n, size_t min)
{
    double v = (double)n * th_scale();
    return v < (double)min ? min : (size_t)v;
}

/* Step for loops meant to visit "every" value: 1 at AESKIT_TEST_SCALE >= 1;
 * below that a random step averaging about 1/scale, so a scaled-down run
 * (sanitizers, emulators) still reaches every region, just more sparsely. */
TH_FN size_t th_stride(void)
{
    double s = th_scale();
    if (s >= 1.0)
        return 1;
    size_t w = (size_t)(2.0 / s);
    return w > 1 ? 1 + th_randn(w) : 1;
}

/* Prints a labelled hex string to stderr (for failure reports). */
TH_FN void th_hexdump(const char *label, const uint8_t *p, size_t n)
{
    fprintf(stderr, "  %s (%zu):", label, n);
    for (size_t i = 0; i < n && i < 64; i++)
        fprintf(stderr, "%02x", p[i]);
    fprintf(stderr, n > 64 ? "...\n" : "\n");
}

/* Index of the first differing byte of a and b, or n if equal. */
TH_FN size_t th_first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return n;
}

/* Checks n bytes equal; on mismatch reports the first differing offset. */
#define TH_CHECK_MEM(a, b, n, ...)                                              \
    do {                                                                        \
        size_t th_n_ = (n), th_d_ = th_first_diff((a), (b), th_n_);             \
        TH_CHECK(th_d_ == th_n_, __VA_ARGS__);                                  \
        if (th_d_ != th_n_ && th_failures <= 20)                                \
            fprintf(stderr, "  first difference at byte %zu of %zu\n", th_d_, th_n_); \
    } while (0)

/* 1 if all n bytes of p are zero. */
TH_FN int th_all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

#endif
