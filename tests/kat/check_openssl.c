/*
 * check_openssl.c - checks every known-answer vector of kat_vectors.c
 * against OpenSSL's libcrypto, independently of aeskit: a typo in the table
 * must fail here rather than become a "known answer".
 */
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kat_vectors.h"

static const EVP_CIPHER *aes_cipher(const char *mode, size_t key_len)
{
    char name[32];
    snprintf(name, sizeof name, "AES-%zu-%s", key_len * 8, mode);
    return EVP_get_cipherbyname(name);
}

/* Plain cipher (ECB/CBC/CTR/XTS) one way; returns 0 if out == want. */
static int run_cipher(const EVP_CIPHER *c, int enc, const unsigned char *key,
                      const unsigned char *iv, const unsigned char *in, size_t len,
                      const unsigned char *want)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *out = malloc(len + 32);
    int ol = 0, fl = 0, ok = ctx && out && c && EVP_CipherInit_ex(ctx, c, NULL, key, iv, enc) &&
                             EVP_CIPHER_CTX_set_padding(ctx, 0) &&
                             EVP_CipherUpdate(ctx, out, &ol, in, (int)len) &&
                             EVP_CipherFinal_ex(ctx, out + ol, &fl) &&
                             (size_t)(ol + fl) == len && memcmp(out, want, len) == 0;
    EVP_CIPHER_CTX_free(ctx);
    free(out);
    return ok ? 0 : 1;
}

/* XTS from AES-ECB, whole blocks only (IEEE 1619-2007 5.3.1): OpenSSL 3
 * refuses keys whose halves are equal (IEEE 1619 vector 1), so those are
 * checked through this independent construction on OpenSSL's AES. */
static int xts_by_ecb(const unsigned char *key, size_t kl, const unsigned char *tweak,
                      const unsigned char *pt, size_t len, const unsigned char *want)
{
    const EVP_CIPHER *c = aes_cipher("ECB", kl / 2);
    EVP_CIPHER_CTX *k1 = EVP_CIPHER_CTX_new(), *k2 = EVP_CIPHER_CTX_new();
    unsigned char t[16], b[16];
    int ol, ok = len % 16 == 0 && k1 && k2 &&
                 EVP_EncryptInit_ex(k1, c, NULL, key, NULL) &&
                 EVP_EncryptInit_ex(k2, c, NULL, key + kl / 2, NULL) &&
                 EVP_CIPHER_CTX_set_padding(k1, 0) && EVP_CIPHER_CTX_set_padding(k2, 0) &&
                 EVP_EncryptUpdate(k2, t, &ol, tweak, 16);
    for (size_t off = 0; ok && off < len; off += 16) {
        for (int i = 0; i < 16; i++)
            b[i] = pt[off + i] ^ t[i];
        ok = EVP_EncryptUpdate(k1, b, &ol, b, 16);
        for (int i = 0; i < 16; i++)
            ok = ok && (b[i] ^ t[i]) == want[off + i];
        /* T *= alpha: little-endian shift, reduce by x^128 + x^7 + x^2 + x + 1 */
        unsigned carry = t[15] >> 7;
        for (int i = 15; i > 0; i--)
            t[i] = (unsigned char)(t[i] << 1 | t[i - 1] >> 7);
        t[0] = (unsigned char)(t[0] << 1 ^ (carry ? 0x87 : 0));
    }
    EVP_CIPHER_CTX_free(k1);
    EVP_CIPHER_CTX_free(k2);
    return ok ? 0 : 1;
}

static int run_gcm(const unsigned char *key, size_t kl, const unsigned char *iv, size_t ivl,
                   const unsigned char *aad, size_t al, const unsigned char *pt, size_t pl,
                   const unsigned char *ct, const unsigned char *tag, size_t tl)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *out = malloc(pl + 1), t[16];
    int ol = 0, fl = 0;
    int ok = ctx && out && EVP_EncryptInit_ex(ctx, aes_cipher("GCM", kl), NULL, NULL, NULL) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, (int)ivl, NULL) &&
             EVP_EncryptInit_ex(ctx, NULL, NULL, key, iv) &&
             (al == 0 || EVP_EncryptUpdate(ctx, NULL, &ol, aad, (int)al)) &&
             (pl == 0 || EVP_EncryptUpdate(ctx, out, &ol, pt, (int)pl)) &&
             EVP_EncryptFinal_ex(ctx, out, &fl) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, t) &&
             memcmp(out, ct, pl) == 0 && memcmp(t, tag, tl) == 0;
    EVP_CIPHER_CTX_free(ctx);
    free(out);
    return ok ? 0 : 1;
}

