/*
 * test_sbox_circuits.c - the two Boolean S-box circuits of the generic
 * backend (src/generic/aes_generic_sbox.h) on all 256 inputs, against the
 * S-box computed from its definition: the inverse in GF(2^8) modulo
 * x^8 + x^4 + x^3 + x + 1, then the affine map with constant 0x63
 * (FIPS-197 section 5.1.1).  The definition is checked in turn against
 * values printed in FIPS-197 (figure 7: S(0x00) = 0x63, S(0x01) = 0x7c,
 * S(0x53) = 0xed, S(0xff) = 0x16), so neither side is computed by the code
 * under test.  Planes are one bit each in a uint32_t, the circuits'
 * narrowest use.
 */
#include <stdint.h>
#include <stdio.h>

#include "aes_generic_sbox.h"

static unsigned gf_mul(unsigned a, unsigned b)
{
    unsigned p = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            p ^= a;
        b >>= 1;
        a <<= 1;
        if (a & 0x100)
            a ^= 0x11b;
    }
    return p;
}

static unsigned sbox_by_definition(unsigned a)
{
    unsigned inv = 0;
    for (unsigned b = 1; b < 256 && a; b++)
        if (gf_mul(a, b) == 1)
            inv = b;
    unsigned s = 0x63;
    for (int i = 0; i < 8; i++) {
        unsigned bit = (inv >> i) ^ (inv >> ((i + 4) & 7)) ^ (inv >> ((i + 5) & 7)) ^
                       (inv >> ((i + 6) & 7)) ^ (inv >> ((i + 7) & 7));
        s ^= (bit & 1u) << i;
    }
    return s;
}

static void to_planes(uint32_t x[8], unsigned a)
{
    for (int b = 0; b < 8; b++)
        x[b] = (a >> b) & 1u;
}

static unsigned from_planes(const uint32_t x[8])
{
    unsigned s = 0;
    for (int b = 0; b < 8; b++)
        s |= (x[b] & 1u) << b;
    return s;
}

int main(void)
{
    static const unsigned fips[][2] = {{0x00, 0x63}, {0x01, 0x7c}, {0x53, 0xed}, {0xff, 0x16}};
    int bad = 0;
    for (size_t i = 0; i < sizeof fips / sizeof fips[0]; i++)
        if (sbox_by_definition(fips[i][0]) != fips[i][1]) {
            printf("FAIL: the reference S(%02x) = %02x, FIPS-197 says %02x\n", fips[i][0],
                   sbox_by_definition(fips[i][0]), fips[i][1]);
            bad++;
        }
    for (unsigned a = 0; a < 256; a++) {
        unsigned want = sbox_by_definition(a);
        uint32_t x[8];
        to_planes(x, a);
        AK_SBOX_CIRCUIT(uint32_t, x);
        if (from_planes(x) != want) {
            printf("FAIL: depth-16 circuit S(%02x) = %02x, want %02x\n", a, from_planes(x), want);
            bad++;
        }
        to_planes(x, a);
        AK_SBOX_CIRCUIT_NC(uint32_t, x);
        if ((from_planes(x) ^ 0x63u) != want) {
            printf("FAIL: depth-16 circuit without NOTs S(%02x) ^ 63 = %02x, want %02x\n", a,
                   from_planes(x), want ^ 0x63u);
            bad++;
        }
        to_planes(x, a);
        AK_SBOX_CIRCUIT_115_NC(uint32_t, x);
        if ((from_planes(x) ^ 0x63u) != want) {
            printf("FAIL: 115-gate circuit S(%02x) ^ 63 = %02x, want %02x\n", a, from_planes(x),
                   want ^ 0x63u);
            bad++;
        }
    }
    printf("%s: 256 inputs, 3 circuits, %d mismatches\n", bad ? "FAIL" : "ok", bad);
    return bad != 0;
}
