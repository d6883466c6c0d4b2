/*
 * vaes_width512.h - the zmm vector vocabulary of the x86-vaes-avx512
 * backend: 4 blocks per vector, 16 per AES/GCM batch, AVX-512 byte-masked
 * loads and stores for every tail, vpternlogd for 3-way XOR.  The
 * width-generic kernels (vaes_aes.h ... vaes_gcmsiv.h) are written over
 * these v_* functions; vaes_aes.h's top comment says which file has what.
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ, AVX-512 F/BW/VL
 * (AK_TGT below: every function carries it as a target attribute).
 *
 * A header because two translation units compile kernels over it:
 * aes_vaes_avx512.c (the backend) and gcm_multi_vaes512.c (the
 * multi-message GCM kernel, on its own so the two compile in parallel);
 * vaes_width256.h is the ymm vocabulary, likewise.
 */
#ifndef AK_VAES_WIDTH512_H
#define AK_VAES_WIDTH512_H
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "../internal.h"

#define AK_TGT "vaes,vpclmulqdq,avx512f,avx512bw,avx512vl,avx2,avx,aes,pclmul,ssse3,sse4.1"
#define AK_LANES 4
/* The GHASH key format (vaes_ghash.h): schoolbook middle term, 44 powers
 * and the four-batch powers; measured against the ymm format:
 * docs/design.md, "The VAES key layout". */
#define AK_KARATSUBA 0
typedef __m512i vec_t;

#define VFN static inline __attribute__((always_inline, target(AK_TGT)))

VFN vec_t v_zero(void) { return _mm512_setzero_si512(); }
VFN vec_t v_loadu(const void *p) { return _mm512_loadu_si512(p); }
VFN void v_storeu(void *p, vec_t v) { _mm512_storeu_si512(p, v); }
VFN vec_t v_bcast(const void *p) { return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)p)); }
/* Lane l = x_l. */
VFN vec_t v_lanes4(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
    __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(x0), x1, 1);
    __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(x2), x3, 1);
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}
VFN vec_t v_bcast_x(__m128i x) { return _mm512_broadcast_i32x4(x); }
VFN vec_t v_zext(__m128i x) { return _mm512_zextsi128_si512(x); }
VFN __m128i v_low128(vec_t v) { return _mm512_castsi512_si128(v); }
VFN vec_t v_xor(vec_t a, vec_t b) { return _mm512_xor_si512(a, b); }
VFN vec_t v_xor3(vec_t a, vec_t b, vec_t c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
VFN vec_t v_enc(vec_t a, vec_t k) { return _mm512_aesenc_epi128(a, k); }
VFN vec_t v_enclast(vec_t a, vec_t k) { return _mm512_aesenclast_epi128(a, k); }
VFN vec_t v_dec(vec_t a, vec_t k) { return _mm512_aesdec_epi128(a, k); }
VFN vec_t v_declast(vec_t a, vec_t k) { return _mm512_aesdeclast_epi128(a, k); }
#define v_clmul(a, b, imm) _mm512_clmulepi64_epi128((a), (b), (imm))
#define v_bslli(a, n) _mm512_bslli_epi128((a), (n))
#define v_bsrli(a, n) _mm512_bsrli_epi128((a), (n))
VFN vec_t v_shuffle8(vec_t a, vec_t m) { return _mm512_shuffle_epi8(a, m); }
VFN vec_t v_swap64(vec_t a) { return _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x4e); }
VFN vec_t v_unpacklo64(vec_t a, vec_t b) { return _mm512_unpacklo_epi64(a, b); }
VFN vec_t v_unpackhi64(vec_t a, vec_t b) { return _mm512_unpackhi_epi64(a, b); }
VFN vec_t v_add32(vec_t a, vec_t b) { return _mm512_add_epi32(a, b); }

VFN vec_t v_add64(vec_t a, vec_t b) { return _mm512_add_epi64(a, b); }
VFN vec_t v_sub64(vec_t a, vec_t b) { return _mm512_sub_epi64(a, b); }
VFN vec_t v_set1_64(long long x) { return _mm512_set1_epi64(x); }
VFN vec_t v_sllv64(vec_t a, vec_t c) { return _mm512_sllv_epi64(a, c); }
VFN vec_t v_srlv64(vec_t a, vec_t c) { return _mm512_srlv_epi64(a, c); }
VFN vec_t v_lane_idx64(void) { return _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0); }

