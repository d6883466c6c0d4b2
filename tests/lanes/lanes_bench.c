/*
 * lanes_bench.c - prints the speed of every usable backend's cbc_lanes
 * (through ak_cbc_lanes, so a backend without a kernel shows
 * ak_cbc_lanes_serial) against the same bytes as one stream after another
 * (the backend's cbcmac), and against its CTR (ctr32) over the same total.
 * A benchmark, not a test: it asserts nothing and is not registered with
 * ctest.
 *
 * usage: lanes_bench [BACKEND] [REPS]
 * For each message size (1 KiB, 8 KiB, and 4 KiB for CBC encryption) and
 * lane count (1, 4, 8, 16, 32), the kinds are timed in turn inside each
 * repetition (interleaved, so load on the machine hits them alike); the
 * line shows the best GB/s over REPS (default 15) and, after the slash,
 * the median.  Keys: one shared by every lane, or one per lane ("dk").
 * Lane i's buffers start 16 * blocks * i bytes into page-aligned input and
 * output areas (lanes 1, 4 or 8 KiB apart); LANES_SKEW=N adds N more bytes
 * per lane, to see what lanes a multiple of 4 KiB apart (one L1 set) cost.
 */
#include <time.h>

#include "harness.h"
#include "internal.h"

#define MAXL 32
#define MAXB (8192 / 16)

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { K_SERIAL, K_LANES_MAC, K_LANES_MAC_DK, K_LANES_ENC, K_LANES_ENC_DK, K_CTR, K_COUNT };
static const char *kind_name[K_COUNT] = {"1-stream cbcmac", "lanes MAC", "lanes MAC dk", "lanes enc",
                                          "lanes enc dk", "ctr32 same bytes"};

static aeskit_aes_key keys[MAXL];
static uint8_t *buf, *obuf;
static size_t skew; /* bytes added to lane i's buffer offset per lane (LANES_SKEW) */

static double run_kind(int kind, const ak_backend *be, size_t lanes, size_t blocks)
{
    static ak_cbc_lane l[MAXL];
    const ak_aes *k0 = (const ak_aes *)(const void *)&keys[0];
    uint8_t st[16] = {0};
    size_t total = lanes * blocks * 16;
    /* About 4 MB per timing, at least one call. */
    size_t calls = 4u * 1024 * 1024 / total;
    calls = calls ? calls : 1;
    double t = now_ns();
    for (size_t c = 0; c < calls; c++) {
        switch (kind) {
        case K_SERIAL:
            for (size_t i = 0; i < lanes; i++)
                be->cbcmac(k0, st, buf + 16 * blocks * i, blocks);
            break;
        case K_CTR: be->ctr32(k0, obuf, buf, lanes * blocks, st); break;
        default:
            for (size_t i = 0; i < lanes; i++) {
                int dk = kind == K_LANES_MAC_DK || kind == K_LANES_ENC_DK;
                int enc = kind == K_LANES_ENC || kind == K_LANES_ENC_DK;
                l[i].aes = (const ak_aes *)(const void *)&keys[dk ? i : 0];
                l[i].in = buf + (16 * blocks + skew) * i;
                l[i].out = enc ? obuf + (16 * blocks + skew) * i : NULL;
                l[i].blocks = blocks;
            }
            ak_cbc_lanes(be, l, lanes);
            break;
        }
    }
    t = now_ns() - t;
    return (double)(total * calls) / t; /* bytes per ns = GB/s */
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int reps = argc > 2 ? atoi(argv[2]) : 15;
    reps = reps < 1 ? 1 : reps > 99 ? 99 : reps;
    skew = getenv("LANES_SKEW") ? (size_t)atoi(getenv("LANES_SKEW")) % 4096 : 0;
    buf = aligned_alloc(4096, (16 * MAXB + 4096) * MAXL);
    obuf = aligned_alloc(4096, (16 * MAXB + 4096) * MAXL);
    if (!buf || !obuf)
        return 1;
    th_fill(buf, 16 * MAXB * MAXL);
    printf("lanes_bench: GB/s best/median of %d interleaved repetitions; AES-128\n", reps);
    for (size_t b = 0; b < ak_backend_count(); b++) {
        const ak_backend *be = ak_backend_at(b);
        if (!ak_backend_usable(be) || (only && strcmp(only, be->name)))
            continue;
        uint8_t key[16];
        for (size_t i = 0; i < MAXL; i++) {
            th_fill(key, 16);
            if (aeskit_aes_init_backend(&keys[i], key, 16, be->name) != AESKIT_OK)
                return 1;
        }
        printf("\n== %s (%s)\n", be->name, be->cbc_lanes ? "own kernel" : "ak_cbc_lanes_serial");
        static const size_t sizes[] = {1024, 4096, 8192}, lcounts[] = {1, 4, 8, 16, 32};
        for (size_t si = 0; si < 3; si++)
            for (size_t li = 0; li < 5; li++) {
                size_t blocks = sizes[si] / 16, lanes = lcounts[li];
                double r[K_COUNT][99];
                for (int rep = 0; rep < reps; rep++)
                    for (int k = 0; k < K_COUNT; k++)
                        r[k][rep] = run_kind(k, be, lanes, blocks);
                printf("%5zu B x %2zu lanes:", sizes[si], lanes);
                double best[K_COUNT];
                for (int k = 0; k < K_COUNT; k++) {
                    qsort(r[k], (size_t)reps, sizeof(double), cmp_d);
                    best[k] = r[k][reps - 1];
                    printf("  %s %.3f/%.3f", kind_name[k], best[k], r[k][reps / 2]);
                }
                printf("  | MAC/1-stream %.1fx, enc/ctr %.2fx\n", best[K_LANES_MAC] / best[K_SERIAL],
                       best[K_LANES_ENC] / best[K_CTR]);
            }
        for (size_t i = 0; i < MAXL; i++)
            aeskit_aes_wipe(&keys[i]);
    }
    free(buf);
    free(obuf);
    return 0;
}
