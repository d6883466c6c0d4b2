/*
 * batch_ccm.c - CCM seal and open over arrays of messages (include/aeskit.h,
 * "Batches").  Portable C11; no CPU features needed.
 *
 * CCM's CBC-MAC (SP 800-38C A.2) is a serial chain per message, so a batch
 * runs it as ak_cbc_lane chains through ak_cbc_lanes, a stack chunk at a
 * time, in lane passes on the same chaining values: B0 and the first AAD
 * block (ccm.c's ak_mo_ccm_head, from a per-message buffer), the rest of
 * the AAD's whole blocks from the caller's buffer, its zero-padded tail,
 * the payload's whole blocks, its zero-padded tail.
 *
 * Two ways to run the payload, per chunk:
 *   - fused, when every message's backend has ccm_lanes (internal.h): the
 *     payload's whole blocks go through that kernel, MAC and CTR of all
 *     messages in one pass; it also returns S0 = E(Ctr0) and the keystream
 *     of the partial last block, which is XORed here and MACed, zero
 *     padded, in the last pass.  AAD whose rest after the first AAD block
 *     is shorter than a block joins B0's lane, so a short AAD needs no
 *     AAD passes.
 *   - else the payload MAC is a lane pass and the CTR runs message by
 *     message (ccm.c's S0 and keystream).  Seal MACs the plaintext before
 *     CTR overwrites an in-place buffer; open decrypts first.
 * Either way open MACs the plaintext and on a mismatch zeroes the output
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
    AESKIT_ALIGN(16) uint8_t head[48]; /* B0, the first AAD block (fused: the AAD's short rest) */
    uint8_t aad_tail[16];
    uint8_t msg_tail[16];
    uint8_t ctr[16];                   /* Ctr1 (after S0) */
    uint8_t s0[16];
    size_t take;                       /* AAD bytes in head */
} cc_state;

/* c += v, c a counter block Ctr_i with i + v below 2^(8q): CCM's counter
 * field is the low 8q bits (q <= 8) of the last 8 bytes and a message's
 * block indices stay below 2^(8q) (ccm.c), so a 64-bit big-endian add on
 * those bytes is exact. */
static inline void cc_ctr_add(uint8_t c[16], uint64_t v)
{
    ak_store_be64(c + 8, ak_load_be64(c + 8) + v);
}

/* Pass p of the MAC over the chunk's k messages (see the top); with
 * short_in_head, an AAD rest shorter than a block went with B0 (pass 2
 * skips it). */
static void cc_mac_pass(const aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st,
                        ak_cbc_lane *l, size_t k, int pass, int open, int short_in_head)
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
                mo_copy_short(st[j].aad_tail, mm->aad + st[j].take + arest / 16 * 16, arest % 16);
            l[j].in = st[j].aad_tail;
            l[j].blocks = arest % 16 && !(short_in_head && arest < 16) ? 1 : 0;
            break;
        case 3:
            l[j].in = mm->len ? pt : st[j].head;
            l[j].blocks = mm->len / 16;
            break;
        default:
            memset(st[j].msg_tail, 0, 16);
            if (mm->len % 16)
                mo_copy_short(st[j].msg_tail, pt + mm->len / 16 * 16, mm->len % 16);
            l[j].in = st[j].msg_tail;
            l[j].blocks = mm->len % 16 ? 1 : 0;
            break;
        }
    }
    mo_lanes_run(l, k);
}

/* The tag of message j from its MAC X: seal writes it; open compares it and
 * on a mismatch zeroes the output or, in place, encrypts it back (CTR is
 * its own inverse) from Ctr1 in ctr1. */
static void cc_finish(aeskit_ccm_msg *mm, const ak_aes *a, const uint8_t X[16], const uint8_t s0[16],
                      uint8_t ctr1[16], int open)
{
    uint8_t T[16];
    ak_xor16(T, X, s0);
    if (!open) {
        mo_copy_tag(mm->tag, T, mm->tag_len);
    } else if (!ak_ct_eq_mask(T, mm->tag, mm->tag_len)) {
        mm->status = AESKIT_ERR_AUTH;
        if (mm->out == mm->in)
            ak_mo_ccm_ctr_xor(a, ctr1, mm->out, mm->out, mm->len);
        else
            aeskit_memzero(mm->out, mm->len);
    }
    mo_wipe(T, sizeof T);
}

/* The chunk's k messages without ccm_lanes: five MAC lane passes, the CTR
 * message by message.  l[j] carries message j's key and a zero chaining
 * value, st[j] its head. */
static void cc_chunk_lanes(aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st, ak_cbc_lane *l,
                           size_t k, int open)
{
    for (size_t j = 0; j < k; j++) {
        aeskit_ccm_msg *mm = &m[idx[j]];
        ak_mo_ccm_s0(l[j].aes, mm->nonce, mm->nonce_len, st[j].ctr, st[j].s0);
        if (open) { /* the plaintext first: the MAC is over it */
            uint8_t ctr[16];
            memcpy(ctr, st[j].ctr, 16);
            ak_mo_ccm_ctr_xor(l[j].aes, ctr, mm->out, mm->in, mm->len);
        }
    }
    for (int pass = 0; pass < 5; pass++)
        cc_mac_pass(m, idx, st, l, k, pass, open, 0);
    for (size_t j = 0; j < k; j++) {
        aeskit_ccm_msg *mm = &m[idx[j]];
        if (!open) {
            uint8_t ctr[16];
            memcpy(ctr, st[j].ctr, 16);
            ak_mo_ccm_ctr_xor(l[j].aes, ctr, mm->out, mm->in, mm->len);
        }
        cc_finish(mm, l[j].aes, l[j].iv, st[j].s0, st[j].ctr, open);
    }
}

