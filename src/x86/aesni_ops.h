/*
 * aesni_ops.h - the x86-aesni backend's one vocabulary, shared by
 * aes_aesni.c (AES modes) and gcm_aesni.c (GHASH and GCM): its key layouts
 * and the named operations on 128-bit registers and on 8-lane batches.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (legacy-SSE encodings,
 * xmm0-xmm15).  Every function carries AESNI_TARGET, so the two files are
 * built without any -m flag.  gcm_aesni_avx.c defines AESNI_TARGET with AVX
 * added before it includes this header: the same operations in VEX
 * encoding.
 *
 * 8-lane batches are arrays __m128i b[8] handled by always_inline functions
 * whose loops have constant trip counts: after inlining and full unrolling
 * every element is a register (GCC and Clang replace such arrays by scalars),
 * so the batch costs what eight named variables cost.  Tails of fewer than
 * 8 blocks run through the same code: lanes at or past n (public) read zeros
 * and are not stored.
 */
#ifndef AESKIT_X86_AESNI_OPS_H
#define AESKIT_X86_AESNI_OPS_H

#include <immintrin.h>

#include "../internal.h"

#ifndef AESNI_TARGET
#define AESNI_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1")))
#endif
#define AESNI_INLINE static inline __attribute__((always_inline)) AESNI_TARGET
#define AESNI_NOINLINE static __attribute__((noinline)) AESNI_TARGET

#if defined(__clang__)
#define AESNI_UNROLL _Pragma("clang loop unroll(full)")
#else
#define AESNI_UNROLL _Pragma("GCC unroll 16")
#endif

/* ---- key layouts ------------------------------------------------------------ */

/* ak_aes.data of x86-aesni: the round keys in the byte order AES-NI takes
 * (FIPS-197 words stored little-endian, i.e. the schedule's bytes in order).
 * Only rounds + 1 entries of each array are used (11, 13 or 15). */
typedef struct ak_aesni_key {
    /* FIPS-197 5.2 encryption schedule K_0 .. K_R */
    __m128i enc[15];
    /* AESDEC's schedule, the "equivalent inverse cipher" of FIPS-197 5.3.5:
     * dec[0] = K_R, dec[i] = InvMixColumns(K_(R-i)) (AESIMC) for
     * 0 < i < R, dec[R] = K_0.  Kept rather than derived per call: 13
     * AESIMC for AES-256 would sit in front of every decryption. */
    __m128i dec[15];
    /* 1 if the CPU had AVX at key setup (ak_cpu_features, which honours
     * AESKIT_CPU): the GCM kernels then run their VEX-encoded build,
     * gcm_aesni_avx.c.  Public; 12 bytes of padding follow. */
    uint32_t vex;
} ak_aesni_key; /* 496 bytes */
_Static_assert(sizeof(ak_aesni_key) <= AK_AES_DATA_BYTES, "ak_aesni_key exceeds ak_aes.data");

/* ak_ghash.data of x86-aesni (the math is in gcm_aesni.c's header): the
 * powers of the twisted key H' = rev(H * x^-1 mod P) and their Karatsuba
 * middle operands.  16 powers: GHASH alone and the final blocks of a GCM
 * message (the short path's AAD, data and length block) aggregate up to 16
 * blocks per reduction; the fused 8-block loops use H'^1 .. H'^8. */
#define AESNI_NPOW 16
typedef struct ak_aesni_ghash_key {
    __m128i hpow[AESNI_NPOW]; /* hpow[i-1] = H'^i, reflected (bit 127 - j holds x^j) */
    __m128i hkar[AESNI_NPOW]; /* hkar[i-1] = lo ^ hi qword of H'^i, in both qwords */
} ak_aesni_ghash_key; /* 512 bytes, no padding */
_Static_assert(sizeof(ak_aesni_ghash_key) <= AESKIT_GHASH_KEY_SIZE,
               "ak_aesni_ghash_key exceeds ak_ghash.data");

/* The batch API's multi-message GCM kernel (gcm_multi_aesni.h) takes
 * messages of 1 .. AESNI_MX_LEN bytes; aes_aesni.c's gcm_batch entry
 * routes by it. */
#define AESNI_MX_LEN 64

/* The typed views of the backend-owned areas (64-byte aligned, see
 * ak_aes in internal.h; __m128i may alias any type). */
static inline const ak_aesni_key *aesni_key(const ak_aes *k)
{
    return (const ak_aesni_key *)(const void *)k->data;
}
static inline ak_aesni_key *aesni_key_mut(ak_aes *k)
{
    return (ak_aesni_key *)(void *)k->data;
}
static inline const ak_aesni_ghash_key *aesni_ghash_key(const ak_ghash *g)
{
    return (const ak_aesni_ghash_key *)(const void *)g->data;
}
static inline ak_aesni_ghash_key *aesni_ghash_key_mut(ak_ghash *g)
{
    return (ak_aesni_ghash_key *)(void *)g->data;
}

/* ---- one register ------------------------------------------------------------ */

