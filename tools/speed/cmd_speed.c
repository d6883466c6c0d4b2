/*
 * cmd_speed.c - `aeskit speed`: the measurement loop.
 *
 * For each cell (algorithm, direction, update size, message size):
 *   1. every implementation sets its key up once;
 *   2. each one is checked on the same input against the reference (aeskit's
 *      first backend, or the first peer when aeskit lacks the mode): same
 *      ciphertext and tag, the key reusable for a second message, and (when
 *      verifying) a corrupted tag rejected.  One that disagrees is reported
 *      and not timed;
 *   3. each one is calibrated to a batch of messages lasting a few ms (the
 *      clock is read once per batch, so its cost stays out of the numbers),
 *      which also warms caches, branch predictors and the core clock;
 *   4. rounds: every implementation runs one batch per round, the order
 *      rotating from round to round, until each has been measured for
 *      --seconds.  The best batch is the figure, (median - best) / best
 *      the spread: the noise a reader should allow for.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aeskit.h"
#include "commands.h"
#include "speed.h"

#define MAX_IMPLS 32
#define MAX_SAMPLES 20000

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct live {
    speed_impl *impl;
    void *state;     /* NULL: not run in this cell */
    void *enc_state; /* the reference's encryption state when decrypting */
    size_t batch;
    double *samples;  /* ns per message, every batch */
    double *clean;    /* ns per message, batches that kept the CPU throughout */
    size_t nsamples, nclean;
    double spent_ns;
    speed_result *res;
} live;

static void *impl_setup(const speed_impl *im, const speed_cell *c, const uint8_t *key, char *why,
                        size_t whylen)
{
    if (im->is_aeskit && im->single_calls)
        return speed_aeskit_setup_single(c, key, im->aeskit_backend, why, whylen);
    if (im->is_aeskit)
        return speed_aeskit_setup(c, key, im->aeskit_backend, why, whylen);
    return im->peer->setup(c, key, why, whylen);
}

static int impl_run(const speed_impl *im, void *st, const speed_buf *b, size_t first, size_t n)
{
    if (im->is_aeskit)
        return speed_aeskit_run(st, b, first, n);
    return im->peer->run(st, b, first, n);
}

static void impl_done(const speed_impl *im, void *st)
{
    if (!st)
        return;
    if (im->is_aeskit)
        speed_aeskit_done(st);
    else
        im->peer->done(st);
}

/* Builds the decryption pool: SPEED_POOL messages encrypted (or MACed) by
 * the reference, message j under IV number j. */
static int make_pool(speed_buf *b, const speed_impl *im, void *enc_state,
                     const speed_cell *enc_cell)
{
    for (size_t j = 0; j < SPEED_POOL; j++) {
        speed_buf e = *b;
        e.cell = enc_cell;
        if (enc_cell->alg->has_out)
            e.out = b->ct[j];
        if (impl_run(im, enc_state, &e, j, 1))
            return -1;
        memcpy(b->tags[j], e.tag_out, 16);
    }
    return 0;
}

/* Runs message 0 and captures out/tag; returns the run's status. */
static int run_msg0(const speed_impl *im, void *st, speed_buf *b, uint8_t *out, uint8_t tag[16])
{
    const speed_cell *c = b->cell;
    size_t ol = speed_out_len(c->alg, c->decrypt, c->size);
    memset(b->out, 0xa5, ol);
    memset(b->tag_out, 0x5a, 16);
    int r = impl_run(im, st, b, 0, 1);
    memcpy(out, b->out, ol);
    memcpy(tag, b->tag_out, 16);
    return r;
}

/* Checks one implementation against the expected message-0 result.
 * Returns 0 if it agrees, else writes why. */
