/*
 * args_modes.c - every documented argument error of AES-GCM-SIV, OCB3 and
 * XAES-256-GCM, in the header's order (NULL, state, lengths, overlap), and
 * that a refused call writes nothing; object sizes, alignment, backend
 * names and wipe.  Under the backend named by AESKIT_BACKEND.
 */
#include "modes_test.h"

static uint8_t buf[256], tagb[16], nonce[24], aad[16];

/* A call that must fail with want and leave buf and tagb untouched. */
#define EXPECT(want, call, what)                                                       \
    do {                                                                               \
        uint8_t b0[sizeof buf], t0[sizeof tagb];                                       \
        memcpy(b0, buf, sizeof buf);                                                   \
        memcpy(t0, tagb, sizeof tagb);                                                 \
        int st_ = (call);                                                              \
        TH_CHECK(st_ == (want), "%s: %s gives %s, want %s", m->name, what,             \
                 aeskit_strerror(st_), aeskit_strerror(want));                         \
        TH_CHECK(!memcmp(b0, buf, sizeof buf) && !memcmp(t0, tagb, sizeof tagb),       \
                 "%s: %s wrote output", m->name, what);                                \
    } while (0)

static void mode_args(const mt_aead *m, size_t kl, size_t nl, size_t tl, const char *be)
{
    static mt_key k;
    uint8_t key[32] = {7};
    th_fill(buf, sizeof buf);
    th_fill(tagb, sizeof tagb);
    memset(&k, 0, sizeof k);
    /* never set up */
    EXPECT(AESKIT_ERR_STATE, m->seal(&k, buf, tagb, tl, buf, 16, nonce, nl, aad, 4), "seal, key not set up");
    EXPECT(AESKIT_ERR_STATE, m->open(&k, buf, buf, 16, tagb, tl, nonce, nl, aad, 4), "open, key not set up");
    /* init errors */
    EXPECT(AESKIT_ERR_NULL_POINTER, m->init(NULL, key, kl, be), "init NULL key object");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->init(&k, NULL, kl, be), "init NULL key");
    EXPECT(AESKIT_ERR_ALIGNMENT, m->init((mt_key *)(k.bytes + 8), key, kl, be), "init misaligned");
    EXPECT(AESKIT_ERR_KEY_LENGTH, m->init(&k, key, 20, be), "init key_len 20");
    EXPECT(AESKIT_ERR_BACKEND_UNKNOWN, m->init(&k, key, kl, "no-such-backend"), "init bad backend");
    TH_CHECK(m->init(&k, key, kl, be) == AESKIT_OK, "%s: init", m->name);
    /* NULL pointers */
    EXPECT(AESKIT_ERR_NULL_POINTER, m->seal(NULL, buf, tagb, tl, buf, 16, nonce, nl, aad, 4), "seal NULL key");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->seal(&k, NULL, tagb, tl, buf, 16, nonce, nl, aad, 4), "seal NULL out");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->seal(&k, buf, tagb, tl, NULL, 16, nonce, nl, aad, 4), "seal NULL in");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->seal(&k, buf, NULL, tl, buf, 16, nonce, nl, aad, 4), "seal NULL tag");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->seal(&k, buf, tagb, tl, buf, 16, NULL, nl, aad, 4), "seal NULL nonce");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->seal(&k, buf, tagb, tl, buf, 16, nonce, nl, NULL, 4), "seal NULL aad");
    EXPECT(AESKIT_ERR_NULL_POINTER, m->open(&k, buf, buf, 16, NULL, tl, nonce, nl, aad, 4), "open NULL tag");
    /* lengths */
    EXPECT(AESKIT_ERR_TAG_LENGTH, m->seal(&k, buf, tagb, 17, buf, 16, nonce, nl, aad, 4), "seal tag 17");
    EXPECT(AESKIT_ERR_TAG_LENGTH, m->seal(&k, buf, tagb, 7, buf, 16, nonce, nl, aad, 4), "seal tag 7");
    EXPECT(AESKIT_ERR_TAG_LENGTH, m->open(&k, buf, buf, 16, tagb, 4, nonce, nl, aad, 4), "open tag 4");
    EXPECT(AESKIT_ERR_NONCE_LENGTH, m->seal(&k, buf, tagb, tl, buf, 16, nonce, nl + 1, aad, 4), "seal nonce too long");
    EXPECT(AESKIT_ERR_NONCE_LENGTH, m->seal(&k, buf, tagb, tl, buf, 16, nonce, 0, aad, 4), "seal nonce 0");
    EXPECT(AESKIT_ERR_NONCE_LENGTH, m->open(&k, buf, buf, 16, tagb, tl, nonce, 0, aad, 4), "open nonce 0");
    /* overlap: partial in/out, and tag, nonce, aad inside out */
    EXPECT(AESKIT_ERR_OVERLAP, m->seal(&k, buf + 1, tagb, tl, buf, 32, nonce, nl, aad, 4), "seal in/out partial overlap");
    EXPECT(AESKIT_ERR_OVERLAP, m->open(&k, buf + 1, buf, 32, tagb, tl, nonce, nl, aad, 4), "open in/out partial overlap");
    EXPECT(AESKIT_ERR_OVERLAP, m->seal(&k, buf, buf + 20, tl, buf + 64, 32, nonce, nl, aad, 4), "seal tag in out");
    EXPECT(AESKIT_ERR_OVERLAP, m->seal(&k, buf, tagb, tl, buf + 64, 32, buf + 8, nl, aad, 4), "seal nonce in out");
    EXPECT(AESKIT_ERR_OVERLAP, m->seal(&k, buf, tagb, tl, buf + 64, 32, nonce, nl, buf + 4, 4), "seal aad in out");
    EXPECT(AESKIT_ERR_OVERLAP, m->open(&k, buf, buf + 64, 32, buf + 8, tl, nonce, nl, aad, 4), "open tag in out");
    /* empty message with NULL buffers is fine */
    TH_CHECK(m->seal(&k, NULL, tagb, tl, NULL, 0, nonce, nl, NULL, 0) == AESKIT_OK, "%s: empty seal", m->name);
    TH_CHECK(m->open(&k, NULL, NULL, 0, tagb, tl, nonce, nl, NULL, 0) == AESKIT_OK, "%s: empty open", m->name);
    /* wiped: refused */
    m->wipe(&k);
    TH_CHECK(th_all_zero(k.bytes, 64), "%s: wipe left the key header", m->name);
    EXPECT(AESKIT_ERR_STATE, m->seal(&k, buf, tagb, tl, buf, 16, nonce, nl, aad, 4), "seal after wipe");
    m->wipe(NULL);
}

