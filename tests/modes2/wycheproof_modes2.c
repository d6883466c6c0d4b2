/*
 * wycheproof_modes2.c - Wycheproof files of AES-EAX, AES-SIV-CMAC (RFC
 * 5297 deterministic: one AD string, ct = V || C), AEAD-AES-SIV-CMAC (RFC
 * 5297 6: aad, nonce), AES-WRAP (KW) and AES-KWP (schemas in the SOURCE.md
 * of the shared vectors folder).
 *
 * A "valid" test must encrypt to exactly ct (and tag) and decrypt back; an
 * "invalid" one must be refused by the decrypting side (a bad tag, a bad
 * length, a bad KWP length field or padding); "acceptable" (AES-WRAP: an
 * 8-byte key) may go either way: aeskit refuses it (KW needs two
 * semiblocks, SP 800-38F 6.2), and such a test counts as passed when
 * either outcome is self-consistent.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"
#include "wycheproof_modes2.h"

#ifdef AESKIT_HAVE_CJSON
#include <cJSON.h>

/* Decodes the hex string member `name` into a fresh buffer (*out, *n). */
static int hex_member(const cJSON *t, const char *name, uint8_t **out, size_t *n)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(t, name);
    if (!cJSON_IsString(s) || !s->valuestring)
        return 0;
    size_t l = strlen(s->valuestring);
    if (l % 2)
        return 0;
    uint8_t *b = malloc(l / 2 + 1);
    if (!b)
        return 0;
    for (size_t i = 0; i < l / 2; i++) {
        unsigned v;
        char two[3] = {s->valuestring[2 * i], s->valuestring[2 * i + 1], 0};
        char *end;
        v = (unsigned)strtoul(two, &end, 16);
        if (*end) {
            free(b);
            return 0;
        }
        b[i] = (uint8_t)v;
    }
    *out = b;
    *n = l / 2;
    return 1;
}

enum { ALG_EAX = 1, ALG_SIV, ALG_AEAD_SIV, ALG_KW, ALG_KWP };

static int alg_of(const char *a)
{
    if (!a)
        return 0;
    if (!strcmp(a, "AES-EAX"))
        return ALG_EAX;
    if (!strcmp(a, "AES-SIV-CMAC"))
        return ALG_SIV;
    if (!strcmp(a, "AEAD-AES-SIV-CMAC"))
        return ALG_AEAD_SIV;
    if (!strcmp(a, "AES-WRAP"))
        return ALG_KW;
    if (!strcmp(a, "AES-KWP"))
        return ALG_KWP;
    return 0;
}

int aeskit_modes2_vectors_supports(const char *algorithm) { return alg_of(algorithm) != 0; }

/* Outcome of one test: 1 passed, 0 failed; *why says what went wrong. */
static int run_aead(int alg, const char *be, const uint8_t *key, size_t kl, const uint8_t *iv,
                    size_t ivl, const uint8_t *aad, size_t al, const uint8_t *msg, size_t ml,
                    const uint8_t *ct, size_t cl, const uint8_t *tag, size_t tl, int valid,
                    const char **why)
{
    static aeskit_eax_key ek;
    static aeskit_siv_key sk;
    aeskit_status st = alg == ALG_EAX ? aeskit_eax_init_backend(&ek, key, kl, be)
                                      : aeskit_siv_init_backend(&sk, key, kl, be);
    if (st != AESKIT_OK) {
        *why = "key refused";
        return !valid;
    }
    uint8_t *out = malloc(ml + cl + 16), t[16];
    int ok = 1;
    if (!out) {
        *why = "out of memory";
        return 0;
    }
    if (valid) {
        if (cl != ml || (alg == ALG_AEAD_SIV && tl != 16)) {
            *why = "test sizes";
            ok = 0;
        } else {
            st = alg == ALG_EAX ? aeskit_eax_seal(&ek, out, t, tl, msg, ml, iv, ivl, aad, al)
                                : aeskit_siv_aead_seal(&sk, out, t, msg, ml, iv, ivl, aad, al);
            if (st != AESKIT_OK || memcmp(out, ct, ml) || memcmp(t, tag, tl)) {
                *why = st != AESKIT_OK ? aeskit_strerror(st) : "seal output differs";
                ok = 0;
            }
        }
    }
    if (ok) {
        st = alg == ALG_EAX ? aeskit_eax_open(&ek, out, ct, cl, tag, tl, iv, ivl, aad, al)
             : tl == 16 ? aeskit_siv_aead_open(&sk, out, ct, cl, tag, iv, ivl, aad, al)
                        : AESKIT_ERR_TAG_LENGTH;
        if (valid && (st != AESKIT_OK || memcmp(out, msg, ml))) {
            *why = st != AESKIT_OK ? aeskit_strerror(st) : "open output differs";
            ok = 0;
        } else if (!valid && st == AESKIT_OK) {
            *why = "invalid test accepted";
            ok = 0;
        }
    }
    free(out);
    return ok;
}

