/*
 * siv.c - AES-SIV (RFC 5297): deterministic authenticated encryption with
 * a vector of associated-data strings, and its nonce-based AEAD form
 * (RFC 5297 6, AEAD_AES_SIV_CMAC_256/384/512).  Portable C11.
 *
 * S2V (RFC 5297 2.4) over strings S_1..S_n (n >= 1, the plaintext last):
 *     D = CMAC(0^128);  D = dbl(D) ^ CMAC(S_i) for i < n;
 *     T = S_n xorend D          if |S_n| >= 16,
 *     T = dbl(D) ^ pad(S_n)     otherwise (10* padding);
 *     V = CMAC(T).
 * The CTR part (RFC 5297 2.5/2.6) starts from Q = V with bits 63 and 31
 * (counted from the right, i.e. the top bits of bytes 8 and 12) cleared and
 * increments all 128 bits big-endian: the backend's ctr128.
 */
#include "omac.h"

/* RFC 5297 2.6: at most 126 associated-data strings besides the plaintext
 * (S2V takes at most 127 strings for a 128-bit block cipher). */
#define SIV_MAX_AD 126

static const uint8_t siv_zero[16];

/* D = dbl(D) ^ CMAC(s). */
static void s2v_absorb(const ak_cmac_key *c, uint8_t D[16], const uint8_t *s, size_t n)
{
    om_cmac m;
    uint8_t mac[16];
    om_start(&m);
    om_update(c, &m, s, n);
    om_final(c, &m, mac);
    ak_mo_dbl(D, D);
    for (int i = 0; i < 16; i++)
        D[i] ^= mac[i];
    mo_wipe(mac, sizeof mac);
}

/* V = S2V(K1, ad[0..count), extra (if given: the AEAD nonce), p). */
static void s2v(const ak_siv_key *k, uint8_t V[16], const uint8_t *const *ad,
                const size_t *ad_lens, size_t count, const uint8_t *extra, size_t extra_len,
                int has_extra, const uint8_t *p, size_t len)
{
    const ak_cmac_key *c = &k->mac;
    uint8_t D[16], T[16];
    memcpy(D, c->reserved, 16); /* CMAC(0^128), computed at init */
    for (size_t i = 0; i < count; i++)
        s2v_absorb(c, D, ad[i], ad_lens[i]);
    if (has_extra)
        s2v_absorb(c, D, extra, extra_len);
    om_cmac m;
    om_start(&m);
    if (len >= 16) {
        om_update(c, &m, p, len - 16);
        ak_xor16(T, p + len - 16, D);
    } else {
        /* T = dbl(D) xor pad(p), pad(p) = p || 0x80 || 0^(15-len). Built in
         * a 16-byte buffer so every index is below 16 in the code too (gcc 12's
         * s390x -Wstringop-overflow could not prove it for T[len]). */
        uint8_t pad[16] = {0};
        if (len)
            memcpy(pad, p, len);
        pad[len & 15] = 0x80;
        ak_mo_dbl(D, D);
        ak_xor16(T, pad, D);
        mo_wipe(pad, sizeof pad);
    }
    om_update(c, &m, T, 16);
    om_final(c, &m, V);
    mo_wipe(D, sizeof D);
    mo_wipe(T, sizeof T);
}

/* CTR_K2 from Q = V with bits 63 and 31 cleared. */
static void siv_ctr(const ak_siv_key *k, const uint8_t V[16], uint8_t *out, const uint8_t *in,
                    size_t len)
{
    uint8_t q[16];
    memcpy(q, V, 16);
    q[8] &= 0x7f;
    q[12] &= 0x7f;
    if (len)
        om_ctr128(&k->ctr, q, out, in, len);
    mo_wipe(q, sizeof q);
}

static aeskit_status siv_checks(const aeskit_siv_key *k, const uint8_t *out, const uint8_t *siv,
                                const uint8_t *in, size_t len, const uint8_t *const *ad,
                                const size_t *ad_lens, size_t count)
{
    if (!k || !siv || ((!out || !in) && len) || (count && (!ad || !ad_lens)))
        return AESKIT_ERR_NULL_POINTER;
    for (size_t i = 0; i < count && i <= SIV_MAX_AD; i++)
        if (!ad[i] && ad_lens[i])
            return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&((const ak_siv_key *)k)->mac.aes, AK_MAGIC_SIV))
        return AESKIT_ERR_STATE;
    if (count > SIV_MAX_AD)
        return AESKIT_ERR_ARGUMENT;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(siv, 16, out, len))
        return AESKIT_ERR_OVERLAP;
    for (size_t i = 0; i < count; i++)
        if (mo_any_overlap(ad[i], ad_lens[i], out, len))
            return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

static void siv_seal_core(const ak_siv_key *k, uint8_t *out, uint8_t siv[16], const uint8_t *in,
                          size_t len, const uint8_t *const *ad, const size_t *ad_lens,
                          size_t count, const uint8_t *nonce, size_t nonce_len, int has_nonce)
{
    uint8_t V[16];
    s2v(k, V, ad, ad_lens, count, nonce, nonce_len, has_nonce, in, len);
    siv_ctr(k, V, out, in, len); /* the plaintext was read by S2V first */
    memcpy(siv, V, 16);
    mo_wipe(V, sizeof V);
}

