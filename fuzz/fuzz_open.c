/*
 * fuzz_open.c - open/verify on arbitrary ciphertext and tags: aeskit must
 * accept exactly what OpenSSL (the oracle) accepts (never a forgery).  An
 * accepted input is a valid case for the mode driver (OpenSSL's plaintext
 * the message: one-shot, streamed, in-place, tampered), a rejected one an
 * invalid case (refused by one-shot and streaming open, the output zeroed,
 * nothing written past it).  Covers GCM (any IV length, every tag length)
 * and GMAC.
 */
#include "fuzz_common.h"

enum { MAXMSG = 2048 };
static uint8_t ct[MAXMSG], ref[MAXMSG + 16];
static const size_t gcm_tags[] = {4, 8, 12, 13, 14, 15, 16};

static akd_case fz_case;
static int oss_ok;

static void drive_one(const char *backend, void *arg)
{
    (void)arg;
    fz_case.backend = backend;
    fz_drive("gcm", &fz_case);
    if (fz_case.ct_len == 0) {
        aeskit_gcm_key gk;
        FZ_ASSERT(aeskit_gcm_init_backend(&gk, fz_case.key, fz_case.key_len, backend) == AESKIT_OK,
                  "gcm_init_backend");
        aeskit_status st = aeskit_gmac_verify(&gk, fz_case.tag, fz_case.tag_len, fz_case.iv,
                                              fz_case.iv_len, fz_case.aad, fz_case.aad_len);
        FZ_ASSERT((st == AESKIT_OK) == (oss_ok == 1), "%s: GMAC verify disagrees", backend);
        aeskit_gcm_wipe(&gk);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size};
    uint8_t key[32], iv[32], aad[64], tag[16];
    size_t kl = 16 + 8 * (fz_byte(&r) % 3);
    size_t ivl = 1 + fz_byte(&r) % 32;
    size_t al = fz_byte(&r) % 65;
    size_t tl = gcm_tags[fz_byte(&r) % 7];
    fz_take(&r, key, kl);
    fz_take(&r, iv, ivl);
    fz_take(&r, aad, al);
    fz_take(&r, tag, tl);
    size_t n = r.n < MAXMSG ? r.n : MAXMSG;
    fz_take(&r, ct, n);

    oss_ok = or_gcm_open(key, kl, iv, ivl, aad, al, ct, n, tag, tl, ref);
    akd_case c = {.key = key, .key_len = kl, .iv = iv, .iv_len = ivl, .aad = aad, .aad_len = al,
                  .msg = oss_ok ? ref : ct, .msg_len = n, .ct = ct, .ct_len = n, .tag = tag,
                  .tag_len = tl, .expect = oss_ok ? AKD_VALID : AKD_INVALID,
                  .seed = (uint64_t)size * 0x100000001b3ull + 1};
    fz_case = c;
    fz_each_backend(drive_one, NULL);
    return 0;
}