static int run_siv(const char *be, const uint8_t *key, size_t kl, const uint8_t *aad, size_t al,
                   const uint8_t *msg, size_t ml, const uint8_t *ct, size_t cl, int valid,
                   const char **why)
{
    static aeskit_siv_key sk;
    aeskit_status st = aeskit_siv_init_backend(&sk, key, kl, be);
    if (st != AESKIT_OK) {
        *why = "key refused";
        return !valid;
    }
    const uint8_t *ad[1] = {aad};
    size_t adl[1] = {al};
    uint8_t *out = malloc(ml + cl + 16), v[16];
    int ok = 1;
    if (!out) {
        *why = "out of memory";
        return 0;
    }
    if (valid) {
        st = aeskit_siv_seal(&sk, out, v, msg, ml, ad, adl, 1);
        if (cl != ml + 16 || st != AESKIT_OK || memcmp(v, ct, 16) || memcmp(out, ct + 16, ml)) {
            *why = "seal output differs";
            ok = 0;
        }
    }
    if (ok) {
        st = cl >= 16 ? aeskit_siv_open(&sk, out, ct + 16, cl - 16, ct, ad, adl, 1)
                      : AESKIT_ERR_LENGTH; /* no room for V: refused before any key use */
        if (valid && (st != AESKIT_OK || memcmp(out, msg, ml))) {
            *why = "open failed";
            ok = 0;
        } else if (!valid && st == AESKIT_OK) {
            *why = "invalid test accepted";
            ok = 0;
        }
    }
    free(out);
    return ok;
}

static int run_kw(int pad, const char *be, const uint8_t *key, size_t kl, const uint8_t *msg,
                  size_t ml, const uint8_t *ct, size_t cl, const char *result, const char **why)
{
    static aeskit_aes_key k;
    int valid = !strcmp(result, "valid"), acceptable = !strcmp(result, "acceptable");
    aeskit_status st = aeskit_aes_init_backend(&k, key, kl, be);
    if (st != AESKIT_OK) {
        *why = "key refused";
        return !valid;
    }
    size_t cap = ml + cl + 16, n = 0;
    uint8_t *out = malloc(cap);
    int ok = 1;
    if (!out) {
        *why = "out of memory";
        return 0;
    }
    aeskit_status ws = pad ? aeskit_kwp_wrap(&k, out, cap, &n, msg, ml)
                           : aeskit_kw_wrap(&k, out, cap, &n, msg, ml);
    int wrap_matches = ws == AESKIT_OK && n == cl && !memcmp(out, ct, cl);
    aeskit_status us = pad ? aeskit_kwp_unwrap(&k, out, cap, &n, ct, cl)
                           : aeskit_kw_unwrap(&k, out, cap, &n, ct, cl);
    int unwrap_matches = us == AESKIT_OK && n == ml && !memcmp(out, msg, ml);
    if (valid) {
        ok = wrap_matches && unwrap_matches;
        *why = !wrap_matches ? "wrap output differs" : "unwrap failed";
    } else if (acceptable) {
        /* Either both directions work and agree, or unwrap refuses. */
        ok = (wrap_matches && unwrap_matches) || us != AESKIT_OK;
        *why = "inconsistent on an acceptable test";
    } else {
        ok = us != AESKIT_OK;
        *why = "invalid test accepted";
    }
    free(out);
    return ok;
}

