/*
 * batch.h - what the batch front ends (src/modes/batch_*.c) share: the
 * cross-message overlap check and the chunk size.
 * Portable C11; no CPU features needed.
 *
 * The rule (include/aeskit.h, "Batches"): the outputs of one message
 * overlap no buffer of another message, and the descriptor array overlaps
 * no buffer at all.  Each message's own buffers were checked against each
 * other by the single call's rules before this check runs, so only pairs of
 * different messages are looked at here.
 *
 * Every family describes a message by up to MO_BATCH_KINDS spans, its
 * outputs first (out, a written tag, an updated chaining value), then its
 * inputs; a message that failed its own checks has only empty spans.  The
 * check first makes one pass: every span against the descriptor array, and
 * per kind the hull of its spans and whether the outputs of that kind come
 * in increasing address order without overlapping each other.  If they all
 * do, two kinds whose hulls do not meet need nothing more; two that do are
 * swept: the outputs of kind a are sorted, so for each span of kind b the
 * outputs it meets are found by a pointer that only moves forward while the
 * spans of b come in non-decreasing order (shared inputs are equal, hence
 * fine) and is reset where they do not.  If some output kind is not in
 * order, every pair of messages is compared.
 */
#ifndef AESKIT_BATCH_H
#define AESKIT_BATCH_H

#include "modes.h"

/* Messages per stack chunk: the backend descriptors, lanes and expected
 * tags of one chunk live on the stack (a few KiB). */
#define MO_BATCH_CHUNK 32

#define MO_BATCH_KINDS 6

/* Short messages of a parallel mode's batch (CTR, CBC decryption) share
 * ECB calls: their blocks side by side in a stack buffer of MO_GATHER
 * blocks, one ecb_encrypt or ecb_decrypt over all of them.  A message
 * shares when it has at most the backend's ctr_gather_short or
 * cbc_gather_short blocks (internal.h), else MO_GATHER_CTR or
 * MO_GATHER_CBC: a CTR call pays more per message than the backends'
 * cbc_decrypt does. */
#define MO_GATHER 64
#define MO_GATHER_CTR 4
#define MO_GATHER_CBC 1

static inline size_t mo_gather_bound(unsigned named, size_t dflt)
{
    return named ? (named < MO_GATHER ? named : MO_GATHER) : dflt;
}

/* One-block chains of a serial mode's batch (CBC encryption, CBC-MAC):
 * the new chaining value is E(x ^ y) for one block, so consecutive ones
 * under one key object share ECB calls instead of lanes.  Each block is
 * written to up to two places (CBC: the ciphertext and the chaining value;
 * CBC-MAC: the state).  The blocks x ^ y are secret; mo_one_block_end
 * wipes what was used. */
typedef struct mo_one_block {
    AESKIT_ALIGN(16) uint8_t b[MO_GATHER][16];
    uint8_t *dst[MO_GATHER][2]; /* [1] NULL: one place */
    const ak_aes *a;
    size_t n, most;
} mo_one_block;

static inline void mo_one_block_init(mo_one_block *g)
{
    g->a = NULL;
    g->n = g->most = 0;
}

static inline void mo_one_block_flush(mo_one_block *g)
{
    if (!g->n)
        return;
    g->a->be->ecb_encrypt(g->a, g->b[0], g->b[0], g->n);
    for (size_t q = 0; q < g->n; q++) {
        memcpy(g->dst[q][0], g->b[q], 16);
        if (g->dst[q][1])
            memcpy(g->dst[q][1], g->b[q], 16);
    }
    g->most = g->n > g->most ? g->n : g->most;
    g->n = 0;
}

