/*
 * output.c - the report in the shapes people already read:
 *   table    aeskit's own: GB/s per size, fastest marked, aeskit / best peer
 *   openssl  `openssl speed -evp`: 1000s of bytes per second per size
 *   tcrypt   the kernel's tcrypt grid: cycles/operation and cycles/byte per
 *            (block size, bytes per update)
 *   slope    libgcrypt's bench-slope: ns/B, MiB/s, c/B and the clock, with
 *            the slope fitted over the sizes (the per-byte cost without the
 *            per-call overhead, which is what bench-slope reports)
 *   csv, json  one record per measurement
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "aeskit.h"
#include "speed.h"

/* Cells with the same algorithm, direction and update size form a group;
 * cells are stored so that a group's sizes are consecutive. */
typedef struct group {
    size_t first, n;
} group;

static size_t groups(const speed_report *r, group *g, size_t max)
{
    size_t ng = 0;
    for (size_t i = 0; i < r->ncells; i++) {
        const speed_cell *c = &r->cells[i];
        if (ng && i > 0) {
            const speed_cell *p = &r->cells[g[ng - 1].first];
            if (p->alg == c->alg && p->decrypt == c->decrypt && p->update == c->update) {
                g[ng - 1].n++;
                continue;
            }
        }
        if (ng == max)
            break;
        g[ng].first = i;
        g[ng].n = 1;
        ng++;
    }
    return ng;
}

static void upper(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; src[i] && i + 1 < n; i++)
        dst[i] = (char)toupper((unsigned char)src[i]);
    dst[i] = 0;
}

static void machine_lines(FILE *f, const speed_report *r, const char *prefix)
{
    fprintf(f, "%sCPU: %s; core clock estimate %.0f MHz\n", prefix, r->cpu_model, r->mhz);
    fprintf(f, "%saeskit %s; CPU features: %s\n", prefix, aeskit_version(),
            r->features && *r->features ? r->features : "(none)");
    if (speed_nabsent) {
        fprintf(f, "%sabsent (not found at build time):", prefix);
        for (size_t i = 0; i < speed_nabsent; i++)
            fprintf(f, "%s %s", i ? "," : "", speed_absent_peers[i]);
        fprintf(f, "\n");
    }
}

static const char *status_word(int st)
{
    switch (st) {
    case SR_UNSUPPORTED:
        return "n/a";
    case SR_DISAGREES:
        return "WRONG";
    case SR_FAILED:
        return "failed";
    default:
        return "";
    }
}

/* 1 if no implementation ran cell ci and all give the same reason. */
static int cell_all_same(const speed_report *r, size_t ci)
{
    for (size_t i = 0; i < r->nimpls; i++) {
        const speed_result *x = speed_res(r, ci, i);
        if (x->status == SR_OK || strcmp(x->note, speed_res(r, ci, 0)->note))
            return 0;
    }
    return r->nimpls > 0;
}

/* Prints the notes of the not-timed results of a group: a size nobody ran
 * once, then each (implementation, reason) once. */
static void group_notes(FILE *f, const speed_report *r, const group *g)
{
    for (size_t s = 0; s < g->n; s++)
        if (cell_all_same(r, g->first + s))
            fprintf(f, "  %zu B: %s (not timed)\n", r->cells[g->first + s].size,
                    speed_res(r, g->first + s, 0)->note);
    for (size_t i = 0; i < r->nimpls; i++) {
        const char *last = NULL;
        for (size_t s = 0; s < g->n; s++) {
            const speed_result *x = speed_res(r, g->first + s, i);
            if (x->status == SR_OK || cell_all_same(r, g->first + s) ||
                (last && !strcmp(last, x->note)))
                continue;
            /* the multi-buffer column exists for CMAC only: saying so under
               every other table is noise */
            if (x->status == SR_UNSUPPORTED && r->impls[i].peer &&
                r->impls[i].peer->multi_stream && r->cells[g->first].alg->kind != SK_CMAC)
                continue;
            fprintf(f, "  %s: %s%s%s\n", r->impls[i].label,
                    x->status == SR_DISAGREES ? "DISAGREES, not timed: " : "", x->note,
                    x->status == SR_DISAGREES ? "" : " (not timed)");
            last = x->note;
        }
    }
}

