/*
 * ciphers.c - AES-{128,192,256}-{ECB,CBC,CTR,GCM,CCM,OCB,CFB,CFB8,OFB,CBC-CTS},
 * AES-{128,192,256}-WRAP[-PAD] and AES-{128,256}-XTS for OpenSSL 3, under
 * the default provider's names, with its parameters and
 * the behaviour EVP callers rely on (update/final buffering and padding for
 * ECB/CBC, streamed GCM and OCB with the tag checked at final, CCM's
 * length-first protocol, the TLS 1.2 record-layer parameters of GCM and CCM).
 *
 * One context type serves every mode.  The key object is set up when a key
 * is given and reused for every message (IV changes never re-expand it); it
 * is shared read-only with copies of the context (EVP_CIPHER_CTX_copy).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "akp.h"

enum { IV_NONE, IV_BUFFERED, IV_ACTIVE, IV_FINISHED };

#define GCM_IV_MAX 128
#define TLS_AAD_LEN 13          /* EVP_AEAD_TLS1_AAD_LEN */
#define TLS_GCM_FIXED 4
#define TLS_EXPLICIT 8
#define TLS_GCM_TAG 16
#define XTS_MAX_BLOCKS (1u << 20)

/* Context modes beyond OpenSSL's EVP_CIPH_*_MODE values, for ciphers that
 * share one: masked with EVP_CIPH_MODE they give the mode OpenSSL reports
 * (CFB-8 is a CFB mode, CBC-CTS a CBC mode, KWP a wrap mode). */
#define AKP_SUBMODE 0x100000
#define AKP_CFB8_MODE (AKP_SUBMODE | EVP_CIPH_CFB_MODE)
#define AKP_CTS_MODE (AKP_SUBMODE | EVP_CIPH_CBC_MODE)
#define AKP_KWP_MODE (AKP_SUBMODE | EVP_CIPH_WRAP_MODE)

static int is_wrap(int mode) { return mode == EVP_CIPH_WRAP_MODE || mode == AKP_KWP_MODE; }
static int is_feedback(int mode)
{
    return mode == EVP_CIPH_CFB_MODE || mode == AKP_CFB8_MODE || mode == EVP_CIPH_OFB_MODE;
}

typedef struct akp_cipher {
    const AKP_PROV *prov;
    int mode;                   /* EVP_CIPH_*_MODE */
    size_t keylen;              /* bytes */
    int enc;
    int key_set;
    AKP_KEY *key;
    /* ECB, CBC, CTR, XTS */
    unsigned char iv[16], oiv[16];
    int iv_set;
    int pad;
    unsigned char buf[16];
    size_t bufsz;
    pg_ctr_ctx ctr;
    int ctr_on;
    unsigned char ctr_base[16];
    uint64_t ctr_bytes;
    /* GCM and CCM */
    unsigned char aiv[GCM_IV_MAX];
    size_t ivlen;               /* GCM */
    int iv_state;               /* GCM: IV_* */
    int iv_gen;                 /* GCM: TLS fixed IV set */
    pg_gcm_ctx g;
    pg_gcm_ctx shadow;          /* GCM decrypt with a tag length aeskit's verify lacks */
    int shadow_on;
    int gcm_data;               /* data has gone through this message */
    int gcm_aad_lost;           /* this message's AAD outgrew the replay buffer */
    unsigned char miv[GCM_IV_MAX];  /* this message's IV */
    unsigned char tag[16];
    size_t taglen;              /* GCM: 0 = unset */
    int tag_set;                /* CCM: tag given (dec) / computed (enc) */
    size_t tls_aad_len;         /* 0 = not in TLS mode */
    unsigned char tls_aad[TLS_AAD_LEN];
    size_t tls_pad;
    uint64_t tls_records;
    size_t L, M;                /* CCM */
    int ccm_iv_set, len_set;
    size_t msg_len;
    unsigned char *aad;
    size_t aad_len, aad_cap;
    /* OCB: the stream (started at the first update or final, as GCM's), the
       message bytes it holds back (0..15); aiv/ivlen/iv_state/tag/taglen as
       GCM; tag_set: a decrypting tag was given */
    pg_ocb_ctx ocb;
    size_t ocb_held;
    /* CFB, CFB-8, OFB: the stream state, started at the first update */
    pg_cfb_ctx cfb;
    pg_ofb_ctx ofb;
    int fb_on;
    /* CBC-CTS: the variant (1..3, OpenSSL's "CS1".."CS3"), one update done */
    int cts_variant;
    int cts_done;
    /* SIV: where each associated-data string ends in aad[] (strings are
       kept in aad/aad_len, as CCM keeps its AAD), this message's outcome */
    size_t siv_ends[126];
    size_t siv_nad;
    int siv_done;               /* the one data update of the message is done */
    int siv_ok;                 /* sealed, or opened with V verified */
    /* CBC under libssl's TLS 1.0-1.2 CBC-HMAC record layer (tls-version set):
     * delegated to the default provider's implementation (see tls_cbc_*) */
    EVP_CIPHER_CTX *tls_inner;
} AKP_CIPHER;

static void *akp_newctx(void *provctx, int mode, size_t keylen)
{
    AKP_CIPHER *c = akp_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    c->prov = provctx;
    c->mode = mode;
    c->keylen = keylen;
    c->pad = 1;
    c->ivlen = 12;
    c->L = 8;
    c->M = 12;
    c->cts_variant = 1; /* OpenSSL's default: CS1 */
    if (mode == EVP_CIPH_OCB_MODE)
        c->taglen = 16; /* OpenSSL's OCB default tag length */
    return c;
}

static void akp_freectx(void *vctx)
{
    AKP_CIPHER *c = vctx;
    if (c == NULL)
        return;
    akp_key_unref(c->key);
    akp_free(c->aad, c->aad_cap);
    EVP_CIPHER_CTX_free(c->tls_inner);
    akp_free(c, sizeof(*c));
}

static void *akp_dupctx(void *vctx)
{
    AKP_CIPHER *in = vctx, *c = akp_zalloc(sizeof(*c));
    if (c == NULL)
        return NULL;
    memcpy(c, in, sizeof(*c));
    c->aad = NULL;
    c->aad_cap = 0;
    if (in->aad_cap > 0) {
        c->aad = akp_zalloc(in->aad_cap);
        if (c->aad == NULL) {
            akp_free(c, sizeof(*c));
            return NULL;
        }
        memcpy(c->aad, in->aad, in->aad_len);
        c->aad_cap = in->aad_cap;
    }
    akp_key_ref(c->key);    /* streaming state points to the shared key */
    c->tls_inner = NULL;
    if (in->tls_inner != NULL) {
        c->tls_inner = EVP_CIPHER_CTX_new();
        if (c->tls_inner == NULL || !EVP_CIPHER_CTX_copy(c->tls_inner, in->tls_inner)) {
            akp_freectx(c);
            return NULL;
        }
    }
    return c;
}

/*
 * Parameter lookup: one walk over the caller's array.  at[i] becomes the
 * index of the first element whose key is names[i], or -1: what
 * OSSL_PARAM_locate(params, names[i]) would find, without a scan of the whole
 * array per known name.  libcrypto passes one element per call on the
 * per-message path (EVP_CIPHER_CTX_get_iv_length, _get_key_length,
 * _set_padding, the tag ctrl), so a first-byte check rejects most names
 * before strcmp.
 */
static void params_index(const OSSL_PARAM *params, const char *const names[], size_t n, int at[])
{
    for (size_t i = 0; i < n; i++)
        at[i] = -1;
    for (int e = 0; params[e].key != NULL; e++) {
        const char *key = params[e].key;
        for (size_t i = 0; i < n; i++) {
            if (key[0] == names[i][0] && strcmp(key, names[i]) == 0) {
                if (at[i] < 0)
                    at[i] = e;
                break;
            }
        }
    }
}

static OSSL_PARAM *param_at(OSSL_PARAM *params, int i) { return i < 0 ? NULL : params + i; }
static const OSSL_PARAM *param_at_const(const OSSL_PARAM *params, int i)
{
    return i < 0 ? NULL : params + i;
}

/* 128-bit big-endian add of n to a counter block. */
static void ctr_add(unsigned char out[16], const unsigned char in[16], uint64_t n)
{
    unsigned carry = 0;
    for (int i = 15; i >= 0; i--) {
        unsigned v = in[i] + (unsigned)(n & 0xff) + carry;
        out[i] = (unsigned char)v;
        carry = v >> 8;
        n >>= 8;
    }
}

static int set_key(AKP_CIPHER *c, const unsigned char *key, size_t keylen)
{
    AKP_KEY *k;
    int st;
    if (keylen != c->keylen) {
        AKP_ERR(c->prov, AKP_R_INVALID_KEY_LENGTH, "key of %zu bytes, this cipher takes %zu",
                keylen, c->keylen);
        return 0;
    }
    if (c->mode == EVP_CIPH_XTS_MODE && c->enc
        && pg_ct_memcmp(key, key + keylen / 2, keylen / 2) == 0) {
        AKP_ERR(c->prov, AKP_R_XTS_DUPLICATED_KEYS, "the two XTS key halves are equal");
        return 0;
    }
    /* The same key again (openssl speed, re-inits): the key object as it is. */
    if (c->key_set && c->key != NULL && c->key->raw_len == keylen
        && pg_ct_memcmp(c->key->raw, key, keylen) == 0)
        return 1;
    k = akp_key_writable(&c->key);
    if (k == NULL) {
        AKP_ERR(c->prov, AKP_R_MALLOC_FAILURE, "key object");
        return 0;
    }
    k->raw_len = 0;
    switch (c->mode) {
    case EVP_CIPH_GCM_MODE:
        st = pg_gcm_init(&k->u.gcm, key, keylen);
        break;
    case EVP_CIPH_XTS_MODE:
        st = pg_xts_init(&k->u.xts, key, keylen);
        break;
    case EVP_CIPH_SIV_MODE:
        st = pg_siv_init(&k->u.siv, key, keylen);
        break;
    case EVP_CIPH_OCB_MODE:
        st = pg_ocb_init(&k->u.ocb, key, keylen);
        break;
    default:
        st = pg_aes_init(&k->u.aes, key, keylen);
        break;
    }
    if (st != 0) {
        c->key_set = 0;
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    memcpy(k->raw, key, keylen);
    k->raw_len = keylen;
    c->key_set = 1;
    return 1;
}

static int block_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
static int ccm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

/* ---- ECB, CBC, CTR, XTS ------------------------------------------------------ */

static int block_init(void *vctx, const unsigned char *key, size_t keylen,
                      const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[],
                      int enc)
{
    AKP_CIPHER *c = vctx;
    c->enc = enc;
    c->bufsz = 0;
    EVP_CIPHER_CTX_free(c->tls_inner);
    c->tls_inner = NULL;
    if (iv != NULL && c->mode != EVP_CIPH_ECB_MODE) {
        if (ivlen != 16) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "iv of %zu bytes, this cipher takes 16",
                    ivlen);
            return 0;
        }
        memcpy(c->iv, iv, 16);
        memcpy(c->oiv, iv, 16);
        c->iv_set = 1;
        c->ctr_on = 0;
        c->fb_on = 0;
    } else if (c->iv_set && (c->mode == EVP_CIPH_CBC_MODE || c->mode == AKP_CTS_MODE
                             || is_feedback(c->mode))) {
        /* as OpenSSL for CBC: re-init restarts the chain; CFB, CFB-8 and
           OFB restart from the IV last given */
        memcpy(c->iv, c->oiv, 16);
        c->fb_on = 0;
    } else if (c->iv_set && c->mode == EVP_CIPH_CTR_MODE && c->ctr_on) {
        /* continue from the next whole counter block, as OpenSSL does */
        ctr_add(c->iv, c->ctr_base, (c->ctr_bytes + 15) / 16);
        c->ctr_on = 0;
    }
    if (key != NULL) {
        if (!set_key(c, key, keylen))
            return 0;
        c->ctr_on = 0;
        c->fb_on = 0;
    }
    c->cts_done = 0;
    return block_set_ctx_params(c, params);
}

