/*
 * plot.c - `--plot FILE.svg`: throughput against message size, written as
 * plain SVG (no library): log2 x axis of size, GB/s on a log y axis (or a
 * linear one, --plot-y linear), one line per implementation and
 * algorithm/direction/update, a legend.  Opens in any browser.
 *
 * Styles: the colour names the implementation; the dash pattern and the
 * marker shape name the algorithm (with direction and update size), and
 * past six algorithms the line width too, so no two lines look alike.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "speed.h"

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define NPALETTE (sizeof palette / sizeof palette[0])

static const char *const dashes[] = {"",
                                     " stroke-dasharray=\"8 4\"",
                                     " stroke-dasharray=\"2 3\"",
                                     " stroke-dasharray=\"10 3 2 3\"",
                                     " stroke-dasharray=\"14 4\"",
                                     " stroke-dasharray=\"4 2 4 6\""};
#define NDASHES (sizeof dashes / sizeof dashes[0])
#define NMARKERS 6

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* A marker of shape k centred at (x, y). */
static void marker(FILE *f, int k, double x, double y, const char *col)
{
    switch (k % NMARKERS) {
    case 0:
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x, y, col);
        break;
    case 1:
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"%s\"/>\n",
                x - 3.5, y - 3.5, col);
        break;
    case 2:
        fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n", x,
                y - 4.5, x - 4.5, y + 3.5, x + 4.5, y + 3.5, col);
        break;
    case 3:
        fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
                x, y - 5, x + 5, y, x, y + 5, x - 5, y, col);
        break;
    case 4:
        fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n", x,
                y + 4.5, x - 4.5, y - 3.5, x + 4.5, y - 3.5, col);
        break;
    default:
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"white\" stroke=\"%s\" "
                   "stroke-width=\"2\"/>\n",
                x, y, col);
        break;
    }
}

/* A "nice" tick step (1, 2 or 5 x 10^k) giving about n ticks up to max. */
static double nice_step(double max, int n)
{
    double raw = max / n, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Cells ci and cj belong to the same line (algorithm, direction, update). */
static int same_group(const speed_report *r, size_t ci, size_t cj)
{
    const speed_cell *a = &r->cells[ci], *b = &r->cells[cj];
    return a->alg == b->alg && a->update == b->update && a->decrypt == b->decrypt;
}

/* Index of the group cell ci starts, or -1 if it does not start one. */
static int group_start(const speed_report *r, size_t ci)
{
    if (ci > 0 && same_group(r, ci - 1, ci))
        return -1;
    int g = 0;
    for (size_t k = 1; k <= ci; k++)
        g += !same_group(r, k - 1, k);
    return g;
}

/* Whether implementation i has a measurement in the group starting at ci. */
static int group_any(const speed_report *r, size_t ci, size_t i)
{
    for (size_t cj = ci; cj < r->ncells && same_group(r, ci, cj); cj++)
        if (speed_res(r, cj, i)->status == SR_OK)
            return 1;
    return 0;
}

int speed_plot(const char *path, const speed_report *r)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    return speed_plot_file(f, r);
}

