/*
 * gcmsiv.c - AES-GCM-SIV (RFC 8452), one-shot seal and open.
 * Portable C11; no CPU features needed (the backend does AES and GHASH).
 *
 * RFC 8452 section 4, for the key-generating key K and the 12-byte nonce N:
 *   auth_key = E_K(LE32(0) || N)[0..7] || E_K(LE32(1) || N)[0..7],
 *   enc_key  = E_K(LE32(2) || N)[0..7] || E_K(LE32(3) || N)[0..7]
 *              (AES-256: || E_K(LE32(4) || N)[0..7] || E_K(LE32(5) || N)[0..7]);
 *   S   = POLYVAL(auth_key, A || 0^v || P || 0^u || LE64(8|A|) || LE64(8|P|)),
 *   tag = E_enc(S ^ (N || 0^32), with the top bit of byte 15 cleared),
 *   C   = P ^ E_enc(CB), E_enc(CB + 1), ..., where CB is the tag with the top
 *         bit of byte 15 set and its first 4 bytes a little-endian counter
 *         incremented modulo 2^32.
 * A backend may run POLYVAL and the counter pass natively (its optional
 * polyval_init, polyval and ctr32le entries), and open's two passes as one
 * (ctr32le_polyval: the keystream and POLYVAL of the plaintext it gives).
 * Else POLYVAL runs on the backend's GHASH, by RFC 8452 appendix A:
 *   POLYVAL(H, X_1, ..., X_n)
 *     = rev(GHASH(mulX_GHASH(rev(H)), rev(X_1), ..., rev(X_n))),
 * rev being the byte reversal of a 16-byte block, done here over stack
 * chunks.  The keystream: counter blocks written here in chunks, encrypted
 * by the backend's parallel ECB (its ctr32 counts big-endian in the last
 * word, which is not this counter).
 *
 * Constant time: the nonce, the lengths and the tag (hence the counter
 * blocks) are public; the derived keys, the plaintext and the POLYVAL state
 * reach only the backend's constant-time primitives and XORs.
 */
#include "modes.h"

/* A 32-bit little-endian word as the host stores it in a vector lane. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MO_LE32(x) __builtin_bswap32(x)
#else
#define MO_LE32(x) (x)
#endif

typedef struct ak_gcmsiv_key {
    ak_aes aes; /* the key-generating key; magic AK_MAGIC_GCMSIV */
    AK_ALIGN64 uint8_t reserved[64];
} ak_gcmsiv_key;
_Static_assert(sizeof(ak_gcmsiv_key) == sizeof(aeskit_gcmsiv_key), "ak_gcmsiv_key size");

/* Blocks per stack chunk (byte reversal and counter blocks): 1 KiB. */
#define SIV_CHUNK 64
/* RFC 8452 section 6: P_MAX = A_MAX = 2^36 bytes. */
#define SIV_MAX_LEN ((uint64_t)1 << 36)

/* The per-message keys (RFC 8452 section 4), on the key's backend. */
typedef struct siv_msg {
    ak_aes enc;  /* message-encryption key */
    ak_ghash gh; /* message-authentication key as a GHASH key */
} siv_msg;

/* ---- POLYVAL on GHASH -------------------------------------------------------- */

/* out = in with its 16 bytes in reverse order (out may equal in).  Where the
 * compiler has __builtin_shufflevector (clang, GCC 12) it is written as
 * three steps every 128-bit vector unit has without a byte shuffle (the x86
 * baseline, SSE2, has none): the four 32-bit words reversed, the two 16-bit
 * halves of each word swapped, the two bytes of each half swapped (pshufd,
 * pshuflw/pshufhw, two shifts and an OR).  Else two 64-bit byte swaps. */
typedef uint32_t siv_v4u32 __attribute__((vector_size(16)));
typedef uint16_t siv_v8u16 __attribute__((vector_size(16)));
static inline void rev16(uint8_t out[16], const uint8_t in[16])
{
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
    siv_v4u32 w;
    siv_v8u16 h;
    memcpy(&w, in, 16);
    w = __builtin_shufflevector(w, w, 3, 2, 1, 0);
    memcpy(&h, &w, 16);
    h = __builtin_shufflevector(h, h, 1, 0, 3, 2, 5, 4, 7, 6);
    h = (siv_v8u16)((h << 8) | (h >> 8));
    memcpy(out, &h, 16);
#else
    uint64_t a, b;
    memcpy(&a, in, 8);
    memcpy(&b, in + 8, 8);
    a = __builtin_bswap64(a);
    b = __builtin_bswap64(b);
    memcpy(out, &b, 8);
    memcpy(out + 8, &a, 8);
#endif
}