static void fmt_gbs(char *buf, size_t n, double bps)
{
    double g = bps / 1e9;
    snprintf(buf, n, g >= 10 ? "%.1f" : g >= 1 ? "%.2f" : "%.3f", g);
}

/* One ratio line of a group: aeskit column `mine` (or, for (size_t)-1, the
 * fastest aeskit column) over the peer named `peer` (or, for NULL, the
 * fastest single-stream peer), per size. */
static void ratio_row(FILE *f, const speed_report *r, const group *g, size_t w, const char *label,
                      size_t mine_i, const char *peer)
{
    fprintf(f, "%-*s", (int)w, label);
    for (size_t s = 0; s < g->n; s++) {
        size_t ci = g->first + s;
        double best = 0, mine = 0;
        for (size_t j = 0; j < r->nimpls; j++) {
            const speed_result *y = speed_res(r, ci, j);
            if (y->status != SR_OK)
                continue;
            if (r->impls[j].is_aeskit) {
                if ((mine_i == (size_t)-1 || mine_i == j) && y->bytes_per_sec > mine)
                    mine = y->bytes_per_sec;
            } else if (peer ? !strcmp(r->impls[j].impl, peer)
                            : !r->impls[j].peer->multi_stream) {
                if (y->bytes_per_sec > best)
                    best = y->bytes_per_sec;
            }
        }
        if (mine <= 0 || best <= 0) {
            fprintf(f, " %9s", "-");
        } else {
            char v[24];
            snprintf(v, sizeof v, "%.2fx ", mine / best);
            fprintf(f, " %9s", v);
        }
    }
    fprintf(f, "\n");
}

