/*
 * internal.h - the contract between the mode front ends (src/modes/) and the
 * backends (src/generic/, src/x86/, src/arm64/, src/ppc64/).
 *
 * Modes own the protocol, backends own the loops.  A front end checks every
 * argument once, then calls backend primitives that assume:
 *   - whole 16-byte blocks only (nblocks may be 0),
 *   - out == in (in-place) or no overlap at all,
 *   - any alignment of in/out,
 *   - no per-message global state: everything lives in the key objects and
 *     in the arguments, so any number of threads may share a key.
 * All byte strings (counters, GHASH state Y, tweaks) are in the byte order
 * of the standards; a backend converts to its register layout internally.
 *
 * Every backend fills every mandatory function pointer.  A backend that has
 * no faster loop for a primitive uses the portable loop ak_blockloop_*
 * (src/generic/blockloop.c), which is written on top of the key's own
 * ecb_encrypt/ecb_decrypt, or the generic GHASH.
 */
#ifndef AESKIT_INTERNAL_H
#define AESKIT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aeskit.h"

#if defined(__x86_64__) || defined(_M_X64)
#define AK_ARCH_X86_64 1
#endif
#if defined(__aarch64__)
#define AK_ARCH_AARCH64 1
#endif
#if defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define AK_ARCH_PPC64LE 1
#endif
#if defined(__riscv) && defined(__riscv_xlen) && __riscv_xlen == 64
#define AK_ARCH_RISCV64 1
#endif

#define AK_ALIGN64 AESKIT_ALIGN(64)

/* ---- CPU features (src/cpu.c) ------------------------------------------ */

enum {
    AK_CPU_AESNI = 1u << 0,
    AK_CPU_PCLMUL = 1u << 1,
    AK_CPU_SSSE3 = 1u << 2,
    AK_CPU_SSE41 = 1u << 3,
    AK_CPU_AVX = 1u << 4,
    AK_CPU_AVX2 = 1u << 5,
    AK_CPU_VAES = 1u << 6,
    AK_CPU_VPCLMUL = 1u << 7,
    AK_CPU_AVX512F = 1u << 8,
    AK_CPU_AVX512BW = 1u << 9,
    AK_CPU_AVX512VL = 1u << 10,
    AK_CPU_BMI2 = 1u << 11,
    /* A tuning choice, not an instruction set: this CPU's 512-bit VPCLMULQDQ
     * issues at half the rate of its shuffles (AMD Zen 5: one every 1.95
     * cycles, measured), so zmm GHASH with no AES rounds beside it runs the
     * Karatsuba middle term (src/x86/vaes_ghash.h, "Karatsuba on the
     * schoolbook key").  Detected
     * from CPUID; AESKIT_CPU's -kara512 clears it and +kara512 sets it, so
     * that both forms run on any CPU with VPCLMULQDQ on zmm. */
    AK_CPU_KARA512 = 1u << 12,
    AK_CPU_ARM_AES = 1u << 16,
    AK_CPU_ARM_PMULL = 1u << 17,
    AK_CPU_ARM_ASIMD = 1u << 18, /* Advanced SIMD (NEON): every AArch64 Linux system */
    AK_CPU_PPC_ALTIVEC = 1u << 23, /* AltiVec + VSX + ISA 2.07 (POWER8): every ppc64le Linux system */
    AK_CPU_PPC_VCRYPTO = 1u << 24,
    AK_CPU_RV_ZKNE = 1u << 25,  /* RISC-V Zkne: aes64es, aes64esm, aes64ks1i, aes64ks2 */
    AK_CPU_RV_ZKND = 1u << 26,  /* RISC-V Zknd: aes64ds, aes64dsm, aes64im */
    AK_CPU_RV_CLMUL = 1u << 27  /* RISC-V Zbc or Zbkc: clmul, clmulh */
};

/* The tuning bits among the AK_CPU_* (AESKIT_CPU may set them with '+'). */
#define AK_CPU_TUNE ((uint32_t)AK_CPU_KARA512)

/* Features of this CPU after the AESKIT_CPU mask; detected once, thread-safe. */
uint32_t ak_cpu_features(void);
/* 1 if AESKIT_CPU held a token that was not understood (and was ignored). */
int ak_cpu_mask_had_unknown(void);
/* getenv for the library's own variables: secure_getenv where the C library
 * has it, so a setuid or setgid program never reads them. */
const char *ak_getenv(const char *name);

/* ---- Key objects (the opaque public structs, seen from inside) ----------- */

struct ak_backend;

#define AK_AES_DATA_BYTES (AESKIT_AES_KEY_SIZE - 64)

/* The set-up mark: *_init writes the kind's value into ak_aes.magic after
 * everything else, *_wipe clears it, and every front end compares it before
 * it reads anything else of the object.  An object never set up, wiped, or
 * filled with garbage is therefore refused (AESKIT_ERR_STATE) instead of
 * having its backend pointer followed.  One value per kind of key. */
enum {
    AK_MAGIC_AES = 0x41455331u,  /* "AES1": aeskit_aes_key, and RFC 4309's AES key */
    AK_MAGIC_GCM = 0x47434d31u,  /* "GCM1": aeskit_gcm_key, and RFC 4106's GCM key */
    AK_MAGIC_CMAC = 0x434d4131u, /* "CMA1" */
    AK_MAGIC_XTS = 0x58545331u,  /* "XTS1": both halves */
    AK_MAGIC_SIV = 0x53495631u,  /* "SIV1": both keys of an aeskit_siv_key */
    AK_MAGIC_EAX = 0x45415831u,  /* "EAX1" */
    AK_MAGIC_GCMSIV = 0x47535631u, /* "GSV1": aeskit_gcmsiv_key (src/modes/gcmsiv.c) */
    AK_MAGIC_OCB = 0x4f434231u,    /* "OCB1": aeskit_ocb_key (src/modes/ocb.c) */
    AK_MAGIC_XAES = 0x58414531u    /* "XAE1": aeskit_xaes_key (src/modes/xaes.c) */
};

