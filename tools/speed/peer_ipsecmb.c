/*
 * peer_ipsecmb.c - Intel's ipsec-mb (x86-64 only).
 *
 * "ipsec-mb": its direct GCM API (IMB_AESnnn_GCM_ENC/DEC one-shot,
 * INIT_VAR_IV / ENC_UPDATE / ENC_FINALIZE when streaming, the GMAC
 * functions), keys expanded once with IMB_AESnnn_GCM_PRE; CMAC through the
 * job manager one message at a time (submit, then flush until it is done),
 * which is the latency a single stream sees.  CTR (128-bit counter block as
 * the 16-byte IV) has no direct API either: one IMB_CIPHER_CNTR job per
 * message, the same way.  ipsec-mb has no XTS, CBC-MAC or CCM in this peer
 * (XTS not at all), so those are reported as not measured.  RFC 4106 builds the nonce
 * salt || IV per message.  Tags are compared in constant time when
 * verifying (the library only computes them).
 *
 * "ipsec-mb-multibuf": CMAC through the job manager the way it is meant
 * to be used, many independent messages in flight (submitted back to
 * back, flushed at the end of a batch), which lets it interleave several
 * serial CBC chains across the SIMD lanes.  That is a different workload
 * (independent messages, aeskit's future batch API), so it is shown but
 * not counted as "best peer".
 *
 * "ipsec-mb-sse", "ipsec-mb-avx2", "ipsec-mb-avx512" (built with
 * AKS_IPSECMB_ARCHS, which CMake sets with -DAESKIT_IPSECMB_PREFIX): the
 * same calls on a manager set up with init_mb_mgr_sse / _avx2 / _avx512
 * instead of init_mb_mgr_auto, one row per instruction set, so that each
 * aeskit x86 backend meets ipsec-mb's code for the same instructions
 * (x86-aesni / SSE, x86-vaes-avx2 / AVX2, x86-vaes-avx512 / AVX-512).
 * Their version reads "2.0.2 t2": the library's version and the code type
 * (used_arch_type) the library chose within that architecture for this CPU.
 *
 * Which library: the one this file was compiled and linked against (the
 * header CMake found: Debian's 1.3, or AESKIT_IPSECMB_PREFIX's), unless the
 * environment variable AESKIT_IPSECMB_LIB (`aeskit speed --ipsecmb-lib`)
 * names a libIPSec_MB.so to load instead.  Either way the library's
 * imb_get_version() must equal the header's IMB_VERSION_NUM: the manager,
 * job and GCM key structures this file allocates come from the header, and
 * they differ between versions, so a mismatch is refused with a message,
 * never run.  Only the library's exported entry points are called by name
 * (through the table below); everything else goes through the manager's
 * function pointers, so a loaded library is used entirely.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-ipsec-mb.h>

#include "speed.h"

/* ---- the library: linked, or loaded from AESKIT_IPSECMB_LIB ---------------- */

typedef struct mb_lib {
    IMB_MGR *(*alloc)(uint64_t flags);
    void (*free)(IMB_MGR *m);
    void (*init[4])(IMB_MGR *m); /* indexed by enum mb_arch */
    unsigned (*version)(void);
    const char *(*version_str)(void);
    int (*err)(IMB_MGR *m);
    const char *(*strerror)(int e);
#if IMB_VERSION_NUM >= IMB_VERSION(1, 3, 0)
    void (*init_auto)(IMB_MGR *m, IMB_ARCH *arch);
#endif
} mb_lib;

enum mb_arch { MB_AUTO, MB_SSE, MB_AVX2, MB_AVX512 };

static void linked_lib(mb_lib *l)
{
    memset(l, 0, sizeof *l);
    l->alloc = alloc_mb_mgr;
    l->free = free_mb_mgr;
    l->init[MB_SSE] = init_mb_mgr_sse;
    l->init[MB_AVX2] = init_mb_mgr_avx2;
    l->init[MB_AVX512] = init_mb_mgr_avx512;
    l->version = imb_get_version;
    l->version_str = imb_get_version_str;
    l->err = imb_get_errno;
    l->strerror = imb_get_strerror;
#if IMB_VERSION_NUM >= IMB_VERSION(1, 3, 0)
    l->init_auto = init_mb_mgr_auto;
#endif
}

