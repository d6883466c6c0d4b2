/*
 * kw.c - AES Key Wrap (KW) and Key Wrap with Padding (KWP): SP 800-38F
 * 6.2 and 6.3, RFC 3394 and RFC 5649.  Portable C11; no CPU features
 * needed (one ecb_encrypt / ecb_decrypt of the backend per step).
 *
 * The wrapping function W (SP 800-38F 6.1 algorithm 1, in RFC 3394 2.2.1's
 * indexed form): with A the 64-bit integrity register and R_1..R_n the
 * plaintext semiblocks, for j = 0..5 and i = 1..n:
 *     B = CIPH_K(A || R_i);  A = MSB64(B) ^ [n*j + i]_64;  R_i = LSB64(B).
 * W^-1 runs the 6n steps backwards with CIPH^-1.  The step counter t and
 * every index are public (they depend on the length only); A and R are
 * secret and only ever go through the cipher and XORs.
 */
#include "modes.h"

static const uint8_t kw_iv[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};
static const uint8_t kwp_icv2[4] = {0xa6, 0x59, 0x59, 0xa6}; /* RFC 5649 3 */

/* W: A (8 bytes) and R (n semiblocks) updated in place; n >= 2. */
static void kw_wrap_steps(const ak_aes *a, uint8_t A[8], uint8_t *R, size_t n)
{
    uint8_t b[16];
    memcpy(b, A, 8);
    for (uint64_t j = 0; j < 6; j++) {
        for (size_t i = 1; i <= n; i++) {
            memcpy(b + 8, R + 8 * (i - 1), 8);
            a->be->ecb_encrypt(a, b, b, 1);
            uint64_t t = (uint64_t)n * j + i;
            ak_store_be64(b, ak_load_be64(b) ^ t);
            memcpy(R + 8 * (i - 1), b + 8, 8);
        }
    }
    memcpy(A, b, 8);
    mo_wipe(b, sizeof b);
}

/* W^-1: A (the first ciphertext semiblock in, the recovered IV out) and R
 * (n semiblocks, ciphertext in, plaintext out); n >= 2. */
static void kw_unwrap_steps(const ak_aes *a, uint8_t A[8], uint8_t *R, size_t n)
{
    uint8_t b[16];
    memcpy(b, A, 8);
    for (uint64_t j = 6; j-- > 0;) {
        for (size_t i = n; i >= 1; i--) {
            uint64_t t = (uint64_t)n * j + i;
            ak_store_be64(b, ak_load_be64(b) ^ t);
            memcpy(b + 8, R + 8 * (i - 1), 8);
            a->be->ecb_decrypt(a, b, b, 1);
            memcpy(R + 8 * (i - 1), b + 8, 8);
        }
    }
    memcpy(A, b, 8);
    mo_wipe(b, sizeof b);
}

/* The checks of every entry point: NULL, key state, then the caller's
 * length rule (len_ok) and capacity, then overlap. */