int speed_plot_file(FILE *f, const speed_report *r)
{
    int logy = !(r->opts && r->opts->plot_linear);
    /* legend lines: (implementation, group) pairs with a measurement; the
     * picture grows downwards when the legend needs the room */
    int nlines = 0;
    size_t longest = 0; /* the longest legend text, in characters */
    for (size_t i = 0; i < r->nimpls; i++)
        for (size_t ci = 0; ci < r->ncells; ci++)
            if (group_start(r, ci) >= 0 && group_any(r, ci, i)) {
                nlines++;
                size_t l = strlen(r->impls[i].label) + 3 + strlen(r->cells[ci].alg->name) + 1 +
                           strlen(speed_op_name(&r->cells[ci]));
                if (r->cells[ci].update)
                    l += (size_t)snprintf(NULL, 0, " /%zu", r->cells[ci].update);
                if (l > longest)
                    longest = l;
            }
    /* the legend's column is as wide as its longest line (about 7 px a
     * character at 12 px sans-serif), so nothing is cut at the right edge */
    const double L = 78, T = 50, ph = 450, B = 62, pw = 560;
    const double R = fmax(120, 64 + 7.0 * (double)longest), W = L + pw + R;
    const double H = fmax(T + ph + B, T + 30 + nlines * 18.0);

    double smin = 0, smax = 0, ymin = 0, ymax = 0;
    for (size_t ci = 0; ci < r->ncells; ci++)
        for (size_t i = 0; i < r->nimpls; i++) {
            const speed_result *x = speed_res(r, ci, i);
            if (x->status != SR_OK || !(x->bytes_per_sec > 0))
                continue;
            double s = (double)r->cells[ci].size, v = x->bytes_per_sec / 1e9;
            if (smin == 0 || s < smin)
                smin = s;
            if (s > smax)
                smax = s;
            if (ymin == 0 || v < ymin)
                ymin = v;
            if (v > ymax)
                ymax = v;
        }
    if (ymax <= 0)
        ymin = 0.1, ymax = 1;
    if (smin <= 0)
        smin = smax = 16;
    double lx0 = log2(smin), lx1 = log2(smax);
    if (lx1 - lx0 < 1) {
        lx0 -= 0.5;
        lx1 += 0.5;
    }
    /* y range: whole decades (log) or nice steps from 0 (linear) */
    double step = nice_step(ymax, 6), ytop = ceil(ymax / step) * step;
    double ly0 = floor(log10(ymin)), ly1 = ceil(log10(ymax));
    if (ly1 - ly0 < 1)
        ly1 = ly0 + 1;
#define XP(s) (L + (log2(s) - lx0) / (lx1 - lx0) * pw)
#define YP(v) (logy ? T + ph - (log10(v) - ly0) / (ly1 - ly0) * ph : T + ph - (v) / ytop * ph)

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\">aeskit speed: "
               "throughput by message size (",
            L);
    xml_text(f, r->cpu_model);
    fprintf(f, ", %.0f MHz)</text>\n", r->mhz);

    /* y grid and labels */
    if (logy) {
        for (double d = ly0; d <= ly1 + 1e-9; d++)
            for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) { /* 1, 2, 5 */
                double v = m * pow(10, d);
                if (log10(v) > ly1 + 1e-9)
                    break;
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                        L, YP(v), L + pw, YP(v), m == 1 ? "#ccc" : "#eee");
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6,
                        YP(v) + 4, v);
            }
    } else {
        for (double v = 0; v <= ytop + step / 2; v += step) {
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                    L, YP(v), L + pw, YP(v));
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6,
                    YP(v) + 4, v);
        }
    }
    /* x grid and labels, one per distinct size */
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
    /* axis labels: under the x axis's numbers, left of the y axis's */
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">message size, bytes (log "
               "scale)</text>\n",
            L + pw / 2, T + ph + 38);
    fprintf(f, "<text x=\"20\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 20 "
               "%.0f)\">GB/s (10^9 bytes/s)%s</text>\n",
            T + ph / 2, T + ph / 2, logy ? ", log scale" : "");
    if (ymax <= 0 || nlines == 0)
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no measurements</text>\n",
                L + pw / 2, T + ph / 2);

    /* one polyline per (implementation, algorithm/direction/update) */
    int line = 0;
    for (size_t i = 0; i < r->nimpls; i++) {
        for (size_t ci = 0; ci < r->ncells; ci++) {
            int grp = group_start(r, ci);
            if (grp < 0 || !group_any(r, ci, i))
                continue;
            const speed_cell *c = &r->cells[ci];
            const char *col = palette[i % NPALETTE];
            const char *dash = dashes[(size_t)grp % NDASHES];
            /* past NDASHES algorithms the dashes repeat: a width tells them apart */
            static const char *const widths[] = {"2", "3.5", "1.25", "5"};
            const char *width = widths[((size_t)grp / NDASHES) % 4];
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"",
                    col, width, dash);
            for (size_t cj = ci; cj < r->ncells && same_group(r, ci, cj); cj++) {
                const speed_result *x = speed_res(r, cj, i);
                if (x->status == SR_OK && x->bytes_per_sec > 0)
                    fprintf(f, "%.1f,%.1f ", XP((double)r->cells[cj].size),
                            YP(x->bytes_per_sec / 1e9));
            }
            fprintf(f, "\"/>\n");
            for (size_t cj = ci; cj < r->ncells && same_group(r, ci, cj); cj++) {
                const speed_result *x = speed_res(r, cj, i);
                if (x->status == SR_OK && x->bytes_per_sec > 0)
                    marker(f, grp, XP((double)r->cells[cj].size), YP(x->bytes_per_sec / 1e9), col);
            }
            /* legend entry: the line's dash and marker */
            double ly = T + 8 + line * 18;
            fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                       "stroke-width=\"%s\"%s/>\n",
                    L + pw + 12, ly, L + pw + 44, ly, col, width, dash);
            marker(f, grp, L + pw + 28, ly, col);
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", L + pw + 50, ly + 4);
            xml_text(f, r->impls[i].label);
            fprintf(f, " \xe2\x80\x94 %s %s", c->alg->name, speed_op_name(c));
            if (c->update)
                fprintf(f, " /%zu", c->update);
            fprintf(f, "</text>\n");
            line++;
        }
    }
    fprintf(f, "</svg>\n");
#undef XP
#undef YP
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) || bad) {
        if (bad)
            errno = e ? e : EIO;
        return -1;
    }
    return 0;
}
