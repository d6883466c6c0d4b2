/*
 * drive.h - the mode driver: one entry per mode that checks one test case
 * against aeskit every way the API can compute it.  The known-answer tests
 * (kat_run.c), the Wycheproof runner (wycheproof.c), the differential tests
 * (tests/diff, OpenSSL's output as the expected answer) and the fuzz
 * targets (fuzz/) all check through it, so each mode is driven in one place.
 *
 * A case is key, IV (nonce, tweak or counter block), AAD, message,
 * expected output and expected tag, with what must happen: valid (the
 * expected bytes, every way), invalid (refused), acceptable (either; if
 * accepted, the expected bytes).  For a valid case each driver checks, where
 * the mode has them:
 *   init       the key is accepted and reports the requested backend;
 *   one-shot   seal/encrypt gives exactly the expected output and tag,
 *              open/decrypt gives the message back;
 *   streamed   the streaming API in split steps 1, 7, 15, 16, 17, 255 and
 *              two random patterns (short, 0..40 with empty updates; long,
 *              1..600), both directions, input and output each 0..3 bytes
 *              off alignment, sometimes in-place; steps under 16 only up to
 *              AKD_SMALL_STEP_MAX bytes, to bound the cost of long messages;
 *   in-place   out == in, both directions;
 *   tamper     a flipped bit (one at a seeded random position, or every
 *              tamper_stride-th) in the ciphertext, the tag, the AAD and
 *              the IV each: AESKIT_ERR_AUTH, the out-of-place output zeroed,
 *              the in-place buffer restored to the ciphertext; streaming
 *              verification refuses too;
 *   bounds     nothing is written past the output.
 * Cross-checks between helpers: a 12-byte GCM IV also runs as RFC 4106
 * (salt = its first 4 bytes), an RFC 4106 case also as GCM, an 11-byte CCM
 * nonce as RFC 4309 and back, an RFC 4543 case as GMAC.
 *
 * Adding a mode: a new drive_<mode>.c with `int akd_<mode>(const akd_case *,
 * akd_report *)` declared below, one line in akd_modes[] (drive.c) and the
 * file in tools/vectors/library.cmake; for its Wycheproof files one line in
 * wp_algs[] (wycheproof.c).
 *
 * Not public API: a tools-internal library (aeskit_vectors_lib) that the
 * shipped `aeskit vectors` and the tests link.  Not thread-safe: the drivers
 * keep their (large, 64-byte aligned) key objects in static storage.
 */
#ifndef AESKIT_TOOLS_DRIVE_H
#define AESKIT_TOOLS_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "aeskit.h"

enum akd_expect { AKD_VALID, AKD_INVALID, AKD_ACCEPTABLE };

/* Inputs of one case.  Pointers may be NULL only with length 0. */
typedef struct akd_case {
    const char *backend; /* NULL: the library default */
    const uint8_t *key;
    size_t key_len;
    const uint8_t *iv; /* IV, nonce, tweak or initial counter block */
    size_t iv_len;
    const uint8_t *aad;
    size_t aad_len;
    const uint8_t *msg; /* plaintext, or the message a MAC covers */
    size_t msg_len;
    const uint8_t *ct; /* the expected ciphertext (CBC-MAC: unused) */
    size_t ct_len;
    const uint8_t *tag; /* the expected tag (CBC-MAC: the final state) */
    size_t tag_len;
    enum akd_expect expect;
    uint64_t seed; /* the random split patterns, offsets and tamper positions */
    /* 0: one seeded random bit of each field is flipped; n: bits 0, n, 2n,
     * ... of each field (1: every bit, as tests/diff/tamper does). */
    size_t tamper_stride;
} akd_case;

/* What a driver found: checks made, checks failed, the first failure. */
typedef struct akd_report {
    unsigned long checks, failures;
    char why[192];
} akd_report;

typedef int (*akd_fn)(const akd_case *c, akd_report *r);