#define MB_SYM(field, name)                                                                        \
    do {                                                                                           \
        *(void **)&l->field = dlsym(h, name);                                                      \
        if (!l->field) {                                                                           \
            snprintf(msg, msglen, "%s has no %s: not an ipsec-mb library", path, name);           \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

/* Fills *l from the library at path (NULL: the linked one) and checks its
 * version against the header's.  Returns 0, or -1 with the reason in msg.
 * A loaded library stays loaded (the process is short-lived). */
static int mb_load(const char *path, mb_lib *l, char *msg, size_t msglen)
{
    msg[0] = 0;
    if (!path) {
        linked_lib(l);
        path = "the linked libIPSec_MB";
    } else {
        /* RTLD_DEEPBIND: the loaded library resolves its own symbols first,
         * not those of the (other) version this program is linked against.
         * ASan refuses RTLD_DEEPBIND, so a sanitizer build does without. */
#if defined(__SANITIZE_ADDRESS__)
        int flags = RTLD_NOW | RTLD_LOCAL;
#else
        int flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#endif
        void *h = dlopen(path, flags);
        if (!h) {
            snprintf(msg, msglen, "cannot load %s: %s", path, dlerror());
            return -1;
        }
        memset(l, 0, sizeof *l);
        MB_SYM(version, "imb_get_version");
        MB_SYM(version_str, "imb_get_version_str");
        MB_SYM(alloc, "alloc_mb_mgr");
        MB_SYM(free, "free_mb_mgr");
        MB_SYM(init[MB_SSE], "init_mb_mgr_sse");
        MB_SYM(init[MB_AVX2], "init_mb_mgr_avx2");
        MB_SYM(init[MB_AVX512], "init_mb_mgr_avx512");
        MB_SYM(err, "imb_get_errno");
        MB_SYM(strerror, "imb_get_strerror");
#if IMB_VERSION_NUM >= IMB_VERSION(1, 3, 0)
        MB_SYM(init_auto, "init_mb_mgr_auto");
#endif
    }
    unsigned v = l->version();
    if (v != (unsigned)IMB_VERSION_NUM) {
        snprintf(msg, msglen,
                 "%s is version %s (0x%x) but this peer was compiled against the %s header "
                 "(0x%x); refused: their structures differ (configure with "
                 "-DAESKIT_IPSECMB_PREFIX=<its install prefix> to build against its header)",
                 path, l->version_str(), v, IMB_VERSION_STR, (unsigned)IMB_VERSION_NUM);
        return -1;
    }
    return 0;
}
#undef MB_SYM

const char *speed_ipsecmb_header_version(void)
{
    return IMB_VERSION_STR;
}

int speed_ipsecmb_check(const char *path, char *ver, size_t verlen, char *msg, size_t msglen)
{
    mb_lib l;
    if (mb_load(path, &l, msg, msglen) != 0)
        return -1;
    snprintf(ver, verlen, "%s", l.version_str());
    return 0;
}

static mb_lib lib;
static int lib_state; /* 0 not tried, 1 usable, -1 refused (reported once) */

static int lib_ready(void)
{
    if (!lib_state) {
        const char *path = getenv("AESKIT_IPSECMB_LIB");
        char msg[512];
        if (mb_load(path && *path ? path : NULL, &lib, msg, sizeof msg) == 0) {
            lib_state = 1;
        } else {
            lib_state = -1;
            fprintf(stderr, "aeskit speed: ipsec-mb: %s\n", msg);
        }
    }
    return lib_state > 0;
}

typedef struct mb_state {
    /* first: these must stay 64-byte aligned */
    struct gcm_key_data gk;
    struct gcm_context_data gc;
    uint32_t enc_keys[60] __attribute__((aligned(16)));
    uint32_t dec_keys[60] __attribute__((aligned(16)));
    uint8_t k1[16] __attribute__((aligned(16)));
    uint8_t k2[16] __attribute__((aligned(16)));
    uint8_t tags[64][16] __attribute__((aligned(16))); /* multibuf: tags in flight */
    uint8_t (*tagv)[16]; /* multibuf with --batch N: N tag slots */
    IMB_MGR *mgr;
    const speed_cell *c;
    int multibuf;
    enum mb_arch arch;
    int hash_alg;
    uint8_t salt[4];
    aes_gcm_enc_dec_t enc, dec;
    aes_gcm_init_var_iv_t init;
    aes_gcm_enc_dec_update_t enc_upd, dec_upd;
    aes_gcm_enc_dec_finalize_t enc_fin, dec_fin;
    aes_gmac_init_t gmac_init;
    aes_gmac_update_t gmac_upd;
    aes_gmac_finalize_t gmac_fin;
} mb_state;

/* A manager for the architecture, or NULL with the reason. */
static IMB_MGR *mb_mgr(enum mb_arch arch, char *why, size_t whylen)
{
    static const char *const init_name[] = {"init_mb_mgr_auto", "init_mb_mgr_sse",
                                            "init_mb_mgr_avx2", "init_mb_mgr_avx512"};
    IMB_MGR *m = lib.alloc(0);
    if (!m) {
        speed_why(why, whylen, "alloc_mb_mgr failed");
        return NULL;
    }
    if (arch == MB_AUTO) {
#if IMB_VERSION_NUM >= IMB_VERSION(1, 3, 0)
        IMB_ARCH a;
        lib.init_auto(m, &a); /* the best code path this CPU runs */
#else
        if (__builtin_cpu_supports("avx512f"))
            lib.init[MB_AVX512](m);
        else if (__builtin_cpu_supports("avx2"))
            lib.init[MB_AVX2](m);
        else
            lib.init[MB_SSE](m);
#endif
    } else {
        lib.init[arch](m);
    }
    if (lib.err(m)) {
        speed_why(why, whylen, "%s: %s", init_name[arch], lib.strerror(lib.err(m)));
        lib.free(m);
        return NULL;
    }
    return m;
}

static const char *mb_version(void)
{
    return lib_ready() ? lib.version_str() : NULL;
}

/* "2.0.2 t2": the version and the code type chosen within the architecture,
 * or NULL (listed as unable to run) when the CPU lacks the architecture. */
static const char *arch_version(enum mb_arch arch)
{
    static char buf[4][32];
    static int tried[4];
    if (!lib_ready())
        return NULL;
    if (!tried[arch]) {
        char why[128];
        tried[arch] = 1;
        IMB_MGR *m = mb_mgr(arch, why, sizeof why);
        if (!m)
            return NULL;
#if IMB_VERSION_NUM >= IMB_VERSION(2, 0, 0)
        snprintf(buf[arch], sizeof buf[arch], "%s t%u", lib.version_str(),
                 (unsigned)m->used_arch_type);
#else
        snprintf(buf[arch], sizeof buf[arch], "%s", lib.version_str());
#endif
        lib.free(m);
    }
    return buf[arch][0] ? buf[arch] : NULL;
}

static const char *sse_version(void)
{
    return arch_version(MB_SSE);
}

static const char *avx2_version(void)
{
    return arch_version(MB_AVX2);
}

static const char *avx512_version(void)
{
    return arch_version(MB_AVX512);
}

static void mb_done(void *st)
{
    mb_state *s = st;
    if (!s)
        return;
    if (s->mgr)
        lib.free(s->mgr);
    free(s->tagv);
    free(s);
}

static void *setup_common(const speed_cell *c, const uint8_t *key, char *why, size_t whylen,
                          int multibuf, enum mb_arch arch)
{
    const speed_alg *a = c->alg;
    int gcm = a->kind == SK_GCM || a->kind == SK_GMAC || a->kind == SK_RFC4106;
    int job = a->kind == SK_CMAC || a->kind == SK_CTR;
    if (a->kind == SK_XTS && !multibuf) {
        speed_why(why, whylen, "ipsec-mb has no AES-XTS");
        return NULL;
    }
    /* The multi-buffer manager: CMAC always; GCM, CTR and CBC with --batch N
     * (N jobs in flight, each with its own output slot). */
    int mb_kind = a->kind == SK_CMAC ||
                  (c->batch && (a->kind == SK_GCM || a->kind == SK_CTR || a->kind == SK_CBC));
    if (multibuf ? !mb_kind : !(gcm || job)) {
        speed_why(why, whylen, "not measured with %s",
                  multibuf ? "the multi-buffer manager (CMAC; GCM, CTR, CBC with --batch)"
                           : "ipsec-mb here");
        return NULL;
    }
    /* an "update" of the whole message is one call: the same as one-shot */
    int pieces = c->update && c->update < c->size;
    if (a->kind == SK_CTR && pieces) {
        speed_why(why, whylen, "the job API takes whole messages");
        return NULL;
    }
    if (a->kind == SK_CMAC && (a->bits == 192 || pieces)) {
        speed_why(why, whylen, "%s", pieces ? "the job API takes whole messages"
                                            : "ipsec-mb has no AES-192 CMAC");
        return NULL;
    }
    mb_state *s = aligned_alloc(64, (sizeof(mb_state) + 63) & ~(size_t)63);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->c = c;
    s->multibuf = multibuf;
    s->arch = arch;
    if (!lib_ready()) {
        speed_why(why, whylen, "the ipsec-mb library was refused (see above)");
        free(s);
        return NULL;
    }
    s->mgr = mb_mgr(arch, why, whylen);
    if (!s->mgr) {
        free(s);
        return NULL;
    }
    if (multibuf && c->batch) {
        s->tagv = aligned_alloc(64, ((c->batch * 16) + 63) & ~(size_t)63);
        if (!s->tagv) {
            lib.free(s->mgr);
            free(s);
            return NULL;
        }
    }
    IMB_MGR *g = s->mgr;
    if (a->kind == SK_CMAC) {
        if (a->bits == 128) {
            IMB_AES_KEYEXP_128(g, key, s->enc_keys, s->dec_keys);
            IMB_AES_CMAC_SUBKEY_GEN_128(g, s->enc_keys, s->k1, s->k2);
            s->hash_alg = IMB_AUTH_AES_CMAC;
        } else {
            IMB_AES_KEYEXP_256(g, key, s->enc_keys, s->dec_keys);
            IMB_AES_CMAC_SUBKEY_GEN_256(g, s->enc_keys, s->k1, s->k2);
            s->hash_alg = IMB_AUTH_AES_CMAC_256;
        }
        return s;
    }
    if (a->kind == SK_CTR || a->kind == SK_CBC) {
        if (a->bits == 128)
            IMB_AES_KEYEXP_128(g, key, s->enc_keys, s->dec_keys);
        else if (a->bits == 192)
            IMB_AES_KEYEXP_192(g, key, s->enc_keys, s->dec_keys);
        else
            IMB_AES_KEYEXP_256(g, key, s->enc_keys, s->dec_keys);
        return s;
    }
    if (a->kind == SK_RFC4106)
        memcpy(s->salt, key + a->key_len - 4, 4);
#define MB_PICK(N)                                                                                 \
    do {                                                                                           \
        IMB_AES##N##_GCM_PRE(g, key, &s->gk);                                                      \
        s->enc = g->gcm##N##_enc;                                                                  \
        s->dec = g->gcm##N##_dec;                                                                  \
        s->init = g->gcm##N##_init_var_iv;                                                         \
        s->enc_upd = g->gcm##N##_enc_update;                                                       \
        s->dec_upd = g->gcm##N##_dec_update;                                                       \
        s->enc_fin = g->gcm##N##_enc_finalize;                                                     \
        s->dec_fin = g->gcm##N##_dec_finalize;                                                     \
        s->gmac_init = g->gmac##N##_init;                                                          \
        s->gmac_upd = g->gmac##N##_update;                                                         \
        s->gmac_fin = g->gmac##N##_finalize;                                                       \
    } while (0)
    if (a->bits == 128)
        MB_PICK(128);
    else if (a->bits == 192)
        MB_PICK(192);
    else
        MB_PICK(256);
#undef MB_PICK
    return s;
}

static void *mb_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    return setup_common(c, key, why, whylen, 0, MB_AUTO);
}

static void *mbm_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    return setup_common(c, key, why, whylen, 1, MB_AUTO);
}

