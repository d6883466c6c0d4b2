/*
 * gcm_aesni.c - the x86-aesni backend's GHASH, fused CTR+GHASH GCM kernels
 * and whole-message GCM kernel (gcm_msgs).
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (no AVX: legacy-SSE
 * encodings, xmm0-xmm15).  Every function carries AESNI_TARGET; no -m flags.
 * gcm_aesni_avx.c builds this file again with AVX added to AESNI_TARGET
 * and the exported names ending in _avx: the same code in VEX encoding,
 * whose three-operand forms need none of the register copies that the
 * two-operand SSE forms of PCLMULQDQ and PXOR take (aes_aesni.c picks the
 * build per key).  The GHASH-only entries (ak_aesni_ghash_init,
 * ak_aesni_ghash) are in the SSE build only.
 *
 * The math (SP 800-38D 6.3; Gueron & Kounavis, "Intel Carry-Less
 * Multiplication Instruction and its Usage for Computing the GCM Mode",
 * Intel white paper; the full derivation is the essay at the top of
 * vaes_ghash.h, the x86-vaes backends' GCM template):
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
 * ak_ghash.data is ak_aesni_ghash_key (aesni_ops.h): H'^1..H'^16 and for
 * each power the XOR of its two qwords, in both qwords.  The fused kernels
 * reduce once per 8 blocks (their AES width); GHASH alone and the final
 * blocks of a message (last batch, tail, length block) use up to 16 powers
 * per reduction.  Constant time: no table index or branch depends on H,
 * data or tag; only on lengths.
 */
#include "aesni_ops.h"
#include "aesni_ghash.h"

/* ---- GF(2^128) arithmetic ---------------------------------------------------- */

/* acc_t, the products, the reductions and xblk are in aesni_ghash.h. */

/* The sum as it stands, in registers, at this point of the code (for
 * gcm_step8).  GCC re-associates a chain of XORs of independent products
 * into one tree at its end, which keeps every product of an 8-block step
 * live until all are formed: with 16 xmm registers and eight AES states,
 * most of them would go to the stack and back.  An empty asm that takes
 * and gives the three values keeps each fold where the source puts it; it
 * emits no instruction.  Only the fused step pins: where no AES states
 * compete for the registers (ghash_n, the short path) the tree is the
 * better schedule.  MSan checks asm operands as uses, and the sums are
 * secret: its build goes without (the barrier only schedules). */
AESNI_INLINE void acc_pin(acc_t *a)
{
#ifndef AESKIT_MSAN_CT
    __asm__("" : "+x"(a->lo), "+x"(a->hi), "+x"(a->mid));
#else
    (void)a;
#endif
}

/* Whether gcm_step8 pins the sums of its pairs (seal) too: only in the
 * VEX build.  In the two-operand SSE build every product needs a register
 * copy, and pinned pairs there cost more than they save (docs/performance.md,
 * "Measurements behind the code").  Open pins in both. */
#ifdef AESNI_GCM_AVX_BUILD
#define AESNI_PIN_PAIRS 1
#else
#define AESNI_PIN_PAIRS 0
#endif

/* Schoolbook product for the table set-up: rev(a) (x) H' -> rev(a*h). */
AESNI_INLINE __m128i gmul(__m128i a, __m128i h)
{
    __m128i lo = _mm_clmulepi64_si128(a, h, 0x00), hi = _mm_clmulepi64_si128(a, h, 0x11);
    __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, h, 0x01), _mm_clmulepi64_si128(a, h, 0x10));
    return reduce(_mm_xor_si128(hi, _mm_srli_si128(mid, 8)), _mm_xor_si128(lo, _mm_slli_si128(mid, 8)));
}

/* Y <- (Y ^ X_0) H^n ^ X_1 H^(n-1) ^ ... ^ X_(n-1) H for 1 <= n <= 16 blocks
 * of reflected input, one reduction. */
