/*
 * ak_glue.h - the provider's only view of the aeskit library.
 *
 * Every call from the provider into aeskit goes through the pg_* functions
 * declared here and implemented in ak_glue.c, so a change of aeskit's API
 * (the 1.0 argument orders and names) is an edit of ak_glue.c alone.  The
 * pg_* signatures already follow the 1.0 conventions: outputs first, then
 * inputs, then IV, then AAD.
 *
 * Every int-returning pg_* function returns 0 on success or a positive
 * aeskit status code (pg_strerror names it; pg_is_auth_failure tells a tag
 * or padding rejection from an argument error).
 */
#ifndef AK_GLUE_H
#define AK_GLUE_H

#include <stddef.h>
#include <stdint.h>

#include "aeskit.h"

/* Key objects and streaming contexts, as opaque types of this module. */
typedef aeskit_aes_key pg_aes_key;
typedef aeskit_gcm_key pg_gcm_key;
typedef aeskit_cmac_key pg_cmac_key;
typedef aeskit_xts_key pg_xts_key;
typedef struct pg_gcm_ctx {
    aeskit_gcm_ctx c;
    int enc;            /* direction fixed at start (aeskit 1.0 does the same) */
} pg_gcm_ctx;
typedef aeskit_cmac_ctx pg_cmac_ctx;
typedef aeskit_ctr_ctx pg_ctr_ctx;

/* Library information. */
const char *pg_version(void);
const char *pg_backend_default(void);
const char *pg_cpu_features(void);
const char *pg_strerror(int status);
int pg_is_auth_failure(int status);     /* tag mismatch or bad padding */

/* Counters of the AEAD messages aeskit sealed and opened (GCM, CCM, SIV, OCB,
 * one-shot and streamed; an open counts only when the tag verified) and of
 * the other cipher calls (ECB, CBC, CTR, XTS, CMAC, GMAC, CFB, CFB-8, OFB,
 * CBC-CTS, KW, KWP). */
uint64_t pg_seal_calls(void);
uint64_t pg_open_calls(void);
uint64_t pg_other_calls(void);

/* AES key object (ECB, CBC, CTR, CCM). */
int pg_aes_init(pg_aes_key *k, const uint8_t *key, size_t key_len);
const char *pg_aes_backend(const pg_aes_key *k);
void pg_aes_wipe(pg_aes_key *k);
int pg_ecb_encrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len);
int pg_ecb_decrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len);
/* Raw CBC, whole blocks; iv[16] is the chaining value, updated. */
int pg_cbc_encrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t iv[16]);
int pg_cbc_decrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                   uint8_t iv[16]);
/* CTR with a 128-bit big-endian counter; streaming. */
int pg_ctr_start(pg_ctr_ctx *c, const pg_aes_key *k, const uint8_t iv[16]);
int pg_ctr_update(pg_ctr_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
void pg_ctr_wipe(pg_ctr_ctx *c);

/* GCM. */
int pg_gcm_init(pg_gcm_key *gk, const uint8_t *key, size_t key_len);
const char *pg_gcm_backend(const pg_gcm_key *gk);
void pg_gcm_wipe(pg_gcm_key *gk);
int pg_gcm_seal(const pg_gcm_key *gk, uint8_t *out, uint8_t *tag, size_t tag_len,
                const uint8_t *in, size_t len, const uint8_t *iv, size_t iv_len,
                const uint8_t *aad, size_t aad_len);
int pg_gcm_open(const pg_gcm_key *gk, uint8_t *out, const uint8_t *in, size_t len,
                const uint8_t *tag, size_t tag_len, const uint8_t *iv, size_t iv_len,
                const uint8_t *aad, size_t aad_len);
int pg_gcm_start(pg_gcm_ctx *c, const pg_gcm_key *gk, int enc,
                 const uint8_t *iv, size_t iv_len);
int pg_gcm_update_aad(pg_gcm_ctx *c, const uint8_t *aad, size_t len);
int pg_gcm_update(pg_gcm_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
int pg_gcm_finish(pg_gcm_ctx *c, uint8_t *tag, size_t tag_len);          /* enc */
int pg_gcm_finish_verify(pg_gcm_ctx *c, const uint8_t *tag, size_t tag_len); /* dec */
/* The full 16-byte tag of an encrypting context, not counted: the provider
 * uses a second, encrypting context to check GCM tags of lengths aeskit's
 * verify does not take (1-3, 5-7, 9-11 bytes); pg_note_open counts such an
 * open once the tag compared equal. */
int pg_gcm_shadow_tag(pg_gcm_ctx *c, uint8_t tag[16]);
void pg_note_open(void);
/* GMAC (no payload): start with enc=1, update_aad, then pg_gmac_finish. */
int pg_gmac_finish(pg_gcm_ctx *c, uint8_t *tag, size_t tag_len);
void pg_gcm_ctx_wipe(pg_gcm_ctx *c);
/* 1 if aeskit's GCM takes this tag length (4, 8, 12..16). */
int pg_gcm_tag_len_ok(size_t tag_len);

/* CCM with an AES key object; nonce 7..13 bytes, tag 4..16 even. */
int pg_ccm_seal(const pg_aes_key *k, uint8_t *out, uint8_t *tag, size_t tag_len,
                const uint8_t *in, size_t len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len);
int pg_ccm_open(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                const uint8_t *tag, size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len);

/* XTS: key = data key || tweak key; one data unit of len >= 16 per call. */
int pg_xts_init(pg_xts_key *xk, const uint8_t *key, size_t key_len);
void pg_xts_wipe(pg_xts_key *xk);
int pg_xts_encrypt(const pg_xts_key *xk, uint8_t *out, const uint8_t *in, size_t len,
                   const uint8_t tweak[16]);
int pg_xts_decrypt(const pg_xts_key *xk, uint8_t *out, const uint8_t *in, size_t len,
                   const uint8_t tweak[16]);

/* CMAC, streaming. */
int pg_cmac_init(pg_cmac_key *ck, const uint8_t *key, size_t key_len);
void pg_cmac_wipe(pg_cmac_key *ck);
int pg_cmac_start(pg_cmac_ctx *c, const pg_cmac_key *ck);
int pg_cmac_update(pg_cmac_ctx *c, const uint8_t *in, size_t len);
int pg_cmac_finish(pg_cmac_ctx *c, uint8_t *tag, size_t tag_len);
void pg_cmac_ctx_wipe(pg_cmac_ctx *c);

/* CFB-128, CFB-8 and OFB (SP 800-38A), streaming with an AES key object;
 * enc fixes CFB's direction (OFB is its own inverse). */
typedef aeskit_cfb_ctx pg_cfb_ctx;
typedef aeskit_ofb_ctx pg_ofb_ctx;
int pg_cfb128_start(pg_cfb_ctx *c, const pg_aes_key *k, int enc, const uint8_t iv[16]);
int pg_cfb8_start(pg_cfb_ctx *c, const pg_aes_key *k, int enc, const uint8_t iv[16]);
int pg_cfb_update(pg_cfb_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
void pg_cfb_wipe(pg_cfb_ctx *c);
int pg_ofb_start(pg_ofb_ctx *c, const pg_aes_key *k, const uint8_t iv[16]);
int pg_ofb_update(pg_ofb_ctx *c, uint8_t *out, const uint8_t *in, size_t len);
void pg_ofb_wipe(pg_ofb_ctx *c);

/* CBC with ciphertext stealing, one shot of len >= 16 bytes; variant 1, 2
 * or 3 (CS1, CS2, CS3); iv is not modified. */
int pg_cbc_cts_encrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                       const uint8_t iv[16], int variant);
int pg_cbc_cts_decrypt(const pg_aes_key *k, uint8_t *out, const uint8_t *in, size_t len,
                       const uint8_t iv[16], int variant);

/* Key wrap (SP 800-38F KW and KWP, the default IVs); *out_len receives the
 * output length.  Counted with the other cipher calls. */
int pg_kw_wrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
               const uint8_t *in, size_t len);
int pg_kw_unwrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
                 const uint8_t *in, size_t len);
