/*
 * aes_generic_scalar.c - the fallback AES block function for C11 compilers
 * without GNU vector extensions (built here with -DAK_GENERIC_SCALAR to test
 * it).  CPU features: none.  Correct on any byte order; slow but constant
 * time.
 *
 * One block at a time, bitsliced into 8 words ("planes"): bit p of plane b
 * is bit b of state byte p (p = 4 * column + row, FIPS-197 order), the same
 * layout as the vector code within one 128-bit lane, with one bit per byte
 * position instead of one byte.  So:
 *   ShiftRows   rotates row r (bits r, r+4, r+8, r+12) right by 4r bits;
 *   row rotations inside a column are shifts inside each 4-bit nibble;
 *   SubBytes and xtime are the same circuits as in aes_generic_core.h.
 */
#include "generic.h"

#ifndef AK_GEN_VECTORS
#include "aes_generic_sbox.h"

static uint32_t sr1(uint32_t x, int inverse)
{
    uint32_t o = x & 0x1111u;
    for (int r = 1; r < 4; r++) {
        uint32_t v = x & (0x1111u << r);
        unsigned s = (unsigned)(inverse ? 16 - 4 * r : 4 * r);
        o |= ((v >> s) | (v << (16 - s))) & (0x1111u << r);
    }
    return o;
}
static uint32_t rot1(uint32_t x) { return ((x >> 1) & 0x7777u) | ((x << 3) & 0x8888u); }
static uint32_t rot2(uint32_t x) { return ((x >> 2) & 0x3333u) | ((x << 2) & 0xccccu); }

static void xtime(uint32_t o[8], const uint32_t t[8])
{
    uint32_t h = t[7];
    o[7] = t[6]; o[6] = t[5]; o[5] = t[4]; o[4] = t[3] ^ h;
    o[3] = t[2] ^ h; o[2] = t[1]; o[1] = t[0] ^ h; o[0] = h;
}

static void mix(uint32_t x[8])
{
    uint32_t r1[8], t[8], m[8];
    for (int i = 0; i < 8; i++) {
        r1[i] = rot1(x[i]);
        t[i] = x[i] ^ r1[i];
    }
    xtime(m, t);
    for (int i = 0; i < 8; i++)
        x[i] = m[i] ^ r1[i] ^ rot2(t[i]);
}

static void inv_mix(uint32_t x[8])
{
    uint32_t t[8], t2[8], t4[8];
    for (int i = 0; i < 8; i++)
        t[i] = x[i] ^ rot2(x[i]);
    xtime(t2, t);
    xtime(t4, t2);
    for (int i = 0; i < 8; i++)
        x[i] ^= t4[i];
    mix(x);
}

static void inv_affine(uint32_t x[8])
{
    uint32_t y[8];
    for (int i = 0; i < 8; i++)
        y[i] = x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
    for (int i = 0; i < 8; i++)
        x[i] = y[i];
    x[0] = ~x[0];
    x[2] = ~x[2];
}

static void sbox(uint32_t x[8]) { AK_SBOX_CIRCUIT(uint32_t, x); }

static void planes(uint32_t x[8], const uint8_t *b)
{
    for (int i = 0; i < 8; i++) {
        x[i] = 0;
        for (int p = 0; p < 16; p++)
            x[i] |= (uint32_t)((b[p] >> i) & 1) << p;
    }
}

static void unplanes(uint8_t *b, const uint32_t x[8])
{
    for (int p = 0; p < 16; p++) {
        unsigned v = 0;
        for (int i = 0; i < 8; i++)
            v |= ((x[i] >> p) & 1u) << i;
        b[p] = (uint8_t)v;
    }
}

static void block(const uint32_t *rkp, unsigned rounds, uint8_t *out, const uint8_t *in, int dec)
{
    uint32_t x[8];
    planes(x, in);
    if (!dec) {
        for (int i = 0; i < 8; i++)
            x[i] ^= rkp[i];
        for (unsigned r = 1; r <= rounds; r++) {
            sbox(x);
            for (int i = 0; i < 8; i++)
                x[i] = sr1(x[i], 0);
            if (r < rounds)
                mix(x);
            for (int i = 0; i < 8; i++)
                x[i] ^= rkp[8 * r + i];
        }
    } else {
        for (int i = 0; i < 8; i++)
            x[i] ^= rkp[8 * rounds + i];
        for (unsigned r = rounds; r-- > 0;) {
            for (int i = 0; i < 8; i++)
                x[i] = sr1(x[i], 1);
            inv_affine(x);
            sbox(x);
            inv_affine(x);
            for (int i = 0; i < 8; i++)
                x[i] ^= rkp[8 * r + i];
            if (r > 0)
                inv_mix(x);
        }
    }
    unplanes(out, x);
    for (int i = 0; i < 8; i++)
        x[i] = 0;
}

static void ecb(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n,
                int dec)
{
    uint32_t rkp[15 * 8];
    for (unsigned r = 0; r <= rounds; r++)
        planes(rkp + 8 * r, rk + 16 * r);
    for (size_t i = 0; i < n; i++)
        block(rkp, rounds, out + 16 * i, in + 16 * i, dec);
    aeskit_memzero(rkp, sizeof rkp);
}

static void sc_enc(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    ecb(rk, rounds, out, in, n, 0);
}

static void sc_dec(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, size_t n)
{
    ecb(rk, rounds, out, in, n, 1);
}

static void sc_ctr(const ak_gen_key *gk, unsigned rounds, uint8_t *out, const uint8_t *in,
                   size_t nblocks, uint8_t ctr[16], int wide)
{
    const uint8_t *rk = gk->rk;
    uint32_t rkp[15 * 8];
    uint8_t ks[16];
    for (unsigned r = 0; r <= rounds; r++)
        planes(rkp + 8 * r, rk + 16 * r);
    for (size_t i = 0; i < nblocks; i++) {
        block(rkp, rounds, ks, ctr, 0);
        for (int j = 0; j < 16; j++)
            out[16 * i + j] = in[16 * i + j] ^ ks[j];
        ak_ctr_inc_be(ctr, wide);
    }
    aeskit_memzero(rkp, sizeof rkp);
    aeskit_memzero(ks, sizeof ks);
}

const ak_gen_aes_impl ak_gen_aes_w16 = {"bitslice-scalar", 1, sc_enc, sc_dec, sc_ctr};
#else
/* ISO C forbids an empty translation unit. */
typedef int ak_aes_generic_scalar_unused;
#endif