/* 128-bit add per lane; b has its value in the low qword only. */
VFN vec_t v_add128(vec_t a, vec_t b)
{
    vec_t s = _mm512_add_epi64(a, b);
    __mmask8 carry = _mm512_cmplt_epu64_mask(s, b) & 0x55;
    return _mm512_mask_add_epi64(s, (__mmask8)(carry << 1), s, _mm512_set1_epi64(1));
}

/* Lane i's low dword = i; every lane's low dword = 4. */
VFN vec_t v_lane_idx(void) { return _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0); }
VFN vec_t v_lane_step(void) { return _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4); }

/* [prev lane 3, cur lanes 0..2]: the previous ciphertext of each block. */
VFN vec_t v_prevblocks(vec_t cur, vec_t prev) { return _mm512_alignr_epi64(cur, prev, 6); }
/* [cur lanes 1..3, next lane 0]: the inverse shift. */
VFN vec_t v_nextblocks(vec_t cur, vec_t next) { return _mm512_alignr_epi64(next, cur, 2); }

VFN __m128i v_hxor(vec_t v)
{
    __m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
}

/* v restricted to lane `lane` (zero if lane is outside 0..3). */
VFN vec_t v_lane_select(vec_t v, ptrdiff_t lane)
{
    __mmask8 m = (lane >= 0 && lane < 4) ? (__mmask8)(3u << (2 * lane)) : 0;
    return _mm512_maskz_mov_epi64(m, v);
}

/* Byte b of the vector stands for p[off + b]; it is live iff 0 <= off+b < n.
 * The mask depends on lengths only. */
typedef __mmask64 wmask_t;
VFN wmask_t v_wmask(ptrdiff_t off, size_t n)
{
    ptrdiff_t lo = off < 0 ? -off : 0;
    ptrdiff_t hi = (ptrdiff_t)n - off;
    hi = hi > 64 ? 64 : hi;
    hi = hi < lo ? lo : hi;
    uint64_t mhi = hi >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << hi) - 1);
    uint64_t mlo = lo >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << lo) - 1);
    return (wmask_t)(mhi & ~mlo);
}

/* wmask_rows[16 + i] = i mod 256 for -16 <= i < 256: the row at 16 + off
 * holds off + b, wrapped to a byte, in byte b. */
static const uint8_t wmask_rows[16 + 256] = {
    240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
    32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
    48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
    64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
    80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,
    96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
    112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
    128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
    144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
    160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
    176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,
    192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
    208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,
    224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,
    240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
};

/* v_wmask(off, n) for -16 <= off <= 192 and n <= 240, in two instructions
 * (a byte broadcast of n and one unsigned compare against a row of
 * wmask_rows) instead of the clamps and shifts: byte b is live iff
 * off + b < n as bytes, where off + b lies in [0, 255] or, below the
 * buffer, wraps to [240, 255], at or above every such n. */
VFN wmask_t v_wmask_small(ptrdiff_t off, size_t n)
{
    return (wmask_t)_mm512_cmplt_epu8_mask(_mm512_loadu_si512(wmask_rows + 16 + off), _mm512_set1_epi8((char)n));
}

/* Masked-off bytes are neither read nor faulted on (AVX-512 fault
 * suppression), so a window may start before or end past the buffer.  But
 * suppression is not free: when a masked-off byte lies on a page that is
 * not mapped writable (a guard page, a read-only mapping, a copy-on-write
 * zero page) the access takes a microcode assist, every call, costing
 * more than the whole message (docs/performance.md, "Measurements behind
 * the code").  So a window whose bytes reach a
 * page that its live bytes do not (checked at 4 KiB granularity, which is
 * also right for larger pages) goes through a small stack buffer instead.
 * The test depends on addresses and lengths only, never on data. */
VFN int v_window_on_live_pages(uintptr_t q, wmask_t m)
{
    if (__builtin_expect(((q ^ (q + 63)) >> 12) == 0, 1)) /* the whole window on one page */
        return 1;
    uintptr_t first = q + (uintptr_t)__builtin_ctzll(m), last = q + 63 - (uintptr_t)__builtin_clzll(m);
    return (((q ^ first) | ((q + 63) ^ last)) >> 12) == 0;
}

