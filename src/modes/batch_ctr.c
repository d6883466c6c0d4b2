/*
 * batch_ctr.c - CTR over arrays of messages (include/aeskit.h, "Batches").
 * Portable C11; no CPU features needed.
 *
 * CTR is parallel within a message, so a batch checks every message and
 * the batch as a whole, then runs each message as aeskit_ctr_crypt does
 * (ctr.c's ak_mo_ctr_crypt).
 */
#include "batch.h"

/* Output: out; inputs: in, the counter block. */
static void ct_spans(const void *d, size_t i, mo_span *s)
{
    const aeskit_ctr_msg *m = (const aeskit_ctr_msg *)d + i;
    mo_span none = mo_span_none();
    int ok = m->status == AESKIT_OK;
    s[0] = ok ? mo_span_of(m->out, m->len) : none;
    s[1] = ok ? mo_span_of(m->in, m->len) : none;
    s[2] = ok ? mo_span_of(m->iv, 16) : none;
}
static aeskit_status ct_status(const void *d, size_t i)
{
    return ((const aeskit_ctr_msg *)d)[i].status;
}

aeskit_status aeskit_ctr_batch(aeskit_ctr_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    for (size_t i = 0; i < n; i++)
        m[i].status = ak_mo_ctr_checks(m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv);
    if (MO_UNLIKELY(!mo_batch_disjoint(m, n, sizeof *m, ct_spans, 1, 3))) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, ct_status);
    }
    for (size_t i = 0; i < n; i++)
        if (m[i].status == AESKIT_OK)
            ak_mo_ctr_crypt((const ak_aes *)m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv);
    return mo_batch_result(m, n, ct_status);
}
