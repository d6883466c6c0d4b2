/*
 * oracle2.h - the reference implementations the modes2 tests compare with:
 * OpenSSL's libcrypto 3 (KW, KWP, CFB-128, CFB-8, OFB, CBC-CTS, AES-SIV)
 * and libgcrypt (EAX, when built with it: AESKIT_HAVE_GCRYPT).  Each
 * returns 1 on success, 0 when the oracle refused the input.
 */
#ifndef AESKIT_TEST_ORACLE2_H
#define AESKIT_TEST_ORACLE2_H

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#ifdef AESKIT_HAVE_GCRYPT
#include <gcrypt.h>
#endif

#define OR2_FN static __attribute__((unused))

/* One EVP_CipherUpdate over the whole input; wrap ciphers need the flag. */
OR2_FN int or2_evp(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv,
                   const OSSL_PARAM *params, const uint8_t *in, size_t len, uint8_t *out,
                   size_t *out_len)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = 0, n = 0, n2 = 0;
    if (!ctx)
        return 0;
    EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (EVP_CipherInit_ex2(ctx, c, key, iv, enc, params) != 1)
        goto done;
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    if (EVP_CipherUpdate(ctx, out, &n, in, (int)len) <= 0)
        goto done;
    if (EVP_CipherFinal_ex(ctx, out + n, &n2) <= 0)
        goto done;
    *out_len = (size_t)n + (size_t)n2;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

OR2_FN const EVP_CIPHER *or2_legacy(const char *mode, size_t klen)
{
    char name[64];
    snprintf(name, sizeof name, "AES-%zu-%s", klen * 8, mode);
    return EVP_get_cipherbyname(name);
}

/* mode: "wrap", "wrap-pad", "cfb", "cfb8", "ofb". */
OR2_FN int or2_simple(const char *mode, int enc, const uint8_t *key, size_t klen,
                      const uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out,
                      size_t *out_len)
{
    const EVP_CIPHER *c = NULL;
    if (!strcmp(mode, "wrap"))
        c = klen == 16 ? EVP_aes_128_wrap() : klen == 24 ? EVP_aes_192_wrap() : EVP_aes_256_wrap();
    else if (!strcmp(mode, "wrap-pad"))
        c = klen == 16 ? EVP_aes_128_wrap_pad()
            : klen == 24 ? EVP_aes_192_wrap_pad() : EVP_aes_256_wrap_pad();
    else if (!strcmp(mode, "cfb"))
        c = klen == 16 ? EVP_aes_128_cfb128() : klen == 24 ? EVP_aes_192_cfb128() : EVP_aes_256_cfb128();
    else if (!strcmp(mode, "cfb8"))
        c = klen == 16 ? EVP_aes_128_cfb8() : klen == 24 ? EVP_aes_192_cfb8() : EVP_aes_256_cfb8();
    else if (!strcmp(mode, "ofb"))
        c = klen == 16 ? EVP_aes_128_ofb() : klen == 24 ? EVP_aes_192_ofb() : EVP_aes_256_ofb();
    if (!c)
        return 0;
    size_t dummy;
    return or2_evp(c, enc, key, iv, NULL, in, len, out, out_len ? out_len : &dummy);
}

/* CBC-CTS, cs = "CS1", "CS2" or "CS3". */
OR2_FN int or2_cts(int enc, const char *cs, const uint8_t *key, size_t klen, const uint8_t *iv,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    char name[32];
    snprintf(name, sizeof name, "AES-%zu-CBC-CTS", klen * 8);
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!c)
        return 0;
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_CTS_MODE, (char *)cs, 0),
                       OSSL_PARAM_construct_end()};
    size_t n;
    int ok = or2_evp(c, enc, key, iv, p, in, len, out, &n) && n == len;
    EVP_CIPHER_free(c);
    return ok;
}

/* AES-SIV seal (klen = the whole SIV key, 32/48/64): siv || ct. */
OR2_FN int or2_siv_seal(const uint8_t *key, size_t klen, const uint8_t *const *ad,
                        const size_t *ad_lens, size_t count, const uint8_t *in, size_t len,
                        uint8_t *out, uint8_t siv[16])
{
    char name[32];
    snprintf(name, sizeof name, "AES-%zu-SIV", klen * 4);
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = 0, n;
    uint8_t dummy[1];
    if (!c || !ctx || EVP_EncryptInit_ex2(ctx, c, key, NULL, NULL) != 1)
        goto done;
    for (size_t i = 0; i < count; i++)
        if (EVP_EncryptUpdate(ctx, NULL, &n, ad[i] ? ad[i] : dummy, (int)ad_lens[i]) != 1)
            goto done;
    if (EVP_EncryptUpdate(ctx, len ? out : dummy, &n, len ? in : dummy, (int)len) != 1)
        goto done;
    if (EVP_EncryptFinal_ex(ctx, dummy, &n) != 1)
        goto done;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, siv) != 1)
        goto done;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok;
}

#ifdef AESKIT_HAVE_GCRYPT
OR2_FN void or2_gcrypt_init(void)
{
    gcry_check_version(NULL);
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
}

/* EAX seal with libgcrypt: out = ct, tag = the full 16-byte tag. */
OR2_FN int or2_eax_seal(const uint8_t *key, size_t klen, const uint8_t *nonce, size_t nlen,
                        const uint8_t *aad, size_t alen, const uint8_t *in, size_t len,
                        uint8_t *out, uint8_t tag[16])
{
    gcry_cipher_hd_t h;
    int algo = klen == 16 ? GCRY_CIPHER_AES128 : klen == 24 ? GCRY_CIPHER_AES192 : GCRY_CIPHER_AES256;
    if (gcry_cipher_open(&h, algo, GCRY_CIPHER_MODE_EAX, 0))
        return 0;
    int ok = !gcry_cipher_setkey(h, key, klen) && !gcry_cipher_setiv(h, nonce, nlen) &&
             !gcry_cipher_authenticate(h, aad, alen) &&
             !gcry_cipher_encrypt(h, out, len, in, len) && !gcry_cipher_gettag(h, tag, 16);
    gcry_cipher_close(h);
    return ok;
}
#endif

#endif