/* The bounce paths are inline and call nothing: a call, even on a branch
 * not taken, makes the compiler keep every live vector of the caller in
 * memory (all vector registers are caller-saved).  REP MOVSB moves the
 * live bytes through a stack buffer without touching a vector register. */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define AK_MSAN 1
#endif
#endif
VFN void v_movsb(void *dst, const void *src, size_t n)
{
#ifdef AK_MSAN
    __builtin_memcpy(dst, src, n); /* MemorySanitizer cannot see through the asm */
#else
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
#endif
}

VFN vec_t v_load_w_bounce(uintptr_t q, wmask_t m)
{
    AK_ALIGN64 uint8_t buf[64];
    int lo = __builtin_ctzll(m), hi = 64 - __builtin_clzll(m); /* m != 0 */
    _mm512_store_si512(buf, _mm512_setzero_si512());
    v_movsb(buf + lo, (const uint8_t *)q + lo, (size_t)(hi - lo));
    vec_t v = _mm512_load_si512(buf);
    _mm512_store_si512(buf, _mm512_setzero_si512()); /* it held input bytes */
    __asm__ volatile("" : : "r"(buf) : "memory");
    return v;
}

VFN void v_store_w_bounce(uintptr_t q, wmask_t m, vec_t v)
{
    AK_ALIGN64 uint8_t buf[64];
    int lo = __builtin_ctzll(m), hi = 64 - __builtin_clzll(m); /* m != 0 */
    _mm512_store_si512(buf, v);
    v_movsb((uint8_t *)q + lo, buf + lo, (size_t)(hi - lo));
    _mm512_store_si512(buf, _mm512_setzero_si512()); /* it held output bytes */
    __asm__ volatile("" : : "r"(buf) : "memory");
}

VFN vec_t v_load_w(const void *p, ptrdiff_t off, wmask_t m)
{
    uintptr_t q = (uintptr_t)p + (uintptr_t)off;
    if (!m)
        return v_zero();
    /* Whole leading blocks (one, two or all four): plain loads, which
     * (unlike masked ones) take their data from a store still in flight,
     * e.g. a buffer the caller has just written, and need no page test. */
    if (m == 0xffffu)
        return _mm512_zextsi128_si512(_mm_loadu_si128((const __m128i *)q));
    if (m == 0xffffffffu)
        return _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)q));
    if (m == ~(wmask_t)0)
        return _mm512_loadu_si512((const void *)q);
    if (__builtin_expect(v_window_on_live_pages(q, m), 1))
        return _mm512_maskz_loadu_epi8(m, (const void *)q);
    return v_load_w_bounce(q, m);
}
VFN void v_store_w(void *p, ptrdiff_t off, wmask_t m, vec_t v)
{
    uintptr_t q = (uintptr_t)p + (uintptr_t)off;
    if (!m)
        return;
    /* Whole leading blocks: plain stores, which a later load can take its
     * data from; a load that overlaps a masked store waits until that
     * store has been written to the cache (a one-block CTR call reads its
     * keystream block back at once). */
    if (m == 0xffffu) {
        _mm_storeu_si128((__m128i *)q, _mm512_castsi512_si128(v));
        return;
    }
    if (m == 0xffffffffu) {
        _mm256_storeu_si256((__m256i *)q, _mm512_castsi512_si256(v));
        return;
    }
    if (m == ~(wmask_t)0) {
        _mm512_storeu_si512((void *)q, v);
        return;
    }
    if (__builtin_expect(v_window_on_live_pages(q, m), 1))
        _mm512_mask_storeu_epi8((void *)q, m, v);
    else
        v_store_w_bounce(q, m, v);
}
VFN vec_t v_and_w(vec_t v, wmask_t m) { return _mm512_maskz_mov_epi8(m, v); }

/* The GCM tail windows with a batch behind them (vaes_gcm_tail_xor_n):
 * masked accesses need nothing of the bytes before the window. */
VFN vec_t v_load_w_behind(const uint8_t *q, wmask_t m) { return v_load_w(q, 0, m); }
VFN void v_store_w_behind(uint8_t *q, wmask_t m, vec_t v) { v_store_w(q, 0, m, v); }

#endif /* AK_VAES_WIDTH512_H */
