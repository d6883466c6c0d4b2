/*
 * generic.h - private declarations shared by the files of src/generic/.
 */
#ifndef AK_GENERIC_H
#define AK_GENERIC_H

#include "../internal.h"

#define AK_GEN_K1_WORDS 30 /* single-block kernel keys: 15 round keys x 2 words */

/* Which bitsliced width (AK_GEN_V_*, below) a key's calls run on, by the
 * number of blocks of the call. */
typedef struct ak_gen_variants {
    uint8_t many;  /* more than 16 blocks: the widest width the CPU allows */
    uint8_t le8;   /* at most 8 blocks */
    uint8_t le16;  /* 9 to 16 blocks */
} ak_gen_variants;

/* ak_aes.data of the generic backend.  Only rounds + 1 round keys of each
 * schedule are used. */
typedef struct ak_gen_key {
    /* FIPS-197 encryption schedule w[] as bytes, (rounds + 1) x 16; the
     * bitsliced widths convert it per batch */
    uint8_t rk[240];
    /* the widths, chosen once in aes_setkey from the masked CPU features */
    ak_gen_variants variant;
    /* (5 bytes of padding: k1 is 8-byte aligned) */
    /* single-block kernel (aes_generic_block.c), from ak_gen1_expand:
     * encryption keys (packed, fixsliced) and decryption keys (packed) */
    uint64_t k1[AK_GEN_K1_WORDS];
    uint64_t k1d[AK_GEN_K1_WORDS];
    /* round 1 of CTR from tables (aes_generic_core.h, "Round 1 of counter
     * mode, cached"): ctr_s[0][v] = S(v ^ rk[15]), ctr_s[1][v] = 2 times
     * that in GF(2^8); 3 times is their XOR (the three tables would not fit
     * ak_aes.data).  Filled in aes_setkey where vectors are on. */
    uint8_t ctr_s[2][256];
} ak_gen_key; /* 1240 bytes */
_Static_assert(sizeof(ak_gen_key) <= AK_AES_DATA_BYTES, "ak_gen_key exceeds ak_aes.data");

/* The typed view of the backend-owned area (ak_aes.data is 64-byte aligned). */
static inline const ak_gen_key *ak_gen_key_of(const ak_aes *k)
{
    return (const ak_gen_key *)(const void *)k->data;
}
static inline ak_gen_key *ak_gen_key_mut(ak_aes *k)
{
    return (ak_gen_key *)(void *)k->data;
}

/* The single-block kernel (aes_generic_block.c): one block at a time in
 * two 64-bit words, for the serial modes and calls with few blocks.  k is
 * the enc or dec array that ak_gen1_expand wrote. */
void ak_gen1_expand(uint64_t *enc, uint64_t *dec, const uint8_t *rk, unsigned rounds);
void ak_gen1_ecb(const uint64_t *k, unsigned rounds, uint8_t *out, const uint8_t *in,
                 size_t nblocks, int dec);
void ak_gen1_cbc_encrypt(const uint64_t *k, unsigned rounds, uint8_t *out, const uint8_t *in,
                         size_t nblocks, uint8_t iv[16]);
void ak_gen1_cbcmac(const uint64_t *k, unsigned rounds, uint8_t state[16], const uint8_t *in,
                    size_t nblocks);

/* ak_gen_key.ctr_s for a key whose first round key ends in k15 (built on the
 * baseline width's S-box; aes_generic.c, where vectors are on). */
void ak_gen_ctr_tables(uint8_t t[2][256], uint8_t k15);

/* One vector width of the bitsliced AES (aes_generic_core.h). */
typedef struct ak_gen_aes_impl {
    const char *name;
    unsigned batch; /* blocks per bitsliced batch */
    void (*ecb_encrypt)(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                        size_t nblocks);
    void (*ecb_decrypt)(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in,
                        size_t nblocks);
    void (*ctr)(const ak_gen_key *gk, unsigned rounds, uint8_t *out, const uint8_t *in,
                size_t nblocks, uint8_t ctr[16], int wide);
} ak_gen_aes_impl;

/* Defines the impl table entry for a width whose core was included with
 * AKBS_NAME(x) = pfx##x. */
#define AK_GEN_DEFINE_IMPL(sym, label, batch, pfx)                                                 \
    static void pfx##enc_(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, \
                          size_t n)                                                          \
    {                                                                                        \
        pfx##ecb(rk, rounds, out, in, n, 0);                                                 \
    }                                                                                        \
    static void pfx##dec_(const uint8_t *rk, unsigned rounds, uint8_t *out, const uint8_t *in, \
                          size_t n)                                                          \
    {                                                                                        \
        pfx##ecb(rk, rounds, out, in, n, 1);                                                 \
    }                                                                                        \
    const ak_gen_aes_impl sym = {label, batch, pfx##enc_, pfx##dec_, pfx##ctr}

/* GNU C vector extensions (GCC, Clang and compatibles) carry the fast
 * code; any other C11 compiler -- or -DAK_GENERIC_SCALAR, which is how that
 * path is tested -- gets the plain scalar fallback (aes_generic_scalar.c,
 * and the scalar GHASH in ghash_generic.c). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(AK_GENERIC_SCALAR)
#define AK_GEN_VECTORS 1
#endif

extern const ak_gen_aes_impl ak_gen_aes_w16;
#if defined(AK_ARCH_X86_64) && defined(AK_GEN_VECTORS)
#define AK_GEN_X86 1
extern const ak_gen_aes_impl ak_gen_aes_ssse3;
extern const ak_gen_aes_impl ak_gen_aes_avx2;
extern const ak_gen_aes_impl ak_gen_aes_avx512;
#endif

/* One vector width of the GHASH (ghash_generic_core.h).  The reduction of
 * a group's 256-bit sum s into (yh, yl) is scalar code in ghash_generic.c. */
typedef void (*ak_gen_reduce_fn)(const uint64_t s[4], uint64_t *yh, uint64_t *yl);
#define AK_GH_GROUP 32 /* blocks per aggregated reduction */
typedef void (*ak_gen_ghash_fn)(const uint64_t *powers, uint64_t *yh, uint64_t *yl,
                                const uint8_t *in, size_t ngroups, size_t nblk,
                                ak_gen_reduce_fn reduce_fn);
extern const ak_gen_ghash_fn ak_gen_ghash_base;
#ifdef AK_GEN_X86
extern const ak_gen_ghash_fn ak_gen_ghash_avx2;
extern const ak_gen_ghash_fn ak_gen_ghash_avx512;
#endif

/* Per-function target pragmas over a region (GCC and Clang spellings). */
#define AK_STR(x) #x
#if defined(__clang__)
#define AK_TARGET_PUSH(t) \
    _Pragma(AK_STR(clang attribute push(__attribute__((target(t))), apply_to = function)))
#define AK_TARGET_POP _Pragma("clang attribute pop")
#else
#define AK_TARGET_PUSH(t) _Pragma("GCC push_options") _Pragma(AK_STR(GCC target(t)))
#define AK_TARGET_POP _Pragma("GCC pop_options")
#endif

/* The widths, indexed by the variant number recorded in the key. */
enum { AK_GEN_V_BASE = 0, AK_GEN_V_SSSE3, AK_GEN_V_AVX2, AK_GEN_V_AVX512, AK_GEN_V_COUNT };
uint32_t ak_gen_pick_variant(void);
const ak_gen_aes_impl *ak_gen_aes_variant(uint32_t v);

#endif
