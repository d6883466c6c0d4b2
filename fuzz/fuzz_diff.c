/*
 * fuzz_diff.c - differential fuzz target: the input chooses a mode, key,
 * IV/nonce, AAD, message, tag length and split points.  For each case:
 * one-shot equals streaming at the chosen splits, every backend this CPU can
 * run equals the default backend, and the result equals OpenSSL's.
 */
#include "fuzz_common.h"

enum { MAXMSG = 4096 };
static uint8_t msg[MAXMSG], ref[MAXMSG + 16], got[MAXMSG + 16], back[MAXMSG + 16];

static const size_t gcm_tags[] = {4, 8, 12, 13, 14, 15, 16};

static void gcm_case(fz_reader *r)
{
    uint8_t key[32], iv[64], aad[256], tag[16], tag2[16], otag[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    size_t ivl = 1 + fz_byte(r) % 64;
    size_t al = fz_byte(r);
    size_t tl = gcm_tags[fz_byte(r) % 7];
    size_t s1 = fz_byte(r), s2 = fz_byte(r) * 7u;
    fz_take(r, key, kl);
    fz_take(r, iv, ivl);
    fz_take(r, aad, al);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    fz_take(r, msg, n);

    fz_openssl_gcm(1, key, kl, iv, ivl, aad, al, msg, n, ref, otag, tl);
    aeskit_gcm_key gk;
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get %zu", b);
        if (!bi.available)
            continue;
        FZ_ASSERT(aeskit_gcm_init_backend(&gk, key, kl, bi.name) == AESKIT_OK, "init");
        FZ_ASSERT(aeskit_gcm_seal(&gk, got, tag, tl, msg, n, iv, ivl, aad, al) == AESKIT_OK, "seal");
        FZ_ASSERT(!memcmp(got, ref, n) && !memcmp(tag, otag, tl),
                  "%s GCM seal differs from OpenSSL (kl %zu ivl %zu al %zu n %zu tl %zu)", bi.name,
                  kl, ivl, al, n, tl);
        /* Streaming with the fuzzer's split points. */
        aeskit_gcm_ctx c;
        size_t a1 = al ? s1 % (al + 1) : 0, m1 = n ? s2 % (n + 1) : 0;
        FZ_ASSERT(aeskit_gcm_start(&c, &gk, AESKIT_SEAL, iv, ivl) == AESKIT_OK, "start");
        FZ_ASSERT(aeskit_gcm_update_aad(&c, aad, a1) == AESKIT_OK, "update_aad");
        FZ_ASSERT(aeskit_gcm_update_aad(&c, aad + a1, al - a1) == AESKIT_OK, "update_aad");
        FZ_ASSERT(aeskit_gcm_update(&c, got, msg, m1) == AESKIT_OK, "update");
        FZ_ASSERT(aeskit_gcm_update(&c, got + m1, msg + m1, n - m1) == AESKIT_OK, "update");
        FZ_ASSERT(aeskit_gcm_finish(&c, tag2, tl) == AESKIT_OK, "finish");
        FZ_ASSERT(!memcmp(got, ref, n) && !memcmp(tag2, otag, tl), "%s GCM streaming differs",
                  bi.name);
        /* In-place open restores the plaintext. */
        memcpy(back, ref, n);
        FZ_ASSERT(aeskit_gcm_open(&gk, back, back, n, otag, tl, iv, ivl, aad, al) == AESKIT_OK,
                  "%s GCM open rejected a valid message", bi.name);
        FZ_ASSERT(!memcmp(back, msg, n), "%s GCM open wrong plaintext", bi.name);
        aeskit_gcm_wipe(&gk);
    }
}

static const EVP_CIPHER *evp_ctr(size_t kl)
{
    return kl == 16 ? EVP_aes_128_ctr() : kl == 24 ? EVP_aes_192_ctr() : EVP_aes_256_ctr();
}
static const EVP_CIPHER *evp_cbc(size_t kl)
{
    return kl == 16 ? EVP_aes_128_cbc() : kl == 24 ? EVP_aes_192_cbc() : EVP_aes_256_cbc();
}

static void evp_run(const EVP_CIPHER *ci, int enc, int pad, const uint8_t *key, const uint8_t *iv,
                    const uint8_t *in, size_t n, uint8_t *out, size_t *outn)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l1 = 0, l2 = 0;
    EVP_CipherInit_ex(c, ci, NULL, key, iv, enc);
    EVP_CIPHER_CTX_set_padding(c, pad);
    EVP_CipherUpdate(c, out, &l1, in, (int)n);
    EVP_CipherFinal_ex(c, out + l1, &l2);
    *outn = (size_t)(l1 + l2);
    EVP_CIPHER_CTX_free(c);
}

