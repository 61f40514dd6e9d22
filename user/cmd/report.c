// SPDX-License-Identifier: MIT
/*
 * navibench report RESULT.json [RESULT.json...] --output report.html: one
 * self-contained HTML page of run results: each run's device card and
 * score, a bar chart of every test against the reference device and the
 * other results, the telemetry timelines with the test boundaries, and the
 * validation of every test.
 *
 * The page has no script, no style sheet, font or image from elsewhere:
 * the charts are inline SVG written here, so it opens the same offline, in
 * a mail attachment or from a CI artifact. Every string from a result is
 * HTML-escaped: a result is input from elsewhere.
 *
 * Telemetry: a test's time series, when its result carries one, is read
 * from tests[].telemetry.series (t_s: seconds from the start of the run;
 * clock_mhz, temperature_c, power_w: one value or null per t_s). A series
 * or a member that is absent is not drawn, and the page says so; results
 * of schema 2 carry none yet.
 */
#include "navibench.h"
#include "optional.h"

/* Without json-c: the command's declaration only (off in this build). */
#ifndef NB_WITHOUT_JSON_C
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "navibench.h"
#include "optional.h"
#include "print/print.h"
#include "cmd/result.h"

#define MAX_FILES 16
#define CHART_W 900

/* One result colour each; the reference device is grey. */
static const char *const colour[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};
#define REF_COLOUR "#9e9e9e"

/* The telemetry members drawn, one timeline each. */
static const struct {
	const char *key, *title, *unit;
} series_kind[] = {
	{ "clock_mhz", "Clock", "MHz" },
	{ "temperature_c", "Temperature", "\u00b0C" },
	{ "power_w", "Power", "W" },
};
#define NKIND 3

struct series {
	const char *test;
	double *t, *v[NKIND];	/* v: NaN where null */
	int n;
	/* the summary over the test's window: min, avg, max per kind; NaN: null */
	double stat[NKIND][3];
	double energy_j, per_joule;
	const char *per_joule_unit, *source, *missing;
	char reasons[160];	/* "ppt0, thm_core"; "" none; "-" not known */
};

/* What the page shows of a test beyond struct nb_result_test; NaN: null. */
struct rep_test {
	double reference_value, score;
	const char *error;		/* NULL: none */
	bool has_v;			/* a validation object */
	int pass;			/* -1: not said */
	double max_abs, max_rel, tol_abs, tol_rel;
};

struct rep_run {
	struct nb_result r;
	const char *pci, *note, *machine, *cpu, *os;
	struct rep_test t[NB_RESULT_MAX_TESTS];
	struct series s[NB_RESULT_MAX_TESTS];
	int ns;
};

/* Text escaped for HTML: element content and quoted attribute values. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *fmt_num(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, n, fabs(v) >= 100 ? "%.1f" : fabs(v) >= 1 ? "%.2f" : "%.3g", v);
	return buf;
}

/* ---- reading: what report reads beyond the shared loader ---- */

