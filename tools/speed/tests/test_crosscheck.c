/* test_crosscheck.c - a peer that disagrees with aeskit is reported and
 * never timed.  The fake peers wrap aeskit's generic backend and then
 * spoil its result in one way each: a flipped tag bit, a wrong output
 * byte, right on the first message but wrong on the next (a key-reuse
 * bug), or accepting any tag when verifying. */
#include "harness.h"

enum { HONEST, FLIP_TAG, FLIP_OUT, REUSE_BUG, ACCEPT_ALL, NFAKES };
static const char *const names[NFAKES] = {"fake-honest", "fake-fliptag", "fake-flipout",
                                          "fake-reusebug", "fake-acceptall"};
static size_t msgs[NFAKES];

typedef struct fake {
    void *inner;
    int kind;
    size_t calls;
} fake;

static const char *fake_version(void)
{
    return "0";
}

static void *fake_setup(int kind, const speed_cell *c, const uint8_t *key, char *why, size_t wl)
{
    fake *f = calloc(1, sizeof *f);
    f->kind = kind;
    f->inner = speed_aeskit_setup(c, key, "generic", why, wl);
    if (!f->inner) {
        free(f);
        return NULL;
    }
    return f;
}

static int fake_run(void *st, const speed_buf *b, size_t first, size_t n)
{
    fake *f = st;
    msgs[f->kind] += n;
    int r = speed_aeskit_run(f->inner, b, first, n);
    speed_buf *w = (speed_buf *)b; /* the output buffers are ours to write */
    int spoil = f->kind == FLIP_TAG || f->kind == FLIP_OUT || (f->kind == REUSE_BUG && f->calls > 0);
    f->calls++;
    if (spoil && !b->cell->decrypt) {
        if (f->kind == FLIP_OUT || !b->cell->alg->has_tag)
            w->out[b->cell->size - 1] ^= 1;
        else
            w->tag_out[15] ^= 0x80;
    }
    if (spoil && b->cell->decrypt)
        w->out[0] ^= 1;
    return f->kind == ACCEPT_ALL ? 0 : r;
}

static void fake_done(void *st)
{
    fake *f = st;
    speed_aeskit_done(f->inner);
    free(f);
}

#define FAKE(K, lower)                                                                            \
    static void *setup_##lower(const speed_cell *c, const uint8_t *key, char *why, size_t wl)     \
    {                                                                                             \
        return fake_setup(K, c, key, why, wl);                                                    \
    }                                                                                             \
    static const speed_peer peer_##lower = {NULL, fake_version, setup_##lower, fake_run,          \
                                            fake_done, 0};
FAKE(HONEST, honest)
FAKE(FLIP_TAG, fliptag)
FAKE(FLIP_OUT, flipout)
FAKE(REUSE_BUG, reusebug)
FAKE(ACCEPT_ALL, acceptall)

static void run_case(const char *line, const int *bad, size_t nbad, const char *why)
{
    speed_peer peers[NFAKES] = {peer_honest, peer_fliptag, peer_flipout, peer_reusebug,
                                peer_acceptall};
    const speed_peer *extra[NFAKES];
    for (int i = 0; i < NFAKES; i++) {
        peers[i].name = names[i];
        extra[i] = &peers[i];
    }
    memset(msgs, 0, sizeof msgs);
    char *out, *err;
    int rc = run_line(line, extra, NFAKES, &out, &err);
    CHECK(rc == 0, "'%s' exit %d", line, rc);
    /* the honest fake and aeskit itself are timed: one CSV row each */
    CHECK(count_lines_with(out, "aeskit,generic,") == 1, "aeskit row in\n%s", out);
    CHECK(count_lines_with(out, "fake-honest,0,") == 1, "honest fake timed:\n%s", out);
    CHECK(msgs[HONEST] > 10, "honest fake ran only %zu messages", msgs[HONEST]);
    for (int i = 1; i < NFAKES; i++) {
        int expected_bad = 0;
        for (size_t k = 0; k < nbad; k++)
            expected_bad |= bad[k] == i;
        char needle[64];
        snprintf(needle, sizeof needle, "%s,", names[i]);
        if (expected_bad) {
            CHECK(count_lines_with(out, needle) == 0, "%s was timed:\n%s", names[i], out);
            CHECK(msgs[i] <= 4, "%s ran %zu messages: timed after disagreeing", names[i],
                  msgs[i]);
            snprintf(needle, sizeof needle, "%s 0 disagrees", names[i]);
            CHECK(count_lines_with(err, needle) == 1, "'%s' not reported:\n%s", needle, err);
        } else {
            CHECK(count_lines_with(out, needle) == 1, "%s not timed:\n%s\n%s", names[i], out,
                  err);
        }
    }
    CHECK(strstr(err, why) != NULL, "reason '%s' missing:\n%s", why, err);
    free(out);
    free(err);
}

/* The per-message IVs: a ring of SPEED_IV_RING distinct IVs built before
 * timing (no IV bytes written per message); message i takes number
 * i % SPEED_IV_RING (i % SPEED_POOL when decrypting, matching the pool). */
