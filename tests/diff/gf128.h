/*
 * gf128.h - the test suite's own GF(2^128) arithmetic in GCM's bit order,
 * written from SP 800-38D section 6.3 (Algorithm 1, the bit-by-bit
 * multiply with R = 11100001 || 0^120), slow and obviously correct.  It
 * exists to solve GCM IVs for a chosen pre-counter block J0 and never runs
 * code from the library under test.
 *
 * Why an IV can be solved for: for an IV whose length is not 96 bits,
 * SP 800-38D 7.1 step 2 sets
 *     J0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64)
 *        = X_1*H^(m+1) + X_2*H^m + ... + X_m*H^2 + L*H
 * where X_1..X_m are the zero-padded IV blocks and L the length block.
 * GHASH is linear over GF(2) in its input blocks, so fixing every block but
 * X_j, the wanted J0 determines X_j uniquely:
 *     X_j = (J0 + sum_{i != j} X_i*H^(m+2-i) + L*H) * (H^(m+2-j))^(-1)
 * (addition is XOR), and the inverse is a^(2^128-2) (the multiplicative
 * group has order 2^128-1).  H = E_K(0^128) must be non-zero, which holds
 * except with probability 2^-128.
 */
#ifndef AESKIT_TEST_GF128_H
#define AESKIT_TEST_GF128_H

#include <stdint.h>
#include <string.h>

#define GF_FN static __attribute__((unused))

/* Element as two big-endian halves: hi = bytes 0..7, lo = bytes 8..15.
 * Bit 0 of the standard (the coefficient of x^0) is the MSB of byte 0. */
typedef struct { uint64_t hi, lo; } gf128;

GF_FN gf128 gf_load(const uint8_t b[16])
{
    gf128 r = {0, 0};
    for (int i = 0; i < 8; i++) {
        r.hi = (r.hi << 8) | b[i];
        r.lo = (r.lo << 8) | b[8 + i];
    }
    return r;
}

GF_FN void gf_store(uint8_t b[16], gf128 a)
{
    for (int i = 7; i >= 0; i--) {
        b[i] = (uint8_t)a.hi;
        b[8 + i] = (uint8_t)a.lo;
        a.hi >>= 8;
        a.lo >>= 8;
    }
}

GF_FN gf128 gf_xor(gf128 a, gf128 b)
{
    gf128 r = {a.hi ^ b.hi, a.lo ^ b.lo};
    return r;
}

/* SP 800-38D Algorithm 1: Z = X * Y. */
GF_FN gf128 gf_mul(gf128 x, gf128 y)
{
    gf128 z = {0, 0}, v = y;
    for (int i = 0; i < 128; i++) {
        uint64_t bit = i < 64 ? (x.hi >> (63 - i)) & 1 : (x.lo >> (127 - i)) & 1;
        if (bit) {
            z.hi ^= v.hi;
            z.lo ^= v.lo;
        }
        uint64_t lsb = v.lo & 1;
        v.lo = (v.lo >> 1) | (v.hi << 63);
        v.hi >>= 1;
        if (lsb)
            v.hi ^= 0xe100000000000000ull;
    }
    return z;
}

GF_FN gf128 gf_one(void)
{
    gf128 r = {0x8000000000000000ull, 0};
    return r;
}

GF_FN gf128 gf_pow(gf128 a, unsigned n)
{
    gf128 r = gf_one();
    while (n--)
        r = gf_mul(r, a);
    return r;
}

/* a^(2^128 - 2) = a^-1 for a != 0: square-and-multiply over the exponent's
 * bits, 127 ones followed by a zero. */
GF_FN gf128 gf_inv(gf128 a)
{
    gf128 r = gf_one();
    for (int bit = 127; bit >= 0; bit--) {
        r = gf_mul(r, r);
        if (bit != 0)
            r = gf_mul(r, a);
    }
    return r;
}

GF_FN int gf_is_zero(gf128 a) { return a.hi == 0 && a.lo == 0; }

/* GHASH_H over data zero-padded to whole blocks, continuing from Y. */
GF_FN gf128 gf_ghash_update(gf128 h, gf128 y, const uint8_t *data, size_t len)
{
    for (size_t off = 0; off < len; off += 16) {
        uint8_t blk[16] = {0};
        memcpy(blk, data + off, len - off < 16 ? len - off : 16);
        y = gf_mul(gf_xor(y, gf_load(blk)), h);
    }
    return y;
}

/* The length block [a]_64 || [b]_64 (bit lengths). */
GF_FN gf128 gf_len_block(uint64_t a_bytes, uint64_t b_bytes)
{
    gf128 r = {a_bytes * 8, b_bytes * 8};
    return r;
}

/* J0 for an IV of any length (SP 800-38D 7.1 step 2). */
GF_FN void gf_j0(const uint8_t h_bytes[16], const uint8_t *iv, size_t iv_len, uint8_t j0[16])
{
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        j0[12] = j0[13] = j0[14] = 0;
        j0[15] = 1;
        return;
    }
    gf128 h = gf_load(h_bytes), y = {0, 0};
    y = gf_ghash_update(h, y, iv, iv_len);
    y = gf_mul(gf_xor(y, gf_len_block(0, iv_len)), h);
    gf_store(j0, y);
}

/* Solves IV block number `j` (0-based; must be a whole 16-byte block inside
 * iv, so (j+1)*16 <= iv_len) so that J0 = target.  The other bytes of iv
 * are used as given.  Returns 0 if H = 0 (cannot solve). */
GF_FN int gf_solve_iv(const uint8_t h_bytes[16], uint8_t *iv, size_t iv_len, size_t j,
                      const uint8_t target[16])
{
    gf128 h = gf_load(h_bytes);
    if (gf_is_zero(h) || iv_len == 12 || (j + 1) * 16 > iv_len)
        return 0;
    size_t m = (iv_len + 15) / 16; /* IV blocks; the length block is m+1 */
    /* With X_j zeroed, the J0 we would get; then X_j*H^(m+1-j) (0-based j:
     * block j is multiplied by H^(m+1-j)) must make up the difference. */
    memset(iv + 16 * j, 0, 16);
    uint8_t j0_rest[16];
    gf_j0(h_bytes, iv, iv_len, j0_rest);
    gf128 diff = gf_xor(gf_load(target), gf_load(j0_rest));
    gf128 coef = gf_pow(h, (unsigned)(m + 1 - j));
    gf_store(iv + 16 * j, gf_mul(diff, gf_inv(coef)));
    return 1;
}

#endif
