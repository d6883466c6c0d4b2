/*
 * plot.c - `--plot FILE.svg`: throughput against message size, written as
 * plain SVG (no library): log2 x axis of size, GB/s on y, one line per
 * implementation (and per algorithm/direction when several were run), a
 * legend.  Opens in any browser.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "speed.h"

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* A "nice" tick step (1, 2 or 5 x 10^k) giving about n ticks up to max. */
static double nice_step(double max, int n)
{
    double raw = max / n, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

int speed_plot(const char *path, const speed_report *r)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    /* legend lines: (implementation, group) pairs with a measurement; the
     * picture grows downwards when the legend needs the room */
    int nlines = 0;
    for (size_t i = 0; i < r->nimpls; i++)
        for (size_t ci = 0; ci < r->ncells; ci++) {
            const speed_cell *c = &r->cells[ci];
            int start = !(ci > 0 && r->cells[ci - 1].alg == c->alg &&
                          r->cells[ci - 1].update == c->update &&
                          r->cells[ci - 1].decrypt == c->decrypt);
            int any = 0;
            for (size_t cj = ci; start && cj < r->ncells && r->cells[cj].alg == c->alg &&
                                 r->cells[cj].update == c->update &&
                                 r->cells[cj].decrypt == c->decrypt;
                 cj++)
                any |= speed_res(r, cj, i)->status == SR_OK;
            nlines += start && any;
        }
    const double W = 960, L = 70, R = 330, T = 50, B = 60, ph = 450;
    const double H = fmax(T + ph + B, T + 30 + nlines * 18.0), pw = W - L - R;

    double smin = 0, smax = 0, ymax = 0;
    for (size_t ci = 0; ci < r->ncells; ci++)
        for (size_t i = 0; i < r->nimpls; i++) {
            const speed_result *x = speed_res(r, ci, i);
            if (x->status != SR_OK)
                continue;
            double s = (double)r->cells[ci].size;
            if (smin == 0 || s < smin)
                smin = s;
            if (s > smax)
                smax = s;
            if (x->bytes_per_sec / 1e9 > ymax)
                ymax = x->bytes_per_sec / 1e9;
        }
    if (ymax <= 0)
        ymax = 1;
    if (smin <= 0)
        smin = smax = 16;
    double lx0 = log2(smin), lx1 = log2(smax);
    if (lx1 - lx0 < 1) {
        lx0 -= 0.5;
        lx1 += 0.5;
    }
    double step = nice_step(ymax, 6);
    double ytop = ceil(ymax / step) * step;
#define XP(s) (L + (log2(s) - lx0) / (lx1 - lx0) * pw)
#define YP(v) (T + ph - (v) / ytop * ph)

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">aeskit speed: "
               "throughput by message size (",
            L + pw / 2);
    xml_text(f, r->cpu_model);
    fprintf(f, ", %.0f MHz)</text>\n", r->mhz);

    /* grid and axes */
    for (double v = 0; v <= ytop + step / 2; v += step) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L,
                YP(v), L + pw, YP(v));
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6,
                YP(v) + 4, v);
    }
    double last_label = -1e9;
    for (size_t ci = 0; ci < r->ncells; ci++) {
        double s = (double)r->cells[ci].size;
        int seen = 0;
        for (size_t cj = 0; cj < ci; cj++)
            seen |= r->cells[cj].size == r->cells[ci].size;
        if (seen)
            continue;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
                XP(s), T, XP(s), T + ph);
        /* sizes close together (1024, 1420) would print on top of each other */
        if (XP(s) - last_label < 36)
            continue;
        last_label = XP(s);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n", XP(s),
                T + ph + 16, r->cells[ci].size);
    }
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
               "stroke=\"black\"/>\n",
            L, T, pw, ph);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">message size, bytes (log "
               "scale)</text>\n",
            L + pw / 2, H - 18);
    fprintf(f, "<text x=\"18\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 18 "
               "%.0f)\">GB/s (10^9 bytes/s)</text>\n",
            T + ph / 2, T + ph / 2);

    /* one polyline per (implementation, algorithm/direction/update): the
     * colour names the implementation, the dash pattern the algorithm */
    static const char *const dashes[] = {"", " stroke-dasharray=\"7 4\"",
                                         " stroke-dasharray=\"2 3\"",
                                         " stroke-dasharray=\"9 3 2 3\""};
    int line = 0;
    for (size_t i = 0; i < r->nimpls; i++) {
        int grp = -1;
        for (size_t ci = 0; ci < r->ncells; ci++) {
            const speed_cell *c = &r->cells[ci];
            /* start of a group: first cell of this alg/op/update */
            if (ci > 0 && r->cells[ci - 1].alg == c->alg && r->cells[ci - 1].update == c->update &&
                r->cells[ci - 1].decrypt == c->decrypt)
                continue;
            grp++;
            int npts = 0;
            for (size_t cj = ci; cj < r->ncells && r->cells[cj].alg == c->alg &&
                                 r->cells[cj].update == c->update &&
                                 r->cells[cj].decrypt == c->decrypt;
                 cj++)
                npts += speed_res(r, cj, i)->status == SR_OK;
            if (!npts)
                continue;
            const char *col = palette[i % 10];
            const char *dash = dashes[grp % 4];
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", col,
                    dash);
            for (size_t cj = ci; cj < r->ncells && r->cells[cj].alg == c->alg &&
                                 r->cells[cj].update == c->update &&
                                 r->cells[cj].decrypt == c->decrypt;
                 cj++) {
                const speed_result *x = speed_res(r, cj, i);
                if (x->status == SR_OK)
                    fprintf(f, "%.1f,%.1f ", XP((double)r->cells[cj].size),
                            YP(x->bytes_per_sec / 1e9));
            }
            fprintf(f, "\"/>\n");
            for (size_t cj = ci; cj < r->ncells && r->cells[cj].alg == c->alg &&
                                 r->cells[cj].update == c->update &&
                                 r->cells[cj].decrypt == c->decrypt;
                 cj++) {
                const speed_result *x = speed_res(r, cj, i);
                if (x->status == SR_OK)
                    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                            XP((double)r->cells[cj].size), YP(x->bytes_per_sec / 1e9), col);
            }
            /* legend entry */
            double ly = T + 8 + line * 18;
            fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                       "stroke-width=\"2\"%s/>\n",
                    L + pw + 14, ly, L + pw + 40, ly, col, dash);
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", L + pw + 46, ly + 4);
            xml_text(f, r->impls[i].label);
            fprintf(f, " — %s %s", c->alg->name, speed_op_name(c));
            if (c->update)
                fprintf(f, " /%zu", c->update);
            fprintf(f, "</text>\n");
            line++;
        }
    }
    fprintf(f, "</svg>\n");
#undef XP
#undef YP
    return fclose(f) ? -1 : 0;
}