typedef struct ak_aes {
    const struct ak_backend *be; /* backend that set this key up */
    uint32_t rounds;             /* 10, 12 or 14 */
    uint32_t key_len;            /* 16, 24 or 32 */
    uint32_t magic;              /* AK_MAGIC_* of the object that holds this key */
    uint8_t reserved[64 - sizeof(void *) - 12]; /* pads the header to one cache line */
    AK_ALIGN64 uint8_t data[AK_AES_DATA_BYTES]; /* backend-owned round keys */
} ak_aes;

typedef struct ak_ghash {
    AK_ALIGN64 uint8_t data[AESKIT_GHASH_KEY_SIZE]; /* backend-owned H powers */
} ak_ghash;

typedef struct ak_gcm_key {
    ak_aes aes;
    ak_ghash gh;
    AK_ALIGN64 uint8_t H[16]; /* E_K(0^128), byte order of SP 800-38D */
    uint8_t reserved[48];
} ak_gcm_key;

typedef struct ak_cmac_key {
    ak_aes aes;
    AK_ALIGN64 uint8_t k1[16];
    uint8_t k2[16];
    uint8_t reserved[32];
} ak_cmac_key;

typedef struct ak_xts_key {
    ak_aes data_key;
    ak_aes tweak_key;
} ak_xts_key;

typedef struct ak_rfc4106_key {
    ak_gcm_key gcm;
    AK_ALIGN64 uint8_t salt[4];
    uint8_t reserved[60];
} ak_rfc4106_key;

typedef struct ak_rfc4309_key {
    ak_aes aes;
    AK_ALIGN64 uint8_t salt[3];
    uint8_t reserved[61];
} ak_rfc4309_key;

/* AES-SIV (src/modes/siv.c): S2V's CMAC key K1 and the CTR key K2; the
 * first 16 bytes of mac.reserved hold S2V's D_0 = CMAC_K1(0^128). */
typedef struct ak_siv_key {
    ak_cmac_key mac;
    ak_aes ctr;
} ak_siv_key;

/* EAX (src/modes/eax.c): the CMAC key and L_t = E_K([t]_16), t = 0, 1, 2,
 * the CBC-MAC state after OMAC^t's tweak block. */
typedef struct ak_eax_key {
    ak_cmac_key mac;
    AK_ALIGN64 uint8_t lt[3][16];
    uint8_t reserved[16];
} ak_eax_key;

_Static_assert(sizeof(ak_aes) == sizeof(aeskit_aes_key), "ak_aes size");
_Static_assert(sizeof(ak_gcm_key) == sizeof(aeskit_gcm_key), "ak_gcm_key size");
_Static_assert(sizeof(ak_cmac_key) == sizeof(aeskit_cmac_key), "ak_cmac_key size");
_Static_assert(sizeof(ak_xts_key) == sizeof(aeskit_xts_key), "ak_xts_key size");
_Static_assert(sizeof(ak_rfc4106_key) == sizeof(aeskit_rfc4106_key), "ak_rfc4106_key size");
_Static_assert(sizeof(ak_rfc4309_key) == sizeof(aeskit_rfc4309_key), "ak_rfc4309_key size");
_Static_assert(sizeof(ak_siv_key) == sizeof(aeskit_siv_key), "ak_siv_key size");
_Static_assert(sizeof(ak_eax_key) == sizeof(aeskit_eax_key), "ak_eax_key size");

/* Sixteen bytes in a vector register where the ABI passes one (the
 * gcm_seal12 hook's J0). */
typedef uint64_t ak_v2u64 __attribute__((vector_size(16)));

/* ---- The whole-message GCM descriptor ------------------------------------- */
/*
 * One GCM message for a backend's gcm_msgs kernel.  The front end
 * (src/modes/gcm.c) owns the protocol: it checks every argument, builds J0
 * from the IV, and afterwards truncates or compares the tag and wipes or
 * restores the output of a failed open.  The kernel only computes
 *   out = GCTR_K(inc32(J0), in),
 *   S   = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64),
 *   tag = S ^ E_K(J0)   (all 16 bytes),
 * with C = out (seal) or C = in (open, hashed before an in-place output
 * overwrites it).  The length block is two shifts of len and aad_len, so
 * each kernel forms it in its own register layout.  An open writes its
 * plaintext to out before the tag is known; the front end zeroes it, or
 * encrypts it back in place, when the tag does not match.
 *
 * The front end guarantees: aes and gh belong to one key set up by this
 * backend; len <= 2^36 - 32 and aad_len <= 2^61 - 1; out == in or the two
 * do not overlap, and neither aad nor the descriptor overlaps out; in and
 * out may be NULL when len is 0, aad when aad_len is 0 (a masked vector
 * access next to NULL is correct but slow, so the GMAC entries pass a small
 * stack buffer instead); tag is 16 bytes that may overlap in or aad but not
 * out, so a kernel reads every input before it writes tag; a backend's own
 * kernel sees only descriptors with AK_GCM_J0_IV12.  Descriptors of one
 * call are independent (each may name another key of the same backend)
 * and may be handled in any order.
 */
