/*
 * cpu.c - CPU feature detection, once per process, and the AESKIT_CPU mask.
 *
 * x86-64: CPUID for the instruction sets and XGETBV for the OS side (the
 * kernel must save YMM/ZMM state, or using the registers faults).
 * AArch64 and POWER on Linux: getauxval(), which reports what the kernel
 * lets user space use.
 * RISC-V RV64: the extensions the build targets (-march=..._zkne_zknd_zbkc
 * defines __riscv_zkne ...: the compiler may then use them anywhere, so the
 * CPU has them), plus what Linux's riscv_hwprobe syscall reports (6.4+;
 * the Zbc/Zbkc/Zknd/Zkne bits since 6.8).  Where the syscall is missing
 * (older kernels, qemu-user 7.2: ENOSYS) only the build's own are known.
 */
#define _GNU_SOURCE 1 /* secure_getenv */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(AK_ARCH_X86_64) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

static uint64_t xgetbv0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static uint32_t detect(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (c & bit_SSSE3) f |= AK_CPU_SSSE3;
    if (c & bit_SSE4_1) f |= AK_CPU_SSE41;
    if (c & bit_AES) f |= AK_CPU_AESNI;
    if (c & bit_PCLMUL) f |= AK_CPU_PCLMUL;
    int osxsave = (c & bit_OSXSAVE) != 0;
    int avx = (c & bit_AVX) != 0;
    uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    int ymm_ok = osxsave && (xcr0 & 0x6) == 0x6;           /* XMM and YMM state */
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;          /* opmask, ZMM_Hi256, Hi16_ZMM */
    if (avx && ymm_ok) f |= AK_CPU_AVX;
    unsigned max = (unsigned)__get_cpuid_max(0, NULL);
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (ymm_ok && (b & bit_AVX2)) f |= AK_CPU_AVX2;
        if (b & bit_BMI2) f |= AK_CPU_BMI2;
        if (ymm_ok && (c & (1u << 9))) f |= AK_CPU_VAES;
        if (ymm_ok && (c & (1u << 10))) f |= AK_CPU_VPCLMUL;
        if (zmm_ok && (b & bit_AVX512F)) f |= AK_CPU_AVX512F;
        if (zmm_ok && (b & bit_AVX512BW)) f |= AK_CPU_AVX512BW;
        if (zmm_ok && (b & bit_AVX512VL)) f |= AK_CPU_AVX512VL;
    }
    /* AK_CPU_KARA512: AMD family 1Ah (Zen 5) and later.  CPUID 0 gives the
     * vendor string in EBX, EDX, ECX; leaf 1's EAX the family, base (bits
     * 8-11) plus extended (bits 20-27) when the base is 0xf. */
    if ((f & AK_CPU_VPCLMUL) && (f & AK_CPU_AVX512F) && __get_cpuid(0, &a, &b, &c, &d) &&
        b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u && __get_cpuid(1, &a, &b, &c, &d)) {
        unsigned fam = (a >> 8) & 0xf;
        if (fam == 0xf)
            fam += (a >> 20) & 0xff;
        if (fam >= 0x1a)
            f |= AK_CPU_KARA512;
    }
    return f;
}
#elif defined(AK_ARCH_AARCH64) && defined(__linux__)
#include <sys/auxv.h>
static uint32_t detect(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = 0;
    if (hw & (1ul << 1)) f |= AK_CPU_ARM_ASIMD; /* HWCAP_ASIMD */
    if (hw & (1ul << 3)) f |= AK_CPU_ARM_AES;   /* HWCAP_AES */
    if (hw & (1ul << 4)) f |= AK_CPU_ARM_PMULL; /* HWCAP_PMULL */
    return f;
}
#elif defined(AK_ARCH_PPC64LE) && defined(__linux__)
#include <sys/auxv.h>
static uint32_t detect(void)
{
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    uint32_t f = 0;
    /* PPC_FEATURE_HAS_ALTIVEC, PPC_FEATURE_HAS_VSX, PPC_FEATURE2_ARCH_2_07 */
    if ((hw & 0x10000000ul) && (hw & 0x00000080ul) && (hw2 & 0x80000000ul))
        f |= AK_CPU_PPC_ALTIVEC;
    if (hw2 & 0x02000000ul) /* PPC_FEATURE2_VEC_CRYPTO */
        f |= AK_CPU_PPC_VCRYPTO;
    return f;
}
#elif defined(AK_ARCH_RISCV64) && defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
/* From Linux's arch/riscv/include/uapi/asm/unistd.h and
 * arch/riscv/include/uapi/asm/hwprobe.h (6.8), defined here because
 * Debian 12's 6.1 headers predate them:
 * __NR_riscv_hwprobe = __NR_arch_specific_syscall (244) + 14, the key
 * RISCV_HWPROBE_KEY_IMA_EXT_0 = 4 and its bits RISCV_HWPROBE_EXT_ZBC
 * (1 << 7), _ZBKC (1 << 9), _ZKND (1 << 11), _ZKNE (1 << 12). */
