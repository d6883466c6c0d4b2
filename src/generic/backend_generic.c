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
static void pick_variants(ak_gen_variants *v)
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
    v->many = (uint8_t)main;
    v->le8 = (uint8_t)narrow;
    v->le16 = (uint8_t)mid;
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
    const ak_gen_variants *v = &ak_gen_key_of(k)->variant;
    return ak_gen_aes_variant(nblocks <= 8 ? v->le8 : nblocks <= 16 ? v->le16 : v->many);
}

static void gen_setkey(ak_aes *k, const uint8_t *key, size_t key_len)
{
    ak_gen_key *K = ak_gen_key_mut(k);
    memset(k->data, 0, sizeof k->data);
    k->rounds = ak_generic_key_schedule(K->rk, key, key_len);
    k->key_len = (uint32_t)key_len;
    pick_variants(&K->variant);
    ak_gen1_expand(K->k1, K->k1d, K->rk, k->rounds);
#ifdef AK_GEN_VECTORS
    ak_gen_ctr_tables(K->ctr_s, K->rk[15]);
#endif
}

/* The single-block kernel's keys of one direction. */
static const uint64_t *k1_keys(const ak_aes *k, int dec)
{
    return dec ? ak_gen_key_of(k)->k1d : ak_gen_key_of(k)->k1;
}

/* Up to this many blocks, a call runs block by block on the single-block
 * kernel rather than on one bitsliced batch (nblocks is public). */
#define AK_GEN1_MAX 1

static void gen1_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks, int dec)
{
    ak_gen1_ecb(k1_keys(k, dec), k->rounds, out, in, nblocks, dec);
}

/* Whole batches of the key's main width, then the few blocks left (the
 * extra E_K(J0) block of GCM, a tail) on the width that fits them, so a
 * 65-block call does not pay for a second 32-block batch. */
static size_t split_point(const ak_aes *k, size_t nblocks)
{
    size_t batch = ak_gen_aes_variant(ak_gen_key_of(k)->variant.many)->batch;
    return nblocks > batch ? nblocks - nblocks % batch : 0;
}

/* ECB in both directions, split as split_point says. */
static void gen_ecb(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks, int dec)
{
    if (nblocks <= AK_GEN1_MAX) {
        gen1_ecb(k, out, in, nblocks, dec);
        return;
    }
    size_t m = split_point(k, nblocks);
    const uint8_t *rk = ak_gen_key_of(k)->rk;
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

/* CTR on the single-block kernel; counters are public, keystream wiped. */
static void gen1_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                     uint8_t ctr[16], int wide)
{
    const uint64_t *kw = k1_keys(k, 0);
    uint8_t ks[16];
    for (size_t i = 0; i < nblocks; i++) {
        ak_gen1_ecb(kw, k->rounds, ks, ctr, 1, 0);
        for (size_t j = 0; j < 16; j++)
            out[16 * i + j] = in[16 * i + j] ^ ks[j];
        ak_ctr_inc_be(ctr, wide);
    }
    aeskit_memzero(ks, sizeof ks);
}

