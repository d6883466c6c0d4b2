/*
 * batch_cbc.c - raw CBC encryption and decryption over arrays of messages
 * (include/aeskit.h, "Batches").  Portable C11; no CPU features needed.
 *
 * CBC encryption is one serial chain per message (SP 800-38A 6.2), so a
 * batch hands the messages to ak_cbc_lanes as ak_cbc_lane chains, a stack
 * chunk at a time; one-block messages, C = E(P ^ IV), share ECB calls
 * instead (batch.h, mo_one_block).  Decryption is parallel within a message: a long
 * message runs through the backend's cbc_decrypt, as aeskit_cbc_decrypt
 * runs it; consecutive short messages under one key object (batch.h,
 * MO_GATHER) have their ciphertext blocks copied side by side, one
 * ecb_decrypt call over them all, and each message XORs its plaintext
 * blocks, P_j = D(C_j) ^ C_(j-1) with C_(-1) its chaining value (SP
 * 800-38A 6.2), from the copies, so out may equal in.
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

/* The exact check of the rule (batch.h). */
static MO_NOINLINE int cb_disjoint_exact(const aeskit_cbc_msg *m, size_t n)
{
    return mo_batch_disjoint(m, n, sizeof *m, cb_spans, 2, 3);
}

/* The single calls' checks for every message, then the batch's: the quick
 * test (kind a the output, kind b the chaining value), else the exact
 * check.  The general path, after the common case's pass (cb_common)
 * gave up. */
static MO_NOINLINE int cb_check(aeskit_cbc_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        m[i].status = mo_cbc_checks(m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv);
    mo_quick q;
    mo_quick_init(&q);
    for (size_t i = 0; i < n; i++) {
        if (MO_UNLIKELY(m[i].status != AESKIT_OK))
            continue;
        mo_quick_out_a(&q, mo_span_of(m[i].out, m[i].len));
        mo_quick_out_b(&q, mo_span_of(m[i].iv, 16));
        if (m[i].in != m[i].out)
            mo_quick_in(&q, 0, mo_span_of(m[i].in, m[i].len));
    }
    if (MO_LIKELY(mo_quick_passed(&q, m, n * sizeof *m) || cb_disjoint_exact(m, n)))
        return 1;
    for (size_t i = 0; i < n; i++)
        if (m[i].status == AESKIT_OK)
            m[i].status = AESKIT_ERR_OVERLAP;
    return 0;
}

/* The common case (batch.h, mo_ivq): 1 if every message passes the
 * single call's checks and the batch keeps the rule (statuses not yet
 * written: the run loop sets them), else 0. */
static inline __attribute__((always_inline)) int cb_common(const aeskit_cbc_msg *m, size_t n)
{
    mo_ivq v;
    mo_ivq_init(&v);
    size_t i = 0;
    while (i < n && mo_ivq_add(&v, m[i].key, m[i].out, m[i].in, m[i].len, m[i].iv, MO_IVQ_CBC))
        i++;
    size_t f = 0; /* the first message with data */
    while (f < n && m[f].len == 0)
        f++;
    return i == n && mo_ivq_passed(&v, m, n, sizeof *m, f < n ? (uintptr_t)m[f].out : UINTPTR_MAX,
                                   n ? (uintptr_t)m[0].iv : UINTPTR_MAX);
}

/* Whether message mm runs: fast (a constant), the common case, whose
 * statuses are set here; else those the general checks set. */
static inline __attribute__((always_inline)) int cb_takes(aeskit_cbc_msg *mm, const int fast)
{
    if (fast) {
        mm->status = AESKIT_OK;
        return 1;
    }
    return mm->status == AESKIT_OK;
}

/* The checked messages of m[0 .. n), encrypted. */
static inline __attribute__((always_inline)) void cb_enc_run(aeskit_cbc_msg *m, size_t n, const int fast)
{
    /* One-block messages share ECB calls (batch.h, mo_one_block): one
     * block is one AES call either way, and a lane costs more to set up. */
    mo_one_block g;
    mo_one_block_init(&g);
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0;
        for (size_t i = base; i < end; i++) {
            if (!cb_takes(&m[i], fast) || m[i].len == 0)
                continue; /* an empty message leaves its chaining value as it was */
            const ak_aes *a = (const ak_aes *)m[i].key;
            if (m[i].len == 16) {
                mo_one_block_add(&g, a, m[i].in, m[i].iv, m[i].out, m[i].iv);
                continue;
            }
            l[k].aes = a;
            l[k].in = m[i].in;
            l[k].out = m[i].out;
            l[k].blocks = m[i].len / 16;
            memcpy(l[k].iv, m[i].iv, 16);
            idx[k] = (uint32_t)(i - base);
            k++;
        }
        if (!k)
            continue;
        mo_lanes_run(l, k);
        for (size_t j = 0; j < k; j++)
            memcpy(m[base + idx[j]].iv, l[j].iv, 16);
        mo_wipe(l, k * sizeof l[0]);
    }
    mo_one_block_end(&g);
}

