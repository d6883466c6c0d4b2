/*
 * batch_ccm.c - CCM seal and open over arrays of messages (include/aeskit.h,
 * "Batches").  Portable C11; no CPU features needed.
 *
 * CCM's CBC-MAC (SP 800-38C A.2) is a serial chain per message, so a batch
 * runs it as ak_cbc_lane chains through ak_cbc_lanes, a stack chunk at a
 * time, in lane passes on the same chaining values: B0 and the first AAD
 * block (built per message by cc_head, as ccm.c's ak_mo_ccm_head builds
 * them), the rest of the AAD's whole blocks from the caller's buffer, its
 * zero-padded tail, the payload's whole blocks, its zero-padded tail.
 * The common case's checks are one pass (cc_quick_add); any other batch
 * takes the single call's checks and the exact overlap check first.
 *
 * Two ways to run the payload, per chunk:
 *   - fused, when every message's backend has ccm_lanes (internal.h): the
 *     payload's whole blocks go through that kernel, MAC and CTR of all
 *     messages in one pass; it also returns S0 = E(Ctr0) and the keystream
 *     of the partial last block, which is XORed here and MACed, zero
 *     padded, in the last pass.  AAD whose rest after the first AAD block
 *     is shorter than a block joins B0's lane, so a short AAD needs no
 *     AAD passes; under one key object the head's and the last block's
 *     passes are ECB steps on the chains side by side (cc_mac_step).
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

/* The per-message state of one chunk (cc_head fills the head and ctr). */
typedef struct cc_state {
    AESKIT_ALIGN(16) uint8_t head[48]; /* B0, the first AAD block, the AAD's short rest */
    uint8_t aad_tail[16];
    uint8_t msg_tail[16];
    uint8_t ctr[16];                   /* Ctr0 (five passes: Ctr1, after S0) */
    uint8_t s0[16];
    size_t take;                       /* AAD bytes in head */
    unsigned nh;                       /* head blocks: 1 (no AAD) .. 3 (short rest) */
} cc_state;

/* The first n (0..16) bytes at p, zero padded to a block, as the block's
 * two little-endian 64-bit words (bytes 0-7, 8-15), with at most two word
 * loads that never read past p + n.  Branches on n, a public length. */
static inline void cc_le_pad(const uint8_t *p, size_t n, uint64_t *lo, uint64_t *hi)
{
    if (n > 8) {
        *lo = ak_load_le64(p);
        *hi = ak_load_le64(p + n - 8) >> (8 * (16 - n));
    } else {
        *lo = n == 8 ? ak_load_le64(p) : mo_le_bytes7(p, n);
        *hi = 0;
    }
}

static inline void cc_store_le32(uint8_t *d, uint32_t v)
{
    if (!AK_LITTLE_ENDIAN)
        v = __builtin_bswap32(v);
    memcpy(d, &v, 4);
}

/* The first n (0..16) bytes of the block whose little-endian words are lo
 * and hi to d, with at most two word stores (overlapping, of equal bytes)
 * and nothing written past d + n.  Branches on n, a public length. */
static inline void cc_le_store(uint8_t *d, uint64_t lo, uint64_t hi, size_t n)
{
    if (n >= 8) {
        ak_store_le64(d, lo);
        if (n == 16)
            ak_store_le64(d + 8, hi);
        else if (n > 8) /* bytes n-8 .. n-1 */
            ak_store_le64(d + n - 8, lo >> (8 * (n - 8)) | hi << (8 * (16 - n)));
    } else if (n >= 4) {
        cc_store_le32(d, (uint32_t)lo);
        cc_store_le32(d + n - 4, (uint32_t)(lo >> (8 * (n - 4))));
    } else if (n) {
        d[0] = (uint8_t)lo;
        d[n / 2] = (uint8_t)(lo >> (8 * (n / 2)));
        d[n - 1] = (uint8_t)(lo >> (8 * (n - 1)));
    }
}

