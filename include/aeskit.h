/*
 * aeskit.h - the public API of aeskit, AES modes at the speed of the hardware.
 *
 * One header, C11 (also usable from C++).  Every function is documented
 * below: what each argument means, every status it returns, the limits.
 *
 * ---------------------------------------------------------------------------
 * Conventions
 * ---------------------------------------------------------------------------
 * - Every fallible function returns an aeskit_status; AESKIT_OK is 0, every
 *   error is a distinct positive value named by aeskit_strerror().  Arguments
 *   are checked before anything is written: on an argument error no output
 *   buffer and no object is modified.
 * - A pointer may be NULL only where its length is 0 (AESKIT_ERR_NULL_POINTER
 *   otherwise).  Key objects and contexts must never be NULL.
 * - Arguments are checked in this order: NULL pointers, then the state of
 *   the object (a key object never set up, or wiped, gives AESKIT_ERR_STATE
 *   from every function that uses it), then lengths and parameters, then
 *   overlap.
 * - Input and output buffers may have any alignment.  They may be the same
 *   buffer (in-place) or not overlap at all; any other overlap returns
 *   AESKIT_ERR_OVERLAP.  Tags, IVs, nonces and AAD must not overlap the
 *   output at all (not even exactly).
 * - Key objects are caller-allocated, fixed-size, opaque structures.  They
 *   are set up once by an *_init function (which picks the backend: the best
 *   one this CPU can run, or the one named in *_init_backend) and may then be
 *   used for any number of messages, from any number of threads at once
 *   (they are read-only after init).  Streaming contexts point to their key
 *   object, which must outlive them; a context belongs to one thread at a
 *   time.
 * - No function allocates memory.  Nothing here writes to stdout/stderr.
 * - *_wipe functions clear key objects and contexts (not optimised away).
 *
 * ---------------------------------------------------------------------------
 * Backends and constant time
 * ---------------------------------------------------------------------------
 *   backend           needs                                   constant-time
 *   generic           nothing (portable C11)                  yes (bitsliced AES,
 *                                                             multiply-based GHASH)
 *   x86-aesni         AES-NI, PCLMULQDQ, SSE4.1               yes
 *   x86-vaes-avx2     + AVX2, VAES, VPCLMULQDQ                yes
 *   x86-vaes-avx512   + AVX-512 F/BW/VL                       yes
 *   arm64-ce          ARMv8 AES + PMULL                       yes
 *   ppc64-p8          POWER8 vector crypto (vcipher, vpmsumd) yes
 *
 * "Constant-time" means: no branch and no memory index depends on a key,
 * plaintext or tag; lengths, IVs and AAD are public.  aeskit_backend_get()
 * reports the same flag at run time; `aeskit list` prints it.
 *
 * The environment variable AESKIT_CPU masks CPU features, read once at
 * first use: a comma-separated list of "generic" (mask everything), or
 * "-aesni", "-pclmul", "-avx2", "-vaes", "-avx512", "-arm-aes", "-pmull",
 * "-vcrypto" (mask one feature and what depends on it).  AESKIT_BACKEND=NAME
 * makes NAME the default backend of *_init (a name this CPU cannot run makes
 * *_init fail with AESKIT_ERR_BACKEND_UNAVAILABLE, so a forced test run
 * cannot silently fall back).
 */
#ifndef AESKIT_H
#define AESKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(AESKIT_BUILDING_SHARED)
#define AESKIT_API __declspec(dllexport)
#elif defined(__GNUC__)
#define AESKIT_API __attribute__((visibility("default")))
#else
#define AESKIT_API
#endif

#if defined(__cplusplus)
#define AESKIT_ALIGN(n) alignas(n)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define AESKIT_ALIGN(n) _Alignas(n)
#else
#define AESKIT_ALIGN(n) __attribute__((aligned(n)))
#endif

#define AESKIT_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