static int block_einit(void *vctx, const unsigned char *key, size_t keylen,
                       const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return block_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int block_dinit(void *vctx, const unsigned char *key, size_t keylen,
                       const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return block_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* Whole blocks through ECB or CBC. */
static int do_blocks(AKP_CIPHER *c, unsigned char *out, const unsigned char *in, size_t len)
{
    const pg_aes_key *k = &c->key->u.aes;
    int st;
    if (len == 0)
        return 1;
    if (c->mode == EVP_CIPH_ECB_MODE)
        st = c->enc ? pg_ecb_encrypt(k, out, in, len) : pg_ecb_decrypt(k, out, in, len);
    else
        st = c->enc ? pg_cbc_encrypt(k, out, in, len, c->iv)
                    : pg_cbc_decrypt(k, out, in, len, c->iv);
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    return 1;
}

static int check_ready(AKP_CIPHER *c)
{
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    if (c->mode != EVP_CIPH_ECB_MODE && !is_wrap(c->mode) && !c->iv_set) {
        AKP_ERR(c->prov, AKP_R_NO_IV_SET, "no iv set");
        return 0;
    }
    return 1;
}

/*
 * ECB/CBC update: whole blocks go out; a partial block waits in buf.  When
 * decrypting with padding, the last whole block is held back until final
 * (it may carry the padding).
 */
static int block_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                        const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    size_t total, emit, done = 0, hold;
    if (c->tls_inner != NULL) {
        int l = 0;
        if (!EVP_CipherUpdate(c->tls_inner, out, &l, in, (int)inl))
            return 0;   /* the default provider put its error on the queue */
        *outl = (size_t)l;
        return 1;
    }
    if (!check_ready(c))
        return 0;
    if (inl == 0) {
        *outl = 0;
        return 1;
    }
    total = c->bufsz + inl;
    emit = total & ~(size_t)15;
    if (!c->enc && c->pad && emit == total && emit > 0)
        emit -= 16;
    if (outsize < emit) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes, have %zu", emit, outsize);
        return 0;
    }
    if (emit > 0 && c->bufsz > 0) {
        size_t fill = 16 - c->bufsz;
        memcpy(c->buf + c->bufsz, in, fill);
        in += fill;
        inl -= fill;
        if (!do_blocks(c, out, c->buf, 16))
            return 0;
        c->bufsz = 0;
        done = 16;
    }
    if (emit > done) {
        size_t n = emit - done;
        if (!do_blocks(c, out + done, in, n))
            return 0;
        in += n;
        inl -= n;
    }
    hold = inl;         /* what is left waits for more input or final */
    memcpy(c->buf + c->bufsz, in, hold);
    c->bufsz += hold;
    *outl = emit;
    return 1;
}

static int block_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    if (c->tls_inner != NULL) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "final in TLS record mode");
        return 0;
    }
    if (!check_ready(c))
        return 0;
    *outl = 0;
    if (c->enc) {
        if (c->pad) {
            unsigned char n = (unsigned char)(16 - c->bufsz);
            memset(c->buf + c->bufsz, n, n);
        } else if (c->bufsz == 0) {
            return 1;
        } else {
            AKP_ERR(c->prov, AKP_R_WRONG_FINAL_BLOCK_LENGTH,
                    "%zu bytes left over without padding", c->bufsz);
            return 0;
        }
        if (outsize < 16) {
            AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "final block needs 16 bytes");
            return 0;
        }
        if (!do_blocks(c, out, c->buf, 16))
            return 0;
        c->bufsz = 0;
        *outl = 16;
        return 1;
    }
    if (c->bufsz != 16) {
        if (c->bufsz == 0 && !c->pad)
            return 1;
        AKP_ERR(c->prov, AKP_R_WRONG_FINAL_BLOCK_LENGTH, "ciphertext is not whole blocks");
        return 0;
    }
    if (!do_blocks(c, c->buf, c->buf, 16))
        return 0;
    c->bufsz = 0;
    if (c->pad) {
        /* PKCS#7 check without branching on the padding bytes. */
        unsigned n = c->buf[15];
        unsigned bad = (((n - 1) >> 8) & 1) | (((16 - n) >> 8) & 1);   /* n == 0 or n > 16 */
        for (unsigned i = 0; i < 16; i++) {
            unsigned in_pad = (((i + n - 16) >> 8) & 1) ^ 1;            /* i >= 16 - n */
            unsigned diff = (unsigned)(c->buf[i] ^ n);
            bad |= in_pad & (((diff + 255) >> 8) & 1);
        }
        if (bad & 0xff) {
            pg_memzero(c->buf, 16);
            AKP_ERR(c->prov, AKP_R_BAD_DECRYPT, "bad decrypt (padding)");
            return 0;
        }
        n = 16 - n;
        if (outsize < n) {
            AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %u bytes", n);
            return 0;
        }
        memcpy(out, c->buf, n);
        *outl = n;
    } else {
        if (outsize < 16) {
            AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need 16 bytes");
            return 0;
        }
        memcpy(out, c->buf, 16);
        *outl = 16;
    }
    pg_memzero(c->buf, 16);
    return 1;
}

static int block_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                        const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    if (!check_ready(c))
        return 0;
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    if (inl % 16 != 0) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "not whole blocks");
        return 0;
    }
    if (!do_blocks(c, out, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int ctr_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    int st;
    if (!check_ready(c))
        return 0;
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    if (!c->ctr_on) {
        st = pg_ctr_start(&c->ctr, &c->key->u.aes, c->iv);
        if (st != 0) {
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
        memcpy(c->ctr_base, c->iv, 16);
        c->ctr_bytes = 0;
        c->ctr_on = 1;
    }
    st = pg_ctr_update(&c->ctr, out, in, inl);
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    c->ctr_bytes += inl;
    *outl = inl;
    return 1;
}

static int stream_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    (void)out;
    (void)outsize;
    if (!check_ready(c))
        return 0;
    *outl = 0;
    return 1;
}

/* XTS: every update is one data unit under the IV as tweak. */
static int xts_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    int st;
    if (!check_ready(c))
        return 0;
    if (in == NULL || out == NULL || inl < 16) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "XTS data unit of %zu bytes (minimum 16)",
                inl);
        return 0;
    }
    if (inl > (size_t)XTS_MAX_BLOCKS * 16) {
        AKP_ERR(c->prov, AKP_R_XTS_DATA_UNIT_TOO_LARGE, "over 2^20 blocks");
        return 0;
    }
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    st = c->enc ? pg_xts_encrypt(&c->key->u.xts, out, in, inl, c->iv)
                : pg_xts_decrypt(&c->key->u.xts, out, in, inl, c->iv);
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    *outl = inl;
    return 1;
}

/* ---- CFB, CFB-8, OFB, CBC-CTS, KW, KWP (issue 15) ----------------------------- */

/* CFB, CFB-8, OFB: any length per update, the stream state carried over. */
static int fb_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                     const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    int st = 0;
    if (!check_ready(c))
        return 0;
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    if (!c->fb_on) {
        const pg_aes_key *k = &c->key->u.aes;
        if (c->mode == EVP_CIPH_OFB_MODE)
            st = pg_ofb_start(&c->ofb, k, c->iv);
        else if (c->mode == AKP_CFB8_MODE)
            st = pg_cfb8_start(&c->cfb, k, c->enc, c->iv);
        else
            st = pg_cfb128_start(&c->cfb, k, c->enc, c->iv);
        if (st != 0) {
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
        c->fb_on = 1;
    }
    if (inl > 0) {
        st = c->mode == EVP_CIPH_OFB_MODE ? pg_ofb_update(&c->ofb, out, in, inl)
                                          : pg_cfb_update(&c->cfb, out, in, inl);
        if (st != 0) {
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
    }
    *outl = inl;
    return 1;
}

/* CBC-CTS: the whole message (at least one block) in one update, as the
 * default provider takes it; a second update of the same message fails. */
static int cts_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    int st;
    if (!check_ready(c))
        return 0;
    if (c->cts_done) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "CBC-CTS takes the whole message in one update");
        return 0;
    }
    if (inl < 16) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "CBC-CTS needs at least 16 bytes, got %zu",
                inl);
        return 0;
    }
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    st = c->enc ? pg_cbc_cts_encrypt(&c->key->u.aes, out, in, inl, c->iv, c->cts_variant)
                : pg_cbc_cts_decrypt(&c->key->u.aes, out, in, inl, c->iv, c->cts_variant);
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    c->cts_done = 1;
    *outl = inl;
    return 1;
}

/* The default IVs of SP 800-38F: KW's A6A6A6A6A6A6A6A6 (8 bytes), KWP's
 * prefix A65959A6 (4 bytes).  aeskit wraps with these only. */
static const unsigned char kw_default_iv[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};
static const unsigned char kwp_default_iv[4] = {0xa6, 0x59, 0x59, 0xa6};

