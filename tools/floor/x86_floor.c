/*
 * aeskit-x86-floor - what this x86 core can do at best, measured.
 *
 * Needs: x86-64; the VAES/VPCLMULQDQ rows need those features (and AVX-512F
 * for the 512-bit rows), as aeskit detects them; rows the CPU lacks are
 * reported as such.
 *
 * The speed goals of aeskit are ratios to other libraries; this tool tells
 * whether a goal is possible at all on this machine.  It measures, with
 * twelve independent chains (enough to hide any latency), the throughput of
 * AESENC and PCLMULQDQ at 128, 256 and 512 bits, each alone and the two
 * mixed (do they share an execution port?), and the latency of one AESENC
 * (the bound of every serial mode: CBC encryption, CBC-MAC, CMAC).  From
 * these it prints the floors in cycles/byte and in GB/s at the measured
 * core clock:
 *   - CTR (and so any GCM, which does all of CTR's work and more):
 *     R rounds x (cycles per AES instruction) / (16 x blocks per instruction);
 *   - a serial mode: R x AESENC latency / 16.
 * The clock is measured with a chain of dependent register+register adds
 * (see tools/speed/clock.c for why not add-immediate).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "aeskit.h"

#if defined(__x86_64__)
#include <immintrin.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Core cycles per nanosecond (GHz): one dependent add per cycle. */
static double core_ghz(void)
{
    uint64_t x = 1, one = 1;
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t = now_ns();
        for (int i = 0; i < 2000000; i++) {
#define A1 __asm__ volatile("add %1, %0" : "+r"(x) : "r"(one));
            A1 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1 A1
        }
        double ghz = 16.0 * 2000000 / (now_ns() - t);
        if (ghz > best)
            best = ghz;
    }
    return best;
}

#define ITERS 2000000
/* Twelve independent chains of OP (A on even chains, B on odd ones); returns
 * ns per instruction, best of 5. */
#define THROUGHPUT_FN(NAME, TGT, V, SET, A, B)                                                    \
    __attribute__((target(TGT), noinline)) static double NAME(void)                                \
    {                                                                                              \
        double best = 1e30;                                                                        \
        for (int rep = 0; rep < 5; rep++) {                                                        \
            V k = SET(99), a0 = SET(0), a1 = SET(1), a2 = SET(2), a3 = SET(3), a4 = SET(4),         \
              a5 = SET(5), a6 = SET(6), a7 = SET(7), a8 = SET(8), a9 = SET(9), a10 = SET(10),       \
              a11 = SET(11);                                                                       \
            double t = now_ns();                                                                   \
            for (int i = 0; i < ITERS; i++) {                                                      \
                a0 = A(a0, k); a1 = B(a1, k); a2 = A(a2, k); a3 = B(a3, k);                        \
                a4 = A(a4, k); a5 = B(a5, k); a6 = A(a6, k); a7 = B(a7, k);                        \
                a8 = A(a8, k); a9 = B(a9, k); a10 = A(a10, k); a11 = B(a11, k);                    \
            }                                                                                      \
            __asm__ volatile("" ::"v"(a0), "v"(a1), "v"(a2), "v"(a3), "v"(a4), "v"(a5), "v"(a6),  \
                             "v"(a7), "v"(a8), "v"(a9), "v"(a10), "v"(a11));                       \
            double ns = (now_ns() - t) / (12.0 * ITERS);                                           \
            if (ns < best)                                                                         \
                best = ns;                                                                         \
        }                                                                                          \
        return best;                                                                               \
    }

#define SET128(i) _mm_set1_epi32(i)
#define SET256(i) _mm256_set1_epi32(i)
#define SET512(i) _mm512_set1_epi32(i)
#define AES128(a, k) _mm_aesenc_si128(a, k)
#define CLM128(a, k) _mm_clmulepi64_si128(a, k, 0x01)
#define AES256(a, k) _mm256_aesenc_epi128(a, k)
#define CLM256(a, k) _mm256_clmulepi64_epi128(a, k, 0x01)
#define AES512(a, k) _mm512_aesenc_epi128(a, k)
#define CLM512(a, k) _mm512_clmulepi64_epi128(a, k, 0x01)

