/*
 * aes_vaes_avx2.c - the x86-vaes-avx2 backend: AES (ECB, CTR32/128, CBC,
 * CBC-MAC, XTS), GHASH and fused GCM on 256-bit registers, for the CPUs with
 * VAES and VPCLMULQDQ but no AVX-512 (Zen 3, Alder Lake class).
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX, AVX2, VAES, VPCLMULQDQ (no AVX-512
 * instruction is emitted: the target string below does not name it).
 *
 * The kernels are shared with x86-vaes-avx512: vaes_aes.h (key, rounds),
 * vaes_ghash.h (GHASH; its top comment derives the math), vaes_block.h,
 * vaes_gcm_bulk.h, vaes_gcm_small.h.  vaes_width256.h supplies the ymm
 * version of the vector vocabulary: 2 blocks per vector, 8 per AES/GCM
 * batch (16 ymm registers: 4 state vectors, the round keys and the GHASH
 * sums must fit), tails through 128-bit halves or a small stack buffer
 * (AVX2 has no byte masks); this file spells out the backend's functions,
 * ak_vaes2_*.  The multi-message GCM kernel of the batch API is compiled
 * in gcm_multi_vaes2.c.
 */
#include "vaes_width256.h"

#include "vaes_aes.h"
#include "vaes_ghash.h"
#include "vaes_block.h"
#include "vaes_gcm_bulk.h"
#include "vaes_gcm_small.h"
#include "vaes_gcm_chain_long.h"
#include "vaes_keyexp.h"
#include "vaes_ocb.h"
#include "vaes_cfb.h"
#include "vaes_gcmsiv.h"

/* ---- the backend's functions, over the width-generic bodies ------------- */

VAES_KERNEL void ak_vaes2_setkey(ak_aes *k, const uint8_t *key, size_t key_len) { vaes_setkey_ni(k, key, key_len); }
VAES_KERNEL void ak_vaes2_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    vaes_ecb(k, out, in, nb, 0);
}
VAES_KERNEL void ak_vaes2_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    vaes_ecb(k, out, in, nb, 1);
}
VAES_KERNEL void ak_vaes2_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr32(k, out, in, nb, ctr);
}
VAES_KERNEL void ak_vaes2_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr128(k, out, in, nb, ctr);
}
VAES_KERNEL void ak_vaes2_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cbc_serial(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cbc_decrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nb)
{
    vaes_cbc_serial(k, NULL, in, nb, state);
}
VAES_KERNEL void ak_vaes2_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
    vaes_xts(k, out, in, nb, tweak, 0);
}
VAES_KERNEL void ak_vaes2_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
    vaes_xts(k, out, in, nb, tweak, 1);
}
VAES_KERNEL void ak_vaes2_ghash_init(ak_ghash *g, const uint8_t H[16]) { vaes_ghash_init(g, H); }
VAES_KERNEL void ak_vaes2_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nb)
{
    vaes_ghash(g, Y, in, nb);
}
VAES_KERNEL void ak_vaes2_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t ctr[16], uint8_t Y[16])
{
    vaes_gcm_stream(k, g, out, in, nb, ctr, Y, 1);
}
VAES_KERNEL void ak_vaes2_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t ctr[16], uint8_t Y[16])
{
    vaes_gcm_stream(k, g, out, in, nb, ctr, Y, 0);
}
VAES_KERNEL void ak_vaes2_gcm_msgs(ak_gcm_msg *m, size_t n) { vaes_gcm_msgs(m, n); }
/* The gcm_batch entry (src/internal.h).  A run of two or more messages
 * of 1-64 bytes with an AAD of at most a block, seals and opens, goes to
 * the multi-message kernel (ak_vaes2_gcm_multi_run_pub, vaes_gcm_multi2.h:
 * two messages per ymm, several ymm in flight; a uniform batch of them
 * whole, through its chain of sets).  Seals besides: a uniform batch of
 * the long chain's lengths (vaes_chain_long_takes: above the one-pass
 * class) goes to it whole, a seal the register entry takes
 * (vaes_gcm_seal12: 1-64 bytes, AAD of at most a block) there, any other
 * message through vaes_gcm_batch_msg, the single call's dispatch; a
 * uniform batch of neither kind runs that loop alone.  Opens
 * besides: the leading run of opens of at most VAES2_OPEN_ONE_MAX bytes
 * one at a time through vaes_gcm_batch_msg, and it declines the rest
 * (returns the run's length): the chain's instance of this width's
 * decryption loop spills, and above that size the front end's descriptors
 * through gcm_msgs ran faster than one at a time here, below it slower
 * (docs/performance.md, "Zen 4: long messages in a batch as a chain" and
 * "Zen 4: 44 powers on zmm"). */