/* Checked message mm's MAC head and counter into st (ccm.c's
 * ak_mo_ccm_head and ak_mo_ccm_ctr0, in words; SP 800-38C A.2): B0 =
 * flags || N || [len]_8q and Ctr0 = (q-1) || N || 0 share the nonce's
 * words (ccm.c's ccm_block); with AAD the first AAD block (its length
 * encoding, then the first take bytes, zero padded) and, when the rest is
 * shorter than a block, that rest zero padded as head block 3.  The
 * length encoding is 2 bytes below 0xff00 (the AAD bytes then 14, read as
 * two words when there are that many), else 6 or 10 bytes (ccm.c's
 * path).  Everything here is public (nonce, lengths, AAD). */
static inline void cc_head(cc_state *st, const aeskit_ccm_msg *mm)
{
    const size_t nl = mm->nonce_len, al = mm->aad_len;
    /* n7: nonce bytes 0-6 from bytes 1 on; nr: bytes 7 .. nl-1, the last
     * 8 bytes' top nl - 7 (nl >= 8: two word loads) */
    uint64_t n7, nr = 0;
    if (nl > 7) {
        n7 = ak_load_le64(mm->nonce) << 8;
        nr = ak_load_le64(mm->nonce + nl - 8) >> (8 * (15 - nl));
    } else {
        n7 = mo_le_bytes7(mm->nonce, 7) << 8;
    }
    const uint64_t flags = (al ? 0x40u : 0) | ((mm->tag_len - 2) / 2) << 3 | (14 - nl);
    mo_store_block(st->head, flags | n7, nr | __builtin_bswap64((uint64_t)mm->len));
    mo_store_block(st->ctr, (14 - nl) | n7, nr);
    st->take = 0;
    st->nh = 1;
    if (!al)
        return;
    if (MO_LIKELY(al < 0xff00)) {
        const uint64_t enc = al >> 8 | (al & 0xff) << 8;
        uint64_t lo, hi;
        st->take = al < 14 ? al : 14;
        if (al >= 14) {
            lo = ak_load_le64(mm->aad);
            hi = ak_load_le64(mm->aad + 6);
        } else {
            uint64_t plo, phi;
            cc_le_pad(mm->aad, al, &plo, &phi);
            lo = plo;
            hi = phi << 16 | plo >> 48;
        }
        mo_store_block(st->head + 16, enc | lo << 16, hi);
    } else {
        st->take = ak_mo_ccm_head(st->head, mm->nonce, nl, mm->aad, al, mm->len, mm->tag_len);
    }
    st->nh = 2;
    const size_t rest = al - st->take;
    if (rest && rest < 16) {
        /* rest <= 8: the AAD's last word (al >= 15 > 8 bytes) shifted
         * down to its last rest bytes */
        uint64_t lo, hi = 0;
        if (rest <= 8)
            lo = ak_load_le64(mm->aad + al - 8) >> (8 * (8 - rest));
        else
            cc_le_pad(mm->aad + st->take, rest, &lo, &hi);
        mo_store_block(st->head + 32, lo, hi);
        st->nh = 3;
    }
}

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

/* The tag of message mm from its MAC X (overwritten by the full tag; the
 * caller wipes it): seal writes it; open compares it and on a mismatch
 * zeroes the output or, in place, encrypts it back (CTR is its own
 * inverse) from Ctr1, the counter block ctr plus d (0 or 1). */
static void cc_finish(aeskit_ccm_msg *mm, const ak_aes *a, uint8_t X[16], const uint8_t s0[16],
                      uint8_t ctr[16], unsigned d, int open)
{
    ak_xor16(X, X, s0);
    if (!open) {
        mo_copy_tag(mm->tag, X, mm->tag_len);
    } else if (!ak_ct_eq_mask(X, mm->tag, mm->tag_len)) {
        mm->status = AESKIT_ERR_AUTH;
        if (mm->out == mm->in) {
            cc_ctr_add(ctr, d);
            ak_mo_ccm_ctr_xor(a, ctr, mm->out, mm->out, mm->len);
        } else {
            aeskit_memzero(mm->out, mm->len);
        }
    }
}

