/*
 * dispatch.c - the one table of backends, and the choice of one per key.
 *
 * The choice is made when a key object is set up (never per call): the
 * front end stores the backend pointer in the key, and every later call on
 * that key goes straight to its primitives.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const ak_backend *const table[] = {
#ifdef AK_ARCH_X86_64
    &ak_backend_x86_vaes_avx512,
    &ak_backend_x86_vaes_avx2,
    &ak_backend_x86_aesni,
    &ak_backend_x86_ssse3,
#endif
#ifdef AK_ARCH_AARCH64
    &ak_backend_arm64_ce,
#endif
#ifdef AK_ARCH_PPC64LE
    &ak_backend_ppc64_p8,
#endif
    &ak_backend_generic,
};

#define TABLE_LEN (sizeof table / sizeof table[0])

size_t ak_backend_count(void) { return TABLE_LEN; }

const ak_backend *ak_backend_at(size_t i) { return i < TABLE_LEN ? table[i] : NULL; }

int ak_backend_usable(const ak_backend *be)
{
    if (!be || !be->ecb_encrypt)
        return 0;
    return (ak_cpu_features() & be->required_features) == be->required_features;
}

static const ak_backend *best_usable(void)
{
    const ak_backend *best = NULL;
    for (size_t i = 0; i < TABLE_LEN; i++)
        if (ak_backend_usable(table[i]) && (!best || table[i]->priority > best->priority))
            best = table[i];
    return best; /* generic is always usable */
}

static aeskit_status find(const char *name, const ak_backend **out)
{
    for (size_t i = 0; i < TABLE_LEN; i++) {
        if (!strcmp(table[i]->name, name)) {
            if (!ak_backend_usable(table[i]))
                return AESKIT_ERR_BACKEND_UNAVAILABLE;
            *out = table[i];
            return AESKIT_OK;
        }
    }
    return AESKIT_ERR_BACKEND_UNKNOWN;
}

aeskit_status ak_backend_resolve(const char *name, const ak_backend **out)
{
    if (!name) {
        const char *forced = getenv("AESKIT_BACKEND");
        if (forced && *forced)
            return find(forced, out);
        *out = best_usable();
        return *out ? AESKIT_OK : AESKIT_ERR_BACKEND_UNAVAILABLE;
    }
    return find(name, out);
}

size_t aeskit_backend_count(void) { return TABLE_LEN; }

const char *aeskit_backend_default(void)
{
    const ak_backend *be = NULL;
    if (ak_backend_resolve(NULL, &be) != AESKIT_OK)
        return "(none: AESKIT_BACKEND names a backend this CPU cannot run)";
    return be->name;
}

aeskit_status aeskit_backend_get(size_t index, aeskit_backend_info *info)
{
    if (!info)
        return AESKIT_ERR_NULL_POINTER;
    if (index >= TABLE_LEN)
        return AESKIT_ERR_ARGUMENT;
    const ak_backend *be = table[index], *def = NULL;
    if (ak_backend_resolve(NULL, &def) != AESKIT_OK)
        def = NULL;
    info->name = be->name;
    info->requires = be->requires;
    info->priority = be->priority;
    info->constant_time = be->constant_time;
    info->implemented = be->ecb_encrypt != NULL;
    info->available = ak_backend_usable(be);
    info->chosen = be == def;
    return AESKIT_OK;
}

aeskit_status aeskit_backend_check(const char *name)
{
    const ak_backend *be;
    if (!name)
        return AESKIT_ERR_NULL_POINTER;
    return find(name, &be);
}
