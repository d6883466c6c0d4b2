/*
 * prov.c - the aeskit OpenSSL 3 provider: entry point, provider parameters,
 * errors, and the shared key objects.  The ciphers are in ciphers.c, the
 * MACs in macs.c; every call into aeskit is in ak_glue.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>

#include "akp.h"

#ifndef AKP_VERSION
#define AKP_VERSION "0.1.0"
#endif
#define AKP_NAME "aeskit provider"

static OSSL_FUNC_core_new_error_fn *c_new_error;
static OSSL_FUNC_core_set_error_debug_fn *c_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *c_vset_error;

void akp_err_(const AKP_PROV *p, int reason, const char *file, int line,
              const char *func, const char *fmt, ...)
{
    va_list ap;
    if (p == NULL || c_new_error == NULL || c_vset_error == NULL)
        return;
    c_new_error(p->handle);
    if (c_set_error_debug != NULL)
        c_set_error_debug(p->handle, file, line, func);
    va_start(ap, fmt);
    c_vset_error(p->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
}

static const OSSL_ITEM reason_strings[] = {
    { AKP_R_INVALID_KEY_LENGTH, "invalid key length" },
    { AKP_R_INVALID_IV_LENGTH, "invalid iv length" },
    { AKP_R_INVALID_TAG_LENGTH, "invalid tag length" },
    { AKP_R_INVALID_TAG, "invalid tag" },
    { AKP_R_BAD_DECRYPT, "bad decrypt" },
    { AKP_R_TAG_MISMATCH, "tag mismatch (message rejected)" },
    { AKP_R_NO_KEY_SET, "no key set" },
    { AKP_R_NO_IV_SET, "no iv set" },
    { AKP_R_OUTPUT_BUFFER_TOO_SMALL, "output buffer too small" },
    { AKP_R_WRONG_FINAL_BLOCK_LENGTH, "wrong final block length" },
    { AKP_R_BAD_STATE, "call out of order" },
    { AKP_R_INVALID_PARAMETER, "invalid parameter" },
    { AKP_R_AESKIT_ERROR, "aeskit call failed" },
    { AKP_R_NOT_SUPPORTED, "not supported by the aeskit provider" },
    { AKP_R_INVALID_AAD, "invalid aad" },
    { AKP_R_XTS_DUPLICATED_KEYS, "xts duplicated keys" },
    { AKP_R_XTS_DATA_UNIT_TOO_LARGE, "xts data unit is too large" },
    { AKP_R_MALLOC_FAILURE, "out of memory" },
    { AKP_R_TOO_MANY_RECORDS, "too many records" },
    { AKP_R_INVALID_DATA_LENGTH, "invalid data length" },
    { 0, NULL }
};

/* ---- memory and shared keys ------------------------------------------------ */

void *akp_zalloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n) != 0)
        return NULL;
    memset(p, 0, n);
    return p;
}

void akp_free(void *ptr, size_t n)
{
    if (ptr == NULL)
        return;
    pg_memzero(ptr, n);
    free(ptr);
}

void akp_key_ref(AKP_KEY *k)
{
    if (k != NULL)
        atomic_fetch_add(&k->refs, 1);
}

void akp_key_unref(AKP_KEY *k)
{
    if (k != NULL && atomic_fetch_sub(&k->refs, 1) == 1)
        akp_free(k, sizeof(*k));
}

/* The key in *slot, unshared: a new object if there is none or a copy of
 * the context holds it too (copies keep the old key, read-only). */
AKP_KEY *akp_key_writable(AKP_KEY **slot)
{
    AKP_KEY *k = *slot;
    if (k != NULL && atomic_load(&k->refs) == 1)
        return k;
    k = akp_zalloc(sizeof(*k));
    if (k == NULL)
        return NULL;
    atomic_init(&k->refs, 1);
    akp_key_unref(*slot);
    *slot = k;
    return k;
}

int akp_random(unsigned char *buf, size_t len)
{
    return RAND_bytes(buf, (int)len) > 0;
}

/* ---- provider parameters ---------------------------------------------------- */

static const OSSL_PARAM prov_gettable[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("aeskit-version", OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN("aeskit-backend", OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN("aeskit-cpu-features", OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN("aeskit-seal-calls", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("aeskit-open-calls", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("aeskit-other-calls", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *prov_gettable_params(void *provctx)
{
    (void)provctx;
    return prov_gettable;
}

static char buildinfo[160];

static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    (void)provctx;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, AKP_NAME))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, AKP_VERSION))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, buildinfo))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL
        && !OSSL_PARAM_set_int(p, 1))
        return 0;
    if ((p = OSSL_PARAM_locate(params, "aeskit-version")) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, pg_version()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, "aeskit-backend")) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, pg_backend_default()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, "aeskit-cpu-features")) != NULL
        && !OSSL_PARAM_set_utf8_ptr(p, pg_cpu_features()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, "aeskit-seal-calls")) != NULL
        && !OSSL_PARAM_set_uint64(p, pg_seal_calls()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, "aeskit-open-calls")) != NULL
        && !OSSL_PARAM_set_uint64(p, pg_open_calls()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, "aeskit-other-calls")) != NULL
        && !OSSL_PARAM_set_uint64(p, pg_other_calls()))
        return 0;
    return 1;
}

static const OSSL_ALGORITHM *prov_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER:
        return akp_ciphers;
    case OSSL_OP_MAC:
        return akp_macs;
    }
    return NULL;
}

static const OSSL_ITEM *prov_reason_strings(void *provctx)
{
    (void)provctx;
    return reason_strings;
}

/* AESKIT_PROVIDER_STATS=<file>: when the provider is unloaded (OpenSSL's
 * cleanup at exit), append one line with the process id, the backend and the
 * counters, so a test can prove which process had aeskit seal and open. */
static void write_stats(void)
{
    static int done;
    const char *path = getenv("AESKIT_PROVIDER_STATS");
    FILE *f;
    if (done || path == NULL || *path == '\0')
        return;
    done = 1;
    f = fopen(path, "a");
    if (f == NULL)
        return;
    fprintf(f, "pid=%ld backend=%s seal=%llu open=%llu other=%llu\n", (long)getpid(),
            pg_backend_default(), (unsigned long long)pg_seal_calls(),
            (unsigned long long)pg_open_calls(), (unsigned long long)pg_other_calls());
    fclose(f);
}

static void prov_teardown(void *provctx)
{
    write_stats();
    free(provctx);
}

/* A process that exits without OpenSSL's cleanup still reports. */
__attribute__((destructor)) static void akp_at_unload(void)
{
    write_stats();
}

static const OSSL_DISPATCH prov_dispatch[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query },
    { OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reason_strings },
    { 0, NULL }
};

__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                                      const OSSL_DISPATCH **out, void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    AKP_PROV *p;
    for (; in != NULL && in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            c_new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            c_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            c_vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        }
    }
    snprintf(buildinfo, sizeof(buildinfo), "aeskit %s, backend %s, built against %s",
             pg_version(), pg_backend_default(), OPENSSL_VERSION_TEXT);
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return 0;
    p->handle = handle;
    *provctx = p;
    *out = prov_dispatch;
    return 1;
}
