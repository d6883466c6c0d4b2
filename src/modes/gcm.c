/*
 * gcm.c - GCM and GMAC (NIST SP 800-38D), one-shot and streaming.
 * Portable C11; no CPU features needed (the backend does AES and GHASH).
 *
 * The mode as SP 800-38D section 7 writes it:
 *   J0 = IV || 0^31 || 1                          if len(IV) = 96 bits,
 *      = GHASH_H(IV || 0^(s+64) || [len(IV)]_64)  otherwise;
 *   C  = GCTR_K(inc32(J0), P);
 *   S  = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64);
 *   T  = MSB_t(GCTR_K(J0, S)) = MSB_t(S ^ E_K(J0)).
 * The protocol is written here once for all backends: J0 from the IV, the
 * streaming state, tag truncation and comparison, and what a failed open
 * leaves in its output.  A one-shot message goes to the backend as an
 * ak_gcm_msg descriptor (src/internal.h) holding J0; the backend's gcm_msgs
 * kernel encrypts, hashes A, C and the length block, and writes the full
 * tag.  ak_gcm_msgs_primitives below is that kernel built from the
 * primitives - ctr32 (GCTR with inc32, wrapping modulo 2^32), ghash
 * (Y = (Y ^ X) * H per block) and the optional fused CTR+GHASH bulk kernels
 * (gcm_encrypt/gcm_decrypt) - for a backend without one of its own and for
 * every message whose IV is not 96 bits.
 *
 * Lengths: plaintext <= 2^36-32 bytes, AAD and IV <= 2^61-1 bytes, all kept
 * and compared as uint64_t with the subtraction on the constant side, so no
 * sum can overflow.
 */
#include "gcm_msg.h"

/* Blocks per CTR-then-GHASH step when the backend has no fused kernel:
 * 4 KiB, so the ciphertext GHASH reads is still in L1. */
#define GCM_CHUNK_BLOCKS 256
/* A one-pass message (ak_backend.gcm_one_pass_max) with AAD up to this
 * many bytes hashes the AAD in the same ghash call as the ciphertext. */
#define GCM_SMALL_AAD 64

/* ---- building blocks ------------------------------------------------------- */

static inline void ghash_padded(const ak_backend *be, const ak_ghash *gh, uint8_t Y[16],
                                const uint8_t *p, size_t n)
{
    size_t nb = n / 16, rem = n % 16;
    if (nb)
        be->ghash(gh, Y, p, nb);
    if (rem) {
        uint8_t blk[16] = {0};
        memcpy(blk, p + nb * 16, rem);
        be->ghash(gh, Y, blk, 1);
    }
}

/* [len(A)]_64 || [len(C)]_64 in bits, as one 16-byte store. */
static inline void len_block(uint8_t blk[16], uint64_t aad_len, uint64_t msg_len)
{
    mo_v2u64 v;
    v[0] = MO_BE64(aad_len * 8);
    v[1] = MO_BE64(msg_len * 8);
    memcpy(blk, &v, 16);
}

/* SP 800-38D 7.1 step 2 (iv_len already checked: 1 .. 2^61-1). */
static void gcm_j0(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len, uint8_t j0[16])
{
    if (MO_LIKELY(iv_len == 12)) {
        mo_iv12_block(j0, iv, 1);
        return;
    }
    uint8_t Y[16] = {0}, blk[16];
    ghash_padded(g->aes.be, &g->gh, Y, iv, iv_len);
    len_block(blk, 0, (uint64_t)iv_len); /* 0^64 || [len(IV)]_64 */
    g->aes.be->ghash(&g->gh, Y, blk, 1);
    memcpy(j0, Y, 16);
}

/* E_K(J0) into ekj0 and ctr = inc32(J0). */
static inline void gcm_ekj0(const ak_aes *aes, const uint8_t j0[16], uint8_t ekj0[16],
                            uint8_t ctr[16])
{
    memcpy(ctr, j0, 16);
    mo_ks32(aes, ekj0, ctr);
}

/* out = in XOR GCTR keystream from ctr, any len (restoring an in-place
 * buffer after a failed open: CTR is its own inverse). */
static void gcm_ctr_xor(const ak_aes *aes, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                        size_t len)
{
    size_t nb = len / 16, rem = len % 16;
    if (nb)
        aes->be->ctr32(aes, out, in, nb, ctr);
    if (rem) {
        uint8_t ks[16];
        mo_ks32(aes, ks, ctr);
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = in[nb * 16 + i] ^ ks[i];
        mo_wipe(ks, sizeof ks);
    }
}

