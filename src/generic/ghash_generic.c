/*
 * ghash_generic.c - portable constant-time GHASH (SP 800-38D 6.4).
 * CPU features: none (a 64x64->128 integer multiply helps, see below).
 *
 * ---- Carry-less multiplication by integer multiplication -----------------
 * An integer product is the carry-less product plus carries.  If the
 * operands are masked so that their set bits are k positions apart
 * ("holes"), then every partial product lands on positions of one residue
 * class mod k, and as long as fewer than 2^k partial products meet at one
 * position, the carries only reach
 * the k-1 positions above it, which belong to other classes.  Splitting each
 * operand into k classes, XORing the k*k products by output class and
 * masking each class keeps exactly the carry-less product (this is the
 * trick of T. Pornin's BearSSL "ctmul" GHASH; our code and split are ours):
 *   - with unsigned __int128 (64x64->128 multiply): k = 5, at most 13
 *     partial products per position, 25 multiplies per 64x64 product;
 *   - otherwise 32x32->64 pieces with k = 4 (at most 8 partial products),
 *     16 multiplies per piece, 3 pieces per 64x64 (Karatsuba).
 * Multiplies by a secret are constant-time on every CPU we target.
 *
 * ---- Bit order and reduction ---------------------------------------------
 * GHASH reads a block as a polynomial whose x^0 coefficient is the most
 * significant bit of byte 0.  We load blocks as big-endian 128-bit integers,
 * so bit 127 - i holds x^i ("reflected").  For reflected operands the
 * integer carry-less product holds x^i at bit 254 - i; one left shift makes
 * it a reflected 256-bit value (x^i at bit 255 - i).  Its less significant
 * half D holds x^128..x^255, i.e. x^128 * D' with D' of degree < 128, and
 * x^128 = 1 + x + x^2 + x^7 mod
 * P(x) = x^128 + x^7 + x^2 + x + 1; in reflected form multiplying by x^m is
 * a right shift by m, so D folds as D ^ D>>1 ^ D>>2 ^ D>>7, and the bits
 * those shifts push out (degree >= 128 again) fold once more first.
 *
 * ---- Aggregated reduction -------------------------------------------------
 * Y' = (((Y ^ X1) H ^ X2) H ... ^ X32) H = Y H^32 ^ X1 H^32 ^ ... ^ X32 H:
 * 32 independent block products summed unreduced, then one shift and
 * one reduction (Gueron & Kounavis, Intel white paper "Carry-less
 * multiplication and its usage for computing the GCM mode", 2010).
 * ghash_init stores H^32..H^1 in ak_ghash.data.  The block products run in
 * vector lanes (ghash_generic_core.h) and the reduction here in scalar code.
 * Y enters a group as Y ^ X1 in its first lane, so a group costs no product
 * beyond its blocks'.  That lane's product waits for the previous group's
 * reduction: behind a group's other vectors the wait is hidden, but a short
 * group right after a reduction waits in the open, so the GCM front end
 * hashes a small message's AAD, ciphertext and length block in one call
 * (gcm.c, gcm_msg_primitives).  The scalar multiply below (25 integer
 * multiplies with __int128) computes the powers, and every product where
 * vectors are off.
 */
#include "generic.h"

/* 64x64 -> 128 carry-less product, constant time. */
#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 ak_u128;

static inline void clmul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    const uint64_t m = 0x1084210842108421u; /* every 5th bit */
    uint64_t ai[5], bi[5];
    for (int i = 0; i < 5; i++) {
        ai[i] = a & (m << i);
        bi[i] = b & (m << i);
    }
    uint64_t rh = 0, rl = 0;
    for (int c = 0; c < 5; c++) {
        ak_u128 z = 0;
        for (int i = 0; i < 5; i++)
            z ^= (ak_u128)ai[i] * bi[(c - i + 5) % 5];
        /* Class c: positions p = c mod 5; in the high word 64 + q = c mod 5
         * means q = c + 1 mod 5. */
        rl |= (uint64_t)z & (m << c);
        rh |= (uint64_t)(z >> 64) & (m << ((c + 1) % 5));
    }
    *hi = rh;
    *lo = rl;
}
#else
static inline uint64_t clmul32(uint32_t a, uint32_t b)
{
    const uint32_t m = 0x11111111u;
    uint64_t r = 0;
    for (int c = 0; c < 4; c++) {
        uint64_t z = 0;
        for (int i = 0; i < 4; i++)
            z ^= (uint64_t)(a & (m << i)) * (uint64_t)(b & (m << ((c - i + 4) % 4)));
        r |= z & ((uint64_t)0x1111111111111111u << c);
    }
    return r;
}

