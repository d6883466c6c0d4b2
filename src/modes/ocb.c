/*
 * ocb.c - OCB3 (RFC 7253): one-shot seal and open, and the streaming
 * context (start, update_aad, update, finish / finish_verify).
 * Portable C11; no CPU features needed (the backend does AES).
 *
 * RFC 7253 section 4, for key K, nonce N (1..15 bytes), tag length TAGLEN:
 *   L_* = E_K(0^128), L_$ = double(L_*), L_0 = double(L_$),
 *   L_i = double(L_{i-1})                                   (set up once);
 *   Nonce = num2str(TAGLEN mod 128, 7) || 0^(120 - 8|N|) || 1 || N,
 *   bottom = the last 6 bits of Nonce, Ktop = E_K(Nonce with them cleared),
 *   Stretch = Ktop || (Ktop[1..64] ^ Ktop[9..72]),
 *   Offset_0 = Stretch[1 + bottom .. 128 + bottom];
 *   block i (1-based): Offset_i = Offset_{i-1} ^ L_{ntz(i)},
 *     C_i = Offset_i ^ E_K(P_i ^ Offset_i),  Checksum ^= P_i;
 *   a last partial block P_*: Offset_* = Offset_m ^ L_*,
 *     C_* = P_* ^ E_K(Offset_*) (truncated), Checksum ^= P_* || 1 || 0...;
 *   Tag = E_K(Checksum ^ Offset ^ L_$) ^ HASH(K, A), its first TAGLEN bits,
 *   HASH(K, A) the same offsets from 0^128 over A, summing E_K(A_i ^ Offset_i)
 *   and, for a partial A_*, E_K((A_* || 1 || 0...) ^ Offset_* ).
 * The bulk runs in the backend's ocb_blocks kernel where it has one, else
 * in chunks: the chunk's offsets (each a table lookup at ntz of a public
 * block index) are formed, XORed in, the chunk goes through the backend's
 * parallel ECB, and the offsets are XORed again.
 *
 * One protocol, written once: the steps below (whole blocks from any block
 * index, the last partial block, HASH's partial block, the tag) serve both
 * the one-shot calls (the whole message from block 1) and the stream, which
 * holds the running offsets and sums between calls and a partial block of
 * AAD and of message until more arrives or the finish.
 *
 * Constant time: the nonce (hence bottom), the lengths and block indices
 * are public; the L table, offsets, checksum and data are secret and reach
 * only XORs and the backend's constant-time AES.
 */
#include "modes.h"

typedef struct ak_ocb_key {
    ak_aes aes; /* magic AK_MAGIC_OCB */
    AK_ALIGN64 uint8_t lstar[16];
    uint8_t ldollar[16];
    uint8_t reserved[32];
    uint8_t L[64][16]; /* L_0..L_63: ntz of any size_t block index is below 64 */
} ak_ocb_key;
_Static_assert(sizeof(ak_ocb_key) == sizeof(aeskit_ocb_key), "ak_ocb_key size");

/* Blocks per chunk: the offsets of one chunk on the stack, 1 KiB. */
#define OCB_CHUNK 64

/* RFC 7253 section 2: double(S) = S << 1 ^ (msb(S) ? 0^120 || 10000111 : 0),
 * big-endian.  Branch-free. */
static void ocb_double(uint8_t out[16], const uint8_t in[16])
{
    uint64_t hi = ak_load_be64(in), lo = ak_load_be64(in + 8);
    uint64_t mask = (uint64_t)0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ (mask & 0x87);
    ak_store_be64(out, hi);
    ak_store_be64(out + 8, lo);
}

/* 16-byte XORs as one vector operation each (GNU C vector extensions; the
 * portable ak_xor16 is two 64-bit XORs). */
static inline void xor16_into(uint8_t *acc, const uint8_t *x)
{
    mo_v2u64 a, b;
    memcpy(&a, acc, 16);
    memcpy(&b, x, 16);
    a ^= b;
    memcpy(acc, &a, 16);
}
static inline void xor16_to(uint8_t *out, const uint8_t *x, const uint8_t *y)
{
    mo_v2u64 a, b;
    memcpy(&a, x, 16);
    memcpy(&b, y, 16);
    a ^= b;
    memcpy(out, &a, 16);
}

/* ntz(i) for i >= 1: the number of trailing zero bits (i is public). */
static inline unsigned ntz(uint64_t i) { return (unsigned)__builtin_ctzll(i); }

/* The big-endian value of the n <= 8 bytes at p, never read past p + n. */
static inline uint64_t ocb_be_bytes8(const uint8_t *p, size_t n)
{
    if (n == 8)
        return ak_load_be64(p);
    return n ? __builtin_bswap64(mo_le_bytes7(p, n)) >> (64 - 8 * n) : 0;
}

