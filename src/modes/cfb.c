/*
 * cfb.c - CFB-128 and CFB-8 (SP 800-38A 6.3), one-shot and streaming.
 * Portable C11; no CPU features needed.
 *
 * With I_1 = IV and s-bit segments: O_j = CIPH_K(I_j), C_j = P_j ^ MSB_s(O_j),
 * I_{j+1} = LSB_{128-s}(I_j) || C_j.  For s = 128 the input block of every
 * segment is the previous ciphertext block, so decryption,
 *     P_j = C_j ^ CIPH_K(C_{j-1})   (C_0 = IV),
 * needs only known ciphertext: one ecb_encrypt over the ciphertext shifted
 * by one block gives every keystream block at once (the backend's widest
 * ECB kernel).  Encryption is serial, but x_i = CIPH_K(x_{i-1} ^ P_{i-1})
 * is a CBC encryption of the plaintext shifted by one block, so it runs in
 * the backend's CBC kernel (cfb128_enc_blocks), or in the backend's own
 * serial CFB kernel (cfb128_encrypt) where it has one.  CFB-8 encryption is
 * serial with one cipher call per byte; its decryption, like CFB-128's,
 * needs only known ciphertext and runs in parallel (cfb8_dec).
 */
#include "modes.h"

#define CFB_MAGIC 0x43464231u /* "CFB1" */

/* Blocks per ecb_encrypt of the parallel decryption: 1 KiB of keystream on
 * the stack, long enough for every backend's widest kernel. */
#define CFB_CHUNK 128

typedef struct mo_cfb_ctx {
    const ak_aes *k;
    uint32_t magic;
    uint8_t segment; /* 16 (CFB-128) or 1 (CFB-8) */
    uint8_t decrypt; /* 0 encrypt, 1 decrypt */
    uint8_t used;    /* CFB-128: bytes of ks already used, 16 = none left */
    uint8_t pad_;
    uint8_t reg[16]; /* I_j; CFB-128: its first `used` bytes already C_j */
    uint8_t ks[16];  /* CFB-128: O_j */
} mo_cfb_ctx;
_Static_assert(sizeof(mo_cfb_ctx) <= sizeof(aeskit_cfb_ctx), "CFB context fits");
_Static_assert(_Alignof(mo_cfb_ctx) <= _Alignof(aeskit_cfb_ctx), "CFB context alignment");

/* out = a ^ b over n bytes (a multiple of 16), 16 bytes at a time. */
static inline void cfb_xor_blocks(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i += 16) {
        mo_v2u64 x, y;
        memcpy(&x, a + i, 16);
        memcpy(&y, b + i, 16);
        x ^= y;
        memcpy(out + i, &x, 16);
    }
}

/* CFB-128 encryption of nb whole blocks.  The keystream block of block i
 * is x_i = CIPH_K(C_{i-1}) = CIPH_K(x_{i-1} ^ P_{i-1}): a CBC encryption of
 * the plaintext shifted by one block, chained from x_i.  So each chunk is
 * one call of the backend's serial cbc_encrypt kernel (round keys loaded
 * once per chunk), which can also yield the keystream of the block after
 * the chunk; the last chunk computes it only where want_next asks (a
 * partial block follows), since each block of the chain costs a whole
 * encryption's latency.  ks = x of the first block in (CIPH_K(C_0)); out,
 * if want_next, x of the block after the last one; reg = the last
 * ciphertext block out. */
static void cfb128_enc_blocks(const ak_aes *a, uint8_t *out, const uint8_t *in, size_t nb,
                              uint8_t reg[16], uint8_t ks[16], int want_next)
{
    uint8_t x[16 * (CFB_CHUNK + 1)];
    for (size_t s = 0; s < nb; s += CFB_CHUNK) {
        size_t n = nb - s < CFB_CHUNK ? nb - s : CFB_CHUNK;
        size_t m = (s + n == nb && !want_next) ? n - 1 : n; /* blocks the kernel encrypts */
        uint8_t chain[16];
        memcpy(x, ks, 16);
        memcpy(chain, ks, 16);
        /* Every plaintext block of the chunk is read here, before the
         * chunk's output is written (in place). */
        if (m)
            a->be->cbc_encrypt(a, x + 16, in + 16 * s, m, chain);
        cfb_xor_blocks(out + 16 * s, in + 16 * s, x, 16 * n);
        memcpy(ks, x + 16 * m, 16);
        mo_wipe(chain, sizeof chain);
    }
    memcpy(reg, out + 16 * (nb - 1), 16);
    mo_wipe(x, sizeof x);
}

/* CFB-128 decryption of nb whole blocks, in parallel: the backend's one-pass
 * cfb128_decrypt where it has one; else out of place one ecb_encrypt and an
 * XOR pass, in place chunks from the last to the first, so the ciphertext
 * block before a chunk is still intact when the chunk is decrypted.
 * reg = C_0 in, C_nb out. */
