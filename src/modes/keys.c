/*
 * keys.c - set-up, backend query and wipe of every key object.
 * Portable C11; no CPU features needed (the backend does the AES work).
 *
 * The backend is chosen here, once per key; every later call on the key
 * goes straight to k->be's primitives.  Checks come first (NULL, alignment,
 * key length, backend name) so that a failed init leaves the caller's
 * object untouched.  The set-up mark (ak_aes.magic, internal.h) is written
 * last, so an object is marked only once everything in it is valid.
 */
#include "modes.h"

static int aes_key_len_ok(size_t n) { return n == 16 || n == 24 || n == 32; }

void ak_mo_aes_setup(ak_aes *k, const ak_backend *be, const uint8_t *key, size_t key_len,
                     uint32_t magic)
{
    /* Clear first: re-initialising an AES-256 key object as AES-128 must not
     * leave the old key's later round keys behind. */
    aeskit_memzero(k, sizeof *k);
    k->be = be;
    k->key_len = (uint32_t)key_len;
    k->rounds = (uint32_t)(key_len / 4 + 6);
    be->aes_setkey(k, key, key_len);
    k->magic = magic;
}

/* The name of the backend of a key that carries the set-up mark, else "". */
static const char *backend_name(const ak_aes *k, uint32_t magic)
{
    return k && ak_mo_ready(k, magic) ? k->be->name : "";
}

/* The checks shared by every init: NULL, alignment, key length, backend. */
aeskit_status ak_mo_init_checks(const void *obj, const uint8_t *key, size_t key_len,
                                int key_len_ok, const char *backend, const ak_backend **be)
{
    if (!obj || (!key && key_len))
        return AESKIT_ERR_NULL_POINTER;
    if ((uintptr_t)obj % AESKIT_ALIGNMENT)
        return AESKIT_ERR_ALIGNMENT;
    if (!key_len_ok)
        return AESKIT_ERR_KEY_LENGTH;
    return ak_backend_resolve(backend, be);
}

/* ---- AES ------------------------------------------------------------------ */

aeskit_status aeskit_aes_init_backend(aeskit_aes_key *k, const uint8_t *key, size_t key_len,
                                      const char *backend)
{
    const ak_backend *be = NULL;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, aes_key_len_ok(key_len), backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_mo_aes_setup((ak_aes *)k, be, key, key_len, AK_MAGIC_AES);
    return AESKIT_OK;
}

aeskit_status aeskit_aes_init(aeskit_aes_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_aes_init_backend(k, key, key_len, NULL);
}

const char *aeskit_aes_backend(const aeskit_aes_key *k)
{
    return backend_name((const ak_aes *)k, AK_MAGIC_AES);
}

void aeskit_aes_wipe(aeskit_aes_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}

/* ---- GCM ------------------------------------------------------------------ */

void ak_mo_gcm_setup(ak_gcm_key *g, const ak_backend *be, const uint8_t *key, size_t key_len)
{
    uint8_t H[16] = {0};
    ak_mo_aes_setup(&g->aes, be, key, key_len, 0);
    aeskit_memzero(&g->gh, sizeof g->gh);
    aeskit_memzero(g->H, sizeof g->H + sizeof g->reserved);
    /* SP 800-38D 6.4: the hash subkey H = CIPH_K(0^128). */
    be->ecb_encrypt(&g->aes, H, H, 1);
    be->ghash_init(&g->gh, H);
    memcpy(g->H, H, 16);
    mo_wipe(H, sizeof H);
    g->aes.magic = AK_MAGIC_GCM;
}

aeskit_status aeskit_gcm_init_backend(aeskit_gcm_key *k, const uint8_t *key, size_t key_len,
                                      const char *backend)
{
    const ak_backend *be = NULL;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, aes_key_len_ok(key_len), backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_mo_gcm_setup((ak_gcm_key *)k, be, key, key_len);
    return AESKIT_OK;
}

aeskit_status aeskit_gcm_init(aeskit_gcm_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_gcm_init_backend(k, key, key_len, NULL);
}

