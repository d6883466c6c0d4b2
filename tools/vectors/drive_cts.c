/*
 * drive_cts.c - the CBC-CTS drivers (drive.h; NIST SP 800-38A addendum,
 * variants CS1, CS2, CS3): iv is the 16-byte IV, msg at least 16 bytes,
 * ct as long as msg.  The mode has no streaming API: one-shot both
 * directions and in-place both directions.  An invalid case (a message
 * shorter than a block) must be refused both ways with AESKIT_ERR_LENGTH
 * and nothing written.
 */
#include "drive_internal.h"

static int cts_run(const akd_case *c, akd_report *r, aeskit_cts_variant v, const char *name)
{
    static aeskit_aes_key k;
    akd_ctx x;
    size_t n = c->msg_len;
    if (akd_begin_iv16(&x, c, r, &k) != 0)
        return akd_end(&x);
    memset(x.out, 0x5a, n);
    aeskit_status st = aeskit_cbc_cts_encrypt(&k, x.out, c->msg, n, c->iv, v);
    if (c->expect == AKD_INVALID) {
        akd_check(&x, st != AESKIT_OK, "%s: invalid case accepted", name);
        st = aeskit_cbc_cts_decrypt(&k, x.out, c->ct, n, c->iv, v);
        akd_check(&x, st != AESKIT_OK, "%s decrypt: invalid case accepted", name);
    } else if (st != AESKIT_OK) {
        akd_check(&x, c->expect == AKD_ACCEPTABLE, "%s encrypt refused a valid case: %s", name,
                  aeskit_strerror(st));
    } else {
        akd_check(&x, akd_eq(x.out, c->ct, n), "%s encrypt: wrong ciphertext", name);
        akd_status(&x, aeskit_cbc_cts_decrypt(&k, x.out, c->ct, n, c->iv, v), AESKIT_OK,
                   "decrypt");
        akd_check(&x, akd_eq(x.out, c->msg, n), "%s decrypt: wrong plaintext", name);
        akd_copy(x.out, c->msg, n);
        akd_status(&x, aeskit_cbc_cts_encrypt(&k, x.out, x.out, n, c->iv, v), AESKIT_OK,
                   "encrypt in-place");
        akd_check(&x, akd_eq(x.out, c->ct, n), "%s encrypt in-place: wrong ciphertext", name);
        akd_status(&x, aeskit_cbc_cts_decrypt(&k, x.out, x.out, n, c->iv, v), AESKIT_OK,
                   "decrypt in-place");
        akd_check(&x, akd_eq(x.out, c->msg, n), "%s decrypt in-place: wrong plaintext", name);
    }
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}

int akd_cts_cs1(const akd_case *c, akd_report *r) { return cts_run(c, r, AESKIT_CTS_CS1, "cts-cs1"); }
int akd_cts_cs2(const akd_case *c, akd_report *r) { return cts_run(c, r, AESKIT_CTS_CS2, "cts-cs2"); }
int akd_cts_cs3(const akd_case *c, akd_report *r) { return cts_run(c, r, AESKIT_CTS_CS3, "cts-cs3"); }