/* The chunk's k messages without ccm_lanes: five MAC lane passes, the CTR
 * message by message.  l[j] carries message j's key (its chain starts
 * at zero here), st[j] its head. */
static void cc_chunk_lanes(aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st, ak_cbc_lane *l,
                           size_t k, int open)
{
    for (size_t j = 0; j < k; j++) {
        aeskit_ccm_msg *mm = &m[idx[j]];
        l[j].out = NULL;
        memset(l[j].iv, 0, 16);
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
        cc_finish(mm, l[j].aes, l[j].iv, st[j].s0, st[j].ctr, 0, open);
    }
    for (size_t j = 0; j < k; j++) {
        mo_wipe(l[j].iv, 16);
        mo_wipe(st[j].s0, 16);
        mo_wipe(st[j].msg_tail, 16);
    }
}

/* Runs k CCM lanes: every run of consecutive lanes of one backend in one
 * ccm_lanes call (each of them has one: cc_run checks). */
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

/* One lockstep MAC step of the chains X[0 .. k) under key a: X[j] =
 * E_a(X[j] ^ b[j]) for every j with b[j] not NULL.  When every chain has
 * a block the step runs in place, one ECB call over X; else those that
 * have one are gathered into g and back.  Returns the blocks gathered
 * into g (0 in place), for the caller's wipe. */
static size_t cc_mac_step(const ak_aes *a, uint8_t (*X)[16], const uint8_t *const *b, size_t k,
                          uint8_t (*g)[16])
{
    uint32_t who[MO_BATCH_CHUNK];
    size_t c = 0;
    for (size_t j = 0; j < k; j++)
        if (b[j])
            who[c++] = (uint32_t)j;
    if (c == k) {
        for (size_t j = 0; j < k; j++)
            ak_xor16(X[j], X[j], b[j]);
        a->be->ecb_encrypt(a, X[0], X[0], k);
        return 0;
    }
    if (!c)
        return 0;
    for (size_t i = 0; i < c; i++)
        ak_xor16(g[i], X[who[i]], b[who[i]]);
    a->be->ecb_encrypt(a, g[0], g[0], c);
    for (size_t i = 0; i < c; i++)
        memcpy(X[who[i]], g[i], 16);
    return c;
}

/* The kernel's lanes of the chunk (all but the MAC chain, which the
 * head passes compute; cc_chunk_fused). */
static inline void cc_lanes_desc(ak_ccm_lane *c, aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st,
                                 const ak_cbc_lane *l, size_t k)
{
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
        memcpy(c[j].ctr, st[j].ctr, 16);
    }
}

/* The chunk's k messages through ccm_lanes (see the top).  l[j] holds
 * message j's key, its st[j].nh head blocks (B0, the first AAD block
 * and, when the AAD left after it is shorter than a block, that
 * zero-padded rest) are in st[j].head and Ctr0 in st[j].ctr (cc_head);
 * longer AAD takes the two AAD passes.  The MAC chains live in X.  Under
 * one key object with no AAD passes the head and the last block run as
 * lockstep ECB steps on X (cc_mac_step: mo_lanes_short's steps without
 * copying the chains in and out; the kernel's descriptors are filled in
 * the first step's shadow); else as lanes l through mo_lanes_run.  The
 * partial last block goes in words: its plaintext zero padded (an open's
 * XORed with its keystream c[j].ks and masked to the block's rem bytes)
 * is XORed into the chain, and rem bytes of the output are written; the
 * last step is then E(X[j]) for the messages that have such a block.
 * aad_passes: some message's AAD rest after the first AAD block is a block
 * or longer; one: every l[j].aes is l[0].aes; nh_min: the fewest head
 * blocks of a message (cc_run finds all three). */
