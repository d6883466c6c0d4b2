/*
 * gcm_aesni.c - the x86-aesni backend's GHASH, fused CTR+GHASH GCM kernels
 * and whole-message GCM kernel (gcm_msgs).
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (no AVX: legacy-SSE
 * encodings, xmm0-xmm15).  Every function carries AESNI_TARGET; no -m flags.
 *
 * The math (SP 800-38D 6.3; Gueron & Kounavis, "Intel Carry-Less
 * Multiplication Instruction and its Usage for Computing the GCM Mode",
 * Intel white paper; the full derivation is the essay at the top of
 * aes_gcm_vaes_tmpl.h, the x86-vaes backends' GCM template):
 *
 *  - GCM numbers the bits of a block from the most significant bit of byte 0
 *    (coefficient of x^0).  After a 16-byte byte swap the register holds the
 *    block as a big-endian integer, so bit 127-i is the coefficient of x^i:
 *    the polynomial bit-reflected.  PCLMULQDQ on two reflected operands gives
 *    the reflected 255-bit product shifted right by one, i.e. rev256(a*b*x).
 *  - We store H' = rev(H * x^-1 mod P) instead of rev(H): in the reflected
 *    domain a left shift by one divides by x, and x^-1 = x^127 + x^6 + x + 1
 *    reflects to the constant 0xc2000000000000000000000000000001.  Then
 *    clmul(rev(a), H') = rev256(a*H) exactly, with no shift per product.
 *    Powers: clmul-reduce(H'_k, H'_1) = rev(H^(k+1) * x^-1) = H'_(k+1).
 *  - Reduction of the 256-bit product D1:D0 is Montgomery reduction by the
 *    reflected polynomial z^128 + z^127 + z^126 + z^121 + 1: two folds of 64
 *    bits each, multiplying the low qword by c = 0xc200000000000000
 *    (z^63 + z^62 + z^57) and adding it one qword up, clear D0 and leave the
 *    reduced value in D1 (see reduce() below).  Linearity lets 8 products
 *    (Y^X1)*H^8 + X2*H^7 + ... + X8*H share one reduction.
 *  - Karatsuba: three PCLMULQDQ per block, (a0^a1)(h0^h1) with h0^h1
 *    precomputed per power.
 *
 * ak_ghash.data layout: [0,256) H'^1..H'^16; [256,512) for each power the
 * XOR of its two qwords, in both qwords.  The fused kernels reduce once per
 * 8 blocks (their AES width); GHASH alone and the final blocks of a message
 * (last batch, tail, length block) use up to 16 powers per reduction.  Constant time: no table index or
 * branch depends on H, data or tag; only on lengths.
 */
#include <immintrin.h>

#include "../internal.h"

#define AESNI_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1")))
#define AESNI_INLINE static inline __attribute__((always_inline)) AESNI_TARGET

#define LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define RK_ENC(k) ((const __m128i *)(const void *)(k)->data)
#define TAB(g) ((const __m128i *)(const void *)(g)->data)
#define NPOW 16
#define HPOW(tab, i) (tab)[(i) - 1]        /* H'^i, i = 1..NPOW */
#define HKAR(tab, i) (tab)[NPOW + (i) - 1] /* its Karatsuba middle operand */

#define V8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define ROUND8(fn, kr)                                                         \
    do {                                                                       \
        const __m128i k_ = (kr);                                               \
        b0 = fn(b0, k_); b1 = fn(b1, k_); b2 = fn(b2, k_); b3 = fn(b3, k_);    \
        b4 = fn(b4, k_); b5 = fn(b5, k_); b6 = fn(b6, k_); b7 = fn(b7, k_);    \
    } while (0)
#define STORE_OUT(j) STOREU(out + 16 * (j), b##j);
#define STORE_OUT_N(j) if ((j) < n) STOREU(out + 16 * (j), b##j);
#define XOR_IN(j) b##j = _mm_xor_si128(b##j, LOADU(in + 16 * (j)));
#define XOR_IN_N(j) if ((j) < n) b##j = _mm_xor_si128(b##j, LOADU(in + 16 * (j)));
/* Counter lanes: c is the byte-reversed counter block, so a 32-bit add on
 * its low dword is GCM's inc32, wrapping inside the lane; the whitening key
 * is applied here too. */