static aeskit_status siv_open_core(const ak_siv_key *k, uint8_t *out, const uint8_t *in,
                                   size_t len, const uint8_t siv[16], const uint8_t *const *ad,
                                   const size_t *ad_lens, size_t count, const uint8_t *nonce,
                                   size_t nonce_len, int has_nonce)
{
    uint8_t V[16], W[16];
    memcpy(V, siv, 16);
    siv_ctr(k, V, out, in, len);
    s2v(k, W, ad, ad_lens, count, nonce, nonce_len, has_nonce, out, len);
    uint32_t eq = ak_ct_eq_mask(V, W, 16);
    mo_wipe(W, sizeof W);
    if (!eq) {
        if (len && out == in)
            siv_ctr(k, V, out, out, len); /* the ciphertext again */
        else if (len)
            aeskit_memzero(out, len);
        mo_wipe(V, sizeof V);
        return AESKIT_ERR_AUTH;
    }
    mo_wipe(V, sizeof V);
    return AESKIT_OK;
}

aeskit_status aeskit_siv_seal(const aeskit_siv_key *k, uint8_t *out, uint8_t siv[16],
                              const uint8_t *in, size_t len, const uint8_t *const *ad,
                              const size_t *ad_lens, size_t ad_count)
{
    aeskit_status st = siv_checks(k, out, siv, in, len, ad, ad_lens, ad_count);
    if (st != AESKIT_OK)
        return st;
    siv_seal_core((const ak_siv_key *)k, out, siv, in, len, ad, ad_lens, ad_count, NULL, 0, 0);
    return AESKIT_OK;
}

aeskit_status aeskit_siv_open(const aeskit_siv_key *k, uint8_t *out, const uint8_t *in,
                              size_t len, const uint8_t siv[16], const uint8_t *const *ad,
                              const size_t *ad_lens, size_t ad_count)
{
    aeskit_status st = siv_checks(k, out, siv, in, len, ad, ad_lens, ad_count);
    if (st != AESKIT_OK)
        return st;
    return siv_open_core((const ak_siv_key *)k, out, in, len, siv, ad, ad_lens, ad_count, NULL,
                         0, 0);
}

static aeskit_status siv_aead_checks(const aeskit_siv_key *k, const uint8_t *out,
                                     const uint8_t *tag, const uint8_t *in, size_t len,
                                     const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                     size_t aad_len)
{
    if (!k || !tag || ((!out || !in) && len) || (!nonce && nonce_len) || (!aad && aad_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&((const ak_siv_key *)k)->mac.aes, AK_MAGIC_SIV))
        return AESKIT_ERR_STATE;
    if (nonce_len == 0)
        return AESKIT_ERR_NONCE_LENGTH;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, 16, out, len) ||
        mo_any_overlap(nonce, nonce_len, out, len) || mo_any_overlap(aad, aad_len, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_siv_aead_seal(const aeskit_siv_key *k, uint8_t *out, uint8_t tag[16],
                                   const uint8_t *in, size_t len, const uint8_t *nonce,
                                   size_t nonce_len, const uint8_t *aad, size_t aad_len)
{
    aeskit_status st = siv_aead_checks(k, out, tag, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    const uint8_t *ad[1] = {aad};
    size_t ad_len[1] = {aad_len};
    siv_seal_core((const ak_siv_key *)k, out, tag, in, len, ad, ad_len, 1, nonce, nonce_len, 1);
    return AESKIT_OK;
}

aeskit_status aeskit_siv_aead_open(const aeskit_siv_key *k, uint8_t *out, const uint8_t *in,
                                   size_t len, const uint8_t tag[16], const uint8_t *nonce,
                                   size_t nonce_len, const uint8_t *aad, size_t aad_len)
{
    aeskit_status st = siv_aead_checks(k, out, tag, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    const uint8_t *ad[1] = {aad};
    size_t ad_len[1] = {aad_len};
    return siv_open_core((const ak_siv_key *)k, out, in, len, tag, ad, ad_len, 1, nonce,
                         nonce_len, 1);
}

/* ---- keys ----------------------------------------------------------------- */

aeskit_status aeskit_siv_init_backend(aeskit_siv_key *k, const uint8_t *key, size_t key_len,
                                      const char *backend)
{
    const ak_backend *be = NULL;
    int ok = key_len == 32 || key_len == 48 || key_len == 64;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, ok, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_siv_key *s = (ak_siv_key *)k;
    size_t half = key_len / 2;
    s->mac.aes.magic = 0; /* unmarked until both halves are set up */
    ak_mo_aes_setup(&s->ctr, be, key + half, half, AK_MAGIC_SIV);
    ak_mo_cmac_setup(&s->mac, be, key, half, 0);
    /* D_0 = CMAC_K1(0^128) (RFC 5297 2.4), the same for every message. */
    om_cmac m;
    om_start(&m);
    om_update(&s->mac, &m, siv_zero, 16);
    om_final(&s->mac, &m, s->mac.reserved);
    s->mac.aes.magic = AK_MAGIC_SIV;
    return AESKIT_OK;
}

aeskit_status aeskit_siv_init(aeskit_siv_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_siv_init_backend(k, key, key_len, NULL);
}

const char *aeskit_siv_backend(const aeskit_siv_key *k)
{
    const ak_aes *a = k ? &((const ak_siv_key *)k)->mac.aes : NULL;
    return a && ak_mo_ready(a, AK_MAGIC_SIV) ? a->be->name : "";
}

void aeskit_siv_wipe(aeskit_siv_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}
