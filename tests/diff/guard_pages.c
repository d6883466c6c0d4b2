/*
 * guard_pages.c - every one-shot mode with its buffers flush against
 * inaccessible pages, under the backend named by AESKIT_BACKEND.
 *
 * Vector backends read and write whole registers, and the AVX-512 one uses
 * masked loads/stores whose masked-off bytes may lie outside the buffer.
 * This test puts input, output, AAD, IV and tag first at the very start of
 * a page whose predecessor is PROT_NONE, then at the very end of a page
 * whose successor is PROT_NONE, for every length 0..300 and a few longer
 * ones, in place and out of place.  Any real access outside a buffer
 * faults (the test dies); every result must equal the same call on ordinary
 * heap buffers (the differential tests check those against OpenSSL).
 *
 * The batch calls (aeskit_gcm_seal_batch / _open_batch, 12-byte IVs, full
 * tags) get the same: batches of 2..9 messages of 0..80 bytes (one length,
 * or lengths varying within a block or across blocks; AAD of 0, 5 or 16
 * bytes; one key or two), every message's input, output, AAD, IV and
 * tag flush against a guard page of its own, outputs and tags each in
 * increasing address order (the layout whose batches reach a backend's
 * gcm_batch entry); every result must equal the single calls'.
 *
 * It also prints, for information, the time of a 16-byte GCM seal with the
 * output at a page start against one in mid-page: masked accesses that touch
 * a non-writable page take a microcode assist (see v_load_w in
 * src/x86/aes_vaes_avx512.c); the figures are not asserted.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define DATA_PAGES 2

/* [PROT_NONE][DATA_PAGES writable][PROT_NONE] */
typedef struct {
    uint8_t *base, *data;
    size_t page, data_len;
} fenced;

