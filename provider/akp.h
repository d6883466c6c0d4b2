/* akp.h - internals shared by the aeskit provider's source files. */
#ifndef AKP_H
#define AKP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "ak_glue.h"

typedef struct akp_prov {
    const OSSL_CORE_HANDLE *handle;
} AKP_PROV;

/* Reason codes of the errors this provider puts on OpenSSL's queue. */
enum {
    AKP_R_INVALID_KEY_LENGTH = 1,
    AKP_R_INVALID_IV_LENGTH,
    AKP_R_INVALID_TAG_LENGTH,
    AKP_R_INVALID_TAG,
    AKP_R_BAD_DECRYPT,
    AKP_R_TAG_MISMATCH,
    AKP_R_NO_KEY_SET,
    AKP_R_NO_IV_SET,
    AKP_R_OUTPUT_BUFFER_TOO_SMALL,
    AKP_R_WRONG_FINAL_BLOCK_LENGTH,
    AKP_R_BAD_STATE,
    AKP_R_INVALID_PARAMETER,
    AKP_R_AESKIT_ERROR,
    AKP_R_NOT_SUPPORTED,
    AKP_R_INVALID_AAD,
    AKP_R_XTS_DUPLICATED_KEYS,
    AKP_R_XTS_DATA_UNIT_TOO_LARGE,
    AKP_R_MALLOC_FAILURE,
    AKP_R_TOO_MANY_RECORDS,
    AKP_R_INVALID_DATA_LENGTH,
    AKP_R_MAX
};

void akp_err_(const AKP_PROV *p, int reason, const char *file, int line,
              const char *func, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
#define AKP_ERR(p, r, ...) akp_err_((p), (r), __FILE__, __LINE__, __func__, __VA_ARGS__)
/* An aeskit status as an error on the queue. */
#define AKP_ERR_AK(p, r, st) AKP_ERR((p), (r), "aeskit: %s", pg_strerror(st))

/* Aligned, zeroed allocation (key objects want 64-byte alignment) and a
 * free that wipes first. */
void *akp_zalloc(size_t n);
void akp_free(void *ptr, size_t n);

/* A key object shared, read-only, between an EVP context and its copies. */
typedef struct akp_key {
    _Alignas(64) union {
        pg_aes_key aes;
        pg_gcm_key gcm;
        pg_xts_key xts;
        pg_cmac_key cmac;
        pg_siv_key siv;
        pg_ocb_key ocb;
    } u;
    unsigned char raw[64];      /* the key it was set up from (to skip a repeat) */
    size_t raw_len;
    atomic_int refs;
} AKP_KEY;

AKP_KEY *akp_key_writable(AKP_KEY **slot);  /* the slot's key, unshared (allocates) */
void akp_key_ref(AKP_KEY *k);
void akp_key_unref(AKP_KEY *k);

extern const OSSL_ALGORITHM akp_ciphers[];
extern const OSSL_ALGORITHM akp_macs[];

int akp_random(unsigned char *buf, size_t len);

#endif
