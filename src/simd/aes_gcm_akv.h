/*
 * aes_gcm_akv.h - every backend primitive of src/internal.h, written once
 * over the vector vocabulary of akv.h.  Included by exactly one .c file per
 * architecture (src/arm64/aes_arm64_ce.c, src/ppc64/aes_ppc64_p8.c), after
 * akv.h; that file only adds the backend descriptor.
 *
 * Needs: whatever akv.h needs on the architecture (ARMv8 AES + PMULL, or
 * POWER8 vector crypto); every function carries AKV_TARGET.
 *
 * Shape of the code:
 *   - Round keys are loaded into a local array at the top of each call; the
 *     bodies are always_inline with the round count as a parameter and are
 *     instantiated for 10, 12 and 14 rounds (akv_by_rounds), so the loops
 *     over rounds unroll completely and the keys live in registers.
 *   - Bulk paths take 8 blocks at a time: 8 independent AES chains hide the
 *     AES latency (3-4 cycles on Cortex-A/Neoverse and POWER9 for a round
 *     that issues every cycle), and GHASH aggregates 8 blocks with the
 *     powers H^8..H^1 so there is one reduction per 8 blocks.
 *   - The fused GCM loops put the 8 GHASH multiplies between the AES rounds
 *     of the same iteration (encryption hashes the ciphertext of the
 *     previous iteration, decryption the ciphertext it is decrypting), so
 *     the multiplier and the AES unit work side by side.
 *   - Inputs are always read before outputs are written for a batch, so
 *     in-place (out == in) is safe; loads and stores are unaligned.
 * Nothing here branches on or indexes by secret data; counters, lengths and
 * block counts are public.
 */
#ifndef AESKIT_SIMD_AES_GCM_AKV_H
#define AESKIT_SIMD_AES_GCM_AKV_H

#include "../internal.h"

/* Full unrolling of the loops over rounds and blocks (their trip counts are
 * constants once the bodies are inlined) is what keeps round keys in
 * registers; clang 14 ignores "GCC unroll" on these loops. */
#if defined(__clang__)
#define AKV_UNROLL _Pragma("clang loop unroll(full)")
#else
#define AKV_UNROLL _Pragma("GCC unroll 16")
#endif

/* ---- key layouts ---------------------------------------------------------- */
/* ak_aes.data of arm64-ce and ppc64-p8: round keys as register images
 * (akv_store_raw, so POWER's keys are in its big-endian element order).
 * Only nr + 1 entries of each schedule are used. */
typedef struct akv_aes_key {
    /* FIPS-197 5.2 schedule K[0..nr] */
    uint8_t enc[15][16];
    /* DK[0..nr] for akv_dec_*: DK[0] = K[nr], DK[r] = akv_dec_key(K[nr - r]),
     * DK[nr] = K[0]; akv_dec_key is AESIMC on AArch64 (the equivalent
     * inverse cipher) and the identity on POWER (vncipher takes the
     * encryption keys in reverse order) */
    uint8_t dec[15][16];
} akv_aes_key; /* 480 bytes, no padding */
_Static_assert(sizeof(akv_aes_key) <= AK_AES_DATA_BYTES, "akv_aes_key exceeds ak_aes.data");

/* ak_ghash.data: akv_ghkey of H^1..H^8 (H*x^-1 twisted, see akv_gh_twist),
 * AKV_GHKEY_VECS register images each (akv_ghkey_store_raw): 2 on AArch64
 * (H, its Karatsuba middle operand), 3 on POWER (the vpmsumd operands). */
#define AKV_GH_POWERS 8
typedef struct akv_ghash_key {
    uint8_t pow[AKV_GH_POWERS][AKV_GHKEY_VECS * 16]; /* pow[i-1]: H^i */
} akv_ghash_key; /* 256 bytes on AArch64, 384 on POWER, no padding */
_Static_assert(sizeof(akv_ghash_key) <= AESKIT_GHASH_KEY_SIZE,
               "akv_ghash_key exceeds ak_ghash.data");

