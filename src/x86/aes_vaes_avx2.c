/*
 * aes_vaes_avx2.c - the x86-vaes-avx2 backend: AES (ECB, CTR32/128, CBC,
 * CBC-MAC, XTS), GHASH and fused GCM on 256-bit registers, for the CPUs with
 * VAES and VPCLMULQDQ but no AVX-512 (Zen 3, Alder Lake class).
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ (no AVX-512
 * instruction is emitted: the target string below does not name it).
 *
 * The kernels are shared with x86-vaes-avx512: vaes_aes.h (key, rounds),
 * vaes_ghash.h (GHASH; its top comment derives the math), vaes_block.h,
 * vaes_gcm_bulk.h, vaes_gcm_small.h.  This file supplies the ymm version
 * of the vector vocabulary: 2 blocks per vector, 8 per AES/GCM batch (16
 * ymm registers: 4 state vectors, the round keys and the GHASH sums must
 * fit), tails through 128-bit halves or a small stack buffer (AVX2 has no
 * byte masks), and spells out the backend's functions, ak_vaes2_*.
 */
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

#include "vaes_aes.h"
#include "vaes_ghash.h"
#include "vaes_block.h"
#include "vaes_gcm_bulk.h"
#include "vaes_gcm_small.h"
#include "vaes_gcm_chain_long.h"
#include "vaes_keyexp.h"
#include "vaes_ocb.h"
#include "vaes_cfb.h"
#include "vaes_gcmsiv.h"

/* ---- the backend's functions, over the width-generic bodies ------------- */

VAES_KERNEL void ak_vaes2_setkey(ak_aes *k, const uint8_t *key, size_t key_len) { vaes_setkey_ni(k, key, key_len); }
VAES_KERNEL void ak_vaes2_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    vaes_ecb(k, out, in, nb, 0);
}
VAES_KERNEL void ak_vaes2_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    vaes_ecb(k, out, in, nb, 1);
}
VAES_KERNEL void ak_vaes2_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr32(k, out, in, nb, ctr);
}
VAES_KERNEL void ak_vaes2_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr128(k, out, in, nb, ctr);
}
VAES_KERNEL void ak_vaes2_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cbc_serial(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cbc_decrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nb)
{
    vaes_cbc_serial(k, NULL, in, nb, state);
}
VAES_KERNEL void ak_vaes2_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
    vaes_xts(k, out, in, nb, tweak, 0);
}
VAES_KERNEL void ak_vaes2_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
    vaes_xts(k, out, in, nb, tweak, 1);
}
VAES_KERNEL void ak_vaes2_ghash_init(ak_ghash *g, const uint8_t H[16]) { vaes_ghash_init(g, H); }
VAES_KERNEL void ak_vaes2_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nb)
{
    vaes_ghash(g, Y, in, nb);
}
VAES_KERNEL void ak_vaes2_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t ctr[16], uint8_t Y[16])
{
    vaes_gcm_stream(k, g, out, in, nb, ctr, Y, 1);
}
VAES_KERNEL void ak_vaes2_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t ctr[16], uint8_t Y[16])
{
    vaes_gcm_stream(k, g, out, in, nb, ctr, Y, 0);
}
VAES_KERNEL void ak_vaes2_gcm_msgs(ak_gcm_msg *m, size_t n) { vaes_gcm_msgs(m, n); }
/* The gcm_batch entry (src/internal.h).  Seals: a uniform batch of the
 * long chain's lengths (vaes_chain_long_takes: above the one-pass class)
 * goes to it whole, a seal the register entry takes (vaes_gcm_seal12:
 * 1-16 bytes, AAD of at most a block) there, any other message through
 * vaes_gcm_batch_msg, the single call's dispatch.  Opens: the leading
 * run of opens of at most VAES2_OPEN_ONE_MAX bytes one at a time through
 * vaes_gcm_batch_msg, and it declines the rest (returns the run's length):
 * the chain's instance of this width's decryption loop spills, and above
 * that size the front end's descriptors through gcm_msgs ran faster than
 * one at a time here, below it slower (docs/performance.md, "Zen 4: long
 * messages in a batch as a chain" and "Zen 4: 44 powers on zmm"). */
#define VAES2_OPEN_ONE_MAX 64
VAES_KERNEL size_t ak_vaes2_gcm_batch(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    uint8_t none[64] = {0}; /* vaes_gcm_batch_msg */
    if (dir & AK_GCM_OPEN) {
        size_t i = 0;
        for (; i < n && m[i].len <= VAES2_OPEN_ONE_MAX; i++)
            vaes_gcm_batch_msg(&m[i], dir, T ? T[i] : m[i].tag, none + 32);
        return i;
    }
    if ((dir & AK_GCM_UNIFORM) && n >= 2 && vaes_chain_long_takes(m[0].len)) {
        vaes_gcm_chain_long_seal((const ak_gcm_key *)(const void *)m[0].key, m, n, T);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        if (mm->len - 1 < VAES_GCM_REG_MAX && mm->aad_len <= 16)
            (void)vaes_gcm_seal12((const ak_gcm_key *)(const void *)mm->key, mm->out, mm->tag, mm->in, mm->aad,
                                  VAES_LENS(mm->len, mm->aad_len), vaes_ivz_iv12(mm->iv));
        else
            vaes_gcm_batch_msg(mm, dir, T ? T[i] : mm->tag, none + 32);
    }
    return n;
}
/* The one-shot register entries start on a 64-byte boundary, as
 * vaes_gcm_one_seal does: where a straight-line kernel starts decides how
 * many 64-byte fetch blocks it spans, which would otherwise move with every
 * change to the code linked before it. */
