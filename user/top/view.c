// SPDX-License-Identifier: MIT
/*
 * navibench top's view: the screen drawn from the model with ncurses. The
 * layout is computed from the terminal's size at each frame: a title
 * line, a panel per device (in columns on a wide terminal; shorter, then
 * without charts, then one line each when the height runs out; a GPU
 * runtime's device has no readings, so no charts: its panel is shorter), the
 * process pane, and the help line at the bottom.
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "print/print.h"
#include "top/top.h"

enum { P_TITLE = 1, P_THROTTLE, P_OK, P_WARN, P_HOT, P_CHART, P_ASLEEP, P_HEAD };

static bool color;

void top_view_init(struct top_view *v)
{
	color = v->color && has_colors();
	if (!color)
		return;
	start_color();
	use_default_colors();
	init_pair(P_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(P_THROTTLE, COLOR_WHITE, COLOR_RED);
	init_pair(P_OK, COLOR_GREEN, -1);
	init_pair(P_WARN, COLOR_YELLOW, -1);
	init_pair(P_HOT, COLOR_RED, -1);
	init_pair(P_CHART, COLOR_CYAN, -1);
	init_pair(P_ASLEEP, COLOR_BLUE, -1);
	init_pair(P_HEAD, COLOR_BLACK, COLOR_GREEN);
}

/* An attribute: the colour pair, or without colours the fallback. */
static attr_t att(int pair, attr_t fallback)
{
	return color ? COLOR_PAIR(pair) : fallback;
}