/* The typed views of the backend-owned areas. */
static inline const akv_aes_key *akv_key(const ak_aes *k)
{
    return (const akv_aes_key *)(const void *)k->data;
}
static inline akv_aes_key *akv_key_mut(ak_aes *k)
{
    return (akv_aes_key *)(void *)k->data;
}
static inline const akv_ghash_key *akv_ghash_key_of(const ak_ghash *g)
{
    return (const akv_ghash_key *)(const void *)g->data;
}
static inline akv_ghash_key *akv_ghash_key_mut(ak_ghash *g)
{
    return (akv_ghash_key *)(void *)g->data;
}

AKV_INLINE void akv_load_keys(akv *K, const uint8_t *src, const int nr)
{
    AKV_UNROLL
    for (int i = 0; i <= nr; i++)
        K[i] = akv_load_raw(src + 16 * i);
}

AKV_INLINE akv akv_encrypt1(akv x, const akv *K, const int nr)
{
    x = akv_enc_first(x, K);
    AKV_UNROLL
    for (int i = 0; i < nr - 1; i++)
        x = akv_enc_round(x, K, i);
    return akv_enc_last(x, K, nr);
}

AKV_INLINE akv akv_decrypt1(akv x, const akv *DK, const int nr)
{
    x = akv_dec_first(x, DK);
    AKV_UNROLL
    for (int i = 0; i < nr - 1; i++)
        x = akv_dec_round(x, DK, i);
    return akv_dec_last(x, DK, nr);
}

AKV_INLINE void akv_encrypt8(akv *x, const akv *K, const int nr)
{
    AKV_UNROLL
    for (int b = 0; b < 8; b++)
        x[b] = akv_enc_first(x[b], K);
    AKV_UNROLL
    for (int i = 0; i < nr - 1; i++) {
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            x[b] = akv_enc_round(x[b], K, i);
    }
    AKV_UNROLL
    for (int b = 0; b < 8; b++)
        x[b] = akv_enc_last(x[b], K, nr);
}

AKV_INLINE void akv_decrypt8(akv *x, const akv *DK, const int nr)
{
    AKV_UNROLL
    for (int b = 0; b < 8; b++)
        x[b] = akv_dec_first(x[b], DK);
    AKV_UNROLL
    for (int i = 0; i < nr - 1; i++) {
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            x[b] = akv_dec_round(x[b], DK, i);
    }
    AKV_UNROLL
    for (int b = 0; b < 8; b++)
        x[b] = akv_dec_last(x[b], DK, nr);
}

/* Instantiates body(..., nr) for the three AES key sizes. */
#define akv_by_rounds(nr, body, ...)                                       \
    do {                                                                   \
        if ((nr) == 10) body(__VA_ARGS__, 10);                             \
        else if ((nr) == 12) body(__VA_ARGS__, 12);                        \
        else body(__VA_ARGS__, 14);                                        \
    } while (0)

/* ---- key setup: FIPS-197 section 5.2 (KeyExpansion) ---------------------- */
AKV_TARGET static void akv_be_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint32_t w[60];
    const unsigned nk = (unsigned)(key_len / 4), nr = nk + 6;
    const unsigned total = 4 * (nr + 1);
    uint32_t rcon = 1;
    for (unsigned i = 0; i < nk; i++)
        w[i] = ak_load_be32(key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = akv_subword((t << 8) | (t >> 24)) ^ (rcon << 24);
            rcon = (rcon << 1) ^ (0x11b & (0u - (rcon >> 7)));
        } else if (nk > 6 && i % nk == 4) {
            t = akv_subword(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    k->rounds = nr;
    k->key_len = (uint32_t)key_len;

    akv_aes_key *KS = akv_key_mut(k);
    uint8_t bytes[16];
    akv K[15];
    for (unsigned r = 0; r <= nr; r++) {
        for (int j = 0; j < 4; j++)
            ak_store_be32(bytes + 4 * j, w[4 * r + j]);
        K[r] = akv_load(bytes);
        akv_store_raw(KS->enc[r], K[r]);
    }
    akv_store_raw(KS->dec[0], K[nr]);
    for (unsigned r = 1; r < nr; r++)
        akv_store_raw(KS->dec[r], akv_dec_key(K[nr - r]));
    akv_store_raw(KS->dec[nr], K[0]);

    /* The expanded key is secret: clear the stack copies. */
    memset(w, 0, sizeof w);
    memset(bytes, 0, sizeof bytes);
    __asm__ volatile("" : : "r"(w), "r"(bytes) : "memory");
}

/* ---- ECB ------------------------------------------------------------------ */
AKV_INLINE void akv_ecb_body(const uint8_t *keys, int dec, uint8_t *out, const uint8_t *in,
                             size_t n, const int nr)
{
    akv K[15];
    akv_load_keys(K, keys, nr);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        akv x[8];
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            x[b] = akv_load(in + 16 * b);
        if (dec)
            akv_decrypt8(x, K, nr);
        else
            akv_encrypt8(x, K, nr);
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            akv_store(out + 16 * b, x[b]);
    }
    for (; n; n--, in += 16, out += 16) {
        akv x = akv_load(in);
        akv_store(out, dec ? akv_decrypt1(x, K, nr) : akv_encrypt1(x, K, nr));
    }
}