/* Multiplication by x in GHASH's field (SP 800-38D 6.3, bit-reflected): a
 * right shift of the block read big-endian, R = 11100001 || 0^120 added when
 * the bit shifted out was set.  Branch-free. */
static inline void mulx_ghash(uint8_t b[16])
{
    uint64_t hi = ak_load_be64(b), lo = ak_load_be64(b + 8);
    uint64_t mask = (uint64_t)0 - (lo & 1);
    lo = (lo >> 1) | (hi << 63);
    hi = (hi >> 1) ^ (mask & 0xe100000000000000ull);
    ak_store_be64(b, hi);
    ak_store_be64(b + 8, lo);
}

/* Folds n bytes (zero padded to whole blocks) into the GHASH-domain state Y:
 * the blocks byte-reversed through a stack chunk, then the backend's GHASH. */
static void polyval_padded(const ak_backend *be, const ak_ghash *gh, uint8_t Y[16],
                           const uint8_t *p, size_t n)
{
    uint8_t buf[SIV_CHUNK * 16];
    size_t used = 0;
    while (n) {
        size_t take = n < sizeof buf ? n : sizeof buf;
        size_t nb = take / 16, rem = take % 16;
        for (size_t j = 0; j < nb; j++)
            rev16(buf + 16 * j, p + 16 * j);
        if (rem) {
            uint8_t blk[16] = {0};
            memcpy(blk, p + 16 * nb, rem);
            rev16(buf + 16 * nb, blk);
            mo_wipe(blk, sizeof blk);
            nb++;
        }
        be->ghash(gh, Y, buf, nb);
        used = used > nb ? used : nb;
        p += take;
        n -= take;
    }
    if (used)
        mo_wipe(buf, used * 16);
}

/* ---- the mode ------------------------------------------------------------------ */

static inline void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* RFC 8452 section 4: the message keys of nonce N, in one ECB call; the
 * POLYVAL key is set up for nblocks blocks (the backend's polyval_init
 * precomputes no more powers than the message uses). */
static void siv_derive(const ak_gcmsiv_key *sk, const uint8_t nonce[12], size_t nblocks,
                       siv_msg *m)
{
    const ak_backend *be = sk->aes.be;
    size_t nb = sk->aes.key_len == 32 ? 6 : 4;
    uint8_t blk[6 * 16], keys[6 * 8], h[16];
    for (size_t i = 0; i < nb; i++) {
        store_le32(blk + 16 * i, (uint32_t)i);
        memcpy(blk + 16 * i + 4, nonce, 12);
    }
    be->ecb_encrypt(&sk->aes, blk, blk, nb);
    for (size_t i = 0; i < nb; i++)
        memcpy(keys + 8 * i, blk + 16 * i, 8);
    if (be->polyval_init) {
        be->polyval_init(&m->gh, keys, nblocks);
    } else {
        /* The GHASH key of POLYVAL's key (RFC 8452 appendix A). */
        rev16(h, keys);
        mulx_ghash(h);
        aeskit_memzero(&m->gh, sizeof m->gh);
        be->ghash_init(&m->gh, h);
    }
    ak_mo_aes_setup(&m->enc, be, keys + 16, (nb - 2) * 8, 0);
    mo_wipe(blk, sizeof blk);
    mo_wipe(keys, sizeof keys);
    mo_wipe(h, sizeof h);
}

/* LE64(8|A|) || LE64(8|P|), POLYVAL's last block (RFC 8452 section 4). */
static inline void siv_len_block(uint8_t lb[16], size_t aad_len, size_t len)
{
    ak_store_le64(lb, (uint64_t)aad_len * 8);
    ak_store_le64(lb + 8, (uint64_t)len * 8);
}

/* tag = E_enc(S ^ (N || 0^32), top bit of byte 15 cleared); S is clobbered. */
static void siv_tag_of(const siv_msg *m, uint8_t S[16], const uint8_t nonce[12], uint8_t tag[16])
{
    for (int i = 0; i < 12; i++)
        S[i] ^= nonce[i];
    S[15] &= 0x7f;
    m->enc.be->ecb_encrypt(&m->enc, tag, S, 1);
}