/* Whole blocks: encrypt then hash the ciphertext. */
static void gcm_bulk_enc(const ak_aes *aes, const ak_ghash *gh, uint8_t *out, const uint8_t *in,
                         size_t nb, uint8_t ctr[16], uint8_t Y[16])
{
    const ak_backend *be = aes->be;
    if (be->gcm_encrypt) {
        be->gcm_encrypt(aes, gh, out, in, nb, ctr, Y);
        return;
    }
    while (nb) {
        size_t n = nb < GCM_CHUNK_BLOCKS ? nb : GCM_CHUNK_BLOCKS;
        be->ctr32(aes, out, in, n, ctr);
        be->ghash(gh, Y, out, n);
        in += n * 16;
        out += n * 16;
        nb -= n;
    }
}

/* Whole blocks: hash the ciphertext before it is overwritten (in-place),
 * then decrypt. */
static void gcm_bulk_dec(const ak_aes *aes, const ak_ghash *gh, uint8_t *out, const uint8_t *in,
                         size_t nb, uint8_t ctr[16], uint8_t Y[16])
{
    const ak_backend *be = aes->be;
    if (be->gcm_decrypt) {
        be->gcm_decrypt(aes, gh, out, in, nb, ctr, Y);
        return;
    }
    while (nb) {
        size_t n = nb < GCM_CHUNK_BLOCKS ? nb : GCM_CHUNK_BLOCKS;
        be->ghash(gh, Y, in, n);
        be->ctr32(aes, out, in, n, ctr);
        in += n * 16;
        out += n * 16;
        nb -= n;
    }
}

/* ---- the whole-message kernel from the primitives ---------------------------
 *
 * ak_gcm_msgs_primitives is the gcm_msgs of a backend without a kernel of its
 * own, and runs every message whose J0 is GHASH_H(IV) (flags without
 * AK_GCM_J0_IV12), which a backend's kernel may refuse.  It keeps no
 * assumption about J0: ctr32 wraps modulo 2^32 as inc32 does.
 *
 * Messages up to the backend's gcm_one_pass_max bytes go through one ctr32
 * call covering E_K(J0) and every data block, and one ghash call over [A,
 * zero padded][C, zero padded][length block] (A hashed apart when it
 * exceeds GCM_SMALL_AAD bytes): a bitsliced or vector-permute backend pays
 * per call more than per block, and one call ends in one reduction instead
 * of a chain of them.  Longer messages go through the bulk kernels, with
 * E_K(J0) and the tail's keystream block from one ecb_encrypt call. */
