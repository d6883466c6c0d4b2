/*
 * aes_generic.c - portable constant-time AES: the key schedule, and the
 * bitsliced block function at the baseline vector width (16 bytes: SSE2 on
 * x86-64, NEON on AArch64, or whatever the compiler lowers a 16-byte GNU C
 * vector to).  CPU features: none beyond the target's baseline.
 */
#include "generic.h"
#include "aes_generic_sbox.h"

/* ---- Key expansion (FIPS-197 section 5.2) -------------------------------
 * SubWord runs the S-box circuit on 32-bit words whose bit j is the bit of
 * byte j, so no table is indexed by key bytes. */
static uint32_t sub_word(uint32_t w)
{
    uint32_t x[8];
    for (int b = 0; b < 8; b++) {
        x[b] = 0;
        for (int j = 0; j < 4; j++)
            x[b] |= ((w >> (8 * j + b)) & 1u) << j;
    }
    AK_SBOX_CIRCUIT(uint32_t, x);
    uint32_t r = 0;
    for (int b = 0; b < 8; b++)
        for (int j = 0; j < 4; j++)
            r |= ((x[b] >> j) & 1u) << (8 * j + b);
    return r;
}

unsigned ak_generic_key_schedule(uint8_t rk[240], const uint8_t *key, size_t key_len)
{
    /* Words are little-endian here: byte 0 of a word is its low byte. */
    uint32_t w[60];
    unsigned nk = (unsigned)(key_len / 4), rounds = nk + 6, total = 4 * (rounds + 1);
    uint32_t rcon = 1;
    for (unsigned i = 0; i < nk; i++)
        w[i] = (uint32_t)key[4 * i] | ((uint32_t)key[4 * i + 1] << 8) |
               ((uint32_t)key[4 * i + 2] << 16) | ((uint32_t)key[4 * i + 3] << 24);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) { /* i and nk are public: the branch is on the key length */
            t = sub_word((t >> 8) | (t << 24)) ^ rcon;
            rcon = (rcon << 1) ^ (0x11b & (0u - (rcon >> 7)));
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    for (unsigned i = 0; i < total; i++) {
        rk[4 * i] = (uint8_t)w[i];
        rk[4 * i + 1] = (uint8_t)(w[i] >> 8);
        rk[4 * i + 2] = (uint8_t)(w[i] >> 16);
        rk[4 * i + 3] = (uint8_t)(w[i] >> 24);
    }
    aeskit_memzero(w, sizeof w);
    return rounds;
}

/* ---- The baseline width -------------------------------------------------- */
#ifdef AK_GEN_VECTORS
#define AKBS_W 16
#define AKBS_NAME(x) akbs16_##x
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__SSSE3__)
#define AKBS_NO_BYTE_SHUFFLE 1
#endif
#include "aes_generic_core.h"

AK_GEN_DEFINE_IMPL(ak_gen_aes_w16, "bitslice-128", 8, akbs16_);

void ak_gen_ctr_tables(uint8_t t[2][256], uint8_t k15)
{
    uint8_t buf[256];
    akbs16_v x[8];
    for (unsigned v = 0; v < 256; v++)
        buf[v] = (uint8_t)(v ^ k15);
    for (size_t off = 0; off < 256; off += 8 * 16) {
        akbs16_load(x, buf + off);
        akbs16_sbox(x);
        akbs16_store(buf + off, x);
    }
    for (unsigned v = 0; v < 256; v++) {
        unsigned s1 = buf[v];
        t[0][v] = (uint8_t)s1;
        t[1][v] = (uint8_t)((s1 << 1) ^ (0x1bu & (0u - (s1 >> 7))));
    }
    aeskit_memzero(buf, sizeof buf);
    aeskit_memzero(x, sizeof x);
}
#endif /* AK_GEN_VECTORS */