static void gen_ctr(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                    uint8_t ctr[16], int wide)
{
    if (nblocks <= AK_GEN1_MAX) {
        gen1_ctr(k, out, in, nblocks, ctr, wide);
        return;
    }
    size_t m = split_point(k, nblocks);
    const ak_gen_key *gk = ak_gen_key_of(k);
    if (m)
        impl_of(k, m)->ctr(gk, k->rounds, out, in, m, ctr, wide);
    if (nblocks > m)
        impl_of(k, nblocks - m)->ctr(gk, k->rounds, out + 16 * m, in + 16 * m, nblocks - m, ctr,
                                     wide);
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

/* What new keys get here: the main bitsliced width, the narrower ones of
 * pick_variants for calls of few blocks, and the single-block kernel (one
 * block, CBC encryption, CBC-MAC).  One constant text per combination
 * pick_variants can give; any other (none today) names the main width. */
#define GEN_ONE "; 1 block, CBC encryption and CBC-MAC: single-block kernel"
static const char *gen_variant(void)
{
    static const struct {
        uint8_t many, le16, le8;
        const char *text;
    } known[] = {
#ifdef AK_GEN_X86
        {AK_GEN_V_AVX512, AK_GEN_V_AVX2, AK_GEN_V_SSSE3,
         "bitslice-512-avx512; up to 16 blocks bitslice-256-avx2, up to 8 bitslice-128-ssse3" GEN_ONE},
        {AK_GEN_V_AVX2, AK_GEN_V_AVX2, AK_GEN_V_SSSE3, "bitslice-256-avx2; up to 8 blocks bitslice-128-ssse3" GEN_ONE},
        {AK_GEN_V_AVX512, AK_GEN_V_SSSE3, AK_GEN_V_SSSE3,
         "bitslice-512-avx512; up to 16 blocks bitslice-128-ssse3" GEN_ONE},
        {AK_GEN_V_AVX512, AK_GEN_V_AVX2, AK_GEN_V_BASE,
         "bitslice-512-avx512; up to 16 blocks bitslice-256-avx2, up to 8 bitslice-128" GEN_ONE},
        {AK_GEN_V_AVX512, AK_GEN_V_BASE, AK_GEN_V_BASE, "bitslice-512-avx512; up to 16 blocks bitslice-128" GEN_ONE},
        {AK_GEN_V_AVX2, AK_GEN_V_AVX2, AK_GEN_V_BASE, "bitslice-256-avx2; up to 8 blocks bitslice-128" GEN_ONE},
        {AK_GEN_V_SSSE3, AK_GEN_V_SSSE3, AK_GEN_V_SSSE3, "bitslice-128-ssse3" GEN_ONE},
#endif
#ifdef AK_GEN_VECTORS
        {AK_GEN_V_BASE, AK_GEN_V_BASE, AK_GEN_V_BASE, "bitslice-128" GEN_ONE},
#else
        {AK_GEN_V_BASE, AK_GEN_V_BASE, AK_GEN_V_BASE, "bitslice-scalar" GEN_ONE},
#endif
    };
    ak_gen_variants v;
    pick_variants(&v);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].many == v.many && known[i].le16 == v.le16 && known[i].le8 == v.le8)
            return known[i].text;
    return ak_gen_aes_variant(v.many)->name;
}
/* CBC encryption and CBC-MAC are serial: always the single-block kernel. */
static void gen_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                            uint8_t iv[16])
{
    if (nblocks == 0)
        return;
    ak_gen1_cbc_encrypt(k1_keys(k, 0), k->rounds, out, in, nblocks, iv);
}

static void gen_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks == 0)
        return;
    ak_gen1_cbcmac(k1_keys(k, 0), k->rounds, state, in, nblocks);
}

void ak_gen_cbc_lanes(ak_cbc_lane *l, size_t n); /* cbc_lanes_generic.c */
const ak_backend ak_backend_generic = {
    .name = "generic",
    .requires = "nothing (portable C11)",
    .priority = 0,
    .required_features = 0,
    .constant_time = 1,
    .variant = gen_variant,
    .mac_ctr_step = 256,
    .gcm_one_pass_max = 496,
    .aes_setkey = gen_setkey,
    .ecb_encrypt = gen_ecb_encrypt,
    .ecb_decrypt = gen_ecb_decrypt,
    .ctr32 = gen_ctr32,
    .ctr128 = gen_ctr128,
    .cbc_encrypt = gen_cbc_encrypt,
    .cbc_decrypt = ak_blockloop_cbc_decrypt,
    .cbcmac = gen_cbcmac,
    .xts_encrypt = ak_blockloop_xts_encrypt,
    .xts_decrypt = ak_blockloop_xts_decrypt,
    .ghash_init = ak_generic_ghash_init,
    .ghash = ak_generic_ghash,
    .gcm_msgs = ak_gcm_msgs_primitives,
    .gcm_batch = ak_gcm_batch_primitives,
    .cbc_lanes = ak_gen_cbc_lanes,
    /* docs/performance.md, "short messages of a batch share ECB calls" */
    .ctr_gather_short = 16,
    .cbc_gather_short = 16,
};