static inline void clmul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32), b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t l = clmul32(a0, b0), h = clmul32(a1, b1), m = clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    *lo = l ^ (m << 32);
    *hi = h ^ (m >> 32);
}
#endif

/* ak_ghash.data of the generic backend (and of x86-ssse3, which uses this
 * GHASH). */
typedef struct ak_gen_ghash_key {
    /* pow[i] = {hi, lo} of H^(32 - i), i = 0 .. 31: H^32 first, H^1 last
     * (the big-endian halves of the block, SP 800-38D bit order) */
    uint64_t pow[AK_GH_GROUP][2];
    /* AK_GEN_V_*: the width of the block products, chosen in ghash_init */
    uint32_t variant;
    /* (4 bytes of padding: the struct is 8-byte aligned) */
} ak_gen_ghash_key; /* 520 bytes */
_Static_assert(sizeof(ak_gen_ghash_key) <= AESKIT_GHASH_KEY_SIZE,
               "ak_gen_ghash_key exceeds ak_ghash.data");

/* The typed view of the backend-owned area (ak_ghash.data is 64-byte aligned). */
static inline const ak_gen_ghash_key *gen_ghash_key(const ak_ghash *g)
{
    return (const ak_gen_ghash_key *)(const void *)g->data;
}
static inline ak_gen_ghash_key *gen_ghash_key_mut(ak_ghash *g)
{
    return (ak_gen_ghash_key *)(void *)g->data;
}

/* Unreduced 256-bit Karatsuba product accumulated into z[0..3] (z[0] most
 * significant): z ^= (ah:al) * (bh:bl). */
static inline void mul_acc(uint64_t z[4], uint64_t ah, uint64_t al, uint64_t bh, uint64_t bl)
{
    uint64_t hh, hl, lh, ll, mh, ml;
    clmul64(ah, bh, &hh, &hl);
    clmul64(al, bl, &lh, &ll);
    clmul64(ah ^ al, bh ^ bl, &mh, &ml);
    mh ^= hh ^ lh;
    ml ^= hl ^ ll;
    z[0] ^= hh;
    z[1] ^= hl ^ mh;
    z[2] ^= lh ^ ml;
    z[3] ^= ll;
}

/* Shift the 255-bit product left by one and reduce it (see the essay). */
static void reduce(const uint64_t z[4], uint64_t *yh, uint64_t *yl)
{
    uint64_t x3 = (z[0] << 1) | (z[1] >> 63);
    uint64_t x2 = (z[1] << 1) | (z[2] >> 63);
    uint64_t x1 = (z[2] << 1) | (z[3] >> 63);
    uint64_t x0 = z[3] << 1;
    x1 ^= (x0 << 63) ^ (x0 << 62) ^ (x0 << 57);
    *yh = x3 ^ x1 ^ (x1 >> 1) ^ (x1 >> 2) ^ (x1 >> 7);
    *yl = x2 ^ x0 ^ ((x0 >> 1) | (x1 << 63)) ^ ((x0 >> 2) | (x1 << 62)) ^ ((x0 >> 7) | (x1 << 57));
}

void ak_generic_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    ak_gen_ghash_key *gk = gen_ghash_key_mut(g);
    uint64_t hh = ak_load_be64(H), hl = ak_load_be64(H + 8);
    uint64_t ph = hh, pl = hl;
    memset(g->data, 0, sizeof g->data);
    for (int i = AK_GH_GROUP - 1; i >= 0; i--) {
        uint64_t z[4] = {0, 0, 0, 0};
        gk->pow[i][0] = ph;
        gk->pow[i][1] = pl;
        mul_acc(z, ph, pl, hh, hl);
        reduce(z, &ph, &pl);
    }
    gk->variant = ak_gen_pick_variant();
    ph = pl = hh = hl = 0;
}