static inline __attribute__((always_inline)) void cc_chunk_fused(aeskit_ccm_msg *m, const uint32_t *idx, cc_state *st, ak_cbc_lane *l,
                           size_t k, int open, const int aad_passes, const int one, const unsigned nh_min)
{
    static const uint8_t zero[16];
    ak_ccm_lane c[MO_BATCH_CHUNK];
    AESKIT_ALIGN(16) uint8_t X[MO_BATCH_CHUNK][16], g[MO_BATCH_CHUNK][16];
    const uint8_t *b[MO_BATCH_CHUNK];
    uint32_t who[MO_BATCH_CHUNK];
    const ak_aes *a = l[0].aes;
    size_t gn = 0;
    const int steps = one && !aad_passes;
    if (steps) {
        for (size_t j = 0; j < k; j++)
            memcpy(X[j], st[j].head, 16);
        a->be->ecb_encrypt(a, X[0], X[0], k); /* E(0 ^ B0) */
        cc_lanes_desc(c, m, idx, st, l, k);
        for (unsigned h = 1; h < 3; h++) {
            if (nh_min > h) { /* every chain has block h: in place */
                for (size_t j = 0; j < k; j++)
                    ak_xor16(X[j], X[j], st[j].head + 16 * h);
                a->be->ecb_encrypt(a, X[0], X[0], k);
                continue;
            }
            for (size_t j = 0; j < k; j++)
                b[j] = st[j].nh > h ? st[j].head + 16 * h : NULL;
            size_t u = cc_mac_step(a, X, b, k, g);
            gn = u > gn ? u : gn;
        }
    } else {
        for (size_t j = 0; j < k; j++) {
            l[j].in = st[j].head;
            l[j].blocks = st[j].nh;
            l[j].out = NULL;
            memset(l[j].iv, 0, 16);
        }
        mo_lanes_run(l, k);
        if (aad_passes) {
            cc_mac_pass(m, idx, st, l, k, 1, open, 1);
            cc_mac_pass(m, idx, st, l, k, 2, open, 1);
        }
        for (size_t j = 0; j < k; j++)
            memcpy(X[j], l[j].iv, 16);
        cc_lanes_desc(c, m, idx, st, l, k);
    }
    for (size_t j = 0; j < k; j++)
        memcpy(c[j].mac, X[j], 16);
    cc_ccm_lanes_run(c, k, open);
    size_t nt = 0;
    for (size_t j = 0; j < k; j++) {
        aeskit_ccm_msg *mm = &m[idx[j]];
        const size_t nb = mm->len / 16, rem = mm->len % 16;
        if (!rem) {
            memcpy(X[j], c[j].mac, 16);
            continue;
        }
        who[nt++] = (uint32_t)j;
        uint64_t lo, hi;
        const uint64_t klo = ak_load_le64(c[j].ks), khi = ak_load_le64(c[j].ks + 8);
        cc_le_pad(mm->in + nb * 16, rem, &lo, &hi);
        if (open) { /* the plaintext, then its bytes past rem cleared */
            lo ^= klo;
            hi ^= khi;
            cc_le_store(mm->out + nb * 16, lo, hi, rem);
            hi &= rem > 8 ? ~(uint64_t)0 >> (8 * (16 - rem)) : 0;
            lo &= rem < 8 ? ~(uint64_t)0 >> (8 * (8 - rem)) : ~(uint64_t)0;
        } else {
            cc_le_store(mm->out + nb * 16, lo ^ klo, hi ^ khi, rem);
        }
        mo_store_block(X[j], ak_load_le64(c[j].mac) ^ lo, ak_load_le64(c[j].mac + 8) ^ hi);
    }
    if (nt == k && one) {
        a->be->ecb_encrypt(a, X[0], X[0], k);
    } else if (nt && one) {
        for (size_t i = 0; i < nt; i++)
            memcpy(g[i], X[who[i]], 16);
        a->be->ecb_encrypt(a, g[0], g[0], nt);
        for (size_t i = 0; i < nt; i++)
            memcpy(X[who[i]], g[i], 16);
        gn = nt > gn ? nt : gn;
    } else if (nt) { /* E(X ^ 0) as lanes */
        for (size_t j = 0; j < k; j++) {
            memcpy(l[j].iv, X[j], 16);
            l[j].in = zero;
            l[j].blocks = m[idx[j]].len % 16 ? 1 : 0;
        }
        mo_lanes_run(l, k);
        for (size_t j = 0; j < k; j++)
            memcpy(X[j], l[j].iv, 16);
    }
    for (size_t j = 0; j < k; j++) /* st[j].ctr is Ctr0 */
        cc_finish(&m[idx[j]], l[j].aes, X[j], c[j].s0, st[j].ctr, 1, open);
    mo_wipe(c, k * sizeof c[0]);
    mo_wipe(X, k * sizeof X[0]);
    if (gn)
        mo_wipe(g, gn * sizeof g[0]);
    if (!steps || (nt && !one))
        for (size_t j = 0; j < k; j++)
            mo_wipe(l[j].iv, 16);
}

