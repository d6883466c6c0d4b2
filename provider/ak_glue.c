/*
 * ak_glue.c - every call from the OpenSSL provider into aeskit.
 *
 * Written against aeskit 0.1's include/aeskit.h.  Porting the provider to
 * another aeskit API means editing this file (and the typedefs in
 * ak_glue.h) only; nothing else in provider/ names an aeskit_* symbol.
 */
#include "ak_glue.h"

#include <stdatomic.h>

static _Atomic uint64_t n_seal, n_open, n_other;

#define COUNT(c, st) do { if ((st) == AESKIT_OK) atomic_fetch_add_explicit(&(c), 1, memory_order_relaxed); } while (0)

uint64_t pg_seal_calls(void) { return atomic_load(&n_seal); }
uint64_t pg_open_calls(void) { return atomic_load(&n_open); }
uint64_t pg_other_calls(void) { return atomic_load(&n_other); }

const char *pg_version(void) { return aeskit_version(); }
const char *pg_backend_default(void) { return aeskit_backend_default(); }
const char *pg_cpu_features(void) { return aeskit_cpu_features(); }
const char *pg_strerror(int status) { return aeskit_strerror(status); }
int pg_is_auth_failure(int status)
{
    return status == AESKIT_ERR_AUTH || status == AESKIT_ERR_PADDING;
}

/* ---- AES key, ECB, CBC, CTR ---------------------------------------------- */

int pg_aes_init(pg_aes_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_aes_init(k, key, key_len);
}
const char *pg_aes_backend(const pg_aes_key *k) { return aeskit_aes_backend(k); }
void pg_aes_wipe(pg_aes_key *k) { aeskit_aes_wipe(k); }

int pg_ecb_encrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len)
{
    int st = aeskit_ecb_encrypt(k, out, in, len);
    COUNT(n_other, st);
    return st;
}
int pg_ecb_decrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len)
{
    int st = aeskit_ecb_decrypt(k, out, in, len);
    COUNT(n_other, st);
    return st;
}
int pg_cbc_encrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t iv[16])
{
    int st = aeskit_cbc_encrypt(k, out, in, len, iv);
    COUNT(n_other, st);
    return st;
}
int pg_cbc_decrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t iv[16])
{
    int st = aeskit_cbc_decrypt(k, out, in, len, iv);
    COUNT(n_other, st);
    return st;
}
int pg_ctr_start(pg_ctr_ctx *c, const pg_aes_key *k, const uint8_t iv[16])
{
    return aeskit_ctr_start(c, k, iv);
}
int pg_ctr_update(pg_ctr_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    int st = aeskit_ctr_update(c, out, in, len);
    COUNT(n_other, st);
    return st;
}
void pg_ctr_wipe(pg_ctr_ctx *c) { aeskit_ctr_ctx_wipe(c); }

/* ---- GCM / GMAC ------------------------------------------------------------ */

int pg_gcm_init(pg_gcm_key *gk, const uint8_t *key, size_t key_len)
{
    return aeskit_gcm_init(gk, key, key_len);
}
const char *pg_gcm_backend(const pg_gcm_key *gk) { return aeskit_gcm_backend(gk); }
void pg_gcm_wipe(pg_gcm_key *gk) { aeskit_gcm_wipe(gk); }

int pg_gcm_seal(const pg_gcm_key *gk, uint8_t *out, uint8_t *tag, size_t tag_len,
                const uint8_t *in, size_t len, const uint8_t *iv, size_t iv_len,
                const uint8_t *aad, size_t aad_len)
{
    int st = aeskit_gcm_seal(gk, out, tag, tag_len, in, len, iv, iv_len, aad, aad_len);
    COUNT(n_seal, st);
    return st;
}
int pg_gcm_open(const pg_gcm_key *gk, uint8_t *out, const uint8_t *in, size_t len,
                const uint8_t *tag, size_t tag_len, const uint8_t *iv, size_t iv_len,
                const uint8_t *aad, size_t aad_len)
{
    int st = aeskit_gcm_open(gk, out, in, len, tag, tag_len, iv, iv_len, aad, aad_len);
    COUNT(n_open, st);
    return st;
}
int pg_gcm_start(pg_gcm_ctx *c, const pg_gcm_key *gk, int enc,
                 const uint8_t *iv, size_t iv_len)
{
    c->enc = enc ? 1 : 0;
    return aeskit_gcm_start(&c->c, gk, c->enc ? AESKIT_SEAL : AESKIT_OPEN, iv, iv_len);
}
int pg_gcm_update_aad(pg_gcm_ctx *c, const uint8_t *aad, size_t len)
{
    return aeskit_gcm_update_aad(&c->c, aad, len);
}
int pg_gcm_update(pg_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    return aeskit_gcm_update(&c->c, out, in, len);
}
int pg_gcm_finish(pg_gcm_ctx *c, uint8_t *tag, size_t tag_len)
{
    int st = c->enc ? aeskit_gcm_finish(&c->c, tag, tag_len) : AESKIT_ERR_STATE;
    COUNT(n_seal, st);
    return st;
}
int pg_gcm_finish_verify(pg_gcm_ctx *c, const uint8_t *tag, size_t tag_len)
{
    int st = c->enc ? AESKIT_ERR_STATE : aeskit_gcm_finish_verify(&c->c, tag, tag_len);
    COUNT(n_open, st);
    return st;
}
int pg_gcm_shadow_tag(pg_gcm_ctx *c, uint8_t tag[16])
{
    return c->enc ? aeskit_gcm_finish(&c->c, tag, 16) : AESKIT_ERR_STATE;
}
void pg_note_open(void) { atomic_fetch_add_explicit(&n_open, 1, memory_order_relaxed); }
int pg_gmac_finish(pg_gcm_ctx *c, uint8_t *tag, size_t tag_len)
{
    int st = aeskit_gcm_finish(&c->c, tag, tag_len);
    COUNT(n_other, st);
    return st;
}
void pg_gcm_ctx_wipe(pg_gcm_ctx *c) { aeskit_gcm_ctx_wipe(&c->c); c->enc = 0; }
int pg_gcm_tag_len_ok(size_t t) { return t == 4 || t == 8 || (t >= 12 && t <= 16); }

