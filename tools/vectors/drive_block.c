/*
 * drive_block.c - the block-cipher drivers (drive.h): one AES block
 * (FIPS 197), ECB, raw CBC and CBC with PKCS#7 padding (SP 800-38A,
 * RFC 5652 6.3).  Unauthenticated: one-shot, in-place and calls continued
 * in whole-block steps; no tamper check.
 */
#include "drive_internal.h"

/* Opens the AES key of c; 1 if the case is over (refused). */
static int aes_key(akd_ctx *x, const akd_case *c, aeskit_aes_key *k)
{
    aeskit_status st = aeskit_aes_init_backend(k, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK)
        return akd_init_refused(x, st, "aes_init");
    akd_check_backend(x, aeskit_aes_backend(k));
    return 0;
}

int akd_aes(const akd_case *c, akd_report *r)
{
    static aeskit_aes_key k;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (!akd_check(&x, c->msg_len == 16 && c->ct_len == 16, "malformed case: one block") ||
        aes_key(&x, c, &k))
        return akd_end(&x);
    uint8_t b[16];
    akd_status(&x, aeskit_aes_encrypt_block(&k, b, c->msg), AESKIT_OK, "encrypt_block");
    akd_check(&x, akd_eq(b, c->ct, 16), "encrypt_block: wrong bytes");
    akd_status(&x, aeskit_aes_decrypt_block(&k, b, c->ct), AESKIT_OK, "decrypt_block");
    akd_check(&x, akd_eq(b, c->msg, 16), "decrypt_block: wrong bytes");
    memcpy(b, c->msg, 16);
    akd_status(&x, aeskit_aes_encrypt_block(&k, b, b), AESKIT_OK, "encrypt_block in-place");
    akd_check(&x, akd_eq(b, c->ct, 16), "encrypt_block in-place: wrong bytes");
    akd_status(&x, aeskit_aes_decrypt_block(&k, b, b), AESKIT_OK, "decrypt_block in-place");
    akd_check(&x, akd_eq(b, c->msg, 16), "decrypt_block in-place: wrong bytes");
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}

int akd_ecb(const akd_case *c, akd_report *r)
{
    static aeskit_aes_key k;
    akd_ctx x;
    size_t n = c->msg_len;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (!akd_check(&x, c->ct_len == n && n % 16 == 0, "malformed case: whole blocks") ||
        aes_key(&x, c, &k))
        return akd_end(&x);
    akd_status(&x, aeskit_ecb_encrypt(&k, x.out, c->msg, n), AESKIT_OK, "ecb_encrypt");
    akd_check(&x, akd_eq(x.out, c->ct, n), "ecb_encrypt: wrong ciphertext");
    akd_status(&x, aeskit_ecb_decrypt(&k, x.out, c->ct, n), AESKIT_OK, "ecb_decrypt");
    akd_check(&x, akd_eq(x.out, c->msg, n), "ecb_decrypt: wrong plaintext");
    akd_copy(x.out, c->msg, n);
    akd_status(&x, aeskit_ecb_encrypt(&k, x.out, x.out, n), AESKIT_OK, "ecb_encrypt in-place");
    akd_check(&x, akd_eq(x.out, c->ct, n), "ecb_encrypt in-place: wrong ciphertext");
    akd_status(&x, aeskit_ecb_decrypt(&k, x.out, x.out, n), AESKIT_OK, "ecb_decrypt in-place");
    akd_check(&x, akd_eq(x.out, c->msg, n), "ecb_decrypt in-place: wrong plaintext");
    /* in random whole-block steps */
    aeskit_status st = AESKIT_OK;
    for (size_t off = 0; st == AESKIT_OK && off < n;) {
        size_t m = 16 * (1 + akd_rand(&x, 5));
        if (m > n - off)
            m = n - off;
        st = aeskit_ecb_encrypt(&k, x.out2 + off, c->msg + off, m);
        off += m;
    }
    akd_check(&x, st == AESKIT_OK && akd_eq(x.out2, c->ct, n), "ecb_encrypt in block steps: %s",
              st ? aeskit_strerror(st) : "wrong ciphertext");
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}

/* Raw CBC over in (n whole blocks) in steps of `blocks` blocks (0: random
 * 0..4), the chaining value carried between calls; 1 if out == want and
 * the final chaining value is last. */
static int cbc_steps(akd_ctx *x, const aeskit_aes_key *k, int dec, const uint8_t *iv0,
                     const uint8_t *in, size_t n, uint8_t *out, const uint8_t *want,
                     const uint8_t *last, size_t blocks)
{
    uint8_t iv[16];
    aeskit_status st = AESKIT_OK;
    memcpy(iv, iv0, 16);
    for (size_t off = 0; st == AESKIT_OK && off < n;) {
        size_t m = 16 * (blocks ? blocks : akd_rand(x, 5));
        if (m > n - off)
            m = n - off;
        st = dec ? aeskit_cbc_decrypt(k, out + off, in + off, m, iv)
                 : aeskit_cbc_encrypt(k, out + off, in + off, m, iv);
        off += m;
    }
    return st == AESKIT_OK && akd_eq(out, want, n) && akd_eq(iv, last, 16);
}