AKV_TARGET static void akv_be_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                          size_t n)
{
    akv_by_rounds(k->rounds, akv_ecb_body, akv_key(k)->enc[0], 0, out, in, n);
}

AKV_TARGET static void akv_be_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                          size_t n)
{
    akv_by_rounds(k->rounds, akv_ecb_body, akv_key(k)->dec[0], 1, out, in, n);
}

/* ---- CTR, 32-bit counter (GCM inc32, SP 800-38D 6.2) ---------------------- */
AKV_INLINE void akv_ctr32_body(const uint8_t *keys, uint8_t *out, const uint8_t *in, size_t n,
                               uint8_t ctr[16], const int nr)
{
    akv K[15];
    akv_load_keys(K, keys, nr);
    akv_ctr c = akv_ctr32_load(ctr);
    const akv_ctr one = akv_ctr32_step(1);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        akv x[8];
        AKV_UNROLL
        for (int b = 0; b < 8; b++) {
            x[b] = akv_ctr32_block(c);
            c = akv_ctr32_add(c, one);
        }
        akv_encrypt8(x, K, nr);
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            akv_store(out + 16 * b, akv_xor(x[b], akv_load(in + 16 * b)));
    }
    for (; n; n--, in += 16, out += 16) {
        akv x = akv_encrypt1(akv_ctr32_block(c), K, nr);
        c = akv_ctr32_add(c, one);
        akv_store(out, akv_xor(x, akv_load(in)));
    }
    akv_ctr32_store(ctr, c);
}

AKV_TARGET static void akv_be_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                    uint8_t ctr[16])
{
    akv_by_rounds(k->rounds, akv_ctr32_body, akv_key(k)->enc[0], out, in, n, ctr);
}

/* ---- CTR, 128-bit big-endian counter (SP 800-38A B.1) --------------------- */
AKV_INLINE void akv_ctr128_body(const uint8_t *keys, uint8_t *out, const uint8_t *in, size_t n,
                                uint8_t ctr[16], const int nr)
{
    akv K[15];
    akv_load_keys(K, keys, nr);
    uint64_t hi = ak_load_be64(ctr), lo = ak_load_be64(ctr + 8);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        akv x[8];
        AKV_UNROLL
        for (int b = 0; b < 8; b++) {
            x[b] = akv_from_be64(hi, lo);
            lo++;
            hi += (lo == 0); /* the counter is public: a branch-free carry anyway */
        }
        akv_encrypt8(x, K, nr);
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            akv_store(out + 16 * b, akv_xor(x[b], akv_load(in + 16 * b)));
    }
    for (; n; n--, in += 16, out += 16) {
        akv x = akv_encrypt1(akv_from_be64(hi, lo), K, nr);
        lo++;
        hi += (lo == 0);
        akv_store(out, akv_xor(x, akv_load(in)));
    }
    ak_store_be64(ctr, hi);
    ak_store_be64(ctr + 8, lo);
}

AKV_TARGET static void akv_be_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t n,
                                     uint8_t ctr[16])
{
    akv_by_rounds(k->rounds, akv_ctr128_body, akv_key(k)->enc[0], out, in, n, ctr);
}

