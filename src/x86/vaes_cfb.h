/*
 * vaes_cfb.h - CFB-128 (SP 800-38A 6.3) over whole blocks on the x86-vaes
 * backends: decryption on the vectors (the cfb128_decrypt entry); at the
 * end the serial encryptions (cfb128_encrypt, cfb8_encrypt), which are
 * cfb_xmm.h's loops on this key format.
 *
 * CPU features: VAES and AVX2; on zmm AVX-512 F/BW/VL (AK_TGT of the width
 * file).  Needs vaes_aes.h and vaes_block.h.
 *
 * P_i = C_i ^ E(C_{i-1}) with C_0 = IV: one pass that loads a batch of
 * ciphertext, shifts it by one block (v_prevblocks, the same shift as CBC
 * decryption) for the AES input, and lets the ciphertext itself enter
 * through the last round's key (VAESENCLAST with K[R] ^ C_i), so the XOR
 * costs nothing.  The whole batch is loaded before it is stored and the
 * block before the next batch is carried in a register, so in place works.
 *
 * Constant time: only block counts decide branches and window bounds.
 */

VAES_INLINE void vaes_cfb_dec_tail_n(const vec_t *K, vec_t prev, const uint8_t *in, uint8_t *out, size_t n,
                                     const int N, const int R)
{
    vec_t c[NV], x[NV];
    for (int j = 0; j < N; j++)
        c[j] = v_load_window(in, (ptrdiff_t)(VB * j), n);
    for (int j = 0; j < N; j++)
        x[j] = v_xor(v_prevblocks(c[j], j ? c[j - 1] : prev), K[0]);
    vaes_aes_enc_n(x, K, c, N, R);
    for (int j = 0; j < N; j++)
        v_store_window(out, (ptrdiff_t)(VB * j), n, x[j]);
}

VAES_INLINE void vaes_cfb_dec_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t iv[16], const int R)
{
    vec_t K[15];
    vaes_load_enc_keys(K, ks, R);
    __m128i last = x_load(in + 16 * (nb - 1)); /* read before in-place writes */
    vec_t prev = v_bcast(iv), c[NV], x[NV];
    for (; nb >= BATCH; nb -= BATCH, in += 16 * BATCH, out += 16 * BATCH) {
        for (int j = 0; j < NV; j++)
            c[j] = v_loadu(in + VB * j);
        for (int j = 0; j < NV; j++)
            x[j] = v_xor(vaes_prev_in_batch(in, c, prev, j), K[0]);
        vaes_aes_enc_n(x, K, c, NV, R);
        for (int j = 0; j < NV; j++)
            v_storeu(out + VB * j, x[j]);
        prev = c[NV - 1];
    }
    if (nb) {
        size_t n = 16 * nb;
        switch (vaes_tail_vectors(n)) {
        case 1: vaes_cfb_dec_tail_n(K, prev, in, out, n, 1, R); break;
        case 2: vaes_cfb_dec_tail_n(K, prev, in, out, n, 2, R); break;
        case 3: vaes_cfb_dec_tail_n(K, prev, in, out, n, 3, R); break;
        default: vaes_cfb_dec_tail_n(K, prev, in, out, n, 4, R); break;
        }
    }
    x_store(iv, last);
}

/* The cfb128_decrypt entry (internal.h): iv = C_0 in, the last ciphertext
 * block out. */
VAES_INLINE void vaes_cfb128_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    if (!nb)
        return;
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_cfb_dec_body(ks, out, in, nb, iv, 10); break;
    case 12: vaes_cfb_dec_body(ks, out, in, nb, iv, 12); break;
    default: vaes_cfb_dec_body(ks, out, in, nb, iv, 14); break;
    }
}

/* CFB-128 and CFB-8 encryption (the cfb128_encrypt and cfb8_encrypt
 * entries): serial, one block in an xmm register, the loops of cfb_xmm.h
 * shared with x86-aesni (the key formats begin alike). */
#define CFB_XMM_INLINE VAES_INLINE
#include "cfb_xmm.h"

VAES_INLINE void vaes_cfb128_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    xmm_cfb128_encrypt(vaes_aes_key(k)->enc, k->rounds, out, in, nb, iv);
}

VAES_INLINE void vaes_cfb8_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t reg[16])
{
    xmm_cfb8_encrypt(vaes_aes_key(k)->enc, k->rounds, out, in, len, reg);
}