AESNI_INLINE __m128i ghash_agg(const ak_aesni_ghash_key *gk, __m128i y, const __m128i *x, size_t n)
{
    acc_t a;
    acc_init(&a, _mm_xor_si128(x[0], y), gk, n);
    for (size_t j = 1; j < n; j++)
        acc_add(&a, x[j], gk, n - j);
    return acc_reduce(&a);
}

/* The same on bytes; n <= 16 whole blocks. */
AESNI_INLINE __m128i ghash_n(const ak_aesni_ghash_key *gk, __m128i y, const uint8_t *p, size_t n)
{
    acc_t a;
    acc_init(&a, _mm_xor_si128(xblk(p), y), gk, n);
    for (size_t j = 1; j < n; j++)
        acc_add(&a, xblk(p + 16 * j), gk, n - j);
    return acc_reduce(&a);
}

/* 16 blocks per reduction, the remainder (<= 15) in one more. */
static AESNI_TARGET __m128i ghash_core(const ak_aesni_ghash_key *gk, __m128i y, const uint8_t *p,
                                       size_t n)
{
    for (; n >= 16; n -= 16, p += 256) {
        acc_t a;
        acc_init(&a, _mm_xor_si128(xblk(p), y), gk, 16);
        AESNI_UNROLL
        for (size_t j = 1; j < 16; j++)
            acc_add(&a, xblk(p + 16 * j), gk, 16 - j);
        y = acc_reduce(&a);
    }
    if (n)
        y = ghash_n(gk, y, p, n);
    return y;
}

/* Y over n whole blocks at p (n <= 16) followed by ne reflected blocks
 * (ne <= 2), one reduction when n + ne <= 16. */
AESNI_INLINE __m128i ghash_finish(const ak_aesni_ghash_key *gk, __m128i y, const uint8_t *p,
                                  size_t n, const __m128i *extra, size_t ne)
{
    size_t m = n + ne;
    if (m > AESNI_NPOW) {
        const size_t k = m - AESNI_NPOW;
        y = ghash_n(gk, y, p, k);
        p += 16 * k;
        n -= k;
        m = AESNI_NPOW;
    }
    acc_t a = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    for (size_t j = 0; j < n; j++, m--) {
        acc_add(&a, _mm_xor_si128(xblk(p + 16 * j), y), gk, m);
        y = _mm_setzero_si128();
    }
    for (size_t j = 0; j < ne; j++, m--) {
        acc_add(&a, _mm_xor_si128(extra[j], y), gk, m);
        y = _mm_setzero_si128();
    }
    return acc_reduce(&a);
}

/* Zero-padded partial block of 1..15 bytes, reflected. */
AESNI_INLINE __m128i xblk_partial(const uint8_t *p, size_t len)
{
    uint8_t buf[16] = {0};
    memcpy(buf, p, len);
    return xblk(buf);
}

/* GHASH over a byte string, the last partial block zero-padded (AAD). */
static AESNI_TARGET __m128i ghash_bytes(const ak_aesni_ghash_key *gk, __m128i y, const uint8_t *p,
                                        size_t len)
{
    const size_t full = len / 16, rem = len % 16;
    if (rem == 0)
        return full ? ghash_core(gk, y, p, full) : y;
    /* the last whole blocks and the padded tail share one reduction */
    const size_t head = full - full % 16;
    y = ghash_core(gk, y, p, head);
    __m128i x[16];
    size_t m = 0;
    for (size_t j = head; j < full; j++)
        x[m++] = xblk(p + 16 * j);
    x[m++] = xblk_partial(p + 16 * full, rem);
    return ghash_agg(gk, y, x, m);
}

#ifndef AESNI_GCM_AVX_BUILD
void ak_aesni_ghash_init(ak_ghash *g, const uint8_t H[16]);
void ak_aesni_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks);