static int wrap_init(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[], int enc)
{
    AKP_CIPHER *c = vctx;
    int pad = c->mode == AKP_KWP_MODE;
    size_t want = pad ? 4 : 8;
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != want) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "iv of %zu bytes, this cipher takes %zu",
                    ivlen, want);
            return 0;
        }
        if (memcmp(iv, pad ? kwp_default_iv : kw_default_iv, want) != 0) {
            AKP_ERR(c->prov, AKP_R_NOT_SUPPORTED, "an iv other than SP 800-38F's default");
            return 0;
        }
    }
    if (key != NULL && !set_key(c, key, keylen))
        return 0;
    return block_set_ctx_params(c, params);
}

static int wrap_einit(void *vctx, const unsigned char *key, size_t keylen,
                      const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return wrap_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int wrap_dinit(void *vctx, const unsigned char *key, size_t keylen,
                      const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return wrap_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/*
 * KW / KWP: each update wraps or unwraps one whole key.  out == NULL asks
 * for the output length.  As the default provider does, the output buffer
 * is checked against inl only: EVP passes inl + 8 (the block size) as
 * outsize, while KWP wraps inl bytes into 8 * ceil(inl / 8) + 8, so the
 * caller must have room for that (the same contract as OpenSSL's own KWP).
 */
static int wrap_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                       const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    int pad = c->mode == AKP_KWP_MODE, st;
    size_t need, got = 0;
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    *outl = 0;
    if (inl == 0)
        return 1;
    if (c->enc ? (!pad && (inl % 8 != 0 || inl < 16))
               : (inl % 8 != 0 || inl < (pad ? 16u : 24u))) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "%zu bytes: not a length %s %s", inl,
                pad ? "KWP" : "KW", c->enc ? "wraps" : "unwraps");
        return 0;
    }
    need = c->enc ? (pad ? (inl + 7) / 8 * 8 + 8 : inl + 8) : inl - 8;
    if (out == NULL) {
        *outl = need;
        return 1;
    }
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", need);
        return 0;
    }
    if (c->enc)
        st = pad ? pg_kwp_wrap(&c->key->u.aes, out, need, &got, in, inl)
                 : pg_kw_wrap(&c->key->u.aes, out, need, &got, in, inl);
    else
        st = pad ? pg_kwp_unwrap(&c->key->u.aes, out, need, &got, in, inl)
                 : pg_kw_unwrap(&c->key->u.aes, out, need, &got, in, inl);
    if (st != 0) {
        if (pg_is_auth_failure(st))
            AKP_ERR(c->prov, AKP_R_BAD_DECRYPT, "unwrap: integrity check failed");
        else
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    *outl = got;
    return 1;
}

static int wrap_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    (void)out;
    (void)outsize;
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    *outl = 0;
    return 1;
}

static const char *const cts_names[4] = {NULL, "CS1", "CS2", "CS3"};

/* ---- AES-SIV (RFC 5297), the default provider's protocol ------------------------ *
 * Each update with out == NULL is one associated-data string; the one update
 * with data seals or opens the message (decrypting needs the tag, V, set
 * first); final succeeds only if that happened and V verified, so a message
 * with no data update fails at final, as with the default provider.  Unlike
 * it, a re-init without a key starts a new message (the default provider
 * refuses a second message until the key is set again). */

static int ccm_add_aad(AKP_CIPHER *c, const unsigned char *in, size_t inl);
static int siv_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
static int check_keylen_param(AKP_CIPHER *c, const OSSL_PARAM *p);

static int siv_init(void *vctx, const unsigned char *key, size_t keylen,
                    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[], int enc)
{
    AKP_CIPHER *c = vctx;
    (void)iv;
    (void)ivlen;
    c->enc = enc;
    c->aad_len = 0;
    c->siv_nad = 0;
    c->siv_done = 0;
    c->siv_ok = 0;
    c->tag_set = 0;
    if (key != NULL && !set_key(c, key, keylen))
        return 0;
    return siv_set_ctx_params(c, params);
}

static int siv_einit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return siv_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int siv_dinit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return siv_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int siv_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    const unsigned char *ad[126];
    int st;
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    *outl = 0;
    if (inl == 0)
        return 1;
    if (c->siv_done) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "SIV takes one data update per message");
        return 0;
    }
    if (out == NULL) { /* one associated-data string */
        if (c->siv_nad == 126) {
            AKP_ERR(c->prov, AKP_R_INVALID_AAD, "more than 126 associated-data strings");
            return 0;
        }
        if (!ccm_add_aad(c, in, inl))
            return 0;
        c->siv_ends[c->siv_nad++] = c->aad_len;
        return 1;
    }
    if (outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    if (!c->enc && !c->tag_set) {
        AKP_ERR(c->prov, AKP_R_INVALID_TAG, "decrypting needs the tag (V) first");
        return 0;
    }
    size_t lens[126];
    for (size_t i = 0; i < c->siv_nad; i++) {
        size_t start = i ? c->siv_ends[i - 1] : 0;
        ad[i] = c->aad + start;
        lens[i] = c->siv_ends[i] - start;
    }
    c->siv_done = 1;
    st = c->enc ? pg_siv_seal(&c->key->u.siv, out, c->tag, in, inl, ad, lens, c->siv_nad)
                : pg_siv_open(&c->key->u.siv, out, in, inl, c->tag, ad, lens, c->siv_nad);
    if (st != 0) {
        if (pg_is_auth_failure(st))
            AKP_ERR(c->prov, AKP_R_TAG_MISMATCH, "SIV: V does not verify");
        else
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    c->siv_ok = 1;
    *outl = inl;
    return 1;
}

static int siv_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    (void)out;
    (void)outsize;
    *outl = 0;
    if (!c->siv_ok) {
        AKP_ERR(c->prov, c->siv_done ? AKP_R_TAG_MISMATCH : AKP_R_BAD_STATE,
                "%s", c->siv_done ? "SIV: V does not verify" : "SIV: no data update");
        return 0;
    }
    return 1;
}

static int siv_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, c->keylen))
        goto bad;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, 0))
        goto bad;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, 16))
        goto bad;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        if (!c->enc || !c->siv_ok || p->data_size != 16
            || !OSSL_PARAM_set_octet_string(p, c->tag, 16)) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG, "the tag exists after sealing, 16 bytes");
            return 0;
        }
    }
    return 1;
bad:
    AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "could not return a parameter");
    return 0;
}

static int siv_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if (!check_keylen_param(c, OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN)))
        return 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        if (c->enc) /* the default provider ignores a tag when encrypting */
            return 1;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != 16) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG_LENGTH, "the SIV tag is 16 bytes");
            return 0;
        }
        memcpy(c->tag, p->data, 16);
        c->tag_set = 1;
    }
    /* OSSL_CIPHER_PARAM_SPEED: the default provider's switch for a second
       message under one key; every message here starts at init anyway */
    return 1;
}

static const OSSL_PARAM siv_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM siv_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_SPEED, NULL),
    OSSL_PARAM_END
};
static const OSSL_PARAM *siv_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return siv_gettable_ctx;
}
static const OSSL_PARAM *siv_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return siv_settable_ctx;
}

static int block_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    OSSL_PARAM *p;
    size_t ivlen = c->mode == EVP_CIPH_ECB_MODE ? 0
                   : c->mode == EVP_CIPH_WRAP_MODE ? 8 : c->mode == AKP_KWP_MODE ? 4 : 16;
    unsigned char cur[16];
    static const char *const names[] = {
        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_IVLEN, OSSL_CIPHER_PARAM_PADDING,
        OSSL_CIPHER_PARAM_NUM, OSSL_CIPHER_PARAM_IV, OSSL_CIPHER_PARAM_UPDATED_IV,
        OSSL_CIPHER_PARAM_TLS_MAC, OSSL_CIPHER_PARAM_CTS_MODE
    };
    enum { K_KEYLEN, K_IVLEN, K_PADDING, K_NUM, K_IV, K_UPDATED_IV, K_TLS_MAC, K_CTS_MODE, K_N };
    int at[K_N];

    params_index(params, names, K_N, at);

    if ((p = param_at(params, at[K_KEYLEN])) != NULL
        && !OSSL_PARAM_set_size_t(p, c->keylen))
        goto bad;
    if ((p = param_at(params, at[K_IVLEN])) != NULL
        && !OSSL_PARAM_set_size_t(p, ivlen))
        goto bad;
    if ((p = param_at(params, at[K_PADDING])) != NULL
        && !OSSL_PARAM_set_uint(p, (unsigned)c->pad))
        goto bad;
    if ((p = param_at(params, at[K_NUM])) != NULL
        && !OSSL_PARAM_set_uint(p, c->mode == EVP_CIPH_CTR_MODE && c->ctr_on
                                        ? (unsigned)(c->ctr_bytes % 16) : 0))
        goto bad;
    if ((p = param_at(params, at[K_IV])) != NULL && !is_wrap(c->mode)
        && !OSSL_PARAM_set_octet_string(p, c->oiv, ivlen)
        && !OSSL_PARAM_set_octet_ptr(p, c->oiv, ivlen))
        goto bad;
    if ((p = param_at(params, at[K_IV])) != NULL && is_wrap(c->mode)
        && !OSSL_PARAM_set_octet_string(p, c->mode == AKP_KWP_MODE ? kwp_default_iv
                                                                   : kw_default_iv, ivlen))
        goto bad;
    if ((p = param_at(params, at[K_CTS_MODE])) != NULL && c->mode == AKP_CTS_MODE
        && !OSSL_PARAM_set_utf8_string(p, cts_names[c->cts_variant]))
        goto bad;
    if ((p = param_at(params, at[K_UPDATED_IV])) != NULL && !is_wrap(c->mode)) {
        if (c->mode == EVP_CIPH_CTR_MODE && c->ctr_on)
            ctr_add(cur, c->ctr_base, c->ctr_bytes / 16);
        else
            memcpy(cur, c->iv, 16);
        if (!OSSL_PARAM_set_octet_string(p, cur, ivlen))
            goto bad;
    }
    if ((p = param_at(params, at[K_TLS_MAC])) != NULL) {
        OSSL_PARAM one[2] = { *p, OSSL_PARAM_END };
        if (c->tls_inner == NULL || !EVP_CIPHER_CTX_get_params(c->tls_inner, one)) {
            AKP_ERR(c->prov, AKP_R_BAD_STATE, "no TLS record MAC");
            return 0;
        }
        p->return_size = one[0].return_size;
    }
    return 1;
bad:
    AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "could not return a parameter");
    return 0;
}