static void out_table(FILE *f, const speed_report *r)
{
    group g[256];
    size_t ng = groups(r, g, 256);
    machine_lines(f, r, "");
    size_t w = 17;
    /* a --backend list (or a preset) adds each backend's ratio lines */
    int per_backend = r->opts && r->opts->nbackends > 1;
    for (size_t i = 0; i < r->nimpls; i++) {
        if (strlen(r->impls[i].label) > w)
            w = strlen(r->impls[i].label);
        if (per_backend && r->impls[i].is_aeskit && strlen(r->impls[i].backend) + 10 > w)
            w = strlen(r->impls[i].backend) + 10; /* "<backend>/best peer" */
        const char *isa = r->impls[i].is_aeskit ? speed_same_isa_peer(r->impls[i].backend) : NULL;
        if (per_backend && isa && strlen(r->impls[i].backend) + 1 + strlen(isa) > w)
            w = strlen(r->impls[i].backend) + 1 + strlen(isa); /* "<backend>/ipsec-mb-<isa>" */
    }
    for (size_t gi = 0; gi < ng; gi++) {
        const speed_cell *c0 = &r->cells[g[gi].first];
        char name[32], upd[48] = "one-shot calls";
        upper(name, c0->alg->name, sizeof name);
        if (c0->update)
            snprintf(upd, sizeof upd, "streamed %zu B per update", c0->update);
        else if (c0->batch)
            snprintf(upd, sizeof upd, "%u messages per call", (unsigned)c0->batch);
        fprintf(f, "\n%s %s, %s; GB/s (10^9 bytes/s), best of rounds, * = fastest\n", name,
                speed_op_name(c0), upd);
        if (c0->alg->has_aad)
            fprintf(f, "  (%zu bytes of AAD per message)\n", c0->aad_len);
        fprintf(f, "%-*s", (int)w, "implementation");
        for (size_t s = 0; s < g[gi].n; s++) {
            char h[24];
            snprintf(h, sizeof h, "%zu B", r->cells[g[gi].first + s].size);
            fprintf(f, " %9s", h);
        }
        fprintf(f, "  spread\n");
        for (size_t i = 0; i < r->nimpls; i++) {
            /* an implementation that cannot do this at all gets a note, not a row */
            int shown = 0;
            for (size_t s = 0; s < g[gi].n; s++)
                shown |= speed_res(r, g[gi].first + s, i)->status != SR_UNSUPPORTED;
            if (!shown)
                continue;
            fprintf(f, "%-*s", (int)w, r->impls[i].label);
            double maxspread = -1;
            for (size_t s = 0; s < g[gi].n; s++) {
                size_t ci = g[gi].first + s;
                const speed_result *x = speed_res(r, ci, i);
                if (x->status != SR_OK) {
                    fprintf(f, " %9s", status_word(x->status));
                    continue;
                }
                int fastest = 1;
                for (size_t j = 0; j < r->nimpls; j++) {
                    const speed_result *y = speed_res(r, ci, j);
                    if (y->status == SR_OK && y->bytes_per_sec > x->bytes_per_sec)
                        fastest = 0;
                }
                char v[24], cell[32];
                fmt_gbs(v, sizeof v, x->bytes_per_sec);
                snprintf(cell, sizeof cell, "%s%s", v, fastest ? "*" : " ");
                fprintf(f, " %9s", cell);
                if (x->spread > maxspread)
                    maxspread = x->spread;
            }
            if (maxspread >= 0)
                fprintf(f, "  <=%.0f%%", maxspread * 100);
            fprintf(f, "\n");
        }
        /* aeskit (its first column) against the best peer, per size */
        int have_peer = 0, multi = 0;
        for (size_t i = 0; i < r->nimpls; i++) {
            have_peer |= !r->impls[i].is_aeskit && !r->impls[i].peer->multi_stream;
            for (size_t s = 0; s < g[gi].n && r->impls[i].peer; s++)
                multi |= r->impls[i].peer->multi_stream &&
                         speed_res(r, g[gi].first + s, i)->status == SR_OK;
        }
        if (have_peer && r->nimpls && r->impls[0].is_aeskit) {
            ratio_row(f, r, &g[gi], w, "aeskit/best peer", (size_t)-1, NULL);
            /* several listed aeskit backends (--backend LIST, --preset): each one's
               ratio to the best peer and to OpenSSL, which uses the same
               instruction classes */
            size_t nak = 0, ossl = (size_t)-1;
            for (size_t i = 0; i < r->nimpls; i++) {
                nak += (size_t)r->impls[i].is_aeskit;
                if (!r->impls[i].is_aeskit && !strcmp(r->impls[i].impl, "openssl"))
                    ossl = i;
            }
            for (size_t i = 0; i < r->nimpls && nak > 1 && per_backend; i++) {
                if (!r->impls[i].is_aeskit || r->impls[i].single_calls)
                    continue;
                char lab[96];
                snprintf(lab, sizeof lab, "%s/best peer", r->impls[i].backend);
                ratio_row(f, r, &g[gi], w, lab, i, NULL);
                if (ossl != (size_t)-1) {
                    snprintf(lab, sizeof lab, "%s/openssl", r->impls[i].backend);
                    ratio_row(f, r, &g[gi], w, lab, i, r->impls[ossl].impl);
                }
                /* and to ipsec-mb's code for the same instructions, when it is a row */
                const char *isa = speed_same_isa_peer(r->impls[i].backend);
                for (size_t j = 0; isa && j < r->nimpls; j++)
                    if (!r->impls[j].is_aeskit && !strcmp(r->impls[j].impl, isa)) {
                        snprintf(lab, sizeof lab, "%s/%s", r->impls[i].backend, isa);
                        ratio_row(f, r, &g[gi], w, lab, i, isa);
                    }
            }
        }
        if (multi)
            fprintf(f, "  (multibuf: many independent messages in flight, a different workload; "
                       "not counted as best peer)\n");
        group_notes(f, r, &g[gi]);
    }
    /* how much of the run other processes took from us */
    double sum = 0;
    int n = 0;
    for (size_t ci = 0; ci < r->ncells; ci++)
        for (size_t i = 0; i < r->nimpls; i++)
            if (speed_res(r, ci, i)->status == SR_OK)
                sum += speed_res(r, ci, i)->interrupted, n++;
    fprintf(f, "\nspread = (median - best) / best over the batches nothing interrupted: the noise "
               "to allow for.\n");
    if (n)
        fprintf(f, "%.0f%% of the timed batches lost the CPU to other processes (a busy machine); "
                   "the best batch is the figure.\n",
                100.0 * sum / n);
}