static void cfb128_dec_blocks(const ak_aes *a, uint8_t *out, const uint8_t *in, size_t nb,
                              uint8_t reg[16])
{
    uint8_t ks[16 * CFB_CHUNK], lastc[16];
    if (!nb)
        return;
    if (a->be->cfb128_decrypt) {
        a->be->cfb128_decrypt(a, out, in, nb, reg);
        return;
    }
    memcpy(lastc, in + 16 * (nb - 1), 16);
    if (out != in) {
        /* Out of place: the keystream of blocks 2..nb straight into out by
         * one ecb_encrypt of the ciphertext, then out ^= in. */
        if (nb > 1)
            a->be->ecb_encrypt(a, out + 16, in, nb - 1);
        a->be->ecb_encrypt(a, out, reg, 1);
        cfb_xor_blocks(out, out, in, 16 * nb);
        memcpy(reg, lastc, 16);
        return;
    }
    size_t e = nb;
    while (e) {
        size_t s = e > CFB_CHUNK ? e - CFB_CHUNK : 0, n = e - s;
        if (s) {
            a->be->ecb_encrypt(a, ks, in + 16 * (s - 1), n);
        } else {
            memcpy(ks, reg, 16);
            memcpy(ks + 16, in, 16 * (n - 1));
            a->be->ecb_encrypt(a, ks, ks, n);
        }
        cfb_xor_blocks(out + 16 * s, in + 16 * s, ks, 16 * n);
        e = s;
    }
    memcpy(reg, lastc, 16);
    mo_wipe(ks, sizeof ks);
}

/* CFB-128 over any len with the partial-segment state (reg, ks, used). */
static void cfb128_run(const ak_aes *a, int decrypt, uint8_t reg[16], uint8_t ks[16],
                       uint8_t *used, uint8_t *out, const uint8_t *in, size_t len)
{
    /* Finish a segment begun by an earlier update. */
    while (*used < 16 && len) {
        uint8_t c = decrypt ? *in : (uint8_t)(*in ^ ks[*used]);
        *out = (uint8_t)(c ^ (decrypt ? ks[*used] : 0));
        reg[*used] = c;
        (*used)++;
        in++;
        out++;
        len--;
    }
    size_t nb = len / 16, rem = len % 16;
    if (nb && decrypt) {
        cfb128_dec_blocks(a, out, in, nb, reg);
    } else if (nb && a->be->cfb128_encrypt) {
        a->be->cfb128_encrypt(a, out, in, nb, reg);
    } else if (nb) {
        a->be->ecb_encrypt(a, ks, reg, 1);
        cfb128_enc_blocks(a, out, in, nb, reg, ks, rem != 0); /* if rem: ks = CIPH_K(reg) on return */
    }
    if (rem) {
        in += 16 * nb;
        out += 16 * nb;
        if (!nb || decrypt || a->be->cfb128_encrypt)
            a->be->ecb_encrypt(a, ks, reg, 1);
        for (size_t i = 0; i < rem; i++) {
            uint8_t c = decrypt ? in[i] : (uint8_t)(in[i] ^ ks[i]);
            out[i] = (uint8_t)(c ^ (decrypt ? ks[i] : 0));
            reg[i] = c;
        }
        *used = (uint8_t)rem;
    }
}

/* CFB-8 decryption in parallel: the input block of byte i is the 16 bytes
 * before it in I_1 || C (the register is a window sliding over the
 * ciphertext), all of them known.  Per chunk: the windows side by side,
 * one ecb_encrypt, P_i = C_i ^ MSB_8(O_i).  The chunk's ciphertext is
 * copied before any of its output is written, so in place works. */
static void cfb8_dec(const ak_aes *a, uint8_t reg[16], uint8_t *out, const uint8_t *in,
                     size_t len)
{
    uint8_t win[16 + CFB_CHUNK], blk[16 * CFB_CHUNK];
    size_t used = 0;
    while (len) {
        size_t n = len < CFB_CHUNK ? len : CFB_CHUNK;
        memcpy(win, reg, 16);
        memcpy(win + 16, in, n);
        for (size_t j = 0; j < n; j++)
            memcpy(blk + 16 * j, win + j, 16);
        a->be->ecb_encrypt(a, blk, blk, n);
        for (size_t j = 0; j < n; j++)
            out[j] = (uint8_t)(win[16 + j] ^ blk[16 * j]);
        memcpy(reg, win + n, 16);
        used = used > n ? used : n;
        in += n;
        out += n;
        len -= n;
    }
    mo_wipe(blk, 16 * used);
}

/* CFB-8: per byte, O = CIPH_K(I), C = P ^ MSB_8(O), I = LSB_120(I) || C;
 * encryption serial, decryption through cfb8_dec from 16 bytes on. */