enum {
    /* Direction: set for open (the input is the ciphertext), clear for seal. */
    AK_GCM_OPEN = 1u << 0,
    /* J0 = IV || 0^31 || 1 for a 96-bit IV (SP 800-38D 7.1 step 2): the
     * counters inc32^i(J0) are public and do not wrap for any i up to
     * 2^32 - 2, which covers the longest message (2^32 - 2 blocks), so a
     * kernel may form them with plain adds and branch on their low byte.
     * Without it (J0 = GHASH_H(IV)) the counters are secret and the front
     * end runs ak_gcm_msgs_primitives, never the backend's kernel. */
    AK_GCM_J0_IV12 = 1u << 1,
    /* Only in the dir of a gcm_batch call (below), never in a descriptor's
     * flags: every message of the call has the first one's key, len and
     * aad_len. */
    AK_GCM_UNIFORM = 1u << 2
};

typedef struct ak_gcm_msg {
    const ak_aes *aes;   /* the cipher key */
    const ak_ghash *gh;  /* the GHASH key of the same GCM key */
    const uint8_t *in;   /* len bytes: plaintext (seal) or ciphertext (open) */
    uint8_t *out;        /* len bytes, == in or disjoint from it */
    size_t len;
    const uint8_t *aad;  /* aad_len bytes */
    size_t aad_len;
    uint32_t flags;      /* AK_GCM_OPEN, AK_GCM_J0_IV12 */
    uint8_t *tag;        /* out: the full 16-byte tag (seal) or expected tag (open) */
    AESKIT_ALIGN(16) uint8_t j0[16]; /* J0, byte order of SP 800-38D */
} ak_gcm_msg;

/* ---- The CBC lane descriptor (batch CBC encryption and CBC-MAC) ---------- */
/*
 * One independent CBC chain for a backend's cbc_lanes kernel.  CBC
 * encryption and CBC-MAC are serial within a chain (each block waits for
 * the previous one's AES), so a backend gains speed only by running several
 * chains side by side in its vector lanes.  The batch front ends
 * (src/modes/batch*.c) cut every serial mode into such chains: CBC
 * encryption, CBC-MAC, CMAC (every block but the last, then one more lane
 * pass for the last block XOR K1/K2) and CCM's MAC (B0 and the formatted
 * AAD from a small per-message buffer, then the payload, as successive
 * calls on the same lane).
 *
 * The kernel computes, for every lane i and every block j < blocks:
 *   iv = E_aes(iv XOR in[16j .. 16j+15]);  if out: out[16j .. 16j+15] = iv
 * and leaves the last value in iv.  With out == NULL it is CBC-MAC.
 *
 * The front end guarantees: every aes of one call was set up by this
 * backend (keys may differ from lane to lane, and the same key may appear
 * in many lanes); out == in or disjoint from it; no lane's out overlaps
 * another lane's in, out, or any descriptor; blocks may differ from lane to
 * lane and may be 0.  Lanes are independent and may be run in any order
 * and any grouping.  Block counts and the number of lanes are public; the
 * keys, data and chaining values are secret.
 */
typedef struct ak_cbc_lane {
    const ak_aes *aes;   /* the cipher key of this chain */
    const uint8_t *in;   /* blocks * 16 bytes */
    uint8_t *out;        /* blocks * 16 bytes of ciphertext, or NULL (CBC-MAC) */
    size_t blocks;
    AESKIT_ALIGN(16) uint8_t iv[16]; /* chaining value in, last cipher block out */
} ak_cbc_lane;

/* The cbc_lanes of a backend without a multi-lane kernel: one cbc_encrypt
 * or cbcmac call per lane (src/generic/blockloop.c). */
void ak_cbc_lanes_serial(ak_cbc_lane *l, size_t n);

/* ---- The CCM lane descriptor (batch CCM's payload) ------------------------ */
/*
 * One message's payload for a backend's ccm_lanes kernel: CCM's CBC-MAC
 * chain and its CTR stream over the same whole blocks, run in one pass so
 * that the CTR blocks fill the AES issue slots the MAC chains leave idle.
 * The batch front end (src/modes/batch_ccm.c) runs B0, the AAD and the
 * payload's partial last block through ak_cbc_lanes; only the payload's
 * whole blocks come here.
 *
 * The lane's ctr comes in as CCM's Ctr0: the kernel writes s0 = E_aes(ctr)
 * (S0, the tag's mask) and increments ctr.  Then for every block
 * j < blocks, with P_j the plaintext and C_j the ciphertext block,
 * KS_j = E_aes(ctr), then ctr incremented:
 *   seal (open 0): C_j = P_j XOR KS_j, out_j = C_j, mac = E_aes(mac XOR P_j);
 *   open (open 1): P_j = C_j XOR KS_j, out_j = P_j, mac = E_aes(mac XOR P_j);
 * in is P (seal) or C (open).  On return mac holds the chaining value after
 * the last block, ctr the counter block of the block after it and ks that
 * block's keystream E_aes(ctr) (the partial last block's); s0, ks and ctr
 * are written for every lane, those of 0 blocks included.  The increment
 * is on the last 8 bytes of ctr as a big-endian integer; the front end
 * guarantees that it does not carry out of them within the call (CCM's
 * counter field is those bytes' low 8q bits, q <= 8, and never wraps:
 * ccm.c), so it equals ctr128's and CCM's increment.
 *
 * The front end guarantees what it does for ak_cbc_lane (every aes of this
 * backend, keys shared or not; out == in or disjoint from it; no lane's out
 * overlaps another lane's buffers or any descriptor; blocks may differ and
 * may be 0).  Block counts, the number of lanes and the direction are
 * public; keys, data, MAC chaining values and counter blocks are secret.
 */
