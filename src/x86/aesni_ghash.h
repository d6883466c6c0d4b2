/*
 * aesni_ghash.h - the x86-aesni backend's GHASH arithmetic on 128-bit
 * registers: the unreduced Karatsuba sum (acc_t), the products with the
 * key's powers (acc_init, acc_add, acc_add2), the Montgomery reductions
 * (reduce, acc_reduce) and the reflected block load (xblk).  Shared by
 * gcm_aesni.c (GHASH, the fused and whole-message GCM kernels) and
 * gcm_multi_aesni.h (the batch API's multi-message kernel).
 *
 * CPU features: PCLMULQDQ, SSSE3 (AESNI_TARGET of aesni_ops.h, or the AVX
 * one a VEX build defines before it includes aesni_ops.h).  The math (the
 * reflected domain, H' = rev(H * x^-1 mod P), the reduction) is the head
 * comment of gcm_aesni.c and, in full, the essay at the top of
 * vaes_ghash.h.  Constant time: no branch or index depends on the values.
 */
#ifndef AESKIT_X86_AESNI_GHASH_H
#define AESKIT_X86_AESNI_GHASH_H

#include "aesni_ops.h"

/* An unreduced Karatsuba sum: the low, high and middle products. */
typedef struct {
    __m128i lo, hi, mid;
} acc_t;

/* a += x * H'^i (1 <= i <= AESNI_NPOW), x reflected; init starts the sum. */
AESNI_INLINE void acc_init(acc_t *a, __m128i x, const ak_aesni_ghash_key *gk, size_t i)
{
    const __m128i h = gk->hpow[i - 1], hk = gk->hkar[i - 1];
    a->lo = _mm_clmulepi64_si128(x, h, 0x00);
    a->hi = _mm_clmulepi64_si128(x, h, 0x11);
    a->mid = _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), hk, 0x00);
}

AESNI_INLINE void acc_add(acc_t *a, __m128i x, const ak_aesni_ghash_key *gk, size_t i)
{
    const __m128i h = gk->hpow[i - 1], hk = gk->hkar[i - 1];
    a->lo = _mm_xor_si128(a->lo, _mm_clmulepi64_si128(x, h, 0x00));
    a->hi = _mm_xor_si128(a->hi, _mm_clmulepi64_si128(x, h, 0x11));
    a->mid = _mm_xor_si128(a->mid, _mm_clmulepi64_si128(
                                       _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), hk, 0x00));
}

/* a += x0 * H'^i + x1 * H'^(i-1) (2 <= i <= AESNI_NPOW; init: a =), two
 * blocks whose Karatsuba middle operands come from one unpack pair:
 * m = unpacklo(x0, x1) ^ unpackhi(x0, x1) = (x0.lo ^ x0.hi, x1.lo ^ x1.hi),
 * and as hkar holds its value in both qwords, selector 0x11 multiplies m's
 * high qword by it.  Three vector ops for the two operands instead of a
 * PSHUFD and a PXOR each. */
AESNI_INLINE void acc_add2(acc_t *a, __m128i x0, __m128i x1, const ak_aesni_ghash_key *gk,
                           size_t i, const int init)
{
    const __m128i h0 = gk->hpow[i - 1], h1 = gk->hpow[i - 2];
    const __m128i m = _mm_xor_si128(_mm_unpacklo_epi64(x0, x1), _mm_unpackhi_epi64(x0, x1));
    const __m128i lo = _mm_xor_si128(_mm_clmulepi64_si128(x0, h0, 0x00),
                                     _mm_clmulepi64_si128(x1, h1, 0x00));
    const __m128i hi = _mm_xor_si128(_mm_clmulepi64_si128(x0, h0, 0x11),
                                     _mm_clmulepi64_si128(x1, h1, 0x11));
    const __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(m, gk->hkar[i - 1], 0x00),
                                      _mm_clmulepi64_si128(m, gk->hkar[i - 2], 0x11));
    if (init) {
        a->lo = lo;
        a->hi = hi;
        a->mid = mid;
    } else {
        a->lo = _mm_xor_si128(a->lo, lo);
        a->hi = _mm_xor_si128(a->hi, hi);
        a->mid = _mm_xor_si128(a->mid, mid);
    }
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

/* A Karatsuba sum reduced without splitting its middle term.  With
 * M = mid ^ lo ^ hi the product is D1:D0 with D1 = hi ^ (M >> 64) and
 * D0 = lo ^ (M << 64), and reduce() returns D1 ^ swap(E) ^ clmul(E.lo, c)
 * for E = swap(D0) ^ clmul(D0.lo, c).  D0.lo = lo.lo, so
 * E = E0 ^ (M.lo in the low qword) with E0 = swap(lo) ^ clmul(lo.lo, c);
 * swap of that low-qword term is M << 64, which with D1's M >> 64 makes
 * swap(M).  So the result is hi ^ swap(U) ^ clmul(U.lo, c) with
 * U = E0 ^ M (U.lo = E.lo): 8 vector ops besides the two PCLMULQDQ instead
 * of 11, and E0 waits for lo only, not for M. */
AESNI_INLINE __m128i acc_reduce(const acc_t *a)
{
    const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ull, 1);
    const __m128i m = _mm_xor_si128(a->mid, _mm_xor_si128(a->lo, a->hi));
    const __m128i e0 = _mm_xor_si128(_mm_shuffle_epi32(a->lo, 0x4e),
                                     _mm_clmulepi64_si128(a->lo, poly, 0x10));
    const __m128i u = _mm_xor_si128(e0, m);
    return _mm_xor_si128(_mm_xor_si128(a->hi, _mm_shuffle_epi32(u, 0x4e)),
                         _mm_clmulepi64_si128(u, poly, 0x10));
}

/* The input block at p, reflected. */
AESNI_INLINE __m128i xblk(const uint8_t *p)
{
    return aesni_bswap128(aesni_loadu(p));
}

#endif /* AESKIT_X86_AESNI_GHASH_H */
