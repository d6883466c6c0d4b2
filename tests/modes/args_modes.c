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

int main(void)
{
    const char *be = th_backend();
    th_seed(77);
    const mt_aead *m = &mt_gcmsiv;
    mode_args(&mt_gcmsiv, 16, 12, 16, be);
    mode_args(&mt_ocb, 24, 15, 12, be);
    mode_args(&mt_xaes, 32, 24, 16, be);

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