/* ---- short messages under one key: ECB steps -----------------------------
 *
 * A message of a few blocks spends more on the lane passes' set-up (five of
 * them, each a lane descriptor per message) and its CTR call than on its
 * AES.  Short messages under one key object (cc_short_fits) go in groups of
 * up to CC_SHORT_GROUP through ECB calls instead: one over every message's
 * B0 and counter blocks Ctr0 .. Ctr_np (so the MAC state E(B0), S0 and the
 * keystream at once), then one per further MAC block, over the messages
 * that still have one: X = E(X ^ block), the lockstep of mo_lanes_short.
 * The MAC's blocks (the first AAD block from ak_mo_ccm_head, the rest of
 * the AAD and the payload zero padded) are copied first, the payload as
 * plaintext (an open XORs its keystream in), so the outputs are written
 * last: a seal's ciphertext, an open's plaintext once its tag matched.  A
 * failed open zeroes its output, or leaves an in-place buffer as it was
 * (the ciphertext), as aeskit_ccm_open does. */
#define CC_SHORT_MAC 8   /* MAC blocks after B0 */
#define CC_SHORT_PAY 4   /* payload blocks */
#define CC_SHORT_GROUP 16

/* The MAC blocks after B0 of checked message mm: the AAD's (its encoding
 * and bytes, zero padded; ak_mo_ccm_head puts the first take bytes in the
 * first block) and the payload's. */
static inline size_t cc_mac_blocks(const aeskit_ccm_msg *mm, size_t take)
{
    return (mm->aad_len ? 1 + (mm->aad_len - take + 15) / 16 : 0) + (mm->len + 15) / 16;
}

static inline int cc_short_fits(const aeskit_ccm_msg *mm, size_t take)
{
    return mm->len <= 16 * CC_SHORT_PAY && cc_mac_blocks(mm, take) <= CC_SHORT_MAC;
}

/* n (0..16) bytes of p zero padded into b. */
static inline void cc_pad(uint8_t b[16], const uint8_t *p, size_t n)
{
    memset(b, 0, 16);
    if (n)
        mo_copy_short(b, p, n);
}

/* The group p[0 .. k-1] of short messages under key a, their heads in
 * head[j] (B0, the first AAD block; take[j] AAD bytes in it).  The
 * messages are taken in decreasing order of MAC blocks (o), so at every
 * step those that still have a block are a prefix and their MAC states
 * stay in place in e[0 ..): B0 of message o[q] in e[q], its counter
 * blocks from e[c0[q]]. */
