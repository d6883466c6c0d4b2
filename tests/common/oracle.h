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
 * no_oracle.c, which says so and exits 77 (ctest: skipped).  libgcrypt, the
 * second oracle (GCM-SIV and EAX, which OpenSSL 3.0 lacks), is
 * oracle_gcrypt.h, built the same way.
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

/* OCB3 (RFC 7253; nonce 1..15, tag 1..16). */
void or_ocb_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                 uint8_t *tag, size_t tag_len);

/* XAES-256-GCM (c2sp.org/XAES-256-GCM): the derivation written from the
 * specification on EVP AES-256-ECB, then EVP AES-256-GCM; 16-byte tag. */
void or_xaes_seal(const uint8_t key[32], const uint8_t nonce[24], const uint8_t *aad,
                  size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t tag[16]);

/* ECB, CBC (padding 0: raw, 1: PKCS#7), CTR, XTS, CFB-128, CFB-8, OFB
 * ("ecb", "cbc", "ctr", "xts", "cfb", "cfb8", "ofb"): runs the cipher over
 * in; returns the output length, or -1 if OpenSSL refuses (bad padding on
 * decrypt).  key_len is the whole key (XTS: both halves; OpenSSL 3 refuses
 * equal halves). */
long or_cipher(const char *mode, int enc, int padding, const uint8_t *key, size_t key_len,
               const uint8_t *iv, const uint8_t *in, size_t len, uint8_t *out);

/* AES-KW (pad 0, RFC 3394) or AES-KWP (pad 1, RFC 5649), wrap (enc 1) or
 * unwrap (enc 0): returns 1 and the output length, or 0 if OpenSSL refuses
 * the input (a failed integrity check, a bad length). */
int or_wrap(int pad, int enc, const uint8_t *key, size_t key_len, const uint8_t *in, size_t len,
            uint8_t *out, size_t *out_len);

/* CBC-CTS, cs "CS1", "CS2" or "CS3" (NIST SP 800-38A addendum): returns 1,
 * or 0 if OpenSSL refuses (len < 16). */
int or_cts(int enc, const char *cs, const uint8_t *key, size_t key_len, const uint8_t *iv,
           const uint8_t *in, size_t len, uint8_t *out);

/* AES-SIV seal (RFC 5297; key_len is the whole SIV key, 32/48/64): count
 * associated-data strings, then out = ciphertext and siv.  Returns 1, or 0
 * if OpenSSL refuses (OpenSSL 3.0 hands no empty plaintext to SIV). */
int or_siv_seal(const uint8_t *key, size_t key_len, const uint8_t *const *ad,
                const size_t *ad_lens, size_t count, const uint8_t *in, size_t len, uint8_t *out,
                uint8_t siv[16]);

/* SHAKE-128 (FIPS 202) of in, out_len bytes of output. */
void or_shake128(const uint8_t *in, size_t len, uint8_t *out, size_t out_len);

/* CMAC (EVP_MAC "CMAC" over AES-<bits>-CBC), the full 16-byte tag. */
void or_cmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t len, uint8_t tag[16]);

/* The OpenSSL version the oracle was built with. */
const char *or_version(void);

#endif