static void *sse_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    return setup_common(c, key, why, whylen, 0, MB_SSE);
}

static void *avx2_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    return setup_common(c, key, why, whylen, 0, MB_AVX2);
}

static void *avx512_setup(const speed_cell *c, const uint8_t *key, char *why, size_t whylen)
{
    return setup_common(c, key, why, whylen, 0, MB_AVX512);
}

static void fill_cmac_job(mb_state *s, IMB_JOB *j, const speed_msg *m, uint8_t *tag)
{
    j->cipher_mode = IMB_CIPHER_NULL;
    j->cipher_direction = IMB_DIR_ENCRYPT;
    j->chain_order = IMB_ORDER_HASH_CIPHER;
    j->hash_alg = s->hash_alg;
    j->src = m->in;
    j->hash_start_src_offset_in_bytes = 0;
    j->msg_len_to_hash_in_bytes = m->len;
    j->u.CMAC._key_expanded = s->enc_keys;
    j->u.CMAC._skey1 = s->k1;
    j->u.CMAC._skey2 = s->k2;
    j->auth_tag_output = tag;
    j->auth_tag_output_len_in_bytes = 16;
    j->user_data = (void *)m->tag;
    j->user_data2 = tag;
}

/* CTR over the whole message: the 16-byte IV is the first counter block.
 * The cipher direction does not matter for CTR (encrypt = decrypt). */
