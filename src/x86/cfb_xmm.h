/*
 * cfb_xmm.h - the serial CFB encryptions (SP 800-38A 6.3) on one xmm
 * register: the cfb128_encrypt and cfb8_encrypt entries of x86-aesni and of
 * both x86-vaes backends.  Their key formats (ak_aesni_key in aesni_ops.h,
 * ak_vaes_aes_key in vaes_aes.h) both begin with the encryption schedule
 * K[0..R] as rows of 16 bytes, which is what these take.
 *
 * CPU features: AES-NI and SSSE3 (PALIGNR).  The includer defines
 * CFB_XMM_INLINE: static, always_inline, with its file's target attribute
 * (which includes them).
 */
#ifndef AESKIT_X86_CFB_XMM_H
#define AESKIT_X86_CFB_XMM_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#ifndef CFB_XMM_INLINE
#error "define CFB_XMM_INLINE (the including file's always_inline target) before cfb_xmm.h"
#endif

CFB_XMM_INLINE void xmm_cfb_keys(__m128i K[15], const uint8_t (*enc)[16], const int R)
{
    _Pragma("GCC unroll 15")
    for (int r = 0; r <= R; r++)
        K[r] = _mm_loadu_si128((const __m128i *)(const void *)enc[r]);
}

/* CFB-128 encryption: C_i = P_i ^ E(C_{i-1}), C_0 = iv.  The chain carries
 * C_i ^ K[0], the next block's state after round 0: AESENCLAST(t, K[R] ^
 * K[0] ^ P_i) = E(C_{i-1}) ^ P_i ^ K[0], so no XOR waits on the chain (as in
 * CBC encryption); the ciphertext is that value ^ K[0], off the chain.
 * Each block is loaded before it is stored (in place works). */
CFB_XMM_INLINE void xmm_cfb128_enc_r(const uint8_t (*enc)[16], uint8_t *out, const uint8_t *in,
                                     size_t nb, uint8_t iv[16], const int R)
{
    __m128i K[15];
    xmm_cfb_keys(K, enc, R);
    const __m128i klast0 = _mm_xor_si128(K[R], K[0]);
    __m128i t = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)iv), K[0]);
    for (size_t b = 0; b < nb; b++) {
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            t = _mm_aesenc_si128(t, K[r]);
        t = _mm_aesenclast_si128(
            t, _mm_xor_si128(klast0, _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * b))));
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * b), _mm_xor_si128(t, K[0]));
    }
    _mm_storeu_si128((__m128i *)(void *)iv, _mm_xor_si128(t, K[0]));
}

/* CFB-8 encryption: per byte O = E(I), c = p ^ O[0], I' = I[1..15] || c.
 * The plaintext byte enters through AESENCLAST (key K[R] ^ p in byte 0), so
 * t = O ^ p has c in byte 0, and PALIGNR(t, I, 1) = I[1..15] || t[0] is the
 * next register: the chain per byte is the R rounds, one PALIGNR and the
 * round-0 XOR.  Each byte is read before it is written (in place works). */
CFB_XMM_INLINE void xmm_cfb8_enc_r(const uint8_t (*enc)[16], uint8_t *out, const uint8_t *in,
                                   size_t len, uint8_t reg[16], const int R)
{
    __m128i K[15];
    xmm_cfb_keys(K, enc, R);
    __m128i I = _mm_loadu_si128((const __m128i *)(const void *)reg);
    for (size_t i = 0; i < len; i++) {
        __m128i s = _mm_xor_si128(I, K[0]);
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            s = _mm_aesenc_si128(s, K[r]);
        __m128i t = _mm_aesenclast_si128(s, _mm_xor_si128(K[R], _mm_cvtsi32_si128(in[i])));
        out[i] = (uint8_t)_mm_cvtsi128_si32(t);
        I = _mm_alignr_epi8(t, I, 1);
    }
    _mm_storeu_si128((__m128i *)(void *)reg, I);
}

/* The entries' bodies for a key of `rounds` rounds (10, 12 or 14), each
 * round count its own unrolled loop. */
CFB_XMM_INLINE void xmm_cfb128_encrypt(const uint8_t (*enc)[16], unsigned rounds, uint8_t *out,
                                       const uint8_t *in, size_t nb, uint8_t iv[16])
{
    switch (rounds) {
    case 10: xmm_cfb128_enc_r(enc, out, in, nb, iv, 10); break;
    case 12: xmm_cfb128_enc_r(enc, out, in, nb, iv, 12); break;
    default: xmm_cfb128_enc_r(enc, out, in, nb, iv, 14); break;
    }
}

CFB_XMM_INLINE void xmm_cfb8_encrypt(const uint8_t (*enc)[16], unsigned rounds, uint8_t *out,
                                     const uint8_t *in, size_t len, uint8_t reg[16])
{
    switch (rounds) {
    case 10: xmm_cfb8_enc_r(enc, out, in, len, reg, 10); break;
    case 12: xmm_cfb8_enc_r(enc, out, in, len, reg, 12); break;
    default: xmm_cfb8_enc_r(enc, out, in, len, reg, 14); break;
    }
}

#endif /* AESKIT_X86_CFB_XMM_H */