int akd_cbc(const akd_case *c, akd_report *r)
{
    static aeskit_aes_key k;
    akd_ctx x;
    size_t n = c->msg_len;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (!akd_check(&x, c->ct_len == n && n % 16 == 0 && c->iv_len == 16,
                   "malformed case: whole blocks, 16-byte IV") ||
        aes_key(&x, c, &k))
        return akd_end(&x);
    const uint8_t *last = n ? c->ct + n - 16 : c->iv; /* the chaining value after the message */
    akd_check(&x, cbc_steps(&x, &k, 0, c->iv, c->msg, n, x.out, c->ct, last, n / 16 + 1),
              "cbc_encrypt: wrong ciphertext or chaining value");
    akd_check(&x, cbc_steps(&x, &k, 1, c->iv, c->ct, n, x.out, c->msg, last, n / 16 + 1),
              "cbc_decrypt: wrong plaintext or chaining value");
    akd_copy(x.out, c->msg, n);
    akd_check(&x, cbc_steps(&x, &k, 0, c->iv, x.out, n, x.out, c->ct, last, n / 16 + 1),
              "cbc_encrypt in-place: wrong ciphertext");
    akd_check(&x, cbc_steps(&x, &k, 1, c->iv, x.out, n, x.out, c->msg, last, n / 16 + 1),
              "cbc_decrypt in-place: wrong plaintext");
    akd_check(&x, cbc_steps(&x, &k, 0, c->iv, c->msg, n, x.out, c->ct, last, 1),
              "cbc_encrypt one block per call: wrong ciphertext");
    akd_check(&x, cbc_steps(&x, &k, 1, c->iv, c->ct, n, x.out, c->msg, last, 1),
              "cbc_decrypt one block per call: wrong plaintext");
    akd_check(&x, cbc_steps(&x, &k, 0, c->iv, c->msg, n, x.out, c->ct, last, 0),
              "cbc_encrypt in random block steps: wrong ciphertext");
    akd_check(&x, cbc_steps(&x, &k, 1, c->iv, c->ct, n, x.out, c->msg, last, 0),
              "cbc_decrypt in random block steps: wrong plaintext");
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}

int akd_cbc_pkcs7(const akd_case *c, akd_report *r)
{
    static aeskit_aes_key k;
    akd_ctx x;
    size_t n = c->msg_len, olen = 0;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (c->iv_len != 16) {
        akd_check(&x, c->expect != AKD_VALID, "malformed case: 16-byte IV");
        return akd_end(&x);
    }
    if (aes_key(&x, c, &k))
        return akd_end(&x);
    aeskit_status st;
    if (c->expect == AKD_INVALID) {
        memset(x.out, 0x5a, x.cap);
        olen = 12345;
        st = aeskit_cbc_pkcs7_decrypt(&k, x.out, x.cap, &olen, c->ct, c->ct_len, c->iv);
        akd_check(&x, st != AESKIT_OK, "invalid case accepted by cbc_pkcs7_decrypt");
        if (st == AESKIT_ERR_PADDING)
            akd_check(&x, olen == 0 && akd_zero(x.out, c->ct_len),
                      "bad padding refused but the output was not wiped");
        aeskit_aes_wipe(&k);
        return akd_end(&x);
    }
    int acc = c->expect == AKD_ACCEPTABLE;
    size_t padded = n / 16 * 16 + 16;
    if (c->ct_len != padded) {
        akd_check(&x, acc, "malformed case: ct is not msg padded to whole blocks");
        aeskit_aes_wipe(&k);
        return akd_end(&x);
    }
    st = aeskit_cbc_pkcs7_encrypt(&k, x.out, x.cap, &olen, c->msg, n, c->iv);
    if (st != AESKIT_OK) {
        akd_check(&x, acc, "cbc_pkcs7_encrypt refused a valid case: %s", aeskit_strerror(st));
        aeskit_aes_wipe(&k);
        return akd_end(&x);
    }
    akd_check(&x, olen == padded && akd_eq(x.out, c->ct, padded),
              "cbc_pkcs7_encrypt: wrong ciphertext");
    st = aeskit_cbc_pkcs7_encrypt(&k, x.out, padded - 1, &olen, c->msg, n, c->iv);
    akd_status(&x, st, AESKIT_ERR_BUFFER_TOO_SMALL, "cbc_pkcs7_encrypt into one byte too few");
    memset(x.out, 0xa5, x.cap);
    st = aeskit_cbc_pkcs7_decrypt(&k, x.out, x.cap, &olen, c->ct, padded, c->iv);
    if (st != AESKIT_OK && acc) {
        aeskit_aes_wipe(&k);
        return akd_end(&x);
    }
    akd_status(&x, st, AESKIT_OK, "cbc_pkcs7_decrypt");
    akd_check(&x, olen == n && akd_eq(x.out, c->msg, n), "cbc_pkcs7_decrypt: wrong plaintext");
    /* in-place both ways */
    akd_copy(x.out, c->msg, n);
    st = aeskit_cbc_pkcs7_encrypt(&k, x.out, x.cap, &olen, x.out, n, c->iv);
    akd_check(&x, st == AESKIT_OK && olen == padded && akd_eq(x.out, c->ct, padded),
              "cbc_pkcs7_encrypt in-place: %s", st ? aeskit_strerror(st) : "wrong ciphertext");
    st = aeskit_cbc_pkcs7_decrypt(&k, x.out, x.cap, &olen, x.out, padded, c->iv);
    akd_check(&x, st == AESKIT_OK && olen == n && akd_eq(x.out, c->msg, n),
              "cbc_pkcs7_decrypt in-place: %s", st ? aeskit_strerror(st) : "wrong plaintext");
    /* raw CBC over the padded message in random whole-block steps, in-place */
    akd_copy(x.out, c->msg, n);
    memset(x.out + n, (int)(padded - n), padded - n);
    akd_copy(x.out2, x.out, padded);
    akd_check(&x, cbc_steps(&x, &k, 0, c->iv, x.out, padded, x.out, c->ct, c->ct + padded - 16, 0),
              "raw cbc_encrypt of the padded message in random block steps differs");
    akd_check(&x, cbc_steps(&x, &k, 1, c->iv, x.out, padded, x.out, x.out2, c->ct + padded - 16, 0),
              "raw cbc_decrypt of the padded message in random block steps differs");
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}