#define CTR_LANE(j)                                                            \
    __m128i b##j = _mm_xor_si128(bswap128(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, j))), rk[0]);

AESNI_INLINE __m128i bswap128(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

static void wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ---- GF(2^128) arithmetic ---------------------------------------------------- */

typedef struct {
    __m128i lo, hi, mid;
} acc_t;

AESNI_INLINE void acc_init(acc_t *a, __m128i x, __m128i h, __m128i hk)
{
    a->lo = _mm_clmulepi64_si128(x, h, 0x00);
    a->hi = _mm_clmulepi64_si128(x, h, 0x11);
    a->mid = _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), hk, 0x00);
}

AESNI_INLINE void acc_add(acc_t *a, __m128i x, __m128i h, __m128i hk)
{
    a->lo = _mm_xor_si128(a->lo, _mm_clmulepi64_si128(x, h, 0x00));
    a->hi = _mm_xor_si128(a->hi, _mm_clmulepi64_si128(x, h, 0x11));
    a->mid = _mm_xor_si128(a->mid, _mm_clmulepi64_si128(
                                       _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), hk, 0x00));
}

/* Montgomery reduction of the reflected product D1:D0 (D1 = high 128 bits).
 * Fold 1 multiplies D0's low qword T by c and adds T*(1 + c z^64 + z^128):
 * D0's low qword cancels, T*c lands one qword up and T lands in D1's low
 * qword.  Fold 2 does the same with the new middle qword T'.  With
 * E = swap(D0) ^ clmul(D0.lo, c) both folds are "swap and add a product";
 * what is left is D1 ^ swap(E) ^ clmul(E.lo, c). */
AESNI_INLINE __m128i reduce(__m128i d1, __m128i d0)
{
    const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ull, 1);
    __m128i e = _mm_xor_si128(_mm_shuffle_epi32(d0, 0x4e), _mm_clmulepi64_si128(d0, poly, 0x10));
    e = _mm_xor_si128(_mm_shuffle_epi32(e, 0x4e), _mm_clmulepi64_si128(e, poly, 0x10));
    return _mm_xor_si128(d1, e);
}

AESNI_INLINE __m128i acc_reduce(const acc_t *a)
{
    const __m128i mid = _mm_xor_si128(a->mid, _mm_xor_si128(a->lo, a->hi));
    return reduce(_mm_xor_si128(a->hi, _mm_srli_si128(mid, 8)),
                  _mm_xor_si128(a->lo, _mm_slli_si128(mid, 8)));
}

/* Schoolbook product for the table set-up: rev(a) (x) H' -> rev(a*h). */
AESNI_INLINE __m128i gmul(__m128i a, __m128i h)
{
    __m128i lo = _mm_clmulepi64_si128(a, h, 0x00), hi = _mm_clmulepi64_si128(a, h, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, h, 0x01), _mm_clmulepi64_si128(a, h, 0x10));
    return reduce(_mm_xor_si128(hi, _mm_srli_si128(mid, 8)), _mm_xor_si128(lo, _mm_slli_si128(mid, 8)));
}

/* Reflected input block. */
#define XBLK(p) bswap128(LOADU(p))

/* Y <- (Y ^ X_0) H^n ^ X_1 H^(n-1) ^ ... ^ X_(n-1) H for 1 <= n <= 16 blocks
 * of reflected input, one reduction. */
AESNI_INLINE __m128i ghash_agg(const __m128i *tab, __m128i y, const __m128i *x, size_t n)
{
    acc_t a;
    acc_init(&a, _mm_xor_si128(x[0], y), HPOW(tab, n), HKAR(tab, n));
    for (size_t j = 1; j < n; j++)
        acc_add(&a, x[j], HPOW(tab, n - j), HKAR(tab, n - j));
    return acc_reduce(&a);
}

