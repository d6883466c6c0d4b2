/*
 * diff.c - the aeskit provider against OpenSSL's default provider, through
 * EVP only.
 *
 * 1. Random messages: every cipher the provider has, random keys, IVs (GCM:
 *    1..64 bytes, mostly 12; CCM: 7..13), lengths 0..4096, AAD 0..300 bytes
 *    in random pieces, every tag length (GCM 1..16, CCM 4..16 even), CBC with
 *    and without padding, in-place or not, one-shot or streamed in random
 *    pieces through EVP_CipherUpdate.  Ciphertext and tag must equal the
 *    default provider's; aeskit must decrypt the default provider's output,
 *    streamed (GCM hands out plaintext in every update and checks the tag at
 *    final) and reject a flipped tag bit.  CMAC and GMAC likewise.
 * 2. TLS 1.2 records (GCM and CCM, as libssl drives them: tlsivfixed,
 *    tlsaad, one in-place update per record): records sealed by one
 *    provider open with the other, both ways.
 * 3. Bad parameters: each must fail with an error on OpenSSL's queue.
 *
 * usage: akp_diff [--provider-path DIR] [--iterations N] [--seed S]
 * exit 0 all equal, 1 a difference, 77 the provider cannot load.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "akp_rand.h"

static OSSL_LIB_CTX *lib;
static int failures, checks;

#define FAIL(...) do { failures++; fprintf(stderr, "FAIL: " __VA_ARGS__); fputc('\n', stderr); } while (0)

typedef struct {
    const char *name;
    int mode;           /* EVP_CIPH_*_MODE */
    size_t keylen;
} ALG;

static const ALG algs[] = {
    { "AES-128-GCM", EVP_CIPH_GCM_MODE, 16 }, { "AES-192-GCM", EVP_CIPH_GCM_MODE, 24 },
    { "AES-256-GCM", EVP_CIPH_GCM_MODE, 32 }, { "AES-128-CCM", EVP_CIPH_CCM_MODE, 16 },
    { "AES-192-CCM", EVP_CIPH_CCM_MODE, 24 }, { "AES-256-CCM", EVP_CIPH_CCM_MODE, 32 },
    { "AES-128-CTR", EVP_CIPH_CTR_MODE, 16 }, { "AES-192-CTR", EVP_CIPH_CTR_MODE, 24 },
    { "AES-256-CTR", EVP_CIPH_CTR_MODE, 32 }, { "AES-128-CBC", EVP_CIPH_CBC_MODE, 16 },
    { "AES-192-CBC", EVP_CIPH_CBC_MODE, 24 }, { "AES-256-CBC", EVP_CIPH_CBC_MODE, 32 },
    { "AES-128-ECB", EVP_CIPH_ECB_MODE, 16 }, { "AES-192-ECB", EVP_CIPH_ECB_MODE, 24 },
    { "AES-256-ECB", EVP_CIPH_ECB_MODE, 32 }, { "AES-128-XTS", EVP_CIPH_XTS_MODE, 32 },
    { "AES-256-XTS", EVP_CIPH_XTS_MODE, 64 },
};
#define NALGS (sizeof(algs) / sizeof(algs[0]))

static EVP_CIPHER *ca[NALGS], *cd[NALGS];     /* aeskit, default */

typedef struct {
    unsigned char key[64], iv[64], aad[512], tag[16];
    size_t ivlen, aadlen, taglen, len;
    int pad;
    const unsigned char *in;
} MSG;

/* Feeds n bytes through EVP_CipherUpdate in random pieces (or at once). */
static int feed(EVP_CIPHER_CTX *c, unsigned char *out, const unsigned char *in, size_t n,
                int pieces, int *outlen, int check_stream)
{
    size_t off = 0;
    *outlen = 0;
    while (off < n || (n == 0 && off == 0 && out != NULL)) {
        size_t k = pieces ? 1 + rndn(n - off < 700 ? n - off : 700) : n - off;
        int l = 0;
        if (n == 0)
            k = 0;
        if (!EVP_CipherUpdate(c, out ? out + *outlen : NULL, &l, in + off, (int)k))
            return 0;
        if (check_stream && out != NULL && (size_t)l != k)
            return -1;  /* GCM must release plaintext in every update */
        *outlen += l;
        off += k;
        if (n == 0)
            break;
    }
    return 1;
}

