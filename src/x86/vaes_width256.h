/*
 * vaes_width256.h - the ymm vector vocabulary of the x86-vaes-avx2
 * backend: 2 blocks per vector, 8 per AES/GCM batch, tails through 128-bit
 * halves or a small stack buffer (AVX2 has no byte masks).  The
 * width-generic kernels (vaes_aes.h ... vaes_gcmsiv.h) are written over
 * these v_* functions; vaes_aes.h's top comment says which file has what.
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ (AK_TGT
 * below; no AVX-512 instruction is emitted: the target string does not
 * name it).
 *
 * A header because two translation units compile kernels over it:
 * aes_vaes_avx2.c (the backend) and gcm_multi_vaes2.c (the multi-message
 * GCM kernel, on its own so the two compile in parallel).
 */
#ifndef AK_VAES_WIDTH256_H
#define AK_VAES_WIDTH256_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#define AK_TGT "vaes,vpclmulqdq,avx2,avx,aes,pclmul,ssse3,sse4.1"
#define AK_LANES 2
/* The GHASH key format (vaes_ghash.h): Karatsuba, 28 powers, and the
 * fused loop's one-vector-at-a-time multiply schedule (vaes_gcm_stitch);
 * measured against the zmm format: docs/design.md, "The VAES key layout". */
#define AK_KARATSUBA 1
typedef __m256i vec_t;

#define VFN static inline __attribute__((always_inline, target(AK_TGT)))

VFN vec_t v_zero(void) { return _mm256_setzero_si256(); }
VFN vec_t v_loadu(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
VFN void v_storeu(void *p, vec_t v) { _mm256_storeu_si256((__m256i *)p, v); }
VFN vec_t v_bcast(const void *p) { return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p)); }
VFN vec_t v_bcast_x(__m128i x) { return _mm256_broadcastsi128_si256(x); }
VFN vec_t v_zext(__m128i x) { return _mm256_inserti128_si256(_mm256_setzero_si256(), x, 0); }
VFN __m128i v_low128(vec_t v) { return _mm256_castsi256_si128(v); }
VFN vec_t v_xor(vec_t a, vec_t b) { return _mm256_xor_si256(a, b); }
VFN vec_t v_xor3(vec_t a, vec_t b, vec_t c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
VFN vec_t v_enc(vec_t a, vec_t k) { return _mm256_aesenc_epi128(a, k); }
VFN vec_t v_enclast(vec_t a, vec_t k) { return _mm256_aesenclast_epi128(a, k); }
VFN vec_t v_dec(vec_t a, vec_t k) { return _mm256_aesdec_epi128(a, k); }
VFN vec_t v_declast(vec_t a, vec_t k) { return _mm256_aesdeclast_epi128(a, k); }
#define v_clmul(a, b, imm) _mm256_clmulepi64_epi128((a), (b), (imm))
#define v_bslli(a, n) _mm256_bslli_epi128((a), (n))
#define v_bsrli(a, n) _mm256_bsrli_epi128((a), (n))
VFN vec_t v_shuffle8(vec_t a, vec_t m) { return _mm256_shuffle_epi8(a, m); }
VFN vec_t v_swap64(vec_t a) { return _mm256_shuffle_epi32(a, 0x4e); }
VFN vec_t v_unpacklo64(vec_t a, vec_t b) { return _mm256_unpacklo_epi64(a, b); }
VFN vec_t v_unpackhi64(vec_t a, vec_t b) { return _mm256_unpackhi_epi64(a, b); }
VFN vec_t v_add32(vec_t a, vec_t b) { return _mm256_add_epi32(a, b); }

VFN vec_t v_add64(vec_t a, vec_t b) { return _mm256_add_epi64(a, b); }
VFN vec_t v_sub64(vec_t a, vec_t b) { return _mm256_sub_epi64(a, b); }
VFN vec_t v_set1_64(long long x) { return _mm256_set1_epi64x(x); }
VFN vec_t v_sllv64(vec_t a, vec_t c) { return _mm256_sllv_epi64(a, c); }
VFN vec_t v_srlv64(vec_t a, vec_t c) { return _mm256_srlv_epi64(a, c); }
VFN vec_t v_lane_idx64(void) { return _mm256_set_epi64x(1, 1, 0, 0); }

/* 128-bit add per lane; b has its value in the low qword only.  Unsigned
 * "sum < b" by a signed compare after flipping the sign bits. */
VFN vec_t v_add128(vec_t a, vec_t b)
{
    const vec_t sign = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    vec_t s = _mm256_add_epi64(a, b);
    vec_t carry = _mm256_cmpgt_epi64(_mm256_xor_si256(b, sign), _mm256_xor_si256(s, sign));
    carry = _mm256_bslli_epi128(carry, 8); /* low-qword carry into the high qword */
    return _mm256_sub_epi64(s, carry);
}

VFN vec_t v_lane_idx(void) { return _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0); }
VFN vec_t v_lane_step(void) { return _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2); }

