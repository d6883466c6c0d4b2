/*
 * test_batch_gcm.c - aeskit_gcm_seal_batch / _open_batch / aeskit_gmac_batch
 * / _verify_batch against the same messages done one by one with
 * aeskit_gcm_seal / _open / aeskit_gmac / _verify, byte for byte and status
 * for status, under the backend named by AESKIT_BACKEND.
 *
 * Random batches of 0..100 messages: lengths 0..4 KiB with a tail up to
 * 64 KiB, keys from a pool (shared by many messages) of mixed sizes, a
 * wiped key now and then, tag lengths 4..16 and a bad one, 12-byte and
 * other IVs and a bad one, AAD 0..300 bytes, sometimes one AAD buffer for
 * every message, in place and not, outputs in increasing order or
 * shuffled.  Opens with one or two tampered messages: each fails alone,
 * with its output zeroed or restored, and every other message's plaintext
 * is the original.  Counter wrap: IVs solved (tests/diff/gf128.h) so that
 * J0 ends in ffffffff - k, mixed among 12-byte-IV messages of one batch.
 * Overlaps across messages and with the descriptor array are refused:
 * fixed cases, and random small layouts against the rule as the header
 * states it.
 * Small messages in runs (test_small) for the multi-message kernel's
 * groupings.  A backend's gcm_batch_scan hook (src/internal.h) against its
 * contract on made-up descriptors (test_scan_model), and the batches
 * whose breaks only the scan's own steps see (test_scan_edges, _pairs).
 */
#include "batch_common.h"
#include "gf128.h"
#include "internal.h"

static const char *be;

#define NKEYS 8
static aeskit_gcm_key keys[NKEYS + 1]; /* the last one is wiped */
static uint8_t key_bytes[NKEYS][32];
static size_t key_lens[NKEYS];

static const size_t tag_lens[] = {16, 16, 16, 12, 8, 4, 13, 14, 15};

#define MAXN 101
static aeskit_gcm_msg msgs[MAXN];
static const uint8_t *orig[MAXN]; /* plaintexts, for the opens */

static const uint8_t *shared_aad;

/* One random message; returns 0 if the arena is full. */
static int make_msg(aeskit_gcm_msg *m, int gmac)
{
    memset(m, 0, sizeof *m);
    m->status = (aeskit_status)99;
    size_t r = th_randn(100);
    m->key = r < 3 ? &keys[NKEYS] : &keys[th_randn(NKEYS)];
    m->tag_len = r == 3 ? 5 : tag_lens[th_randn(sizeof tag_lens / sizeof tag_lens[0])];
    m->iv_len = r == 4 ? 0 : th_randn(100) < 80 ? 12 : 1 + th_randn(64);
    m->iv = bt_in(m->iv_len ? m->iv_len : 1);
    if (th_randn(5) == 0) {
        m->aad = shared_aad;
        m->aad_len = 40;
    } else {
        m->aad_len = th_randn(301);
        m->aad = m->aad_len ? bt_in(m->aad_len) : NULL;
    }
    m->len = gmac ? (r == 5 ? 16 : 0) : bt_len();
    const uint8_t *p = bt_in(m->len);
    if (!p || !m->iv || (m->aad_len && !m->aad))
        return 0;
    if (gmac) {
        m->in = m->len ? p : NULL;
    } else if (th_randn(10) < 3) {
        uint8_t *o = bt_out(m->len);
        if (!o)
            return 0;
        if (m->len)
            memcpy(o, p, m->len);
        m->in = m->out = m->len ? o : NULL;
    } else {
        m->in = m->len ? p : NULL;
        m->out = bt_out(m->len);
        if (!m->out)
            return 0;
        if (!m->len)
            m->out = NULL;
    }
    m->tag = bt_out(m->tag_len);
    return m->tag != NULL;
}

static aeskit_status first_failure(const aeskit_gcm_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].status != AESKIT_OK)
            return m[i].status;
    return AESKIT_OK;
}

enum { SEAL, OPEN, GMAC, GMAC_VERIFY };
static const char *const names[] = {"seal", "open", "gmac", "gmac_verify"};

static aeskit_status batch_call(int mode, aeskit_gcm_msg *m, size_t n)
{
    switch (mode) {
    case SEAL: return aeskit_gcm_seal_batch(m, n);
    case OPEN: return aeskit_gcm_open_batch(m, n);
    case GMAC: return aeskit_gmac_batch(m, n);
    default: return aeskit_gmac_verify_batch(m, n);
    }
}

/* The reference: message m done alone on the reference arena. */
static aeskit_status single_call(int mode, const aeskit_gcm_msg *m)
{
    uint8_t *out = bt_ref(m->out), *tag = bt_ref(m->tag);
    const uint8_t *in = bt_ref(m->in);
    switch (mode) {
    case SEAL:
        return aeskit_gcm_seal(m->key, out, tag, m->tag_len, in, m->len, m->iv, m->iv_len,
                               m->aad, m->aad_len);
    case OPEN:
        return aeskit_gcm_open(m->key, out, in, m->len, tag, m->tag_len, m->iv, m->iv_len,
                               m->aad, m->aad_len);
    case GMAC: {
        /* With len != 0 the batch writes nothing: the checks run on a
         * scratch tag. */
        uint8_t scratch[16];
        aeskit_status st = aeskit_gmac(m->key, m->len ? scratch : tag, m->tag_len, m->iv,
                                       m->iv_len, m->aad, m->aad_len);
        /* The batch checks len after aeskit_gmac's checks. */
        if (st == AESKIT_OK && m->len)
            return AESKIT_ERR_LENGTH;
        return st;
    }
    default: {
        aeskit_status st = aeskit_gmac_verify(m->key, tag, m->tag_len, m->iv, m->iv_len,
                                              m->aad, m->aad_len);
        if (m->len && (st == AESKIT_OK || st == AESKIT_ERR_AUTH))
            return AESKIT_ERR_LENGTH;
        return st;
    }
    }
}

/* The batch call, then the single calls on the snapshot; statuses, the
 * result and both arenas compared. */
static void run_and_compare(int mode, aeskit_gcm_msg *m, size_t n, const char *what)
{
    bt_snapshot();
    aeskit_status st = batch_call(mode, m, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        aeskit_status ref = single_call(mode, &m[i]);
        if (m[i].status != ref && bad++ < 3)
            TH_CHECK(0, "%s %s: message %zu of %zu: batch %d, single %d (len %zu iv %zu tag %zu)",
                     what, names[mode], i, n, m[i].status, ref, m[i].len, m[i].iv_len,
                     m[i].tag_len);
    }
    TH_CHECK(bad == 0, "%s %s: %zu statuses differ", what, names[mode], bad);
    TH_CHECK(st == first_failure(m, n), "%s %s: result %d, first failure %d", what, names[mode],
             st, first_failure(m, n));
    bt_compare(names[mode], n);
}