/* The openssl format's "type" of a row: one word, as `openssl speed` has
 * (its parsers split on blanks): "AES-128-GCM/aeskit-generic". */
static void openssl_type(char *dst, size_t n, const speed_cell *c0, const speed_impl *im)
{
    char up[32];
    upper(up, c0->alg->name, sizeof up);
    snprintf(dst, n, "%s%s/%s", up, c0->decrypt ? "-dec" : "", im->label);
    for (char *p = dst; *p; p++)
        if (*p == ' ' || *p == '\t')
            *p = '-';
}

static void out_openssl(FILE *f, const speed_report *r)
{
    group g[256];
    size_t ng = groups(r, g, 256);
    /* the type column: at least openssl's 13, else the longest type + 1 */
    size_t w = 13;
    for (size_t gi = 0; gi < ng; gi++)
        for (size_t i = 0; i < r->nimpls; i++) {
            char name[160];
            openssl_type(name, sizeof name, &r->cells[g[gi].first], &r->impls[i]);
            if (strlen(name) + 1 > w)
                w = strlen(name) + 1;
        }
    /* the number columns: openssl's 13 ("  16384 bytes"), wider when a
     * figure needs it, always a blank between columns */
    size_t cw = 12;
    for (size_t ci = 0; ci < r->ncells; ci++) {
        size_t hl = (size_t)snprintf(NULL, 0, "%zu bytes", r->cells[ci].size);
        if (hl > cw)
            cw = hl;
        for (size_t i = 0; i < r->nimpls; i++) {
            const speed_result *x = speed_res(r, ci, i);
            size_t l = x->status != SR_OK ? strlen(status_word(x->status))
                                          : (size_t)snprintf(NULL, 0, "%.2fk",
                                                             x->bytes_per_sec / 1000.0);
            if (l > cw)
                cw = l;
        }
    }
    machine_lines(f, r, "# ");
    fprintf(f, "The 'numbers' are in 1000s of bytes per second processed.\n");
    for (size_t gi = 0; gi < ng; gi++) {
        const speed_cell *c0 = &r->cells[g[gi].first];
        if (c0->update)
            fprintf(f, "# streamed in pieces of %zu bytes\n", c0->update);
        fprintf(f, "%-*s", (int)w, "type");
        for (size_t s = 0; s < g[gi].n; s++) {
            char h[32];
            snprintf(h, sizeof h, "%zu bytes", r->cells[g[gi].first + s].size);
            fprintf(f, " %*s", (int)cw, h);
        }
        fprintf(f, "\n");
        for (size_t i = 0; i < r->nimpls; i++) {
            char name[160];
            openssl_type(name, sizeof name, c0, &r->impls[i]);
            fprintf(f, "%-*s", (int)w, name);
            for (size_t s = 0; s < g[gi].n; s++) {
                const speed_result *x = speed_res(r, g[gi].first + s, i);
                char v[48];
                if (x->status != SR_OK)
                    snprintf(v, sizeof v, "%s", status_word(x->status));
                else
                    snprintf(v, sizeof v, "%.2fk", x->bytes_per_sec / 1000.0);
                fprintf(f, " %*s", (int)cw, v);
            }
            fprintf(f, "\n");
        }
        group_notes(f, r, &g[gi]);
    }
}

/*
 * The kernel's tcrypt prints two kinds of line (crypto/tcrypt.c, sec=1):
 *   ciphers and AEADs (test_skcipher_speed, test_aead_speed):
 *     test 0 (128 bit key, 16 byte blocks): 1234567 operations in 1 seconds (19753072 bytes)
 *   hashes, here the MACs (test_ahash_speed), in cycles:
 *     test  0 (   16 byte blocks,   16 bytes per update,   1 updates):    123 cycles/operation,    7 cycles/byte
 * Our figure is the best batch's time per message, so "operations in 1
 * seconds" is 10^9 / ns per message.  The kernel has no streamed ciphers:
 * a cipher measured in updates gets a heading of its own saying so.
 */
