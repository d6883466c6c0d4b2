/*
 * batch_mac.c - CMAC and raw CBC-MAC over arrays of messages
 * (include/aeskit.h, "Batches").  Portable C11; no CPU features needed.
 *
 * Both are serial chains, so a batch cuts them into ak_cbc_lane chains
 * (internal.h) and hands a stack chunk of lanes at a time to ak_cbc_lanes,
 * which runs them side by side where the backend has a multi-lane kernel.
 * CMAC (SP 800-38B 6.2) takes two lane passes: every block but the last,
 * then the last block with K1 or 10*||K2 applied (cmac.c's
 * ak_mo_cmac_last_block) chained from where the first pass ended (under
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

static aeskit_status cmac_batch(aeskit_cmac_msg *m, size_t n, int verify)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    for (size_t i = 0; i < n; i++)
        m[i].status = ak_mo_cmac_checks(m[i].key, m[i].in, m[i].len, m[i].tag, m[i].tag_len);
    int disjoint = verify ? mo_batch_disjoint(m, n, sizeof *m, cm_spans_verify, 1, 3)
                          : mo_batch_disjoint(m, n, sizeof *m, cm_spans_mac, 1, 3);
    if (MO_UNLIKELY(!disjoint)) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, cm_status);
    }
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        AESKIT_ALIGN(16) uint8_t last[MO_BATCH_CHUNK][16];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0, bodies = 0;
        for (size_t i = base; i < end; i++) {
            if (m[i].status != AESKIT_OK)
                continue;
            const ak_cmac_key *c = (const ak_cmac_key *)m[i].key;
            size_t len = m[i].len, body = len ? (len - 1) / 16 : 0;
            bodies |= body;
            l[k].aes = &c->aes;
            l[k].in = m[i].in;
            l[k].out = NULL;
            l[k].blocks = body;
            memset(l[k].iv, 0, 16);
            idx[k] = (uint32_t)(i - base);
            k++;
        }
        if (bodies) /* else every chain is still zero: no first pass */
            mo_lanes_run(l, k);
        /* The last blocks: under one key object one ECB call over the
         * chained blocks in place (mo_lanes_short's step without its
         * gather and scatter), else a lane pass. */
        int one = k > 0;
        for (size_t j = 1; j < k; j++)
            one &= l[j].aes == l[0].aes;
        for (size_t j = 0; j < k; j++) {
            const aeskit_cmac_msg *mm = &m[base + idx[j]];
            size_t body = l[j].blocks;
            /* NULL + 0 is undefined: an empty message may come with in NULL. */
            ak_mo_cmac_last_block((const ak_cmac_key *)mm->key, last[j],
                                  body ? mm->in + body * 16 : mm->in, mm->len - body * 16);
            if (one)
                ak_xor16(last[j], last[j], l[j].iv);
            l[j].in = last[j];
            l[j].blocks = 1;
        }
        if (one)
            l[0].aes->be->ecb_encrypt(l[0].aes, last[0], last[0], k);
        else
            mo_lanes_run(l, k);
        for (size_t j = 0; j < k; j++) {
            aeskit_cmac_msg *mm = &m[base + idx[j]];
            const uint8_t *t = one ? last[j] : l[j].iv;
            if (verify) {
                if (!ak_ct_eq_mask(t, mm->tag, mm->tag_len))
                    mm->status = AESKIT_ERR_AUTH;
            } else {
                mo_copy_tag(mm->tag, t, mm->tag_len);
            }
        }
        mo_wipe(l, k * sizeof l[0]);
        mo_wipe(last, k * 16);
    }
    return mo_batch_result(m, n, cm_status);
}

aeskit_status aeskit_cmac_batch(aeskit_cmac_msg *m, size_t n)
{
    return cmac_batch(m, n, 0);
}

aeskit_status aeskit_cmac_verify_batch(aeskit_cmac_msg *m, size_t n)
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

aeskit_status aeskit_cbcmac_batch(aeskit_cbcmac_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    for (size_t i = 0; i < n; i++)
        m[i].status = ak_mo_cbcmac_checks(m[i].key, m[i].state, m[i].in, m[i].len);
    if (MO_UNLIKELY(!mo_batch_disjoint(m, n, sizeof *m, cbm_spans, 1, 2))) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, cbm_status);
    }
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0;
        for (size_t i = base; i < end; i++) {
            if (m[i].status != AESKIT_OK || m[i].len == 0)
                continue; /* an empty chain leaves its state as it was */
            l[k].aes = (const ak_aes *)m[i].key;
            l[k].in = m[i].in;
            l[k].out = NULL;
            l[k].blocks = m[i].len / 16;
            memcpy(l[k].iv, m[i].state, 16);
            idx[k] = (uint32_t)(i - base);
            k++;
        }
        mo_lanes_run(l, k);
        for (size_t j = 0; j < k; j++)
            memcpy(m[base + idx[j]].state, l[j].iv, 16);
        mo_wipe(l, k * sizeof l[0]);
    }
    return mo_batch_result(m, n, cbm_status);
}
