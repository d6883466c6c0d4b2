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
    return th_finish("batch_ccm");
}
