/*
 * batch_gcm.c - GCM seal/open and GMAC over arrays of messages
 * (include/aeskit.h, "Batches").  Portable C11; no CPU features needed.
 *
 * The common case (every message a 12-byte IV and a 16-byte tag, keys of
 * one backend, buffers laid out so that batch.h's quick test decides the
 * overlap rule) is decided in one pass over the caller's descriptors and
 * handed to the backend's gcm_batch hook as it is (src/internal.h), or to
 * its gcm_msgs; see "the common case" below.  Anything else takes the
 * general path, which decides everything itself:
 * each message is checked by the one-shot checks (the common case's
 * inline from gcm_msg.h, the rest by gcm.c), then the whole batch by the
 * cross-message overlap rule (batch.h: the quick one-pass test, and the
 * exact check only when that cannot decide); the checked messages go to
 * the backends as ak_gcm_msg descriptors, a stack chunk at a time, every
 * run of consecutive descriptors of one backend (and, for the backend's
 * own kernel, 96-bit IVs) in one gcm_msgs call.  Afterwards the tags are
 * truncated or compared and a failed open's output zeroed or restored, by
 * gcm.c's code, so the protocol exists once.
 */
#include "batch.h"
#include "gcm_msg.h"

enum { GB_SEAL = 0, GB_OPEN = 1, GB_GMAC = 2, GB_GMAC_VERIFY = 3 };

/* The spans of each mode, outputs first:
 *   seal  out, tag | in, iv, aad     open  out | in, tag, iv, aad
 *   gmac  tag | iv, aad              gmac verify  (none) | tag, iv, aad */
static inline void gb_spans(const aeskit_gcm_msg *m, int writes_tag, int has_data, mo_span *s)
{
    unsigned k = 0, nk = (unsigned)(has_data ? 5 : 3);
    if (m->status != AESKIT_OK) {
        for (; k < nk; k++)
            s[k] = mo_span_none();
        return;
    }
    if (has_data)
        s[k++] = mo_span_of(m->out, m->len);
    if (writes_tag)
        s[k++] = mo_span_of(m->tag, m->tag_len);
    if (has_data)
        s[k++] = mo_span_of(m->in, m->len);
    if (!writes_tag)
        s[k++] = mo_span_of(m->tag, m->tag_len);
    s[k++] = mo_span_of(m->iv, m->iv_len);
    s[k] = mo_span_of(m->aad, m->aad_len);
}

static void gb_spans_seal(const void *d, size_t i, mo_span *s)
{
    gb_spans((const aeskit_gcm_msg *)d + i, 1, 1, s);
}
static void gb_spans_open(const void *d, size_t i, mo_span *s)
{
    gb_spans((const aeskit_gcm_msg *)d + i, 0, 1, s);
}
static void gb_spans_gmac(const void *d, size_t i, mo_span *s)
{
    gb_spans((const aeskit_gcm_msg *)d + i, 1, 0, s);
}
static void gb_spans_gmac_verify(const void *d, size_t i, mo_span *s)
{
    gb_spans((const aeskit_gcm_msg *)d + i, 0, 0, s);
}

static aeskit_status gb_status(const void *d, size_t i)
{
    return ((const aeskit_gcm_msg *)d)[i].status;
}

/* One message's own checks, those of the single call of its mode: the
 * common case (12-byte IV, 16-byte tag) inline, as the one-shot entries
 * make it, anything else through gcm.c's general checks, which name the
 * exact error. */
static MO_NOINLINE aeskit_status gb_check_general(const aeskit_gcm_msg *m, int data,
                                                  const uint8_t *none)
{
    if (data)
        return ak_mo_gcm_msg_check(m, m->in, m->len, m->out);
    aeskit_status st = ak_mo_gcm_msg_check(m, none, 0, none);
    if (st == AESKIT_OK && m->len != 0)
        st = AESKIT_ERR_LENGTH;
    return st;
}

static inline __attribute__((always_inline)) aeskit_status
gb_check(const aeskit_gcm_msg *m, int data, const uint8_t *none)
{
    const uint8_t *in = data ? m->in : none;
    const uint8_t *out = data ? m->out : none;
    size_t len = data ? m->len : 0;
    if (MO_LIKELY(m->iv_len == 12 && m->tag_len == 16 && (data || m->len == 0) &&
                  gcm_fast_args((const ak_gcm_key *)m->key, m->iv, m->aad, m->aad_len, in, len,
                                out, m->tag)))
        return AESKIT_OK;
    return gb_check_general(m, data, none);
}