/* Offset_0 from the nonce (RFC 7253 section 4.2, "Nonce-dependent and
 * per-encryption variables"), in two big-endian 64-bit words hi || lo:
 *   Nonce = (TAGLEN mod 128) << 121 | 1 << 8|N| | N  (|N| = nl bytes),
 *   bottom = Nonce & 63, Ktop = E_K(Nonce ^ bottom) = k0 || k1,
 *   Stretch = k0 || k1 || s2 with s2 = k0 ^ (k0 << 8 | k1 >> 56),
 *   Offset_0 = the 128 bits of Stretch from bit bottom (0 = the top bit).
 * The nonce block and Offset_0 are each written by one 16-byte store
 * (mo_store_block), the shape in which the AES kernel and ocb_blocks read
 * them back. */
static void ocb_offset0(const ak_ocb_key *ok, const uint8_t *nonce, size_t nl, size_t tl,
                        uint8_t off[16])
{
    uint8_t nb[16], ktop[16];
    const size_t nh = nl > 8 ? nl - 8 : 0; /* nonce bytes in the high word */
    uint64_t hi = ocb_be_bytes8(nonce, nh), lo = ocb_be_bytes8(nonce + nh, nl - nh);
    if (nl < 8)
        lo |= (uint64_t)1 << (8 * nl);
    else
        hi |= (uint64_t)1 << (8 * (nl - 8));
    hi |= (uint64_t)((tl * 8) % 128) << 57;
    const unsigned bottom = (unsigned)(lo & 63);
    lo &= ~(uint64_t)63;
    mo_store_block(nb, __builtin_bswap64(hi), __builtin_bswap64(lo));
    ok->aes.be->ecb_encrypt(&ok->aes, ktop, nb, 1);
    const uint64_t k0 = ak_load_be64(ktop), k1 = ak_load_be64(ktop + 8);
    const uint64_t s2 = k0 ^ (k0 << 8 | k1 >> 56);
    /* x << b | y >> (64 - b) for b = bottom in 0..63 (public), with the
     * right shift split so that b = 0 shifts by 63 and then 1. */
    const uint64_t ohi = k0 << bottom | (k1 >> 1) >> (63 - bottom);
    const uint64_t olo = k1 << bottom | (s2 >> 1) >> (63 - bottom);
    mo_store_block(off, __builtin_bswap64(ohi), __builtin_bswap64(olo));
    mo_wipe(ktop, sizeof ktop);
}

static inline mo_v2u64 ld16(const uint8_t *p)
{
    mo_v2u64 v;
    memcpy(&v, p, 16);
    return v;
}
static inline void st16(uint8_t *p, mo_v2u64 v) { memcpy(p, &v, 16); }

/* The offsets of blocks idx+1 .. idx+n into offs, from *o (updated).  The
 * running offset and checksum are locals, so they stay in registers instead
 * of making a store-to-load chain through the caller's buffers. */
static inline mo_v2u64 ocb_offsets(const ak_ocb_key *ok, uint8_t *offs, size_t n, uint64_t idx,
                                   mo_v2u64 o)
{
    for (size_t j = 0; j < n; j++) {
        o ^= ld16(ok->L[ntz(idx + j + 1)]);
        st16(offs + 16 * j, o);
    }
    return o;
}

/* The whole blocks first .. first + nb - 1 (first >= 1) of the message
 * (op AK_OCB_ENCRYPT or AK_OCB_DECRYPT: out = the result, sum ^= the
 * plaintext blocks) or of the AAD (AK_OCB_HASH: out unused, sum ^= E(A_i ^
 * Offset_i)); off holds Offset_{first-1} in and the last block's offset out.
 * The backend's ocb_blocks where it has one (the same contract), else the
 * offsets of each chunk around the backend's parallel ECB. */