static void fill_ctr_job(mb_state *s, IMB_JOB *j, const speed_msg *m)
{
    j->cipher_mode = IMB_CIPHER_CNTR;
    j->cipher_direction = IMB_DIR_ENCRYPT;
    j->chain_order = IMB_ORDER_CIPHER_HASH;
    j->hash_alg = IMB_AUTH_NULL;
    j->src = m->in;
    j->dst = m->out;
    j->cipher_start_src_offset_in_bytes = 0;
    j->msg_len_to_cipher_in_bytes = m->len;
    j->enc_keys = s->enc_keys;
    j->dec_keys = s->dec_keys;
    j->key_len_in_bytes = (uint64_t)s->c->alg->bits / 8;
    j->iv = m->iv;
    j->iv_len_in_bytes = 16;
    j->user_data = NULL;
    j->user_data2 = NULL;
}

/* GCM as a job (IMB_CIPHER_GCM with IMB_AUTH_AES_GMAC): decryption hashes
 * first, the computed tag goes to tag and is compared with m->tag. */
static void fill_gcm_job(mb_state *s, IMB_JOB *j, const speed_msg *m, uint8_t *out,
                         uint8_t *tag, int dec)
{
    j->cipher_mode = IMB_CIPHER_GCM;
    j->hash_alg = IMB_AUTH_AES_GMAC;
    j->cipher_direction = dec ? IMB_DIR_DECRYPT : IMB_DIR_ENCRYPT;
    j->chain_order = dec ? IMB_ORDER_HASH_CIPHER : IMB_ORDER_CIPHER_HASH;
    j->enc_keys = &s->gk;
    j->dec_keys = &s->gk;
    j->key_len_in_bytes = (uint64_t)s->c->alg->bits / 8;
    j->src = m->in;
    j->dst = out;
    j->cipher_start_src_offset_in_bytes = 0;
    j->msg_len_to_cipher_in_bytes = m->len;
    j->hash_start_src_offset_in_bytes = 0;
    j->msg_len_to_hash_in_bytes = m->len;
    j->iv = m->iv;
    j->iv_len_in_bytes = 12;
    j->u.GCM.aad = m->aad;
    j->u.GCM.aad_len_in_bytes = m->aad_len;
    j->auth_tag_output = tag;
    j->auth_tag_output_len_in_bytes = 16;
    j->user_data = (void *)m->tag;
    j->user_data2 = tag;
}

