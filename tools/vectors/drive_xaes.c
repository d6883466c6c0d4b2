/*
 * drive_xaes.c - the XAES-256-GCM driver (drive.h, c2sp.org/XAES-256-GCM):
 * a 32-byte key, iv = the 24-byte nonce, tag 1..16 as GCM.  The mode has
 * no streaming API of its own, so: one-shot, in-place and tamper
 * (drive_aead.c), and the specification's split checked through the API
 * that exposes it: aeskit_xaes_derive_gcm (the derived key for the
 * nonce's first 12 bytes) then aeskit_gcm_seal with the last 12 bytes
 * gives the same ciphertext and tag.
 */
#include "drive_internal.h"

static aeskit_status xaes_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                  uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_xaes_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, c->iv_len, aad,
                            c->aad_len);
}
static aeskit_status xaes_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                  uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_xaes_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, c->iv_len, aad,
                            c->aad_len);
}
static const akd_aead_ops xaes_ops = {"xaes-256-gcm", xaes_seal_op, xaes_open_op};

/* derive_gcm + gcm_seal against the expected ciphertext and tag. */
static void xaes_derived(akd_ctx *x, const akd_case *c, const aeskit_xaes_key *k)
{
    static aeskit_gcm_key g;
    uint8_t t[16];
    aeskit_status st = aeskit_xaes_derive_gcm(k, &g, c->iv);
    if (akd_status(x, st, AESKIT_OK, "xaes_derive_gcm")) {
        st = aeskit_gcm_seal(&g, x->out, t, c->tag_len, c->msg, c->msg_len, c->iv + 12, 12,
                             c->aad, c->aad_len);
        akd_check(x, st == AESKIT_OK && akd_eq(x->out, c->ct, c->msg_len) &&
                         akd_eq(t, c->tag, c->tag_len),
                  "xaes_derive_gcm + gcm_seal differs from the expected output: %s",
                  aeskit_strerror(st));
    }
    aeskit_gcm_wipe(&g);
}

int akd_xaes(const akd_case *c, akd_report *r)
{
    static aeskit_xaes_key k;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    aeskit_status st = aeskit_xaes_init_backend(&k, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "xaes_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_xaes_backend(&k));
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(&x, c, &xaes_ops, &k);
    else if (akd_aead_valid(&x, c, &xaes_ops, &k) == 0 && c->iv_len == 24 &&
             c->ct_len == c->msg_len && c->tag_len >= 1 && c->tag_len <= 16)
        xaes_derived(&x, c, &k);
    aeskit_xaes_wipe(&k);
    return akd_end(&x);
}