static int run_ccm(const unsigned char *key, size_t kl, const unsigned char *n, size_t nl,
                   const unsigned char *aad, size_t al, const unsigned char *pt, size_t pl,
                   const unsigned char *ct, const unsigned char *tag, size_t tl)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char *out = malloc(pl + 1), t[16];
    int ol = 0;
    int ok = ctx && out && EVP_EncryptInit_ex(ctx, aes_cipher("CCM", kl), NULL, NULL, NULL) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_CCM_SET_IVLEN, (int)nl, NULL) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_CCM_SET_TAG, (int)tl, NULL) &&
             EVP_EncryptInit_ex(ctx, NULL, NULL, key, n) &&
             EVP_EncryptUpdate(ctx, NULL, &ol, NULL, (int)pl) &&
             (al == 0 || EVP_EncryptUpdate(ctx, NULL, &ol, aad, (int)al)) &&
             EVP_EncryptUpdate(ctx, out, &ol, pt, (int)pl) &&
             EVP_EncryptFinal_ex(ctx, out + ol, &ol) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_CCM_GET_TAG, (int)tl, t) &&
             memcmp(out, ct, pl) == 0 && memcmp(t, tag, tl) == 0;
    EVP_CIPHER_CTX_free(ctx);
    free(out);
    return ok ? 0 : 1;
}

static int run_cmac(const unsigned char *key, size_t kl, const unsigned char *m, size_t ml,
                    const unsigned char *tag, size_t tl)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    char cname[32];
    snprintf(cname, sizeof cname, "AES-%zu-CBC", kl * 8);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cname, 0),
                           OSSL_PARAM_construct_end()};
    unsigned char t[16];
    size_t outl = 0;
    int ok = ctx && EVP_MAC_init(ctx, key, kl, params) && EVP_MAC_update(ctx, m, ml) &&
             EVP_MAC_final(ctx, t, &outl, sizeof t) && outl == 16 && memcmp(t, tag, tl) == 0;
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok ? 0 : 1;
}

int main(void)
{
    unsigned bad = 0;
    for (size_t i = 0; i < kat_vector_count; i++) {
        const struct kat_vector *v = &kat_vectors[i];
        unsigned char *key, *iv, *aad, *pt, *ct, *tag;
        size_t kl, ivl, al, pl, cl, tl;
        if (kat_field(v->key, 0, &key, &kl) || kat_field(v->iv, 0, &iv, &ivl) ||
            kat_field(v->aad, v->aad_pattern, &aad, &al) ||
            kat_field(v->pt, v->pt_pattern, &pt, &pl) || kat_field(v->ct, 0, &ct, &cl) ||
            kat_field(v->tag, 0, &tag, &tl)) {
            printf("BAD HEX %s\n", v->source);
            bad++;
            continue;
        }
        int f = 0;
        if (v->mode != KAT_CMAC && cl != pl)
            f = 1;
        else
            switch (v->mode) {
            case KAT_AES:
            case KAT_ECB:
                f = run_cipher(aes_cipher("ECB", kl), 1, key, NULL, pt, pl, ct) |
                    run_cipher(aes_cipher("ECB", kl), 0, key, NULL, ct, pl, pt);
                break;
            case KAT_CBC:
                f = run_cipher(aes_cipher("CBC", kl), 1, key, iv, pt, pl, ct) |
                    run_cipher(aes_cipher("CBC", kl), 0, key, iv, ct, pl, pt);
                break;
            case KAT_CTR:
                f = run_cipher(aes_cipher("CTR", kl), 1, key, iv, pt, pl, ct);
                break;
            case KAT_XTS: {
                const EVP_CIPHER *c = EVP_get_cipherbyname(kl == 32 ? "AES-128-XTS" : "AES-256-XTS");
                if (memcmp(key, key + kl / 2, kl / 2) == 0)
                    f = ivl != 16 || xts_by_ecb(key, kl, iv, pt, pl, ct);
                else
                    f = ivl != 16 || run_cipher(c, 1, key, iv, pt, pl, ct) |
                                         run_cipher(c, 0, key, iv, ct, pl, pt);
                break;
            }
            case KAT_GCM:
                f = run_gcm(key, kl, iv, ivl, aad, al, pt, pl, ct, tag, tl);
                break;
            case KAT_RFC4106: {
                /* nonce = salt (last 4 key bytes) || explicit IV */
                unsigned char nonce[12];
                f = ivl != 8 || kl < 20;
                if (!f) {
                    memcpy(nonce, key + kl - 4, 4);
                    memcpy(nonce + 4, iv, 8);
                    f = run_gcm(key, kl - 4, nonce, 12, aad, al, pt, pl, ct, tag, tl);
                }
                break;
            }
            case KAT_CCM:
                f = run_ccm(key, kl, iv, ivl, aad, al, pt, pl, ct, tag, tl);
                break;
            case KAT_CMAC:
                f = run_cmac(key, kl, pt, pl, tag, tl);
                break;
            default:
                f = 1;
            }
        printf("%s %-8s %s\n", f ? "FAIL" : "ok  ", kat_mode_name(v->mode), v->source);
        bad += f != 0;
        free(key), free(iv), free(aad), free(pt), free(ct), free(tag);
    }
    printf("%zu vectors checked against OpenSSL %s: %u disagree\n", kat_vector_count,
           OPENSSL_VERSION_TEXT, bad);
    return bad ? 1 : 0;
}