/* ---- CBC and CBC-MAC (SP 800-38A 6.2; SP 800-38C / RFC 4493 chain) ------- */
AKV_INLINE void akv_cbc_enc_body(const uint8_t *keys, uint8_t *out, const uint8_t *in, size_t n,
                                 uint8_t iv[16], int mac, const int nr)
{
    akv K[15];
    akv_load_keys(K, keys, nr);
    akv s = akv_load(iv);
    for (; n; n--, in += 16) {
        s = akv_encrypt1(akv_xor(s, akv_load(in)), K, nr);
        if (!mac) {
            akv_store(out, s);
            out += 16;
        }
    }
    akv_store(iv, s);
}

AKV_TARGET static void akv_be_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                          size_t n, uint8_t iv[16])
{
    akv_by_rounds(k->rounds, akv_cbc_enc_body, akv_key(k)->enc[0], out, in, n, iv, 0);
}

AKV_TARGET static void akv_be_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in,
                                     size_t n)
{
    akv_by_rounds(k->rounds, akv_cbc_enc_body, akv_key(k)->enc[0], NULL, in, n, state, 1);
}

AKV_INLINE void akv_cbc_dec_body(const uint8_t *keys, uint8_t *out, const uint8_t *in, size_t n,
                                 uint8_t iv[16], const int nr)
{
    akv DK[15];
    akv_load_keys(DK, keys, nr);
    akv prev = akv_load(iv);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        akv c[8], x[8];
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            x[b] = c[b] = akv_load(in + 16 * b);
        akv_decrypt8(x, DK, nr);
        akv_store(out, akv_xor(x[0], prev));
        AKV_UNROLL
        for (int b = 1; b < 8; b++)
            akv_store(out + 16 * b, akv_xor(x[b], c[b - 1]));
        prev = c[7];
    }
    for (; n; n--, in += 16, out += 16) {
        akv c = akv_load(in);
        akv_store(out, akv_xor(akv_decrypt1(c, DK, nr), prev));
        prev = c;
    }
    akv_store(iv, prev);
}

AKV_TARGET static void akv_be_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                          size_t n, uint8_t iv[16])
{
    akv_by_rounds(k->rounds, akv_cbc_dec_body, akv_key(k)->dec[0], out, in, n, iv);
}

/* ---- XTS (IEEE 1619-2018 5.3.1 / 5.4.1, whole blocks) --------------------- */
AKV_INLINE akv akv_xts_carry_mask(void)
{
    /* byte 0 takes 0x87 from the carry out of byte 15, the others 1. */
    static const uint8_t m[16] = {0x87, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    return akv_load(m);
}

AKV_INLINE void akv_xts_body(const uint8_t *keys, int dec, uint8_t *out, const uint8_t *in,
                             size_t n, uint8_t tweak[16], const int nr)
{
    akv K[15];
    akv_load_keys(K, keys, nr);
    const akv cm = akv_xts_carry_mask();
    akv t = akv_load(tweak);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        akv x[8], tw[8];
        AKV_UNROLL
        for (int b = 0; b < 8; b++) {
            tw[b] = t;
            t = akv_xts_double(t, cm);
            x[b] = akv_xor(akv_load(in + 16 * b), tw[b]);
        }
        if (dec)
            akv_decrypt8(x, K, nr);
        else
            akv_encrypt8(x, K, nr);
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            akv_store(out + 16 * b, akv_xor(x[b], tw[b]));
    }
    for (; n; n--, in += 16, out += 16) {
        akv x = akv_xor(akv_load(in), t);
        x = dec ? akv_decrypt1(x, K, nr) : akv_encrypt1(x, K, nr);
        akv_store(out, akv_xor(x, t));
        t = akv_xts_double(t, cm);
    }
    akv_store(tweak, t);
}

AKV_TARGET static void akv_be_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                          size_t n, uint8_t tweak[16])
{
    akv_by_rounds(k->rounds, akv_xts_body, akv_key(k)->enc[0], 0, out, in, n, tweak);
}

AKV_TARGET static void akv_be_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in,
                                          size_t n, uint8_t tweak[16])
{
    akv_by_rounds(k->rounds, akv_xts_body, akv_key(k)->dec[0], 1, out, in, n, tweak);
}

