/*
 * isa_internal.h - the operation table behind include/aeskit_isa.h.
 *
 * AK_ISA_LIST names every public instruction once, with its shape; the
 * table (struct ak_isa_ops), the public wrappers (isa.c) and the portable
 * table (isa_portable.c) are all generated from it, so a new instruction is
 * one line here plus its implementations.
 *
 * Shapes:
 *   B3  void f(uint8_t *d, const uint8_t *a, const uint8_t *b)           N-byte images
 *   B3I void f(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm)
 *   B2  void f(uint8_t *d, const uint8_t *a)
 *   B2I void f(uint8_t *d, const uint8_t *a, unsigned imm)
 *   R2  uint64_t f(uint64_t, uint64_t)   (RISC-V registers)
 *   R1  uint64_t f(uint64_t)
 *   R1I uint64_t f(uint64_t, unsigned imm)
 * Every implementation reads all of its inputs before it writes d, so d may
 * be the same array as an input.
 */
#ifndef AESKIT_ISA_INTERNAL_H
#define AESKIT_ISA_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "aeskit_isa.h"

#define AK_ISA_LIST(X)                   \
    X(B3, x86_aesenc, 16)                \
    X(B3, x86_aesenclast, 16)            \
    X(B3, x86_aesdec, 16)                \
    X(B3, x86_aesdeclast, 16)            \
    X(B2, x86_aesimc, 16)                \
    X(B2I, x86_aeskeygenassist, 16)      \
    X(B3I, x86_pclmulqdq, 16)            \
    X(B3, x86_vaesenc_x2, 32)            \
    X(B3, x86_vaesenclast_x2, 32)        \
    X(B3, x86_vaesdec_x2, 32)            \
    X(B3, x86_vaesdeclast_x2, 32)        \
    X(B3I, x86_vpclmulqdq_x2, 32)        \
    X(B3, x86_vaesenc_x4, 64)            \
    X(B3, x86_vaesenclast_x4, 64)        \
    X(B3, x86_vaesdec_x4, 64)            \
    X(B3, x86_vaesdeclast_x4, 64)        \
    X(B3I, x86_vpclmulqdq_x4, 64)        \
    X(B3, arm_aese, 16)                  \
    X(B3, arm_aesd, 16)                  \
    X(B2, arm_aesmc, 16)                 \
    X(B2, arm_aesimc, 16)                \
    X(B3, arm_pmull_1q, 16)              \
    X(B3, arm_pmull2_1q, 16)             \
    X(B3, arm_pmull_8h, 16)              \
    X(B3, arm_pmull2_8h, 16)             \
    X(B3, arm_pmul_16b, 16)              \
    X(B3, ppc_vcipher, 16)               \
    X(B3, ppc_vcipherlast, 16)           \
    X(B3, ppc_vncipher, 16)              \
    X(B3, ppc_vncipherlast, 16)          \
    X(B2, ppc_vsbox, 16)                 \
    X(B3, ppc_vpmsumb, 16)               \
    X(B3, ppc_vpmsumh, 16)               \
    X(B3, ppc_vpmsumw, 16)               \
    X(B3, ppc_vpmsumd, 16)               \
    X(R2, rv_aes64es, 8)                 \
    X(R2, rv_aes64esm, 8)                \
    X(R2, rv_aes64ds, 8)                 \
    X(R2, rv_aes64dsm, 8)                \
    X(R1, rv_aes64im, 8)                 \
    X(R1I, rv_aes64ks1i, 8)              \
    X(R2, rv_aes64ks2, 8)                \
    X(R2, rv_clmul, 8)                   \
    X(R2, rv_clmulh, 8)                  \
    X(R2, rv_clmulr, 8)

typedef void ak_isa_B3(uint8_t *d, const uint8_t *a, const uint8_t *b);
typedef void ak_isa_B3I(uint8_t *d, const uint8_t *a, const uint8_t *b, unsigned imm);
typedef void ak_isa_B2(uint8_t *d, const uint8_t *a);
typedef void ak_isa_B2I(uint8_t *d, const uint8_t *a, unsigned imm);
typedef uint64_t ak_isa_R2(uint64_t a, uint64_t b);
typedef uint64_t ak_isa_R1(uint64_t a);
typedef uint64_t ak_isa_R1I(uint64_t a, unsigned imm);

struct ak_isa_ops {
#define AK_ISA_FIELD(kind, name, n) ak_isa_##kind *name;
    AK_ISA_LIST(AK_ISA_FIELD)
#undef AK_ISA_FIELD
};

/* The portable path, complete (isa_portable.c). */
extern const struct ak_isa_ops ak_isa_portable_ops;

/* Host paths: each overwrites the entries its CPU features (AK_CPU_* bits
 * of src/internal.h) can serve and returns a short description of what it
 * used ("" if nothing).  Defined only on their architecture. */
const char *ak_isa_host_x86(struct ak_isa_ops *ops, uint32_t features);
const char *ak_isa_host_arm64(struct ak_isa_ops *ops, uint32_t features);
const char *ak_isa_host_ppc64(struct ak_isa_ops *ops, uint32_t features);

/* Helpers of the portable path that host files reuse for the instructions
 * their CPU has no counterpart for (isa_portable.c). */
void ak_isa_portable_clmul64(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi);

/* Little- and big-endian 64-bit loads and stores at any alignment (memcpy
 * compiles to one move; the byte swap is one instruction where needed). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define AK_ISA_LE64(v) __builtin_bswap64(v)
#define AK_ISA_BE64(v) (v)
#else
#define AK_ISA_LE64(v) (v)
#define AK_ISA_BE64(v) __builtin_bswap64(v)
#endif
static inline uint64_t ak_isa_ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return AK_ISA_LE64(v);
}
static inline void ak_isa_st64(uint8_t *p, uint64_t v)
{
    v = AK_ISA_LE64(v);
    memcpy(p, &v, 8);
}
static inline uint64_t ak_isa_ld64be(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return AK_ISA_BE64(v);
}
static inline void ak_isa_st64be(uint8_t *p, uint64_t v)
{
    v = AK_ISA_BE64(v);
    memcpy(p, &v, 8);
}

#endif