static inline __attribute__((always_inline)) void ocb_blocks_chunked(const ak_ocb_key *ok, int op, uint8_t *out, const uint8_t *in,
                               size_t nb, uint64_t first, uint8_t off[16], uint8_t sum[16])
{
    const ak_backend *be = ok->aes.be;
    uint8_t offs[OCB_CHUNK * 16];
    mo_v2u64 o = ld16(off), c = ld16(sum);
    size_t used = 0;
    uint64_t idx = first - 1;
    while (nb) {
        size_t n = nb < OCB_CHUNK ? nb : OCB_CHUNK;
        o = ocb_offsets(ok, offs, n, idx, o);
        if (op == AK_OCB_HASH) {
            for (size_t j = 0; j < n; j++)
                st16(offs + 16 * j, ld16(offs + 16 * j) ^ ld16(in + 16 * j));
            be->ecb_encrypt(&ok->aes, offs, offs, n);
            for (size_t j = 0; j < n; j++)
                c ^= ld16(offs + 16 * j);
        } else if (op == AK_OCB_ENCRYPT) {
            for (size_t j = 0; j < n; j++) { /* each block read before it is written */
                mo_v2u64 p = ld16(in + 16 * j);
                c ^= p;
                st16(out + 16 * j, p ^ ld16(offs + 16 * j));
            }
            be->ecb_encrypt(&ok->aes, out, out, n);
            for (size_t j = 0; j < n; j++)
                st16(out + 16 * j, ld16(out + 16 * j) ^ ld16(offs + 16 * j));
        } else {
            for (size_t j = 0; j < n; j++)
                st16(out + 16 * j, ld16(in + 16 * j) ^ ld16(offs + 16 * j));
            be->ecb_decrypt(&ok->aes, out, out, n);
            for (size_t j = 0; j < n; j++) {
                mo_v2u64 p = ld16(out + 16 * j) ^ ld16(offs + 16 * j);
                c ^= p;
                st16(out + 16 * j, p);
            }
        }
        used = used > n ? used : n;
        idx += n;
        in += 16 * n;
        if (op != AK_OCB_HASH)
            out += 16 * n;
        nb -= n;
    }
    st16(off, o);
    st16(sum, c);
    mo_wipe(offs, used * 16);
}
/* The chunked path once per op, so each is specialised (op constant). */
static void ocb_chunked_enc(const ak_ocb_key *ok, uint8_t *out, const uint8_t *in, size_t nb,
                            uint64_t first, uint8_t off[16], uint8_t sum[16])
{
    ocb_blocks_chunked(ok, AK_OCB_ENCRYPT, out, in, nb, first, off, sum);
}
static void ocb_chunked_dec(const ak_ocb_key *ok, uint8_t *out, const uint8_t *in, size_t nb,
                            uint64_t first, uint8_t off[16], uint8_t sum[16])
{
    ocb_blocks_chunked(ok, AK_OCB_DECRYPT, out, in, nb, first, off, sum);
}
static void ocb_chunked_hash(const ak_ocb_key *ok, const uint8_t *in, size_t nb, uint64_t first,
                             uint8_t off[16], uint8_t sum[16])
{
    ocb_blocks_chunked(ok, AK_OCB_HASH, NULL, in, nb, first, off, sum);
}

/* The kernel where the backend has one, else the chunked path; inlined so
 * the one-shot calls reach the kernel as directly as before. */
static inline __attribute__((always_inline)) void ocb_blocks_run(const ak_ocb_key *ok, int op,
                                                                 uint8_t *out, const uint8_t *in,
                                                                 size_t nb, uint64_t first,
                                                                 uint8_t off[16], uint8_t sum[16])
{
    const ak_backend *be = ok->aes.be;
    if (!nb)
        return;
    if (be->ocb_blocks)
        be->ocb_blocks(&ok->aes, ok->L, out, in, nb, first, off, sum, op);
    else if (op == AK_OCB_HASH)
        ocb_chunked_hash(ok, in, nb, first, off, sum);
    else if (op == AK_OCB_DECRYPT)
        ocb_chunked_dec(ok, out, in, nb, first, off, sum);
    else
        ocb_chunked_enc(ok, out, in, nb, first, off, sum);
}

/* X || 1 || 0^(127 - 8 rem) for the rem < 16 bytes X at p (RFC 7253's
 * padded last blocks), as little-endian words lo (bytes 0-7) and hi (bytes
 * 8-15), never read past p + rem: formed in registers so the block is
 * written by one store (mo_store_block). */
static inline void ocb_pad10(const uint8_t *p, size_t rem, uint64_t *lo, uint64_t *hi)
{
    if (rem < 8) {
        *lo = mo_le_bytes7(p, rem) | (uint64_t)0x80 << (8 * rem);
        *hi = 0;
    } else {
        *lo = ak_load_le64(p);
        *hi = mo_le_bytes7(p + 8, rem - 8) | (uint64_t)0x80 << (8 * (rem - 8));
    }
}

/* The message's last partial block P_* (0 < rem < 16 bytes; RFC 7253
 * sections 4.2 and 4.3): off becomes Offset_* = Offset_m ^ L_*, out = in ^
 * E(Offset_*) over rem bytes (out == in or disjoint: in is read before out
 * is written), cks ^= P_* || 1 || 0^(127 - 8 rem).  Decrypting, P_* is
 * C_* ^ the pad's first rem bytes (a mask of the public rem). */
