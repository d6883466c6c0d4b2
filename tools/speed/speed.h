/*
 * speed.h - internals of `aeskit speed`, shared by its files:
 *   cmd_speed.c   entry point: runs the cells, interleaves implementations
 *   opts.c        option parsing (exit 2 with a message on a bad option)
 *   clock.c       monotonic clock, core clock estimate (dependent-add chain)
 *   algs.c        the algorithm table and the per-message buffers
 *   impl_aeskit.c aeskit itself (one implementation per backend)
 *   peer_*.c      one file per peer library, compiled only when found
 *   output.c      table / openssl / tcrypt / slope / csv / json
 *   plot.c        the SVG plot
 *
 * The measured unit is one message: key set up once per implementation and
 * cell; per message a fresh IV, the AAD, the input, a separate output
 * buffer, a 16-byte tag.  Every implementation runs the same messages.
 */
#ifndef AESKIT_SPEED_H
#define AESKIT_SPEED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- algorithms ---------------------------------------------------------- */

enum speed_kind {
    SK_GCM,     /* AEAD, 12-byte IV */
    SK_GMAC,    /* GCM with the message as AAD, no ciphertext */
    SK_RFC4106, /* ESP AES-GCM: key || 4-byte salt, 8-byte IV */
    SK_CCM,     /* AEAD, 12-byte nonce */
    SK_CMAC,    /* MAC */
    SK_CBCMAC,  /* raw CBC-MAC over whole blocks, zero IV */
    SK_CTR,     /* 16-byte counter block */
    SK_CBC,     /* raw CBC, whole blocks, 16-byte IV */
    SK_XTS,     /* data unit >= 16 bytes, 16-byte tweak; key is two AES keys */
    SK_ECB,     /* whole blocks */
    /* the modes of issue 15 (docs/modes2.md); peers: OpenSSL and libgcrypt */
    SK_GCMSIV,  /* RFC 8452 AEAD, 12-byte nonce, AES-128/-256 only */
    SK_OCB,     /* RFC 7253 OCB3, 12-byte nonce, 16-byte tag */
    SK_EAX,     /* EAX, 12-byte nonce, 16-byte tag */
    SK_SIV,     /* RFC 5297 6 AEAD form: S2V(aad, nonce 12, msg); key is two AES keys */
    SK_KW,      /* SP 800-38F KW: out = len + 8 bytes, no IV (the check is inside) */
    SK_KWP,     /* SP 800-38F KWP: out = 8 * ceil(len / 8) + 8 bytes */
    SK_CFB,     /* CFB-128, 16-byte IV, any length */
    SK_CFB8,    /* CFB-8, 16-byte IV, any length */
    SK_OFB,     /* OFB, 16-byte IV, any length */
    SK_CTS,     /* CBC-CS3 (RFC 3962, OpenSSL's "CS3"), 16-byte IV, len >= 16 */
    SK_NKINDS
};

/* 1 for the modes of issue 15 (SK_GCMSIV .. SK_CTS): only the OpenSSL and
 * libgcrypt peers know them, every other peer says "unsupported". */
static inline int speed_kind_is_modes15(enum speed_kind k)
{
    return k >= SK_GCMSIV && k < SK_NKINDS;
}

typedef struct speed_alg {
    const char *name;   /* "aes-128-gcm" */
    const char *tcrypt; /* the kernel's name: "gcm(aes)", "rfc4106(gcm(aes))" */
    const char *slope;  /* libgcrypt bench-slope mode column: "GCM", "CMAC" */
    enum speed_kind kind;
    int bits;           /* AES key size: 128, 192, 256 */
    size_t key_len;     /* bytes handed to init (rfc4106 +4, xts x2) */
    size_t iv_len;      /* 0 when the mode has no IV */
    int has_tag;        /* writes a 16-byte tag (AEAD and MACs) */
    int has_out;        /* writes len bytes of output */
    int has_aad;        /* takes --aad bytes of AAD */
    int blocks_only;    /* sizes must be multiples of 16 */
    size_t min_size;    /* smallest size it accepts */
    int can_stream;     /* has a streaming interface (--update) */
    size_t out_extra;   /* encrypting writes this many bytes beyond len (KW: 8,
                           KWP: up to 15: padding and the integrity block) */
} speed_alg;

/* Bytes the output buffer of one message needs (decrypting writes len). */
static inline size_t speed_out_len(const speed_alg *a, int decrypt, size_t len)
{
    if (decrypt || !a->out_extra)
        return len;
    if (a->kind == SK_KWP)
        return (len + 7) / 8 * 8 + 8;
    return len + a->out_extra;
}

extern const speed_alg speed_algs[];
extern const size_t speed_nalgs;
const speed_alg *speed_alg_find(const char *name);

