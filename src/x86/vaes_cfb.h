/*
 * vaes_cfb.h - CFB-128 (SP 800-38A 6.3) over whole blocks on the x86-vaes
 * backends: decryption on the vectors (the cfb128_decrypt entry) and the
 * serial encryption on xmm (cfb128_encrypt), and CFB-8 encryption
 * (cfb8_encrypt), both at the end.
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
            x[j] = v_xor(v_prevblocks(c[j], j ? c[j - 1] : prev), K[0]);
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

/* CFB-128 encryption (the cfb128_encrypt entry): C_i = P_i ^ E(C_{i-1}),
 * C_0 = iv.  The chain carries C_i ^ K[0], the next block's state after
 * round 0: AESENCLAST(t, K[R] ^ K[0] ^ P_i) = E(C_{i-1}) ^ P_i ^ K[0], so,
 * as in the CBC loop of vaes_block.h, no XOR waits on the chain; the ciphertext is
 * that value ^ K[0], off the chain.  Each block is loaded before it is
 * stored (in place works). */
VAES_INLINE void vaes_cfb_enc_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t iv[16], const int R)
{
    __m128i K[15];
    for (int i = 0; i <= R; i++)
        K[i] = x_load(ks->enc[i]);
    const __m128i klast0 = _mm_xor_si128(K[R], K[0]);
    __m128i t = _mm_xor_si128(x_load(iv), K[0]);
    for (size_t b = 0; b < nb; b++) {
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            t = _mm_aesenc_si128(t, K[r]);
        t = _mm_aesenclast_si128(t, _mm_xor_si128(klast0, x_load(in + 16 * b)));
        x_store(out + 16 * b, _mm_xor_si128(t, K[0]));
    }
    x_store(iv, _mm_xor_si128(t, K[0]));
}

VAES_INLINE void vaes_cfb128_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_cfb_enc_body(ks, out, in, nb, iv, 10); break;
    case 12: vaes_cfb_enc_body(ks, out, in, nb, iv, 12); break;
    default: vaes_cfb_enc_body(ks, out, in, nb, iv, 14); break;
    }
}

/* CFB-8 encryption (the cfb8_encrypt entry): per byte O = E(I),
 * c = p ^ O[0], I' = I[1..15] || c.  The plaintext byte enters through
 * AESENCLAST (key K[R] ^ p in byte 0), so t = O ^ p has c in byte 0, and
 * PALIGNR(t, I, 1) = I[1..15] || t[0] is the next register: the chain per
 * byte is the R rounds, one PALIGNR and the round-0 XOR (as cfb8_enc_r of
 * aes_aesni.c, on this backend's key format).  Each byte is read before it
 * is written (in place works). */
VAES_INLINE void vaes_cfb8_enc_body(const ak_vaes_aes_key *ks, uint8_t *out, const uint8_t *in, size_t len,
                                    uint8_t reg[16], const int R)
{
    __m128i K[15];
    for (int i = 0; i <= R; i++)
        K[i] = x_load(ks->enc[i]);
    __m128i I = x_load(reg);
    for (size_t i = 0; i < len; i++) {
        __m128i s = _mm_xor_si128(I, K[0]);
        _Pragma("GCC unroll 14")
        for (int r = 1; r < R; r++)
            s = _mm_aesenc_si128(s, K[r]);
        __m128i t = _mm_aesenclast_si128(s, _mm_xor_si128(K[R], _mm_cvtsi32_si128(in[i])));
        out[i] = (uint8_t)_mm_cvtsi128_si32(t);
        I = _mm_alignr_epi8(t, I, 1);
    }
    x_store(reg, I);
}

VAES_INLINE void vaes_cfb8_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t reg[16])
{
    const ak_vaes_aes_key *ks = vaes_aes_key(k);
    switch (k->rounds) {
    case 10: vaes_cfb8_enc_body(ks, out, in, len, reg, 10); break;
    case 12: vaes_cfb8_enc_body(ks, out, in, len, reg, 12); break;
    default: vaes_cfb8_enc_body(ks, out, in, len, reg, 14); break;
    }
}
