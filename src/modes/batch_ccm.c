/*
 * batch_ccm.c - CCM seal and open over arrays of messages (include/aeskit.h,
 * "Batches").  Portable C11; no CPU features needed.
 *
 * CCM's CBC-MAC (SP 800-38C A.2) is a serial chain per message, so a batch
 * runs it as ak_cbc_lane chains through ak_cbc_lanes, a stack chunk at a
 * time, in five lane passes on the same chaining values: B0 and the first
 * AAD block (ccm.c's ak_mo_ccm_head, from a per-message buffer), the rest
 * of the AAD's whole blocks from the caller's buffer, its zero-padded tail,
 * the payload's whole blocks, its zero-padded tail.  The payload CTR is
 * parallel and runs message by message (ccm.c's S0 and keystream).  Seal
 * MACs the plaintext before CTR overwrites an in-place buffer; open
 * decrypts first, MACs the plaintext, and on a mismatch zeroes the output
 * or, in place, encrypts it back from Ctr1, as aeskit_ccm_open does.
 */
#include "batch.h"

/* Outputs: out, the tag when written; inputs: in, the tag when read,
 * nonce, aad. */
static inline void cc_spans(const aeskit_ccm_msg *m, int open, mo_span *s)
{
    if (m->status != AESKIT_OK) {
        for (int k = 0; k < 6; k++)
            s[k] = mo_span_none();
        return;
    }
    mo_span none = mo_span_none(), tag = mo_span_of(m->tag, m->tag_len);
    s[0] = mo_span_of(m->out, m->len);
    s[1] = open ? none : tag;
    s[2] = mo_span_of(m->in, m->len);
    s[3] = open ? tag : none;
    s[4] = mo_span_of(m->nonce, m->nonce_len);
    s[5] = mo_span_of(m->aad, m->aad_len);
}
static void cc_spans_seal(const void *d, size_t i, mo_span *s)
{
    cc_spans((const aeskit_ccm_msg *)d + i, 0, s);
}
static void cc_spans_open(const void *d, size_t i, mo_span *s)
{
    cc_spans((const aeskit_ccm_msg *)d + i, 1, s);
}
static aeskit_status cc_status(const void *d, size_t i)
{
    return ((const aeskit_ccm_msg *)d)[i].status;
}

/* The per-message state of one chunk. */
typedef struct cc_state {
    AESKIT_ALIGN(16) uint8_t head[32]; /* B0, the first AAD block */
    uint8_t aad_tail[16];
    uint8_t msg_tail[16];
    uint8_t ctr[16];                   /* Ctr1 after S0 */
    uint8_t s0[16];
    size_t take;                       /* AAD bytes in head */
} cc_state;

/* Pass p of the MAC over the chunk's k messages (see the top). */
static void cc_mac_pass(const aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st,
                        ak_cbc_lane *l, size_t k, int pass, int open)
{
    for (size_t j = 0; j < k; j++) {
        const aeskit_ccm_msg *mm = &m[idx[j]];
        size_t arest = mm->aad_len - st[j].take;
        const uint8_t *pt = open ? mm->out : mm->in;
        switch (pass) {
        case 0:
            l[j].in = st[j].head;
            l[j].blocks = mm->aad_len ? 2 : 1;
            break;
        case 1:
            l[j].in = arest ? mm->aad + st[j].take : st[j].head;
            l[j].blocks = arest / 16;
            break;
        case 2:
            memset(st[j].aad_tail, 0, 16);
            if (arest % 16)
                memcpy(st[j].aad_tail, mm->aad + st[j].take + arest / 16 * 16, arest % 16);
            l[j].in = st[j].aad_tail;
            l[j].blocks = arest % 16 ? 1 : 0;
            break;
        case 3:
            l[j].in = mm->len ? pt : st[j].head;
            l[j].blocks = mm->len / 16;
            break;
        default:
            memset(st[j].msg_tail, 0, 16);
            if (mm->len % 16)
                memcpy(st[j].msg_tail, pt + mm->len / 16 * 16, mm->len % 16);
            l[j].in = st[j].msg_tail;
            l[j].blocks = mm->len % 16 ? 1 : 0;
            break;
        }
    }
    mo_lanes_run(l, k);
}

static aeskit_status ccm_batch(aeskit_ccm_msg *m, size_t n, int open)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    for (size_t i = 0; i < n; i++)
        m[i].status = ak_mo_ccm_checks((const ak_aes *)m[i].key, m[i].nonce, m[i].nonce_len,
                                       m[i].aad, m[i].aad_len, m[i].in, m[i].len, m[i].out,
                                       m[i].tag, m[i].tag_len);
    int disjoint = open ? mo_batch_disjoint(m, n, sizeof *m, cc_spans_open, 2, 6)
                        : mo_batch_disjoint(m, n, sizeof *m, cc_spans_seal, 2, 6);
    if (MO_UNLIKELY(!disjoint)) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, cc_status);
    }
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        cc_state st[MO_BATCH_CHUNK];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0;
        for (size_t i = base; i < end; i++) {
            aeskit_ccm_msg *mm = &m[i];
            if (mm->status != AESKIT_OK)
                continue;
            const ak_aes *a = (const ak_aes *)mm->key;
            st[k].take = ak_mo_ccm_head(st[k].head, mm->nonce, mm->nonce_len, mm->aad,
                                        mm->aad_len, mm->len, mm->tag_len);
            ak_mo_ccm_s0(a, mm->nonce, mm->nonce_len, st[k].ctr, st[k].s0);
            l[k].aes = a;
            l[k].out = NULL;
            memset(l[k].iv, 0, 16);
            idx[k] = (uint32_t)i;
            k++;
        }
        if (open) /* the plaintext first: the MAC is over it */
            for (size_t j = 0; j < k; j++) {
                aeskit_ccm_msg *mm = &m[idx[j]];
                uint8_t ctr[16];
                memcpy(ctr, st[j].ctr, 16);
                ak_mo_ccm_ctr_xor(l[j].aes, ctr, mm->out, mm->in, mm->len);
            }
        for (int pass = 0; pass < 5; pass++)
            cc_mac_pass(m, idx, st, l, k, pass, open);
        for (size_t j = 0; j < k; j++) {
            aeskit_ccm_msg *mm = &m[idx[j]];
            uint8_t T[16];
            for (size_t b = 0; b < 16; b++)
                T[b] = l[j].iv[b] ^ st[j].s0[b];
            if (!open) {
                ak_mo_ccm_ctr_xor(l[j].aes, st[j].ctr, mm->out, mm->in, mm->len);
                memcpy(mm->tag, T, mm->tag_len);
            } else if (!ak_ct_eq_mask(T, mm->tag, mm->tag_len)) {
                mm->status = AESKIT_ERR_AUTH;
                if (mm->out == mm->in) /* CTR is its own inverse */
                    ak_mo_ccm_ctr_xor(l[j].aes, st[j].ctr, mm->out, mm->out, mm->len);
                else
                    aeskit_memzero(mm->out, mm->len);
            }
            mo_wipe(T, sizeof T);
        }
        mo_wipe(st, k * sizeof st[0]);
        mo_wipe(l, k * sizeof l[0]);
    }
    return mo_batch_result(m, n, cc_status);
}

aeskit_status aeskit_ccm_seal_batch(aeskit_ccm_msg *m, size_t n)
{
    return ccm_batch(m, n, 0);
}

aeskit_status aeskit_ccm_open_batch(aeskit_ccm_msg *m, size_t n)
{
    return ccm_batch(m, n, 1);
}
