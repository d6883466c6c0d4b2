/*
 * macs.c - CMAC (with cipher AES-{128,192,256}-CBC) and GMAC (with cipher
 * AES-{128,192,256}-GCM) as OpenSSL 3 EVP_MACs, with the default provider's
 * names and parameters ("cipher", "key", "iv", "size").
 */
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/params.h>

#include "akp.h"

typedef struct akp_mac {
    const AKP_PROV *prov;
    int gmac;
    size_t keylen;              /* from the cipher parameter; 0 = none yet */
    AKP_KEY *key;
    int key_set;
    int started;
    pg_cmac_ctx cm;
    pg_gcm_ctx gm;
    unsigned char iv[128];
    size_t ivlen;
} AKP_MAC;

static void *mac_new(void *provctx, int gmac)
{
    AKP_MAC *m = akp_zalloc(sizeof(*m));
    if (m == NULL)
        return NULL;
    m->prov = provctx;
    m->gmac = gmac;
    return m;
}
static void *cmac_new(void *provctx) { return mac_new(provctx, 0); }
static void *gmac_new(void *provctx) { return mac_new(provctx, 1); }

static void mac_free(void *vctx)
{
    AKP_MAC *m = vctx;
    if (m == NULL)
        return;
    akp_key_unref(m->key);
    akp_free(m, sizeof(*m));
}

static void *mac_dup(void *vctx)
{
    AKP_MAC *in = vctx, *m = akp_zalloc(sizeof(*m));
    if (m == NULL)
        return NULL;
    memcpy(m, in, sizeof(*m));
    akp_key_ref(m->key);
    return m;
}

static int set_cipher(AKP_MAC *m, const char *name)
{
    static const struct { const char *name; size_t keylen; int gmac; } t[] = {
        { "AES-128-CBC", 16, 0 }, { "AES-192-CBC", 24, 0 }, { "AES-256-CBC", 32, 0 },
        { "AES128", 16, 0 }, { "AES192", 24, 0 }, { "AES256", 32, 0 },
        { "AES-128-GCM", 16, 1 }, { "AES-192-GCM", 24, 1 }, { "AES-256-GCM", 32, 1 },
        { "id-aes128-GCM", 16, 1 }, { "id-aes192-GCM", 24, 1 }, { "id-aes256-GCM", 32, 1 },
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        if (t[i].gmac == m->gmac && strcasecmp(name, t[i].name) == 0) {
            if (m->keylen != t[i].keylen)
                m->key_set = 0;
            m->keylen = t[i].keylen;
            return 1;
        }
    }
    AKP_ERR(m->prov, AKP_R_NOT_SUPPORTED, "%s with cipher %s", m->gmac ? "GMAC" : "CMAC", name);
    return 0;
}

static int mac_set_key(AKP_MAC *m, const unsigned char *key, size_t keylen)
{
    AKP_KEY *k;
    int st;
    if (m->keylen == 0) {
        AKP_ERR(m->prov, AKP_R_BAD_STATE, "no cipher set");
        return 0;
    }
    if (keylen != m->keylen) {
        AKP_ERR(m->prov, AKP_R_INVALID_KEY_LENGTH, "key of %zu bytes, cipher takes %zu", keylen,
                m->keylen);
        return 0;
    }
    if (m->key_set && m->key != NULL && m->key->raw_len == keylen
        && pg_ct_memcmp(m->key->raw, key, keylen) == 0) {
        m->started = 0;
        return 1;
    }
    k = akp_key_writable(&m->key);
    if (k == NULL) {
        AKP_ERR(m->prov, AKP_R_MALLOC_FAILURE, "key object");
        return 0;
    }
    k->raw_len = 0;
    st = m->gmac ? pg_gcm_init(&k->u.gcm, key, keylen) : pg_cmac_init(&k->u.cmac, key, keylen);
    if (st != 0) {
        m->key_set = 0;
        AKP_ERR_AK(m->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    memcpy(k->raw, key, keylen);
    k->raw_len = keylen;
    m->key_set = 1;
    m->started = 0;
    return 1;
}

static int mac_start(AKP_MAC *m)
{
    int st;
    if (m->started)
        return 1;
    if (!m->key_set) {
        AKP_ERR(m->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    if (m->gmac) {
        if (m->ivlen == 0) {
            AKP_ERR(m->prov, AKP_R_NO_IV_SET, "GMAC needs an iv");
            return 0;
        }
        st = pg_gcm_start(&m->gm, &m->key->u.gcm, 1, m->iv, m->ivlen);
    } else {
        st = pg_cmac_start(&m->cm, &m->key->u.cmac);
    }
    if (st != 0) {
        AKP_ERR_AK(m->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    m->started = 1;
    return 1;
}

static int mac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    AKP_MAC *m = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_CIPHER)) != NULL) {
        if (p->data_type != OSSL_PARAM_UTF8_STRING || !set_cipher(m, p->data)) {
            if (p->data_type != OSSL_PARAM_UTF8_STRING)
                AKP_ERR(m->prov, AKP_R_INVALID_PARAMETER, "cipher");
            return 0;
        }
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || !mac_set_key(m, p->data, p->data_size)) {
            if (p->data_type != OSSL_PARAM_OCTET_STRING)
                AKP_ERR(m->prov, AKP_R_INVALID_PARAMETER, "key");
            return 0;
        }
    }
    if (m->gmac && (p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_IV)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0
            || p->data_size > sizeof(m->iv)) {
            AKP_ERR(m->prov, AKP_R_INVALID_IV_LENGTH, "GMAC iv of 1..128 bytes");
            return 0;
        }
        memcpy(m->iv, p->data, p->data_size);
        m->ivlen = p->data_size;
        m->started = 0;
    }
    return 1;
}