/* ---- GHASH (SP 800-38D 6.4) ------------------------------------------------ */
AKV_INLINE akv_ghkey akv_ghkey_load(const ak_ghash *g, int power)
{
    return akv_ghkey_load_raw(akv_ghash_key_of(g)->pow[power - 1]);
}

AKV_TARGET static void akv_be_ghash_init(ak_ghash *g, const uint8_t H[16])
{
    akv h1 = akv_gh_twist(H), p = h1;
    akv_ghkey k1 = akv_ghkey_make(h1);
    akv_ghash_key *gk = akv_ghash_key_mut(g);
    memset(g->data, 0, sizeof g->data);
    for (int i = 1; i <= AKV_GH_POWERS; i++) {
        /* p = H^i * x^-1: the product of twisted values is untwisted once. */
        if (i > 1)
            p = akv_gh_reduce(akv_gh_mul(p, k1));
        akv_ghkey_store_raw(gk->pow[i - 1], akv_ghkey_make(p));
    }
}

/* Y*H^8 + X1*H^7 + ... + X7*H^1 for 8 blocks already in GHASH order, with
 * the running Y already XORed into x[0]: one reduction. */
AKV_INLINE akv akv_gh_fold8(const akv *x, const akv_ghkey *hp)
{
    akv_ghacc a = akv_gh_mul(x[0], hp[7]);
    AKV_UNROLL
    for (int b = 1; b < 8; b++)
        akv_gh_mul_acc(&a, x[b], hp[7 - b]);
    return akv_gh_reduce(a);
}

AKV_TARGET static void akv_be_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t n)
{
    akv y = akv_gh_swap(akv_load(Y));
    if (n >= 8) {
        akv_ghkey hp[8];
        AKV_UNROLL
        for (int i = 0; i < 8; i++)
            hp[i] = akv_ghkey_load(g, i + 1);
        for (; n >= 8; n -= 8, in += 128) {
            akv x[8];
            AKV_UNROLL
            for (int b = 0; b < 8; b++)
                x[b] = akv_gh_swap(akv_load(in + 16 * b));
            x[0] = akv_xor(x[0], y);
            y = akv_gh_fold8(x, hp);
        }
    }
    if (n) {
        akv_ghkey h1 = akv_ghkey_load(g, 1);
        for (; n; n--, in += 16)
            y = akv_gh_reduce(akv_gh_mul(akv_xor(y, akv_gh_swap(akv_load(in))), h1));
    }
    akv_store(Y, akv_gh_swap(y));
}

/* ---- fused GCM (SP 800-38D 7.1 steps 5-6 and 7.2 steps 4-7) ------------- */

/* One 8-block step: counters c..c+7 through AES while the 8 GHASH inputs gx
 * (GHASH order, running Y folded into gx[0]) are multiplied by H^8..H^1 in
 * the gaps between rounds; gx may be NULL (nothing to hash yet).  Returns
 * the reduced GHASH value (or y_in when gx is NULL) and leaves the keystream
 * XOR data in x. */
AKV_INLINE akv akv_gcm_step8(akv *x, akv_ctr *c, akv_ctr one, const akv *K, const int nr,
                             const akv *gx, const akv_ghkey *hp, akv y_in)
{
    akv_ghacc a = {akv_zero(), akv_zero(), akv_zero()};
    AKV_UNROLL
    for (int b = 0; b < 8; b++) {
        x[b] = akv_enc_first(akv_ctr32_block(*c), K);
        *c = akv_ctr32_add(*c, one);
    }
    AKV_UNROLL
    for (int i = 0; i < nr - 1; i++) {
        AKV_UNROLL
        for (int b = 0; b < 8; b++)
            x[b] = akv_enc_round(x[b], K, i);
        if (gx && i < 8) {
            if (i == 0)
                a = akv_gh_mul(gx[0], hp[7]);
            else
                akv_gh_mul_acc(&a, gx[i], hp[7 - i]);
        }
    }
    AKV_UNROLL
    for (int b = 0; b < 8; b++)
        x[b] = akv_enc_last(x[b], K, nr);
    return gx ? akv_gh_reduce(a) : y_in;
}