typedef struct ak_ccm_lane {
    const ak_aes *aes;   /* the cipher key of this message */
    const uint8_t *in;   /* blocks * 16 bytes: plaintext (seal) or ciphertext (open) */
    uint8_t *out;        /* blocks * 16 bytes: the other one */
    size_t blocks;
    AESKIT_ALIGN(16) uint8_t mac[16]; /* CBC-MAC chaining value in and out */
    AESKIT_ALIGN(16) uint8_t ctr[16]; /* Ctr0 in, the counter block after the last block out */
    AESKIT_ALIGN(16) uint8_t s0[16];  /* out: E_aes(Ctr0) */
    AESKIT_ALIGN(16) uint8_t ks[16];  /* out: E_aes(ctr out) */
} ak_ccm_lane;

/* ---- The backend descriptor ---------------------------------------------- */

#define AK_LANES_SHORT_ANY 0xffffffffu /* ak_backend.cbc_lanes_short: any length */

#define AK_MAC_CTR_STEP_DEFAULT 6
#define AK_GCM_ONE_PASS_DEFAULT 112 /* ak_backend.gcm_one_pass_max when 0 */
#define AK_GCM_ONE_PASS_LIMIT 1024  /* ... and its largest value */
#define AK_GCM_GATHER_LIMIT 640     /* ak_backend.gcm_gather_max when 0, and its largest value */


typedef struct ak_gcm_scan ak_gcm_scan; /* below */

typedef struct ak_backend {
    const char *name;          /* "generic", "x86-aesni", ... */
    const char *requires;      /* human-readable, for `aeskit list` */
    int priority;              /* higher wins among the available ones */
    uint32_t required_features;/* AK_CPU_* bits that must all be present */
    int constant_time;
    /* Optional: what this CPU runs inside the backend (generic's vector
     * width), for aeskit_backend_get; NULL where there is one choice. */
    const char *(*variant)(void);
    /* Blocks per step where a serial CBC-MAC and a parallel CTR pass are
     * interleaved (CCM), so an out-of-order core runs the CTR blocks in the
     * shadow of the MAC chain; 0 means AK_MAC_CTR_STEP_DEFAULT.  A
     * bitsliced backend pays per call, not per block, and wants long steps
     * (the values: docs/performance.md, "Measurements behind the code"). */
    uint32_t mac_ctr_step;
    /* GCM messages up to this many bytes (at most AK_GCM_ONE_PASS_LIMIT)
     * take one ctr32 call over E_K(J0) and the data, and one ghash call over
     * the AAD, the ciphertext and the length block, in a stack buffer
     * (gcm.c, gcm_msg_primitives); 0 means AK_GCM_ONE_PASS_DEFAULT.  Only
     * backends without a GCM kernel of their own, and IVs other than 96
     * bits, use it (the values: docs/performance.md, "Measurements behind
     * the code"). */
    uint32_t gcm_one_pass_max;
    /* With gcm_batch = ak_gcm_batch_primitives: batch messages of at most
     * this many data bytes (and 512 of AAD) share ecb_encrypt calls, longer
     * ones take gcm_msgs; 0 means AK_GCM_GATHER_LIMIT, the largest value.
     * Where the backend's bulk path beats the shared calls (the values:
     * docs/performance.md, "Measurements behind the code"). */
    uint32_t gcm_gather_max;

    /* AES.  setkey: key_len is 16, 24 or 32 (checked by the front end);
     * sets k->rounds and k->key_len, fills k->data for both directions.
     * k->be is set by the front end before the call. */
    void (*aes_setkey)(ak_aes *k, const uint8_t *key, size_t key_len);
    void (*ecb_encrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*ecb_decrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks);

    /* CTR with GCM's inc32: the last 4 bytes of ctr are a big-endian counter
     * incremented modulo 2^32, the first 12 never change.  out = in XOR
     * E(ctr), E(ctr+1), ...; on return ctr holds the next counter block. */
    void (*ctr32)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                  uint8_t ctr[16]);
    /* CTR with a 128-bit big-endian increment modulo 2^128. */
    void (*ctr128)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                   uint8_t ctr[16]);

    /* CBC; iv is the chaining value in, the last ciphertext block out. */
    void (*cbc_encrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                        uint8_t iv[16]);
    void (*cbc_decrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                        uint8_t iv[16]);

    /* CBC-MAC chaining: state = E(state ^ block) for each block. */
    void (*cbcmac)(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks);

    /* XTS on whole blocks with the data key.  tweak holds the encrypted
     * tweak T for the first block (the front end encrypts the tweak with the
     * tweak key); on return it holds T * alpha^nblocks (IEEE 1619 GF(2^128)
     * doubling, little-endian).  Ciphertext stealing is the front end's. */
    void (*xts_encrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                        uint8_t tweak[16]);
    void (*xts_decrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                        uint8_t tweak[16]);

    /* GHASH (SP 800-38D): init precomputes from H = E_K(0^128); ghash folds
     * nblocks blocks into Y: Y = (Y ^ X_i) * H for each block X_i. */
    void (*ghash_init)(ak_ghash *g, const uint8_t H[16]);
    void (*ghash)(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks);

    /* Optional (NULL: the front end runs ctr32 then ghash in chunks).
     * Fused GCM: ctr32-encrypt nblocks and fold the ciphertext into Y
     * (encrypt hashes out, decrypt hashes in); updates ctr and Y. */
    void (*gcm_encrypt)(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                        size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);
    void (*gcm_decrypt)(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                        size_t nblocks, uint8_t ctr[16], uint8_t Y[16]);

    /* Whole-message GCM over n descriptors (ak_gcm_msg, above), each complete
     * in itself: its own keys, buffers and direction.  See ak_gcm_msg for
     * what the front end guarantees and what the kernel writes.  A backend
     * without a kernel of its own names ak_gcm_msgs_primitives. */
    void (*gcm_msgs)(ak_gcm_msg *m, size_t n);

    /* Optional, with gcm_reg_max (0 and NULL: every one-shot seal goes to
     * gcm_msgs).  One one-shot seal without a descriptor, its arguments in
     * registers: the front end (src/modes/gcm.c) calls it, once it has
     * checked every argument, for iv_len 12, tag_len 16,
     * 1 <= len <= gcm_reg_max (at most 65535) and aad_len <= 16, with
     * lens = len | aad_len << AK_GCM_LENS_SHIFT and ivz = IV || 0^32 (J0 less its counter
     * word, in SP 800-38D byte order); out, in and aad keep the rules of
     * ak_gcm_msg.  Computes what gcm_msgs does for that message with
     * J0 = IV || 0^31 || 1, the full tag to tag, and returns AESKIT_OK. */
    aeskit_status (*gcm_seal12)(const ak_gcm_key *g, uint8_t *out, uint8_t *tag, const uint8_t *in,
                                const uint8_t *aad, size_t lens, ak_v2u64 ivz);
    size_t gcm_reg_max;
    /* Optional, with gcm_open_reg_max (0 and NULL: every one-shot open goes
     * to gcm_msgs).  The same for a one-shot open with 1 <= len <=
     * gcm_open_reg_max (at most 65535): the arguments and other conditions
     * of gcm_seal12, in the ciphertext, out the plaintext, tag the
     * caller's 16-byte tag.  Compares the expected tag with it in constant
     * time and leaves no copy of the expected tag in memory; returns
     * AESKIT_OK if they are equal, else what ak_mo_gcm_open12_fail (below)
     * returns for the message. */
    aeskit_status (*gcm_open12)(const ak_gcm_key *g, uint8_t *out, const uint8_t *tag, const uint8_t *in,
                                const uint8_t *aad, size_t lens, ak_v2u64 ivz);
    size_t gcm_open_reg_max;
