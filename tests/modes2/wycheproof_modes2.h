/*
 * wycheproof_modes2.h - the Wycheproof runner of the SIV/EAX/KW/KWP modes
 * (aes_eax_test.json, aes_siv_cmac_test.json, aead_aes_siv_cmac_test.json,
 * aes_wrap_test.json, aes_kwp_test.json), in the shape of `aeskit vectors`'
 * aeskit_vectors_run_buffer (tools/vectors/vectors.h), so the command can
 * hand it the files whose algorithm it names.
 */
#ifndef AESKIT_TESTS_WYCHEPROOF_MODES2_H
#define AESKIT_TESTS_WYCHEPROOF_MODES2_H

#include <stddef.h>
#include <stdio.h>

#include "vectors.h" /* aeskit_vectors_result, AESKIT_VECTORS_* */

/* 1 if algorithm (a Wycheproof file's "algorithm") is one this runner
 * handles: "AES-EAX", "AES-SIV-CMAC", "AEAD-AES-SIV-CMAC", "AES-WRAP",
 * "AES-KWP". */
int aeskit_modes2_vectors_supports(const char *algorithm);

/* Runs the tests of one Wycheproof file, json[0..len), under backend (NULL:
 * the library default); failures are described on log (NULL: quiet).
 * Returns AESKIT_VECTORS_OK, _FAILED, _BAD_FILE (not JSON, not a file of
 * these algorithms, malformed test) or _NO_JSON (built without cJSON). */
int aeskit_modes2_vectors_run_buffer(const char *json, size_t len, const char *backend,
                                     FILE *log, aeskit_vectors_result *res);

#endif
