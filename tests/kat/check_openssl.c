/*
 * check_openssl.c - checks every known-answer vector of
 * tools/vectors/kat_vectors.c against OpenSSL's libcrypto (the oracle,
 * tests/common/oracle.h), independently of aeskit: a typo in the table must
 * fail here rather than become a "known answer".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kat_vectors.h"
#include "oracle.h"

/* out == want over n bytes (0 if equal, 1 if not) */
static int differs(const uint8_t *out, const uint8_t *want, size_t n)
{
    return n && memcmp(out, want, n) != 0;
}

/* One direction of ECB/CBC/CTR/XTS without padding; 0 if out == want. */
static int cipher(const char *mode, int enc, const uint8_t *key, size_t kl, const uint8_t *iv,
                  const uint8_t *in, size_t len, const uint8_t *want, uint8_t *out)
{
    return or_cipher(mode, enc, 0, key, kl, iv, in, len, out) != (long)len ||
           differs(out, want, len);
}

/* XTS from AES-ECB, whole blocks only (IEEE 1619-2007 5.3.1): OpenSSL 3
 * refuses keys whose halves are equal (IEEE 1619 vector 1), so those are
 * checked through this independent construction on OpenSSL's AES. */
static int xts_by_ecb(const uint8_t *key, size_t kl, const uint8_t *tweak, const uint8_t *pt,
                      size_t len, const uint8_t *want)
{
    uint8_t t[16], b[16];
    if (len % 16 || or_cipher("ecb", 1, 0, key + kl / 2, kl / 2, NULL, tweak, 16, t) != 16)
        return 1;
    int bad = 0;
    for (size_t off = 0; off < len; off += 16) {
        for (int i = 0; i < 16; i++)
            b[i] = pt[off + i] ^ t[i];
        bad |= or_cipher("ecb", 1, 0, key, kl / 2, NULL, b, 16, b) != 16;
        for (int i = 0; i < 16; i++)
            bad |= (b[i] ^ t[i]) != want[off + i];
        /* T *= alpha: little-endian shift, reduce by x^128 + x^7 + x^2 + x + 1 */
        unsigned carry = t[15] >> 7;
        for (int i = 15; i > 0; i--)
            t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
        t[0] = (uint8_t)(t[0] << 1 ^ (carry ? 0x87 : 0));
    }
    return bad;
}

static int gcm(const uint8_t *key, size_t kl, const uint8_t *iv, size_t ivl, const uint8_t *aad,
               size_t al, const uint8_t *pt, size_t pl, const uint8_t *ct, const uint8_t *tag,
               size_t tl, uint8_t *out)
{
    uint8_t t[16];
    if (tl == 0 || tl > 16)
        return 1;
    or_gcm_seal(key, kl, iv, ivl, aad, al, pt, pl, out, t, tl);
    int bad = differs(out, ct, pl) || differs(t, tag, tl);
    return bad || !or_gcm_open(key, kl, iv, ivl, aad, al, ct, pl, tag, tl, out) ||
           differs(out, pt, pl);
}

static int ccm(const uint8_t *key, size_t kl, const uint8_t *n, size_t nl, const uint8_t *aad,
               size_t al, const uint8_t *pt, size_t pl, const uint8_t *ct, const uint8_t *tag,
               size_t tl, uint8_t *out)
{
    uint8_t t[16];
    if (tl < 4 || tl > 16)
        return 1;
    or_ccm_seal(key, kl, n, nl, aad, al, pt, pl, out, t, tl);
    int bad = differs(out, ct, pl) || differs(t, tag, tl);
    return bad || !or_ccm_open(key, kl, n, nl, aad, al, ct, pl, tag, tl, out) ||
           differs(out, pt, pl);
}

int main(void)
{
    unsigned bad = 0;
    for (size_t i = 0; i < kat_vector_count; i++) {
        const struct kat_vector *v = &kat_vectors[i];
        unsigned char *key, *iv, *aad, *pt, *ct, *tag, *out;
        size_t kl, ivl, al, pl, cl, tl;
        if (kat_field(v->key, 0, &key, &kl) || kat_field(v->iv, 0, &iv, &ivl) ||
            kat_field(v->aad, v->aad_pattern, &aad, &al) ||
            kat_field(v->pt, v->pt_pattern, &pt, &pl) || kat_field(v->ct, 0, &ct, &cl) ||
            kat_field(v->tag, 0, &tag, &tl) || !(out = malloc(pl + cl + 32))) {
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
                f = cipher("ecb", 1, key, kl, NULL, pt, pl, ct, out) |
                    cipher("ecb", 0, key, kl, NULL, ct, pl, pt, out);
                break;
            case KAT_CBC:
                f = ivl != 16 || (cipher("cbc", 1, key, kl, iv, pt, pl, ct, out) |
                                  cipher("cbc", 0, key, kl, iv, ct, pl, pt, out));
                break;
            case KAT_CTR:
                f = ivl != 16 || cipher("ctr", 1, key, kl, iv, pt, pl, ct, out);
                break;
            case KAT_XTS:
                if (ivl != 16 || (kl != 32 && kl != 64))
                    f = 1;
                else if (memcmp(key, key + kl / 2, kl / 2) == 0)
                    f = xts_by_ecb(key, kl, iv, pt, pl, ct);
                else
                    f = cipher("xts", 1, key, kl, iv, pt, pl, ct, out) |
                        cipher("xts", 0, key, kl, iv, ct, pl, pt, out);
                break;
            case KAT_GCM:
                f = gcm(key, kl, iv, ivl, aad, al, pt, pl, ct, tag, tl, out);
                break;
            case KAT_RFC4106: {
                /* nonce = salt (last 4 key bytes) || explicit IV */
                unsigned char nonce[12];
                f = ivl != 8 || kl < 20;
                if (!f) {
                    memcpy(nonce, key + kl - 4, 4);
                    memcpy(nonce + 4, iv, 8);
                    f = gcm(key, kl - 4, nonce, 12, aad, al, pt, pl, ct, tag, tl, out);
                }
                break;
            }
            case KAT_CCM:
                f = ccm(key, kl, iv, ivl, aad, al, pt, pl, ct, tag, tl, out);
                break;
            case KAT_CMAC: {
                uint8_t t[16];
                or_cmac(key, kl, pt, pl, t);
                f = tl == 0 || tl > 16 || differs(t, tag, tl);
                break;
            }
            default:
                f = 1;
            }
        printf("%s %-8s %s\n", f ? "FAIL" : "ok  ", kat_mode_name(v->mode), v->source);
        bad += f != 0;
        free(key), free(iv), free(aad), free(pt), free(ct), free(tag), free(out);
    }
    printf("%zu vectors checked against OpenSSL %s: %u disagree\n", kat_vector_count,
           or_version(), bad);
    return bad ? 1 : 0;
}