static void test_random(int iters)
{
    for (int it = 0; it < iters; it++) {
        bt_reset();
        shared_aad = bt_in(40);
        int gmac = it % 4 == 3;
        size_t n = bt_count(), made = 0;
        while (made < n && make_msg(&msgs[made], gmac)) {
            made++;
        }
        n = made;
        for (size_t i = 0; i < n; i++)
            orig[i] = msgs[i].in;
        int shuffled = th_randn(4) == 0;
        if (shuffled)
            bt_shuffle(msgs, n, sizeof msgs[0]);
        /* Plaintexts kept before an in-place seal overwrites them. */
        static uint8_t keep[MAXN][256];
        for (size_t i = 0; i < n; i++)
            if (msgs[i].len)
                memcpy(keep[i], msgs[i].in, msgs[i].len < 256 ? msgs[i].len : 256);
        run_and_compare(gmac ? GMAC : SEAL, msgs, n, shuffled ? "shuffled" : "sorted");

        /* Verify / open what was sealed, one or two messages tampered. */
        size_t ntamper = n ? 1 + th_randn(2) : 0, tampered[2] = {SIZE_MAX, SIZE_MAX};
        for (size_t t = 0; t < ntamper; t++) {
            size_t i = th_randn(n);
            /* a second flip on the same message could undo the first */
            if (msgs[i].status != AESKIT_OK || (t == 1 && i == tampered[0]))
                continue;
            msgs[i].tag[th_randn(msgs[i].tag_len)] ^= (uint8_t)(1u << th_randn(8));
            tampered[t] = i;
        }
        if (gmac) {
            run_and_compare(GMAC_VERIFY, msgs, n, "tampered");
            for (size_t i = 0; i < n; i++)
                if (msgs[i].status == AESKIT_OK)
                    TH_CHECK(i != tampered[0] && i != tampered[1],
                             "gmac_verify accepted a tampered tag");
            continue;
        }
        /* The seal's outputs become the open's inputs; in place when the
         * seal was (the ciphertext is then in out). */
        static aeskit_gcm_msg om[MAXN];
        static const uint8_t *ct[MAXN];
        for (size_t i = 0; i < n; i++) {
            om[i] = msgs[i];
            ct[i] = msgs[i].out;
            om[i].in = msgs[i].out;
            if (msgs[i].in != msgs[i].out) {
                om[i].out = msgs[i].len ? bt_out(msgs[i].len) : NULL;
                if (msgs[i].len && !om[i].out)
                    om[i].out = (uint8_t *)(uintptr_t)msgs[i].out; /* arena full: in place */
            }
        }
        run_and_compare(OPEN, om, n, "tampered");
        for (size_t i = 0; i < n; i++) {
            if (msgs[i].status != AESKIT_OK)
                continue;
            int t = i == tampered[0] || i == tampered[1];
            size_t cl = msgs[i].len < 256 ? msgs[i].len : 256;
            if (t) {
                TH_CHECK(om[i].status == AESKIT_ERR_AUTH, "tampered message %zu: %d", i,
                         om[i].status);
                if (om[i].out != om[i].in)
                    TH_CHECK(th_all_zero(om[i].out, msgs[i].len),
                             "tampered message %zu: output not zeroed", i);
                (void)ct;
            } else {
                TH_CHECK(om[i].status == AESKIT_OK, "message %zu next to a tampered one: %d", i,
                         om[i].status);
                if (cl)
                    TH_CHECK_MEM(om[i].out, keep[i], cl, "message %zu: plaintext lost", i);
            }
        }
    }
}

/* Counter wrap: J0 = ...ffffffff - k for k = 0..63 from solved 16..64-byte
 * IVs, messages long enough to cross the wrap, mixed with 12-byte IVs. */
static void test_wrap(void)
{
    static const size_t iv_lens[] = {16, 32, 20, 64, 48};
    static uint8_t ivs[64][64];
    for (size_t ki = 0; ki < NKEYS; ki += 3) {
        uint8_t h[16], zero[16] = {0};
        aeskit_aes_key ak;
        aeskit_status st = aeskit_aes_init_backend(&ak, key_bytes[ki], key_lens[ki], be);
        if (st == AESKIT_OK)
            st = aeskit_aes_encrypt_block(&ak, h, zero);
        TH_CHECK(st == AESKIT_OK, "H: %s", aeskit_strerror(st));
        bt_reset();
        size_t n = 0;
        for (uint32_t k = 0; k < 64; k++) {
            uint32_t low = 0xffffffffu - k;
            size_t iv_len = iv_lens[k % 5];
            uint8_t target[16];
            th_fill(ivs[k], iv_len);
            th_fill(target, 12);
            target[12] = (uint8_t)(low >> 24);
            target[13] = (uint8_t)(low >> 16);
            target[14] = (uint8_t)(low >> 8);
            target[15] = (uint8_t)low;
            TH_CHECK(gf_solve_iv(h, ivs[k], iv_len, th_randn(iv_len / 16), target),
                     "cannot solve the IV");
            aeskit_gcm_msg *m = &msgs[n++];
            memset(m, 0, sizeof *m);
            m->key = &keys[ki];
            m->iv = ivs[k];
            m->iv_len = iv_len;
            m->len = (k + 1) * 16 + th_randn(40 * 16);
            m->in = bt_in(m->len);
            m->out = bt_out(m->len);
            m->tag = bt_out(16);
            m->tag_len = 16;
            if (k % 2) { /* a 12-byte-IV neighbour */
                aeskit_gcm_msg *q = &msgs[n++];
                *q = *m;
                q->iv = bt_in(12);
                q->iv_len = 12;
                q->out = bt_out(q->len);
                q->tag = bt_out(16);
            }
        }
        run_and_compare(SEAL, msgs, n, "wrap");
        for (size_t i = 0; i < n; i++) {
            msgs[i].in = msgs[i].out;
            msgs[i].out = bt_out(msgs[i].len);
        }
        run_and_compare(OPEN, msgs, n, "wrap");
        TH_CHECK(first_failure(msgs, n) == AESKIT_OK, "wrap: an open failed");
    }
}

