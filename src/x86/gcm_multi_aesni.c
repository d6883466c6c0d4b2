/*
 * gcm_multi_aesni.c - the x86-aesni backend's multi-message GCM kernel
 * (gcm_multi_aesni.h: small messages of one batch call side by side, one
 * per xmm register a block), in a translation unit of its own.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (AESNI_TARGET of
 * aesni_ops.h, legacy-SSE encodings); reached only through aes_aesni.c's
 * gcm_batch entry, which the dispatcher picks on CPUs that have them.
 * gcm_multi_aesni_avx.c builds this file again with AVX added to
 * AESNI_TARGET and the exported name ending in _avx: the same code in VEX
 * encoding, for keys set up where AVX is present (ak_aesni_key.vex).
 */
#include "gcm_multi_aesni.h"

size_t ak_aesni_gcm_multi(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);

AESNI_TARGET size_t ak_aesni_gcm_multi(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16])
{
    return mxa_run(m, n, dir, T);
}