AESNI_TARGET void ak_aesni_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    ak_aesni_ghash_key *gk = aesni_ghash_key_mut(g);
    const __m128i h = xblk(H);
    /* H' = h * x^-1: shift the reflected value left by one; the bit that
     * leaves bit 127 (x^0 -> x^-1) comes back as x^127 + x^6 + x + 1. */
    const __m128i top = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
    const __m128i shl = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_srli_epi64(_mm_slli_si128(h, 8), 63));
    const __m128i h1 = _mm_xor_si128(shl, _mm_and_si128(top, _mm_set_epi64x((long long)0xc200000000000000ull, 1)));
    __m128i p = h1;
    for (int i = 0; i < AESNI_NPOW; i++) {
        gk->hpow[i] = p;
        gk->hkar[i] = _mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e));
        p = gmul(p, h1);
    }
}

AESNI_TARGET void ak_aesni_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks == 0)
        return;
    aesni_storeu(Y, aesni_bswap128(ghash_core(aesni_ghash_key(g), xblk(Y), in, nblocks)));
}
#endif /* !AESNI_GCM_AVX_BUILD */

/* ---- fused GCM kernels ------------------------------------------------------- */

/* Counter lanes c + 0 .. c + 7 with the whitening key already applied. */
AESNI_INLINE void ctr_lanes8_k0(__m128i b[8], __m128i c, const __m128i *rk)
{
    aesni_ctr32_lanes8(b, c);
    aesni_xor8(b, rk[0]);
}

/* The counters of the fused loops, in one of two forms chosen by the
 * compile-time flag pub.
 *
 * Register form (pub = 0; the streaming gcm_encrypt / gcm_decrypt, whose
 * J0 may be GHASH_H(IV) and so secret): c is the counter block
 * byte-reversed, inc32 an add on its low dword, and every lane costs a
 * PADDD and a PSHUFB (aesni_ctr32_lanes8), whatever the value.
 *
 * Public form (pub = 1; only the whole-message kernel, which sees
 * AK_GCM_J0_IV12 alone, src/internal.h: J0 = IV || 1, so the data
 * counters are 2, 3, ..., public, and with len <= 2^36 - 32 at most
 * 2^32 - 1, so no 32-bit counter of a message wraps).  A step's counters
 * are n + j, j < 8, with n = 2 (mod 8) (the kernel starts at n = 2 and
 * steps by 8); write h = n - 2, a multiple of 8, so n + j = h + 2 + j.
 *  - Lanes 0..5: 2 + j < 8 and the low three bits of h are zero, so
 *    n + j = h XOR (2 + j), and nothing carries out of the low byte.
 *  - Lanes 6, 7: n + j = h' XOR (j - 6) with h' = h + 8; while the low
 *    byte of h is at most 240, h' carries nothing out of the low byte
 *    either.
 * With G = the block of h in byte order (as AES takes it), whose low
 * counter byte is byte 15, the top byte of dword 3, G' = G + 8 is a 32-bit
 * add on dword 3, and every lane is (G or G') XOR K0 XOR a constant with
 * the small number in byte 15: one PXOR per lane, one PADDD and two PXOR
 * per step instead of PADDD + PSHUFB + PXOR per lane.  On Zen 4 every
 * vector op of the loop takes issue slots the AESENC need, a PSHUFB about
 * 0.4 cycle next to 8 AESENC (docs/performance.md).  G' is the next
 * step's G.  Once in 32
 * steps the low byte of h is 248: that step takes the register form and
 * recomputes G from the scalar n + 6, the next step's h.  The branch reads
 * n only, which is public under AK_GCM_J0_IV12; a call entered with
 * n != 2 (mod 8) takes the register form throughout (ctr_t.fast). */
typedef struct {
    __m128i c;  /* register form: the next counter; pub: the entry counter */
    __m128i g;  /* pub: G, the block of h = n - 2 in byte order */
    uint32_t n; /* pub: low word of the next counter */
    int fast;   /* pub: n = 2 (mod 8) at entry, so the steps may be public */
} ctr_t;

AESNI_INLINE void ctr_init(ctr_t *s, __m128i c, const int pub)
{
    s->c = c;
    if (!pub)
        return;
    s->n = (uint32_t)_mm_cvtsi128_si32(c);
    s->fast = (s->n & 7) == 2;
    s->g = aesni_bswap128(_mm_insert_epi32(c, (int)(s->n - 2), 0));
}

