/*
 * aes_vaes_avx512.c - the x86-vaes-avx512 backend: AES (ECB, CTR32/128, CBC,
 * CBC-MAC, XTS), GHASH and fused GCM on 512-bit registers.
 *
 * CPU features: AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ, AVX-512 F/BW/VL
 * (checked by the dispatcher through CPUID + XGETBV; every function carries
 * the target attribute of vaes_width512.h, nothing is compiled with global
 * -m flags).
 *
 * The kernels are shared with x86-vaes-avx2: vaes_aes.h (key, rounds),
 * vaes_ghash.h (GHASH; its top comment derives the math), vaes_block.h,
 * vaes_gcm_bulk.h, vaes_gcm_small.h.  vaes_width512.h supplies the zmm
 * version of the vector vocabulary; this file spells out the backend's
 * functions, ak_vaes512_*.  The multi-message GCM kernel of the batch API
 * is compiled in gcm_multi_vaes512.c.
 */
#include "vaes_width512.h"

#include "vaes_aes.h"
#include "vaes_ghash.h"
#include "vaes_block.h"
#include "vaes_gcm_bulk.h"
#include "vaes_gcm_small.h"
#include "vaes_gcm_chain.h"
#include "vaes_gcm_chain_long.h"
#include "vaes_keyexp.h"
#include "vaes_ocb.h"
#include "vaes_cfb.h"
#include "vaes_gcmsiv.h"

/* ---- the backend's functions, over the width-generic bodies ------------- */

VAES_KERNEL void ak_vaes512_setkey(ak_aes *k, const uint8_t *key, size_t key_len) { vaes_setkey_ni(k, key, key_len); }
VAES_KERNEL void ak_vaes512_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    vaes_ecb(k, out, in, nb, 0);
}
VAES_KERNEL void ak_vaes512_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb)
{
    vaes_ecb(k, out, in, nb, 1);
}
VAES_KERNEL void ak_vaes512_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr32(k, out, in, nb, ctr);
}
VAES_KERNEL void ak_vaes512_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t ctr[16])
{
    vaes_ctr128(k, out, in, nb, ctr);
}
VAES_KERNEL void ak_vaes512_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cbc_serial(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes512_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cbc_decrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes512_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nb)
{
    vaes_cbc_serial(k, NULL, in, nb, state);
}
VAES_KERNEL void ak_vaes512_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
    vaes_xts(k, out, in, nb, tweak, 0);
}
VAES_KERNEL void ak_vaes512_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t tweak[16])
{
    vaes_xts(k, out, in, nb, tweak, 1);
}
VAES_KERNEL void ak_vaes512_ghash_init(ak_ghash *g, const uint8_t H[16]) { vaes_ghash_init(g, H); }
VAES_KERNEL void ak_vaes512_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nb)
{
    vaes_ghash(g, Y, in, nb);
}
VAES_KERNEL void ak_vaes512_gcm_encrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t ctr[16], uint8_t Y[16])
{
    vaes_gcm_stream(k, g, out, in, nb, ctr, Y, 1);
}
VAES_KERNEL void ak_vaes512_gcm_decrypt(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t nb,
                                   uint8_t ctr[16], uint8_t Y[16])
{
    vaes_gcm_stream(k, g, out, in, nb, ctr, Y, 0);
}
VAES_KERNEL void ak_vaes512_gcm_msgs(ak_gcm_msg *m, size_t n) { vaes_gcm_msgs(m, n); }
VAES_KERNEL aeskit_status ak_vaes512_gcm_seal12(const ak_gcm_key *g, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                           const uint8_t *aad, size_t lens, ak_v2u64 ivz)
{
    return vaes_gcm_seal12(g, out, tag, in, aad, lens, (__m128i)ivz);
}
VAES_KERNEL aeskit_status ak_vaes512_gcm_open12(const ak_gcm_key *g, uint8_t *out, const uint8_t *tag, const uint8_t *in,
                                           const uint8_t *aad, size_t lens, ak_v2u64 ivz)
{
    return vaes_gcm_open12(g, out, tag, in, aad, lens, (__m128i)ivz);
}

/* The gcm_batch entry (src/internal.h): n checked public descriptors of
 * direction dir, straight from the caller's array; it computes them all.
 * A uniform batch of the chains' shapes (vaes_chain_nvx, vaes_gcm_chain.h;
 * vaes_chain_long_takes, vaes_gcm_chain_long.h) goes to one whole; a run of
 * small messages to the multi-message kernel as it is, group after group
 * (ak_vaes512_gcm_multi_run_pub, vaes_gcm_multi.h); any other message to
 * vaes_gcm_batch_msg, the single call's dispatch. */
