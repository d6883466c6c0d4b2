/*
 * kat_vectors.h - known-answer vectors typed in from the standards, and the
 * runner that checks them against the library through the mode driver
 * (drive.h).  Part of `aeskit vectors --builtin`; the KAT test binary
 * (tests/kat/test_kat.c) links the same library.
 *
 * The vectors are data (kat_vectors.c), each with its source named; every
 * one is cross-checked against OpenSSL's libcrypto (tests/kat/check_openssl.c,
 * ctest kat-table-vs-openssl), so a typo cannot become a "known answer".
 */
#ifndef AESKIT_KAT_VECTORS_H
#define AESKIT_KAT_VECTORS_H

#include <stddef.h>
#include <stdio.h>

enum kat_mode {
    KAT_AES,     /* one block: key, pt, ct */
    KAT_ECB,     /* key, pt, ct (whole blocks) */
    KAT_CBC,     /* raw CBC, no padding: key, iv, pt, ct */
    KAT_CTR,     /* key, iv = initial counter block, pt, ct */
    KAT_GCM,     /* key, iv (any length), aad, pt, ct, tag */
    KAT_CMAC,    /* key, pt = message, tag (possibly truncated) */
    KAT_CCM,     /* key, iv = nonce, aad, pt, ct, tag */
    KAT_XTS,     /* key = data key || tweak key, iv = 16-byte tweak, pt, ct */
    KAT_RFC4106, /* key = AES key || 4-byte salt, iv = 8-byte explicit IV,
                    aad = SPI || sequence number, pt, ct, tag */
    KAT_MODE_COUNT
};

/* Hex strings (no separators; "" for empty).  A non-zero *_pattern length
 * replaces that field with the bytes 00 01 02 ... ff 00 01 ... of that
 * length, the way the standards print their long inputs. */
struct kat_vector {
    enum kat_mode mode;
    const char *source;
    const char *key, *iv, *aad, *pt, *ct, *tag;
    size_t pt_pattern, aad_pattern;
};

extern const struct kat_vector kat_vectors[];
extern const size_t kat_vector_count;

const char *kat_mode_name(enum kat_mode m);
/* The mode driver (drive.h akd_modes[]) that checks vectors of mode m. */
const char *kat_mode_driver(enum kat_mode m);

/* Decodes one field of a vector into a fresh malloc'ed buffer (never NULL
 * on success, even for length 0).  Returns 0, or -1 on bad hex / no memory. */
int kat_field(const char *hex, size_t pattern, unsigned char **out, size_t *len);

/* Runs every vector under backend (NULL: the library default) through its
 * mode driver (drive.h): init, one-shot to the known answer and back,
 * streamed in every split pattern where the mode streams, in-place, and a
 * flipped bit of ciphertext, tag and AAD refused with the output wiped.
 * One line per failing vector goes to log (if not NULL); *passed / *failed
 * count vectors, *checks (if not NULL) the checks made.  Returns 0 if all
 * passed, 1 if any failed, 77 if the backend cannot run on this machine
 * (nothing is run then). */
int kat_run_all(const char *backend, FILE *log, unsigned *passed, unsigned *failed,
                unsigned long *checks);

/* Runs one vector, adding its checks to *checks (if not NULL); returns the
 * number of failed checks (0 = pass). */
unsigned kat_run_one(const struct kat_vector *v, const char *backend, FILE *log,
                     unsigned long *checks);

#endif