/* The descriptor of checked message m (tag left to the caller): a 12-byte
 * IV inline, any other through gcm.c (J0 = GHASH of the IV). */
static inline __attribute__((always_inline)) void
gb_desc(ak_gcm_msg *d, const aeskit_gcm_msg *m, uint32_t dir, int data, const uint8_t *none)
{
    const uint8_t *in = data ? m->in : none;
    uint8_t *out = data ? m->out : (uint8_t *)(uintptr_t)none;
    size_t len = data ? m->len : 0;
    if (MO_LIKELY(m->iv_len == 12)) {
        gcm_msg_init(d, (const ak_gcm_key *)m->key, dir | AK_GCM_J0_IV12, m->aad, m->aad_len, in,
                     len, out);
        mo_iv12_block(d->j0, m->iv, 1);
        return;
    }
    ak_mo_gcm_msg_from(d, m, dir, in, len, out);
}

/* Runs k descriptors: consecutive runs of one backend and one J0 form go
 * to one kernel call (descriptors of one call may name different keys). */
static void gb_run(ak_gcm_msg *d, size_t k)
{
    size_t j = 0;
    while (j < k) {
        const ak_backend *be = d[j].aes->be;
        uint32_t iv12 = d[j].flags & AK_GCM_J0_IV12;
        size_t e = j + 1;
        while (e < k && d[e].aes->be == be && (d[e].flags & AK_GCM_J0_IV12) == iv12)
            e++;
        if (MO_LIKELY(iv12))
            be->gcm_msgs(d + j, e - j);
        else
            ak_gcm_msgs_primitives(d + j, e - j);
        j = e;
    }
}

/* ---- gcm_batch from the primitives -------------------------------------- */
/*
 * The gcm_batch of a backend without a multi-message kernel whose
 * ecb_encrypt pays per call far more than per block (bitsliced, vector
 * permutes): consecutive short messages under one key object share
 * ecb_encrypt calls.  Each message's blocks E_K(J0), E_K(inc32(J0)), ...
 * (J0 = IV || 0^31 || 1, SP 800-38D 7.1; at most the backend's
 * gcm_gather_max bytes of data, at most GB_GATHER_DATA blocks, so the
 * counter's low word never wraps) go side by side into a
 * stack buffer of MO_GATHER blocks, one ecb_encrypt turns them all into
 * keystream, and each message then XORs its data, hashes [A, zero
 * padded][C, zero padded][length block] in one ghash call from a buffer of
 * its own and XORs E_K(J0) in for its tag (SP 800-38D 7.1 steps 4-6).
 * Other messages go one at a time through the backend's gcm_msgs.
 *
 * Order: every message's IV is read when the group's counters are built,
 * before any output; a message's AAD and input are copied before its
 * output and tag are written (a tag may overlap its own in or aad, out may
 * be in); outputs of one message meet no buffer of another (the batch
 * rule).  Constant time: branches on lengths, counts and key pointers;
 * the keystream and the hash state are wiped (b holds the AAD and the
 * ciphertext when the hash reads it: a seal's plaintext copy is
 * overwritten in place).
 */
#define GB_GATHER_DATA (AK_GCM_GATHER_LIMIT / 16) /* data blocks of a message that shares, at most */
#define GB_GATHER_AAD 512 /* AAD bytes of a message that shares */
_Static_assert(1 + GB_GATHER_DATA <= MO_GATHER, "one message fits the keystream buffer");

/* max: the backend's gcm_gather_max (gb_gather_max) */
static inline int gb_gathers(const aeskit_gcm_msg *m, size_t max)
{
    return m->len <= max && m->aad_len <= GB_GATHER_AAD;
}

/* ak_backend.gcm_gather_max, 0 read as AK_GCM_GATHER_LIMIT */
static inline size_t gb_gather_max(const ak_backend *be)
{
    const size_t v = be->gcm_gather_max;
    return v && v < AK_GCM_GATHER_LIMIT ? v : AK_GCM_GATHER_LIMIT;
}

/* Message m of direction open, its keystream ks[0] = E_K(J0), ks[1..]
 * the data's; its full tag to tag. */