/* E_a(x ^ y) to d0 (and d1 unless NULL), in the next shared call. */
static inline void mo_one_block_add(mo_one_block *g, const ak_aes *a, const uint8_t *x, const uint8_t *y,
                                    uint8_t *d0, uint8_t *d1)
{
    if (g->n && (a != g->a || g->n == MO_GATHER))
        mo_one_block_flush(g);
    g->a = a;
    ak_xor16(g->b[g->n], x, y);
    g->dst[g->n][0] = d0;
    g->dst[g->n][1] = d1;
    g->n++;
}

static inline void mo_one_block_end(mo_one_block *g)
{
    mo_one_block_flush(g);
    if (g->most)
        mo_wipe(g->b, g->most * 16);
}

/* [lo, hi); empty when lo >= hi.  The empty span is [UINTPTR_MAX, 0): it
 * meets nothing, and a hull (min of lo, max of hi) or an order check
 * (lo >= the highest hi so far) takes it in without a branch. */
typedef struct mo_span {
    uintptr_t lo, hi;
} mo_span;

static inline mo_span mo_span_none(void)
{
    mo_span s = {UINTPTR_MAX, 0};
    return s;
}

static inline mo_span mo_span_of(const void *p, size_t n)
{
    mo_span s;
    s.lo = n ? (uintptr_t)p : UINTPTR_MAX;
    s.hi = n ? (uintptr_t)p + n : 0;
    return s;
}

static inline int mo_span_empty(mo_span a)
{
    return a.lo >= a.hi;
}

static inline int mo_span_meet(mo_span a, mo_span b)
{
    return a.lo < b.hi && b.lo < a.hi;
}

/* Fills s[0 .. kinds-1] with message i's spans (outputs first). */
typedef void (*mo_spans_fn)(const void *d, size_t i, mo_span *s);

/* 1 if some output of a message other than j meets span t of kind b of
 * message j, sweeping the sorted outputs of kind a. */
static inline __attribute__((always_inline)) int
mo_batch_sweep(const void *d, size_t n, mo_spans_fn f, unsigned a, unsigned b)
{
    mo_span s[MO_BATCH_KINDS], t[MO_BATCH_KINDS];
    size_t p = 0;
    uintptr_t prev_lo = 0;
    for (size_t j = 0; j < n; j++) {
        f(d, j, t);
        if (mo_span_empty(t[b]))
            continue;
        if (t[b].lo < prev_lo)
            p = 0;
        prev_lo = t[b].lo;
        /* Outputs that end at or before this span's start end before every
         * later span's start too, while the starts do not decrease. */
        for (; p < n; p++) {
            f(d, p, s);
            if (!mo_span_empty(s[a]) && s[a].hi > t[b].lo)
                break;
        }
        for (size_t q = p; q < n; q++) {
            f(d, q, s);
            if (mo_span_empty(s[a]))
                continue;
            if (s[a].lo >= t[b].hi)
                break;
            if (q != j)
                return 1;
        }
    }
    return 0;
}

/* 1 if messages i and j (i != j) break the rule. */
static inline __attribute__((always_inline)) int
mo_batch_pair(const mo_span *si, const mo_span *sj, unsigned nout, unsigned nk)
{
    for (unsigned a = 0; a < nout; a++)
        for (unsigned b = 0; b < nk; b++)
            if (mo_span_meet(si[a], sj[b]) || mo_span_meet(sj[a], si[b]))
                return 1;
    return 0;
}

/* The first pass of mo_batch_disjoint (the hull of each kind, and whether
 * the outputs of each kind come in increasing order without overlapping),
 * fed message by message; mo_batch_disjoint_scanned finishes the check. */
typedef struct mo_batch_scan {
    mo_span hull[MO_BATCH_KINDS];
    uintptr_t prev_hi[MO_BATCH_KINDS];
    int sorted;
} mo_batch_scan;

static inline __attribute__((always_inline)) void mo_batch_scan_init(mo_batch_scan *sc, unsigned nk)
{
    for (unsigned k = 0; k < nk; k++) {
        sc->hull[k] = mo_span_none();
        sc->prev_hi[k] = 0;
    }
    sc->sorted = 1;
}

