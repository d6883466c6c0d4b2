/*
 * test_batch_cbc.c - the batch calls of the serial modes and CTR against
 * the same messages done one by one, byte for byte and status for status,
 * under the backend named by AESKIT_BACKEND: aeskit_cmac_batch /
 * _verify_batch (aeskit_cmac / _verify), aeskit_cbcmac_batch
 * (aeskit_cbcmac_blocks), aeskit_cbc_encrypt_batch / _decrypt_batch
 * (aeskit_cbc_encrypt / _decrypt) and aeskit_ctr_batch (aeskit_ctr_crypt).
 *
 * Random batches of 0..100 messages, lengths 0..4 KiB with a tail up to
 * 64 KiB (rounded to blocks where the mode needs it, and now and then not:
 * AESKIT_ERR_LENGTH), keys from pools of mixed sizes with a wiped one, tag
 * lengths 4..16 and bad ones, in place and not, outputs in order or
 * shuffled.  One or two CMAC tags tampered: they fail alone.  Overlaps
 * across messages are refused.
 */
#include "batch_common.h"

static const char *be;

#define NKEYS 6
static aeskit_aes_key akeys[NKEYS + 1];
static aeskit_cmac_key ckeys[NKEYS + 1];

#define MAXN 101

static size_t blk_len(void)
{
    size_t l = bt_len();
    return th_randn(20) ? l & ~(size_t)15 : l;
}

static aeskit_status first_failure_st(const aeskit_status *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != AESKIT_OK)
            return s[i];
    return AESKIT_OK;
}

static void check_statuses(const char *what, const aeskit_status *batch, const aeskit_status *ref,
                           size_t n, aeskit_status result)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (batch[i] != ref[i] && bad++ < 3)
            TH_CHECK(0, "%s: message %zu of %zu: batch %d, single %d", what, i, n, batch[i],
                     ref[i]);
    TH_CHECK(bad == 0, "%s: %zu statuses differ", what, bad);
    TH_CHECK(result == first_failure_st(batch, n), "%s: result %d, first failure %d", what,
             result, first_failure_st(batch, n));
    bt_compare(what, n);
}

static const aeskit_aes_key *pick_aes(void)
{
    return th_randn(40) == 0 ? &akeys[NKEYS] : &akeys[th_randn(NKEYS)];
}

/* Every third batch of iteration it: one key object for all messages
 * (the odd bad key among them) and lengths up to *lim blocks, some of
 * them not whole blocks: the batch front end's ECB steps for short lanes
 * under one key (batch.h's mo_lanes_short: up to 3 blocks, on x86 5 to 7,
 * the backend's cbc_lanes_short) when *lim is at most that bound, the lane
 * kernels' one-key calls above it (up to 10).  Other batches: NULL. */
static const aeskit_aes_key *one_key_batch(int it, size_t *lim)
{
    *lim = 1 + th_randn(10);
    return it % 3 == 0 ? &akeys[th_randn(NKEYS)] : NULL;
}

static const aeskit_aes_key *pick_aes_in(const aeskit_aes_key *one)
{
    return one && th_randn(40) ? one : pick_aes();
}

static size_t blk_len_in(const aeskit_aes_key *one, size_t lim)
{
    if (!one)
        return blk_len();
    return th_randn(10) ? 16 * th_randn(lim + 1) : th_randn(16 * lim + 1);
}

/* An in-place or separate output for len input bytes at p. */
static int in_out(const uint8_t **in, uint8_t **out, size_t len)
{
    const uint8_t *p = bt_in(len);
    if (!p)
        return 0;
    if (th_randn(10) < 3) {
        uint8_t *o = bt_out(len);
        if (!o)
            return 0;
        if (len)
            memcpy(o, p, len);
        *in = *out = len ? o : NULL;
        return 1;
    }
    *out = bt_out(len);
    *in = len ? p : NULL;
    if (!len)
        *out = NULL;
    return *out != NULL || !len;
}