static void test_iv_ring(void)
{
    for (int dec = 0; dec < 2; dec++) {
        speed_cell c = {speed_alg_find("aes-128-gcm"), dec, 64, 0, 16, 0};
        speed_buf b;
        CHECK(speed_buf_init(&b, &c) == 0, "buf init");
        speed_msg m0, m;
        speed_msg_at(&b, 0, &m0);
        int distinct = 1, numbered = 1, wraps = 1;
        for (size_t i = 1; i < SPEED_IV_RING; i++) {
            speed_msg_at(&b, i, &m);
            size_t want = dec ? i % SPEED_POOL : i;
            uint32_t num = (uint32_t)m.iv[0] << 24 | (uint32_t)m.iv[1] << 16 |
                           (uint32_t)m.iv[2] << 8 | m.iv[3];
            numbered &= num == want && !memcmp(m.iv + 4, b.iv0 + 4, 12);
            if (!dec || i < SPEED_POOL)
                distinct &= memcmp(m.iv, m0.iv, 16) != 0 && m.iv != m0.iv;
        }
        for (size_t i = 0; i < 4; i++) {
            speed_msg a, z;
            speed_msg_at(&b, i, &a);
            speed_msg_at(&b, i + SPEED_IV_RING, &z);
            wraps &= a.iv == z.iv;
        }
        CHECK(distinct, "IVs of consecutive messages differ (dec %d)", dec);
        CHECK(numbered, "IV i carries i big-endian in its first bytes (dec %d)", dec);
        CHECK(wraps, "message i + %d reuses ring slot i (dec %d)", SPEED_IV_RING, dec);
        CHECK(((uintptr_t)m0.iv & 15) == 0, "ring 16-byte aligned");
        speed_buf_free(&b);
    }
}

/* Under --batch N, message i writes output slot i mod N (speed_slot's
 * remainder without a division), up to the largest 32-bit index. */
static void test_batch_slots(void)
{
    static const size_t ns[] = {2, 3, 7, 64, 100, 1000, 1023, 1024};
    static const uint64_t far[] = {0xffffffffu, 0xfffffffeu, 0x80000000u, 0x7fffffffu, 0xdeadbeefu, 1u << 20};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        speed_cell c = {speed_alg_find("aes-128-gcm"), 0, 64, 0, 16, ns[t]};
        speed_buf b;
        CHECK(speed_buf_init(&b, &c) == 0, "buf init");
        int ok = 1;
        speed_msg m;
        for (size_t i = 0; i < 3 * ns[t] + 5; i++) {
            speed_msg_at(&b, i, &m);
            ok &= speed_slot(&b, i) == i % ns[t] && m.out == b.out + (i % ns[t]) * b.out_stride;
        }
        for (size_t k = 0; k < sizeof far / sizeof far[0]; k++)
            ok &= speed_slot(&b, (size_t)far[k]) == (size_t)(far[k] % ns[t]);
        CHECK(ok, "message i writes slot i mod %zu", ns[t]);
        speed_buf_free(&b);
    }
}

int main(void)
{
    test_iv_ring();
    test_batch_slots();
    static const int enc_bad[] = {FLIP_TAG, FLIP_OUT, REUSE_BUG};
    run_case("--alg aes-128-gcm --sizes 64 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet",
             enc_bad, 3, "tag differs from aeskit generic");
    run_case("--alg aes-128-gcm --sizes 64 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet",
             enc_bad, 3, "on reusing the key");
    run_case("--alg aes-256-ctr --sizes 100 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet",
             enc_bad, 3, "ciphertext differs from aeskit generic");
    static const int dec_bad[] = {FLIP_TAG, FLIP_OUT, REUSE_BUG, ACCEPT_ALL};
    run_case("--alg aes-128-gcm --sizes 64 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet --decrypt",
             dec_bad, 4, "accepts a corrupted tag");
    /* the rows of issue 15: an AEAD with a partial block, key wrap (the
     * output is 8..15 bytes longer than the message; no tag, so unwrap
     * must refuse a flipped bit of the wrapped key instead) */
    run_case("--alg aes-128-ocb --sizes 17 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet",
             enc_bad, 3, "tag differs from aeskit generic");
    run_case("--alg aes-192-kwp --sizes 20 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet",
             enc_bad, 3, "ciphertext differs from aeskit generic");
    run_case("--alg aes-128-kw --sizes 64 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet --decrypt",
             dec_bad, 4, "accepts a corrupted wrapped key");
    static const int mac_bad[] = {FLIP_TAG, REUSE_BUG};
    run_case("--alg aes-128-cmac --sizes 64 --seconds 0.02 --peers none --backend generic "
             "--format csv --quiet --update 16",
             mac_bad, 2, "tag differs");

    /* and the human-readable table says so */
    speed_peer p = peer_fliptag;
    p.name = "fake-fliptag";
    const speed_peer *extra[1] = {&p};
    char *out;
    CHECK(run_line("--alg gcm --sizes 16 --seconds 0.01 --peers none --backend generic --quiet",
                   extra, 1, &out, NULL) == 0,
          "table run");
    CHECK(count_lines_with(out, "fake-fliptag 0") == 2 && strstr(out, "WRONG") &&
              strstr(out, "DISAGREES, not timed: tag differs"),
          "table marks the wrong peer:\n%s", out);
    free(out);
    return finish("test_crosscheck");
}