#define AK_GCM_LENS_SHIFT 16 /* gcm_seal12's lens: len in the bits below */

    /* Optional (NULL: the batch front end builds ak_gcm_msg descriptors for
     * gcm_msgs).  The n public descriptors of a batch call straight from
     * the caller's array (src/modes/batch_gcm.c), every one checked: a key
     * of this backend, iv_len 12, tag_len 16, len and aad_len below 2^32,
     * the single call's rules and the batch's cross-message rule kept; one
     * direction for the call, dir's AK_GCM_OPEN bit, and AK_GCM_UNIFORM set
     * in dir when every message has the first one's key object, len and
     * aad_len (clear: nothing is known); in and out not read
     * when len is 0 (GMAC: len is 0, in and out are not valid).  Computes
     * what gcm_msgs does with J0 = IV || 0^31 || 1 for a leading part of
     * them, m[0..k), and returns k (0..n); the full tag of message i goes
     * to T[i] when T is not NULL (the expected tags of an open or verify),
     * else to the message's own tag.  The front end runs m[k..n) through
     * gcm_msgs: a backend declines what its descriptors there run faster. */
    size_t (*gcm_batch)(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);
    /* Optional: the batch front end's pass over a seal (open 0) or open
     * (open 1) batch's descriptors in vector registers (ak_gcm_scan,
     * below).  Called with n >= 1 and m[0] checked: its key object this
     * backend's and ready, its len and aad_len below 2^32.  Returns 1 when
     * every message has iv_len 12, tag_len 16, len and aad_len below 2^32,
     * aad_len 0 if m[0]'s is (else every AAD goes into its hull), in ==
     * out if m[0]'s are (else every in goes into its hull, where an in
     * equal to its out meets the outputs), the outs in increasing address order
     * (out >= the previous out + its len, empty ones included) and, for a
     * seal, the tags likewise; then it has set every status to AESKIT_OK
     * and filled *s.  Returns 0 when it cannot tell (statuses
     * unspecified): the front end's scalar passes decide. */
    int (*gcm_batch_scan)(aeskit_gcm_msg *m, size_t n, int open, ak_gcm_scan *s);

    /* Optional (NULL: ak_cbc_lanes_serial).  Independent CBC chains
     * (ak_cbc_lane, above) interleaved in the vector lanes. */
    void (*cbc_lanes)(ak_cbc_lane *l, size_t n);
    /* Lanes of one key object and at most this many blocks take the batch
     * front end's ECB steps (src/modes/batch.h, mo_lanes_short) instead of
     * one cbc_lanes call; 0: its default, MO_SHORT_CHAIN; AK_LANES_SHORT_ANY:
     * at any length (a backend without cbc_lanes whose ECB runs several
     * blocks at once, so lockstep ECB steps beat one chain after another).
     * A measured property of the backend's kernels (docs/performance.md,
     * "three and five ECB steps"). */
    unsigned cbc_lanes_short;
    /* Messages of at most this many blocks in a CTR batch, and in a CBC
     * decryption batch, share ECB calls (src/modes/batch.h, MO_GATHER); 0:
     * the defaults, MO_GATHER_CTR and MO_GATHER_CBC.  Measured properties
     * of the backend's ECB against its ctr128 and cbc_decrypt
     * (docs/performance.md, "short messages of a batch share ECB calls"). */
    unsigned ctr_gather_short;
    unsigned cbc_gather_short;
    /* Optional (NULL: the batch front end runs CCM's payload MAC through
     * cbc_lanes and its CTR message by message).  CCM's S0, CBC-MAC and
     * CTR over the payload of n messages (ak_ccm_lane, above) in one pass;
     * open 0 seals, 1 opens. */
    void (*ccm_lanes)(ak_ccm_lane *l, size_t n, int open);

    /* Optional (NULL: src/modes/ocb.c's offsets through ecb_encrypt or
     * ecb_decrypt in chunks).  OCB3 (RFC 7253 sections 4.1-4.3) over the
     * whole blocks first .. first + nblocks - 1 (first >= 1, the 1-based
     * index of the first block: 1 for a whole message, any index for a
     * stream's later pieces) of a message or of its associated data: offset
     * holds Offset_{first-1} in and Offset_{first+nblocks-1} out, where
     * Offset_i = Offset_{i-1} ^ L[ntz(i)] (L = the key's L_0 .. L_63); per
     * block i, by op:
     *   AK_OCB_ENCRYPT  out_i = Offset_i ^ E(in_i ^ Offset_i), sum ^= in_i;
     *   AK_OCB_DECRYPT  out_i = Offset_i ^ D(in_i ^ Offset_i), sum ^= out_i;
     *   AK_OCB_HASH     sum ^= E(in_i ^ Offset_i); out is not used (NULL).
     * The block indices are public (ntz(i) may index L); L, the offsets,
     * sum and the data are secret.  out == in or disjoint. */
    void (*ocb_blocks)(const ak_aes *k, const uint8_t (*L)[16], uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint64_t first, uint8_t offset[16], uint8_t sum[16],
                       int op);
    /* Optional (NULL: src/modes/cfb.c's ecb_encrypt of the shifted
     * ciphertext, then an XOR pass).  CFB-128 decryption (SP 800-38A 6.3)
     * in one pass: out_i = in_i ^ E(in_{i-1}) with in_0 = iv; on return iv
     * holds the last ciphertext block.  out == in or disjoint. */
    void (*cfb128_decrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t iv[16]);
    /* Optional (NULL: src/modes/cfb.c runs the backend's cbc_encrypt over
     * the plaintext shifted by one block, then an XOR pass).  CFB-128
     * encryption in one serial pass: out_i = in_i ^ E(out_{i-1}) with
     * out_0 = iv; on return iv holds the last ciphertext block.  out == in
     * or disjoint. */
    void (*cfb128_encrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                           uint8_t iv[16]);
    /* Optional (NULL: src/modes/cfb.c calls ecb_encrypt once per byte).
     * CFB-8 encryption (SP 800-38A 6.3, s = 8) of len >= 1 BYTES: per byte,
     * out_i = in_i ^ MSB_8(E(reg)), then reg = LSB_120(reg) || out_i; on
     * return reg holds the register for the next byte.  out == in or
     * disjoint. */
    void (*cfb8_encrypt)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len,
                         uint8_t reg[16]);
    /* Optional, all three or none (NULL: src/modes/gcmsiv.c runs POLYVAL on
     * ghash_init/ghash with byte-reversed blocks, RFC 8452 appendix A, and
     * its counter blocks through ecb_encrypt).  AES-GCM-SIV's pieces; unlike
     * the primitives above these take BYTE lengths, any len:
     *   polyval_init: a POLYVAL key (RFC 8452 section 3) from H, the 16
     *     bytes as the RFC writes them, in the backend's own ak_ghash format
     *     (read only by polyval); nblocks is the number of blocks the key
     *     will fold (a hint for how many powers to precompute: any count
     *     must still give correct results, only slower);
     *   polyval: S = POLYVAL state in the RFC's byte order, folded with the
     *     len bytes at in, the last partial block zero-padded;
     *   ctr32le: out = in ^ E(CB), E(CB + 1), ... over len bytes, where the
     *     first 4 bytes of CB (ctr) are a little-endian counter incremented
     *     modulo 2^32 and the other 12 never change (RFC 8452 section 4);
     *     out == in or disjoint; ctr is not updated.
     * The counter block (from the tag) is public; H, S and the data are
     * secret. */
    void (*polyval_init)(ak_ghash *g, const uint8_t H[16], size_t nblocks);
    void (*polyval)(const ak_ghash *g, uint8_t S[16], const uint8_t *in, size_t len);
    void (*ctr32le)(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t len,
                    const uint8_t ctr[16]);
    /* Optional (NULL: ctr32le, then polyval over out), only with the three
     * above.  AES-GCM-SIV's open in one pass: out = in ^ the keystream of
     * ctr as ctr32le, and S folded with the len bytes of out (the
     * plaintext) as polyval; g comes from polyval_init; out == in or
     * disjoint; ctr is not updated. */
    void (*ctr32le_polyval)(const ak_aes *k, const ak_ghash *g, uint8_t *out, const uint8_t *in,
                            size_t len, const uint8_t ctr[16], uint8_t S[16]);
} ak_backend;

