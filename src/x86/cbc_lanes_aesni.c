/*
 * cbc_lanes_aesni.c - the multi-lane CBC kernel (cbc_lanes) of the
 * x86-aesni backend: up to 8 independent CBC chains (encryption or CBC-MAC)
 * in flight, one per xmm register.
 *
 * CPU features: AES-NI, SSE4.1 (legacy-SSE encodings, xmm0-xmm15, as the
 * rest of the backend: no AVX).  Every function carries the target
 * attribute CL_TGT; the file is built without any -m flag.
 *
 * The kernel is cbc_lanes_tmpl.h; this file gives its xmm vocabulary.
 * Chains in flight: 8.  AESENC starts up to two instructions per cycle
 * with a latency of 3 to 4 cycles, so 6 to 8 chains cover the latency; the
 * round keys are memory operands (8 chains' keys do not fit 16 registers).
 */
#include <immintrin.h>

#include "../internal.h"
#include "aesni_ops.h"

#define CL_TGT "aes,ssse3,sse4.1"
#define CL_LV 1
#ifndef CL_NV
#define CL_NV 8
#endif
typedef __m128i cl_vec;
#define VFN static inline __attribute__((always_inline, target(CL_TGT)))

/* The encryption schedule of a key set up by x86-aesni (ak_aesni_key.enc). */
static inline const uint8_t *cl_enc_schedule(const ak_aes *k)
{
    return (const uint8_t *)aesni_key(k)->enc;
}

VFN cl_vec cl_load(const void *p) { return _mm_load_si128((const __m128i *)p); }
VFN void cl_store(void *p, cl_vec v) { _mm_store_si128((__m128i *)p, v); }
VFN cl_vec cl_loadu(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
VFN void cl_storeu(void *p, cl_vec v) { _mm_storeu_si128((__m128i *)p, v); }
VFN cl_vec cl_bcast(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
VFN cl_vec cl_xor(cl_vec a, cl_vec b) { return _mm_xor_si128(a, b); }
VFN cl_vec cl_xor3(cl_vec a, cl_vec b, cl_vec c) { return _mm_xor_si128(_mm_xor_si128(a, c), b); }
VFN cl_vec cl_enc(cl_vec a, cl_vec k) { return _mm_aesenc_si128(a, k); }
VFN cl_vec cl_enclast(cl_vec a, cl_vec k) { return _mm_aesenclast_si128(a, k); }

VFN cl_vec cl_gather(const uint8_t *const *p, size_t off)
{
    return _mm_loadu_si128((const __m128i *)(const void *)(p[0] + off));
}

VFN void cl_scatter(uint8_t *const *p, const size_t *mask, size_t off, cl_vec v)
{
    _mm_storeu_si128((__m128i *)(void *)(p[0] + (off & mask[0])), v);
}

/* One lane per vector: nothing to transpose. */
VFN void cl_transpose(cl_vec x[1]) { (void)x; }

#include "cbc_lanes_tmpl.h"

void ak_aesni_cbc_lanes(ak_cbc_lane *l, size_t n);
__attribute__((target(CL_TGT))) void ak_aesni_cbc_lanes(ak_cbc_lane *l, size_t n) { cl_lanes(l, n); }
