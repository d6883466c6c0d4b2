/*
 * modes_test.h - what the tests of the AEAD modes of issue 15 (AES-GCM-SIV,
 * OCB3, XAES-256-GCM) share: one table of the three modes behind a common
 * signature, so every check (known answers, in place, tamper, failed-open
 * output) is written once for all of them.
 */
#ifndef AESKIT_MODES_TEST_H
#define AESKIT_MODES_TEST_H

#include "harness.h"

#define MT_FN static __attribute__((unused))

/* Room for any of the three key objects. */
typedef struct mt_key {
    AESKIT_ALIGN(64) unsigned char bytes[4096];
} mt_key;
_Static_assert(sizeof(aeskit_gcmsiv_key) <= sizeof(mt_key), "gcmsiv key fits");
_Static_assert(sizeof(aeskit_ocb_key) <= sizeof(mt_key), "ocb key fits");
_Static_assert(sizeof(aeskit_xaes_key) <= sizeof(mt_key), "xaes key fits");

typedef struct mt_aead {
    const char *name;
    aeskit_status (*init)(mt_key *k, const uint8_t *key, size_t key_len, const char *backend);
    aeskit_status (*seal)(const mt_key *k, uint8_t *out, uint8_t *tag, size_t tag_len,
                          const uint8_t *in, size_t len, const uint8_t *n, size_t n_len,
                          const uint8_t *aad, size_t aad_len);
    aeskit_status (*open)(const mt_key *k, uint8_t *out, const uint8_t *in, size_t len,
                          const uint8_t *tag, size_t tag_len, const uint8_t *n, size_t n_len,
                          const uint8_t *aad, size_t aad_len);
    void (*wipe)(mt_key *k);
} mt_aead;

static aeskit_status mt_siv_init(mt_key *k, const uint8_t *key, size_t kl, const char *be)
{ return aeskit_gcmsiv_init_backend((aeskit_gcmsiv_key *)k, key, kl, be); }
static aeskit_status mt_siv_seal(const mt_key *k, uint8_t *out, uint8_t *tag, size_t tl,
                                 const uint8_t *in, size_t len, const uint8_t *n, size_t nl,
                                 const uint8_t *a, size_t al)
{ return aeskit_gcmsiv_seal((const aeskit_gcmsiv_key *)k, out, tag, tl, in, len, n, nl, a, al); }
static aeskit_status mt_siv_open(const mt_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                 const uint8_t *tag, size_t tl, const uint8_t *n, size_t nl,
                                 const uint8_t *a, size_t al)
{ return aeskit_gcmsiv_open((const aeskit_gcmsiv_key *)k, out, in, len, tag, tl, n, nl, a, al); }
static void mt_siv_wipe(mt_key *k) { aeskit_gcmsiv_wipe((aeskit_gcmsiv_key *)k); }

static aeskit_status mt_ocb_init(mt_key *k, const uint8_t *key, size_t kl, const char *be)
{ return aeskit_ocb_init_backend((aeskit_ocb_key *)k, key, kl, be); }
static aeskit_status mt_ocb_seal(const mt_key *k, uint8_t *out, uint8_t *tag, size_t tl,
                                 const uint8_t *in, size_t len, const uint8_t *n, size_t nl,
                                 const uint8_t *a, size_t al)
{ return aeskit_ocb_seal((const aeskit_ocb_key *)k, out, tag, tl, in, len, n, nl, a, al); }
static aeskit_status mt_ocb_open(const mt_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                 const uint8_t *tag, size_t tl, const uint8_t *n, size_t nl,
                                 const uint8_t *a, size_t al)
{ return aeskit_ocb_open((const aeskit_ocb_key *)k, out, in, len, tag, tl, n, nl, a, al); }
static void mt_ocb_wipe(mt_key *k) { aeskit_ocb_wipe((aeskit_ocb_key *)k); }