VAES_KERNEL size_t ak_vaes512_gcm_batch(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    uint8_t none[64] = {0}; /* vaes_gcm_batch_msg */
    if ((dir & AK_GCM_UNIFORM) && n >= 2) {
        const ak_gcm_key *g = (const ak_gcm_key *)(const void *)m[0].key;
        const size_t len = m[0].len;
        const int nvx = vaes_chain_nvx(len, m[0].aad_len);
        if (nvx) {
            vaes_gcm_chain_kernels[dir & AK_GCM_OPEN][nvx - VAES_CHAIN_NVX_MIN](g, m, n, T);
            return n;
        }
        if (vaes_chain_long_takes(len)) {
            vaes_gcm_chain_long_kernels[dir & AK_GCM_OPEN](g, m, n, T);
            return n;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const aeskit_gcm_msg *mm = &m[i];
        if (mm->len <= VAES_MULTI_LEN && mm->aad_len <= 16 && n - i >= 2) {
            size_t k = ak_vaes512_gcm_multi_run_pub(mm, n - i, dir, T ? T + i : NULL);
            if (k) {
                i += k - 1;
                continue;
            }
        }
        vaes_gcm_batch_msg(mm, dir, T ? T[i] : mm->tag, none + 32);
    }
    return n;
}

VAES_KERNEL void ak_vaes512_ocb_blocks(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in, size_t nb,
                                   uint64_t first, uint8_t offset[16], uint8_t sum[16], int op)
{
    vaes_ocb(k, L, out, in, nb, first, offset, sum, op);
}
VAES_KERNEL void ak_vaes512_cfb128_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cfb128_encrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes512_cfb8_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, uint8_t reg[16])
{
    vaes_cfb8_encrypt(k, out, in, len, reg);
}
VAES_KERNEL void ak_vaes512_cfb128_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nb, uint8_t iv[16])
{
    vaes_cfb128_decrypt(k, out, in, nb, iv);
}
VAES_KERNEL void ak_vaes512_polyval_init(ak_ghash *g, const uint8_t H[16], size_t nb) { vaes_polyval_init(g, H, nb); }
VAES_KERNEL void ak_vaes512_polyval(const ak_ghash *g, uint8_t S[16], const uint8_t *in, size_t len)
{
    vaes_polyval(g, S, in, len);
}
VAES_KERNEL void ak_vaes512_ctr32le(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len, const uint8_t ctr[16])
{
    vaes_ctr32le(k, out, in, len, ctr);
}
VAES_KERNEL void ak_vaes512_ctr32le_polyval(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in, size_t len,
                                         const uint8_t ctr[16], uint8_t S[16])
{
    vaes_ctr32le_polyval(k, g, out, in, len, ctr, S);
}

void ak_vaes512_cbc_lanes(ak_cbc_lane *l, size_t n); /* cbc_lanes_vaes512.c */
void ak_vaes512_ccm_lanes(ak_ccm_lane *l, size_t n, int open); /* cbc_lanes_vaes512.c */
const ak_backend ak_backend_x86_vaes_avx512 = {
    .name = "x86-vaes-avx512",
    .requires = "AES-NI, PCLMULQDQ, AVX2, VAES, VPCLMULQDQ, AVX-512 F/BW/VL",
    .priority = 50,
    .required_features = AK_CPU_AESNI | AK_CPU_PCLMUL | AK_CPU_SSSE3 | AK_CPU_SSE41 | AK_CPU_AVX | AK_CPU_AVX2 |
                         AK_CPU_VAES | AK_CPU_VPCLMUL | AK_CPU_AVX512F | AK_CPU_AVX512BW | AK_CPU_AVX512VL,
    .constant_time = 1,
    .aes_setkey = ak_vaes512_setkey,
    .ecb_encrypt = ak_vaes512_ecb_encrypt,
    .ecb_decrypt = ak_vaes512_ecb_decrypt,
    .ctr32 = ak_vaes512_ctr32,
    .ctr128 = ak_vaes512_ctr128,
    .cbc_encrypt = ak_vaes512_cbc_encrypt,
    .cbc_decrypt = ak_vaes512_cbc_decrypt,
    .cbcmac = ak_vaes512_cbcmac,
    .xts_encrypt = ak_vaes512_xts_encrypt,
    .xts_decrypt = ak_vaes512_xts_decrypt,
    .ghash_init = ak_vaes512_ghash_init,
    .ghash = ak_vaes512_ghash,
    .gcm_encrypt = ak_vaes512_gcm_encrypt,
    .gcm_decrypt = ak_vaes512_gcm_decrypt,
    .gcm_msgs = ak_vaes512_gcm_msgs,
    .gcm_seal12 = ak_vaes512_gcm_seal12,
    .gcm_reg_max = VAES_GCM_REG_MAX,
    .gcm_open12 = ak_vaes512_gcm_open12,
    .gcm_open_reg_max = VAES_GCM_OPEN_REG_MAX,
    .gcm_batch = ak_vaes512_gcm_batch,
    .gcm_batch_scan = ak_vaes512_gcm_batch_scan,
    .cbc_lanes = ak_vaes512_cbc_lanes,
    .cbc_lanes_short = 5, /* docs/performance.md, "three and five ECB steps" */
    .ccm_lanes = ak_vaes512_ccm_lanes,
    .ocb_blocks = ak_vaes512_ocb_blocks,
    .cfb128_decrypt = ak_vaes512_cfb128_decrypt,
    .cfb128_encrypt = ak_vaes512_cfb128_encrypt,
    .cfb8_encrypt = ak_vaes512_cfb8_encrypt,
    .polyval_init = ak_vaes512_polyval_init,
    .polyval = ak_vaes512_polyval,
    .ctr32le = ak_vaes512_ctr32le,
    .ctr32le_polyval = ak_vaes512_ctr32le_polyval,
};
