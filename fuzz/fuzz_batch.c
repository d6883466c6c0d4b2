/*
 * fuzz_batch.c - the batch calls against the same messages done one by one
 * with the single-message calls (which fuzz_diff and fuzz_open check against
 * OpenSSL), on every backend this CPU runs: statuses, results and every
 * output byte must be equal.  The fuzzer's bytes choose the mode, the
 * number of messages (0..24), and for each message its key (from a pool of
 * four, sizes mixed), lengths, tag length, IV or nonce length, whether it
 * runs in place, and a byte of tampering; a batch may therefore hold bad
 * arguments, bad tags and shared keys side by side.  For GCM one bit makes
 * a message small (0..96 bytes, AAD 0..19, a 12-byte IV, a valid tag
 * length), so runs of them reach the x86-vaes-avx512 multi-message kernel;
 * and the mode byte's top bit makes a GCM batch uniform (every message has
 * the first one's key, len of 0..800 and AAD of 0..16 bytes, a 12-byte IV
 * and a 16-byte tag, the tags after all outputs), the shape the backends'
 * gcm_batch hooks take whole (x86-vaes-avx512's chains, and the long chain
 * of both x86-vaes widths); its 0x40 bit makes a GCM open's tags valid
 * (sealed first), so that opens succeed and their plaintexts are compared.
 */
#include "fuzz_common.h"

enum { MAXN = 24, MAXLEN = 800, ARENA = MAXN * (MAXLEN + 16 + 16 + 64) };
static uint8_t A[ARENA], R[ARENA], I[ARENA];

