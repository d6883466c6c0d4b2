/*
 * lanes.c - the multi-lane CBC kernel (the backend's cbc_lanes hook,
 * ak_cbc_lane in src/internal.h) under the backend named by AESKIT_BACKEND.
 *
 * Random calls mix everything the contract allows: 0..40 lanes of 0..300
 * blocks (ragged, sometimes all equal), one key shared by every lane, a few
 * keys shared by many, or a key per lane, AES-128/192/256 in one call, CBC
 * encryption and CBC-MAC (out NULL) side by side, in place and out of
 * place.  Every lane is checked
 *   - against OpenSSL's libcrypto AES-CBC (EVP, no padding; the oracle:
 *     the ciphertext, and the last ciphertext block as the chaining value
 *     out, which for CBC-MAC is the MAC state), where libcrypto was found;
 *   - against ak_cbc_lanes_serial (one cbc_encrypt / cbcmac per lane) on
 *     copies, which runs under qemu too;
 *   - for bytes outside its blocks: canaries on both sides of every output
 *     and the input of every CBC-MAC lane unchanged.
 * Then a guard-page pass: every lane's input and output flush against a
 * PROT_NONE page, at a page start and at a page end, so a kernel that
 * reads or writes one byte outside blocks * 16 faults.
 * A backend without a kernel of its own runs ak_cbc_lanes_serial through
 * ak_cbc_lanes; the test says so and still checks it.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "internal.h"

#ifdef LANES_HAVE_OPENSSL
#include "oracle.h"
#endif

#define MAXLANES 40
#define MAXBLOCKS 300
#define NKEYS (MAXLANES + 3)
#define CANARY 32

static aeskit_aes_key keys[NKEYS];
static uint8_t keybytes[NKEYS][32];
static size_t keylen[NKEYS];
static const ak_backend *backend;

static const ak_aes *akey(size_t i) { return (const ak_aes *)(const void *)&keys[i]; }

#ifdef LANES_HAVE_OPENSSL
/* out = AES-CBC_key(iv, in) over blocks, by libcrypto (or_cipher, no
 * padding); last = the last ciphertext block (iv when blocks is 0). */
static int oracle_cbc(size_t ki, const uint8_t iv[16], const uint8_t *in, size_t blocks, uint8_t *out,
                      uint8_t last[16])
{
    int ok = or_cipher("cbc", 1, 0, keybytes[ki], keylen[ki], iv, in, 16 * blocks, out) ==
             (long)(16 * blocks);
    memcpy(last, blocks ? out + 16 * (blocks - 1) : iv, 16);
    return ok;
}
#endif

typedef struct {
    size_t key, blocks;
    int mac, inplace;
    uint8_t iv0[16];
    uint8_t *msg;               /* the input as generated */
    uint8_t *inbuf, *outbuf;    /* CANARY | 16 * blocks | CANARY each */
    uint8_t *sinbuf, *soutbuf;  /* the same for the serial run */
} lane_case;

static lane_case cases[MAXLANES];

static void fill_canary(uint8_t *p, size_t n) { memset(p, 0xa5, n); }
static int canary_ok(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0xa5)
            return 0;
    return 1;
}

/* Sets up the buffers of one lane; d and s are the descriptors of the
 * kernel run and the serial run. */
static void lane_setup(lane_case *c, ak_cbc_lane *d, ak_cbc_lane *s)
{
    size_t len = 16 * c->blocks, tot = len + 2 * CANARY;
    th_fill(c->msg, len);
    th_fill(c->iv0, 16);
    uint8_t *bufs[4] = {c->inbuf, c->outbuf, c->sinbuf, c->soutbuf};
    for (int i = 0; i < 4; i++)
        fill_canary(bufs[i], tot);
    memcpy(c->inbuf + CANARY, c->msg, len);
    memcpy(c->sinbuf + CANARY, c->msg, len);
    ak_cbc_lane *ds[2] = {d, s};
    uint8_t *ins[2] = {c->inbuf + CANARY, c->sinbuf + CANARY}, *outs[2] = {c->outbuf + CANARY, c->soutbuf + CANARY};
    for (int i = 0; i < 2; i++) {
        ds[i]->aes = akey(c->key);
        ds[i]->in = ins[i];
        ds[i]->out = c->mac ? NULL : c->inplace ? ins[i] : outs[i];
        ds[i]->blocks = c->blocks;
        memcpy(ds[i]->iv, c->iv0, 16);
    }
}