/* [prev lane 1, cur lane 0]: the previous ciphertext of each block. */
VFN vec_t v_prevblocks(vec_t cur, vec_t prev) { return _mm256_permute2x128_si256(prev, cur, 0x21); }
/* [cur lane 1, next lane 0]: the inverse shift. */
VFN vec_t v_nextblocks(vec_t cur, vec_t next) { return _mm256_permute2x128_si256(cur, next, 0x21); }

VFN __m128i v_hxor(vec_t v) { return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)); }

/* v restricted to lane `lane` (zero if lane is outside 0..1). */
VFN vec_t v_lane_select(vec_t v, ptrdiff_t lane)
{
    return _mm256_and_si256(v, _mm256_cmpeq_epi64(v_lane_idx64(), _mm256_set1_epi64x((long long)lane)));
}

/* Byte b of the vector stands for p[off + b]; it is live iff 0 <= off+b < n,
 * i.e. for b in [lo, hi).  Depends on lengths only. */
typedef struct {
    int lo, hi;
} wmask_t;
VFN wmask_t v_wmask(ptrdiff_t off, size_t n)
{
    ptrdiff_t lo = off < 0 ? -off : 0;
    ptrdiff_t hi = (ptrdiff_t)n - off;
    hi = hi > 32 ? 32 : hi;
    lo = lo > 32 ? 32 : lo;
    hi = hi < lo ? lo : hi;
    return (wmask_t){(int)lo, (int)hi};
}
/* The same for short messages (the zmm file's is cheaper there). */
VFN wmask_t v_wmask_small(ptrdiff_t off, size_t n) { return v_wmask(off, n); }

/* A window of whole 16-byte lanes is [0,16), [16,32) or [0,32): plain
 * 128-bit loads and stores of the live half, which never touch the other
 * lane's bytes (so the address may point before or past the buffer there).
 * Only a window ending inside a block takes the byte copy.  (This used
 * vpmaskmovq before; clang 14's MemorySanitizer does not model
 * llvm.x86.avx2.maskstore/maskload with a run-time mask, so every tail
 * store looked unwritten to it, and vpmaskmovq stores are slow on AMD.) */
VFN vec_t v_load_w(const void *p, ptrdiff_t off, wmask_t m)
{
    /* Integer arithmetic: the window may start before the buffer (or at
     * NULL for an empty message), where pointer arithmetic is undefined. */
    const uint8_t *q = (const uint8_t *)((uintptr_t)p + (uintptr_t)off);
    if (m.lo == 0 && m.hi == 32)
        return v_loadu(q);
    if (m.lo == 0 && m.hi == 16)
        return _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)q));
    if (m.lo == 16 && m.hi == 32)
        return _mm256_inserti128_si256(_mm256_setzero_si256(), _mm_loadu_si128((const __m128i *)(q + 16)), 1);
    uint8_t buf[32] = {0};
    if (m.hi > m.lo)
        memcpy(buf + m.lo, q + m.lo, (size_t)(m.hi - m.lo));
    return v_loadu(buf);
}