static void gb_gather_msg(const aeskit_gcm_msg *m, const uint8_t (*ks)[16], int open, uint8_t *tag)
{
    const ak_gcm_key *g = (const ak_gcm_key *)(const void *)m->key;
    const size_t len = m->len, na = (m->aad_len + 15) / 16, nbp = (len + 15) / 16;
    AESKIT_ALIGN(16) uint8_t b[16 * (GB_GATHER_AAD / 16 + GB_GATHER_DATA + 1)], Y[16] = {0};
    const size_t nh = na + nbp + 1;
    memset(b, 0, 16 * nh);
    if (m->aad_len)
        memcpy(b, m->aad, m->aad_len);
    uint8_t *c = b + 16 * na;
    if (len) {
        /* c: a copy of the input; an open hashes it, a seal overwrites it
         * with the ciphertext (the output is written from c after all
         * reads) */
        memcpy(c, m->in, len);
        const size_t whole = len / 16, rem = len % 16;
        uint8_t *o = open ? m->out : c;
        for (size_t j = 0; j < whole; j++)
            ak_xor16(o + 16 * j, c + 16 * j, ks[1 + j]);
        for (size_t i = 0; i < rem; i++)
            o[16 * whole + i] = (uint8_t)(c[16 * whole + i] ^ ks[1 + whole][i]);
        if (!open)
            memcpy(m->out, c, len);
    }
    ak_store_be64(b + 16 * (na + nbp), (uint64_t)m->aad_len * 8);
    ak_store_be64(b + 16 * (na + nbp) + 8, (uint64_t)len * 8);
    g->aes.be->ghash(&g->gh, Y, b, nh);
    ak_xor16(tag, Y, ks[0]);
    mo_wipe(Y, sizeof Y);
}

size_t ak_gcm_batch_primitives(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    const int open = (dir & AK_GCM_OPEN) != 0;
    uint8_t none[64] = {0}; /* gb_desc's stand-in buffer (GMAC) */
    AESKIT_ALIGN(16) uint8_t ks[MO_GATHER][16];
    size_t most = 0, i = 0;
    while (i < n) {
        const aeskit_gcm_msg *m0 = &m[i];
        const ak_gcm_key *g = (const ak_gcm_key *)(const void *)m0->key;
        const size_t max = gb_gather_max(g->aes.be);
        if (!gb_gathers(m0, max)) {
            ak_gcm_msg d;
            gb_desc(&d, m0, dir & AK_GCM_OPEN, m0->len != 0, none + 32); /* len 0: in and out not valid */
            d.tag = T ? T[i] : m0->tag;
            g->aes.be->gcm_msgs(&d, 1);
            i++;
            continue;
        }
        /* the group: m[i .. j) under m0's key object, their counters */
        size_t used = 0, j = i;
        while (j < n && m[j].key == m0->key && gb_gathers(&m[j], max)) {
            const uint32_t nb = (uint32_t)((m[j].len + 15) / 16);
            if (used + 1 + nb > MO_GATHER)
                break;
            for (uint32_t b = 0; b <= nb; b++)
                mo_iv12_block(ks[used + b], m[j].iv, 1 + b);
            used += 1 + nb;
            j++;
        }
        g->aes.be->ecb_encrypt(&g->aes, ks[0], ks[0], used);
        most = used > most ? used : most;
        for (size_t off = 0; i < j; i++) {
            gb_gather_msg(&m[i], (const uint8_t (*)[16])ks + off, open, T ? T[i] : m[i].tag);
            off += 1 + (m[i].len + 15) / 16;
        }
    }
    if (most) /* the keystream */
        mo_wipe(ks, most * 16);
    return n;
}

/* Checked message m into the quick test (batch.h), by mode (a constant):
 * kind a is out (seal, open) or the tag (GMAC), kind b a seal's tag. */
static inline __attribute__((always_inline)) void gb_quick_add(mo_quick *q, const aeskit_gcm_msg *m,
                                                               int mode)
{
    mo_span tag = mo_span_of(m->tag, m->tag_len);
    if (mode == GB_SEAL || mode == GB_OPEN) {
        mo_quick_out_a(q, mo_span_of(m->out, m->len));
        if (m->in != m->out)
            mo_quick_in(q, 0, mo_span_of(m->in, m->len));
    }
    if (mode == GB_SEAL)
        mo_quick_out_b(q, tag);
    else if (mode == GB_GMAC)
        mo_quick_out_a(q, tag);
    else
        mo_quick_in(q, 1, tag);
    mo_quick_in(q, 2, mo_span_of(m->iv, m->iv_len));
    mo_quick_in(q, 3, mo_span_of(m->aad, m->aad_len));
}

