/*
 * batch_mac.c - CMAC and raw CBC-MAC over arrays of messages
 * (include/aeskit.h, "Batches").  Portable C11; no CPU features needed.
 *
 * Both are serial chains, so a batch cuts them into ak_cbc_lane chains
 * (internal.h) and hands a stack chunk of lanes at a time to ak_cbc_lanes,
 * which runs them side by side where the backend has a multi-lane kernel.
 * CMAC (SP 800-38B 6.2) takes two lane passes: every block but the last,
 * then the last block with K1 or 10*||K2 applied (mo_cmac_last_block,
 * batch.h) chained from where the first pass ended (under
 * one key object one ECB call over the chained last blocks).
 */
#include "batch.h"

/* ---- CMAC ---------------------------------------------------------------- */

/* Output: the tag when it is written; inputs: in, the tag when it is read. */
static inline void cm_spans(const aeskit_cmac_msg *m, int verify, mo_span *s)
{
    mo_span none = mo_span_none(), tag = mo_span_of(m->tag, m->tag_len);
    if (m->status != AESKIT_OK)
        tag = none;
    s[0] = verify ? none : tag;
    s[1] = m->status == AESKIT_OK ? mo_span_of(m->in, m->len) : none;
    s[2] = verify ? tag : none;
}
static void cm_spans_mac(const void *d, size_t i, mo_span *s)
{
    cm_spans((const aeskit_cmac_msg *)d + i, 0, s);
}
static void cm_spans_verify(const void *d, size_t i, mo_span *s)
{
    cm_spans((const aeskit_cmac_msg *)d + i, 1, s);
}
static aeskit_status cm_status(const void *d, size_t i)
{
    return ((const aeskit_cmac_msg *)d)[i].status;
}

/* Checked message m into the quick test (batch.h): kind a the written tag;
 * inputs the message and an expected tag. */
static inline __attribute__((always_inline)) void cm_quick_add(mo_quick *q, const aeskit_cmac_msg *m, int verify)
{
    mo_span tag = mo_span_of(m->tag, m->tag_len);
    if (verify)
        mo_quick_in(q, 1, tag);
    else
        mo_quick_out_a(q, tag);
    mo_quick_in(q, 0, mo_span_of(m->in, m->len));
}

/* The exact check of the rule (batch.h). */
static MO_NOINLINE int cm_disjoint_exact(const aeskit_cmac_msg *m, size_t n, int verify)
{
    return verify ? mo_batch_disjoint(m, n, sizeof *m, cm_spans_verify, 1, 3)
                  : mo_batch_disjoint(m, n, sizeof *m, cm_spans_mac, 1, 3);
}

/* One chunk's checked messages p[0 .. k-1]: the last blocks, K1 or
 * 10*||K2 applied; lanes over every block but the last of the messages
 * that have more than one, their chains XORed into their last blocks; the
 * last blocks encrypted (under one key object one ECB call in place, else
 * a lane pass from a zero chain); tags. */
static inline __attribute__((always_inline)) void cmac_chunk(aeskit_cmac_msg *const *p, size_t k, int verify)
{
    ak_cbc_lane l[MO_BATCH_CHUNK];
    AESKIT_ALIGN(16) uint8_t last[MO_BATCH_CHUNK][16];
    uint8_t li[MO_BATCH_CHUNK]; /* lane q's message */
    size_t nl = 0;
    int one = 1;
    const ak_aes *a0 = &((const ak_cmac_key *)p[0]->key)->aes;
    for (size_t j = 0; j < k; j++) {
        const aeskit_cmac_msg *mm = p[j];
        const ak_cmac_key *c = (const ak_cmac_key *)mm->key;
        size_t len = mm->len, body = len ? (len - 1) / 16 : 0;
        one &= &c->aes == a0;
        if (body) {
            l[nl].aes = &c->aes;
            l[nl].in = mm->in;
            l[nl].out = NULL;
            l[nl].blocks = body;
            memset(l[nl].iv, 0, 16);
            li[nl++] = (uint8_t)j;
        }
        /* NULL + 0 is undefined: an empty message may come with in NULL. */
        mo_cmac_last_block(c, last[j], body ? mm->in + body * 16 : mm->in, len - body * 16);
    }
    if (nl) {
        mo_lanes_run(l, nl);
        for (size_t q = 0; q < nl; q++)
            ak_xor16(last[li[q]], last[li[q]], l[q].iv);
    }
    if (one) {
        a0->be->ecb_encrypt(a0, last[0], last[0], k);
    } else {
        for (size_t j = 0; j < k; j++) {
            l[j].aes = &((const ak_cmac_key *)p[j]->key)->aes;
            l[j].in = last[j];
            l[j].out = NULL;
            l[j].blocks = 1;
            memset(l[j].iv, 0, 16);
        }
        mo_lanes_run(l, k);
    }
    for (size_t j = 0; j < k; j++) {
        aeskit_cmac_msg *mm = p[j];
        const uint8_t *t = one ? last[j] : l[j].iv;
        if (verify) {
            if (!ak_ct_eq_mask(t, mm->tag, mm->tag_len))
                mm->status = AESKIT_ERR_AUTH;
        } else {
            mo_copy_tag(mm->tag, t, mm->tag_len);
        }
    }
    if (!one || nl) /* the chaining values */
        mo_wipe(l, (one ? nl : k) * sizeof l[0]);
    mo_wipe(last, k * 16);
}

/* The whole batch: each message's own checks; the cross-message rule (the
 * quick test, else the exact check); per chunk of checked messages
 * cmac_chunk.  Always inlined into the two entries, so verify is a
 * constant. */
