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
 * The backend supplies ctr32 (GCTR with inc32, wrapping modulo 2^32) and
 * ghash (Y = (Y ^ X) * H per block); everything else - J0, padding, the
 * length block, partial blocks, tag truncation - is done here once for all
 * backends.  A backend may also give a fused CTR+GHASH bulk kernel
 * (gcm_encrypt/gcm_decrypt) and whole-message kernels for 12-byte IVs
 * (gcm_seal_iv12/gcm_open_iv12), used when present.
 *
 * Small messages without a whole-message kernel run E_K(J0) and all their
 * data blocks through one ctr32 call starting at J0 (a bitsliced backend
 * pays per call, not per block); single keystream blocks (E_K(J0), a
 * partial tail) go through ecb_encrypt, the cheapest one-block call.
 *
 * Lengths: plaintext <= 2^36-32 bytes, AAD and IV <= 2^61-1 bytes, all kept
 * and compared as uint64_t with the subtraction on the constant side, so no
 * sum can overflow.
 */
#include "modes.h"

/* Blocks per CTR-then-GHASH step when the backend has no fused kernel:
 * 4 KiB, so the ciphertext GHASH reads is still in L1. */
#define GCM_CHUNK_BLOCKS 256
/* Messages up to this many bytes, without a whole-message backend kernel,
 * go through one ctr32 call covering E_K(J0) and every data block. */
#define GCM_SMALL_MAX 112

/* ---- building blocks ------------------------------------------------------- */