/* The exact check of the rule (batch.h), by mode. */
static MO_NOINLINE int gb_disjoint_exact(const aeskit_gcm_msg *m, size_t n, int mode)
{
    switch (mode) { /* constant function pointers, so each check is inlined */
    case GB_SEAL: return mo_batch_disjoint(m, n, sizeof *m, gb_spans_seal, 2, 5);
    case GB_OPEN: return mo_batch_disjoint(m, n, sizeof *m, gb_spans_open, 1, 5);
    case GB_GMAC: return mo_batch_disjoint(m, n, sizeof *m, gb_spans_gmac, 1, 3);
    default: return mo_batch_disjoint(m, n, sizeof *m, gb_spans_gmac_verify, 0, 3);
    }
}

/* The whole batch, one pass per step: each message's own checks and its
 * spans into the overlap scan; the cross-message rule; per chunk the
 * descriptors (one kernel call when they all belong to one backend's own
 * kernel), then tags truncated or compared.  The first failure is tracked
 * on the way, so the result needs no last pass.  Always inlined into the
 * four entries, so the mode is a constant. */
static inline __attribute__((always_inline)) aeskit_status gcm_batch_general(aeskit_gcm_msg *m, size_t n,
                                                                             const int mode)
{
    /* GMAC hands the kernels an empty message in a small mapped buffer, as
     * aeskit_gmac does (gcm.c: a masked access next to NULL is slow). */
    uint8_t none[64] = {0};
    const int data = mode == GB_SEAL || mode == GB_OPEN;
    const int verify = mode == GB_OPEN || mode == GB_GMAC_VERIFY;
    size_t good = 0, first = n; /* the first failing message */
    for (size_t i = 0; i < n; i++) {
        aeskit_status st = gb_check(&m[i], data, none + 32);
        m[i].status = st;
        good += st == AESKIT_OK;
        if (MO_UNLIKELY(st != AESKIT_OK) && first == n)
            first = i;
    }
    /* The quick test in a loop of its own: beside the checks its hulls
     * would not stay in registers. */
    mo_quick q;
    mo_quick_init(&q);
    for (size_t i = 0; i < n; i++)
        if (MO_LIKELY(m[i].status == AESKIT_OK))
            gb_quick_add(&q, &m[i], mode);
    int disjoint = mo_quick_passed(&q, m, n * sizeof *m) || gb_disjoint_exact(m, n, mode);
    if (MO_UNLIKELY(!disjoint)) {
        for (size_t i = 0; i < n; i++)
            if (m[i].status == AESKIT_OK)
                m[i].status = AESKIT_ERR_OVERLAP;
        return mo_batch_result(m, n, gb_status);
    }
    if (!good)
        return mo_batch_result(m, n, gb_status);

    const uint32_t dir = verify ? AK_GCM_OPEN : 0;
    for (size_t base = 0; base < n; base += MO_BATCH_CHUNK) {
        size_t end = n - base < MO_BATCH_CHUNK ? n : base + MO_BATCH_CHUNK;
        ak_gcm_msg d[MO_BATCH_CHUNK];
        AESKIT_ALIGN(16) uint8_t T[MO_BATCH_CHUNK][16];
        uint32_t idx[MO_BATCH_CHUNK];
        size_t k = 0, nshort = 0; /* seal tags shorter than 16 bytes (through T) */
        const ak_backend *be = NULL;
        int one = 1; /* every descriptor for be's own kernel */
        for (size_t i = base; i < end; i++) {
            aeskit_gcm_msg *mm = &m[i];
            if (mm->status != AESKIT_OK)
                continue;
            gb_desc(&d[k], mm, dir, data, none + 32);
            /* A full seal tag goes straight to the caller, as in gcm.c:
             * the kernel writes it after reading every input. */
            int direct = !verify && mm->tag_len == 16;
            d[k].tag = direct ? mm->tag : T[k];
            nshort += !verify && !direct;
            if (!be)
                be = d[k].aes->be;
            one &= d[k].aes->be == be && (d[k].flags & AK_GCM_J0_IV12) != 0;
            idx[k] = (uint32_t)(i - base);
            k++;
        }
        if (MO_LIKELY(one && k))
            be->gcm_msgs(d, k);
        else
            gb_run(d, k);
        if (!verify && !nshort)
            continue; /* every tag written in place: nothing in T */
        for (size_t j = 0; j < k; j++) {
            aeskit_gcm_msg *mm = &m[base + idx[j]];
            if (!verify) {
                if (mm->tag_len != 16)
                    mo_copy_tag(mm->tag, T[j], mm->tag_len);
                continue;
            }
            uint32_t eq = ak_ct_eq_mask(T[j], mm->tag, mm->tag_len);
            if (!eq) {
                mm->status = ak_mo_gcm_msg_open_fail(&d[j]);
                if (base + idx[j] < first)
                    first = base + idx[j];
            }
        }
        mo_wipe(T, k * 16); /* expected tags would forge their messages */
    }
    return first < n ? m[first].status : AESKIT_OK;
}

