/*
 * backend_generic.c - the generic backend's descriptor: portable C,
 * constant-time, always available.  CPU features: none.
 *
 * The AES block function comes in several vector widths of the same
 * bitsliced code (aes_generic_core.h); the width is chosen once per key in
 * aes_setkey from ak_cpu_features() and recorded in the key, so
 * AESKIT_CPU=generic always runs the baseline build.
 */
#include "generic.h"

uint32_t ak_gen_pick_variant(void)
{
#ifdef AK_GEN_X86
    uint32_t f = ak_cpu_features();
    const uint32_t avx512 = AK_CPU_AVX512F | AK_CPU_AVX512BW | AK_CPU_AVX512VL;
    if ((f & avx512) == avx512)
        return AK_GEN_V_AVX512;
    if (f & AK_CPU_AVX2)
        return AK_GEN_V_AVX2;
    if (f & AK_CPU_SSSE3)
        return AK_GEN_V_SSSE3;
#endif
    return AK_GEN_V_BASE;
}

/* A bitsliced batch costs the same for 1 block as for a full batch, so a
 * call with few blocks (CBC encryption, CBC-MAC, short messages) runs on the
 * narrowest width the key's features allow: variants for <= 8 and <= 16
 * blocks are recorded next to the main one. */
static void pick_variants(uint8_t v[3])
{
    uint32_t main = ak_gen_pick_variant(), narrow = main, mid = main;
#ifdef AK_GEN_X86
    uint32_t f = ak_cpu_features();
    if (main >= AK_GEN_V_SSSE3 && (f & AK_CPU_SSSE3))
        narrow = AK_GEN_V_SSSE3;
    else if (main > AK_GEN_V_SSSE3)
        narrow = AK_GEN_V_BASE;
    if (main == AK_GEN_V_AVX512 && (f & AK_CPU_AVX2))
        mid = AK_GEN_V_AVX2;
    else if (main == AK_GEN_V_AVX512)
        mid = narrow;
#endif
    v[0] = (uint8_t)main;
    v[1] = (uint8_t)narrow;
    v[2] = (uint8_t)mid;
}

const ak_gen_aes_impl *ak_gen_aes_variant(uint32_t v)
{
    switch (v) {
#ifdef AK_GEN_X86
    case AK_GEN_V_SSSE3: return &ak_gen_aes_ssse3;
    case AK_GEN_V_AVX2: return &ak_gen_aes_avx2;
    case AK_GEN_V_AVX512: return &ak_gen_aes_avx512;
#endif
    default: return &ak_gen_aes_w16;
    }
}

static const ak_gen_aes_impl *impl_of(const ak_aes *k, size_t nblocks)
{
    const uint8_t *v = k->data + AK_GEN_VARIANT_OFF;
    return ak_gen_aes_variant(nblocks <= 8 ? v[1] : nblocks <= 16 ? v[2] : v[0]);
}

static void gen_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    memset(k->data, 0, sizeof k->data);
    k->rounds = ak_generic_key_schedule(k->data + AK_GEN_RK_OFF, key, key_len);
    k->key_len = (uint32_t)key_len;
    pick_variants(k->data + AK_GEN_VARIANT_OFF);
}

/* Whole batches of the key's main width, then the few blocks left (the
 * extra E_K(J0) block of GCM, a tail) on the width that fits them, so a
 * 65-block call does not pay for a second 32-block batch. */
static size_t split_point(const ak_aes *k, size_t nblocks)
{
    size_t batch = ak_gen_aes_variant(k->data[AK_GEN_VARIANT_OFF])->batch;
    return nblocks > batch ? nblocks - nblocks % batch : 0;
}

/* ECB in both directions, split as split_point says. */
static void gen_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks, int dec)
{
    size_t m = split_point(k, nblocks);
    const uint8_t *rk = k->data + AK_GEN_RK_OFF;
    if (m) {
        const ak_gen_aes_impl *im = impl_of(k, m);
        (dec ? im->ecb_decrypt : im->ecb_encrypt)(rk, k->rounds, out, in, m);
    }
    if (nblocks > m) {
        const ak_gen_aes_impl *im = impl_of(k, nblocks - m);
        (dec ? im->ecb_decrypt : im->ecb_encrypt)(rk, k->rounds, out + 16 * m, in + 16 * m, nblocks - m);
    }
}

static void gen_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    gen_ecb(k, out, in, nblocks, 0);
}

static void gen_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    gen_ecb(k, out, in, nblocks, 1);
}

static void gen_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                    uint8_t ctr[16], int wide)
{
    size_t m = split_point(k, nblocks);
    if (m)
        impl_of(k, m)->ctr(k->data + AK_GEN_RK_OFF, k->rounds, out, in, m, ctr, wide);
    if (nblocks > m)
        impl_of(k, nblocks - m)->ctr(k->data + AK_GEN_RK_OFF, k->rounds, out + 16 * m,
                                     in + 16 * m, nblocks - m, ctr, wide);
}

static void gen_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                      uint8_t ctr[16])
{
    gen_ctr(k, out, in, nblocks, ctr, 0);
}

static void gen_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                       uint8_t ctr[16])
{
    gen_ctr(k, out, in, nblocks, ctr, 1);
}

/* The bitsliced width new keys get here ("bitslice-512", ...). */
static const char *gen_variant(void) { return ak_gen_aes_variant(ak_gen_pick_variant())->name; }

const ak_backend ak_backend_generic = {
    .name = "generic",
    .requires = "nothing (portable C11)",
    .priority = 0,
    .required_features = 0,
    .constant_time = 1,
    .variant = gen_variant,
    .mac_ctr_step = 256,
    .aes_setkey = gen_setkey,
    .ecb_encrypt = gen_ecb_encrypt,
    .ecb_decrypt = gen_ecb_decrypt,
    .ctr32 = gen_ctr32,
    .ctr128 = gen_ctr128,
    .cbc_encrypt = ak_blockloop_cbc_encrypt,
    .cbc_decrypt = ak_blockloop_cbc_decrypt,
    .cbcmac = ak_blockloop_cbcmac,
    .xts_encrypt = ak_blockloop_xts_encrypt,
    .xts_decrypt = ak_blockloop_xts_decrypt,
    .ghash_init = ak_generic_ghash_init,
    .ghash = ak_generic_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
};
