/*
 * rfc4106.c - AES-GCM in IPsec ESP (RFC 4106) and AES-GMAC in ESP
 * (RFC 4543), on top of the GCM front end.
 * Portable C11; no CPU features needed.
 *
 * RFC 4106 section 4: the 12-byte GCM nonce is the 4-byte salt taken from
 * the end of the keying material followed by the 8-byte explicit IV carried
 * in the packet; the ICV is 8, 12 or 16 bytes.  RFC 4543 section 3.2: GMAC
 * with the same nonce, authenticating SPI || sequence number || IV ||
 * payload as AAD, with a 16-byte ICV.
 */
#include "modes.h"

#define RFC4106_TAG_SET 0x11100u /* 8, 12, 16 */

/* The nonce salt || iv (and four zero bytes) in one 16-byte store
 * (mo_store_block), from which the GCM front end's reads of the 12-byte
 * IV are forwarded. */
static inline void esp_nonce(uint8_t nonce[16], const ak_rfc4106_key *rk, const uint8_t iv[8])
{
    const uint64_t v = ak_load_le64(iv);
    mo_store_block(nonce, mo_le_bytes7(rk->salt, 4) | v << 32, v >> 32);
}

/* The ESP checks; the rest (lengths, the other overlaps) are GCM's own.
 * The explicit IV is copied into the nonce before GCM runs, so its overlap
 * with out is checked here. */
static inline aeskit_status esp_gcm_checks(const ak_rfc4106_key *rk, const uint8_t *iv,
                                           const uint8_t *aad, size_t aad_len,
                                           const uint8_t *in, size_t len, const uint8_t *out,
                                           const uint8_t *tag, size_t tag_len)
{
    if (!rk || !iv || (!aad && aad_len) || ((!in || !out) && len) || (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&rk->gcm.aes, AK_MAGIC_GCM))
        return AESKIT_ERR_STATE;
    if (!MO_TAG_OK(RFC4106_TAG_SET, tag_len))
        return AESKIT_ERR_TAG_LENGTH;
    if (mo_any_overlap(iv, 8, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_rfc4106_seal(const aeskit_rfc4106_key *k, uint8_t *out, uint8_t *tag,
                                  size_t tag_len, const uint8_t *in, size_t len,
                                  const uint8_t iv[8], const uint8_t *aad, size_t aad_len)
{
    const ak_rfc4106_key *rk = (const ak_rfc4106_key *)k;
    aeskit_status st = esp_gcm_checks(rk, iv, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t nonce[16];
    esp_nonce(nonce, rk, iv);
    return ak_mo_gcm_seal(&rk->gcm, out, tag, tag_len, in, len, nonce, 12, aad, aad_len);
}

aeskit_status aeskit_rfc4106_open(const aeskit_rfc4106_key *k, uint8_t *out, const uint8_t *in,
                                  size_t len, const uint8_t *tag, size_t tag_len,
                                  const uint8_t iv[8], const uint8_t *aad, size_t aad_len)
{
    const ak_rfc4106_key *rk = (const ak_rfc4106_key *)k;
    aeskit_status st = esp_gcm_checks(rk, iv, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t nonce[16];
    esp_nonce(nonce, rk, iv);
    return ak_mo_gcm_open(&rk->gcm, out, in, len, tag, tag_len, nonce, 12, aad, aad_len);
}

static aeskit_status esp_gmac_checks(const ak_rfc4106_key *rk, const uint8_t *iv,
                                     const uint8_t *aad, size_t aad_len, const uint8_t *payload,
                                     size_t len, const uint8_t *tag)
{
    if (!rk || !iv || !tag || (!aad && aad_len) || (!payload && len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&rk->gcm.aes, AK_MAGIC_GCM))
        return AESKIT_ERR_STATE;
    /* Everything is AAD here: aad || iv || payload <= 2^61-1 bytes. */
    if ((uint64_t)aad_len > MO_GCM_MAX_AAD - 8 || (uint64_t)len > MO_GCM_MAX_AAD - 8 - aad_len)
        return AESKIT_ERR_AAD_TOO_LONG;
    return AESKIT_OK;
}

/* The full 16-byte GMAC of aad || iv || payload.  Short packets are joined
 * on the stack and go through the one-shot GCM path (the backend's
 * whole-message kernel: about 4x fewer nanoseconds than three streamed AAD
 * pieces for a 40-byte packet); long ones stream, where the copy would cost
 * more than the per-call overhead it saves.  All of it is public data. */
#define RFC4543_JOIN_MAX 1024

static void esp_gmac(const ak_rfc4106_key *rk, const uint8_t iv[8], const uint8_t *aad,
                     size_t aad_len, const uint8_t *payload, size_t len, uint8_t mac[16])
{
    const ak_gcm_key *g = &rk->gcm;
    uint8_t nonce[16];
    esp_nonce(nonce, rk, iv);
    if (aad_len <= RFC4543_JOIN_MAX - 8 && len <= RFC4543_JOIN_MAX - 8 - aad_len) {
        uint8_t joined[RFC4543_JOIN_MAX], none[64] = {0};
        if (aad_len)
            memcpy(joined, aad, aad_len);
        memcpy(joined + aad_len, iv, 8);
        if (len)
            memcpy(joined + aad_len + 8, payload, len);
        /* Cannot fail: every argument was checked by the caller. */
        (void)ak_mo_gcm_seal(g, none + 32, mac, 16, none + 32, 0, nonce, 12, joined,
                             aad_len + 8 + len);
        return;
    }
    ak_mo_gmac3(g, nonce, aad, aad_len, iv, 8, payload, len, mac);
}

aeskit_status aeskit_rfc4543_mac(const aeskit_rfc4106_key *k, uint8_t tag[16],
                                 const uint8_t *payload, size_t len, const uint8_t iv[8],
                                 const uint8_t *aad, size_t aad_len)
{
    const ak_rfc4106_key *rk = (const ak_rfc4106_key *)k;
    aeskit_status st = esp_gmac_checks(rk, iv, aad, aad_len, payload, len, tag);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t mac[16];
    esp_gmac(rk, iv, aad, aad_len, payload, len, mac);
    memcpy(tag, mac, 16);
    mo_wipe(mac, sizeof mac);
    return AESKIT_OK;
}

aeskit_status aeskit_rfc4543_verify(const aeskit_rfc4106_key *k, const uint8_t *payload,
                                    size_t len, const uint8_t tag[16], const uint8_t iv[8],
                                    const uint8_t *aad, size_t aad_len)
{
    const ak_rfc4106_key *rk = (const ak_rfc4106_key *)k;
    aeskit_status st = esp_gmac_checks(rk, iv, aad, aad_len, payload, len, tag);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t mac[16];
    esp_gmac(rk, iv, aad, aad_len, payload, len, mac);
    uint32_t eq = ak_ct_eq_mask(mac, tag, 16);
    mo_wipe(mac, sizeof mac);
    return eq ? AESKIT_OK : AESKIT_ERR_AUTH;
}