/* ---- one cell: what is measured -------------------------------------------- */

typedef struct speed_cell {
    const speed_alg *alg;
    int decrypt;     /* 1: decrypt / verify */
    size_t size;     /* message bytes */
    size_t update;   /* 0: one-shot API; N: streaming in pieces of N bytes */
    size_t aad_len;
    size_t batch;    /* --batch N: N messages per call of aeskit's batch API (and N
                        jobs in flight for ipsec-mb-multibuf); 0: one per call */
} speed_cell;

const char *speed_op_name(const speed_cell *c); /* "enc", "dec", "mac", "verify" */
int speed_cell_valid(const speed_cell *c, const char **why);

/* The message a run function gets.  Inputs are read-only; out and tag are
 * the implementation's to write (tag is read, not written, when decrypting). */
typedef struct speed_msg {
    const uint8_t *key;   /* alg->key_len bytes (setup only) */
    const uint8_t *iv;    /* alg->iv_len bytes, fresh per message */
    const uint8_t *aad;
    size_t aad_len;
    const uint8_t *in;
    size_t len;           /* message bytes (KW/KWP: the key data, also when unwrapping) */
    uint8_t *out;         /* speed_out_len bytes (has_out) */
    uint8_t *tag;         /* 16 bytes (has_tag) */
    size_t update;        /* 0 one-shot, else piece size */
} speed_msg;

#define SPEED_POOL 8 /* decryption cycles through this many valid messages */
#define SPEED_IV_RING 256 /* distinct per-message IVs, built before timing */

/* All buffers of one cell.  Message i uses IV number i % SPEED_IV_RING (its
 * first four bytes are that number, big-endian; the rest fixed filler);
 * when decrypting, message i reads ciphertext, tag and IV number
 * i % SPEED_POOL, made by the reference implementation.
 *
 * The IVs are a ring built once by speed_buf_init, not written per message:
 * building an IV with byte stores right before the call made every
 * library's wider IV load wait for those stores (a store-forwarding stall
 * of ~15 ns), which serialised short messages and understated every
 * implementation alike at 16-64 bytes.  A pointer into the ring gives each
 * message a fresh IV with no per-message work at all. */
typedef struct speed_buf {
    const speed_cell *cell;
    uint8_t key[64];
    uint8_t iv0[16];
    uint8_t (*ivs)[16];        /* SPEED_IV_RING IVs, 64-byte aligned */
    uint8_t *aad;
    uint8_t *plain;            /* size bytes */
    uint8_t *out;              /* size bytes; with a batch, batch slots of out_stride
                                  bytes (message j of a call writes slot j) */
    size_t out_stride;
    uint64_t slot_magic;       /* with a batch: UINT64_MAX / batch + 1 (speed_slot) */
    uint8_t (*tag_outs)[16];   /* with a batch: one tag slot per message of a call */
    uint8_t *ct[SPEED_POOL];   /* decrypting: ciphertexts (or plaintexts for MACs) */
    uint8_t tags[SPEED_POOL][16];
    uint8_t tag_out[16];
} speed_buf;

int speed_buf_init(speed_buf *b, const speed_cell *c);
void speed_buf_free(speed_buf *b);

/* Bytes of the next piece of a message streamed in updates of upd bytes
 * (0: the whole rest in one piece). */
static inline size_t speed_piece(size_t left, size_t upd)
{
    return upd && left > upd ? upd : left;
}

/* RFC 4106's 12-byte GCM nonce: the key's 4-byte salt || the 8-byte IV. */
static inline const uint8_t *speed_rfc4106_nonce(uint8_t nonce[12], const uint8_t salt[4],
                                                 const uint8_t *iv)
{
    memcpy(nonce, salt, 4);
    memcpy(nonce + 4, iv, 8);
    return nonce;
}

/* i mod n for n = b->cell->batch > 1 and i < 2^32, without a division:
 * with M = floor((2^64 - 1) / n) + 1, the low 64 bits of M * i are the
 * fraction i / n scaled by 2^64, and times n their high 64 bits are the
 * remainder (Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019, for 32-bit i and n).  `i % batch` compiled to a
 * 64-bit DIV per message, timed with every implementation's messages
 * under --batch. */
static inline size_t speed_slot(const speed_buf *b, size_t i)
{
    const uint64_t frac = b->slot_magic * (uint32_t)i;
    return (size_t)(((unsigned __int128)frac * b->cell->batch) >> 64);
}

/* Fills m for message i of the cell, all but m->out: what a batch call's
 * descriptor fill needs, since message j of a call writes slot j, known
 * without speed_slot's multiplies. */