/* Encryption's output of a step: ciphertext = keystream ^ plaintext, stored,
 * and kept in GHASH order (running Y folded into the first) for the next. */
AKV_INLINE void akv_gcm_enc_out8(akv *x, akv *gx, akv y, uint8_t *out, const uint8_t *in)
{
    AKV_UNROLL
    for (int b = 0; b < 8; b++) {
        x[b] = akv_xor(x[b], akv_load(in + 16 * b));
        akv_store(out + 16 * b, x[b]);
        gx[b] = akv_gh_swap(x[b]);
    }
    gx[0] = akv_xor(gx[0], y);
}

AKV_INLINE void akv_gcm_body(const uint8_t *keys, const ak_ghash *g, int dec, uint8_t *out,
                             const uint8_t *in, size_t n, uint8_t ctr[16], uint8_t Y[16],
                             const int nr)
{
    akv K[15];
    akv_load_keys(K, keys, nr);
    akv_ctr c = akv_ctr32_load(ctr);
    const akv_ctr one = akv_ctr32_step(1);
    akv y = akv_gh_swap(akv_load(Y));

    if (n >= 8) {
        akv_ghkey hp[8];
        AKV_UNROLL
        for (int i = 0; i < 8; i++)
            hp[i] = akv_ghkey_load(g, i + 1);
        if (dec) {
            /* Decryption hashes the ciphertext it is reading: both halves
             * of the step work on the same 8 blocks. */
            for (; n >= 8; n -= 8, in += 128, out += 128) {
                akv x[8], cb[8], gx[8];
                AKV_UNROLL
                for (int b = 0; b < 8; b++) {
                    cb[b] = akv_load(in + 16 * b);
                    gx[b] = akv_gh_swap(cb[b]);
                }
                gx[0] = akv_xor(gx[0], y);
                y = akv_gcm_step8(x, &c, one, K, nr, gx, hp, y);
                AKV_UNROLL
                for (int b = 0; b < 8; b++)
                    akv_store(out + 16 * b, akv_xor(x[b], cb[b]));
            }
        } else {
            /* Encryption hashes ciphertext one step behind the AES, so the
             * multiplies never wait for the rounds that produce their input:
             * the first step only encrypts, the last hash is folded after
             * the loop. */
            akv gx[8], x[8];
            akv_gcm_step8(x, &c, one, K, nr, NULL, hp, y);
            akv_gcm_enc_out8(x, gx, y, out, in);
            for (n -= 8, in += 128, out += 128; n >= 8; n -= 8, in += 128, out += 128) {
                y = akv_gcm_step8(x, &c, one, K, nr, gx, hp, y);
                akv_gcm_enc_out8(x, gx, y, out, in);
            }
            y = akv_gh_fold8(gx, hp);
        }
    }
    if (n) {
        akv_ghkey h1 = akv_ghkey_load(g, 1);
        for (; n; n--, in += 16, out += 16) {
            akv ks = akv_encrypt1(akv_ctr32_block(c), K, nr);
            c = akv_ctr32_add(c, one);
            akv d = akv_load(in);
            akv o = akv_xor(ks, d);
            akv_store(out, o);
            y = akv_gh_reduce(akv_gh_mul(akv_xor(y, akv_gh_swap(dec ? d : o)), h1));
        }
    }
    akv_ctr32_store(ctr, c);
    akv_store(Y, akv_gh_swap(y));
}

AKV_TARGET static void akv_be_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out,
                                          const uint8_t *in, size_t n, uint8_t ctr[16],
                                          uint8_t Y[16])
{
    akv_by_rounds(k->rounds, akv_gcm_body, akv_key(k)->enc[0], g, 0, out, in, n, ctr, Y);
}

AKV_TARGET static void akv_be_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out,
                                          const uint8_t *in, size_t n, uint8_t ctr[16],
                                          uint8_t Y[16])
{
    akv_by_rounds(k->rounds, akv_gcm_body, akv_key(k)->enc[0], g, 1, out, in, n, ctr, Y);
}