static MO_NOINLINE void cc_short_group(aeskit_ccm_msg *const *p, const uint8_t (*head)[32], const size_t *take, size_t k,
                           const ak_aes *a, int open)
{
    AESKIT_ALIGN(16) uint8_t e[CC_SHORT_GROUP * (2 + CC_SHORT_PAY)][16];
    AESKIT_ALIGN(16) uint8_t mb[CC_SHORT_GROUP][CC_SHORT_MAC][16]; /* MAC blocks after B0 */
    size_t o[CC_SHORT_GROUP], nm[CC_SHORT_GROUP], c0[CC_SHORT_GROUP];
    if (!k)
        return;
    for (size_t j = 0; j < k; j++) { /* insertion sort, k <= CC_SHORT_GROUP */
        size_t v = cc_mac_blocks(p[j], take[j]), q = j;
        for (; q && nm[q - 1] < v; q--) {
            nm[q] = nm[q - 1];
            o[q] = o[q - 1];
        }
        nm[q] = v;
        o[q] = j;
    }
    for (size_t q = 0; q < k; q++)
        memcpy(e[q], head[o[q]], 16);
    size_t u = k;
    for (size_t q = 0; q < k; q++) {
        const aeskit_ccm_msg *mm = p[o[q]];
        const size_t np = (mm->len + 15) / 16;
        c0[q] = u;
        ak_mo_ccm_ctr0(mm->nonce, mm->nonce_len, e[u]);
        for (size_t b = 1; b <= np; b++) {
            memcpy(e[u + b], e[u], 16);
            cc_ctr_add(e[u + b], b);
        }
        u += 1 + np;
    }
    a->be->ecb_encrypt(a, e[0], e[0], u);
    for (size_t q = 0; q < k; q++) {
        const aeskit_ccm_msg *mm = p[o[q]];
        const uint8_t (*ks)[16] = (const uint8_t (*)[16])e[c0[q] + 1];
        size_t c = 0;
        if (mm->aad_len) {
            memcpy(mb[q][c++], head[o[q]] + 16, 16);
            const uint8_t *r = mm->aad + take[o[q]];
            for (size_t left = mm->aad_len - take[o[q]]; left; c++) {
                const size_t t = left < 16 ? left : 16;
                cc_pad(mb[q][c], r, t);
                r += t;
                left -= t;
            }
        }
        for (size_t b = 0; 16 * b < mm->len; b++, c++) {
            const size_t t = mm->len - 16 * b < 16 ? mm->len - 16 * b : 16;
            if (t == 16 && open) {
                ak_xor16(mb[q][c], mm->in + 16 * b, ks[b]);
            } else if (t == 16) {
                memcpy(mb[q][c], mm->in + 16 * b, 16);
            } else {
                cc_pad(mb[q][c], mm->in + 16 * b, t);
                if (open)
                    for (size_t i = 0; i < t; i++)
                        mb[q][c][i] ^= ks[b][i];
            }
        }
    }
    for (size_t s = 0, live = k; live && s < nm[0]; s++) {
        while (nm[live - 1] <= s)
            live--;
        for (size_t q = 0; q < live; q++)
            ak_xor16(e[q], e[q], mb[q][s]);
        a->be->ecb_encrypt(a, e[0], e[0], live);
    }
    for (size_t q = 0; q < k; q++) {
        aeskit_ccm_msg *mm = p[o[q]];
        const uint8_t (*ks)[16] = (const uint8_t (*)[16])e[c0[q] + 1];
        const size_t whole = mm->len / 16, rem = mm->len % 16, pay = nm[q] - (mm->len + 15) / 16;
        uint8_t T[16];
        ak_xor16(T, e[q], e[c0[q]]);
        if (!open) {
            mo_copy_tag(mm->tag, T, mm->tag_len);
            for (size_t b = 0; b < whole; b++)
                ak_xor16(mm->out + 16 * b, mm->in + 16 * b, ks[b]);
            for (size_t i = 0; i < rem; i++)
                mm->out[16 * whole + i] = mm->in[16 * whole + i] ^ ks[whole][i];
        } else if (ak_ct_eq_mask(T, mm->tag, mm->tag_len)) {
            for (size_t b = 0; b < whole; b++)
                memcpy(mm->out + 16 * b, mb[q][pay + b], 16);
            if (rem)
                mo_copy_short(mm->out + 16 * whole, mb[q][pay + whole], rem);
        } else {
            mm->status = AESKIT_ERR_AUTH;
            if (mm->out != mm->in)
                aeskit_memzero(mm->out, mm->len);
        }
        mo_wipe(T, sizeof T);
    }
    mo_wipe(e, u * 16);
    mo_wipe(mb, k * sizeof mb[0]);
}

/* The checked messages of m[0 .. n), chunk by chunk (see the top).
 * fast (a constant): every message passed (the common case), so each
 * status is set here rather than read. */
