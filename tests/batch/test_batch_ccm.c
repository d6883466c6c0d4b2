/*
 * test_batch_ccm.c - aeskit_ccm_seal_batch / _open_batch against the same
 * messages done one by one with aeskit_ccm_seal / _open, byte for byte and
 * status for status, under the backend named by AESKIT_BACKEND.
 *
 * Random batches of 0..100 messages: lengths 0..4 KiB with a tail up to
 * 64 KiB, keys from a pool of mixed sizes and a wiped one, nonces of 7..13
 * bytes (and a bad one; a short nonce's length field refuses long
 * messages), tags 4..16 (and a bad one), AAD 0..300 bytes or one shared
 * buffer, in place and not, outputs in order or shuffled; opens with one
 * or two tags tampered, which fail alone.
 *
 * Then batches in the layout of batch_ccm.c's common case (every output
 * in increasing address order, then every tag; one pass decides it): the
 * partial last block's lengths 0..15 over whole blocks, AAD of every
 * head shape (none, inside the first block, a short rest, longer, a 6-byte
 * length encoding; mixed, or only heads of at most 3 blocks, or one shape
 * for all), in place or not for the whole batch, and at most one
 * message that breaks a single call's check or the batch's rule, which
 * the one pass must hand to the general checks.
 */
#include "batch_common.h"

static const char *be;

#define NKEYS 6
#define MAXN 101
static aeskit_aes_key keys[NKEYS + 1];
static aeskit_ccm_msg m[MAXN], om[MAXN];
static aeskit_status got[MAXN], ref[MAXN];

static void compare(const char *what, const aeskit_ccm_msg *q, size_t n, aeskit_status result)
{
    size_t bad = 0;
    aeskit_status first = AESKIT_OK;
    for (size_t i = 0; i < n; i++) {
        if (got[i] != ref[i] && bad++ < 3)
            TH_CHECK(0, "%s: message %zu of %zu: batch %d, single %d (len %zu nonce %zu tag %zu)",
                     what, i, n, got[i], ref[i], q[i].len, q[i].nonce_len, q[i].tag_len);
        if (first == AESKIT_OK)
            first = got[i];
    }
    TH_CHECK(bad == 0, "%s: %zu statuses differ", what, bad);
    TH_CHECK(result == first, "%s: result %d, first failure %d", what, result, first);
    bt_compare(what, n);
}

/* The one message of a common-layout batch that breaks a rule (what < 13:
 * one each; else none).  Returns 1 if it breaks the batch's rule (then
 * every message fails with AESKIT_ERR_OVERLAP and nothing is written),
 * 0 if a single call's check or nothing. */
static int cl_break(aeskit_ccm_msg *q, aeskit_ccm_msg *prev, size_t what)
{
    switch (what) {
    case 0: q->nonce_len = 6; break;
    case 1: q->nonce_len = 14; break;
    case 2: q->tag_len = th_randn(2) ? 5 : 18; break;
    case 3: q->key = &keys[NKEYS]; break; /* wiped */
    case 4: q->key = NULL; break;
    case 5: q->nonce = NULL; break;
    case 6: if (q->aad_len) q->aad = NULL; else q->tag = NULL; break;
    case 7:
        if (q->len && th_randn(2))
            q->in = NULL;
        else if (q->len)
            q->out = NULL;
        else
            q->tag = NULL;
        break;
    case 8: /* a 13-byte nonce: a 2-byte length field (else a bad length) */
        q->nonce_len = q->len >= 65536 ? 13 : 14;
        break;
    case 9: /* out one byte into its own in */
        if (q->len > 1 && q->in != q->out)
            q->in = q->out + 1;
        else
            q->tag = q->out ? q->out : NULL;
        break;
    case 10: /* the tag inside the previous message's out */
        if (prev && prev->len >= 16) {
            q->tag = prev->out + th_randn(prev->len - 15);
            return 1;
        }
        q->tag = NULL;
        break;
    case 11: /* the AAD inside the previous message's out */
        if (prev && prev->len && q->aad_len && q->aad_len <= prev->len) {
            q->aad = prev->out;
            return 1;
        }
        q->nonce = NULL;
        break;
    case 12: /* out overlapping the previous message's out */
        if (prev && prev->len && q->len) {
            q->out = prev->out + th_randn(prev->len);
            return 1;
        }
        q->nonce_len = 6;
        break;
    default: break;
    }
    return 0;
}

