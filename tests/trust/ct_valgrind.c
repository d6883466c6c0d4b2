/*
 * ct_valgrind.c - the constant-time check (the "ctgrind" technique, Adam
 * Langley 2010): secret bytes (keys, plaintext, tags) are marked undefined
 * with memcheck's client requests; memcheck then reports every conditional
 * branch and every memory address computed from them.  Public data (lengths,
 * IVs, nonces, AAD) stays defined.  Results that are public by design (did
 * the tag match, was the padding valid) are declassified inside the library
 * with AK_DECLASSIFY, which this build (-DAESKIT_VALGRIND_CT) turns on.
 *
 * Run:  valgrind --error-exitcode=1 ./ct_valgrind            (every backend
 *       valgrind can execute: it hides AVX-512/VAES from CPUID, so those
 *       backends report unavailable and are listed as not checked)
 *       valgrind --error-exitcode=1 ./ct_valgrind --self-test  must FAIL:
 *       it branches on a secret on purpose, proving the check can see one.
 *       --self-test BACKEND plants 7 such branches on outputs of that
 *       backend (key secret, data public); --backend BACKEND checks one.
 * The MemorySanitizer build of this file is ct_msan (ct_msan_mark.h).
 */
#include "harness.h"
#include "internal.h" /* ak_cbc_lanes: the batch kernels of issue 16 */

/* The marking tool (issue 18): the same harness is the MemorySanitizer check
 * when built with -DAESKIT_MSAN_CT=ON (target ct_msan; ct_msan_mark.h says
 * how).  SECRET/PUBLIC mark bytes; STILL_SECRET(p, n) asserts that an output
 * computed from a secret is still marked in every byte (the shadow survived
 * the backend's kernels; memcheck has no cheap query, so it checks nothing
 * there); CT_TOOL_ACTIVE says whether the tool is watching. */
#ifdef AESKIT_MSAN_CT
#include "ct_msan_mark.h"
#else
#include <valgrind/memcheck.h>
#define CT_TOOL "valgrind"
#define CT_TOOL_ACTIVE RUNNING_ON_VALGRIND
#define CT_PASSES 1
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define STILL_SECRET(p, n) ((void)(p), (void)(n))
#endif

static unsigned long operations, bad_status;
static const char *current_backend;

/* Every status is checked: a call that failed did not run the code it is
 * here to check.  A status is public (the tag and padding verdicts are
 * declassified inside the library), so branching on it is allowed. */