static int check_keylen_param(AKP_CIPHER *c, const OSSL_PARAM *p)
{
    size_t n;
    if (p == NULL)
        return 1;
    if (!OSSL_PARAM_get_size_t(p, &n) || n != c->keylen) {
        AKP_ERR(c->prov, AKP_R_INVALID_KEY_LENGTH, "this cipher's key is %zu bytes", c->keylen);
        return 0;
    }
    return 1;
}

/*
 * libssl's TLS 1.0-1.2 CBC-HMAC record layer (the tls-version and
 * tls-mac-size parameters: per-record padding, the constant-time removal of
 * padding and MAC) is not something aeskit offers.  So that CBC suites keep
 * working when aeskit is preferred, such a context hands its records to the
 * default provider's AES-CBC, set up with the same key and IV.  Those records
 * do not count as aeskit calls.
 */
static int tls_cbc_delegate(AKP_CIPHER *c, const OSSL_PARAM params[])
{
    static const char *names[] = { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" };
    EVP_CIPHER *ciph;
    int ok;
    if (c->mode != EVP_CIPH_CBC_MODE) {
        AKP_ERR(c->prov, AKP_R_NOT_SUPPORTED, "TLS record parameters on this mode");
        return 0;
    }
    if (c->tls_inner == NULL) {
        if (!c->key_set || !c->iv_set || c->key == NULL || c->key->raw_len != c->keylen) {
            AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "TLS record layer needs the key and iv first");
            return 0;
        }
        ciph = EVP_CIPHER_fetch(NULL, names[(c->keylen - 16) / 8], "provider=default");
        c->tls_inner = ciph != NULL ? EVP_CIPHER_CTX_new() : NULL;
        ok = c->tls_inner != NULL
             && EVP_CipherInit_ex2(c->tls_inner, ciph, c->key->raw, c->iv, c->enc, NULL);
        EVP_CIPHER_free(ciph);
        if (!ok) {
            EVP_CIPHER_CTX_free(c->tls_inner);
            c->tls_inner = NULL;
            AKP_ERR(c->prov, AKP_R_NOT_SUPPORTED,
                    "TLS CBC records need the default provider's AES-CBC");
            return 0;
        }
    }
    return EVP_CIPHER_CTX_set_params(c->tls_inner, params);
}

static int block_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    const OSSL_PARAM *p;
    static const char *const names[] = {
        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_PADDING, OSSL_CIPHER_PARAM_TLS_VERSION,
        OSSL_CIPHER_PARAM_TLS_MAC_SIZE, OSSL_CIPHER_PARAM_NUM, OSSL_CIPHER_PARAM_CTS_MODE
    };
    enum { K_KEYLEN, K_PADDING, K_TLS_VERSION, K_TLS_MAC_SIZE, K_NUM, K_CTS_MODE, K_N };
    int at[K_N];
    if (params == NULL)
        return 1;
    params_index(params, names, K_N, at);
    if (!check_keylen_param(c, param_at_const(params, at[K_KEYLEN])))
        return 0;
    if ((p = param_at_const(params, at[K_PADDING])) != NULL) {
        unsigned pad;
        if (!OSSL_PARAM_get_uint(p, &pad)) {
            AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "padding");
            return 0;
        }
        c->pad = pad ? 1 : 0;
    }
    if (at[K_TLS_VERSION] >= 0 || at[K_TLS_MAC_SIZE] >= 0) {
        if (!tls_cbc_delegate(c, params))
            return 0;
    }
    if ((p = param_at_const(params, at[K_CTS_MODE])) != NULL && c->mode == AKP_CTS_MODE) {
        const char *v = NULL;
        int found = 0;
        if (OSSL_PARAM_get_utf8_string_ptr(p, &v))
            for (int i = 1; i <= 3; i++)
                if (OPENSSL_strcasecmp(v, cts_names[i]) == 0)
                    found = i;
        if (!found) {
            AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "cts_mode %s (CS1, CS2 or CS3)",
                    v != NULL ? v : "(not a string)");
            return 0;
        }
        c->cts_variant = found;
    }
    if ((p = param_at_const(params, at[K_NUM])) != NULL) {
        unsigned num;
        if (!OSSL_PARAM_get_uint(p, &num) || num != 0) {
            AKP_ERR(c->prov, AKP_R_NOT_SUPPORTED, "num other than 0");
            return 0;
        }
    }
    return 1;
}

/* ---- GCM ---------------------------------------------------------------------- */

/* The key and IV of an AEAD init (GCM, OCB): the IV (1..iv_max bytes) is
 * buffered until the message starts; a new key restarts a started message. */
static int aead_init_key_iv(AKP_CIPHER *c, const unsigned char *key, size_t keylen, const unsigned char *iv,
                            size_t ivlen, size_t iv_max, const char *mode)
{
    if (iv != NULL) {
        if (ivlen == 0 || ivlen > iv_max) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "%s iv of %zu bytes (1..%zu)", mode, ivlen, iv_max);
            return 0;
        }
        c->ivlen = ivlen;
        memcpy(c->aiv, iv, ivlen);
        c->iv_state = IV_BUFFERED;
    }
    if (key != NULL) {
        if (!set_key(c, key, keylen))
            return 0;
        if (c->iv_state == IV_ACTIVE)
            c->iv_state = IV_BUFFERED;  /* restart the message under the new key */
    }
    return 1;
}

static int gcm_init(void *vctx, const unsigned char *key, size_t keylen,
                    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[], int enc)
{
    AKP_CIPHER *c = vctx;
    c->enc = enc;
    if (!aead_init_key_iv(c, key, keylen, iv, ivlen, GCM_IV_MAX, "GCM"))
        return 0;
    if (key != NULL)
        c->tls_records = 0;
    return gcm_set_ctx_params(c, params);
}

static int gcm_einit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int gcm_dinit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/*
 * Decrypting with a 1-3, 5-7 or 9-11 byte tag (OpenSSL takes them, aeskit's
 * verify does not): an encrypting twin re-encrypts the plaintext and its full
 * tag is compared at final.  It starts as soon as such a tag is known and no
 * data has gone through; the AAD so far (kept while under 1 KiB) is replayed.
 */
static int ccm_add_aad(AKP_CIPHER *c, const unsigned char *in, size_t inl);

static int gcm_shadow(AKP_CIPHER *c)
{
    int st;
    if (c->enc || c->shadow_on || c->gcm_data || c->taglen == 0 || pg_gcm_tag_len_ok(c->taglen)
        || c->gcm_aad_lost)
        return 1;
    st = pg_gcm_start(&c->shadow, &c->key->u.gcm, 1, c->miv, c->ivlen);
    if (st == 0 && c->aad_len > 0)
        st = pg_gcm_update_aad(&c->shadow, c->aad, c->aad_len);
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    c->shadow_on = 1;
    return 1;
}

static int gcm_start(AKP_CIPHER *c, const unsigned char *iv)
{
    int st = pg_gcm_start(&c->g, &c->key->u.gcm, c->enc, iv, c->ivlen);
    memmove(c->miv, iv, c->ivlen);
    c->shadow_on = 0;
    c->gcm_data = 0;
    c->gcm_aad_lost = 0;
    c->aad_len = 0;
    if (st == 0 && !gcm_shadow(c))
        return 0;
    if (st != 0) {
        c->iv_state = IV_FINISHED;
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    c->iv_state = IV_ACTIVE;
    return 1;
}

/* Brings the message to IV_ACTIVE: an IV given, or (encrypting with none)
 * a random one, as the default provider does. */
static int gcm_ready(AKP_CIPHER *c)
{
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    if (c->iv_state == IV_FINISHED) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "message finished: set a new iv");
        return 0;
    }
    if (c->iv_state == IV_NONE) {
        if (!c->enc || c->ivlen < 12 || !akp_random(c->aiv, c->ivlen)) {
            AKP_ERR(c->prov, AKP_R_NO_IV_SET, "no iv set");
            return 0;
        }
        c->iv_state = IV_BUFFERED;
    }
    if (c->iv_state == IV_BUFFERED)
        return gcm_start(c, c->aiv);
    return 1;
}

static void ctr64_inc(unsigned char *p)
{
    for (int i = 7; i >= 0; i--)
        if (++p[i] != 0)
            break;
}

/* One TLS 1.2 record, in place: explicit IV || payload || tag. */
static int gcm_tls(AKP_CIPHER *c, unsigned char *out, size_t *outl,
                   const unsigned char *in, size_t len)
{
    unsigned char iv[GCM_IV_MAX];
    size_t plen;
    int st, ok = 0;
    *outl = 0;
    if (!c->key_set || !c->iv_gen) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "TLS record without key or fixed iv");
        goto done;
    }
    if (out != in || len < TLS_EXPLICIT + TLS_GCM_TAG) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "TLS record must be in place, >= 24 bytes");
        goto done;
    }
    if (c->enc && ++c->tls_records == 0) {
        AKP_ERR(c->prov, AKP_R_TOO_MANY_RECORDS, "too many records under one key");
        goto done;
    }
    if (c->enc) {
        memcpy(iv, c->aiv, c->ivlen);
        memcpy(out, c->aiv + c->ivlen - TLS_EXPLICIT, TLS_EXPLICIT);
        ctr64_inc(c->aiv + c->ivlen - 8);
    } else {
        memcpy(c->aiv + c->ivlen - TLS_EXPLICIT, in, TLS_EXPLICIT);
        memcpy(iv, c->aiv, c->ivlen);
    }
    plen = len - TLS_EXPLICIT - TLS_GCM_TAG;
    out += TLS_EXPLICIT;
    in += TLS_EXPLICIT;
    if (c->enc)
        st = pg_gcm_seal(&c->key->u.gcm, out, out + plen, TLS_GCM_TAG, in, plen, iv, c->ivlen,
                         c->tls_aad, c->tls_aad_len);
    else
        st = pg_gcm_open(&c->key->u.gcm, out, in, plen, in + plen, TLS_GCM_TAG, iv, c->ivlen,
                         c->tls_aad, c->tls_aad_len);
    if (st != 0) {
        if (!c->enc)
            pg_memzero(out, plen);
        AKP_ERR_AK(c->prov, pg_is_auth_failure(st) ? AKP_R_TAG_MISMATCH : AKP_R_AESKIT_ERROR, st);
        goto done;
    }
    *outl = c->enc ? len : plen;
    ok = 1;
done:
    c->iv_state = IV_FINISHED;
    c->tls_aad_len = 0;
    return ok;
}