static int tag_early;   /* the last crypt() set the GCM tag before the data */

/* One encryption or decryption; returns the output length or -1. */
static int crypt(EVP_CIPHER *ciph, int mode, int enc, const MSG *m, const unsigned char *in,
                 unsigned char *out, unsigned char *tag_io, int pieces, int *stream_bad)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int total = -1, l, fl;
    if (!EVP_CipherInit_ex2(c, ciph, NULL, NULL, enc, NULL))
        goto done;
    if (mode == EVP_CIPH_GCM_MODE || mode == EVP_CIPH_CCM_MODE) {
        if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)m->ivlen, NULL) <= 0)
            goto done;
        if (mode == EVP_CIPH_CCM_MODE
            && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen,
                                   enc ? NULL : tag_io) <= 0)
            goto done;
    }
    if (!EVP_CipherInit_ex2(c, NULL, m->key, m->iv, enc, NULL))
        goto done;
    if (mode != EVP_CIPH_GCM_MODE && mode != EVP_CIPH_CCM_MODE)
        EVP_CIPHER_CTX_set_padding(c, m->pad);
    if (mode == EVP_CIPH_CCM_MODE && !EVP_CipherUpdate(c, NULL, &l, NULL, (int)m->len))
        goto done;
    if (m->aadlen > 0 || mode == EVP_CIPH_GCM_MODE) {
        if (!feed(c, NULL, m->aad, m->aadlen, pieces && mode == EVP_CIPH_GCM_MODE, &l, 0))
            goto done;
    }
    tag_early = mode == EVP_CIPH_GCM_MODE && !enc && (rnd() & 1);
    if (tag_early && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, tag_io) <= 0)
        goto done;      /* tag before the data (else after it, before final) */
    {
        int pieces_ok = pieces && mode != EVP_CIPH_CCM_MODE && mode != EVP_CIPH_XTS_MODE;
        int r = feed(c, out, in, m->len, pieces_ok, &l,
                     mode == EVP_CIPH_GCM_MODE || mode == EVP_CIPH_CTR_MODE);
        if (r == -1 && stream_bad)
            *stream_bad = 1;
        if (r <= 0)
            goto done;
    }
    if (mode == EVP_CIPH_GCM_MODE && !enc && !tag_early
        && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, tag_io) <= 0)
        goto done;
    if (!EVP_CipherFinal_ex(c, out + l, &fl))
        goto done;
    if (enc && (mode == EVP_CIPH_GCM_MODE || mode == EVP_CIPH_CCM_MODE)
        && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)m->taglen, tag_io) <= 0)
        goto done;
    total = l + fl;
done:
    EVP_CIPHER_CTX_free(c);
    return total;
}

static int gcm_tag_ok(size_t t) { return t == 4 || t == 8 || (t >= 12 && t <= 16); }

