/*
 * dudect.c - statistical timing test for the backends valgrind cannot run
 * (VAES, AVX-512), after Reparaz, Balasch and Verbauwhede, "Dude, is my code
 * constant time?" (DATE 2017).
 *
 * For each operation, inputs are drawn from two classes - a fixed secret and
 * random secrets - in random order; each call is timed with the cycle
 * counter.  Welch's t statistic compares the two timing distributions, on
 * all measurements and on ones cropped at several percentiles (slow outliers
 * from interrupts hide small effects).  |t| below 4.5 after many
 * measurements is no evidence of a secret-dependent timing; |t| above 10 is
 * strong evidence.  A shared, noisy machine can push |t| up by itself: rerun
 * before concluding, and compare with --self-test, which times a deliberately
 * leaky function and must show a large |t|.
 *
 *   aeskit-dudect [--backend NAME] [--measurements N] [--self-test]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aeskit.h"

#if defined(__x86_64__)
#include <x86intrin.h>
static inline uint64_t ticks(void)
{
    unsigned aux;
    return __rdtscp(&aux);
}
#else
static inline uint64_t ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* Welford running mean/variance per class. */
typedef struct { double n, mean, m2; } stat_t;
static void push(stat_t *s, double x)
{
    s->n += 1;
    double d = x - s->mean;
    s->mean += d / s->n;
    s->m2 += d * (x - s->mean);
}
static double welch_t(const stat_t *a, const stat_t *b)
{
    if (a->n < 2 || b->n < 2)
        return 0;
    double va = a->m2 / (a->n - 1), vb = b->m2 / (b->n - 1);
    double den = sqrt(va / a->n + vb / b->n);
    return den > 0 ? (a->mean - b->mean) / den : 0;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}
static void fill(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd(); }

enum { MSG = 512, NPCT = 5 };
static const double pct[NPCT] = {1.0, 0.99, 0.9, 0.75, 0.5};

typedef void (*op_fn)(int cls, const uint8_t *secret);

static const char *g_backend;
/* Statuses are collected, not branched on, inside the timed operations;
 * main reports any call that did not return what it should. */
static unsigned g_bad_status;
static aeskit_gcm_key g_key;
static uint8_t g_iv[12], g_aad[16], g_out[MSG + 16], g_tag[16], g_ct[MSG], g_goodtag[16];

/* GCM seal: the secret is the plaintext. */
static void op_seal_plaintext(int cls, const uint8_t *secret)
{
    (void)cls;
    g_bad_status |= aeskit_gcm_seal(&g_key, g_out, g_tag, 16, secret, MSG, g_iv, 12, g_aad, 16) != AESKIT_OK;
}
/* Key set-up and one seal: the secret is the key. */
static void op_keysetup(int cls, const uint8_t *secret)
{
    (void)cls;
    aeskit_gcm_key k;
    g_bad_status |= aeskit_gcm_init_backend(&k, secret, 32, g_backend) != AESKIT_OK;
    g_bad_status |= aeskit_gcm_seal(&k, g_out, g_tag, 16, g_ct, 64, g_iv, 12, g_aad, 16) != AESKIT_OK;
}
/* Open with a wrong tag: the secret is the tag.  Fixed class: a tag wrong
 * only in its last byte; random class: random tags.  An early-exit compare
 * would make the fixed class slower. */
