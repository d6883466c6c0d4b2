/*
 * oracle.c - OpenSSL's libcrypto (EVP) as the independent reference
 * (oracle.h): the one place the tests and fuzz targets call OpenSSL.
 */
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

void or_die(const char *what)
{
    fprintf(stderr, "oracle error (OpenSSL): %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(2);
}

static const EVP_CIPHER *or_aes(const char *mode, size_t key_len)
{
    /* key_len is the AES key length; XTS callers pass one half. */
    int bits = (int)key_len * 8;
    if (!strcmp(mode, "gcm"))
        return bits == 128 ? EVP_aes_128_gcm() : bits == 192 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
    if (!strcmp(mode, "ccm"))
        return bits == 128 ? EVP_aes_128_ccm() : bits == 192 ? EVP_aes_192_ccm() : EVP_aes_256_ccm();
    if (!strcmp(mode, "ecb"))
        return bits == 128 ? EVP_aes_128_ecb() : bits == 192 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
    if (!strcmp(mode, "cbc"))
        return bits == 128 ? EVP_aes_128_cbc() : bits == 192 ? EVP_aes_192_cbc() : EVP_aes_256_cbc();
    if (!strcmp(mode, "ctr"))
        return bits == 128 ? EVP_aes_128_ctr() : bits == 192 ? EVP_aes_192_ctr() : EVP_aes_256_ctr();
    if (!strcmp(mode, "xts"))
        return bits == 128 ? EVP_aes_128_xts() : bits == 256 ? EVP_aes_256_xts() : NULL;
    if (!strcmp(mode, "cfb"))
        return bits == 128 ? EVP_aes_128_cfb128() : bits == 192 ? EVP_aes_192_cfb128() : EVP_aes_256_cfb128();
    if (!strcmp(mode, "cfb8"))
        return bits == 128 ? EVP_aes_128_cfb8() : bits == 192 ? EVP_aes_192_cfb8() : EVP_aes_256_cfb8();
    if (!strcmp(mode, "ofb"))
        return bits == 128 ? EVP_aes_128_ofb() : bits == 192 ? EVP_aes_192_ofb() : EVP_aes_256_ofb();
    if (!strcmp(mode, "ocb"))
        return bits == 128 ? EVP_aes_128_ocb() : bits == 192 ? EVP_aes_192_ocb() : EVP_aes_256_ocb();
    if (!strcmp(mode, "wrap"))
        return bits == 128 ? EVP_aes_128_wrap() : bits == 192 ? EVP_aes_192_wrap() : EVP_aes_256_wrap();
    if (!strcmp(mode, "wrap-pad"))
        return bits == 128 ? EVP_aes_128_wrap_pad()
               : bits == 192 ? EVP_aes_192_wrap_pad() : EVP_aes_256_wrap_pad();
    return NULL;
}

static EVP_CIPHER_CTX *or_ctx_cache;
static EVP_CIPHER_CTX *or_ctx(void)
{
    if (!or_ctx_cache && !(or_ctx_cache = EVP_CIPHER_CTX_new()))
        or_die("EVP_CIPHER_CTX_new");
    EVP_CIPHER_CTX_reset(or_ctx_cache);
    return or_ctx_cache;
}

/* ---- GCM (any IV length >= 1, tag 1..16) ---------------------------------- */

void or_gcm_seal(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t *tag, size_t tag_len)
{
    EVP_CIPHER_CTX *c = or_ctx();
    int n;
    if (EVP_EncryptInit_ex(c, or_aes("gcm", key_len), NULL, NULL, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)iv_len, NULL) != 1 ||
        EVP_EncryptInit_ex(c, NULL, NULL, key, iv) != 1)
        or_die("gcm seal init");
    if (aad_len && EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len) != 1)
        or_die("gcm seal aad");
    if (len && (EVP_EncryptUpdate(c, out, &n, in, (int)len) != 1 || (size_t)n != len))
        or_die("gcm seal update");
    uint8_t fin[32];
    if (EVP_EncryptFinal_ex(c, fin, &n) != 1 || n != 0)
        or_die("gcm seal final");
    uint8_t full[16];
    if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, full) != 1)
        or_die("gcm get tag");
    memcpy(tag, full, tag_len); /* a truncated GCM tag is a prefix (SP 800-38D 7.1) */
}