/* The general path of each mode, for whatever the common case below
 * does not take. */
static MO_NOINLINE aeskit_status gb_general(aeskit_gcm_msg *m, size_t n, int mode)
{
    switch (mode) {
    case GB_SEAL: return gcm_batch_general(m, n, GB_SEAL);
    case GB_OPEN: return gcm_batch_general(m, n, GB_OPEN);
    case GB_GMAC: return gcm_batch_general(m, n, GB_GMAC);
    default: return gcm_batch_general(m, n, GB_GMAC_VERIFY);
    }
}

/* ---- the common case --------------------------------------------------------
 *
 * Every message with a 12-byte IV and a 16-byte tag, lengths below 2^32
 * (GMAC: len 0), keys of one backend, and the quick test of the
 * cross-message rule (batch.h) passing.  That is decided in one pass over
 * the caller's descriptors, which is all the common case reads of them
 * before the kernel:
 *   - per message only what no hull can show: the key (NULL, set up for
 *     GCM, its backend; once per run of one key object), the two fixed
 *     lengths, the length bounds;
 *   - its spans into the quick test, as gb_quick_add (gb_common_out, _in);
 *   - at the end, the quick test, and NULL from the hulls: a non-empty span
 *     of a NULL pointer starts at 0, so it is the lowest of its kind.
 * The quick test passing implies every message's own overlap checks
 * (gcm_checks): its out against its in (unless in place), its tag, IV and
 * AAD are spans of other kinds, whose hulls met no output hull.  Hence
 * when the pass succeeds every message passes its own checks and the batch
 * keeps the rule: the status of each is AESKIT_OK, as the general path
 * would find.  When it fails at any point, the general path starts over
 * and decides everything (statuses included) itself.
 *
 * Then the checked descriptors go to the backend: straight from the
 * caller's array through its gcm_batch hook where it has one, else as
 * ak_gcm_msg descriptors for gcm_msgs, a stack chunk at a time.  Opens and
 * verifies take expected tags a chunk at a time; a seal's 16-byte tag is
 * written in place. */

/* The common case's spans of message m, in two halves: the outputs (kinds
 * a and b of the quick test) and the tag, then the other inputs, as
 * gb_quick_add, but with
 * the lengths the first half checked: a 16-byte tag, a 12-byte IV.  Two
 * passes over the descriptors instead of one: the hulls of one pass then
 * stay in registers (one pass spills them). */
/* Output span [lo, lo + len) into its kind's hull, 0 if it is not above the
 * previous ones (the quick test's order, as a branch: the whole common
 * case gives up, and a flag kept in a register would cost a setcc and an
 * and per span).  While the spans come in order the hull's end is the end
 * of the last non-empty one and its start that of the first, so the pass
 * keeps only the end (hi) and gb_common sets the start afterwards
 * (gb_common_lo).  No buffer wraps the address space, so lo + len is above
 * lo. */
static inline __attribute__((always_inline)) int gb_out_add(uintptr_t *hi, const void *p, size_t len)
{
    uintptr_t lo = (uintptr_t)p;
    if (!len)
        return 1;
    if (MO_UNLIKELY(lo < *hi))
        return 0;
    *hi = lo + len;
    return 1;
}

static inline __attribute__((always_inline)) int gb_common_out(mo_quick *q, const aeskit_gcm_msg *m,
                                                               int mode, size_t len)
{
    if ((mode == GB_SEAL || mode == GB_OPEN) && !gb_out_add(&q->a.hi, m->out, len))
        return 0;
    if (mode == GB_SEAL)
        return gb_out_add(&q->b.hi, m->tag, 16);
    if (mode == GB_GMAC)
        return gb_out_add(&q->a.hi, m->tag, 16);
    /* an expected tag: an input, here to even out the two passes */
    mo_quick_in(q, 1, (mo_span){(uintptr_t)m->tag, (uintptr_t)m->tag + 16});
    return 1;
}