/* The register form of the next counter. */
AESNI_INLINE __m128i ctr_reg(const ctr_t *s, const int pub)
{
    return pub ? _mm_insert_epi32(s->c, (int)s->n, 0) : s->c;
}

/* Advances past m counters (register form: any m; pub: m = 8, or any m in
 * the last step of a call, after which only ctr_reg is used). */
AESNI_INLINE void ctr_skip(ctr_t *s, unsigned m, const int pub)
{
    if (pub)
        s->n += m;
    else
        s->c = _mm_add_epi32(s->c, _mm_set_epi32(0, 0, 0, (int)m));
}

/* A block with t in byte 15 (the low counter byte), zeros elsewhere. */
AESNI_INLINE __m128i ctr_low_byte(int t)
{
    return _mm_set_epi32(t << 24, 0, 0, 0);
}

/* The next 8 counter blocks, whitening key applied. */
AESNI_INLINE void ctr_next8_k0(__m128i b[8], ctr_t *s, const __m128i *rk, const int pub)
{
    if (pub && __builtin_expect(s->fast && ((s->n - 2) & 0xff) <= 240, 1)) {
        const __m128i g1 = _mm_add_epi32(s->g, ctr_low_byte(8));
        const __m128i gk = _mm_xor_si128(s->g, rk[0]), gk1 = _mm_xor_si128(g1, rk[0]);
        AESNI_UNROLL
        for (int j = 0; j < 6; j++)
            b[j] = _mm_xor_si128(gk, ctr_low_byte(2 + j));
        b[6] = gk1;
        b[7] = _mm_xor_si128(gk1, ctr_low_byte(1));
        s->g = g1;
    } else {
        ctr_lanes8_k0(b, ctr_reg(s, pub), rk);
        if (pub)
            s->g = aesni_bswap128(_mm_insert_epi32(s->c, (int)(s->n + 6), 0));
    }
    ctr_skip(s, 8, pub);
}

/* 8 keystream blocks, counters c..c+7, XORed into in and stored; lanes >= n
 * are neither read nor stored. */
AESNI_INLINE void ctr8_xor_store_n(const __m128i *rk, unsigned R, __m128i c, uint8_t *out,
                                   const uint8_t *in, size_t n)
{
    __m128i b[8];
    aesni_ctr32_lanes8(b, c);
    aesni_encrypt8(b, rk, R);
    aesni_xor_in8_n(b, in, n);
    aesni_store8_n(out, b, n);
}

/* The same for 8 whole blocks, the counters from s. */
AESNI_INLINE void ctr8_xor_store(const __m128i *rk, unsigned R, ctr_t *s, uint8_t *out,
                                 const uint8_t *in, const int pub)
{
    __m128i b[8];
    ctr_next8_k0(b, s, rk, pub);
    aesni_enc_mid8(b, rk, R);
    aesni_enclast8(b, rk[R]);
    aesni_xor_in8(b, in);
    aesni_store8(out, b);
}

/* One 8-block step: the next 8 counters encrypted and XORed into in, while
 * the 8 blocks at src are hashed into y, Y ^ src[0] multiplied by H^8:
 * AES rounds 1..8 each carry one GHASH block, or with pair every other
 * round two (acc_add2; every AES has at least 10 rounds).  The multiplies
 * do not hide behind the rounds for free: on Zen 4 a PCLMULQDQ costs about
 * one cycle of AESENC issue and every other vector op a fraction of one
 * (docs/performance.md), so the step is bound by its op count.  pair saves
 * 4 ops per step; it is for seal only: open's GHASH operands are also its
 * AES inputs, and pairing them there costs more in spills than it saves
 * (figures: docs/performance.md).  The last round takes the input:
 * aesenclast(x, kR ^ p) = E(x) ^ p; klast = rk[R] is loaded once per call
 * by the caller (a store to out might alias rk, so it would not be
 * hoisted). */