static inline void speed_msg_src(const speed_buf *b, size_t i, speed_msg *m)
{
    const speed_cell *c = b->cell;
    size_t j = c->decrypt ? (i % SPEED_POOL) : i;
    m->key = b->key;
    m->iv = b->ivs[j % SPEED_IV_RING];
    m->aad = b->aad;
    m->aad_len = c->aad_len;
    m->len = c->size;
    m->update = c->update;
    m->out = NULL;
    if (c->decrypt) {
        m->in = b->ct[i % SPEED_POOL];
        m->tag = (uint8_t *)b->tags[i % SPEED_POOL];
    } else {
        m->in = b->plain;
        m->tag = (uint8_t *)b->tag_out;
    }
}

/* Fills m for message i of the cell. */
static inline void speed_msg_at(const speed_buf *b, size_t i, speed_msg *m)
{
    const speed_cell *c = b->cell;
    speed_msg_src(b, i, m);
    /* under --batch N message i writes slot i mod N, in single calls too:
     * every implementation then writes the N outputs a batch call writes */
    m->out = c->batch > 1 ? b->out + speed_slot(b, i) * b->out_stride : b->out;
}

/* Defines `static int NAME(void *st, const speed_buf *b, size_t first,
 * size_t n)`: ONE(st, &message) for each message of the batch, ORed.  A
 * macro, so that every library's per-message function is inlined into its
 * own loop (a call through a pointer per message would be timed too). */
#define SPEED_RUN_LOOP(NAME, ONE)                                          \
    static int NAME(void *st_, const speed_buf *b_, size_t first_, size_t n_) \
    {                                                                      \
        int bad_ = 0;                                                      \
        speed_msg m_;                                                      \
        for (size_t i_ = first_; i_ < first_ + n_; i_++) {                 \
            speed_msg_at(b_, i_, &m_);                                     \
            bad_ |= ONE(st_, &m_);                                         \
        }                                                                  \
        return bad_;                                                       \
    }

/* ---- implementations ------------------------------------------------------- */

typedef struct speed_impl speed_impl;

/* What a peer file provides.  setup() returns a state for the cell or NULL
 * with a reason ("unsupported", an error); run() does n messages and
 * returns 0, or non-zero if any call failed (bad tag, library error). */
typedef struct speed_peer {
    const char *name;                 /* "openssl", "libgcrypt", ... */
    const char *(*version)(void);     /* NULL if the library cannot run here */
    void *(*setup)(const speed_cell *c, const uint8_t *key, char *why, size_t whylen);
    int (*run)(void *state, const speed_buf *b, size_t first, size_t n);
    void (*done)(void *state);
    int multi_stream; /* keeps many independent messages in flight: a different
                         workload, shown but not counted as "best peer" */
} speed_peer;

/* One column of the comparison: a peer, or aeskit with a given backend. */
struct speed_impl {
    char label[64];            /* "aeskit x86-vaes-avx512", "openssl 3.0.19" */
    char impl[32];             /* CSV impl: "aeskit" or the peer's name */
    char backend[48];          /* CSV backend: aeskit backend or peer version */
    const speed_peer *peer;
    const char *aeskit_backend; /* for aeskit: the backend name */
    int is_aeskit;
    int single_calls;          /* aeskit with --batch: this column keeps one message per call */
};

/* aeskit as an implementation: the backend is passed through setup's key
 * argument convention (see impl_aeskit.c). */
void *speed_aeskit_setup(const speed_cell *c, const uint8_t *key, const char *backend,
                         char *why, size_t whylen);
/* The same with one message per call even under --batch (its "1/call" column). */
void *speed_aeskit_setup_single(const speed_cell *c, const uint8_t *key, const char *backend,
                                char *why, size_t whylen);
int speed_aeskit_run(void *state, const speed_buf *b, size_t first, size_t n);
void speed_aeskit_done(void *state);
int speed_aeskit_missing(const speed_alg *a); /* 1 if this library build lacks the mode */

/* The peers compiled into this build (and the names of those that are not). */
extern const speed_peer *const speed_peers[];
extern const size_t speed_npeers;
extern const char *const speed_absent_peers[];
extern const size_t speed_nabsent;

#define SPEED_PEERS_ALL_NAMES "openssl,libgcrypt,nettle,ipsec-mb,libsodium,wolfssl,boringssl"

/* ---- ipsec-mb (peer_ipsecmb.c) ------------------------------------------------
 * The library the peer uses is the linked one, or the libIPSec_MB.so named by
 * the environment variable AESKIT_IPSECMB_LIB (`--ipsecmb-lib PATH` sets it).
 * speed_ipsecmb_check loads path (NULL: the linked library), checks that its
 * version equals the header the peer was compiled with, and returns 0 with
 * the library's version string, or -1 with the reason (a refused mismatch,
 * a file that does not load).  Built only with the ipsec-mb peer. */