/* Branch-free per message: the kinds are constants, the loops unroll. */
static inline __attribute__((always_inline)) void
mo_batch_scan_add(mo_batch_scan *sc, const mo_span *s, unsigned nout, unsigned nk)
{
#pragma GCC unroll 8
    for (unsigned k = 0; k < nk; k++) {
        sc->hull[k].lo = s[k].lo < sc->hull[k].lo ? s[k].lo : sc->hull[k].lo;
        sc->hull[k].hi = s[k].hi > sc->hull[k].hi ? s[k].hi : sc->hull[k].hi;
    }
#pragma GCC unroll 8
    for (unsigned k = 0; k < nout; k++) {
        sc->sorted &= s[k].lo >= sc->prev_hi[k];
        sc->prev_hi[k] = s[k].hi > sc->prev_hi[k] ? s[k].hi : sc->prev_hi[k];
    }
}

/* 1 if the n descriptors of dsize bytes at d keep the rule, 0 if not, after
 * every message's spans went through mo_batch_scan_add into sc.  nout
 * output kinds, nk kinds in all (nout <= nk <= MO_BATCH_KINDS). */
static inline __attribute__((always_inline)) int
mo_batch_disjoint_scanned(const mo_batch_scan *sc, const void *d, size_t n, size_t dsize,
                          mo_spans_fn f, unsigned nout, unsigned nk)
{
    mo_span s[MO_BATCH_KINDS];
    const mo_span *hull = sc->hull;
    const mo_span D = mo_span_of(d, n * dsize);
    /* The descriptor array against each kind's hull; span by span only
     * where a hull meets it. */
    for (unsigned k = 0; k < nk; k++) {
        if (!mo_span_meet(hull[k], D))
            continue;
        for (size_t i = 0; i < n; i++) {
            f(d, i, s);
            if (mo_span_meet(s[k], D))
                return 0;
        }
    }
    if (!sc->sorted) {
        mo_span t[MO_BATCH_KINDS];
        for (size_t i = 0; i < n; i++) {
            f(d, i, s);
            for (size_t j = i + 1; j < n; j++) {
                f(d, j, t);
                if (mo_batch_pair(s, t, nout, nk))
                    return 0;
            }
        }
        return 1;
    }
    /* Outputs of one kind are disjoint (sorted); every other pair of kinds
     * with at least one output kind, once. */
    for (unsigned a = 0; a < nout; a++)
        for (unsigned b = a + 1; b < nk; b++)
            if (mo_span_meet(hull[a], hull[b]) && mo_batch_sweep(d, n, f, a, b))
                return 0;
    return 1;
}

/* 1 if the n descriptors of dsize bytes at d keep the rule, 0 if not. */
static inline __attribute__((always_inline)) int
mo_batch_disjoint(const void *d, size_t n, size_t dsize, mo_spans_fn f, unsigned nout,
                  unsigned nk)
{
    mo_batch_scan sc;
    mo_span s[MO_BATCH_KINDS];
    mo_batch_scan_init(&sc, nk);
    for (size_t i = 0; i < n; i++) {
        f(d, i, s);
        mo_batch_scan_add(&sc, s, nout, nk);
    }
    return mo_batch_disjoint_scanned(&sc, d, n, dsize, f, nout, nk);
}

/* A quick test of the rule, a sufficient condition that costs a few
 * compares per span: the spans of (at most) two output kinds, a and b,
 * each in increasing address order without overlapping each other, and
 * the hulls of kind a, of kind b and of each input kind (up to
 * MO_QUICK_INPUTS), no output hull meeting another hull and none meeting
 * the descriptor array.  Then no output of one message meets any buffer of
 * another: outputs of one kind are disjoint by their order, everything
 * else by the hulls.  An input that is the same message's output (in
 * place, in == out) is left out of its hull: for other messages it is that
 * output, kept apart by the order.  When the test fails (the buffers are
 * laid out in some other way, or the rule is broken) the front end runs
 * the exact check (mo_batch_disjoint).  The order test needs no state of
 * its own: while the spans are in order, the hull's end is the end of the
 * previous span.  Input kinds are indexed by constants only, so the struct
 * stays in registers. */