#define VAES2_ENTRY_ALIGN __attribute__((aligned(64)))
VAES_KERNEL VAES2_ENTRY_ALIGN aeskit_status ak_vaes2_gcm_seal12(const ak_gcm_key *g, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                           const uint8_t *aad, size_t lens, ak_v2u64 ivz)
{
    return vaes_gcm_seal12(g, out, tag, in, aad, lens, (__m128i)ivz);
}
VAES_KERNEL VAES2_ENTRY_ALIGN aeskit_status ak_vaes2_gcm_open12(const ak_gcm_key *g, uint8_t *out, const uint8_t *tag, const uint8_t *in,
                                           const uint8_t *aad, size_t lens, ak_v2u64 ivz)
{
    return vaes_gcm_open12(g, out, tag, in, aad, lens, (__m128i)ivz);
}

VAES_KERNEL void ak_vaes2_ocb_blocks(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in, size_t nb,
                                   uint64_t first, uint8_t offset[16], uint8_t sum[16], int op)
{
    vaes_ocb(k, L, out, in, nb, first, offset, sum, op);
}
VAES_KERNEL void ak_vaes2_cfb128_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cfb128_encrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_cfb8_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t reg[16])
{
    vaes_cfb8_encrypt(k, out, in, len, reg);
}
VAES_KERNEL void ak_vaes2_cfb128_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cfb128_decrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_polyval_init(ak_ghash *g, const uint8_t H[16], size_t nb) { vaes_polyval_init(g, H, nb); }
VAES_KERNEL void ak_vaes2_polyval(const ak_ghash *g, uint8_t S[16], const uint8_t *in, size_t len)
{
    vaes_polyval(g, S, in, len);
}
VAES_KERNEL void ak_vaes2_ctr32le(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, const uint8_t ctr[16])
{
    vaes_ctr32le(k, out, in, len, ctr);
}
VAES_KERNEL void ak_vaes2_ctr32le_polyval(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t len,
                                         const uint8_t ctr[16], uint8_t S[16])
{
    vaes_ctr32le_polyval(k, g, out, in, len, ctr, S);
}

void ak_vaes2_cbc_lanes(ak_cbc_lane *l, size_t n); /* cbc_lanes_vaes2.c */
const ak_backend ak_backend_x86_vaes_avx2 = {
    .name = "x86-vaes-avx2",
    .requires = "AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ",
    .priority = 40,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41 | AK_CPU_AVX | AK_CPU_AVX2 |
                         AK_CPU_VAES | AK_CPU_VPCLMUL,
    .constant_time = 1,
    .aes_setkey = ak_vaes2_setkey,
    .ecb_encrypt = ak_vaes2_ecb_encrypt,
    .ecb_decrypt = ak_vaes2_ecb_decrypt,
    .ctr32 = ak_vaes2_ctr32,
    .ctr128 = ak_vaes2_ctr128,
    .cbc_encrypt = ak_vaes2_cbc_encrypt,
    .cbc_decrypt = ak_vaes2_cbc_decrypt,
    .cbcmac = ak_vaes2_cbcmac,
    .xts_encrypt = ak_vaes2_xts_encrypt,
    .xts_decrypt = ak_vaes2_xts_decrypt,
    .ghash_init = ak_vaes2_ghash_init,
    .ghash = ak_vaes2_ghash,
    .gcm_encrypt = ak_vaes2_gcm_encrypt,
    .gcm_decrypt = ak_vaes2_gcm_decrypt,
    .gcm_msgs = ak_vaes2_gcm_msgs,
    .gcm_batch = ak_vaes2_gcm_batch,
    .gcm_seal12 = ak_vaes2_gcm_seal12,
    .gcm_reg_max = VAES_GCM_REG_MAX,
    .gcm_open12 = ak_vaes2_gcm_open12,
    .gcm_open_reg_max = VAES_GCM_OPEN_REG_MAX,
    .cbc_lanes = ak_vaes2_cbc_lanes,
    .cbc_lanes_short = 6, /* docs/performance.md, "three and five ECB steps" */
    .ocb_blocks = ak_vaes2_ocb_blocks,
    .cfb128_decrypt = ak_vaes2_cfb128_decrypt,
    .cfb128_encrypt = ak_vaes2_cfb128_encrypt,
    .cfb8_encrypt = ak_vaes2_cfb8_encrypt,
    .polyval_init = ak_vaes2_polyval_init,
    .polyval = ak_vaes2_polyval,
    .ctr32le = ak_vaes2_ctr32le,
    .ctr32le_polyval = ak_vaes2_ctr32le_polyval,
};