/* A failed open of the gcm_open12 entry (ak_backend.gcm_open12's arguments):
 * out zeroed, or in place restored to the ciphertext, as every failed GCM
 * open (src/modes/gcm.c); returns AESKIT_ERR_AUTH. */
aeskit_status ak_mo_gcm_open12_fail(const ak_gcm_key *g, uint8_t *out, const uint8_t *in, size_t lens,
                                    ak_v2u64 ivz);

/* ak_backend.ocb_blocks's op. */
enum { AK_OCB_ENCRYPT = 0, AK_OCB_DECRYPT = 1, AK_OCB_HASH = 2 };

/* Runs n lanes whose keys were all set up by be. */
static inline void ak_cbc_lanes(const ak_backend *be, ak_cbc_lane *l, size_t n)
{
    if (be->cbc_lanes)
        be->cbc_lanes(l, n);
    else
        ak_cbc_lanes_serial(l, n);
}

/* ---- The backend table (src/dispatch.c) ---------------------------------- */
/* The descriptors of the target's backends, declared from src/backends.txt
 * (generated by cmake/backends.cmake). */
#include "backend_decls.h"

/* Number of table entries and entry i (NULL past the end). */
size_t ak_backend_count(void);
const ak_backend *ak_backend_at(size_t i);
/* 1 if implemented and the masked CPU features allow it. */
int ak_backend_usable(const ak_backend *be);
/* Resolves a name (NULL: the default, honouring AESKIT_BACKEND) to a usable
 * backend, or returns AESKIT_ERR_BACKEND_UNKNOWN / _UNAVAILABLE. */
