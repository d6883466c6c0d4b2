/*
 * batch_ctr.c - CTR over arrays of messages (include/aeskit.h, "Batches").
 * Portable C11; no CPU features needed.
 *
 * CTR is parallel within a message, so a long message runs as
 * aeskit_ctr_crypt runs it (ctr.c's ak_mo_ctr_crypt).  Short messages
 * (MO_GATHER, batch.h) are where a call's fixed cost and one
 * message's few blocks leave the AES pipeline idle: consecutive short
 * messages under one key object have their counter blocks laid side by
 * side in a stack buffer, one ecb_encrypt call turns them all into
 * keystream, and each message XORs its own blocks.  A message's counter
 * blocks are its IV + 0, + 1, ... (128-bit big-endian, SP 800-38A B.1 as
 * ctr.c counts), public values; the keystream is secret and wiped.
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

/* The exact check of the rule (batch.h). */
static MO_NOINLINE int ct_disjoint_exact(const aeskit_ctr_msg *m, size_t n)
{
    return mo_batch_disjoint(m, n, sizeof *m, ct_spans, 1, 3);
}

/* nb counter blocks iv + 0 .. iv + nb - 1 (modulo 2^128) into c. */
static inline void ct_counters(uint8_t (*c)[16], const uint8_t iv[16], size_t nb)
{
    mo_v2u64 v;
    memcpy(&v, iv, 16);
    const uint64_t hi = MO_BE64(v[0]), lo = MO_BE64(v[1]);
    for (size_t j = 0; j < nb; j++) {
        const uint64_t l = lo + j;
        v[0] = MO_BE64(hi + (l < lo));
        v[1] = MO_BE64(l);
        memcpy(c[j], &v, 16);
    }
}

/* The gathered messages p[0 .. np-1] under key a, their counter blocks
 * ks[0 .. used-1] in message order: keystream, then each message's XOR. */
static void ct_flush(const ak_aes *a, aeskit_ctr_msg *const *p, size_t np, uint8_t (*ks)[16], size_t used)
{
    a->be->ecb_encrypt(a, ks[0], ks[0], used);
    size_t off = 0;
    for (size_t q = 0; q < np; q++) {
        const aeskit_ctr_msg *mm = p[q];
        const size_t whole = mm->len / 16, rem = mm->len % 16;
        for (size_t j = 0; j < whole; j++)
            ak_xor16(mm->out + 16 * j, mm->in + 16 * j, ks[off + j]);
        for (size_t i = 0; i < rem; i++)
            mm->out[16 * whole + i] = mm->in[16 * whole + i] ^ ks[off + whole][i];
        off += whole + (rem != 0);
    }
}

/* The checked messages of m[0 .. n): long ones as aeskit_ctr_crypt runs
 * them, consecutive short ones under one key gathered.  fast (a
 * constant): every message passed (the common case), so each status is
 * set here rather than read. */
static inline __attribute__((always_inline)) void ct_run(aeskit_ctr_msg *m, size_t n, const int fast)
{
    AESKIT_ALIGN(16) uint8_t ks[MO_GATHER][16];
    aeskit_ctr_msg *p[MO_GATHER];
    const ak_aes *a = NULL;
    size_t np = 0, used = 0, most = 0;
    for (size_t i = 0; i < n; i++) {
        aeskit_ctr_msg *mm = &m[i];
        if (fast)
            mm->status = AESKIT_OK;
        else if (mm->status != AESKIT_OK)
            continue;
        if (mm->len == 0)
            continue;
        const ak_aes *k = (const ak_aes *)mm->key;
        const size_t nb = (mm->len + 15) / 16;
        if (nb > mo_gather_bound(k->be->ctr_gather_short, MO_GATHER_CTR)) {
            ak_mo_ctr_crypt(k, mm->out, mm->in, mm->len, mm->iv);
            continue;
        }
        if (np && (k != a || used + nb > MO_GATHER)) {
            ct_flush(a, p, np, ks, used);
            most = used > most ? used : most;
            np = used = 0;
        }
        a = k;
        ct_counters(ks + used, mm->iv, nb);
        used += nb;
        p[np++] = mm;
    }
    if (np) {
        ct_flush(a, p, np, ks, used);
        most = used > most ? used : most;
    }
    if (most) /* the keystream */
        mo_wipe(ks, most * 16);
}

/* The general path: the single call's checks for every message, then the
 * quick test, else the exact check. */
static MO_NOINLINE aeskit_status ct_batch_general(aeskit_ctr_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        m[i].status = mo_ctr_checks(m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv);
    mo_quick q;
    mo_quick_init(&q);
    for (size_t i = 0; i < n; i++) {
        if (MO_UNLIKELY(m[i].status != AESKIT_OK))
            continue;
        mo_quick_out_a(&q, mo_span_of(m[i].out, m[i].len));
        if (m[i].in != m[i].out)
            mo_quick_in(&q, 0, mo_span_of(m[i].in, m[i].len));
        mo_quick_in(&q, 1, mo_span_of(m[i].iv, 16));
    }
    if (MO_UNLIKELY(!mo_quick_passed(&q, m, n * sizeof *m) && !ct_disjoint_exact(m, n))) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, ct_status);
    }
    ct_run(m, n, 0);
    return mo_batch_result(m, n, ct_status);
}

aeskit_status aeskit_ctr_batch(aeskit_ctr_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    /* the common case (batch.h, mo_ivq) */
    mo_ivq v;
    mo_ivq_init(&v);
    size_t i = 0;
    while (i < n && mo_ivq_add(&v, m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv, MO_IVQ_CTR))
        i++;
    size_t f = 0; /* the first message with data */
    while (f < n && m[f].len == 0)
        f++;
    if (MO_LIKELY(i == n && mo_ivq_passed(&v, m, n, sizeof *m, f < n ? (uintptr_t)m[f].out : UINTPTR_MAX,
                                          UINTPTR_MAX))) {
        ct_run(m, n, 1);
        return AESKIT_OK;
    }
    return ct_batch_general(m, n);
}
