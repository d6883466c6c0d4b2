/*
 * fuzz_diff.c - differential fuzz target: the input chooses a mode, key,
 * IV/nonce, AAD, message, tag length and the seed of the split patterns.
 * OpenSSL (the oracle) computes the expected answer; every backend this CPU
 * can run must then pass the mode driver on it (one-shot, streamed in every
 * split pattern, in-place, tampered).  Modes: GCM; CTR, CBC with PKCS#7,
 * CFB-128, CFB-8, OFB and CBC-CTS on one input; CMAC; XTS; CCM; XAES-256-GCM
 * (the oracle's derivation is written from the C2SP text on EVP AES, not
 * ours); AES-KW and AES-KWP; AES-SIV and its AEAD form.  GCM-SIV, EAX and
 * OCB have no driver-compatible oracle in OpenSSL 3.0 and are left to the
 * differential tests against libgcrypt (tests/modes).
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

static const size_t ccm_tags[] = {4, 6, 8, 10, 12, 14, 16};

static void ccm_case(fz_reader *r)
{
    uint8_t key[32], nonce[13], aad[256], tag[16];
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    size_t nl = 7 + fz_byte(r) % 7; /* 7..13 (SP 800-38C A.1) */
    size_t al = fz_byte(r);
    size_t tl = ccm_tags[fz_byte(r) % 7];
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    fz_take(r, nonce, nl);
    fz_take(r, aad, al);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    fz_take(r, msg, n);
    or_ccm_seal(key, kl, nonce, nl, aad, al, msg, n, ref, tag, tl);
    akd_case c = {.key = key, .key_len = kl, .iv = nonce, .iv_len = nl, .aad = aad,
                  .aad_len = al, .msg = msg, .msg_len = n, .ct = ref, .ct_len = n, .tag = tag,
                  .tag_len = tl, .seed = seed};
    drive_all("ccm", &c);
}

static void xaes_case(fz_reader *r)
{
    uint8_t key[32], nonce[24], aad[256], tag[16];
    size_t al = fz_byte(r);
    uint64_t seed = seed_of(r);
    fz_take(r, key, 32);
    fz_take(r, nonce, 24);
    fz_take(r, aad, al);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    fz_take(r, msg, n);
    or_xaes_seal(key, nonce, aad, al, msg, n, ref, tag);
    akd_case c = {.key = key, .key_len = 32, .iv = nonce, .iv_len = 24, .aad = aad,
                  .aad_len = al, .msg = msg, .msg_len = n, .ct = ref, .ct_len = n, .tag = tag,
                  .tag_len = 16, .seed = seed};
    drive_all("xaes-256-gcm", &c);
}

/* KW needs 16 bytes or more in whole 8-byte semiblocks (RFC 3394 2.2.1);
 * KWP takes 1 byte or more (RFC 5649 4.1). */
static void wrap_case(fz_reader *r)
{
    uint8_t key[32];
    int pad = fz_byte(r) & 1;
    size_t kl = 16 + 8 * (fz_byte(r) % 3);
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    if (!pad)
        n = n < 16 ? 16 : n / 8 * 8;
    else if (n == 0)
        n = 1;
    fz_take(r, msg, n);
    size_t wl = 0;
    FZ_ASSERT(or_wrap(pad, 1, key, kl, msg, n, ref, &wl) && wl == (n + 7) / 8 * 8 + 8,
              "OpenSSL %s wrap of %zu bytes", pad ? "KWP" : "KW", n);
    akd_case c = {.key = key, .key_len = kl, .msg = msg, .msg_len = n, .ct = ref, .ct_len = wl,
                  .seed = seed};
    drive_all(pad ? "kwp" : "kw", &c);
}

/* AES-SIV with one associated-data string, and the AEAD form, which is
 * S2V(aad, nonce, P) (RFC 5297 section 3): the oracle's vector form with
 * two strings.  OpenSSL 3.0 hands SIV no empty plaintext: such inputs take
 * one byte. */
static void siv_case(fz_reader *r)
{
    uint8_t key[64], nonce[64], aad[256], siv[16];
    int aead = fz_byte(r) & 1;
    size_t kl = 32 + 16 * (fz_byte(r) % 3);
    size_t nl = 1 + fz_byte(r) % 64;
    size_t al = fz_byte(r);
    uint64_t seed = seed_of(r);
    fz_take(r, key, kl);
    fz_take(r, nonce, nl);
    fz_take(r, aad, al);
    size_t n = r->n < MAXMSG ? r->n : MAXMSG;
    if (n == 0)
        n = 1;
    fz_take(r, msg, n);
    const uint8_t *ad[2] = {aad, nonce};
    size_t ad_lens[2] = {al, nl};
    FZ_ASSERT(or_siv_seal(key, kl, ad, ad_lens, aead ? 2 : 1, msg, n, ref, siv),
              "OpenSSL SIV seal of %zu bytes", n);
    akd_case c = {.key = key, .key_len = kl, .aad = aad, .aad_len = al, .msg = msg,
                  .msg_len = n, .ct = ref, .ct_len = n, .tag = siv, .tag_len = 16,
                  .seed = seed};
    if (aead) {
        c.iv = nonce;
        c.iv_len = nl;
    }
    drive_all(aead ? "siv-aead" : "siv", &c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = {data, size};
    switch (fz_byte(&r) % 8) {
    case 0: gcm_case(&r); break;
    case 1: ctr_cbc_case(&r); break;
    case 2: cmac_case(&r); break;
    case 3: xts_case(&r); break;
    case 4: ccm_case(&r); break;
    case 5: xaes_case(&r); break;
    case 6: wrap_case(&r); break;
    default: siv_case(&r); break;
    }
    return 0;
}