static int cross_check(const speed_impl *im, void *st, speed_buf *b, const uint8_t *want_out,
                       const uint8_t *want_tag, const char *ref, char *why, size_t whylen)
{
    const speed_cell *c = b->cell;
    const speed_alg *a = c->alg;
    size_t ol = speed_out_len(a, c->decrypt, c->size);
    uint8_t *out = malloc(ol ? ol : 1);
    uint8_t tag[16];
    int bad = 0;
    if (!out) {
        speed_why(why, whylen, "out of memory");
        return -1;
    }
    for (int pass = 0; pass < 2 && !bad; pass++) {
        const char *when = pass ? " on reusing the key" : "";
        if (pass && impl_run(im, st, b, 1, 1)) {
            speed_why(why, whylen, "failed on a second message");
            bad = 1;
            break;
        }
        if (run_msg0(im, st, b, out, tag)) {
            speed_why(why, whylen, "%s failed%s", c->decrypt ? "verification" : "the call",
                      when);
            bad = 1;
        } else if (a->has_out && memcmp(out, want_out, ol)) {
            speed_why(why, whylen, "%s differs from %s%s", c->decrypt ? "plaintext" : "ciphertext",
                      ref, when);
            bad = 1;
        } else if (a->has_tag && !c->decrypt && memcmp(tag, want_tag, 16)) {
            speed_why(why, whylen, "tag differs from %s%s", ref, when);
            bad = 1;
        }
    }
    if (!bad && c->decrypt && a->has_tag) {
        b->tags[0][5] ^= 0x10;
        int r = impl_run(im, st, b, 0, 1);
        b->tags[0][5] ^= 0x10;
        if (r == 0) {
            speed_why(why, whylen, "accepts a corrupted tag");
            bad = 1;
        }
    }
    if (!bad && c->decrypt && a->out_extra) {
        /* key wrap: the integrity check is inside the wrapped key */
        b->ct[0][5] ^= 0x10;
        int r = impl_run(im, st, b, 0, 1);
        b->ct[0][5] ^= 0x10;
        if (r == 0) {
            speed_why(why, whylen, "accepts a corrupted wrapped key");
            bad = 1;
        }
    }
    free(out);
    return bad;
}