static void common_layout(void)
{
    bt_reset();
    size_t n = 1 + th_randn(40), k = 0;
    const aeskit_aes_key *one = th_randn(2) ? &keys[th_randn(NKEYS)] : NULL;
    const int inplace = th_randn(4) == 0;
    /* a NULL buffer often on the first message: the pass's ordered kinds
     * start there */
    const size_t what = th_randn(24), bad = what == 7 && th_randn(2) ? 0 : th_randn(n);
    /* half the batches with every AAD at most 29 bytes (the head in at
     * most 3 blocks, no AAD passes), some of them one AAD length for all;
     * some with one nonzero partial-block length for all */
    const int short_heads = th_randn(2);
    const size_t one_aad = th_randn(3) ? SIZE_MAX : th_randn(30);
    const size_t one_rem = th_randn(3) ? SIZE_MAX : 1 + th_randn(15);
    for (; k < n; k++) {
        aeskit_ccm_msg *q = &m[k];
        memset(q, 0, sizeof *q);
        q->key = one ? one : &keys[th_randn(NKEYS)];
        q->tag_len = 4 + 2 * th_randn(7);
        q->nonce_len = 7 + th_randn(7);
        q->nonce = bt_in(16);
        static const size_t aads[] = {0, 1, 13, 14, 15, 16, 29, 30, 31, 200};
        size_t r = th_randn(40);
        q->aad_len = r < 10 ? aads[r] : r == 10 ? 0xff00 + th_randn(40) : th_randn(60);
        if (short_heads)
            q->aad_len = one_aad != SIZE_MAX ? one_aad : th_randn(30);
        q->aad = q->aad_len ? bt_in(q->aad_len) : NULL;
        /* 1 in 10 below a block, 1 in 40 above 64 KiB (and the message
         * that will break the length field's limit) */
        const int big = th_randn(40) == 0 || (what == 8 && k == bad);
        r = th_randn(10);
        q->len = big ? 65536 + th_randn(40) : r == 0 ? th_randn(16) : 16 * th_randn(120) + th_randn(16);
        if (one_rem != SIZE_MAX)
            q->len = q->len / 16 * 16 + one_rem;
        if (q->nonce_len == 13 && q->len >= 65536 && !(what == 8 && k == bad)) /* a 2-byte length field */
            q->len = th_randn(4000);
        const uint8_t *p = bt_in(q->len);
        if (!p || !q->nonce || (q->aad_len && !q->aad))
            break;
        if (inplace) {
            uint8_t *o = q->len ? bt_out(q->len) : NULL;
            if (q->len && !o)
                break;
            if (q->len)
                memcpy(o, p, q->len);
            q->in = q->out = o;
        } else {
            q->in = q->len ? p : NULL;
            q->out = q->len ? bt_out(q->len) : NULL;
            if (q->len && !q->out)
                break;
        }
    }
    n = k;
    for (k = 0; k < n; k++)
        if (!(m[k].tag = bt_out(16)))
            break;
    n = k;
    const int rule = bad < n && cl_break(&m[bad], bad ? &m[bad - 1] : NULL, what);
    bt_snapshot();
    aeskit_status st = aeskit_ccm_seal_batch(m, n);
    for (size_t i = 0; i < n; i++) {
        got[i] = m[i].status;
        ref[i] = rule ? AESKIT_ERR_OVERLAP : aeskit_ccm_seal(m[i].key, bt_ref(m[i].out), bt_ref(m[i].tag), m[i].tag_len,
                                 bt_ref(m[i].in), m[i].len, m[i].nonce, m[i].nonce_len, m[i].aad,
                                 m[i].aad_len);
    }
    compare(rule ? "common seal, batch rule broken" : "common seal", m, n, st);
    if (rule)
        return;

    /* open: the ciphertexts in place, or to new outputs above the tags */
    size_t t0 = n ? th_randn(n) : SIZE_MAX;
    const int tamper = th_randn(2);
    for (size_t i = 0; i < n; i++) {
        om[i] = m[i];
        om[i].in = m[i].out;
        if (!inplace && m[i].len) {
            om[i].out = bt_out(m[i].len);
            if (!om[i].out)
                om[i].out = m[i].out;
        }
        if (tamper && i == t0 && m[i].status == AESKIT_OK)
            m[i].tag[th_randn(m[i].tag_len)] ^= 0x04;
    }
    bt_snapshot();
    st = aeskit_ccm_open_batch(om, n);
    for (size_t i = 0; i < n; i++) {
        got[i] = om[i].status;
        ref[i] = aeskit_ccm_open(om[i].key, bt_ref(om[i].out), bt_ref(om[i].in), om[i].len,
                                 bt_ref(om[i].tag), om[i].tag_len, om[i].nonce, om[i].nonce_len,
                                 om[i].aad, om[i].aad_len);
        if (m[i].status == AESKIT_OK)
            TH_CHECK(got[i] == (tamper && i == t0 ? AESKIT_ERR_AUTH : AESKIT_OK),
                     "common open: message %zu: %d", i, got[i]);
    }
    compare("common open", om, n, st);
}

