/*
 * diff_modes.c - AES-GCM-SIV, OCB3 and XAES-256-GCM against independent
 * implementations, under the backend named by AESKIT_BACKEND, and that
 * backend against the generic one.
 *
 * Oracles (tests/common): libgcrypt 1.10 (or_gcmsiv_seal, oracle_gcrypt.h)
 * for AES-GCM-SIV, which OpenSSL 3.0 lacks; OpenSSL's libcrypto (oracle.h)
 * for OCB (or_ocb_seal) and for XAES-256-GCM (or_xaes_seal: the C2SP
 * derivation on EVP AES-256-ECB, then EVP AES-256-GCM).  Each oracle is
 * first checked on a known answer (RFC 8452 C.1, RFC 7253 appendix A, C2SP)
 * so that a broken harness cannot pass.
 * Random keys, nonces, AAD and messages of every length 0..4 KiB (sampled
 * above 512), every nonce and tag length of OCB, long messages (16 KiB to
 * 68 KiB) at odd buffer offsets; each message also through the mode
 * driver with the oracle's output as the expected answer (GCM-SIV, XAES:
 * tools/vectors/drive_siv.c, drive_xaes.c) or the in-place and tamper
 * checks of mt_check_message (OCB).
 */
#include "modes_test.h"
#include "oracle.h"
#include "oracle_gcrypt.h"
#include "th_drive.h"

static void die(const char *what)
{
    fprintf(stderr, "oracle error: %s\n", what);
    exit(2);
}

/* ---- the checks ---------------------------------------------------------------- */

static void oracle_self_check(void)
{
    /* RFC 8452 C.1, the 8-byte plaintext; RFC 7253 A, N = ...01; C2SP vector 1. */
    uint8_t key[32] = {1}, n[24] = {3}, pt[16] = {1}, out[64], tag[16], want[64];
    or_gcmsiv_seal(key, 16, n, NULL, 0, pt, 8, out, tag);
    th_unhex(want, "b5d839330ac7b786578782fff6013b815b287c22493a364c");
    if (memcmp(out, want, 8) || memcmp(tag, want + 8, 16))
        die("libgcrypt GCM-SIV disagrees with RFC 8452 C.1");
    uint8_t k2[16], s8[8];
    for (int i = 0; i < 16; i++)
        k2[i] = (uint8_t)i;
    for (int i = 0; i < 8; i++)
        s8[i] = (uint8_t)i;
    th_unhex(n, "BBAA99887766554433221101");
    or_ocb_seal(k2, 16, n, 12, s8, 8, s8, 8, out, tag, 16);
    th_unhex(want, "6820B3657B6F615A5725BDA0D3B4EB3A257C9AF1F8F03009");
    if (memcmp(out, want, 8) || memcmp(tag, want + 8, 16))
        die("OpenSSL OCB disagrees with RFC 7253 appendix A");
    memset(key, 1, 32);
    memcpy(n, "ABCDEFGHIJKLMNOPQRSTUVWX", 24);
    or_xaes_seal(key, n, NULL, 0, (const uint8_t *)"XAES-256-GCM", 12, out, tag);
    th_unhex(want, "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271");
    if (memcmp(out, want, 12) || memcmp(tag, want + 12, 16))
        die("the OpenSSL XAES oracle disagrees with C2SP");
}

enum { MAXLEN = 4096 };
static uint8_t key[32], nonce[24], aad[600], pt[MAXLEN], oct[MAXLEN], ct2[MAXLEN];

/* One message of mode m (0 GCM-SIV, 1 OCB, 2 XAES) with the oracle, the
 * backend under test and the generic backend. */
static void one(int mode, size_t kl, size_t nl, size_t tl, size_t al, size_t len, const char *be)
{
    static mt_key k, kg;
    const mt_aead *m = mode == 0 ? &mt_gcmsiv : mode == 1 ? &mt_ocb : &mt_xaes;
    uint8_t otag[16], tag[16];
    char label[96];
    th_fill(key, kl);
    th_fill(nonce, nl);
    th_fill(aad, al);
    th_fill(pt, len);
    snprintf(label, sizeof label, "k%zu n%zu t%zu a%zu len%zu", kl, nl, tl, al, len);
    if (mode == 0)
        or_gcmsiv_seal(key, kl, nonce, aad, al, pt, len, oct, otag);
    else if (mode == 1)
        or_ocb_seal(key, kl, nonce, nl, aad, al, pt, len, oct, otag, tl);
    else
        or_xaes_seal(key, nonce, aad, al, pt, len, oct, otag);
    if (m->init(&k, key, kl, be) != AESKIT_OK || m->init(&kg, key, kl, "generic") != AESKIT_OK)
        die("init");
    int st = m->seal(&k, ct2, tag, tl, pt, len, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK, "%s %s: seal %s", m->name, label, aeskit_strerror(st));
    TH_CHECK_MEM(ct2, oct, len, "%s %s: ciphertext vs oracle", m->name, label);
    TH_CHECK_MEM(tag, otag, tl, "%s %s: tag vs oracle", m->name, label);
    st = m->seal(&kg, ct2, tag, tl, pt, len, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK && !memcmp(ct2, oct, len) && !memcmp(tag, otag, tl),
             "%s %s: generic backend differs", m->name, label);
    if (mode == 1) {
        mt_check_message(m, &k, nonce, nl, aad, al, pt, len, oct, otag, tl, label);
        return;
    }
    akd_case c = {.backend = be, .key = key, .key_len = kl, .iv = nonce, .iv_len = nl,
                  .aad = aad, .aad_len = al, .msg = pt, .msg_len = len, .ct = oct,
                  .ct_len = len, .tag = otag, .tag_len = tl, .expect = AKD_VALID};
    th_drive(mode == 0 ? "gcm-siv" : "xaes-256-gcm", &c, "%s", label);
}