/* The tag over aad and the plaintext pt (RFC 8452 section 4). */
static void siv_tag(const siv_msg *m, const uint8_t *aad, size_t aad_len, const uint8_t *pt,
                    size_t len, const uint8_t nonce[12], uint8_t tag[16])
{
    const ak_backend *be = m->enc.be;
    uint8_t Y[16] = {0}, S[16], lb[16];
    if (be->polyval) {
        memset(S, 0, sizeof S);
        be->polyval(&m->gh, S, aad, aad_len);
        be->polyval(&m->gh, S, pt, len);
        siv_len_block(lb, aad_len, len);
        be->polyval(&m->gh, S, lb, 16);
    } else {
        polyval_padded(be, &m->gh, Y, aad, aad_len);
        polyval_padded(be, &m->gh, Y, pt, len);
        /* rev(LE64(8|A|) || LE64(8|P|)) = BE64(8|P|) || BE64(8|A|) */
        ak_store_be64(lb, (uint64_t)len * 8);
        ak_store_be64(lb + 8, (uint64_t)aad_len * 8);
        be->ghash(&m->gh, Y, lb, 1);
        rev16(S, Y);
    }
    siv_tag_of(m, S, nonce, tag);
    mo_wipe(Y, sizeof Y);
    mo_wipe(S, sizeof S);
}

/* Open with the backend's one-pass ctr32le_polyval: out = in ^ the keystream
 * of the received tag T, and the expected tag E over aad and out. */
static void siv_open_fused(const siv_msg *m, uint8_t *out, const uint8_t *in, size_t len,
                           const uint8_t *aad, size_t aad_len, const uint8_t nonce[12],
                           const uint8_t T[16], uint8_t E[16])
{
    const ak_backend *be = m->enc.be;
    uint8_t S[16] = {0}, cb[16], lb[16];
    memcpy(cb, T, 16);
    cb[15] |= 0x80;
    be->polyval(&m->gh, S, aad, aad_len);
    be->ctr32le_polyval(&m->enc, &m->gh, out, in, len, cb, S);
    siv_len_block(lb, aad_len, len);
    be->polyval(&m->gh, S, lb, 16);
    siv_tag_of(m, S, nonce, E);
    mo_wipe(S, sizeof S);
}

/* out = in ^ the keystream of the tag (its own inverse), any len.  Each
 * counter block is the tag's last 12 bytes under a 32-bit little-endian
 * counter, written as one 16-byte store. */
static void siv_ctr(const ak_aes *enc, uint8_t *out, const uint8_t *in, size_t len,
                    const uint8_t tag[16])
{
    uint8_t cb[16], ks[SIV_CHUNK * 16];
    size_t used = 0;
    memcpy(cb, tag, 16);
    cb[15] |= 0x80;
    if (enc->be->ctr32le) {
        enc->be->ctr32le(enc, out, in, len, cb);
        return;
    }
    uint32_t ctr = load_le32(cb);
    mo_v4u32 tmpl;
    memcpy(&tmpl, cb, 16);
    while (len) {
        size_t take = len < sizeof ks ? len : sizeof ks;
        size_t nb = (take + 15) / 16;
        for (size_t j = 0; j < nb; j++) {
            mo_v4u32 v = tmpl;
            v[0] = MO_LE32(ctr + (uint32_t)j);
            memcpy(ks + 16 * j, &v, 16);
            /* The counter comes from the tag, the index is public: the
             * empty asm makes j opaque, so the compiler cannot turn the
             * loop's exit test into a compare on the counter (a branch on
             * the tag).  The barrier takes the public value, never the
             * secret: an asm operand counts as a use under MSan. */
            __asm__("" : "+r"(j));
        }
        ctr += (uint32_t)nb;
        enc->be->ecb_encrypt(enc, ks, ks, nb);
        size_t i = 0;
        for (; i + 16 <= take; i += 16) {
            mo_v2u64 a, b;
            memcpy(&a, in + i, 16);
            memcpy(&b, ks + i, 16);
            a ^= b;
            memcpy(out + i, &a, 16);
        }
        for (; i < take; i++)
            out[i] = in[i] ^ ks[i];
        used = used > nb ? used : nb;
        in += take;
        out += take;
        len -= take;
    }
    if (used)
        mo_wipe(ks, used * 16);
}

/* The blocks POLYVAL folds: A and P, each zero-padded, and the length block. */
static inline size_t siv_blocks(size_t aad_len, size_t len)
{
    return aad_len / 16 + (aad_len % 16 != 0) + len / 16 + (len % 16 != 0) + 1;
}

/* ---- the public functions ---------------------------------------------------------- */