/* An array member of a series: numbers or null, n of them (n < 0: any). */
static double *read_array(struct nb_reader *rd, struct json_object *o, const char *where,
			  const char *key, int *n)
{
	struct json_object *a = nb_json_get(rd, o, where, key, J_ARR | J_NULL, "an array");
	size_t len = a ? json_object_array_length(a) : 0;
	double *v;

	if (!a)
		return NULL;
	if (*n >= 0 && (int)len != *n) {
		nb_reader_bad(rd, "field %s.%s: %zu values, t_s has %d: one per sample", where,
			      key, len, *n);
		return NULL;
	}
	v = calloc(len ? len : 1, sizeof(double));
	if (!v) {
		nb_reader_bad(rd, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		enum json_type ty = json_object_get_type(e);

		if (ty != json_type_null && ty != json_type_double && ty != json_type_int) {
			nb_reader_bad(rd, "field %s.%s[%zu]: expected a number or null, found %s",
				      where, key, i, json_type_to_name(ty));
			free(v);
			return NULL;
		}
		v[i] = ty == json_type_null ? NAN : json_object_get_double(e);
	}
	*n = (int)len;
	return v;
}

/* The telemetry's summary (result-schema.md): each field checked. */
static void read_summary(struct nb_reader *rd, struct json_object *tel, const char *where,
			 struct series *s)
{
	static const char *const stat[] = { "min", "avg", "max" };
	struct json_object *pj, *rs;
	char w[96];

	for (int k = 0; k < NKIND; k++) {
		struct json_object *o = nb_json_get(rd, tel, where, series_kind[k].key,
						    J_OBJ | J_NULL, "an object or null");

		snprintf(w, sizeof(w), "%s.%s", where, series_kind[k].key);
		for (int j = 0; j < 3; j++)
			s->stat[k][j] = o && json_object_is_type(o, json_type_object) ?
					nb_json_num(rd, o, w, stat[j]) : NAN;
	}
	s->energy_j = nb_json_num(rd, tel, where, "energy_j");
	s->source = nb_json_str(rd, tel, where, "source", true);
	s->missing = nb_json_str(rd, tel, where, "missing", true);
	pj = nb_json_get(rd, tel, where, "per_joule", J_OBJ | J_NULL, "an object or null");
	s->per_joule = NAN;
	if (pj && json_object_is_type(pj, json_type_object)) {
		snprintf(w, sizeof(w), "%s.per_joule", where);
		s->per_joule = nb_json_num(rd, pj, w, "value");
		s->per_joule_unit = nb_json_str(rd, pj, w, "unit", false);
	}
	rs = nb_json_get(rd, tel, where, "throttle_reasons", J_ARR | J_NULL, "an array or null");
	snprintf(s->reasons, sizeof(s->reasons), "%s", rs ? "" : "-");
	for (size_t j = 0; rs && j < json_object_array_length(rs) && !rd->bad; j++) {
		struct json_object *e = json_object_array_get_idx(rs, j);
		size_t o = strlen(s->reasons);

		if (!json_object_is_type(e, json_type_string)) {
			nb_reader_bad(rd, "field %s.throttle_reasons[%zu]: expected a string, found %s",
				      where, j, json_type_to_name(json_object_get_type(e)));
			return;
		}
		snprintf(s->reasons + o, sizeof(s->reasons) - o, "%s%s", o ? ", " : "",
			 json_object_get_string(e));
	}
}

static void read_series(struct nb_reader *rd, struct json_object *test, int i,
			struct rep_run *run)
{
	char where[64];
	struct json_object *tel, *ser;
	struct series *s;

	snprintf(where, sizeof(where), "tests[%d]", i);
	tel = nb_json_get(rd, test, where, "telemetry", J_OBJ | J_NULL, "an object or null");
	if (!tel || !json_object_is_type(tel, json_type_object))
		return;
	snprintf(where, sizeof(where), "tests[%d].telemetry", i);
	ser = nb_json_get(rd, tel, where, "series", J_OBJ | J_NULL, "an object or null");
	if (!ser || !json_object_is_type(ser, json_type_object))
		return;
	snprintf(where, sizeof(where), "tests[%d].telemetry.series", i);
	s = &run->s[run->ns++];
	s->test = run->r.t[i].name;
	s->n = -1;
	s->t = read_array(rd, ser, where, "t_s", &s->n);
	if (!s->t) {
		if (!rd->bad)
			nb_reader_bad(rd, "field %s.t_s is missing (the times of the samples)", where);
		return;
	}
	for (int j = 0; j < s->n; j++)
		if (!isfinite(s->t[j])) {
			nb_reader_bad(rd, "field %s.t_s[%d]: expected a time in seconds, found null",
				      where, j);
			return;
		}
	for (int k = 0; k < NKIND && !rd->bad; k++)
		s->v[k] = read_array(rd, ser, where, series_kind[k].key, &s->n);
	snprintf(where, sizeof(where), "tests[%d].telemetry", i);
	read_summary(rd, tel, where, s);
}

/* What the page shows beyond the shared loader: each field checked. */
/* What the page shows of tests[i] (t) beyond what nb_result_read() read. */
static void read_test_more(struct nb_reader *rd, struct json_object *t, int i,
			   struct rep_test *rt)
{
	struct json_object *v, *pass;
	char where[32], vwhere[48];

	snprintf(where, sizeof(where), "tests[%d]", i);
	snprintf(vwhere, sizeof(vwhere), "%s.validation", where);
	rt->reference_value = nb_json_num(rd, t, where, "reference_value");
	rt->score = nb_json_num(rd, t, where, "score");
	rt->error = nb_json_str(rd, t, where, "error", true);
	v = nb_json_get(rd, t, where, "validation", J_OBJ | J_NULL, "an object or null");
	rt->has_v = v && json_object_is_type(v, json_type_object);
	pass = rt->has_v ? nb_json_get(rd, v, vwhere, "pass", J_BOOL | J_NULL,
				       "true, false or null") : NULL;
	rt->pass = pass && json_object_is_type(pass, json_type_boolean) ?
		   json_object_get_boolean(pass) : -1;
	rt->max_abs = rt->max_rel = rt->tol_abs = rt->tol_rel = NAN;
	if (!rt->has_v)
		return;
	rt->max_abs = nb_json_num(rd, v, vwhere, "max_abs_error");
	rt->max_rel = nb_json_num(rd, v, vwhere, "max_rel_error");
	rt->tol_abs = nb_json_num(rd, v, vwhere, "tolerance_abs");
	rt->tol_rel = nb_json_num(rd, v, vwhere, "tolerance_rel");
}

static int read_more(struct rep_run *run)
{
	struct nb_reader rd = { .cmd = "report", .path = run->r.path,
				.version = run->r.version };
	struct json_object *dev, *score, *ref, *tests, *sys, *cpu;

	dev = nb_json_get(&rd, run->r.root, "", "device", J_OBJ, "an object");
	run->pci = nb_json_str(&rd, dev, "device", "pci", true);
	run->note = nb_json_str(&rd, dev, "device", "note", true);
	score = nb_json_get(&rd, run->r.root, "", "score", J_OBJ, "an object");
	ref = nb_json_get(&rd, score, "score", "reference", J_OBJ | J_NULL, "an object");
	run->machine = ref ? nb_json_str(&rd, ref, "score.reference", "machine", true) : NULL;
	sys = nb_json_get(&rd, run->r.root, "", "system", J_OBJ | J_NULL, "an object");
	cpu = sys ? nb_json_get(&rd, sys, "system", "cpu", J_OBJ | J_NULL, "an object") : NULL;
	run->cpu = cpu ? nb_json_str(&rd, cpu, "system.cpu", "model", true) : NULL;
	run->os = sys ? nb_json_str(&rd, sys, "system", "os", true) : NULL;
	tests = nb_json_get(&rd, run->r.root, "", "tests", J_ARR, "an array");
	for (int i = 0; i < run->r.nt && !rd.bad; i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);

		read_test_more(&rd, t, i, &run->t[i]);
		read_series(&rd, t, i, run);
	}
	return rd.bad ? NB_EXIT_USAGE : 0;
}