typedef struct {
    size_t out, tag, in, len, tag_len, iv, iv_len, aad, aad_len;
    int key, in_place;
} fz_msg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size};
    const uint8_t mb = fz_byte(&r);
    int mode = mb % 8;
    const int uniform = mode < 2 && (mb & 0x80);
    size_t n = fz_byte(&r) % (MAXN + 1);
    uint8_t keyb[4][32];
    size_t kl[4];
    for (int i = 0; i < 4; i++) {
        kl[i] = 16 + 8 * (fz_byte(&r) % 3);
        fz_take(&r, keyb[i], 32);
    }
    fz_msg fm[MAXN];
    size_t a_used = 0, i_used = 0;
    for (size_t i = 0; i < n; i++) {
        fz_msg *q = &fm[i];
        uint8_t b0 = fz_byte(&r), b1 = fz_byte(&r), b2 = fz_byte(&r);
        q->key = b0 & 3;
        q->in_place = (b0 >> 2) & 1;
        q->len = ((size_t)b1 << 2 | (b0 >> 6)) % (MAXLEN + 1);
        if (mode >= 4 && mode <= 6 && !(b0 & 8)) /* CBC-MAC/CBC: mostly whole blocks */
            q->len &= ~(size_t)15;
        q->tag_len = 3 + b2 % 15;                  /* 3..17: a few invalid */
        q->iv_len = mode < 2 ? b2 % 17 : 6 + b2 % 9; /* GCM 0..16, CCM 6..14 */
        q->aad_len = fz_byte(&r) % 40;
        if (mode < 2 && (b0 & 8)) { /* GCM: small, 12-byte IV: the runs of vaes_gcm_multi.h */
            q->len %= 97;
            q->iv_len = 12;
            q->tag_len = b2 & 1 ? 16 : 12;
            q->aad_len %= 20;
        }
        if (uniform) { /* message 0's shape for all */
            q->key = i ? fm[0].key : q->key;
            q->len = i ? fm[0].len : ((size_t)b1 << 2 | (b0 >> 6)) % (MAXLEN + 1);
            q->aad_len = i ? fm[0].aad_len : q->aad_len % 17;
            q->iv_len = 12;
            q->tag_len = 16;
        }
        q->in = i_used;
        fz_take(&r, I + i_used, q->len);
        i_used += q->len;
        q->iv = i_used;
        fz_take(&r, I + i_used, 16);
        i_used += 16;
        q->aad = i_used;
        fz_take(&r, I + i_used, q->aad_len);
        i_used += q->aad_len;
        q->out = a_used;
        if (q->in_place)
            memcpy(A + a_used, I + q->in, q->len);
        a_used += q->len + 1;
        if (uniform) { /* the tags apart, after every output (A's last MAXN * 17 bytes) */
            q->tag = ARENA - (MAXN - i) * 17;
            fz_take(&r, A + q->tag, 16);
            continue;
        }
        q->tag = a_used;
        fz_take(&r, A + a_used, 16);
        a_used += 17;
    }

    /* GCM opens with the mode byte's 0x40 bit: each message's ciphertext
     * and tag made valid first by a single seal (the default backend), so
     * that the opens succeed and their plaintexts are compared as well;
     * a message whose seal fails keeps its bytes and fails its open */
    if (mode == 1 && (mb & 0x40)) {
        aeskit_gcm_key sk[4];
        static uint8_t tmp[MAXLEN];
        for (int i = 0; i < 4; i++)
            FZ_ASSERT(aeskit_gcm_init(&sk[i], keyb[i], kl[i]) == AESKIT_OK, "init");
        for (size_t i = 0; i < n; i++) {
            const fz_msg *q = &fm[i];
            uint8_t *c = q->in_place ? A + q->out : I + q->in;
            if (aeskit_gcm_seal(&sk[q->key], tmp, A + q->tag, q->tag_len, c, q->len, I + q->iv, q->iv_len,
                                I + q->aad, q->aad_len) == AESKIT_OK)
                memcpy(c, tmp, q->len);
        }
    }

    /* the bytes the calls may write: outputs and tags (uniform: the tags
     * at the arena's end) */
    const size_t extent = uniform ? (size_t)ARENA : a_used;
    aeskit_gcm_key gk[4];
    aeskit_aes_key ak[4];
    aeskit_cmac_key ck[4];
    for (size_t b = 0; b < aeskit_backend_count(); b++) {
        aeskit_backend_info bi;
        FZ_ASSERT(aeskit_backend_get(&bi, b) == AESKIT_OK, "backend_get");
        if (!bi.available)
            continue;
        for (int i = 0; i < 4; i++) {
            FZ_ASSERT(aeskit_gcm_init_backend(&gk[i], keyb[i], kl[i], bi.name) == AESKIT_OK, "init");
            FZ_ASSERT(aeskit_aes_init_backend(&ak[i], keyb[i], kl[i], bi.name) == AESKIT_OK, "init");
            FZ_ASSERT(aeskit_cmac_init_backend(&ck[i], keyb[i], kl[i], bi.name) == AESKIT_OK, "init");
        }
        static uint8_t A0[ARENA];
        memcpy(A0, A, extent);
        memcpy(R, A, extent);
        aeskit_gcm_msg gm[MAXN];
        aeskit_ccm_msg cm[MAXN];
        aeskit_cmac_msg mm[MAXN];
        aeskit_cbc_msg cb[MAXN];
        aeskit_ctr_msg ct[MAXN];
        aeskit_status ref[MAXN], got[MAXN], res = AESKIT_OK;
        for (size_t i = 0; i < n; i++) {
            fz_msg *q = &fm[i];
            uint8_t *out = A + q->out, *tag = A + q->tag;
            const uint8_t *in = q->in_place ? out : I + q->in;
            const uint8_t *iv = I + q->iv, *aad = I + q->aad;
            gm[i] = (aeskit_gcm_msg){&gk[q->key], out, tag, q->tag_len, in, q->len, iv, q->iv_len,
                                     aad, q->aad_len, AESKIT_OK};
            cm[i] = (aeskit_ccm_msg){&ak[q->key], out, tag, q->tag_len, in, q->len, iv, q->iv_len,
                                     aad, q->aad_len, AESKIT_OK};
            mm[i] = (aeskit_cmac_msg){&ck[q->key], tag, q->tag_len, in, q->len, AESKIT_OK};
            cb[i] = (aeskit_cbc_msg){&ak[q->key], out, in, q->len, tag, AESKIT_OK};
            ct[i] = (aeskit_ctr_msg){&ak[q->key], out, in, q->len, iv, AESKIT_OK};
        }
        switch (mode) {
        case 0: res = aeskit_gcm_seal_batch(gm, n); break;
        case 1: res = aeskit_gcm_open_batch(gm, n); break;
        case 2: res = aeskit_ccm_seal_batch(cm, n); break;
        case 3: res = aeskit_ccm_open_batch(cm, n); break;
        case 4: res = aeskit_cmac_verify_batch(mm, n); break;
        case 5: res = aeskit_cbc_encrypt_batch(cb, n); break;
        case 6: res = aeskit_cbc_decrypt_batch(cb, n); break;
        default: res = aeskit_ctr_batch(ct, n); break;
        }
        aeskit_status first = AESKIT_OK;
        for (size_t i = 0; i < n; i++) {
            fz_msg *q = &fm[i];
            uint8_t *out = R + q->out, *tag = R + q->tag;
            const uint8_t *in = q->in_place ? out : I + q->in;
            const uint8_t *iv = I + q->iv, *aad = I + q->aad;
            switch (mode) {
            case 0: got[i] = gm[i].status;
                ref[i] = aeskit_gcm_seal(&gk[q->key], out, tag, q->tag_len, in, q->len, iv,
                                         q->iv_len, aad, q->aad_len); break;
            case 1: got[i] = gm[i].status;
                ref[i] = aeskit_gcm_open(&gk[q->key], out, in, q->len, tag, q->tag_len, iv,
                                         q->iv_len, aad, q->aad_len); break;
            case 2: got[i] = cm[i].status;
                ref[i] = aeskit_ccm_seal(&ak[q->key], out, tag, q->tag_len, in, q->len, iv,
                                         q->iv_len, aad, q->aad_len); break;
            case 3: got[i] = cm[i].status;
                ref[i] = aeskit_ccm_open(&ak[q->key], out, in, q->len, tag, q->tag_len, iv,
                                         q->iv_len, aad, q->aad_len); break;
            case 4: got[i] = mm[i].status;
                ref[i] = aeskit_cmac_verify(&ck[q->key], in, q->len, tag, q->tag_len); break;
            case 5: got[i] = cb[i].status;
                ref[i] = aeskit_cbc_encrypt(&ak[q->key], out, in, q->len, tag); break;
            case 6: got[i] = cb[i].status;
                ref[i] = aeskit_cbc_decrypt(&ak[q->key], out, in, q->len, tag); break;
            default: got[i] = ct[i].status;
                ref[i] = aeskit_ctr_crypt(&ak[q->key], out, in, q->len, iv); break;
            }
            FZ_ASSERT(got[i] == ref[i], "%s mode %d message %zu of %zu: batch %d, single %d",
                      bi.name, mode, i, n, got[i], ref[i]);
            if (first == AESKIT_OK)
                first = got[i];
        }
        FZ_ASSERT(res == first, "%s mode %d: result %d, first failure %d", bi.name, mode, res,
                  first);
        FZ_ASSERT(!memcmp(A, R, extent), "%s mode %d: outputs differ from the single calls",
                  bi.name, mode);
        memcpy(A, A0, extent);
    }
    return 0;
}