static int gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    int st;
    if (c->tls_aad_len != 0) {
        if (outsize < inl) {
            AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
            return 0;
        }
        return gcm_tls(c, out, outl, in, inl);
    }
    *outl = 0;
    if (inl == 0)
        return 1;
    if (in == NULL) {
        AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "NULL input");
        return 0;
    }
    if (out != NULL && outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    if (!gcm_ready(c))
        return 0;
    st = out == NULL ? pg_gcm_update_aad(&c->g, in, inl) : pg_gcm_update(&c->g, out, in, inl);
    if (st == 0 && !c->enc && out == NULL && !c->shadow_on && !c->gcm_aad_lost) {
        if (c->aad_len + inl <= 1024)
            c->gcm_aad_lost = !ccm_add_aad(c, in, inl);    /* kept for a late odd-length tag */
        else
            c->gcm_aad_lost = 1;
    }
    if (out != NULL)
        c->gcm_data = 1;
    if (st == 0 && c->shadow_on) {
        if (out == NULL) {
            st = pg_gcm_update_aad(&c->shadow, in, inl);
        } else {
            unsigned char scratch[512];
            for (size_t off = 0; st == 0 && off < inl; off += sizeof(scratch)) {
                size_t n = inl - off < sizeof(scratch) ? inl - off : sizeof(scratch);
                st = pg_gcm_update(&c->shadow, scratch, out + off, n);
            }
            pg_memzero(scratch, sizeof(scratch));
        }
    }
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    *outl = out == NULL ? 0 : inl;
    return 1;
}

static int gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    int st;
    (void)out;
    (void)outsize;
    *outl = 0;
    if (c->tls_aad_len != 0) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "final in TLS record mode");
        return 0;
    }
    if (!c->enc) {
        /* check before starting: a missing tag leaves the message open */
        if (c->taglen == 0) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG, "no tag set before final");
            return 0;
        }
    }
    if (!gcm_ready(c))
        return 0;
    if (!c->enc && !pg_gcm_tag_len_ok(c->taglen)) {
        unsigned char full[16];
        if (!c->shadow_on) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG_LENGTH,
                    "a %zu-byte GCM tag must be set before the data", c->taglen);
            return 0;
        }
        c->iv_state = IV_FINISHED;
        c->shadow_on = 0;
        st = pg_gcm_shadow_tag(&c->shadow, full);
        pg_gcm_ctx_wipe(&c->shadow);
        pg_gcm_ctx_wipe(&c->g);
        if (st != 0 || pg_ct_memcmp(full, c->tag, c->taglen) != 0) {
            pg_memzero(full, sizeof(full));
            AKP_ERR(c->prov, AKP_R_TAG_MISMATCH, "tag mismatch (message rejected)");
            return 0;
        }
        pg_memzero(full, sizeof(full));
        pg_note_open();
        return 1;
    }
    if (c->enc) {
        st = pg_gcm_finish(&c->g, c->tag, 16);
        c->iv_state = IV_FINISHED;
        if (st != 0) {
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
        c->taglen = 16;
        return 1;
    }
    st = pg_gcm_finish_verify(&c->g, c->tag, c->taglen);
    c->iv_state = IV_FINISHED;
    if (st != 0) {
        AKP_ERR_AK(c->prov, pg_is_auth_failure(st) ? AKP_R_TAG_MISMATCH : AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    return 1;
}

static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    if (in == NULL && c->tls_aad_len == 0)
        return gcm_final(vctx, out, outl, outsize);
    return gcm_update(vctx, out, outl, outsize, in, inl);
}

static int aead_get_ctx_params(void *vctx, OSSL_PARAM params[]);

static int gcm_ivgen(AKP_CIPHER *c, OSSL_PARAM *p)
{
    size_t n;
    if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING || !c->iv_gen
        || !c->key_set) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "tlsivgen needs a key and a fixed iv");
        return 0;
    }
    n = p->data_size;
    if (n == 0 || n > c->ivlen)
        n = c->ivlen;
    if (!gcm_start(c, c->aiv))
        return 0;
    memcpy(p->data, c->aiv + c->ivlen - n, n);
    ctr64_inc(c->aiv + c->ivlen - 8);
    return 1;
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    const OSSL_PARAM *p;
    size_t sz;
    static const char *const names[] = {
        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV
    };
    enum { K_KEYLEN, K_AEAD_TAG, K_AEAD_IVLEN, K_AEAD_TLS1_AAD, K_AEAD_TLS1_IV_FIXED, K_AEAD_TLS1_SET_IV_INV, K_N };
    int at[K_N];
    if (params == NULL)
        return 1;
    params_index(params, names, K_N, at);
    if (!check_keylen_param(c, param_at_const(params, at[K_KEYLEN])))
        return 0;
    if ((p = param_at_const(params, at[K_AEAD_TAG])) != NULL) {
        void *vp = c->tag;
        if (c->enc) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG, "tag set while encrypting");
            return 0;
        }
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > 16
            || !OSSL_PARAM_get_octet_string(p, &vp, 16, &sz)) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG, "tag of %zu bytes (1..16)", p->data_size);
            return 0;
        }
        c->taglen = sz;
        if (c->iv_state == IV_ACTIVE && !gcm_shadow(c))
            return 0;
    }
    if ((p = param_at_const(params, at[K_AEAD_IVLEN])) != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz == 0 || sz > GCM_IV_MAX) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "GCM iv length (1..128)");
            return 0;
        }
        if (sz != c->ivlen) {
            if (c->iv_state != IV_NONE)
                c->iv_state = IV_FINISHED;
            c->ivlen = sz;
        }
    }
    if ((p = param_at_const(params, at[K_AEAD_TLS1_AAD])) != NULL) {
        size_t len;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != TLS_AAD_LEN
            || p->data == NULL) {
            AKP_ERR(c->prov, AKP_R_INVALID_AAD, "TLS AAD must be 13 bytes");
            return 0;
        }
        memcpy(c->tls_aad, p->data, TLS_AAD_LEN);
        len = (size_t)c->tls_aad[11] << 8 | c->tls_aad[12];
        if (len < TLS_EXPLICIT || (!c->enc && len < TLS_EXPLICIT + TLS_GCM_TAG)) {
            AKP_ERR(c->prov, AKP_R_INVALID_AAD, "TLS record length %zu too short", len);
            return 0;
        }
        len -= TLS_EXPLICIT + (c->enc ? 0 : TLS_GCM_TAG);
        c->tls_aad[11] = (unsigned char)(len >> 8);
        c->tls_aad[12] = (unsigned char)len;
        c->tls_aad_len = TLS_AAD_LEN;
        c->tls_pad = TLS_GCM_TAG;
    }
    if ((p = param_at_const(params, at[K_AEAD_TLS1_IV_FIXED])) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL) {
            AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "tlsivfixed");
            return 0;
        }
        if (p->data_size == (size_t)-1 || p->data_size == c->ivlen) {
            memcpy(c->aiv, p->data, c->ivlen);      /* the whole IV */
        } else {
            if (p->data_size < TLS_GCM_FIXED || c->ivlen < p->data_size + TLS_EXPLICIT) {
                AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "tlsivfixed of %zu bytes",
                        p->data_size);
                return 0;
            }
            memcpy(c->aiv, p->data, p->data_size);
            if (c->enc && !akp_random(c->aiv + p->data_size, c->ivlen - p->data_size)) {
                AKP_ERR(c->prov, AKP_R_AESKIT_ERROR, "random invocation field");
                return 0;
            }
        }
        c->iv_gen = 1;
        c->iv_state = IV_BUFFERED;
    }
    if ((p = param_at_const(params, at[K_AEAD_TLS1_SET_IV_INV])) != NULL) {
        if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING || !c->iv_gen
            || !c->key_set || c->enc || p->data_size > c->ivlen) {
            AKP_ERR(c->prov, AKP_R_BAD_STATE, "tlsivinv needs a decrypting context with a fixed iv");
            return 0;
        }
        memcpy(c->aiv + c->ivlen - p->data_size, p->data, p->data_size);
        if (!gcm_start(c, c->aiv))
            return 0;
    }
    return 1;
}

/* ---- CCM ------------------------------------------------------------------------ */

static size_t ccm_ivlen(const AKP_CIPHER *c) { return 15 - c->L; }

static void ccm_reset_msg(AKP_CIPHER *c)
{
    c->len_set = 0;
    c->aad_len = 0;
}

static int ccm_init(void *vctx, const unsigned char *key, size_t keylen,
                    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[], int enc)
{
    AKP_CIPHER *c = vctx;
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != ccm_ivlen(c)) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "CCM nonce of %zu bytes, expected %zu",
                    ivlen, ccm_ivlen(c));
            return 0;
        }
        memcpy(c->aiv, iv, ivlen);
        c->ccm_iv_set = 1;
        ccm_reset_msg(c);
    }
    if (key != NULL && !set_key(c, key, keylen))
        return 0;
    return ccm_set_ctx_params(c, params);
}

static int ccm_einit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return ccm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int ccm_dinit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return ccm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int ccm_len_fits(const AKP_CIPHER *c, size_t len)
{
    return c->L >= sizeof(size_t) || (uint64_t)len < ((uint64_t)1 << (8 * c->L));
}

static int ccm_add_aad(AKP_CIPHER *c, const unsigned char *in, size_t inl)
{
    if (inl == 0)
        return 1;
    if (c->aad_len + inl > c->aad_cap) {
        size_t cap = (c->aad_len + inl) * 2 + 64;
        unsigned char *n = akp_zalloc(cap);
        if (n == NULL) {
            AKP_ERR(c->prov, AKP_R_MALLOC_FAILURE, "aad buffer");
            return 0;
        }
        if (c->aad_len > 0)
            memcpy(n, c->aad, c->aad_len);
        akp_free(c->aad, c->aad_cap);
        c->aad = n;
        c->aad_cap = cap;
    }
    memcpy(c->aad + c->aad_len, in, inl);
    c->aad_len += inl;
    return 1;
}

