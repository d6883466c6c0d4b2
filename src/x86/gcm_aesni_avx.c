/*
 * gcm_aesni_avx.c - gcm_aesni.c's fused and whole-message GCM kernels again,
 * VEX-encoded, for the x86-aesni backend on CPUs with AVX (Sandy Bridge to
 * Comet Lake, Skylake-SP and Cascade Lake servers, Zen 1-2: AES-NI without
 * VAES).  aes_aesni.c calls them for keys set up with AVX present
 * (ak_aesni_key.vex).
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 and AVX.  AESNI_TARGET,
 * defined here before aesni_ops.h would define it, adds AVX to every
 * function of gcm_aesni.c, so each intrinsic takes its three-operand VEX
 * form (no -m flag: every build of the library, and every script that
 * compiles the file alone, gets the same code).  The code, and so the
 * bytes computed and the constant-time argument, are gcm_aesni.c's.  The
 * exported names are renamed below; the GHASH-only entries stay in the SSE
 * build (AESNI_GCM_AVX_BUILD).
 */
#define AESNI_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1,avx")))
#define AESNI_GCM_AVX_BUILD 1
#define ak_aesni_gcm_encrypt ak_aesni_gcm_encrypt_avx
#define ak_aesni_gcm_decrypt ak_aesni_gcm_decrypt_avx
#define ak_aesni_gcm_msgs ak_aesni_gcm_msgs_avx
#include "gcm_aesni.c"