static inline __attribute__((always_inline)) void cc_run(aeskit_ccm_msg *m, size_t n, const int open, const int fast)
{
    /* the group of short messages under one key (see above) */
    aeskit_ccm_msg *sp[CC_SHORT_GROUP];
    AESKIT_ALIGN(16) uint8_t sh[CC_SHORT_GROUP][32];
    size_t stake[CC_SHORT_GROUP], ns = 0;
    const ak_aes *sa = NULL;
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_cbc_lane l[MO_BATCH_CHUNK];
        cc_state st[MO_BATCH_CHUNK];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0;
        /* the lanes' facts for cc_chunk_fused, and whether every lane's
         * backend has ccm_lanes (read where the key object changes) */
        const ak_aes *pa = NULL;
        int fusable = 1, one = 1, aad_passes = 0;
        unsigned nh_min = 3;
        for (size_t i = base; i < end; i++) {
            aeskit_ccm_msg *mm = &m[i];
            if (fast)
                mm->status = AESKIT_OK;
            else if (mm->status != AESKIT_OK)
                continue;
            cc_head(&st[k], mm);
            const ak_aes *a = (const ak_aes *)mm->key;
            if (cc_short_fits(mm, st[k].take) && (!ns || a == sa)) {
                memcpy(sh[ns], st[k].head, 32);
                stake[ns] = st[k].take;
                sp[ns++] = mm;
                sa = a;
                if (ns == CC_SHORT_GROUP) {
                    cc_short_group(sp, (const uint8_t (*)[32])sh, stake, ns, sa, open);
                    ns = 0;
                }
                continue;
            }
            if (a != pa) {
                fusable &= a->be->ccm_lanes != NULL;
                one &= !k;
                pa = a;
            }
            aad_passes |= mm->aad_len - st[k].take >= 16;
            nh_min = st[k].nh < nh_min ? st[k].nh : nh_min;
            l[k].aes = a;
            idx[k] = (uint32_t)i;
            k++;
        }
        /* each wipes its secrets: MAC chains, S0, keystream, payload
         * tails (heads, nonces and counters are public) */
        if (k && fusable)
            cc_chunk_fused(m, idx, st, l, k, open, aad_passes, one, nh_min);
        else if (k)
            cc_chunk_lanes(m, idx, st, l, k, open);
    }
    if (ns)
        cc_short_group(sp, (const uint8_t (*)[32])sh, stake, ns, sa, open);
}

/* The common case: every message passes the single call's checks
 * (ak_mo_ccm_checks) and the batch keeps the rule by the quick test
 * (batch.h, mo_quick), decided in one pass with no status written (as
 * mo_ivq decides CTR's and CBC's).  Per message: the key object where it
 * differs from the previous message's (NULL or not set up leaves the
 * common case), the nonce and tag lengths and the length field's limit;
 * out (when len > 0) and a seal's tag in increasing address order, each
 * kind's end kept (its start is its first span's, cc_quick_passed); in
 * (unless in place), the nonce, the AAD and an open's tag into hulls.  A
 * NULL pointer with something to point at starts its span at 0, below
 * every other: in an ordered kind it is out of order unless first, and
 * a kind whose start is 0 leaves the common case.  A message's own
 * overlap checks (out against in unless equal; tag, AAD and nonce
 * against out) are spans of different kinds, which the quick test keeps
 * apart.  Every address and length here is public. */
typedef struct cc_quick {
    const aeskit_aes_key *key; /* the last key object checked */
    uintptr_t out_hi, tag_hi;  /* the ordered kinds' ends so far (0: none yet) */
    mo_span in, nonce, aad, tag; /* input hulls (tag: an open's) */
} cc_quick;

static inline __attribute__((always_inline)) void cc_quick_init(cc_quick *q)
{
    /* no key object of the caller's lies in this frame, so the first
     * message's key, NULL included, differs from it and is checked */
    q->key = (const aeskit_aes_key *)(const void *)q;
    q->out_hi = q->tag_hi = 0;
    q->in = q->nonce = q->aad = q->tag = mo_span_none();
}

static inline __attribute__((always_inline)) mo_span cc_hull(mo_span h, const void *p, size_t n)
{
    const mo_span s = {(uintptr_t)p, (uintptr_t)p + n};
    return mo_hull_add(h, s);
}