#define CT_EXPECT2(call, want1, want2)                                                 \
    do {                                                                               \
        int st_ = (call);                                                              \
        if (st_ != (want1) && st_ != (want2)) {                                        \
            bad_status++;                                                              \
            fprintf(stderr, "FAIL %s:%d [%s]: %s -> %s\n", __FILE__, __LINE__,        \
                    current_backend, #call, aeskit_strerror(st_));                     \
        }                                                                              \
    } while (0)
#define CT_EXPECT(call, want) CT_EXPECT2(call, want, want)
static const size_t lens[] = {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 1000};
#define NLENS (sizeof lens / sizeof lens[0])

static uint8_t key[64], iv[16], aad[64], msg[1100], out[1100 + 32], out2[1100 + 32], tag[16];
/* Pass 0 marks the message secret; pass 1 (CT_PASSES 2) leaves it public, so
 * that STILL_SECRET sees outputs that are secret through the key alone. */
static int public_msg;

/* The multi-lane CBC kernel (the backend's cbc_lanes, through
 * ak_cbc_lanes): 20 lanes, more than one call's slots, of ragged lengths
 * over the secret message, CBC encryption and CBC-MAC mixed, two keys (the
 * AES key and the CMAC key's cipher key: distinct key objects), secret
 * chaining values.  Lengths and the lane count are public. */
#define CT_LANES 20
static uint8_t lanes_out[CT_LANES][1024];
static void lanes_op(const aeskit_aes_key *ak, const aeskit_cmac_key *ck, const uint8_t *m, size_t blocks)
{
    ak_cbc_lane l[CT_LANES];
    const ak_aes *a = (const ak_aes *)(const void *)ak;
    const ak_cmac_key *c = (const ak_cmac_key *)(const void *)ck;
    for (size_t i = 0; i < CT_LANES; i++) {
        size_t skip = i % 4, b = blocks > skip + i / 8 ? blocks - skip - i / 8 : 0;
        l[i].aes = i % 5 == 4 ? &c->aes : a;
        l[i].in = m + 16 * skip;
        l[i].out = i % 3 == 2 ? NULL : lanes_out[i];
        l[i].blocks = b;
        memcpy(l[i].iv, iv, 16);
        SECRET(l[i].iv, 16);
    }
    ak_cbc_lanes(a->be, l, CT_LANES);
    for (size_t i = 0; i < CT_LANES; i++) {
        if (l[i].blocks)
            STILL_SECRET(l[i].iv, 16);
        if (l[i].out)
            STILL_SECRET(l[i].out, 16 * l[i].blocks);
    }
    operations++;
}

/* The GCM batch calls (the backend's multi-message kernel where it has
 * one: up to 64 bytes of data and 16 of AAD per message, several messages
 * per AES pass, keys shared or not): CT_BATCH messages of public ragged
 * lengths up to 80 bytes over the secret message, alternating two key
 * objects, sealed, opened, and opened again with one tag wrong (that
 * message alone fails: its output zeroed).  Tags are secret going in. */
#define CT_BATCH 12
static uint8_t batch_out[CT_BATCH][96], batch_back[CT_BATCH][96], batch_tag[CT_BATCH][16];
static void batch_op(const aeskit_gcm_key *g0, const aeskit_gcm_key *g1, const uint8_t *m, size_t n)
{
    aeskit_gcm_msg b[CT_BATCH];
    for (size_t i = 0; i < CT_BATCH; i++) {
        size_t len = (n + 7 * i) % 81;
        b[i] = (aeskit_gcm_msg){i & 1 ? g1 : g0, batch_out[i], batch_tag[i], 16, m, len,
                                iv, 12, aad, i % 3 == 2 ? 20 : 16, AESKIT_OK};
    }
    CT_EXPECT(aeskit_gcm_seal_batch(b, CT_BATCH), AESKIT_OK);
    for (size_t i = 0; i < CT_BATCH; i++) {
        STILL_SECRET(batch_out[i], b[i].len);
        STILL_SECRET(batch_tag[i], 16);
        SECRET(batch_tag[i], 16);
        b[i].in = batch_out[i];
        b[i].out = batch_back[i];
    }
    CT_EXPECT(aeskit_gcm_open_batch(b, CT_BATCH), AESKIT_OK);
    for (size_t i = 0; i < CT_BATCH; i++)
        STILL_SECRET(batch_back[i], b[i].len);
    batch_tag[CT_BATCH / 2][3] ^= 1;
    CT_EXPECT(aeskit_gcm_open_batch(b, CT_BATCH), AESKIT_ERR_AUTH);
    CT_EXPECT(b[CT_BATCH / 2].status, AESKIT_ERR_AUTH);
    CT_EXPECT(b[0].status, AESKIT_OK);
    operations += 3;
}

/* The small-message GCM batch kernels (runs of 1-64 bytes with at most one
 * AAD block: x86-aesni's gcm_multi_aesni.h, the ymm and zmm multi-message
 * kernels): CT_BATCH messages of one block count, 1 + (n / 3) % 4, once uniform
 * (one key object, len and aad_len: the chains of sets) and once with
 * lengths and AAD lengths varying within it over two key objects (the
 * kernels' calls of any keys); sealed, opened, and opened again with one
 * tag wrong (that message alone fails).  Tags are secret going in. */
static void small_batch_op(const aeskit_gcm_key *g0, const aeskit_gcm_key *g1, const uint8_t *m, size_t n)
{
    const size_t base = 16 * ((n / 3) % 4); /* every block count over the 17 lengths */
    for (int uni = 0; uni < 2; uni++) {
        aeskit_gcm_msg b[CT_BATCH];
        for (size_t i = 0; i < CT_BATCH; i++) {
            size_t len = base + 1 + (uni ? n % 16 : (n + 5 * i) % 16);
            b[i] = (aeskit_gcm_msg){uni || !(i & 1) ? g0 : g1, batch_out[i], batch_tag[i], 16, m, len,
                                    iv, 12, aad, uni ? 16 : i % 17, AESKIT_OK};
        }
        CT_EXPECT(aeskit_gcm_seal_batch(b, CT_BATCH), AESKIT_OK);
        for (size_t i = 0; i < CT_BATCH; i++) {
            STILL_SECRET(batch_out[i], b[i].len);
            STILL_SECRET(batch_tag[i], 16);
            SECRET(batch_tag[i], 16);
            b[i].in = batch_out[i];
            b[i].out = batch_back[i];
        }
        CT_EXPECT(aeskit_gcm_open_batch(b, CT_BATCH), AESKIT_OK);
        for (size_t i = 0; i < CT_BATCH; i++)
            STILL_SECRET(batch_back[i], b[i].len);
        batch_tag[CT_BATCH / 3][5] ^= 1;
        CT_EXPECT(aeskit_gcm_open_batch(b, CT_BATCH), AESKIT_ERR_AUTH);
        CT_EXPECT(b[CT_BATCH / 3].status, AESKIT_ERR_AUTH);
        CT_EXPECT(b[0].status, AESKIT_OK);
        operations += 3;
    }
}

/* The CCM batch calls (the backend's fused ccm_lanes kernel where it has
 * one, the MAC lane passes and per-message CTR otherwise): CT_CCM
 * messages, more than one call's 16 slots, of public ragged lengths up to
 * 300 bytes over the secret message, two key objects of different sizes,
 * AAD of 0, 16 and 40 bytes (a short rest in B0's lane, and the AAD
 * passes), nonces of 7, 12 and 13 bytes; sealed, opened, opened again
 * with one tag wrong (that message's output zeroed) and, in place, with
 * one tag wrong (its ciphertext restored).  Tags are secret going in. */
#define CT_CCM 20
static uint8_t ccm_out[CT_CCM][320], ccm_back[CT_CCM][320], ccm_tag[CT_CCM][16];
static void ccm_batch_op(const aeskit_aes_key *k0, const aeskit_aes_key *k1, const uint8_t *m, size_t n)
{
    static const size_t nlen[3] = {7, 12, 13}, alen[3] = {0, 16, 40};
    aeskit_ccm_msg b[CT_CCM];
    for (size_t i = 0; i < CT_CCM; i++) {
        size_t len = (n + 23 * i) % 301;
        b[i] = (aeskit_ccm_msg){i % 3 == 1 ? k1 : k0, ccm_out[i], ccm_tag[i], 16, m, len,
                                iv, nlen[i % 3], aad, alen[(i / 3) % 3], AESKIT_OK};
    }
    CT_EXPECT(aeskit_ccm_seal_batch(b, CT_CCM), AESKIT_OK);
    for (size_t i = 0; i < CT_CCM; i++) {
        STILL_SECRET(ccm_out[i], b[i].len);
        STILL_SECRET(ccm_tag[i], 16);
        SECRET(ccm_tag[i], 16);
        b[i].in = ccm_out[i];
        b[i].out = ccm_back[i];
    }
    CT_EXPECT(aeskit_ccm_open_batch(b, CT_CCM), AESKIT_OK);
    for (size_t i = 0; i < CT_CCM; i++)
        STILL_SECRET(ccm_back[i], b[i].len);
    ccm_tag[CT_CCM / 2][5] ^= 1;
    CT_EXPECT(aeskit_ccm_open_batch(b, CT_CCM), AESKIT_ERR_AUTH);
    CT_EXPECT(b[CT_CCM / 2].status, AESKIT_ERR_AUTH);
    CT_EXPECT(b[0].status, AESKIT_OK);
    for (size_t i = 0; i < CT_CCM; i++) {
        b[i].out = ccm_out[i];
        b[i].status = AESKIT_OK;
    }
    CT_EXPECT(aeskit_ccm_open_batch(b, CT_CCM), AESKIT_ERR_AUTH);
    CT_EXPECT(b[CT_CCM / 2].status, AESKIT_ERR_AUTH);
    operations += 4;
}

static void check_backend(const char *be)
{
    current_backend = be;
    aeskit_aes_key ak, ak2;
    aeskit_gcm_key gk, gk2;
    aeskit_cmac_key ck;
    aeskit_xts_key xk;
    aeskit_gcmsiv_key sk;
    aeskit_ocb_key ok;
    aeskit_xaes_key xak;
    static uint8_t nonce24[24];
    for (size_t kl = 16; kl <= 32; kl += 8) {
        SECRET(key, sizeof key);
        CT_EXPECT(aeskit_aes_init_backend(&ak, key, kl, be), AESKIT_OK);
        CT_EXPECT(aeskit_aes_init_backend(&ak2, key + 32, kl == 32 ? 16 : kl + 8, be), AESKIT_OK);
        CT_EXPECT(aeskit_gcm_init_backend(&gk, key, kl, be), AESKIT_OK);
        CT_EXPECT(aeskit_gcm_init_backend(&gk2, key + 32, kl, be), AESKIT_OK);
        CT_EXPECT(aeskit_cmac_init_backend(&ck, key, kl, be), AESKIT_OK);
        CT_EXPECT(aeskit_xts_init_backend(&xk, key, 2 * kl, be), AESKIT_OK);
        operations += 4;
        for (size_t li = 0; li < NLENS; li++) {
            size_t n = lens[li];
            size_t olen;
            if (public_msg)
                PUBLIC(msg, n);
            else
                SECRET(msg, n);
            /* GCM: seal, open with the right tag, open with a wrong tag, streaming. */
            CT_EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, msg, n, iv, 12, aad, 20), AESKIT_OK);
            STILL_SECRET(out, n);
            STILL_SECRET(tag, 16);
            CT_EXPECT(aeskit_gcm_seal(&gk, out, tag, 16, msg, n, iv, 16, aad, 20), AESKIT_OK);
            STILL_SECRET(out, n);
            STILL_SECRET(tag, 16);
            SECRET(tag, 16);
            CT_EXPECT(aeskit_gcm_open(&gk, out2, out, n, tag, 16, iv, 16, aad, 20), AESKIT_OK);
            STILL_SECRET(out2, n);
            tag[0] ^= 1;
            CT_EXPECT(aeskit_gcm_open(&gk, out2, out, n, tag, 16, iv, 16, aad, 20), AESKIT_ERR_AUTH);
            aeskit_gcm_ctx gc;
            CT_EXPECT(aeskit_gcm_start(&gc, &gk, AESKIT_SEAL, iv, 12), AESKIT_OK);
            CT_EXPECT(aeskit_gcm_update_aad(&gc, aad, 7), AESKIT_OK);
            CT_EXPECT(aeskit_gcm_update(&gc, out, msg, n / 3), AESKIT_OK);
            CT_EXPECT(aeskit_gcm_update(&gc, out + n / 3, msg + n / 3, n - n / 3), AESKIT_OK);
            CT_EXPECT(aeskit_gcm_finish(&gc, tag, 16), AESKIT_OK);
            STILL_SECRET(out, n);
            STILL_SECRET(tag, 16);
            CT_EXPECT(aeskit_gcm_start(&gc, &gk, AESKIT_OPEN, iv, 12), AESKIT_OK);
            CT_EXPECT(aeskit_gcm_update(&gc, out2, out, n), AESKIT_OK);
            STILL_SECRET(out2, n);
            CT_EXPECT(aeskit_gcm_finish_verify(&gc, tag, 16), AESKIT_ERR_AUTH);
            CT_EXPECT(aeskit_gmac(&gk, tag, 16, iv, 12, msg, n), AESKIT_OK);
            STILL_SECRET(tag, 16);
            operations += 8;
            /* CCM */
            CT_EXPECT(aeskit_ccm_seal(&ak, out, tag, 16, msg, n, iv, 12, aad, 20), AESKIT_OK);
            STILL_SECRET(out, n);
            STILL_SECRET(tag, 16);
            SECRET(tag, 16);
            CT_EXPECT(aeskit_ccm_open(&ak, out2, out, n, tag, 16, iv, 12, aad, 20), AESKIT_OK);
            STILL_SECRET(out2, n);
            tag[3] ^= 1;
            CT_EXPECT(aeskit_ccm_open(&ak, out2, out, n, tag, 16, iv, 12, aad, 20), AESKIT_ERR_AUTH);
            operations += 3;
            /* AES-GCM-SIV (AES-128/256), OCB3 (every key size), XAES-256-GCM:
             * seal, open, open with a wrong tag (zeroes out2). */
            CT_EXPECT(aeskit_ocb_init_backend(&ok, key, kl, be), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_seal(&ok, out, tag, 16, msg, n, iv, 12, aad, 20), AESKIT_OK);
            STILL_SECRET(out, n);
            STILL_SECRET(tag, 16);
            SECRET(tag, 16);
            CT_EXPECT(aeskit_ocb_open(&ok, out2, out, n, tag, 16, iv, 12, aad, 20), AESKIT_OK);
            STILL_SECRET(out2, n);
            tag[5] ^= 1;
            CT_EXPECT(aeskit_ocb_open(&ok, out2, out, n, tag, 16, iv, 12, aad, 20), AESKIT_ERR_AUTH);
            operations += 4;
            /* Streaming OCB: seal in two pieces (the second starting inside
             * a block and a batch), open with the right and a wrong tag. */
            aeskit_ocb_ctx oc;
            size_t w1 = 0, w2 = 0, w3 = 0;
            CT_EXPECT(aeskit_ocb_start(&oc, &ok, AESKIT_SEAL, iv, 12, 16), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update_aad(&oc, aad, 7), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update_aad(&oc, aad + 7, 13), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update(&oc, out, n + 15, &w1, msg, n / 3), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update(&oc, out + w1, n + 15 - w1, &w2, msg + n / 3, n - n / 3),
                      AESKIT_OK);
            CT_EXPECT(aeskit_ocb_finish(&oc, out + w1 + w2, 15, &w3, tag, 16), AESKIT_OK);
            STILL_SECRET(out, n);
            STILL_SECRET(tag, 16);
            SECRET(tag, 16);
            CT_EXPECT(aeskit_ocb_start(&oc, &ok, AESKIT_OPEN, iv, 12, 16), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update_aad(&oc, aad, 20), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update(&oc, out2, n + 15, &w1, out, n), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_finish_verify(&oc, out2 + w1, 15, &w3, tag, 16), AESKIT_OK);
            STILL_SECRET(out2, n);
            tag[7] ^= 1;
            CT_EXPECT(aeskit_ocb_start(&oc, &ok, AESKIT_OPEN, iv, 12, 16), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update_aad(&oc, aad, 20), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_update(&oc, out2, n + 15, &w1, out, n), AESKIT_OK);
            CT_EXPECT(aeskit_ocb_finish_verify(&oc, out2 + w1, 15, &w3, tag, 16), AESKIT_ERR_AUTH);
            operations += 3;
            if (kl != 24) {
                CT_EXPECT(aeskit_gcmsiv_init_backend(&sk, key, kl, be), AESKIT_OK);
                CT_EXPECT(aeskit_gcmsiv_seal(&sk, out, tag, 16, msg, n, iv, 12, aad, 20), AESKIT_OK);
                STILL_SECRET(out, n);
                STILL_SECRET(tag, 16);
                SECRET(tag, 16);
                CT_EXPECT(aeskit_gcmsiv_open(&sk, out2, out, n, tag, 16, iv, 12, aad, 20), AESKIT_OK);
                STILL_SECRET(out2, n);
                tag[9] ^= 1;
                CT_EXPECT(aeskit_gcmsiv_open(&sk, out2, out, n, tag, 16, iv, 12, aad, 20),
                          AESKIT_ERR_AUTH);
                operations += 4;
            }
            if (kl == 32) {
                CT_EXPECT(aeskit_xaes_init_backend(&xak, key, 32, be), AESKIT_OK);
                CT_EXPECT(aeskit_xaes_seal(&xak, out, tag, 16, msg, n, nonce24, 24, aad, 20), AESKIT_OK);
                STILL_SECRET(out, n);
                STILL_SECRET(tag, 16);
                SECRET(tag, 16);
                CT_EXPECT(aeskit_xaes_open(&xak, out2, out, n, tag, 16, nonce24, 24, aad, 20), AESKIT_OK);
                STILL_SECRET(out2, n);
                tag[0] ^= 1;
                CT_EXPECT(aeskit_xaes_open(&xak, out2, out, n, tag, 16, nonce24, 24, aad, 20),
                          AESKIT_ERR_AUTH);
                operations += 4;
            }
            /* CMAC one-shot, streaming, verify */
            CT_EXPECT(aeskit_cmac(&ck, tag, 16, msg, n), AESKIT_OK);
            STILL_SECRET(tag, 16);
            SECRET(tag, 16);
            CT_EXPECT(aeskit_cmac_verify(&ck, msg, n, tag, 16), AESKIT_OK);
            aeskit_cmac_ctx cc;
            CT_EXPECT(aeskit_cmac_start(&cc, &ck), AESKIT_OK);
            CT_EXPECT(aeskit_cmac_update(&cc, msg, n / 2), AESKIT_OK);
            CT_EXPECT(aeskit_cmac_update(&cc, msg + n / 2, n - n / 2), AESKIT_OK);
            CT_EXPECT(aeskit_cmac_finish_verify(&cc, tag, 16), AESKIT_OK);
            operations += 3;
            /* CTR, CBC, PKCS#7 (valid and invalid padding), ECB, XTS */
            CT_EXPECT(aeskit_ctr_crypt(&ak, out, msg, n, iv), AESKIT_OK);
            STILL_SECRET(out, n);
            /* CFB-128 decryption (the VAES backends' one-pass kernel) */
            CT_EXPECT(aeskit_cfb128_decrypt(&ak, out2, out, n, iv), AESKIT_OK);
            STILL_SECRET(out2, n);
            operations += 1;
            size_t nb = n & ~(size_t)15;
            uint8_t chain[16];
            memcpy(chain, iv, 16);
            CT_EXPECT(aeskit_cbc_encrypt(&ak, out, msg, nb, chain), AESKIT_OK);
            STILL_SECRET(out, nb);
            memcpy(chain, iv, 16);
            CT_EXPECT(aeskit_cbc_decrypt(&ak, out2, out, nb, chain), AESKIT_OK);
            STILL_SECRET(out2, nb);
            /* The padded length and the unpadded length are public by design
             * (the caller acts on them), so they are declassified here. */
            CT_EXPECT(aeskit_cbc_pkcs7_encrypt(&ak, out, sizeof out, &olen, msg, n, iv), AESKIT_OK);
            PUBLIC(&olen, sizeof olen);
            size_t clen = olen;
            STILL_SECRET(out, clen);
            CT_EXPECT(aeskit_cbc_pkcs7_decrypt(&ak, out2, sizeof out2, &olen, out, clen, iv),
                      AESKIT_OK);
            out[clen - 1] ^= 0x55;
            CT_EXPECT2(aeskit_cbc_pkcs7_decrypt(&ak, out2, sizeof out2, &olen, out, clen, iv),
                       AESKIT_ERR_PADDING, AESKIT_OK);
            CT_EXPECT(aeskit_ecb_encrypt(&ak, out, msg, nb), AESKIT_OK);
            STILL_SECRET(out, nb);
            CT_EXPECT(aeskit_ecb_decrypt(&ak, out2, out, nb), AESKIT_OK);
            STILL_SECRET(out2, nb);
            operations += 8;
            if (n >= 16) {
                CT_EXPECT(aeskit_xts_encrypt(&xk, out, msg, n, iv), AESKIT_OK);
                STILL_SECRET(out, n);
                CT_EXPECT(aeskit_xts_decrypt(&xk, out2, out, n, iv), AESKIT_OK);
                STILL_SECRET(out2, n);
                operations += 2;
            }
            lanes_op(&ak, &ck, msg, nb / 16);
            batch_op(&gk, &gk2, msg, n);
            small_batch_op(&gk, &gk2, msg, n);
            ccm_batch_op(&ak, &ak2, msg, n);
        }
        aeskit_aes_wipe(&ak);
        aeskit_aes_wipe(&ak2);
        aeskit_gcm_wipe(&gk);
        aeskit_gcm_wipe(&gk2);
        aeskit_cmac_wipe(&ck);
        aeskit_xts_wipe(&xk);
    }
}

