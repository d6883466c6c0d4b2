/*
 * isa.c - aeskit_isa's dispatch: one table of function pointers, chosen once
 * per process, and the public entry points (include/aeskit_isa.h).
 *
 * The host table starts as a copy of the portable one; the host file of this
 * architecture overwrites what the detected CPU features (ak_cpu_features(),
 * which applies the AESKIT_CPU mask) can serve.  Building it happens once:
 * the first caller wins a compare-and-swap and builds, any concurrent first
 * caller waits for it (only then); afterwards `current` is published with a
 * release store and every call is an acquire load plus an indirect call.
 */
#include "isa_internal.h"

#include <stdatomic.h>

#include "internal.h"

static struct ak_isa_ops host_ops;
static char host_desc[96];                     /* "host: <features>" */
static atomic_int host_state;                 /* 0 none, 1 building, 2 ready */
static _Atomic(const struct ak_isa_ops *) current;
static atomic_int portable_forced;

static inline void append(const char *s)
{
    size_t n = strlen(host_desc), m = strlen(s);
    if (!m || n + m + 2 >= sizeof host_desc)
        return;
    if (n > 6)
        host_desc[n++] = ' ';
    memcpy(host_desc + n, s, m + 1);
}

static const struct ak_isa_ops *host_table(void)
{
    int st = atomic_load_explicit(&host_state, memory_order_acquire);
    if (st == 2)
        return &host_ops;
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&host_state, &expected, 1, memory_order_acq_rel,
                                                memory_order_acquire)) {
        uint32_t f = ak_cpu_features();
        host_ops = ak_isa_portable_ops;
        memcpy(host_desc, "host: ", 7);
#if defined(AK_ARCH_X86_64)
        append(ak_isa_host_x86(&host_ops, f));
#elif defined(AK_ARCH_AARCH64)
        append(ak_isa_host_arm64(&host_ops, f));
#elif defined(AK_ARCH_PPC64LE)
        append(ak_isa_host_ppc64(&host_ops, f));
#else
        (void)f;
#endif
        atomic_store_explicit(&host_state, 2, memory_order_release);
    } else {
        while (atomic_load_explicit(&host_state, memory_order_acquire) != 2)
            ;
    }
    return &host_ops;
}

static const struct ak_isa_ops *ops_slow(void)
{
    const struct ak_isa_ops *o = atomic_load_explicit(&portable_forced, memory_order_acquire)
                                     ? &ak_isa_portable_ops
                                     : host_table();
    atomic_store_explicit(&current, o, memory_order_release);
    return o;
}

static inline const struct ak_isa_ops *ops(void)
{
    const struct ak_isa_ops *o = atomic_load_explicit(&current, memory_order_acquire);
    if (__builtin_expect(o == NULL, 0))
        o = ops_slow();
    return o;
}

int aeskit_isa_use_portable(int on)
{
    int prev = atomic_exchange_explicit(&portable_forced, on != 0, memory_order_acq_rel);
    atomic_store_explicit(&current, on ? &ak_isa_portable_ops : host_table(), memory_order_release);
    return prev;
}

const char *aeskit_isa_path(void)
{
    const struct ak_isa_ops *o = ops();
    if (o == &ak_isa_portable_ops || !host_desc[6])
        return "portable";
    return host_desc; /* written once, before host_state became 2 */
}

/* ---- the public entry points, one per AK_ISA_LIST line ------------------- */
#define AK_ISA_PUB_B3(name, n)                                                              \
    void aeskit_isa_##name(uint8_t d[n], const uint8_t a[n], const uint8_t b[n])            \
    {                                                                                       \
        ops()->name(d, a, b);                                                               \
    }
#define AK_ISA_PUB_B3I(name, n)                                                             \
    void aeskit_isa_##name(uint8_t d[n], const uint8_t a[n], const uint8_t b[n], unsigned imm) \
    {                                                                                       \
        ops()->name(d, a, b, imm);                                                          \
    }
#define AK_ISA_PUB_B2(name, n)                                                              \
    void aeskit_isa_##name(uint8_t d[n], const uint8_t a[n]) { ops()->name(d, a); }
#define AK_ISA_PUB_B2I(name, n)                                                             \
    void aeskit_isa_##name(uint8_t d[n], const uint8_t a[n], unsigned imm) { ops()->name(d, a, imm); }
#define AK_ISA_PUB_R2(name, n)                                                              \
    uint64_t aeskit_isa_##name(uint64_t a, uint64_t b) { return ops()->name(a, b); }
#define AK_ISA_PUB_R1(name, n)                                                              \
    uint64_t aeskit_isa_##name(uint64_t a) { return ops()->name(a); }
#define AK_ISA_PUB_R1I(name, n)                                                             \
    uint64_t aeskit_isa_##name(uint64_t a, unsigned imm) { return ops()->name(a, imm); }
#define AK_ISA_PUB(kind, name, n) AK_ISA_PUB_##kind(name, n)
AK_ISA_LIST(AK_ISA_PUB)