static void out_tcrypt(FILE *f, const speed_report *r)
{
    group g[256];
    size_t ng = groups(r, g, 256);
    machine_lines(f, r, "# ");
    /* one heading per implementation and algorithm/direction (and update
     * size, for ciphers), then a line per size */
    for (size_t i = 0; i < r->nimpls; i++) {
        const speed_alg *prev = NULL;
        int prevdec = -1, test = 0, skip = 0;
        size_t prevupd = 0;
        for (size_t gi = 0; gi < ng; gi++) {
            for (size_t s = 0; s < g[gi].n; s++) {
                size_t ci = g[gi].first + s;
                const speed_cell *c = &r->cells[ci];
                const speed_result *x = speed_res(r, ci, i);
                int hash = !c->alg->has_out; /* MACs: the kernel's hash lines */
                if (c->alg != prev || c->decrypt != prevdec || (!hash && c->update != prevupd)) {
                    prev = c->alg;
                    prevdec = c->decrypt;
                    prevupd = c->update;
                    test = 0;
                    /* an implementation without this algorithm: one line, no grid */
                    int any = 0;
                    for (size_t cj = ci; cj < r->ncells && r->cells[cj].alg == c->alg; cj++)
                        any |= speed_res(r, cj, i)->status != SR_UNSUPPORTED;
                    if (!any) {
                        fprintf(f, "\n# %s: %s: %s\n", c->alg->tcrypt, r->impls[i].label,
                                x->note);
                        skip = 1;
                        continue;
                    }
                    skip = 0;
                    fprintf(f, "\ntesting speed of %s (%s)", c->alg->tcrypt, r->impls[i].label);
                    if (hash)
                        fprintf(f, "%s, %d bit key\n", c->decrypt ? " verification" : "",
                                c->alg->bits);
                    else if (c->update)
                        fprintf(f, " %s, streamed in %zu-byte updates\n",
                                c->decrypt ? "decryption" : "encryption", c->update);
                    else
                        fprintf(f, " %s\n", c->decrypt ? "decryption" : "encryption");
                } else if (skip) {
                    continue;
                }
                if (hash) {
                    size_t upd = c->update && c->update < c->size ? c->update : c->size;
                    size_t nupd = (c->size + upd - 1) / upd;
                    fprintf(f, "test%3d (%5zu byte blocks,%5zu bytes per update,%4zu updates): ",
                            test++, c->size, upd, nupd);
                    if (x->status != SR_OK) {
                        fprintf(f, "%s: %s\n", status_word(x->status), x->note);
                        continue;
                    }
                    double cyc = x->ns_per_msg * r->mhz / 1000.0;
                    fprintf(f, "%6.0f cycles/operation, %4.0f cycles/byte\n", cyc,
                            floor(cyc / (double)c->size));
                } else {
                    fprintf(f, "test %d (%d bit key, %zu byte blocks): ", test++, c->alg->bits,
                            c->size);
                    if (x->status != SR_OK) {
                        fprintf(f, "%s: %s\n", status_word(x->status), x->note);
                        continue;
                    }
                    double ops = floor(1e9 / x->ns_per_msg);
                    fprintf(f, "%.0f operations in 1 seconds (%.0f bytes)\n", ops,
                            ops * (double)c->size);
                }
            }
        }
    }
}

static void slope_mode(char *dst, size_t n, const speed_cell *c)
{
    if (c->update)
        snprintf(dst, n, "%s %s /%zu", c->alg->slope, speed_op_name(c), c->update);
    else
        snprintf(dst, n, "%s %s", c->alg->slope, speed_op_name(c));
}

