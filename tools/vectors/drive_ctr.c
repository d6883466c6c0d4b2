/*
 * drive_ctr.c - the CTR driver (drive.h, SP 800-38A 6.5): iv is the
 * 16-byte initial counter block, incremented as one 128-bit big-endian
 * integer.  One-shot, in-place, streamed in every split pattern.
 */
#include "drive_internal.h"

static aeskit_status ctr_stream(akd_ctx *x, const aeskit_aes_key *k, const uint8_t *iv, size_t p,
                                const uint8_t *in, size_t n, uint8_t *out)
{
    aeskit_ctr_ctx s;
    aeskit_status st = aeskit_ctr_start(&s, k, iv);
    for (size_t off = 0; st == AESKIT_OK && off < n;) {
        size_t m = akd_chunk(x, p, n - off);
        st = aeskit_ctr_update(&s, out + off, in + off, m);
        off += m;
    }
    aeskit_ctr_ctx_wipe(&s);
    return st;
}

int akd_ctr(const akd_case *c, akd_report *r)
{
    static aeskit_aes_key k;
    akd_ctx x;
    size_t n = c->msg_len;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (c->iv_len != 16) {
        akd_check(&x, c->expect != AKD_VALID, "malformed case: 16-byte counter block");
        return akd_end(&x);
    }
    if (akd_aes_key(&x, c, &k) != 0)
        return akd_end(&x);
    aeskit_status st = aeskit_ctr_crypt(&k, x.out, c->msg, n, c->iv);
    if (c->expect == AKD_INVALID) {
        akd_check(&x, st != AESKIT_OK, "invalid case accepted (CTR cannot refuse these parameters)");
    } else if (st != AESKIT_OK) {
        akd_check(&x, c->expect == AKD_ACCEPTABLE, "ctr_crypt refused a valid case: %s",
                  aeskit_strerror(st));
    } else if (akd_check(&x, c->ct_len == n, "malformed case: ct and msg lengths differ")) {
        akd_check(&x, akd_eq(x.out, c->ct, n), "ctr_crypt: wrong ciphertext");
        akd_status(&x, aeskit_ctr_crypt(&k, x.out, c->ct, n, c->iv), AESKIT_OK, "ctr_crypt (decrypt)");
        akd_check(&x, akd_eq(x.out, c->msg, n), "ctr_crypt (decrypt): wrong plaintext");
        akd_copy(x.out, c->msg, n);
        akd_status(&x, aeskit_ctr_crypt(&k, x.out, x.out, n, c->iv), AESKIT_OK, "ctr_crypt in-place");
        akd_check(&x, akd_eq(x.out, c->ct, n), "ctr_crypt in-place: wrong ciphertext");
        akd_status(&x, aeskit_ctr_crypt(&k, x.out, x.out, n, c->iv), AESKIT_OK,
                   "ctr_crypt in-place (decrypt)");
        akd_check(&x, akd_eq(x.out, c->msg, n), "ctr_crypt in-place (decrypt): wrong plaintext");
        for (size_t p = 0; p < AKD_NPATTERNS; p++) {
            if (akd_pattern_skipped(p, n))
                continue;
            uint8_t *in, *out;
            akd_layout(&x, c->msg, n, &in, &out);
            st = ctr_stream(&x, &k, c->iv, p, in, n, out);
            akd_check(&x, st == AESKIT_OK && akd_eq(out, c->ct, n),
                      "streaming ctr (step %s, in+%zu out+%zu%s): %s", akd_pattern_name(p),
                      (size_t)(in - x.out2), out == in ? 0 : (size_t)(out - x.out),
                      out == in ? " in-place" : "", st ? aeskit_strerror(st) : "wrong ciphertext");
            akd_layout(&x, c->ct, n, &in, &out);
            st = ctr_stream(&x, &k, c->iv, p, in, n, out);
            akd_check(&x, st == AESKIT_OK && akd_eq(out, c->msg, n),
                      "streaming ctr decrypt (step %s, in+%zu out+%zu%s): %s", akd_pattern_name(p),
                      (size_t)(in - x.out2), out == in ? 0 : (size_t)(out - x.out),
                      out == in ? " in-place" : "", st ? aeskit_strerror(st) : "wrong plaintext");
        }
    }
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}