#define VAES2_OPEN_ONE_MAX 64
_Static_assert(VAES_MX2_LEN <= VAES2_OPEN_ONE_MAX, "the multi kernel's opens lie within the run this entry takes");
/* Seals m[0..n) one at a time: the register entry's (vaes_gcm_seal12:
 * 1-64 bytes, AAD of at most a block) there, any other through
 * vaes_gcm_batch_msg. */
VAES_INLINE void vaes2_gcm_seal_each(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16],
                                     const uint8_t *none)
{
    for (size_t i = 0; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        if (mm->len - 1 < VAES_GCM_REG_MAX && mm->aad_len <= 16)
            (void)vaes_gcm_seal12((const ak_gcm_key *)(const void *)mm->key, mm->out, mm->tag, mm->in, mm->aad,
                                  VAES_LENS(mm->len, mm->aad_len), vaes_ivz_iv12(mm->iv));
        else
            vaes_gcm_batch_msg(mm, dir, T ? T[i] : mm->tag, none);
    }
}

VAES_KERNEL size_t ak_vaes2_gcm_batch(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    uint8_t none[64] = {0}; /* vaes_gcm_batch_msg */
    if (dir & AK_GCM_OPEN) {
        size_t i = 0;
        for (; i < n && m[i].len <= VAES2_OPEN_ONE_MAX; i++) {
            if (m[i].len - 1 < VAES_MX2_LEN && m[i].aad_len <= 16 && n - i >= 2) {
                size_t k = ak_vaes2_gcm_multi_run_pub(&m[i], n - i, dir, T ? T + i : NULL);
                if (k) {
                    i += k - 1;
                    continue;
                }
            }
            vaes_gcm_batch_msg(&m[i], dir, T ? T[i] : m[i].tag, none + 32);
        }
        return i;
    }
    /* a uniform batch: one route for all (the multi kernel leaves at most
     * one message) */
    if ((dir & AK_GCM_UNIFORM) && n >= 2) {
        if (vaes_chain_long_takes(m[0].len)) {
            vaes_gcm_chain_long_seal((const ak_gcm_key *)(const void *)m[0].key, m, n, T);
            return n;
        }
        if (m[0].len - 1 < VAES_MX2_LEN && m[0].aad_len <= 16) {
            size_t i = ak_vaes2_gcm_multi_run_pub(m, n, dir, T);
            vaes2_gcm_seal_each(m + i, n - i, dir, T ? T + i : NULL, none + 32);
            return n;
        }
    } else if (!(dir & AK_GCM_UNIFORM)) {
        for (size_t i = 0; i < n; i++) {
            const aeskit_gcm_msg *mm = &m[i];
            if (mm->len - 1 < VAES_MX2_LEN && mm->aad_len <= 16 && n - i >= 2) {
                size_t k = ak_vaes2_gcm_multi_run_pub(mm, n - i, dir, T ? T + i : NULL);
                if (k) {
                    i += k - 1;
                    continue;
                }
            }
            vaes2_gcm_seal_each(mm, 1, dir, T ? T + i : NULL, none + 32);
        }
        return n;
    }
    vaes2_gcm_seal_each(m, n, dir, T, none + 32);
    return n;
}
/* The one-shot register entries start on a 64-byte boundary, as
 * vaes_gcm_one_seal does: where a straight-line kernel starts decides how
 * many 64-byte fetch blocks it spans, which would otherwise move with every
 * change to the code linked before it. */
