/*
 * block_counts.c - every way of splitting a message into calls gives the same
 * bytes, under the backend named by AESKIT_BACKEND (issue 19).  Backends pick
 * different kernels by the number of blocks in a call (generic: a
 * single-block kernel for one block and the serial modes, bitsliced batches
 * otherwise; x86-ssse3: steps of 8 blocks in ymm with AVX2, then 4, 2 and 1),
 * so this checks the kernels against each other at every count up to a few
 * batches, for the three key sizes, needing no oracle (it runs under qemu
 * too):
 * - ECB over n blocks in one call = n one-block calls, both directions, and
 *   decryption inverts encryption;
 * - CBC encryption in one call = chaining one-block ECB calls by hand; CBC
 *   decryption in one call and block by block both give the plaintext back;
 * - CBC-MAC over n blocks = the same chaining by hand.
 */
#include "harness.h"

#define MAXB 80

static uint8_t pt[16 * MAXB], ct[16 * MAXB], ref[16 * MAXB], tmp[16 * MAXB];

static void check_key(const char *be, size_t klen)
{
    uint8_t key[32], iv[16], chain[16], st[16];
    aeskit_aes_key k;
    th_fill(key, klen);
    if (aeskit_aes_init_backend(&k, key, klen, be) != AESKIT_OK) {
        TH_CHECK(0, "init k=%zu", klen);
        return;
    }
    for (size_t n = 1; n <= MAXB; n++) {
        th_fill(pt, 16 * n);
        th_fill(iv, 16);
        /* ECB: one call against one-block calls */
        TH_CHECK(aeskit_ecb_encrypt(&k, ct, pt, 16 * n) == AESKIT_OK, "ecb n=%zu", n);
        for (size_t i = 0; i < n; i++)
            TH_CHECK(aeskit_ecb_encrypt(&k, ref + 16 * i, pt + 16 * i, 16) == AESKIT_OK, "ecb");
        TH_CHECK_MEM(ct, ref, 16 * n, "ECB enc k=%zu n=%zu", klen, n);
        TH_CHECK(aeskit_ecb_decrypt(&k, tmp, ct, 16 * n) == AESKIT_OK, "ecb dec");
        TH_CHECK_MEM(tmp, pt, 16 * n, "ECB dec k=%zu n=%zu", klen, n);
        for (size_t i = 0; i < n; i++)
            TH_CHECK(aeskit_ecb_decrypt(&k, tmp + 16 * i, ct + 16 * i, 16) == AESKIT_OK, "ecb dec");
        TH_CHECK_MEM(tmp, pt, 16 * n, "ECB 1-block dec k=%zu n=%zu", klen, n);
        /* CBC encryption against chaining by hand */
        memcpy(chain, iv, 16);
        for (size_t i = 0; i < n; i++) {
            uint8_t x[16];
            for (int j = 0; j < 16; j++)
                x[j] = chain[j] ^ pt[16 * i + j];
            TH_CHECK(aeskit_ecb_encrypt(&k, ref + 16 * i, x, 16) == AESKIT_OK, "ecb");
            memcpy(chain, ref + 16 * i, 16);
        }
        memcpy(st, iv, 16);
        TH_CHECK(aeskit_cbc_encrypt(&k, ct, pt, 16 * n, st) == AESKIT_OK, "cbc n=%zu", n);
        TH_CHECK_MEM(ct, ref, 16 * n, "CBC enc k=%zu n=%zu", klen, n);
        TH_CHECK_MEM(st, chain, 16, "CBC enc chaining value k=%zu n=%zu", klen, n);
        /* CBC decryption, one call and block by block */
        memcpy(st, iv, 16);
        TH_CHECK(aeskit_cbc_decrypt(&k, tmp, ct, 16 * n, st) == AESKIT_OK, "cbc dec");
        TH_CHECK_MEM(tmp, pt, 16 * n, "CBC dec k=%zu n=%zu", klen, n);
        TH_CHECK_MEM(st, chain, 16, "CBC dec chaining value k=%zu n=%zu", klen, n);
        memcpy(st, iv, 16);
        for (size_t i = 0; i < n; i++)
            TH_CHECK(aeskit_cbc_decrypt(&k, tmp + 16 * i, ct + 16 * i, 16, st) == AESKIT_OK, "cbc dec");
        TH_CHECK_MEM(tmp, pt, 16 * n, "CBC 1-block dec k=%zu n=%zu", klen, n);
        /* CBC-MAC: the last CBC ciphertext block is the CBC-MAC state */
        memcpy(st, iv, 16);
        TH_CHECK(aeskit_cbcmac_blocks(&k, st, pt, 16 * n) == AESKIT_OK, "cbcmac n=%zu", n);
        TH_CHECK_MEM(st, chain, 16, "CBC-MAC k=%zu n=%zu", klen, n);
    }
    aeskit_aes_wipe(&k);
}

int main(void)
{
    const char *be = th_backend();
    th_seed(0xb10c19ull);
    for (size_t klen = 16; klen <= 32; klen += 8)
        check_key(be, klen);
    return th_finish("block_counts");
}