/* Runs k CCM lanes: every run of consecutive lanes of one backend in one
 * ccm_lanes call (each of them has one: cc_fusable). */
static void cc_ccm_lanes_run(ak_ccm_lane *c, size_t k, int open)
{
    size_t j = 0;
    while (j < k) {
        const ak_backend *be = c[j].aes->be;
        size_t e = j + 1;
        while (e < k && c[e].aes->be == be)
            e++;
        be->ccm_lanes(c + j, e - j, open);
        j = e;
    }
}

/* The chunk's k messages through ccm_lanes (see the top).  l[j] is
 * message j's MAC chain as in cc_chunk_lanes.  B0, the first AAD block
 * and, when the AAD left after it is shorter than a block, that
 * zero-padded rest go as one lane of up to 3 blocks from st[j].head;
 * longer AAD takes the two AAD passes. */
static void cc_chunk_fused(aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st, ak_cbc_lane *l,
                           size_t k, int open)
{
    ak_ccm_lane c[MO_BATCH_CHUNK];
    int aad_passes = 0, tails = 0;
    for (size_t j = 0; j < k; j++) {
        const aeskit_ccm_msg *mm = &m[idx[j]];
        size_t arest = mm->aad_len - st[j].take;
        l[j].in = st[j].head;
        l[j].blocks = mm->aad_len ? 2 : 1;
        if (arest && arest < 16) {
            memset(st[j].head + 32, 0, 16);
            mo_copy_short(st[j].head + 32, mm->aad + st[j].take, arest);
            l[j].blocks = 3;
        }
        aad_passes |= arest >= 16;
        tails |= mm->len % 16 != 0;
    }
    mo_lanes_run(l, k);
    if (aad_passes) {
        cc_mac_pass(m, idx, st, l, k, 1, open, 1);
        cc_mac_pass(m, idx, st, l, k, 2, open, 1);
    }
    for (size_t j = 0; j < k; j++) {
        aeskit_ccm_msg *mm = &m[idx[j]];
        c[j].aes = l[j].aes;
        /* An empty message may come with in and out NULL; the kernel
         * advances every lane's pointers by its run length, and NULL + 0
         * is undefined: such a lane names its own scratch block instead
         * (0 blocks: never read or written). */
        c[j].in = mm->len ? mm->in : st[j].msg_tail;
        c[j].out = mm->len ? mm->out : st[j].msg_tail;
        c[j].blocks = mm->len / 16;
        memcpy(c[j].mac, l[j].iv, 16);
        ak_mo_ccm_ctr0(mm->nonce, mm->nonce_len, c[j].ctr);
        memcpy(st[j].ctr, c[j].ctr, 16); /* Ctr1, for a failed open's restore */
        cc_ctr_add(st[j].ctr, 1);
    }
    cc_ccm_lanes_run(c, k, open);
    /* The partial last block: its keystream c[j].ks, the MAC over its
     * plaintext zero padded. */
    for (size_t j = 0; j < k; j++) {
        aeskit_ccm_msg *mm = &m[idx[j]];
        size_t nb = mm->len / 16, rem = mm->len % 16;
        const uint8_t *ks = c[j].ks;
        uint8_t *t = st[j].msg_tail;
        memcpy(l[j].iv, c[j].mac, 16);
        l[j].in = t;
        l[j].blocks = rem ? 1 : 0;
        if (!rem)
            continue;
        memset(t, 0, 16);
        mo_copy_short(t, mm->in + nb * 16, rem);
        if (open)
            for (size_t b = 0; b < rem; b++)
                t[b] ^= ks[b];
        for (size_t b = 0; b < rem; b++)
            mm->out[nb * 16 + b] = open ? t[b] : (uint8_t)(t[b] ^ ks[b]);
    }
    if (tails)
        mo_lanes_run(l, k);
    for (size_t j = 0; j < k; j++) {
        cc_finish(&m[idx[j]], l[j].aes, l[j].iv, c[j].s0, st[j].ctr, open);
    }
    mo_wipe(c, k * sizeof c[0]);
}

/* 1 if every message of the chunk has a backend with ccm_lanes. */
static int cc_fusable(const aeskit_ccm_msg *m, const uint32_t *idx, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (!((const ak_aes *)m[idx[j]].key)->be->ccm_lanes)
            return 0;
    return 1;
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
            st[k].take = ak_mo_ccm_head(st[k].head, mm->nonce, mm->nonce_len, mm->aad,
                                        mm->aad_len, mm->len, mm->tag_len);
            l[k].aes = (const ak_aes *)mm->key;
            l[k].out = NULL;
            memset(l[k].iv, 0, 16);
            idx[k] = (uint32_t)i;
            k++;
        }
        if (cc_fusable(m, idx, k)) {
            cc_chunk_fused(m, idx, st, l, k, open);
        } else {
            cc_chunk_lanes(m, idx, st, l, k, open);
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