/* Returns 1 if OpenSSL accepts the tag (and writes the plaintext). */
int or_gcm_open(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    EVP_CIPHER_CTX *c = or_ctx();
    int n;
    if (EVP_DecryptInit_ex(c, or_aes("gcm", key_len), NULL, NULL, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)iv_len, NULL) != 1 ||
        EVP_DecryptInit_ex(c, NULL, NULL, key, iv) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)tag_len, (void *)tag) != 1)
        or_die("gcm open init");
    if (aad_len && EVP_DecryptUpdate(c, NULL, &n, aad, (int)aad_len) != 1)
        or_die("gcm open aad");
    if (len && EVP_DecryptUpdate(c, out, &n, in, (int)len) != 1)
        or_die("gcm open update");
    uint8_t fin[32];
    return EVP_DecryptFinal_ex(c, fin, &n) == 1;
}

/* ---- CCM (nonce 7..13, tag 4..16 even) ------------------------------------ */

void or_ccm_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t *tag, size_t tag_len)
{
    EVP_CIPHER_CTX *c = or_ctx();
    int n;
    if (EVP_EncryptInit_ex(c, or_aes("ccm", key_len), NULL, NULL, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_IVLEN, (int)nonce_len, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_TAG, (int)tag_len, NULL) != 1 ||
        EVP_EncryptInit_ex(c, NULL, NULL, key, nonce) != 1)
        or_die("ccm seal init");
    /* CCM needs the total length before anything else (it is in B0). */
    if (EVP_EncryptUpdate(c, NULL, &n, NULL, (int)len) != 1)
        or_die("ccm seal length");
    if (aad_len && EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len) != 1)
        or_die("ccm seal aad");
    /* out and in must both be non-NULL here: (NULL, data) would mean AAD. */
    static const uint8_t empty[1];
    uint8_t fin[32];
    if (EVP_EncryptUpdate(c, len ? out : fin, &n, len ? in : empty, (int)len) != 1 ||
        (size_t)n != len)
        or_die("ccm seal update");
    if (EVP_EncryptFinal_ex(c, fin, &n) != 1)
        or_die("ccm seal final");
    if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_GET_TAG, (int)tag_len, tag) != 1)
        or_die("ccm get tag");
}

int or_ccm_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    EVP_CIPHER_CTX *c = or_ctx();
    int n;
    if (EVP_DecryptInit_ex(c, or_aes("ccm", key_len), NULL, NULL, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_IVLEN, (int)nonce_len, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_TAG, (int)tag_len, (void *)tag) != 1 ||
        EVP_DecryptInit_ex(c, NULL, NULL, key, nonce) != 1)
        or_die("ccm open init");
    if (EVP_DecryptUpdate(c, NULL, &n, NULL, (int)len) != 1)
        or_die("ccm open length");
    if (aad_len && EVP_DecryptUpdate(c, NULL, &n, aad, (int)aad_len) != 1)
        or_die("ccm open aad");
    static const uint8_t empty[1];
    uint8_t fin[32];
    /* OpenSSL checks the tag inside this update. */
    return EVP_DecryptUpdate(c, len ? out : fin, &n, len ? in : empty, (int)len) == 1;
}

/* ---- OCB3 (RFC 7253; nonce 1..15, tag 1..16) ------------------------------ */

void or_ocb_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                 uint8_t *tag, size_t tag_len)
{
    EVP_CIPHER_CTX *c = or_ctx();
    int m;
    if (EVP_EncryptInit_ex(c, or_aes("ocb", key_len), NULL, NULL, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)nonce_len, NULL) != 1 ||
        EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)tag_len, NULL) != 1 ||
        EVP_EncryptInit_ex(c, NULL, NULL, key, nonce) != 1)
        or_die("ocb seal init");
    if (aad_len && EVP_EncryptUpdate(c, NULL, &m, aad, (int)aad_len) != 1)
        or_die("ocb seal aad");
    size_t done = 0;
    if (len) {
        if (EVP_EncryptUpdate(c, out, &m, in, (int)len) != 1)
            or_die("ocb seal update");
        done = (size_t)m;
    }
    if (EVP_EncryptFinal_ex(c, out + done, &m) != 1)
        or_die("ocb seal final");
    done += (size_t)m;
    if (done != len || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)tag_len, tag) != 1)
        or_die("ocb get tag");
}