static void test_cmac(int iters)
{
    static aeskit_cmac_msg m[MAXN];
    static aeskit_status ref[MAXN];
    for (int it = 0; it < iters; it++) {
        bt_reset();
        size_t n = bt_count(), k = 0;
        /* every third batch under one key object (with the odd bad key
         * among them): batch_mac.c's one-key last pass */
        const aeskit_cmac_key *one = it % 3 == 0 ? &ckeys[th_randn(NKEYS)] : NULL;
        for (; k < n; k++) {
            aeskit_cmac_msg *q = &m[k];
            memset(q, 0, sizeof *q);
            q->key = th_randn(40) == 0 ? &ckeys[NKEYS] : one ? one : &ckeys[th_randn(NKEYS)];
            q->tag_len = th_randn(30) == 0 ? 3 + 14 * th_randn(2) : 4 + th_randn(13);
            q->len = bt_len();
            q->in = bt_in(q->len);
            q->tag = bt_out(q->tag_len < 17 ? q->tag_len : 16);
            if (!q->in || !q->tag)
                break;
            if (!q->len)
                q->in = NULL;
        }
        n = k;
        if (th_randn(4) == 0)
            bt_shuffle(m, n, sizeof m[0]);
        bt_snapshot();
        aeskit_status st = aeskit_cmac_batch(m, n);
        static aeskit_status got[MAXN];
        for (size_t i = 0; i < n; i++) {
            got[i] = m[i].status;
            ref[i] = aeskit_cmac(m[i].key, bt_ref(m[i].tag), m[i].tag_len, m[i].in, m[i].len);
        }
        check_statuses("cmac", got, ref, n, st);
        /* Verify, one or two tags tampered. */
        size_t t0 = n ? th_randn(n) : SIZE_MAX, t1 = n ? th_randn(n) : SIZE_MAX;
        for (size_t i = 0; i < n; i++)
            if ((i == t0 || i == t1) && m[i].status == AESKIT_OK)
                m[i].tag[0] ^= 1;
        bt_snapshot();
        st = aeskit_cmac_verify_batch(m, n);
        for (size_t i = 0; i < n; i++) {
            got[i] = m[i].status;
            ref[i] = aeskit_cmac_verify(m[i].key, m[i].in, m[i].len, bt_ref(m[i].tag),
                                        m[i].tag_len);
            if (i != t0 && i != t1 && ref[i] != AESKIT_ERR_TAG_LENGTH &&
                ref[i] != AESKIT_ERR_STATE)
                TH_CHECK(got[i] == AESKIT_OK, "cmac verify: untampered message %zu: %d", i,
                         got[i]);
        }
        check_statuses("cmac_verify", got, ref, n, st);
    }
}

static void test_cbcmac(int iters)
{
    static aeskit_cbcmac_msg m[MAXN];
    static aeskit_status ref[MAXN], got[MAXN];
    for (int it = 0; it < iters; it++) {
        bt_reset();
        size_t n = bt_count(), k = 0;
        size_t lim;
        const aeskit_aes_key *one = one_key_batch(it, &lim);
        for (; k < n; k++) {
            aeskit_cbcmac_msg *q = &m[k];
            memset(q, 0, sizeof *q);
            q->key = pick_aes_in(one);
            q->len = blk_len_in(one, lim);
            q->in = q->len ? bt_in(q->len) : NULL;
            q->state = bt_out(16);
            if ((q->len && !q->in) || !q->state)
                break;
        }
        n = k;
        if (th_randn(4) == 0)
            bt_shuffle(m, n, sizeof m[0]);
        bt_snapshot();
        aeskit_status st = aeskit_cbcmac_batch(m, n);
        for (size_t i = 0; i < n; i++) {
            got[i] = m[i].status;
            ref[i] = aeskit_cbcmac_blocks(m[i].key, bt_ref(m[i].state), m[i].in, m[i].len);
        }
        check_statuses("cbcmac", got, ref, n, st);
    }
}