static aeskit_status mt_xaes_init(mt_key *k, const uint8_t *key, size_t kl, const char *be)
{ return aeskit_xaes_init_backend((aeskit_xaes_key *)k, key, kl, be); }
static aeskit_status mt_xaes_seal(const mt_key *k, uint8_t *out, uint8_t *tag, size_t tl,
                                  const uint8_t *in, size_t len, const uint8_t *n, size_t nl,
                                  const uint8_t *a, size_t al)
{ return aeskit_xaes_seal((const aeskit_xaes_key *)k, out, tag, tl, in, len, n, nl, a, al); }
static aeskit_status mt_xaes_open(const mt_key *k, uint8_t *out, const uint8_t *in, size_t len,
                                  const uint8_t *tag, size_t tl, const uint8_t *n, size_t nl,
                                  const uint8_t *a, size_t al)
{ return aeskit_xaes_open((const aeskit_xaes_key *)k, out, in, len, tag, tl, n, nl, a, al); }
static void mt_xaes_wipe(mt_key *k) { aeskit_xaes_wipe((aeskit_xaes_key *)k); }

static const mt_aead mt_gcmsiv __attribute__((unused)) = {"AES-GCM-SIV", mt_siv_init,
                                                          mt_siv_seal, mt_siv_open, mt_siv_wipe};
static const mt_aead mt_ocb __attribute__((unused)) = {"OCB3", mt_ocb_init, mt_ocb_seal,
                                                       mt_ocb_open, mt_ocb_wipe};
static const mt_aead mt_xaes __attribute__((unused)) = {"XAES-256-GCM", mt_xaes_init,
                                                        mt_xaes_seal, mt_xaes_open, mt_xaes_wipe};

/* One message through seal and open under every buffer arrangement: out of
 * place, in place, and each failure (tag, ciphertext, AAD and nonce
 * tampered, one bit each) gives AESKIT_ERR_AUTH with out zeroed (out of
 * place) or the ciphertext back (in place).  If want_ct/want_tag are given
 * (known answers) the seal must produce them; else the seal's own output is
 * only checked to open again.  Returns 1 if every check passed. */
MT_FN int mt_check_message(const mt_aead *m, const mt_key *k, const uint8_t *nonce, size_t nl,
                           const uint8_t *aad, size_t al, const uint8_t *pt, size_t len,
                           const uint8_t *want_ct, const uint8_t *want_tag, size_t tl,
                           const char *label)
{
    unsigned long before = th_failures;
    uint8_t *ct = malloc(len + 1), *buf = malloc(len + 1), *a2 = malloc(al + 1);
    uint8_t tag[16], tag2[16], n2[32];
    if (!ct || !buf || !a2)
        exit(2);
    int st = m->seal(k, ct, tag, tl, pt, len, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK, "%s %s: seal %s", m->name, label, aeskit_strerror(st));
    if (want_ct)
        TH_CHECK_MEM(ct, want_ct, len, "%s %s: ciphertext", m->name, label);
    if (want_tag)
        TH_CHECK_MEM(tag, want_tag, tl, "%s %s: tag", m->name, label);
    /* in place seal */
    if (len)
        memcpy(buf, pt, len);
    st = m->seal(k, buf, tag2, tl, buf, len, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK && !memcmp(buf, ct, len) && !memcmp(tag2, tag, tl),
             "%s %s: in-place seal differs", m->name, label);
    /* open, out of place and in place */
    memset(buf, 0xa5, len + 1);
    st = m->open(k, buf, ct, len, tag, tl, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK, "%s %s: open %s", m->name, label, aeskit_strerror(st));
    TH_CHECK_MEM(buf, pt, len, "%s %s: opened plaintext", m->name, label);
    TH_CHECK(buf[len] == 0xa5, "%s %s: open wrote past len", m->name, label);
    if (len)
        memcpy(buf, ct, len);
    st = m->open(k, buf, buf, len, tag, tl, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK, "%s %s: in-place open %s", m->name, label, aeskit_strerror(st));
    TH_CHECK_MEM(buf, pt, len, "%s %s: in-place opened plaintext", m->name, label);

    /* tamper: tag, ciphertext, aad, nonce (one bit each, random position) */
    for (int what = 0; what < 4; what++) {
        if ((what == 1 && len == 0) || (what == 2 && al == 0))
            continue;
        uint8_t *c2 = malloc(len + 1);
        if (!c2)
            exit(2);
        if (len)
            memcpy(c2, ct, len);
        memcpy(tag2, tag, tl);
        if (al)
            memcpy(a2, aad, al);
        memcpy(n2, nonce, nl);
        switch (what) {
        case 0: tag2[th_randn(tl)] ^= (uint8_t)(1u << th_randn(8)); break;
        case 1: c2[th_randn(len)] ^= (uint8_t)(1u << th_randn(8)); break;
        case 2: a2[th_randn(al)] ^= (uint8_t)(1u << th_randn(8)); break;
        default: n2[th_randn(nl)] ^= (uint8_t)(1u << th_randn(8)); break;
        }
        memset(buf, 0xa5, len + 1);
        st = m->open(k, buf, c2, len, tag2, tl, n2, nl, a2, al);
        TH_CHECK(st == AESKIT_ERR_AUTH, "%s %s: tamper %d accepted (%s)", m->name, label, what,
                 aeskit_strerror(st));
        TH_CHECK(th_all_zero(buf, len), "%s %s: tamper %d left output", m->name, label, what);
        uint8_t *c3 = malloc(len + 1);
        if (!c3)
            exit(2);
        if (len)
            memcpy(c3, c2, len);
        st = m->open(k, c2, c2, len, tag2, tl, n2, nl, a2, al);
        TH_CHECK(st == AESKIT_ERR_AUTH, "%s %s: in-place tamper %d accepted", m->name, label,
                 what);
        TH_CHECK(len == 0 || !memcmp(c2, c3, len),
                 "%s %s: in-place tamper %d: ciphertext not restored", m->name, label, what);
        free(c2);
        free(c3);
    }
    free(ct);
    free(buf);
    free(a2);
    return th_failures == before;
}

