/*
 * isa_speed.c - `aeskit isa-speed`: nanoseconds per emulated guest
 * instruction (issue 17), for each family, three ways in one run:
 *   host      aeskit_isa on this CPU's own instructions (the path chosen at
 *             start-up; AESKIT_CPU masks features as everywhere else)
 *   portable  aeskit_isa's constant-time C (aeskit_isa_use_portable(1))
 *   table C   a plain table-driven C helper, the way emulators do it today
 *             (QEMU 7.2's target/i386/ops_sse.h: T-table lookups indexed by
 *             state bytes for the AES rounds, S-box lookups for the last
 *             round, a shift-and-add loop that stops at the top set bit for
 *             carry-less multiplication).  Not constant-time: the baseline.
 * Each figure is the best of several rounds of a dependent chain (every
 * result feeds the next call, as in an emulated AES or GHASH loop), with
 * the spread of the rounds ((median - best) / best).  Printed, never
 * asserted: the machine's speed drifts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aeskit_isa.h"
#include "commands.h"

/* ---- the table-driven baseline -------------------------------------------- */
static uint8_t SB[256];
static uint32_t TE[256]; /* TE[x] = column (2S, S, S, 3S), little-endian bytes */

static uint8_t gm(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (; b; b >>= 1, a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0)))
        if (b & 1)
            r ^= a;
    return r;
}
static void tables_init(void)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gm((uint8_t)x, (uint8_t)y) == 1)
                inv = (uint8_t)y;
        uint8_t s = inv;
        for (int i = 1; i <= 4; i++)
            s ^= (uint8_t)((inv << i) | (inv >> (8 - i)));
        SB[x] = s ^ 0x63;
    }
    for (int x = 0; x < 256; x++) {
        uint8_t s = SB[x];
        TE[x] = (uint32_t)gm(s, 2) | (uint32_t)s << 8 | (uint32_t)s << 16 | (uint32_t)gm(s, 3) << 24;
    }
}
static inline uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static const uint8_t SHIFTS[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};

