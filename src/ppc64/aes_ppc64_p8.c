/*
 * aes_ppc64_p8.c - the ppc64-p8 backend: AES-128/192/256 and GHASH with the
 * POWER8 vector crypto instructions, on little-endian ppc64.
 *
 * Needs: POWER ISA 2.07 (POWER8) vector crypto: vcipher, vcipherlast,
 * vncipher, vncipherlast, vsbox, vpmsumd, plus VSX loads; Linux reports it
 * as PPC_FEATURE2_VEC_CRYPTO in AT_HWCAP2 (src/cpu.c).  Only the functions
 * carry the target attribute (cpu=power8 for gcc, crypto,power8-vector for
 * clang).
 *
 * The primitives are the shared kernels of src/simd/aes_gcm_akv.h over the
 * POWER words of src/simd/akv.h (Power ISA 3.0B, Book I, Vector Facility:
 * "Vector Cryptographic Instructions", vpmsumd under "Vector Polynomial
 * Multiply-Sum").  The ISA numbers vector bytes big-endian; akv.h's loads
 * and stores put the AES state in that order on a little-endian system.
 * Constant-time: the crypto instructions take data-independent time, and
 * no branch or memory index depends on keys or data.
 */
#include "../internal.h"

#ifdef AK_ARCH_PPC64LE
#include "../simd/akv.h"
#include "../simd/aes_gcm_akv.h"
#include "../simd/cbc_lanes_akv.h"

const ak_backend ak_backend_ppc64_p8 = {
    .name = "ppc64-p8",
    .requires = "POWER8 vector crypto (vcipher, vpmsumd)",
    .priority = 30,
    .required_features = AK_CPU_PPC_VCRYPTO,
    .constant_time = 1,
    AKV_BACKEND_PRIMITIVES,
    .cbc_lanes = akv_be_cbc_lanes,
};
#endif