/* Overlaps that must be refused as a whole, and shared inputs that must not. */
static void test_overlap(void)
{
    static uint8_t buf[4096], in[4096], tags[256];
    uint8_t iv[12] = {1};
    aeskit_gcm_msg m[4];
    for (int c = 0; c < 7; c++) {
        memset(m, 0, sizeof m);
        for (int i = 0; i < 4; i++) {
            m[i].key = &keys[i];
            m[i].in = in + 512 * i;
            m[i].out = buf + 512 * i;
            m[i].len = 100;
            m[i].iv = iv;
            m[i].iv_len = 12;
            m[i].aad = in + 3000; /* one AAD for all: allowed */
            m[i].aad_len = 20;
            m[i].tag = tags + 32 * i;
            m[i].tag_len = 16;
        }
        aeskit_status want = AESKIT_ERR_OVERLAP;
        const char *what = "";
        switch (c) {
        case 0: want = AESKIT_OK; what = "shared AAD and IV"; break;
        case 1: m[2].out = buf + 50; what = "two outputs overlap"; break;
        case 2: m[3].tag = buf + 90; what = "a tag in another message's output"; break;
        case 3: m[1].in = buf + 10; what = "an input in another message's output"; break;
        case 4: m[0].aad = buf + 1024 + 99; what = "an AAD in another message's output"; break;
        case 5: m[2].out = (uint8_t *)&m[3]; m[2].len = 8; what = "an output over a descriptor"; break;
        case 6: m[2].tag = tags; m[0].in = in; what = "two tags equal (shuffled order)";
                m[1].out = buf + 2048; m[1].in = in + 2048; break;
        }
        memset(buf, 0x5a, sizeof buf);
        memset(tags, 0x5a, sizeof tags);
        aeskit_status st = aeskit_gcm_seal_batch(m, 4);
        TH_CHECK(st == want, "%s: %d, want %d", what, st, want);
        if (want != AESKIT_OK) {
            for (int i = 0; i < 4; i++)
                TH_CHECK(m[i].status == AESKIT_ERR_OVERLAP, "%s: message %d status %d", what, i,
                         m[i].status);
            uint8_t ref[4096];
            memset(ref, 0x5a, sizeof ref);
            TH_CHECK(c == 5 || !memcmp(buf, ref, sizeof buf), "%s: something was written", what);
            TH_CHECK(!memcmp(tags, ref, sizeof tags), "%s: a tag was written", what);
        }
    }
    /* NULL array. */
    TH_CHECK(aeskit_gcm_seal_batch(NULL, 1) == AESKIT_ERR_NULL_POINTER, "NULL array");
    TH_CHECK(aeskit_gcm_open_batch(NULL, 0) == AESKIT_OK, "NULL array, n = 0");
    TH_CHECK(aeskit_gmac_batch(msgs, 0) == AESKIT_OK, "n = 0");
}

/* The rule of the header ("Batches"), written from its text: spans of one
 * message of mode md (0 seal, 1 open, 2 GMAC, 3 GMAC verify), outputs
 * first; *nout of them are outputs. */
typedef struct { uintptr_t lo, hi; } rs_span;

static int rs_spans(const aeskit_gcm_msg *m, int md, rs_span *s, int *nout)
{
    int k = 0, data = md < 2;
    rs_span out = {(uintptr_t)m->out, (uintptr_t)m->out + (data ? m->len : 0)};
    rs_span in = {(uintptr_t)m->in, (uintptr_t)m->in + (data ? m->len : 0)};
    rs_span tag = {(uintptr_t)m->tag, (uintptr_t)m->tag + m->tag_len};
    rs_span iv = {(uintptr_t)m->iv, (uintptr_t)m->iv + m->iv_len};
    rs_span aad = {(uintptr_t)m->aad, (uintptr_t)m->aad + m->aad_len};
    if (data)
        s[k++] = out;
    if (md == 0 || md == 2)
        s[k++] = tag;
    *nout = k;
    if (data)
        s[k++] = in;
    if (md == 1 || md == 3)
        s[k++] = tag;
    s[k++] = iv;
    s[k++] = aad;
    return k;
}

static int rs_meet(rs_span a, rs_span b)
{
    return a.lo < a.hi && b.lo < b.hi && a.lo < b.hi && b.lo < a.hi;
}

/* The single call's own rule for one message: in and out equal or
 * disjoint; tag (seal), IV and AAD apart from out. */
static int rs_own_ok(const aeskit_gcm_msg *m, int md)
{
    rs_span s[6];
    int nout, k = rs_spans(m, md, s, &nout);
    if (md >= 2)
        return 1; /* GMAC writes only its tag: nothing of its own to meet */
    for (int j = 1; j < k; j++) {
        if (md == 0 && j == 1)
            continue; /* the seal tag against out is checked below */
        if (j == nout && m->in == m->out)
            continue;
        if (rs_meet(s[0], s[j]))
            return 0;
    }
    return md != 0 || !rs_meet(s[0], s[1]);
}

/* Random small batches in a small arena, laid out at random or in the
 * increasing order the one-pass check takes, now and then one span moved:
 * the batch refuses exactly the layouts the rule forbids, and writes
 * nothing then. */
static void test_overlap_random(int trials)
{
    static uint8_t arena[700], before[700]; /* offsets < 560, spans < 70 */
    aeskit_gcm_msg m[6];
    int refused = 0, taken = 0;
    for (int t = 0; t < trials; t++) {
        int md = (int)th_randn(4), n = 1 + (int)th_randn(6), sorted = th_randn(2) == 0;
        size_t pos = 0;
        int built = 1;
        for (int i = 0; i < n && built; i++) {
            aeskit_gcm_msg *x = &m[i];
            memset(x, 0, sizeof *x);
            x->key = &keys[0];
            x->len = md < 2 ? th_randn(3) * 16 + th_randn(20) : 0;
            x->iv_len = 12;
            x->tag_len = 16;
            x->aad_len = th_randn(3) ? th_randn(24) : 0;
            int inplace = md < 2 && th_randn(3) == 0;
            for (int tries = 0;; tries++) {
                size_t o[4];
                for (int j = 0; j < 4; j++)
                    o[j] = sorted ? (pos + 150 * (size_t)j) % 560 : th_randn(560);
                x->out = md < 2 ? arena + o[0] : NULL;
                x->in = inplace ? x->out : md < 2 ? arena + o[1] : NULL;
                x->tag = arena + o[2];
                x->iv = arena + (o[3] + 24) % 560;
                x->aad = x->aad_len ? arena + o[3] : NULL;
                if (md >= 2)
                    x->in = x->out = NULL, x->len = 0;
                if (th_randn(8) == 0) { /* one span moved a little */
                    const uint8_t **p[] = {&x->in, (const uint8_t **)&x->tag, &x->iv, &x->aad};
                    const uint8_t **q = p[th_randn(4)];
                    if (*q)
                        *q += th_randn(40);
                }
                if (rs_own_ok(x, md))
                    break;
                if (tries == 20) {
                    built = 0;
                    break;
                }
            }
            pos += 25;
        }
        if (!built)
            continue;
        int want = 0; /* 1: the rule is broken */
        for (int i = 0; i < n; i++) {
            rs_span si[6], sj[6];
            int oi, oj, ki = rs_spans(&m[i], md, si, &oi);
            rs_span D = {(uintptr_t)m, (uintptr_t)(m + n)};
            for (int a = 0; a < ki; a++)
                want |= rs_meet(si[a], D);
            for (int j = 0; j < n; j++) {
                if (j == i)
                    continue;
                int kj = rs_spans(&m[j], md, sj, &oj);
                for (int a = 0; a < oi; a++)
                    for (int b = 0; b < kj; b++)
                        want |= rs_meet(si[a], sj[b]);
            }
        }
        th_fill(arena, sizeof arena);
        memcpy(before, arena, sizeof arena);
        aeskit_status st = md == 0 ? aeskit_gcm_seal_batch(m, (size_t)n)
                           : md == 1 ? aeskit_gcm_open_batch(m, (size_t)n)
                           : md == 2 ? aeskit_gmac_batch(m, (size_t)n)
                                     : aeskit_gmac_verify_batch(m, (size_t)n);
        int overlap = 0, other = 0;
        for (int i = 0; i < n; i++) {
            overlap += m[i].status == AESKIT_ERR_OVERLAP;
            other += m[i].status != AESKIT_OK && m[i].status != AESKIT_ERR_AUTH &&
                     m[i].status != AESKIT_ERR_OVERLAP;
        }
        TH_CHECK(!other, "random overlap %d: a status other than OK, AUTH, OVERLAP", t);
        if (want) {
            refused++;
            TH_CHECK(st == AESKIT_ERR_OVERLAP && overlap == n,
                     "random overlap %d (mode %d, %d msgs, sorted %d): not refused: %d, %d of %d",
                     t, md, n, sorted, st, overlap, n);
            TH_CHECK(!memcmp(arena, before, sizeof arena), "random overlap %d: written", t);
        } else {
            taken++;
            TH_CHECK(overlap == 0, "random overlap %d (mode %d, %d msgs, sorted %d): refused a "
                     "layout the rule allows", t, md, n, sorted);
        }
    }
    /* Both verdicts must have come up, or the test says nothing. */
    TH_CHECK(refused > trials / 20 && taken > trials / 20, "random overlap: %d refused, %d taken",
             refused, taken);
}