/* The whole message at once (CCM cannot stream). */
static int ccm_message(AKP_CIPHER *c, unsigned char *out, const unsigned char *in, size_t len)
{
    int st;
    if (c->len_set && c->msg_len != len) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "CCM message of %zu bytes, %zu announced",
                len, c->msg_len);
        return 0;
    }
    if (!ccm_len_fits(c, len)) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "message too long for L=%zu", c->L);
        return 0;
    }
    if (c->enc) {
        st = pg_ccm_seal(&c->key->u.aes, out, c->tag, c->M, in, len, c->aiv, ccm_ivlen(c),
                         c->aad, c->aad_len);
        if (st != 0) {
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
        c->tag_set = 1;
        c->len_set = 1;
        c->msg_len = len;
        return 1;
    }
    if (!c->tag_set) {
        AKP_ERR(c->prov, AKP_R_INVALID_TAG, "no tag set before the CCM ciphertext");
        return 0;
    }
    st = pg_ccm_open(&c->key->u.aes, out, in, len, c->tag, c->M, c->aiv, ccm_ivlen(c),
                     c->aad, c->aad_len);
    c->ccm_iv_set = 0;
    c->tag_set = 0;
    ccm_reset_msg(c);
    if (st != 0) {
        pg_memzero(out, len);
        AKP_ERR_AK(c->prov, pg_is_auth_failure(st) ? AKP_R_TAG_MISMATCH : AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    return 1;
}

static int ccm_tls(AKP_CIPHER *c, unsigned char *out, size_t *outl,
                   const unsigned char *in, size_t len)
{
    size_t plen;
    int st;
    *outl = 0;
    if (in == NULL || out != in || len < TLS_EXPLICIT + c->M) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "TLS record must be in place");
        return 0;
    }
    if (c->enc)
        memcpy(out, c->tls_aad, TLS_EXPLICIT);  /* explicit nonce = sequence number */
    memcpy(c->aiv + TLS_GCM_FIXED, in, TLS_EXPLICIT);
    plen = len - TLS_EXPLICIT - c->M;
    if (!ccm_len_fits(c, plen)) {
        AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "record too long");
        return 0;
    }
    in += TLS_EXPLICIT;
    out += TLS_EXPLICIT;
    if (c->enc)
        st = pg_ccm_seal(&c->key->u.aes, out, out + plen, c->M, in, plen, c->aiv, ccm_ivlen(c),
                         c->tls_aad, c->tls_aad_len);
    else
        st = pg_ccm_open(&c->key->u.aes, out, in, plen, in + plen, c->M, c->aiv, ccm_ivlen(c),
                         c->tls_aad, c->tls_aad_len);
    if (st != 0) {
        if (!c->enc)
            pg_memzero(out, plen);
        AKP_ERR_AK(c->prov, pg_is_auth_failure(st) ? AKP_R_TAG_MISMATCH : AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    *outl = c->enc ? len : plen;
    return 1;
}

static int ccm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    *outl = 0;
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    if (out != NULL && outsize < inl) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", inl);
        return 0;
    }
    if (c->tls_aad_len != 0)
        return ccm_tls(c, out, outl, in, inl);
    if (in == NULL && out != NULL)
        return 1;
    if (!c->ccm_iv_set) {
        AKP_ERR(c->prov, AKP_R_NO_IV_SET, "no nonce set (or the message is done)");
        return 0;
    }
    if (out == NULL) {
        if (in == NULL) {               /* announce the message length */
            if (!ccm_len_fits(c, inl)) {
                AKP_ERR(c->prov, AKP_R_INVALID_DATA_LENGTH, "message too long for L=%zu", c->L);
                return 0;
            }
            c->msg_len = inl;
            c->len_set = 1;
            return 1;
        }
        if (inl > 0 && !c->len_set) {
            AKP_ERR(c->prov, AKP_R_BAD_STATE, "CCM AAD before the message length");
            return 0;
        }
        return ccm_add_aad(c, in, inl);
    }
    if (!ccm_message(c, out, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int ccm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    unsigned char dummy = 0;
    (void)out;
    (void)outsize;
    *outl = 0;
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    /* a message never given data is the empty message */
    if (c->ccm_iv_set && (!c->enc || !c->tag_set) && c->tls_aad_len == 0)
        return ccm_message(c, &dummy, &dummy, 0);
    return 1;
}

static int ccm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    if (in == NULL)
        return ccm_final(vctx, out, outl, outsize);
    return ccm_update(vctx, out, outl, outsize, in, inl);
}

static int ccm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    const OSSL_PARAM *p;
    size_t sz;
    static const char *const names[] = {
        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED
    };
    enum { K_KEYLEN, K_AEAD_TAG, K_AEAD_IVLEN, K_AEAD_TLS1_AAD, K_AEAD_TLS1_IV_FIXED, K_N };
    int at[K_N];
    if (params == NULL)
        return 1;
    params_index(params, names, K_N, at);
    if (!check_keylen_param(c, param_at_const(params, at[K_KEYLEN])))
        return 0;
    if ((p = param_at_const(params, at[K_AEAD_TAG])) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || (p->data_size & 1) || p->data_size < 4
            || p->data_size > 16) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG_LENGTH, "CCM tag of %zu bytes (4..16, even)",
                    p->data_size);
            return 0;
        }
        if (p->data != NULL) {
            if (c->enc) {
                AKP_ERR(c->prov, AKP_R_INVALID_TAG, "tag set while encrypting");
                return 0;
            }
            memcpy(c->tag, p->data, p->data_size);
            c->tag_set = 1;
        }
        c->M = p->data_size;
    }
    if ((p = param_at_const(params, at[K_AEAD_IVLEN])) != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz < 7 || sz > 13) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "CCM nonce length (7..13)");
            return 0;
        }
        if (c->L != 15 - sz) {
            c->L = 15 - sz;
            c->ccm_iv_set = 0;
        }
    }
    if ((p = param_at_const(params, at[K_AEAD_TLS1_AAD])) != NULL) {
        size_t len;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != TLS_AAD_LEN
            || p->data == NULL) {
            AKP_ERR(c->prov, AKP_R_INVALID_AAD, "TLS AAD must be 13 bytes");
            return 0;
        }
        memcpy(c->tls_aad, p->data, TLS_AAD_LEN);
        len = (size_t)c->tls_aad[11] << 8 | c->tls_aad[12];
        if (len < TLS_EXPLICIT || (!c->enc && len < TLS_EXPLICIT + c->M)) {
            AKP_ERR(c->prov, AKP_R_INVALID_AAD, "TLS record length %zu too short", len);
            return 0;
        }
        len -= TLS_EXPLICIT + (c->enc ? 0 : c->M);
        c->tls_aad[11] = (unsigned char)(len >> 8);
        c->tls_aad[12] = (unsigned char)len;
        c->tls_aad_len = TLS_AAD_LEN;
        c->tls_pad = c->M;
    }
    if ((p = param_at_const(params, at[K_AEAD_TLS1_IV_FIXED])) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL
            || p->data_size != TLS_GCM_FIXED) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "CCM tlsivfixed must be 4 bytes");
            return 0;
        }
        memcpy(c->aiv, p->data, TLS_GCM_FIXED);
    }
    return 1;
}

/* ---- OCB (RFC 7253), the default provider's protocol --------------------------------- *
 * IV 1..15 bytes (default 12), settable by AEAD_IVLEN before the IV is
 * given; the tag length 1..16 (default 16) is set by AEAD_TAG with NULL
 * data, a decrypting tag by AEAD_TAG with data of that length, both before
 * the message's first update; AAD by update with out == NULL, before the
 * data (aeskit's order; OpenSSL's own OCB also takes AAD after data).  The
 * data streams through update: the whole blocks go out at once, the last
 * partial block at final (so the block size EVP sees is 16, as OpenSSL's).
 * The IV, IV state, tag and tag length are the GCM fields.
 */
#define OCB_IV_MAX 15

static int ocb_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int ocb_init(void *vctx, const unsigned char *key, size_t keylen,
                    const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[], int enc)
{
    AKP_CIPHER *c = vctx;
    c->enc = enc;
    if (!aead_init_key_iv(c, key, keylen, iv, ivlen, OCB_IV_MAX, "OCB"))
        return 0;
    return ocb_set_ctx_params(c, params);
}

static int ocb_einit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return ocb_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int ocb_dinit(void *vctx, const unsigned char *key, size_t keylen,
                     const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    return ocb_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* Brings the message to IV_ACTIVE (the aeskit stream started). */
static int ocb_ready(AKP_CIPHER *c)
{
    int st;
    if (!c->key_set) {
        AKP_ERR(c->prov, AKP_R_NO_KEY_SET, "no key set");
        return 0;
    }
    if (c->iv_state == IV_FINISHED) {
        AKP_ERR(c->prov, AKP_R_BAD_STATE, "message finished: set a new iv");
        return 0;
    }
    if (c->iv_state == IV_NONE) {
        AKP_ERR(c->prov, AKP_R_NO_IV_SET, "no iv set");
        return 0;
    }
    if (c->iv_state == IV_BUFFERED) {
        st = pg_ocb_start(&c->ocb, &c->key->u.ocb, c->enc, c->aiv, c->ivlen, c->taglen);
        if (st != 0) {
            c->iv_state = IV_FINISHED;
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
        c->ocb_held = 0;
        c->iv_state = IV_ACTIVE;
    }
    return 1;
}

static int ocb_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    AKP_CIPHER *c = vctx;
    size_t w = 0, need;
    int st;
    *outl = 0;
    if (inl == 0)
        return 1;
    if (in == NULL) {
        AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "NULL input");
        return 0;
    }
    if (!ocb_ready(c))
        return 0;
    if (out == NULL) {
        st = pg_ocb_update_aad(&c->ocb, in, inl);
        if (st != 0) {
            AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
            return 0;
        }
        return 1;
    }
    need = inl / 16 * 16 + (inl % 16 + c->ocb_held) / 16 * 16;
    if (outsize < need) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", need);
        return 0;
    }
    /* In place with bytes held (out == in, as EVP callers do): aeskit's
     * in-place rule is out + held == in, the input moved up by held bytes
     * (the output buffer has room: it holds need <= inl + held bytes, and
     * EVP passes inl + 16). */
    if (need && out + c->ocb_held != in && out < in + inl && in < out + need) {
        if (outsize < inl + c->ocb_held) {
            AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "in place needs %zu bytes",
                    inl + c->ocb_held);
            return 0;
        }
        memmove(out + c->ocb_held, in, inl);
        in = out + c->ocb_held;
    }
    st = pg_ocb_update(&c->ocb, out, outsize, &w, in, inl);
    if (st != 0) {
        AKP_ERR_AK(c->prov, AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    c->ocb_held = (c->ocb_held + inl) % 16;
    *outl = w;
    return 1;
}

static int ocb_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    AKP_CIPHER *c = vctx;
    size_t w = 0;
    int st;
    *outl = 0;
    if (!c->enc && !c->tag_set) {
        /* checked before starting: a missing tag leaves the message open */
        AKP_ERR(c->prov, AKP_R_INVALID_TAG, "no tag set before final");
        return 0;
    }
    if (!ocb_ready(c))
        return 0;
    if (outsize < c->ocb_held) {
        AKP_ERR(c->prov, AKP_R_OUTPUT_BUFFER_TOO_SMALL, "need %zu bytes", c->ocb_held);
        return 0;
    }
    if (c->enc)
        st = pg_ocb_finish(&c->ocb, out, outsize, &w, c->tag, c->taglen);
    else
        st = pg_ocb_finish_verify(&c->ocb, out, outsize, &w, c->tag, c->taglen);
    c->iv_state = IV_FINISHED;
    c->ocb_held = 0;
    if (st != 0) {
        pg_ocb_ctx_wipe(&c->ocb);
        AKP_ERR_AK(c->prov, pg_is_auth_failure(st) ? AKP_R_TAG_MISMATCH : AKP_R_AESKIT_ERROR, st);
        return 0;
    }
    *outl = w;
    return 1;
}