/* One message into the pass: 0 if it leaves the common case. */
static inline __attribute__((always_inline)) int cc_quick_add(cc_quick *q, const aeskit_ccm_msg *mm,
                                                              const int open)
{
    if (MO_UNLIKELY(mm->key != q->key)) {
        if (!mm->key || !ak_mo_ready((const ak_aes *)mm->key, AK_MAGIC_AES))
            return 0;
        q->key = mm->key;
    }
    const size_t nl = mm->nonce_len, len = mm->len, tl = mm->tag_len;
    if (nl - 7 > 6 || !MO_TAG_OK(MO_CCM_TAG_SET, tl))
        return 0;
    if (nl > 7 && ((uint64_t)len >> (8 * (15 - nl))) != 0) /* q = 15 - nl < 8 */
        return 0;
    if (len) {
        const uintptr_t o = (uintptr_t)mm->out;
        if (MO_UNLIKELY(o < q->out_hi))
            return 0;
        q->out_hi = o + len;
        if (mm->in != mm->out)
            q->in = cc_hull(q->in, mm->in, len);
    }
    if (open) {
        q->tag = cc_hull(q->tag, mm->tag, tl);
    } else {
        const uintptr_t t = (uintptr_t)mm->tag;
        if (MO_UNLIKELY(t < q->tag_hi))
            return 0;
        q->tag_hi = t + tl;
    }
    q->nonce = cc_hull(q->nonce, mm->nonce, nl); /* nl >= 7 */
    if (mm->aad_len)
        q->aad = cc_hull(q->aad, mm->aad, mm->aad_len);
    return 1;
}

/* 1 if the pass over all n messages m[0 .. n) passed the quick test. */
static inline __attribute__((always_inline)) int cc_quick_passed(const cc_quick *q, const aeskit_ccm_msg *m,
                                                                 size_t n, const int open)
{
    size_t f = 0; /* the first message with data */
    while (f < n && m[f].len == 0)
        f++;
    mo_quick t;
    mo_quick_init(&t);
    if (f < n)
        t.a = (mo_span){(uintptr_t)m[f].out, q->out_hi};
    if (!open && n)
        t.b = (mo_span){(uintptr_t)m[0].tag, q->tag_hi};
    t.in[0] = q->in;
    t.in[1] = q->nonce;
    t.in[2] = q->aad;
    t.in[3] = q->tag;
    if ((t.a.lo == 0) | (t.b.lo == 0) | (t.in[0].lo == 0) | (t.in[1].lo == 0) | (t.in[2].lo == 0) |
        (t.in[3].lo == 0))
        return 0;
    return mo_quick_passed(&t, m, n * sizeof *m);
}

/* The general path: the single call's checks for every message, then the
 * exact check of the rule (batch.h). */
static MO_NOINLINE aeskit_status cc_batch_general(aeskit_ccm_msg *m, size_t n, const int open)
{
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
    if (open)
        cc_run(m, n, 1, 0);
    else
        cc_run(m, n, 0, 0);
    return mo_batch_result(m, n, cc_status);
}

/* Always inlined into the two entries, so open is a constant. */
static inline __attribute__((always_inline)) aeskit_status ccm_batch(aeskit_ccm_msg *m, size_t n, const int open)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    cc_quick q;
    cc_quick_init(&q);
    size_t i = 0;
    while (i < n && cc_quick_add(&q, &m[i], open))
        i++;
    if (MO_LIKELY(i == n && cc_quick_passed(&q, m, n, open))) {
        cc_run(m, n, open, 1);
        /* an open's failures are its only statuses */
        return open ? mo_batch_result(m, n, cc_status) : AESKIT_OK;
    }
    return cc_batch_general(m, n, open);
}

aeskit_status aeskit_ccm_seal_batch(aeskit_ccm_msg *m, size_t n)
{
    return ccm_batch(m, n, 0);
}

aeskit_status aeskit_ccm_open_batch(aeskit_ccm_msg *m, size_t n)
{
    return ccm_batch(m, n, 1);
}
