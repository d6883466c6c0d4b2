/*
 * drive_cfb.c - the CFB-128, CFB-8 and OFB drivers (drive.h, SP 800-38A
 * 6.3 and 6.4): iv is the 16-byte initialization vector, any message
 * length, ct as long as msg.  Each: one-shot both directions, in-place both
 * directions, and the streaming API (aeskit_cfb128_start / cfb8_start /
 * ofb_start, then updates) in every split pattern, both directions, at the
 * seeded offsets and sometimes in place (drive_internal.h).  None of these
 * modes refuses a parameter but the IV length, so an invalid case is a
 * malformed one.
 */
#include "drive_internal.h"

typedef aeskit_status (*cfb_oneshot_fn)(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                        size_t len, const uint8_t iv[16]);

typedef struct cfb_ops {
    const char *name;
    cfb_oneshot_fn enc, dec;
    int kind; /* 0 CFB-128, 1 CFB-8, 2 OFB: which start function streams it */
} cfb_ops;

static aeskit_status cfb_stream(akd_ctx *x, const cfb_ops *ops, const aeskit_aes_key *k,
                                aeskit_direction dir, size_t p, const uint8_t *in, size_t n,
                                uint8_t *out)
{
    const uint8_t *iv = x->c->iv;
    aeskit_status st;
    if (ops->kind == 2) {
        aeskit_ofb_ctx s;
        st = aeskit_ofb_start(&s, k, iv);
        for (size_t off = 0; st == AESKIT_OK && off < n;) {
            size_t m = akd_chunk(x, p, n - off);
            st = aeskit_ofb_update(&s, out + off, in + off, m);
            off += m;
        }
        aeskit_ofb_ctx_wipe(&s);
        return st;
    }
    aeskit_cfb_ctx s;
    st = ops->kind == 0 ? aeskit_cfb128_start(&s, k, dir, iv) : aeskit_cfb8_start(&s, k, dir, iv);
    for (size_t off = 0; st == AESKIT_OK && off < n;) {
        size_t m = akd_chunk(x, p, n - off);
        st = aeskit_cfb_update(&s, out + off, in + off, m);
        off += m;
    }
    aeskit_cfb_ctx_wipe(&s);
    return st;
}

static int cfb_run(const akd_case *c, akd_report *r, const cfb_ops *ops)
{
    static aeskit_aes_key k;
    akd_ctx x;
    size_t n = c->msg_len;
    if (akd_begin_iv16(&x, c, r, &k) != 0)
        return akd_end(&x);
    aeskit_status st = ops->enc(&k, x.out, c->msg, n, c->iv);
    if (c->expect == AKD_INVALID) {
        akd_check(&x, st != AESKIT_OK || !akd_eq(x.out, c->ct, n),
                  "%s: invalid case accepted with the expected output", ops->name);
    } else if (st != AESKIT_OK) {
        akd_check(&x, c->expect == AKD_ACCEPTABLE, "%s encrypt refused a valid case: %s",
                  ops->name, aeskit_strerror(st));
    } else {
        akd_check(&x, akd_eq(x.out, c->ct, n), "%s encrypt: wrong ciphertext", ops->name);
        akd_status(&x, ops->dec(&k, x.out, c->ct, n, c->iv), AESKIT_OK, "decrypt");
        akd_check(&x, akd_eq(x.out, c->msg, n), "%s decrypt: wrong plaintext", ops->name);
        akd_copy(x.out, c->msg, n);
        akd_status(&x, ops->enc(&k, x.out, x.out, n, c->iv), AESKIT_OK, "encrypt in-place");
        akd_check(&x, akd_eq(x.out, c->ct, n), "%s encrypt in-place: wrong ciphertext",
                  ops->name);
        akd_status(&x, ops->dec(&k, x.out, x.out, n, c->iv), AESKIT_OK, "decrypt in-place");
        akd_check(&x, akd_eq(x.out, c->msg, n), "%s decrypt in-place: wrong plaintext",
                  ops->name);
        for (size_t p = 0; p < AKD_NPATTERNS; p++) {
            if (akd_pattern_skipped(p, n))
                continue;
            uint8_t *in, *out;
            akd_layout(&x, c->msg, n, &in, &out);
            st = cfb_stream(&x, ops, &k, AESKIT_SEAL, p, in, n, out);
            akd_check(&x, st == AESKIT_OK && akd_eq(out, c->ct, n),
                      "streaming %s encrypt (step %s, in+%zu out+%zu%s): %s", ops->name,
                      akd_pattern_name(p), (size_t)(in - x.out2),
                      out == in ? 0 : (size_t)(out - x.out), out == in ? " in-place" : "",
                      st ? aeskit_strerror(st) : "wrong ciphertext");
            akd_layout(&x, c->ct, n, &in, &out);
            st = cfb_stream(&x, ops, &k, AESKIT_OPEN, p, in, n, out);
            akd_check(&x, st == AESKIT_OK && akd_eq(out, c->msg, n),
                      "streaming %s decrypt (step %s, in+%zu out+%zu%s): %s", ops->name,
                      akd_pattern_name(p), (size_t)(in - x.out2),
                      out == in ? 0 : (size_t)(out - x.out), out == in ? " in-place" : "",
                      st ? aeskit_strerror(st) : "wrong plaintext");
        }
    }
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}

static const cfb_ops cfb128_ops = {"cfb128", aeskit_cfb128_encrypt, aeskit_cfb128_decrypt, 0};
static const cfb_ops cfb8_ops = {"cfb8", aeskit_cfb8_encrypt, aeskit_cfb8_decrypt, 1};
static const cfb_ops ofb_ops = {"ofb", aeskit_ofb_crypt, aeskit_ofb_crypt, 2};

int akd_cfb128(const akd_case *c, akd_report *r) { return cfb_run(c, r, &cfb128_ops); }
int akd_cfb8(const akd_case *c, akd_report *r) { return cfb_run(c, r, &cfb8_ops); }
int akd_ofb(const akd_case *c, akd_report *r) { return cfb_run(c, r, &ofb_ops); }
