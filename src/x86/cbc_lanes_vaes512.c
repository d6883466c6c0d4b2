/*
 * cbc_lanes_vaes512.c - the multi-lane CBC kernel (cbc_lanes) of the
 * x86-vaes-avx512 backend: up to 16 independent CBC chains (encryption or
 * CBC-MAC) in flight, 4 per zmm register.
 *
 * CPU features: VAES, AVX-512 F (and the rest of the backend's list:
 * AES-NI, AVX2, AVX-512 BW/VL); every function carries the target
 * attribute CL_TGT, nothing is compiled with global -m flags.
 *
 * The kernel is cbc_lanes_tmpl.h; this file gives its zmm vocabulary.
 * Chains in flight: 4 zmm x 4 lanes = 16.  VAESENC on zmm starts one
 * instruction (4 block-rounds) per cycle with a latency of 3 cycles, so 3
 * vectors would cover the latency; the fourth leaves room for the loads,
 * inserts and extracts that gather and scatter the lanes' blocks.
 */
#include <immintrin.h>

#include "../internal.h"

#define CL_TGT "vaes,avx512f,avx512bw,avx512vl,avx2,avx,aes,ssse3,sse4.1"
#define CL_LV 4
/* Only CBC-MAC runs fold, with look-ahead: folding CBC encryption costs
 * an XOR more per stored block, on the AES port's only neighbour, and 16
 * more live zmm values, more than the fold saves (docs/performance.md,
 * "the CBC lanes' last round takes the next block"). */
#define CL_AHEAD 0
#define CL_FOLD_STORES 0
#define CL_AHEAD_MAC 1
#ifndef CL_NV
#define CL_NV 4
#endif
typedef __m512i cl_vec;
#define VFN static inline __attribute__((always_inline, target(CL_TGT)))

/* The encryption schedule of a key set up by x86-vaes-avx512: ak_vaes_aes_key.enc
 * (src/x86/vaes_aes.h), the struct's first member, which that header
 * asserts; the header needs the width file's vector vocabulary, so this
 * file reads the member at its asserted offset 0. */
static inline const uint8_t *cl_enc_schedule(const ak_aes *k) { return k->data; }

VFN cl_vec cl_load(const void *p) { return _mm512_load_si512(p); }
VFN void cl_store(void *p, cl_vec v) { _mm512_store_si512(p, v); }
VFN cl_vec cl_loadu(const void *p) { return _mm512_loadu_si512(p); }
VFN void cl_storeu(void *p, cl_vec v) { _mm512_storeu_si512(p, v); }
VFN cl_vec cl_bcast(const void *p) { return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)p)); }
VFN cl_vec cl_xor(cl_vec a, cl_vec b) { return _mm512_xor_si512(a, b); }
VFN cl_vec cl_xor3(cl_vec a, cl_vec b, cl_vec c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
VFN cl_vec cl_enc(cl_vec a, cl_vec k) { return _mm512_aesenc_epi128(a, k); }
VFN cl_vec cl_enclast(cl_vec a, cl_vec k) { return _mm512_aesenclast_epi128(a, k); }

VFN __m128i cl_lo(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }

VFN cl_vec cl_gather(const uint8_t *const *p, size_t off)
{
    cl_vec v = _mm512_castsi128_si512(cl_lo(p[0] + off));
    v = _mm512_inserti32x4(v, cl_lo(p[1] + off), 1);
    v = _mm512_inserti32x4(v, cl_lo(p[2] + off), 2);
    return _mm512_inserti32x4(v, cl_lo(p[3] + off), 3);
}

VFN void cl_scatter(uint8_t *const *p, const size_t *mask, size_t off, cl_vec v)
{
    _mm_storeu_si128((__m128i *)(void *)(p[0] + (off & mask[0])), _mm512_castsi512_si128(v));
    _mm_storeu_si128((__m128i *)(void *)(p[1] + (off & mask[1])), _mm512_extracti32x4_epi32(v, 1));
    _mm_storeu_si128((__m128i *)(void *)(p[2] + (off & mask[2])), _mm512_extracti32x4_epi32(v, 2));
    _mm_storeu_si128((__m128i *)(void *)(p[3] + (off & mask[3])), _mm512_extracti32x4_epi32(v, 3));
}

/* 4 x 4 transpose of 128-bit lanes: two rounds of 128-bit shuffles (p5),
 * pairs of lanes first, then single lanes. */
VFN void cl_transpose(cl_vec x[4])
{
    const cl_vec t0 = _mm512_shuffle_i64x2(x[0], x[1], 0x44), t1 = _mm512_shuffle_i64x2(x[0], x[1], 0xee);
    const cl_vec t2 = _mm512_shuffle_i64x2(x[2], x[3], 0x44), t3 = _mm512_shuffle_i64x2(x[2], x[3], 0xee);
    x[0] = _mm512_shuffle_i64x2(t0, t2, 0x88);
    x[1] = _mm512_shuffle_i64x2(t0, t2, 0xdd);
    x[2] = _mm512_shuffle_i64x2(t1, t3, 0x88);
    x[3] = _mm512_shuffle_i64x2(t1, t3, 0xdd);
}

#include "cbc_lanes_tmpl.h"

/* The fused CCM kernel (ccm_lanes_tmpl.h): its vectors in flight (16
 * MAC chains beside 4 keystream vectors a step; 32 registers hold them
 * and a transposed chunk) and the operations it adds to the vocabulary
 * above. */
#ifndef CM_NV
#define CM_NV 4
#endif
VFN cl_vec cl_bswap(cl_vec v)
{
    const __m128i r = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(r));
}
VFN cl_vec cl_inc64(cl_vec v) { return _mm512_add_epi64(v, _mm512_set_epi64(0, 1, 0, 1, 0, 1, 0, 1)); }
VFN cl_vec cl_add64(cl_vec a, cl_vec b) { return _mm512_add_epi64(a, b); }
/* n in each 128-bit lane's low 64-bit word, 0 in the high one. */
VFN cl_vec cl_set64(size_t n)
{
    const long long v = (long long)n;
    return _mm512_set_epi64(0, v, 0, v, 0, v, 0, v);
}
/* Lane i's low 64-bit word i, the high one 0. */
VFN cl_vec cl_lane_index(void) { return _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0); }
/* d = the 16 bytes of s in reverse order, plus v in the low 64-bit word
 * (no carry into the high one): one shuffle and one add on a 16-byte
 * vector, stored whole, so the runs' wide loads of these rows forward. */
VFN void cl_rev16_add(uint8_t *d, const uint8_t *s, uint64_t v)
{
    const __m128i r = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)s), r);
    _mm_storeu_si128((__m128i *)(void *)d, _mm_add_epi64(x, _mm_set_epi64x(0, (long long)v)));
}

#include "ccm_lanes_tmpl.h"

void ak_vaes512_cbc_lanes(ak_cbc_lane *l, size_t n);
__attribute__((target(CL_TGT))) void ak_vaes512_cbc_lanes(ak_cbc_lane *l, size_t n) { cl_lanes(l, n); }

void ak_vaes512_ccm_lanes(ak_ccm_lane *l, size_t n, int open);
__attribute__((target(CL_TGT))) void ak_vaes512_ccm_lanes(ak_ccm_lane *l, size_t n, int open) { cm_lanes(l, n, open); }
