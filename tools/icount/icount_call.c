/*
 * icount_call.c - the program tools/icount/icount.py steps through: one
 * whole-message AES-GCM call (seal, or open with --open) at a given size,
 * after three warm-up calls, inside measured_call() so that the script
 * knows where the call starts and ends.
 *
 * Why count instructions: at 16-64 bytes a GCM call is bound by how many
 * instructions the core can issue per cycle (about six on the machine of
 * the README), and this machine's timings drift by up to 2x, while an
 * instruction count is the same on every run.  valgrind cannot run the
 * VAES/AVX-512 code, so the script single-steps under gdb instead.
 *
 * With --batch N the call is one aeskit_gcm_seal_batch (or _open_batch)
 * of N such messages, each with its own output and tag, as
 * `aeskit speed --batch N` measures: divide by N for a message's share.
 *
 * usage: aeskit-icount-call [--open] [--aad N] [--key 16|24|32] [--batch N] LEN
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"

static uint8_t in[65536], out[65536], aad[4096], tag[16];

#define MAX_BATCH 64
static aeskit_gcm_msg bm[MAX_BATCH];
static uint8_t btag[MAX_BATCH][16];

static size_t batch; /* --batch N: messages per batch call, 0 for a single call */

__attribute__((noinline)) aeskit_status measured_call(const aeskit_gcm_key *k, const uint8_t *iv,
                                                      size_t aad_len, size_t len, int open)
{
    if (batch)
        return open ? aeskit_gcm_open_batch(bm, batch) : aeskit_gcm_seal_batch(bm, batch);
    if (open)
        return aeskit_gcm_open(k, out, in, len, tag, 16, iv, 12, aad, aad_len);
    return aeskit_gcm_seal(k, out, tag, 16, in, len, iv, 12, aad, aad_len);
}

/* n messages of len bytes side by side in in/out (len * n fits). */
static void batch_setup(const aeskit_gcm_key *k, const uint8_t *iv, size_t aad_len, size_t len, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        aeskit_gcm_msg *m = &bm[i];
        memset(m, 0, sizeof *m);
        m->key = k;
        m->in = in + i * len;
        m->out = out + i * len;
        m->len = len;
        m->iv = iv;
        m->iv_len = 12;
        m->aad = aad;
        m->aad_len = aad_len;
        m->tag = btag[i];
        m->tag_len = 16;
    }
}

int main(int argc, char **argv)
{
    size_t aad_len = 16, key_len = 16, len = 16;
    int open = 0, have_len = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--open"))
            open = 1;
        else if (!strcmp(argv[i], "--aad") && i + 1 < argc)
            aad_len = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--key") && i + 1 < argc)
            key_len = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
            batch = strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && !have_len) {
            len = strtoul(argv[i], NULL, 10);
            have_len = 1;
        } else {
            fprintf(stderr, "usage: %s [--open] [--aad N] [--key 16|24|32] [--batch N] LEN\n", argv[0]);
            return 2;
        }
    }
    if (batch > MAX_BATCH || (batch && len * batch > sizeof in)) {
        fprintf(stderr, "--batch at most %d, and LEN * N at most %zu\n", MAX_BATCH, sizeof in);
        return 2;
    }
    if (len > sizeof in || aad_len > sizeof aad) {
        fprintf(stderr, "LEN at most %zu, AAD at most %zu\n", sizeof in, sizeof aad);
        return 2;
    }
    static const uint8_t key[32] = {1, 2, 3}, iv[12] = {4, 5, 6};
    aeskit_gcm_key k;
    if (aeskit_gcm_init(&k, key, key_len) != AESKIT_OK) {
        fprintf(stderr, "bad key length\n");
        return 2;
    }
    /* warm-up; for --open, the ciphertext and tag the measured open accepts */
    for (int i = 0; i < 3; i++)
        if (aeskit_gcm_seal(&k, out, tag, 16, in, len, iv, 12, aad, aad_len) != AESKIT_OK) {
            fprintf(stderr, "warm-up seal failed\n");
            return 1;
        }
    if (batch) {
        batch_setup(&k, iv, aad_len, len, batch);
        for (int i = 0; i < 3; i++)
            if (aeskit_gcm_seal_batch(bm, batch) != AESKIT_OK) {
                fprintf(stderr, "warm-up batch failed\n");
                return 1;
            }
        if (open) {
            memcpy(in, out, len * batch);
            for (size_t i = 0; i < batch; i++)
                bm[i].tag = btag[i]; /* the seal's tags, now expected */
        }
    } else if (open) {
        memcpy(in, out, len);
    }
    aeskit_status st = measured_call(&k, iv, aad_len, len, open);
    printf("status %d\n", (int)st);
    return st == AESKIT_OK ? 0 : 1;
}