static void test_cbc_ctr(int iters, int mode) /* 0 enc, 1 dec, 2 ctr */
{
    static aeskit_cbc_msg m[MAXN];
    static aeskit_ctr_msg c[MAXN];
    static aeskit_status ref[MAXN], got[MAXN];
    static const char *const names[] = {"cbc_encrypt", "cbc_decrypt", "ctr"};
    static uint8_t wrap_iv[MAXN][16];
    for (int it = 0; it < iters; it++) {
        bt_reset();
        size_t n = bt_count(), k = 0;
        size_t lim;
        const aeskit_aes_key *one = one_key_batch(it, &lim);
        for (; k < n; k++) {
            const aeskit_aes_key *key = pick_aes_in(one);
            /* CTR under one key: mostly short messages, so runs of them
             * share ECB calls (batch_ctr.c) and fill its buffer */
            size_t len = mode != 2 ? blk_len_in(one, lim)
                         : one && th_randn(10) ? th_randn(16 * lim + 1) : bt_len();
            const uint8_t *in;
            uint8_t *out;
            if (!in_out(&in, &out, len))
                break;
            if (mode == 2) {
                const uint8_t *iv = bt_in(16);
                if (!iv)
                    break;
                if (th_randn(8) == 0) { /* the low 64 counter bits wrap inside the message */
                    memcpy(wrap_iv[k], iv, 16);
                    memset(wrap_iv[k] + 8, 0xff, 8);
                    wrap_iv[k][15] = (uint8_t)(0xff - th_randn(4));
                    if (th_randn(2))
                        memset(wrap_iv[k], 0xff, 8); /* and the whole 128 */
                    iv = wrap_iv[k];
                }
                c[k] = (aeskit_ctr_msg){key, out, in, len, iv, (aeskit_status)99};
            } else {
                uint8_t *iv = bt_out(16);
                if (!iv)
                    break;
                m[k] = (aeskit_cbc_msg){key, out, in, len, iv, (aeskit_status)99};
            }
        }
        n = k;
        if (th_randn(4) == 0) {
            if (mode == 2)
                bt_shuffle(c, n, sizeof c[0]);
            else
                bt_shuffle(m, n, sizeof m[0]);
        }
        bt_snapshot();
        aeskit_status st = mode == 0   ? aeskit_cbc_encrypt_batch(m, n)
                           : mode == 1 ? aeskit_cbc_decrypt_batch(m, n)
                                       : aeskit_ctr_batch(c, n);
        for (size_t i = 0; i < n; i++) {
            if (mode == 2) {
                got[i] = c[i].status;
                ref[i] = aeskit_ctr_crypt(c[i].key, bt_ref(c[i].out), bt_ref(c[i].in), c[i].len,
                                          c[i].iv);
            } else {
                got[i] = m[i].status;
                ref[i] = (mode == 0 ? aeskit_cbc_encrypt : aeskit_cbc_decrypt)(
                    m[i].key, bt_ref(m[i].out), bt_ref(m[i].in), m[i].len, bt_ref(m[i].iv));
            }
        }
        check_statuses(names[mode], got, ref, n, st);
    }
}