const char *aeskit_gcm_backend(const aeskit_gcm_key *k)
{
    return backend_name(k ? &((const ak_gcm_key *)k)->aes : NULL, AK_MAGIC_GCM);
}

void aeskit_gcm_wipe(aeskit_gcm_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}

/* ---- CMAC ----------------------------------------------------------------- */

void ak_mo_cmac_setup(ak_cmac_key *c, const ak_backend *be, const uint8_t *key, size_t key_len,
                      uint32_t magic)
{
    uint8_t L[16] = {0};
    ak_mo_aes_setup(&c->aes, be, key, key_len, 0);
    aeskit_memzero(c->k1, sizeof c->k1 + sizeof c->k2 + sizeof c->reserved);
    be->ecb_encrypt(&c->aes, L, L, 1); /* L = CIPH_K(0^128) */
    ak_mo_dbl(c->k1, L);
    ak_mo_dbl(c->k2, c->k1);
    mo_wipe(L, sizeof L);
    c->aes.magic = magic;
}

aeskit_status aeskit_cmac_init_backend(aeskit_cmac_key *k, const uint8_t *key, size_t key_len,
                                       const char *backend)
{
    const ak_backend *be = NULL;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, aes_key_len_ok(key_len), backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_mo_cmac_setup((ak_cmac_key *)k, be, key, key_len, AK_MAGIC_CMAC);
    return AESKIT_OK;
}

aeskit_status aeskit_cmac_init(aeskit_cmac_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_cmac_init_backend(k, key, key_len, NULL);
}

const char *aeskit_cmac_backend(const aeskit_cmac_key *k)
{
    return backend_name(k ? &((const ak_cmac_key *)k)->aes : NULL, AK_MAGIC_CMAC);
}

void aeskit_cmac_wipe(aeskit_cmac_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}

/* ---- XTS ------------------------------------------------------------------ */

aeskit_status aeskit_xts_init_backend(aeskit_xts_key *k, const uint8_t *key, size_t key_len,
                                      const char *backend)
{
    const ak_backend *be = NULL;
    int ok = key_len == 32 || key_len == 48 || key_len == 64;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, ok, backend, &be);
    if (st != AESKIT_OK)
        return st;
    /* Both halves on the one backend resolved above, so the tweak and the
     * data path can never disagree about the key layout. */
    ak_xts_key *x = (ak_xts_key *)k;
    size_t half = key_len / 2;
    ak_mo_aes_setup(&x->tweak_key, be, key + half, half, AK_MAGIC_XTS);
    ak_mo_aes_setup(&x->data_key, be, key, half, AK_MAGIC_XTS);
    return AESKIT_OK;
}

aeskit_status aeskit_xts_init(aeskit_xts_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_xts_init_backend(k, key, key_len, NULL);
}

const char *aeskit_xts_backend(const aeskit_xts_key *k)
{
    return backend_name(k ? &((const ak_xts_key *)k)->data_key : NULL, AK_MAGIC_XTS);
}

void aeskit_xts_wipe(aeskit_xts_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}

/* ---- RFC 4106 / RFC 4543: AES key || 4-byte salt --------------------------- */

aeskit_status aeskit_rfc4106_init_backend(aeskit_rfc4106_key *k, const uint8_t *key,
                                          size_t key_len, const char *backend)
{
    const ak_backend *be = NULL;
    int ok = key_len == 20 || key_len == 28 || key_len == 36;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, ok, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_rfc4106_key *r = (ak_rfc4106_key *)k;
    memset(r->salt, 0, sizeof r->salt + sizeof r->reserved);
    memcpy(r->salt, key + key_len - 4, 4);
    ak_mo_gcm_setup(&r->gcm, be, key, key_len - 4);
    return AESKIT_OK;
}

aeskit_status aeskit_rfc4106_init(aeskit_rfc4106_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_rfc4106_init_backend(k, key, key_len, NULL);
}