/* One small message for test_small: len bytes, aad_len of AAD, key k;
 * in place when asked; returns 0 if an arena is full. */
static int make_small(aeskit_gcm_msg *m, const aeskit_gcm_key *k, size_t len, size_t aad_len, int in_place,
                      size_t tag_len)
{
    memset(m, 0, sizeof *m);
    m->status = (aeskit_status)99;
    m->key = k;
    m->tag_len = tag_len;
    m->iv_len = 12;
    m->iv = bt_in(12);
    m->aad_len = aad_len;
    m->aad = aad_len ? bt_in(aad_len) : NULL;
    m->len = len;
    const uint8_t *p = bt_in(len);
    if (!m->iv || !p || (aad_len && !m->aad))
        return 0;
    if (in_place) {
        uint8_t *o = bt_out(len);
        if (!o)
            return 0;
        memcpy(o, p, len);
        m->in = m->out = len ? o : NULL;
    } else {
        m->in = len ? p : NULL;
        m->out = len ? bt_out(len) : NULL;
        if (len && !m->out)
            return 0;
    }
    m->tag = bt_out(tag_len);
    return m->tag != NULL;
}

/* Moves the tags of m[0..n) to fresh output space above every other
 * output, in order: the outputs and the tags then form two disjoint runs,
 * the layout whose batches the common case takes (batch_gcm.c: the quick
 * test wants the hull of the outputs apart from that of the tags), so the
 * backend's gcm_batch entry runs them; with tags among the outputs the
 * general path does.  A tag that finds no space stays where it is. */
static void tags_apart(aeskit_gcm_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t *t = bt_out(m[i].tag_len);
        if (t)
            m[i].tag = t;
    }
}

/* A batch of five len-byte messages in the common case's layout (outputs
 * in order, tags apart above them): seals, or opens of valid seals into
 * fresh outputs; the first message in place and without AAD when asked. */
static size_t scan_base(int mode, aeskit_gcm_msg *m, size_t len, int first_in_place, int first_no_aad)
{
    bt_reset();
    size_t n = 0;
    for (; n < 5; n++)
        if (!make_small(&m[n], &keys[0], len, n == 0 && first_no_aad ? 0 : 16, n == 0 && first_in_place, 16))
            break;
    tags_apart(m, n);
    if (mode == OPEN) {
        TH_CHECK(aeskit_gcm_seal_batch(m, n) == AESKIT_OK, "scan edges: seal");
        for (size_t i = 0; i < n; i++) {
            m[i].in = m[i].out;
            if (!(i == 0 && first_in_place))
                m[i].out = bt_out(len);
        }
    }
    return n;
}

/* The x86-vaes-avx512 and x86-vaes-avx2 front ends' vector passes
 * (gcm_scan_vaes512.c, gcm_scan_vaes2.c) take a batch only when every
 * message has what they test for (tag and IV lengths, lengths below 2^32,
 * AAD and in place as the first message, outputs and seal tags in order)
 * and leave the rest to the scalar passes; here each of those broken in
 * one message other than the first (a seal tag's order at an odd and at
 * an even index: the passes take two messages a step), once where the
 * batch keeps the rule (it must equal the single calls) and once where
 * the broken message's buffer meets another message's output (it must be
 * refused and write nothing).  On the other backends the same batches
 * check the scalar passes. */
static void test_scan_edges(void)
{
    static aeskit_gcm_msg m[8];
    for (int mode = SEAL; mode <= 2 * OPEN + 1; mode++) {
        const size_t len = mode > OPEN ? 256 : 32; /* the multi-message kernel, the uniform chain */
        for (int c = 0; c < 29; c++) {
            const int ip = c == 1 || c == 13, no_aad = c == 2 || c == 14;
            size_t n = scan_base(mode & 1, m, len, ip, no_aad);
            TH_CHECK(n == 5, "scan edges: arena");
            const size_t k = 1 + (size_t)c % 3, j = (k + 2) % 5; /* the broken message, another */
            /* the last three: the tags meet, outputs of a seal, inputs of an open */
            int refuse = c >= 13 && !(c > 25 && (mode & 1) == OPEN);
            switch (c) {
            case 0: m[k].in = m[k].out = (uint8_t *)m[k].out; /* in place where the first is not */
                    memcpy(m[k].out, bt_in(len), len); break;
            case 1: break;                                   /* first in place, the others not */
            case 2: break;                                   /* AAD in all but the first */
            case 3: m[k].aad = NULL; m[k].aad_len = 0; break; /* no AAD in one */
            case 4: m[k].tag_len = 12; break;
            case 5: m[k].iv = bt_in(16); m[k].iv_len = 16; break;
            case 6: m[k].key = &keys[1]; break;
            case 7: m[k].key = &keys[NKEYS]; break;          /* wiped: fails alone */
            case 8: m[k].len = 0; m[k].in = m[k].out = NULL; break;
            case 9: m[k].len = (size_t)1 << 37; break;       /* fails alone, before any access */
            case 10: m[k].aad_len = (size_t)1 << 62; break;
            case 11: { uint8_t *t = m[1].out; m[1].out = m[3].out; m[3].out = t;
                       break; }                              /* outputs out of order */
            case 12: { uint8_t *t = m[1].tag; m[1].tag = m[3].tag; m[3].tag = t; break; }
            case 13: m[k].in = m[j].out + 3; break;          /* first in place, another in meets an out */
            case 14: m[k].aad = m[j].out + 1; m[k].aad_len = 8; break;
            case 15: m[k].iv = m[j].out + 5; break;
            case 16: m[k].in = m[j].out + 7; break;
            case 17: m[k].aad = m[j].out; break;
            case 18: m[k].tag = (mode & 1) == SEAL ? m[j].tag + 4 : m[j].out + 2; break;
            case 19: m[k].iv = m[j].out + 20; m[k].iv_len = 16; break;
            case 20: m[k].tag = m[j].out + 8; m[k].tag_len = 12; break;
            case 21: m[k].in = m[k].out = m[j].out + 16; break; /* in place over another out */
            case 22: m[k].in = m[j].out - 8; break;          /* spans that end inside another out */
            case 23: m[k].iv = m[j].out - 4; break;
            case 24: m[k].aad = m[j].out - 10; break;
            case 25: if ((mode & 1) == OPEN) m[k].tag = m[j].out - 8; else m[k].iv = m[j].out - 11; break;
            default: m[k].tag = m[k - 1].tag + 8; break; /* a tag over its predecessor's only, k = 3, 1, 2 */
            }
            char what[48];
            snprintf(what, sizeof what, "scan edges %d", c);
            if (!refuse) {
                run_and_compare(mode & 1, m, n, what);
                continue;
            }
            bt_snapshot();
            aeskit_status st = batch_call(mode & 1, m, n);
            TH_CHECK(st == AESKIT_ERR_OVERLAP, "%s %s: %d, want the overlap refused", what, names[mode & 1], st);
            for (size_t i = 0; i < n; i++)
                TH_CHECK(m[i].status == AESKIT_ERR_OVERLAP, "%s %s: message %zu status %d", what, names[mode & 1], i,
                         m[i].status);
            bt_compare(what, n); /* nothing written */
        }
    }
}