static void test_overlap(void)
{
    static uint8_t buf[2048], in[2048], ivs[128];
    for (int c = 0; c < 4; c++) {
        aeskit_cbc_msg m[3];
        for (int i = 0; i < 3; i++)
            m[i] = (aeskit_cbc_msg){&akeys[i], buf + 512 * i, in + 512 * i, 64, ivs + 32 * i,
                                    AESKIT_OK};
        aeskit_status want = AESKIT_ERR_OVERLAP;
        switch (c) {
        case 0: want = AESKIT_OK; break;
        case 1: m[1].out = buf + 32; break;           /* two outputs */
        case 2: m[2].iv = buf + 48; break;            /* a chaining value in an output */
        case 3: m[0].in = buf + 1024 + 16; break;     /* an input in an output */
        }
        memset(buf, 0x33, sizeof buf);
        aeskit_status st = aeskit_cbc_encrypt_batch(m, 3);
        TH_CHECK(st == want, "cbc overlap case %d: %d", c, st);
        if (want != AESKIT_OK) {
            uint8_t r[2048];
            memset(r, 0x33, sizeof r);
            TH_CHECK(!memcmp(buf, r, sizeof buf), "cbc overlap case %d: written", c);
            for (int i = 0; i < 3; i++)
                TH_CHECK(m[i].status == AESKIT_ERR_OVERLAP, "cbc overlap case %d: status", c);
        }
    }
    for (int c = 0; c < 5; c++) { /* CBC-MAC: states are outputs */
        aeskit_cbcmac_msg b[3];
        for (int i = 0; i < 3; i++)
            b[i] = (aeskit_cbcmac_msg){&akeys[i], ivs + 32 * i, in + 512 * i, 64, AESKIT_OK};
        aeskit_status want = AESKIT_ERR_OVERLAP;
        switch (c) {
        case 0: want = AESKIT_OK; break;
        case 1: b[1].state = b[0].state; break;      /* one state twice */
        case 2: b[2].state = ivs + 8; break;         /* two states overlap */
        case 3: b[1].in = ivs + 64; break;           /* an input over another's state */
        case 4: b[0].in = ivs; b[0].len = 16; break; /* a state in its own input */
        }
        aeskit_status st = aeskit_cbcmac_batch(b, 3);
        TH_CHECK(st == want, "cbcmac overlap case %d: %d", c, st);
    }
    for (int c = 0; c < 5; c++) { /* CTR: counter blocks are inputs */
        aeskit_ctr_msg t[3];
        for (int i = 0; i < 3; i++)
            t[i] = (aeskit_ctr_msg){&akeys[i], buf + 512 * i, in + 512 * i, 64, ivs + 32 * i, AESKIT_OK};
        aeskit_status want = AESKIT_ERR_OVERLAP;
        switch (c) {
        case 0: want = AESKIT_OK; break;
        case 1: t[1].iv = t[0].iv; want = AESKIT_OK; break; /* one counter block shared */
        case 2: t[2].iv = buf + 8; break;                   /* a counter block in an output */
        case 3: t[1].out = buf + 48; break;                 /* two outputs overlap */
        case 4: t[0].in = buf + 1024 + 8; break;            /* an input in another's output */
        }
        aeskit_status st = aeskit_ctr_batch(t, 3);
        TH_CHECK(st == want, "ctr overlap case %d: %d", c, st);
    }
    aeskit_cmac_msg cm[2] = {{&ckeys[0], ivs, 16, in, 100, AESKIT_OK},
                             {&ckeys[1], ivs + 8, 16, in, 100, AESKIT_OK}};
    TH_CHECK(aeskit_cmac_batch(cm, 2) == AESKIT_ERR_OVERLAP, "cmac: two tags overlap");
    cm[1].tag = ivs + 16;
    TH_CHECK(aeskit_cmac_batch(cm, 2) == AESKIT_OK, "cmac: one input shared");
    cm[0].tag = ivs + 16; /* tags out of address order: the exact check */
    cm[1].tag = ivs;
    TH_CHECK(aeskit_cmac_batch(cm, 2) == AESKIT_OK, "cmac: tags in decreasing order");
    cm[1].in = in + 200;
    cm[1].tag = in + 50; /* a tag in the other message's input */
    TH_CHECK(aeskit_cmac_batch(cm, 2) == AESKIT_ERR_OVERLAP && cm[0].status == AESKIT_ERR_OVERLAP,
             "cmac: a tag in another message's input");
    TH_CHECK(aeskit_cmac_verify_batch(cm, 2) != AESKIT_ERR_OVERLAP,
             "cmac verify: an expected tag in another message's input (both read)");
    cm[1].tag = (uint8_t *)&cm[0]; /* an expected tag in the descriptor array */
    TH_CHECK(aeskit_cmac_verify_batch(cm, 2) == AESKIT_ERR_OVERLAP,
             "cmac verify: a tag in the descriptor array");
    aeskit_ctr_msg ct[2] = {{&akeys[0], buf, in, 64, ivs, AESKIT_OK},
                            {&akeys[0], buf + 100, in, 64, buf + 10, AESKIT_OK}};
    TH_CHECK(aeskit_ctr_batch(ct, 2) == AESKIT_ERR_OVERLAP, "ctr: a counter block in an output");
    TH_CHECK(aeskit_cbcmac_batch(NULL, 3) == AESKIT_ERR_NULL_POINTER, "NULL array");
    TH_CHECK(aeskit_ctr_batch(NULL, 0) == AESKIT_OK, "NULL array, n = 0");
}

/* A batch laid out for the front end's common case (batch.h, mo_ivq:
 * the inputs, the outputs and the chaining values or counter blocks in
 * three regions, each kind in address order; CBC-MAC's states as the IVs)
 * with one field of
 * one message bad: a NULL key, out, in or IV, the wiped key, CBC's odd
 * length, or an out equal to in that is NULL.  That message fails alone
 * with the single call's status; the others run and match the single
 * calls.  Each position matters (the pass takes the first message's
 * pointers as the hulls' starts), and so does the regions' order: a NULL
 * pointer's span starts at 0, so its kind's hull reaches down over the
 * regions below it, and the quick test alone catches it only when one
 * of them is an output; every order is run. */
