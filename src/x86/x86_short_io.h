/*
 * x86_short_io.h - the first n < 16 bytes of a buffer into or out of an
 * xmm register in pieces of 8, 4, 2 and 1 bytes: nothing outside the n
 * bytes is read or written, so no page is reached that the buffer does
 * not lie on.  Shared by the multi-message GCM kernels of x86-aesni
 * (gcm_multi_aesni.h) and x86-vaes-avx2 (vaes_gcm_multi2.h).
 *
 * CPU features: SSE4.1 (PEXTRQ); the functions inline into the kernels'
 * own targets, which include it, and take their encoding.
 */
#ifndef AESKIT_X86_SHORT_IO_H
#define AESKIT_X86_SHORT_IO_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define AK_SHORT_IO_INLINE static inline __attribute__((always_inline, target("sse4.1")))

/* The first n < 16 bytes at p, zero above: 8, 4, 2 and 1 bytes as n's
 * bits say, nothing else read (p may be NULL when n is 0).  Branches on n
 * only. */
AK_SHORT_IO_INLINE __m128i ak_x86_load_short(const uint8_t *p, size_t n)
{
    uint64_t head = 0, t = 0;
    size_t o = 0;
    unsigned s = 0;
    if (n & 8) {
        memcpy(&head, p, 8);
        o = 8;
    }
    if (n & 4) {
        uint32_t w;
        memcpy(&w, p + o, 4);
        t = w;
        s = 32;
        o += 4;
    }
    if (n & 2) {
        uint16_t w;
        memcpy(&w, p + o, 2);
        t |= (uint64_t)w << s;
        s += 16;
        o += 2;
    }
    if (n & 1)
        t |= (uint64_t)p[o] << s;
    return (n & 8) ? _mm_set_epi64x((long long)t, (long long)head) : _mm_set_epi64x(0, (long long)t);
}

/* Stores the first n < 16 bytes of v at p, the same pieces. */
AK_SHORT_IO_INLINE void ak_x86_store_short(uint8_t *p, size_t n, __m128i v)
{
    uint64_t t = (uint64_t)_mm_cvtsi128_si64(v);
    size_t o = 0;
    if (n & 8) {
        memcpy(p, &t, 8);
        t = (uint64_t)_mm_extract_epi64(v, 1);
        o = 8;
    }
    if (n & 4) {
        uint32_t w = (uint32_t)t;
        memcpy(p + o, &w, 4);
        t >>= 32;
        o += 4;
    }
    if (n & 2) {
        uint16_t w = (uint16_t)t;
        memcpy(p + o, &w, 2);
        t >>= 16;
        o += 2;
    }
    if (n & 1)
        p[o] = (uint8_t)t;
}

#endif
