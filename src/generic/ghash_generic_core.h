/*
 * ghash_generic_core.h - constant-time GHASH over GCC/Clang vectors of
 * 64-bit lanes, included once per vector width by ghash_generic*.c.
 *
 * Before including, define AKGH_W (16, 32 or 64 bytes) and AKGH_NAME(x).
 *
 * ---- What it computes ------------------------------------------------------
 * 32 blocks per step with one reduction (aggregated reduction):
 *   Y' = (Y ^ X1) H^32 ^ X2 H^31 ^ ... ^ X32 H
 * Lane j of the step holds block j and the power H^(32-j); a step is 32/L
 * vectors when a vector has L 64-bit lanes.  Each lane computes the full
 * 256-bit carry-less product of its block and its power, the lanes are
 * XORed together, and the sum is shifted and reduced once in scalar code
 * (ghash_generic.c explains the bit order and the reduction).
 *
 * ---- The carry-less multiply ----------------------------------------------
 * 128 x 128 bits is Karatsuba twice: three 64 x 64 products, each three
 * 32 x 32 products.  A 32 x 32 carry-less product uses the integer
 * 32 x 32 -> 64 multiply of every 64-bit lane (pmuludq and its wider
 * forms) on operands split into 4 "holey" classes (bits 4 apart): at most
 * 8 partial products meet at one bit position, so carries stay inside the 3
 * bits above it, which belong to other classes and are masked off.  16
 * multiplies per 32 x 32 product, no table, no branch: constant time.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define akgh_v AKGH_NAME(v)
#define akgh_b AKGH_NAME(b)
typedef uint64_t akgh_v __attribute__((vector_size(AKGH_W), aligned(AKGH_W)));
#define AKGH_L (AKGH_W / 8)
#define AKGH_NV (AK_GH_GROUP / AKGH_L) /* vectors per group */
_Static_assert(8 % AKGH_L == 0, "ak_generic_ghash pads a last group to a multiple of 8 lanes");

/* Low 32 bits of each lane times low 32 bits of each lane, 64-bit result.
 * Clang finds pmuludq from the known-zero high bits; GCC needs telling. */
#ifndef AKGH_MUL32
#define AKGH_MUL32(a, b) ((a) * (b))
#endif

static inline akgh_v AKGH_NAME(cl32)(akgh_v a, akgh_v b)
{
    const uint64_t m = 0x11111111u, mm = 0x1111111111111111u;
    akgh_v bj[4], z[4];
    for (int j = 0; j < 4; j++)
        bj[j] = b & (m << j);
    for (int i = 0; i < 4; i++) {
        akgh_v ai = a & (m << i);
        for (int j = 0; j < 4; j++) {
            akgh_v p = AKGH_MUL32(ai, bj[j]);
            if (i == 0)
                z[j] = p;
            else
                z[(i + j) & 3] ^= p;
        }
    }
    return (z[0] & mm) | (z[1] & (mm << 1)) | (z[2] & (mm << 2)) | (z[3] & (mm << 3));
}

/* 64 x 64 -> 128 per lane. */
static inline void AKGH_NAME(cl64)(akgh_v a, akgh_v b, akgh_v *hi, akgh_v *lo)
{
    akgh_v a1 = a >> 32, b1 = b >> 32;
    akgh_v l = AKGH_NAME(cl32)(a, b), h = AKGH_NAME(cl32)(a1, b1);
    akgh_v m = AKGH_NAME(cl32)(a ^ a1, b ^ b1) ^ l ^ h;
    *lo = l ^ (m << 32);
    *hi = h ^ (m >> 32);
}

/* z[0..3] (z[0] most significant) ^= (ah:al) * (bh:bl) per lane. */
static inline void AKGH_NAME(cl128)(akgh_v z[4], akgh_v ah, akgh_v al, akgh_v bh, akgh_v bl)
{
    akgh_v hh, hl, lh, ll, mh, ml;
    AKGH_NAME(cl64)(ah, bh, &hh, &hl);
    AKGH_NAME(cl64)(al, bl, &lh, &ll);
    AKGH_NAME(cl64)(ah ^ al, bh ^ bl, &mh, &ml);
    mh ^= hh ^ lh;
    ml ^= hl ^ ll;
    z[0] ^= hh;
    z[1] ^= hl ^ mh;
    z[2] ^= lh ^ ml;
    z[3] ^= ll;
}

/* Byte shuffles for the loads: swap the bytes of every 64-bit word (the
 * blocks are big-endian), then split the words of two vectors into the even
 * (hi) and odd (lo) ones. */
#if AKGH_W == 16
#define AKGH_BSWAP_IDX 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8
#define AKGH_EVEN_IDX 0, 2
#define AKGH_ODD_IDX 1, 3
#elif AKGH_W == 32
#define AKGH_BSWAP_IDX 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, \
    23, 22, 21, 20, 19, 18, 17, 16, 31, 30, 29, 28, 27, 26, 25, 24
#define AKGH_EVEN_IDX 0, 2, 4, 6
#define AKGH_ODD_IDX 1, 3, 5, 7
#elif AKGH_W == 64
#define AKGH_BSWAP_IDX 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, \
    23, 22, 21, 20, 19, 18, 17, 16, 31, 30, 29, 28, 27, 26, 25, 24, \
    39, 38, 37, 36, 35, 34, 33, 32, 47, 46, 45, 44, 43, 42, 41, 40, \
    55, 54, 53, 52, 51, 50, 49, 48, 63, 62, 61, 60, 59, 58, 57, 56