static void out_slope(FILE *f, const speed_report *r)
{
    group g[256];
    size_t ng = groups(r, g, 256);
    machine_lines(f, r, "# ");
    /* one label width for the whole report, as bench-slope aligns its table */
    int hw = 16;
    for (size_t ci = 0; ci < r->ncells; ci++) {
        char mode[48];
        slope_mode(mode, sizeof mode, &r->cells[ci]);
        int l = (int)strlen(mode) + 1 + snprintf(NULL, 0, "%zuB", r->cells[ci].size);
        if (l > hw)
            hw = l;
    }
    for (size_t i = 0; i < r->nimpls; i++) {
        int bits = -1;
        for (size_t gi = 0; gi < ng; gi++) {
            const speed_cell *c0 = &r->cells[g[gi].first];
            if (c0->alg->bits != bits) {
                fprintf(f, "\n AES%d: %s\n", c0->alg->bits, r->impls[i].label);
                fprintf(f, "%*s |  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz\n", hw,
                        "");
                bits = c0->alg->bits;
            }
            char mode[48];
            slope_mode(mode, sizeof mode, c0);
            /* least-squares fit of ns per message against size */
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            int n = 0;
            for (size_t s = 0; s < g[gi].n; s++) {
                const speed_result *x = speed_res(r, g[gi].first + s, i);
                if (x->status != SR_OK)
                    continue;
                double xs = (double)x->cell.size, ys = x->ns_per_msg;
                sx += xs, sy += ys, sxx += xs * xs, sxy += xs * ys, n++;
            }
            if (n >= 2 && n * sxx - sx * sx > 0) {
                double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
                double icpt = (sy - slope * sx) / n;
                int origin = 0;
                /* A negative per-call cost is noise (the small sizes measured
                   relatively faster): fit through 0 instead, and say so. */
                if (slope > 0 && icpt < 0) {
                    slope = sxy / sxx;
                    icpt = 0;
                    origin = 1;
                }
                /* how far the worst size lies off the line */
                double worst = 0;
                for (size_t s = 0; s < g[gi].n; s++) {
                    const speed_result *x = speed_res(r, g[gi].first + s, i);
                    if (x->status != SR_OK || !(x->ns_per_msg > 0))
                        continue;
                    double fit = icpt + slope * (double)x->cell.size;
                    double off = fabs(x->ns_per_msg - fit) / x->ns_per_msg;
                    if (off > worst)
                        worst = off;
                }
                char fitnote[96];
                if (origin)
                    snprintf(fitnote, sizeof fitnote, "per-call cost below the noise, fitted "
                                                      "through 0");
                else
                    snprintf(fitnote, sizeof fitnote, "%.0f ns per call", icpt);
                if (worst > 0.15)
                    snprintf(fitnote + strlen(fitnote), sizeof fitnote - strlen(fitnote),
                             "; poor fit, a size is %.0f%% off the line", worst * 100);
                if (slope > 0)
                    fprintf(f, "%*s |  %9.3f ns/B  %9.0f MiB/s  %9.3f c/B  %8.0f   (slope over "
                               "%d sizes; %s)\n",
                            hw, mode, slope, 1e9 / slope / 1048576.0, slope * r->mhz / 1000.0,
                            r->mhz, n, fitnote);
                else /* larger messages measured no slower: noise, too few sizes */
                    fprintf(f, "%*s |  (slope over %d sizes not positive: noise; see below)\n", hw,
                            mode, n);
            }
            for (size_t s = 0; s < g[gi].n; s++) {
                const speed_result *x = speed_res(r, g[gi].first + s, i);
                char lab[64];
                snprintf(lab, sizeof lab, "%s %zuB", mode, x->cell.size);
                if (x->status != SR_OK) {
                    fprintf(f, "%*s |  %s: %s\n", hw, lab, status_word(x->status), x->note);
                    continue;
                }
                fprintf(f, "%*s |  %9.3f ns/B  %9.0f MiB/s  %9.3f c/B  %8.0f\n", hw, lab,
                        x->ns_per_byte, x->bytes_per_sec / 1048576.0, x->cycles_per_byte,
                        r->mhz);
            }
        }
    }
}

static const char csv_header[] =
    "impl,backend,alg,op,size,update,bytes_per_sec,ns_per_byte,cycles_per_byte,cpu_mhz,spread";