static void gcm_msg_primitives(ak_gcm_msg *m)
{
    const ak_aes *aes = m->aes;
    const ak_ghash *gh = m->gh;
    const ak_backend *be = aes->be;
    const uint8_t *in = m->in;
    uint8_t *out = m->out;
    const size_t len = m->len;
    const int open = (m->flags & AK_GCM_OPEN) != 0;
    uint8_t Y[16] = {0}, ctr[16];

    memcpy(ctr, m->j0, 16);

    const size_t one_pass = be->gcm_one_pass_max ? be->gcm_one_pass_max : AK_GCM_ONE_PASS_DEFAULT;
    if (len <= one_pass && len <= AK_GCM_ONE_PASS_LIMIT) {
        /* b = [A, zero padded][slot][data, zero padded][length block] for a
         * seal, [16 spare bytes][A, zero padded][data...][length block] for
         * an open: the counter run starts at s, the block before the data,
         * and ends as E_K(J0) there; GHASH reads b + 16 onwards.  An open
         * hashes first and then zeroes s (A's last block); a seal moves A
         * up over s after keeping E_K(J0).  A is read before out is
         * written, so AAD and output may overlap. */
        uint8_t b[16 + GCM_SMALL_AAD + AK_GCM_ONE_PASS_LIMIT + 16], ek0[16];
        size_t na = 0, nbp = (len + 15) / 16;
        if (m->aad_len <= GCM_SMALL_AAD)
            na = (m->aad_len + 15) / 16;
        else
            ghash_padded(be, gh, Y, m->aad, m->aad_len);
        uint8_t *s = b + 16 * na, *d = s + 16;
        const size_t nh = na + nbp + 1;
        memset(b, 0, 16 * (nh + 1));
        if (na)
            memcpy(open ? b + 16 : b, m->aad, m->aad_len);
        if (len)
            memcpy(d, in, len);
        len_block(d + 16 * nbp, m->aad_len, len);
        if (open) { /* hash C before the keystream overwrites it */
            be->ghash(gh, Y, b + 16, nh);
            memset(s, 0, 16);
        }
        be->ctr32(aes, s, s, 1 + nbp, ctr);
        if (len)
            memcpy(out, d, len);
        memcpy(ek0, s, 16);
        if (!open) {
            memset(d + len, 0, nbp * 16 - len); /* C || 0^u */
            memmove(b + 16, b, 16 * na);
            be->ghash(gh, Y, b + 16, nh);
        }
        ak_xor16(m->tag, Y, ek0);
        mo_wipe(b, 16 * (nh + 1));
        mo_wipe(ek0, sizeof ek0);
        return;
    }

    ghash_padded(be, gh, Y, m->aad, m->aad_len);
    /* E_K(J0) and, with a tail, the tail's keystream block (counter
     * inc32^(nb+1)(J0)) in one ecb_encrypt call: a bitsliced or
     * vector-permute backend pays per call more than per block. */
    uint8_t cb[2][16], ks[2][16], fin[32];
    size_t nb = len / 16, rem = len % 16;
    memcpy(cb[0], ctr, 16);
    if (rem) {
        memcpy(cb[1], ctr, 12);
        ak_store_be32(cb[1] + 12, ak_load_be32(ctr + 12) + (uint32_t)nb + 1);
    }
    be->ecb_encrypt(aes, ks[0], cb[0], rem ? 2 : 1);
    mo_inc32(ctr);
    if (open)
        gcm_bulk_dec(aes, gh, out, in, nb, ctr, Y);
    else
        gcm_bulk_enc(aes, gh, out, in, nb, ctr, Y);
    size_t nfin = 1;
    if (rem) {
        memset(fin, 0, 16);
        memcpy(fin, in + nb * 16, rem); /* read before out's tail is written */
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = fin[i] ^ ks[1][i];
        if (!open)
            memcpy(fin, out + nb * 16, rem); /* the ciphertext, zero padded */
        nfin = 2;
    }
    len_block(fin + (nfin - 1) * 16, m->aad_len, len);
    be->ghash(gh, Y, fin, nfin);
    ak_xor16(m->tag, Y, ks[0]);
    mo_wipe(ks, sizeof ks);
    mo_wipe(fin, sizeof fin);
}

void ak_gcm_msgs_primitives(ak_gcm_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gcm_msg_primitives(&m[i]);
}

/* ---- the protocol around the kernel ------------------------------------------
 *
 * Every one-shot message goes through these functions, the fast entry's and
 * the general path's alike, so the protocol is written once: J0 from the
 * IV, then the tag truncated (seal) or compared, and a failed open's output
 * zeroed or restored. */

/* The same with J0 from an IV of any checked length. */
static void gcm_msg_init_iv(ak_gcm_msg *m, const ak_gcm_key *g, uint32_t dir, const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                            size_t len, uint8_t *out)
{
    gcm_msg_init(m, g, dir | (iv_len == 12 ? AK_GCM_J0_IV12 : 0), aad, aad_len, in, len, out);
    gcm_j0(g, iv, iv_len, m->j0);
}

/* The backend's kernel where the descriptor allows it. */
static inline void gcm_msg_run(ak_gcm_msg *m)
{
    if (MO_LIKELY(m->flags & AK_GCM_J0_IV12))
        m->aes->be->gcm_msgs(m, 1);
    else
        ak_gcm_msgs_primitives(m, 1);
}

/* Seal: the first tag_len bytes of the full tag to the caller.  A full
 * tag goes straight there (the kernel writes it after reading every
 * input, and the checks keep it apart from out). */
static inline void gcm_msg_seal(ak_gcm_msg *m, uint8_t *tag, size_t tag_len)
{
    uint8_t T[16];
    if (MO_LIKELY(tag_len == 16)) {
        m->tag = tag;
        gcm_msg_run(m);
        return;
    }
    m->tag = T;
    gcm_msg_run(m);
    mo_copy_tag(tag, T, tag_len);
    mo_wipe(T, sizeof T); /* the bytes a truncated tag leaves out */
}