static int fenced_map(fenced *f)
{
    f->page = (size_t)sysconf(_SC_PAGESIZE);
    f->data_len = DATA_PAGES * f->page;
    f->base = mmap(NULL, f->data_len + 2 * f->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (f->base == MAP_FAILED)
        return -1;
    f->data = f->base + f->page;
    if (mprotect(f->base, f->page, PROT_NONE) || mprotect(f->data + f->data_len, f->page, PROT_NONE))
        return -1;
    return 0;
}

/* n bytes at the start (at_end = 0) or the end (at_end = 1) of the fence. */
static uint8_t *fenced_at(const fenced *f, size_t n, int at_end)
{
    return at_end ? f->data + f->data_len - n : f->data;
}

static uint8_t *place(const fenced *f, const uint8_t *src, size_t n, int at_end)
{
    uint8_t *p = fenced_at(f, n, at_end);
    if (n)
        memcpy(p, src, n);
    return p;
}

enum { F_IN, F_OUT, F_AAD, F_IV, F_TAG, F_COUNT };

static fenced fence[F_COUNT];
static aeskit_aes_key aes;
static aeskit_gcm_key gcm;
static aeskit_cmac_key cmac;
static aeskit_xts_key xts;

/* The reference: the same call on heap buffers. */
typedef struct {
    uint8_t out[8192], tag[16];
    size_t out_len;
    int st;
} result;

/* Runs mode `m` on (in, len) with every buffer from `b` (heap or fenced),
 * in place if inplace (out = in). */
static void run_mode(int m, uint8_t *in, size_t len, uint8_t *out, const uint8_t *aad, size_t aad_len,
                     uint8_t *iv, uint8_t *tag, result *r)
{
    size_t ol = 0;
    r->out_len = len;
    switch (m) {
    case 0: r->st = aeskit_gcm_seal(&gcm, out, tag, 16, in, len, iv, 12, aad, aad_len); break;
    case 1: r->st = aeskit_gcm_open(&gcm, out, in, len, tag, 16, iv, 12, aad, aad_len); break;
    case 2: r->st = aeskit_gcm_seal(&gcm, out, tag, 16, in, len, iv, 16, aad, aad_len); break;
    case 3: r->st = aeskit_gmac(&gcm, tag, 16, iv, 12, in, len); r->out_len = 0; break;
    case 4: r->st = aeskit_ctr_crypt(&aes, out, in, len, iv); break;
    case 5: r->st = aeskit_cbc_decrypt(&aes, out, in, len / 16 * 16, iv); r->out_len = len / 16 * 16; break;
    case 6: r->st = aeskit_cbc_encrypt(&aes, out, in, len / 16 * 16, iv); r->out_len = len / 16 * 16; break;
    case 7:
        r->st = len >= 16 ? aeskit_xts_encrypt(&xts, out, in, len, iv) : AESKIT_OK;
        r->out_len = len >= 16 ? len : 0;
        break;
    case 8:
        r->st = len >= 16 ? aeskit_xts_decrypt(&xts, out, in, len, iv) : AESKIT_OK;
        r->out_len = len >= 16 ? len : 0;
        break;
    case 9: r->st = aeskit_cmac(&cmac, tag, 16, in, len); r->out_len = 0; break;
    case 10: r->st = aeskit_ccm_seal(&aes, out, tag, 16, in, len, iv, 12, aad, aad_len); break;
    default:
        r->st = aeskit_ecb_encrypt(&aes, out, in, len / 16 * 16);
        r->out_len = len / 16 * 16;
        break;
    }
    (void)ol;
    if (r->out_len)
        memcpy(r->out, out, r->out_len);
    memcpy(r->tag, tag, 16);
}

static const char *mode_name[] = {"gcm_seal iv12", "gcm_open iv12", "gcm_seal iv16", "gmac", "ctr",
                                  "cbc_decrypt", "cbc_encrypt", "xts_encrypt", "xts_decrypt", "cmac",
                                  "ccm_seal", "ecb"};
#define NMODES 12

static void one(int m, size_t len, int at_end, int inplace)
{
    static uint8_t msg[8192], aad[64], iv0[16], tag0[16], out_h[8192], iv_h[16], tag_h[16];
    size_t aad_len = len % 3 == 0 ? 0 : (len * 7) % 61; /* 0, partial and whole AAD blocks */
    th_fill(msg, len);
    th_fill(aad, sizeof aad);
    th_fill(iv0, sizeof iv0);
    th_fill(tag0, sizeof tag0);

    /* Reference on heap buffers (in place when the case is). */
    result ref, got;
    uint8_t *in_h = inplace ? out_h : msg;
    if (inplace)
        memcpy(out_h, msg, len);
    memcpy(iv_h, iv0, 16);
    memcpy(tag_h, tag0, 16);
    run_mode(m, in_h, len, out_h, aad, aad_len, iv_h, tag_h, &ref);

    /* Fenced: every buffer against a guard page. */
    uint8_t *in_f = place(&fence[F_IN], msg, len, at_end);
    uint8_t *out_f = inplace ? in_f : fenced_at(&fence[F_OUT], len, at_end);
    const uint8_t *aad_f = place(&fence[F_AAD], aad, aad_len, at_end);
    uint8_t *iv_f = place(&fence[F_IV], iv0, 16, at_end);
    uint8_t *tag_f = place(&fence[F_TAG], tag0, 16, at_end);
    run_mode(m, in_f, len, out_f, aad_len ? aad_f : aad, aad_len, iv_f, tag_f, &got);

    TH_CHECK(got.st == ref.st && got.out_len == ref.out_len &&
                 (!ref.out_len || !memcmp(got.out, ref.out, ref.out_len)) && !memcmp(got.tag, ref.tag, 16),
             "%s len %zu aad %zu %s %s: status %d/%d, outputs %s", mode_name[m], len, aad_len,
             at_end ? "at page end" : "at page start", inplace ? "in place" : "out of place", got.st, ref.st,
             got.out_len == ref.out_len && (!ref.out_len || !memcmp(got.out, ref.out, ref.out_len)) ? "equal"
                                                                                                    : "differ");
}

/* ---- batches ------------------------------------------------------------ */

/* Per message and buffer kind one page between guard pages: [PROT_NONE]
 * then, for each slot, [page][PROT_NONE]; slot (kind, i) = kind * BMAX + i,
 * so every kind's buffers lie in message order and the outputs below the
 * tags. */
#define BMAX 9
enum { B_OUT, B_TAG, B_IN, B_AAD, B_IV, B_KINDS };
static uint8_t *bslots;
static size_t bpage;

static int bslots_map(void)
{
    bpage = (size_t)sysconf(_SC_PAGESIZE);
    size_t n = (size_t)B_KINDS * BMAX;
    bslots = mmap(NULL, (2 * n + 1) * bpage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (bslots == MAP_FAILED)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (mprotect(bslots + (2 * i + 1) * bpage, bpage, PROT_READ | PROT_WRITE))
            return -1;
    return 0;
}

/* n bytes of slot (kind, i): at the start of its page or flush against
 * its end. */
static uint8_t *bslot(int kind, size_t i, size_t n, int at_end)
{
    uint8_t *page = bslots + (2 * ((size_t)kind * BMAX + i) + 1) * bpage;
    return at_end ? page + bpage - n : page;
}

/* One batch of n messages: lens[i], aad_len, message i under key
 * keys2[i % nkeys]; sealed and opened as a batch with every buffer
 * fenced, against the single calls on heap buffers. */
static void batch_one(size_t n, const size_t *lens, size_t aad_len, int nkeys, int at_end, int inplace)
{
    static aeskit_gcm_key keys2[2];
    static int keys2_set;
    if (!keys2_set) {
        uint8_t k[32];
        th_fill(k, sizeof k);
        TH_CHECK(aeskit_gcm_init_backend(&keys2[0], k, 16, th_backend()) == AESKIT_OK, "batch key");
        TH_CHECK(aeskit_gcm_init_backend(&keys2[1], k + 8, 24, th_backend()) == AESKIT_OK, "batch key");
        keys2_set = 1;
    }
    static uint8_t msg[BMAX][96], aad[BMAX][16], iv[BMAX][12], ref_ct[BMAX][96], ref_tag[BMAX][16];
    aeskit_gcm_msg m[BMAX];
    for (size_t i = 0; i < n; i++) {
        const aeskit_gcm_key *k = &keys2[i % (size_t)nkeys];
        th_fill(msg[i], lens[i]);
        th_fill(aad[i], aad_len);
        th_fill(iv[i], 12);
        TH_CHECK(aeskit_gcm_seal(k, ref_ct[i], ref_tag[i], 16, msg[i], lens[i], iv[i], 12, aad[i], aad_len) ==
                     AESKIT_OK,
                 "batch reference seal");
        uint8_t *in = bslot(B_IN, i, lens[i], at_end);
        memcpy(in, msg[i], lens[i]);
        uint8_t *ivp = bslot(B_IV, i, 12, at_end), *ap = bslot(B_AAD, i, aad_len, at_end);
        memcpy(ivp, iv[i], 12);
        memcpy(ap, aad[i], aad_len);
        uint8_t *out = inplace ? in : bslot(B_OUT, i, lens[i], at_end);
        m[i] = (aeskit_gcm_msg){k, out, bslot(B_TAG, i, 16, at_end), 16, in, lens[i], ivp, 12, ap, aad_len,
                                (aeskit_status)99};
    }
    aeskit_status st = aeskit_gcm_seal_batch(m, n);
    TH_CHECK(st == AESKIT_OK, "seal batch of %zu (len %zu, aad %zu): %d", n, lens[0], aad_len, st);
    for (size_t i = 0; i < n; i++) {
        TH_CHECK_MEM(m[i].out, ref_ct[i], lens[i], "seal batch of %zu: message %zu (len %zu, aad %zu, %s, %s)", n,
                     i, lens[i], aad_len, at_end ? "at page end" : "at page start",
                     inplace ? "in place" : "out of place");
        TH_CHECK_MEM(m[i].tag, ref_tag[i], 16, "seal batch of %zu: tag %zu (len %zu, aad %zu, %s)", n, i, lens[i],
                     aad_len, at_end ? "at page end" : "at page start");
    }
    /* open in place or into the output slot (then the input slot holds
     * the ciphertext) */
    for (size_t i = 0; i < n; i++) {
        if (!inplace) {
            memcpy((uint8_t *)(uintptr_t)m[i].in, ref_ct[i], lens[i]);
            memset(m[i].out, 0, lens[i]);
        }
        m[i].status = (aeskit_status)99;
    }
    st = aeskit_gcm_open_batch(m, n);
    TH_CHECK(st == AESKIT_OK, "open batch of %zu (len %zu, aad %zu): %d", n, lens[0], aad_len, st);
    for (size_t i = 0; i < n; i++)
        TH_CHECK_MEM(m[i].out, msg[i], lens[i], "open batch of %zu: message %zu (len %zu, aad %zu, %s, %s)", n, i,
                     lens[i], aad_len, at_end ? "at page end" : "at page start",
                     inplace ? "in place" : "out of place");
}

static void batches(void)
{
    static const size_t aads[] = {0, 5, 16};
    static const size_t counts[] = {2, 3, 4, 5, 8, 9};
    for (size_t len = 0; len <= 80; len++)
        for (size_t ai = 0; ai < 3; ai++)
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                const size_t n = counts[ci];
                size_t lens[BMAX];
                int mode = (int)((len + ai + ci) % 3); /* one length, within its block, across blocks */
                for (size_t i = 0; i < n; i++) {
                    lens[i] = len;
                    if (mode == 1 && len)
                        lens[i] = (len - 1) / 16 * 16 + 1 + th_randn((len - 1) % 16 + 1);
                    else if (mode == 2)
                        lens[i] = th_randn(81);
                }
                for (int at_end = 0; at_end < 2; at_end++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        batch_one(n, lens, aads[ai], 1 + (int)(ci % 2) * (mode == 2), at_end, inplace);
            }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Best-of-batches ns per 16-byte seal with out at `out`. */
static double seal16_ns(uint8_t *out, const uint8_t *in, const uint8_t *aad, uint8_t *tag)
{
    static const uint8_t iv[12] = {1};
    double best = 1e30;
    int st = AESKIT_OK;
    for (int rep = 0; rep < 50; rep++) {
        double t = now_ns();
        for (int i = 0; i < 2000; i++)
            st |= aeskit_gcm_seal(&gcm, out, tag, 16, in, 16, iv, 12, aad, 16);
        t = (now_ns() - t) / 2000;
        if (t < best)
            best = t;
    }
    TH_CHECK(st == AESKIT_OK, "timed 16-byte seal failed: %s", aeskit_strerror(st));
    return best;
}

int main(void)
{
    const char *be = th_backend();
    uint8_t key[64];
    th_seed(0x6a5d);
    th_fill(key, sizeof key);
    if (aeskit_aes_init_backend(&aes, key, 16, be) || aeskit_gcm_init_backend(&gcm, key, 16, be) ||
        aeskit_cmac_init_backend(&cmac, key, 16, be) || aeskit_xts_init_backend(&xts, key, 32, be)) {
        printf("FAIL: key set-up\n");
        return 1;
    }
    for (int i = 0; i < F_COUNT; i++)
        if (fenced_map(&fence[i])) {
            printf("SKIP: cannot map guard pages here\n");
            return 77;
        }

    if (bslots_map()) {
        printf("SKIP: cannot map guard pages here\n");
        return 77;
    }
    batches();

    static const size_t longer[] = {320, 383, 449, 480, 511, 512, 1023, 1420, 2048, 4095, 4096, 6000};
    for (int m = 0; m < NMODES; m++)
        for (int at_end = 0; at_end < 2; at_end++)
            for (int inplace = 0; inplace < 2; inplace++) {
                if (inplace && (m == 3 || m == 9))
                    continue; /* MACs have no output */
                for (size_t len = 0; len <= 300; len++)
                    one(m, len, at_end, inplace);
                for (size_t i = 0; i < sizeof longer / sizeof longer[0]; i++)
                    one(m, longer[i], at_end, inplace);
            }

    /* Information only: output at a page start (the page before it is
     * PROT_NONE) against output in mid-page. */
    uint8_t *in = fence[F_IN].data + 1000, *aad = fence[F_AAD].data + 1000, *tag = fence[F_TAG].data + 1000;
    double edge = seal16_ns(fence[F_OUT].data, in, aad, tag);
    double mid = seal16_ns(fence[F_OUT].data + 1000, in, aad, tag);
    printf("info: 16-byte GCM seal, output at a page start after a PROT_NONE page: %.1f ns; "
           "mid-page: %.1f ns (%.2fx)\n",
           edge, mid, edge / mid);
    return th_finish("guard_pages");
}
