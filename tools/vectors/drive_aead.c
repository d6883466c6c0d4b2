/*
 * drive_aead.c - the one-shot checks every AEAD shares (GCM, CCM and the
 * IPsec helpers): drive_internal.h.
 */
#include <stdlib.h>

#include "drive_internal.h"

/* Opens the given (aad, ct, tag), which must be refused: out-of-place into
 * a pre-filled buffer that must come back zeroed, in-place on a copy of ct
 * that must come back unchanged. */
static void expect_auth(akd_ctx *x, const akd_case *c, const akd_aead_ops *ops, const void *k,
                        const uint8_t *aad, const uint8_t *ct, const uint8_t *tag, const char *what,
                        size_t bit)
{
    size_t n = c->ct_len;
    memset(x->out, 0xa5, n);
    aeskit_status st = ops->open(k, c, aad, x->out, ct, tag);
    akd_check(x, st == AESKIT_ERR_AUTH, "%s open: flipped %s bit %zu: %s", ops->name, what, bit,
              aeskit_strerror(st));
    akd_check(x, akd_zero(x->out, n), "%s open: output not zeroed after a flipped %s bit %zu",
              ops->name, what, bit);
    akd_copy(x->out, ct, n);
    st = ops->open(k, c, aad, x->out, x->out, tag);
    akd_check(x, st == AESKIT_ERR_AUTH, "%s open in-place: flipped %s bit %zu: %s", ops->name,
              what, bit, aeskit_strerror(st));
    akd_check(x, akd_eq(x->out, ct, n),
              "%s open in-place: buffer not restored to the ciphertext after a flipped %s bit %zu",
              ops->name, what, bit);
}

int akd_aead_valid(akd_ctx *x, const akd_case *c, const akd_aead_ops *ops, const void *k)
{
    size_t n = c->msg_len, tl = c->tag_len;
    int acc = c->expect == AKD_ACCEPTABLE;
    uint8_t t[16];
    if (!akd_check(x, c->ct_len == n && tl >= 1 && tl <= 16,
                   "malformed case: ct %zu bytes for msg %zu, tag %zu bytes", c->ct_len, n, tl))
        return 1;
    aeskit_status st = ops->seal(k, c, c->aad, x->out, t, c->msg);
    if (st != AESKIT_OK) {
        akd_check(x, acc, "%s seal refused a valid case: %s", ops->name, aeskit_strerror(st));
        return 1;
    }
    akd_check(x, akd_eq(x->out, c->ct, n), "%s seal: wrong ciphertext", ops->name);
    akd_check(x, akd_eq(t, c->tag, tl), "%s seal: wrong tag", ops->name);
    memset(x->out, 0xa5, n);
    st = ops->open(k, c, c->aad, x->out, c->ct, c->tag);
    if (st != AESKIT_OK && acc)
        return 1;
    akd_status(x, st, AESKIT_OK, "open of the expected ciphertext");
    akd_check(x, akd_eq(x->out, c->msg, n), "%s open: wrong plaintext", ops->name);

    akd_copy(x->out, c->msg, n);
    akd_status(x, ops->seal(k, c, c->aad, x->out, t, x->out), AESKIT_OK, "seal in-place");
    akd_check(x, akd_eq(x->out, c->ct, n) && akd_eq(t, c->tag, tl),
              "%s seal in-place: wrong ciphertext or tag", ops->name);
    akd_status(x, ops->open(k, c, c->aad, x->out, x->out, c->tag), AESKIT_OK, "open in-place");
    akd_check(x, akd_eq(x->out, c->msg, n), "%s open in-place: wrong plaintext", ops->name);

    /* tamper: flipped bits of the tag, the ciphertext, the AAD, the IV */
    memcpy(t, c->tag, tl);
    for (size_t b = akd_bit_first(x, tl); b < 8 * tl; b = akd_bit_next(x, b, tl)) {
        akd_bit_flip(t, b);
        expect_auth(x, c, ops, k, c->aad, c->ct, t, "tag", b);
        akd_bit_flip(t, b);
    }
    akd_copy(x->out2, c->ct, n);
    for (size_t b = akd_bit_first(x, n); b < 8 * n; b = akd_bit_next(x, b, n)) {
        akd_bit_flip(x->out2, b);
        expect_auth(x, c, ops, k, c->aad, x->out2, c->tag, "ciphertext", b);
        akd_bit_flip(x->out2, b);
    }
    uint8_t *aad = malloc(c->aad_len + c->iv_len + 1);
    if (akd_check(x, aad != NULL, "out of memory")) {
        akd_copy(aad, c->aad, c->aad_len);
        for (size_t b = akd_bit_first(x, c->aad_len); b < 8 * c->aad_len;
             b = akd_bit_next(x, b, c->aad_len)) {
            akd_bit_flip(aad, b);
            expect_auth(x, c, ops, k, aad, c->ct, c->tag, "aad", b);
            akd_bit_flip(aad, b);
        }
        akd_case d = *c; /* the same case with a flipped IV (nonce) */
        uint8_t *iv = aad + c->aad_len;
        akd_copy(iv, c->iv, c->iv_len);
        d.iv = iv;
        for (size_t b = akd_bit_first(x, c->iv_len); b < 8 * c->iv_len;
             b = akd_bit_next(x, b, c->iv_len)) {
            akd_bit_flip(iv, b);
            expect_auth(x, &d, ops, k, c->aad, c->ct, c->tag, "iv", b);
            akd_bit_flip(iv, b);
        }
    }
    free(aad);
    return 0;
}

void akd_aead_invalid(akd_ctx *x, const akd_case *c, const akd_aead_ops *ops, const void *k)
{
    uint8_t t[16];
    if (c->tag_len <= 16 && ops->seal(k, c, c->aad, x->out, t, c->msg) != AESKIT_OK) {
        akd_check(x, 1, "refused by its parameters");
        return;
    }
    memset(x->out, 0x5a, c->ct_len);
    aeskit_status st = ops->open(k, c, c->aad, x->out, c->ct, c->tag);
    akd_check(x, st != AESKIT_OK, "invalid case accepted by %s open", ops->name);
    if (st == AESKIT_ERR_AUTH)
        akd_check(x, akd_zero(x->out, c->ct_len), "%s open refused but did not zero the output",
                  ops->name);
}
