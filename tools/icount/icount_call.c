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
 * usage: aeskit-icount-call [--open] [--aad N] [--key 16|24|32] LEN
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aeskit.h"

static uint8_t in[65536], out[65536], aad[4096], tag[16];

__attribute__((noinline)) aeskit_status measured_call(const aeskit_gcm_key *k, const uint8_t *iv,
                                                      size_t aad_len, size_t len, int open)
{
    if (open)
        return aeskit_gcm_open(k, out, in, len, tag, 16, iv, 12, aad, aad_len);
    return aeskit_gcm_seal(k, out, tag, 16, in, len, iv, 12, aad, aad_len);
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
        else if (argv[i][0] != '-' && !have_len) {
            len = strtoul(argv[i], NULL, 10);
            have_len = 1;
        } else {
            fprintf(stderr, "usage: %s [--open] [--aad N] [--key 16|24|32] LEN\n", argv[0]);
            return 2;
        }
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
    if (open)
        memcpy(in, out, len);
    aeskit_status st = measured_call(&k, iv, aad_len, len, open);
    printf("status %d\n", (int)st);
    return st == AESKIT_OK ? 0 : 1;
}