/* ---- The baseline width ---------------------------------------------------- */
#ifdef AK_GEN_VECTORS
#if defined(__SSE2__) && defined(__GNUC__) && !defined(__clang__)
#include <emmintrin.h>
#define AKGH_MUL32(a, b) ((akgh_v)_mm_mul_epu32((__m128i)(a), (__m128i)(b)))
#endif
#define AKGH_W 16
#define AKGH_NAME(x) akgh16_##x
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__SSSE3__)
#define AKGH_NO_BYTE_SHUFFLE 1
#endif
#include "ghash_generic_core.h"
const ak_gen_ghash_fn ak_gen_ghash_base = akgh16_ghash_groups;
#else
/* Without vector extensions: the same group sum, one product at a time. */
static void scalar_groups(const uint64_t *powers, uint64_t *yh, uint64_t *yl, const uint8_t *in,
                          size_t ngroups, size_t nblk, ak_gen_reduce_fn f)
{
    for (size_t g = 0; g < ngroups; g++) {
        uint64_t s[4] = {0, 0, 0, 0};
        for (size_t b = 0; b < nblk; b++) {
            uint64_t xh = ak_load_be64(in + 16 * b), xl = ak_load_be64(in + 16 * b + 8);
            if (b == 0) { /* (Y ^ X1) H^n: one product fewer than Y H^n apart */
                xh ^= *yh;
                xl ^= *yl;
            }
            mul_acc(s, xh, xl, powers[2 * b], powers[2 * b + 1]);
        }
        f(s, yh, yl);
        in += 16 * nblk;
    }
}
const ak_gen_ghash_fn ak_gen_ghash_base = scalar_groups;
#endif

static ak_gen_ghash_fn ghash_fn_of(const ak_ghash *g)
{
#ifdef AK_GEN_X86
    const uint32_t v = gen_ghash_key(g)->variant;
    if (v == AK_GEN_V_AVX512)
        return ak_gen_ghash_avx512;
    if (v == AK_GEN_V_AVX2)
        return ak_gen_ghash_avx2;
#else
    (void)g;
#endif
    return ak_gen_ghash_base;
}

void ak_generic_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks)
{
    const ak_gen_ghash_key *gk = gen_ghash_key(g);
    uint64_t yh, yl;
    ak_gen_ghash_fn f = ghash_fn_of(g);
    if (nblocks == 0)
        return;
    yh = ak_load_be64(Y);
    yl = ak_load_be64(Y + 8);
    if (nblocks >= AK_GH_GROUP)
        f(gk->pow[0], &yh, &yl, in, nblocks / AK_GH_GROUP, AK_GH_GROUP, reduce);
    if (nblocks % AK_GH_GROUP) {
        /* The last n < 32 blocks in lanes 0..n-1 with powers H^n..H^1; the
         * padding lanes after them, up to a multiple of 8 (every width's
         * lane count divides 8, and a group function reads whole vectors),
         * take zero blocks and zero powers and contribute nothing. */
        size_t n = nblocks % AK_GH_GROUP, m = (n + 7) & ~(size_t)7;
        uint64_t t[AK_GH_GROUP][2];
        uint8_t buf[16 * AK_GH_GROUP];
        memcpy(t, gk->pow[AK_GH_GROUP - n], sizeof t[0] * n);
        memset(t[n], 0, sizeof t[0] * (m - n));
        memcpy(buf, in + 16 * (nblocks - n), 16 * n);
        memset(buf + 16 * n, 0, 16 * (m - n));
        f(t[0], &yh, &yl, buf, 1, n, reduce);
        aeskit_memzero(buf, 16 * m);
        aeskit_memzero(t, sizeof t[0] * m);
    }
    ak_store_be64(Y, yh);
    ak_store_be64(Y + 8, yl);
}