const char *aeskit_rfc4106_backend(const aeskit_rfc4106_key *k)
{
    return backend_name(k ? &((const ak_rfc4106_key *)k)->gcm.aes : NULL, AK_MAGIC_GCM);
}

void aeskit_rfc4106_wipe(aeskit_rfc4106_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}

/* ---- RFC 4309: AES key || 3-byte salt ------------------------------------- */

aeskit_status aeskit_rfc4309_init_backend(aeskit_rfc4309_key *k, const uint8_t *key,
                                          size_t key_len, const char *backend)
{
    const ak_backend *be = NULL;
    int ok = key_len == 19 || key_len == 27 || key_len == 35;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, ok, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_rfc4309_key *r = (ak_rfc4309_key *)k;
    memset(r->salt, 0, sizeof r->salt + sizeof r->reserved);
    memcpy(r->salt, key + key_len - 3, 3);
    ak_mo_aes_setup(&r->aes, be, key, key_len - 3, AK_MAGIC_AES);
    return AESKIT_OK;
}

aeskit_status aeskit_rfc4309_init(aeskit_rfc4309_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_rfc4309_init_backend(k, key, key_len, NULL);
}

const char *aeskit_rfc4309_backend(const aeskit_rfc4309_key *k)
{
    return backend_name(k ? &((const ak_rfc4309_key *)k)->aes : NULL, AK_MAGIC_AES);
}

void aeskit_rfc4309_wipe(aeskit_rfc4309_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}

/* ---- Object sizes ----------------------------------------------------------- */

size_t aeskit_object_size(aeskit_object type)
{
    switch (type) {
    case AESKIT_OBJ_AES_KEY: return sizeof(aeskit_aes_key);
    case AESKIT_OBJ_GCM_KEY: return sizeof(aeskit_gcm_key);
    case AESKIT_OBJ_CMAC_KEY: return sizeof(aeskit_cmac_key);
    case AESKIT_OBJ_XTS_KEY: return sizeof(aeskit_xts_key);
    case AESKIT_OBJ_RFC4106_KEY: return sizeof(aeskit_rfc4106_key);
    case AESKIT_OBJ_RFC4309_KEY: return sizeof(aeskit_rfc4309_key);
    case AESKIT_OBJ_GCM_CTX: return sizeof(aeskit_gcm_ctx);
    case AESKIT_OBJ_CMAC_CTX: return sizeof(aeskit_cmac_ctx);
    case AESKIT_OBJ_CTR_CTX: return sizeof(aeskit_ctr_ctx);
    case AESKIT_OBJ_SIV_KEY: return sizeof(aeskit_siv_key);
    case AESKIT_OBJ_EAX_KEY: return sizeof(aeskit_eax_key);
    case AESKIT_OBJ_CFB_CTX: return sizeof(aeskit_cfb_ctx);
    case AESKIT_OBJ_OFB_CTX: return sizeof(aeskit_ofb_ctx);
    case AESKIT_OBJ_GCMSIV_KEY: return sizeof(aeskit_gcmsiv_key);
    case AESKIT_OBJ_OCB_KEY: return sizeof(aeskit_ocb_key);
    case AESKIT_OBJ_XAES_KEY: return sizeof(aeskit_xaes_key);
    case AESKIT_OBJ_OCB_CTX: return sizeof(aeskit_ocb_ctx);
    case AESKIT_OBJ_BACKEND_INFO: return sizeof(aeskit_backend_info);
    case AESKIT_OBJ_GCM_MSG: return sizeof(aeskit_gcm_msg);
    case AESKIT_OBJ_CCM_MSG: return sizeof(aeskit_ccm_msg);
    case AESKIT_OBJ_CMAC_MSG: return sizeof(aeskit_cmac_msg);
    case AESKIT_OBJ_CBCMAC_MSG: return sizeof(aeskit_cbcmac_msg);
    case AESKIT_OBJ_CBC_MSG: return sizeof(aeskit_cbc_msg);
    case AESKIT_OBJ_CTR_MSG: return sizeof(aeskit_ctr_msg);
    }
    return 0;
}
