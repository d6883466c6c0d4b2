/*
 * fuzz_common.h - input decoding and the OpenSSL oracle shared by the
 * libFuzzer targets.  The fuzzer's bytes are read front to back; running out
 * of input yields zeros, so every input is a valid (if short) test case.
 */
#ifndef AESKIT_FUZZ_COMMON_H
#define AESKIT_FUZZ_COMMON_H

#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_reader;

static uint8_t fz_byte(fz_reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static size_t fz_take(fz_reader *r, uint8_t *out, size_t want)
{
    size_t n = want < r->n ? want : r->n;
    memcpy(out, r->p, n);
    memset(out + n, 0, want - n);
    r->p += n;
    r->n -= n;
    return want;
}

/* Aborts (a crash is what libFuzzer reports) with a message. */
#define FZ_ASSERT(cond, ...)                                                      \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "fuzz assertion failed at %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                         \
            fputc('\n', stderr);                                                  \
            abort();                                                              \
        }                                                                         \
    } while (0)

static const EVP_CIPHER *fz_evp_gcm(size_t kl)
{
    return kl == 16 ? EVP_aes_128_gcm() : kl == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
}

/* OpenSSL GCM.  Encrypt: writes out and tag.  Decrypt: returns 1 if the tag
 * verifies.  OpenSSL takes a truncated tag only on decrypt; on encrypt we
 * take the full tag and truncate. */
static int fz_openssl_gcm(int enc, const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl,
                          const uint8_t *aad, size_t al, const uint8_t *in, size_t n, uint8_t *out,
                          uint8_t *tag, size_t tl)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int ok = 1, outl;
    ok &= EVP_CipherInit_ex(c, fz_evp_gcm(kl), NULL, NULL, NULL, enc);
    ok &= EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)ivl, NULL);
    ok &= EVP_CipherInit_ex(c, NULL, NULL, key, iv, enc);
    if (!enc)
        ok &= EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)tl, tag);
    if (al)
        ok &= EVP_CipherUpdate(c, NULL, &outl, aad, (int)al);
    if (n)
        ok &= EVP_CipherUpdate(c, out, &outl, in, (int)n);
    int fin = EVP_CipherFinal_ex(c, out + n, &outl);
    if (enc) {
        uint8_t full[16];
        ok &= EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, full);
        memcpy(tag, full, tl);
        FZ_ASSERT(ok && fin, "OpenSSL GCM setup failed");
    } else {
        FZ_ASSERT(ok, "OpenSSL GCM setup failed");
        ok = fin;
    }
    EVP_CIPHER_CTX_free(c);
    return ok;
}

#endif