static void out_csv(FILE *f, const speed_report *r)
{
    fprintf(f, "%s\n", csv_header);
    for (size_t ci = 0; ci < r->ncells; ci++)
        for (size_t i = 0; i < r->nimpls; i++) {
            const speed_result *x = speed_res(r, ci, i);
            if (x->status != SR_OK)
                continue;
            const speed_cell *c = &r->cells[ci];
            fprintf(f, "%s,%s,%s,%s,%zu,%zu,%.0f,%.5f,%.5f,%.0f,%.4f\n", r->impls[i].impl,
                    r->impls[i].backend, c->alg->name, speed_op_name(c), c->size, c->update,
                    x->bytes_per_sec, x->ns_per_byte, x->cycles_per_byte, r->mhz, x->spread);
        }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_common(FILE *f, const speed_report *r, size_t ci, size_t i)
{
    const speed_cell *c = &r->cells[ci];
    fprintf(f, "{\"impl\": ");
    json_str(f, r->impls[i].impl);
    fprintf(f, ", \"backend\": ");
    json_str(f, r->impls[i].backend);
    fprintf(f, ", \"alg\": ");
    json_str(f, c->alg->name);
    fprintf(f, ", \"op\": \"%s\", \"size\": %zu, \"update\": %zu", speed_op_name(c), c->size,
            c->update);
}

static void out_json(FILE *f, const speed_report *r)
{
    fprintf(f, "{\n  \"tool\": \"aeskit speed\",\n  \"version\": ");
    json_str(f, aeskit_version());
    fprintf(f, ",\n  \"machine\": {\"cpu_model\": ");
    json_str(f, r->cpu_model);
    fprintf(f, ", \"features\": ");
    json_str(f, r->features);
    fprintf(f, ", \"cpu_mhz\": %.0f, \"clock_method\": \"dependent-add chain\"},\n", r->mhz);
    fprintf(f, "  \"method\": {\"seconds_per_impl\": %g, \"aad\": %zu, \"tag\": 16, "
               "\"spread\": \"(median - best) / best over uninterrupted batches\", "
               "\"interrupted\": \"fraction of batches that lost the CPU\"},\n",
            r->opts->seconds, r->opts->aad_len);
    fprintf(f, "  \"absent_peers\": [");
    for (size_t i = 0; i < speed_nabsent; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_str(f, speed_absent_peers[i]);
    }
    fprintf(f, "],\n  \"results\": [");
    int first = 1;
    for (size_t ci = 0; ci < r->ncells; ci++)
        for (size_t i = 0; i < r->nimpls; i++) {
            const speed_result *x = speed_res(r, ci, i);
            if (x->status != SR_OK)
                continue;
            fprintf(f, "%s\n    ", first ? "" : ",");
            first = 0;
            json_common(f, r, ci, i);
            fprintf(f, ", \"bytes_per_sec\": %.0f, \"ns_per_byte\": %.5f, \"cycles_per_byte\": "
                       "%.5f, \"cpu_mhz\": %.0f, \"spread\": %.4f, \"interrupted\": %.3f}",
                    x->bytes_per_sec, x->ns_per_byte, x->cycles_per_byte, r->mhz, x->spread,
                    x->interrupted);
        }
    fprintf(f, "\n  ],\n  \"not_timed\": [");
    first = 1;
    for (size_t ci = 0; ci < r->ncells; ci++)
        for (size_t i = 0; i < r->nimpls; i++) {
            const speed_result *x = speed_res(r, ci, i);
            if (x->status == SR_OK)
                continue;
            fprintf(f, "%s\n    ", first ? "" : ",");
            first = 0;
            json_common(f, r, ci, i);
            fprintf(f, ", \"status\": \"%s\", \"note\": ",
                    x->status == SR_DISAGREES ? "disagrees"
                    : x->status == SR_FAILED  ? "failed"
                                              : "unsupported");
            json_str(f, x->note);
            fprintf(f, "}");
        }
    fprintf(f, "\n  ]\n}\n");
}

void speed_output(FILE *f, const speed_report *r)
{
    switch (r->opts->format) {
    case SF_OPENSSL:
        out_openssl(f, r);
        break;
    case SF_TCRYPT:
        out_tcrypt(f, r);
        break;
    case SF_SLOPE:
        out_slope(f, r);
        break;
    case SF_CSV:
        out_csv(f, r);
        break;
    case SF_JSON:
        out_json(f, r);
        break;
    default:
        out_table(f, r);
        break;
    }
}