static void one_message(int it)
{
    size_t ai = rndn(NALGS);
    const ALG *a = &algs[ai];
    MSG m;
    unsigned char *pt, *ct_a, *ct_d, *back, tag_a[16], tag_d[16], tag_x[16];
    int inplace = (int)(rnd() & 1), pieces = (int)(rnd() & 1), la, ld, lb, sbad = 0;
    int aead = a->mode == EVP_CIPH_GCM_MODE || a->mode == EVP_CIPH_CCM_MODE;
    size_t ptlen;

    memset(&m, 0, sizeof(m));
    rbytes(m.key, a->keylen);
    if (a->mode == EVP_CIPH_XTS_MODE)
        m.key[0] = (unsigned char)(m.key[a->keylen / 2] ^ 1);    /* halves differ */
    m.pad = 1;
    m.len = rndn(4097);
    switch (a->mode) {
    case EVP_CIPH_GCM_MODE:
        m.ivlen = (rnd() & 3) ? 12 : 1 + rndn(64);
        m.taglen = 1 + rndn(16);
        m.aadlen = rndn(4) ? rndn(64) : rndn(301);
        break;
    case EVP_CIPH_CCM_MODE:
        m.ivlen = 7 + rndn(7);
        m.taglen = 4 + 2 * rndn(7);
        m.aadlen = rndn(3) ? rndn(64) : rndn(301);
        if (m.ivlen == 13 && m.len > 65535)
            m.len = 65535;
        break;
    case EVP_CIPH_XTS_MODE:
        m.ivlen = 16;
        if (m.len < 16)
            m.len = 16 + m.len;
        break;
    case EVP_CIPH_ECB_MODE:
    case EVP_CIPH_CBC_MODE:
        m.ivlen = a->mode == EVP_CIPH_CBC_MODE ? 16 : 0;
        m.pad = (int)(rnd() & 1);
        if (!m.pad)
            m.len &= ~(size_t)15;
        break;
    default:
        m.ivlen = 16;
    }
    rbytes(m.iv, m.ivlen);
    rbytes(m.aad, m.aadlen);
    pt = malloc(m.len + 32);
    ct_a = malloc(m.len + 32);
    ct_d = malloc(m.len + 32);
    back = malloc(m.len + 32);
    rbytes(pt, m.len);
    ptlen = m.len;

    /* encrypt: aeskit (maybe in place) vs default */
    ld = crypt(cd[ai], a->mode, 1, &m, pt, ct_d, tag_d, 0, NULL);
    if (inplace) {
        memcpy(ct_a, pt, m.len);
        la = crypt(ca[ai], a->mode, 1, &m, ct_a, ct_a, tag_a, pieces, NULL);
    } else {
        la = crypt(ca[ai], a->mode, 1, &m, pt, ct_a, tag_a, pieces, NULL);
    }
    checks++;
    if (ld < 0) {
        FAIL("it %d %s: the default provider failed to encrypt (len %zu)", it, a->name, m.len);
        goto out;
    }
    if (la != ld || memcmp(ct_a, ct_d, (size_t)ld) != 0
        || (aead && memcmp(tag_a, tag_d, m.taglen) != 0)) {
        FAIL("it %d %s: encryption differs (len %zu iv %zu aad %zu tag %zu %s %s): %d vs %d", it,
             a->name, m.len, m.ivlen, m.aadlen, m.taglen, inplace ? "in-place" : "",
             pieces ? "pieces" : "one-shot", la, ld);
        goto out;
    }
    /* decrypt the default provider's output with aeskit */
    if (a->mode == EVP_CIPH_GCM_MODE && !gcm_tag_ok(m.taglen)) {
        /* 1-3, 5-7, 9-11 byte tags: aeskit's verify lacks them; the provider
         * checks them when the tag comes before the data and must refuse
         * them, with an error, when it comes after */
        ERR_clear_error();
        lb = crypt(ca[ai], a->mode, 0, &m, ct_d, back, tag_d, pieces, NULL);
        checks++;
        if (m.len == 0)
            tag_early = 1;      /* no data before the tag either way */
        if (tag_early && (lb != (int)m.len || memcmp(back, pt, m.len) != 0))
            FAIL("it %d %s: %zu-byte tag set early: decryption failed", it, a->name, m.taglen);
        if (!tag_early && (lb >= 0 || ERR_peek_error() == 0))
            FAIL("it %d %s: %zu-byte tag set late accepted or no error", it, a->name, m.taglen);
        ERR_clear_error();
        if (tag_early) {
            memcpy(tag_x, tag_d, m.taglen);
            tag_x[rndn(m.taglen)] ^= 1;
            lb = crypt(ca[ai], a->mode, 0, &m, ct_d, back, tag_x, pieces, NULL);
            checks++;
            if (tag_early && (lb >= 0 || ERR_peek_error() == 0))
                FAIL("it %d %s: a flipped bit of a %zu-byte tag was accepted", it, a->name,
                     m.taglen);
            ERR_clear_error();
        }
        goto out;
    }
    m.len = (size_t)ld;     /* the ciphertext, padding included */
    if (inplace) {
        memcpy(back, ct_d, (size_t)ld);
        lb = crypt(ca[ai], a->mode, 0, &m, back, back, tag_d, pieces, &sbad);
    } else {
        lb = crypt(ca[ai], a->mode, 0, &m, ct_d, back, tag_d, pieces, &sbad);
    }
    m.len = ptlen;
    checks++;
    if (sbad)
        FAIL("it %d %s: an update did not release its plaintext", it, a->name);
    if (lb != (int)ptlen || memcmp(back, pt, ptlen) != 0) {
        FAIL("it %d %s: decryption differs (len %zu, got %d)", it, a->name, m.len, lb);
        goto out;
    }
    if (aead) {
        memcpy(tag_x, tag_d, m.taglen);
        tag_x[rndn(m.taglen)] ^= (unsigned char)(1u << rndn(8));
        ERR_clear_error();
        lb = crypt(ca[ai], a->mode, 0, &m, ct_d, back, tag_x, pieces, NULL);
        checks++;
        if (lb >= 0)
            FAIL("it %d %s: a flipped tag bit was accepted", it, a->name);
        else if (ERR_peek_error() == 0)
            FAIL("it %d %s: tag rejected without an error on the queue", it, a->name);
        ERR_clear_error();
    }
out:
    ERR_clear_error();
    free(pt);
    free(ct_a);
    free(ct_d);
    free(back);
}

