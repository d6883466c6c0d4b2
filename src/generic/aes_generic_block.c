/*
 * aes_generic_block.c - one AES block at one block's cost, in plain C on
 * 64-bit words, constant time.  CPU features: none; correct on any byte
 * order.  The bitsliced batches of aes_generic_core.h cost the same for one
 * block as for 8-32; this kernel is what the serial modes (CBC encryption,
 * CBC-MAC, CMAC, CCM's MAC) and calls with very few blocks run on.
 *
 * ---- The layout ("nibble-sliced") ----------------------------------------
 * The 128-bit state lives in two words.  Word w holds nibble w of every
 * state byte: byte p (p = 4c + r, FIPS-197 order) contributes its low nibble
 * to bits 4p..4p+3 of word 0 and its high nibble to bits 4p..4p+3 of word 1.
 * So bit j of nibble p of word w is bit b = 4w + j of byte p: every nibble
 * of a word is one byte's half, and the four bit positions of the nibbles
 * are four bit planes, interleaved.
 *
 *   SubBytes    runs Boyar and Peralta's 115-gate circuit
 *               (aes_generic_sbox.h) on the eight planes
 *               x[b] = word[b / 4] >> (b % 4): the valid bit of each nibble
 *               is its bit 0, the other three bits are don't-cares the
 *               Boolean circuit carries along harmlessly.  The outputs are
 *               masked to bit 0 of each nibble and re-interleaved.  16
 *               S-boxes per 115 gates, as many as one block holds; the
 *               XNORs run as XORs, their constant is in the encryption
 *               keys.
 *   byte moves  (ShiftRows, the row rotations of MixColumns) move whole
 *               nibbles, identically in both words: a rotation of the
 *               64-bit word by a multiple of 4 bits under a row mask.
 *   xtime       is the multiplication of every byte by x: shift each nibble
 *               left by one, carry bit 3 of the low nibble into the high
 *               one, and fold bit 7 back as 0x1b = {high 0001, low 1011}.
 *
 * ---- Fixslicing (A. Adomnicai, T. Peyrin, "Fixslicing AES-like ciphers",
 * TCHES 2021/1) ------------------------------------------------------------
 * Encryption never performs ShiftRows.  SubBytes commutes with every byte
 * permutation, so if after round i the words hold T_i = SR^-i(S_i) (S_i the
 * true state), round i+1 computes T_{i+1} = MC'(SB(T_i)) ^ SR^-(i+1)(K_{i+1})
 * with MC' = MixColumns conjugated by SR^-(i+1): the round keys are stored
 * pre-permuted, and MixColumns' row rotations change only their distances.
 * With m = (i+1) mod 4, SR^-m stores true byte (c, r) at column c + m r, so
 * the byte MixColumns needs at row r from row r+1 of the same true column
 * sits 4m + 1 nibbles further (4m - 3 when r = 3 wraps to row 0), and from
 * row r+2 at 8m + 2 nibbles (8m - 2 for rows 2 and 3).  After the last round
 * (no MixColumns) the words hold SR^-n(S_n); one SR^(n mod 4) -- a
 * 32-bit rotation of rows 1 and 3 for 10 and 14 rounds, nothing for 12 --
 * restores S_n.  SR^4 = 1, so four MixColumns variants serve every round.
 *
 * Decryption is the plain inverse cipher (FIPS-197 5.3) in layout 0 with
 * InvShiftRows as rotations, InvSubBytes = F o S o F with F the inverse
 * affine map (as in aes_generic_core.h), InvMixColumns = MixColumns after
 * a ^= 4(a ^ ROT2 a).
 *
 * Every operation is a fixed sequence of word instructions: no branch and no
 * memory index depends on the key or the data; branches are on the number
 * of rounds and blocks only.
 */
#include "generic.h"
#include "aes_generic_sbox.h"

#define N1 0x1111111111111111u /* bit 0 of every nibble */
#define NE 0xeeeeeeeeeeeeeeeeu /* bits 1-3 of every nibble */
/* Row r of the state: nibbles p with p mod 4 = r. */
#define ROW0 0x000f000f000f000fu
#define ROW1 0x00f000f000f000f0u
#define ROW2 0x0f000f000f000f00u
#define ROW3 0xf000f000f000f000u

static inline uint64_t rotr(uint64_t x, unsigned n)
{
    n &= 63;
    return n ? (x >> n) | (x << (64 - n)) : x;
}

/* Low nibbles of the 8 bytes of x (byte i at bits 8i) to bits 4i. */
static inline uint64_t squeeze(uint64_t x)
{
    x &= 0x0f0f0f0f0f0f0f0fu;
    x = (x | (x >> 4)) & 0x00ff00ff00ff00ffu;
    x = (x | (x >> 8)) & 0x0000ffff0000ffffu;
    return (x | (x >> 16)) & 0xffffffffu;
}