/* Long messages (16 KiB and more: many whole batches of the vector
 * kernels, every tail) at odd buffer offsets: the oracle seals from aligned
 * buffers, the library from pt + ip into ct + op, then mt_check_message
 * (in place, open, tampering) on the unaligned input. */
enum { LONGMAX = 70000 };
static uint8_t lpt[LONGMAX + 16], loct[LONGMAX + 16], lct[LONGMAX + 16];
static void one_long(int mode, size_t kl, size_t nl, size_t tl, size_t al, size_t len, size_t ip,
                     size_t op, const char *be)
{
    static mt_key k;
    const mt_aead *m = mode == 0 ? &mt_gcmsiv : &mt_ocb;
    uint8_t otag[16], tag[16];
    char label[112];
    th_fill(key, kl);
    th_fill(nonce, nl);
    th_fill(aad, al);
    th_fill(lpt + ip, len);
    snprintf(label, sizeof label, "long k%zu n%zu t%zu a%zu len%zu in+%zu out+%zu", kl, nl, tl, al,
             len, ip, op);
    if (mode == 0)
        or_gcmsiv_seal(key, kl, nonce, aad, al, lpt + ip, len, loct, otag);
    else
        or_ocb_seal(key, kl, nonce, nl, aad, al, lpt + ip, len, loct, otag, tl);
    if (m->init(&k, key, kl, be) != AESKIT_OK)
        die("init");
    int st = m->seal(&k, lct + op, tag, tl, lpt + ip, len, nonce, nl, aad, al);
    TH_CHECK(st == AESKIT_OK, "%s %s: seal %s", m->name, label, aeskit_strerror(st));
    TH_CHECK_MEM(lct + op, loct, len, "%s %s: ciphertext vs oracle", m->name, label);
    TH_CHECK_MEM(tag, otag, tl, "%s %s: tag vs oracle", m->name, label);
    if (mode == 1) {
        mt_check_message(m, &k, nonce, nl, aad, al, lpt + ip, len, loct, otag, tl, label);
        return;
    }
    akd_case c = {.backend = be, .key = key, .key_len = kl, .iv = nonce, .iv_len = nl,
                  .aad = aad, .aad_len = al, .msg = lpt + ip, .msg_len = len, .ct = loct,
                  .ct_len = len, .tag = otag, .tag_len = tl, .expect = AKD_VALID};
    th_drive("gcm-siv", &c, "%s", label);
}

static size_t pick_len(size_t i)
{
    if (i <= 512)
        return i;
    return 513 + th_randn(MAXLEN - 512);
}

/* Streaming OCB (aeskit_ocb_start .. finish) against OpenSSL's one-shot
 * OCB: AAD and message in random pieces (mt_ocb_stream), out of place or in
 * place, on the backend under test and on generic; then the open, and a
 * flipped bit (message or tag) gives AESKIT_ERR_AUTH.  Any tag length
 * 1..16 (OpenSSL's range), any nonce length 1..15. */