/* Raw CBC over whole blocks, the 16-byte IV as the chaining value. */
static void fill_cbc_job(mb_state *s, IMB_JOB *j, const speed_msg *m, uint8_t *out, int dec)
{
    j->cipher_mode = IMB_CIPHER_CBC;
    j->hash_alg = IMB_AUTH_NULL;
    j->cipher_direction = dec ? IMB_DIR_DECRYPT : IMB_DIR_ENCRYPT;
    j->chain_order = dec ? IMB_ORDER_HASH_CIPHER : IMB_ORDER_CIPHER_HASH;
    j->enc_keys = s->enc_keys;
    j->dec_keys = s->dec_keys;
    j->key_len_in_bytes = (uint64_t)s->c->alg->bits / 8;
    j->src = m->in;
    j->dst = out;
    j->cipher_start_src_offset_in_bytes = 0;
    j->msg_len_to_cipher_in_bytes = m->len;
    j->iv = m->iv;
    j->iv_len_in_bytes = 16;
    j->user_data = NULL;
    j->user_data2 = NULL;
}

/* A completed job: its status, and its tag against the expected one. */
static int job_bad(const IMB_JOB *j, int verify)
{
    if (j->status != IMB_STATUS_COMPLETED)
        return 1;
    return verify && speed_ct_differ(j->user_data2, j->user_data, 16);
}