/* A failed open: out zeroed, or, in place, the plaintext encrypted back to
 * the ciphertext from inc32(J0). */
static MO_NOINLINE aeskit_status gcm_msg_open_fail(const ak_gcm_msg *m)
{
    if (m->out == m->in) {
        uint8_t ctr[16];
        memcpy(ctr, m->j0, 16);
        mo_inc32(ctr);
        gcm_ctr_xor(m->aes, ctr, m->out, m->out, m->len);
    } else {
        aeskit_memzero(m->out, m->len);
    }
    return AESKIT_ERR_AUTH;
}

/* Open: the expected tag compared with the caller's first tag_len bytes;
 * the expected tag is wiped (it would forge this message). */
static inline aeskit_status gcm_msg_open(ak_gcm_msg *m, const uint8_t *tag, size_t tag_len)
{
    uint8_t T[16];
    m->tag = T;
    gcm_msg_run(m);
    uint32_t eq = ak_ct_eq_mask(T, tag, tag_len);
    memset(T, 0, sizeof T);
    __asm__ __volatile__("" : : "m"(T));
    if (MO_LIKELY(eq))
        return AESKIT_OK;
    return gcm_msg_open_fail(m);
}

/* ---- one-shot --------------------------------------------------------------- */

static inline aeskit_status gcm_checks(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                       const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                       size_t len, const uint8_t *out, const uint8_t *tag,
                                       size_t tag_len)
{
    if (MO_UNLIKELY(!g || (!iv && iv_len) || (!aad && aad_len) || ((!in || !out) && len) ||
                    (!tag && tag_len)))
        return AESKIT_ERR_NULL_POINTER;
    if (MO_UNLIKELY(!ak_mo_ready(&g->aes, AK_MAGIC_GCM)))
        return AESKIT_ERR_STATE;
    if (MO_UNLIKELY(iv_len == 0 || (uint64_t)iv_len > MO_GCM_MAX_IV))
        return AESKIT_ERR_IV_LENGTH;
    if (MO_UNLIKELY(!MO_TAG_OK(MO_GCM_TAG_SET, tag_len)))
        return AESKIT_ERR_TAG_LENGTH;
    if (MO_UNLIKELY((uint64_t)len > MO_GCM_MAX_MSG))
        return AESKIT_ERR_MESSAGE_TOO_LONG;
    if (MO_UNLIKELY((uint64_t)aad_len > MO_GCM_MAX_AAD))
        return AESKIT_ERR_AAD_TOO_LONG;
    if (MO_UNLIKELY(mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, tag_len, out, len) ||
                    mo_any_overlap(aad, aad_len, out, len) ||
                    mo_any_overlap(iv, iv_len, out, len)))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