static uint8_t sbuf[MAXLEN], sct[MAXLEN];
static void one_stream(size_t kl, size_t nl, size_t tl, size_t al, size_t len, const char *be)
{
    static aeskit_ocb_key k, kg;
    uint8_t otag[16], tag[16];
    char label[112];
    th_fill(key, kl);
    th_fill(nonce, nl);
    th_fill(aad, al);
    th_fill(pt, len);
    or_ocb_seal(key, kl, nonce, nl, aad, al, pt, len, oct, otag, tl);
    if (aeskit_ocb_init_backend(&k, key, kl, be) != AESKIT_OK ||
        aeskit_ocb_init_backend(&kg, key, kl, "generic") != AESKIT_OK)
        die("init");
    for (int g = 0; g < 2; g++) {
        const aeskit_ocb_key *kk = g ? &kg : &k;
        int inplace = (int)th_randn(2);
        size_t maxp = th_randn(2) ? 64 : MAXLEN;
        snprintf(label, sizeof label, "OCB stream %s k%zu n%zu t%zu a%zu len%zu%s",
                 g ? "generic" : "backend", kl, nl, tl, al, len, inplace ? " in place" : "");
        if (len)
            memcpy(sbuf, pt, len);
        int st = mt_ocb_stream(kk, AESKIT_SEAL, nonce, nl, tl, aad, al, pt, len,
                               inplace ? sbuf : sct, tag, maxp, inplace, label);
        TH_CHECK(st == AESKIT_OK, "%s: seal %s", label, aeskit_strerror(st));
        TH_CHECK_MEM(inplace ? sbuf : sct, oct, len, "%s: ciphertext vs OpenSSL", label);
        TH_CHECK_MEM(tag, otag, tl, "%s: tag vs OpenSSL", label);
        if (len)
            memcpy(sbuf, oct, len);
        st = mt_ocb_stream(kk, AESKIT_OPEN, nonce, nl, tl, aad, al, oct, len,
                           inplace ? sbuf : sct, otag, maxp, inplace, label);
        TH_CHECK(st == AESKIT_OK, "%s: open %s", label, aeskit_strerror(st));
        TH_CHECK_MEM(inplace ? sbuf : sct, pt, len, "%s: plaintext", label);
        memcpy(tag, otag, tl);
        if (len)
            memcpy(sbuf, oct, len);
        /* A flipped message bit under a tag of t bytes passes with
         * probability 2^-8t: only with 8 bytes or more is its rejection a
         * test; a flipped tag bit is always rejected. */
        if (len && tl >= 8 && th_randn(2))
            sbuf[th_randn(len)] ^= (uint8_t)(1u << th_randn(8));
        else
            tag[th_randn(tl)] ^= (uint8_t)(1u << th_randn(8));
        st = mt_ocb_stream(kk, AESKIT_OPEN, nonce, nl, tl, aad, al, sbuf, len, sct, tag, maxp, 0,
                           label);
        TH_CHECK(st == AESKIT_ERR_AUTH, "%s: tampered message gave %s", label, aeskit_strerror(st));
    }
}

int main(void)
{
    const char *be = th_backend();
    or_gcrypt_init();
    oracle_self_check();
    th_seed(0x15d1ff);
    size_t n = th_scaled(700, 60), step = th_stride();
    for (size_t i = 0; i < n; i += step) {
        size_t len = pick_len(i), al = th_randn(8) ? th_randn(100) : th_randn(sizeof aad);
        one(0, th_randn(2) ? 16 : 32, 12, 16, al, len, be);
        static const size_t kls[3] = {16, 24, 32};
        one(1, kls[th_randn(3)], 1 + i % 15, 8 + (i / 15) % 9, al, len, be);
        one(2, 32, 24, 16, al, len, be);
    }
    /* Long and unaligned: 16 KiB, around it, and up to LONGMAX. */
    static const size_t longs[] = {16383, 16384, 16385, 16384 + 255, 32768 + 17, 65536 + 15};
    size_t nlong = th_scaled(12, 4);
    for (size_t i = 0; i < nlong; i++) {
        size_t len = i < sizeof longs / sizeof longs[0] ? longs[i] : 16384 + th_randn(LONGMAX - 16384);
        size_t ip = th_randn(16), op = th_randn(16), al = th_randn(2) ? th_randn(40) : th_randn(600);
        one_long(0, th_randn(2) ? 16 : 32, 12, 16, al, len, ip, op, be);
        static const size_t kls[3] = {16, 24, 32};
        one_long(1, kls[th_randn(3)], 1 + th_randn(15), 8 + th_randn(9), al, len, ip, op, be);
    }
    /* Streaming OCB: random lengths 0..4 KiB, every nonce length, every tag
     * length 1..16, every key length. */
    size_t ns = th_scaled(600, 60);
    for (size_t i = 0; i < ns; i += step) {
        static const size_t kls[3] = {16, 24, 32};
        size_t len = th_randn(3) ? th_randn(300) : th_randn(MAXLEN + 1);
        size_t al = th_randn(3) ? th_randn(70) : th_randn(sizeof aad + 1);
        one_stream(kls[th_randn(3)], 1 + i % 15, 1 + (i / 15) % 16, al, len, be);
    }
    for (size_t nl = 1; nl <= 15; nl++)
        for (size_t tl = 1; tl <= 16; tl++)
            one_stream(16, nl, tl, th_randn(40), th_randn(70), be);
    /* Every OCB nonce and tag length with every key length, short messages. */
    for (size_t nl = 1; nl <= 15; nl++)
        for (size_t tl = 8; tl <= 16; tl++)
            for (size_t kl = 16; kl <= 32; kl += 8)
                one(1, kl, nl, tl, th_randn(40), th_randn(70), be);
    return th_finish("diff_modes");
}
