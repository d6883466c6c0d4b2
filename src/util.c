/* util.c - small constant-time helpers shared by every front end. */
#include <string.h>

#include "internal.h"

int aeskit_ct_memcmp(const void *a, const void *b, size_t len)
{
    return ak_ct_eq_mask((const uint8_t *)a, (const uint8_t *)b, len) ? 0 : 1;
}

int ak_bad_overlap(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    if (!a || !b || alen == 0 || blen == 0 || pa == pb)
        return 0;
    return pa < pb + blen && pb < pa + alen;
}

/* A volatile function pointer keeps the compiler from proving the stores dead. */
static void *(*const volatile memset_fn)(void *, int, size_t) = memset;

void aeskit_memzero(void *p, size_t len)
{
    if (p && len)
        memset_fn(p, 0, len);
}

const char *aeskit_version(void) { return AESKIT_VERSION_STRING; }

unsigned long aeskit_version_number(void) { return AESKIT_VERSION_NUMBER; }

const char *aeskit_strerror(int status)
{
    switch (status) {
    case AESKIT_OK: return "success";
    case AESKIT_ERR_NULL_POINTER: return "NULL pointer (object, or buffer with non-zero length)";
    case AESKIT_ERR_KEY_LENGTH: return "invalid key length";
    case AESKIT_ERR_IV_LENGTH: return "invalid IV length";
    case AESKIT_ERR_NONCE_LENGTH: return "invalid nonce length";
    case AESKIT_ERR_TAG_LENGTH: return "invalid tag length";
    case AESKIT_ERR_MESSAGE_TOO_LONG: return "message too long for this mode or nonce";
    case AESKIT_ERR_AAD_TOO_LONG: return "associated data too long";
    case AESKIT_ERR_LENGTH: return "invalid data length for this mode";
    case AESKIT_ERR_OVERLAP: return "input and output overlap without being identical";
    case AESKIT_ERR_STATE: return "call out of order, or context already finished";
    case AESKIT_ERR_AUTH: return "authentication failed";
    case AESKIT_ERR_PADDING: return "invalid padding";
    case AESKIT_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
    case AESKIT_ERR_BACKEND_UNKNOWN: return "unknown backend name";
    case AESKIT_ERR_BACKEND_UNAVAILABLE: return "backend not available on this CPU";
    case AESKIT_ERR_ARGUMENT: return "invalid argument";
    case AESKIT_ERR_ALIGNMENT: return "key object not aligned to AESKIT_ALIGNMENT bytes";
    case AESKIT_ERR_ABI: return "header and library versions or object sizes differ";
    case AESKIT_ERR_ENVIRONMENT: return "AESKIT_CPU holds a token that was ignored";
    default: return "unknown status";
    }
}