/* The same on bytes; n <= 16 whole blocks. */
AESNI_INLINE __m128i ghash_n(const __m128i *tab, __m128i y, const uint8_t *p, size_t n)
{
    acc_t a;
    acc_init(&a, _mm_xor_si128(XBLK(p), y), HPOW(tab, n), HKAR(tab, n));
    for (size_t j = 1; j < n; j++)
        acc_add(&a, XBLK(p + 16 * j), HPOW(tab, n - j), HKAR(tab, n - j));
    return acc_reduce(&a);
}

#define GH16_STEP(j) acc_add(&a, XBLK(p + 16 * (j)), HPOW(tab, 16 - (j)), HKAR(tab, 16 - (j)));

/* 16 blocks per reduction, the remainder (<= 15) in one more. */
static AESNI_TARGET __m128i ghash_core(const __m128i *tab, __m128i y, const uint8_t *p, size_t n)
{
    for (; n >= 16; n -= 16, p += 256) {
        acc_t a;
        acc_init(&a, _mm_xor_si128(XBLK(p), y), HPOW(tab, 16), HKAR(tab, 16));
        GH16_STEP(1) GH16_STEP(2) GH16_STEP(3) GH16_STEP(4) GH16_STEP(5)
        GH16_STEP(6) GH16_STEP(7) GH16_STEP(8) GH16_STEP(9) GH16_STEP(10)
        GH16_STEP(11) GH16_STEP(12) GH16_STEP(13) GH16_STEP(14) GH16_STEP(15)
        y = acc_reduce(&a);
    }
    if (n)
        y = ghash_n(tab, y, p, n);
    return y;
}

/* Y over n whole blocks at p (n <= 16) followed by ne reflected blocks
 * (ne <= 2), one reduction when n + ne <= 16. */
AESNI_INLINE __m128i ghash_finish(const __m128i *tab, __m128i y, const uint8_t *p, size_t n,
                                  const __m128i *extra, size_t ne)
{
    size_t m = n + ne;
    if (m > NPOW) {
        const size_t k = m - NPOW;
        y = ghash_n(tab, y, p, k);
        p += 16 * k;
        n -= k;
        m = NPOW;
    }
    acc_t a = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    for (size_t j = 0; j < n; j++, m--) {
        acc_add(&a, _mm_xor_si128(XBLK(p + 16 * j), y), HPOW(tab, m), HKAR(tab, m));
        y = _mm_setzero_si128();
    }
    for (size_t j = 0; j < ne; j++, m--) {
        acc_add(&a, _mm_xor_si128(extra[j], y), HPOW(tab, m), HKAR(tab, m));
        y = _mm_setzero_si128();
    }
    return acc_reduce(&a);
}

/* Zero-padded partial block of 1..15 bytes, reflected. */
AESNI_INLINE __m128i xblk_partial(const uint8_t *p, size_t len)
{
    uint8_t buf[16] = {0};
    memcpy(buf, p, len);
    return XBLK(buf);
}

/* GHASH over a byte string, the last partial block zero-padded (AAD). */
static AESNI_TARGET __m128i ghash_bytes(const __m128i *tab, __m128i y, const uint8_t *p,
                                        size_t len)
{
    const size_t full = len / 16, rem = len % 16;
    if (rem == 0)
        return full ? ghash_core(tab, y, p, full) : y;
    /* the last whole blocks and the padded tail share one reduction */
    const size_t head = full - full % 16;
    y = ghash_core(tab, y, p, head);
    __m128i x[16];
    size_t m = 0;
    for (size_t j = head; j < full; j++)
        x[m++] = XBLK(p + 16 * j);
    x[m++] = xblk_partial(p + 16 * full, rem);
    return ghash_agg(tab, y, x, m);
}

void ak_aesni_ghash_init(ak_ghash *g, const uint8_t H[16]);
void ak_aesni_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks);

