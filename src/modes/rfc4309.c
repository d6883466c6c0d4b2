/*
 * rfc4309.c - AES-CCM in IPsec ESP (RFC 4309), on top of the CCM front end.
 * Portable C11; no CPU features needed.
 *
 * RFC 4309 section 4: the 11-byte CCM nonce is the 3-byte salt from the end
 * of the keying material followed by the 8-byte explicit IV, so the length
 * field has L = 4 bytes; the ICV is 8, 12 or 16 bytes.
 */
#include "modes.h"

#define RFC4309_TAG_SET 0x11100u /* 8, 12, 16 */

/* The ESP checks; the rest are CCM's own.  The explicit IV is copied into
 * the nonce before CCM runs, so its overlap with out is checked here. */
static inline aeskit_status esp_ccm_checks(const ak_rfc4309_key *rk, const uint8_t *iv,
                                           const uint8_t *aad, size_t aad_len,
                                           const uint8_t *in, size_t len, const uint8_t *out,
                                           const uint8_t *tag, size_t tag_len)
{
    if (!rk || !iv || (!aad && aad_len) || ((!in || !out) && len) || (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&rk->aes, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (!MO_TAG_OK(RFC4309_TAG_SET, tag_len))
        return AESKIT_ERR_TAG_LENGTH;
    if (mo_any_overlap(iv, 8, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

/* The nonce salt || iv (and five zero bytes) in one 16-byte store
 * (mo_store_block), from which the CCM front end's reads of it are
 * forwarded. */
static inline void esp_ccm_nonce(uint8_t nonce[16], const ak_rfc4309_key *rk, const uint8_t iv[8])
{
    const uint64_t v = ak_load_le64(iv);
    mo_store_block(nonce, mo_le_bytes7(rk->salt, 3) | v << 24, v >> 40);
}

aeskit_status aeskit_rfc4309_seal(const aeskit_rfc4309_key *k, uint8_t *out, uint8_t *tag,
                                  size_t tag_len, const uint8_t *in, size_t len,
                                  const uint8_t iv[8], const uint8_t *aad, size_t aad_len)
{
    const ak_rfc4309_key *rk = (const ak_rfc4309_key *)k;
    aeskit_status st = esp_ccm_checks(rk, iv, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t nonce[16];
    esp_ccm_nonce(nonce, rk, iv);
    return ak_mo_ccm_seal(&rk->aes, out, tag, tag_len, in, len, nonce, 11, aad, aad_len);
}

aeskit_status aeskit_rfc4309_open(const aeskit_rfc4309_key *k, uint8_t *out, const uint8_t *in,
                                  size_t len, const uint8_t *tag, size_t tag_len,
                                  const uint8_t iv[8], const uint8_t *aad, size_t aad_len)
{
    const ak_rfc4309_key *rk = (const ak_rfc4309_key *)k;
    aeskit_status st = esp_ccm_checks(rk, iv, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t nonce[16];
    esp_ccm_nonce(nonce, rk, iv);
    return ak_mo_ccm_open(&rk->aes, out, in, len, tag, tag_len, nonce, 11, aad, aad_len);
}