#define MO_QUICK_INPUTS 4

typedef struct mo_quick {
    mo_span a, b, in[MO_QUICK_INPUTS];
    int ok;
} mo_quick;

static inline __attribute__((always_inline)) void mo_quick_init(mo_quick *q)
{
    q->a = q->b = mo_span_none();
    for (unsigned k = 0; k < MO_QUICK_INPUTS; k++)
        q->in[k] = mo_span_none();
    q->ok = 1;
}

static inline uintptr_t mo_umin(uintptr_t x, uintptr_t y) { return x < y ? x : y; }
static inline uintptr_t mo_umax(uintptr_t x, uintptr_t y) { return x > y ? x : y; }

static inline mo_span mo_hull_add(mo_span h, mo_span s)
{
    mo_span r = {mo_umin(h.lo, s.lo), mo_umax(h.hi, s.hi)};
    return r;
}

/* An output span of kind a or b; an empty one changes nothing. */
static inline __attribute__((always_inline)) void mo_quick_out_a(mo_quick *q, mo_span s)
{
    q->ok &= s.lo >= q->a.hi;
    q->a = mo_hull_add(q->a, s);
}

static inline __attribute__((always_inline)) void mo_quick_out_b(mo_quick *q, mo_span s)
{
    q->ok &= s.lo >= q->b.hi;
    q->b = mo_hull_add(q->b, s);
}

/* An input span of kind k (a constant below MO_QUICK_INPUTS). */
static inline __attribute__((always_inline)) void mo_quick_in(mo_quick *q, unsigned k, mo_span s)
{
    q->in[k] = mo_hull_add(q->in[k], s);
}

/* 1 if the spans added keep the rule by the quick test (0: run the exact
 * check), the descriptor array being dsize bytes at d. */
static inline __attribute__((always_inline)) int mo_quick_passed(const mo_quick *q, const void *d,
                                                                 size_t dsize)
{
    mo_span D = mo_span_of(d, dsize);
    if (!q->ok || mo_span_meet(q->a, q->b) || mo_span_meet(D, q->a) || mo_span_meet(D, q->b))
        return 0;
    for (unsigned k = 0; k < MO_QUICK_INPUTS; k++)
        if (mo_span_meet(q->a, q->in[k]) || mo_span_meet(q->b, q->in[k]) ||
            mo_span_meet(D, q->in[k]))
            return 0;
    return 1;
}

/* The common case of a CTR, CBC or CBC-MAC batch (batch_ctr.c, batch_cbc.c,
 * batch_mac.c): every message's own checks (mo_ctr_checks, mo_cbc_checks,
 * ak_mo_cbcmac_checks) and the batch's quick test in one pass, with no
 * status written and none read back.  Each message goes in by mo_ivq_add;
 * mo_ivq_passed then decides.  What the pass checks, and why that is
 * enough:
 *   - the key object, only where it differs from the previous message's
 *     (a NULL key or one not set up leaves the common case);
 *   - CBC and CBC-MAC: the length a multiple of 16;
 *   - the outputs out (kind a) and CBC's chaining values and CBC-MAC's
 *     states, which are written back (kind b), in increasing address
 *     order, as the quick test's order check (batch.h above), which here
 *     returns at once;
 *   - the inputs in (unless in place) and CTR's counter block into their
 *     hulls.
 * A NULL pointer with something to point at is a span starting at 0, so
 * it is the lowest of its kind: the hull's start or, for an ordered kind,
 * its first span's, which mo_ivq_passed finds zero.  A message's own
 * overlap checks (out against in unless in place, the IV against out and,
 * for CBC, against in; CBC-MAC's state against in) are spans of different
 * kinds, which the quick test keeps apart.  So when mo_ivq_passed returns
 * 1 every message passes the single call's checks (status AESKIT_OK) and
 * the batch keeps the rule; when any step returns 0 the caller runs the
 * general checks, which decide everything themselves.  Every address and
 * length here is public. */