AESNI_TARGET void ak_aesni_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    __m128i *tab = (__m128i *)(void *)g->data;
    const __m128i h = bswap128(LOADU(H));
    /* H' = h * x^-1: shift the reflected value left by one; the bit that
     * leaves bit 127 (x^0 -> x^-1) comes back as x^127 + x^6 + x + 1. */
    const __m128i top = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
    const __m128i shl = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_srli_epi64(_mm_slli_si128(h, 8), 63));
    const __m128i h1 = _mm_xor_si128(shl, _mm_and_si128(top, _mm_set_epi64x((long long)0xc200000000000000ull, 1)));
    __m128i p = h1;
    for (int i = 1; i <= NPOW; i++) {
        tab[i - 1] = p;
        tab[NPOW + i - 1] = _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e));
        p = gmul(p, h1);
    }
}

AESNI_TARGET void ak_aesni_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks == 0)
        return;
    STOREU(Y, bswap128(ghash_core(TAB(g), bswap128(LOADU(Y)), in, nblocks)));
}

/* ---- fused GCM kernels ------------------------------------------------------- */

/* 8 keystream blocks, counters c..c+7, XORed into in; lanes >= n unused. */
#define CTR8_XOR_STORE(NXOR, NSTORE)                                           \
    do {                                                                       \
        V8(CTR_LANE)                                                           \
        for (unsigned r_ = 1; r_ < R; r_++)                                    \
            ROUND8(_mm_aesenc_si128, rk[r_]);                                  \
        ROUND8(_mm_aesenclast_si128, rk[R]);                                   \
        V8(NXOR)                                                               \
        V8(NSTORE)                                                             \
    } while (0)

/* One AES round on all lanes, then one block of GHASH: the two use different
 * execution ports, so the multiplies hide behind the rounds. */
#define RND_GH(r, j, src)                                                      \
    ROUND8(_mm_aesenc_si128, rk[r]);                                           \
    acc_add(&a, XBLK((src) + 16 * (j)), HPOW(tab, 8 - (j)), HKAR(tab, 8 - (j)));

#define LAST_XOR(j) b##j = _mm_aesenclast_si128(b##j, _mm_xor_si128(klast, LOADU(in + 16 * (j))));

/* Counter lanes: one 32-bit add and one byte swap per lane.  A faster form
 * (a byte add on the big-endian block when byte 15 cannot overflow in the
 * batch) would branch on the counter, which is secret for IVs other than
 * 96 bits (J0 = GHASH_H(IV)); the constant-time check rejects that. */
#define CTR_LANES8()                                                           \
    V8(CTR_LANE)                                                               \
    c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, 8));

/* One 8-block step: AES rounds 1..8 each carry one GHASH block of src
 * (every AES has at least 10 rounds), Y ^ src[0] multiplied by H^8. */
#define GCM_STEP8(src)                                                         \
    do {                                                                       \
        CTR_LANES8()                                                           \
        acc_t a;                                                               \
        ROUND8(_mm_aesenc_si128, rk[1]);                                       \
        acc_init(&a, _mm_xor_si128(XBLK(src), y), HPOW(tab, 8), HKAR(tab, 8)); \
        RND_GH(2, 1, src) RND_GH(3, 2, src) RND_GH(4, 3, src)                  \
        RND_GH(5, 4, src) RND_GH(6, 5, src) RND_GH(7, 6, src)                  \
        RND_GH(8, 7, src)                                                      \
        y = acc_reduce(&a);                                                    \
        for (unsigned r_ = 9; r_ < R; r_++)                                    \
            ROUND8(_mm_aesenc_si128, rk[r_]);                                  \
        V8(LAST_XOR)                                                           \
        V8(STORE_OUT)                                                          \
    } while (0)

/* Encrypt: hash each batch's ciphertext while encrypting the next batch.
 * The last full batch and the tail (up to 15 blocks at the end of out) are
 * left unhashed: the return value says how many, and the caller folds them
 * with its own final blocks under one reduction (ghash_finish). */
