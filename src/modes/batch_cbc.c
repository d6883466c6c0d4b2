/*
 * batch_cbc.c - raw CBC encryption and decryption over arrays of messages
 * (include/aeskit.h, "Batches").  Portable C11; no CPU features needed.
 *
 * CBC encryption is one serial chain per message (SP 800-38A 6.2), so a
 * batch hands the messages to ak_cbc_lanes as ak_cbc_lane chains, a stack
 * chunk at a time; decryption is parallel within a message already and
 * runs message by message through the backend's cbc_decrypt, as
 * aeskit_cbc_decrypt does.
 */
#include "batch.h"

/* Outputs: out and the chaining value; input: in. */
static void cb_spans(const void *d, size_t i, mo_span *s)
{
    const aeskit_cbc_msg *m = (const aeskit_cbc_msg *)d + i;
    mo_span none = mo_span_none();
    int ok = m->status == AESKIT_OK;
    s[0] = ok ? mo_span_of(m->out, m->len) : none;
    s[1] = ok ? mo_span_of(m->iv, 16) : none;
    s[2] = ok ? mo_span_of(m->in, m->len) : none;
}
static aeskit_status cb_status(const void *d, size_t i)
{
    return ((const aeskit_cbc_msg *)d)[i].status;
}

/* The single calls' checks for every message, then the batch's. */
static int cb_check(aeskit_cbc_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        m[i].status = ak_mo_cbc_checks(m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv);
    if (MO_LIKELY(mo_batch_disjoint(m, n, sizeof *m, cb_spans, 2, 3)))
        return 1;
    for (size_t i = 0; i < n; i++)
        if (m[i].status == AESKIT_OK)
            m[i].status = AESKIT_ERR_OVERLAP;
    return 0;
}

aeskit_status aeskit_cbc_encrypt_batch(aeskit_cbc_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    if (!cb_check(m, n))
        return mo_batch_result(m, n, cb_status);
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0;
        for (size_t i = base; i < end; i++) {
            if (m[i].status != AESKIT_OK || m[i].len == 0)
                continue; /* an empty message leaves its chaining value as it was */
            l[k].aes = (const ak_aes *)m[i].key;
            l[k].in = m[i].in;
            l[k].out = m[i].out;
            l[k].blocks = m[i].len / 16;
            memcpy(l[k].iv, m[i].iv, 16);
            idx[k] = (uint32_t)(i - base);
            k++;
        }
        mo_lanes_run(l, k);
        for (size_t j = 0; j < k; j++)
            memcpy(m[base + idx[j]].iv, l[j].iv, 16);
        mo_wipe(l, k * sizeof l[0]);
    }
    return mo_batch_result(m, n, cb_status);
}

aeskit_status aeskit_cbc_decrypt_batch(aeskit_cbc_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    if (!cb_check(m, n))
        return mo_batch_result(m, n, cb_status);
    for (size_t i = 0; i < n; i++) {
        if (m[i].status != AESKIT_OK || m[i].len == 0)
            continue;
        const ak_aes *a = (const ak_aes *)m[i].key;
        uint8_t chain[16];
        memcpy(chain, m[i].iv, 16);
        a->be->cbc_decrypt(a, m[i].out, m[i].in, m[i].len / 16, chain);
        memcpy(m[i].iv, chain, 16);
    }
    return mo_batch_result(m, n, cb_status);
}