/* The planted leaks of `--self-test BACKEND`: the message is public, only the
 * key is secret, and the program branches on one byte of each output, so
 * each branch is reported only if the secret's mark travelled through that
 * backend's kernels (AES rounds, key schedule, GHASH, the fused GCM loop).
 * Returns how many branches it planted; the tool must report every one. */
static int planted_leaks(const char *be)
{
    aeskit_aes_key ak;
    aeskit_gcm_key gk;
    aeskit_cmac_key ck;
    aeskit_xts_key xk;
    volatile int sink = 0;
    int planted = 0;
    SECRET(key, sizeof key);
    if (aeskit_aes_init_backend(&ak, key, 16, be) || aeskit_gcm_init_backend(&gk, key, 32, be) ||
        aeskit_cmac_init_backend(&ck, key, 24, be) || aeskit_xts_init_backend(&xk, key, 64, be))
        return -1;
#define PLANT(byte) (planted++, (byte) & 1 ? (void)(sink = sink + 1) : (void)0)
    if (aeskit_gcm_seal(&gk, out, tag, 16, msg, 300, iv, 12, aad, 20)) /* whole-message path */
        return -1;
    PLANT(out[299]);
    PLANT(tag[15]);
    if (aeskit_gcm_seal(&gk, out, tag, 16, msg, 300, iv, 16, aad, 20)) /* J0 = GHASH(IV) */
        return -1;
    PLANT(out[299]);
    if (aeskit_ctr_crypt(&ak, out, msg, 1000, iv))
        return -1;
    PLANT(out[999]);
    if (aeskit_ecb_decrypt(&ak, out, msg, 512)) /* decryption round keys */
        return -1;
    PLANT(out[511]);
    if (aeskit_cmac(&ck, tag, 16, msg, 100))
        return -1;
    PLANT(tag[0]);
    if (aeskit_xts_encrypt(&xk, out, msg, 257, iv))
        return -1;
    PLANT(out[256]);
#undef PLANT
    aeskit_aes_wipe(&ak);
    aeskit_gcm_wipe(&gk);
    aeskit_cmac_wipe(&ck);
    aeskit_xts_wipe(&xk);
    return planted + sink * 0;
}

