/*
 * blockloop.c - the portable mode loops over any backend's multi-block ECB
 * (see internal.h).  CPU features: none.
 *
 * Each loop gathers up to AK_BL_BATCH blocks of cipher input in a stack
 * buffer and makes one ecb_encrypt/ecb_decrypt call for them, so a backend
 * that is fast on many blocks (bitsliced, pipelined AES instructions) is
 * fast here too.  Counters and block counts are public; keystream and
 * tweak buffers are wiped before returning.
 */
#include "../internal.h"

#define AK_BL_BATCH 64

/* GCM's inc32 (SP 800-38D 6.2): the last 4 bytes, big-endian, mod 2^32. */
static inline void inc32(uint8_t c[16])
{
    ak_store_be32(c + 12, ak_load_be32(c + 12) + 1);
}

/* 128-bit big-endian increment mod 2^128. */
static inline void inc128(uint8_t c[16])
{
    uint64_t lo = ak_load_be64(c + 8) + 1;
    uint64_t hi = ak_load_be64(c) + (lo == 0);
    ak_store_be64(c + 8, lo);
    ak_store_be64(c, hi);
}

static void ctr_loop(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                     uint8_t ctr[16], int wide)
{
    uint8_t ks[AK_BL_BATCH * 16];
    if (nblocks == 0)
        return;
    while (nblocks > 0) {
        size_t n = nblocks < AK_BL_BATCH ? nblocks : AK_BL_BATCH;
        for (size_t i = 0; i < n; i++) {
            memcpy(ks + 16 * i, ctr, 16);
            if (wide)
                inc128(ctr);
            else
                inc32(ctr);
        }
        k->be->ecb_encrypt(k, ks, ks, n);
        for (size_t i = 0; i < 16 * n; i++)
            out[i] = in[i] ^ ks[i];
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    aeskit_memzero(ks, sizeof ks);
}

void ak_blockloop_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                        uint8_t ctr[16])
{
    ctr_loop(k, out, in, nblocks, ctr, 0);
}

void ak_blockloop_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                         uint8_t ctr[16])
{
    ctr_loop(k, out, in, nblocks, ctr, 1);
}

void ak_blockloop_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t iv[16])
{
    uint8_t s[16];
    if (nblocks == 0)
        return;
    memcpy(s, iv, 16);
    for (size_t i = 0; i < nblocks; i++) {
        ak_xor16(s, s, in + 16 * i);
        k->be->ecb_encrypt(k, s, s, 1);
        memcpy(out + 16 * i, s, 16);
    }
    memcpy(iv, s, 16);
}

void ak_blockloop_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t iv[16])
{
    uint8_t buf[AK_BL_BATCH * 16], next[16];
    if (nblocks == 0)
        return;
    while (nblocks > 0) {
        size_t n = nblocks < AK_BL_BATCH ? nblocks : AK_BL_BATCH;
        k->be->ecb_decrypt(k, buf, in, n);
        memcpy(next, in + 16 * (n - 1), 16);
        /* Backwards, so that in-place (out == in) still reads each
         * ciphertext block before it is overwritten. */
        for (size_t i = n - 1; i > 0; i--)
            ak_xor16(out + 16 * i, buf + 16 * i, in + 16 * (i - 1));
        ak_xor16(out, buf, iv);
        memcpy(iv, next, 16);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    aeskit_memzero(buf, sizeof buf);
}

void ak_blockloop_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++) {
        ak_xor16(state, state, in + 16 * i);
        k->be->ecb_encrypt(k, state, state, 1);
    }
}

/* A 64-bit word whose in-memory bytes are v little-endian. */
static inline uint64_t le_word(uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return v;
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && defined(__GNUC__)
    return __builtin_bswap64(v);
#else
    uint8_t b[8];
    uint64_t r;
    ak_store_le64(b, v);
    memcpy(&r, b, 8);
    return r;
#endif
}

/* The tweak stays in two registers (IEEE 1619 little-endian halves) and is
 * doubled branch-free per block (as ak_xts_double); the XORs run on 64-bit
 * words. */
static void xts_loop(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                     uint8_t tweak[16], int decrypt)
{
    uint64_t buf[AK_BL_BATCH * 2], tw[AK_BL_BATCH * 2];
    uint64_t lo = ak_load_le64(tweak), hi = ak_load_le64(tweak + 8);
    if (nblocks == 0)
        return;
    while (nblocks > 0) {
        size_t n = nblocks < AK_BL_BATCH ? nblocks : AK_BL_BATCH;
        memcpy(buf, in, 16 * n);
        for (size_t i = 0; i < n; i++) {
            uint64_t carry = (uint64_t)0 - (hi >> 63);
            tw[2 * i] = le_word(lo);
            tw[2 * i + 1] = le_word(hi);
            buf[2 * i] ^= tw[2 * i];
            buf[2 * i + 1] ^= tw[2 * i + 1];
            hi = (hi << 1) | (lo >> 63);
            lo = (lo << 1) ^ (carry & 0x87);
        }
        if (decrypt)
            k->be->ecb_decrypt(k, (uint8_t *)buf, (const uint8_t *)buf, n);
        else
            k->be->ecb_encrypt(k, (uint8_t *)buf, (const uint8_t *)buf, n);
        for (size_t i = 0; i < 2 * n; i++)
            buf[i] ^= tw[i];
        memcpy(out, buf, 16 * n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
    ak_store_le64(tweak, lo);
    ak_store_le64(tweak + 8, hi);
    aeskit_memzero(buf, sizeof buf);
    aeskit_memzero(tw, sizeof tw);
}

void ak_blockloop_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t tweak[16])
{
    xts_loop(k, out, in, nblocks, tweak, 0);
}

void ak_blockloop_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t tweak[16])
{
    xts_loop(k, out, in, nblocks, tweak, 1);
}

void ak_cbc_lanes_serial(ak_cbc_lane *l, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const ak_aes *k = l[i].aes;
        if (l[i].blocks == 0)
            continue;
        if (l[i].out)
            k->be->cbc_encrypt(k, l[i].out, l[i].in, l[i].blocks, l[i].iv);
        else
            k->be->cbcmac(k, l[i].iv, l[i].in, l[i].blocks);
    }
}
