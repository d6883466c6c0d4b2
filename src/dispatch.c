/*
 * dispatch.c - the one table of backends, and the choice of one per key.
 *
 * The choice is made when a key object is set up (never per call): the
 * front end stores the backend pointer in the key, and every later call on
 * that key goes straight to its primitives.
 */
#include "internal.h"

#include <stdatomic.h>
#include <string.h>

/* ak_backend_table[], generated from src/backends.txt, the one list of
 * backends, for the target architecture (cmake/backends.cmake). */
#include "backend_table.h"

#define TABLE_LEN (sizeof ak_backend_table / sizeof ak_backend_table[0])

size_t ak_backend_count(void) { return TABLE_LEN; }

const ak_backend *ak_backend_at(size_t i) { return i < TABLE_LEN ? ak_backend_table[i] : NULL; }

int ak_backend_usable(const ak_backend *be)
{
    if (!be)
        return 0;
    return (ak_cpu_features() & be->required_features) == be->required_features;
}

static const ak_backend *best_usable(void)
{
    const ak_backend *best = NULL;
    for (size_t i = 0; i < TABLE_LEN; i++)
        if (ak_backend_usable(ak_backend_table[i]) && (!best || ak_backend_table[i]->priority > best->priority))
            best = ak_backend_table[i];
    return best; /* generic is always usable */
}

static aeskit_status find(const char *name, const ak_backend **out)
{
    for (size_t i = 0; i < TABLE_LEN; i++) {
        if (!strcmp(ak_backend_table[i]->name, name)) {
            if (!ak_backend_usable(ak_backend_table[i]))
                return AESKIT_ERR_BACKEND_UNAVAILABLE;
            *out = ak_backend_table[i];
            return AESKIT_OK;
        }
    }
    return AESKIT_ERR_BACKEND_UNKNOWN;
}

/* AESKIT_BACKEND, read once: the named backend if this CPU can run it, and
 * what was made of the name (AESKIT_OK, _UNKNOWN or _UNAVAILABLE).  A name
 * that cannot be honoured is ignored, never an error of *_init: a stray
 * variable must not make a correct program fail (aeskit.h, "The
 * environment").  The result is idempotent, so a race only repeats it. */
static _Atomic(const ak_backend *) env_backend;
static _Atomic int env_backend_status = -1; /* an aeskit_status once read */

static const ak_backend *forced_backend(aeskit_status *why)
{
    int st = atomic_load_explicit(&env_backend_status, memory_order_acquire);
    if (st < 0) {
        const ak_backend *be = NULL;
        const char *forced = ak_getenv("AESKIT_BACKEND");
        aeskit_status found = AESKIT_OK;
        if (forced && *forced)
            found = find(forced, &be);
        st = (int)found;
        atomic_store_explicit(&env_backend, st == AESKIT_OK ? be : NULL, memory_order_relaxed);
        atomic_store_explicit(&env_backend_status, st, memory_order_release);
    }
    if (why)
        *why = (aeskit_status)st;
    return atomic_load_explicit(&env_backend, memory_order_relaxed);
}

aeskit_status ak_backend_resolve(const char *name, const ak_backend **out)
{
    if (!name) {
        const ak_backend *be = forced_backend(NULL);
        *out = be ? be : best_usable();
        return AESKIT_OK;
    }
    return find(name, out);
}

size_t aeskit_backend_count(void) { return TABLE_LEN; }

const char *aeskit_backend_default(void)
{
    const ak_backend *be = NULL;
    (void)ak_backend_resolve(NULL, &be);
    return be->name;
}

aeskit_status aeskit_backend_get(aeskit_backend_info *info, size_t index)
{
    if (!info)
        return AESKIT_ERR_NULL_POINTER;
    if (index >= TABLE_LEN)
        return AESKIT_ERR_ARGUMENT;
    const ak_backend *be = ak_backend_table[index], *def = NULL;
    (void)ak_backend_resolve(NULL, &def);
    info->name = be->name;
    info->requires = be->requires;
    info->variant = be->variant ? be->variant() : "";
    info->priority = be->priority;
    info->constant_time = be->constant_time;
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

aeskit_status aeskit_env_check(void)
{
    aeskit_status st;
    (void)forced_backend(&st);
    if (st != AESKIT_OK)
        return st;
    return ak_cpu_mask_had_unknown() ? AESKIT_ERR_ENVIRONMENT : AESKIT_OK;
}