static AESNI_TARGET size_t gcm_enc_core(const __m128i *rk, unsigned R, const __m128i *tab,
                                        uint8_t *out, const uint8_t *in, size_t n, __m128i *pc,
                                        __m128i *py)
{
    size_t pending = 0;
    __m128i c = *pc, y = *py;
    const __m128i klast = rk[R];
    if (n >= 8) {
        CTR8_XOR_STORE(XOR_IN, STORE_OUT);
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, 8));
        for (n -= 8, in += 128, out += 128; n >= 8; n -= 8, in += 128, out += 128) {
            const uint8_t *prev = out - 128;
            GCM_STEP8(prev);
        }
        pending = 8;
    }
    if (n) {
        CTR8_XOR_STORE(XOR_IN_N, STORE_OUT_N);
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, (int)n));
        pending += n;
    }
    *pc = c;
    *py = y;
    return pending;
}

/* Decrypt: the ciphertext is the input, so each batch hashes its own input
 * in the same pass (read before the in-place store). */
static AESNI_TARGET void gcm_dec_core(const __m128i *rk, unsigned R, const __m128i *tab,
                                      uint8_t *out, const uint8_t *in, size_t n, __m128i *pc,
                                      __m128i *py)
{
    __m128i c = *pc, y = *py;
    const __m128i klast = rk[R];
    for (; n >= 8; n -= 8, in += 128, out += 128)
        GCM_STEP8(in);
    if (n) {
        y = ghash_n(tab, y, in, n);
        CTR8_XOR_STORE(XOR_IN_N, STORE_OUT_N);
        c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, (int)n));
    }
    *pc = c;
    *py = y;
}

void ak_aesni_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
void ak_aesni_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);

AESNI_TARGET void ak_aesni_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out,
                                       const uint8_t *in, size_t nblocks, uint8_t ctr[16],
                                       uint8_t Y[16])
{
    if (nblocks == 0)
        return;
    __m128i c = bswap128(LOADU(ctr)), y = bswap128(LOADU(Y));
    const size_t pending = gcm_enc_core(RK_ENC(k), k->rounds, TAB(g), out, in, nblocks, &c, &y);
    y = ghash_finish(TAB(g), y, out + 16 * (nblocks - pending), pending, NULL, 0);
    STOREU(ctr, bswap128(c));
    STOREU(Y, bswap128(y));
}

AESNI_TARGET void ak_aesni_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out,
                                       const uint8_t *in, size_t nblocks, uint8_t ctr[16],
                                       uint8_t Y[16])
{
    if (nblocks == 0)
        return;
    __m128i c = bswap128(LOADU(ctr)), y = bswap128(LOADU(Y));
    gcm_dec_core(RK_ENC(k), k->rounds, TAB(g), out, in, nblocks, &c, &y);
    STOREU(ctr, bswap128(c));
    STOREU(Y, bswap128(y));
}

/* ---- whole-message GCM (ak_gcm_msg, src/internal.h) -------------------------- */

/* The length block len(A) || len(C) in bits, already reflected: the
 * byte-reversed block is the integer aad_bits * 2^64 + c_bits. */
AESNI_INLINE __m128i len_block(size_t aad_len, size_t len)
{
    return _mm_set_epi64x((long long)((uint64_t)aad_len << 3), (long long)((uint64_t)len << 3));
}

/* Keystream lanes for the short path: lane 0 is E(J0), lanes 1.. are the
 * data counters. */
#define SHORT_LANE(j) b##j = _mm_xor_si128(bswap128(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, j))), rk[0]);

/* Data block j of a short message, keystream lane j+1: whole blocks go
 * straight through registers, a final partial block through a zeroed
 * buffer.  The GHASH operand is the ciphertext side (the input when
 * decrypting, read before an in-place store). */