static void cfb8_run(const ak_aes *a, int decrypt, uint8_t reg[16], uint8_t *out,
                     const uint8_t *in, size_t len)
{
    if (decrypt && len >= 16) {
        cfb8_dec(a, reg, out, in, len);
        return;
    }
    if (!decrypt && len && a->be->cfb8_encrypt) {
        a->be->cfb8_encrypt(a, out, in, len, reg);
        return;
    }
    uint8_t ks[16];
    for (size_t i = 0; i < len; i++) {
        a->be->ecb_encrypt(a, ks, reg, 1);
        uint8_t x = in[i];
        uint8_t y = (uint8_t)(x ^ ks[0]);
        memmove(reg, reg + 1, 15);
        reg[15] = decrypt ? x : y;
        out[i] = y;
    }
    mo_wipe(ks, sizeof ks);
}

static aeskit_status cfb128_oneshot(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                    size_t len, const uint8_t iv[16], int decrypt)
{
    aeskit_status st = mo_ctr_checks(k, out, in, len, iv);
    if (st != AESKIT_OK)
        return st;
    if (!len)
        return AESKIT_OK;
    uint8_t reg[16], ks[16], used = 16;
    memcpy(reg, iv, 16);
    cfb128_run((const ak_aes *)k, decrypt, reg, ks, &used, out, in, len);
    mo_wipe(ks, sizeof ks);
    return AESKIT_OK;
}

aeskit_status aeskit_cfb128_encrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                    size_t len, const uint8_t iv[16])
{
    return cfb128_oneshot(k, out, in, len, iv, 0);
}

aeskit_status aeskit_cfb128_decrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                    size_t len, const uint8_t iv[16])
{
    return cfb128_oneshot(k, out, in, len, iv, 1);
}

static aeskit_status cfb8_oneshot(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                  size_t len, const uint8_t iv[16], int decrypt)
{
    aeskit_status st = mo_ctr_checks(k, out, in, len, iv);
    if (st != AESKIT_OK)
        return st;
    uint8_t reg[16];
    memcpy(reg, iv, 16);
    cfb8_run((const ak_aes *)k, decrypt, reg, out, in, len);
    mo_wipe(reg, sizeof reg);
    return AESKIT_OK;
}

aeskit_status aeskit_cfb8_encrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                  size_t len, const uint8_t iv[16])
{
    return cfb8_oneshot(k, out, in, len, iv, 0);
}

aeskit_status aeskit_cfb8_decrypt(const aeskit_aes_key *k, uint8_t *out, const uint8_t *in,
                                  size_t len, const uint8_t iv[16])
{
    return cfb8_oneshot(k, out, in, len, iv, 1);
}

/* ---- streaming ------------------------------------------------------------ */

static aeskit_status cfb_start(aeskit_cfb_ctx *ctx, const aeskit_aes_key *k,
                               aeskit_direction dir, const uint8_t iv[16], uint8_t segment)
{
    if (!ctx || !k || !iv)
        return AESKIT_ERR_NULL_POINTER;
    const ak_aes *a = (const ak_aes *)k;
    if (!ak_mo_ready(a, AK_MAGIC_AES))
        return AESKIT_ERR_STATE;
    if (dir != AESKIT_SEAL && dir != AESKIT_OPEN)
        return AESKIT_ERR_ARGUMENT;
    mo_cfb_ctx *c = (mo_cfb_ctx *)ctx;
    uint8_t reg[16];
    memcpy(reg, iv, 16); /* iv may point into the context itself */
    memset(c, 0, sizeof *c);
    c->k = a;
    c->segment = segment;
    c->decrypt = dir == AESKIT_OPEN;
    c->used = 16;
    memcpy(c->reg, reg, 16);
    c->magic = CFB_MAGIC;
    return AESKIT_OK;
}

aeskit_status aeskit_cfb128_start(aeskit_cfb_ctx *ctx, const aeskit_aes_key *k,
                                  aeskit_direction dir, const uint8_t iv[16])
{
    return cfb_start(ctx, k, dir, iv, 16);
}

aeskit_status aeskit_cfb8_start(aeskit_cfb_ctx *ctx, const aeskit_aes_key *k,
                                aeskit_direction dir, const uint8_t iv[16])
{
    return cfb_start(ctx, k, dir, iv, 1);
}

aeskit_status aeskit_cfb_update(aeskit_cfb_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    if (!ctx || ((!out || !in) && len))
        return AESKIT_ERR_NULL_POINTER;
    mo_cfb_ctx *c = (mo_cfb_ctx *)ctx;
    if (c->magic != CFB_MAGIC || c->used > 16 || (c->segment != 16 && c->segment != 1) ||
        !ak_mo_ready(c->k, AK_MAGIC_AES))
        return AESKIT_ERR_STATE; /* never started, or its key wiped */
    if (mo_bad_overlap(out, len, in, len))
        return AESKIT_ERR_OVERLAP;
    if (!len)
        return AESKIT_OK;
    if (c->segment == 16)
        cfb128_run(c->k, c->decrypt, c->reg, c->ks, &c->used, out, in, len);
    else
        cfb8_run(c->k, c->decrypt, c->reg, out, in, len);
    return AESKIT_OK;
}

void aeskit_cfb_ctx_wipe(aeskit_cfb_ctx *ctx)
{
    if (ctx)
        aeskit_memzero(ctx, sizeof *ctx);
}