static int ocb_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    if (in == NULL)
        return ocb_final(vctx, out, outl, outsize);
    return ocb_update(vctx, out, outl, outsize, in, inl);
}

static int ocb_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    const OSSL_PARAM *p;
    size_t sz;
    static const char *const names[] = {
        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_IVLEN
    };
    enum { K_KEYLEN, K_AEAD_TAG, K_AEAD_IVLEN, K_N };
    int at[K_N];
    if (params == NULL)
        return 1;
    params_index(params, names, K_N, at);
    if (!check_keylen_param(c, param_at_const(params, at[K_KEYLEN])))
        return 0;
    if ((p = param_at_const(params, at[K_AEAD_TAG])) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > 16) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG, "OCB tag of %zu bytes (1..16)", p->data_size);
            return 0;
        }
        if (p->data == NULL) {
            /* the tag length only: it is part of the nonce block, so not
               once the message has started */
            if (c->iv_state == IV_ACTIVE && p->data_size != c->taglen) {
                AKP_ERR(c->prov, AKP_R_BAD_STATE, "OCB tag length changed during a message");
                return 0;
            }
            c->taglen = p->data_size;
        } else {
            if (c->enc || p->data_size != c->taglen) {
                AKP_ERR(c->prov, AKP_R_INVALID_TAG,
                        "OCB tag: decrypting only, of the tag length (%zu)", c->taglen);
                return 0;
            }
            memcpy(c->tag, p->data, p->data_size);
            c->tag_set = 1;
        }
    }
    if ((p = param_at_const(params, at[K_AEAD_IVLEN])) != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz == 0 || sz > OCB_IV_MAX) {
            AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "OCB iv length (1..15)");
            return 0;
        }
        if (sz != c->ivlen) {
            c->ivlen = sz;
            c->iv_state = IV_NONE;  /* an IV of the new length must follow */
        }
    }
    return 1;
}

/* ---- AEAD parameters (GCM, CCM and OCB) -------------------------------------------- */

static int aead_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    AKP_CIPHER *c = vctx;
    OSSL_PARAM *p;
    int gcm = c->mode == EVP_CIPH_GCM_MODE, ocb = c->mode == EVP_CIPH_OCB_MODE;
    size_t ivlen = gcm || ocb ? c->ivlen : ccm_ivlen(c);
    static const char *const names[] = {
        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_IVLEN, OSSL_CIPHER_PARAM_AEAD_TAGLEN, OSSL_CIPHER_PARAM_IV, OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN
    };
    enum { K_KEYLEN, K_IVLEN, K_AEAD_TAGLEN, K_IV, K_UPDATED_IV, K_AEAD_TLS1_AAD_PAD, K_AEAD_TAG, K_AEAD_TLS1_GET_IV_GEN, K_N };
    int at[K_N];

    params_index(params, names, K_N, at);

    if ((p = param_at(params, at[K_KEYLEN])) != NULL
        && !OSSL_PARAM_set_size_t(p, c->keylen))
        goto bad;
    if ((p = param_at(params, at[K_IVLEN])) != NULL
        && !OSSL_PARAM_set_size_t(p, ivlen))
        goto bad;
    if ((p = param_at(params, at[K_AEAD_TAGLEN])) != NULL
        && !OSSL_PARAM_set_size_t(p, gcm ? (c->taglen ? c->taglen : 16) : ocb ? c->taglen : c->M))
        goto bad;
    if (at[K_IV] >= 0 || at[K_UPDATED_IV] >= 0) {
        for (p = params; p->key != NULL; p++) {
            if (strcmp(p->key, OSSL_CIPHER_PARAM_IV) != 0
                && strcmp(p->key, OSSL_CIPHER_PARAM_UPDATED_IV) != 0)
                continue;
            if ((gcm || ocb) && c->iv_state == IV_NONE) {
                AKP_ERR(c->prov, AKP_R_NO_IV_SET, "no iv set");
                return 0;
            }
            if (ivlen > p->data_size) {
                AKP_ERR(c->prov, AKP_R_INVALID_IV_LENGTH, "iv buffer too small");
                return 0;
            }
            if (!OSSL_PARAM_set_octet_string(p, c->aiv, ivlen)
                && !OSSL_PARAM_set_octet_ptr(p, c->aiv, ivlen))
                goto bad;
        }
    }
    if ((p = param_at(params, at[K_AEAD_TLS1_AAD_PAD])) != NULL
        && !OSSL_PARAM_set_size_t(p, c->tls_pad))
        goto bad;
    if ((p = param_at(params, at[K_AEAD_TAG])) != NULL) {
        size_t sz = p->data_size;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL) {
            AKP_ERR(c->prov, AKP_R_INVALID_TAG, "tag buffer");
            return 0;
        }
        if (ocb) {
            if (sz != c->taglen || !c->enc || c->iv_state != IV_FINISHED) {
                AKP_ERR(c->prov, AKP_R_INVALID_TAG, "no OCB tag to return (encrypt, final, tag length)");
                return 0;
            }
        } else if (gcm) {
            if (sz == 0 || sz > 16 || !c->enc || c->taglen == 0 || c->iv_state != IV_FINISHED) {
                AKP_ERR(c->prov, AKP_R_INVALID_TAG, "no tag to return (encrypt, final, 1..16 bytes)");
                return 0;
            }
        } else {
            if (!c->enc || !c->tag_set || sz != c->M) {
                AKP_ERR(c->prov, AKP_R_INVALID_TAG, "no CCM tag to return (or size is not M)");
                return 0;
            }
            c->tag_set = 0;
            c->ccm_iv_set = 0;
            ccm_reset_msg(c);
        }
        memcpy(p->data, c->tag, sz);
        p->return_size = sz;
    }
    if ((p = param_at(params, at[K_AEAD_TLS1_GET_IV_GEN])) != NULL) {
        if (!gcm) {
            AKP_ERR(c->prov, AKP_R_NOT_SUPPORTED, "tlsivgen is GCM only");
            return 0;
        }
        if (!gcm_ivgen(c, p))
            return 0;
    }
    return 1;
bad:
    AKP_ERR(c->prov, AKP_R_INVALID_PARAMETER, "could not return a parameter");
    return 0;
}

/* ---- parameter tables ---------------------------------------------------------------- */

static const OSSL_PARAM alg_gettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *alg_gettable_params(void *provctx)
{
    (void)provctx;
    return alg_gettable;
}

static int alg_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t blk,
                          size_t ivlen, int aead, int custom_iv)
{
    OSSL_PARAM *p;
    int cts = mode == AKP_CTS_MODE;
    mode &= EVP_CIPH_MODE; /* AKP_*_MODE: the mode OpenSSL reports */
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL
        && !OSSL_PARAM_set_uint(p, mode))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, keylen))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL
        && !OSSL_PARAM_set_size_t(p, ivlen))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != NULL
        && !OSSL_PARAM_set_size_t(p, blk))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) != NULL
        && !OSSL_PARAM_set_int(p, aead))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) != NULL
        && !OSSL_PARAM_set_int(p, custom_iv))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS)) != NULL
        && !OSSL_PARAM_set_int(p, cts))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) != NULL
        && !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) != NULL
        && !OSSL_PARAM_set_int(p, 0))
        return 0;
    return 1;
}

static const OSSL_PARAM block_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM block_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_TLS_VERSION, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM aead_gettable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM aead_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM ocb_settable_ctx[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *ocb_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return ocb_settable_ctx;
}
static const OSSL_PARAM *block_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return block_gettable_ctx;
}
static const OSSL_PARAM *block_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return block_settable_ctx;
}
static const OSSL_PARAM *aead_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return aead_gettable_ctx;
}
static const OSSL_PARAM *aead_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return aead_settable_ctx;
}

/* ---- dispatch tables ---------------------------------------------------------------- */

#define FN(id, f) { id, (void (*)(void))(f) }

