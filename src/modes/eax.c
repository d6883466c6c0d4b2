/*
 * eax.c - EAX (M. Bellare, P. Rogaway, D. Wagner, "The EAX Mode of
 * Operation", FSE 2004).  Portable C11.
 *
 * With OMAC^t(X) = CMAC_K([t]_16 || X) (t = 0, 1, 2 as a 16-byte
 * big-endian block):
 *     N' = OMAC^0(N),  H' = OMAC^1(H),  C = CTR_K(N', M),  C' = OMAC^2(C),
 *     Tag = first tag_len bytes of N' ^ C' ^ H'.
 * The counter starts at N' and increments all 128 bits big-endian (the
 * backend's ctr128).  [t]_16 is never the last block of a non-empty X, so
 * OMAC^t continues from L_t = CBC-MAC state E_K([t]_16), kept in the key;
 * for an empty X the tweak block is the last block: CMAC([t]_16) =
 * E_K([t]_16 ^ K1).  Sealing runs CTR and OMAC^2 together over 4 KiB
 * chunks (the ciphertext is hashed while it is in cache); opening checks
 * the tag over the ciphertext before it decrypts anything.
 */
#include "omac.h"

#define EAX_CHUNK 4096 /* bytes; a multiple of 16 */

static void eax_omac_start(const ak_eax_key *e, om_cmac *m, unsigned t)
{
    om_start_state(m, e->lt[t]);
}

/* The MAC of OMAC^t over what m absorbed; nonempty says whether anything
 * followed the tweak block. */
static void eax_omac_final(const ak_eax_key *e, om_cmac *m, unsigned t, int nonempty,
                           uint8_t mac[16])
{
    if (nonempty) {
        om_final(&e->mac, m, mac);
        return;
    }
    uint8_t b[16] = {0};
    b[15] = (uint8_t)t;
    for (int i = 0; i < 16; i++)
        b[i] ^= e->mac.k1[i];
    e->mac.aes.be->ecb_encrypt(&e->mac.aes, mac, b, 1);
    mo_wipe(b, sizeof b);
    mo_wipe(m, sizeof *m);
}

static void eax_omac(const ak_eax_key *e, unsigned t, const uint8_t *x, size_t len,
                     uint8_t mac[16])
{
    om_cmac m;
    eax_omac_start(e, &m, t);
    om_update(&e->mac, &m, x, len);
    eax_omac_final(e, &m, t, len != 0, mac);
}

static aeskit_status eax_checks(const aeskit_eax_key *k, const uint8_t *out, const uint8_t *tag,
                                size_t tag_len, const uint8_t *in, size_t len,
                                const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                size_t aad_len)
{
    if (!k || !tag || ((!out || !in) && len) || (!nonce && nonce_len) || (!aad && aad_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&((const ak_eax_key *)k)->mac.aes, AK_MAGIC_EAX))
        return AESKIT_ERR_STATE;
    if (tag_len < 1 || tag_len > 16)
        return AESKIT_ERR_TAG_LENGTH;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, tag_len, out, len) ||
        mo_any_overlap(nonce, nonce_len, out, len) || mo_any_overlap(aad, aad_len, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

/* N' ^ H' into nh. */
static void eax_nh(const ak_eax_key *e, uint8_t nonce_mac[16], uint8_t nh[16],
                   const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len)
{
    uint8_t h[16];
    eax_omac(e, 0, nonce, nonce_len, nonce_mac);
    eax_omac(e, 1, aad, aad_len, h);
    ak_xor16(nh, nonce_mac, h);
    mo_wipe(h, sizeof h);
}

aeskit_status aeskit_eax_seal(const aeskit_eax_key *k, uint8_t *out, uint8_t *tag,
                              size_t tag_len, const uint8_t *in, size_t len,
                              const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                              size_t aad_len)
{
    aeskit_status st = eax_checks(k, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    const ak_eax_key *e = (const ak_eax_key *)k;
    uint8_t ctr[16], nh[16], c2[16];
    eax_nh(e, ctr, nh, nonce, nonce_len, aad, aad_len);
    om_cmac m;
    eax_omac_start(e, &m, 2);
    for (size_t off = 0; off < len; off += EAX_CHUNK) {
        size_t n = len - off < EAX_CHUNK ? len - off : EAX_CHUNK;
        om_ctr128(&e->mac.aes, ctr, out + off, in + off, n);
        om_update(&e->mac, &m, out + off, n);
    }
    eax_omac_final(e, &m, 2, len != 0, c2);
    for (int i = 0; i < 16; i++)
        c2[i] ^= nh[i];
    memcpy(tag, c2, tag_len);
    mo_wipe(ctr, sizeof ctr);
    mo_wipe(nh, sizeof nh);
    mo_wipe(c2, sizeof c2);
    return AESKIT_OK;
}

aeskit_status aeskit_eax_open(const aeskit_eax_key *k, uint8_t *out, const uint8_t *in,
                              size_t len, const uint8_t *tag, size_t tag_len,
                              const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                              size_t aad_len)
{
    aeskit_status st = eax_checks(k, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    const ak_eax_key *e = (const ak_eax_key *)k;
    uint8_t ctr[16], nh[16], c2[16];
    eax_nh(e, ctr, nh, nonce, nonce_len, aad, aad_len);
    eax_omac(e, 2, in, len, c2);
    for (int i = 0; i < 16; i++)
        c2[i] ^= nh[i];
    uint32_t eq = ak_ct_eq_mask(c2, tag, tag_len);
    mo_wipe(nh, sizeof nh);
    mo_wipe(c2, sizeof c2);
    if (!eq) {
        if (len && out != in)
            aeskit_memzero(out, len);
        mo_wipe(ctr, sizeof ctr);
        return AESKIT_ERR_AUTH;
    }
    if (len)
        om_ctr128(&e->mac.aes, ctr, out, in, len);
    mo_wipe(ctr, sizeof ctr);
    return AESKIT_OK;
}

/* ---- keys ----------------------------------------------------------------- */

aeskit_status aeskit_eax_init_backend(aeskit_eax_key *k, const uint8_t *key, size_t key_len,
                                      const char *backend)
{
    const ak_backend *be = NULL;
    int ok = key_len == 16 || key_len == 24 || key_len == 32;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, ok, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_eax_key *e = (ak_eax_key *)k;
    ak_mo_cmac_setup(&e->mac, be, key, key_len, 0);
    aeskit_memzero(e->lt, sizeof e->lt + sizeof e->reserved);
    for (unsigned t = 0; t < 3; t++) {
        e->lt[t][15] = (uint8_t)t;
        be->ecb_encrypt(&e->mac.aes, e->lt[t], e->lt[t], 1); /* L_t = E_K([t]_16) */
    }
    e->mac.aes.magic = AK_MAGIC_EAX;
    return AESKIT_OK;
}

aeskit_status aeskit_eax_init(aeskit_eax_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_eax_init_backend(k, key, key_len, NULL);
}

const char *aeskit_eax_backend(const aeskit_eax_key *k)
{
    const ak_aes *a = k ? &((const ak_eax_key *)k)->mac.aes : NULL;
    return a && ak_mo_ready(a, AK_MAGIC_EAX) ? a->be->name : "";
}

void aeskit_eax_wipe(aeskit_eax_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}