static void free_run(struct rep_run *run)
{
	for (int i = 0; i < run->ns; i++) {
		free(run->s[i].t);
		for (int k = 0; k < NKIND; k++)
			free(run->s[i].v[k]);
	}
	nb_result_free(&run->r);
}

/* ---- the page ---- */

static void row(FILE *f, const char *label, const char *value)
{
	if (!value)
		return;
	fprintf(f, "<tr><th>%s</th><td>", label);
	esc(f, value);
	fputs("</td></tr>\n", f);
}

static void device_card(FILE *f, const struct rep_run *run, int k)
{
	const struct nb_result *r = &run->r;
	char buf[256];

	fprintf(f, "<div class=\"card\" style=\"border-left-color:%s\"><h3>", colour[k % 8]);
	esc(f, base_name(r->path));
	fputs("</h3><table>\n", f);
	row(f, "device", r->device);
	row(f, "kind", r->kind);
	row(f, "PCI", run->pci);
	snprintf(buf, sizeof(buf), "%s (%s)", r->backend, r->detail);
	row(f, "backend", buf);
	row(f, "where it ran", run->note);
	row(f, "date", r->date);
	snprintf(buf, sizeof(buf), "quick %s, seed %ld, %ld threads, weights %s",
		 r->quick ? "yes" : "no", r->seed, r->threads, r->weights ? r->weights : "from the seed");
	row(f, "configuration", buf);
	row(f, "CPU", run->cpu);
	row(f, "OS", run->os);
	row(f, "kernel", r->kernel);
	snprintf(buf, sizeof(buf), "%s %s", r->version_str ? r->version_str : "-",
		 r->commit ? r->commit : "");
	row(f, "navibench", buf);
	if (isfinite(r->load_start)) {
		snprintf(buf, sizeof(buf), "%.2f", r->load_start);
		row(f, "load at start", buf);
	}
	row(f, "result", !r->complete ? "interrupted (complete: false)" :
	    r->valid ? "valid" : "INVALID");
	if (isfinite(r->score))
		snprintf(buf, sizeof(buf), "%.0f", r->score);
	else
		snprintf(buf, sizeof(buf), "none (it needs every test of its suite, standard and valid)");
	row(f, "score", buf);
	row(f, "reference", r->ref_id);
	fputs("</table></div>\n", f);
}

