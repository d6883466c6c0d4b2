/*
 * cbc_lanes_vaes2.c - the multi-lane CBC kernel (cbc_lanes) of the
 * x86-vaes-avx2 backend: up to 16 independent CBC chains (encryption or
 * CBC-MAC) in flight, 2 per ymm register.
 *
 * CPU features: VAES, AVX2 (and the rest of the backend's list: AES-NI,
 * AVX); no AVX-512 instruction is emitted (the target string does not name
 * it).  Every function carries the target attribute CL_TGT.
 *
 * The kernel is cbc_lanes_tmpl.h; this file gives its ymm vocabulary.
 * Chains in flight: 8 ymm x 2 lanes = 16.  VAESENC on ymm starts two
 * instructions per cycle with a latency of 3 cycles, so 6 vectors would
 * cover the latency; 8 of the 16 ymm registers hold chains and the rest
 * gather inputs (round keys are memory operands).
 */
#include <immintrin.h>

#include "../internal.h"

#define CL_TGT "vaes,avx2,avx,aes,ssse3,sse4.1"
#define CL_LV 2
/* No look-ahead: the next chunk's 16 ymm values do not fit beside the 8
 * chains in 16 registers (docs/performance.md, "the CBC lanes' last round
 * takes the next block"). */
#define CL_AHEAD 0
#define CL_AHEAD_MAC 0
#ifndef CL_NV
#define CL_NV 8
#endif
typedef __m256i cl_vec;
#define VFN static inline __attribute__((always_inline, target(CL_TGT)))

/* The encryption schedule of a key set up by x86-vaes-avx2: ak_vaes_aes_key.enc
 * (src/x86/vaes_aes.h), the struct's first member, which that header
 * asserts; the header needs the width file's vector vocabulary, so this
 * file reads the member at its asserted offset 0. */
static inline const uint8_t *cl_enc_schedule(const ak_aes *k) { return k->data; }

VFN cl_vec cl_load(const void *p) { return _mm256_load_si256((const __m256i *)p); }
VFN void cl_store(void *p, cl_vec v) { _mm256_store_si256((__m256i *)p, v); }
VFN cl_vec cl_loadu(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
VFN void cl_storeu(void *p, cl_vec v) { _mm256_storeu_si256((__m256i *)p, v); }
VFN cl_vec cl_bcast(const void *p) { return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p)); }
VFN cl_vec cl_xor(cl_vec a, cl_vec b) { return _mm256_xor_si256(a, b); }
VFN cl_vec cl_xor3(cl_vec a, cl_vec b, cl_vec c) { return _mm256_xor_si256(_mm256_xor_si256(a, c), b); }
VFN cl_vec cl_enc(cl_vec a, cl_vec k) { return _mm256_aesenc_epi128(a, k); }
VFN cl_vec cl_enclast(cl_vec a, cl_vec k) { return _mm256_aesenclast_epi128(a, k); }

VFN __m128i cl_lo(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }

VFN cl_vec cl_gather(const uint8_t *const *p, size_t off)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(cl_lo(p[0] + off)), cl_lo(p[1] + off), 1);
}

VFN void cl_scatter(uint8_t *const *p, const size_t *mask, size_t off, cl_vec v)
{
    _mm_storeu_si128((__m128i *)(void *)(p[0] + (off & mask[0])), _mm256_castsi256_si128(v));
    _mm_storeu_si128((__m128i *)(void *)(p[1] + (off & mask[1])), _mm256_extracti128_si256(v, 1));
}

/* 2 x 2 transpose of 128-bit lanes. */
VFN void cl_transpose(cl_vec x[2])
{
    const cl_vec t0 = _mm256_permute2x128_si256(x[0], x[1], 0x20);
    x[1] = _mm256_permute2x128_si256(x[0], x[1], 0x31);
    x[0] = t0;
}

#include "cbc_lanes_tmpl.h"

void ak_vaes2_cbc_lanes(ak_cbc_lane *l, size_t n);
__attribute__((target(CL_TGT))) void ak_vaes2_cbc_lanes(ak_cbc_lane *l, size_t n) { cl_lanes(l, n); }
