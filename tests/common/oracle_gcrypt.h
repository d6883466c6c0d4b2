/*
 * oracle_gcrypt.h - libgcrypt as the second independent reference, for the
 * modes OpenSSL 3.0 lacks: AES-GCM-SIV (RFC 8452, GCRY_CIPHER_MODE_GCM_SIV,
 * libgcrypt 1.10) and EAX (GCRY_CIPHER_MODE_EAX).  Like oracle.h, a call
 * that libgcrypt refuses in a way that means the caller is wrong exits 2.
 *
 * Built only where libgcrypt 1.10 is found (aeskit_oracle_gcrypt,
 * tests/CMakeLists.txt); a test that needs it is otherwise built from
 * no_oracle.c, which says so and exits 77 (ctest: skipped).
 */
#ifndef AESKIT_TEST_ORACLE_GCRYPT_H
#define AESKIT_TEST_ORACLE_GCRYPT_H

#include <stddef.h>
#include <stdint.h>

/* Checks the version (1.10 or later) and finishes libgcrypt's
 * initialization; exits 2 if the library is older.  Call once, first. */
void or_gcrypt_init(void);

/* AES-GCM-SIV seal (key 16 or 32 bytes, nonce 12): out = ciphertext, the
 * 16-byte tag. */
void or_gcmsiv_seal(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t tag[16]);

/* EAX seal: out = ciphertext, the full 16-byte tag.  Returns 1, or 0 if
 * libgcrypt refuses. */
int or_eax_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                uint8_t tag[16]);

#endif