typedef struct mo_ivq {
    const aeskit_aes_key *key; /* the last key object checked */
    mo_span a, b;              /* the output kinds' hulls */
    mo_span in, iv;            /* the input kinds' hulls (CTR's counter blocks: iv) */
} mo_ivq;

static inline __attribute__((always_inline)) void mo_ivq_init(mo_ivq *v)
{
    /* no key object of the caller's lies in this frame, so the first
     * message's key, NULL included, differs from it and is checked */
    v->key = (const aeskit_aes_key *)(const void *)v;
    v->a = v->b = v->in = v->iv = mo_span_none();
}

/* An ordered output span [p, p + len), len > 0, into kind hull h: 0 if it
 * lies below the previous one.  The hull's end only: while the spans come
 * in order its start is the first span's, which mo_ivq_passed is given. */
static inline __attribute__((always_inline)) int mo_ivq_out(mo_span *h, const void *p, size_t len)
{
    uintptr_t lo = (uintptr_t)p;
    if (MO_UNLIKELY(lo < h->hi))
        return 0;
    h->hi = lo + len;
    return 1;
}

/* The pass's modes: what the 16-byte block iv is (CBC's chaining value and
 * CBC-MAC's state are written back, CTR's counter block is only read) and
 * whether there is an out (CBC-MAC has none: out is ignored). */
enum { MO_IVQ_CTR, MO_IVQ_CBC, MO_IVQ_CBCMAC };

/* One message of a mode (a constant) into the pass: 0 if it leaves the
 * common case. */
static inline __attribute__((always_inline)) int mo_ivq_add(mo_ivq *v, const aeskit_aes_key *key,
                                                            const uint8_t *out, const uint8_t *in,
                                                            size_t len, const uint8_t *iv, const int mode)
{
    if (MO_UNLIKELY(key != v->key)) {
        if (!key || !ak_mo_ready((const ak_aes *)key, AK_MAGIC_AES))
            return 0;
        v->key = key;
    }
    if (mode != MO_IVQ_CTR && MO_UNLIKELY(len % 16))
        return 0;
    if (len) {
        if (mode != MO_IVQ_CBCMAC && !mo_ivq_out(&v->a, out, len))
            return 0;
        if (mode == MO_IVQ_CBCMAC || in != out)
            v->in = mo_hull_add(v->in, (mo_span){(uintptr_t)in, (uintptr_t)in + len});
    }
    if (mode != MO_IVQ_CTR)
        return mo_ivq_out(&v->b, iv, 16);
    v->iv = mo_hull_add(v->iv, (mo_span){(uintptr_t)iv, (uintptr_t)iv + 16});
    return 1;
}

/* 1 if the pass over n descriptors of dsize bytes each at d took them all:
 * no NULL pointer and the quick test passed.  a_lo, b_lo: the first span
 * of each output kind (the first message's out with len > 0, the first
 * message's IV for CBC), UINTPTR_MAX for a kind without one. */
static inline __attribute__((always_inline)) int mo_ivq_passed(mo_ivq *v, const void *d, size_t n,
                                                               size_t dsize, uintptr_t a_lo, uintptr_t b_lo)
{
    v->a.lo = a_lo;
    v->b.lo = b_lo;
    if ((v->a.lo == 0) | (v->b.lo == 0) | (v->in.lo == 0) | (v->iv.lo == 0))
        return 0;
    mo_quick q;
    mo_quick_init(&q);
    q.a = v->a;
    q.b = v->b;
    q.in[0] = v->in;
    q.in[1] = v->iv;
    return mo_quick_passed(&q, d, n * dsize);
}