int main(int argc, char **argv)
{
    const char *only = NULL; /* --backend NAME: check that one only */
    setvbuf(stdout, NULL, _IOLBF, 0); /* MSan's exit after recovered reports skips stdio */
    th_seed(0x6374677269640001ull);
    th_fill(key, sizeof key);
    th_fill(iv, sizeof iv);
    th_fill(aad, sizeof aad);
    th_fill(msg, sizeof msg);
    if (argc > 2 && !strcmp(argv[1], "--self-test")) {
        int planted = planted_leaks(argv[2]);
        if (planted < 0) {
            printf("SKIP: backend %s cannot run here\n", argv[2]);
            return 77;
        }
        printf("ct self-test: %d planted secret-dependent branches under %s (" CT_TOOL
               " must have reported each)\n", planted, argv[2]);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--self-test")) {
        SECRET(key, 1);
        volatile int sink = 0;
        if (key[0] & 1) /* deliberately secret-dependent: the tool must report it */
            sink = 1;
        printf("ct self-test ran (" CT_TOOL " must have reported a branch above)\n");
        return sink * 0;
    }
    if (argc > 2 && !strcmp(argv[1], "--backend"))
        only = argv[2];
    if (!CT_TOOL_ACTIVE) {
        printf("SKIP: ct_valgrind only means something under valgrind "
               "(valgrind --error-exitcode=1 %s)\n", argv[0]);
        return 77;
    }
    size_t checked = 0;
    for (size_t i = 0; i < aeskit_backend_count(); i++) {
        aeskit_backend_info bi;
        if (aeskit_backend_get(&bi, i) != AESKIT_OK) {
            printf("FAIL: aeskit_backend_get(%zu)\n", i);
            bad_status++;
            continue;
        }
        if (only && strcmp(only, bi.name))
            continue;
        if (!bi.available) {
            printf("not checked: %s (this CPU, as " CT_TOOL " presents it, cannot run it)\n",
                   bi.name);
            if (only) /* asked for by name: a skip, never a pass */
                return 77;
            continue;
        }
        unsigned long before = operations;
        for (public_msg = 0; public_msg < CT_PASSES; public_msg++)
            check_backend(bi.name);
        printf("checked: %s%s%s%s, %lu operations over %zu lengths x 3 key sizes\n", bi.name,
               *bi.variant ? " (" : "", bi.variant, *bi.variant ? ")" : "", operations - before, NLENS);
        checked++;
    }
    printf("ct (" CT_TOOL "): %zu backends, %lu operations, %lu unexpected statuses; reports (if "
           "any) above\n", checked, operations, bad_status);
#ifdef CT_STILL_SECRET_SUMMARY
    if (CT_STILL_SECRET_SUMMARY())
        return 1;
#endif
    return checked && !bad_status ? 0 : 1;
}