int pg_kwp_wrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
                const uint8_t *in, size_t len);
int pg_kwp_unwrap(const pg_aes_key *k, uint8_t *out, size_t cap, size_t *out_len,
                  const uint8_t *in, size_t len);

/* AES-SIV (RFC 5297): key = K1 || K2 (32, 48 or 64 bytes); seal/open over
 * n_ad associated-data strings (at most 126), tag = V (16 bytes).  Counted
 * as AEAD messages (an open once V verified). */
typedef aeskit_siv_key pg_siv_key;
int pg_siv_init(pg_siv_key *k, const uint8_t *key, size_t key_len);
int pg_siv_seal(const pg_siv_key *k, uint8_t *out, uint8_t tag[16], const uint8_t *in,
                size_t len, const uint8_t *const *ad, const size_t *ad_lens, size_t n_ad);
int pg_siv_open(const pg_siv_key *k, uint8_t *out, const uint8_t *in, size_t len,
                const uint8_t tag[16], const uint8_t *const *ad, const size_t *ad_lens,
                size_t n_ad);

/* OCB3 (RFC 7253), streaming: key 16/24/32 bytes; start fixes the
 * direction (enc), the nonce (1..15 bytes) and the tag length (1..16).
 * update writes the whole blocks of held + len (*out_len; cap must hold
 * them), the finishes the < 16 held bytes; out + held == in is in place.
 * Counted as AEAD messages (an open once the tag verified). */
typedef aeskit_ocb_key pg_ocb_key;
typedef aeskit_ocb_ctx pg_ocb_ctx;
int pg_ocb_init(pg_ocb_key *k, const uint8_t *key, size_t key_len);
int pg_ocb_start(pg_ocb_ctx *c, const pg_ocb_key *k, int enc, const uint8_t *nonce,
                 size_t nonce_len, size_t tag_len);
int pg_ocb_update_aad(pg_ocb_ctx *c, const uint8_t *aad, size_t len);
int pg_ocb_update(pg_ocb_ctx *c, uint8_t *out, size_t cap, size_t *out_len, const uint8_t *in,
                  size_t len);
int pg_ocb_finish(pg_ocb_ctx *c, uint8_t *out, size_t cap, size_t *out_len, uint8_t *tag,
                  size_t tag_len);
int pg_ocb_finish_verify(pg_ocb_ctx *c, uint8_t *out, size_t cap, size_t *out_len,
                         const uint8_t *tag, size_t tag_len);
void pg_ocb_ctx_wipe(pg_ocb_ctx *c);

/* Constant-time compare (0 if equal) and a wipe the compiler keeps. */
int pg_ct_memcmp(const void *a, const void *b, size_t len);
void pg_memzero(void *p, size_t len);

#endif