/* One table line per mode. */
typedef struct akd_mode {
    const char *name; /* "gcm", "ccm", "cbc-pkcs7", ... */
    akd_fn run;
} akd_mode;

extern const akd_mode akd_modes[];
extern const size_t akd_mode_count;

/* The driver named name, or NULL. */
const akd_mode *akd_find(const char *name);

/* Runs the driver named mode on c, adding to r (zero it first for one case).
 * Returns 0 if every check passed, 1 if one failed (r->why says which), -1
 * if no driver has that name. */
int akd_run(const char *mode, const akd_case *c, akd_report *r);

/* The drivers (one file each: drive_<family>.c).  Each returns the number of
 * failed checks of this call (0 = pass). */
int akd_aes(const akd_case *c, akd_report *r);       /* one block, no IV */
int akd_ecb(const akd_case *c, akd_report *r);       /* whole blocks */
int akd_cbc(const akd_case *c, akd_report *r);       /* raw CBC, whole blocks, iv 16 */
int akd_cbc_pkcs7(const akd_case *c, akd_report *r); /* ct = msg padded */
int akd_ctr(const akd_case *c, akd_report *r);       /* iv = initial counter block */
int akd_xts(const akd_case *c, akd_report *r);       /* key = data || tweak key, iv = tweak */
int akd_gcm(const akd_case *c, akd_report *r);       /* any IV length */
int akd_gmac(const akd_case *c, akd_report *r);      /* aad authenticated, no msg */
int akd_rfc4106(const akd_case *c, akd_report *r);   /* key = AES key || salt(4), iv 8 */
int akd_rfc4543(const akd_case *c, akd_report *r);   /* key || salt(4), iv 8, msg authenticated */
int akd_ccm(const akd_case *c, akd_report *r);       /* iv = nonce 7..13 */
int akd_rfc4309(const akd_case *c, akd_report *r);   /* key = AES key || salt(3), iv 8 */
int akd_cmac(const akd_case *c, akd_report *r);      /* msg, tag (any length 4..16) */
int akd_cbcmac(const akd_case *c, akd_report *r);    /* iv = start state, tag = end state */
int akd_gcmsiv(const akd_case *c, akd_report *r);    /* RFC 8452: iv = nonce (12), tag 16 */
int akd_eax(const akd_case *c, akd_report *r);       /* iv = nonce (any length), tag 1..16 */
int akd_siv(const akd_case *c, akd_report *r);       /* RFC 5297 2.6: aad = the one AD string,
                                                        tag = V, ct = C, no iv */
int akd_siv_aead(const akd_case *c, akd_report *r);  /* RFC 5297 6: iv = nonce, tag = V */
int akd_kw(const akd_case *c, akd_report *r);        /* SP 800-38F KW: msg, ct = wrapped */
int akd_kwp(const akd_case *c, akd_report *r);       /* SP 800-38F KWP: msg, ct = wrapped */
int akd_xaes(const akd_case *c, akd_report *r);      /* C2SP XAES-256-GCM: key 32, iv = nonce (24) */
int akd_cfb128(const akd_case *c, akd_report *r);    /* SP 800-38A CFB-128: iv 16, any length */
int akd_cfb8(const akd_case *c, akd_report *r);      /* SP 800-38A CFB-8: iv 16, any length */
int akd_ofb(const akd_case *c, akd_report *r);       /* SP 800-38A OFB: iv 16, any length */
int akd_cts_cs1(const akd_case *c, akd_report *r);   /* CBC-CTS CS1 (SP 800-38A addendum): */
int akd_cts_cs2(const akd_case *c, akd_report *r);   /*   iv 16, msg >= 16 bytes, ct as long */
int akd_cts_cs3(const akd_case *c, akd_report *r);

/* Messages up to this length are also streamed in steps of 1, 7 and 15. */
#define AKD_SMALL_STEP_MAX 4096

#endif