static void check_lane(size_t li, size_t n, const lane_case *c, const ak_cbc_lane *d, const ak_cbc_lane *s,
                       const char *what)
{
    size_t len = 16 * c->blocks, tot = len + 2 * CANARY;
    const uint8_t *got = c->mac ? NULL : c->inplace ? c->inbuf + CANARY : c->outbuf + CANARY;
    const uint8_t *sgot = c->mac ? NULL : c->inplace ? c->sinbuf + CANARY : c->soutbuf + CANARY;
    TH_CHECK(!memcmp(d->iv, s->iv, 16), "%s: lane %zu/%zu (%zu blocks, key %zu bytes, %s%s): chaining value "
             "differs from ak_cbc_lanes_serial", what, li, n, c->blocks, keylen[c->key], c->mac ? "MAC" : "enc",
             c->inplace ? ", in place" : "");
    if (got)
        TH_CHECK(!memcmp(got, sgot, len), "%s: lane %zu/%zu (%zu blocks, key %zu): ciphertext differs from "
                 "ak_cbc_lanes_serial", what, li, n, c->blocks, keylen[c->key]);
    /* Nothing outside the lane's blocks was written. */
    TH_CHECK(canary_ok(c->inbuf, CANARY) && canary_ok(c->inbuf + CANARY + len, CANARY) &&
                 canary_ok(c->outbuf, CANARY) && canary_ok(c->outbuf + CANARY + len, CANARY),
             "%s: lane %zu (%zu blocks): a canary next to its buffers was overwritten", what, li, c->blocks);
    if (c->mac || !c->inplace)
        TH_CHECK(!memcmp(c->inbuf + CANARY, c->msg, len), "%s: lane %zu: the input was modified", what, li);
    if (c->mac || c->inplace)
        TH_CHECK(canary_ok(c->outbuf, tot), "%s: lane %zu: an unused output buffer was written", what, li);
#ifdef LANES_HAVE_OPENSSL
    static uint8_t ref[16 * MAXBLOCKS];
    uint8_t last[16];
    TH_CHECK(oracle_cbc(c->key, c->iv0, c->msg, c->blocks, ref, last), "libcrypto AES-CBC failed");
    TH_CHECK(!memcmp(d->iv, last, 16), "%s: lane %zu/%zu (%zu blocks, key %zu bytes, %s%s): chaining value "
             "differs from libcrypto", what, li, n, c->blocks, keylen[c->key], c->mac ? "MAC" : "enc",
             c->inplace ? ", in place" : "");
    if (got)
        TH_CHECK(!memcmp(got, ref, len), "%s: lane %zu/%zu (%zu blocks, key %zu): ciphertext differs from "
                 "libcrypto at byte %zu", what, li, n, c->blocks, keylen[c->key], th_first_diff(got, ref, len));
#endif
}

/* Block counts of one call: ragged, all equal, or equal with a few outliers. */
static size_t pick_blocks(int shape, size_t common)
{
    switch (shape) {
    case 0: return th_randn(MAXBLOCKS + 1);
    case 1: return common;
    case 2: return th_randn(8) ? common : th_randn(MAXBLOCKS + 1);
    default: return th_randn(4) ? th_randn(5) : th_randn(MAXBLOCKS + 1); /* mostly tiny */
    }
}

static void random_calls(size_t iters)
{
    static ak_cbc_lane d[MAXLANES], s[MAXLANES];
    for (size_t it = 0; it < iters; it++) {
        size_t n = it < 41 ? it : th_randn(MAXLANES + 1);
        int keyshape = (int)th_randn(3), shape = (int)th_randn(4);
        int macshape = (int)th_randn(3); /* all enc, all MAC, mixed */
        size_t common = th_randn(MAXBLOCKS + 1), shared = th_randn(NKEYS);
        for (size_t i = 0; i < n; i++) {
            lane_case *c = &cases[i];
            c->key = keyshape == 0 ? shared : keyshape == 1 ? th_randn(3) : i;
            c->blocks = pick_blocks(shape, common);
            c->mac = macshape == 2 ? (int)th_randn(2) : macshape;
            c->inplace = (int)th_randn(2);
            lane_setup(c, &d[i], &s[i]);
        }
        ak_cbc_lanes(backend, d, n);
        ak_cbc_lanes_serial(s, n);
        for (size_t i = 0; i < n; i++)
            check_lane(i, n, &cases[i], &d[i], &s[i], "random");
    }
}

/* ---- guard pages ------------------------------------------------------------ */

#define GLANES 20
#define GMAXB 48

typedef struct {
    uint8_t *base, *data;
    size_t page, len;
} fenced;