THROUGHPUT_FN(aes_x, "aes,pclmul,sse4.1", __m128i, SET128, AES128, AES128)
THROUGHPUT_FN(clm_x, "aes,pclmul,sse4.1", __m128i, SET128, CLM128, CLM128)
THROUGHPUT_FN(mix_x, "aes,pclmul,sse4.1", __m128i, SET128, AES128, CLM128)
THROUGHPUT_FN(aes_y, "vaes,vpclmulqdq,avx2", __m256i, SET256, AES256, AES256)
THROUGHPUT_FN(clm_y, "vaes,vpclmulqdq,avx2", __m256i, SET256, CLM256, CLM256)
THROUGHPUT_FN(mix_y, "vaes,vpclmulqdq,avx2", __m256i, SET256, AES256, CLM256)
THROUGHPUT_FN(aes_z, "vaes,vpclmulqdq,avx512f", __m512i, SET512, AES512, AES512)
THROUGHPUT_FN(clm_z, "vaes,vpclmulqdq,avx512f", __m512i, SET512, CLM512, CLM512)
THROUGHPUT_FN(mix_z, "vaes,vpclmulqdq,avx512f", __m512i, SET512, AES512, CLM512)

/* ns per AESENC on one dependent chain. */
__attribute__((target("aes"), noinline)) static double aes_latency(void)
{
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        __m128i a = _mm_set1_epi32(1), k = _mm_set1_epi32(3);
        double t = now_ns();
        for (int i = 0; i < ITERS; i++) {
            a = _mm_aesenc_si128(a, k);
            a = _mm_aesenc_si128(a, k);
            a = _mm_aesenc_si128(a, k);
            a = _mm_aesenc_si128(a, k);
        }
        __asm__ volatile("" ::"x"(a));
        double ns = (now_ns() - t) / (4.0 * ITERS);
        if (ns < best)
            best = ns;
    }
    return best;
}

static void row(const char *width, int blocks, double aes_ns, double clm_ns, double mix_ns, double ghz)
{
    double aes_c = aes_ns * ghz, clm_c = clm_ns * ghz, mix_c = mix_ns * ghz;
    printf("%-8s AESENC %.2f cyc/instr (%.2f blocks/cycle), PCLMULQDQ %.2f, mixed 1:1 %.2f (%s)\n", width, aes_c,
           blocks / aes_c, clm_c, mix_c, mix_c < 0.75 * (aes_c > clm_c ? aes_c : clm_c) ? "separate ports" : "shared port");
    for (int r = 10; r <= 14; r += 4) {
        double cpb = r * aes_c / (16.0 * blocks);
        printf("         AES-%d CTR/GCM floor: %.3f cycles/byte = %.1f GB/s at %.2f GHz\n", r == 10 ? 128 : 256, cpb,
               ghz / cpb, ghz);
    }
}

/* CPU features as aeskit detects them (CPUID and XGETBV, after the
 * AESKIT_CPU mask): a space-separated list. */
static int has(const char *feature)
{
    const char *list = aeskit_cpu_features();
    size_t n = strlen(feature);
    for (const char *p = list; (p = strstr(p, feature)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(void)
{
    if (!has("aesni") || !has("pclmul")) {
        printf("this CPU has no AES-NI/PCLMULQDQ: nothing to measure\n");
        return 0;
    }
    double ghz = core_ghz();
    printf("core clock (dependent adds): %.2f GHz\n", ghz);
    double lat = aes_latency() * ghz;
    printf("AESENC latency %.2f cycles: serial-mode floor (CBC-MAC/CMAC/CBC encryption) AES-128 %.2f cycles/byte = "
           "%.2f GB/s\n",
           lat, 10 * lat / 16, ghz / (10 * lat / 16));
    row("128-bit", 1, aes_x(), clm_x(), mix_x(), ghz);
    if (has("vaes") && has("vpclmulqdq") && has("avx2"))
        row("256-bit", 2, aes_y(), clm_y(), mix_y(), ghz);
    else
        printf("256-bit: no VAES/VPCLMULQDQ on this CPU\n");
    if (has("vaes") && has("vpclmulqdq") && has("avx512f"))
        row("512-bit", 4, aes_z(), clm_z(), mix_z(), ghz);
    else
        printf("512-bit: no VAES/VPCLMULQDQ with AVX-512 on this CPU\n");
    printf("(GCM does all of CTR's AES work plus GHASH: no GCM can run faster than the CTR floor.)\n");
    return 0;
}
#else
int main(void)
{
    printf("aeskit-x86-floor measures x86-64 cores only\n");
    return 0;
}
#endif