static void ocb_last_block(const ak_ocb_key *ok, int dec, uint8_t *out, const uint8_t *in,
                           size_t rem, uint8_t off[16], uint8_t cks[16])
{
    uint8_t pad[16], p[16];
    uint64_t lo, hi;
    /* rem < 16 always; the mask states it for compilers that cannot see
     * it through the context (-Wstringop-overflow on a 16-byte out). */
    rem &= 15;
    ocb_pad10(in, rem, &lo, &hi);
    xor16_into(off, ok->lstar);
    ok->aes.be->ecb_encrypt(&ok->aes, pad, off, 1);
    if (dec) {
        const uint64_t mlo = rem >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * rem)) - 1;
        const uint64_t mhi = rem > 8 ? ((uint64_t)1 << (8 * (rem - 8))) - 1 : 0;
        lo ^= ak_load_le64(pad) & mlo;
        hi ^= ak_load_le64(pad + 8) & mhi;
    }
    for (size_t i = 0; i < rem; i++)
        out[i] = in[i] ^ pad[i];
    mo_store_block(p, lo, hi);
    xor16_into(cks, p);
    mo_wipe(pad, sizeof pad);
    mo_wipe(p, sizeof p);
}

/* HASH's partial block A_* (0 < rem < 16 bytes; RFC 7253 section 4.1):
 * aoff becomes Offset_* and sum ^= E((A_* || 1 || 0...) ^ Offset_*). */
static void ocb_hash_last(const ak_ocb_key *ok, const uint8_t *a, size_t rem, uint8_t aoff[16],
                          uint8_t sum[16])
{
    uint8_t blk[16];
    uint64_t lo, hi;
    rem &= 15; /* rem < 16 always (see ocb_last_block) */
    ocb_pad10(a, rem, &lo, &hi);
    mo_store_block(blk, lo, hi);
    xor16_into(aoff, ok->lstar);
    xor16_into(blk, aoff);
    ok->aes.be->ecb_encrypt(&ok->aes, blk, blk, 1);
    xor16_into(sum, blk);
    mo_wipe(blk, sizeof blk);
}

/* The full tag: E_K(Checksum ^ Offset ^ L_$) ^ HASH(K, A). */
static void ocb_tag(const ak_ocb_key *ok, const uint8_t off[16], const uint8_t cks[16],
                    const uint8_t hash[16], uint8_t tag[16])
{
    uint8_t t[16];
    xor16_to(t, cks, off);
    xor16_into(t, ok->ldollar);
    ok->aes.be->ecb_encrypt(&ok->aes, t, t, 1);
    xor16_to(tag, t, hash);
    mo_wipe(t, sizeof t);
}

/* HASH(K, A) of a whole AAD. */
static void ocb_hash(const ak_ocb_key *ok, const uint8_t *a, size_t al, uint8_t sum[16])
{
    uint8_t aoff[16] = {0};
    size_t nb = al / 16, rem = al % 16;
    memset(sum, 0, 16);
    ocb_blocks_run(ok, AK_OCB_HASH, NULL, a, nb, 1, aoff, sum);
    if (rem)
        ocb_hash_last(ok, a + 16 * nb, rem, aoff, sum);
    mo_wipe(aoff, sizeof aoff);
}

/* A whole message from Offset_0 = off: out = the encryption (dec = 0) or
 * decryption (dec = 1) of in; on return off holds the last offset
 * (Offset_m or Offset_*) and cks the checksum, the padding included. */
static void ocb_body(const ak_ocb_key *ok, int dec, uint8_t *out, const uint8_t *in, size_t len,
                     uint8_t off[16], uint8_t cks[16])
{
    size_t nb = len / 16, rem = len % 16;
    memset(cks, 0, 16);
    ocb_blocks_run(ok, dec ? AK_OCB_DECRYPT : AK_OCB_ENCRYPT, out, in, nb, 1, off, cks);
    if (rem)
        ocb_last_block(ok, dec, out + 16 * nb, in + 16 * nb, rem, off, cks);
}

/* The blocks a short seal (ocb_seal_short) takes: at most OCB_SHORT_MAX,
 * and at least OCB_SHORT_MIN: one call of two blocks in place of two calls
 * of one can be slower where a call of one block runs a cheaper kernel
 * than a batch (generic's single-block kernel). */
#define OCB_SHORT_MIN 3
#define OCB_SHORT_MAX 16

/* The block cipher calls of a seal after Offset_0, for len message and
 * aad_len AAD bytes: the body, the pad of a partial block, HASH's blocks
 * and the tag. */
static inline size_t ocb_short_blocks(size_t len, size_t aad_len)
{
    return len / 16 + (len % 16 != 0) + aad_len / 16 + (aad_len % 16 != 0) + 1;
}

/* A seal of ocb_short_blocks(len, aad_len) <= OCB_SHORT_MAX blocks after
 * Offset_0 (off0), on a backend without ocb_blocks: every input of those
 * block cipher calls is known once Offset_0 is (the tag's takes the
 * checksum of the plaintext and the last offset; HASH's do not depend on
 * the nonce), so they run as one ecb_encrypt instead of three to five: a
 * bitsliced or vector-permute backend pays more per call than per block.
 * Same results as ocb_body, ocb_hash and ocb_tag; in is read before out is
 * written (in place allowed); T gets the full tag.  The offsets are
 * secret, like every block here; the counts are public. */