/* The result of a batch call: the first failure's status, or AESKIT_OK.
 * stat(d, i) reads message i's status. */
typedef aeskit_status (*mo_status_fn)(const void *d, size_t i);
static inline __attribute__((always_inline)) aeskit_status
mo_batch_result(const void *d, size_t n, mo_status_fn stat)
{
    for (size_t i = 0; i < n; i++) {
        aeskit_status st = stat(d, i);
        if (st != AESKIT_OK)
            return st;
    }
    return AESKIT_OK;
}

/* ---- what the single-message front ends lend the batch ones ---------------- */

/* gcm.c: a message's one-shot checks (with its data as in, len, out: a
 * GMAC passes a stand-in buffer and 0), a checked message's backend
 * descriptor (J0 from the IV; tag left to the caller) and a failed open's
 * zeroing or restoring of its output. */
aeskit_status ak_mo_gcm_msg_check(const aeskit_gcm_msg *m, const uint8_t *in, size_t len,
                                  const uint8_t *out);
void ak_mo_gcm_msg_from(ak_gcm_msg *d, const aeskit_gcm_msg *m, uint32_t dir, const uint8_t *in,
                        size_t len, uint8_t *out);
aeskit_status ak_mo_gcm_msg_open_fail(const ak_gcm_msg *m);

/* CMAC's one-shot checks (cmac.c's single calls and batch_mac.c), inline:
 * a batch of one-block messages spends its time in the per-message steps. */
static inline aeskit_status mo_cmac_checks(const aeskit_cmac_key *ck, const uint8_t *msg, size_t len,
                                           const uint8_t *tag, size_t tag_len)
{
    if (!ck || !tag || (!msg && len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&((const ak_cmac_key *)ck)->aes, AK_MAGIC_CMAC))
        return AESKIT_ERR_STATE;
    if (tag_len < 4 || tag_len > 16)
        return AESKIT_ERR_TAG_LENGTH;
    return AESKIT_OK;
}

/* CMAC's last block: last (n bytes, 0..16; NULL when n is 0) completed
 * with K1 or 10*||K2 (SP 800-38B 6.2 steps 3-4) into m.  Branches on n,
 * a length. */
static inline void mo_cmac_last_block(const ak_cmac_key *c, uint8_t m[16], const uint8_t *last, size_t n)
{
    if (n == 16) {
        ak_xor16(m, last, c->k1);
    } else {
        memset(m, 0, 16);
        if (n)
            mo_copy_short(m, last, n);
        m[n] = 0x80;
        ak_xor16(m, m, c->k2);
    }
}
/* cbcmac.c: the checks of the single calls; ctr.c: a checked CTR
 * message. */
aeskit_status ak_mo_cbcmac_checks(const aeskit_aes_key *k, const uint8_t *state,
                                  const uint8_t *in, size_t len);

void ak_mo_ctr_crypt(const ak_aes *a, uint8_t *out, const uint8_t *in, size_t len,
                     const uint8_t iv[16]);

/* ccm.c: the one-shot checks; B0 and the first AAD block (returns the AAD
 * bytes it took); Ctr0 into ctr (ak_mo_ccm_ctr0, for the ccm_lanes kernel,
 * which makes S0 itself); Ctr0 into ctr, S0 = E(Ctr0) and ctr advanced to
 * Ctr1 (ak_mo_ccm_s0); the payload keystream from ctr, any len. */
aeskit_status ak_mo_ccm_checks(const ak_aes *k, const uint8_t *nonce, size_t nonce_len,
                               const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                               const uint8_t *out, const uint8_t *tag, size_t tag_len);
size_t ak_mo_ccm_head(uint8_t b[32], const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                      size_t aad_len, size_t len, size_t tag_len);
void ak_mo_ccm_ctr0(const uint8_t *nonce, size_t nonce_len, uint8_t ctr[16]);
void ak_mo_ccm_s0(const ak_aes *a, const uint8_t *nonce, size_t nonce_len, uint8_t ctr[16],
                  uint8_t s0[16]);