#define VAES2_ENTRY_ALIGN __attribute__((aligned(64)))
VAES_KERNEL VAES2_ENTRY_ALIGN aeskit_status ak_vaes2_gcm_seal12(const ak_gcm_key *g, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                           const uint8_t *aad, size_t lens, ak_v2u64 ivz)
{
    return vaes_gcm_seal12(g, out, tag, in, aad, lens, (__m128i)ivz);
}
VAES_KERNEL VAES2_ENTRY_ALIGN aeskit_status ak_vaes2_gcm_open12(const ak_gcm_key *g, uint8_t *out, const uint8_t *tag, const uint8_t *in,
                                           const uint8_t *aad, size_t lens, ak_v2u64 ivz)
{
    return vaes_gcm_open12(g, out, tag, in, aad, lens, (__m128i)ivz);
}

VAES_KERNEL void ak_vaes2_ocb_blocks(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in, size_t nb,
                                   uint64_t first, uint8_t offset[16], uint8_t sum[16], int op)
{
    vaes_ocb(k, L, out, in, nb, first, offset, sum, op);
}
VAES_KERNEL void ak_vaes2_cfb128_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cfb128_encrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_cfb8_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t reg[16])
{
    vaes_cfb8_encrypt(k, out, in, len, reg);
}
VAES_KERNEL void ak_vaes2_cfb128_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cfb128_decrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes2_polyval_init(ak_ghash *g, const uint8_t H[16], size_t nb) { vaes_polyval_init(g, H, nb); }
VAES_KERNEL void ak_vaes2_polyval(const ak_ghash *g, uint8_t S[16], const uint8_t *in, size_t len)
{
    vaes_polyval(g, S, in, len);
}
VAES_KERNEL void ak_vaes2_ctr32le(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, const uint8_t ctr[16])
{
    vaes_ctr32le(k, out, in, len, ctr);
}
VAES_KERNEL void ak_vaes2_ctr32le_polyval(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t len,
                                         const uint8_t ctr[16], uint8_t S[16])
{
    vaes_ctr32le_polyval(k, g, out, in, len, ctr, S);
}

void ak_vaes2_cbc_lanes(ak_cbc_lane *l, size_t n); /* cbc_lanes_vaes2.c */
const ak_backend ak_backend_x86_vaes_avx2 = {
    .name = "x86-vaes-avx2",
    .requires = "AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ",
    .priority = 40,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41 | AK_CPU_AVX | AK_CPU_AVX2 |
                         AK_CPU_VAES | AK_CPU_VPCLMUL,
    .constant_time = 1,
    .aes_setkey = ak_vaes2_setkey,
    .ecb_encrypt = ak_vaes2_ecb_encrypt,
    .ecb_decrypt = ak_vaes2_ecb_decrypt,
    .ctr32 = ak_vaes2_ctr32,
    .ctr128 = ak_vaes2_ctr128,
    .cbc_encrypt = ak_vaes2_cbc_encrypt,
    .cbc_decrypt = ak_vaes2_cbc_decrypt,
    .cbcmac = ak_vaes2_cbcmac,
    .xts_encrypt = ak_vaes2_xts_encrypt,
    .xts_decrypt = ak_vaes2_xts_decrypt,
    .ghash_init = ak_vaes2_ghash_init,
    .ghash = ak_vaes2_ghash,
    .gcm_encrypt = ak_vaes2_gcm_encrypt,
    .gcm_decrypt = ak_vaes2_gcm_decrypt,
    .gcm_msgs = ak_vaes2_gcm_msgs,
    .gcm_batch = ak_vaes2_gcm_batch,
    .gcm_batch_scan = ak_vaes2_gcm_batch_scan,
    .gcm_seal12 = ak_vaes2_gcm_seal12,
    .gcm_reg_max = VAES_GCM_REG_MAX,
    .gcm_open12 = ak_vaes2_gcm_open12,
    .gcm_open_reg_max = VAES_GCM_OPEN_REG_MAX,
    .cbc_lanes = ak_vaes2_cbc_lanes,
    .cbc_lanes_short = 6, /* docs/performance.md, "three and five ECB steps" */
    .ocb_blocks = ak_vaes2_ocb_blocks,
    .cfb128_decrypt = ak_vaes2_cfb128_decrypt,
    .cfb128_encrypt = ak_vaes2_cfb128_encrypt,
    .cfb8_encrypt = ak_vaes2_cfb8_encrypt,
    .polyval_init = ak_vaes2_polyval_init,
    .polyval = ak_vaes2_polyval,
    .ctr32le = ak_vaes2_ctr32le,
    .ctr32le_polyval = ak_vaes2_ctr32le_polyval,
};