static void ocb_seal_short(const ak_ocb_key *ok, uint8_t *out, uint8_t T[16], const uint8_t *in,
                           size_t len, const uint8_t off0[16], const uint8_t *aad, size_t aad_len)
{
    uint8_t x[OCB_SHORT_MAX * 16], offs[OCB_SHORT_MAX * 16], blk[16];
    const size_t nb = len / 16, rem = len % 16, na = aad_len / 16, arem = aad_len % 16;
    mo_v2u64 o = ld16(off0), c = {0, 0}, oa = {0, 0};
    uint64_t lo, hi;
    size_t k = nb;
    o = ocb_offsets(ok, offs, nb, 0, o);
    for (size_t j = 0; j < nb; j++) {
        const mo_v2u64 p = ld16(in + 16 * j);
        c ^= p;
        st16(x + 16 * j, p ^ ld16(offs + 16 * j));
    }
    if (rem) { /* the pad's input is Offset_*; P_* || 1 || 0... joins the checksum */
        o ^= ld16(ok->lstar);
        ocb_pad10(in + 16 * nb, rem & 15, &lo, &hi);
        mo_store_block(blk, lo, hi);
        c ^= ld16(blk);
        st16(x + 16 * k++, o);
    }
    const size_t ka = k;
    oa = ocb_offsets(ok, x + 16 * k, na, 0, oa);
    for (size_t j = 0; j < na; j++, k++)
        st16(x + 16 * k, ld16(x + 16 * k) ^ ld16(aad + 16 * j));
    if (arem) {
        oa ^= ld16(ok->lstar);
        ocb_pad10(aad + 16 * na, arem & 15, &lo, &hi);
        mo_store_block(blk, lo, hi);
        st16(x + 16 * k++, ld16(blk) ^ oa);
    }
    st16(x + 16 * k++, c ^ o ^ ld16(ok->ldollar));
    ok->aes.be->ecb_encrypt(&ok->aes, x, x, k);
    for (size_t j = 0; j < nb; j++)
        st16(out + 16 * j, ld16(x + 16 * j) ^ ld16(offs + 16 * j));
    for (size_t i = 0; i < rem; i++)
        out[16 * nb + i] = in[16 * nb + i] ^ x[16 * nb + i];
    mo_v2u64 sum = {0, 0};
    for (size_t j = ka; j + 1 < k; j++)
        sum ^= ld16(x + 16 * j);
    st16(T, ld16(x + 16 * (k - 1)) ^ sum);
    mo_wipe(x, 16 * k);
    mo_wipe(offs, 16 * nb);
    mo_wipe(blk, sizeof blk);
}