AESNI_INLINE void gcm_step8(const __m128i *rk, unsigned R, __m128i klast,
                            const ak_aesni_ghash_key *gk, ctr_t *s, __m128i *py,
                            const uint8_t *src, uint8_t *out, const uint8_t *in, const int pub,
                            const int pair, const __m128i *pa)
{
    __m128i b[8];
    acc_t a;
    ctr_next8_k0(b, s, rk, pub);
    aesni_enc8(b, rk[1]);
    if (pair)
        acc_add2(&a, _mm_xor_si128(xblk(src), *py), xblk(src + 16), gk, 8, 1);
    else
        acc_init(&a, _mm_xor_si128(xblk(src), *py), gk, 8);
    AESNI_UNROLL
    for (int j = 1; j < 8; j++) {
        aesni_enc8(b, rk[j + 1]);
        if (!pair) {
            acc_add(&a, xblk(src + 16 * j), gk, (size_t)(8 - j));
            acc_pin(&a);
        } else if (j % 2 == 0) {
            acc_add2(&a, xblk(src + 16 * j), xblk(src + 16 * (j + 1)), gk, (size_t)(8 - j), 0);
            if (AESNI_PIN_PAIRS)
                acc_pin(&a);
        }
    }
    if (pa)
        acc_add(&a, *pa, gk, 9);
    *py = acc_reduce(&a);
    for (unsigned r = 9; r < R; r++)
        aesni_enc8(b, rk[r]);
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_aesenclast_si128(b[j], _mm_xor_si128(klast, aesni_loadu(in + 16 * j)));
    aesni_store8(out, b);
}

/* Encrypt: hash each batch's ciphertext while encrypting the next batch.
 * The last full batch and the tail (up to 15 blocks at the end of out) are
 * left unhashed: the return value says how many, and the caller folds them
 * with its own final blocks under one reduction (ghash_finish). */
AESNI_INLINE size_t gcm_enc_core(const __m128i *rk, unsigned R, const ak_aesni_ghash_key *gk,
                                 uint8_t *out, const uint8_t *in, size_t n, __m128i *pc,
                                 __m128i *py, const int pub, const __m128i *pa)
{
    size_t pending = 0;
    __m128i y = *py;
    ctr_t s;
    ctr_init(&s, *pc, pub);
    const __m128i klast = rk[R];
    if (n >= 8) {
        ctr8_xor_store(rk, R, &s, out, in, pub);
        n -= 8;
        in += 128;
        out += 128;
        if (pa && n >= 8) {
            gcm_step8(rk, R, klast, gk, &s, &y, out - 128, out, in, pub, 1, pa);
            n -= 8;
            in += 128;
            out += 128;
        }
        for (; n >= 8; n -= 8, in += 128, out += 128)
            gcm_step8(rk, R, klast, gk, &s, &y, out - 128, out, in, pub, 1, NULL);
        pending = 8;
    }
    if (n) {
        ctr8_xor_store_n(rk, R, ctr_reg(&s, pub), out, in, n);
        ctr_skip(&s, (unsigned)n, pub);
        pending += n;
    }
    *pc = ctr_reg(&s, pub);
    *py = y;
    return pending;
}

/* Decrypt: the ciphertext is the input, so each batch hashes its own input
 * in the same pass (read before the in-place store). */
AESNI_INLINE void gcm_dec_core(const __m128i *rk, unsigned R, const ak_aesni_ghash_key *gk,
                               uint8_t *out, const uint8_t *in, size_t n, __m128i *pc,
                               __m128i *py, const int pub)
{
    __m128i y = *py;
    ctr_t s;
    ctr_init(&s, *pc, pub);
    const __m128i klast = rk[R];
    for (; n >= 8; n -= 8, in += 128, out += 128)
        gcm_step8(rk, R, klast, gk, &s, &y, in, out, in, pub, 0, NULL);
    if (n) {
        y = ghash_n(gk, y, in, n);
        ctr8_xor_store_n(rk, R, ctr_reg(&s, pub), out, in, n);
        ctr_skip(&s, (unsigned)n, pub);
    }
    *pc = ctr_reg(&s, pub);
    *py = y;
}

