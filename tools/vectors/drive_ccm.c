/*
 * drive_ccm.c - the CCM family's drivers (drive.h): CCM (SP 800-38C,
 * RFC 3610) and RFC 4309.  An 11-byte CCM nonce with an ESP tag length is
 * also run as RFC 4309 (salt = the nonce's first 3 bytes, RFC 4309 section
 * 4), an RFC 4309 case as CCM with nonce = salt || IV.  CCM has no
 * streaming API: one-shot, in-place and tamper.
 */
#include "drive_internal.h"

static aeskit_status ccm_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_ccm_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, c->iv_len, aad,
                           c->aad_len);
}
static aeskit_status ccm_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_ccm_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, c->iv_len, aad,
                           c->aad_len);
}
static const akd_aead_ops ccm_ops = {"ccm", ccm_seal_op, ccm_open_op};

static aeskit_status rfc4309_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                     uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_rfc4309_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, aad, c->aad_len);
}
static aeskit_status rfc4309_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                     uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_rfc4309_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, aad, c->aad_len);
}
static const akd_aead_ops rfc4309_ops = {"rfc4309", rfc4309_seal_op, rfc4309_open_op};

static void rfc4309_core(akd_ctx *x, const akd_case *c)
{
    static aeskit_rfc4309_key rk;
    if (!akd_check(x, c->iv_len == 8 || c->expect != AKD_VALID,
                   "malformed case: RFC 4309 takes an 8-byte IV, not %zu", c->iv_len) ||
        c->iv_len != 8)
        return;
    aeskit_status st = aeskit_rfc4309_init_backend(&rk, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(x, st, "rfc4309_init");
        return;
    }
    akd_check_backend(x, aeskit_rfc4309_backend(&rk));
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(x, c, &rfc4309_ops, &rk);
    else
        akd_aead_valid(x, c, &rfc4309_ops, &rk);
    aeskit_rfc4309_wipe(&rk);
}

/* with_rfc4309: also run an ESP-shaped case (11-byte nonce, tag 8/12/16) as
 * RFC 4309. */
static void ccm_core(akd_ctx *x, const akd_case *c, int with_rfc4309)
{
    static aeskit_aes_key k;
    if (akd_aes_key(x, c, &k) != 0)
        return;
    int stop = 1;
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(x, c, &ccm_ops, &k);
    else
        stop = akd_aead_valid(x, c, &ccm_ops, &k);
    aeskit_aes_wipe(&k);
    size_t tl = c->tag_len;
    if (!stop && with_rfc4309 && c->iv_len == 11 && (tl == 8 || tl == 12 || tl == 16) &&
        c->key_len <= 32) {
        uint8_t k3[35];
        memcpy(k3, c->key, c->key_len);
        memcpy(k3 + c->key_len, c->iv, 3);
        akd_case d = *c;
        d.key = k3;
        d.key_len = c->key_len + 3;
        d.iv = c->iv + 3;
        d.iv_len = 8;
        rfc4309_core(x, &d);
    }
}

int akd_ccm(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0)
        ccm_core(&x, c, 1);
    return akd_end(&x);
}

int akd_rfc4309(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0) {
        rfc4309_core(&x, c);
        if (c->expect != AKD_INVALID && c->iv_len == 8 && c->key_len >= 19 && c->key_len <= 35) {
            uint8_t nonce[11];
            memcpy(nonce, c->key + c->key_len - 3, 3);
            memcpy(nonce + 3, c->iv, 8);
            akd_case d = *c;
            d.key_len = c->key_len - 3;
            d.iv = nonce;
            d.iv_len = 11;
            ccm_core(&x, &d, 0);
        }
    }
    return akd_end(&x);
}