static inline int one(mb_state *s, const speed_msg *m)
{
    const speed_cell *c = s->c;
    int dec = c->decrypt, bad = 0;
    uint8_t t[16];
    size_t off, n;
    const uint8_t *iv = m->iv;
    uint8_t nonce[12];
    switch (c->alg->kind) {
    case SK_RFC4106:
        iv = speed_rfc4106_nonce(nonce, s->salt, m->iv);
        /* fall through */
    case SK_GCM:
        if (!m->update) {
            if (dec)
                s->dec(&s->gk, &s->gc, m->out, m->in, m->len, iv, m->aad, m->aad_len, t, 16);
            else
                s->enc(&s->gk, &s->gc, m->out, m->in, m->len, iv, m->aad, m->aad_len, m->tag, 16);
        } else {
            s->init(&s->gk, &s->gc, iv, 12, m->aad, m->aad_len);
            for (off = 0; off < m->len; off += n) {
                n = speed_piece(m->len - off, m->update);
                if (dec)
                    s->dec_upd(&s->gk, &s->gc, m->out + off, m->in + off, n);
                else
                    s->enc_upd(&s->gk, &s->gc, m->out + off, m->in + off, n);
            }
            if (dec)
                s->dec_fin(&s->gk, &s->gc, t, 16);
            else
                s->enc_fin(&s->gk, &s->gc, m->tag, 16);
        }
        return dec ? speed_ct_differ(t, m->tag, 16) : 0;
    case SK_GMAC:
        s->gmac_init(&s->gk, &s->gc, iv, 12);
        for (off = 0; off < m->len; off += n) {
            n = speed_piece(m->len - off, m->update);
            s->gmac_upd(&s->gk, &s->gc, m->in + off, n);
        }
        s->gmac_fin(&s->gk, &s->gc, dec ? t : m->tag, 16);
        return dec ? speed_ct_differ(t, m->tag, 16) : 0;
    case SK_CTR:
    case SK_CMAC: {
        int ctr = c->alg->kind == SK_CTR;
        IMB_JOB *j = IMB_GET_NEXT_JOB(s->mgr);
        if (ctr)
            fill_ctr_job(s, j, m);
        else
            fill_cmac_job(s, j, m, dec ? t : m->tag);
        j = IMB_SUBMIT_JOB(s->mgr);
        while (j) {
            bad |= job_bad(j, dec && !ctr);
            j = IMB_GET_COMPLETED_JOB(s->mgr);
        }
        while ((j = IMB_FLUSH_JOB(s->mgr)) != NULL)
            bad |= job_bad(j, dec && !ctr);
        return bad;
    }
    default:
        return 1;
    }
}