static inline void ghash_padded(const ak_gcm_key *g, uint8_t Y[16], const uint8_t *p, size_t n)
{
    const ak_backend *be = g->aes.be;
    size_t nb = n / 16, rem = n % 16;
    if (nb)
        be->ghash(&g->gh, Y, p, nb);
    if (rem) {
        uint8_t blk[16] = {0};
        memcpy(blk, p + nb * 16, rem);
        be->ghash(&g->gh, Y, blk, 1);
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
    ghash_padded(g, Y, iv, iv_len);
    len_block(blk, 0, (uint64_t)iv_len); /* 0^64 || [len(IV)]_64 */
    g->aes.be->ghash(&g->gh, Y, blk, 1);
    memcpy(j0, Y, 16);
}

/* E_K(J0) into ekj0 and ctr = inc32(J0). */
static inline void gcm_ekj0(const ak_gcm_key *g, const uint8_t j0[16], uint8_t ekj0[16],
                            uint8_t ctr[16])
{
    memcpy(ctr, j0, 16);
    mo_ks32(&g->aes, ekj0, ctr);
}

/* out = in XOR GCTR keystream from ctr, any len (restoring an in-place
 * buffer after a failed open: CTR is its own inverse). */
static void gcm_ctr_xor(const ak_gcm_key *g, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                        size_t len)
{
    const ak_backend *be = g->aes.be;
    size_t nb = len / 16, rem = len % 16;
    if (nb)
        be->ctr32(&g->aes, out, in, nb, ctr);
    if (rem) {
        uint8_t ks[16];
        mo_ks32(&g->aes, ks, ctr);
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = in[nb * 16 + i] ^ ks[i];
        mo_wipe(ks, sizeof ks);
    }
}

/* Whole blocks: encrypt then hash the ciphertext. */
static void gcm_bulk_enc(const ak_gcm_key *g, uint8_t *out, const uint8_t *in, size_t nb,
                         uint8_t ctr[16], uint8_t Y[16])
{
    const ak_backend *be = g->aes.be;
    if (be->gcm_encrypt) {
        be->gcm_encrypt(&g->aes, &g->gh, out, in, nb, ctr, Y);
        return;
    }
    while (nb) {
        size_t n = nb < GCM_CHUNK_BLOCKS ? nb : GCM_CHUNK_BLOCKS;
        be->ctr32(&g->aes, out, in, n, ctr);
        be->ghash(&g->gh, Y, out, n);
        in += n * 16;
        out += n * 16;
        nb -= n;
    }
}

/* Whole blocks: hash the ciphertext before it is overwritten (in-place),
 * then decrypt. */
static void gcm_bulk_dec(const ak_gcm_key *g, uint8_t *out, const uint8_t *in, size_t nb,
                         uint8_t ctr[16], uint8_t Y[16])
{
    const ak_backend *be = g->aes.be;
    if (be->gcm_decrypt) {
        be->gcm_decrypt(&g->aes, &g->gh, out, in, nb, ctr, Y);
        return;
    }
    while (nb) {
        size_t n = nb < GCM_CHUNK_BLOCKS ? nb : GCM_CHUNK_BLOCKS;
        be->ghash(&g->gh, Y, in, n);
        be->ctr32(&g->aes, out, in, n, ctr);
        in += n * 16;
        out += n * 16;
        nb -= n;
    }
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

    const ak_backend *be = g->aes.be;
    uint8_t T[16];

    if (iv_len == 12 && be->gcm_seal_iv12) {
        /* A full-length tag goes straight to the caller (it cannot overlap
         * out, and the kernel writes it after reading every input). */
        if (MO_LIKELY(tag_len == 16)) {
            be->gcm_seal_iv12(g, iv, aad, aad_len, in, len, out, tag);
            return AESKIT_OK;
        }
        be->gcm_seal_iv12(g, iv, aad, aad_len, in, len, out, T);
        memcpy(tag, T, tag_len);
        mo_wipe(T, sizeof T);
        return AESKIT_OK;
    }

    uint8_t j0[16], Y[16] = {0};
    gcm_j0(g, iv, iv_len, j0);
    ghash_padded(g, Y, aad, aad_len);

    if (len <= GCM_SMALL_MAX) {
        /* b = [E_K(J0) slot][data blocks, zero padded][length block]: one
         * ctr32 call from J0 covers the tag mask and the whole message. */
        uint8_t b[16 + GCM_SMALL_MAX + 16];
        size_t nbp = (len + 15) / 16;
        memset(b, 0, 16 + nbp * 16);
        if (len)
            memcpy(b + 16, in, len);
        be->ctr32(&g->aes, b, b, 1 + nbp, j0);
        if (len) {
            memcpy(out, b + 16, len);
            memset(b + 16 + len, 0, nbp * 16 - len); /* C || 0^u */
        }
        len_block(b + 16 + nbp * 16, aad_len, len);
        be->ghash(&g->gh, Y, b + 16, nbp + 1);
        ak_xor16(T, Y, b);
        memcpy(tag, T, tag_len);
        mo_wipe(b, 32 + nbp * 16);
        mo_wipe(T, sizeof T);
        return AESKIT_OK;
    }

    uint8_t ekj0[16], ctr[16], fin[32];
    gcm_ekj0(g, j0, ekj0, ctr);
    size_t nb = len / 16, rem = len % 16;
    gcm_bulk_enc(g, out, in, nb, ctr, Y);
    size_t nfin = 1;
    if (rem) {
        mo_ks32(&g->aes, fin, ctr); /* keystream of the tail */
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = fin[i] ^= in[nb * 16 + i];
        memset(fin + rem, 0, 16 - rem);
        nfin = 2;
    }
    len_block(fin + (nfin - 1) * 16, aad_len, len);
    be->ghash(&g->gh, Y, fin, nfin);
    ak_xor16(T, Y, ekj0);
    memcpy(tag, T, tag_len);
    mo_wipe(T, sizeof T);
    mo_wipe(ekj0, sizeof ekj0);
    mo_wipe(fin, sizeof fin);
    return AESKIT_OK;
}

/* A failed whole-message open (12-byte IV): out zeroed, or, in place, the
 * plaintext encrypted back to the ciphertext from inc32(J0). */
static MO_NOINLINE aeskit_status gcm_open_fail_iv12(const ak_gcm_key *g, const uint8_t *iv,
                                                    const uint8_t *in, size_t len, uint8_t *out)
{
    if (out == in) {
        uint8_t ctr[16];
        mo_iv12_block(ctr, iv, 2); /* inc32(J0) = IV || 0^30 || 10 */
        gcm_ctr_xor(g, ctr, out, out, len);
    } else {
        aeskit_memzero(out, len);
    }
    return AESKIT_ERR_AUTH;
}

static MO_NOINLINE aeskit_status gcm_open_impl(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                          const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                          size_t len, const uint8_t *tag, size_t tag_len,
                                          uint8_t *out)
{
    aeskit_status st = gcm_checks(g, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
    if (MO_UNLIKELY(st != AESKIT_OK))
        return st;
    const ak_backend *be = g->aes.be;
    uint8_t T[16], ctr[16];
    uint32_t eq;

    if (iv_len == 12 && be->gcm_open_iv12) {
        be->gcm_open_iv12(g, iv, aad, aad_len, in, len, out, T);
        eq = ak_ct_eq_mask(T, tag, tag_len);
        mo_wipe(T, sizeof T);
        if (MO_LIKELY(eq))
            return AESKIT_OK;
        return gcm_open_fail_iv12(g, iv, in, len, out);
    }

    uint8_t j0[16], Y[16] = {0};
    gcm_j0(g, iv, iv_len, j0);
    ghash_padded(g, Y, aad, aad_len);

    if (len <= GCM_SMALL_MAX) {
        /* Hash the ciphertext, then one ctr32 from J0 over [0][C]; the
         * plaintext stays on the stack and reaches out only if the tag
         * matches, so an in-place buffer needs no restoring. */
        uint8_t b[16 + GCM_SMALL_MAX + 16];
        size_t nbp = (len + 15) / 16;
        memset(b, 0, 16 + nbp * 16);
        if (len)
            memcpy(b + 16, in, len);
        len_block(b + 16 + nbp * 16, aad_len, len);
        be->ghash(&g->gh, Y, b + 16, nbp + 1);
        be->ctr32(&g->aes, b, b, 1 + nbp, j0);
        ak_xor16(T, Y, b);
        eq = ak_ct_eq_mask(T, tag, tag_len);
        if (MO_LIKELY(eq)) {
            if (len)
                memcpy(out, b + 16, len);
        } else if (out != in) {
            aeskit_memzero(out, len);
        }
        mo_wipe(b, 32 + nbp * 16);
        mo_wipe(T, sizeof T);
        return eq ? AESKIT_OK : AESKIT_ERR_AUTH;
    }

    uint8_t ekj0[16], ctr1[16], fin[32];
    gcm_ekj0(g, j0, ekj0, ctr);
    memcpy(ctr1, ctr, 16);
    size_t nb = len / 16, rem = len % 16;
    gcm_bulk_dec(g, out, in, nb, ctr, Y);
    size_t nfin = 1;
    if (rem) {
        uint8_t ks[16];
        memset(fin, 0, 16);
        memcpy(fin, in + nb * 16, rem); /* read before out's tail is written */
        mo_ks32(&g->aes, ks, ctr);
        for (size_t i = 0; i < rem; i++)
            out[nb * 16 + i] = fin[i] ^ ks[i];
        mo_wipe(ks, sizeof ks);
        nfin = 2;
    }
    len_block(fin + (nfin - 1) * 16, aad_len, len);
    be->ghash(&g->gh, Y, fin, nfin);
    ak_xor16(T, Y, ekj0);
    eq = ak_ct_eq_mask(T, tag, tag_len);
    mo_wipe(T, sizeof T);
    mo_wipe(ekj0, sizeof ekj0);
    if (MO_LIKELY(eq))
        return AESKIT_OK;
    if (out == in)
        gcm_ctr_xor(g, ctr1, out, out, len);
    else
        aeskit_memzero(out, len);
    return AESKIT_ERR_AUTH;
}

/* ---- the common case, first --------------------------------------------------
 *
 * A 12-byte IV, a 16-byte tag and a backend with a whole-message kernel:
 * the checks of gcm_checks in the order that lets a valid call leave
 * soonest, in a small function that calls the kernel, instead of the
 * general path's large stack frame.  Measured on the x86 machine of the
 * README (best of 300 batches): 16-byte seal 51 -> 47 cycles, 64-byte
 * 66 -> 60.  (A branch-free version of the same test was slower: 53 and
 * 71, from its setcc/or chains.)  Anything the test rejects goes to the
 * general path, which checks again and names the exact error.
 *
 * Non-empty [a, a+al) and [b, b+bl) meet iff a - b lies in (-al, bl),
 * that is iff (a - b + al - 1) mod 2^n < al + bl - 1: for ranges that do not
 * wrap the address space (and lengths whose sum does not, which the
 * length limits checked first guarantee) this is mo_any_overlap in one
 * compare (the two compares and their moves made the 16-byte seal's front
 * end 91 instructions; now 82). */
static inline int ranges_meet(const void *a, size_t al, const void *b, size_t bl)
{
    return (uintptr_t)a - (uintptr_t)b + (al - 1) < al + (bl - 1);
}

static inline int gcm_fast_args(const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                size_t aad_len, const uint8_t *in, size_t len, const uint8_t *out,
                                const uint8_t *tag, size_t tag_len)
{
    if (((iv_len ^ 12) | (tag_len ^ 16)) != 0 || !iv || !tag)
        return 0;
    if ((uint64_t)len > MO_GCM_MAX_MSG || (uint64_t)aad_len > MO_GCM_MAX_AAD || (!aad && aad_len))
        return 0;
    if (len == 0) /* GMAC: nothing is written but the tag */
        return 1;
    if (!in || !out || (in != out && ranges_meet(in, len, out, len)))
        return 0;
    if (ranges_meet(tag, 16, out, len) || ranges_meet(iv, 12, out, len))
        return 0;
    return !aad_len || !ranges_meet(aad, aad_len, out, len);
}

static inline aeskit_status gcm_seal_entry(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                           const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                           size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    const ak_backend *be;
    if (MO_LIKELY(g && ak_mo_ready(&g->aes, AK_MAGIC_GCM) && (be = g->aes.be)->gcm_seal_iv12 &&
                  gcm_fast_args(iv, iv_len, aad, aad_len, in, len, out, tag, tag_len))) {
        be->gcm_seal_iv12(g, iv, aad, aad_len, in, len, out, tag);
        return AESKIT_OK;
    }
    return gcm_seal_impl(g, iv, iv_len, aad, aad_len, in, len, out, tag, tag_len);
}

static inline aeskit_status gcm_open_entry(const ak_gcm_key *g, const uint8_t *iv, size_t iv_len,
                                           const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                           size_t len, const uint8_t *tag, size_t tag_len,
                                           uint8_t *out)
{
    const ak_backend *be;
    if (MO_LIKELY(g && ak_mo_ready(&g->aes, AK_MAGIC_GCM) && (be = g->aes.be)->gcm_open_iv12 &&
                  gcm_fast_args(iv, iv_len, aad, aad_len, in, len, out, tag, tag_len))) {
        uint8_t T[16];
        be->gcm_open_iv12(g, iv, aad, aad_len, in, len, out, T);
        uint32_t eq = ak_ct_eq_mask(T, tag, 16);
        mo_wipe(T, sizeof T);
        if (MO_LIKELY(eq))
            return AESKIT_OK;
        return gcm_open_fail_iv12(g, iv, in, len, out);
    }
    return gcm_open_impl(g, iv, iv_len, aad, aad_len, in, len, tag, tag_len, out);
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

aeskit_status aeskit_gcm_seal(const aeskit_gcm_key *gk, uint8_t *out, uint8_t *tag,
                              size_t tag_len, const uint8_t *in, size_t len, const uint8_t *iv,
                              size_t iv_len, const uint8_t *aad, size_t aad_len)
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
 * unmapped page (NULL) takes a microcode assist - measured 4x slower for a
 * 16-byte GMAC on this machine. */
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
    gcm_ekj0(g, j0, c->ekj0, c->ctr);
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
            gcm_bulk_dec(g, out, in, nb, c->ctr, c->Y);
        else
            gcm_bulk_enc(g, out, in, nb, c->ctr, c->Y);
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
    memcpy(tag, T, tag_len);
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
