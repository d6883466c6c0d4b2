/*
 * modes2_backends.c - every backend against the generic one for KW, KWP,
 * CBC-CTS, CFB-128, CFB-8, OFB, AES-SIV and EAX on random inputs: the
 * same keys and inputs must give the same bytes on every backend this CPU
 * can run.  Needs nothing but the library (runs under qemu too).
 */
#include "harness.h"

#define MAXLEN 2100

static uint8_t pt[MAXLEN], ad[300], nonce[40];
static uint8_t out_ref[8][MAXLEN + 16], out_be[8][MAXLEN + 16];

/* Every mode over one input into out[0..7]. */
static void run_all(const char *be, const uint8_t *key, size_t klen, size_t len,
                    const uint8_t iv[16], size_t al, size_t nl, uint8_t out[8][MAXLEN + 16])
{
    aeskit_aes_key k;
    aeskit_siv_key s;
    aeskit_eax_key e;
    uint8_t key2[64];
    memcpy(key2, key, klen);
    memcpy(key2 + klen, key, klen);
    key2[klen] ^= 0x5a;
    size_t n;
    for (int i = 0; i < 8; i++)
        memset(out[i], 0, MAXLEN + 16);
    int ok = aeskit_aes_init_backend(&k, key, klen, be) == AESKIT_OK &&
             aeskit_siv_init_backend(&s, key2, 2 * klen, be) == AESKIT_OK &&
             aeskit_eax_init_backend(&e, key, klen, be) == AESKIT_OK;
    TH_CHECK(ok, "init on %s", be);
    if (!ok)
        return;
    size_t wl = len & ~(size_t)7;
    if (wl >= 16)
        TH_CHECK(aeskit_kw_wrap(&k, out[0], MAXLEN + 16, &n, pt, wl) == AESKIT_OK, "kw");
    if (len >= 1 && len + 16 <= MAXLEN + 16)
        TH_CHECK(aeskit_kwp_wrap(&k, out[1], MAXLEN + 16, &n, pt, len) == AESKIT_OK, "kwp");
    if (len >= 16)
        TH_CHECK(aeskit_cbc_cts_encrypt(&k, out[2], pt, len, iv, AESKIT_CTS_CS3) == AESKIT_OK,
                 "cts");
    TH_CHECK(aeskit_cfb128_encrypt(&k, out[3], pt, len, iv) == AESKIT_OK, "cfb");
    TH_CHECK(aeskit_cfb128_decrypt(&k, out[4], pt, len, iv) == AESKIT_OK, "cfb dec");
    TH_CHECK(aeskit_cfb8_encrypt(&k, out[5], pt, len < 300 ? len : 300, iv) == AESKIT_OK, "cfb8");
    TH_CHECK(aeskit_ofb_crypt(&k, out[6], pt, len, iv) == AESKIT_OK, "ofb");
    TH_CHECK(aeskit_siv_aead_seal(&s, out[7], out[7] + len, pt, len, nonce, nl, ad, al) ==
                 AESKIT_OK, "siv");
    /* EAX: into out[0] past what KW wrote (KW at most len + 8 bytes). */
    uint8_t tag[16];
    TH_CHECK(aeskit_eax_seal(&e, out[2] + len + 16, tag, 16, pt, 0, nonce, nl, ad, al) ==
                 AESKIT_OK, "eax empty");
    static uint8_t eax_ct[MAXLEN];
    TH_CHECK(aeskit_eax_seal(&e, eax_ct, tag, 16, pt, len, nonce, nl, ad, al) == AESKIT_OK, "eax");
    for (size_t i = 0; i < len; i++)
        out[4][i] ^= eax_ct[i]; /* fold EAX into the CFB-decrypt row */
    for (size_t i = 0; i < 16; i++)
        out[6][MAXLEN + i] = tag[i];
    aeskit_aes_wipe(&k);
    aeskit_siv_wipe(&s);
    aeskit_eax_wipe(&e);
}

int main(void)
{
    (void)th_backend();
    th_seed(0x6d32626b656e6473ull);
    size_t count = aeskit_backend_count(), tested = 0;
    for (size_t len = 0; len < MAXLEN; len += 1 + th_randn(len < 100 ? 2 : 97)) {
        uint8_t key[32], iv[16];
        size_t klen = 16 + 8 * th_randn(3), al = th_randn(300), nl = 1 + th_randn(40);
        th_fill(key, klen);
        th_fill(iv, 16);
        th_fill(pt, len);
        th_fill(ad, al);
        th_fill(nonce, nl);
        run_all("generic", key, klen, len, iv, al, nl, out_ref);
        for (size_t b = 0; b < count; b++) {
            aeskit_backend_info info;
            if (aeskit_backend_get(&info, b) != AESKIT_OK || !info.available ||
                !strcmp(info.name, "generic"))
                continue;
            run_all(info.name, key, klen, len, iv, al, nl, out_be);
            tested++;
            for (int m = 0; m < 8; m++)
                TH_CHECK_MEM(out_be[m], out_ref[m], MAXLEN + 16, "%s mode %d len=%zu k=%zu",
                             info.name, m, len, klen);
        }
    }
    if (!tested) {
        printf("SKIP: no backend other than generic can run here\n");
        return 77;
    }
    return th_finish("modes2_backends");
}