static aeskit_status siv_checks(const ak_gcmsiv_key *sk, const uint8_t *out, const uint8_t *tag,
                                size_t tag_len, const uint8_t *in, size_t len,
                                const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                size_t aad_len)
{
    if (!sk || (!tag && tag_len) || ((!in || !out) && len) || (!nonce && nonce_len) ||
        (!aad && aad_len))
        return AESKIT_ERR_NULL_POINTER;
    if (!ak_mo_ready(&sk->aes, AK_MAGIC_GCMSIV))
        return AESKIT_ERR_STATE;
    if (tag_len != 16)
        return AESKIT_ERR_TAG_LENGTH;
    if ((uint64_t)len > SIV_MAX_LEN)
        return AESKIT_ERR_MESSAGE_TOO_LONG;
    if (nonce_len != 12)
        return AESKIT_ERR_NONCE_LENGTH;
    if ((uint64_t)aad_len > SIV_MAX_LEN)
        return AESKIT_ERR_AAD_TOO_LONG;
    if (mo_bad_overlap(out, len, in, len) || mo_any_overlap(tag, 16, out, len) ||
        mo_any_overlap(nonce, 12, out, len) || mo_any_overlap(aad, aad_len, out, len))
        return AESKIT_ERR_OVERLAP;
    return AESKIT_OK;
}

aeskit_status aeskit_gcmsiv_seal(const aeskit_gcmsiv_key *k, uint8_t *out, uint8_t *tag,
                                 size_t tag_len, const uint8_t *in, size_t len,
                                 const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                 size_t aad_len)
{
    const ak_gcmsiv_key *sk = (const ak_gcmsiv_key *)k;
    aeskit_status st =
        siv_checks(sk, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    siv_msg m;
    uint8_t T[16];
    siv_derive(sk, nonce, siv_blocks(aad_len, len), &m);
    siv_tag(&m, aad, aad_len, in, len, nonce, T);
    siv_ctr(&m.enc, out, in, len, T);
    memcpy(tag, T, 16); /* after every input is read: tag may overlap them */
    aeskit_memzero(&m, sizeof m);
    return AESKIT_OK;
}

aeskit_status aeskit_gcmsiv_open(const aeskit_gcmsiv_key *k, uint8_t *out, const uint8_t *in,
                                 size_t len, const uint8_t *tag, size_t tag_len,
                                 const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                                 size_t aad_len)
{
    const ak_gcmsiv_key *sk = (const ak_gcmsiv_key *)k;
    aeskit_status st =
        siv_checks(sk, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    if (st != AESKIT_OK)
        return st;
    siv_msg m;
    uint8_t T[16], E[16];
    memcpy(T, tag, 16);
    siv_derive(sk, nonce, siv_blocks(aad_len, len), &m);
    if (m.enc.be->ctr32le_polyval) {
        siv_open_fused(&m, out, in, len, aad, aad_len, nonce, T, E);
    } else {
        siv_ctr(&m.enc, out, in, len, T);
        siv_tag(&m, aad, aad_len, out, len, nonce, E);
    }
    uint32_t eq = ak_ct_eq_mask(E, T, 16);
    mo_wipe(E, sizeof E);
    if (!eq) {
        /* No plaintext released: in place, the keystream applied again
         * gives the ciphertext back; out of place, out is zeroed. */
        if (out == in)
            siv_ctr(&m.enc, out, out, len, T);
        else
            aeskit_memzero(out, len);
        st = AESKIT_ERR_AUTH;
    }
    aeskit_memzero(&m, sizeof m);
    return st;
}

aeskit_status aeskit_gcmsiv_init_backend(aeskit_gcmsiv_key *k, const uint8_t *key,
                                         size_t key_len, const char *backend)
{
    const ak_backend *be = NULL;
    aeskit_status st =
        ak_mo_init_checks(k, key, key_len, key_len == 16 || key_len == 32, backend, &be);
    if (st != AESKIT_OK)
        return st;
    ak_gcmsiv_key *sk = (ak_gcmsiv_key *)k;
    memset(sk->reserved, 0, sizeof sk->reserved);
    ak_mo_aes_setup(&sk->aes, be, key, key_len, AK_MAGIC_GCMSIV);
    return AESKIT_OK;
}

aeskit_status aeskit_gcmsiv_init(aeskit_gcmsiv_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_gcmsiv_init_backend(k, key, key_len, NULL);
}

const char *aeskit_gcmsiv_backend(const aeskit_gcmsiv_key *k)
{
    const ak_gcmsiv_key *sk = (const ak_gcmsiv_key *)k;
    return sk && ak_mo_ready(&sk->aes, AK_MAGIC_GCMSIV) ? sk->aes.be->name : "";
}

void aeskit_gcmsiv_wipe(aeskit_gcmsiv_key *k)
{
    if (k)
        aeskit_memzero(k, sizeof *k);
}