typedef enum aeskit_status {
    AESKIT_OK = 0,
    AESKIT_ERR_NULL_POINTER = 1,    /* NULL object, or NULL buffer with length > 0 */
    AESKIT_ERR_KEY_LENGTH = 2,      /* AES key not 16/24/32 bytes (XTS: 32/48/64;
                                       RFC 4106: 20/28/36; RFC 4309: 19/27/35) */
    AESKIT_ERR_IV_LENGTH = 3,       /* GCM IV of 0 bytes or over 2^61-1 bytes */
    AESKIT_ERR_NONCE_LENGTH = 4,    /* CCM nonce not 7..13 bytes */
    AESKIT_ERR_TAG_LENGTH = 5,      /* tag length not allowed by the mode */
    AESKIT_ERR_MESSAGE_TOO_LONG = 6,/* GCM over 2^36-32 bytes; CCM length does not
                                       fit the nonce's length field */
    AESKIT_ERR_AAD_TOO_LONG = 7,    /* GCM AAD over 2^61-1 bytes */
    AESKIT_ERR_LENGTH = 8,          /* length not a multiple of 16 where whole
                                       blocks are required; XTS data unit < 16;
                                       PKCS#7 ciphertext empty or not blocks */
    AESKIT_ERR_OVERLAP = 9,         /* input and output overlap but are not equal */
    AESKIT_ERR_STATE = 10,          /* key never set up or wiped; streaming call out
                                       of order or after finish */
    AESKIT_ERR_AUTH = 11,           /* tag mismatch: message rejected */
    AESKIT_ERR_PADDING = 12,        /* bad PKCS#7 padding */
    AESKIT_ERR_BUFFER_TOO_SMALL = 13, /* output capacity too small */
    AESKIT_ERR_BACKEND_UNKNOWN = 14,  /* no backend of that name compiled in */
    AESKIT_ERR_BACKEND_UNAVAILABLE = 15, /* backend compiled in, but this CPU (or the
                                            AESKIT_CPU mask) cannot run it */
    AESKIT_ERR_XTS_KEY = 16,        /* reserved: XTS halves equal (not rejected by default) */
    AESKIT_ERR_ARGUMENT = 17        /* any other invalid argument (e.g. bad direction) */
} aeskit_status;

/* A short English description of a status code ("success", "authentication
 * failed", ...).  Never NULL; unknown codes give "unknown status". */
AESKIT_API const char *aeskit_strerror(int status);

/* The library version, AESKIT_VERSION_STRING of the build. */
AESKIT_API const char *aeskit_version(void);

/* ------------------------------------------------------------------------ */
/* Backends                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct aeskit_backend_info {
    const char *name;          /* "generic", "x86-aesni", ... */
    const char *requires;      /* human-readable CPU features it needs */
    int priority;              /* higher is preferred */
    int constant_time;         /* 1 if constant-time (see table above) */
    int implemented;           /* 0 if compiled in as a placeholder only */
    int available;             /* 1 if this CPU (after AESKIT_CPU) can run it */
    int chosen;                /* 1 if *_init picks it by default */
} aeskit_backend_info;

/* Number of backends compiled into this build (at least 1: generic). */
AESKIT_API size_t aeskit_backend_count(void);

/* Describes backend number index (0 <= index < aeskit_backend_count()).
 * Returns AESKIT_ERR_NULL_POINTER if info is NULL, AESKIT_ERR_ARGUMENT if
 * index is out of range. */
AESKIT_API aeskit_status aeskit_backend_get(size_t index, aeskit_backend_info *info);

/* Name of the backend *_init picks by default on this machine. */
AESKIT_API const char *aeskit_backend_default(void);

/* Checks that a backend of that name exists and can run here: AESKIT_OK,
 * AESKIT_ERR_NULL_POINTER, AESKIT_ERR_BACKEND_UNKNOWN or
 * AESKIT_ERR_BACKEND_UNAVAILABLE. */
AESKIT_API aeskit_status aeskit_backend_check(const char *name);