static MO_NOINLINE aeskit_status gcm_seal_impl(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                          const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                          size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    aeskit_status st = gcm_checks(g, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    ak_gcm_msg m;
    gcm_msg_init_iv(&m, g, 0, iv, iv_len, aad, aad_len, in, len, out);
    gcm_msg_seal(&m, tag, tag_len);
    return AESKIT_OK;
}

static MO_NOINLINE aeskit_status gcm_open_impl(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                          const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                          size_t len, const uint8_t *tag, size_t tag_len,
                                          uint8_t *out)
{
    aeskit_status st = gcm_checks(g, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    ak_gcm_msg m;
    gcm_msg_init_iv(&m, g, AK_GCM_OPEN, iv, iv_len, aad, aad_len, in, len, out);
    return gcm_msg_open(&m, tag, tag_len);
}

/* ---- the common case first (its checks: gcm_fast_args, gcm_msg.h) ---------- */

static inline aeskit_status gcm_seal_entry(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                           const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                           size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    if (MO_LIKELY(iv_len == 12 && tag_len == 16)) {
        const int route = gcm_seal_route(g, iv, aad, aad_len, in, len, out, tag);
        if (route == 2) /* the backend's register entry */
            return g->aes.be->gcm_seal12(g, out, tag, in, aad, len | aad_len << AK_GCM_LENS_SHIFT, gcm_ivz(iv));
        if (MO_LIKELY(route)) {
            ak_gcm_msg m;
            gcm_msg_init(&m, g, AK_GCM_J0_IV12, aad, aad_len, in, len, out);
            mo_iv12_block(m.j0, iv, 1);
            gcm_msg_seal(&m, tag, 16);
            return AESKIT_OK;
        }
        return gcm_seal_impl(g, iv, 12, aad, aad_len, in, len, out, tag, 16);
    }
    return gcm_seal_impl(g, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
}

static inline aeskit_status gcm_open_entry(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                           const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                           size_t len, const uint8_t *tag, size_t tag_len,
                                           uint8_t *out)
{
    if (MO_LIKELY(iv_len == 12 && tag_len == 16)) {
        const int route = gcm_open_route(g, iv, aad, aad_len, in, len, out, tag);
        if (route == 2) /* the backend's register entry (it compares the tags) */
            return g->aes.be->gcm_open12(g, out, tag, in, aad, len | aad_len << AK_GCM_LENS_SHIFT, gcm_ivz(iv));
        if (MO_LIKELY(route)) {
            ak_gcm_msg m;
            gcm_msg_init(&m, g, AK_GCM_OPEN | AK_GCM_J0_IV12, aad, aad_len, in, len, out);
            mo_iv12_block(m.j0, iv, 1);
            return gcm_msg_open(&m, tag, 16);
        }
        return gcm_open_impl(g, iv, 12, aad, aad_len, in, len, tag, 16, out);
    }
    return gcm_open_impl(g, iv, iv_len, aad, aad_len, in, len, tag, tag_len, out);
}

/* The one-shot seal starts on a 64-byte boundary: its common case runs
 * straight through some 80 instructions, and where it starts decides how
 * many 64-byte fetch blocks that path spans (and so the front end's cycles
 * per call at 16 bytes), which would otherwise move with every change to
 * this file. */
#define GCM_ENTRY_ALIGN __attribute__((aligned(64)))

/* ---- for the batch front end (src/modes/batch_gcm.c) ------------------------
 * The same checks, descriptor and failure handling as the one-shot calls,
 * so a batch runs each message through the protocol above. */

/* The one-shot checks of message m, whose data are in, out, len (a GMAC
 * passes its stand-in buffer and 0): the general path's, which names the
 * exact error (the batch has run the common case's test inline). */
aeskit_status ak_mo_gcm_msg_check(const aeskit_gcm_msg *m, const uint8_t *in, size_t len,
                                  const uint8_t *out)
{
    return gcm_checks((const ak_gcm_key *)m->key, m->iv, m->iv_len, m->aad, m->aad_len, in, len,
                      out, m->tag, m->tag_len);
}

/* The backend descriptor of checked message m, J0 from an IV of any
 * length (tag left to the caller; the batch builds a 12-byte IV's
 * inline). */
void ak_mo_gcm_msg_from(ak_gcm_msg *d, const aeskit_gcm_msg *m, uint32_t dir, const uint8_t *in,
                        size_t len, uint8_t *out)
{
    gcm_msg_init_iv(d, (const ak_gcm_key *)m->key, dir, m->iv, m->iv_len, m->aad, m->aad_len, in,
                    len, out);
}

aeskit_status ak_mo_gcm_msg_open_fail(const ak_gcm_msg *m)
{
    return gcm_msg_open_fail(m);
}

/* src/internal.h; J0 = ivz with its last byte 1 (IV || 0^31 || 1). */
aeskit_status ak_mo_gcm_open12_fail(const ak_gcm_key *g, uint8_t *out, const uint8_t *in, size_t lens,
                                    ak_v2u64 ivz)
{
    const size_t len = lens & (((size_t)1 << AK_GCM_LENS_SHIFT) - 1);
    ak_gcm_msg m;
    gcm_msg_init(&m, g, AK_GCM_OPEN | AK_GCM_J0_IV12, NULL, 0, in, len, out);
    memcpy(m.j0, &ivz, 16);
    m.j0[15] = 1;
    return gcm_msg_open_fail(&m);
}

aeskit_status ak_mo_gcm_seal(const ak_gcm_key *key, uint8_t *out, uint8_t *tag, size_t tag_len,
                             const uint8_t *in, size_t len, const uint8_t *iv, size_t iv_len,
                             const uint8_t *aad, size_t aad_len)
{
    return gcm_seal_entry(key, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
}

aeskit_status ak_mo_gcm_open(const ak_gcm_key *key, uint8_t *out, const uint8_t *in, size_t len,
                             const uint8_t *tag, size_t tag_len, const uint8_t *iv,
                             size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    return gcm_open_entry(key, iv, iv_len, aad, aad_len, in, len, tag, tag_len, out);
}

GCM_ENTRY_ALIGN aeskit_status aeskit_gcm_seal(const aeskit_gcm_key *gk, uint8_t *out,
                                              uint8_t *tag, size_t tag_len, const uint8_t *in,
                                              size_t len, const uint8_t *iv, size_t iv_len,
                                              const uint8_t *aad, size_t aad_len)
{
    return gcm_seal_entry((const ak_gcm_key *)gk, iv, iv_len, aad, aad_len, in, len, out, tag,
                          tag_len);
}

aeskit_status aeskit_gcm_open(const aeskit_gcm_key *gk, uint8_t *out, const uint8_t *in,
                              size_t len, const uint8_t *tag, size_t tag_len, const uint8_t *iv,
                              size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    return gcm_open_entry((const ak_gcm_key *)gk, iv, iv_len, aad, aad_len, in, len, tag, tag_len,
                          out);
}

/* GMAC hands the kernels an empty message in a small mapped stack buffer
 * rather than NULL: a vector kernel may issue masked loads/stores with an
 * all-zero mask around the (empty) data, and on x86 a masked access near an
 * unmapped page (NULL) takes a microcode assist (docs/performance.md,
 * "Measurements behind the code"). */
aeskit_status aeskit_gmac(const aeskit_gcm_key *gk, uint8_t *tag, size_t tag_len,
                          const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    uint8_t none[64] = {0};
    return gcm_seal_entry((const ak_gcm_key *)gk, iv, iv_len, aad, aad_len, none + 32, 0,
                         none + 32, tag, tag_len);
}

aeskit_status aeskit_gmac_verify(const aeskit_gcm_key *gk, const uint8_t *tag, size_t tag_len,
                                 const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                 size_t aad_len)
{
    uint8_t none[64] = {0};
    return gcm_open_entry((const ak_gcm_key *)gk, iv, iv_len, aad, aad_len, none + 32, 0, tag,
                         tag_len, none + 32);
}

/* ---- streaming ------------------------------------------------------------- */

#define GCM_MAGIC 0x47434d31u /* "GCM1" */
enum { GCM_ST_AAD = 1, GCM_ST_DATA = 2, GCM_ST_DONE = 3 };

/* Partial blocks need no counters of their own: the AAD block being filled
 * holds aad_len % 16 bytes, the data block msg_len % 16 bytes, and the
 * keystream bytes already used of ks are msg_len % 16 as well. */
typedef struct mo_gcm_ctx {
    const ak_gcm_key *key;
    uint32_t magic;
    uint32_t state;
    uint32_t dir;     /* AESKIT_SEAL or AESKIT_OPEN, fixed by start */
    uint32_t pad_;
    uint64_t aad_len;
    uint64_t msg_len;
    uint8_t ctr[16];  /* next counter block */
    uint8_t Y[16];    /* GHASH accumulator */
    uint8_t ekj0[16]; /* E_K(J0), the tag mask */
    uint8_t buf[16];  /* partial AAD block, then partial ciphertext block */
    uint8_t ks[16];   /* keystream of the partial data block */
} mo_gcm_ctx;
_Static_assert(sizeof(mo_gcm_ctx) <= sizeof(aeskit_gcm_ctx), "GCM context fits");
_Static_assert(_Alignof(mo_gcm_ctx) <= _Alignof(aeskit_gcm_ctx), "GCM context alignment");

/* Field by field rather than a memset of the whole context (a 112-byte
 * memset became "rep stos", a quarter of the start's time); buf and ks are
 * always written before they are read. */
static void gctx_init(mo_gcm_ctx *c, const ak_gcm_key *g, const uint8_t j0[16],
                      aeskit_direction dir)
{
    gcm_ekj0(&g->aes, j0, c->ekj0, c->ctr);
    memset(c->Y, 0, 16);
    c->key = g;
    c->dir = (uint32_t)dir;
    c->aad_len = 0;
    c->msg_len = 0;
    c->state = GCM_ST_AAD;
    c->magic = GCM_MAGIC;
}

static void gctx_aad(mo_gcm_ctx *c, const uint8_t *p, size_t n)
{
    const ak_gcm_key *g = c->key;
    size_t r = (size_t)(c->aad_len % 16);
    c->aad_len += n;
    if (r) {
        size_t take = 16 - r < n ? 16 - r : n;
        memcpy(c->buf + r, p, take);
        p += take;
        n -= take;
        if (r + take < 16)
            return;
        g->aes.be->ghash(&g->gh, c->Y, c->buf, 1);
    }
    size_t nb = n / 16;
    if (nb)
        g->aes.be->ghash(&g->gh, c->Y, p, nb);
    memcpy(c->buf, p + nb * 16, n % 16);
}

/* Hash the pending partial block (AAD or data: only one can be pending),
 * zero padded, and the length block; leaves the full tag in T. */
static void gctx_final(mo_gcm_ctx *c, uint8_t T[16])
{
    const ak_gcm_key *g = c->key;
    uint8_t fin[32];
    size_t r = (size_t)(c->state == GCM_ST_AAD ? c->aad_len % 16 : c->msg_len % 16);
    size_t n = 0;
    if (r) {
        mo_pad16(fin, c->buf, r);
        n = 1;
    }
    len_block(fin + n * 16, c->aad_len, c->msg_len);
    g->aes.be->ghash(&g->gh, c->Y, fin, n + 1);
    ak_xor16(T, c->Y, c->ekj0);
    mo_wipe(fin, sizeof fin);
    /* Closed: only start (or wipe) may follow.  Secrets go now. */
    mo_wipe(c->ctr, sizeof c->ctr + sizeof c->Y + sizeof c->ekj0 + sizeof c->buf + sizeof c->ks);
    c->state = GCM_ST_DONE;
}

/* Started, in one of the two states, and its key not wiped since (refuse
 * rather than follow a wiped key's pointers). */
static int gctx_in(const mo_gcm_ctx *c, uint32_t s1, uint32_t s2)
{
    return c->magic == GCM_MAGIC && (c->state == s1 || c->state == s2) &&
           (c->dir == AESKIT_SEAL || c->dir == AESKIT_OPEN) &&
           ak_mo_ready(&c->key->aes, AK_MAGIC_GCM);
}

aeskit_status aeskit_gcm_start(aeskit_gcm_ctx *ctx, const aeskit_gcm_key *gk,
                               aeskit_direction dir, const uint8_t *iv, size_t iv_len)
{
    if (!ctx || !gk || (!iv && iv_len))
        return AESKIT_ERR_NULL_POINTER;
    const ak_gcm_key *g = (const ak_gcm_key *)gk;
    if (!ak_mo_ready(&g->aes, AK_MAGIC_GCM))
        return AESKIT_ERR_STATE;
    if (dir != AESKIT_SEAL && dir != AESKIT_OPEN)
        return AESKIT_ERR_ARGUMENT;
    if (iv_len == 0 || (uint64_t)iv_len > MO_GCM_MAX_IV)
        return AESKIT_ERR_IV_LENGTH;
    uint8_t j0[16];
    gcm_j0(g, iv, iv_len, j0);
    gctx_init((mo_gcm_ctx *)ctx, g, j0, dir);
    return AESKIT_OK;
}

aeskit_status aeskit_gcm_update_aad(aeskit_gcm_ctx *ctx, const uint8_t *aad, size_t len)
{
    if (!ctx || (!aad && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_gcm_ctx *c = (mo_gcm_ctx *)ctx;
    if (!gctx_in(c, GCM_ST_AAD, GCM_ST_AAD))
        return AESKIT_ERR_STATE;
    if ((uint64_t)len > MO_GCM_MAX_AAD - c->aad_len)
        return AESKIT_ERR_AAD_TOO_LONG;
    if (len) /* aad may be NULL: no memcpy from it */
        gctx_aad(c, aad, len);
    return AESKIT_OK;
}

aeskit_status aeskit_gcm_update(aeskit_gcm_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    if (!ctx || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_gcm_ctx *c = (mo_gcm_ctx *)ctx;
    if (!gctx_in(c, GCM_ST_AAD, GCM_ST_DATA))
        return AESKIT_ERR_STATE;
    if ((uint64_t)len > MO_GCM_MAX_MSG - c->msg_len)
        return AESKIT_ERR_MESSAGE_TOO_LONG;
    if (mo_bad_overlap(out, len, in, len))
        return AESKIT_ERR_OVERLAP;

    const ak_gcm_key *g = c->key;
    const ak_backend *be = g->aes.be;
    if (c->state == GCM_ST_AAD) {
        /* First data call: close the AAD with its zero padding (A || 0^v). */
        size_t r = (size_t)(c->aad_len % 16);
        if (r) {
            mo_pad16(c->buf, c->buf, r);
            be->ghash(&g->gh, c->Y, c->buf, 1);
        }
        c->state = GCM_ST_DATA;
    }
    if (!len)
        return AESKIT_OK; /* out and in may be NULL: no pointer arithmetic on them */
    int dec = c->dir == AESKIT_OPEN;
    size_t r = (size_t)(c->msg_len % 16);
    c->msg_len += len;

    if (r) {
        /* Finish the partial block with the keystream kept from last time;
         * buf collects the ciphertext for GHASH. */
        size_t n = 16 - r < len ? 16 - r : len;
        for (size_t i = 0; i < n; i++) {
            uint8_t x = in[i];
            uint8_t y = x ^ c->ks[r + i];
            out[i] = y;
            c->buf[r + i] = dec ? x : y;
        }
        in += n;
        out += n;
        len -= n;
        if (r + n < 16)
            return AESKIT_OK;
        be->ghash(&g->gh, c->Y, c->buf, 1);
    }
    size_t nb = len / 16, rem = len % 16;
    if (nb) {
        if (dec)
            gcm_bulk_dec(&g->aes, &g->gh, out, in, nb, c->ctr, c->Y);
        else
            gcm_bulk_enc(&g->aes, &g->gh, out, in, nb, c->ctr, c->Y);
        in += nb * 16;
        out += nb * 16;
    }
    if (rem) {
        mo_ks32(&g->aes, c->ks, c->ctr);
        for (size_t i = 0; i < rem; i++) {
            uint8_t x = in[i];
            uint8_t y = x ^ c->ks[i];
            out[i] = y;
            c->buf[i] = dec ? x : y;
        }
    }
    return AESKIT_OK;
}

aeskit_status aeskit_gcm_finish(aeskit_gcm_ctx *ctx, uint8_t *tag, size_t tag_len)
{
    if (!ctx || (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    mo_gcm_ctx *c = (mo_gcm_ctx *)ctx;
    if (!gctx_in(c, GCM_ST_AAD, GCM_ST_DATA) || c->dir != AESKIT_SEAL)
        return AESKIT_ERR_STATE;
    if (!MO_TAG_OK(MO_GCM_TAG_SET, tag_len))
        return AESKIT_ERR_TAG_LENGTH;
    uint8_t T[16];
    gctx_final(c, T);
    mo_copy_tag(tag, T, tag_len);
    mo_wipe(T, sizeof T);
    return AESKIT_OK;
}

aeskit_status aeskit_gcm_finish_verify(aeskit_gcm_ctx *ctx, const uint8_t *tag, size_t tag_len)
{
    if (!ctx || (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    mo_gcm_ctx *c = (mo_gcm_ctx *)ctx;
    if (!gctx_in(c, GCM_ST_AAD, GCM_ST_DATA) || c->dir != AESKIT_OPEN)
        return AESKIT_ERR_STATE;
    if (!MO_TAG_OK(MO_GCM_TAG_SET, tag_len))
        return AESKIT_ERR_TAG_LENGTH;
    uint8_t T[16];
    gctx_final(c, T);
    uint32_t eq = ak_ct_eq_mask(T, tag, tag_len);
    mo_wipe(T, sizeof T);
    return eq ? AESKIT_OK : AESKIT_ERR_AUTH;
}

void aeskit_gcm_ctx_wipe(aeskit_gcm_ctx *ctx)
{
    if (ctx)
        aeskit_memzero(ctx, sizeof *ctx);
}

/* ---- GMAC over a three-part AAD (RFC 4543), checks done by the caller ---- */

void ak_mo_gmac3(const ak_gcm_key *g, const uint8_t nonce[12], const uint8_t *a1, size_t l1,
              const uint8_t *a2, size_t l2, const uint8_t *a3, size_t l3, uint8_t mac[16])
{
    mo_gcm_ctx c;
    uint8_t j0[16];
    gcm_j0(g, nonce, 12, j0);
    gctx_init(&c, g, j0, AESKIT_SEAL);
    if (l1)
        gctx_aad(&c, a1, l1);
    if (l2)
        gctx_aad(&c, a2, l2);
    if (l3)
        gctx_aad(&c, a3, l3);
    gctx_final(&c, mac);
    mo_wipe(&c, sizeof c);
}