aeskit_status ak_backend_resolve(const char *name, const ak_backend **out);

/* ---- Declassification ------------------------------------------------------
 * A few results derived from secrets are public by design: whether a tag
 * matched, whether PKCS#7 padding was valid.  Code converts such a mask to a
 * branch only after AK_DECLASSIFY, which tells the valgrind constant-time
 * check (tests/trust, built with -DAESKIT_VALGRIND_CT) that the value may be
 * branched on.  In normal builds it compiles to nothing. */
#ifdef AESKIT_VALGRIND_CT
#include <valgrind/memcheck.h>
#define AK_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#elif defined(AESKIT_MSAN_CT)
/* The MemorySanitizer variant (-DAESKIT_MSAN_CT=ON, clang -fsanitize=memory;
 * tests/trust/ct_msan): secrets are poisoned, declassified values unpoisoned.
 * ct_msan.h replaces the x86 intrinsics MSan does not model soundly. */
#include <sanitizer/msan_interface.h>
#define AK_DECLASSIFY(p, n) __msan_unpoison((p), (n))
#include "ct_msan.h"
#else
#define AK_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

/* ---- Portable helpers shared by all code (src/util.c) -------------------- */

/* Constant-time: 0xffffffff if the n bytes are equal, 0 otherwise.  Eight
 * bytes at a time, inline: with n a constant (the whole-message GCM open's
 * 16-byte tag) it is two loads and XORs per side. */
static inline uint32_t ak_ct_eq_mask(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint64_t diff = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    for (; i < n; i++)
        diff |= (uint64_t)(a[i] ^ b[i]);
    /* (diff | -diff) has bit 63 set iff diff != 0: no branch on the data */
    uint32_t mask = (uint32_t)((diff | (0 - diff)) >> 63) - 1u;
    /* Every caller turns this into accept/reject, which is public by design. */
    AK_DECLASSIFY(&mask, sizeof mask);
    return mask;
}
/* 1 if [a, a+alen) and [b, b+blen) overlap without a == b. */
int ak_bad_overlap(const void *a, size_t alen, const void *b, size_t blen);

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define AK_LITTLE_ENDIAN 1
#else
#define AK_LITTLE_ENDIAN 0
#endif
/* Big-endian words.  With GNU C on x86 one load or store and a byte
 * swap: beside vector code gcc 12 turns the byte form of a 64-bit store
 * into eight byte inserts into a vector register (about 60 instructions
 * for a counter block's two words).  Elsewhere the byte form: RISC-V has
 * no unaligned word access, so a word-sized memcpy there becomes a call,
 * and the AArch64 and POWER objects keep the branch and load counts that
 * the constant-time object check lists (scripts/ct-objcheck.allow). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define AK_BSWAP_BE 1
#else
#define AK_BSWAP_BE 0
#endif
static inline uint32_t ak_load_be32(const uint8_t *p)
{
#if AK_BSWAP_BE
    uint32_t v;
    memcpy(&v, p, 4);
    return __builtin_bswap32(v);
#else
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
#endif
}
static inline void ak_store_be32(uint8_t *p, uint32_t v)
{
#if AK_BSWAP_BE
    v = __builtin_bswap32(v);
    memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
#endif
}
static inline uint64_t ak_load_be64(const uint8_t *p)
{
#if AK_BSWAP_BE
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
#else
    return ((uint64_t)ak_load_be32(p) << 32) | ak_load_be32(p + 4);
#endif
}
static inline void ak_store_be64(uint8_t *p, uint64_t v)
{
#if AK_BSWAP_BE
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
#else
    ak_store_be32(p, (uint32_t)(v >> 32)); ak_store_be32(p + 4, (uint32_t)v);
#endif
}
/* Little-endian words: on a little-endian target through memcpy, which
 * gcc and clang make one load or store; byte by byte elsewhere.  (gcc 12
 * -O2 leaves both a byte loop and eight shifted byte stores as byte steps
 * when the value came from a byte swap, as in a counter block's
 * reversal.) */