/* The CPU features detected (after the AESKIT_CPU mask), space-separated,
 * e.g. "aesni pclmul avx2 vaes vpclmulqdq avx512f avx512bw avx512vl". */
AESKIT_API const char *aeskit_cpu_features(void);

/* ------------------------------------------------------------------------ */
/* Key objects (opaque, caller-allocated, fixed size)                       */
/* ------------------------------------------------------------------------ */

#define AESKIT_AES_KEY_SIZE 1536
#define AESKIT_GHASH_KEY_SIZE 1024
#define AESKIT_GCM_KEY_SIZE (AESKIT_AES_KEY_SIZE + AESKIT_GHASH_KEY_SIZE + 64)

/* An expanded AES key (AES-128/192/256) with its backend. */
typedef struct aeskit_aes_key {
    AESKIT_ALIGN(64) unsigned char opaque[AESKIT_AES_KEY_SIZE];
} aeskit_aes_key;

/* A GCM/GMAC key: the AES key plus the GHASH key H and its precomputed powers. */
typedef struct aeskit_gcm_key {
    AESKIT_ALIGN(64) unsigned char opaque[AESKIT_GCM_KEY_SIZE];
} aeskit_gcm_key;

/* A CMAC key: the AES key plus the subkeys K1 and K2. */
typedef struct aeskit_cmac_key {
    AESKIT_ALIGN(64) unsigned char opaque[AESKIT_AES_KEY_SIZE + 64];
} aeskit_cmac_key;

/* An XTS key: the data key (first half) and the tweak key (second half). */
typedef struct aeskit_xts_key {
    AESKIT_ALIGN(64) unsigned char opaque[2 * AESKIT_AES_KEY_SIZE];
} aeskit_xts_key;

/* RFC 4106 / RFC 4543 key: a GCM key and the 4-byte salt. */
typedef struct aeskit_rfc4106_key {
    aeskit_gcm_key gcm;
    unsigned char salt[4];
} aeskit_rfc4106_key;

/* RFC 4309 key: an AES key and the 3-byte salt. */
typedef struct aeskit_rfc4309_key {
    aeskit_aes_key aes;
    unsigned char salt[3];
} aeskit_rfc4309_key;

/* Streaming contexts (opaque; they point to their key object). */
typedef struct aeskit_gcm_ctx {
    AESKIT_ALIGN(16) unsigned char opaque[256];
} aeskit_gcm_ctx;

typedef struct aeskit_cmac_ctx {
    AESKIT_ALIGN(16) unsigned char opaque[96];
} aeskit_cmac_ctx;

typedef struct aeskit_ctr_ctx {
    AESKIT_ALIGN(16) unsigned char opaque[64];
} aeskit_ctr_ctx;

/* ------------------------------------------------------------------------ */
/* AES block cipher (FIPS-197)                                              */
/* ------------------------------------------------------------------------ */

/* Expands key (key_len 16, 24 or 32 bytes) into k, with the default backend.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_KEY_LENGTH,
 * AESKIT_ERR_BACKEND_UNAVAILABLE (AESKIT_BACKEND names a backend this CPU
 * cannot run). */
AESKIT_API aeskit_status aeskit_aes_init(aeskit_aes_key *k, const uint8_t *key, size_t key_len);

/* As aeskit_aes_init, with the backend named (NULL means the default).
 * Extra errors: AESKIT_ERR_BACKEND_UNKNOWN, AESKIT_ERR_BACKEND_UNAVAILABLE. */
AESKIT_API aeskit_status aeskit_aes_init_backend(aeskit_aes_key *k, const uint8_t *key,
                                                 size_t key_len, const char *backend);

/* Name of the backend k was set up with ("" for a key never initialised). */
AESKIT_API const char *aeskit_aes_backend(const aeskit_aes_key *k);

/* Encrypts / decrypts one 16-byte block (out may equal in).
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_OVERLAP. */
AESKIT_API aeskit_status aeskit_aes_encrypt_block(const aeskit_aes_key *k, uint8_t out[16],
                                                  const uint8_t in[16]);