/* One horizontal bar with its label. */
static void bar(FILE *f, int y, double v, double max, const char *fill, const char *who,
		const char *unit, double ref, bool is_ref)
{
	char a[32], b[32];
	/* an INVALID result's value may be anything: no negative width */
	int w = isfinite(v) && v > 0 && max > 0 ? (int)lround(v / max * 420) : 0;

	fprintf(f, "<text x=\"236\" y=\"%d\" text-anchor=\"end\">", y + 13);
	esc(f, who);
	fprintf(f, "</text><rect x=\"240\" y=\"%d\" width=\"%d\" height=\"16\" fill=\"%s\"/>",
		y, w, fill);
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s ", 246 + w, y + 13, fmt_num(a, sizeof(a), v));
	esc(f, unit);
	if (isfinite(v) && isfinite(ref) && ref > 0 && !is_ref)
		fprintf(f, " (x %s of the reference)", fmt_num(b, sizeof(b), v / ref));
	else if (!isfinite(v))
		fputs(" (no result)", f);
	fputs("</text>\n", f);
}

static void bar_chart(FILE *f, const struct rep_run *runs, int nrun)
{
	const char *names[NB_RESULT_MAX_TESTS * MAX_FILES];
	int nn = 0, h = 10;

	for (int k = 0; k < nrun; k++)
		for (int i = 0; i < runs[k].r.nt; i++) {
			int j = 0;

			while (j < nn && strcmp(names[j], runs[k].r.t[i].name))
				j++;
			if (j == nn)
				names[nn++] = runs[k].r.t[i].name;
		}
	h += nn * (26 + 20 * (nrun + 1));
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", CHART_W, h);
	int y = 10;

	for (int j = 0; j < nn; j++) {
		double ref = NAN, max = 0;
		const char *unit = "";

		for (int k = 0; k < nrun; k++) {
			const struct nb_result_test *t = nb_result_find_test(&runs[k].r, names[j]);
			int i = t ? (int)(t - runs[k].r.t) : 0;

			if (!t)
				continue;
			unit = t->unit;
			if (!isfinite(ref))
				ref = runs[k].t[i].reference_value;
			if (isfinite(t->value))
				max = fmax(max, t->value);
		}
		if (isfinite(ref))
			max = fmax(max, ref);
		fprintf(f, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">", y + 14);
		esc(f, names[j]);
		fputs("</text>\n", f);
		y += 22;
		bar(f, y, ref, max, REF_COLOUR, "reference device", unit, ref, true);
		y += 20;
		for (int k = 0; k < nrun; k++) {
			const struct nb_result_test *t = nb_result_find_test(&runs[k].r, names[j]);
			/* each run's ratio against its own reference (score.reference_id) */
			double own = t ? runs[k].t[t - runs[k].r.t].reference_value : NAN;

			bar(f, y, t ? t->value : NAN, max, colour[k % 8], base_name(runs[k].r.path),
			    unit, own, false);
			y += 20;
		}
		y += 4;
	}
	fputs("</svg>\n", f);
}