static inline uint64_t ak_load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    if (AK_LITTLE_ENDIAN) {
        memcpy(&v, p, 8);
        return v;
    }
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static inline void ak_store_le64(uint8_t *p, uint64_t v)
{
    if (AK_LITTLE_ENDIAN) {
        memcpy(p, &v, 8);
        return;
    }
    for (int i = 0; i < 8; i++) { p[i] = (uint8_t)v; v >>= 8; }
}
/* out = a XOR b, 16 bytes.  All of a and b is read before out is written,
 * so out may overlap either.  Two 64-bit words through memcpy (any
 * alignment): a byte loop here stays sixteen byte steps, since the compiler
 * must allow for out overlapping an input. */
static inline void ak_xor16(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8);
    memcpy(&a1, a + 8, 8);
    memcpy(&b0, b, 8);
    memcpy(&b1, b + 8, 8);
    a0 ^= b0;
    a1 ^= b1;
    memcpy(out, &a0, 8);
    memcpy(out + 8, &a1, 8);
}

/* ---- Portable loops over any backend's ECB (src/generic/blockloop.c) ----- */
/* These give every backend every primitive; they call k->be->ecb_encrypt /
 * ecb_decrypt on batches of blocks, so a backend with a fast multi-block ECB
 * gets fast CTR and XTS for free. */
void ak_blockloop_ctr32(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                        uint8_t ctr[16]);
void ak_blockloop_ctr128(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                         uint8_t ctr[16]);
void ak_blockloop_cbc_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t iv[16]);
void ak_blockloop_cbc_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t iv[16]);
void ak_blockloop_cbcmac(const ak_aes *k, uint8_t state[16], const uint8_t *in, size_t nblocks);
void ak_blockloop_xts_encrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t tweak[16]);
void ak_blockloop_xts_decrypt(const ak_aes *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                              uint8_t tweak[16]);

/* The whole-message GCM kernel built from a key's own primitives (ctr32,
 * ghash, ecb_encrypt, gcm_encrypt/gcm_decrypt) (src/modes/gcm.c): the
 * gcm_msgs of a backend without a kernel of its own.  It takes any J0. */
void ak_gcm_msgs_primitives(ak_gcm_msg *m, size_t n);
/* What a gcm_batch_scan found (above): the end of the last out and, for a
 * seal, of the last tag (0 for an open; their starts are m[0]'s); the hulls [lo, hi) of
 * the input kinds (in unless in place, an open's expected tag, the IV,
 * the AAD unless there is none: lo = UINTPTR_MAX, hi = 0 for a kind
 * without spans), the spans' ends from each message's own length; whether
 * some message has a key object other than m[0]'s (the front end then
 * checks those); uniform when every message has m[0]'s key object, len and
 * aad_len. */
#define AK_GCM_SCAN_INPUTS 4 /* batch.h's MO_QUICK_INPUTS: in, tag, iv, aad */
struct ak_gcm_scan {
    uintptr_t out_end, tag_end;
    uintptr_t in_lo[AK_GCM_SCAN_INPUTS], in_hi[AK_GCM_SCAN_INPUTS];
    int other_keys, uniform;
};
int ak_vaes512_gcm_batch_scan(aeskit_gcm_msg *m, size_t n, int open, ak_gcm_scan *s);
int ak_vaes2_gcm_batch_scan(aeskit_gcm_msg *m, size_t n, int open, ak_gcm_scan *s);

/* A gcm_batch built from a key's own primitives (src/modes/batch_gcm.c):
 * short messages under one key object share ecb_encrypt calls, the rest go
 * through gcm_msgs one at a time; it computes all n. */
size_t ak_gcm_batch_primitives(const aeskit_gcm_msg *m, size_t n, uint32_t dir, uint8_t (*T)[16]);

/* ---- The generic backend's pieces other backends may reuse --------------- */
/* Constant-time portable AES key schedule: writes the (rounds+1)*16 bytes of
 * the FIPS-197 encryption schedule w[] to rk; returns rounds. */
unsigned ak_generic_key_schedule(uint8_t rk[240], const uint8_t *key, size_t key_len);
/* Constant-time portable GHASH (src/generic/ghash_generic.c). */
void ak_generic_ghash_init(ak_ghash *g, const uint8_t H[16]);
void ak_generic_ghash(const ak_ghash *g, uint8_t Y[16], const uint8_t *in, size_t nblocks);

/* Advances a big-endian counter block by one: the last 32 bits modulo 2^32
 * (GCM's inc32, wide = 0) or all 128 bits (wide = 1).  Counters of the
 * one-block loops are public, so this may branch on nothing but wide. */
static inline void ak_ctr_inc_be(uint8_t ctr[16], int wide)
{
    if (wide) {
        uint64_t lo = ak_load_be64(ctr + 8) + 1;
        ak_store_be64(ctr, ak_load_be64(ctr) + (lo == 0));
        ak_store_be64(ctr + 8, lo);
    } else {
        ak_store_be32(ctr + 12, ak_load_be32(ctr + 12) + 1);
    }
}

/* XTS tweak doubling (IEEE 1619: multiply by alpha, little-endian), branch-free. */
static inline void ak_xts_double(uint8_t t[16])
{
    uint64_t lo = ak_load_le64(t), hi = ak_load_le64(t + 8);
    uint64_t carry = (uint64_t)0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ (carry & 0x87);
    ak_store_le64(t, lo);
    ak_store_le64(t + 8, hi);
}

#endif /* AESKIT_INTERNAL_H */