/* ---- MACs ----------------------------------------------------------------- */

static int mac(const char *prop, const char *type, const char *ciph, const unsigned char *key,
               size_t keylen, const unsigned char *iv, size_t ivlen, const unsigned char *msg,
               size_t len, int pieces, unsigned char out[16])
{
    EVP_MAC *mc = EVP_MAC_fetch(lib, type, prop);
    EVP_MAC_CTX *c = mc ? EVP_MAC_CTX_new(mc) : NULL;
    OSSL_PARAM ps[3];
    size_t outl = 0, off = 0;
    int ok = 0, n = 0;
    ps[n++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)ciph, 0);
    if (iv != NULL)
        ps[n++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, (void *)iv, ivlen);
    ps[n] = OSSL_PARAM_construct_end();
    if (c == NULL || !EVP_MAC_init(c, key, keylen, ps))
        goto done;
    while (off < len) {
        size_t k = pieces ? 1 + rndn(len - off) : len - off;
        if (!EVP_MAC_update(c, msg + off, k))
            goto done;
        off += k;
    }
    ok = EVP_MAC_final(c, out, &outl, 16) && outl == 16;
done:
    EVP_MAC_CTX_free(c);
    EVP_MAC_free(mc);
    return ok;
}

static void one_mac(int it)
{
    static const char *cm[] = { "AES-128-CBC", "AES-192-CBC", "AES-256-CBC" };
    static const char *gm[] = { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" };
    unsigned char key[32], iv[64], msg[1500], ta[16], td[16];
    size_t k = rndn(3), len = rndn(sizeof(msg)), ivlen = (rnd() & 1) ? 12 : 1 + rndn(64);
    int g = (int)(rnd() & 1);
    rbytes(key, sizeof(key));
    rbytes(iv, sizeof(iv));
    rbytes(msg, len);
    checks++;
    if (!mac("provider=aeskit", g ? "GMAC" : "CMAC", g ? gm[k] : cm[k], key, 16 + 8 * k,
             g ? iv : NULL, ivlen, msg, len, (int)(rnd() & 1), ta)
        || !mac("provider=default", g ? "GMAC" : "CMAC", g ? gm[k] : cm[k], key, 16 + 8 * k,
                g ? iv : NULL, ivlen, msg, len, 0, td)
        || memcmp(ta, td, 16) != 0)
        FAIL("it %d %s %s: MAC differs or failed (len %zu)", it, g ? "GMAC" : "CMAC",
             g ? gm[k] : cm[k], len);
    ERR_clear_error();
}

/* ---- TLS 1.2 records --------------------------------------------------------- */

static EVP_CIPHER_CTX *tls_ctx(EVP_CIPHER *c, int ccm, int enc, const unsigned char *key,
                               const unsigned char *fixed, int taglen)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok;
    if (ccm) {
        ok = EVP_CipherInit_ex(x, c, NULL, NULL, NULL, enc)
             && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) > 0
             && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, taglen, NULL) > 0
             && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_CCM_SET_IV_FIXED, 4, (void *)fixed) > 0
             && EVP_CipherInit_ex(x, NULL, NULL, key, NULL, -1);
    } else {
        ok = EVP_CipherInit_ex(x, c, NULL, key, NULL, enc)
             && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)fixed) > 0;
    }
    if (!ok) {
        EVP_CIPHER_CTX_free(x);
        return NULL;
    }
    return x;
}

