/*
 * drive.c - the table of mode drivers and what they share (drive.h,
 * drive_internal.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "drive_internal.h"

/* One line per mode: adding a mode adds one line here. */
const akd_mode akd_modes[] = {
    {"aes", akd_aes},         {"ecb", akd_ecb},         {"cbc", akd_cbc},
    {"cbc-pkcs7", akd_cbc_pkcs7}, {"ctr", akd_ctr},     {"xts", akd_xts},
    {"gcm", akd_gcm},         {"gmac", akd_gmac},       {"rfc4106", akd_rfc4106},
    {"rfc4543", akd_rfc4543}, {"ccm", akd_ccm},         {"rfc4309", akd_rfc4309},
    {"cmac", akd_cmac},       {"cbcmac", akd_cbcmac},   {"gcm-siv", akd_gcmsiv},
    {"eax", akd_eax},         {"siv", akd_siv},         {"siv-aead", akd_siv_aead},
    {"kw", akd_kw},           {"kwp", akd_kwp},         {"xaes-256-gcm", akd_xaes},
    {"cfb128", akd_cfb128},   {"cfb8", akd_cfb8},       {"ofb", akd_ofb},
    {"cts-cs1", akd_cts_cs1}, {"cts-cs2", akd_cts_cs2}, {"cts-cs3", akd_cts_cs3},
};
const size_t akd_mode_count = sizeof akd_modes / sizeof akd_modes[0];

const akd_mode *akd_find(const char *name)
{
    for (size_t i = 0; i < akd_mode_count; i++)
        if (!strcmp(akd_modes[i].name, name))
            return &akd_modes[i];
    return NULL;
}

int akd_run(const char *mode, const akd_case *c, akd_report *r)
{
    const akd_mode *m = akd_find(mode);
    if (!m)
        return -1;
    return m->run(c, r) ? 1 : 0;
}

int akd_check(akd_ctx *x, int ok, const char *fmt, ...)
{
    x->r->checks++;
    if (!ok) {
        if (x->r->failures++ == 0) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(x->r->why, sizeof x->r->why, fmt, ap);
            va_end(ap);
        }
    }
    return ok;
}

int akd_status(akd_ctx *x, aeskit_status st, aeskit_status want, const char *what)
{
    if (st == want)
        return akd_check(x, 1, "%s", what);
    return akd_check(x, 0, "%s: %s (want %s)", what, aeskit_strerror(st), aeskit_strerror(want));
}

int akd_begin(akd_ctx *x, const akd_case *c, akd_report *r)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->r = r;
    x->failures_at_start = r->failures;
    x->rng = c->seed ^ 0x9e3779b97f4a7c15ull;
    if (!x->rng)
        x->rng = 1;
    x->cap = (c->msg_len > c->ct_len ? c->msg_len : c->ct_len) + 16 + 4;
    x->out = malloc(x->cap + AKD_GUARD);
    x->out2 = malloc(x->cap + AKD_GUARD);
    if (!x->out || !x->out2) {
        akd_check(x, 0, "out of memory");
        free(x->out);
        free(x->out2);
        x->out = x->out2 = NULL;
        return -1;
    }
    memset(x->out + x->cap, 0xa5, AKD_GUARD);
    memset(x->out2 + x->cap, 0xa5, AKD_GUARD);
    return 0;
}

int akd_end(akd_ctx *x)
{
    if (x->out) {
        int intact = 1;
        for (size_t i = 0; i < AKD_GUARD; i++)
            intact &= x->out[x->cap + i] == 0xa5 && x->out2[x->cap + i] == 0xa5;
        akd_check(x, intact, "wrote past the end of the output");
    }
    free(x->out);
    free(x->out2);
    x->out = x->out2 = NULL;
    return (int)(x->r->failures - x->failures_at_start);
}

static const size_t akd_steps[AKD_NPATTERNS] = {1, 7, 15, 16, 17, 255, 0, 0};

int akd_pattern_skipped(size_t p, size_t total)
{
    return akd_steps[p] && akd_steps[p] < 16 && total > AKD_SMALL_STEP_MAX;
}

const char *akd_pattern_name(size_t p)
{
    static const char *const names[AKD_NPATTERNS] = {"1", "7", "15", "16", "17", "255",
                                                     "random 0..40", "random 1..600"};
    return names[p];
}

size_t akd_rand(akd_ctx *x, size_t bound)
{
    /* xorshift64 (Marsaglia 2003): seeded per case, so a failure reproduces */
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return bound ? (size_t)(x->rng % bound) : 0;
}

size_t akd_chunk(akd_ctx *x, size_t p, size_t left)
{
    size_t n = akd_steps[p];
    if (p == AKD_NPATTERNS - 2)
        n = akd_rand(x, 41);
    else if (p == AKD_NPATTERNS - 1)
        n = 1 + akd_rand(x, 600);
    return n < left ? n : left;
}

size_t akd_bit_first(akd_ctx *x, size_t n)
{
    return x->c->tamper_stride ? 0 : akd_rand(x, 8 * n);
}

size_t akd_bit_next(akd_ctx *x, size_t bit, size_t n)
{
    return x->c->tamper_stride ? bit + x->c->tamper_stride : 8 * n;
}

void akd_layout(akd_ctx *x, const uint8_t *src, size_t n, uint8_t **in, uint8_t **out)
{
    *in = x->out2 + akd_rand(x, 4);
    *out = akd_rand(x, 4) == 0 ? *in : x->out + akd_rand(x, 4);
    akd_copy(*in, src, n);
}

int akd_init_refused(akd_ctx *x, aeskit_status st, const char *what)
{
    if (x->c->expect == AKD_VALID)
        akd_check(x, 0, "%s refused a valid key: %s", what, aeskit_strerror(st));
    else
        akd_check(x, 1, "%s", what);
    return 1;
}

void akd_check_backend(akd_ctx *x, const char *reported)
{
    if (x->c->backend)
        akd_check(x, reported && !strcmp(reported, x->c->backend),
                  "key reports backend %s, want %s", reported ? reported : "(none)", x->c->backend);
}

int akd_aes_key(akd_ctx *x, const akd_case *c, aeskit_aes_key *k)
{
    aeskit_status st = aeskit_aes_init_backend(k, c->key, c->key_len, c->backend);
    if (st != AESKIT_OK) {
        akd_init_refused(x, st, "aes_init");
        return -1;
    }
    akd_check_backend(x, aeskit_aes_backend(k));
    return 0;
}

int akd_begin_iv16(akd_ctx *x, const akd_case *c, akd_report *r, aeskit_aes_key *k)
{
    if (akd_begin(x, c, r) != 0)
        return -1;
    if (c->iv_len != 16 || c->ct_len != c->msg_len) {
        akd_check(x, c->expect != AKD_VALID, "malformed case: 16-byte IV, ct as long as msg");
        return -1;
    }
    return akd_aes_key(x, c, k);
}