/* The instances: register-form counters for the streaming primitives,
 * public ones for the whole-message kernel. */
AESNI_NOINLINE size_t gcm_enc_reg(const __m128i *rk, unsigned R, const ak_aesni_ghash_key *gk,
                                  uint8_t *out, const uint8_t *in, size_t n, __m128i *pc,
                                  __m128i *py)
{
    return gcm_enc_core(rk, R, gk, out, in, n, pc, py, 0, NULL);
}
AESNI_NOINLINE void gcm_dec_reg(const __m128i *rk, unsigned R, const ak_aesni_ghash_key *gk,
                                uint8_t *out, const uint8_t *in, size_t n, __m128i *pc, __m128i *py)
{
    gcm_dec_core(rk, R, gk, out, in, n, pc, py, 0);
}
AESNI_NOINLINE size_t gcm_enc_pub(const __m128i *rk, unsigned R, const ak_aesni_ghash_key *gk,
                                  uint8_t *out, const uint8_t *in, size_t n, __m128i *pc,
                                  __m128i *py, const __m128i *pa)
{
    return gcm_enc_core(rk, R, gk, out, in, n, pc, py, 1, pa);
}
AESNI_NOINLINE void gcm_dec_pub(const __m128i *rk, unsigned R, const ak_aesni_ghash_key *gk,
                                uint8_t *out, const uint8_t *in, size_t n, __m128i *pc, __m128i *py)
{
    gcm_dec_core(rk, R, gk, out, in, n, pc, py, 1);
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
    const ak_aesni_ghash_key *gk = aesni_ghash_key(g);
    __m128i c = aesni_bswap128(aesni_loadu(ctr)), y = xblk(Y);
    const size_t pending = gcm_enc_reg(aesni_key(k)->enc, k->rounds, gk, out, in, nblocks, &c, &y);
    y = ghash_finish(gk, y, out + 16 * (nblocks - pending), pending, NULL, 0);
    aesni_storeu(ctr, aesni_bswap128(c));
    aesni_storeu(Y, aesni_bswap128(y));
}

AESNI_TARGET void ak_aesni_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out,
                                       const uint8_t *in, size_t nblocks, uint8_t ctr[16],
                                       uint8_t Y[16])
{
    if (nblocks == 0)
        return;
    __m128i c = aesni_bswap128(aesni_loadu(ctr)), y = xblk(Y);
    gcm_dec_reg(aesni_key(k)->enc, k->rounds, aesni_ghash_key(g), out, in, nblocks, &c, &y);
    aesni_storeu(ctr, aesni_bswap128(c));
    aesni_storeu(Y, aesni_bswap128(y));
}

/* ---- whole-message GCM (ak_gcm_msg, src/internal.h) -------------------------- */

/* The length block len(A) || len(C) in bits, already reflected: the
 * byte-reversed block is the integer aad_bits * 2^64 + c_bits. */
AESNI_INLINE __m128i len_block(size_t aad_len, size_t len)
{
    return _mm_set_epi64x((long long)((uint64_t)aad_len << 3), (long long)((uint64_t)len << 3));
}

/* The short path's running GHASH: the unreduced sum, the power the next
 * block takes, and Y, which enters with the first block and is zero
 * afterwards. */
typedef struct {
    acc_t a;
    __m128i y;
    size_t pw;
} short_hash_t;

AESNI_INLINE void short_hash(short_hash_t *h, __m128i x, const ak_aesni_ghash_key *gk)
{
    acc_add(&h->a, _mm_xor_si128(x, h->y), gk, h->pw);
    h->y = _mm_setzero_si128();
    h->pw--;
}

/* Data block j of a short message with keystream ks: whole blocks go
 * straight through registers, a final partial block through a zeroed
 * buffer.  The GHASH operand is the ciphertext side (the input when
 * decrypting, read before an in-place store). */
