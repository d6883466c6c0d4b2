/*
 * wp_gcmsiv.h - the Wycheproof runner for AES-GCM-SIV (aes_gcm_siv_test.json,
 * schema aead_test_schema_v1), usable by `aeskit vectors` as well as by the
 * test wycheproof_gcmsiv.
 */
#ifndef AESKIT_WP_GCMSIV_H
#define AESKIT_WP_GCMSIV_H

#include <stddef.h>
#include <stdio.h>

/* Runs every test of the Wycheproof AES-GCM-SIV file in json[0..len) under
 * backend (NULL: the library default).  A "valid" test must seal to its ct
 * and tag and open back to msg, in and out of place; an "invalid" one must
 * be refused (by init, or by open with AESKIT_ERR_AUTH and the output
 * zeroed); an "acceptable" one passes either way.  Failures are described
 * on log (NULL: quiet); *passed and *failed receive the counts.  Returns 0
 * if every test passed, 1 if one failed, 2 if json is not such a file (or
 * the runner was built without cJSON). */
int aeskit_wp_gcmsiv_run(const char *json, size_t len, const char *backend, FILE *log,
                         unsigned long *passed, unsigned long *failed);

#endif
