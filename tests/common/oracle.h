/*
 * oracle.h - OpenSSL's libcrypto (EVP) as the independent reference: the
 * one oracle of the differential tests (tests/diff), the known-answer
 * table's cross-check (tests/kat/check_openssl.c) and the fuzz targets
 * (fuzz/).  Every function aborts the program (exit 2, OpenSSL's error
 * queue printed) if OpenSSL itself errors in a way that means the caller is
 * wrong, so a broken oracle can never make a test pass.
 *
 * Built only where OpenSSL 3 is found (aeskit_oracle, tests/CMakeLists.txt);
 * elsewhere (cross builds) the binaries that need it are built from
 * no_oracle.c, which says so and exits 77 (ctest: skipped).
 */
#ifndef AESKIT_TEST_ORACLE_H
#define AESKIT_TEST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* Prints what and OpenSSL's errors, exits 2. */
void or_die(const char *what);

/* GCM (any IV length 1..128, tag 1..16: a truncated tag is a prefix,
 * SP 800-38D 7.1): writes out (len bytes) and tag. */
void or_gcm_seal(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                 uint8_t *tag, size_t tag_len);
/* Returns 1 if OpenSSL accepts the tag (and writes the plaintext), 0 if not. */
int or_gcm_open(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                const uint8_t *tag, size_t tag_len, uint8_t *out);

/* CCM (nonce 7..13, tag 4..16 even). */
void or_ccm_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                 uint8_t *tag, size_t tag_len);
int or_ccm_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                const uint8_t *tag, size_t tag_len, uint8_t *out);

/* ECB, CBC (padding 0: raw, 1: PKCS#7), CTR, XTS ("ecb", "cbc", "ctr",
 * "xts"): runs the cipher over in; returns the output length, or -1 if
 * OpenSSL refuses (bad padding on decrypt).  key_len is the whole key (XTS:
 * both halves; OpenSSL 3 refuses equal halves). */
long or_cipher(const char *mode, int enc, int padding, const uint8_t *key, size_t key_len,
               const uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out);

/* CMAC (EVP_MAC "CMAC" over AES-<bits>-CBC), the full 16-byte tag. */
void or_cmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len, uint8_t tag[16]);

/* The OpenSSL version the oracle was built with. */
const char *or_version(void);

#endif
