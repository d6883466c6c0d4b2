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

static const ak_gen_aes_impl *impl_of(const ak_aes *k)
{
    uint32_t v;
    memcpy(&v, k->data + AK_GEN_VARIANT_OFF, sizeof v);
    return ak_gen_aes_variant(v);
}

static void gen_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint32_t v = ak_gen_pick_variant();
    memset(k->data, 0, sizeof k->data);
    k->rounds = ak_generic_key_schedule(k->data + AK_GEN_RK_OFF, key, key_len);
    k->key_len = (uint32_t)key_len;
    memcpy(k->data + AK_GEN_VARIANT_OFF, &v, sizeof v);
}

static void gen_ecb_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    impl_of(k)->ecb_encrypt(k->data + AK_GEN_RK_OFF, k->rounds, out, in, nblocks);
}

static void gen_ecb_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    impl_of(k)->ecb_decrypt(k->data + AK_GEN_RK_OFF, k->rounds, out, in, nblocks);
}

static void gen_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                      uint8_t ctr[16])
{
    impl_of(k)->ctr(k->data + AK_GEN_RK_OFF, k->rounds, out, in, nblocks, ctr, 0);
}

static void gen_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                       uint8_t ctr[16])
{
    impl_of(k)->ctr(k->data + AK_GEN_RK_OFF, k->rounds, out, in, nblocks, ctr, 1);
}

const ak_backend ak_backend_generic = {
    .name = "generic",
    .requires = "nothing (portable C11)",
    .priority = 0,
    .required_features = 0,
    .constant_time = 1,
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
};