void ak_mo_ccm_ctr_xor(const ak_aes *a, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                       size_t len);

/* Lanes of at most this many blocks under one key go block step by block
 * step through ecb_encrypt (mo_lanes_short), unless the backend names its
 * own bound (cbc_lanes_short, internal.h).  Each step costs one ECB call
 * plus a gather and a scatter of the k blocks (two 64-bit XORs and two
 * copies per lane): up to three steps are cheaper than a lane kernel
 * call's set-up on every backend measured; at four and five x86 still
 * gains and the bitsliced generic backend loses (the measurements:
 * docs/performance.md, "short lanes as ECB steps" and "three and five
 * ECB steps"). */
#define MO_SHORT_CHAIN 3

/* k lanes (2 <= k <= MO_BATCH_CHUNK) of one key object and at most
 * its backend's bound of blocks each (cbc_lanes_short, else
 * MO_SHORT_CHAIN), step s computing block s of every lane that
 * has one: iv = E(iv XOR in_s), out_s = iv.  The blocks of one step belong
 * to different chains and are independent, so a step is one multi-block
 * ecb_encrypt of the backend, which costs about one block's round latency;
 * a lane kernel call sets up its slots and state first, which costs more
 * than one step (the tail passes of CMAC and CCM are one block per lane,
 * as are CBC-MAC and CBC calls of 16-byte messages).  Returns 0 (nothing
 * done) for lanes this does not take.  Each step reads a lane's block s
 * before it writes out_s, so in place is safe. */
static inline int mo_lanes_short(ak_cbc_lane *l, size_t k)
{
    if (k < 2 || k > MO_BATCH_CHUNK)
        return 0;
    const ak_aes *a = l[0].aes;
    const size_t lim = a->be->cbc_lanes_short ? a->be->cbc_lanes_short : MO_SHORT_CHAIN;
    size_t steps = 0;
    for (size_t j = 0; j < k; j++) {
        if (l[j].aes != a || l[j].blocks > lim)
            return 0;
        steps = l[j].blocks > steps ? l[j].blocks : steps;
    }
    AESKIT_ALIGN(16) uint8_t buf[MO_BATCH_CHUNK][16];
    uint32_t who[MO_BATCH_CHUNK];
    size_t used = 0; /* lanes of the widest step: the part of buf to wipe */
    for (size_t s = 0; s < steps; s++) {
        size_t c = 0;
        for (size_t j = 0; j < k; j++) {
            if (l[j].blocks <= s)
                continue;
            ak_xor16(buf[c], l[j].iv, l[j].in + 16 * s);
            who[c++] = (uint32_t)j;
        }
        a->be->ecb_encrypt(a, buf[0], buf[0], c);
        used = c > used ? c : used;
        for (size_t i = 0; i < c; i++) {
            ak_cbc_lane *q = &l[who[i]];
            memcpy(q->iv, buf[i], 16);
            if (q->out)
                memcpy(q->out + 16 * s, buf[i], 16);
        }
    }
    mo_wipe(buf, used * 16);
    return 1;
}

/* Runs k lanes: short lanes of one key object by ECB steps
 * (mo_lanes_short), else every run of consecutive lanes of one backend in
 * one ak_cbc_lanes call (the backend's multi-lane kernel where it has one). */
static inline void mo_lanes_run(ak_cbc_lane *l, size_t k)
{
    if (mo_lanes_short(l, k))
        return;
    size_t j = 0;
    while (j < k) {
        const ak_backend *be = l[j].aes->be;
        size_t e = j + 1;
        while (e < k && l[e].aes->be == be)
            e++;
        ak_cbc_lanes(be, l + j, e - j);
        j = e;
    }
}

#endif /* AESKIT_BATCH_H */