int aeskit_modes2_vectors_run_buffer(const char *json, size_t len, const char *backend,
                                     FILE *log, aeskit_vectors_result *res)
{
    memset(res, 0, sizeof *res);
    cJSON *root = json ? cJSON_ParseWithLength(json, len) : NULL;
    if (!root)
        return AESKIT_VECTORS_BAD_FILE;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "algorithm");
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "testGroups");
    int alg = cJSON_IsString(a) ? alg_of(a->valuestring) : 0;
    if (cJSON_IsString(a) && a->valuestring)
        snprintf(res->algorithm, sizeof res->algorithm, "%s", a->valuestring);
    if (!alg || !cJSON_IsArray(groups)) {
        cJSON_Delete(root);
        res->failed = 1;
        return AESKIT_VECTORS_BAD_FILE;
    }
    res->supported = 1;
    int bad = 0;
    const cJSON *g;
    cJSON_ArrayForEach(g, groups)
    {
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests"), *t;
        if (!cJSON_IsArray(tests)) {
            bad = 1;
            continue;
        }
        cJSON_ArrayForEach(t, tests)
        {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(t, "tcId");
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(t, "result");
            uint8_t *key = NULL, *iv = NULL, *aad = NULL, *msg = NULL, *ct = NULL, *tag = NULL;
            size_t kl = 0, ivl = 0, al = 0, ml = 0, cl = 0, tl = 0;
            int have = cJSON_IsString(r) && hex_member(t, "key", &key, &kl) &&
                       hex_member(t, "msg", &msg, &ml) && hex_member(t, "ct", &ct, &cl);
            if (have && (alg == ALG_EAX || alg == ALG_AEAD_SIV))
                have = hex_member(t, "iv", &iv, &ivl) && hex_member(t, "aad", &aad, &al) &&
                       hex_member(t, "tag", &tag, &tl) && tl <= 16;
            if (have && alg == ALG_SIV)
                have = hex_member(t, "aad", &aad, &al);
            const char *why = "";
            int ok = 0;
            if (!have) {
                bad = 1;
                why = "malformed test";
            } else if (alg == ALG_EAX || alg == ALG_AEAD_SIV) {
                ok = run_aead(alg, backend, key, kl, iv, ivl, aad, al, msg, ml, ct, cl, tag, tl,
                              !strcmp(r->valuestring, "valid"), &why);
            } else if (alg == ALG_SIV) {
                ok = run_siv(backend, key, kl, aad, al, msg, ml, ct, cl,
                             !strcmp(r->valuestring, "valid"), &why);
            } else {
                ok = run_kw(alg == ALG_KWP, backend, key, kl, msg, ml, ct, cl, r->valuestring,
                            &why);
            }
            if (ok) {
                res->passed++;
            } else {
                res->failed++;
                if (log)
                    fprintf(log, "%s tcId %d (%s): %s\n", res->algorithm,
                            cJSON_IsNumber(id) ? id->valueint : -1,
                            cJSON_IsString(r) ? r->valuestring : "?", why);
            }
            free(key), free(iv), free(aad), free(msg), free(ct), free(tag);
        }
    }
    cJSON_Delete(root);
    if (bad)
        return AESKIT_VECTORS_BAD_FILE;
    return res->failed ? AESKIT_VECTORS_FAILED : AESKIT_VECTORS_OK;
}

#else /* no cJSON */

int aeskit_modes2_vectors_supports(const char *algorithm)
{
    (void)algorithm;
    return 0;
}

int aeskit_modes2_vectors_run_buffer(const char *json, size_t len, const char *backend,
                                     FILE *log, aeskit_vectors_result *res)
{
    (void)json, (void)len, (void)backend, (void)log;
    memset(res, 0, sizeof *res);
    return AESKIT_VECTORS_NO_JSON;
}

#endif
