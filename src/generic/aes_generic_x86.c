/*
 * aes_generic_x86.c - the same portable bitsliced AES source
 * (aes_generic_core.h) compiled for wider x86 vectors:
 *   - 16 bytes under SSSE3 (byte shuffles become one pshufb),
 *   - 32 bytes (16 blocks per batch) under AVX2,
 *   - 64 bytes (32 blocks per batch) under AVX-512BW/VL.
 * CPU features: SSSE3 / AVX2 / AVX-512F+BW+VL, per function (target
 * pragmas); the backend picks one per key from ak_cpu_features().  No
 * intrinsics: this is the generic C, only the code generation differs.
 */
#include "generic.h"

#ifdef AK_GEN_X86
#include "aes_generic_sbox.h"


/* ---- SSSE3, 16 bytes ---- */
AK_TARGET_PUSH("ssse3")
#define AKBS_W 16
#define AKBS_NAME(x) akbs16s_##x
#include "aes_generic_core.h"
AK_GEN_DEFINE_IMPL(ak_gen_aes_ssse3, "bitslice-128-ssse3", 8, akbs16s_);
AK_TARGET_POP

/* ---- AVX2, 32 bytes ---- */
AK_TARGET_PUSH("avx2")
#define AKBS_W 32
#define AKBS_NAME(x) akbs32_##x
#include "aes_generic_core.h"
AK_GEN_DEFINE_IMPL(ak_gen_aes_avx2, "bitslice-256-avx2", 16, akbs32_);
AK_TARGET_POP

/* ---- AVX-512, 64 bytes ---- */
AK_TARGET_PUSH("avx512f,avx512bw,avx512vl")
#define AKBS_W 64
#define AKBS_NAME(x) akbs64_##x
#include "aes_generic_core.h"
AK_GEN_DEFINE_IMPL(ak_gen_aes_avx512, "bitslice-512-avx512", 32, akbs64_);
AK_TARGET_POP
#endif
