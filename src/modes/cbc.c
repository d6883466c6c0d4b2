/*
 * cbc.c - CBC (SP 800-38A 6.2): raw whole blocks with a caller-held
 * chaining value, and one-shot PKCS#7 padding (RFC 5652 6.3).
 * Portable C11; no CPU features needed.
 */
#include "batch.h"

aeskit_status aeskit_cbc_encrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                 size_t len, uint8_t iv[16])
{
    aeskit_status st = mo_cbc_checks(k, out, in, len, iv);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_aes *a = (const ak_aes *)k;
    if (len) /* iv lies in neither in nor out (cbc_checks): the kernel updates it in place */
        a->be->cbc_encrypt(a, out, in, len / 16, iv);
    return AESKIT_OK;
}

aeskit_status aeskit_cbc_decrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                 size_t len, uint8_t iv[16])
{
    aeskit_status st = mo_cbc_checks(k, out, in, len, iv);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_aes *a = (const ak_aes *)k;
    if (len) /* iv lies in neither in nor out (cbc_checks): the kernel updates it in place */
        a->be->cbc_decrypt(a, out, in, len / 16, iv);
    return AESKIT_OK;
}

aeskit_status aeskit_cbc_pkcs7_encrypt(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                                       size_t *out_len, const uint8_t *in, size_t len,
                                       const uint8_t iv[16])
{
    if (!k || !iv || !out_len || (!in && len) || (!out && out_cap))
        return AESKIT_ERR_NULL_POINTER;
    const ak_aes *a = (const ak_aes *)k;
    if (!ak_mo_ready(a, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    /* Always 1..16 bytes of padding: len rounded down to blocks, plus one. */
    if (len > SIZE_MAX - 16 || out_cap < (len & ~(size_t)15) + 16)
        return AESKIT_ERR_BUFFER_TOO_SMALL;
    size_t need = (len & ~(size_t)15) + 16, full = len / 16, rem = len % 16;
    if (mo_bad_overlap(out, need, in, len) || mo_any_overlap(iv, 16, out, need) ||
        mo_any_overlap(out_len, sizeof *out_len, out, need))
        return AESKIT_ERR_OVERLAP;

    uint8_t chain[16], last[16];
    memcpy(chain, iv, 16);
    /* The tail is read before the whole blocks are written (in-place). */
    if (rem)
        memcpy(last, in + full * 16, rem);
    memset(last + rem, (int)(16 - rem), 16 - rem);
    if (full)
        a->be->cbc_encrypt(a, out, in, full, chain);
    a->be->cbc_encrypt(a, out + full * 16, last, 1, chain);
    mo_wipe(last, sizeof last);
    *out_len = need;
    return AESKIT_OK;
}

/* 0xffffffff if x < y, else 0; x, y < 2^31.  No branch. */
static inline uint32_t ct_lt_mask(uint32_t x, uint32_t y)
{
    return (uint32_t)0 - ((x - y) >> 31);
}

aeskit_status aeskit_cbc_pkcs7_decrypt(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                                       size_t *out_len, const uint8_t *in, size_t len,
                                       const uint8_t iv[16])
{
    if (!k || !iv || !out_len || (!in && len) || (!out && out_cap))
        return AESKIT_ERR_NULL_POINTER;
    const ak_aes *a = (const ak_aes *)k;
    if (!ak_mo_ready(a, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (len == 0 || len % 16)
        return AESKIT_ERR_LENGTH;
    /* The whole padded plaintext is written to out and the padding checked
     * there: writing only the unpadded part would need a store whose length
     * depends on the secret pad byte. */
    if (out_cap < len)
        return AESKIT_ERR_BUFFER_TOO_SMALL;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(iv, 16, out, len) ||
        mo_any_overlap(out_len, sizeof *out_len, out, len))
        return AESKIT_ERR_OVERLAP;

    uint8_t chain[16];
    memcpy(chain, iv, 16);
    a->be->cbc_decrypt(a, out, in, len / 16, chain);
    mo_wipe(chain, sizeof chain);

    /* Constant-time PKCS#7 check: every byte of the last block is examined;
     * byte j from the end belongs to the padding iff j < p.  No branch and
     * no index depends on p; the pad bytes are then cleared with the same
     * masks so only plaintext is left in out. */
    uint8_t *blk = out + len - 16;
    uint32_t p = blk[15], bad = 0;
    bad |= ct_lt_mask(p, 1) & 1u;   /* p == 0 */
    bad |= ct_lt_mask(16, p) & 1u;  /* p > 16 */
    for (uint32_t j = 0; j < 16; j++) {
        uint32_t in_pad = ct_lt_mask(j, p);
        bad |= in_pad & (uint32_t)(blk[15 - j] ^ p);
    }
    uint32_t good = ((bad - 1) >> 31) & 1u; /* bad <= 0xff */
    for (uint32_t j = 0; j < 16; j++)
        blk[15 - j] &= (uint8_t)~ct_lt_mask(j, p);
    /* Valid or not, and the plaintext length, are what the caller gets
     * back: public from here on (for the valgrind constant-time build). */
    AK_DECLASSIFY(&good, sizeof good);
    AK_DECLASSIFY(&p, sizeof p);
    if (!good) {
        /* The status itself reveals validity; what must not leak is why. */
        aeskit_memzero(out, len);
        *out_len = 0;
        return AESKIT_ERR_PADDING;
    }
    *out_len = len - p;
    return AESKIT_OK;
}