static inline __attribute__((always_inline)) aeskit_status cmac_batch(aeskit_cmac_msg *m, size_t n, const int verify)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    for (size_t i = 0; i < n; i++)
        m[i].status = mo_cmac_checks(m[i].key, m[i].in, m[i].len, m[i].tag, m[i].tag_len);
    /* The quick test in a loop of its own, as batch_gcm.c's. */
    mo_quick q;
    mo_quick_init(&q);
    for (size_t i = 0; i < n; i++)
        if (MO_LIKELY(m[i].status == AESKIT_OK))
            cm_quick_add(&q, &m[i], verify);
    int disjoint = mo_quick_passed(&q, m, n * sizeof *m) || cm_disjoint_exact(m, n, verify);
    if (MO_UNLIKELY(!disjoint)) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, cm_status);
    }
    aeskit_cmac_msg *p[MO_BATCH_CHUNK];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (MO_UNLIKELY(m[i].status != AESKIT_OK))
            continue;
        p[k++] = &m[i];
        if (k == MO_BATCH_CHUNK) {
            cmac_chunk(p, k, verify);
            k = 0;
        }
    }
    if (k)
        cmac_chunk(p, k, verify);
    return mo_batch_result(m, n, cm_status);
}

/* The two entries start on a 64-byte boundary, as the x86 one-shot GCM
 * entries do: cmac_batch inlined into each is a short loop per one-block
 * message, and where it starts decides how many 64-byte fetch blocks it
 * spans, which would otherwise move with every change to the code linked
 * before it. */
#define CMB_ENTRY_ALIGN __attribute__((aligned(64)))
CMB_ENTRY_ALIGN aeskit_status aeskit_cmac_batch(aeskit_cmac_msg *m, size_t n)
{
    return cmac_batch(m, n, 0);
}

CMB_ENTRY_ALIGN aeskit_status aeskit_cmac_verify_batch(aeskit_cmac_msg *m, size_t n)
{
    return cmac_batch(m, n, 1);
}

/* ---- raw CBC-MAC --------------------------------------------------------- */

static void cbm_spans(const void *d, size_t i, mo_span *s)
{
    const aeskit_cbcmac_msg *m = (const aeskit_cbcmac_msg *)d + i;
    mo_span none = mo_span_none();
    int ok = m->status == AESKIT_OK;
    s[0] = ok ? mo_span_of(m->state, 16) : none;
    s[1] = ok ? mo_span_of(m->in, m->len) : none;
}
static aeskit_status cbm_status(const void *d, size_t i)
{
    return ((const aeskit_cbcmac_msg *)d)[i].status;
}

/* The exact check of the rule (batch.h). */
static MO_NOINLINE int cbm_disjoint_exact(const aeskit_cbcmac_msg *m, size_t n)
{
    return mo_batch_disjoint(m, n, sizeof *m, cbm_spans, 1, 2);
}

/* The checked chains of m[0 .. n); fast (a constant): the common case,
 * whose statuses are set here rather than read. */
static inline __attribute__((always_inline)) void cbm_run(aeskit_cbcmac_msg *m, size_t n, const int fast)
{
    /* One-block chains share ECB calls (batch.h, mo_one_block). */
    mo_one_block g;
    mo_one_block_init(&g);
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0;
        for (size_t i = base; i < end; i++) {
            if (fast)
                m[i].status = AESKIT_OK;
            else if (m[i].status != AESKIT_OK)
                continue;
            if (m[i].len == 0)
                continue; /* an empty chain leaves its state as it was */
            const ak_aes *a = (const ak_aes *)m[i].key;
            if (m[i].len == 16) {
                mo_one_block_add(&g, a, m[i].in, m[i].state, m[i].state, NULL);
                continue;
            }
            l[k].aes = a;
            l[k].in = m[i].in;
            l[k].out = NULL;
            l[k].blocks = m[i].len / 16;
            memcpy(l[k].iv, m[i].state, 16);
            idx[k] = (uint32_t)(i - base);
            k++;
        }
        if (!k)
            continue;
        mo_lanes_run(l, k);
        for (size_t j = 0; j < k; j++)
            memcpy(m[base + idx[j]].state, l[j].iv, 16);
        mo_wipe(l, k * sizeof l[0]);
    }
    mo_one_block_end(&g);
}

/* The general path: the single call's checks for every message, then the
 * exact check of the rule. */
static MO_NOINLINE aeskit_status cbm_batch_general(aeskit_cbcmac_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        m[i].status = ak_mo_cbcmac_checks(m[i].key, m[i].state, m[i].in, m[i].len);
    if (MO_UNLIKELY(!cbm_disjoint_exact(m, n))) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, cbm_status);
    }
    cbm_run(m, n, 0);
    return mo_batch_result(m, n, cbm_status);
}

aeskit_status aeskit_cbcmac_batch(aeskit_cbcmac_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    /* the common case (batch.h, mo_ivq): states in address order */
    mo_ivq v;
    mo_ivq_init(&v);
    size_t i = 0;
    while (i < n && mo_ivq_add(&v, m[i].key, NULL, m[i].in, m[i].len, m[i].state, MO_IVQ_CBCMAC))
        i++;
    if (MO_LIKELY(i == n && mo_ivq_passed(&v, m, n, sizeof *m, UINTPTR_MAX,
                                          n ? (uintptr_t)m[0].state : UINTPTR_MAX))) {
        cbm_run(m, n, 1);
        return AESKIT_OK;
    }
    return cbm_batch_general(m, n);
}