/* The starts of the output hulls after pass 1 (gb_out_add): the first
 * non-empty span of each kind; none for a kind without one. */
static inline __attribute__((always_inline)) void gb_common_lo(mo_quick *q, const aeskit_gcm_msg *m,
                                                               size_t n, int mode)
{
    if (mode == GB_SEAL || mode == GB_OPEN) {
        for (size_t i = 0; i < n; i++)
            if (m[i].len) {
                q->a.lo = (uintptr_t)m[i].out;
                break;
            }
    }
    if (mode == GB_SEAL)
        q->b.lo = (uintptr_t)m[0].tag;
    if (mode == GB_GMAC)
        q->a.lo = (uintptr_t)m[0].tag;
}

/* len and aad_len: m's (the caller's constants in a uniform batch) */
static inline __attribute__((always_inline)) void gb_common_in(mo_quick *q, const aeskit_gcm_msg *m,
                                                               int mode, size_t len, size_t aad_len)
{
    if ((mode == GB_SEAL || mode == GB_OPEN) && m->in != m->out)
        mo_quick_in(q, 0, mo_span_of(m->in, len));
    /* the IVs' starts: gb_common adds the 12 bytes to the hull's end once */
    mo_quick_in(q, 2, (mo_span){(uintptr_t)m->iv, (uintptr_t)m->iv});
    mo_quick_in(q, 3, mo_span_of(m->aad, aad_len));
}

/* Pass 2 of gb_common: the other inputs into the quick test, statuses
 * set; uni: every message has the first one's len and aad_len.  A
 * function of its own, so that the output hulls of pass 1 wait in memory
 * and the input hulls have the registers. */
static inline __attribute__((always_inline)) void gb_common_inputs_mode(mo_quick *q, aeskit_gcm_msg *m,
                                                                       size_t n, const int mode, int uni)
{
    mo_quick t = *q;
    const size_t len0 = m[0].len, aad0 = m[0].aad_len;
    if (uni) {
        for (size_t i = 0; i < n; i++) {
            gb_common_in(&t, &m[i], mode, len0, aad0);
            m[i].status = AESKIT_OK;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            gb_common_in(&t, &m[i], mode, m[i].len, m[i].aad_len);
            m[i].status = AESKIT_OK;
        }
    }
    for (unsigned k = 0; k < MO_QUICK_INPUTS; k++)
        q->in[k] = t.in[k];
}

static MO_NOINLINE void gb_common_inputs(mo_quick *q, aeskit_gcm_msg *m, size_t n, int mode, int uni)
{
    switch (mode) { /* each mode's loop with its constant */
    case GB_SEAL: gb_common_inputs_mode(q, m, n, GB_SEAL, uni); break;
    case GB_OPEN: gb_common_inputs_mode(q, m, n, GB_OPEN, uni); break;
    case GB_GMAC: gb_common_inputs_mode(q, m, n, GB_GMAC, uni); break;
    default: gb_common_inputs_mode(q, m, n, GB_GMAC_VERIFY, uni); break;
    }
}

/* 1 if key is a GCM key object that is set up, of backend be. */
static inline int gb_key_of(const aeskit_gcm_key *key, const ak_backend *be)
{
    const ak_gcm_key *g = (const ak_gcm_key *)key;
    return g && ak_mo_ready(&g->aes, AK_MAGIC_GCM) && g->aes.be == be;
}

/* The common case's last step once every span is in q: no hull starting
 * at 0 (a NULL pointer with something to point at) and the quick test of
 * the rule (batch.h) against the n descriptors at m. */
static inline __attribute__((always_inline)) int gb_quick_final(const mo_quick *q, const aeskit_gcm_msg *m,
                                                                size_t n)
{
    int z = (q->a.lo == 0) | (q->b.lo == 0);
    for (unsigned k = 0; k < MO_QUICK_INPUTS; k++)
        z |= q->in[k].lo == 0;
    return !z && mo_quick_passed(q, m, n * sizeof *m);
}

/* The common case decided by the backend's gcm_batch_scan (src/internal.h)
 * for a seal or open batch whose first message's key object (of backend
 * be), len and aad_len gb_common has checked: 1 if it takes the batch (as
 * gb_common), 0 if the scalar passes must decide.  The scan checks each
 * message's lengths and the order of its outputs and folds the inputs
 * into their hulls; here the quick test's last step (batch.h), the NULL
 * starts, and the key objects other than the first one. */