static MO_NOINLINE aeskit_status cb_enc_general(aeskit_cbc_msg *m, size_t n)
{
    if (cb_check(m, n))
        cb_enc_run(m, n, 0);
    return mo_batch_result(m, n, cb_status);
}

aeskit_status aeskit_cbc_encrypt_batch(aeskit_cbc_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    if (MO_UNLIKELY(!cb_common(m, n)))
        return cb_enc_general(m, n);
    cb_enc_run(m, n, 1);
    return AESKIT_OK;
}

/* The gathered messages p[0 .. np-1] under key a, their ciphertext blocks
 * copied to c[0 .. used-1] in message order: d = D(c), then each
 * message's plaintext and chaining value. */
static void cb_flush(const ak_aes *a, aeskit_cbc_msg *const *p, size_t np, uint8_t (*d)[16],
                     const uint8_t (*c)[16], size_t used)
{
    a->be->ecb_decrypt(a, d[0], c[0], used);
    size_t off = 0;
    for (size_t q = 0; q < np; q++) {
        aeskit_cbc_msg *mm = p[q];
        const size_t nb = mm->len / 16;
        ak_xor16(mm->out, d[off], mm->iv);
        for (size_t j = 1; j < nb; j++)
            ak_xor16(mm->out + 16 * j, d[off + j], c[off + j - 1]);
        memcpy(mm->iv, c[off + nb - 1], 16);
        off += nb;
    }
}

/* The checked messages of m[0 .. n), decrypted: long ones as
 * aeskit_cbc_decrypt runs them, consecutive short ones under one key
 * gathered. */
static inline __attribute__((always_inline)) void cb_dec_run(aeskit_cbc_msg *m, size_t n, const int fast)
{
    AESKIT_ALIGN(16) uint8_t c[MO_GATHER][16];
    AESKIT_ALIGN(16) uint8_t d[MO_GATHER][16];
    aeskit_cbc_msg *p[MO_GATHER];
    const ak_aes *a = NULL;
    size_t np = 0, used = 0, most = 0;
    for (size_t i = 0; i < n; i++) {
        aeskit_cbc_msg *mm = &m[i];
        if (!cb_takes(mm, fast) || mm->len == 0)
            continue;
        const ak_aes *k = (const ak_aes *)mm->key;
        const size_t nb = mm->len / 16;
        if (nb > mo_gather_bound(k->be->cbc_gather_short, MO_GATHER_CBC)) {
            k->be->cbc_decrypt(k, mm->out, mm->in, nb, mm->iv);
            continue;
        }
        if (np && (k != a || used + nb > MO_GATHER)) {
            cb_flush(a, p, np, d, (const uint8_t (*)[16])c, used);
            most = used > most ? used : most;
            np = used = 0;
        }
        a = k;
        memcpy(c[used], mm->in, mm->len);
        used += nb;
        p[np++] = mm;
    }
    if (np) {
        cb_flush(a, p, np, d, (const uint8_t (*)[16])c, used);
        most = used > most ? used : most;
    }
    if (most) { /* the plaintext, and the ciphertext with it */
        mo_wipe(d, most * 16);
        mo_wipe(c, most * 16);
    }
}

static MO_NOINLINE aeskit_status cb_dec_general(aeskit_cbc_msg *m, size_t n)
{
    if (cb_check(m, n))
        cb_dec_run(m, n, 0);
    return mo_batch_result(m, n, cb_status);
}

aeskit_status aeskit_cbc_decrypt_batch(aeskit_cbc_msg *m, size_t n)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    if (MO_UNLIKELY(!cb_common(m, n)))
        return cb_dec_general(m, n);
    cb_dec_run(m, n, 1);
    return AESKIT_OK;
}