/* EXPECT, and the context unchanged too (an argument error modifies no
 * object). */
#define EXPECT_CTX(want, call, what)                                                   \
    do {                                                                               \
        aeskit_ocb_ctx c0_;                                                            \
        memcpy(&c0_, &c, sizeof c);                                                    \
        EXPECT(want, call, what);                                                      \
        TH_CHECK(!memcmp(&c0_, &c, sizeof c), "%s: %s changed the context", m->name,   \
                 what);                                                                \
    } while (0)

/* Streaming OCB: every documented argument and state error, in the
 * header's order, each leaving buffers and context untouched; NULL with
 * length 0 accepted; a failed verify wipes the context and writes nothing. */
static void ocb_stream_args(const char *be)
{
    const mt_aead *m = &mt_ocb;
    static aeskit_ocb_key k, kw;
    static aeskit_ocb_ctx c;
    uint8_t key[32] = {9};
    size_t w = 0;
    static const uint8_t zero[sizeof c];
    th_fill(buf, sizeof buf);
    th_fill(tagb, sizeof tagb);
    TH_CHECK(aeskit_ocb_init_backend(&k, key, 16, be) == AESKIT_OK, "OCB stream: init");
    memset(&kw, 0, sizeof kw);
    /* start */
    memset(&c, 0, sizeof c);
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_start(NULL, &k, AESKIT_SEAL, nonce, 12, 16), "start NULL ctx");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_start(&c, NULL, AESKIT_SEAL, nonce, 12, 16), "start NULL key");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_start(&c, &k, AESKIT_SEAL, NULL, 12, 16), "start NULL nonce");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_start(&c, &kw, AESKIT_SEAL, nonce, 12, 16), "start unset key");
    EXPECT_CTX(AESKIT_ERR_ARGUMENT, aeskit_ocb_start(&c, &k, (aeskit_direction)3, nonce, 12, 16), "start dir 3");
    EXPECT_CTX(AESKIT_ERR_ARGUMENT, aeskit_ocb_start(&c, &k, (aeskit_direction)0, nonce, 12, 16), "start dir 0");
    EXPECT_CTX(AESKIT_ERR_TAG_LENGTH, aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 12, 0), "start tag 0");
    EXPECT_CTX(AESKIT_ERR_TAG_LENGTH, aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 12, 17), "start tag 17");
    EXPECT_CTX(AESKIT_ERR_NONCE_LENGTH, aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 0, 16), "start nonce 0");
    EXPECT_CTX(AESKIT_ERR_NONCE_LENGTH, aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 16, 16), "start nonce 16");
    EXPECT_CTX(AESKIT_ERR_NONCE_LENGTH, aeskit_ocb_start(&c, &k, AESKIT_SEAL, NULL, 0, 16), "start NULL nonce of 0");
    /* a context never started */
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_update_aad(&c, aad, 4), "aad before start");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_update(&c, buf, 64, &w, buf + 64, 16), "update before start");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_finish(&c, buf, 16, &w, tagb, 16), "finish before start");

    TH_CHECK(aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 12, 12) == AESKIT_OK, "OCB stream: start");
    /* update_aad */
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_update_aad(NULL, aad, 4), "aad NULL ctx");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_update_aad(&c, NULL, 4), "aad NULL");
    TH_CHECK(aeskit_ocb_update_aad(&c, NULL, 0) == AESKIT_OK, "OCB stream: NULL aad of 0");
    TH_CHECK(aeskit_ocb_update_aad(&c, aad, 5) == AESKIT_OK, "OCB stream: aad");
    /* update */
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_update(NULL, buf, 64, &w, buf + 64, 16), "update NULL ctx");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_update(&c, buf, 64, NULL, buf + 64, 16), "update NULL out_len");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_update(&c, NULL, 64, &w, buf + 64, 16), "update NULL out");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_update(&c, buf, 64, &w, NULL, 16), "update NULL in");
    EXPECT_CTX(AESKIT_ERR_BUFFER_TOO_SMALL, aeskit_ocb_update(&c, buf, 15, &w, buf + 64, 16), "update cap 15 for 16");
    EXPECT_CTX(AESKIT_ERR_BUFFER_TOO_SMALL, aeskit_ocb_update(&c, NULL, 0, &w, buf + 64, 16), "update cap 0 for 16");
    EXPECT_CTX(AESKIT_ERR_OVERLAP, aeskit_ocb_update(&c, buf + 8, 32, &w, buf, 32), "update partial overlap");
    EXPECT_CTX(AESKIT_ERR_OVERLAP, aeskit_ocb_update(&c, buf, 32, (size_t *)(void *)(buf + 8), buf + 64, 32),
               "update out_len in out");
    /* 5 bytes held: cap 0 is enough, then out == in is a partial overlap */
    TH_CHECK(aeskit_ocb_update(&c, NULL, 0, &w, buf + 128, 5) == AESKIT_OK && w == 0, "OCB stream: 5 held");
    EXPECT_CTX(AESKIT_ERR_BUFFER_TOO_SMALL, aeskit_ocb_update(&c, buf, 15, &w, buf + 64, 11), "update 5 + 11 in 15");
    EXPECT_CTX(AESKIT_ERR_OVERLAP, aeskit_ocb_update(&c, buf + 64, 32, &w, buf + 64, 32), "update out == in with 5 held");
    TH_CHECK(aeskit_ocb_update(&c, buf + 59, 32, &w, buf + 64, 31) == AESKIT_OK && w == 32,
             "OCB stream: in place as out + held == in (4 held after)");
    TH_CHECK(aeskit_ocb_update(&c, NULL, 0, &w, NULL, 0) == AESKIT_OK && w == 0, "OCB stream: NULL update of 0");
    /* AAD after data */
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_update_aad(&c, aad, 4), "aad after data");
    /* finish */
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_finish(NULL, buf, 16, &w, tagb, 12), "finish NULL ctx");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_finish(&c, buf, 16, NULL, tagb, 12), "finish NULL out_len");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_finish(&c, NULL, 16, &w, tagb, 12), "finish NULL out");
    EXPECT_CTX(AESKIT_ERR_NULL_POINTER, aeskit_ocb_finish(&c, buf, 16, &w, NULL, 12), "finish NULL tag");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_finish_verify(&c, buf, 16, &w, tagb, 12), "finish_verify of a SEAL");
    EXPECT_CTX(AESKIT_ERR_TAG_LENGTH, aeskit_ocb_finish(&c, buf, 16, &w, tagb, 16), "finish tag 16, started 12");
    EXPECT_CTX(AESKIT_ERR_TAG_LENGTH, aeskit_ocb_finish(&c, buf, 16, &w, tagb, 8), "finish tag 8, started 12");
    EXPECT_CTX(AESKIT_ERR_BUFFER_TOO_SMALL, aeskit_ocb_finish(&c, buf, 3, &w, tagb, 12), "finish cap 3 for 4");
    EXPECT_CTX(AESKIT_ERR_OVERLAP, aeskit_ocb_finish(&c, buf, 16, &w, buf + 2, 12), "finish tag in out");
    TH_CHECK(aeskit_ocb_finish(&c, buf, 16, &w, tagb, 12) == AESKIT_OK && w == 4, "OCB stream: finish");
    TH_CHECK(!memcmp(&c, zero, sizeof c), "OCB stream: finish left the context");
    th_fill(buf, sizeof buf);
    th_fill(tagb, sizeof tagb);
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_update(&c, buf, 64, &w, buf + 64, 16), "update after finish");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_update_aad(&c, aad, 4), "aad after finish");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_finish(&c, buf, 16, &w, tagb, 12), "finish after finish");

    /* OPEN: the wrong finish, then a failed verify wipes and writes nothing */
    TH_CHECK(aeskit_ocb_start(&c, &k, AESKIT_OPEN, nonce, 12, 16) == AESKIT_OK, "OCB stream: start open");
    TH_CHECK(aeskit_ocb_update(&c, buf, 64, &w, buf + 64, 37) == AESKIT_OK && w == 32, "OCB stream: open update");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_finish(&c, buf, 16, &w, tagb, 16), "finish of an OPEN");
    uint8_t b0[sizeof buf];
    memcpy(b0, buf, sizeof buf);
    w = 99;
    TH_CHECK(aeskit_ocb_finish_verify(&c, buf, 16, &w, tagb, 16) == AESKIT_ERR_AUTH, "OCB stream: bad tag accepted");
    TH_CHECK(w == 0 && !memcmp(b0, buf, sizeof buf), "OCB stream: failed verify wrote output");
    TH_CHECK(!memcmp(&c, zero, sizeof c), "OCB stream: failed verify left the context");
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_finish_verify(&c, buf, 16, &w, tagb, 16), "verify after failed verify");
    /* empty message, NULL buffers */
    TH_CHECK(aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 12, 16) == AESKIT_OK &&
             aeskit_ocb_finish(&c, NULL, 0, &w, tagb, 16) == AESKIT_OK && w == 0, "OCB stream: empty seal");
    /* a wiped key, and ctx_wipe */
    TH_CHECK(aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 12, 16) == AESKIT_OK, "OCB stream: start");
    aeskit_ocb_ctx_wipe(&c);
    TH_CHECK(!memcmp(&c, zero, sizeof c), "OCB stream: ctx_wipe left bytes");
    aeskit_ocb_ctx_wipe(NULL);
    TH_CHECK(aeskit_ocb_start(&c, &k, AESKIT_SEAL, nonce, 12, 16) == AESKIT_OK, "OCB stream: start");
    aeskit_ocb_wipe(&k);
    EXPECT_CTX(AESKIT_ERR_STATE, aeskit_ocb_update(&c, buf, 64, &w, buf + 64, 16), "update after key wipe");
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_OCB_CTX) == sizeof(aeskit_ocb_ctx), "object size OCB ctx");
}

