/*
 * oracle_gcrypt.c - libgcrypt as the second independent reference
 * (oracle_gcrypt.h): the one place the tests call libgcrypt.
 */
#include <gcrypt.h>

#include <stdio.h>
#include <stdlib.h>

#include "oracle_gcrypt.h"

static _Noreturn void or_gcrypt_die(const char *what)
{
    fprintf(stderr, "oracle error (libgcrypt): %s\n", what);
    exit(2);
}

void or_gcrypt_init(void)
{
    if (!gcry_check_version("1.10.0"))
        or_gcrypt_die("libgcrypt 1.10 or later needed (GCM-SIV)");
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
}

static int or_gcrypt_aes(size_t key_len)
{
    return key_len == 16 ? GCRY_CIPHER_AES128 : key_len == 24 ? GCRY_CIPHER_AES192
                                                              : GCRY_CIPHER_AES256;
}

void or_gcmsiv_seal(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t tag[16])
{
    gcry_cipher_hd_t h;
    if (gcry_cipher_open(&h, or_gcrypt_aes(key_len), GCRY_CIPHER_MODE_GCM_SIV, 0) ||
        gcry_cipher_setkey(h, key, key_len) || gcry_cipher_setiv(h, nonce, 12) ||
        (aad_len && gcry_cipher_authenticate(h, aad, aad_len)) || gcry_cipher_final(h) ||
        gcry_cipher_encrypt(h, out, len, in, len) || gcry_cipher_gettag(h, tag, 16))
        or_gcrypt_die("GCM-SIV seal");
    gcry_cipher_close(h);
}

int or_eax_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                uint8_t tag[16])
{
    gcry_cipher_hd_t h;
    if (gcry_cipher_open(&h, or_gcrypt_aes(key_len), GCRY_CIPHER_MODE_EAX, 0))
        return 0;
    int ok = !gcry_cipher_setkey(h, key, key_len) && !gcry_cipher_setiv(h, nonce, nonce_len) &&
             !gcry_cipher_authenticate(h, aad, aad_len) &&
             !gcry_cipher_encrypt(h, out, len, in, len) && !gcry_cipher_gettag(h, tag, 16);
    gcry_cipher_close(h);
    return ok;
}