/* A NULL buffer (out, tag, in, nonce or AAD) in the first message of a
 * batch laid out for the common case, with the outputs and tags in one
 * region and the inputs in another above or below it, the tags below the
 * outputs or above: the one pass's hull of a kind starts at the first
 * message's pointer (0 for NULL), and in some of these layouts that hull
 * meets no other, so only the pass's own NULL test can send the batch to
 * the general checks.  The NULL must fail that message alone with its
 * single call's status, and the others must complete. */
static void null_first(void)
{
    enum { NM = 4, LEN = 100, SLOT = 128, NONCES = 2048, AADS = 3072 };
    static uint8_t reg[2][4096]; /* reg[0] lies below reg[1] */
    static uint8_t refo[NM][SLOT], reft[NM][16];
    for (int field = 0; field < 5; field++) {
        for (int layout = 0; layout < 4; layout++) {
            const int below = layout & 1, tags_low = layout >> 1;
            uint8_t *o = reg[below], *i = reg[1 - below]; /* below: the inputs below the outputs */
            const size_t tags = tags_low ? 0 : 2048, outs = tags_low ? 512 : 0;
            th_fill(i, sizeof reg[0]);
            memset(o, 0, sizeof reg[0]);
            aeskit_ccm_msg q[NM];
            for (size_t k = 0; k < NM; k++)
                q[k] = (aeskit_ccm_msg){.key = &keys[0], .out = o + outs + SLOT * k, .tag = o + tags + 16 * k,
                                        .tag_len = 16, .in = i + SLOT * k, .len = LEN,
                                        .nonce = i + NONCES + 16 * k, .nonce_len = 12,
                                        .aad = i + AADS + 32 * k, .aad_len = 20};
            switch (field) {
            case 0: q[0].out = NULL; break;
            case 1: q[0].tag = NULL; break;
            case 2: q[0].in = NULL; break;
            case 3: q[0].nonce = NULL; break;
            default: q[0].aad = NULL; break;
            }
            const aeskit_status st = aeskit_ccm_seal_batch(q, NM);
            for (size_t k = 0; k < NM; k++) {
                const aeskit_status r = aeskit_ccm_seal(q[k].key, q[k].out ? refo[k] : NULL,
                                                        q[k].tag ? reft[k] : NULL, 16, q[k].in, LEN, q[k].nonce,
                                                        12, q[k].aad, q[k].aad_len);
                TH_CHECK(q[k].status == r, "null first (field %d, layout %d): message %zu: batch %d, single %d",
                         field, layout, k, q[k].status, r);
                if (r == AESKIT_OK)
                    TH_CHECK(!memcmp(q[k].out, refo[k], LEN) && !memcmp(q[k].tag, reft[k], 16),
                             "null first (field %d, layout %d): message %zu's output", field, layout, k);
            }
            TH_CHECK(q[0].status != AESKIT_OK && st == q[0].status, "null first (field %d, layout %d): result %d",
                     field, layout, st);
        }
    }
}