static int mac_init(void *vctx, const unsigned char *key, size_t keylen,
                    const OSSL_PARAM params[])
{
    AKP_MAC *m = vctx;
    if (!mac_set_ctx_params(m, params))
        return 0;
    if (key != NULL && !mac_set_key(m, key, keylen))
        return 0;
    m->started = 0;
    if (!m->key_set) {
        AKP_ERR(m->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    return 1;
}

static int mac_update(void *vctx, const unsigned char *data, size_t len)
{
    AKP_MAC *m = vctx;
    int st;
    if (!mac_start(m))
        return 0;
    if (len == 0)
        return 1;
    st = m->gmac ? pg_gcm_update_aad(&m->gm, data, len) : pg_cmac_update(&m->cm, data, len);
    if (st != 0) {
        AKP_ERR_AK(m->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    return 1;
}

static int mac_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_MAC *m = vctx;
    int st;
    if (!mac_start(m))
        return 0;
    if (outsize < 16) {
        AKP_ERR(m->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "MAC needs 16 bytes");
        return 0;
    }
    st = m->gmac ? pg_gmac_finish(&m->gm, out, 16) : pg_cmac_finish(&m->cm, out, 16);
    m->started = 0;
    if (st != 0) {
        AKP_ERR_AK(m->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    *outl = 16;
    return 1;
}

static const OSSL_PARAM mac_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_END
};
static const OSSL_PARAM cmac_settable_ctx[] = {
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM gmac_settable_ctx[] = {
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_IV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *mac_gettable_ctx_params(void *ctx, void *provctx)
{
    (void)ctx;
    (void)provctx;
    return mac_gettable_ctx;
}
static const OSSL_PARAM *cmac_settable_ctx_params(void *ctx, void *provctx)
{
    (void)ctx;
    (void)provctx;
    return cmac_settable_ctx;
}
static const OSSL_PARAM *gmac_settable_ctx_params(void *ctx, void *provctx)
{
    (void)ctx;
    (void)provctx;
    return gmac_settable_ctx;
}

static int mac_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    (void)vctx;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, 16))
        return 0;
    return 1;
}

#define FN(id, f) { id, (void (*)(void))(f) }
static const OSSL_DISPATCH cmac_functions[] = {
    FN(OSSL_FUNC_MAC_NEWCTX, cmac_new),
    FN(OSSL_FUNC_MAC_DUPCTX, mac_dup),
    FN(OSSL_FUNC_MAC_FREECTX, mac_free),
    FN(OSSL_FUNC_MAC_INIT, mac_init),
    FN(OSSL_FUNC_MAC_UPDATE, mac_update),
    FN(OSSL_FUNC_MAC_FINAL, mac_final),
    FN(OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params),
    FN(OSSL_FUNC_MAC_GET_CTX_PARAMS, mac_get_ctx_params),
    FN(OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, cmac_settable_ctx_params),
    FN(OSSL_FUNC_MAC_SET_CTX_PARAMS, mac_set_ctx_params),
    { 0, NULL }
};
static const OSSL_DISPATCH gmac_functions[] = {
    FN(OSSL_FUNC_MAC_NEWCTX, gmac_new),
    FN(OSSL_FUNC_MAC_DUPCTX, mac_dup),
    FN(OSSL_FUNC_MAC_FREECTX, mac_free),
    FN(OSSL_FUNC_MAC_INIT, mac_init),
    FN(OSSL_FUNC_MAC_UPDATE, mac_update),
    FN(OSSL_FUNC_MAC_FINAL, mac_final),
    FN(OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, mac_gettable_ctx_params),
    FN(OSSL_FUNC_MAC_GET_CTX_PARAMS, mac_get_ctx_params),
    FN(OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, gmac_settable_ctx_params),
    FN(OSSL_FUNC_MAC_SET_CTX_PARAMS, mac_set_ctx_params),
    { 0, NULL }
};

const OSSL_ALGORITHM akp_macs[] = {
    { "CMAC", "provider=aeskit", cmac_functions, NULL },
    { "GMAC:1.0.9797.3.4", "provider=aeskit", gmac_functions, NULL },
    { NULL, NULL, NULL, NULL }
};