/* x86-vaes-avx2's front end pass (gcm_scan_vaes2.c) takes two messages a
 * step, the first one alone when the count is odd, and tests the order of
 * the outputs (in place) and of a seal's tags both within a step and from
 * one step to the next.  Here batches of 2..7 messages of 32 bytes, and in
 * each every message k after the first once: its tag (seal) or output (in
 * place or not) starting inside message k - 1's, which must be refused
 * with nothing written (cases 0-2); its aad_len or len alone unlike the
 * others' (the batch is not uniform), which must equal the single calls
 * (cases 3, 4). */
static void test_scan_pairs(void)
{
    static aeskit_gcm_msg m[8];
    for (int mode = SEAL; mode <= OPEN; mode++) {
        for (size_t n = 2; n <= 7; n++) {
            for (size_t k = 1; k < n; k++) {
                for (int c = mode == OPEN; c < 5; c++) { /* an open's tags are inputs */
                    const int ip = c == 2;
                    bt_reset();
                    size_t made = 0;
                    while (made < n && make_small(&m[made], &keys[0], 32, 16, ip, 16))
                        made++;
                    TH_CHECK(made == n, "scan pairs: arena");
                    if (made != n)
                        return;
                    tags_apart(m, n);
                    if (c == 3)
                        m[k].aad_len = 8;
                    if (c == 4)
                        m[k].len = 31;
                    if (mode == OPEN) {
                        TH_CHECK(aeskit_gcm_seal_batch(m, n) == AESKIT_OK, "scan pairs: seal");
                        for (size_t i = 0; !ip && i < n; i++) {
                            m[i].in = m[i].out;
                            m[i].out = bt_out(32);
                        }
                    }
                    char what[64];
                    snprintf(what, sizeof what, "scan pairs %zu of %zu, %d", k, n, c);
                    if (c >= 3) {
                        run_and_compare(mode, m, n, what);
                        continue;
                    }
                    if (c == 0)
                        m[k].tag = m[k - 1].tag + 8;
                    else
                        m[k].out = m[k - 1].out + 16;
                    if (ip)
                        m[k].in = m[k].out;
                    bt_snapshot();
                    const aeskit_status st = batch_call(mode, m, n);
                    TH_CHECK(st == AESKIT_ERR_OVERLAP, "%s %s: %d, want the overlap refused", what, names[mode], st);
                    for (size_t i = 0; i < n; i++)
                        TH_CHECK(m[i].status == AESKIT_ERR_OVERLAP, "%s %s: message %zu status %d", what,
                                 names[mode], i, m[i].status);
                    bt_compare(what, n);
                }
            }
        }
    }
}

/* A length of 2^32 or more in the last message of a batch laid out so
 * that its spans, however long, meet no other hull: in place, the tags
 * below the outputs, IVs and AADs on the stack.  Only the
 * length tests can refuse it the common case; the single call refuses it
 * before any access (AESKIT_ERR_MESSAGE_TOO_LONG, AESKIT_ERR_AAD_TOO_LONG),
 * and so must the batch, that message alone. */
static void test_scan_lengths(void)
{
    for (int mode = SEAL; mode <= OPEN; mode++) {
        for (int c = 0; c < 2; c++) {
            /* the descriptors where the long span cannot reach them: on
             * the stack when out is long (it runs up from the data
             * segment), there when the AAD is (it runs up from the stack) */
            static aeskit_gcm_msg ds[5];
            aeskit_gcm_msg dl[5], *d = c ? ds : dl;
            uint8_t ivs[5][12], aads[5][16];
            uint8_t *tags[5];
            bt_reset();
            th_fill(ivs[0], sizeof ivs);
            th_fill(aads[0], sizeof aads);
            for (int i = 0; i < 5; i++)
                tags[i] = bt_out(16);
            for (int i = 0; i < 5; i++) {
                uint8_t *o = bt_out(32);
                TH_CHECK(o && tags[i], "scan lengths: arena");
                if (!o || !tags[i])
                    return;
                th_fill(o, 32);
                d[i] = (aeskit_gcm_msg){&keys[0], o, tags[i], 16, o, 32, ivs[i], 12, aads[i], 16, AESKIT_OK};
            }
            if (c == 0)
                d[4].len = (size_t)1 << 36;
            else
                d[4].aad_len = (size_t)1 << 62;
            run_and_compare(mode, d, 5, c ? "scan lengths aad" : "scan lengths");
            TH_CHECK(d[4].status == (c ? AESKIT_ERR_AAD_TOO_LONG : AESKIT_ERR_MESSAGE_TOO_LONG),
                     "scan lengths %d %s: %d", c, names[mode], d[4].status);
        }
    }
}

/* The backend's gcm_batch_scan (src/internal.h), where it has one, against
 * its contract written out plainly (scan_model): the same answer, and
 * when it takes the batch the same ak_gcm_scan and every status
 * AESKIT_OK, the descriptors otherwise as they were.  The hook reads the
 * descriptors only, never the buffers or key objects, so the addresses
 * here are made up: spans from bases at the edges of the compares (bit 31,
 * bit 32, bit 63 set and clear, the top of the address space, where an end
 * wraps), lengths with bit 31 set and lengths of 2^32 or more, tag and IV
 * lengths right in the low 32 bits only, in place or not, AAD or none,
 * outputs and tags out of order, other key objects; odd and even counts
 * (x86-vaes-avx2's scan takes two messages a step). */