static int fenced_map(fenced *f)
{
    f->page = (size_t)sysconf(_SC_PAGESIZE);
    f->len = ((16 * GMAXB + f->page - 1) / f->page) * f->page;
    f->base = mmap(NULL, f->len + 2 * f->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (f->base == MAP_FAILED)
        return -1;
    f->data = f->base + f->page;
    return mprotect(f->base, f->page, PROT_NONE) || mprotect(f->data + f->len, f->page, PROT_NONE) ? -1 : 0;
}

static void guard_pages(void)
{
    static fenced fin[GLANES], fout[GLANES];
    static uint8_t msg[GLANES][16 * GMAXB], exp_out[GLANES][16 * GMAXB];
    for (int i = 0; i < GLANES; i++)
        if (fenced_map(&fin[i]) || fenced_map(&fout[i])) {
            printf("guard pages: cannot map guard pages here, part not run\n");
            TH_CHECK(0, "mmap/mprotect for the guard-page part failed");
            return;
        }
    ak_cbc_lane d[GLANES], s[GLANES];
    for (size_t it = 0; it < th_scaled(400, 40); it++) {
        size_t n = 1 + th_randn(GLANES);
        int at_end = (int)(it & 1), keyshape = (int)th_randn(2);
        for (size_t i = 0; i < n; i++) {
            size_t blocks = th_randn(4) ? th_randn(GMAXB + 1) : th_randn(3);
            size_t len = 16 * blocks;
            int mac = (int)th_randn(3) == 0, inplace = (int)th_randn(2);
            size_t k = keyshape ? th_randn(NKEYS) : 0;
            th_fill(msg[i], len);
            uint8_t *in = at_end ? fin[i].data + fin[i].len - len : fin[i].data;
            uint8_t *out = inplace ? in : at_end ? fout[i].data + fout[i].len - len : fout[i].data;
            memcpy(in, msg[i], len);
            d[i].aes = s[i].aes = akey(k);
            d[i].in = in;
            d[i].out = mac ? NULL : out;
            d[i].blocks = s[i].blocks = blocks;
            th_fill(d[i].iv, 16);
            memcpy(s[i].iv, d[i].iv, 16);
            s[i].in = msg[i];
            s[i].out = mac ? NULL : exp_out[i];
        }
        ak_cbc_lanes(backend, d, n);
        ak_cbc_lanes_serial(s, n);
        for (size_t i = 0; i < n; i++) {
            TH_CHECK(!memcmp(d[i].iv, s[i].iv, 16), "guard pages (%s): lane %zu/%zu (%zu blocks): chaining value",
                     at_end ? "page end" : "page start", i, n, d[i].blocks);
            if (d[i].out)
                TH_CHECK(!memcmp(d[i].out, exp_out[i], 16 * d[i].blocks), "guard pages: lane %zu: ciphertext", i);
        }
    }
    for (int i = 0; i < GLANES; i++) {
        munmap(fin[i].base, fin[i].len + 2 * fin[i].page);
        munmap(fout[i].base, fout[i].len + 2 * fout[i].page);
    }
}

int main(void)
{
    const char *be = th_backend();
    th_seed(0x1a9e5ull);
    for (size_t i = 0; i < NKEYS; i++) {
        static const size_t sizes[3] = {16, 24, 32};
        keylen[i] = sizes[th_randn(3)];
        th_fill(keybytes[i], 32);
        if (aeskit_aes_init_backend(&keys[i], keybytes[i], keylen[i], be) != AESKIT_OK) {
            printf("FAIL: key set-up\n");
            return 1;
        }
    }
    backend = akey(0)->be;
    printf("lanes [%s]: %s\n", backend->name,
           backend->cbc_lanes ? "the backend's own cbc_lanes kernel"
                              : "no kernel of its own: ak_cbc_lanes_serial through ak_cbc_lanes");
#ifndef LANES_HAVE_OPENSSL
    printf("lanes: built without libcrypto: checked against ak_cbc_lanes_serial only\n");
#endif
    for (size_t i = 0; i < MAXLANES; i++) {
        lane_case *c = &cases[i];
        size_t tot = 16 * MAXBLOCKS + 2 * CANARY;
        c->msg = malloc(16 * MAXBLOCKS);
        c->inbuf = malloc(tot);
        c->outbuf = malloc(tot);
        c->sinbuf = malloc(tot);
        c->soutbuf = malloc(tot);
        if (!c->msg || !c->inbuf || !c->outbuf || !c->sinbuf || !c->soutbuf) {
            printf("FAIL: out of memory\n");
            return 1;
        }
    }
    random_calls(th_scaled(300, 60));
    guard_pages();
    for (size_t i = 0; i < NKEYS; i++)
        aeskit_aes_wipe(&keys[i]);
    return th_finish("lanes");
}
