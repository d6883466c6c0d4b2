/*
 * lib_ab.c - one-shot AES-GCM seal or open timed in two or more builds of
 * libaeskit.so in one process (scripts/lib-ab.sh builds and runs it).
 *
 * Each library is loaded with dlopen (RTLD_LOCAL | RTLD_DEEPBIND, so each
 * resolves its own symbols) and given the same key, backend, messages (a
 * 16-byte AAD, a ring of 64 twelve-byte IVs, separate output) and sizes.
 * A sample times 32 back-to-back calls with RDTSC; a round keeps the
 * minimum of 200 samples per library; rounds go round-robin over the
 * libraries, so drift of the machine's speed falls on all of them alike.
 * Opens take one valid message again and again (IV 0, its tag).
 * seal-batch and open-batch time aeskit_gcm_seal_batch / _open_batch of
 * BATCH messages a call instead (one key, message i in its own input and
 * output slot with IV i, every open valid), a sample being one call;
 * ticks are then per message.
 * Printed per size: the best round's ticks per call of each library, the
 * speed of each against the first (ticks0 / ticksN: above 1 is faster), and
 * each library's spread, 1 - best / median over the rounds.  Passing the
 * first library twice gives a control ratio: what the harness reads when
 * nothing changed.  It measures; it asserts nothing.  x86-64 only (RDTSC).
 *
 * usage: aeskit-lib-ab BACKEND seal|open|seal-batch|open-batch KEYBYTES SIZES ROUNDS LIB.so...
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "aeskit.h"

#define MAX_LIBS 8
#define MAX_SIZES 64
#define MAX_ROUNDS 64
#define CALLS 32
#define SAMPLES 200
#define MAX_LEN 65536

#define BATCH 64

typedef aeskit_status (*init_fn)(aeskit_gcm_key *, const uint8_t *, size_t, const char *);
typedef aeskit_status (*seal_fn)(const aeskit_gcm_key *, uint8_t *, uint8_t *, size_t, const uint8_t *,
                                 size_t, const uint8_t *, size_t, const uint8_t *, size_t);
typedef aeskit_status (*open_fn)(const aeskit_gcm_key *, uint8_t *, const uint8_t *, size_t,
                                 const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                                 size_t);

typedef aeskit_status (*batch_fn)(aeskit_gcm_msg *, size_t);

/* FNV-1a (64-bit) of a file's bytes; 0 if it cannot be read. */
static uint64_t file_fnv1a(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    uint64_t h = 0xcbf29ce484222325u;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (uint64_t)(uint8_t)c) * 0x100000001b3u;
    fclose(f);
    return h;
}

/* The single calls' input, output and ciphertext, 64-byte aligned at
 * three different 4 KiB offsets (0, 1344, 2688): three arrays of MAX_LEN
 * bytes laid end to end would share one, and where a kernel ends with a
 * masked store (a partial last window) the next call's load at the same
 * 4 KiB offset waited for it (x86-vaes-avx512 seals of 129-160 B read
 * 1.42x slower than in aeskit speed). */
static _Alignas(4096) uint8_t sbuf[3 * MAX_LEN + 4096];
static uint8_t *const inb = sbuf, *const outb = sbuf + MAX_LEN + 1344, *const ctb = sbuf + 2 * MAX_LEN + 2688;
static uint8_t aad[16], ivs[64][12], tags[64][16];
/* The batch modes' slots: message i at i * slot(n) in bin and bout, one
 * after the other on 64-byte lines.  (Slots MAX_LEN apart put every
 * message on the same L1 sets and 4 KiB offsets: at 16-64 B that
 * conflict-missed and doubled the ticks per message.) */
static _Alignas(64) uint8_t bin[BATCH * MAX_LEN], bout[BATCH * MAX_LEN];
static uint8_t btags[BATCH][16];