int main(void)
{
    be = th_backend();
    th_seed(0x6261746368636d63ull);
    for (int i = 0; i <= NKEYS; i++) {
        uint8_t kb[32];
        th_fill(kb, 32);
        aeskit_status st = aeskit_aes_init_backend(&keys[i], kb, 16 + 8 * th_randn(3), be);
        TH_CHECK(st == AESKIT_OK, "init: %s", aeskit_strerror(st));
    }
    aeskit_aes_wipe(&keys[NKEYS]);
    int iters = (int)th_scaled(100, 10);
    for (int it = 0; it < iters; it++) {
        bt_reset();
        const uint8_t *shared = bt_in(40);
        size_t n = bt_count(), k = 0;
        /* every third batch under one key object: the head and tail MAC
         * passes by ECB steps (batch.h's mo_lanes_short) */
        const aeskit_aes_key *one = it % 3 == 0 ? &keys[th_randn(NKEYS)] : NULL;
        for (; k < n; k++) {
            aeskit_ccm_msg *q = &m[k];
            memset(q, 0, sizeof *q);
            size_t r = th_randn(100);
            q->key = r == 0 ? &keys[NKEYS] : one ? one : &keys[th_randn(NKEYS)];
            q->tag_len = r == 1 ? 5 : 4 + 2 * th_randn(7);
            q->nonce_len = r == 2 ? 14 : 7 + th_randn(7);
            q->nonce = bt_in(16);
            /* under one key mostly short messages: runs of them fill
             * batch_ccm.c's groups of ECB steps (cc_short_group) */
            const int small = one && th_randn(5);
            if (th_randn(5) == 0) {
                q->aad = shared;
                q->aad_len = small ? th_randn(41) : 40;
            } else {
                q->aad_len = small ? th_randn(40) : th_randn(301);
                q->aad = q->aad_len ? bt_in(q->aad_len) : NULL;
            }
            q->len = small ? th_randn(80) : bt_len();
            const uint8_t *p = bt_in(q->len);
            if (!p || !q->nonce || (q->aad_len && !q->aad))
                break;
            if (th_randn(10) < 3) {
                uint8_t *o = bt_out(q->len);
                if (!o)
                    break;
                if (q->len)
                    memcpy(o, p, q->len);
                q->in = q->out = q->len ? o : NULL;
            } else {
                q->in = q->len ? p : NULL;
                q->out = q->len ? bt_out(q->len) : NULL;
                if (q->len && !q->out)
                    break;
            }
            q->tag = bt_out(16);
            if (!q->tag)
                break;
        }
        n = k;
        int shuffled = th_randn(4) == 0;
        if (shuffled)
            bt_shuffle(m, n, sizeof m[0]);
        bt_snapshot();
        aeskit_status st = aeskit_ccm_seal_batch(m, n);
        for (size_t i = 0; i < n; i++) {
            got[i] = m[i].status;
            ref[i] = aeskit_ccm_seal(m[i].key, bt_ref(m[i].out), bt_ref(m[i].tag), m[i].tag_len,
                                     bt_ref(m[i].in), m[i].len, m[i].nonce, m[i].nonce_len,
                                     m[i].aad, m[i].aad_len);
        }
        compare(shuffled ? "seal shuffled" : "seal", m, n, st);

        size_t t0 = n ? th_randn(n) : SIZE_MAX, t1 = n ? th_randn(n) : SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            om[i] = m[i];
            om[i].in = m[i].out;
            if (m[i].in != m[i].out && m[i].len) {
                om[i].out = bt_out(m[i].len);
                if (!om[i].out)
                    om[i].out = m[i].out;
            }
            if ((i == t0 || i == t1) && m[i].status == AESKIT_OK)
                m[i].tag[th_randn(m[i].tag_len)] ^= 0x10;
        }
        bt_snapshot();
        st = aeskit_ccm_open_batch(om, n);
        for (size_t i = 0; i < n; i++) {
            got[i] = om[i].status;
            ref[i] = aeskit_ccm_open(om[i].key, bt_ref(om[i].out), bt_ref(om[i].in), om[i].len,
                                     bt_ref(om[i].tag), om[i].tag_len, om[i].nonce,
                                     om[i].nonce_len, om[i].aad, om[i].aad_len);
            if (m[i].status == AESKIT_OK && i != t0 && i != t1)
                TH_CHECK(got[i] == AESKIT_OK, "open: untampered message %zu: %d", i, got[i]);
            if (m[i].status == AESKIT_OK && (i == t0 || i == t1))
                TH_CHECK(got[i] == AESKIT_ERR_AUTH, "open: tampered message %zu: %d", i,
                         got[i]);
        }
        compare("open", om, n, st);
    }
    for (int it = 0; it < iters; it++)
        common_layout();
    null_first();
    return th_finish("batch_ccm");
}
