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

static inline aeskit_status esp_ccm_checks(const aeskit_rfc4309_key *rk, const uint8_t *iv,
                                           const uint8_t *aad, size_t aad_len,
                                           const uint8_t *in, size_t len, const uint8_t *out,
                                           const uint8_t *tag, size_t tag_len)
{
    if (!rk || !iv || (!aad && aad_len) || ((!in || !out) && len) || (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!((const ak_aes *)&rk->aes)->be)
        return AESKIT_ERR_STATE;
    if (!MO_TAG_OK(RFC4309_TAG_SET, tag_len))
        return AESKIT_ERR_TAG_LENGTH;
    return AESKIT_OK;
}

aeskit_status aeskit_rfc4309_seal(const aeskit_rfc4309_key *rk, const uint8_t iv[8],
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    aeskit_status st = esp_ccm_checks(rk, iv, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t nonce[11];
    memcpy(nonce, rk->salt, 3);
    memcpy(nonce + 3, iv, 8);
    return mo_ccm_seal((const ak_aes *)&rk->aes, nonce, 11, aad, aad_len, in, len, out, tag,
                       tag_len);
}

aeskit_status aeskit_rfc4309_open(const aeskit_rfc4309_key *rk, const uint8_t iv[8],
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                  size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    aeskit_status st = esp_ccm_checks(rk, iv, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    uint8_t nonce[11];
    memcpy(nonce, rk->salt, 3);
    memcpy(nonce + 3, iv, 8);
    return mo_ccm_open((const ak_aes *)&rk->aes, nonce, 11, aad, aad_len, in, len, tag, tag_len,
                       out);
}