static aeskit_status ocb_checks(const ak_ocb_key *ok, const uint8_t *out, const uint8_t *tag,
                                size_t tag_len, const uint8_t *in, size_t len,
                                const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                size_t aad_len)
{
    if (!ok || (!tag && tag_len) || ((!in || !out) && len) || (!nonce && nonce_len) ||
        (!aad && aad_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&ok->aes, AK_MAGIC_OCB))
        return AESKIT_ERR_STATE;
    if (tag_len < 8 || tag_len > 16)
        return AESKIT_ERR_TAG_LENGTH;
    if (nonce_len < 1 || nonce_len > 15)
        return AESKIT_ERR_NONCE_LENGTH;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, tag_len, out, len) ||
        mo_any_overlap(nonce, nonce_len, out, len) || mo_any_overlap(aad, aad_len, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_ocb_seal(const aeskit_ocb_key *k, uint8_t *out, uint8_t *tag,
                              size_t tag_len, const uint8_t *in, size_t len,
                              const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                              size_t aad_len)
{
    const ak_ocb_key *ok = (const ak_ocb_key *)k;
    aeskit_status st = ocb_checks(ok, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    uint8_t off[16], cks[16], h[16], T[16];
    ocb_offset0(ok, nonce, nonce_len, tag_len, off);
    const size_t short_blocks = ocb_short_blocks(len, aad_len);
    if (!ok->aes.be->ocb_blocks && short_blocks >= OCB_SHORT_MIN && short_blocks <= OCB_SHORT_MAX) {
        ocb_seal_short(ok, out, T, in, len, off, aad, aad_len);
    } else {
        ocb_body(ok, 0, out, in, len, off, cks);
        ocb_hash(ok, aad, aad_len, h);
        ocb_tag(ok, off, cks, h, T);
    }
    memcpy(tag, T, tag_len);
    mo_wipe(off, sizeof off);
    mo_wipe(cks, sizeof cks);
    mo_wipe(h, sizeof h);
    mo_wipe(T, sizeof T);
    return AESKIT_OK;
}

aeskit_status aeskit_ocb_open(const aeskit_ocb_key *k, uint8_t *out, const uint8_t *in,
                              size_t len, const uint8_t *tag, size_t tag_len,
                              const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                              size_t aad_len)
{
    const ak_ocb_key *ok = (const ak_ocb_key *)k;
    aeskit_status st = ocb_checks(ok, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    uint8_t off0[16], off[16], cks[16], h[16], T[16];
    ocb_offset0(ok, nonce, nonce_len, tag_len, off0);
    memcpy(off, off0, 16);
    ocb_body(ok, 1, out, in, len, off, cks);
    ocb_hash(ok, aad, aad_len, h);
    ocb_tag(ok, off, cks, h, T);
    uint32_t eq = ak_ct_eq_mask(T, tag, tag_len);
    if (!eq) {
        /* No plaintext released: in place, encrypting it again from
         * Offset_0 gives the ciphertext back; out of place, out is zeroed. */
        if (out == in)
            ocb_body(ok, 0, out, out, len, off0, cks);
        else
            aeskit_memzero(out, len);
        st = AESKIT_ERR_AUTH;
    }
    mo_wipe(off0, sizeof off0);
    mo_wipe(off, sizeof off);
    mo_wipe(cks, sizeof cks);
    mo_wipe(h, sizeof h);
    mo_wipe(T, sizeof T);
    return st;
}

/* ---- streaming -------------------------------------------------------------- */

#define OCB_CTX_MAGIC 0x4f434253u /* "OCBS" */
enum { OCB_ST_AAD = 1, OCB_ST_DATA = 2 };

/* The running state of one message.  Secret: off, cks, aoff, asum and the
 * held blocks; public: the counts, the direction and the tag length. */
typedef struct mo_ocb_ctx {
    const ak_ocb_key *key;
    uint32_t magic;
    uint32_t state;
    uint32_t dir;      /* AESKIT_SEAL or AESKIT_OPEN, fixed by start */
    uint32_t tag_len;  /* 1..16, fixed by start (it is in the nonce block) */
    uint64_t ablocks;  /* whole AAD blocks hashed */
    uint64_t mblocks;  /* whole message blocks done */
    uint32_t ahold;    /* AAD bytes held in abuf, 0..15 */
    uint32_t mhold;    /* message bytes held in mbuf, 0..15 */
    uint8_t off[16];   /* Offset_mblocks */
    uint8_t cks[16];   /* Checksum of the plaintext blocks so far */
    uint8_t aoff[16];  /* HASH's Offset_ablocks */
    uint8_t asum[16];  /* HASH's Sum so far */
    uint8_t abuf[16];  /* the partial AAD block */
    uint8_t mbuf[16];  /* the message bytes not yet output */
} mo_ocb_ctx;
_Static_assert(sizeof(mo_ocb_ctx) <= sizeof(aeskit_ocb_ctx), "OCB context fits");
_Static_assert(_Alignof(mo_ocb_ctx) <= _Alignof(aeskit_ocb_ctx), "OCB context alignment");

/* Started, in one of the two states, and its key not wiped since (refuse
 * rather than follow a wiped key's pointers). */
static int octx_in(const mo_ocb_ctx *c, uint32_t s1, uint32_t s2)
{
    return c->magic == OCB_CTX_MAGIC && (c->state == s1 || c->state == s2) &&
           (c->dir == AESKIT_SEAL || c->dir == AESKIT_OPEN) && c->key &&
           ak_mo_ready(&c->key->aes, AK_MAGIC_OCB);
}

aeskit_status aeskit_ocb_start(aeskit_ocb_ctx *ctx, const aeskit_ocb_key *k, aeskit_direction dir,
                               const uint8_t *nonce, size_t nonce_len, size_t tag_len)
{
    if (!ctx || !k || (!nonce && nonce_len))
        return AESKIT_ERR_NULL_POINTER;
    const ak_ocb_key *ok = (const ak_ocb_key *)k;
    if (!ak_mo_ready(&ok->aes, AK_MAGIC_OCB))
        return AESKIT_ERR_STATE;
    if (dir != AESKIT_SEAL && dir != AESKIT_OPEN)
        return AESKIT_ERR_ARGUMENT;
    if (tag_len < 1 || tag_len > 16)
        return AESKIT_ERR_TAG_LENGTH;
    if (nonce_len < 1 || nonce_len > 15)
        return AESKIT_ERR_NONCE_LENGTH;
    mo_ocb_ctx *c = (mo_ocb_ctx *)ctx;
    memset(c, 0, sizeof *c);
    ocb_offset0(ok, nonce, nonce_len, tag_len, c->off);
    c->key = ok;
    c->dir = (uint32_t)dir;
    c->tag_len = (uint32_t)tag_len;
    c->state = OCB_ST_AAD;
    c->magic = OCB_CTX_MAGIC;
    return AESKIT_OK;
}

/* Tops up the partial block held in buf (*hold bytes) from *p, advancing
 * *p and *len; returns 1 when buf is now a whole block (*hold is then 0),
 * 0 when the input ran out first. */
static int octx_top_up(uint8_t buf[16], uint32_t *hold, const uint8_t **p, size_t *len)
{
    size_t r = *hold, take = 16 - r < *len ? 16 - r : *len;
    memcpy(buf + r, *p, take);
    *p += take;
    *len -= take;
    *hold = (uint32_t)((r + take) % 16);
    return r + take == 16;
}

/* Holds the last len % 16 bytes of the len at p (after its whole blocks). */
static void octx_hold_tail(uint8_t buf[16], uint32_t *hold, const uint8_t *p, size_t len)
{
    *hold = (uint32_t)(len % 16);
    if (*hold)
        memcpy(buf, p + len / 16 * 16, *hold);
}

aeskit_status aeskit_ocb_update_aad(aeskit_ocb_ctx *ctx, const uint8_t *aad, size_t len)
{
    if (!ctx || (!aad && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_ocb_ctx *c = (mo_ocb_ctx *)ctx;
    if (!octx_in(c, OCB_ST_AAD, OCB_ST_AAD))
        return AESKIT_ERR_STATE;
    if (!len)
        return AESKIT_OK; /* aad may be NULL: no pointer arithmetic on it */
    const ak_ocb_key *ok = c->key;
    if (c->ahold) {
        if (!octx_top_up(c->abuf, &c->ahold, &aad, &len))
            return AESKIT_OK;
        ocb_blocks_run(ok, AK_OCB_HASH, NULL, c->abuf, 1, c->ablocks + 1, c->aoff, c->asum);
        c->ablocks++;
    }
    size_t nb = len / 16;
    ocb_blocks_run(ok, AK_OCB_HASH, NULL, aad, nb, c->ablocks + 1, c->aoff, c->asum);
    c->ablocks += nb;
    octx_hold_tail(c->abuf, &c->ahold, aad, len);
    return AESKIT_OK;
}

/* The bytes update writes for len more bytes: the whole blocks of what is
 * held and len, without overflow for any len. */
static size_t octx_out_len(const mo_ocb_ctx *c, size_t len)
{
    return len / 16 * 16 + (len % 16 + c->mhold) / 16 * 16;
}

aeskit_status aeskit_ocb_update(aeskit_ocb_ctx *ctx, uint8_t *out, size_t out_cap,
                                size_t *out_len, const uint8_t *in, size_t len)
{
    if (!ctx || !out_len || (!out && out_cap) || (!in && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_ocb_ctx *c = (mo_ocb_ctx *)ctx;
    if (!octx_in(c, OCB_ST_AAD, OCB_ST_DATA))
        return AESKIT_ERR_STATE;
    size_t need = octx_out_len(c, len);
    if (out_cap < need)
        return AESKIT_ERR_BUFFER_TOO_SMALL;
    /* In place is out + held == in: the output continues where the stream's
     * earlier output ended, behind the input by the bytes held. */
    int in_place = len && need && (uintptr_t)out + c->mhold == (uintptr_t)in;
    if ((!in_place && mo_any_overlap(out, need, in, len)) ||
        mo_any_overlap(out_len, sizeof *out_len, out, need))
        return AESKIT_ERR_OVERLAP;

    const ak_ocb_key *ok = c->key;
    int op = c->dir == AESKIT_OPEN ? AK_OCB_DECRYPT : AK_OCB_ENCRYPT;
    c->state = OCB_ST_DATA;
    *out_len = 0;
    if (!len)
        return AESKIT_OK; /* out and in may be NULL: no pointer arithmetic on them */
    if (c->mhold) {
        /* Complete the held block first: its input is read (into mbuf)
         * before out's first block, which in place covers it, is written. */
        if (!octx_top_up(c->mbuf, &c->mhold, &in, &len))
            return AESKIT_OK;
        ocb_blocks_run(ok, op, out, c->mbuf, 1, c->mblocks + 1, c->off, c->cks);
        c->mblocks++;
        out += 16;
    }
    size_t nb = len / 16;
    ocb_blocks_run(ok, op, out, in, nb, c->mblocks + 1, c->off, c->cks);
    c->mblocks += nb;
    octx_hold_tail(c->mbuf, &c->mhold, in, len);
    *out_len = need;
    return AESKIT_OK;
}

/* The checks both finishes share, in the conventions' order. */
static aeskit_status octx_finish_checks(const mo_ocb_ctx *c, uint32_t dir, const uint8_t *out,
                                        size_t out_cap, const size_t *out_len, const uint8_t *tag,
                                        size_t tag_len)
{
    if (!c || !out_len || (!out && out_cap) || (!tag && tag_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!octx_in(c, OCB_ST_AAD, OCB_ST_DATA) || c->dir != dir)
        return AESKIT_ERR_STATE;
    if (tag_len != c->tag_len)
        return AESKIT_ERR_TAG_LENGTH;
    if (out_cap < c->mhold)
        return AESKIT_ERR_BUFFER_TOO_SMALL;
    if (mo_any_overlap(tag, tag_len, out, c->mhold) ||
        mo_any_overlap(out_len, sizeof *out_len, out, c->mhold) ||
        mo_any_overlap(out_len, sizeof *out_len, tag, tag_len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

/* The last partial block (into p, mhold bytes) and the full tag T; closes
 * nothing (the caller wipes the context). */
static void octx_final(mo_ocb_ctx *c, uint8_t p[16], uint8_t T[16])
{
    const ak_ocb_key *ok = c->key;
    if (c->mhold)
        ocb_last_block(ok, c->dir == AESKIT_OPEN, p, c->mbuf, c->mhold, c->off, c->cks);
    if (c->ahold)
        ocb_hash_last(ok, c->abuf, c->ahold, c->aoff, c->asum);
    ocb_tag(ok, c->off, c->cks, c->asum, T);
}

aeskit_status aeskit_ocb_finish(aeskit_ocb_ctx *ctx, uint8_t *out, size_t out_cap,
                                size_t *out_len, uint8_t *tag, size_t tag_len)
{
    mo_ocb_ctx *c = (mo_ocb_ctx *)ctx;
    aeskit_status st = octx_finish_checks(c, AESKIT_SEAL, out, out_cap, out_len, tag, tag_len);
    if (st != AESKIT_OK)
        return st;
    uint8_t p[16], T[16];
    size_t n = c->mhold;
    octx_final(c, p, T);
    if (n)
        memcpy(out, p, n);
    memcpy(tag, T, tag_len);
    *out_len = n;
    mo_wipe(p, sizeof p);
    mo_wipe(T, sizeof T);
    aeskit_memzero(c, sizeof *ctx);
    return AESKIT_OK;
}

aeskit_status aeskit_ocb_finish_verify(aeskit_ocb_ctx *ctx, uint8_t *out, size_t out_cap,
                                       size_t *out_len, const uint8_t *tag, size_t tag_len)
{
    mo_ocb_ctx *c = (mo_ocb_ctx *)ctx;
    aeskit_status st = octx_finish_checks(c, AESKIT_OPEN, out, out_cap, out_len, tag, tag_len);
    if (st != AESKIT_OK)
        return st;
    uint8_t p[16], T[16];
    size_t n = c->mhold;
    octx_final(c, p, T);
    uint32_t eq = ak_ct_eq_mask(T, tag, tag_len);
    /* The last bytes are released only with a good tag (the outcome is
     * public); the context is wiped either way. */
    if (eq) {
        if (n)
            memcpy(out, p, n);
        *out_len = n;
    } else {
        *out_len = 0;
        st = AESKIT_ERR_AUTH;
    }
    mo_wipe(p, sizeof p);
    mo_wipe(T, sizeof T);
    aeskit_memzero(c, sizeof *ctx);
    return st;
}

void aeskit_ocb_ctx_wipe(aeskit_ocb_ctx *ctx)
{
    if (ctx)
        aeskit_memzero(ctx, sizeof *ctx);
}

aeskit_status aeskit_ocb_init_backend(aeskit_ocb_key *k, const uint8_t *key, size_t key_len,
                                      const char *backend)
{
    const ak_backend *be = NULL;
    int ok_len = key_len == 16 || key_len == 24 || key_len == 32;
    aeskit_status st = ak_mo_init_checks(k, key, key_len, ok_len, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_ocb_key *ok = (ak_ocb_key *)k;
    ak_mo_aes_setup(&ok->aes, be, key, key_len, 0);
    aeskit_memzero(ok->lstar, sizeof *ok - offsetof(ak_ocb_key, lstar));
    be->ecb_encrypt(&ok->aes, ok->lstar, ok->lstar, 1); /* L_* = E_K(0^128) */
    ocb_double(ok->ldollar, ok->lstar);
    ocb_double(ok->L[0], ok->ldollar);
    for (int i = 1; i < 64; i++)
        ocb_double(ok->L[i], ok->L[i - 1]);
    ok->aes.magic = AK_MAGIC_OCB;
    return AESKIT_OK;
}

aeskit_status aeskit_ocb_init(aeskit_ocb_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_ocb_init_backend(k, key, key_len, NULL);
}

const char *aeskit_ocb_backend(const aeskit_ocb_key *k)
{
    const ak_ocb_key *ok = (const ak_ocb_key *)k;
    return ok && ak_mo_ready(&ok->aes, AK_MAGIC_OCB) ? ok->aes.be->name : "";
}

void aeskit_ocb_wipe(aeskit_ocb_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}