/* ---- CCM ---------------------------------------------------------------------- */

int pg_ccm_seal(const pg_aes_key *k, uint8_t *out, uint8_t *tag, size_t tag_len,
                const uint8_t *in, size_t len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len)
{
    int st = aeskit_ccm_seal(k, out, tag, tag_len, in, len, nonce, nonce_len, aad, aad_len);
    COUNT(n_seal, st);
    return st;
}
int pg_ccm_open(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                const uint8_t *tag, size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len)
{
    int st = aeskit_ccm_open(k, out, in, len, tag, tag_len, nonce, nonce_len, aad, aad_len);
    COUNT(n_open, st);
    return st;
}

/* ---- XTS ------------------------------------------------------------------------ */

int pg_xts_init(pg_xts_key *xk, const uint8_t *key, size_t key_len)
{
    return aeskit_xts_init(xk, key, key_len);
}
void pg_xts_wipe(pg_xts_key *xk) { aeskit_xts_wipe(xk); }
int pg_xts_encrypt(const pg_xts_key *xk, uint8_t *out, const uint8_t *in, size_t len,
                   const uint8_t tweak[16])
{
    int st = aeskit_xts_encrypt(xk, out, in, len, tweak);
    COUNT(n_other, st);
    return st;
}
int pg_xts_decrypt(const pg_xts_key *xk, uint8_t *out, const uint8_t *in, size_t len,
                   const uint8_t tweak[16])
{
    int st = aeskit_xts_decrypt(xk, out, in, len, tweak);
    COUNT(n_other, st);
    return st;
}

/* ---- CMAC -------------------------------------------------------------------------- */

int pg_cmac_init(pg_cmac_key *ck, const uint8_t *key, size_t key_len)
{
    return aeskit_cmac_init(ck, key, key_len);
}
void pg_cmac_wipe(pg_cmac_key *ck) { aeskit_cmac_wipe(ck); }
int pg_cmac_start(pg_cmac_ctx *c, const pg_cmac_key *ck) { return aeskit_cmac_start(c, ck); }
int pg_cmac_update(pg_cmac_ctx *c, const uint8_t *in, size_t len)
{
    return aeskit_cmac_update(c, in, len);
}
int pg_cmac_finish(pg_cmac_ctx *c, uint8_t *tag, size_t tag_len)
{
    int st = aeskit_cmac_finish(c, tag, tag_len);
    COUNT(n_other, st);
    return st;
}
void pg_cmac_ctx_wipe(pg_cmac_ctx *c) { aeskit_cmac_ctx_wipe(c); }