#define AK_RV_NR_HWPROBE 258
#define AK_RV_HWPROBE_KEY_IMA_EXT_0 4
#define AK_RV_HWPROBE_EXT_ZBC (1ull << 7)
#define AK_RV_HWPROBE_EXT_ZBKC (1ull << 9)
#define AK_RV_HWPROBE_EXT_ZKND (1ull << 11)
#define AK_RV_HWPROBE_EXT_ZKNE (1ull << 12)
struct ak_rv_hwprobe {
    int64_t key;
    uint64_t value;
};
static uint32_t detect(void)
{
    uint32_t f = 0;
#if defined(__riscv_zkne)
    f |= AK_CPU_RV_ZKNE;
#endif
#if defined(__riscv_zknd)
    f |= AK_CPU_RV_ZKND;
#endif
#if defined(__riscv_zbc) || defined(__riscv_zbkc)
    f |= AK_CPU_RV_CLMUL;
#endif
    /* All online CPUs (cpusetsize 0, cpus NULL), no flags; an unknown key
     * comes back as key -1. */
    struct ak_rv_hwprobe p = {AK_RV_HWPROBE_KEY_IMA_EXT_0, 0};
    if (syscall(AK_RV_NR_HWPROBE, &p, (size_t)1, (size_t)0, (void *)0, 0u) == 0 &&
        p.key == AK_RV_HWPROBE_KEY_IMA_EXT_0) {
        if (p.value & AK_RV_HWPROBE_EXT_ZKNE) f |= AK_CPU_RV_ZKNE;
        if (p.value & AK_RV_HWPROBE_EXT_ZKND) f |= AK_CPU_RV_ZKND;
        if (p.value & (AK_RV_HWPROBE_EXT_ZBC | AK_RV_HWPROBE_EXT_ZBKC)) f |= AK_CPU_RV_CLMUL;
    }
    return f;
}
#else
static uint32_t detect(void) { return 0; }
#endif

static const struct {
    const char *token;
    uint32_t bits;
} mask_tokens[] = {
    {"aesni", AK_CPU_AESNI},
    {"pclmul", AK_CPU_PCLMUL},
    {"ssse3", AK_CPU_SSSE3},
    {"sse4.1", AK_CPU_SSE41},
    {"avx", AK_CPU_AVX | AK_CPU_AVX2 | AK_CPU_VAES | AK_CPU_VPCLMUL | AK_CPU_AVX512F |
                AK_CPU_AVX512BW | AK_CPU_AVX512VL},
    {"avx2", AK_CPU_AVX2},
    {"vaes", AK_CPU_VAES},
    {"vpclmulqdq", AK_CPU_VPCLMUL},
    {"avx512", AK_CPU_AVX512F | AK_CPU_AVX512BW | AK_CPU_AVX512VL},
    {"avx512f", AK_CPU_AVX512F},
    {"avx512bw", AK_CPU_AVX512BW},
    {"avx512vl", AK_CPU_AVX512VL},
    {"bmi2", AK_CPU_BMI2},
    {"kara512", AK_CPU_KARA512},
    {"asimd", AK_CPU_ARM_ASIMD | AK_CPU_ARM_AES | AK_CPU_ARM_PMULL}, /* AES, PMULL use its registers */
    {"arm-aes", AK_CPU_ARM_AES},
    {"pmull", AK_CPU_ARM_PMULL},
    {"altivec", AK_CPU_PPC_ALTIVEC | AK_CPU_PPC_VCRYPTO}, /* vcrypto uses its registers */
    {"vcrypto", AK_CPU_PPC_VCRYPTO},
    {"zkn", AK_CPU_RV_ZKNE | AK_CPU_RV_ZKND},
    {"zkne", AK_CPU_RV_ZKNE},
    {"zknd", AK_CPU_RV_ZKND},
    {"clmul", AK_CPU_RV_CLMUL},
};

/* Applies AESKIT_CPU: "generic" masks everything, "-name" masks one
 * feature, "+name" sets one of the tuning bits (AK_CPU_TUNE: never an
 * instruction set, which the CPU must have).  *bad is set if a token was
 * not understood (it is ignored). */