SPEED_RUN_LOOP(mb_run, one)

/* Multi-buffer: submit every message of the batch, collect what completes,
 * flush at the end.  Each job has its own tag slot (the manager may hold up
 * to its lane count of jobs; 64 slots is more than any lane count). */
static int mbm_batch_run(mb_state *s, const speed_buf *b, size_t first, size_t n);

static int mbm_run(void *st, const speed_buf *b, size_t first, size_t n)
{
    mb_state *s = st;
    int bad = 0, dec = b->cell->decrypt;
    speed_msg m;
    IMB_JOB *j;
    if (b->cell->batch)
        return mbm_batch_run(s, b, first, n);
    for (size_t i = first; i < first + n; i++) {
        speed_msg_at(b, i, &m);
        j = IMB_GET_NEXT_JOB(s->mgr);
        fill_cmac_job(s, j, &m, dec ? s->tags[i % 64] : m.tag);
        j = IMB_SUBMIT_JOB(s->mgr);
        while (j) {
            bad |= job_bad(j, dec);
            j = IMB_GET_COMPLETED_JOB(s->mgr);
        }
    }
    while ((j = IMB_FLUSH_JOB(s->mgr)) != NULL)
        bad |= job_bad(j, dec);
    return bad;
}

/* --batch N: N jobs submitted back to back, then flushed, so the manager
 * interleaves up to its lane count of them, as aeskit's batch call may.
 * Job k of a group writes output slot k and tag slot k; a group of one
 * (the cross-check) writes b->out and the message's tag. */
static int mbm_batch_run(mb_state *s, const speed_buf *b, size_t first, size_t n)
{
    const speed_cell *c = b->cell;
    const int dec = c->decrypt;
    const int verify = dec && (c->alg->kind == SK_GCM || c->alg->kind == SK_CMAC);
    int bad = 0;
    speed_msg m;
    IMB_JOB *j;
    for (size_t g = first; g < first + n; g += c->batch) {
        size_t k = first + n - g < c->batch ? first + n - g : c->batch;
        for (size_t q = 0; q < k; q++) {
            if (k == 1)
                speed_msg_at(b, g + q, &m);
            else /* slot q, as aeskit's batch rows (impl_aeskit.c, batch_msg) */
                speed_msg_src(b, g + q, &m);
            uint8_t *out = k == 1 ? m.out : b->out + q * b->out_stride;
            uint8_t *tag = (k == 1 && !dec) ? m.tag : s->tagv[q];
            j = IMB_GET_NEXT_JOB(s->mgr);
            switch (c->alg->kind) {
            case SK_GCM: fill_gcm_job(s, j, &m, out, tag, dec); break;
            case SK_CBC: fill_cbc_job(s, j, &m, out, dec); break;
            case SK_CTR: fill_ctr_job(s, j, &m); j->dst = out; break;
            default: fill_cmac_job(s, j, &m, tag); break;
            }
            j = IMB_SUBMIT_JOB(s->mgr);
            while (j) {
                bad |= job_bad(j, verify);
                j = IMB_GET_COMPLETED_JOB(s->mgr);
            }
        }
        while ((j = IMB_FLUSH_JOB(s->mgr)) != NULL)
            bad |= job_bad(j, verify);
    }
    return bad;
}

const speed_peer speed_peer_ipsecmb = {"ipsec-mb", mb_version, mb_setup, mb_run, mb_done, 0};
const speed_peer speed_peer_ipsecmb_jobs = {"ipsec-mb-multibuf", mb_version, mbm_setup, mbm_run,
                                            mb_done, 1};
const speed_peer speed_peer_ipsecmb_sse = {"ipsec-mb-sse", sse_version, sse_setup, mb_run, mb_done,
                                           0};
const speed_peer speed_peer_ipsecmb_avx2 = {"ipsec-mb-avx2", avx2_version, avx2_setup, mb_run,
                                            mb_done, 0};
const speed_peer speed_peer_ipsecmb_avx512 = {"ipsec-mb-avx512", avx512_version, avx512_setup,
                                              mb_run, mb_done, 0};