static size_t slot(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Minimum ticks per call over SAMPLES samples of CALLS calls. */
static double time_calls(seal_fn sf, open_fn of, const aeskit_gcm_key *k, int open, size_t n)
{
    double best = 1e300;
    for (int s = 0; s < SAMPLES; s++) {
        uint64_t t0 = __rdtsc();
        for (int c = 0; c < CALLS; c++) {
            if (open) /* one valid message, opened again and again */
                (void)of(k, outb, ctb, n, tags[0], 16, ivs[0], 12, aad, 16);
            else
                (void)sf(k, outb, tags[c & 63], 16, inb, n, ivs[c & 63], 12, aad, 16);
        }
        double d = (double)(__rdtsc() - t0) / CALLS;
        if (d < best)
            best = d;
    }
    return best;
}

/* Minimum ticks per message over SAMPLES calls of BATCH messages. */
static double time_batch(batch_fn bf, const aeskit_gcm_key *k, int open, size_t n)
{
    double best = 1e300;
    aeskit_gcm_msg m[BATCH];
    for (int s = 0; s < SAMPLES; s++) {
        for (int i = 0; i < BATCH; i++) /* the caller's fill, not timed */
            m[i] = (aeskit_gcm_msg){&k[0], bout + i * slot(n), open ? btags[i] : tags[i], 16, bin + i * slot(n), n, ivs[i], 12, aad,
                                    16, AESKIT_OK};
        uint64_t t0 = __rdtsc();
        aeskit_status st = bf(m, BATCH);
        double d = (double)(__rdtsc() - t0) / BATCH;
        if (st != AESKIT_OK) {
            fprintf(stderr, "aeskit-lib-ab: a batch call failed (%d)\n", (int)st);
            exit(1);
        }
        if (d < best)
            best = d;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 7 || argc - 6 > MAX_LIBS) {
        fprintf(stderr, "usage: aeskit-lib-ab BACKEND seal|open|seal-batch|open-batch KEYBYTES SIZES ROUNDS "
                        "LIB.so LIB.so...\n"
                        "  (SIZES comma-separated, at most %d bytes; at most %d libraries)\n",
                MAX_LEN, MAX_LIBS);
        return 2;
    }
    const char *backend = argv[1];
    const int batch = strcmp(argv[2], "seal-batch") == 0 || strcmp(argv[2], "open-batch") == 0;
    const int open = strcmp(argv[2], "open") == 0 || strcmp(argv[2], "open-batch") == 0;
    const size_t klen = (size_t)atoi(argv[3]);
    const int rounds = atoi(argv[5]), nl = argc - 6;
    size_t sizes[MAX_SIZES];
    int nsz = 0;
    for (char *t = strtok(argv[4], ","); t && nsz < MAX_SIZES; t = strtok(NULL, ","))
        sizes[nsz++] = (size_t)strtoul(t, NULL, 10);
    if ((!open && !batch && strcmp(argv[2], "seal") != 0) || rounds < 1 || rounds > MAX_ROUNDS || nsz == 0) {
        fprintf(stderr, "aeskit-lib-ab: bad direction, rounds (1..%d) or sizes\n", MAX_ROUNDS);
        return 2;
    }
    for (int z = 0; z < nsz; z++)
        if (sizes[z] > MAX_LEN) {
            fprintf(stderr, "aeskit-lib-ab: size %zu above %d\n", sizes[z], MAX_LEN);
            return 2;
        }
    static aeskit_gcm_key keys[MAX_LIBS];
    seal_fn sf[MAX_LIBS];
    open_fn of[MAX_LIBS];
    batch_fn bf[MAX_LIBS];
    uint8_t key[32];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(7 * i + 1);
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 12; j++)
            ivs[i][j] = (uint8_t)(13 * i + j);
    /* Two different paths with the same bytes are almost always a
     * mistake (a copy taken before the library was relinked: the `aeskit`
     * build target is the command-line tool, not libaeskit.so): say so,
     * since their ratio would read as "no change". */
    uint64_t sum[MAX_LIBS];
    for (int l = 0; l < nl; l++) {
        sum[l] = file_fnv1a(argv[6 + l]);
        for (int e = 0; e < l; e++)
            if (sum[e] == sum[l] && strcmp(argv[6 + e], argv[6 + l]) != 0)
                fprintf(stderr, "aeskit-lib-ab: warning: %s and %s have the same contents\n", argv[6 + e],
                        argv[6 + l]);
    }
    for (int l = 0; l < nl; l++) {
        void *h = dlopen(argv[6 + l], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!h) {
            fprintf(stderr, "aeskit-lib-ab: %s\n", dlerror());
            return 1;
        }
        init_fn in = (init_fn)dlsym(h, "aeskit_gcm_init_backend");
        sf[l] = (seal_fn)dlsym(h, "aeskit_gcm_seal");
        of[l] = (open_fn)dlsym(h, "aeskit_gcm_open");
        bf[l] = (batch_fn)dlsym(h, open ? "aeskit_gcm_open_batch" : "aeskit_gcm_seal_batch");
        if (!in || !sf[l] || !of[l] || (batch && !bf[l])) {
            fprintf(stderr, "aeskit-lib-ab: %s lacks the GCM calls\n", argv[6 + l]);
            return 1;
        }
        aeskit_status st = in(&keys[l], key, klen, backend);
        if (st != AESKIT_OK) {
            fprintf(stderr, "aeskit-lib-ab: %s: key set-up failed (%d)\n", argv[6 + l], (int)st);
            return 1;
        }
    }
    printf("%s %s AES-%zu-GCM, ticks per %s (best round), speed against lib0, spread\n", backend, argv[2],
           8 * klen, batch ? "message" : "call");
    printf("%-7s", "size");
    for (int l = 0; l < nl; l++)
        printf("  lib%d ticks", l);
    for (int l = 1; l < nl; l++)
        printf("  lib%d/lib0", l);
    printf("  spreads\n");
    for (int z = 0; z < nsz; z++) {
        const size_t n = sizes[z];
        /* The message the opens take, sealed by lib0 and checked by every
         * library before timing: an open that fails would time the failure
         * path. */
        if (sf[0](&keys[0], ctb, tags[0], 16, inb, n, ivs[0], 12, aad, 16) != AESKIT_OK)
            return 1;
        if (open)
            for (int l = 0; l < nl; l++)
                if (of[l](&keys[l], outb, ctb, n, tags[0], 16, ivs[0], 12, aad, 16) != AESKIT_OK) {
                    fprintf(stderr, "aeskit-lib-ab: lib%d rejects lib0's tag at %zu bytes\n", l, n);
                    return 1;
                }
        /* The batch opens' messages: message i sealed by lib0 with IV i. */
        if (batch && open)
            for (int i = 0; i < BATCH; i++)
                if (sf[0](&keys[0], bin + i * slot(n), btags[i], 16, inb, n, ivs[i], 12, aad, 16) != AESKIT_OK)
                    return 1;
        static double mins[MAX_LIBS][MAX_ROUNDS];
        for (int r = 0; r < rounds; r++)
            for (int l = 0; l < nl; l++)
                mins[l][r] = batch ? time_batch(bf[l], &keys[l], open, n)
                                   : time_calls(sf[l], of[l], &keys[l], open, n);
        double best[MAX_LIBS], spread[MAX_LIBS];
        for (int l = 0; l < nl; l++) {
            double t[MAX_ROUNDS];
            memcpy(t, mins[l], sizeof(double) * (size_t)rounds);
            qsort(t, (size_t)rounds, sizeof(double), cmp_double);
            best[l] = t[0];
            spread[l] = 1 - t[0] / t[rounds / 2];
        }
        printf("%-7zu", n);
        for (int l = 0; l < nl; l++)
            printf("  %10.1f", best[l]);
        for (int l = 1; l < nl; l++)
            printf("  %9.3f", best[0] / best[l]);
        printf(" ");
        for (int l = 0; l < nl; l++)
            printf(" %.0f%%", 100 * spread[l]);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