#define AKGH_EVEN_IDX 0, 2, 4, 6, 8, 10, 12, 14
#define AKGH_ODD_IDX 1, 3, 5, 7, 9, 11, 13, 15
#endif

typedef uint8_t akgh_b __attribute__((vector_size(AKGH_W)));

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define AKGH_SHUF2(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define AKGH_SHUF2(a, b, ...) __builtin_shuffle(a, b, (akgh_v){__VA_ARGS__})
#endif

#ifdef AKGH_NO_BYTE_SHUFFLE
/* Targets without a byte shuffle (x86-64 before SSSE3) would get the byte
 * reversal below as scalar byte moves.  Reversing the 16-bit words
 * (pshuflw, pshufhw) and then the bytes of each (two shifts, an OR)
 * reverses every 64-bit word the same way in vector operations. */
#if AKGH_W != 16
#error "AKGH_NO_BYTE_SHUFFLE is written for 16-byte vectors"
#endif
#define akgh_h AKGH_NAME(h)
typedef uint16_t akgh_h __attribute__((vector_size(16)));
static inline akgh_v AKGH_NAME(bswap64)(akgh_v a)
{
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
    akgh_h h = __builtin_shufflevector((akgh_h)a, (akgh_h)a, 3, 2, 1, 0, 7, 6, 5, 4);
#else
    akgh_h h = __builtin_shuffle((akgh_h)a, (akgh_h){3, 2, 1, 0, 7, 6, 5, 4});
#endif
    return (akgh_v)((h << 8) | (h >> 8));
}
#endif

static inline void AKGH_NAME(load)(const uint8_t *in, akgh_v *xh, akgh_v *xl)
{
    akgh_v a, b;
    memcpy(&a, in, AKGH_W);
    memcpy(&b, in + AKGH_W, AKGH_W);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#elif defined(AKGH_NO_BYTE_SHUFFLE)
    a = AKGH_NAME(bswap64)(a);
    b = AKGH_NAME(bswap64)(b);
#else
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
    a = (akgh_v)__builtin_shufflevector((akgh_b)a, (akgh_b)a, AKGH_BSWAP_IDX);
    b = (akgh_v)__builtin_shufflevector((akgh_b)b, (akgh_b)b, AKGH_BSWAP_IDX);
#else
    a = (akgh_v)__builtin_shuffle((akgh_b)a, (akgh_b){AKGH_BSWAP_IDX});
    b = (akgh_v)__builtin_shuffle((akgh_b)b, (akgh_b){AKGH_BSWAP_IDX});
#endif
#endif
    *xh = AKGH_SHUF2(a, b, AKGH_EVEN_IDX);
    *xl = AKGH_SHUF2(a, b, AKGH_ODD_IDX);
}

/* Folds ngroups groups of nblk <= AK_GH_GROUP blocks each into (yh, yl):
 * full groups (nblk = AK_GH_GROUP, powers at H^32, ..., H^1), or one last
 * group of n blocks zero-padded to a whole vector (powers at H^n, ..., H^1,
 * then zero entries); only the vectors holding blocks are computed.  Lane b
 * multiplies its block by powers[2 * b] (hi) : powers[2 * b + 1] (lo), and
 * lane 0 takes Y ^ X1, so Y H^n costs no product of its own.  Vector 0,
 * the one that waits for the previous group's reduction, runs last. */
static void AKGH_NAME(ghash_groups)(const uint64_t *powers, uint64_t *yh, uint64_t *yl,
                                    const uint8_t *in, size_t ngroups, size_t nblk,
                                    ak_gen_reduce_fn reduce_fn)
{
    akgh_v ph[AKGH_NV], pl[AKGH_NV];
    uint64_t y_h = *yh, y_l = *yl;
    int nv = (int)((nblk + AKGH_L - 1) / AKGH_L);
    for (int v = 0; v < nv; v++)
        for (int j = 0; j < AKGH_L; j++) {
            ph[v][j] = powers[2 * (v * AKGH_L + j)];
            pl[v][j] = powers[2 * (v * AKGH_L + j) + 1];
        }
    for (size_t g = 0; g < ngroups; g++) {
        akgh_v z[4], xh, xl, yv_h = {0}, yv_l = {0};
        memset(z, 0, sizeof z);
        for (int v = nv - 1; v > 0; v--) {
            AKGH_NAME(load)(in + 2 * AKGH_W * v, &xh, &xl);
            AKGH_NAME(cl128)(z, xh, xl, ph[v], pl[v]);
        }
        AKGH_NAME(load)(in, &xh, &xl);
        yv_h[0] = y_h;
        yv_l[0] = y_l;
        AKGH_NAME(cl128)(z, xh ^ yv_h, xl ^ yv_l, ph[0], pl[0]);
        uint64_t s[4] = {0, 0, 0, 0};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < AKGH_L; j++)
                s[i] ^= z[i][j];
        reduce_fn(s, &y_h, &y_l);
        in += 16 * nblk;
    }
    *yh = y_h;
    *yl = y_l;
}

#undef akgh_v
#undef akgh_b
#undef akgh_h
#undef AKGH_W
#undef AKGH_NAME
#undef AKGH_L
#undef AKGH_NV
#undef AKGH_MUL32
#undef AKGH_BSWAP_IDX
#undef AKGH_EVEN_IDX
#undef AKGH_ODD_IDX