AESNI_INLINE void short_data(short_hash_t *h, const ak_aesni_ghash_key *gk, __m128i ks, size_t j,
                             size_t full, size_t rem, const uint8_t *in, uint8_t *out,
                             const int dec)
{
    if (j < full) {
        const __m128i ci = aesni_loadu(in + 16 * j);
        const __m128i co = _mm_xor_si128(ci, ks);
        aesni_storeu(out + 16 * j, co);
        short_hash(h, aesni_bswap128(dec ? ci : co), gk);
    } else if (j == full && rem) {
        uint8_t buf[16] = {0};
        memcpy(buf, in + 16 * j, rem);
        const __m128i ci = aesni_loadu(buf);
        aesni_storeu(buf, _mm_xor_si128(ci, ks));
        memcpy(out + 16 * j, buf, rem);
        memset(buf + rem, 0, 16 - rem);
        short_hash(h, aesni_bswap128(dec ? ci : aesni_loadu(buf)), gk);
        aesni_wipe(buf, sizeof buf);
    }
}

/* Messages of at most 7 blocks: E(J0) and every keystream block in one
 * 4- or 8-lane AES pass; AAD, data and length blocks hashed with one
 * reduction when they fit in 16 powers (otherwise the AAD is hashed first).
 * Everything stays in registers: the AAD and length products do not depend
 * on the AES pass and overlap it; only the data products and one reduction
 * follow it.  dec selects which side is hashed. */
AESNI_INLINE void gcm_short(const __m128i *rk, const unsigned R, const ak_aesni_ghash_key *gk,
                            const __m128i c, const uint8_t *aad, size_t aad_len,
                            const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16],
                            const int dec)
{
    const size_t nb = (len + 15) / 16, na = (aad_len + 15) / 16;
    const size_t full = len / 16, rem = len % 16;
    /* lane 0 is E(J0), lanes 1.. are the data counters */
    __m128i b[8];

    if (nb <= 3) {
        AESNI_UNROLL
        for (int j = 0; j < 4; j++)
            b[j] = _mm_xor_si128(aesni_ctr32_block(c, j), rk[0]);
        b[4] = b[5] = b[6] = b[7] = _mm_setzero_si128();
        for (unsigned r = 1; r < R; r++) {
            AESNI_UNROLL
            for (int j = 0; j < 4; j++)
                b[j] = _mm_aesenc_si128(b[j], rk[r]);
        }
        AESNI_UNROLL
        for (int j = 0; j < 4; j++)
            b[j] = _mm_aesenclast_si128(b[j], rk[R]);
    } else {
        ctr_lanes8_k0(b, c, rk);
        aesni_enc_mid8(b, rk, R);
        aesni_enclast8(b, rk[R]);
    }

    short_hash_t h = {{_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()},
                      _mm_setzero_si128(), 0};
    __m128i lb = len_block(aad_len, len);
    if (na + nb + 1 <= AESNI_NPOW) {
        h.pw = na + nb + 1;
    } else {
        h.y = ghash_bytes(gk, h.y, aad, aad_len);
        h.pw = nb + 1;
        aad_len = 0; /* hashed; lb already holds its length */
    }
    if (h.pw == 1) { /* no block before the length block: Y enters there */
        lb = _mm_xor_si128(lb, h.y);
        h.y = _mm_setzero_si128();
    }
    /* the length block always takes H^1; it goes first, off the AES path */
    acc_add(&h.a, lb, gk, 1);
    for (size_t j = 0; j < aad_len / 16; j++)
        short_hash(&h, xblk(aad + 16 * j), gk);
    if (aad_len % 16)
        short_hash(&h, xblk_partial(aad + aad_len / 16 * 16, aad_len % 16), gk);
    AESNI_UNROLL
    for (size_t j = 0; j < 7; j++)
        short_data(&h, gk, b[j + 1], j, full, rem, in, out, dec);
    aesni_storeu(tag, _mm_xor_si128(aesni_bswap128(acc_reduce(&h.a)), b[0]));
}

/* Longer messages: AAD through GHASH, the whole blocks through the fused
 * kernel, the tail and length block together. */
