/*
 * aes_arm64_ce.c - the arm64-ce backend: AES-128/192/256 and GHASH with the
 * ARMv8 Cryptographic Extension.
 *
 * Needs: AArch64 with FEAT_AES (AESE, AESD, AESMC, AESIMC) and FEAT_PMULL
 * (PMULL, PMULL2 on 64-bit lanes); Linux reports them as HWCAP_AES and
 * HWCAP_PMULL (src/cpu.c).  Only the functions carry target("+crypto");
 * the rest of the library is built for plain ARMv8-A.
 *
 * The primitives are the shared kernels of src/simd/aes_gcm_akv.h over the
 * AArch64 words of src/simd/akv.h (ARM Architecture Reference Manual for
 * A-profile, C7.2: AESE/AESMC/AESD/AESIMC, PMULL/PMULL2).  Constant-time:
 * the AES and multiply instructions take data-independent time, and no
 * branch or memory index depends on keys or data.
 */
#include "../internal.h"

#ifdef AK_ARCH_AARCH64
#include "../simd/akv.h"
#include "../simd/aes_gcm_akv.h"
#include "../simd/cbc_lanes_akv.h"

const ak_backend ak_backend_arm64_ce = {
    .name = "arm64-ce",
    .requires = "ARMv8 AES, PMULL",
    .priority = 30,
    .required_features = AK_CPU_ARM_AES | AK_CPU_ARM_PMULL,
    .constant_time = 1,
    AKV_BACKEND_PRIMITIVES,
    .cbc_lanes = akv_be_cbc_lanes,
};
#endif