_Static_assert(AK_GCM_SCAN_INPUTS == MO_QUICK_INPUTS, "the input kinds of gb_quick_add");

static MO_NOINLINE int gb_scanned(aeskit_gcm_msg *m, size_t n, int mode, const ak_backend *be, uint32_t *uniform)
{
    ak_gcm_scan s;
    if (!be->gcm_batch_scan(m, n, mode == GB_OPEN, &s))
        return 0;
    mo_quick q;
    mo_quick_init(&q);
    q.a = (mo_span){(uintptr_t)m[0].out, s.out_end};
    if (mode == GB_SEAL)
        q.b = (mo_span){(uintptr_t)m[0].tag, s.tag_end};
    for (unsigned k = 0; k < MO_QUICK_INPUTS; k++)
        q.in[k] = (mo_span){s.in_lo[k], s.in_hi[k]};
    if (!gb_quick_final(&q, m, n))
        return 0;
    if (s.other_keys) {
        const aeskit_gcm_key *prev = m[0].key;
        for (size_t i = 1; i < n; i++) {
            if (m[i].key == prev)
                continue;
            if (!gb_key_of(m[i].key, be))
                return 0;
            prev = m[i].key;
        }
    }
    *uniform = s.uniform ? AK_GCM_UNIFORM : 0;
    return 1;
}

/* 1 if the common case takes the batch (statuses set to AESKIT_OK, the
 * backend in *bep, in *uniform AK_GCM_UNIFORM if every message has the
 * first one's key, len and aad_len, else 0); 0 if not (statuses
 * unspecified). */
static inline __attribute__((always_inline)) int gb_common(aeskit_gcm_msg *m, size_t n, const int mode,
                                                           const ak_backend **bep, uint32_t *uniform)
{
    const int data = mode == GB_SEAL || mode == GB_OPEN;
    if (!n)
        return 0;
    mo_quick q;
    mo_quick_init(&q);
    /* the first message's key, and the bounds of its lengths (GMAC: len
     * must be 0; any length below 2^32 otherwise) */
    const aeskit_gcm_key *const key0 = m[0].key;
    const ak_gcm_key *g0 = (const ak_gcm_key *)key0;
    if (!g0 || !ak_mo_ready(&g0->aes, AK_MAGIC_GCM))
        return 0;
    const ak_backend *const be = g0->aes.be;
    const size_t len0 = m[0].len, aad0 = m[0].aad_len;
    if ((((uint64_t)(len0 | aad0)) >> 32) != 0 || (!data && len0))
        return 0;
    if (data && be->gcm_batch_scan && gb_scanned(m, n, mode, be, uniform)) {
        *bep = be;
        return 1;
    }
    /* pass 1: keys, lengths, outputs, tags; first the uniform prefix, the
     * messages of the first one's key object, len and aad_len (checked
     * above), then the rest */
    size_t i = 0;
    for (; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        if (MO_UNLIKELY(mm->key != key0 || mm->len != len0 || mm->aad_len != aad0))
            break;
        if (MO_UNLIKELY(mm->iv_len != 12 || mm->tag_len != 16))
            return 0;
        if (MO_UNLIKELY(!gb_common_out(&q, mm, mode, len0)))
            return 0;
    }
    const int uni = i == n;
    const aeskit_gcm_key *prev = key0;
    for (; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        if (MO_UNLIKELY(mm->key != prev)) {
            if (!gb_key_of(mm->key, be))
                return 0;
            prev = mm->key;
        }
        uint64_t bad = (uint64_t)(mm->iv_len ^ 12) | (uint64_t)(mm->tag_len ^ 16) |
                       ((uint64_t)(mm->len | mm->aad_len) >> 32);
        if (!data)
            bad |= mm->len;
        if (MO_UNLIKELY(bad != 0))
            return 0;
        if (MO_UNLIKELY(!gb_common_out(&q, mm, mode, mm->len)))
            return 0;
    }
    gb_common_lo(&q, m, n, mode);
    gb_common_inputs(&q, m, n, mode, uni);
    q.in[2].hi += 12; /* n >= 1 IVs of 12 bytes */
    if (!gb_quick_final(&q, m, n))
        return 0;
    *bep = be;
    *uniform = uni ? AK_GCM_UNIFORM : 0;
    return 1;
}