/* The inverse: nibble i of the low 32 bits to the low nibble of byte i. */
static inline uint64_t spread(uint64_t x)
{
    x &= 0xffffffffu;
    x = (x | (x << 16)) & 0x0000ffff0000ffffu;
    x = (x | (x << 8)) & 0x00ff00ff00ff00ffu;
    return (x | (x << 4)) & 0x0f0f0f0f0f0f0f0fu;
}

static inline void pack(uint64_t w[2], const uint8_t *in)
{
    uint64_t lo = ak_load_le64(in), hi = ak_load_le64(in + 8);
    w[0] = squeeze(lo) | (squeeze(hi) << 32);
    w[1] = squeeze(lo >> 4) | (squeeze(hi >> 4) << 32);
}

static inline void unpack(uint8_t *out, const uint64_t w[2])
{
    ak_store_le64(out, spread(w[0]) | (spread(w[1]) << 4));
    ak_store_le64(out + 8, spread(w[0] >> 32) | (spread(w[1] >> 32) << 4));
}

/* SR^j: out (c, r) = in (c + j r, r), i.e. row r rotated right by 16 j r
 * bits (four nibbles per column step). */
static inline uint64_t sr_pow(uint64_t x, unsigned j)
{
    return (x & ROW0) | (rotr(x, 16 * j) & ROW1) | (rotr(x, 32 * j) & ROW2) |
           (rotr(x, 48 * j) & ROW3);
}

/* SubBytes on both words, less its affine constant: every byte becomes
 * S(b) ^ 0x63 (the constant is in the encryption keys, see ak_gen1_expand);
 * inv selects the full InvSubBytes. */
static inline void sub_bytes(uint64_t w[2], int inv)
{
    uint64_t x[8];
    for (int b = 0; b < 8; b++)
        x[b] = w[b >> 2] >> (b & 3);
    if (inv) { /* F(y) = A^-1(y ^ 0x63): f_i = y_{i+2} ^ y_{i+5} ^ y_{i+7} ^ (0x05)_i */
        uint64_t y[8];
        for (int i = 0; i < 8; i++)
            y[i] = x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
        for (int i = 0; i < 8; i++)
            x[i] = y[i];
        x[0] = ~x[0];
        x[2] = ~x[2];
    }
    AK_SBOX_CIRCUIT_115_NC(uint64_t, x);
    if (inv) { /* F(S(x)) = A^-1(S(x) ^ 0x63): the circuit's output less its constant, mapped */
        uint64_t y[8];
        for (int i = 0; i < 8; i++)
            y[i] = x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
        for (int i = 0; i < 8; i++)
            x[i] = y[i];
    }
    w[0] = (x[0] & N1) | ((x[1] & N1) << 1) | ((x[2] & N1) << 2) | ((x[3] & N1) << 3);
    w[1] = (x[4] & N1) | ((x[5] & N1) << 1) | ((x[6] & N1) << 2) | ((x[7] & N1) << 3);
}

/* Every byte times x modulo x^8 + x^4 + x^3 + x + 1. */
static inline void xtime(uint64_t o[2], const uint64_t t[2])
{
    uint64_t h7 = (t[1] >> 3) & N1, l3 = (t[0] >> 3) & N1;
    o[0] = ((t[0] << 1) & NE) ^ h7 ^ (h7 << 1) ^ (h7 << 3);
    o[1] = ((t[1] << 1) & NE) ^ l3 ^ h7;
}

/* MixColumns on a state stored with SR^-m (see the header):
 * b_r = 2(a_r ^ a_r+1) ^ a_r+1 ^ (a_r+2 ^ a_r+3). */
static inline void mix_m(uint64_t w[2], unsigned m)
{
    uint64_t r1[2], t[2], t2[2];
    for (int i = 0; i < 2; i++) {
        r1[i] = (rotr(w[i], 16 * m + 4) & (ROW0 | ROW1 | ROW2)) | (rotr(w[i], 16 * m + 52) & ROW3);
        t[i] = w[i] ^ r1[i];
    }
    xtime(t2, t);
    for (int i = 0; i < 2; i++)
        w[i] = t2[i] ^ r1[i] ^ (rotr(t[i], 32 * m + 8) & (ROW0 | ROW1)) ^
               (rotr(t[i], 32 * m + 56) & (ROW2 | ROW3));
}