/* ---- XAES-256-GCM (c2sp.org/XAES-256-GCM) on EVP AES-256-ECB and -GCM ------ */

/* The C2SP derivation as the specification writes it: L = AES-256_K(0^128),
 * K1 = L << 1 (xor 0x87 if L's top bit was set), the derived key is
 * AES-256_K(M1 ^ K1) || AES-256_K(M2 ^ K1) with M1 = 00 01 'X' 00 || N[:12],
 * M2 = 00 02 'X' 00 || N[:12]; then AES-256-GCM under it, nonce N[12:]. */
void or_xaes_seal(const uint8_t key[32], const uint8_t nonce[24], const uint8_t *aad,
                  size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16])
{
    uint8_t L[16] = {0}, k1[16], m[32], kx[32];
    if (or_cipher("ecb", 1, 0, key, 32, NULL, L, 16, L) != 16)
        or_die("xaes L");
    for (int i = 0; i < 16; i++)
        k1[i] = (uint8_t)((L[i] << 1) | (i < 15 ? L[i + 1] >> 7 : 0));
    if (L[0] & 0x80)
        k1[15] ^= 0x87;
    memcpy(m, "\x00\x01X\x00", 4);
    memcpy(m + 4, nonce, 12);
    memcpy(m + 16, "\x00\x02X\x00", 4);
    memcpy(m + 20, nonce, 12);
    for (int i = 0; i < 32; i++)
        m[i] ^= k1[i % 16];
    if (or_cipher("ecb", 1, 0, key, 32, NULL, m, 32, kx) != 32)
        or_die("xaes derived key");
    or_gcm_seal(kx, 32, nonce + 12, 12, aad, aad_len, in, len, out, tag, 16);
}

/* ---- Unauthenticated modes: ECB, CBC (raw or PKCS#7), CTR, XTS ------------- */

/* Runs cipher over in; returns the output length, or -1 if OpenSSL refuses
 * (bad padding on decrypt).  key_len is the whole key (XTS: both halves). */
long or_cipher(const char *mode, int enc, int padding, const uint8_t *key, size_t key_len,
                     const uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out)
{
    EVP_CIPHER_CTX *c = or_ctx();
    const EVP_CIPHER *ci = or_aes(mode, !strcmp(mode, "xts") ? key_len / 2 : key_len);
    int n1 = 0, n2 = 0;
    if (!ci)
        or_die("no such cipher");
    if (EVP_CipherInit_ex(c, ci, NULL, key, iv, enc) != 1 ||
        EVP_CIPHER_CTX_set_padding(c, padding) != 1)
        or_die("cipher init");
    static const uint8_t empty[1];
    if (EVP_CipherUpdate(c, out, &n1, len ? in : empty, (int)len) != 1)
        or_die("cipher update");
    if (EVP_CipherFinal_ex(c, out + n1, &n2) != 1) {
        if (!enc && padding) {
            ERR_clear_error();
            return -1;
        }
        or_die("cipher final");
    }
    return (long)n1 + n2;
}

/* ---- AES-KW, AES-KWP (RFC 3394, RFC 5649) ----------------------------------- */

int or_wrap(int pad, int enc, const uint8_t *key, size_t key_len, const uint8_t *in, size_t len,
            uint8_t *out, size_t *out_len)
{
    EVP_CIPHER_CTX *c = or_ctx();
    int n1 = 0, n2 = 0;
    EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (EVP_CipherInit_ex(c, or_aes(pad ? "wrap-pad" : "wrap", key_len), NULL, key, NULL, enc) != 1)
        or_die("wrap init");
    EVP_CIPHER_CTX_set_padding(c, 0);
    if (EVP_CipherUpdate(c, out, &n1, in, (int)len) <= 0 ||
        EVP_CipherFinal_ex(c, out + n1, &n2) <= 0) {
        ERR_clear_error();
        return 0;
    }
    *out_len = (size_t)n1 + (size_t)n2;
    return 1;
}

/* ---- CBC-CTS (SP 800-38A addendum; OpenSSL's AES-<bits>-CBC-CTS) ------------ */