VFN void v_store_w(void *p, ptrdiff_t off, wmask_t m, vec_t v)
{
    uint8_t *q = (uint8_t *)((uintptr_t)p + (uintptr_t)off);
    if (m.lo == 0 && m.hi == 32) {
        v_storeu(q, v);
        return;
    }
    if (m.lo == 0 && m.hi == 16) {
        _mm_storeu_si128((__m128i *)q, _mm256_castsi256_si128(v));
        return;
    }
    if (m.lo == 16 && m.hi == 32) {
        _mm_storeu_si128((__m128i *)(q + 16), _mm256_extracti128_si256(v, 1));
        return;
    }
    uint8_t buf[32];
    v_storeu(buf, v);
    if (m.hi > m.lo)
        memcpy(q + m.lo, buf + m.lo, (size_t)(m.hi - m.lo));
}

/* 32 bytes of 0xff then 32 of 0: a load at 32-k gives k leading 0xff
 * (v_and_w, v_store_w_behind). */
static const uint8_t ff00[64] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* Windows [0, hi) that have at least 32 - hi bytes of the same buffer
 * before them, already final (the GCM tail behind a bulk: vaes_gcm_tail_xor_n).
 * The partial ones move through the 32 bytes that END at the window's end
 * instead of a byte copy: one 32-byte load, a lane swap, two vpshufb and
 * an OR; the store rewrites the s = 32 - hi bytes before the window with
 * their own values (read back, kept by an AND with a constant mask, so
 * MemorySanitizer sees only defined bytes stored).  No byte copy: it
 * would call memcpy twice per message and reload its bytes through a
 * failed store forward (docs/performance.md, "Measurements behind the
 * code").  Table offsets depend on
 * hi, a length only.  behind_tab[j] = j - 48 for 48 <= j < 64, else
 * 0x80 (vpshufb writes a zero). */
static const uint8_t behind_tab[96] __attribute__((aligned(32))) = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

VFN vec_t v_load_w_behind(const uint8_t *q, wmask_t m)
{
    if (m.hi == 32 || m.hi == 16 || m.hi <= 0)
        return v_load_w(q, 0, m);
    int s = 32 - m.hi;
    vec_t l = v_loadu(q - s); /* l[i] = q[i - s] */
    vec_t a = _mm256_permute2x128_si256(l, l, 0x81); /* [l.lane1, 0] */
    /* w[b] = l[b + s]: from l's own lane (t = b%16 + s < 16) or the next */
    vec_t m1 = v_bcast(behind_tab + 48 + s), m2 = v_bcast(behind_tab + 32 + s);
    return _mm256_or_si256(_mm256_shuffle_epi8(l, m1), _mm256_shuffle_epi8(a, m2));
}

VFN void v_store_w_behind(uint8_t *q, wmask_t m, vec_t v)
{
    if (m.hi == 32 || m.hi == 16 || m.hi <= 0) {
        v_store_w(q, 0, m, v);
        return;
    }
    int s = 32 - m.hi;
    vec_t b = _mm256_permute2x128_si256(v, v, 0x08); /* [0, v.lane0] */
    /* sh[i] = v[i - s]: from v's own lane (i%16 >= s') or the one before */
    vec_t n1 = v_bcast(behind_tab + 48 - s), n2 = v_bcast(behind_tab + 64 - s);
    vec_t sh = _mm256_or_si256(_mm256_shuffle_epi8(v, n1), _mm256_shuffle_epi8(b, n2));
    vec_t keep = _mm256_and_si256(v_loadu(q - s), v_loadu(ff00 + 32 - s));
    v_storeu(q - s, _mm256_or_si256(keep, sh));
}

VFN vec_t v_and_w(vec_t v, wmask_t m)
{
    vec_t mhi = v_loadu(ff00 + 32 - m.hi), mlo = v_loadu(ff00 + 32 - m.lo);
    return _mm256_andnot_si256(mlo, _mm256_and_si256(mhi, v));
}

#endif /* AK_VAES_WIDTH256_H */