static void progress(FILE *err, int tty, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void progress(FILE *err, int tty, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (tty)
        fputs("\r\033[K", err);
    vfprintf(err, fmt, ap);
    if (!tty)
        fputc('\n', err);
    fflush(err);
    va_end(ap);
}

static void measure_cell(speed_report *rep, size_t ci, FILE *err, int tty)
{
    const speed_opts *o = rep->opts;
    speed_cell *c = &rep->cells[ci];
    const char *why = NULL;
    live lv[MAX_IMPLS];
    size_t k = rep->nimpls;
    memset(lv, 0, sizeof lv);
    for (size_t i = 0; i < k; i++) {
        lv[i].impl = &rep->impls[i];
        lv[i].res = speed_res(rep, ci, i);
        lv[i].res->impl = &rep->impls[i];
        lv[i].res->cell = *c;
        lv[i].res->status = SR_UNSUPPORTED;
    }
    if (!speed_cell_valid(c, &why)) {
        for (size_t i = 0; i < k; i++)
            snprintf(lv[i].res->note, sizeof lv[i].res->note, "%s", why);
        return;
    }
    speed_buf b;
    if (speed_buf_init(&b, c)) {
        speed_buf_free(&b);
        for (size_t i = 0; i < k; i++) {
            lv[i].res->status = SR_FAILED;
            snprintf(lv[i].res->note, sizeof lv[i].res->note, "out of memory");
        }
        return;
    }
    speed_cell enc_cell = *c;
    enc_cell.decrypt = 0;
    enc_cell.update = 0;
    enc_cell.batch = 0; /* the pool's message j goes to b->ct[j], not a slot */

    /* 1. set up; the first implementation that can run the cell (and, when
     * decrypting, encrypt for it) is the reference. */
    int ref = -1;
    for (size_t i = 0; i < k; i++) {
        lv[i].state = impl_setup(lv[i].impl, c, b.key, lv[i].res->note, sizeof lv[i].res->note);
        if (!lv[i].state)
            continue;
        lv[i].res->status = SR_OK;
        lv[i].res->note[0] = 0;
        if (ref < 0 && c->decrypt) {
            char tmp[160];
            void *es = impl_setup(lv[i].impl, &enc_cell, b.key, tmp, sizeof tmp);
            if (es && make_pool(&b, lv[i].impl, es, &enc_cell) == 0)
                ref = (int)i;
            impl_done(lv[i].impl, es);
        } else if (ref < 0) {
            ref = (int)i;
        }
    }

    /* 2. the expected output and the cross-check */
    size_t n = speed_out_len(c->alg, c->decrypt, c->size);
    uint8_t *want = malloc(n ? n : 1);
    uint8_t want_tag[16] = {0};
    int have_want = 0;
    if (want && ref >= 0) {
        if (c->decrypt) {
            memcpy(want, b.plain, c->size);
            have_want = 1;
        } else if (run_msg0(lv[ref].impl, lv[ref].state, &b, want, want_tag) == 0) {
            have_want = 1;
        }
    }
    for (size_t i = 0; i < k; i++) {
        if (!lv[i].state)
            continue;
        char note[160];
        if (!have_want) {
            lv[i].res->status = SR_FAILED;
            snprintf(lv[i].res->note, sizeof lv[i].res->note,
                     "no reference output for this cell");
        } else if (cross_check(lv[i].impl, lv[i].state, &b, want, want_tag,
                               c->decrypt ? "the plaintext" : lv[ref].impl->label, note,
                               sizeof note)) {
            lv[i].res->status = (int)i == ref ? SR_FAILED : SR_DISAGREES;
            snprintf(lv[i].res->note, sizeof lv[i].res->note, "%s", note);
        }
        if (lv[i].res->status != SR_OK) {
            impl_done(lv[i].impl, lv[i].state);
            lv[i].state = NULL;
            if (lv[i].res->status == SR_DISAGREES)
                fprintf(err, "%saeskit speed: %s %s %s %zu B: %s disagrees: %s; not timed\n",
                        tty ? "\r\033[K" : "", c->alg->name, speed_op_name(c),
                        c->update ? "streamed" : "one-shot", c->size, lv[i].impl->label,
                        lv[i].res->note);
        }
    }
    free(want);
    /* If aeskit is the reference and every peer that could run disagrees
     * with it, the likelier culprit is aeskit: say so. */
    if (ref >= 0 && lv[ref].impl->is_aeskit) {
        int peers = 0, against = 0;
        for (size_t i = 0; i < k; i++) {
            if (lv[i].impl->is_aeskit || lv[i].res->status == SR_UNSUPPORTED)
                continue;
            peers++;
            against += lv[i].res->status == SR_DISAGREES;
        }
        if (peers >= 2 && against == peers)
            fprintf(err, "%saeskit speed: %s %s %zu B: all %d peers disagree with %s: "
                         "suspect aeskit\n",
                    tty ? "\r\033[K" : "", c->alg->name, speed_op_name(c), c->size, peers,
                    lv[ref].impl->label);
    }

    /* 3. calibrate (also the warm-up) */
    double target = o->seconds * 1e9 / 10;
    if (target > 3e6)
        target = 3e6;
    if (target < 2e5)
        target = 2e5;
    for (size_t i = 0; i < k; i++) {
        if (!lv[i].state)
            continue;
        size_t nb = 1;
        double t = 0;
        for (;;) {
            uint64_t t0 = speed_now_ns();
            int r = impl_run(lv[i].impl, lv[i].state, &b, 0, nb);
            t = (double)(speed_now_ns() - t0);
            if (r) {
                lv[i].res->status = SR_FAILED;
                snprintf(lv[i].res->note, sizeof lv[i].res->note, "a call failed while timing");
                break;
            }
            if (t >= target / 4 || nb >= (1u << 30))
                break;
            nb *= t < target / 64 ? 8 : 2;
        }
        if (lv[i].res->status != SR_OK) {
            impl_done(lv[i].impl, lv[i].state);
            lv[i].state = NULL;
            continue;
        }
        double scaled = (double)nb * target / (t > 1 ? t : 1);
        lv[i].batch = scaled < 1 ? 1 : (size_t)scaled;
        if (c->batch > 1) /* whole calls of c->batch messages */
            lv[i].batch = (lv[i].batch + c->batch - 1) / c->batch * c->batch;
        impl_run(lv[i].impl, lv[i].state, &b, 0, lv[i].batch); /* warm-up at size */
        lv[i].samples = malloc(MAX_SAMPLES * sizeof(double));
        lv[i].clean = malloc(MAX_SAMPLES * sizeof(double));
        if (!lv[i].samples || !lv[i].clean) {
            impl_done(lv[i].impl, lv[i].state);
            lv[i].state = NULL;
            lv[i].res->status = SR_FAILED;
            snprintf(lv[i].res->note, sizeof lv[i].res->note, "out of memory");
        }
    }

    /* 4. interleaved rounds */
    double budget = o->seconds * 1e9;
    for (size_t round = 0; round < MAX_SAMPLES; round++) {
        int more = 0;
        for (size_t q = 0; q < k; q++) {
            size_t i = (q + round) % k;
            if (!lv[i].state)
                continue;
            if (lv[i].spent_ns >= budget && lv[i].nsamples >= 5)
                continue;
            more = 1;
            /* the CPU-time reads sit outside the timed interval */
            uint64_t c0 = speed_thread_cpu_ns();
            uint64_t t0 = speed_now_ns();
            int r = impl_run(lv[i].impl, lv[i].state, &b, 0, lv[i].batch);
            double dt = (double)(speed_now_ns() - t0);
            double cpu = (double)(speed_thread_cpu_ns() - c0);
            if (r) {
                lv[i].res->status = SR_FAILED;
                snprintf(lv[i].res->note, sizeof lv[i].res->note, "a call failed while timing");
                impl_done(lv[i].impl, lv[i].state);
                lv[i].state = NULL;
                continue;
            }
            lv[i].spent_ns += dt;
            lv[i].samples[lv[i].nsamples++] = dt / (double)lv[i].batch;
            /* kept the CPU: CPU time (which also covers the clock reads) at
             * least 98% of the wall time; unknown CPU time counts as kept */
            if (c0 == 0 || cpu >= 0.98 * dt)
                lv[i].clean[lv[i].nclean++] = dt / (double)lv[i].batch;
        }
        if (!more)
            break;
    }

    for (size_t i = 0; i < k; i++) {
        speed_result *res = lv[i].res;
        if (lv[i].state && lv[i].nsamples) {
            qsort(lv[i].samples, lv[i].nsamples, sizeof(double), cmp_double);
            double best = lv[i].samples[0];
            /* the spread is the noise of the measurement itself, so it is
             * taken over the batches nothing else interrupted (when there
             * are enough of them); interruptions are reported apart */
            double med = lv[i].samples[lv[i].nsamples / 2];
            if (lv[i].nclean >= 3) {
                qsort(lv[i].clean, lv[i].nclean, sizeof(double), cmp_double);
                med = lv[i].clean[lv[i].nclean / 2];
            }
            res->interrupted = 1.0 - (double)lv[i].nclean / (double)lv[i].nsamples;
            res->ns_per_msg = best;
            res->ns_per_byte = best / (double)c->size;
            res->bytes_per_sec = (double)c->size * 1e9 / best;
            res->cycles_per_byte = res->ns_per_byte * rep->mhz / 1000.0;
            res->spread = best > 0 ? (med - best) / best : 0;
        }
        impl_done(lv[i].impl, lv[i].state);
        free(lv[i].samples);
        free(lv[i].clean);
    }
    speed_buf_free(&b);
}

static void read_cpu_model(char *dst, size_t n)
{
    snprintf(dst, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        /* x86 "model name", AArch64 has none (use "CPU part"), POWER "cpu" */
        if (!strncmp(line, "model name", 10) || !strncmp(line, "cpu\t", 4)) {
            char *p = strchr(line, ':');
            if (!p)
                continue;
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            p[strcspn(p, "\n")] = 0;
            snprintf(dst, n, "%s", p);
            break;
        }
    }
    fclose(f);
}

static int peer_wanted(const speed_opts *o, const char *name)
{
    if (o->peers_none)
        return 0;
    if (!o->npeer_names)
        return 1;
    for (size_t i = 0; i < o->npeer_names; i++)
        if (!strncmp(name, o->peer_names[i], strlen(o->peer_names[i])))
            return 1;
    return 0;
}

static int add_aeskit(speed_impl *impls, size_t *n, const char *backend)
{
    if (*n >= MAX_IMPLS)
        return -1;
    speed_impl *im = &impls[(*n)++];
    memset(im, 0, sizeof *im);
    im->is_aeskit = 1;
    im->aeskit_backend = backend;
    snprintf(im->impl, sizeof im->impl, "aeskit");
    snprintf(im->backend, sizeof im->backend, "%s", backend);
    snprintf(im->label, sizeof im->label, "aeskit %s", backend);
    return 0;
}

int speed_run(const speed_opts *o, const speed_peer *const *extra, size_t nextra, FILE *out,
              FILE *err)
{
    static speed_impl impls[MAX_IMPLS];
    size_t n = 0;
    int tty = !o->quiet && isatty(fileno(err));

    /* The plot's file is opened first: a path that cannot be written fails
     * now, with the reason, not after the whole benchmark. */
    FILE *plot = NULL;
    if (o->plot && !(plot = fopen(o->plot, "w"))) {
        fprintf(err, "aeskit speed: --plot %s: %s\n", o->plot, strerror(errno));
        return 2;
    }

    /* aeskit's columns */
    if (o->backend_all) {
        for (size_t i = 0; i < aeskit_backend_count(); i++) {
            aeskit_backend_info info;
            if (aeskit_backend_get(&info, i) == AESKIT_OK && info.available)
                add_aeskit(impls, &n, info.name);
        }
    } else if (o->nbackends || o->backend) {
        const char *one[1] = {o->backend};
        const char *const *list = o->nbackends ? o->backends : one;
        size_t nl = o->nbackends ? o->nbackends : 1;
        for (size_t k = 0; k < nl; k++) {
            const char *name = strcmp(list[k], "best") ? list[k] : aeskit_backend_default();
            int dup = 0;
            for (size_t i = 0; i < n; i++)
                dup |= !strcmp(impls[i].aeskit_backend, name);
            if (dup)
                continue;
            aeskit_status st = aeskit_backend_check(name);
            if (st != AESKIT_OK) {
                fprintf(err, "aeskit speed: backend '%s': %s%s\n", name, aeskit_strerror(st),
                        o->backends_soft ? "; skipped" : " (see `aeskit list`)");
                if (o->backends_soft)
                    continue;
                if (plot)
                    fclose(plot);
                return 2;
            }
            add_aeskit(impls, &n, name);
        }
    } else {
        const char *best = aeskit_backend_default();
        add_aeskit(impls, &n, best);
        if (strcmp(best, "generic") != 0)
            add_aeskit(impls, &n, "generic");
    }
    /* --batch: each aeskit column again with one message per call, so the
     * batch and the single calls are timed in the same rounds */
    for (size_t i = 0, na = n; o->batch && i < na && n < MAX_IMPLS; i++) {
        speed_impl *im = &impls[n++];
        *im = impls[i];
        im->single_calls = 1;
        snprintf(im->backend, sizeof im->backend, "%s 1/call", impls[i].aeskit_backend);
        snprintf(im->label, sizeof im->label, "aeskit %s 1/call", impls[i].aeskit_backend);
    }

    /* peers: compiled in and wanted; then the test's extra ones */
    char unusable[512] = "";
    for (size_t i = 0; i < speed_npeers && n < MAX_IMPLS; i++) {
        const speed_peer *p = speed_peers[i];
        if (!peer_wanted(o, p->name))
            continue;
        const char *v = p->version();
        if (!v) {
            size_t l = strlen(unusable);
            snprintf(unusable + l, sizeof unusable - l, "%s%s", l ? ", " : "", p->name);
            continue;
        }
        speed_impl *im = &impls[n++];
        memset(im, 0, sizeof *im);
        im->peer = p;
        snprintf(im->impl, sizeof im->impl, "%s", p->name);
        snprintf(im->backend, sizeof im->backend, "%s", v);
        snprintf(im->label, sizeof im->label, "%s %s", p->name, v);
    }
    for (size_t i = 0; i < nextra && n < MAX_IMPLS; i++) {
        speed_impl *im = &impls[n++];
        memset(im, 0, sizeof *im);
        im->peer = extra[i];
        const char *v = extra[i]->version();
        snprintf(im->impl, sizeof im->impl, "%s", extra[i]->name);
        snprintf(im->backend, sizeof im->backend, "%s", v ? v : "?");
        snprintf(im->label, sizeof im->label, "%s %s", extra[i]->name, v ? v : "?");
    }

    speed_report rep;
    memset(&rep, 0, sizeof rep);
    rep.opts = o;
    rep.impls = impls;
    rep.nimpls = n;
    rep.features = aeskit_cpu_features();
    read_cpu_model(rep.cpu_model, sizeof rep.cpu_model);

    rep.ncells = o->ncells ? o->ncells : o->nalgs * o->nupdates * o->nsizes;
    rep.cells = calloc(rep.ncells, sizeof *rep.cells);
    rep.res = calloc(rep.ncells * (n ? n : 1), sizeof *rep.res);
    if (!rep.cells || !rep.res) {
        fprintf(err, "aeskit speed: out of memory\n");
        if (plot)
            fclose(plot);
        return 1;
    }
    size_t ci = 0;
    if (o->ncells) {
        /* a preset: its cells as given, consecutive cells of one (algorithm,
           direction, update) forming one table */
        memcpy(rep.cells, o->cells, o->ncells * sizeof *rep.cells);
    } else {
        for (size_t a = 0; a < o->nalgs; a++)
            for (size_t u = 0; u < o->nupdates; u++)
                for (size_t s = 0; s < o->nsizes; s++) {
                    speed_cell *c = &rep.cells[ci++];
                    c->alg = o->algs[a];
                    c->decrypt = o->decrypt;
                    c->size = o->sizes[s];
                    c->update = o->updates[u];
                    c->aad_len = o->aad_len;
                }
    }
    for (size_t i = 0; i < (o->ncells ? o->ncells : ci); i++)
        rep.cells[i].batch = o->batch;

    if (!o->quiet) {
        fprintf(err, "aeskit speed: %zu cells x %zu implementations, about %.0f s; "
                     "estimating the core clock...\n",
                rep.ncells, n, (double)rep.ncells * (double)n * o->seconds * 1.15 + 0.2);
        if (speed_nabsent || unusable[0]) {
            fprintf(err, "aeskit speed: peers");
            for (size_t i = 0; i < speed_nabsent; i++)
                fprintf(err, "%s %s", i ? "," : "", speed_absent_peers[i]);
            if (speed_nabsent)
                fprintf(err, " absent (not found at build time)");
            if (unusable[0])
                fprintf(err, "%s %s cannot run on this machine", speed_nabsent ? ";" : "",
                        unusable);
            fprintf(err, "\n");
        }
    }
    rep.mhz = speed_cpu_mhz();
    if (!o->quiet)
        fprintf(err, "aeskit speed: core clock estimate %.0f MHz (dependent-add chain)\n",
                rep.mhz);

    for (ci = 0; ci < rep.ncells; ci++) {
        const speed_cell *c = &rep.cells[ci];
        if (!o->quiet) {
            char upd[40] = "";
            if (c->update)
                snprintf(upd, sizeof upd, ", %zu B per update", c->update);
            progress(err, tty, "aeskit speed: [%zu/%zu] %s %s %zu B%s", ci + 1, rep.ncells,
                     c->alg->name, speed_op_name(c), c->size, upd);
        }
        measure_cell(&rep, ci, err, tty);
    }
    if (tty)
        fputs("\r\033[K", err);

    speed_output(out, &rep);
    int rc = 0;
    if (plot && speed_plot_file(plot, &rep)) {
        fprintf(err, "aeskit speed: cannot write %s: %s\n", o->plot, strerror(errno));
        rc = 1;
    }
    fflush(out);
    free(rep.cells);
    free(rep.res);
    return rc;
}

int aeskit_cmd_speed(int argc, char **argv)
{
    speed_opts o;
    int rc = speed_parse_opts(argc, argv, &o, stderr);
    if (rc)
        return rc;
    if (o.help) {
        speed_usage(stdout);
        return 0;
    }
    /* a typo in AESKIT_CPU or AESKIT_BACKEND would otherwise measure the
       wrong thing (or a row for no backend at all) and exit 0 */
    rc = aeskit_tool_check_env("aeskit speed", stderr);
    if (rc)
        return rc;
    return speed_run(&o, NULL, 0, stdout, stderr);
}
