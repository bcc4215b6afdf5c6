/* tela_bench_plot.c — writes tela-bench's SVG plot (tela_bench_plot.h). The y axis starts at
 * zero, so ratios between lines read true, and reaches the highest peak line: how far both
 * libraries are from the peak is part of the picture. */
#include "tela_bench_plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Layout, SVG user units. */
#define PLOT_WIDTH        920 /* the whole image */
#define PLOT_LEFT         70  /* room for the y labels */
#define PLOT_RIGHT        210 /* room for the legend */
#define PLOT_TOP          54  /* room for the title and subtitle */
#define PANEL_HEIGHT      330 /* a panel's plotting area */
#define PANEL_GAP         84  /* x labels, axis title and the next panel's title */
#define MIN_LABEL_SPACING 34  /* closest two x labels may be, centre to centre */
#define MAX_TICKS         64

/* Colours per side, one per thread count in the order met (cycled beyond four). */
static const char *const side_colours[TB_SIDE_COUNT][4] = {
    [TB_TELA] = {"#1f5fbf", "#0b2f6b", "#5f9be6", "#2a9d8f"},
    [TB_OPENBLAS] = {"#e0701b", "#8c3b00", "#f2a65a", "#c0392b"},
};

/* The panel's peak of a thread count, 0 if there is none. */
static double peak_of(const struct tb_plot_panel *panel, int threads)
{
    for (int i = 0; i < panel->peak_count; i++) {
        if (panel->peaks[i].threads == threads && panel->peaks[i].value > 0.0)
            return panel->peaks[i].value;
    }
    return 0.0;
}

struct frame {
    double left, top, width, height; /* the plotting area */
    double log_min, log_max;         /* x range, log2 n */
    double y_max;                    /* y range is 0..y_max, in the panel's unit */
};

static double x_of(const struct frame *f, double n)
{
    return f->left + (log2(n) - f->log_min) / (f->log_max - f->log_min) * f->width;
}

static double y_of(const struct frame *f, double value)
{
    return f->top + f->height - value / f->y_max * f->height;
}

/* A round step (1, 2 or 5 times a power of ten) giving about five to eight ticks. */
static double nice_step(double range)
{
    double raw = range / 6.0, power = pow(10.0, floor(log10(raw)));
    double fraction = raw / power;
    return (fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0) * power;
}

static int is_power_of_two(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* The thread counts of a panel's series, each once, in the order met. */
static int panel_threads(const struct tb_plot_panel *panel, int *threads, int max)
{
    int count = 0;
    for (int s = 0; s < panel->series_count; s++) {
        int seen = 0;
        for (int i = 0; i < count; i++)
            seen |= threads[i] == panel->series[s].threads;
        if (!seen && count < max)
            threads[count++] = panel->series[s].threads;
    }
    return count;
}

static const char *series_colour(const struct tb_plot_panel *panel, int index)
{
    int threads[8];
    int count = panel_threads(panel, threads, 8);
    const struct tb_plot_series *series = &panel->series[index];
    int slot = 0;
    for (int i = 0; i < count; i++) {
        if (threads[i] == series->threads)
            slot = i;
    }
    return side_colours[series->side][slot % 4];
}

/* x ticks at every measured size; labels on the powers of two first, then on the others
 * that keep MIN_LABEL_SPACING from every label already placed. */
static void draw_x_axis(FILE *out, const struct frame *f, const struct tb_plot_panel *panel)
{
    int sizes[MAX_TICKS], count = 0;
    for (int s = 0; s < panel->series_count; s++) {
        for (int i = 0; i < panel->series[s].count; i++) {
            int n = panel->series[s].points[i].n, seen = 0;
            for (int k = 0; k < count; k++)
                seen |= sizes[k] == n;
            if (!seen && count < MAX_TICKS)
                sizes[count++] = n;
        }
    }
    double labelled[MAX_TICKS];
    int label_count = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < count; k++) {
            if (is_power_of_two(sizes[k]) != (pass == 0))
                continue;
            double x = x_of(f, sizes[k]);
            int room = 1;
            for (int i = 0; i < label_count; i++)
                room &= fabs(labelled[i] - x) >= MIN_LABEL_SPACING;
            fprintf(out,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", x,
                    f->top + f->height, x, f->top + f->height + 5);
            if (!room)
                continue;
            labelled[label_count++] = x;
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x,
                    f->top + f->height + 19, sizes[k]);
        }
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            f->left + f->width / 2, f->top + f->height + 38, panel->x_label);
}

static void draw_y_axis(FILE *out, const struct frame *f, const char *label)
{
    const double step = nice_step(f->y_max);
    const int ticks = (int)floor(f->y_max / step * (1.0 + 1e-9));
    for (int i = 0; i <= ticks; i++) {
        double y = i * step, py = y_of(f, y);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
                f->left, py, f->left + f->width, py);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", f->left - 6,
                py + 4, y);
    }
    fprintf(out,
            "<text transform=\"translate(%.1f %.1f) rotate(-90)\" "
            "text-anchor=\"middle\">%s</text>\n",
            f->left - 48, f->top + f->height / 2, label);
}