/* ---- OCB3 ---- */
int pg_ocb_init(pg_ocb_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_ocb_init(k, key, key_len);
}
int pg_ocb_start(pg_ocb_ctx *c, const pg_ocb_key *k, int enc, const uint8_t *nonce,
                 size_t nonce_len, size_t tag_len)
{
    return aeskit_ocb_start(c, k, enc ? AESKIT_SEAL : AESKIT_OPEN, nonce, nonce_len, tag_len);
}
int pg_ocb_update_aad(pg_ocb_ctx *c, const uint8_t *aad, size_t len)
{
    return aeskit_ocb_update_aad(c, aad, len);
}
int pg_ocb_update(pg_ocb_ctx *c, uint8_t *out, size_t cap, size_t *out_len, const uint8_t *in,
                  size_t len)
{
    return aeskit_ocb_update(c, out, cap, out_len, in, len);
}
int pg_ocb_finish(pg_ocb_ctx *c, uint8_t *out, size_t cap, size_t *out_len, uint8_t *tag,
                  size_t tag_len)
{
    int st = aeskit_ocb_finish(c, out, cap, out_len, tag, tag_len);
    COUNT(n_seal, st);
    return st;
}
int pg_ocb_finish_verify(pg_ocb_ctx *c, uint8_t *out, size_t cap, size_t *out_len,
                         const uint8_t *tag, size_t tag_len)
{
    int st = aeskit_ocb_finish_verify(c, out, cap, out_len, tag, tag_len);
    COUNT(n_open, st);
    return st;
}
void pg_ocb_ctx_wipe(pg_ocb_ctx *c) { aeskit_ocb_ctx_wipe(c); }

int pg_ct_memcmp(const void *a, const void *b, size_t len) { return aeskit_ct_memcmp(a, b, len); }
void pg_memzero(void *p, size_t len) { aeskit_memzero(p, len); }

/* ---- CFB, CFB-8, OFB, CBC-CTS, KW, KWP (issue 15) ------------------------ */

int pg_cfb128_start(pg_cfb_ctx *c, const pg_aes_key *k, int enc, const uint8_t iv[16])
{
    return aeskit_cfb128_start(c, k, enc ? AESKIT_SEAL : AESKIT_OPEN, iv);
}
int pg_cfb8_start(pg_cfb_ctx *c, const pg_aes_key *k, int enc, const uint8_t iv[16])
{
    return aeskit_cfb8_start(c, k, enc ? AESKIT_SEAL : AESKIT_OPEN, iv);
}
int pg_cfb_update(pg_cfb_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    int st = aeskit_cfb_update(c, out, in, len);
    COUNT(n_other, st);
    return st;
}
void pg_cfb_wipe(pg_cfb_ctx *c) { aeskit_cfb_ctx_wipe(c); }
int pg_ofb_start(pg_ofb_ctx *c, const pg_aes_key *k, const uint8_t iv[16])
{
    return aeskit_ofb_start(c, k, iv);
}
int pg_ofb_update(pg_ofb_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    int st = aeskit_ofb_update(c, out, in, len);
    COUNT(n_other, st);
    return st;
}
void pg_ofb_wipe(pg_ofb_ctx *c) { aeskit_ofb_ctx_wipe(c); }

int pg_cbc_cts_encrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                       const uint8_t iv[16], int variant)
{
    int st = aeskit_cbc_cts_encrypt(k, out, in, len, iv, (aeskit_cts_variant)variant);
    COUNT(n_other, st);
    return st;
}
int pg_cbc_cts_decrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                       const uint8_t iv[16], int variant)
{
    int st = aeskit_cbc_cts_decrypt(k, out, in, len, iv, (aeskit_cts_variant)variant);
    COUNT(n_other, st);
    return st;
}

int pg_kw_wrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
               const uint8_t *in, size_t len)
{
    int st = aeskit_kw_wrap(k, out, cap, out_len, in, len);
    COUNT(n_other, st);
    return st;
}
int pg_kw_unwrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
                 const uint8_t *in, size_t len)
{
    int st = aeskit_kw_unwrap(k, out, cap, out_len, in, len);
    COUNT(n_other, st);
    return st;
}
int pg_kwp_wrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
                const uint8_t *in, size_t len)
{
    int st = aeskit_kwp_wrap(k, out, cap, out_len, in, len);
    COUNT(n_other, st);
    return st;
}
int pg_kwp_unwrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
                  const uint8_t *in, size_t len)
{
    int st = aeskit_kwp_unwrap(k, out, cap, out_len, in, len);
    COUNT(n_other, st);
    return st;
}

int pg_siv_init(pg_siv_key *k, const uint8_t *key, size_t key_len)
{
    return aeskit_siv_init(k, key, key_len);
}
int pg_siv_seal(const pg_siv_key *k, uint8_t *out, uint8_t tag[16], const uint8_t *in,
                size_t len, const uint8_t *const *ad, const size_t *ad_lens, size_t n_ad)
{
    int st = aeskit_siv_seal(k, out, tag, in, len, ad, ad_lens, n_ad);
    COUNT(n_seal, st);
    return st;
}
int pg_siv_open(const pg_siv_key *k, uint8_t *out, const uint8_t *in, size_t len,
                const uint8_t tag[16], const uint8_t *const *ad, const size_t *ad_lens,
                size_t n_ad)
{
    int st = aeskit_siv_open(k, out, in, len, tag, ad, ad_lens, n_ad);
    COUNT(n_open, st);
    return st;
}
