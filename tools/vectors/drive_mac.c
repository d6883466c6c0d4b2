/*
 * drive_mac.c - the MAC drivers (drive.h): CMAC (SP 800-38B, RFC 4493) and
 * raw CBC-MAC (aeskit_cbcmac_blocks).
 */
#include <stdlib.h>

#include "drive_internal.h"

/* Streams msg (or the given copy m) in pattern p; finish into tag_out, or
 * finish_verify against tag when tag_out is NULL. */
static aeskit_status cmac_stream(akd_ctx *x, const aeskit_cmac_key *ck, const akd_case *c,
                                 size_t p, const uint8_t *m, const uint8_t *tag, uint8_t *tag_out)
{
    aeskit_cmac_ctx s;
    aeskit_status st = aeskit_cmac_start(&s, ck);
    for (size_t off = 0; st == AESKIT_OK && off < c->msg_len;) {
        size_t n = akd_chunk(x, p, c->msg_len - off);
        st = aeskit_cmac_update(&s, m + off, n);
        off += n;
    }
    if (st == AESKIT_OK)
        st = tag_out ? aeskit_cmac_finish(&s, tag_out, c->tag_len)
                     : aeskit_cmac_finish_verify(&s, tag, c->tag_len);
    aeskit_cmac_ctx_wipe(&s);
    return st;
}

int akd_cmac(const akd_case *c, akd_report *r)
{
    static aeskit_cmac_key ck;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    size_t tl = c->tag_len;
    aeskit_status st = aeskit_cmac_init_backend(&ck, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(&x, st, "cmac_init");
        return akd_end(&x);
    }
    akd_check_backend(&x, aeskit_cmac_backend(&ck));
    st = aeskit_cmac_verify(&ck, c->msg, c->msg_len, c->tag, tl);
    if (c->expect == AKD_INVALID) {
        akd_check(&x, st != AESKIT_OK, "invalid case accepted by cmac_verify");
        akd_check(&x, cmac_stream(&x, &ck, c, AKD_NPATTERNS - 2, c->msg, c->tag, NULL) != AESKIT_OK,
                  "invalid case accepted by streaming cmac_finish_verify");
    } else if (st != AESKIT_OK) {
        akd_check(&x, c->expect == AKD_ACCEPTABLE, "cmac_verify refused a valid case: %s",
                  aeskit_strerror(st));
    } else if (akd_check(&x, tl >= 1 && tl <= 16, "malformed case: tag %zu bytes", tl)) {
        uint8_t t[16];
        akd_status(&x, aeskit_cmac(&ck, t, tl, c->msg, c->msg_len), AESKIT_OK, "cmac");
        akd_check(&x, akd_eq(t, c->tag, tl), "cmac: wrong tag");
        for (size_t p = 0; p < AKD_NPATTERNS; p++) {
            if (akd_pattern_skipped(p, c->msg_len))
                continue;
            uint8_t *in, *unused;
            akd_layout(&x, c->msg, c->msg_len, &in, &unused);
            st = cmac_stream(&x, &ck, c, p, in, NULL, t);
            akd_check(&x, st == AESKIT_OK && akd_eq(t, c->tag, tl), "streaming cmac (step %s): %s",
                      akd_pattern_name(p), st ? aeskit_strerror(st) : "wrong tag");
            st = cmac_stream(&x, &ck, c, p, c->msg, c->tag, NULL);
            akd_check(&x, st == AESKIT_OK, "streaming cmac_finish_verify (step %s): %s",
                      akd_pattern_name(p), aeskit_strerror(st));
        }
        /* tamper: flipped bits of the tag and the message, one-shot and
         * streaming verification */
        memcpy(t, c->tag, tl);
        akd_copy(x.out, c->msg, c->msg_len);
        struct {
            uint8_t *p;
            size_t n;
            const char *name;
        } fields[2] = {{t, tl, "tag"}, {x.out, c->msg_len, "message"}};
        for (size_t f = 0; f < 2; f++)
            for (size_t b = akd_bit_first(&x, fields[f].n); b < 8 * fields[f].n;
                 b = akd_bit_next(&x, b, fields[f].n)) {
                akd_bit_flip(fields[f].p, b);
                st = aeskit_cmac_verify(&ck, x.out, c->msg_len, t, tl);
                akd_check(&x, st == AESKIT_ERR_AUTH, "cmac_verify: flipped %s bit %zu: %s",
                          fields[f].name, b, aeskit_strerror(st));
                st = cmac_stream(&x, &ck, c, AKD_NPATTERNS - 2, x.out, t, NULL);
                akd_check(&x, st == AESKIT_ERR_AUTH,
                          "streaming cmac_finish_verify: flipped %s bit %zu: %s", fields[f].name, b,
                          aeskit_strerror(st));
                akd_bit_flip(fields[f].p, b);
            }
    }
    aeskit_cmac_wipe(&ck);
    return akd_end(&x);
}

int akd_cbcmac(const akd_case *c, akd_report *r)
{
    static aeskit_aes_key k;
    akd_ctx x;
    if (akd_begin(&x, c, r) != 0)
        return akd_end(&x);
    if (!akd_check(&x, c->iv_len == 16 && c->tag_len == 16 && c->msg_len % 16 == 0,
                   "malformed case: CBC-MAC takes a 16-byte state, whole blocks"))
        return akd_end(&x);
    if (akd_aes_key(&x, c, &k) != 0)
        return akd_end(&x);
    aeskit_status st = AESKIT_OK; /* an empty message takes no step */
    uint8_t s[16];
    memcpy(s, c->iv, 16);
    akd_status(&x, aeskit_cbcmac_blocks(&k, s, c->msg, c->msg_len), AESKIT_OK, "cbcmac_blocks");
    akd_check(&x, akd_eq(s, c->tag, 16), "cbcmac_blocks: wrong state");
    /* in random whole-block steps, the state carried between calls */
    memcpy(s, c->iv, 16);
    for (size_t off = 0; off < c->msg_len;) {
        size_t n = 16 * akd_rand(&x, 6);
        if (n > c->msg_len - off)
            n = c->msg_len - off;
        st = aeskit_cbcmac_blocks(&k, s, c->msg + off, n);
        if (st != AESKIT_OK)
            break;
        off += n;
    }
    akd_check(&x, st == AESKIT_OK && akd_eq(s, c->tag, 16), "cbcmac_blocks in block steps: %s",
              st ? aeskit_strerror(st) : "wrong state");
    aeskit_aes_wipe(&k);
    return akd_end(&x);
}