__attribute__((noinline)) static void t_aesenc(uint8_t *d, const uint8_t *s, const uint8_t *k)
{
    uint8_t st[16];
    memcpy(st, s, 16);
    for (int c = 0; c < 4; c++) {
        uint32_t w = TE[st[SHIFTS[4 * c]]] ^ rol(TE[st[SHIFTS[4 * c + 1]]], 8) ^
                     rol(TE[st[SHIFTS[4 * c + 2]]], 16) ^ rol(TE[st[SHIFTS[4 * c + 3]]], 24);
        for (int r = 0; r < 4; r++)
            d[4 * c + r] = (uint8_t)(w >> (8 * r)) ^ k[4 * c + r];
    }
}
__attribute__((noinline)) static void t_aesenclast(uint8_t *d, const uint8_t *s, const uint8_t *k)
{
    uint8_t st[16];
    memcpy(st, s, 16);
    for (int i = 0; i < 16; i++)
        d[i] = SB[st[SHIFTS[i]]] ^ k[i];
}
__attribute__((noinline)) static void t_aeskeygenassist(uint8_t *d, const uint8_t *s, unsigned imm)
{
    uint8_t t[16];
    for (int i = 0; i < 4; i++) {
        t[i] = SB[s[i + 4]];
        t[i + 8] = SB[s[i + 12]];
    }
    uint32_t l0, l2;
    memcpy(&l0, t, 4);
    memcpy(&l2, t + 8, 4);
    uint32_t l1 = (l0 << 24 | l0 >> 8) ^ imm, l3 = (l2 << 24 | l2 >> 8) ^ imm;
    memcpy(d, &l0, 4);
    memcpy(d + 4, &l1, 4);
    memcpy(d + 8, &l2, 4);
    memcpy(d + 12, &l3, 4);
}
static void t_clmul(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
    uint64_t al = a, ah = 0, rl = 0, rh = 0;
    while (b) {
        if (b & 1) {
            rl ^= al;
            rh ^= ah;
        }
        ah = (ah << 1) | (al >> 63);
        al <<= 1;
        b >>= 1;
    }
    *lo = rl;
    *hi = rh;
}
static uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
__attribute__((noinline)) static void t_pclmulqdq(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
{
    uint64_t lo, hi;
    t_clmul(ld64(a + 8 * (imm & 1)), ld64(b + 8 * ((imm >> 4) & 1)), &lo, &hi);
    st64(d, lo);
    st64(d + 8, hi);
}
__attribute__((noinline)) static void t_vaesenc_x4(uint8_t *d, const uint8_t *s, const uint8_t *k)
{
    for (int l = 0; l < 4; l++)
        t_aesenc(d + 16 * l, s + 16 * l, k + 16 * l);
}
__attribute__((noinline)) static void t_aese(uint8_t *d, const uint8_t *vd, const uint8_t *vn)
{
    uint8_t t[16];
    for (int i = 0; i < 16; i++)
        t[i] = vd[i] ^ vn[i];
    for (int i = 0; i < 16; i++)
        d[i] = SB[t[SHIFTS[i]]];
}
__attribute__((noinline)) static void t_aesmc(uint8_t *d, const uint8_t *s)
{
    uint8_t t[16];
    memcpy(t, s, 16);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            d[4 * c + r] = gm(t[4 * c + r], 2) ^ gm(t[4 * c + (r + 1) % 4], 3) ^ t[4 * c + (r + 2) % 4] ^
                           t[4 * c + (r + 3) % 4];
}
__attribute__((noinline)) static void t_pmull(uint8_t *d, const uint8_t *a, const uint8_t *b) { t_pclmulqdq(d, a, b, 0); }
__attribute__((noinline)) static void t_vpmsumd(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    uint64_t l0, h0, l1, h1;
    t_clmul(__builtin_bswap64(ld64(a)), __builtin_bswap64(ld64(b)), &l0, &h0);
    t_clmul(__builtin_bswap64(ld64(a + 8)), __builtin_bswap64(ld64(b + 8)), &l1, &h1);
    st64(d, __builtin_bswap64(h0 ^ h1));
    st64(d + 8, __builtin_bswap64(l0 ^ l1));
}
__attribute__((noinline)) static uint64_t t_aes64esm(uint64_t rs1, uint64_t rs2)
{
    uint8_t s[16], d[16], z[16] = {0};
    st64(s, rs1);
    st64(s + 8, rs2);
    t_aesenc(d, s, z);
    return ld64(d);
}
__attribute__((noinline)) static uint64_t t_rvclmul(uint64_t a, uint64_t b)
{
    uint64_t lo, hi;
    t_clmul(a, b, &lo, &hi);
    return lo;
}

/* ---- the families ----------------------------------------------------------- */
typedef void b3(uint8_t *, const uint8_t *, const uint8_t *);
typedef void b3i(uint8_t *, const uint8_t *, const uint8_t *, unsigned);
typedef void b2(uint8_t *, const uint8_t *);
typedef void b2i(uint8_t *, const uint8_t *, unsigned);
typedef uint64_t r2(uint64_t, uint64_t);

enum { K_B3, K_B3I, K_B2, K_B2I, K_R2 };
struct fam {
    const char *name;
    int kind, n;
    void *lib, *table;
    unsigned imm;
};

static uint8_t st_[64], key_[64];

static double run_chain(const struct fam *f, void *fn, long iters)
{
    struct timespec t0, t1;
    uint64_t x = ld64(st_), y = ld64(key_);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    switch (f->kind) {
    case K_B3:
        for (long i = 0; i < iters; i++)
            ((b3 *)fn)(st_, st_, key_);
        break;
    case K_B3I:
        for (long i = 0; i < iters; i++)
            ((b3i *)fn)(st_, st_, key_, f->imm);
        break;
    case K_B2:
        for (long i = 0; i < iters; i++)
            ((b2 *)fn)(st_, st_);
        break;
    case K_B2I:
        for (long i = 0; i < iters; i++)
            ((b2i *)fn)(st_, st_, f->imm);
        break;
    default:
        for (long i = 0; i < iters; i++)
            x = ((r2 *)fn)(x, y) ^ (uint64_t)i;
        st64(st_, x);
        break;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* Keep the chain from ever becoming all-zero (PCLMUL of 0 stays 0). */
    st_[0] |= 1;
    st_[8] |= 1;
    return ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)iters;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Best and spread over `rounds` timings. */
static double measure(const struct fam *f, void *fn, int portable, int rounds, long iters, double *spread)
{
    double t[32];
    if (fn != f->table)
        aeskit_isa_use_portable(portable);
    for (int i = 0; i < 64; i++) {
        st_[i] = (uint8_t)(i * 29 + 7);
        key_[i] = (uint8_t)(i * 53 + 11);
    }
    run_chain(f, fn, iters / 10 + 1); /* warm-up */
    for (int r = 0; r < rounds; r++)
        t[r] = run_chain(f, fn, iters);
    qsort(t, (size_t)rounds, sizeof t[0], cmpd);
    *spread = (t[rounds / 2] - t[0]) / t[0];
    aeskit_isa_use_portable(0);
    return t[0];
}

static void usage(FILE *o)
{
    fprintf(o, "usage: aeskit isa-speed [--rounds N] [--iters N]\n"
               "  ns per emulated instruction (dependent chain), best of N rounds (default 7)\n"
               "  of --iters calls each (default 200000), for aeskit_isa's host path, its\n"
               "  portable path, and a table-driven C helper like QEMU 7.2's.\n");
}

int aeskit_cmd_isa_speed(int argc, char **argv)
{
    int rounds = 7;
    long iters = 200000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
            iters = atol(argv[++i]);
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (rounds < 1 || rounds > 32 || iters < 1) {
        usage(stderr);
        return 2;
    }
    tables_init();
    const struct fam fams[] = {
        {"x86 AESENC", K_B3, 16, (void *)aeskit_isa_x86_aesenc, (void *)t_aesenc, 0},
        {"x86 AESENCLAST", K_B3, 16, (void *)aeskit_isa_x86_aesenclast, (void *)t_aesenclast, 0},
        {"x86 AESKEYGENASSIST", K_B2I, 16, (void *)aeskit_isa_x86_aeskeygenassist, (void *)t_aeskeygenassist, 0x1b},
        {"x86 PCLMULQDQ", K_B3I, 16, (void *)aeskit_isa_x86_pclmulqdq, (void *)t_pclmulqdq, 0x11},
        {"x86 VAESENC zmm (4 lanes)", K_B3, 64, (void *)aeskit_isa_x86_vaesenc_x4, (void *)t_vaesenc_x4, 0},
        {"arm AESE", K_B3, 16, (void *)aeskit_isa_arm_aese, (void *)t_aese, 0},
        {"arm AESMC", K_B2, 16, (void *)aeskit_isa_arm_aesmc, (void *)t_aesmc, 0},
        {"arm PMULL .1q", K_B3, 16, (void *)aeskit_isa_arm_pmull_1q, (void *)t_pmull, 0},
        {"ppc vcipher", K_B3, 16, (void *)aeskit_isa_ppc_vcipher, (void *)t_aesenc, 0},
        {"ppc vpmsumd", K_B3, 16, (void *)aeskit_isa_ppc_vpmsumd, (void *)t_vpmsumd, 0},
        {"riscv aes64esm", K_R2, 8, (void *)aeskit_isa_rv_aes64esm, (void *)t_aes64esm, 0},
        {"riscv clmul", K_R2, 8, (void *)aeskit_isa_rv_clmul, (void *)t_rvclmul, 0},
    };
    printf("aeskit_isa host path: %s\n", aeskit_isa_path());
    printf("ns per emulated instruction (dependent chain, best of %d x %ld calls; spread = (median - best) / best)\n",
           rounds, iters);
    printf("%-26s %9s %9s %9s %9s  %s\n", "instruction", "host", "portable", "table C", "table/host", "spread h/p/t");
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++) {
        const struct fam *f = &fams[i];
        double sh, sp, st;
        double h = measure(f, f->lib, 0, rounds, iters, &sh);
        double p = measure(f, f->lib, 1, rounds, iters / 4 + 1, &sp);
        double t = measure(f, f->table, 0, rounds, iters, &st);
        printf("%-26s %9.2f %9.2f %9.2f %8.1fx  %.0f%%/%.0f%%/%.0f%%\n", f->name, h, p, t, t / h, 100 * sh,
               100 * sp, 100 * st);
    }
    printf("(table C: T-table / S-box lookups and a shift-and-add loop, as in QEMU 7.2; not constant-time)\n");
    return 0;
}