#define CIPHER(name, mode, kbits, blk, ivlen, aead, civ, einit, dinit, upd, fin, ciph, getc, setc, \
               gettab, settab)                                                                    \
    static void *name##_newctx(void *provctx) { return akp_newctx(provctx, mode, (kbits) / 8); } \
    static int name##_get_params(OSSL_PARAM params[])                                           \
    {                                                                                           \
        return alg_get_params(params, mode, (kbits) / 8, blk, ivlen, aead, civ);               \
    }                                                                                           \
    static const OSSL_DISPATCH name##_functions[] = {                                           \
        FN(OSSL_FUNC_CIPHER_NEWCTX, name##_newctx),                                             \
        FN(OSSL_FUNC_CIPHER_FREECTX, akp_freectx),                                              \
        FN(OSSL_FUNC_CIPHER_DUPCTX, akp_dupctx),                                                \
        FN(OSSL_FUNC_CIPHER_ENCRYPT_INIT, einit),                                               \
        FN(OSSL_FUNC_CIPHER_DECRYPT_INIT, dinit),                                               \
        FN(OSSL_FUNC_CIPHER_UPDATE, upd),                                                       \
        FN(OSSL_FUNC_CIPHER_FINAL, fin),                                                        \
        FN(OSSL_FUNC_CIPHER_CIPHER, ciph),                                                      \
        FN(OSSL_FUNC_CIPHER_GET_PARAMS, name##_get_params),                                     \
        FN(OSSL_FUNC_CIPHER_GETTABLE_PARAMS, alg_gettable_params),                              \
        FN(OSSL_FUNC_CIPHER_GET_CTX_PARAMS, getc),                                              \
        FN(OSSL_FUNC_CIPHER_SET_CTX_PARAMS, setc),                                              \
        FN(OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, gettab),                                       \
        FN(OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, settab),                                       \
        { 0, NULL }                                                                             \
    };

#define BLOCK(name, mode, kbits, blk, ivlen, upd, fin, ciph)                                    \
    CIPHER(name, mode, kbits, blk, ivlen, 0, 0, block_einit, block_dinit, upd, fin, ciph,       \
           block_get_ctx_params, block_set_ctx_params, block_gettable_ctx_params,               \
           block_settable_ctx_params)
#define XTS(name, kbits)                                                                        \
    CIPHER(name, EVP_CIPH_XTS_MODE, kbits, 1, 16, 0, 1, block_einit, block_dinit, xts_update,   \
           stream_final, xts_update, block_get_ctx_params, block_set_ctx_params,                \
           block_gettable_ctx_params, block_settable_ctx_params)
#define GCM(name, kbits)                                                                        \
    CIPHER(name, EVP_CIPH_GCM_MODE, kbits, 1, 12, 1, 1, gcm_einit, gcm_dinit, gcm_update,       \
           gcm_final, gcm_cipher, aead_get_ctx_params, gcm_set_ctx_params,                      \
           aead_gettable_ctx_params, aead_settable_ctx_params)
#define WRAP(name, mode, kbits, ivlen)                                                          \
    CIPHER(name, mode, kbits, 8, ivlen, 0, 1, wrap_einit, wrap_dinit, wrap_update, wrap_final,   \
           wrap_update, block_get_ctx_params, block_set_ctx_params, block_gettable_ctx_params,  \
           block_settable_ctx_params)
#define SIV(name, kbits)                                                                        \
    CIPHER(name, EVP_CIPH_SIV_MODE, kbits, 1, 0, 1, 1, siv_einit, siv_dinit, siv_update,         \
           siv_final, siv_update, siv_get_ctx_params, siv_set_ctx_params,                       \
           siv_gettable_ctx_params, siv_settable_ctx_params)
#define OCB(name, kbits)                                                                        \
    CIPHER(name, EVP_CIPH_OCB_MODE, kbits, 16, 12, 1, 1, ocb_einit, ocb_dinit, ocb_update,      \
           ocb_final, ocb_cipher, aead_get_ctx_params, ocb_set_ctx_params,                      \
           aead_gettable_ctx_params, ocb_settable_ctx_params)
#define CCM(name, kbits)                                                                        \
    CIPHER(name, EVP_CIPH_CCM_MODE, kbits, 1, 7, 1, 1, ccm_einit, ccm_dinit, ccm_update,        \
           ccm_final, ccm_cipher, aead_get_ctx_params, ccm_set_ctx_params,                      \
           aead_gettable_ctx_params, aead_settable_ctx_params)

BLOCK(aes128ecb, EVP_CIPH_ECB_MODE, 128, 16, 0, block_update, block_final, block_cipher)
BLOCK(aes192ecb, EVP_CIPH_ECB_MODE, 192, 16, 0, block_update, block_final, block_cipher)
BLOCK(aes256ecb, EVP_CIPH_ECB_MODE, 256, 16, 0, block_update, block_final, block_cipher)
BLOCK(aes128cbc, EVP_CIPH_CBC_MODE, 128, 16, 16, block_update, block_final, block_cipher)
BLOCK(aes192cbc, EVP_CIPH_CBC_MODE, 192, 16, 16, block_update, block_final, block_cipher)
BLOCK(aes256cbc, EVP_CIPH_CBC_MODE, 256, 16, 16, block_update, block_final, block_cipher)
BLOCK(aes128ctr, EVP_CIPH_CTR_MODE, 128, 1, 16, ctr_update, stream_final, ctr_update)
BLOCK(aes192ctr, EVP_CIPH_CTR_MODE, 192, 1, 16, ctr_update, stream_final, ctr_update)
BLOCK(aes256ctr, EVP_CIPH_CTR_MODE, 256, 1, 16, ctr_update, stream_final, ctr_update)
XTS(aes128xts, 256)
XTS(aes256xts, 512)
GCM(aes128gcm, 128)
GCM(aes192gcm, 192)
GCM(aes256gcm, 256)
OCB(aes128ocb, 128)
OCB(aes192ocb, 192)
OCB(aes256ocb, 256)
CCM(aes128ccm, 128)
CCM(aes192ccm, 192)
CCM(aes256ccm, 256)
BLOCK(aes128cfb, EVP_CIPH_CFB_MODE, 128, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes192cfb, EVP_CIPH_CFB_MODE, 192, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes256cfb, EVP_CIPH_CFB_MODE, 256, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes128cfb8, AKP_CFB8_MODE, 128, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes192cfb8, AKP_CFB8_MODE, 192, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes256cfb8, AKP_CFB8_MODE, 256, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes128ofb, EVP_CIPH_OFB_MODE, 128, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes192ofb, EVP_CIPH_OFB_MODE, 192, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes256ofb, EVP_CIPH_OFB_MODE, 256, 1, 16, fb_update, stream_final, fb_update)
BLOCK(aes128cts, AKP_CTS_MODE, 128, 16, 16, cts_update, stream_final, cts_update)
BLOCK(aes192cts, AKP_CTS_MODE, 192, 16, 16, cts_update, stream_final, cts_update)
BLOCK(aes256cts, AKP_CTS_MODE, 256, 16, 16, cts_update, stream_final, cts_update)
SIV(aes128siv, 256)
SIV(aes192siv, 384)
SIV(aes256siv, 512)
WRAP(aes128wrap, EVP_CIPH_WRAP_MODE, 128, 8)
WRAP(aes192wrap, EVP_CIPH_WRAP_MODE, 192, 8)
WRAP(aes256wrap, EVP_CIPH_WRAP_MODE, 256, 8)
WRAP(aes128wrappad, AKP_KWP_MODE, 128, 4)
WRAP(aes192wrappad, AKP_KWP_MODE, 192, 4)
WRAP(aes256wrappad, AKP_KWP_MODE, 256, 4)

#define PROPS "provider=aeskit"
const OSSL_ALGORITHM akp_ciphers[] = {
    { "AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", PROPS, aes128gcm_functions, NULL },
    { "AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", PROPS, aes192gcm_functions, NULL },
    { "AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", PROPS, aes256gcm_functions, NULL },
    { "AES-128-CCM:id-aes128-CCM:2.16.840.1.101.3.4.1.7", PROPS, aes128ccm_functions, NULL },
    { "AES-192-CCM:id-aes192-CCM:2.16.840.1.101.3.4.1.27", PROPS, aes192ccm_functions, NULL },
    { "AES-256-CCM:id-aes256-CCM:2.16.840.1.101.3.4.1.47", PROPS, aes256ccm_functions, NULL },
    { "AES-128-CTR", PROPS, aes128ctr_functions, NULL },
    { "AES-192-CTR", PROPS, aes192ctr_functions, NULL },
    { "AES-256-CTR", PROPS, aes256ctr_functions, NULL },
    { "AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2", PROPS, aes128cbc_functions, NULL },
    { "AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22", PROPS, aes192cbc_functions, NULL },
    { "AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", PROPS, aes256cbc_functions, NULL },
    { "AES-128-ECB:2.16.840.1.101.3.4.1.1", PROPS, aes128ecb_functions, NULL },
    { "AES-192-ECB:2.16.840.1.101.3.4.1.21", PROPS, aes192ecb_functions, NULL },
    { "AES-256-ECB:2.16.840.1.101.3.4.1.41", PROPS, aes256ecb_functions, NULL },
    { "AES-128-XTS:1.3.111.2.1619.0.1.1", PROPS, aes128xts_functions, NULL },
    { "AES-256-XTS:1.3.111.2.1619.0.1.2", PROPS, aes256xts_functions, NULL },
    /* issue 15: the modes OpenSSL 3.0 names */
    { "AES-128-OCB", PROPS, aes128ocb_functions, NULL },
    { "AES-192-OCB", PROPS, aes192ocb_functions, NULL },
    { "AES-256-OCB", PROPS, aes256ocb_functions, NULL },
    { "AES-128-SIV", PROPS, aes128siv_functions, NULL },
    { "AES-192-SIV", PROPS, aes192siv_functions, NULL },
    { "AES-256-SIV", PROPS, aes256siv_functions, NULL },
    { "AES-128-CFB:2.16.840.1.101.3.4.1.4", PROPS, aes128cfb_functions, NULL },
    { "AES-192-CFB:2.16.840.1.101.3.4.1.24", PROPS, aes192cfb_functions, NULL },
    { "AES-256-CFB:2.16.840.1.101.3.4.1.44", PROPS, aes256cfb_functions, NULL },
    { "AES-128-CFB8", PROPS, aes128cfb8_functions, NULL },
    { "AES-192-CFB8", PROPS, aes192cfb8_functions, NULL },
    { "AES-256-CFB8", PROPS, aes256cfb8_functions, NULL },
    { "AES-128-OFB:2.16.840.1.101.3.4.1.3", PROPS, aes128ofb_functions, NULL },
    { "AES-192-OFB:2.16.840.1.101.3.4.1.23", PROPS, aes192ofb_functions, NULL },
    { "AES-256-OFB:2.16.840.1.101.3.4.1.43", PROPS, aes256ofb_functions, NULL },
    { "AES-128-CBC-CTS", PROPS, aes128cts_functions, NULL },
    { "AES-192-CBC-CTS", PROPS, aes192cts_functions, NULL },
    { "AES-256-CBC-CTS", PROPS, aes256cts_functions, NULL },
    { "AES-128-WRAP:id-aes128-wrap:AES128-WRAP:2.16.840.1.101.3.4.1.5", PROPS,
      aes128wrap_functions, NULL },
    { "AES-192-WRAP:id-aes192-wrap:AES192-WRAP:2.16.840.1.101.3.4.1.25", PROPS,
      aes192wrap_functions, NULL },
    { "AES-256-WRAP:id-aes256-wrap:AES256-WRAP:2.16.840.1.101.3.4.1.45", PROPS,
      aes256wrap_functions, NULL },
    { "AES-128-WRAP-PAD:id-aes128-wrap-pad:AES128-WRAP-PAD:2.16.840.1.101.3.4.1.8", PROPS,
      aes128wrappad_functions, NULL },
    { "AES-192-WRAP-PAD:id-aes192-wrap-pad:AES192-WRAP-PAD:2.16.840.1.101.3.4.1.28", PROPS,
      aes192wrappad_functions, NULL },
    { "AES-256-WRAP-PAD:id-aes256-wrap-pad:AES256-WRAP-PAD:2.16.840.1.101.3.4.1.48", PROPS,
      aes256wrappad_functions, NULL },
    { NULL, NULL, NULL, NULL }
};