/* Print at (y, x), at most w columns (the text is ASCII). Returns the columns used. */
static int put(int y, int x, int w, attr_t a, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int put(int y, int x, int w, attr_t a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (w <= 0 || y < 0 || y >= LINES)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = (int)strlen(buf);
	if (n > w)
		n = w;
	attron(a);
	mvaddnstr(y, x, buf, n);
	attroff(a);
	return n;
}

/* A horizontal bar of pct (0..100) in w cells. */
static void bar(int y, int x, int w, double pct, bool utf8, attr_t a)
{
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	int cells;

	if (w <= 0)
		return;
	pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	cells = (int)(pct * w * 8 / 100 + 0.5);
	attron(a);
	for (int i = 0; i < w; i++) {
		int f = cells - i * 8;

		f = f < 0 ? 0 : f > 8 ? 8 : f;
		if (utf8)
			mvaddstr(y, x + i, f == 8 ? "█" : f ? eighths[f] : " ");
		else
			mvaddch(y, x + i, f >= 4 ? '|' : ' ');
	}
	attroff(a);
}

static attr_t level_attr(double v, double max)
{
	if (max <= 0)
		return A_NORMAL;
	return v >= 0.9 * max ? att(P_HOT, A_BOLD) : v >= 0.75 * max ? att(P_WARN, A_NORMAL) :
	       att(P_OK, A_NORMAL);
}

static const char *const chart_label[TOP_CH_COUNT] = { "busy", "sclk", "power", "temp" };
static const char *const chart_unit[TOP_CH_COUNT] = { "%", "MHz", "W", "C" };

/* The scale's top of chart c: the limit where known, else the largest sample. */
static double chart_max(const struct top_dev *d, int c, const double *vals, int n)
{
	double mx = 0;

	if (c == TOP_CH_BUSY)
		return 100;
	if (c == TOP_CH_CLOCK && d->lim.has_sclk_max)
		mx = (double)d->lim.sclk_max;
	if (c == TOP_CH_POWER && d->lim.has_power_cap)
		mx = d->lim.power_cap / 1000.0;
	if (c == TOP_CH_TEMP) {
		for (int i = 0; i < 3; i++)
			if (d->lim.has_temp_crit[i] && d->lim.temp_crit[i] / 1000.0 > mx)
				mx = d->lim.temp_crit[i] / 1000.0;
	}
	for (int i = 0; i < n; i++)
		if (!isnan(vals[i]) && vals[i] > mx)
			mx = vals[i];
	return mx;
}

/*
 * A chart of series c over the window ending now: a column per
 * window/w seconds (the largest sample in it; none: blank), ch rows high,
 * in eighths of a cell (UTF-8) or nine ASCII levels.
 */
static void chart(const struct top_dev *d, int c, int y, int x, int w, int ch,
		  const struct top_view *v, double now)
{
	static const char *const blocks[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ascii[] = " ._-~=+*#";
	const struct top_series *s = &d->ser[c];
	double vals[512], dt, mx, last = NAN, hold, prev_t = 0;
	int lw = 16, prev_b = -1;

	if (w - lw < 4 || ch < 1)
		return;
	w -= lw;
	if (w > 512)
		w = 512;
	for (int i = 0; i < w; i++)
		vals[i] = NAN;
	dt = v->window_s / w;
	/* columns between two samples close in time hold the earlier one */
	hold = v->interval_ms * 3 / 1000.0;
	hold = hold < 5 ? 5 : hold;
	for (int i = 0; i < s->n; i++) {
		int k = (s->head - s->n + i + TOP_SERIES) % TOP_SERIES;
		int b = (int)floor((s->t[k] - (now - v->window_s)) / dt);

		if (b == w)
			b = w - 1;	/* the sample of this very frame */
		if (b < 0 || b >= w)
			continue;
		if (prev_b >= 0 && s->t[k] - prev_t <= hold)
			for (int j = prev_b + 1; j < b; j++)
				vals[j] = last;
		if (isnan(vals[b]) || s->v[k] > vals[b])
			vals[b] = s->v[k];
		last = s->v[k];
		prev_b = b;
		prev_t = s->t[k];
	}
	mx = chart_max(d, c, vals, w);
	if (isnan(last))
		put(y, x, lw, A_NORMAL, "%-5s   -", chart_label[c]);
	else
		put(y, x, lw, A_BOLD, "%-5s %5.0f %s", chart_label[c], last, chart_unit[c]);
	if (ch >= 2 && mx > 0)
		put(y + 1, x, lw, A_DIM, "   of %.0f %s", mx, chart_unit[c]);
	attron(att(P_CHART, A_NORMAL));
	for (int i = 0; i < w; i++) {
		int level = isnan(vals[i]) || mx <= 0 ? -1 :
			    (int)(vals[i] / mx * ch * 8 + 0.5);

		for (int r = 0; r < ch; r++) {
			int f = level < 0 ? 0 : level - (ch - 1 - r) * 8;

			f = f < 0 ? 0 : f > 8 ? 8 : f;
			/* a sample of 0 still shows on the bottom row */
			if (level == 0 && r == ch - 1)
				f = 1;
			if (v->utf8)
				mvaddstr(y + r, x + lw + i, blocks[f]);
			else
				mvaddch(y + r, x + lw + i, (chtype)ascii[f]);
		}
	}
	attroff(att(P_CHART, A_NORMAL));
}

/* A GPU runtime's device: what its plugin reports, no readings (model.c). */
static bool runtime_dev(const struct top_dev *d)
{
	return d->e->dev.kind == NB_DEV_PLUGIN;
}

/* The number of lines of d's panel at detail level lvl (3: charts ch high). */
static int panel_lines(const struct top_dev *d, int lvl, int ch, bool charts)
{
	if (runtime_dev(d))
		return lvl ? 3 : 1;
	switch (lvl) {
	case 0: return 1;
	case 1: return 3;
	default: return 6 + (charts && lvl == 3 ? TOP_CH_COUNT * ch : 0);
	}
}

/* The lines of grid row row: its tallest panel's. */
static int row_lines(const struct top_dev *d, int ndev, int ncols, int row, int lvl, int ch,
		     bool charts)
{
	int h = 0;

	for (int i = row * ncols; i < ndev && i < (row + 1) * ncols; i++)
		if (panel_lines(&d[i], lvl, ch, charts) > h)
			h = panel_lines(&d[i], lvl, ch, charts);
	return h;
}

/* The lines of the grid of panels d[0..ndev-1], a blank line between rows above level 0. */
static int grid_lines(const struct top_dev *d, int ndev, int ncols, int lvl, int ch, bool charts)
{
	int rows = (ndev + ncols - 1) / ncols, h = 0;

	for (int r = 0; r < rows; r++)
		h += row_lines(d, ndev, ncols, r, lvl, ch, charts) + (lvl && r ? 1 : 0);
	return h;
}

static bool rv(const struct nb_reading *r, int s, double *out, double div)
{
	if (!r[s].valid)
		return false;
	*out = (double)r[s].v / div;
	return true;
}

/* The throttle reasons active now, highlighted, after "throttle". */
static void throttle_line(const struct top_dev *d, int y, int x, int w)
{
	int used = put(y, x, w, A_BOLD, "throttle ");
	bool any = false;

	if (!d->gm_ok) {
		put(y, x + used, w - used, A_DIM, "%s", d->sd.asleep ? "- (asleep)" :
		    "- (no gpu_metrics)");
		return;
	}
	if (!d->nreasons) {
		put(y, x + used, w - used, A_DIM, "- (no mask this navibench can name)");
		return;
	}
	for (int i = 0; i < d->nreasons && used < w; i++) {
		if (!d->reason[i].active)
			continue;
		any = true;
		used += put(y, x + used, w - used, d->reason[i].unreliable ? A_DIM :
			    att(P_THROTTLE, A_REVERSE) | A_BOLD, "%s%s", d->reason[i].name,
			    d->reason[i].unreliable ? "(idle)" : "");
		used += put(y, x + used, w - used, A_NORMAL, " ");
	}
	if (!any)
		put(y, x + used, w - used, att(P_OK, A_NORMAL), "none");
}

/* "60/100C" or "60C" or "-" */
static int temp_item(int y, int x, int w, const struct top_dev *d, int s, int i,
		     const char *name)
{
	double t;

	if (!rv(d->r, s, &t, 1000))
		return put(y, x, w, A_DIM, "%s -  ", name);
	if (d->lim.has_temp_crit[i])
		return put(y, x, w, level_attr(t, d->lim.temp_crit[i] / 1000.0), "%s %.0f/%.0fC  ",
			   name, t, d->lim.temp_crit[i] / 1000.0);
	return put(y, x, w, A_NORMAL, "%s %.0fC  ", name, t);
}

/* A panel's busy line: gfx and memory with their bars, media. */
static void busy_line(const struct top_dev *d, int y, int x, int w, const struct top_view *v)
{
	const struct nb_reading *r = d->r;
	double a;
	int used, bw;

	bw = (w - 48) / 2;
	bw = bw < 4 ? 0 : bw > 30 ? 30 : bw;
	used = 0;
	if (rv(r, GT_S_GPU_BUSY, &a, 1)) {
		used += put(y, x, w, A_NORMAL, "gfx %3.0f%% ", a);
		bar(y, x + used, bw, a, v->utf8, level_attr(a, 100));
		used += bw + 1;
	} else {
		used += put(y, x, w, A_DIM, "gfx    - ") + bw + 1;
	}
	if (rv(r, GT_S_MEM_BUSY, &a, 1)) {
		used += put(y, x + used, w - used, A_NORMAL, "mem %3.0f%% ", a);
		bar(y, x + used, bw, a, v->utf8, level_attr(a, 100));
		used += bw + 1;
	} else {
		used += put(y, x + used, w - used, A_DIM, "mem    - ") + bw + 1;
	}
	if (d->has_media)
		put(y, x + used, w - used, A_NORMAL, "media %.0f%%", d->media_pct);
	else
		put(y, x + used, w - used, A_DIM, "media -");
}

/* A panel's clocks against their top level, and the fan. */
static void clock_line(const struct top_dev *d, int y, int x, int w)
{
	const struct nb_reading *r = d->r;
	double a;
	int used = 0;

	if (rv(r, GT_S_SCLK, &a, 1))
		used += put(y, x, w, A_NORMAL, d->lim.has_sclk_max ? "sclk %.0f/%lld MHz  " :
			     "sclk %.0f MHz  ", a, (long long)d->lim.sclk_max);
	else
		used += put(y, x, w, A_DIM, "sclk -  ");
	if (rv(r, GT_S_MCLK, &a, 1))
		used += put(y, x + used, w - used, A_NORMAL, d->lim.has_mclk_max ?
			    "mclk %.0f/%lld MHz  " : "mclk %.0f MHz  ", a, (long long)d->lim.mclk_max);
	else
		used += put(y, x + used, w - used, A_DIM, "mclk -  ");
	if (rv(r, GT_S_FAN, &a, 1))
		used += put(y, x + used, w - used, A_NORMAL, d->lim.has_fan_max ?
			    "fan %.0f/%lld rpm" : "fan %.0f rpm", a, (long long)d->lim.fan_max);
	else
		used += put(y, x + used, w - used, A_DIM, "fan -");
	if (rv(r, GT_S_FAN_PWM, &a, 1))
		put(y, x + used, w - used, A_NORMAL, " %.0f%%", a * 100 / 255);
}

/* A panel's temperatures; power against its cap, VRAM and GTT on the next line. */
static void power_lines(const struct top_dev *d, int y, int x, int w)
{
	const struct nb_reading *r = d->r;
	char b1[32], b2[32];
	double a, b;
	int used;

	used = temp_item(y, x, w, d, GT_S_TEMP_EDGE, 0, "edge");
	used += temp_item(y, x + used, w - used, d, GT_S_TEMP_JUNCTION, 1, "junction");
	temp_item(y, x + used, w - used, d, GT_S_TEMP_MEM, 2, "mem");
	y++;
	used = 0;
	if (rv(r, GT_S_POWER_AVG, &a, 1000) || rv(r, GT_S_POWER_INPUT, &a, 1000)) {
		if (d->lim.has_power_cap)
			used += put(y, x, w, level_attr(a, d->lim.power_cap / 1000.0),
				    "power %.0f/%.0f W  ", a, d->lim.power_cap / 1000.0);
		else
			used += put(y, x, w, A_NORMAL, "power %.0f W  ", a);
	} else {
		used += put(y, x, w, A_DIM, "power -  ");
	}
	if (rv(r, GT_S_VRAM_USED, &a, 1) && rv(r, GT_S_VRAM_TOTAL, &b, 1))
		used += put(y, x + used, w - used, A_NORMAL, "vram %s/%s  ",
			    nb_fmt_bytes(b1, sizeof(b1), (uint64_t)a),
			    nb_fmt_bytes(b2, sizeof(b2), (uint64_t)b));
	else
		used += put(y, x + used, w - used, A_DIM, "vram -  ");
	if (d->lim.has_gtt)
		put(y, x + used, w - used, A_NORMAL, "gtt %s/%s",
		    nb_fmt_bytes(b1, sizeof(b1), d->lim.gtt_used),
		    nb_fmt_bytes(b2, sizeof(b2), d->lim.gtt_total));
	else
		put(y, x + used, w - used, A_DIM, "gtt -");
}

/* A panel's PCIe link and the throttle reasons active now. */
static void pcie_line(const struct top_dev *d, int y, int x, int w)
{
	int used;

	if (d->lim.link[0])
		used = put(y, x, w, A_NORMAL, "pcie %s%s%s  ", d->lim.link,
			   strcmp(d->lim.link, d->lim.link_max) && d->lim.link_max[0] ? " of " : "",
			   strcmp(d->lim.link, d->lim.link_max) ? d->lim.link_max : "");
	else
		used = put(y, x, w, A_DIM, "pcie -  ");
	throttle_line(d, y, x + used, w - used);
}

/* "name 123 unit  ", or dim "name -  " where the runtime reports 0 (unknown). */
static int property(int y, int x, int w, const char *name, long long v, const char *unit)
{
	if (v <= 0)
		return put(y, x, w, A_DIM, "%s -  ", name);
	return put(y, x, w, A_NORMAL, "%s %lld%s  ", name, v, unit);
}

/*
 * A GPU runtime's device, after its name (used columns): the plugin that reports it and
 * what its runtime says of it (compute units, memory, peak clocks); no
 * telemetry source reads it, so no reading is shown, and none made up.
 */
static void runtime_panel(const struct top_dev *d, int y, int x, int w, int used, int lvl,
			  const struct top_view *v)
{
	const struct nb_plugin_device *pd = d->gpu_dev;
	char b[32];

	if (pd)
		used += put(y, x + used, w - used, A_NORMAL, "  %s %s  %s %d, %s", pd->arch,
			    d->e->dev.pci, d->gpu->p->name, d->e->dev.hip_ordinal, d->gpu->p->runtime);
	if (lvl == 0) {
		put(y, x + used, w - used, A_DIM, "  no sensors");
		return;
	}
	y++;
	if (pd) {
		used = property(y, x, w, "CUs", pd->compute_units, "");
		used += put(y, x + used, w - used, pd->memory_bytes ? A_NORMAL : A_DIM,
			    "memory %s  ", pd->memory_bytes ?
			    nb_fmt_bytes(b, sizeof(b), pd->memory_bytes) : "-");
		used += property(y, x + used, w - used, "peak clock", pd->clock_khz / 1000, " MHz");
		property(y, x + used, w - used, "memory clock", pd->memory_clock_khz / 1000, " MHz");
	} else {
		put(y, x, w, A_DIM, "its plugin reports nothing of it");
	}
	y++;
	if (d->sd.use)
		busy_line(d, y, x, w, v);
	else
		put(y, x, w, A_DIM, "no sensors: no telemetry source reads a GPU runtime's device");
}

static void panel(const struct top_dev *d, int y, int x, int w, int lvl, int ch,
		  const struct top_view *v, bool selected, double now)
{
	const struct nb_devent *e = d->sd.e;
	const struct nb_reading *r = d->r;
	double a;
	int used;

	used = put(y, x, w, (selected ? A_REVERSE : 0) | A_BOLD, "%d %s", e->dev.index,
		   e->dev.name);
	if (runtime_dev(d)) {
		runtime_panel(d, y, x, w, used, lvl, v);
		return;
	}
	used += put(y, x + used, w - used, A_NORMAL, "  %s%s%s %s", e->asic[0] ? e->asic : "",
		    e->gfx_target[0] ? " " : "", e->gfx_target, e->dev.pci);
	if (d->sd.asleep)
		put(y, x + used, w - used, att(P_ASLEEP, A_REVERSE) | A_BOLD, "  ASLEEP");
	if (lvl == 0) {
		if (!d->sd.asleep && rv(r, GT_S_GPU_BUSY, &a, 1))
			put(y, x + used, w - used, A_NORMAL, "  gfx %.0f%%", a);
		return;
	}
	busy_line(d, ++y, x, w, v);
	clock_line(d, ++y, x, w);
	if (lvl == 1) {
		throttle_line(d, y + 1, x, w);
		return;
	}
	y++;
	power_lines(d, y, x, w);
	y += 2;
	pcie_line(d, y, x, w);
	y++;
	if (lvl == 3 && v->show_charts)
		for (int c = 0; c < TOP_CH_COUNT; c++)
			chart(d, c, y + c * ch, x, w, ch, v, now);
}

/* Whether process row p is shown under the chosen device. */
static bool proc_shown(const struct top_model *m, const struct top_view *v,
		       const struct top_proc *p)
{
	return v->select < 0 || m->dev[v->select].sd.e->dev.index == p->dev;
}

/*
 * The process pane's columns for this terminal, from the column table:
 * each one's x and width; COMMAND takes what is left (7 to 40), CONTAINER
 * shown only where COMMAND keeps 12 beside it. Returns the columns shown.
 */
static int proc_columns(int x[TOP_COL_COUNT], int wd[TOP_COL_COUNT])
{
	int fixed = 0, ncol = TOP_COL_COUNT;

	for (int c = 0; c < TOP_COL_COUNT; c++) {
		int name = (int)strlen(top_cols[c].name);

		wd[c] = top_cols[c].width > name ? top_cols[c].width : name;
		if (c != TOP_COL_COMMAND)
			fixed += wd[c] + (c ? 1 : 0);
	}
	fixed++;	/* the space after COMMAND */
	if (COLS - fixed < 12) {
		ncol = TOP_COL_CONTAINER;
		fixed -= wd[TOP_COL_CONTAINER] + 1;
	}
	wd[TOP_COL_COMMAND] = COLS - fixed;
	wd[TOP_COL_COMMAND] = wd[TOP_COL_COMMAND] < 7 ? 7 : wd[TOP_COL_COMMAND] > 40 ? 40 :
			      wd[TOP_COL_COMMAND];
	x[0] = 0;
	for (int c = 1; c < TOP_COL_COUNT; c++)
		x[c] = x[c - 1] + wd[c - 1] + 1;
	return ncol;
}

/* One cell of column c: the text aligned as the table says, cut to its width. */
static void cell(int y, const int x[], const int wd[], int c, attr_t a, const char *text)
{
	put(y, x[c], wd[c], a, top_cols[c].left ? "%-*s" : "%*s", wd[c], text);
}

static void proc_row(const struct top_proc *p, int y, const int x[], const int wd[], int ncol)
{
	char b[32];

	snprintf(b, sizeof(b), "%d", p->pid);
	cell(y, x, wd, TOP_COL_PID, A_NORMAL, b);
	cell(y, x, wd, TOP_COL_USER, A_NORMAL, p->user);
	snprintf(b, sizeof(b), "%d", p->dev);
	cell(y, x, wd, TOP_COL_DEV, A_NORMAL, p->dev >= 0 ? b : "-");
	cell(y, x, wd, TOP_COL_COMMAND, A_BOLD, p->comm);
	for (int k = 0; k < 5; k++) {
		snprintf(b, sizeof(b), "%.0f%%", p->busy[k]);
		cell(y, x, wd, TOP_COL_GFX + k, p->has_busy ? A_NORMAL : A_DIM,
		     p->has_busy ? b : "-");
	}
	cell(y, x, wd, TOP_COL_VRAM, A_NORMAL,
	     p->has_vram ? nb_fmt_bytes(b, sizeof(b), p->vram) : "-");
	cell(y, x, wd, TOP_COL_GTT, A_NORMAL, p->has_gtt ? nb_fmt_bytes(b, sizeof(b), p->gtt) : "-");
	if (ncol > TOP_COL_CONTAINER)
		cell(y, x, wd, TOP_COL_CONTAINER, A_NORMAL, p->container[0] ? p->container : "-");
}

static void procs_pane(const struct top_model *m, const struct top_view *v, int y, int h)
{
	int x[TOP_COL_COUNT], wd[TOP_COL_COUNT], ncol = proc_columns(x, wd);
	int shown = 0, rows = 0;

	move(y, 0);
	attron(att(P_HEAD, A_REVERSE));
	hline(' ', COLS);
	attroff(att(P_HEAD, A_REVERSE));
	for (int c = 0; c < ncol; c++)
		cell(y, x, wd, c, att(P_HEAD, A_REVERSE) |
		     (c == (int)v->sort ? A_BOLD | A_UNDERLINE : 0), top_cols[c].name);
	for (int i = 0; i < m->nprocs; i++)
		shown += proc_shown(m, v, &m->procs[i]);
	for (int i = 0; i < m->nprocs && rows < h - 2; i++) {
		if (!proc_shown(m, v, &m->procs[i]))
			continue;
		proc_row(&m->procs[i], y + 1 + rows, x, wd, ncol);
		rows++;
	}
	if (h >= 2)
		put(y + h - 1, 0, COLS, A_DIM, "%d process%s%s%s, sorted by %s %s%s", shown,
		    shown == 1 ? "" : "es", v->select >= 0 ? " on device " : "",
		    v->select >= 0 ? m->dev[v->select].sd.e->dev.name : "",
		    top_cols[v->sort].name, v->sort_rev ? "(descending)" : "(ascending)",
		    m->unreadable ? "; others' not readable (root reads them)" : "");
}

static const char *const help_keys[][2] = {
	{ "q", "quit (also Ctrl-C)" },
	{ "h ?", "this help; any key closes it" },
	{ "s S", "sort the processes by the next / previous column" },
	{ "r", "reverse the sort order" },
	{ "d D", "choose the next / previous device (its panel, its processes); a: all" },
	{ "space", "pause / resume sampling" },
	{ "+ -", "sample less / more often (the interval)" },
	{ "< >", "a shorter / longer chart window" },
	{ "g", "show / hide the device panels" },
	{ "c", "show / hide the history charts" },
	{ "p", "show / hide the process pane" },
};

static void help_screen(void)
{
	int n = (int)(sizeof(help_keys) / sizeof(help_keys[0]));
	int y = 2;

	put(y++, 2, COLS - 4, A_BOLD, "navibench top: keys");
	y++;
	for (int i = 0; i < n && y < LINES - 1; i++, y++) {
		put(y, 4, 8, A_BOLD, "%s", help_keys[i][0]);
		put(y, 14, COLS - 16, A_NORMAL, "%s", help_keys[i][1]);
	}
	if (y + 1 < LINES - 1)
		put(y + 1, 2, COLS - 4, A_DIM, "Panels: busy, clocks of their maximum, temperatures "
		    "of their critical value, power of its cap; throttle reasons active now are "
		    "highlighted; a GPU runtime's device: what its plugin reports. See navibench(1).");
}

static void fmt_secs(char *buf, size_t n, double s)
{
	if (s >= 60 && fmod(s, 60) == 0)
		snprintf(buf, n, "%.0fm", s / 60);
	else
		snprintf(buf, n, "%gs", s);
}

/* Choose the panels' detail level and chart height for the rows there are. */
static void layout(const struct top_dev *d, int ndev, int ncols, int avail, bool charts,
		   int *lvl, int *ch)
{
	for (*lvl = 3; *lvl >= 0; (*lvl)--) {
		if (*lvl == 3 && !charts)
			continue;
		for (*ch = 4; *ch >= 1; (*ch)--) {
			if (grid_lines(d, ndev, ncols, *lvl, *ch, charts) <= avail)
				return;
			if (*lvl != 3)
				break;
		}
	}
	*lvl = 0;
	*ch = 1;
}

void top_draw(const struct top_model *m, const struct top_view *v)
{
	int first = v->select >= 0 ? v->select : 0;
	int ndev = v->select >= 0 ? 1 : m->n;
	const struct top_dev *d = m->dev + first;
	int ncols, lvl = 0, ch = 1, y, mid, proc_h = 0, dev_h = 0, pw;
	char iv[16], win[16], clock[16];
	time_t now = time(NULL);
	struct tm tm;

	erase();
	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fmt_secs(iv, sizeof(iv), v->interval_ms / 1000.0);
	fmt_secs(win, sizeof(win), v->window_s);
	move(0, 0);
	attron(att(P_TITLE, A_REVERSE));
	hline(' ', COLS);
	put(0, 0, COLS, att(P_TITLE, A_REVERSE) | A_BOLD, "navibench top");
	put(0, 14, COLS - 14, att(P_TITLE, A_REVERSE), " %s  every %s  window %s  %d device%s%s%s%s",
	    clock, iv, win, m->n, m->n == 1 ? "" : "s", v->paused ? "  PAUSED" : "",
	    v->status[0] ? "  " : "", v->status);
	attroff(att(P_TITLE, A_REVERSE));
	put(LINES - 1, 0, COLS, A_REVERSE, "%-*s", COLS,
	    "q quit  h help  s/r sort  d device  space pause  +/- interval  g/c/p panels");
	if (v->help) {
		help_screen();
		refresh();
		return;
	}
	mid = LINES - 2;
	ncols = COLS >= 160 && ndev > 1 ? COLS / 80 : 1;
	if (ncols > ndev)
		ncols = ndev ? ndev : 1;
	pw = COLS / ncols;
	if (v->show_procs) {
		int want = 0;

		for (int i = 0; i < m->nprocs; i++)
			want += proc_shown(m, v, &m->procs[i]);
		proc_h = want + 2 < 4 ? 4 : want + 2;
		if (v->show_devices && proc_h > mid / 3)
			proc_h = mid / 3 < 4 ? 4 : mid / 3;
		if (proc_h > mid)
			proc_h = mid;
	}
	if (v->show_devices && ndev) {
		layout(d, ndev, ncols, mid - proc_h - 1, v->show_charts, &lvl, &ch);
		dev_h = grid_lines(d, ndev, ncols, lvl, ch, v->show_charts);
		if (dev_h > mid - proc_h)
			dev_h = mid - proc_h;
	}
	if (v->show_procs)
		proc_h = mid - dev_h - (dev_h ? 1 : 0);
	y = 1;
	if (v->show_devices) {
		if (!ndev)
			put(y, 0, COLS, A_BOLD, "no AMD GPU, simulated GPU or GPU-runtime device: "
			    "nothing to show but the processes ('navibench list' says what was found)");
		for (int i = 0, py = y; i < ndev; i++) {
			int row = i / ncols, col = i % ncols;

			if (i && !col)
				py += row_lines(d, ndev, ncols, row - 1, lvl, ch, v->show_charts) +
				      (lvl ? 1 : 0);
			if (py >= 1 + dev_h)
				break;
			panel(&d[i], py, col * pw, pw - (col < ncols - 1), lvl, ch, v,
			      v->select == first + i, m->now);
		}
		y += dev_h + (dev_h ? 1 : 0);
	}
	if (v->show_procs && proc_h > 0)
		procs_pane(m, v, y, proc_h);
	refresh();
}