AESKIT_API aeskit_status aeskit_aes_decrypt_block(const aeskit_aes_key *k, uint8_t out[16],
                                                  const uint8_t in[16]);

/* Clears k (all key material and the backend choice). NULL is ignored. */
AESKIT_API void aeskit_aes_wipe(aeskit_aes_key *k);

/* ------------------------------------------------------------------------ */
/* ECB and CBC (SP 800-38A)                                                 */
/* ------------------------------------------------------------------------ */

/* ECB over len bytes (a multiple of 16; 0 allowed).
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_LENGTH, AESKIT_ERR_OVERLAP. */
AESKIT_API aeskit_status aeskit_ecb_encrypt(const aeskit_aes_key *k, uint8_t *out,
                                            const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_ecb_decrypt(const aeskit_aes_key *k, uint8_t *out,
                                            const uint8_t *in, size_t len);

/* Raw CBC over len bytes (a multiple of 16; 0 allowed), no padding.  iv is
 * the 16-byte chaining value: read at entry, replaced on return by the last
 * ciphertext block, so consecutive calls continue one message.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_LENGTH, AESKIT_ERR_OVERLAP. */
AESKIT_API aeskit_status aeskit_cbc_encrypt(const aeskit_aes_key *k, uint8_t iv[16],
                                            uint8_t *out, const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_cbc_decrypt(const aeskit_aes_key *k, uint8_t iv[16],
                                            uint8_t *out, const uint8_t *in, size_t len);

/* CBC with PKCS#7 padding, one shot.  Encrypt writes len/16*16+16 bytes
 * (always 1..16 bytes of padding); out_cap must be at least that.  Decrypt
 * takes a non-empty multiple of 16 and needs out_cap >= len: it decrypts
 * all len bytes into out, checks the padding there in constant time, zeroes
 * the padding bytes, and sets *out_len to the plaintext length.  iv is not modified.  On AESKIT_ERR_PADDING the output buffer
 * (len bytes) is zeroed and *out_len is 0.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_BUFFER_TOO_SMALL,
 * AESKIT_ERR_LENGTH (decrypt), AESKIT_ERR_OVERLAP, AESKIT_ERR_PADDING. */
AESKIT_API aeskit_status aeskit_cbc_pkcs7_encrypt(const aeskit_aes_key *k, const uint8_t iv[16],
                                                  uint8_t *out, size_t out_cap, size_t *out_len,
                                                  const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_cbc_pkcs7_decrypt(const aeskit_aes_key *k, const uint8_t iv[16],
                                                  uint8_t *out, size_t out_cap, size_t *out_len,
                                                  const uint8_t *in, size_t len);

/* ------------------------------------------------------------------------ */
/* CTR (SP 800-38A): 16-byte initial counter block, 128-bit big-endian      */
/* increment modulo 2^128 (OpenSSL's convention).                           */
/* ------------------------------------------------------------------------ */

/* One shot: out = in XOR keystream(iv).  Any len.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_OVERLAP. */
AESKIT_API aeskit_status aeskit_ctr_crypt(const aeskit_aes_key *k, const uint8_t iv[16],
                                          uint8_t *out, const uint8_t *in, size_t len);

/* Streaming: start once, then update with any lengths; the concatenated
 * output equals the one-shot output.  Errors as aeskit_ctr_crypt, plus
 * AESKIT_ERR_STATE for an update on a context never started (or wiped). */
AESKIT_API aeskit_status aeskit_ctr_start(aeskit_ctr_ctx *ctx, const aeskit_aes_key *k,
                                          const uint8_t iv[16]);
AESKIT_API aeskit_status aeskit_ctr_update(aeskit_ctr_ctx *ctx, uint8_t *out,
                                           const uint8_t *in, size_t len);
AESKIT_API void aeskit_ctr_wipe(aeskit_ctr_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* CBC-MAC (raw primitive) and CMAC (SP 800-38B, RFC 4493)                  */
/* ------------------------------------------------------------------------ */

/* Raw CBC-MAC chaining: for each 16-byte block B of in, state = E(state ^ B).
 * len must be a multiple of 16.  No padding, no length encoding: it is a
 * building block (CCM, kernel-style cbcmac), not a MAC for variable-length
 * messages on its own.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_LENGTH. */
AESKIT_API aeskit_status aeskit_cbcmac_blocks(const aeskit_aes_key *k, uint8_t state[16],
                                              const uint8_t *in, size_t len);

/* Sets up a CMAC key (16/24/32-byte AES key), default / named backend.
 * Errors as aeskit_aes_init / aeskit_aes_init_backend. */
AESKIT_API aeskit_status aeskit_cmac_init(aeskit_cmac_key *ck, const uint8_t *key, size_t key_len);
AESKIT_API aeskit_status aeskit_cmac_init_backend(aeskit_cmac_key *ck, const uint8_t *key,
                                                  size_t key_len, const char *backend);
AESKIT_API const char *aeskit_cmac_backend(const aeskit_cmac_key *ck);
AESKIT_API void aeskit_cmac_wipe(aeskit_cmac_key *ck);

/* One-shot CMAC of msg; writes the first tag_len (4..16) bytes of the MAC.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_TAG_LENGTH. */
AESKIT_API aeskit_status aeskit_cmac(const aeskit_cmac_key *ck, const uint8_t *msg, size_t len,
                                     uint8_t *tag, size_t tag_len);

/* Constant-time check of a tag_len-byte (4..16) tag: AESKIT_OK or
 * AESKIT_ERR_AUTH (or the argument errors of aeskit_cmac). */
AESKIT_API aeskit_status aeskit_cmac_verify(const aeskit_cmac_key *ck, const uint8_t *msg,
                                            size_t len, const uint8_t *tag, size_t tag_len);

/* Streaming CMAC: start, update any number of times with any lengths,
 * then finish (tag out) or verify (tag compared in constant time).  After
 * finish/verify the context must be started again (else AESKIT_ERR_STATE). */
AESKIT_API aeskit_status aeskit_cmac_start(aeskit_cmac_ctx *ctx, const aeskit_cmac_key *ck);
AESKIT_API aeskit_status aeskit_cmac_update(aeskit_cmac_ctx *ctx, const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_cmac_finish(aeskit_cmac_ctx *ctx, uint8_t *tag, size_t tag_len);
AESKIT_API aeskit_status aeskit_cmac_finish_verify(aeskit_cmac_ctx *ctx, const uint8_t *tag,
                                                   size_t tag_len);
AESKIT_API void aeskit_cmac_ctx_wipe(aeskit_cmac_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* GCM and GMAC (SP 800-38D)                                                */
/*                                                                          */
/* IV: any length from 1 byte (12 bytes is the fast, recommended case).     */
/* Tag: 4, 8, 12, 13, 14, 15 or 16 bytes.  Plaintext: at most 2^36-32      */
/* bytes per message; AAD: at most 2^61-1 bytes.                           */
/* ------------------------------------------------------------------------ */

/* Sets up a GCM key (AES key + GHASH tables), default / named backend.
 * Errors as aeskit_aes_init / aeskit_aes_init_backend. */
AESKIT_API aeskit_status aeskit_gcm_init(aeskit_gcm_key *gk, const uint8_t *key, size_t key_len);
AESKIT_API aeskit_status aeskit_gcm_init_backend(aeskit_gcm_key *gk, const uint8_t *key,
                                                 size_t key_len, const char *backend);
AESKIT_API const char *aeskit_gcm_backend(const aeskit_gcm_key *gk);
AESKIT_API void aeskit_gcm_wipe(aeskit_gcm_key *gk);

/* One-shot authenticated encryption: out (len bytes) = ciphertext of in,
 * tag (tag_len bytes) = authentication tag over aad and the ciphertext.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_IV_LENGTH, AESKIT_ERR_TAG_LENGTH,
 * AESKIT_ERR_MESSAGE_TOO_LONG, AESKIT_ERR_AAD_TOO_LONG, AESKIT_ERR_OVERLAP
 * (also if tag overlaps out). */
AESKIT_API aeskit_status aeskit_gcm_seal(const aeskit_gcm_key *gk,
                                         const uint8_t *iv, size_t iv_len,
                                         const uint8_t *aad, size_t aad_len,
                                         const uint8_t *in, size_t len,
                                         uint8_t *out, uint8_t *tag, size_t tag_len);

/* One-shot authenticated decryption.  The tag is compared in constant time.
 * On AESKIT_ERR_AUTH no plaintext is released: an out-of-place out is
 * zeroed, an in-place buffer (out == in) holds the original ciphertext
 * again.  Errors: as aeskit_gcm_seal, plus AESKIT_ERR_AUTH. */
AESKIT_API aeskit_status aeskit_gcm_open(const aeskit_gcm_key *gk,
                                         const uint8_t *iv, size_t iv_len,
                                         const uint8_t *aad, size_t aad_len,
                                         const uint8_t *in, size_t len,
                                         const uint8_t *tag, size_t tag_len, uint8_t *out);

/* GMAC: GCM with empty plaintext; aad is authenticated only.
 * Errors as aeskit_gcm_seal (aeskit_gmac_verify: plus AESKIT_ERR_AUTH). */
AESKIT_API aeskit_status aeskit_gmac(const aeskit_gcm_key *gk, const uint8_t *iv, size_t iv_len,
                                     const uint8_t *aad, size_t aad_len,
                                     uint8_t *tag, size_t tag_len);
AESKIT_API aeskit_status aeskit_gmac_verify(const aeskit_gcm_key *gk, const uint8_t *iv,
                                            size_t iv_len, const uint8_t *aad, size_t aad_len,
                                            const uint8_t *tag, size_t tag_len);

/* Streaming GCM.  Order: start; aad (zero or more calls, any lengths);
 * then either encrypt calls or decrypt calls (any lengths, not mixed; the
 * first one, even of length 0, ends the AAD phase); then finish (after
 * encrypt: writes the tag) or verify (after decrypt: compares the tag in
 * constant time); with no encrypt/decrypt call at all either is accepted
 * (GMAC).  Any other order, or any call after finish/verify, returns
 * AESKIT_ERR_STATE and leaves the context unchanged.  A bad tag length
 * leaves the context usable; a failed verify closes it.
 *
 * WARNING: streaming decryption hands out plaintext before the tag has been
 * checked.  Do not act on it until aeskit_gcm_verify returns AESKIT_OK; if
 * you cannot buffer that way, use the one-shot aeskit_gcm_open, which never
 * releases unauthenticated plaintext.
 *
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_IV_LENGTH (start),
 * AESKIT_ERR_MESSAGE_TOO_LONG / AESKIT_ERR_AAD_TOO_LONG (the running totals),
 * AESKIT_ERR_OVERLAP, AESKIT_ERR_STATE, AESKIT_ERR_TAG_LENGTH (finish,
 * verify), AESKIT_ERR_AUTH (verify). */
AESKIT_API aeskit_status aeskit_gcm_start(aeskit_gcm_ctx *ctx, const aeskit_gcm_key *gk,
                                          const uint8_t *iv, size_t iv_len);
AESKIT_API aeskit_status aeskit_gcm_aad(aeskit_gcm_ctx *ctx, const uint8_t *aad, size_t len);
AESKIT_API aeskit_status aeskit_gcm_encrypt(aeskit_gcm_ctx *ctx, uint8_t *out,
                                            const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_gcm_decrypt(aeskit_gcm_ctx *ctx, uint8_t *out,
                                            const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_gcm_finish(aeskit_gcm_ctx *ctx, uint8_t *tag, size_t tag_len);
AESKIT_API aeskit_status aeskit_gcm_verify(aeskit_gcm_ctx *ctx, const uint8_t *tag,
                                           size_t tag_len);
AESKIT_API void aeskit_gcm_ctx_wipe(aeskit_gcm_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* RFC 4106 (AES-GCM in IPsec ESP) and RFC 4543 (AES-GMAC in ESP)           */
/* ------------------------------------------------------------------------ */

/* key is the AES key followed by the 4-byte salt (20, 28 or 36 bytes). */
AESKIT_API aeskit_status aeskit_rfc4106_init(aeskit_rfc4106_key *rk, const uint8_t *key,
                                             size_t key_len);
AESKIT_API aeskit_status aeskit_rfc4106_init_backend(aeskit_rfc4106_key *rk, const uint8_t *key,
                                                     size_t key_len, const char *backend);
AESKIT_API void aeskit_rfc4106_wipe(aeskit_rfc4106_key *rk);

/* ESP AES-GCM: nonce = salt || iv (the 8-byte explicit IV), aad = SPI and
 * sequence number (8 or 12 bytes in ESP, any length accepted), ICV tag_len
 * 8, 12 or 16.  Errors and failure behaviour as aeskit_gcm_seal/open. */
AESKIT_API aeskit_status aeskit_rfc4106_seal(const aeskit_rfc4106_key *rk, const uint8_t iv[8],
                                             const uint8_t *aad, size_t aad_len,
                                             const uint8_t *in, size_t len,
                                             uint8_t *out, uint8_t *tag, size_t tag_len);
AESKIT_API aeskit_status aeskit_rfc4106_open(const aeskit_rfc4106_key *rk, const uint8_t iv[8],
                                             const uint8_t *aad, size_t aad_len,
                                             const uint8_t *in, size_t len,
                                             const uint8_t *tag, size_t tag_len, uint8_t *out);

/* ESP AES-GMAC (RFC 4543, same key format as RFC 4106): the payload is not
 * encrypted; the 16-byte ICV authenticates aad (SPI, sequence number) ||
 * iv || payload.  Errors as aeskit_gmac / aeskit_gmac_verify. */
AESKIT_API aeskit_status aeskit_rfc4543_mac(const aeskit_rfc4106_key *rk, const uint8_t iv[8],
                                            const uint8_t *aad, size_t aad_len,
                                            const uint8_t *payload, size_t len, uint8_t tag[16]);
AESKIT_API aeskit_status aeskit_rfc4543_verify(const aeskit_rfc4106_key *rk, const uint8_t iv[8],
                                               const uint8_t *aad, size_t aad_len,
                                               const uint8_t *payload, size_t len,
                                               const uint8_t tag[16]);

/* ------------------------------------------------------------------------ */
/* CCM (SP 800-38C, RFC 3610) and RFC 4309                                  */
/* ------------------------------------------------------------------------ */

/* CCM with an AES key object: nonce 7..13 bytes, tag 4, 6, 8, 10, 12, 14 or
 * 16 bytes.  The message length must fit the length field of 15 - nonce_len
 * bytes (else AESKIT_ERR_MESSAGE_TOO_LONG).  Open compares in constant time
 * and on AESKIT_ERR_AUTH zeroes an out-of-place out or restores an in-place
 * buffer to the ciphertext.
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_NONCE_LENGTH,
 * AESKIT_ERR_TAG_LENGTH, AESKIT_ERR_MESSAGE_TOO_LONG, AESKIT_ERR_OVERLAP,
 * AESKIT_ERR_AUTH (open). */
AESKIT_API aeskit_status aeskit_ccm_seal(const aeskit_aes_key *k,
                                         const uint8_t *nonce, size_t nonce_len,
                                         const uint8_t *aad, size_t aad_len,
                                         const uint8_t *in, size_t len,
                                         uint8_t *out, uint8_t *tag, size_t tag_len);
AESKIT_API aeskit_status aeskit_ccm_open(const aeskit_aes_key *k,
                                         const uint8_t *nonce, size_t nonce_len,
                                         const uint8_t *aad, size_t aad_len,
                                         const uint8_t *in, size_t len,
                                         const uint8_t *tag, size_t tag_len, uint8_t *out);

/* RFC 4309 (CCM in ESP): key = AES key || 3-byte salt (19, 27 or 35 bytes);
 * nonce = salt || 8-byte iv (11 bytes, so L = 4); ICV 8, 12 or 16 bytes. */
AESKIT_API aeskit_status aeskit_rfc4309_init(aeskit_rfc4309_key *rk, const uint8_t *key,
                                             size_t key_len);
AESKIT_API aeskit_status aeskit_rfc4309_init_backend(aeskit_rfc4309_key *rk, const uint8_t *key,
                                                     size_t key_len, const char *backend);
AESKIT_API void aeskit_rfc4309_wipe(aeskit_rfc4309_key *rk);
AESKIT_API aeskit_status aeskit_rfc4309_seal(const aeskit_rfc4309_key *rk, const uint8_t iv[8],
                                             const uint8_t *aad, size_t aad_len,
                                             const uint8_t *in, size_t len,
                                             uint8_t *out, uint8_t *tag, size_t tag_len);
AESKIT_API aeskit_status aeskit_rfc4309_open(const aeskit_rfc4309_key *rk, const uint8_t iv[8],
                                             const uint8_t *aad, size_t aad_len,
                                             const uint8_t *in, size_t len,
                                             const uint8_t *tag, size_t tag_len, uint8_t *out);

/* ------------------------------------------------------------------------ */
/* XTS (IEEE 1619, SP 800-38E) with ciphertext stealing                     */
/* ------------------------------------------------------------------------ */

/* key = data key || tweak key, two equal-size halves: 32, 48 or 64 bytes
 * (AES-128, AES-192, AES-256).  Equal halves are accepted (IEEE 1619 does
 * not forbid them; FIPS deployments should reject them).
 * Errors as aeskit_aes_init / aeskit_aes_init_backend. */
AESKIT_API aeskit_status aeskit_xts_init(aeskit_xts_key *xk, const uint8_t *key, size_t key_len);
AESKIT_API aeskit_status aeskit_xts_init_backend(aeskit_xts_key *xk, const uint8_t *key,
                                                 size_t key_len, const char *backend);
AESKIT_API const char *aeskit_xts_backend(const aeskit_xts_key *xk);
AESKIT_API void aeskit_xts_wipe(aeskit_xts_key *xk);

/* Encrypts / decrypts one data unit of len >= 16 bytes (any length from 16
 * on: a partial last block uses ciphertext stealing) under the 16-byte
 * tweak (the data unit number, little-endian, as IEEE 1619 uses it).
 * Errors: AESKIT_ERR_NULL_POINTER, AESKIT_ERR_LENGTH (len < 16),
 * AESKIT_ERR_OVERLAP. */
AESKIT_API aeskit_status aeskit_xts_encrypt(const aeskit_xts_key *xk, const uint8_t tweak[16],
                                            uint8_t *out, const uint8_t *in, size_t len);
AESKIT_API aeskit_status aeskit_xts_decrypt(const aeskit_xts_key *xk, const uint8_t tweak[16],
                                            uint8_t *out, const uint8_t *in, size_t len);

/* ------------------------------------------------------------------------ */
/* Utilities                                                                */
/* ------------------------------------------------------------------------ */

/* Zeroes len bytes at p in a way the compiler cannot remove. */
AESKIT_API void aeskit_memzero(void *p, size_t len);

/* Constant-time comparison: 0 if the len bytes at a and b are equal,
 * non-zero otherwise; time depends on len only. */
AESKIT_API int aeskit_ct_memcmp(const void *a, const void *b, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* AESKIT_H */