static int scan_model(const aeskit_gcm_msg *m, size_t n, int open, ak_gcm_scan *s)
{
    const size_t len0 = m[0].len, aad0 = m[0].aad_len;
    const int in_place = m[0].in == m[0].out;
    ak_gcm_scan r = {0, 0, {UINTPTR_MAX, UINTPTR_MAX, UINTPTR_MAX, UINTPTR_MAX}, {0, 0, 0, 0}, 0, 1};
    for (size_t i = 0; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        if (mm->iv_len != 12 || mm->tag_len != 16 || (mm->len >> 32) || (mm->aad_len >> 32))
            return 0;
        if ((!aad0 && mm->aad_len) || (in_place && mm->in != mm->out))
            return 0;
        if ((uintptr_t)mm->out < r.out_end || (!open && (uintptr_t)mm->tag < r.tag_end))
            return 0;
        r.out_end = (uintptr_t)mm->out + mm->len;
        if (!open)
            r.tag_end = (uintptr_t)mm->tag + 16;
        const uintptr_t lo[4] = {(uintptr_t)mm->in, (uintptr_t)mm->tag, (uintptr_t)mm->iv, (uintptr_t)mm->aad};
        const size_t ln[4] = {mm->len, 16, 12, mm->aad_len};
        const int use[4] = {!in_place, open, 1, aad0 != 0};
        for (int k = 0; k < 4; k++) {
            if (!use[k])
                continue;
            if (lo[k] < r.in_lo[k])
                r.in_lo[k] = lo[k];
            if (lo[k] + ln[k] > r.in_hi[k])
                r.in_hi[k] = lo[k] + ln[k];
        }
        r.other_keys |= mm->key != m[0].key;
        r.uniform &= mm->len == len0 && mm->aad_len == aad0;
    }
    r.uniform &= !r.other_keys;
    *s = r;
    return 1;
}

static uintptr_t scan_edge_base(void)
{
    static const uint64_t b[] = {0x10000,
                                 0x7fffff00,
                                 0x80000000,
                                 0xffffff00,
                                 0x100000000,
                                 0x7fffffffffffff00,
                                 0x8000000000000000,
                                 0x80000000ffffff00,
                                 0xffffffff00000000,
                                 0xfffffffffffff000,
                                 0};
    const size_t k = th_randn(sizeof b / sizeof b[0]);
    return (uintptr_t)(b[k] ? b[k] : th_rand64());
}

static size_t scan_edge_len(void)
{
    static const uint64_t l[] = {0,          1,          16,         32,         0x7fffffff, 0x80000000,
                                 0x80000010, 0xffffffff, 0x100000000, 0x100000010, (uint64_t)1 << 63,
                                 ~(uint64_t)0};
    return th_randn(2) ? th_randn(64) : (size_t)l[th_randn(sizeof l / sizeof l[0])];
}

/* A tag or IV length other than want: small, or want in the low 32 bits. */
static size_t scan_other_len(size_t want)
{
    const size_t l = th_randn(2) ? th_randn(20) : want | (size_t)1 << (32 + th_randn(32));
    return l == want ? want + 1 : l;
}

static void test_scan_model(size_t reps)
{
    const ak_backend *b = ((const ak_gcm_key *)(const void *)&keys[0])->aes.be;
    if (!b->gcm_batch_scan)
        return;
    static aeskit_gcm_msg d[11], e[11];
    size_t taken = 0;
    for (size_t rep = 0; rep < reps; rep++) {
        const size_t n = 1 + th_randn(11);
        const int open = (int)th_randn(2), in_place = th_randn(3) == 0, same = th_randn(4) != 0;
        uintptr_t p[5]; /* out, tag, in, iv, aad: each kind's next address */
        for (int k = 0; k < 5; k++)
            p[k] = scan_edge_base();
        size_t len0 = scan_edge_len() & 0xffffffffu, aad0 = th_randn(3) ? scan_edge_len() & 0xffffffffu : 0;
        for (size_t i = 0; i < n; i++) {
            aeskit_gcm_msg *mm = &d[i];
            const size_t len = same || i == 0 ? len0 : scan_edge_len() & 0xffffffffu;
            const size_t aad_len = same || i == 0 || !aad0 ? aad0 : scan_edge_len() & 0xffffffffu;
            memset(mm, 0, sizeof *mm); /* the padding too: the descriptors are compared whole */
            mm->key = &keys[0];
            mm->out = (uint8_t *)p[0];
            mm->tag = (uint8_t *)p[1];
            mm->tag_len = 16;
            mm->in = (const uint8_t *)p[2];
            mm->len = len;
            mm->iv = (const uint8_t *)p[3];
            mm->iv_len = 12;
            mm->aad = (const uint8_t *)p[4];
            mm->aad_len = aad_len;
            mm->status = (aeskit_status)99;
            if (in_place)
                mm->in = mm->out;
            p[0] += len + th_randn(3);
            p[1] += 16 + th_randn(3);
            p[2] += len + th_randn(3);
            p[3] += th_randn(2) ? 0 : 12 + th_randn(3); /* one IV for all, or one each */
            p[4] += th_randn(2) ? 0 : aad_len;
        }
        /* up to two changes in messages other than the first (the hook's
         * callers have checked m[0]'s key, len and aad_len) */
        for (size_t c = th_randn(3); c > 0 && n > 1; c--) {
            aeskit_gcm_msg *mm = &d[1 + th_randn(n - 1)];
            const size_t j = th_randn(n);
            switch (th_randn(13)) {
            case 0: mm->key = &keys[1 + th_randn(NKEYS)]; break;
            case 1: mm->tag_len = scan_other_len(16); break;
            case 2: mm->iv_len = scan_other_len(12); break;
            case 3: mm->len = scan_edge_len(); break;
            case 4: mm->aad_len = scan_edge_len(); break;
            case 5: mm->in = (const uint8_t *)((uintptr_t)mm->out + (mm->in == mm->out)); break;
            case 6: { uint8_t *t = mm->out; mm->out = d[j].out; d[j].out = t; break; }
            case 7: { uint8_t *t = mm->tag; mm->tag = d[j].tag; d[j].tag = t; break; }
            case 8: mm->in = (const uint8_t *)scan_edge_base(); break;
            case 9: mm->iv = (const uint8_t *)scan_edge_base(); break;
            case 10: mm->aad = (const uint8_t *)scan_edge_base(); break;
            case 11: mm->tag = (uint8_t *)scan_edge_base(); break;
            default: mm->out = (uint8_t *)scan_edge_base(); if (in_place) mm->in = mm->out; break;
            }
        }
        memcpy(e, d, n * sizeof *d);
        ak_gcm_scan want, got;
        memset(&got, 0x5a, sizeof got);
        const int r = scan_model(d, n, open, &want), h = b->gcm_batch_scan(e, n, open, &got);
        TH_CHECK(r == h, "scan model %zu (n %zu, %s): hook %d, model %d", rep, n, open ? "open" : "seal", h, r);
        if (r != h || !r)
            continue;
        taken++;
        int same_s = want.out_end == got.out_end && want.tag_end == got.tag_end &&
                     want.other_keys == got.other_keys && want.uniform == got.uniform;
        for (int k = 0; k < AK_GCM_SCAN_INPUTS; k++)
            same_s &= want.in_lo[k] == got.in_lo[k] && want.in_hi[k] == got.in_hi[k];
        TH_CHECK(same_s, "scan model %zu (n %zu, %s): ak_gcm_scan differs", rep, n, open ? "open" : "seal");
        for (size_t i = 0; i < n; i++) {
            TH_CHECK(e[i].status == AESKIT_OK, "scan model %zu: status %zu %d", rep, i, e[i].status);
            e[i].status = d[i].status;
        }
        TH_CHECK(!memcmp(e, d, n * sizeof *d), "scan model %zu: descriptors changed", rep);
    }
    TH_CHECK(taken > reps / 20, "scan model: %zu of %zu batches taken", taken, reps);
}

