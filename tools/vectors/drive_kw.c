/*
 * drive_kw.c - the key-wrap drivers (drive.h): AES-KW and AES-KWP
 * (SP 800-38F 6.2, 6.3; RFC 3394, RFC 5649).  A case is key, msg (the key
 * data) and ct (the wrapped key); no IV, AAD or tag: the integrity check is
 * inside ct.  For a valid case: wrap gives exactly ct and unwrap gives msg
 * back, out-of-place and in-place; a flipped bit of ct (seeded, or every
 * tamper_stride-th) is refused with AESKIT_ERR_AUTH, *out_len 0 and the
 * len - 8 output bytes zeroed.  An invalid case: unwrap refuses it (the
 * same way when it refuses with AESKIT_ERR_AUTH), out-of-place and
 * in-place.  An acceptable case (Wycheproof AES-WRAP: key data of one
 * semiblock, which KW does not take, SP 800-38F 6.2): unwrap may refuse
 * it; if it accepts, the bytes must match, and if wrap accepts msg it must
 * give ct.
 */
#include "drive_internal.h"

typedef aeskit_status (*akd_kw_fn)(const aeskit_aes_key *k, uint8_t *out, size_t out_cap,
                                   size_t *out_len, const uint8_t *in, size_t len);

typedef struct akd_kw_ops {
    const char *name;
    akd_kw_fn wrap, unwrap;
} akd_kw_ops;

static const akd_kw_ops kw_ops = {"kw", aeskit_kw_wrap, aeskit_kw_unwrap};
static const akd_kw_ops kwp_ops = {"kwp", aeskit_kwp_wrap, aeskit_kwp_unwrap};

/* Unwraps in (len bytes), which must be refused: out-of-place into a
 * pre-filled buffer and in-place on a copy.  A refusal of the integrity
 * check (AESKIT_ERR_AUTH) must leave *out_len 0 and the len - 8 output bytes
 * zeroed; other refusals (a length the mode does not take) are checked
 * before anything is written. */
static void kw_expect_refused(akd_ctx *x, const akd_kw_ops *ops, const aeskit_aes_key *k,
                              const uint8_t *in, size_t len, int want_auth, const char *what,
                              size_t bit)
{
    size_t zl = len >= 8 ? len - 8 : 0;
    for (int inplace = 0; inplace < 2; inplace++) {
        size_t n = 12345;
        const uint8_t *src = inplace ? x->out : in;
        if (inplace)
            akd_copy(x->out, in, len);
        else
            memset(x->out, 0xa5, len);
        aeskit_status st = ops->unwrap(k, x->out, x->cap, &n, src, len);
        const char *where = inplace ? " in-place" : "";
        if (want_auth)
            akd_check(x, st == AESKIT_ERR_AUTH, "%s unwrap%s: %s bit %zu: %s (want %s)",
                      ops->name, where, what, bit, aeskit_strerror(st),
                      aeskit_strerror(AESKIT_ERR_AUTH));
        else
            akd_check(x, st != AESKIT_OK, "%s unwrap%s: %s accepted", ops->name, where, what);
        if (st == AESKIT_ERR_AUTH)
            akd_check(x, n == 0 && akd_zero(x->out, zl),
                      "%s unwrap%s refused %s but left *out_len %zu or output unzeroed",
                      ops->name, where, what, n);
    }
}

static void kw_core(akd_ctx *x, const akd_case *c, const akd_kw_ops *ops)
{
    static aeskit_aes_key k;
    if (akd_aes_key(x, c, &k) != 0)
        return;
    aeskit_status st;
    size_t ml = c->msg_len, cl = c->ct_len, n = 0;
    if (c->expect == AKD_INVALID) {
        kw_expect_refused(x, ops, &k, c->ct, cl, 0, "invalid case", 0);
        aeskit_aes_wipe(&k);
        return;
    }
    /* unwrap first: an acceptable case may stop here */
    memset(x->out, 0xa5, cl);
    st = ops->unwrap(&k, x->out, x->cap, &n, c->ct, cl);
    if (st != AESKIT_OK && c->expect == AKD_ACCEPTABLE) {
        akd_check(x, 1, "acceptable case refused");
        aeskit_aes_wipe(&k);
        return;
    }
    akd_status(x, st, AESKIT_OK, "unwrap of the expected ciphertext");
    akd_check(x, st == AESKIT_OK && n == ml && akd_eq(x->out, c->msg, ml),
              "%s unwrap: wrong key data (%zu bytes, want %zu)", ops->name, n, ml);
    n = 0;
    st = ops->wrap(&k, x->out, x->cap, &n, c->msg, ml);
    if (!(st != AESKIT_OK && c->expect == AKD_ACCEPTABLE)) {
        akd_status(x, st, AESKIT_OK, "wrap");
        akd_check(x, st == AESKIT_OK && n == cl && akd_eq(x->out, c->ct, cl),
                  "%s wrap: wrong ciphertext (%zu bytes, want %zu)", ops->name, n, cl);
        /* in-place both ways: the buffer holds the larger of the two */
        akd_copy(x->out2, c->msg, ml);
        n = 0;
        st = ops->wrap(&k, x->out2, x->cap, &n, x->out2, ml);
        akd_check(x, st == AESKIT_OK && n == cl && akd_eq(x->out2, c->ct, cl),
                  "%s wrap in-place: %s, wrong ciphertext", ops->name, aeskit_strerror(st));
    }
    akd_copy(x->out2, c->ct, cl);
    n = 0;
    st = ops->unwrap(&k, x->out2, x->cap, &n, x->out2, cl);
    akd_check(x, st == AESKIT_OK && n == ml && akd_eq(x->out2, c->msg, ml),
              "%s unwrap in-place: %s, wrong key data", ops->name, aeskit_strerror(st));

    /* tamper: flipped bits of the wrapped key */
    uint8_t *t = x->out2;
    for (size_t b = akd_bit_first(x, cl); b < 8 * cl; b = akd_bit_next(x, b, cl)) {
        akd_copy(t, c->ct, cl);
        akd_bit_flip(t, b);
        /* kw_expect_refused uses x->out as its buffer; the flipped copy
           stays in x->out2 */
        kw_expect_refused(x, ops, &k, t, cl, 1, "flipped ciphertext", b);
    }
    aeskit_aes_wipe(&k);
}

int akd_kw(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0)
        kw_core(&x, c, &kw_ops);
    return akd_end(&x);
}

int akd_kwp(const akd_case *c, akd_report *r)
{
    akd_ctx x;
    if (akd_begin(&x, c, r) == 0)
        kw_core(&x, c, &kwp_ops);
    return akd_end(&x);
}