#define SPEED_IPSECMB_LIB_ENV "AESKIT_IPSECMB_LIB"
int speed_ipsecmb_check(const char *path, char *ver, size_t verlen, char *msg, size_t msglen);
const char *speed_ipsecmb_header_version(void);

/* The ipsec-mb architecture row that runs the same instruction set as an
 * aeskit x86 backend ("x86-vaes-avx512" -> "ipsec-mb-avx512"), or NULL. */
static inline const char *speed_same_isa_peer(const char *backend)
{
    if (!strcmp(backend, "x86-aesni"))
        return "ipsec-mb-sse";
    if (!strcmp(backend, "x86-vaes-avx2"))
        return "ipsec-mb-avx2";
    if (!strcmp(backend, "x86-vaes-avx512"))
        return "ipsec-mb-avx512";
    return NULL;
}

/* Helpers for peer files. */
int speed_ct_differ(const uint8_t *a, const uint8_t *b, size_t n);
void speed_why(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- options ---------------------------------------------------------------- */

enum speed_format { SF_TABLE, SF_OPENSSL, SF_TCRYPT, SF_SLOPE, SF_CSV, SF_JSON };

#define SPEED_MAX_LIST 64

typedef struct speed_opts {
    const speed_alg *algs[SPEED_MAX_LIST];
    size_t nalgs;
    size_t sizes[SPEED_MAX_LIST];
    size_t nsizes;
    size_t updates[SPEED_MAX_LIST]; /* 0 = one-shot */
    size_t nupdates;
    size_t aad_len;
    size_t batch;               /* --batch N (0: off) */
    double seconds;             /* measuring time per implementation per cell */
    int decrypt;
    int backend_all;            /* --backend all */
    const char *backend;        /* --backend: the first name (NULL: best + generic) */
    const char *backends[SPEED_MAX_LIST]; /* --backend LIST; "best" = the default backend */
    size_t nbackends;
    int backends_soft;          /* skip (with a note) listed backends this CPU lacks */
    const char *preset;         /* --preset NAME, or NULL */
    speed_cell cells[SPEED_MAX_LIST]; /* explicit cells (a preset); 0: algs x updates x sizes */
    size_t ncells;
    int peers_none;
    const char *peer_names[SPEED_MAX_LIST]; /* NULL list = all */
    size_t npeer_names;
    enum speed_format format;
    const char *plot;           /* --plot FILE.svg */
    int plot_linear;            /* --plot-y linear (default: log) */
    int quiet;                  /* --quiet: no progress on stderr */
    const char *ipsecmb_lib;    /* --ipsecmb-lib PATH (also put in SPEED_IPSECMB_LIB_ENV) */
    int help;
} speed_opts;

/* Parses argv (argv[0] is "speed").  Returns 0, or 2 after printing a
 * message to err. */
int speed_parse_opts(int argc, char **argv, speed_opts *o, FILE *err);
void speed_usage(FILE *f);

/* ---- clock ------------------------------------------------------------------- */

uint64_t speed_now_ns(void);
uint64_t speed_thread_cpu_ns(void); /* 0 if the system cannot tell */
double speed_cpu_mhz(void); /* estimated core clock, MHz */

/* ---- results ----------------------------------------------------------------- */

typedef struct speed_result {
    const speed_impl *impl;
    speed_cell cell;
    int status;            /* 0 timed; 1 unsupported; 2 disagrees; 3 failed */
    char note[160];
    double ns_per_msg;     /* best */
    double ns_per_byte;    /* best */
    double bytes_per_sec;  /* best */
    double cycles_per_byte;
    double spread;         /* (median - best) / best over the uninterrupted batches */
    double interrupted;    /* fraction of batches during which the thread lost the CPU */
} speed_result;

enum { SR_OK = 0, SR_UNSUPPORTED = 1, SR_DISAGREES = 2, SR_FAILED = 3 };

typedef struct speed_report {
    const speed_opts *opts;
    speed_impl *impls;
    size_t nimpls;
    speed_result *res;     /* [cell][impl], cells in order alg, op, update, size */
    speed_cell *cells;
    size_t ncells;
    double mhz;
    char cpu_model[128];
    const char *features;
} speed_report;

static inline speed_result *speed_res(const speed_report *r, size_t cell, size_t impl)
{
    return &r->res[cell * r->nimpls + impl];
}

void speed_output(FILE *f, const speed_report *r);
/* Writes the SVG plot to path / to f (which it closes); 0, or -1 with errno. */
int speed_plot(const char *path, const speed_report *r);
int speed_plot_file(FILE *f, const speed_report *r);

/* Runs the whole benchmark.  extra peers (tests) are added after the
 * compiled-in ones and are always enabled.  Output goes to out. */
int speed_run(const speed_opts *o, const speed_peer *const *extra, size_t nextra,
              FILE *out, FILE *err);

#endif