int main(void)
{
    const char *be = th_backend();
    th_seed(77);
    const mt_aead *m = &mt_gcmsiv;
    mode_args(&mt_gcmsiv, 16, 12, 16, be);
    mode_args(&mt_ocb, 24, 15, 12, be);
    mode_args(&mt_xaes, 32, 24, 16, be);
    ocb_stream_args(be);

    /* mode-specific limits */
    static aeskit_gcmsiv_key sk;
    static aeskit_xaes_key xk;
    static aeskit_gcm_key gk;
    uint8_t key[32] = {1};
    TH_CHECK(aeskit_gcmsiv_init_backend(&sk, key, 24, be) == AESKIT_ERR_KEY_LENGTH, "GCM-SIV refuses AES-192");
    TH_CHECK(aeskit_xaes_init_backend(&xk, key, 16, be) == AESKIT_ERR_KEY_LENGTH, "XAES refuses AES-128");
    TH_CHECK(aeskit_gcmsiv_init_backend(&sk, key, 32, be) == AESKIT_OK, "GCM-SIV init");
    EXPECT(AESKIT_ERR_MESSAGE_TOO_LONG,
           aeskit_gcmsiv_seal(&sk, buf, tagb, 16, buf, ((size_t)1 << 36) + 1, nonce, 12, aad, 4), "GCM-SIV len 2^36+1");
    EXPECT(AESKIT_ERR_AAD_TOO_LONG,
           aeskit_gcmsiv_seal(&sk, buf, tagb, 16, buf, 16, nonce, 12, aad, ((size_t)1 << 36) + 1), "GCM-SIV aad 2^36+1");
    TH_CHECK(strcmp(aeskit_gcmsiv_backend(&sk), be ? be : aeskit_backend_default()) == 0, "GCM-SIV backend name");
    m = &mt_xaes;
    TH_CHECK(aeskit_xaes_init_backend(&xk, key, 32, be) == AESKIT_OK, "XAES init");
    EXPECT(AESKIT_ERR_MESSAGE_TOO_LONG,
           aeskit_xaes_seal(&xk, buf, tagb, 16, buf, ((size_t)1 << 36) - 31, nonce, 24, aad, 4), "XAES len 2^36-31");
    TH_CHECK(aeskit_xaes_derive_gcm(NULL, &gk, nonce) == AESKIT_ERR_NULL_POINTER, "derive NULL key");
    TH_CHECK(aeskit_xaes_derive_gcm(&xk, NULL, nonce) == AESKIT_ERR_NULL_POINTER, "derive NULL gcm");
    TH_CHECK(aeskit_xaes_derive_gcm(&xk, &gk, NULL) == AESKIT_ERR_NULL_POINTER, "derive NULL prefix");
    TH_CHECK(aeskit_xaes_derive_gcm(&xk, (aeskit_gcm_key *)(gk.opaque + 16), nonce) == AESKIT_ERR_ALIGNMENT,
             "derive misaligned");
    TH_CHECK(aeskit_xaes_derive_gcm(&xk, &gk, gk.opaque + 100) == AESKIT_ERR_OVERLAP, "derive prefix in gcm");
    TH_CHECK(aeskit_xaes_derive_gcm(&xk, &gk, nonce) == AESKIT_OK, "derive");
    TH_CHECK(strcmp(aeskit_gcm_backend(&gk), aeskit_xaes_backend(&xk)) == 0, "derived key on k's backend");
    aeskit_xaes_wipe(&xk);
    TH_CHECK(aeskit_xaes_derive_gcm(&xk, &gk, nonce) == AESKIT_ERR_STATE, "derive from a wiped key");
    TH_CHECK(*aeskit_xaes_backend(&xk) == 0, "wiped key has no backend name");

    TH_CHECK(aeskit_object_size(AESKIT_OBJ_GCMSIV_KEY) == sizeof(aeskit_gcmsiv_key), "object size GCM-SIV");
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_OCB_KEY) == sizeof(aeskit_ocb_key), "object size OCB");
    TH_CHECK(aeskit_object_size(AESKIT_OBJ_XAES_KEY) == sizeof(aeskit_xaes_key), "object size XAES");
    TH_CHECK(_Alignof(aeskit_ocb_key) == AESKIT_ALIGNMENT && _Alignof(aeskit_gcmsiv_key) == AESKIT_ALIGNMENT &&
             _Alignof(aeskit_xaes_key) == AESKIT_ALIGNMENT, "key alignment");
    return th_finish("args_modes");
}