/* One timeline: a member of every run's series over the run's time. */
static void timeline(FILE *f, const struct rep_run *runs, int nrun, int kind)
{
	const int W = CHART_W, H = 200, L = 60, R = 20, T = 24, B = 30;
	double t0 = INFINITY, t1 = -INFINITY, v0 = INFINITY, v1 = -INFINITY;
	char a[32];

	for (int k = 0; k < nrun; k++)
		for (int i = 0; i < runs[k].ns; i++) {
			const struct series *s = &runs[k].s[i];

			for (int j = 0; j < s->n && s->v[kind]; j++) {
				if (!isfinite(s->t[j]) || !isfinite(s->v[kind][j]))
					continue;
				t0 = fmin(t0, s->t[j]), t1 = fmax(t1, s->t[j]);
				v0 = fmin(v0, s->v[kind][j]), v1 = fmax(v1, s->v[kind][j]);
			}
		}
	if (!(t1 >= t0)) {
		fprintf(f, "<p class=\"note\">%s: no samples in these results.</p>\n",
			series_kind[kind].title);
		return;
	}
	if (t1 == t0)
		t1 = t0 + 1;
	if (v1 == v0)
		v0 -= 1, v1 += 1;
#define X(t) (L + ((t) - t0) / (t1 - t0) * (W - L - R))
#define Y(v) (H - B - ((v) - v0) / (v1 - v0) * (H - T - B))
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", W, H);
	fprintf(f, "<text x=\"4\" y=\"14\" font-weight=\"bold\">%s (%s)</text>\n",
		series_kind[kind].title, series_kind[kind].unit);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>\n",
		L, T, W - L - R, H - T - B);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", L - 4, T + 10,
		fmt_num(a, sizeof(a), v1));
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", L - 4, H - B,
		fmt_num(a, sizeof(a), v0));
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s s</text>", L, H - 8, fmt_num(a, sizeof(a), t0));
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s s</text>\n", W - R, H - 8,
		fmt_num(a, sizeof(a), t1));
	for (int k = 0; k < nrun; k++)
		for (int i = 0; i < runs[k].ns; i++) {
			const struct series *s = &runs[k].s[i];
			bool pen = false;

			if (!s->v[kind] || !s->n)
				continue;
			/* the test's boundaries: its first and last sample */
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>"
				"<text x=\"%.1f\" y=\"%d\" fill=\"#555\">", X(s->t[0]), X(s->t[0]), T,
				H - B, X(s->t[0]) + 3, T + 12);
			esc(f, s->test);
			fprintf(f, "</text><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n",
				X(s->t[s->n - 1]), X(s->t[s->n - 1]), T, H - B);
			fprintf(f, "<path fill=\"none\" stroke-width=\"1.5\" stroke=\"%s\" d=\"",
				colour[k % 8]);
			for (int j = 0; j < s->n; j++) {
				if (!isfinite(s->v[kind][j]) || !isfinite(s->t[j])) {
					pen = false;	/* a gap where a sample is missing */
					continue;
				}
				fprintf(f, "%c%.1f %.1f ", pen ? 'L' : 'M', X(s->t[j]),
					Y(s->v[kind][j]));
				pen = true;
			}
			fputs("\"/>\n", f);
		}
#undef X
#undef Y
	fputs("</svg>\n", f);
}

/* min/avg/max of kind k, or "-" */
static void stat_cell(FILE *f, const struct series *s, int k)
{
	char a[32], b[32], c[32];

	fputs("<td>", f);
	if (isfinite(s->stat[k][1]))
		fprintf(f, "%s / %s / %s", fmt_num(a, sizeof(a), s->stat[k][0]),
			fmt_num(b, sizeof(b), s->stat[k][1]), fmt_num(c, sizeof(c), s->stat[k][2]));
	else
		fputs("-", f);
	fputs("</td>", f);
}