static void ctr_cbc_case(fz_reader *r)
{
    uint8_t key[32], iv[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    size_t split = fz_byte(r) * 5u;
    fz_take(r, key, kl);
    fz_take(r, iv, 16);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG, refn, gotn;
    fz_take(r, msg, n);
    aeskit_aes_key k;
    evp_run(evp_ctr(kl), 1, 0, key, iv, msg, n, ref, &refn);
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get %zu", b);
        if (!bi.available)
            continue;
        FZ_ASSERT(aeskit_aes_init_backend(&k, key, kl, bi.name) == AESKIT_OK, "aes_init_backend");
        FZ_ASSERT(aeskit_ctr_crypt(&k, got, msg, n, iv) == AESKIT_OK, "ctr_crypt");
        FZ_ASSERT(!memcmp(got, ref, n), "%s CTR differs from OpenSSL (n %zu)", bi.name, n);
        aeskit_ctr_ctx c;
        size_t s = n ? split % (n + 1) : 0;
        FZ_ASSERT(aeskit_ctr_start(&c, &k, iv) == AESKIT_OK, "ctr_start");
        FZ_ASSERT(aeskit_ctr_update(&c, got, msg, s) == AESKIT_OK, "ctr_update");
        FZ_ASSERT(aeskit_ctr_update(&c, got + s, msg + s, n - s) == AESKIT_OK, "ctr_update");
        FZ_ASSERT(!memcmp(got, ref, n), "%s CTR streaming differs", bi.name);
        /* CBC with PKCS#7 both ways */
        uint8_t cref[MAXMSG + 16];
        evp_run(evp_cbc(kl), 1, 1, key, iv, msg, n, cref, &refn);
        FZ_ASSERT(aeskit_cbc_pkcs7_encrypt(&k, got, sizeof got, &gotn, msg, n, iv) == AESKIT_OK,
                  "pkcs7 enc");
        FZ_ASSERT(gotn == refn && !memcmp(got, cref, refn), "%s CBC-PKCS7 differs", bi.name);
        FZ_ASSERT(aeskit_cbc_pkcs7_decrypt(&k, back, sizeof back, &gotn, got, refn, iv) == AESKIT_OK
                      && gotn == n && !memcmp(back, msg, n),
                  "%s CBC-PKCS7 round trip", bi.name);
        aeskit_aes_wipe(&k);
    }
}

static void cmac_case(fz_reader *r)
{
    uint8_t key[32], tag[16], tag2[16], otag[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    size_t split = fz_byte(r) * 3u;
    fz_take(r, key, kl);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG, tl = 16;
    fz_take(r, msg, n);
    const char *cn = kl == 16 ? "AES-128-CBC" : kl == 24 ? "AES-192-CBC" : "AES-256-CBC";
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("cipher", (char *)cn, 0),
                           OSSL_PARAM_construct_end()};
    EVP_MAC_init(mc, key, kl, params);
    EVP_MAC_update(mc, msg, n);
    EVP_MAC_final(mc, otag, &tl, 16);
    EVP_MAC_CTX_free(mc);
    EVP_MAC_free(mac);
    aeskit_cmac_key ck;
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get %zu", b);
        if (!bi.available)
            continue;
        FZ_ASSERT(aeskit_cmac_init_backend(&ck, key, kl, bi.name) == AESKIT_OK, "cmac_init_backend");
        FZ_ASSERT(aeskit_cmac(&ck, tag, 16, msg, n) == AESKIT_OK, "cmac");
        FZ_ASSERT(!memcmp(tag, otag, 16), "%s CMAC differs from OpenSSL (n %zu)", bi.name, n);
        aeskit_cmac_ctx c;
        size_t s = n ? split % (n + 1) : 0;
        FZ_ASSERT(aeskit_cmac_start(&c, &ck) == AESKIT_OK, "cmac_start");
        FZ_ASSERT(aeskit_cmac_update(&c, msg, s) == AESKIT_OK, "cmac_update");
        FZ_ASSERT(aeskit_cmac_update(&c, msg + s, n - s) == AESKIT_OK, "cmac_update");
        FZ_ASSERT(aeskit_cmac_finish(&c, tag2, 16) == AESKIT_OK, "cmac_finish");
        FZ_ASSERT(!memcmp(tag2, otag, 16), "%s CMAC streaming differs", bi.name);
        aeskit_cmac_wipe(&ck);
    }
}

static void xts_case(fz_reader *r)
{
    uint8_t key[64], tweak[16];
    size_t kl = (fz_byte(r) & 1) ? 64 : 32;
    fz_take(r, key, kl);
    fz_take(r, tweak, 16);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG, refn;
    if (n < 16)
        n = 16;
    fz_take(r, msg, n);
    if (!memcmp(key, key + kl / 2, kl / 2))
        key[0] ^= 1; /* OpenSSL 3 refuses equal halves */
    evp_run(kl == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts(), 1, 0, key, tweak, msg, n, ref, &refn);
    aeskit_xts_key xk;
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get %zu", b);
        if (!bi.available)
            continue;
        FZ_ASSERT(aeskit_xts_init_backend(&xk, key, kl, bi.name) == AESKIT_OK, "xts_init_backend");
        FZ_ASSERT(aeskit_xts_encrypt(&xk, got, msg, n, tweak) == AESKIT_OK, "xts enc");
        FZ_ASSERT(!memcmp(got, ref, n), "%s XTS differs from OpenSSL (n %zu)", bi.name, n);
        FZ_ASSERT(aeskit_xts_decrypt(&xk, got, got, n, tweak) == AESKIT_OK && !memcmp(got, msg, n),
                  "%s XTS in-place round trip", bi.name);
        aeskit_xts_wipe(&xk);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size};
    switch (fz_byte(&r) % 4) {
    case 0: gcm_case(&r); break;
    case 1: ctr_cbc_case(&r); break;
    case 2: cmac_case(&r); break;
    default: xts_case(&r); break;
    }
    return 0;
}
