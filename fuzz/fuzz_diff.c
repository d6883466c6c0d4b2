/*
 * fuzz_diff.c - differential fuzz target: the input chooses a mode, key,
 * IV/nonce, AAD, message, tag length and the seed of the split patterns.
 * OpenSSL (the oracle) computes the expected answer; every backend this CPU
 * can run must then pass the mode driver on it (one-shot, streamed in every
 * split pattern, in-place, tampered).
 */
#include "fuzz_common.h"

enum { MAXMSG = 4096 };
static uint8_t msg[MAXMSG], ref[MAXMSG + 32];

static const size_t gcm_tags[] = {4, 8, 12, 13, 14, 15, 16};

/* The case every backend runs, and its driver. */
static akd_case fz_case;
static const char *fz_mode;

static void drive_one(const char *backend, void *arg)
{
    (void)arg;
    fz_case.backend = backend;
    fz_drive(fz_mode, &fz_case);
}

static void drive_all(const char *mode, const akd_case *c)
{
    fz_case = *c;
    fz_mode = mode;
    fz_each_backend(drive_one, NULL);
}

static uint64_t seed_of(fz_reader *r)
{
    uint64_t s = fz_byte(r);
    s = s << 8 | fz_byte(r);
    return s + 1;
}

static void gcm_case(fz_reader *r)
{
    uint8_t key[32], iv[64], aad[256], tag[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    size_t ivl = 1 + fz_byte(r) % 64;
    size_t al = fz_byte(r);
    size_t tl = gcm_tags[fz_byte(r) % 7];
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    fz_take(r, iv, ivl);
    fz_take(r, aad, al);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    fz_take(r, msg, n);
    or_gcm_seal(key, kl, iv, ivl, aad, al, msg, n, ref, tag, tl);
    akd_case c = {.key = key, .key_len = kl, .iv = iv, .iv_len = ivl, .aad = aad, .aad_len = al,
                  .msg = msg, .msg_len = n, .ct = ref, .ct_len = n, .tag = tag, .tag_len = tl,
                  .seed = seed};
    drive_all("gcm", &c);
}

static void ctr_cbc_case(fz_reader *r)
{
    uint8_t key[32], iv[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    fz_take(r, iv, 16);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    fz_take(r, msg, n);
    FZ_ASSERT(or_cipher("ctr", 1, 0, key, kl, iv, msg, n, ref) == (long)n, "OpenSSL CTR length");
    akd_case c = {.key = key, .key_len = kl, .iv = iv, .iv_len = 16, .msg = msg, .msg_len = n,
                  .ct = ref, .ct_len = n, .seed = seed};
    drive_all("ctr", &c);
    /* CBC with PKCS#7 both ways */
    long pn = or_cipher("cbc", 1, 1, key, kl, iv, msg, n, ref);
    FZ_ASSERT(pn == (long)(n / 16 * 16 + 16), "OpenSSL PKCS#7 length");
    c.ct_len = (size_t)pn;
    drive_all("cbc-pkcs7", &c);
    /* The same key, IV and message as CFB-128, CFB-8 and OFB, and (16 bytes
     * or more) as CBC-CTS in each variant. */
    static const char *const streams[3] = {"cfb", "cfb8", "ofb"};
    static const char *const stream_drivers[3] = {"cfb128", "cfb8", "ofb"};
    c.ct_len = n;
    for (int i = 0; i < 3; i++) {
        FZ_ASSERT(or_cipher(streams[i], 1, 0, key, kl, iv, msg, n, ref) == (long)n,
                  "OpenSSL CFB/OFB length");
        drive_all(stream_drivers[i], &c);
    }
    static const char *const cts[3] = {"CS1", "CS2", "CS3"};
    static const char *const cts_drivers[3] = {"cts-cs1", "cts-cs2", "cts-cs3"};
    for (int i = 0; i < 3 && n >= 16; i++) {
        FZ_ASSERT(or_cts(1, cts[i], key, kl, iv, msg, n, ref), "OpenSSL CBC-CTS");
        drive_all(cts_drivers[i], &c);
    }
}

static void cmac_case(fz_reader *r)
{
    uint8_t key[32], tag[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    size_t tl = 4 + fz_byte(r) % 13;
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    fz_take(r, msg, n);
    or_cmac(key, kl, msg, n, tag); /* a truncated CMAC tag is a prefix (SP 800-38B 6.2) */
    akd_case c = {.key = key, .key_len = kl, .msg = msg, .msg_len = n, .tag = tag, .tag_len = tl,
                  .seed = seed};
    drive_all("cmac", &c);
}

static void xts_case(fz_reader *r)
{
    uint8_t key[64], tweak[16];
    size_t kl = (fz_byte(r) & 1) ? 64 : 32;
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    fz_take(r, tweak, 16);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    if (n < 16)
        n = 16;
    fz_take(r, msg, n);
    if (!memcmp(key, key + kl / 2, kl / 2))
        key[0] ^= 1; /* OpenSSL 3 refuses equal halves */
    FZ_ASSERT(or_cipher("xts", 1, 0, key, kl, tweak, msg, n, ref) == (long)n, "OpenSSL XTS length");
    akd_case c = {.key = key, .key_len = kl, .iv = tweak, .iv_len = 16, .msg = msg, .msg_len = n,
                  .ct = ref, .ct_len = n, .seed = seed};
    drive_all("xts", &c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size};
    switch (fz_byte(&r) % 4) {
    case 0: gcm_case(&r); break;
    case 1: ctr_cbc_case(&r); break;
    case 2: cmac_case(&r); break;
    default: xts_case(&r); break;
    }
    return 0;
}