/* Per result and test: the window's min/avg/max, energy, per joule, throttling. */
static void summary(FILE *f, const struct rep_run *runs, int nrun)
{
	char a[32];

	fputs("<table class=\"grid\"><tr><th>result</th><th>test</th><th>clock (MHz)</th>"
	      "<th>temperature (\u00b0C)</th><th>power (W)</th><th>energy (J)</th>"
	      "<th>per joule</th><th>throttled by</th><th>source</th></tr>\n", f);
	for (int r = 0; r < nrun; r++) {
		for (int i = 0; i < runs[r].ns; i++) {
			const struct series *s = &runs[r].s[i];

			fputs("<tr><td>", f);
			esc(f, base_name(runs[r].r.path));
			fputs("</td><td>", f);
			esc(f, s->test);
			fputs("</td>", f);
			for (int k = 0; k < NKIND; k++)
				stat_cell(f, s, k);
			fprintf(f, "<td>%s</td><td>", fmt_num(a, sizeof(a), s->energy_j));
			if (isfinite(s->per_joule)) {
				fprintf(f, "%.4g ", s->per_joule);
				esc(f, s->per_joule_unit);
			} else {
				fputs("-", f);
			}
			fputs("</td><td>", f);
			esc(f, s->reasons[0] ? s->reasons : "none");
			fputs("</td><td>", f);
			esc(f, s->source);
			if (s->missing && s->missing[0]) {
				fputs("; missing: ", f);
				esc(f, s->missing);
			}
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n<p class=\"note\">Over each test's timed repeats: min / average / max; "
	      "energy over the window; the result per joule where the energy is known; the "
	      "throttle reasons reported (- where not known).</p>\n", f);
}

static void telemetry(FILE *f, const struct rep_run *runs, int nrun)
{
	bool any = false;

	fputs("<h2>Telemetry during the tests</h2>\n", f);
	for (int k = 0; k < nrun; k++) {
		if (runs[k].ns)
			any = true;
		else {
			fputs("<p class=\"note\">", f);
			esc(f, base_name(runs[k].r.path));
			fputs(": this result carries no telemetry time series "
			      "(tests[].telemetry.series): nothing to draw for it.</p>\n", f);
		}
	}
	if (!any)
		return;
	summary(f, runs, nrun);
	fputs("<p class=\"note\">One colour per result, as on its device card; dashed lines: a test's first and last sample.</p>\n", f);
	for (int kind = 0; kind < NKIND; kind++)
		timeline(f, runs, nrun, kind);
}

static void validation(FILE *f, const struct rep_run *run)
{
	char a[32], b[32];

	fputs("<h3>", f);
	esc(f, base_name(run->r.path));
	fputs("</h3><table class=\"grid\"><tr><th>test</th><th>status</th><th>value</th>"
	      "<th>score</th><th>validation</th><th>max abs error</th><th>max rel error</th>"
	      "<th>tolerance (abs, rel)</th><th>error</th></tr>\n", f);
	for (int i = 0; i < run->r.nt; i++) {
		const struct rep_test *rt = &run->t[i];
		bool has_v = rt->has_v;
		const char *st = run->r.t[i].status;

		fprintf(f, "<tr class=\"%s\"><td>", strcmp(st, "ok") ? "bad" : "ok");
		esc(f, run->r.t[i].name);
		fputs("</td><td>", f);
		esc(f, st);
		fprintf(f, "</td><td>%s ", fmt_num(a, sizeof(a), run->r.t[i].value));
		esc(f, run->r.t[i].unit);
		fprintf(f, "</td><td>%s</td><td>%s</td>", fmt_num(a, sizeof(a), rt->score),
			rt->pass < 0 ? "-" : rt->pass ? "pass" : "FAIL");
		fprintf(f, "<td>%s</td>", has_v ? fmt_num(a, sizeof(a), rt->max_abs) : "-");
		fprintf(f, "<td>%s</td>", has_v ? fmt_num(a, sizeof(a), rt->max_rel) : "-");
		fprintf(f, "<td>%s, %s</td><td>", has_v ? fmt_num(a, sizeof(a), rt->tol_abs) : "-",
			has_v ? fmt_num(b, sizeof(b), rt->tol_rel) : "-");
		esc(f, rt->error);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static const char style[] =
	"body{font-family:sans-serif;margin:20px;color:#222;max-width:1100px}"
	"h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ddd;margin-top:28px}"
	"h3{font-size:15px;margin:6px 0}"
	".cards{display:flex;flex-wrap:wrap;gap:12px}"
	".card{border:1px solid #ddd;border-left:6px solid;padding:8px 12px;background:#fafafa}"
	".card th{text-align:left;padding-right:12px;color:#555;font-weight:normal;vertical-align:top}"
	".grid{border-collapse:collapse}.grid td,.grid th{border:1px solid #ddd;padding:3px 8px}"
	"tr.bad td{background:#fde0e0}.note{color:#555;font-size:13px}"
	".score{font-size:28px;font-weight:bold}";

static void page(FILE *f, const struct rep_run *runs, int nrun)
{
	const char *machine = runs[0].machine;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>navibench report</title>\n<style>", f);
	fputs(style, f);
	fputs("</style></head><body>\n<h1>navibench report</h1>\n<h2>Score</h2>\n", f);
	for (int k = 0; k < nrun; k++) {
		char a[32];

		fprintf(f, "<p><span class=\"score\" style=\"color:%s\">%s</span> ", colour[k % 8],
			isfinite(runs[k].r.score) ? fmt_num(a, sizeof(a), runs[k].r.score) : "no score");
		esc(f, base_name(runs[k].r.path));
		fputs(" <span class=\"note\">(against reference ", f);
		esc(f, runs[k].r.ref_id ? runs[k].r.ref_id : "unknown: schema 1");
		fputs(")</span></p>\n", f);
	}
	fputs("<p class=\"note\">The score is the geometric mean of result / reference x 1000 "
	      "over the tests of the run's score method (convlstm-train on a backend with a "
	      "training step, outside --quick); a run without every one of them in its standard "
	      "configuration and valid has none. The reference device: ", f);
	esc(f, machine ? machine : "not named in the result");
	fputs(".</p>\n<h2>Devices</h2>\n<div class=\"cards\">\n", f);
	for (int k = 0; k < nrun; k++)
		device_card(f, &runs[k], k);
	fputs("</div>\n<h2>Tests against the reference device</h2>\n", f);
	bar_chart(f, runs, nrun);
	telemetry(f, runs, nrun);
	fputs("<h2>Validation</h2>\n", f);
	for (int k = 0; k < nrun; k++)
		validation(f, &runs[k]);
	fputs("<p class=\"note\">Made by navibench " NAVIBENCH_VERSION
	      " (navibench report); no script, nothing loaded from elsewhere.</p>\n"
	      "</body></html>\n", f);
}

static int write_page(const char *output, const struct rep_run *runs, int nrun)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f) {
		fprintf(stderr, "navibench report: out of memory\n");
		return NB_EXIT_FAIL;
	}
	page(f, runs, nrun);
	if (fclose(f)) {
		free(buf);
		fprintf(stderr, "navibench report: out of memory\n");
		return NB_EXIT_FAIL;
	}
	if (!strcmp(output, "-"))
		err = fwrite(buf, 1, len, stdout) == len ? 0 : -EIO;
	else
		err = nb_write_file_atomic(output, buf, len);
	free(buf);
	if (err) {
		fprintf(stderr, "navibench report: cannot write %s: %s\n", output, strerror(-err));
		return NB_EXIT_FAIL;
	}
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static struct rep_run runs[MAX_FILES];
	const char *output = NULL;
	const struct cli_option opts[] = {
		CLI_OUTFILE_OPT("output", 'o', &output, "FILE",
			       "the HTML file to write (atomically); - for stdout"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = nb_cmd_report.name,
		.summary = nb_cmd_report.summary,
		.positional = "RESULT.json [RESULT.json...]",
		.description =
			"One self-contained HTML page (inline SVG charts; no script, nothing\n"
			"loaded from elsewhere): each run's device card and score, a bar chart of\n"
			"every test against the reference device and the other results, the\n"
			"telemetry timelines (clock, temperature, power) with the test boundaries\n"
			"where the results carry them, and every test's validation.",
		.common = CLI_ARGS_IN,
		.options = opts,
	};
	struct cli_common common;
	struct cli_file ins[MAX_FILES];
	int rc = cli_parse(&spec, argc, argv, &common), nrun = 0;

	if (rc != CLI_CONTINUE)
		return rc;
	if (!output)
		return cli_usage_error("report", "--output FILE is required (the HTML page to write)");
	if (common.nargs < 1 || common.nargs > MAX_FILES)
		return cli_usage_error("report", "give 1 to %d result files (%d given)", MAX_FILES,
				       common.nargs);
	for (int k = 0; k < common.nargs; k++)
		ins[k] = (struct cli_file){ "RESULT", common.args[k] };
	const struct cli_file outs[] = { { "--output", output } };

	rc = cli_check_outputs("report", ins, common.nargs, outs, 1);
	if (rc)
		return rc;
	memset(runs, 0, sizeof(runs));
	for (int k = 0; k < common.nargs && !rc; k++, nrun++) {
		rc = nb_result_read("report", common.args[k], &runs[k].r);
		if (!rc)
			rc = read_more(&runs[k]);
	}
	if (!rc)
		rc = write_page(output, runs, nrun);
	for (int k = 0; k < nrun; k++)
		free_run(&runs[k]);
	return rc;
}
#endif /* NB_WITHOUT_JSON_C */

const struct nb_command nb_cmd_report = {
	.name = "report",
	.summary = "an HTML report of run results: devices, charts, telemetry, validation",
	.run = NB_WITH_JSON_C(cmd_report),
	.needs = NB_LIB_JSON_C,
};