AESNI_INLINE void gcm_long(const __m128i *rk, const unsigned R, const ak_aesni_ghash_key *gk,
                           __m128i c, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                           size_t len, uint8_t *out, uint8_t tag[16], const int dec)
{
    const __m128i ej0 = aesni_enc1(rk, R, aesni_bswap128(c));
    c = _mm_add_epi32(c, _mm_set_epi32(0, 0, 0, 1));

    const size_t full = len / 16, rem = len % 16;
    /* Seal with an AAD of one block, A: A joins the first fused step as
     * A * H^9 (that step computes (Y ^ C_0) H^8 + ... with Y = A H
     * otherwise), one reduction less, when there is such a step (seal
     * hashes from its second batch on).  Otherwise, and for open (measured
     * 0.98-0.99x at 256-1420 B with it), GHASH takes the AAD first. */
    __m128i y = _mm_setzero_si128(), xa;
    const __m128i *pa = NULL;
    if (!dec && aad_len > 0 && aad_len <= 16 && full >= 16) {
        xa = aad_len == 16 ? xblk(aad) : xblk_partial(aad, aad_len);
        pa = &xa;
    } else {
        y = ghash_bytes(gk, y, aad, aad_len);
    }
    size_t pending = 0;
    if (dec)
        gcm_dec_pub(rk, R, gk, out, in, full, &c, &y);
    else
        pending = gcm_enc_pub(rk, R, gk, out, in, full, &c, &y, pa);
    __m128i x[2];
    size_t m = 0;
    if (rem) {
        uint8_t buf[16] = {0};
        memcpy(buf, in + 16 * full, rem);
        const __m128i ci = aesni_loadu(buf);
        const __m128i ks = aesni_enc1(rk, R, aesni_bswap128(c));
        aesni_storeu(buf, _mm_xor_si128(ci, ks));
        memcpy(out + 16 * full, buf, rem);
        memset(buf + rem, 0, 16 - rem);
        x[m++] = aesni_bswap128(dec ? ci : aesni_loadu(buf));
        aesni_wipe(buf, sizeof buf);
    }
    x[m++] = len_block(aad_len, len);
    /* the last ciphertext blocks, the tail and the length block: one
     * reduction */
    y = ghash_finish(gk, y, out + 16 * (full - pending), pending, x, m);
    aesni_storeu(tag, _mm_xor_si128(aesni_bswap128(y), ej0));
}

/* The kernels one message runs, each its own function so that a short
 * message pays only its own prologue: c is J0 byte-reversed, so inc32 is
 * an add on its low dword. */
AESNI_INLINE void gcm_msg_short(ak_gcm_msg *m, const int dec)
{
    gcm_short(aesni_key(m->aes)->enc, m->aes->rounds, aesni_ghash_key(m->gh),
              aesni_bswap128(aesni_loadu(m->j0)), m->aad, m->aad_len, m->in, m->len, m->out,
              m->tag, dec);
}

/* Both start on a 64-byte boundary: where a short message's straight-line
 * kernel starts decides how many 64-byte fetch blocks it spans, and so its
 * cycles at 16-32 bytes, which would otherwise move with the size of every
 * object linked before this one. */
#define GCM_SHORT_ALIGN __attribute__((aligned(64)))
GCM_SHORT_ALIGN AESNI_NOINLINE void gcm_short_seal(ak_gcm_msg *m) { gcm_msg_short(m, 0); }
GCM_SHORT_ALIGN AESNI_NOINLINE void gcm_short_open(ak_gcm_msg *m) { gcm_msg_short(m, 1); }

AESNI_NOINLINE void gcm_long_msg(ak_gcm_msg *m)
{
    const __m128i *rk = aesni_key(m->aes)->enc;
    const ak_aesni_ghash_key *gk = aesni_ghash_key(m->gh);
    const unsigned R = m->aes->rounds;
    const __m128i c = aesni_bswap128(aesni_loadu(m->j0));
    if (m->flags & AK_GCM_OPEN)
        gcm_long(rk, R, gk, c, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 1);
    else
        gcm_long(rk, R, gk, c, m->aad, m->aad_len, m->in, m->len, m->out, m->tag, 0);
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