int or_cts(int enc, const char *cs, const uint8_t *key, size_t key_len, const uint8_t *iv,
           const uint8_t *in, size_t len, uint8_t *out)
{
    char name[32];
    snprintf(name, sizeof name, "AES-%d-CBC-CTS", (int)key_len * 8);
    EVP_CIPHER *ci = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!ci)
        or_die("EVP_CIPHER_fetch CBC-CTS");
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, (char *)cs, 0),
                       OSSL_PARAM_construct_end()};
    EVP_CIPHER_CTX *c = or_ctx();
    int n1 = 0, n2 = 0, ok = 0;
    if (EVP_CipherInit_ex2(c, ci, key, iv, enc, p) != 1)
        or_die("cts init");
    EVP_CIPHER_CTX_set_padding(c, 0);
    if (EVP_CipherUpdate(c, out, &n1, in, (int)len) > 0 &&
        EVP_CipherFinal_ex(c, out + n1, &n2) > 0 && (size_t)n1 + (size_t)n2 == len)
        ok = 1;
    else
        ERR_clear_error();
    EVP_CIPHER_free(ci);
    return ok;
}

/* ---- AES-SIV (RFC 5297; OpenSSL's AES-<bits>-SIV) --------------------------- */

int or_siv_seal(const uint8_t *key, size_t key_len, const uint8_t *const *ad,
                const size_t *ad_lens, size_t count, const uint8_t *in, size_t len, uint8_t *out,
                uint8_t siv[16])
{
    char name[32];
    snprintf(name, sizeof name, "AES-%d-SIV", (int)key_len * 4);
    EVP_CIPHER *ci = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!ci)
        or_die("EVP_CIPHER_fetch SIV");
    EVP_CIPHER_CTX *c = or_ctx();
    int ok = 0, n;
    uint8_t dummy[1];
    if (EVP_EncryptInit_ex2(c, ci, key, NULL, NULL) != 1)
        goto done;
    for (size_t i = 0; i < count; i++)
        if (EVP_EncryptUpdate(c, NULL, &n, ad[i] ? ad[i] : dummy, (int)ad_lens[i]) != 1)
            goto done;
    if (EVP_EncryptUpdate(c, len ? out : dummy, &n, len ? in : dummy, (int)len) != 1)
        goto done;
    if (EVP_EncryptFinal_ex(c, dummy, &n) != 1)
        goto done;
    if (EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, siv) != 1)
        goto done;
    ok = 1;
done:
    if (!ok)
        ERR_clear_error();
    EVP_CIPHER_free(ci);
    return ok;
}

/* ---- SHAKE-128 (FIPS 202) ------------------------------------------------------ */

void or_shake128(const uint8_t *in, size_t len, uint8_t *out, size_t out_len)
{
    EVP_MD_CTX *d = EVP_MD_CTX_new();
    if (!d || EVP_DigestInit_ex(d, EVP_shake128(), NULL) != 1 ||
        (len && EVP_DigestUpdate(d, in, len) != 1) || EVP_DigestFinalXOF(d, out, out_len) != 1)
        or_die("shake128");
    EVP_MD_CTX_free(d);
}

/* ---- CMAC (EVP_MAC "CMAC"), full 16-byte tag ------------------------------- */

static EVP_MAC *or_cmac_mac;
void or_cmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len,
                   uint8_t tag[16])
{
    if (!or_cmac_mac && !(or_cmac_mac = EVP_MAC_fetch(NULL, "CMAC", NULL)))
        or_die("EVP_MAC_fetch CMAC");
    EVP_MAC_CTX *m = EVP_MAC_CTX_new(or_cmac_mac);
    char cipher[32];
    snprintf(cipher, sizeof cipher, "AES-%d-CBC", (int)key_len * 8);
    OSSL_PARAM params[2] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
        OSSL_PARAM_construct_end(),
    };
    size_t n = 0;
    if (!m || EVP_MAC_init(m, key, key_len, params) != 1 ||
        (len && EVP_MAC_update(m, msg, len) != 1) || EVP_MAC_final(m, tag, &n, 16) != 1 ||
        n != 16)
        or_die("cmac");
    EVP_MAC_CTX_free(m);
}


const char *or_version(void) { return OPENSSL_VERSION_TEXT; }
