/*
 * cbc_lanes_generic.c - the generic backend's cbc_lanes: independent CBC
 * chains (encryption or CBC-MAC, ak_cbc_lane in internal.h) in the block
 * positions of the bitsliced AES (cbc_lanes_generic_core.h says how).
 * CPU features: none at the baseline width; on x86-64 also SSSE3, AVX2 and
 * AVX-512 F/BW/VL builds of the same C, per function (target pragmas, as
 * aes_generic_x86.c), chosen by the width the keys recorded.
 *
 * Width: a batch costs the same however many of its slots are busy, so the
 * lanes of one round count run on the narrowest width whose batch holds
 * them all (8 slots at 16 bytes, 16 at 32, 32 at 64), as the backend picks
 * widths for short calls (backend_generic.c).  Without GNU C vectors (the
 * scalar build) every lane goes through ak_cbc_lanes_serial.
 */
#include "generic.h"

void ak_gen_cbc_lanes(ak_cbc_lane *l, size_t n);

#ifdef AK_GEN_VECTORS
#include "aes_generic_sbox.h"

/* aes_generic_core.h defines the ECB and CTR loops of each width too;
 * this file uses only its planes, load/store and encrypt_planes. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

/* ---- baseline, 16 bytes ---- */
#define AKBS_W 16
#define AKBS_NAME(x) glb16_##x
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__SSSE3__)
#define AKBS_NO_BYTE_SHUFFLE 1
#endif
#include "aes_generic_core.h"
#undef AKBS_NO_BYTE_SHUFFLE
#define GL_FN gl_lanes_w16
#define GL_V glb16_v
#define GL_W 16
#define GL_LOAD glb16_load
#define GL_STORE glb16_store
#define GL_ENCRYPT glb16_encrypt_planes
#define GL_FIX_KEY glb16_fix_key
#include "cbc_lanes_generic_core.h"
#undef GL_FN
#undef GL_V
#undef GL_W
#undef GL_LOAD
#undef GL_STORE
#undef GL_ENCRYPT
#undef GL_FIX_KEY

#ifdef AK_GEN_X86
/* ---- SSSE3, 16 bytes ---- */
AK_TARGET_PUSH("ssse3")
#define AKBS_W 16
#define AKBS_NAME(x) gls16_##x
#include "aes_generic_core.h"
#define GL_FN gl_lanes_ssse3
#define GL_V gls16_v
#define GL_W 16
#define GL_LOAD gls16_load
#define GL_STORE gls16_store
#define GL_ENCRYPT gls16_encrypt_planes
#define GL_FIX_KEY gls16_fix_key
#include "cbc_lanes_generic_core.h"
#undef GL_FN
#undef GL_V
#undef GL_W
#undef GL_LOAD
#undef GL_STORE
#undef GL_ENCRYPT
#undef GL_FIX_KEY
AK_TARGET_POP

/* ---- AVX2, 32 bytes ---- */
AK_TARGET_PUSH("avx2")
#define AKBS_W 32
#define AKBS_NAME(x) gl32_##x
#include "aes_generic_core.h"
#define GL_FN gl_lanes_avx2
#define GL_V gl32_v
#define GL_W 32
#define GL_LOAD gl32_load
#define GL_STORE gl32_store
#define GL_ENCRYPT gl32_encrypt_planes
#define GL_FIX_KEY gl32_fix_key
#include "cbc_lanes_generic_core.h"
#undef GL_FN
#undef GL_V
#undef GL_W
#undef GL_LOAD
#undef GL_STORE
#undef GL_ENCRYPT
#undef GL_FIX_KEY
AK_TARGET_POP

/* ---- AVX-512, 64 bytes ---- */
AK_TARGET_PUSH("avx512f,avx512bw,avx512vl")
#define AKBS_W 64
#define AKBS_NAME(x) gl64_##x
#include "aes_generic_core.h"
#define GL_FN gl_lanes_avx512
#define GL_V gl64_v
#define GL_W 64
#define GL_LOAD gl64_load
#define GL_STORE gl64_store
#define GL_ENCRYPT gl64_encrypt_planes
#define GL_FIX_KEY gl64_fix_key
#include "cbc_lanes_generic_core.h"
#undef GL_FN
#undef GL_V
#undef GL_W
#undef GL_LOAD
#undef GL_STORE
#undef GL_ENCRYPT
#undef GL_FIX_KEY
AK_TARGET_POP
#endif /* AK_GEN_X86 */

#pragma GCC diagnostic pop

/* The width for `count` lanes, from the variants the key recorded
 * (backend_generic.c: main, <= 8 blocks, <= 16 blocks). */
static void gl_run(ak_cbc_lane *l, size_t n, unsigned R, size_t count, const ak_aes *k)
{
    const ak_gen_variants *v = &ak_gen_key_of(k)->variant;
    uint32_t w = count <= 8 ? v->le8 : count <= 16 ? v->le16 : v->many;
    switch (w) {
#ifdef AK_GEN_X86
    case AK_GEN_V_SSSE3: gl_lanes_ssse3(l, n, R); break;
    case AK_GEN_V_AVX2: gl_lanes_avx2(l, n, R); break;
    case AK_GEN_V_AVX512: gl_lanes_avx512(l, n, R); break;
#endif
    default: gl_lanes_w16(l, n, R); break;
    }
}

void ak_gen_cbc_lanes(ak_cbc_lane *l, size_t n)
{
    for (unsigned R = 10; R <= 14; R += 2) {
        size_t count = 0;
        const ak_aes *k = NULL;
        for (size_t i = 0; i < n; i++)
            if (l[i].blocks && l[i].aes->rounds == R) {
                count++;
                k = l[i].aes;
            }
        if (count == 1) {
            /* One chain: the single-block kernel is faster than a batch. */
            for (size_t i = 0; i < n; i++)
                if (l[i].blocks && l[i].aes->rounds == R)
                    ak_cbc_lanes_serial(&l[i], 1);
        } else if (count) {
            gl_run(l, n, R, count, k);
        }
    }
}
#else
void ak_gen_cbc_lanes(ak_cbc_lane *l, size_t n)
{
    ak_cbc_lanes_serial(l, n);
}
#endif /* AK_GEN_VECTORS */