/* One record: seq||type||version||len AAD, in-place update; returns length. */
static int tls_record(EVP_CIPHER_CTX *x, uint64_t seq, unsigned char *rec, size_t plen,
                      int enc, int pad)
{
    unsigned char aad[13];
    int l, p;
    size_t reclen = enc ? plen + 8 : plen;  /* libssl counts the explicit IV in both */
    for (int i = 0; i < 8; i++)
        aad[i] = (unsigned char)(seq >> (56 - 8 * i));
    aad[8] = 23;
    aad[9] = 3;
    aad[10] = 3;
    aad[11] = (unsigned char)(reclen >> 8);
    aad[12] = (unsigned char)reclen;
    p = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
    if (p != pad)
        return -1;
    if (!EVP_CipherUpdate(x, rec, &l, rec, (int)(enc ? plen + 8 + (size_t)p : plen)))
        return -1;
    return l;
}

static void tls_test(void)
{
    static const struct { int ai; int ccm; int tag; } t[] = {
        { 0, 0, 16 }, { 2, 0, 16 }, { 3, 1, 16 }, { 5, 1, 16 }, { 3, 1, 8 },
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        for (int dir = 0; dir < 2; dir++) {
            unsigned char key[32], fixed[4], rec[2100], pt[2048];
            EVP_CIPHER *se = dir ? cd[t[i].ai] : ca[t[i].ai], *op = dir ? ca[t[i].ai] : cd[t[i].ai];
            EVP_CIPHER_CTX *e, *d;
            rbytes(key, sizeof(key));
            rbytes(fixed, 4);
            e = tls_ctx(se, t[i].ccm, 1, key, fixed, t[i].tag);
            d = tls_ctx(op, t[i].ccm, 0, key, fixed, t[i].tag);
            checks++;
            if (e == NULL || d == NULL) {
                FAIL("TLS %s: context setup failed", algs[t[i].ai].name);
            } else {
                for (uint64_t seq = 0; seq < 50; seq++) {
                    size_t plen = rndn(sizeof(pt));
                    int l1, l2;
                    rbytes(pt, plen);
                    memcpy(rec + 8, pt, plen);
                    l1 = tls_record(e, seq, rec, plen, 1, t[i].tag);
                    if (l1 != (int)(plen + 8 + (size_t)t[i].tag)) {
                        FAIL("TLS %s seq %llu: seal gave %d", algs[t[i].ai].name,
                             (unsigned long long)seq, l1);
                        break;
                    }
                    l2 = tls_record(d, seq, rec, (size_t)l1, 0, t[i].tag);
                    if (l2 < 0)
                        ERR_print_errors_fp(stderr);
                    if (l2 != (int)plen || memcmp(rec + 8, pt, plen) != 0) {
                        FAIL("TLS %s seq %llu (%s seals): open gave %d", algs[t[i].ai].name,
                             (unsigned long long)seq, dir ? "default" : "aeskit", l2);
                        break;
                    }
                }
                /* a tampered record must fail, with an error */
                {
                    size_t plen = 100;
                    int l1;
                    memset(rec + 8, 7, plen);
                    l1 = tls_record(e, 99, rec, plen, 1, t[i].tag);
                    rec[8 + 3] ^= 1;
                    ERR_clear_error();
                    if (l1 < 0 || tls_record(d, 99, rec, (size_t)l1, 0, t[i].tag) >= 0
                        || ERR_peek_error() == 0)
                        FAIL("TLS %s: tampered record accepted or no error", algs[t[i].ai].name);
                    ERR_clear_error();
                }
            }
            EVP_CIPHER_CTX_free(e);
            EVP_CIPHER_CTX_free(d);
        }
    }
}

/* ---- re-keying one context, and copies sharing a key object ---------------- */

static int gcm_one(EVP_CIPHER_CTX *c, const unsigned char *key, const unsigned char *iv,
                   const unsigned char *in, unsigned char *out, unsigned char tag[16])
{
    int l, fl;
    return EVP_EncryptInit_ex2(c, NULL, key, iv, NULL) && EVP_EncryptUpdate(c, out, &l, in, 100)
           && EVP_EncryptFinal_ex(c, out + l, &fl)
           && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
}