static void test_one_bad_field(int mode) /* 0 enc, 1 dec, 2 ctr, 3 cbcmac (iv: the state) */
{
    enum { N = 4, LEN = 48 };
    static const char *const names[] = {"cbc_encrypt", "cbc_decrypt", "ctr", "cbcmac"};
    for (int layout = 0; layout < 6; layout++) {
        for (int pos = 0; pos < N; pos++) {
            for (int what = 0; what < 7; what++) {
                if (what == 5 && mode == 2)
                    continue; /* CTR takes any length */
                if ((what == 1 || what == 6) && mode == 3)
                    continue; /* CBC-MAC has no out */
                aeskit_cbc_msg m[N];
                aeskit_ctr_msg c[N];
                aeskit_cbcmac_msg b[N];
                aeskit_status ref[N], got[N];
                uint8_t *in[N], *out[N], *iv[N];
                bt_reset();
                /* the three regions in the order of permutation layout */
                static const char perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                                {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
                for (int r = 0; r < 3; r++) {
                    for (int i = 0; i < N; i++) {
                        switch (perm[layout][r]) {
                        case 0: in[i] = bt_out(LEN); th_fill(in[i], LEN); break;
                        case 1: out[i] = bt_out(LEN); break;
                        default: iv[i] = bt_out(16); th_fill(iv[i], 16); break;
                        }
                    }
                }
                for (int i = 0; i < N; i++) {
                    const aeskit_aes_key *key = &akeys[i % NKEYS];
                    const uint8_t *ip = in[i];
                    uint8_t *op = out[i], *vp = iv[i];
                    size_t len = LEN;
                    if (i == pos) {
                        switch (what) {
                        case 0: key = NULL; break;
                        case 1: op = NULL; break;
                        case 2: ip = NULL; break;
                        case 3: vp = NULL; break;
                        case 4: key = &akeys[NKEYS]; break; /* wiped */
                        case 5: len = LEN - 1; break;
                        default: op = NULL; ip = NULL; break;
                        }
                    }
                    if (mode == 2)
                        c[i] = (aeskit_ctr_msg){key, op, ip, len, vp, (aeskit_status)99};
                    else if (mode == 3)
                        b[i] = (aeskit_cbcmac_msg){key, vp, ip, len, (aeskit_status)99};
                    else
                        m[i] = (aeskit_cbc_msg){key, op, ip, len, vp, (aeskit_status)99};
                }
                bt_snapshot();
                aeskit_status st = mode == 0   ? aeskit_cbc_encrypt_batch(m, N)
                                   : mode == 1 ? aeskit_cbc_decrypt_batch(m, N)
                                   : mode == 2 ? aeskit_ctr_batch(c, N)
                                               : aeskit_cbcmac_batch(b, N);
                for (int i = 0; i < N; i++) {
                    if (mode == 3) {
                        got[i] = b[i].status;
                        ref[i] = aeskit_cbcmac_blocks(b[i].key, bt_ref(b[i].state), bt_ref(b[i].in), b[i].len);
                    } else if (mode == 2) {
                        got[i] = c[i].status;
                        ref[i] = aeskit_ctr_crypt(c[i].key, bt_ref(c[i].out), bt_ref(c[i].in), c[i].len,
                                                  bt_ref(c[i].iv));
                    } else {
                        got[i] = m[i].status;
                        ref[i] = (mode == 0 ? aeskit_cbc_encrypt : aeskit_cbc_decrypt)(
                            m[i].key, bt_ref(m[i].out), bt_ref(m[i].in), m[i].len, bt_ref(m[i].iv));
                    }
                    TH_CHECK((ref[i] == AESKIT_OK) == (i != pos), "%s bad field %d at %d: reference %d",
                             names[mode], what, pos, ref[i]);
                }
                check_statuses(names[mode], got, ref, N, st);
            }
        }
    }
}

int main(void)
{
    be = th_backend();
    th_seed(0x6261746368636263ull);
    for (int i = 0; i <= NKEYS; i++) {
        uint8_t kb[32];
        size_t kl = 16 + 8 * th_randn(3);
        th_fill(kb, 32);
        aeskit_status st = aeskit_aes_init_backend(&akeys[i], kb, kl, be);
        if (st == AESKIT_OK)
            st = aeskit_cmac_init_backend(&ckeys[i], kb, kl, be);
        TH_CHECK(st == AESKIT_OK, "init: %s", aeskit_strerror(st));
    }
    aeskit_aes_wipe(&akeys[NKEYS]);
    aeskit_cmac_wipe(&ckeys[NKEYS]);
    test_overlap();
    for (int mode = 0; mode < 4; mode++)
        test_one_bad_field(mode);
    int iters = (int)th_scaled(60, 6);
    test_cmac(iters);
    test_cbcmac(iters);
    test_cbc_ctr(iters, 0);
    test_cbc_ctr(iters, 1);
    test_cbc_ctr(iters, 2);
    return th_finish("batch_cbc");
}