static uint32_t apply_mask(uint32_t f, const char *spec, int *bad)
{
    if (!spec)
        return f;
    char tok[32];
    while (*spec) {
        size_t n = strcspn(spec, ", ");
        int known = 0;
        if (n > 0 && n < sizeof tok) {
            memcpy(tok, spec, n);
            tok[n] = 0;
            if (!strcmp(tok, "generic") || !strcmp(tok, "none")) {
                f = 0;
                known = 1;
            } else if (tok[0] == '-' || tok[0] == '+') {
                for (size_t i = 0; i < sizeof mask_tokens / sizeof mask_tokens[0]; i++) {
                    if (strcmp(tok + 1, mask_tokens[i].token))
                        continue;
                    if (tok[0] == '-') {
                        f &= ~mask_tokens[i].bits;
                        known = 1;
                    } else if ((mask_tokens[i].bits & ~AK_CPU_TUNE) == 0) {
                        f |= mask_tokens[i].bits;
                        known = 1;
                    }
                }
            }
        }
        if (n > 0 && !known)
            *bad = 1;
        spec += n;
        while (*spec == ',' || *spec == ' ')
            spec++;
    }
    return f;
}

const char *ak_getenv(const char *name)
{
#if defined(__GLIBC__)
    return secure_getenv(name);
#else
    return getenv(name);
#endif
}

/* Bit 31 marks "detected", bit 30 "AESKIT_CPU had a token that was
 * ignored"; detection is idempotent, so a race only repeats it. */
#define CPU_DETECTED 0x80000000u
#define CPU_BAD_MASK 0x40000000u
static _Atomic uint32_t cached_features;

static uint32_t cpu_state(void)
{
    uint32_t v = atomic_load_explicit(&cached_features, memory_order_acquire);
    if (v & CPU_DETECTED)
        return v;
    int bad = 0;
    v = apply_mask(detect(), ak_getenv("AESKIT_CPU"), &bad) & ~(CPU_DETECTED | CPU_BAD_MASK);
    /* a tuning bit only where the code it tunes can run (+kara512 on a
     * CPU, or after a mask, without 512-bit VPCLMULQDQ says nothing) */
    if ((v & (AK_CPU_VPCLMUL | AK_CPU_AVX512F)) != (AK_CPU_VPCLMUL | AK_CPU_AVX512F))
        v &= ~(uint32_t)AK_CPU_KARA512;
    v |= CPU_DETECTED | (bad ? CPU_BAD_MASK : 0);
    atomic_store_explicit(&cached_features, v, memory_order_release);
    return v;
}

uint32_t ak_cpu_features(void) { return cpu_state() & ~(CPU_DETECTED | CPU_BAD_MASK); }

int ak_cpu_mask_had_unknown(void) { return (cpu_state() & CPU_BAD_MASK) != 0; }

static _Atomic(const char *) features_string;
static char features_buf[256];
static atomic_flag features_lock = ATOMIC_FLAG_INIT;

const char *aeskit_cpu_features(void)
{
    const char *s = atomic_load_explicit(&features_string, memory_order_acquire);
    if (s)
        return s;
    while (atomic_flag_test_and_set_explicit(&features_lock, memory_order_acquire))
        ;
    s = atomic_load_explicit(&features_string, memory_order_relaxed);
    if (!s) {
        uint32_t f = ak_cpu_features();
        static const struct { uint32_t bit; const char *name; } names[] = {
            {AK_CPU_AESNI, "aesni"},       {AK_CPU_PCLMUL, "pclmul"},
            {AK_CPU_SSSE3, "ssse3"},       {AK_CPU_SSE41, "sse4.1"},
            {AK_CPU_AVX, "avx"},           {AK_CPU_AVX2, "avx2"},
            {AK_CPU_BMI2, "bmi2"},         {AK_CPU_VAES, "vaes"},
            {AK_CPU_VPCLMUL, "vpclmulqdq"},{AK_CPU_AVX512F, "avx512f"},
            {AK_CPU_AVX512BW, "avx512bw"}, {AK_CPU_AVX512VL, "avx512vl"},
            {AK_CPU_KARA512, "kara512"},
            {AK_CPU_ARM_ASIMD, "asimd"},   {AK_CPU_ARM_AES, "arm-aes"},
            {AK_CPU_ARM_PMULL, "pmull"},
            {AK_CPU_PPC_ALTIVEC, "altivec"}, {AK_CPU_PPC_VCRYPTO, "vcrypto"},
            {AK_CPU_RV_ZKNE, "zkne"},      {AK_CPU_RV_ZKND, "zknd"},
            {AK_CPU_RV_CLMUL, "clmul"},
        };
        size_t pos = 0;
        features_buf[0] = 0;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            if (!(f & names[i].bit))
                continue;
            size_t n = strlen(names[i].name);
            if (pos + n + 2 >= sizeof features_buf)
                break;
            if (pos)
                features_buf[pos++] = ' ';
            memcpy(features_buf + pos, names[i].name, n + 1);
            pos += n;
        }
        if (!pos)
            strcpy(features_buf, "(none)");
        s = features_buf;
        atomic_store_explicit(&features_string, s, memory_order_release);
    }
    atomic_flag_clear_explicit(&features_lock, memory_order_release);
    return s;
}
