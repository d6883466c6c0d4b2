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

static const ak_gen_aes_impl *impl_of(const ak_aes *k)
{
    uint32_t v;
    memcpy(&v, k->data + AK_GEN_VARIANT_OFF, sizeof v);
    (void)v;
    return &ak_gen_aes_w16;
}

static void gen_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    uint32_t v = 0;
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

const ak_backend ak_backend_generic = {
    .name = "generic",
    .requires = "nothing (portable C11)",
    .priority = 0,
    .required_features = 0,
    .constant_time = 1,
    .aes_setkey = gen_setkey,
    .ecb_encrypt = gen_ecb_encrypt,
    .ecb_decrypt = gen_ecb_decrypt,
    .ctr32 = ak_blockloop_ctr32,
    .ctr128 = ak_blockloop_ctr128,
    .cbc_encrypt = ak_blockloop_cbc_encrypt,
    .cbc_decrypt = ak_blockloop_cbc_decrypt,
    .cbcmac = ak_blockloop_cbcmac,
    .xts_encrypt = ak_blockloop_xts_encrypt,
    .xts_decrypt = ak_blockloop_xts_decrypt,
    .ghash_init = ak_generic_ghash_init,
    .ghash = ak_generic_ghash,
};
