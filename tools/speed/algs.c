/* algs.c - the algorithms `aeskit speed` knows, and the buffers of a cell. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

/* name, tcrypt name, bench-slope name, kind, bits, key bytes, iv bytes,
 * tag, out, aad, blocks only, min size, streaming, output bytes beyond len */
#define AK_ALGS(B, KB)                                                                        \
    {"aes-" #B "-gcm", "gcm(aes)", "GCM", SK_GCM, B, KB, 12, 1, 1, 1, 0, 1, 1, 0},               \
    {"aes-" #B "-gmac", "gmac(aes)", "GMAC", SK_GMAC, B, KB, 12, 1, 0, 0, 0, 1, 1, 0},           \
    {"aes-" #B "-rfc4106", "rfc4106(gcm(aes))", "RFC4106", SK_RFC4106, B, KB + 4, 8, 1, 1, 1, \
     0, 1, 0, 0},                                                                                \
    {"aes-" #B "-ccm", "ccm(aes)", "CCM", SK_CCM, B, KB, 12, 1, 1, 1, 0, 1, 0, 0},               \
    {"aes-" #B "-cmac", "cmac(aes)", "CMAC", SK_CMAC, B, KB, 0, 1, 0, 0, 0, 1, 1, 0},            \
    {"aes-" #B "-cbc-mac", "cbcmac(aes)", "CBC-MAC", SK_CBCMAC, B, KB, 0, 1, 0, 0, 1, 16, 1, 0}, \
    {"aes-" #B "-ctr", "ctr(aes)", "CTR", SK_CTR, B, KB, 16, 0, 1, 0, 0, 1, 1, 0},               \
    {"aes-" #B "-cbc", "cbc(aes)", "CBC", SK_CBC, B, KB, 16, 0, 1, 0, 1, 16, 1, 0},              \
    {"aes-" #B "-xts", "xts(aes)", "XTS", SK_XTS, B, 2 * KB, 16, 0, 1, 0, 0, 16, 0, 0},          \
    {"aes-" #B "-ecb", "ecb(aes)", "ECB", SK_ECB, B, KB, 0, 0, 1, 0, 1, 16, 1, 0}

/* The modes of issue 15 (GCM-SIV has no AES-192: AK_GCMSIV separately).
 * KW takes whole semiblocks, here whole blocks (blocks_only); KWP any
 * length; CBC-CTS at least one block. */
#define AK_GCMSIV(B, KB) \
    {"aes-" #B "-gcm-siv", "gcm-siv(aes)", "GCM-SIV", SK_GCMSIV, B, KB, 12, 1, 1, 1, 0, 1, 0, 0}
#define AK_MODES15(B, KB)                                                                     \
    {"aes-" #B "-ocb", "ocb(aes)", "OCB", SK_OCB, B, KB, 12, 1, 1, 1, 0, 1, 0, 0},             \
    {"aes-" #B "-eax", "eax(aes)", "EAX", SK_EAX, B, KB, 12, 1, 1, 1, 0, 1, 0, 0},             \
    {"aes-" #B "-siv", "siv(aes)", "SIV", SK_SIV, B, 2 * KB, 12, 1, 1, 1, 0, 1, 0, 0},         \
    {"aes-" #B "-kw", "kw(aes)", "AESWRAP", SK_KW, B, KB, 0, 0, 1, 0, 1, 16, 0, 8},           \
    {"aes-" #B "-kwp", "kwp(aes)", "AESWRAP-PAD", SK_KWP, B, KB, 0, 0, 1, 0, 0, 1, 0, 15},    \
    {"aes-" #B "-cfb", "cfb(aes)", "CFB", SK_CFB, B, KB, 16, 0, 1, 0, 0, 1, 1, 0},            \
    {"aes-" #B "-cfb8", "cfb8(aes)", "CFB8", SK_CFB8, B, KB, 16, 0, 1, 0, 0, 1, 1, 0},        \
    {"aes-" #B "-ofb", "ofb(aes)", "OFB", SK_OFB, B, KB, 16, 0, 1, 0, 0, 1, 1, 0},            \
    {"aes-" #B "-cbc-cts", "cts(cbc(aes))", "CBC-CTS", SK_CTS, B, KB, 16, 0, 1, 0, 0, 16, 0, 0}

const speed_alg speed_algs[] = {AK_ALGS(128, 16),   AK_ALGS(192, 24),   AK_ALGS(256, 32),
                                AK_GCMSIV(128, 16), AK_GCMSIV(256, 32), AK_MODES15(128, 16),
                                AK_MODES15(192, 24), AK_MODES15(256, 32)};
const size_t speed_nalgs = sizeof speed_algs / sizeof speed_algs[0];

/* "aes-128-gcm", or a bare mode name ("gcm", "cmac") meaning AES-128. */
const speed_alg *speed_alg_find(const char *name)
{
    char full[64];
    if (strlen(name) > 40)
        return NULL;
    char low[48];
    size_t i = 0;
    for (; name[i]; i++)
        low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
    low[i] = 0;
    snprintf(full, sizeof full, "%s%s", strncmp(low, "aes-", 4) ? "aes-128-" : "", low);
    char *cm = strstr(full, "cbcmac"); /* the kernel's spelling */
    if (cm) {
        memmove(cm + 4, cm + 3, strlen(cm + 3) + 1);
        cm[3] = '-';
    }
    for (i = 0; i < speed_nalgs; i++)
        if (!strcmp(speed_algs[i].name, full))
            return &speed_algs[i];
    return NULL;
}

const char *speed_op_name(const speed_cell *c)
{
    const speed_alg *a = c->alg;
    if (!a->has_out)
        return c->decrypt ? "verify" : "mac";
    return c->decrypt ? "dec" : "enc";
}

int speed_cell_valid(const speed_cell *c, const char **why)
{
    const speed_alg *a = c->alg;
    if (c->size < a->min_size) {
        *why = "below the mode's minimum size";
        return 0;
    }
    if (a->blocks_only && c->size % 16) {
        *why = "not a whole number of blocks";
        return 0;
    }
    if (c->update && !a->can_stream) {
        *why = "no streaming interface";
        return 0;
    }
    if (c->update && a->blocks_only && c->update % 16) {
        *why = "update not a whole number of blocks";
        return 0;
    }
    return 1;
}

/* Deterministic filler: the content does not matter for speed, but every
 * implementation must see the same bytes so outputs can be compared. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)(x >> 11);
    }
}

int speed_buf_init(speed_buf *b, const speed_cell *c)
{
    memset(b, 0, sizeof *b);
    b->cell = c;
    fill(b->key, sizeof b->key, 1);
    fill(b->iv0, sizeof b->iv0, 2);
    /* the larger of a message and its output (key wrap adds up to 15 bytes) */
    size_t n = speed_out_len(c->alg, 0, c->size);
    n = n ? n : 1;
    /* 64-byte aligned like a typical packet buffer; a cache line apart */
    b->aad = aligned_alloc(64, 64 + ((c->aad_len + 63) & ~(size_t)63));
    b->plain = aligned_alloc(64, (n + 63) & ~(size_t)63);
    size_t slots = c->batch > 1 ? c->batch : 1;
    b->out_stride = (n + 63) & ~(size_t)63;
    b->slot_magic = slots > 1 ? UINT64_MAX / slots + 1 : 0;
    b->out = aligned_alloc(64, slots * b->out_stride);
    b->tag_outs = aligned_alloc(64, ((slots * 16) + 63) & ~(size_t)63);
    b->ivs = aligned_alloc(64, SPEED_IV_RING * 16);
    if (!b->aad || !b->plain || !b->out || !b->ivs || !b->tag_outs)
        return -1;
    memset(b->out, 0, slots * b->out_stride);
    for (size_t j = 0; j < SPEED_IV_RING; j++) {
        memcpy(b->ivs[j], b->iv0, 16);
        b->ivs[j][0] = (uint8_t)(j >> 24);
        b->ivs[j][1] = (uint8_t)(j >> 16);
        b->ivs[j][2] = (uint8_t)(j >> 8);
        b->ivs[j][3] = (uint8_t)j;
    }
    fill(b->aad, c->aad_len, 3);
    fill(b->plain, c->size, 4);
    memset(b->out, 0, n);
    if (c->decrypt) {
        for (int j = 0; j < SPEED_POOL; j++) {
            b->ct[j] = aligned_alloc(64, (n + 63) & ~(size_t)63);
            if (!b->ct[j])
                return -1;
            memcpy(b->ct[j], b->plain, c->size);
        }
    }
    return 0;
}

void speed_buf_free(speed_buf *b)
{
    free(b->aad);
    free(b->plain);
    free(b->out);
    free(b->tag_outs);
    free(b->ivs);
    for (int j = 0; j < SPEED_POOL; j++)
        free(b->ct[j]);
    memset(b, 0, sizeof *b);
}

int speed_ct_differ(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= a[i] ^ b[i];
    return d != 0;
}

void speed_why(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || !whylen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}