/* The multi-message kernel's groupings (x86-vaes-avx512, vaes_gcm_multi.h:
 * runs of messages of at most 64 bytes and one AAD block, by data block
 * count and round count, up to eight per group with one key, four with
 * several): batches of 2..64 messages of every length 0..96 with AAD
 * lengths 0..48, uniform or with lengths varying around it, one key, keys
 * of mixed sizes per message (AES-128/192/256 in one call) or runs of
 * keys; in place or not, unaligned (the arenas' random gaps), full and
 * truncated tags (every other batch full tags only, so that it takes the
 * common case, half of the batches with their tags apart from the outputs,
 * tags_apart); every seal then opened with one tampered message, and
 * seal and open batches alternating (each call has one direction).
 * Lengths of 0 run as GMAC batches too. */
static void test_small(size_t reps)
{
    static const size_t aads[] = {16, 0, 1, 12, 15, 17, 31, 48};
    for (size_t len = 0; len <= 96; len += th_stride()) {
        for (size_t rep = 0; rep < reps; rep++) {
            bt_reset();
            size_t n = rep == 0 ? 64 : 2 + th_randn(63);
            size_t aad_len = rep < 8 ? aads[rep] : th_randn(49);
            int key_mode = (int)(rep % 3); /* 0 one key, 1 mixed per message, 2 runs */
            int vary = rep % 4 == 3;
            size_t k0 = th_randn(NKEYS), made = 0;
            while (made < n) {
                size_t ki = key_mode == 0 ? k0 : key_mode == 1 ? th_randn(NKEYS) : (made / 5) % NKEYS;
                size_t l = len;
                if (vary) /* lengths around len: within its block, or anywhere up to 96 */
                    l = th_randn(2) ? (len / 16) * 16 + th_randn(16) : th_randn(97);
                size_t al = vary && th_randn(2) ? th_randn(17) : aad_len;
                /* every other rep full tags only: the common case, straight
                 * to the backend's gcm_batch entry (a truncated tag takes the
                 * general path) */
                size_t tl = rep % 2 == 1 && th_randn(8) == 0 ? 12 : 16;
                if (!make_small(&msgs[made], &keys[ki], l, al, th_randn(10) < 3, tl))
                    break;
                made++;
            }
            n = made;
            if (rep % 4 < 2) /* half the batches with the tags apart */
                tags_apart(msgs, n);
            static uint8_t keep[MAXN][112]; /* vary reaches 111 bytes */
            for (size_t i = 0; i < n; i++)
                if (msgs[i].len)
                    memcpy(keep[i], msgs[i].in, msgs[i].len);
            run_and_compare(SEAL, msgs, n, "small");
            for (size_t i = 0; i < n; i++)
                TH_CHECK(msgs[i].status == AESKIT_OK, "small seal %zu of %zu (len %zu): %d", i, n, msgs[i].len,
                         msgs[i].status);
            size_t t = th_randn(n);
            msgs[t].tag[th_randn(msgs[t].tag_len)] ^= (uint8_t)(1u << th_randn(8));
            static aeskit_gcm_msg om[MAXN];
            for (size_t i = 0; i < n; i++) {
                om[i] = msgs[i];
                om[i].in = msgs[i].out;
                if (msgs[i].in != msgs[i].out && msgs[i].len) {
                    om[i].out = bt_out(msgs[i].len);
                    if (!om[i].out)
                        om[i].out = (uint8_t *)(uintptr_t)msgs[i].out;
                }
            }
            run_and_compare(OPEN, om, n, "small tampered");
            for (size_t i = 0; i < n; i++) {
                if (i == t) {
                    TH_CHECK(om[i].status == AESKIT_ERR_AUTH, "small: tampered message %zu: %d", i, om[i].status);
                    if (om[i].out != om[i].in)
                        TH_CHECK(th_all_zero(om[i].out, om[i].len), "small: tampered %zu not zeroed", i);
                } else {
                    TH_CHECK(om[i].status == AESKIT_OK, "small: message %zu of %zu (len %zu) next to a tampered one: %d",
                             i, n, om[i].len, om[i].status);
                    if (om[i].len)
                        TH_CHECK_MEM(om[i].out, keep[i], om[i].len, "small: message %zu: plaintext lost", i);
                }
            }
            if (len == 0 && !vary) { /* the same messages as GMAC (tags recomputed) */
                run_and_compare(GMAC, msgs, n, "small");
                run_and_compare(GMAC_VERIFY, msgs, n, "small");
                for (size_t i = 0; i < n; i++)
                    TH_CHECK(msgs[i].status == AESKIT_OK, "small gmac verify %zu: %d", i, msgs[i].status);
            }
        }
    }
}

/* Uniform batches (one key object, one len, one aad_len, full tags: the
 * common case's AK_GCM_UNIFORM, src/internal.h): every count 1..20 and a
 * few larger ones (whole groups of the multi-message kernel and every
 * remainder; chains of one message and of many), lengths inside and
 * outside the kernels' classes, each key
 * size; most with the tags apart from the outputs (tags_apart: the
 * backend's gcm_batch entry), the rest among them (the general path);
 * sealed, then opened with one message tampered (the chunked path of
 * opens), GMAC batches for len 0. */
