/*
 * vaes_keyexp.h - the x86-vaes key schedule for 128- and 256-bit keys on
 * whole 128-bit round keys (the aes_setkey entry; 192-bit keys, whose round
 * keys straddle the schedule's 6-word steps, take vaes_aes.h's word loop).
 *
 * CPU features: AES-NI and SSSE3 (AK_TGT of the width file, which names
 * both).  Needs vaes_aes.h.
 *
 * FIPS-197 section 5.2 KeyExpansion, four words at a time.  With Nk = 4
 * (AES-128) round key i is w[4i..4i+3], and
 *     w[4i+c] = w[4i+c-4] ^ w[4i+c-5] ... = (w[4i-4] ^ .. ^ w[4i-4+c]) ^ t,
 *     t = SubWord(RotWord(w[4i-1])) ^ Rcon[i],
 * i.e. the previous round key's prefix XOR across its words (two byte
 * shifts and XORs) with t in every word.  With Nk = 8 (AES-256) round key i
 * is the prefix XOR of round key i - 2 with t, where t is
 * SubWord(RotWord(w)) ^ Rcon[i/2] of the last word of round key i - 1 for
 * even i, and SubWord(w) alone for odd i (the Nk > 6 rule).  t in every
 * word comes from one vpshufb (the last word, rotated or not, copied into
 * all four columns) and one AESENCLAST with the round constant as its key:
 * with four equal columns ShiftRows is the identity, so AESENCLAST(x, r) =
 * SubBytes(x) ^ r (the same observation as vaes_subword).  The round
 * constants are indexed by the round number, never by key bytes.
 *
 * This replaces the word loop for the common key sizes because a key is
 * set up once per message in GCM-SIV (RFC 8452 section 4): the word loop's
 * `i % nk` is a division per word, and each word waits for the one before.
 */

/* The previous round key's words prefix-XORed, then t added to each. */
VAES_INLINE __m128i vaes_kx_step(__m128i prev, __m128i t)
{
    prev = _mm_xor_si128(prev, _mm_slli_si128(prev, 4));
    prev = _mm_xor_si128(prev, _mm_slli_si128(prev, 8));
    return _mm_xor_si128(prev, t);
}

/* SubWord(RotWord(last word of w)) ^ rcon (rot) or SubWord(last word) in
 * every column. */
VAES_INLINE __m128i vaes_kx_t(__m128i w, uint32_t rcon, const int rot)
{
    const __m128i m = rot ? _mm_set_epi8(12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13)
                          : _mm_set_epi8(15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12);
    return _mm_aesenclast_si128(_mm_shuffle_epi8(w, m), _mm_set1_epi32((int)rcon));
}

/* The aes_setkey entry: the encryption schedule as above, then the same
 * decryption schedule and broadcast copies as vaes_setkey. */
VAES_INLINE void vaes_setkey_ni(ak_aes *k, const uint8_t *key, size_t key_len)
{
    static const uint32_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    if (key_len == 24) {
        vaes_setkey(k, key, key_len);
        return;
    }
    ak_vaes_aes_key *ks = vaes_aes_key_w(k);
    unsigned rounds = key_len == 16 ? 10 : 14;
    __m128i rk[15];
    rk[0] = x_load(key);
    if (rounds == 10) {
        for (unsigned i = 1; i <= 10; i++)
            rk[i] = vaes_kx_step(rk[i - 1], vaes_kx_t(rk[i - 1], rcon[i - 1], 1));
    } else {
        rk[1] = x_load(key + 16);
        for (unsigned i = 2; i <= 14; i++)
            rk[i] = (i & 1) ? vaes_kx_step(rk[i - 2], vaes_kx_t(rk[i - 1], 0, 0))
                            : vaes_kx_step(rk[i - 2], vaes_kx_t(rk[i - 1], rcon[i / 2 - 1], 1));
    }
    for (unsigned i = 0; i <= rounds; i++) {
        x_store(ks->enc[i], rk[i]);
        v_storeu(ks->enc_v[i], v_bcast_x(rk[i]));
    }
    x_store(ks->dec[0], rk[rounds]);
    for (unsigned i = 1; i < rounds; i++)
        x_store(ks->dec[i], _mm_aesimc_si128(rk[rounds - i]));
    x_store(ks->dec[rounds], rk[0]);
    /* Rows past `rounds` are zero (ak_vaes_aes_key). */
    for (unsigned i = rounds + 1; i < 15; i++) {
        x_store(ks->enc[i], _mm_setzero_si128());
        x_store(ks->dec[i], _mm_setzero_si128());
        v_storeu(ks->enc_v[i], v_zero());
    }
    k->rounds = rounds;
    k->key_len = (uint32_t)key_len;
    /* The schedule was in registers only; rk[] may have been spilled. */
    volatile __m128i *vr = rk;
    for (unsigned i = 0; i < 15; i++)
        vr[i] = _mm_setzero_si128();
}