/* ---- whole-message GCM (ak_gcm_msg, src/internal.h) ---------------------
 * For small messages the front end's generic path costs several calls and
 * copies; here the counters start from the descriptor's J0, the AAD and the
 * message tail are padded on the stack, and everything else goes through
 * the bulk kernels above.  In-place is fine (the tail is read before it is
 * written). */
AKV_TARGET static void akv_gcm_msg(ak_gcm_msg *m)
{
    const ak_aes *aes = m->aes;
    const ak_ghash *gh = m->gh;
    const uint8_t *in = m->in, *aad = m->aad;
    uint8_t *out = m->out;
    const size_t len = m->len, aad_len = m->aad_len;
    const int dec = (m->flags & AK_GCM_OPEN) != 0;
    uint8_t ctr[16], Y[16] = {0}, buf[16], ek0[16];
    akv_be_ecb_encrypt(aes, ek0, m->j0, 1);
    memcpy(ctr, m->j0, 16);
    ak_store_be32(ctr + 12, ak_load_be32(ctr + 12) + 1); /* inc32(J0) */

    akv_be_ghash(gh, Y, aad, aad_len / 16);
    if (aad_len % 16) {
        memset(buf, 0, 16);
        memcpy(buf, aad + (aad_len & ~(size_t)15), aad_len % 16);
        akv_be_ghash(gh, Y, buf, 1);
    }

    size_t nb = len / 16, r = len % 16;
    if (dec)
        akv_be_gcm_decrypt(aes, gh, out, in, nb, ctr, Y);
    else
        akv_be_gcm_encrypt(aes, gh, out, in, nb, ctr, Y);
    if (r) {
        uint8_t ks[16];
        memset(buf, 0, 16);
        memcpy(buf, in + 16 * nb, r);
        akv_be_ecb_encrypt(aes, ks, ctr, 1);
        if (dec)
            akv_be_ghash(gh, Y, buf, 1); /* the ciphertext, zero-padded */
        for (size_t i = 0; i < r; i++)
            buf[i] ^= ks[i];
        memcpy(out + 16 * nb, buf, r);
        if (!dec) {
            memset(buf + r, 0, 16 - r);
            akv_be_ghash(gh, Y, buf, 1);
        }
        memset(ks, 0, sizeof ks);
    }
    ak_store_be64(buf, (uint64_t)aad_len * 8);
    ak_store_be64(buf + 8, (uint64_t)len * 8);
    akv_be_ghash(gh, Y, buf, 1);
    for (int i = 0; i < 16; i++)
        m->tag[i] = (uint8_t)(Y[i] ^ ek0[i]);
    memset(buf, 0, sizeof buf);
    memset(ek0, 0, sizeof ek0);
    __asm__ volatile("" : : "r"(buf), "r"(ek0) : "memory");
}

AKV_TARGET static void akv_be_gcm_msgs(ak_gcm_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        akv_gcm_msg(&m[i]);
}

/* The multi-message kernel of the batch API (its gcm_batch entry). */
#include "gcm_multi_akv.h"

/* The descriptor fields every akv backend shares. */
#define AKV_BACKEND_PRIMITIVES                       \
    .aes_setkey = akv_be_setkey,                     \
    .ecb_encrypt = akv_be_ecb_encrypt,               \
    .ecb_decrypt = akv_be_ecb_decrypt,               \
    .ctr32 = akv_be_ctr32,                           \
    .ctr128 = akv_be_ctr128,                         \
    .cbc_encrypt = akv_be_cbc_encrypt,               \
    .cbc_decrypt = akv_be_cbc_decrypt,               \
    .cbcmac = akv_be_cbcmac,                         \
    .xts_encrypt = akv_be_xts_encrypt,               \
    .xts_decrypt = akv_be_xts_decrypt,               \
    .ghash_init = akv_be_ghash_init,                 \
    .ghash = akv_be_ghash,                           \
    .gcm_encrypt = akv_be_gcm_encrypt,               \
    .gcm_decrypt = akv_be_gcm_decrypt,               \
    .gcm_msgs = akv_be_gcm_msgs,                     \
    .gcm_batch = akv_be_gcm_batch

#endif /* AESKIT_SIMD_AES_GCM_AKV_H */