/* 1 if every expected tag T[j] equals its message's tag c[j].tag (16
 * bytes each, the common case's tag_len), in one pass without a branch on
 * the data; only the all-or-not answer is made public.  When it is 1, T
 * holds nothing the caller did not pass in (each T[j] is its message's own
 * received tag), so it needs no wipe; when 0, the caller compares each
 * message alone and wipes T. */
static inline __attribute__((always_inline)) int gb_tags_match(const uint8_t (*T)[16], const aeskit_gcm_msg *c,
                                                               size_t k)
{
    mo_v2u64 d = {0, 0};
    for (size_t j = 0; j < k; j++) {
        mo_v2u64 x, y;
        memcpy(&x, T[j], 16);
        memcpy(&y, c[j].tag, 16);
        d |= x ^ y;
    }
    uint64_t z = d[0] | d[1];
    uint32_t all = (uint32_t)((z | (0 - z)) >> 63) ^ 1u;
    AK_DECLASSIFY(&all, sizeof all);
    return (int)all;
}

/* The common case after gb_common: the kernels, then the tags of an open
 * or verify compared: all at once, and one by one only when some differ. */
static inline __attribute__((always_inline)) aeskit_status gb_common_run(aeskit_gcm_msg *m, size_t n,
                                                                         const int mode,
                                                                         const ak_backend *be,
                                                                         uint32_t uniform)
{
    uint8_t none[64] = {0};
    const int data = mode == GB_SEAL || mode == GB_OPEN;
    const int verify = mode == GB_OPEN || mode == GB_GMAC_VERIFY;
    const uint32_t dir = verify ? AK_GCM_OPEN : 0;
    size_t done = 0; /* the messages a seal's or GMAC's gcm_batch computed */
    if (!verify && be->gcm_batch) {
        done = be->gcm_batch(m, n, dir | uniform, NULL);
        if (MO_LIKELY(done == n))
            return AESKIT_OK;
    }
    size_t first = n;
    for (size_t base = done; base < n; base += MO_BATCH_CHUNK) {
        size_t k = n - base < MO_BATCH_CHUNK ? n - base : MO_BATCH_CHUNK;
        aeskit_gcm_msg *c = m + base;
        AESKIT_ALIGN(16) uint8_t T[MO_BATCH_CHUNK][16];
        size_t j0 = verify && be->gcm_batch ? be->gcm_batch(c, k, dir | uniform, T) : 0;
        if (j0 < k) {
            ak_gcm_msg d[MO_BATCH_CHUNK];
            for (size_t j = j0; j < k; j++) {
                gb_desc(&d[j], &c[j], dir, data, none + 32);
                d[j].tag = verify ? T[j] : c[j].tag;
            }
            be->gcm_msgs(d + j0, k - j0);
        }
        if (!verify || gb_tags_match(T, c, k))
            continue;
        for (size_t j = 0; j < k; j++) {
            if (MO_LIKELY(ak_ct_eq_mask(T[j], c[j].tag, 16)))
                continue;
            ak_gcm_msg d;
            gb_desc(&d, &c[j], dir, data, none + 32);
            c[j].status = ak_mo_gcm_msg_open_fail(&d);
            if (base + j < first)
                first = base + j;
        }
        mo_wipe(T, k * 16); /* expected tags would forge their messages */
    }
    return first < n ? m[first].status : AESKIT_OK;
}

static inline __attribute__((always_inline)) aeskit_status gcm_batch(aeskit_gcm_msg *m, size_t n,
                                                                     const int mode)
{
    if (!m)
        return n ? AESKIT_ERR_NULL_POINTER : AESKIT_OK;
    const ak_backend *be;
    uint32_t uniform;
    if (MO_LIKELY(gb_common(m, n, mode, &be, &uniform)))
        return gb_common_run(m, n, mode, be, uniform);
    return gb_general(m, n, mode);
}

aeskit_status aeskit_gcm_seal_batch(aeskit_gcm_msg *m, size_t n)
{
    return gcm_batch(m, n, GB_SEAL);
}

aeskit_status aeskit_gcm_open_batch(aeskit_gcm_msg *m, size_t n)
{
    return gcm_batch(m, n, GB_OPEN);
}

aeskit_status aeskit_gmac_batch(aeskit_gcm_msg *m, size_t n)
{
    return gcm_batch(m, n, GB_GMAC);
}

aeskit_status aeskit_gmac_verify_batch(aeskit_gcm_msg *m, size_t n)
{
    return gcm_batch(m, n, GB_GMAC_VERIFY);
}
