/*
 * ct_isa_valgrind.c - constant-time check of aeskit_isa (issue 17), by the
 * ctgrind technique (Adam Langley, 2010) that tests/trust/ct_valgrind.c uses
 * for the modes: every register image is marked undefined with memcheck's
 * client request, so memcheck reports any conditional branch and any memory
 * address computed from it.  Immediates (imm8, rnum) stay defined: they are
 * part of the instruction encoding, public by definition.
 *
 *   valgrind -q --error-exitcode=1 ./ct_isa_valgrind            portable path,
 *       then the host path (valgrind runs AES-NI and PCLMULQDQ; it hides
 *       VAES/AVX-512 from CPUID, so the host path there is the xmm one)
 *   valgrind -q --error-exitcode=1 ./ct_isa_valgrind --self-test  must FAIL:
 *       a deliberate S-box table lookup indexed by a secret byte, proving the
 *       check can see one.
 * Outside valgrind the client requests do nothing and the program just runs.
 */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "aeskit_isa.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t a[64], b[64], d[64];
static uint64_t sink;
static unsigned long calls;

static void fill(uint64_t seed)
{
    for (int i = 0; i < 64; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (uint8_t)(seed >> 56);
        b[i] = (uint8_t)(seed >> 48);
    }
    SECRET(a, sizeof a);
    SECRET(b, sizeof b);
}

/* The result is secret too; fold it without branching, declassify at the end. */
static void take(const uint8_t *p, int n)
{
    for (int i = 0; i < n; i++)
        sink = sink * 31 + p[i];
    calls++;
}
static void take64(uint64_t v) { sink = sink * 31 + v; calls++; }

static uint64_t word(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static void run_all(int round)
{
    unsigned imm = (unsigned)(round * 37) & 0xff;
    fill((uint64_t)round + 1);
    aeskit_isa_x86_aesenc(d, a, b); take(d, 16);
    aeskit_isa_x86_aesenclast(d, a, b); take(d, 16);
    aeskit_isa_x86_aesdec(d, a, b); take(d, 16);
    aeskit_isa_x86_aesdeclast(d, a, b); take(d, 16);
    aeskit_isa_x86_aesimc(d, a); take(d, 16);
    aeskit_isa_x86_aeskeygenassist(d, a, imm); take(d, 16);
    aeskit_isa_x86_pclmulqdq(d, a, b, imm); take(d, 16);
    aeskit_isa_x86_vaesenc_x2(d, a, b); take(d, 32);
    aeskit_isa_x86_vaesenclast_x2(d, a, b); take(d, 32);
    aeskit_isa_x86_vaesdec_x2(d, a, b); take(d, 32);
    aeskit_isa_x86_vaesdeclast_x2(d, a, b); take(d, 32);
    aeskit_isa_x86_vpclmulqdq_x2(d, a, b, imm); take(d, 32);
    aeskit_isa_x86_vaesenc_x4(d, a, b); take(d, 64);
    aeskit_isa_x86_vaesenclast_x4(d, a, b); take(d, 64);
    aeskit_isa_x86_vaesdec_x4(d, a, b); take(d, 64);
    aeskit_isa_x86_vaesdeclast_x4(d, a, b); take(d, 64);
    aeskit_isa_x86_vpclmulqdq_x4(d, a, b, imm); take(d, 64);
    aeskit_isa_arm_aese(d, a, b); take(d, 16);
    aeskit_isa_arm_aesd(d, a, b); take(d, 16);
    aeskit_isa_arm_aesmc(d, a); take(d, 16);
    aeskit_isa_arm_aesimc(d, a); take(d, 16);
    aeskit_isa_arm_pmull_1q(d, a, b); take(d, 16);
    aeskit_isa_arm_pmull2_1q(d, a, b); take(d, 16);
    aeskit_isa_arm_pmull_8h(d, a, b); take(d, 16);
    aeskit_isa_arm_pmull2_8h(d, a, b); take(d, 16);
    aeskit_isa_arm_pmul_16b(d, a, b); take(d, 16);
    aeskit_isa_ppc_vcipher(d, a, b); take(d, 16);
    aeskit_isa_ppc_vcipherlast(d, a, b); take(d, 16);
    aeskit_isa_ppc_vncipher(d, a, b); take(d, 16);
    aeskit_isa_ppc_vncipherlast(d, a, b); take(d, 16);
    aeskit_isa_ppc_vsbox(d, a); take(d, 16);
    aeskit_isa_ppc_vpmsumb(d, a, b); take(d, 16);
    aeskit_isa_ppc_vpmsumh(d, a, b); take(d, 16);
    aeskit_isa_ppc_vpmsumw(d, a, b); take(d, 16);
    aeskit_isa_ppc_vpmsumd(d, a, b); take(d, 16);
    uint64_t x = word(a), y = word(b);
    take64(aeskit_isa_rv_aes64es(x, y));
    take64(aeskit_isa_rv_aes64esm(x, y));
    take64(aeskit_isa_rv_aes64ds(x, y));
    take64(aeskit_isa_rv_aes64dsm(x, y));
    take64(aeskit_isa_rv_aes64im(x));
    take64(aeskit_isa_rv_aes64ks1i(x, (unsigned)round % 11));
    take64(aeskit_isa_rv_aes64ks2(x, y));
    take64(aeskit_isa_rv_clmul(x, y));
    take64(aeskit_isa_rv_clmulh(x, y));
    take64(aeskit_isa_rv_clmulr(x, y));
}

/* What the check must catch: the table-driven S-box emulators use today. */
static void self_test(void)
{
    static uint8_t table[256];
    for (int i = 0; i < 256; i++)
        table[i] = (uint8_t)(i * 7 + 3);
    fill(99);
    for (int i = 0; i < 16; i++)
        d[i] = table[a[i]];
    take(d, 16);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--self-test")) {
        self_test();
    } else {
        aeskit_isa_use_portable(1);
        for (int r = 0; r < 16; r++)
            run_all(r);
        printf("portable path: %lu calls checked\n", calls);
        aeskit_isa_use_portable(0);
        printf("host path: %s\n", aeskit_isa_path());
        for (int r = 0; r < 16; r++)
            run_all(r);
        printf("portable + host: %lu calls checked\n", calls);
    }
    PUBLIC(&sink, sizeof sink);
    printf("(checksum %016llx)\n", (unsigned long long)sink);
    return 0;
}
