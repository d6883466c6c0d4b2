/*
 * drive_xts.c - the XTS driver (drive.h, IEEE 1619-2007): key = data key ||
 * tweak key, iv = the 16-byte tweak.  One-shot and in-place both ways; XTS
 * has no tag and no streaming API.
 */
#include "drive_internal.h"

int akd_xts(const akd_case *c, akd_report *r)
{
    static aeskit_xts_key xk;
    akd_ctx x;
    size_t n = c->msg_len;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (c->iv_len != 16) {
        akd_check(&x, c->expect != AKD_VALID, "malformed case: 16-byte tweak");
        return akd_end(&x);
    }
    aeskit_status st = aeskit_xts_init_backend(&xk, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "xts_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_xts_backend(&xk));
    st = aeskit_xts_encrypt(&xk, x.out, c->msg, n, c->iv);
    if (c->expect == AKD_INVALID) {
        /* no tag: only parameters (a data unit under 16 bytes) can refuse */
        akd_check(&x, st != AESKIT_OK ||
                          aeskit_xts_decrypt(&xk, x.out, c->ct, c->ct_len, c->iv) != AESKIT_OK,
                  "invalid case accepted (XTS cannot refuse these parameters)");
    } else if (st != AESKIT_OK) {
        akd_check(&x, c->expect == AKD_ACCEPTABLE, "xts_encrypt refused a valid case: %s",
                  aeskit_strerror(st));
    } else if (akd_check(&x, c->ct_len == n, "malformed case: ct and msg lengths differ")) {
        akd_check(&x, akd_eq(x.out, c->ct, n), "xts_encrypt: wrong ciphertext");
        memset(x.out, 0, n);
        akd_status(&x, aeskit_xts_decrypt(&xk, x.out, c->ct, n, c->iv), AESKIT_OK, "xts_decrypt");
        akd_check(&x, akd_eq(x.out, c->msg, n), "xts_decrypt: wrong plaintext");
        akd_copy(x.out, c->msg, n);
        akd_status(&x, aeskit_xts_encrypt(&xk, x.out, x.out, n, c->iv), AESKIT_OK, "xts_encrypt in-place");
        akd_check(&x, akd_eq(x.out, c->ct, n), "xts_encrypt in-place: wrong ciphertext");
        akd_status(&x, aeskit_xts_decrypt(&xk, x.out, x.out, n, c->iv), AESKIT_OK, "xts_decrypt in-place");
        akd_check(&x, akd_eq(x.out, c->msg, n), "xts_decrypt in-place: wrong plaintext");
    }
    aeskit_xts_wipe(&xk);
    return akd_end(&x);
}