static void test_uniform(void)
{
    /* 64..641: both sides of the x86-vaes-avx512 chain's bounds
     * (vaes_chain_nvx: 5..40 data blocks) and of each of its vector
     * counts (2..10 vectors, whole and partial last windows); 641..4351:
     * the long chain (vaes_chain_long_takes; on ymm from 321), tails of
     * 0..16 blocks on zmm and 0..8 on ymm (a whole batch's worth folded
     * apart), each tail vector count with and without a partial block,
     * the length block in every vector, and the four-, three-, two- and
     * one-batch steps before the tail; above VAES_GCM_LAG2_LEN (2048 B on
     * ymm, 4096 B on zmm) the seals' lag-two folds */
    static const size_t lens[] = {0,   1,   16,  17,  33,  64,  65,   96,   97,   128,  129,  160,  161,
                                  192, 193, 224, 225, 256, 257, 300,  320,  321,  384,  385,  448,  449,
                                  480, 481, 496, 497, 500, 511, 512,  513,  528,  529,  575,  576,  600,
                                  640, 641, 700, 752, 753, 767, 768, 769, 1024, 1036, 1420, 1472, 1500, 2048, 2303,
                                  2304, 4096, 4351, 4352, 4353, 5000, 8192, 12345};
    static const size_t aads[] = {16, 0, 7, 17};
    static const size_t counts[] = {33, 40, 45, 64, 101};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        for (size_t ai = 0; ai < sizeof aads / sizeof aads[0]; ai++) {
            for (size_t ci = 0; ci < 20 + sizeof counts / sizeof counts[0]; ci++) {
                /* the lengths above 4351 with 2, 7, 12, 17 and 40
                 * messages only (every count would cost the qemu runs
                 * minutes); lag two's first lengths on both widths,
                 * 2304-4351, keep every count */
                if (lens[li] > 4351 && ci % 5 != 1)
                    continue;
                size_t n = ci < 20 ? ci + 1 : counts[ci - 20], len = lens[li], made = 0;
                const aeskit_gcm_key *k = &keys[th_randn(NKEYS)];
                bt_reset();
                while (made < n && make_small(&msgs[made], k, len, aads[ai], th_randn(4) == 0, 16))
                    made++;
                n = made;
                if (ci % 4 < 3) /* most batches with the tags apart: the common case */
                    tags_apart(msgs, n);
                run_and_compare(SEAL, msgs, n, "uniform");
                size_t t = th_randn(n);
                msgs[t].tag[th_randn(16)] ^= 1;
                static aeskit_gcm_msg om[MAXN];
                for (size_t i = 0; i < n; i++) {
                    om[i] = msgs[i];
                    om[i].in = msgs[i].out;
                }
                run_and_compare(OPEN, om, n, "uniform tampered");
                for (size_t i = 0; i < n; i++)
                    TH_CHECK(om[i].status == (i == t ? AESKIT_ERR_AUTH : AESKIT_OK),
                             "uniform open %zu of %zu (len %zu): %d", i, n, len, om[i].status);
                if (len == 0) {
                    run_and_compare(GMAC, msgs, n, "uniform");
                    run_and_compare(GMAC_VERIFY, msgs, n, "uniform");
                }
            }
        }
    }
}

/* Every case of the multi-message kernels (src/simd/gcm_multi_akv.h,
 * src/x86/gcm_multi_aesni.h: messages of 1..64 bytes, AAD of 0..16
 * bytes), deterministically and not scaled, so that the emulated suites
 * reach each one: every length 1..64 (each data block count, every
 * partial last block) with every AAD length 0..16, in batches of 1..9
 * messages (whole and partial groups of every lane count), tags apart
 * (the common case, the backend's gcm_batch entry).  Form 0: uniform (one
 * key object, len and aad_len; every third message in place).  Form 1:
 * keys alternating over two AES-128 keys, an AES-192 and an AES-256 one
 * (runs of mixed keys with one round count, runs cut by a round count),
 * every third message of another length of 1..64 and every fourth of
 * another AAD length.  Each sealed, then opened with one tampered tag
 * (form 0 in place, form 1 into fresh outputs). */
static void test_kernel_cover(void)
{
    static aeskit_gcm_key kc[4];
    static const size_t sizes[4] = {16, 16, 24, 32};
    static const int pat[6] = {0, 1, 0, 2, 3, 1};
    for (int i = 0; i < 4; i++)
        TH_CHECK(aeskit_gcm_init_backend(&kc[i], key_bytes[i], sizes[i], be) == AESKIT_OK, "init");
    for (size_t len = 1; len <= 64; len++) {
        for (size_t aad = 0; aad <= 16; aad++) {
            for (int form = 0; form < 2; form++) {
                bt_reset();
                size_t n = 1 + (len + aad + (size_t)form) % 9, made = 0;
                for (; made < n; made++) {
                    size_t l = len, al = aad, ki = 0;
                    if (form) {
                        ki = (size_t)pat[(made + aad) % 6];
                        l = made % 3 == 2 ? 1 + th_randn(64) : len;
                        al = made % 4 == 3 ? th_randn(17) : aad;
                    }
                    if (!make_small(&msgs[made], &kc[ki], l, al, made % 3 == 1, 16))
                        break;
                }
                n = made;
                tags_apart(msgs, n);
                run_and_compare(SEAL, msgs, n, "kernel cover");
                for (size_t i = 0; i < n; i++)
                    TH_CHECK(msgs[i].status == AESKIT_OK, "kernel cover seal %zu of %zu (len %zu): %d", i, n,
                             msgs[i].len, msgs[i].status);
                const size_t t = (len + aad) % n;
                msgs[t].tag[(len * 7 + aad) % 16] ^= (uint8_t)(1u << (len % 8));
                static aeskit_gcm_msg om[MAXN];
                /* form 0 opens in place, form 1 into fresh outputs (one run
                 * above every input, so the common case still takes it) */
                for (size_t i = 0; i < n; i++) {
                    om[i] = msgs[i];
                    om[i].in = msgs[i].out;
                    uint8_t *o = form ? bt_out(msgs[i].len) : NULL;
                    om[i].out = o ? o : msgs[i].out;
                }
                run_and_compare(OPEN, om, n, "kernel cover tampered");
                for (size_t i = 0; i < n; i++)
                    TH_CHECK(om[i].status == (i == t ? AESKIT_ERR_AUTH : AESKIT_OK),
                             "kernel cover open %zu of %zu (len %zu, aad %zu, form %d): %d", i, n, om[i].len,
                             om[i].aad_len, form, om[i].status);
            }
        }
    }
    for (int i = 0; i < 4; i++)
        aeskit_gcm_wipe(&kc[i]);
}

int main(void)
{
    be = th_backend();
    th_seed(0x62617463686763ull);
    for (int i = 0; i < NKEYS; i++) {
        key_lens[i] = 16 + 8 * th_randn(3);
        th_fill(key_bytes[i], 32);
        aeskit_status st = aeskit_gcm_init_backend(&keys[i], key_bytes[i], key_lens[i], be);
        TH_CHECK(st == AESKIT_OK, "init: %s", aeskit_strerror(st));
    }
    TH_CHECK(aeskit_gcm_init_backend(&keys[NKEYS], key_bytes[0], 16, be) == AESKIT_OK, "init");
    aeskit_gcm_wipe(&keys[NKEYS]);
    test_overlap();
    test_overlap_random((int)th_scaled(4000, 400));
    test_scan_model(th_scaled(20000, 2000)); /* first: it touches no buffer */
    test_scan_edges();
    test_scan_pairs();
    test_scan_lengths();
    test_wrap();
    test_small(th_scaled(12, 3));
    test_kernel_cover();
    test_uniform();
    test_random((int)th_scaled(120, 12));
    return th_finish("batch_gcm");
}