#define SHORT_DATA(j, jn)                                                      \
    if ((j) < full) {                                                          \
        const __m128i ci = LOADU(in + 16 * (j));                               \
        const __m128i co = _mm_xor_si128(ci, b##jn);                           \
        STOREU(out + 16 * (j), co);                                            \
        SHORT_HASH(bswap128(dec ? ci : co));                                   \
    } else if ((j) == full && rem) {                                           \
        uint8_t buf[16] = {0};                                                 \
        memcpy(buf, in + 16 * (j), rem);                                       \
        const __m128i ci = LOADU(buf);                                         \
        STOREU(buf, _mm_xor_si128(ci, b##jn));                                 \
        memcpy(out + 16 * (j), buf, rem);                                      \
        memset(buf + rem, 0, 16 - rem);                                        \
        SHORT_HASH(bswap128(dec ? ci : LOADU(buf)));                           \
        wipe(buf, sizeof buf);                                                 \
    }

/* Adds block x with the next power; the running Y enters with the first
 * block and is zero afterwards. */
#define SHORT_HASH(xv)                                                         \
    do {                                                                       \
        acc_add(&a, _mm_xor_si128((xv), y), HPOW(tab, pw), HKAR(tab, pw));    \
        y = _mm_setzero_si128();                                               \
        pw--;                                                                  \
    } while (0)

/* Messages of at most 7 blocks: E(J0) and every keystream block in one
 * 4- or 8-lane AES pass; AAD, data and length blocks hashed with one
 * reduction when they fit in 16 powers (otherwise the AAD is hashed first).
 * Everything stays in registers: the AAD and length products do not depend
 * on the AES pass and overlap it; only the data products and one reduction
 * follow it.  dec selects which side is hashed. */
AESNI_INLINE void gcm_short(const __m128i *rk, const unsigned R, const __m128i *tab, const __m128i c,
                            const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                            uint8_t *out, uint8_t tag[16], const int dec)
{
    const size_t nb = (len + 15) / 16, na = (aad_len + 15) / 16;
    const size_t full = len / 16, rem = len % 16;
    __m128i b0, b1, b2, b3, b4, b5, b6, b7;

    if (nb <= 3) {
        SHORT_LANE(0) SHORT_LANE(1) SHORT_LANE(2) SHORT_LANE(3)
        b4 = b5 = b6 = b7 = _mm_setzero_si128();
        for (unsigned r = 1; r < R; r++) {
            const __m128i kr = rk[r];
            b0 = _mm_aesenc_si128(b0, kr); b1 = _mm_aesenc_si128(b1, kr);
            b2 = _mm_aesenc_si128(b2, kr); b3 = _mm_aesenc_si128(b3, kr);
        }
        const __m128i kl = rk[R];
        b0 = _mm_aesenclast_si128(b0, kl); b1 = _mm_aesenclast_si128(b1, kl);
        b2 = _mm_aesenclast_si128(b2, kl); b3 = _mm_aesenclast_si128(b3, kl);
    } else {
        V8(SHORT_LANE)
        for (unsigned r = 1; r < R; r++)
            ROUND8(_mm_aesenc_si128, rk[r]);
        ROUND8(_mm_aesenclast_si128, rk[R]);
    }

    __m128i y = _mm_setzero_si128(), lb = len_block(aad_len, len);
    size_t pw;
    if (na + nb + 1 <= NPOW) {
        pw = na + nb + 1;
    } else {
        y = ghash_bytes(tab, y, aad, aad_len);
        pw = nb + 1;
        aad_len = 0; /* hashed; lb already holds its length */
    }
    if (pw == 1) { /* no block before the length block: Y enters there */
        lb = _mm_xor_si128(lb, y);
        y = _mm_setzero_si128();
    }
    acc_t a = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    /* the length block always takes H^1; it goes first, off the AES path */
    acc_add(&a, lb, HPOW(tab, 1), HKAR(tab, 1));
    for (size_t j = 0; j < aad_len / 16; j++)
        SHORT_HASH(XBLK(aad + 16 * j));
    if (aad_len % 16)
        SHORT_HASH(xblk_partial(aad + aad_len / 16 * 16, aad_len % 16));
    SHORT_DATA(0, 1) SHORT_DATA(1, 2) SHORT_DATA(2, 3) SHORT_DATA(3, 4)
    SHORT_DATA(4, 5) SHORT_DATA(5, 6) SHORT_DATA(6, 7)
    STOREU(tag, _mm_xor_si128(bswap128(acc_reduce(&a)), b0));
}

/* Longer messages: AAD through GHASH, the whole blocks through the fused
 * kernel, the tail and length block together. */
AESNI_INLINE void gcm_long(const __m128i *rk, const unsigned R, const __m128i *tab, __m128i c,
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           uint8_t *out, uint8_t tag[16], const int dec)
{
    __m128i ej0 = _mm_xor_si128(bswap128(c), rk[0]);
    for (unsigned r = 1; r < R; r++)
        ej0 = _mm_aesenc_si128(ej0, rk[r]);
    ej0 = _mm_aesenclast_si128(ej0, rk[R]);
    c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, 1));

    __m128i y = ghash_bytes(tab, _mm_setzero_si128(), aad, aad_len);
    const size_t full = len / 16, rem = len % 16;
    size_t pending = 0;
    if (dec)
        gcm_dec_core(rk, R, tab, out, in, full, &c, &y);
    else
        pending = gcm_enc_core(rk, R, tab, out, in, full, &c, &y);
    __m128i x[2];
    size_t m = 0;
    if (rem) {
        uint8_t buf[16] = {0};
        memcpy(buf, in + 16 * full, rem);
        const __m128i ci = LOADU(buf);
        __m128i ks = _mm_xor_si128(bswap128(c), rk[0]);
        for (unsigned r = 1; r < R; r++)
            ks = _mm_aesenc_si128(ks, rk[r]);
        ks = _mm_aesenclast_si128(ks, rk[R]);
        STOREU(buf, _mm_xor_si128(ci, ks));
        memcpy(out + 16 * full, buf, rem);
        memset(buf + rem, 0, 16 - rem);
        x[m++] = bswap128(dec ? ci : LOADU(buf));
        wipe(buf, sizeof buf);
    }
    x[m++] = len_block(aad_len, len);
    /* the last ciphertext blocks, the tail and the length block: one
     * reduction */
    y = ghash_finish(tab, y, out + 16 * (full - pending), pending, x, m);
    STOREU(tag, _mm_xor_si128(bswap128(y), ej0));
}

/* The kernels one message runs, each its own function so that a short
 * message pays only its own prologue: c is J0 byte-reversed, so inc32 is
 * an add on its low dword. */
#define AESNI_NOINLINE static __attribute__((noinline)) AESNI_TARGET

AESNI_INLINE void gcm_msg_short(ak_gcm_msg *m, const int dec)
{
    gcm_short(RK_ENC(m->aes), m->aes->rounds, TAB(m->gh), bswap128(LOADU(m->j0)), m->aad,
              m->aad_len, m->in, m->len, m->out, m->tag, dec);
}

AESNI_NOINLINE void gcm_short_seal(ak_gcm_msg *m) { gcm_msg_short(m, 0); }
AESNI_NOINLINE void gcm_short_open(ak_gcm_msg *m) { gcm_msg_short(m, 1); }

AESNI_NOINLINE void gcm_long_msg(ak_gcm_msg *m)
{
    const __m128i *rk = RK_ENC(m->aes), *tab = TAB(m->gh);
    const unsigned R = m->aes->rounds;
    const __m128i c = bswap128(LOADU(m->j0));
    if (m->flags & AK_GCM_OPEN)
        gcm_long(rk, R, tab, c, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 1);
    else
        gcm_long(rk, R, tab, c, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 0);
}

/* A short message's kernel call is the last act: a jump. */
AESNI_INLINE void gcm_msg(ak_gcm_msg *m)
{
    if (m->len <= 7 * 16) {
        if (m->flags & AK_GCM_OPEN)
            gcm_short_open(m);
        else
            gcm_short_seal(m);
        return;
    }
    gcm_long_msg(m);
}

/* A call with other than one message: each in turn. */
AESNI_NOINLINE void gcm_msgs_each(ak_gcm_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gcm_msg(&m[i]);
}

void ak_aesni_gcm_msgs(ak_gcm_msg *m, size_t n);

AESNI_TARGET void ak_aesni_gcm_msgs(ak_gcm_msg *m, size_t n)
{
    if (n != 1) {
        gcm_msgs_each(m, n);
        return;
    }
    gcm_msg(m);
}
