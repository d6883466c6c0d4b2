/*
 * xaes.c - XAES-256-GCM (C2SP, c2sp.org/XAES-256-GCM), on top of the GCM
 * front end.
 * Portable C11; no CPU features needed (the backend does AES and GHASH).
 *
 * The specification, for the 32-byte key K and the 24-byte nonce N:
 *   L  = AES-256_K(0^128),  K1 = L << 1 ^ (msb(L) ? 0^120 || 10000111 : 0)
 *        (the CMAC subkey of SP 800-38B),
 *   M1 = 0x00 0x01 'X' 0x00 || N[0..11],  M2 = 0x00 0x02 'X' 0x00 || N[0..11],
 *   Kx = AES-256_K(M1 ^ K1) || AES-256_K(M2 ^ K1)
 *        (SP 800-108r1 counter-mode KDF with CMAC-AES256, one block each),
 *   then AES-256-GCM under Kx with the 12-byte IV N[12..23].
 * K1 is set up once with the key; every message sets up the GCM key Kx
 * (key expansion, H, GHASH tables) on the stack and wipes it afterwards.
 * aeskit_xaes_derive_gcm hands that key to the caller instead, for the
 * many messages of one nonce prefix.
 */
#include "modes.h"

typedef struct ak_xaes_key {
    ak_aes aes; /* the AES-256 key K; magic AK_MAGIC_XAES */
    AK_ALIGN64 uint8_t k1[16];
    uint8_t reserved[48];
} ak_xaes_key;
_Static_assert(sizeof(ak_xaes_key) == sizeof(aeskit_xaes_key), "ak_xaes_key size");

/* Kx of the nonce prefix, set up as a GCM key in g. */
static void xaes_derive(const ak_xaes_key *xk, const uint8_t prefix[12], ak_gcm_key *g)
{
    uint8_t m[32], kx[32];
    m[0] = 0x00; m[1] = 0x01; m[2] = 0x58; m[3] = 0x00;
    memcpy(m + 4, prefix, 12);
    m[16] = 0x00; m[17] = 0x02; m[18] = 0x58; m[19] = 0x00;
    memcpy(m + 20, prefix, 12);
    ak_xor16(m, m, xk->k1);
    ak_xor16(m + 16, m + 16, xk->k1);
    xk->aes.be->ecb_encrypt(&xk->aes, kx, m, 2);
    ak_mo_gcm_setup(g, xk->aes.be, kx, 32);
    mo_wipe(m, sizeof m);
    mo_wipe(kx, sizeof kx);
}

static aeskit_status xaes_checks(const ak_xaes_key *xk, const uint8_t *out, const uint8_t *tag,
                                 size_t tag_len, const uint8_t *in, size_t len,
                                 const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                 size_t aad_len)
{
    if (!xk || (!tag && tag_len) || ((!in || !out) && len) || (!nonce && nonce_len) ||
        (!aad && aad_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&xk->aes, AK_MAGIC_XAES))
        return AESKIT_ERR_STATE;
    if (tag_len != 16)
        return AESKIT_ERR_TAG_LENGTH;
    if ((uint64_t)len > MO_GCM_MAX_MSG)
        return AESKIT_ERR_MESSAGE_TOO_LONG;
    if (nonce_len != 24)
        return AESKIT_ERR_NONCE_LENGTH;
    if ((uint64_t)aad_len > MO_GCM_MAX_AAD)
        return AESKIT_ERR_AAD_TOO_LONG;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, 16, out, len) ||
        mo_any_overlap(nonce, 24, out, len) || mo_any_overlap(aad, aad_len, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_xaes_seal(const aeskit_xaes_key *k, uint8_t *out, uint8_t *tag,
                               size_t tag_len, const uint8_t *in, size_t len,
                               const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                               size_t aad_len)
{
    const ak_xaes_key *xk = (const ak_xaes_key *)k;
    aeskit_status st =
        xaes_checks(xk, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    ak_gcm_key g;
    xaes_derive(xk, nonce, &g);
    st = ak_mo_gcm_seal(&g, out, tag, 16, in, len, nonce + 12, 12, aad, aad_len);
    aeskit_memzero(&g, sizeof g);
    return st;
}

aeskit_status aeskit_xaes_open(const aeskit_xaes_key *k, uint8_t *out, const uint8_t *in,
                               size_t len, const uint8_t *tag, size_t tag_len,
                               const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                               size_t aad_len)
{
    const ak_xaes_key *xk = (const ak_xaes_key *)k;
    aeskit_status st =
        xaes_checks(xk, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    ak_gcm_key g;
    xaes_derive(xk, nonce, &g);
    /* GCM's open zeroes or restores out on AESKIT_ERR_AUTH. */
    st = ak_mo_gcm_open(&g, out, in, len, tag, 16, nonce + 12, 12, aad, aad_len);
    aeskit_memzero(&g, sizeof g);
    return st;
}

aeskit_status aeskit_xaes_derive_gcm(const aeskit_xaes_key *k, aeskit_gcm_key *gcm,
                                     const uint8_t prefix[12])
{
    const ak_xaes_key *xk = (const ak_xaes_key *)k;
    if (!xk || !gcm || !prefix)
        return AESKIT_ERR_NULL_POINTER;
    if ((uintptr_t)gcm % AESKIT_ALIGNMENT)
        return AESKIT_ERR_ALIGNMENT;
    if (!ak_mo_ready(&xk->aes, AK_MAGIC_XAES))
        return AESKIT_ERR_STATE;
    if (mo_any_overlap(prefix, 12, gcm, sizeof *gcm))
        return AESKIT_ERR_OVERLAP;
    xaes_derive(xk, prefix, (ak_gcm_key *)gcm);
    return AESKIT_OK;
}

aeskit_status aeskit_xaes_init_backend(aeskit_xaes_key *k, const uint8_t *key, size_t key_len,
                                       const char *backend)
{
    const ak_backend *be = NULL;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, key_len == 32, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_xaes_key *xk = (ak_xaes_key *)k;
    uint8_t L[16] = {0};
    ak_mo_aes_setup(&xk->aes, be, key, key_len, 0);
    memset(xk->k1, 0, sizeof xk->k1 + sizeof xk->reserved);
    be->ecb_encrypt(&xk->aes, L, L, 1); /* L = AES-256_K(0^128) */
    /* K1 = dbl(L), SP 800-38B 6.1, branch-free */
    uint64_t hi = ak_load_be64(L), lo = ak_load_be64(L + 8);
    uint64_t mask = (uint64_t)0 - (hi >> 63);
    ak_store_be64(xk->k1, (hi << 1) | (lo >> 63));
    ak_store_be64(xk->k1 + 8, (lo << 1) ^ (mask & 0x87));
    mo_wipe(L, sizeof L);
    xk->aes.magic = AK_MAGIC_XAES;
    return AESKIT_OK;
}

aeskit_status aeskit_xaes_init(aeskit_xaes_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_xaes_init_backend(k, key, key_len, NULL);
}

const char *aeskit_xaes_backend(const aeskit_xaes_key *k)
{
    const ak_xaes_key *xk = (const ak_xaes_key *)k;
    return xk && ak_mo_ready(&xk->aes, AK_MAGIC_XAES) ? xk->aes.be->name : "";
}

void aeskit_xaes_wipe(aeskit_xaes_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}