/* InvMixColumns in layout 0: a ^= 4(a ^ ROT2 a), then MixColumns. */
static inline void inv_mix(uint64_t w[2])
{
    uint64_t t[2], t2[2], t4[2];
    for (int i = 0; i < 2; i++)
        t[i] = w[i] ^ rotr(w[i], 8) ^ ((rotr(w[i], 56) ^ rotr(w[i], 8)) & (ROW2 | ROW3));
    xtime(t2, t);
    xtime(t4, t2);
    w[0] ^= t4[0];
    w[1] ^= t4[1];
    mix_m(w, 0);
}

/* Encryption round keys 1..rounds carry SubBytes' affine constant: that
 * round's SubBytes leaves 0x63 out of every byte, MixColumns keeps a
 * column of equal bytes as it is and the layouts only move bytes, so the
 * constant reaches the key addition unchanged (aes_generic_sbox.h). */
void ak_gen1_expand(uint64_t *enc, uint64_t *dec, const uint8_t *rk, unsigned rounds)
{
    uint8_t c63[16];
    uint64_t c[2];
    memset(c63, 0x63, sizeof c63);
    pack(c, c63);
    for (unsigned r = 0; r <= rounds; r++) {
        uint64_t w[2];
        pack(w, rk + 16 * r);
        dec[2 * r] = w[0];
        dec[2 * r + 1] = w[1];
        unsigned j = (4 - (r & 3)) & 3; /* SR^-r = SR^(4 - r mod 4) */
        enc[2 * r] = sr_pow(w[0], j) ^ (r ? c[0] : 0);
        enc[2 * r + 1] = sr_pow(w[1], j) ^ (r ? c[1] : 0);
    }
}

#define ROUND(m)                                   \
    do {                                           \
        sub_bytes(w, 0);                           \
        mix_m(w, (m));                             \
        w[0] ^= k[2 * r];                          \
        w[1] ^= k[2 * r + 1];                      \
        r++;                                       \
    } while (0)

static inline void encrypt1(const uint64_t *k, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    uint64_t w[2];
    unsigned r = 1;
    pack(w, in);
    w[0] ^= k[0];
    w[1] ^= k[1];
    /* Full rounds 1 .. rounds-1; round r stores SR^-(r mod 4). */
    while (r + 3 < rounds) {
        ROUND(1);
        ROUND(2);
        ROUND(3);
        ROUND(0);
    }
    if (r < rounds)
        ROUND(1);
    if (r < rounds)
        ROUND(2);
    if (r < rounds)
        ROUND(3);
    sub_bytes(w, 0);
    w[0] ^= k[2 * rounds];
    w[1] ^= k[2 * rounds + 1];
    unsigned j = rounds & 3;
    w[0] = sr_pow(w[0], j);
    w[1] = sr_pow(w[1], j);
    unpack(out, w);
}

static inline void decrypt1(const uint64_t *k, unsigned rounds, uint8_t *out, const uint8_t *in)
{
    uint64_t w[2];
    pack(w, in);
    w[0] ^= k[2 * rounds];
    w[1] ^= k[2 * rounds + 1];
    for (unsigned r = rounds - 1;; r--) {
        w[0] = sr_pow(w[0], 3);
        w[1] = sr_pow(w[1], 3);
        sub_bytes(w, 1);
        w[0] ^= k[2 * r];
        w[1] ^= k[2 * r + 1];
        if (r == 0)
            break;
        inv_mix(w);
    }
    unpack(out, w);
}

void ak_gen1_ecb(const uint64_t *k, unsigned rounds, uint8_t *out, const uint8_t *in,
                 size_t nblocks, int dec)
{
    for (size_t i = 0; i < nblocks; i++) {
        if (dec)
            decrypt1(k, rounds, out + 16 * i, in + 16 * i);
        else
            encrypt1(k, rounds, out + 16 * i, in + 16 * i);
    }
}

void ak_gen1_cbc_encrypt(const uint64_t *k, unsigned rounds, uint8_t *out, const uint8_t *in,
                         size_t nblocks, uint8_t iv[16])
{
    uint8_t s[16];
    memcpy(s, iv, 16);
    for (size_t i = 0; i < nblocks; i++) {
        ak_xor16(s, s, in + 16 * i);
        encrypt1(k, rounds, s, s);
        memcpy(out + 16 * i, s, 16);
    }
    memcpy(iv, s, 16);
}

void ak_gen1_cbcmac(const uint64_t *k, unsigned rounds, uint8_t state[16], const uint8_t *in,
                    size_t nblocks)
{
    uint8_t s[16];
    memcpy(s, state, 16);
    for (size_t i = 0; i < nblocks; i++) {
        ak_xor16(s, s, in + 16 * i);
        encrypt1(k, rounds, s, s);
    }
    memcpy(state, s, 16);
    aeskit_memzero(s, sizeof s);
}