static aeskit_status kw_checks(const aeskit_aes_key *k, const uint8_t *out, size_t out_cap,
                               const size_t *out_len, const uint8_t *in, size_t len,
                               int len_ok, size_t need)
{
    if (!k || !out_len || (!in && len) || (!out && out_cap))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready((const ak_aes *)k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (!len_ok)
        return AESKIT_ERR_LENGTH;
    if (out_cap < need)
        return AESKIT_ERR_BUFFER_TOO_SMALL;
    if (mo_bad_overlap(out, need, in, len) ||
        mo_any_overlap(out_len, sizeof *out_len, out, need))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

/* At most 2^54 - 1 semiblocks (SP 800-38F 5.3.1), and len + 8 must fit. */
static int kw_len_fits(size_t len)
{
    return len <= SIZE_MAX - 16 && (uint64_t)len / 8 < ((uint64_t)1 << 54);
}

aeskit_status aeskit_kw_wrap(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                             size_t *out_len, const uint8_t *in, size_t len)
{
    int ok = len % 8 == 0 && len >= 16 && kw_len_fits(len);
    aeskit_status st = kw_checks(k, out, out_cap, out_len, in, len, ok, ok ? len + 8 : 0);
    if (st != AESKIT_OK)
        return st;
    const ak_aes *a = (const ak_aes *)k;
    uint8_t A[8];
    memcpy(A, kw_iv, 8);
    memmove(out + 8, in, len); /* in place: the buffer holds len + 8 bytes */
    kw_wrap_steps(a, A, out + 8, len / 8);
    memcpy(out, A, 8);
    *out_len = len + 8;
    return AESKIT_OK;
}

aeskit_status aeskit_kw_unwrap(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                               size_t *out_len, const uint8_t *in, size_t len)
{
    int ok = len % 8 == 0 && len >= 24 && kw_len_fits(len);
    aeskit_status st = kw_checks(k, out, out_cap, out_len, in, len, ok, ok ? len - 8 : 0);
    if (st != AESKIT_OK)
        return st;
    const ak_aes *a = (const ak_aes *)k;
    uint8_t A[8];
    memcpy(A, in, 8); /* before an in-place memmove overwrites it */
    memmove(out, in + 8, len - 8);
    kw_unwrap_steps(a, A, out, len / 8 - 1);
    /* SP 800-38F 6.2 KW-AD step 3: compare with ICV1 in constant time. */
    uint32_t good = ak_ct_eq_mask(A, kw_iv, 8);
    mo_wipe(A, sizeof A);
    if (!good) {
        aeskit_memzero(out, len - 8);
        *out_len = 0;
        return AESKIT_ERR_AUTH;
    }
    *out_len = len - 8;
    return AESKIT_OK;
}

aeskit_status aeskit_kwp_wrap(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                              size_t *out_len, const uint8_t *in, size_t len)
{
    /* SP 800-38F 6.3: 1 <= len <= 2^32 - 1 bytes (the 32-bit MLI). */
    int ok = len >= 1 && (uint64_t)len <= 0xffffffffu && len <= SIZE_MAX - 24;
    size_t padded = ok ? (len + 7) & ~(size_t)7 : 0;
    aeskit_status st = kw_checks(k, out, out_cap, out_len, in, len, ok, padded + 8);
    if (st != AESKIT_OK)
        return st;
    const ak_aes *a = (const ak_aes *)k;
    uint8_t A[8];
    memcpy(A, kwp_icv2, 4);
    ak_store_be32(A + 4, (uint32_t)len);
    if (padded == 8) {
        /* RFC 5649 4.1: one semiblock is encrypted as A || P in one block. */
        uint8_t b[16] = {0};
        memcpy(b, A, 8);
        memcpy(b + 8, in, len);
        a->be->ecb_encrypt(a, out, b, 1);
        mo_wipe(b, sizeof b);
    } else {
        memmove(out + 8, in, len);
        memset(out + 8 + len, 0, padded - len);
        kw_wrap_steps(a, A, out + 8, padded / 8);
        memcpy(out, A, 8);
    }
    *out_len = padded + 8;
    return AESKIT_OK;
}

aeskit_status aeskit_kwp_unwrap(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                                size_t *out_len, const uint8_t *in, size_t len)
{
    int ok = len % 8 == 0 && len >= 16 && kw_len_fits(len);
    aeskit_status st = kw_checks(k, out, out_cap, out_len, in, len, ok, ok ? len - 8 : 0);
    if (st != AESKIT_OK)
        return st;
    const ak_aes *a = (const ak_aes *)k;
    size_t n = len / 8 - 1; /* plaintext semiblocks */
    uint8_t A[8];
    if (n == 1) {
        uint8_t b[16];
        a->be->ecb_decrypt(a, b, in, 1);
        memcpy(A, b, 8);
        memcpy(out, b + 8, 8);
        mo_wipe(b, sizeof b);
    } else {
        memcpy(A, in, 8);
        memmove(out, in + 8, len - 8);
        kw_unwrap_steps(a, A, out, n);
    }
    /* SP 800-38F 6.3 KWP-AD steps 4-6, without a branch or an index on
     * secret data: the ICV2 prefix, 8(n-1) < MLI <= 8n, and every byte of
     * the last semiblock at or past MLI zero. */
    uint64_t mli = ak_load_be32(A + 4);
    uint64_t lo = 8 * (uint64_t)(n - 1), hi = 8 * (uint64_t)n;
    uint64_t bad = (uint64_t)(ak_ct_eq_mask(A, kwp_icv2, 4) == 0);
    bad |= ((mli - lo - 1) >> 63);   /* mli <= lo */
    bad |= ((hi - mli) >> 63);       /* mli > hi */
    uint64_t r = mli - lo;           /* 1..8 when in range: bytes of P in the last semiblock */
    const uint8_t *last = out + 8 * (n - 1);
    for (uint64_t j = 0; j < 8; j++) {
        uint64_t in_pad = (uint64_t)0 - ((r - 1 - j) >> 63); /* j >= r */
        bad |= in_pad & last[j];
    }
    uint64_t good = ((bad | (0 - bad)) >> 63) ^ 1u;
    mo_wipe(A, sizeof A);
    /* Valid or not, and the plaintext length, are what the caller gets
     * back: public from here on. */
    AK_DECLASSIFY(&good, sizeof good);
    AK_DECLASSIFY(&mli, sizeof mli);
    if (!good) {
        aeskit_memzero(out, len - 8);
        *out_len = 0;
        return AESKIT_ERR_AUTH;
    }
    *out_len = (size_t)mli;
    return AESKIT_OK;
}
