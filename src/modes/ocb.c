/*
 * ocb.c - OCB3 (RFC 7253), one-shot seal and open.
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
 * byte loop of ak_xor16 stays byte-wise where out may alias its inputs). */
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

/* Offset_0 from the nonce (RFC 7253 section 4.2, "Nonce-dependent and
 * per-encryption variables"). */
static void ocb_offset0(const ak_ocb_key *ok, const uint8_t *nonce, size_t nl, size_t tl,
                        uint8_t off[16])
{
    uint8_t nb[16] = {0}, ktop[16], stretch[24];
    nb[0] = (uint8_t)(((tl * 8) % 128) << 1);
    memcpy(nb + 16 - nl, nonce, nl);
    nb[15 - nl] |= 0x01;
    unsigned bottom = nb[15] & 0x3fu;
    nb[15] &= 0xc0;
    ok->aes.be->ecb_encrypt(&ok->aes, ktop, nb, 1);
    memcpy(stretch, ktop, 16);
    for (int i = 0; i < 8; i++)
        stretch[16 + i] = ktop[i] ^ ktop[i + 1];
    unsigned byte = bottom / 8, bit = bottom % 8;
    for (unsigned i = 0; i < 16; i++)
        off[i] = bit ? (uint8_t)((stretch[byte + i] << bit) | (stretch[byte + i + 1] >> (8 - bit)))
                     : stretch[byte + i];
    mo_wipe(ktop, sizeof ktop);
    mo_wipe(stretch, sizeof stretch);
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

/* HASH(K, A) (RFC 7253 section 4.1). */
static void ocb_hash(const ak_ocb_key *ok, const uint8_t *a, size_t al, uint8_t sum[16])
{
    const ak_backend *be = ok->aes.be;
    uint8_t buf[OCB_CHUNK * 16];
    mo_v2u64 o = {0, 0}, s = {0, 0};
    size_t nb = al / 16, rem = al % 16, used = 0;
    uint64_t idx = 0;
    if (be->ocb_blocks && nb) {
        uint8_t ob[16] = {0}, sb[16] = {0};
        be->ocb_blocks(&ok->aes, ok->L, NULL, a, nb, ob, sb, AK_OCB_HASH);
        o = ld16(ob);
        s = ld16(sb);
        a += 16 * nb;
        nb = 0;
        mo_wipe(ob, sizeof ob);
        mo_wipe(sb, sizeof sb);
    }
    while (nb) {
        size_t n = nb < OCB_CHUNK ? nb : OCB_CHUNK;
        o = ocb_offsets(ok, buf, n, idx, o);
        for (size_t j = 0; j < n; j++)
            st16(buf + 16 * j, ld16(buf + 16 * j) ^ ld16(a + 16 * j));
        be->ecb_encrypt(&ok->aes, buf, buf, n);
        for (size_t j = 0; j < n; j++)
            s ^= ld16(buf + 16 * j);
        used = used > n ? used : n;
        idx += n;
        a += 16 * n;
        nb -= n;
    }
    if (rem) {
        uint8_t blk[16] = {0};
        memcpy(blk, a, rem);
        blk[rem] = 0x80;
        o ^= ld16(ok->lstar);
        st16(blk, ld16(blk) ^ o);
        be->ecb_encrypt(&ok->aes, blk, blk, 1);
        s ^= ld16(blk);
        mo_wipe(blk, sizeof blk);
    }
    st16(sum, s);
    if (used)
        mo_wipe(buf, used * 16);
}

/* The message (RFC 7253 sections 4.2 and 4.3): out = the encryption (dec = 0)
 * or decryption (dec = 1) of in from Offset_0 = off; on return off holds the
 * last offset (Offset_m or Offset_*) and cks the checksum of the plaintext,
 * the partial block's padding included. */
static void ocb_body(const ak_ocb_key *ok, int dec, uint8_t *out, const uint8_t *in, size_t len,
                     uint8_t off[16], uint8_t cks[16])
{
    const ak_backend *be = ok->aes.be;
    uint8_t offs[OCB_CHUNK * 16];
    mo_v2u64 o = ld16(off), c = {0, 0};
    size_t nb = len / 16, rem = len % 16, used = 0;
    uint64_t idx = 0;
    if (be->ocb_blocks && nb) {
        uint8_t cb[16] = {0};
        be->ocb_blocks(&ok->aes, ok->L, out, in, nb, off, cb, dec ? AK_OCB_DECRYPT : AK_OCB_ENCRYPT);
        o = ld16(off);
        c = ld16(cb);
        in += 16 * nb;
        out += 16 * nb;
        nb = 0;
        mo_wipe(cb, sizeof cb);
    }
    while (nb) {
        size_t n = nb < OCB_CHUNK ? nb : OCB_CHUNK;
        o = ocb_offsets(ok, offs, n, idx, o);
        if (!dec) {
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
        out += 16 * n;
        nb -= n;
    }
    if (rem) {
        uint8_t pad[16], p[16] = {0};
        o ^= ld16(ok->lstar);
        st16(off, o);
        be->ecb_encrypt(&ok->aes, pad, off, 1);
        for (size_t i = 0; i < rem; i++) {
            uint8_t x = in[i] ^ pad[i];
            p[i] = dec ? x : in[i];
            out[i] = x;
        }
        p[rem] = 0x80;
        c ^= ld16(p);
        mo_wipe(pad, sizeof pad);
        mo_wipe(p, sizeof p);
    }
    st16(off, o);
    st16(cks, c);
    if (used)
        mo_wipe(offs, used * 16);
}

/* The full tag: E_K(Checksum ^ Offset ^ L_$) ^ HASH(K, A). */
static void ocb_tag(const ak_ocb_key *ok, const uint8_t off[16], const uint8_t cks[16],
                    const uint8_t *aad, size_t aad_len, uint8_t tag[16])
{
    uint8_t t[16], h[16];
    xor16_to(t, cks, off);
    xor16_into(t, ok->ldollar);
    ok->aes.be->ecb_encrypt(&ok->aes, t, t, 1);
    ocb_hash(ok, aad, aad_len, h);
    xor16_to(tag, t, h);
    mo_wipe(t, sizeof t);
    mo_wipe(h, sizeof h);
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
    uint8_t off[16], cks[16], T[16];
    ocb_offset0(ok, nonce, nonce_len, tag_len, off);
    ocb_body(ok, 0, out, in, len, off, cks);
    ocb_tag(ok, off, cks, aad, aad_len, T);
    memcpy(tag, T, tag_len);
    mo_wipe(off, sizeof off);
    mo_wipe(cks, sizeof cks);
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
    uint8_t off0[16], off[16], cks[16], T[16];
    ocb_offset0(ok, nonce, nonce_len, tag_len, off0);
    memcpy(off, off0, 16);
    ocb_body(ok, 1, out, in, len, off, cks);
    ocb_tag(ok, off, cks, aad, aad_len, T);
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
    mo_wipe(T, sizeof T);
    return st;
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