/* A piece length for streaming: 0..max, half the time small (0..33, around
 * the block boundaries). */
MT_FN size_t mt_piece(size_t max) { return th_randn(2) ? th_randn(34) : th_randn(max + 1); }

/* One OCB message through the streaming API: the AAD and the message in
 * random pieces of up to maxpiece bytes (mt_piece), every update's *out_len
 * checked to be the whole blocks of held + piece.  dir AESKIT_SEAL writes
 * tag, AESKIT_OPEN checks it.  In place (inplace = 1) buf holds the input
 * and receives the output (in = buf + bytes given, out = buf + bytes
 * written: the header's in-place rule); else in -> out.  Returns the first
 * non-OK status (AESKIT_ERR_AUTH from a failed verify). */
MT_FN aeskit_status mt_ocb_stream(const aeskit_ocb_key *k, aeskit_direction dir,
                                  const uint8_t *nonce, size_t nl, size_t tl, const uint8_t *aad,
                                  size_t al, const uint8_t *in, size_t len, uint8_t *out,
                                  uint8_t *tag, size_t maxpiece, int inplace, const char *label)
{
    aeskit_ocb_ctx c;
    aeskit_status st = aeskit_ocb_start(&c, k, dir, nonce, nl, tl);
    if (st != AESKIT_OK)
        return st;
    size_t done = 0;
    do {
        size_t n = mt_piece(maxpiece);
        n = n > al - done ? al - done : n;
        st = aeskit_ocb_update_aad(&c, n ? aad + done : NULL, n);
        if (st != AESKIT_OK)
            return st;
        done += n;
    } while (done < al);
    size_t given = 0, written = 0;
    if (inplace)
        in = out;
    do {
        size_t n = mt_piece(maxpiece), w = (size_t)-1;
        n = n > len - given ? len - given : n;
        size_t want = (given + n) / 16 * 16 - written;
        uint8_t *o = want ? out + written : NULL;
        st = aeskit_ocb_update(&c, o, want ? want + th_randn(2) : 0, &w, n ? in + given : NULL, n);
        if (st != AESKIT_OK)
            return st;
        TH_CHECK(w == want, "%s: update wrote %zu bytes, not %zu", label, w, want);
        given += n;
        written += w;
    } while (given < len || th_randn(4) == 0);
    size_t w = (size_t)-1, held = len - written;
    uint8_t *o = held ? out + written : NULL;
    st = dir == AESKIT_SEAL ? aeskit_ocb_finish(&c, o, held, &w, tag, tl)
                            : aeskit_ocb_finish_verify(&c, o, held, &w, tag, tl);
    TH_CHECK(w == (st == AESKIT_OK ? held : 0), "%s: finish wrote %zu bytes (held %zu, %s)", label,
             w, held, aeskit_strerror(st));
    static const uint8_t zero[sizeof c];
    TH_CHECK(!memcmp(&c, zero, sizeof c), "%s: finish left the context unwiped", label);
    return st;
}

#endif