static void rekey_test(void)
{
    unsigned char k[3][16], iv[12], in[100], oa[116], od[116], ta[16], td[16];
    EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *d = EVP_CIPHER_CTX_new(), *copy = NULL;
    static const int order[] = { 0, 1, 0, 0, 2, 1, 2, 2, 0 };
    rbytes(&k[0][0], sizeof(k));
    rbytes(iv, sizeof(iv));
    rbytes(in, sizeof(in));
    EVP_EncryptInit_ex2(a, ca[0], NULL, NULL, NULL);
    EVP_EncryptInit_ex2(d, cd[0], NULL, NULL, NULL);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        iv[0] = (unsigned char)i;
        checks++;
        if (!gcm_one(a, k[order[i]], iv, in, oa, ta) || !gcm_one(d, k[order[i]], iv, in, od, td)
            || memcmp(oa, od, 100) != 0 || memcmp(ta, td, 16) != 0)
            FAIL("re-key step %zu (key %d) differs", i, order[i]);
        if (i == 3) {   /* a copy shares the key object; re-keying either must not touch the other */
            copy = EVP_CIPHER_CTX_new();
            if (!EVP_CIPHER_CTX_copy(copy, a))
                FAIL("EVP_CIPHER_CTX_copy failed");
        }
    }
    checks++;
    if (copy == NULL || !gcm_one(copy, NULL, iv, in, oa, ta) || !gcm_one(d, k[0], iv, in, od, td)
        || memcmp(oa, od, 100) != 0 || memcmp(ta, td, 16) != 0)
        FAIL("a copy lost its key when the original was re-keyed");
    EVP_CIPHER_CTX_free(a);
    EVP_CIPHER_CTX_free(d);
    EVP_CIPHER_CTX_free(copy);
    ERR_clear_error();
}

/* ---- bad parameters ---------------------------------------------------------- */

static int expect_fail(const char *what, int ok)
{
    checks++;
    if (ok) {
        FAIL("bad parameter accepted: %s", what);
        return 0;
    }
    if (ERR_peek_error() == 0) {
        FAIL("failure without an error on the queue: %s", what);
        return 0;
    }
    ERR_clear_error();
    return 1;
}

static EVP_CIPHER_CTX *ready(int ai, int enc, int key_and_iv)
{
    static const unsigned char key[64] = { 1, 2, 3 }, iv[16] = { 9 };
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!EVP_CipherInit_ex2(c, ca[ai], key_and_iv ? key : NULL, key_and_iv ? iv : NULL, enc,
                            NULL)) {
        FAIL("setup of %s failed", algs[ai].name);
        ERR_print_errors_fp(stderr);
    }
    return c;
}

