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

#if defined(AK_ARCH_X86_64) && (defined(__GNUC__) || defined(__clang__))
#include "aes_generic_sbox.h"

#if defined(__clang__)
#define AK_TARGET_PUSH(t) _Pragma(AK_STR(clang attribute push(__attribute__((target(t))), apply_to = function)))
#define AK_TARGET_POP _Pragma("clang attribute pop")
#else
#define AK_TARGET_PUSH(t) _Pragma("GCC push_options") _Pragma(AK_STR(GCC target(t)))
#define AK_TARGET_POP _Pragma("GCC pop_options")
#endif
#define AK_STR(x) #x

/* ---- SSSE3, 16 bytes ---- */
AK_TARGET_PUSH("ssse3")
#define AKBS_W 16
#define AKBS_NAME(x) akbs16s_##x
#include "aes_generic_core.h"
AK_GEN_DEFINE_IMPL(ak_gen_aes_ssse3, "bitslice-128-ssse3", akbs16s_);
AK_TARGET_POP
#undef AKBS_W
#undef AKBS_NAME
#undef AKBS_LANES
#undef AKBS_BLOCKS
#undef AKBS_IDX

/* ---- AVX2, 32 bytes ---- */
AK_TARGET_PUSH("avx2")
#define AKBS_W 32
#define AKBS_NAME(x) akbs32_##x
#define akbs_v akbs32_v
#define akbs_b akbs32_b
#include "aes_generic_core.h"
AK_GEN_DEFINE_IMPL(ak_gen_aes_avx2, "bitslice-256-avx2", akbs32_);
AK_TARGET_POP
#undef AKBS_W
#undef AKBS_NAME
#undef AKBS_LANES
#undef AKBS_BLOCKS
#undef AKBS_IDX
#undef akbs_v
#undef akbs_b

/* ---- AVX-512, 64 bytes ---- */
AK_TARGET_PUSH("avx512f,avx512bw,avx512vl")
#define AKBS_W 64
#define AKBS_NAME(x) akbs64_##x
#define akbs_v akbs64_v
#define akbs_b akbs64_b
#include "aes_generic_core.h"
AK_GEN_DEFINE_IMPL(ak_gen_aes_avx512, "bitslice-512-avx512", akbs64_);
AK_TARGET_POP
#endif