static void op_open_tag(int cls, const uint8_t *secret)
{
    (void)cls;
    g_bad_status |=
        aeskit_gcm_open(&g_key, g_out, g_ct, MSG, secret, 16, g_iv, 12, g_aad, 16) != AESKIT_ERR_AUTH;
}
/* Deliberate leak for --self-test: work proportional to a secret byte. */
static volatile uint8_t sink;
static void op_leaky(int cls, const uint8_t *secret)
{
    (void)cls;
    for (unsigned i = 0; i < (unsigned)(secret[0] & 0x3f) * 8u; i++)
        sink ^= (uint8_t)i;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Returns max |t| over the crops. */
static double run(const char *name, op_fn op, size_t secret_len, const uint8_t *fixed, size_t n)
{
    uint8_t *secrets = malloc(n * secret_len);
    uint8_t *cls = malloc(n);
    uint64_t *t = malloc(n * sizeof *t), *sorted = malloc(n * sizeof *t);
    for (size_t i = 0; i < n; i++) {
        cls[i] = (uint8_t)(rnd() & 1);
        if (cls[i] == 0)
            memcpy(secrets + i * secret_len, fixed, secret_len);
        else
            fill(secrets + i * secret_len, secret_len);
    }
    for (size_t i = 0; i < n / 10; i++) /* warm-up */
        op(cls[i], secrets + i * secret_len);
    for (size_t i = 0; i < n; i++) {
        uint64_t a = ticks();
        op(cls[i], secrets + i * secret_len);
        t[i] = ticks() - a;
    }
    memcpy(sorted, t, n * sizeof *t);
    qsort(sorted, n, sizeof *t, cmp_u64);
    double worst = 0;
    printf("%-22s", name);
    for (int p = 0; p < NPCT; p++) {
        uint64_t cut = sorted[(size_t)((double)(n - 1) * pct[p])];
        stat_t s[2] = {{0}};
        for (size_t i = 0; i < n; i++)
            if (t[i] <= cut)
                push(&s[cls[i]], (double)t[i]);
        double tv = welch_t(&s[0], &s[1]);
        printf("  t@%3.0f%%=%7.2f", pct[p] * 100, tv);
        if (fabs(tv) > worst)
            worst = fabs(tv);
    }
    printf("   max|t|=%.2f %s (median %llu ticks)\n", worst,
           worst < 4.5 ? "no evidence of leakage" : worst < 10 ? "inconclusive: rerun" : "LEAK?",
           (unsigned long long)sorted[n / 2]);
    free(secrets); free(cls); free(t); free(sorted);
    return worst;
}

int main(int argc, char **argv)
{
    size_t n = 200000;
    int self_test = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc) g_backend = argv[++i];
        else if (!strcmp(argv[i], "--measurements") && i + 1 < argc) n = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--self-test")) self_test = 1;
        else {
            fprintf(stderr, "usage: aeskit-dudect [--backend NAME] [--measurements N] [--self-test]\n");
            return 2;
        }
    }
    if (n < 1000) n = 1000;
    uint8_t fixed[64] = {0}, key[32];
    fill(key, sizeof key);
    fill(g_iv, sizeof g_iv);
    fill(g_aad, sizeof g_aad);
    fill(g_ct, sizeof g_ct);
    if (self_test) {
        fixed[0] = 0x20;
        double w = run("self-test (leaky)", op_leaky, 1, fixed, n);
        printf("self-test: %s\n", w > 10 ? "leak detected, as it must be" : "leak NOT detected: the measurement is too noisy");
        return w > 10 ? 0 : 1;
    }
    int st = aeskit_gcm_init_backend(&g_key, key, 16, g_backend);
    if (st != AESKIT_OK) {
        fprintf(stderr, "aeskit-dudect: backend %s: %s\n", g_backend ? g_backend : "(default)", aeskit_strerror(st));
        return 2;
    }
    printf("aeskit-dudect: backend %s, %zu measurements per test, Welch t (|t| < 4.5: no evidence)\n",
           aeskit_gcm_backend(&g_key), n);
    st = aeskit_gcm_seal(&g_key, g_out, g_goodtag, 16, g_ct, MSG, g_iv, 12, g_aad, 16);
    if (st != AESKIT_OK) {
        fprintf(stderr, "aeskit-dudect: seal: %s\n", aeskit_strerror(st));
        return 2;
    }
    double worst = 0, w;
    w = run("gcm seal / plaintext", op_seal_plaintext, MSG, fixed, n); if (w > worst) worst = w;
    w = run("gcm init+seal / key", op_keysetup, 32, fixed, n / 4); if (w > worst) worst = w;
    uint8_t wrong[16];
    memcpy(wrong, g_goodtag, 16);
    wrong[15] ^= 1;
    w = run("gcm open / wrong tag", op_open_tag, 16, wrong, n); if (w > worst) worst = w;
    printf("max |t| over all tests: %.2f\n", worst);
    if (g_bad_status) {
        fprintf(stderr, "aeskit-dudect: a measured call returned an unexpected status\n");
        return 2;
    }
    return 0;
}