static void bad_params(void)
{
    unsigned char buf[256] = { 0 }, out[512], tag[16] = { 0 }, aad[16] = { 0 };
    int l;
    size_t sz;
    OSSL_PARAM p[2];
    EVP_CIPHER_CTX *c;
    int nbad = failures;

    ERR_clear_error();
    /* GCM (index 0) */
    c = ready(0, 1, 0);
    expect_fail("GCM iv length 0", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 0, NULL) > 0);
    expect_fail("GCM iv length 129", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 129, NULL) > 0);
    expect_fail("GCM key length 17", EVP_CIPHER_CTX_set_key_length(c, 17) > 0);
    sz = 24;
    p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &sz);
    p[1] = OSSL_PARAM_construct_end();
    expect_fail("GCM keylen parameter 24 for AES-128", EVP_CIPHER_CTX_set_params(c, p) > 0);
    expect_fail("GCM update without a key", EVP_CipherUpdate(c, out, &l, buf, 16) > 0);
    expect_fail("GCM set tag while encrypting", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(0, 1, 1);
    expect_fail("GCM get tag before final", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0);
    expect_fail("GCM TLS AAD of 12 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 12, aad) > 0);
    expect_fail("GCM TLS AAD of 14 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 14, aad) > 0);
    expect_fail("GCM tlsivgen without a fixed iv", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 8, buf) > 0);
    if (!EVP_CipherUpdate(c, out, &l, buf, 100) || !EVP_CipherFinal_ex(c, out, &l))
        FAIL("GCM plain message failed");
    ERR_clear_error();
    expect_fail("GCM get tag of 17 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 17, tag) > 0);
    expect_fail("GCM update after final", EVP_CipherUpdate(c, out, &l, buf, 16) > 0);
    expect_fail("GCM final after final", EVP_CipherFinal_ex(c, out, &l) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(0, 0, 1);
    expect_fail("GCM tag of 17 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 17, tag) > 0);
    expect_fail("GCM tag of 0 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 0, tag) > 0);
    expect_fail("GCM get tag while decrypting", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0);
    EVP_CipherUpdate(c, out, &l, buf, 64);
    expect_fail("GCM decrypt final without a tag", EVP_CipherFinal_ex(c, out, &l) > 0);
    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag);
    expect_fail("GCM decrypt with a wrong tag", EVP_CipherFinal_ex(c, out, &l) > 0);
    expect_fail("GCM update after a failed final", EVP_CipherUpdate(c, out, &l, buf, 16) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(0, 0, 1);
    buf[11] = 0; buf[12] = 20;      /* record length 20 < explicit iv + tag */
    expect_fail("GCM TLS AAD with a record shorter than iv+tag",
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, buf) > 0);
    expect_fail("GCM tlsivinv without a fixed iv",
                EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_INV, 8, buf) > 0);
    memset(buf, 0, sizeof(buf));
    EVP_CIPHER_CTX_free(c);

    /* CCM (index 3) */
    c = ready(3, 1, 0);
    expect_fail("CCM tag length 5", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 5, NULL) > 0);
    expect_fail("CCM tag length 18", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 18, NULL) > 0);
    expect_fail("CCM tag length 2", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 2, NULL) > 0);
    expect_fail("CCM nonce length 6", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 6, NULL) > 0);
    expect_fail("CCM nonce length 14", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 14, NULL) > 0);
    expect_fail("CCM set tag value while encrypting", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0);
    expect_fail("CCM TLS fixed iv of 3 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_IV_FIXED, 3, buf) > 0);
    EVP_CIPHER_CTX_free(c);
    {
        static const unsigned char key[16] = { 1 }, nonce12[12] = { 2 };
        c = EVP_CIPHER_CTX_new();
        EVP_CipherInit_ex(c, ca[3], NULL, key, nonce12, 1);
        ERR_clear_error();
        expect_fail("CCM AAD before the message length", EVP_CipherUpdate(c, NULL, &l, aad, 16) > 0);
        EVP_CIPHER_CTX_free(c);
        c = EVP_CIPHER_CTX_new();
        EVP_CipherInit_ex(c, ca[3], NULL, key, nonce12, 1);
        ERR_clear_error();
        EVP_CipherUpdate(c, NULL, &l, NULL, 32);
        expect_fail("CCM message longer than announced", EVP_CipherUpdate(c, out, &l, buf, 48) > 0);
        EVP_CIPHER_CTX_free(c);
        c = EVP_CIPHER_CTX_new();
        EVP_CipherInit_ex(c, ca[3], NULL, key, nonce12, 0);
        ERR_clear_error();
        expect_fail("CCM decrypt without a tag", EVP_CipherUpdate(c, out, &l, buf, 48) > 0);
        EVP_CIPHER_CTX_free(c);
    }
    /* CBC (9), ECB (12), XTS (15), CTR (6) */
    c = ready(9, 1, 1);
    EVP_CIPHER_CTX_set_padding(c, 0);
    EVP_CipherUpdate(c, out, &l, buf, 20);
    expect_fail("CBC no padding, partial final block", EVP_CipherFinal_ex(c, out, &l) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(9, 0, 1);
    memset(buf, 0x55, 32);
    EVP_CipherUpdate(c, out, &l, buf, 32);
    expect_fail("CBC bad padding", EVP_CipherFinal_ex(c, out, &l) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(9, 0, 1);
    EVP_CipherUpdate(c, out, &l, buf, 20);
    expect_fail("CBC decrypt of a partial block", EVP_CipherFinal_ex(c, out, &l) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(12, 1, 0);
    expect_fail("ECB key length 15", EVP_CIPHER_CTX_set_key_length(c, 15) > 0);
    expect_fail("ECB update without a key", EVP_CipherUpdate(c, out, &l, buf, 16) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(6, 1, 0);
    expect_fail("CTR update without a key", EVP_CipherUpdate(c, out, &l, buf, 16) > 0);
    EVP_CIPHER_CTX_free(c);
    c = ready(15, 1, 1);
    expect_fail("XTS data unit of 15 bytes", EVP_CipherUpdate(c, out, &l, buf, 15) > 0);
    EVP_CIPHER_CTX_free(c);
    {
        unsigned char k2[32] = { 0 }, iv[16] = { 0 };
        c = EVP_CIPHER_CTX_new();
        expect_fail("XTS equal key halves (encrypt)", EVP_CipherInit_ex(c, ca[15], NULL, k2, iv, 1) > 0);
        EVP_CIPHER_CTX_free(c);
    }
    /* MACs */
    {
        unsigned char key[32] = { 1 }, tagm[16];
        size_t ol;
        EVP_MAC *m = EVP_MAC_fetch(lib, "CMAC", "provider=aeskit");
        EVP_MAC_CTX *mc = EVP_MAC_CTX_new(m);
        OSSL_PARAM q[2];
        q[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, "AES-128-GCM", 0);
        q[1] = OSSL_PARAM_construct_end();
        expect_fail("CMAC with cipher AES-128-GCM", EVP_MAC_CTX_set_params(mc, q) > 0);
        q[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, "AES-128-CBC", 0);
        EVP_MAC_CTX_set_params(mc, q);
        expect_fail("CMAC key of 17 bytes", EVP_MAC_init(mc, key, 17, NULL) > 0);
        EVP_MAC_CTX_free(mc);
        EVP_MAC_free(m);
        m = EVP_MAC_fetch(lib, "GMAC", "provider=aeskit");
        mc = EVP_MAC_CTX_new(m);
        q[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, "AES-256-GCM", 0);
        EVP_MAC_init(mc, key, 32, q);
        ERR_clear_error();
        expect_fail("GMAC without an iv", EVP_MAC_final(mc, tagm, &ol, sizeof(tagm)) > 0);
        EVP_MAC_CTX_free(mc);
        EVP_MAC_free(m);
    }
    printf("bad parameters: %d failed checks\n", failures - nbad);
}

int main(int argc, char **argv)
{
    OSSL_PROVIDER *pa, *pd;
    long iters = 2000;
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--provider-path") == 0)
            OSSL_PROVIDER_set_default_search_path(NULL, argv[i + 1]);
        else if (strcmp(argv[i], "--iterations") == 0)
            iters = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 0);
    }
    lib = NULL;     /* the default library context, with both providers */
    pa = OSSL_PROVIDER_load(lib, "aeskit");
    pd = OSSL_PROVIDER_load(lib, "default");
    if (pa == NULL || pd == NULL) {
        ERR_print_errors_fp(stderr);
        printf("SKIP: a provider does not load\n");
        return 77;
    }
    rs = seed ? seed : 1;
    printf("seed %llu, %ld iterations\n", (unsigned long long)seed, iters);
    for (size_t i = 0; i < NALGS; i++) {
        ca[i] = EVP_CIPHER_fetch(lib, algs[i].name, "provider=aeskit");
        cd[i] = EVP_CIPHER_fetch(lib, algs[i].name, "provider=default");
        if (ca[i] == NULL || cd[i] == NULL) {
            printf("FAIL: %s not fetched\n", algs[i].name);
            return 1;
        }
    }
    for (long it = 0; it < iters && failures < 20; it++) {
        one_message((int)it);
        if (it % 8 == 0)
            one_mac((int)it);
    }
    tls_test();
    rekey_test();
    bad_params();
    {
        /* the provider's own counters, read through its gettable parameters */
        uint64_t seal = 0, open = 0;
        const char *backend = "?";
        OSSL_PARAM q[4];
        q[0] = OSSL_PARAM_construct_uint64("aeskit-seal-calls", &seal);
        q[1] = OSSL_PARAM_construct_uint64("aeskit-open-calls", &open);
        q[2] = OSSL_PARAM_construct_utf8_ptr("aeskit-backend", (char **)&backend, 0);
        q[3] = OSSL_PARAM_construct_end();
        checks++;
        if (!OSSL_PROVIDER_get_params(pa, q) || seal == 0 || open == 0)
            FAIL("provider parameters aeskit-seal-calls/aeskit-open-calls not readable or zero");
        printf("provider parameters: aeskit-backend=%s aeskit-seal-calls=%llu aeskit-open-calls=%llu\n",
               backend, (unsigned long long)seal, (unsigned long long)open);
    }
    printf("diff: %d checks, %d failures\n", checks, failures);
    for (size_t i = 0; i < NALGS; i++) {
        EVP_CIPHER_free(ca[i]);
        EVP_CIPHER_free(cd[i]);
    }
    OSSL_PROVIDER_unload(pa);
    OSSL_PROVIDER_unload(pd);
    return failures ? 1 : 0;
}
