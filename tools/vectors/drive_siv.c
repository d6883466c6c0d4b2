/*
 * drive_siv.c - the drivers (drive.h) of the one-shot AEADs of issue 15
 * that Wycheproof has files for: AES-GCM-SIV (RFC 8452), EAX (Bellare,
 * Rogaway, Wagner 2004), AES-SIV deterministic (RFC 5297 2.6/2.7, one
 * associated-data string) and its AEAD form (RFC 5297 6).  None of them
 * streams, so each is one-shot, in-place and tamper (drive_aead.c).
 *
 * The deterministic SIV case: tag = V, ct = C, aad = the one AD string, no
 * IV (Wycheproof's ct is V || C; wycheproof.c splits it).  GCM-SIV and both
 * SIV forms take only a 16-byte tag: another length is refused by the ops
 * below as AESKIT_ERR_TAG_LENGTH, so an invalid case with a short tag is
 * "refused by its parameters" and a valid one fails.
 */
#include "drive_internal.h"

/* ---- AES-GCM-SIV ------------------------------------------------------------ */

static aeskit_status gcmsiv_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                    uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_gcmsiv_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, c->iv_len, aad,
                              c->aad_len);
}
static aeskit_status gcmsiv_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                    uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_gcmsiv_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, c->iv_len, aad,
                              c->aad_len);
}
static const akd_aead_ops gcmsiv_ops = {"gcm-siv", gcmsiv_seal_op, gcmsiv_open_op};

int akd_gcmsiv(const akd_case *c, akd_report *r)
{
    static aeskit_gcmsiv_key k;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    aeskit_status st = aeskit_gcmsiv_init_backend(&k, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "gcmsiv_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_gcmsiv_backend(&k));
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(&x, c, &gcmsiv_ops, &k);
    else
        akd_aead_valid(&x, c, &gcmsiv_ops, &k);
    aeskit_gcmsiv_wipe(&k);
    return akd_end(&x);
}

/* ---- EAX -------------------------------------------------------------------- */

static aeskit_status eax_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    return aeskit_eax_seal(k, out, tag, c->tag_len, in, c->msg_len, c->iv, c->iv_len, aad,
                           c->aad_len);
}
static aeskit_status eax_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    return aeskit_eax_open(k, out, in, c->ct_len, tag, c->tag_len, c->iv, c->iv_len, aad,
                           c->aad_len);
}
static const akd_aead_ops eax_ops = {"eax", eax_seal_op, eax_open_op};

int akd_eax(const akd_case *c, akd_report *r)
{
    static aeskit_eax_key k;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    aeskit_status st = aeskit_eax_init_backend(&k, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "eax_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_eax_backend(&k));
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(&x, c, &eax_ops, &k);
    else
        akd_aead_valid(&x, c, &eax_ops, &k);
    aeskit_eax_wipe(&k);
    return akd_end(&x);
}

/* ---- AES-SIV: deterministic (one AD string) and the AEAD form ------------- */

static aeskit_status siv_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    const uint8_t *ad[1] = {aad};
    size_t ad_len[1] = {c->aad_len};
    if (c->tag_len != 16)
        return AESKIT_ERR_TAG_LENGTH;
    return aeskit_siv_seal(k, out, tag, in, c->msg_len, ad, ad_len, 1);
}
static aeskit_status siv_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                 uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    const uint8_t *ad[1] = {aad};
    size_t ad_len[1] = {c->aad_len};
    if (c->tag_len != 16)
        return AESKIT_ERR_TAG_LENGTH;
    return aeskit_siv_open(k, out, in, c->ct_len, tag, ad, ad_len, 1);
}
static const akd_aead_ops siv_ops = {"siv", siv_seal_op, siv_open_op};

static aeskit_status siv_aead_seal_op(const void *k, const akd_case *c, const uint8_t *aad,
                                      uint8_t *out, uint8_t *tag, const uint8_t *in)
{
    if (c->tag_len != 16)
        return AESKIT_ERR_TAG_LENGTH;
    return aeskit_siv_aead_seal(k, out, tag, in, c->msg_len, c->iv, c->iv_len, aad, c->aad_len);
}
static aeskit_status siv_aead_open_op(const void *k, const akd_case *c, const uint8_t *aad,
                                      uint8_t *out, const uint8_t *in, const uint8_t *tag)
{
    if (c->tag_len != 16)
        return AESKIT_ERR_TAG_LENGTH;
    return aeskit_siv_aead_open(k, out, in, c->ct_len, tag, c->iv, c->iv_len, aad, c->aad_len);
}
static const akd_aead_ops siv_aead_ops = {"siv-aead", siv_aead_seal_op, siv_aead_open_op};

static int siv_run(const akd_case *c, akd_report *r, const akd_aead_ops *ops)
{
    static aeskit_siv_key k;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    aeskit_status st = aeskit_siv_init_backend(&k, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "siv_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_siv_backend(&k));
    if (c->expect == AKD_INVALID)
        akd_aead_invalid(&x, c, ops, &k);
    else
        akd_aead_valid(&x, c, ops, &k);
    aeskit_siv_wipe(&k);
    return akd_end(&x);
}

int akd_siv(const akd_case *c, akd_report *r) { return siv_run(c, r, &siv_ops); }

int akd_siv_aead(const akd_case *c, akd_report *r) { return siv_run(c, r, &siv_aead_ops); }