static void draw_panel(FILE *out, const struct tb_plot_panel *panel, double top)
{
    struct frame f = {PLOT_LEFT, top, PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT, PANEL_HEIGHT, 0, 0, 0};
    int n_min = 0, n_max = 0;
    double y_max = 0.0;
    for (int s = 0; s < panel->series_count; s++) {
        const struct tb_plot_series *series = &panel->series[s];
        for (int i = 0; i < series->count; i++) {
            const struct tb_plot_point *p = &series->points[i];
            n_min = n_min && n_min < p->n ? n_min : p->n;
            n_max = n_max > p->n ? n_max : p->n;
            y_max = fmax(y_max, isnan(p->max) ? 0.0 : p->max);
        }
        y_max = fmax(y_max, peak_of(panel, series->threads));
    }
    if (n_min <= 0)
        return;
    f.log_min = log2(n_min);
    f.log_max = log2(n_max);
    if (f.log_max - f.log_min < 1.0) { /* one size: half an octave either side */
        f.log_min -= 0.5;
        f.log_max += 0.5;
    } else { /* a little room so the end points and their bars are not on the frame */
        double pad = 0.03 * (f.log_max - f.log_min);
        f.log_min -= pad;
        f.log_max += pad;
    }
    f.y_max = y_max > 0.0 ? y_max * 1.06 : 1.0;

    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">%s</text>\n",
            f.left, top - 10, panel->title);
    draw_y_axis(out, &f, panel->y_label);
    draw_x_axis(out, &f, panel);
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#444\"/>\n",
            f.left, f.top, f.width, f.height);

    /* Peak lines, one per thread count, labelled at their left end, where the small sizes keep
     * the data lowest. */
    int threads[8];
    int thread_count = panel_threads(panel, threads, 8);
    for (int t = 0; t < thread_count; t++) {
        const double peak = peak_of(panel, threads[t]);
        if (!(peak > 0.0))
            continue;
        double py = y_of(&f, peak);
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" "
                "stroke-dasharray=\"7 5\"/>\n",
                f.left, py, f.left + f.width, py);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">%s, %d thread%s</text>\n",
                f.left + 4, py - 4, panel->peak_label, threads[t], threads[t] == 1 ? "" : "s");
    }

    /* Series: a line through the medians, a dot on each, a bar from min to max. */
    for (int s = 0; s < panel->series_count; s++) {
        const struct tb_plot_series *series = &panel->series[s];
        const char *colour = series_colour(panel, s);
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
        for (int i = 0; i < series->count; i++) {
            const struct tb_plot_point *p = &series->points[i];
            if (!isnan(p->median))
                fprintf(out, "%s%.1f,%.1f", i ? " " : "", x_of(&f, p->n), y_of(&f, p->median));
        }
        fprintf(out, "\"/>\n");
        for (int i = 0; i < series->count; i++) {
            const struct tb_plot_point *p = &series->points[i];
            if (isnan(p->median))
                continue;
            double x = x_of(&f, p->n);
            fprintf(out,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n"
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                    x, y_of(&f, p->min), x, y_of(&f, p->max), colour, x, y_of(&f, p->median),
                    colour);
        }
    }

    /* Legend, right of the plotting area. */
    double lx = f.left + f.width + 16, ly = f.top + 12;
    for (int s = 0; s < panel->series_count; s++, ly += 20) {
        const struct tb_plot_series *series = &panel->series[s];
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\">%s, %d thread%s</text>\n",
                lx, ly, lx + 24, ly, series_colour(panel, s), lx + 12, ly, series_colour(panel, s),
                lx + 30, ly + 4, tb_side_labels[series->side], series->threads,
                series->threads == 1 ? "" : "s");
    }
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" "
            "stroke-dasharray=\"7 5\"/>\n<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
            lx, ly, lx + 24, ly, lx + 30, ly + 4, panel->peak_label);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">dot: median; bar: min-max</text>\n", lx,
            ly + 24);
}

/* Text for an SVG text node: &, < and > escaped. */
static void write_escaped(FILE *out, const char *text)
{
    for (; *text; text++) {
        if (*text == '&')
            fputs("&amp;", out);
        else if (*text == '<')
            fputs("&lt;", out);
        else if (*text == '>')
            fputs("&gt;", out);
        else
            fputc(*text, out);
    }
}

int tb_plot_write(const char *path, const char *title, const char *subtitle,
                  const struct tb_plot_panel *panels, int panel_count)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return -1;
    int height = PLOT_TOP + panel_count * (PANEL_HEIGHT + PANEL_GAP) + 10;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            PLOT_WIDTH, height, PLOT_WIDTH, height);
    fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(out, "<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", PLOT_LEFT);
    write_escaped(out, title);
    fprintf(out, "</text>\n");
    if (subtitle) {
        fprintf(out, "<text x=\"%d\" y=\"38\" fill=\"#555\">", PLOT_LEFT);
        write_escaped(out, subtitle);
        fprintf(out, "</text>\n");
    }
    for (int p = 0; p < panel_count; p++)
        draw_panel(out, &panels[p], PLOT_TOP + 24 + p * (PANEL_HEIGHT + PANEL_GAP));
    fprintf(out, "</svg>\n");
    return fclose(out) == 0 ? 0 : -1;
}
