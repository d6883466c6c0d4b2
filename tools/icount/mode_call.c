/*
 * mode_call.c - the program scripts/qemu-icount.sh runs under qemu-user's
 * execution log: one bulk call of a mode (AES-128) on LEN bytes with a
 * named backend.  The script counts the guest instructions of two runs of
 * different LEN and divides the difference by the difference in bytes, so
 * start-up, key set-up and the call's fixed cost cancel.
 *
 * usage: aeskit-mode-call ctr|gcm|cbc|cbcdec|xts BACKEND LEN
 *
 * GCM batches (issue 16): modes gcmbatch:S and gcmsingle:S seal LEN
 * messages of S bytes each (16 bytes of AAD, one key object, distinct
 * 12-byte IVs, outputs side by side), in one aeskit_gcm_seal_batch call or
 * in LEN aeskit_gcm_seal calls; the script's difference of two runs over
 * LEN is then the instructions of one message.  gcmbatch:S:open and
 * gcmsingle:S:open then open the sealed messages the same way (in place,
 * one aeskit_gcm_open_batch call or LEN aeskit_gcm_open calls): their
 * count less that of the seal alone is one message's open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"

static uint8_t in[1 << 17], out[1 << 17];

#define MC_MSGS 256 /* messages of a gcmbatch / gcmsingle run */
static aeskit_gcm_msg msgs[MC_MSGS];
static uint8_t ivs[MC_MSGS][12], tags[MC_MSGS][16], aad[16];

/* LEN messages of s bytes each in one batch call (batch) or one call each;
 * open: then opened again the same way, in place */
static aeskit_status gcm_msgs_run(const char *be, const uint8_t *key, size_t s, size_t n, int batch, int open)
{
    static aeskit_gcm_key gk;
    if (n > MC_MSGS || s * n > sizeof in)
        return AESKIT_ERR_LENGTH;
    aeskit_status st = aeskit_gcm_init_backend(&gk, key, 16, be);
    for (size_t i = 0; i < n && st == AESKIT_OK; i++) {
        memset(ivs[i], (int)i, 12);
        msgs[i] = (aeskit_gcm_msg){.key = &gk, .out = out + s * i, .tag = tags[i], .tag_len = 16,
                                   .in = in + s * i, .len = s, .iv = ivs[i], .iv_len = 12,
                                   .aad = aad, .aad_len = sizeof aad};
        if (!batch)
            st = aeskit_gcm_seal(&gk, out + s * i, tags[i], 16, in + s * i, s, ivs[i], 12, aad, sizeof aad);
    }
    if (batch && st == AESKIT_OK)
        st = aeskit_gcm_seal_batch(msgs, n);
    if (!open || st != AESKIT_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        msgs[i].in = msgs[i].out;
        if (!batch && st == AESKIT_OK)
            st = aeskit_gcm_open(&gk, out + s * i, out + s * i, s, tags[i], 16, ivs[i], 12, aad, sizeof aad);
    }
    if (batch && st == AESKIT_OK)
        st = aeskit_gcm_open_batch(msgs, n);
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: aeskit-mode-call ctr|gcm|cbc|cbcdec|xts BACKEND LEN\n");
        return 2;
    }
    const char *mode = argv[1], *be = argv[2];
    size_t len = (size_t)strtoul(argv[3], NULL, 10);
    const int gbatch = !strncmp(mode, "gcmbatch:", 9), gsingle = !strncmp(mode, "gcmsingle:", 10);
    if (!gbatch && !gsingle && (len > sizeof in || len % 16)) {
        fprintf(stderr, "LEN: a multiple of 16 up to %zu\n", sizeof in);
        return 2;
    }
    uint8_t key[32], iv[16], tag[16];
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(i * 7 + 1);
    memset(iv, 0x5a, sizeof iv);
    for (size_t i = 0; i < len; i++)
        in[i] = (uint8_t)i;
    aeskit_status st;
    if (gbatch || gsingle) {
        const size_t s = (size_t)strtoul(mode + (gbatch ? 9 : 10), NULL, 10);
        const char *tail = strchr(mode + (gbatch ? 9 : 10), ':');
        st = gcm_msgs_run(be, key, s, len, gbatch, tail && !strcmp(tail, ":open"));
        len = s * len;
    } else if (!strcmp(mode, "gcm")) {
        static aeskit_gcm_key gk;
        st = aeskit_gcm_init_backend(&gk, key, 16, be);
        if (st == AESKIT_OK)
            st = aeskit_gcm_seal(&gk, out, tag, 16, in, len, iv, 12, NULL, 0);
    } else if (!strcmp(mode, "xts")) {
        static aeskit_xts_key xk;
        st = aeskit_xts_init_backend(&xk, key, 32, be);
        if (st == AESKIT_OK)
            st = aeskit_xts_encrypt(&xk, out, in, len, iv);
    } else {
        static aeskit_aes_key k;
        st = aeskit_aes_init_backend(&k, key, 16, be);
        if (st == AESKIT_OK) {
            if (!strcmp(mode, "ctr"))
                st = aeskit_ctr_crypt(&k, out, in, len, iv);
            else if (!strcmp(mode, "cbc"))
                st = aeskit_cbc_encrypt(&k, out, in, len, iv);
            else if (!strcmp(mode, "cbcdec"))
                st = aeskit_cbc_decrypt(&k, out, in, len, iv);
            else
                st = AESKIT_ERR_ARGUMENT;
        }
    }
    if (st != AESKIT_OK) {
        fprintf(stderr, "%s on %s: %s\n", mode, be, aeskit_strerror(st));
        return 1;
    }
    printf("%02x%02x\n", out[0], out[len ? len - 1 : 0]);
    return 0;
}