AESNI_INLINE __m128i aesni_loadu(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}
AESNI_INLINE void aesni_storeu(void *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)p, v);
}

/* The 16 bytes in reverse order: a block as a big-endian integer. */
AESNI_INLINE __m128i aesni_bswap128(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* The byte-reversed counter block c plus j in its low dword (GCM's inc32:
 * the add wraps inside the lane), back in byte order. */
AESNI_INLINE __m128i aesni_ctr32_block(__m128i c, int j)
{
    return aesni_bswap128(_mm_add_epi32(c, _mm_set_epi32(0, 0, 0, j)));
}

/* E_K(b) with R rounds of the schedule rk. */
AESNI_INLINE __m128i aesni_enc1(const __m128i *rk, unsigned R, __m128i b)
{
    b = _mm_xor_si128(b, rk[0]);
    for (unsigned r = 1; r < R; r++)
        b = _mm_aesenc_si128(b, rk[r]);
    return _mm_aesenclast_si128(b, rk[R]);
}

/* Clears a buffer that held key material; the empty asm keeps the compiler
 * from dropping the memset as a dead store. */
static inline void aesni_wipe(void *p, size_t n)
{
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ---- 8-lane batches ----------------------------------------------------------- */

/* One AES operation with round key kr on all 8 lanes. */
AESNI_INLINE void aesni_xor8(__m128i b[8], __m128i kr)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_xor_si128(b[j], kr);
}
AESNI_INLINE void aesni_enc8(__m128i b[8], __m128i kr)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_aesenc_si128(b[j], kr);
}
AESNI_INLINE void aesni_enclast8(__m128i b[8], __m128i kr)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_aesenclast_si128(b[j], kr);
}
AESNI_INLINE void aesni_dec8(__m128i b[8], __m128i kr)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_aesdec_si128(b[j], kr);
}
AESNI_INLINE void aesni_declast8(__m128i b[8], __m128i kr)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_aesdeclast_si128(b[j], kr);
}

/* Rounds 1 .. R-1 of the schedule rk (whitening and last round apart). */
AESNI_INLINE void aesni_enc_mid8(__m128i b[8], const __m128i *rk, unsigned R)
{
    for (unsigned r = 1; r < R; r++)
        aesni_enc8(b, rk[r]);
}
AESNI_INLINE void aesni_dec_mid8(__m128i b[8], const __m128i *rk, unsigned R)
{
    for (unsigned r = 1; r < R; r++)
        aesni_dec8(b, rk[r]);
}

/* The full cipher on 8 lanes (whitening, R-1 full rounds, last round). */
AESNI_INLINE void aesni_encrypt8(__m128i b[8], const __m128i *rk, unsigned R)
{
    aesni_xor8(b, rk[0]);
    aesni_enc_mid8(b, rk, R);
    aesni_enclast8(b, rk[R]);
}
AESNI_INLINE void aesni_decrypt8(__m128i b[8], const __m128i *rk, unsigned R)
{
    aesni_xor8(b, rk[0]);
    aesni_dec_mid8(b, rk, R);
    aesni_declast8(b, rk[R]);
}

/* Loads and stores of 8 consecutive blocks; the _n forms touch lanes < n
 * only (lanes past n are zero on load). */
AESNI_INLINE void aesni_load8(__m128i b[8], const uint8_t *in)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = aesni_loadu(in + 16 * j);
}
AESNI_INLINE void aesni_load8_n(__m128i b[8], const uint8_t *in, size_t n)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = (size_t)j < n ? aesni_loadu(in + 16 * j) : _mm_setzero_si128();
}
AESNI_INLINE void aesni_store8(uint8_t *out, const __m128i b[8])
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        aesni_storeu(out + 16 * j, b[j]);
}
AESNI_INLINE void aesni_store8_n(uint8_t *out, const __m128i b[8], size_t n)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        if ((size_t)j < n)
            aesni_storeu(out + 16 * j, b[j]);
}
/* b[j] ^= in block j (keystream onto the input). */
AESNI_INLINE void aesni_xor_in8(__m128i b[8], const uint8_t *in)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = _mm_xor_si128(b[j], aesni_loadu(in + 16 * j));
}
AESNI_INLINE void aesni_xor_in8_n(__m128i b[8], const uint8_t *in, size_t n)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        if ((size_t)j < n)
            b[j] = _mm_xor_si128(b[j], aesni_loadu(in + 16 * j));
}

/* Counter lanes c + 0 .. c + 7 (c byte-reversed, inc32 on its low dword):
 * one 32-bit add and one byte swap per lane, whatever the counter -- GCM's
 * counter is secret for IVs other than 96 bits (J0 = GHASH_H(IV)), so no
 * branch may look at its value. */
AESNI_INLINE void aesni_ctr32_lanes8(__m128i b[8], __m128i c)
{
    AESNI_UNROLL
    for (int j = 0; j < 8; j++)
        b[j] = aesni_ctr32_block(c, j);
}

#endif /* AESKIT_X86_AESNI_OPS_H */
