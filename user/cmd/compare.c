// SPDX-License-Identifier: MIT
/*
 * navibench compare BASE.json NEW.json [NEW.json...]: run results side by
 * side, per test the ratio of each NEW to BASE and whether the difference
 * is beyond the runs' own variation.
 *
 * The variation is judged from the repeat times a result keeps (schema 2,
 * tests[].times_s) with the Mann-Whitney U test, two-sided, at 5%: each
 * repeat's time becomes a rate (value x median_s / time, in the test's
 * unit) and the two runs' rates are ranked together. Why this test: repeat
 * times are not normal (a long right tail from interrupts, other processes,
 * frequency changes), a few repeats are often all there is (--quick keeps
 * 2 at least), and a rank test needs no distribution, is not moved by one
 * outlier, and has an exact distribution for small samples. Exact when
 * both runs have at most 20 repeats and no ties, else the normal
 * approximation with the tie correction. When even the most extreme
 * ordering could not reach 5% (2 repeats against 2: p >= 1/3) the verdict
 * is "too few repeats", not "within noise".
 *
 * The tests of one NEW run are judged together: Holm's step-down correction
 * keeps the chance of any false "slower" or "faster" among them at 5%. The
 * p values sorted, the i-th smallest (of m) is multiplied by m - i + 1,
 * each adjusted p is at least the one before it, and a difference is
 * beyond the noise when its adjusted p is below 5%. A test whose repeats
 * could not reach that even at the first step (the smallest p the sample
 * sizes allow, times m, is 5% or more) is "too few repeats". With
 * --fail-on-regression a test not judged (too few repeats, no repeat
 * times, missing, not comparable) fails the gate as a regression does:
 * exit 5, and stderr names it. The repeats of one run share
 * its conditions (load, temperature), so the test judges the noise within
 * runs; a difference found between two runs on a loaded machine may still
 * be the load: compare the load averages in the system records.
 */
#define _GNU_SOURCE		/* qsort_r */
#include "navibench.h"
#include "optional.h"

/* Without json-c: the command's declaration only (off in this build). */
#ifndef NB_WITHOUT_JSON_C
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/engine.h"
#include "navibench.h"
#include "optional.h"
#include "print/print.h"
#include "cmd/result.h"

#define ALPHA 0.05
#define EXACT_MAX 20		/* repeats per run for the exact distribution */
#define MAX_FILES 16


/* ---- Mann-Whitney U ---- */

struct mwu {
	double p;		/* two-sided */
	double min_p;		/* the smallest p these sample sizes allow */
	bool exact;
};

static int cmp_idx(const void *a, const void *b, void *arg)
{
	const double *v = arg;
	double x = v[*(const int *)a], y = v[*(const int *)b];

	return x < y ? -1 : x > y;
}

/* P(U <= u) for samples of m and n without ties: counts of orderings. */
static double exact_cdf(int m, int n, double u)
{
	int umax = m * n;
	/* f[i][j][k]: orderings of i and j values with U = k (U counts pairs a > b) */
	double *f = calloc((size_t)(m + 1) * (n + 1) * (umax + 1), sizeof(double));
	double below = 0, all = 0;

	if (!f)
		return NAN;
#define F(i, j, k) f[((size_t)(i) * (n + 1) + (j)) * (umax + 1) + (k)]
	for (int i = 0; i <= m; i++) {
		for (int j = 0; j <= n; j++) {
			if (!i || !j) {
				F(i, j, 0) = 1;
				continue;
			}
			/* the largest value is one of the i (beats all j) or one of the j */
			for (int k = 0; k <= i * j; k++)
				F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) + F(i, j - 1, k);
		}
	}
	for (int k = 0; k <= umax; k++) {
		all += F(m, n, k);
		if (k <= u + 1e-9)
			below += F(m, n, k);
	}
#undef F
	free(f);
	return below / all;
}

static void mann_whitney(const double *a, int na, const double *b, int nb, struct mwu *m)
{
	int n = na + nb;
	double *v = malloc(sizeof(double) * n), *rank = malloc(sizeof(double) * n);
	int *idx = malloc(sizeof(int) * n);
	double ra = 0, ties = 0;

	m->exact = false;
	m->p = m->min_p = NAN;
	if (!v || !rank || !idx)
		goto out;
	memcpy(v, a, sizeof(double) * na);
	memcpy(v + na, b, sizeof(double) * nb);
	for (int i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(int), cmp_idx, v);
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && v[idx[j + 1]] == v[idx[i]])
			j++;
		for (int k = i; k <= j; k++)
			rank[idx[k]] = (i + j) / 2.0 + 1;	/* mid-rank of a tie */
		ties += pow(j - i + 1, 3) - (j - i + 1);
		i = j + 1;
	}
	for (int i = 0; i < na; i++)
		ra += rank[i];
	double u = ra - na * (na + 1) / 2.0, mu = na * (double)nb / 2;

	/* 2 / C(n, na): both extreme orderings; ties only make it larger */
	m->min_p = fmin(1, 2 * exp(lgamma(na + 1) + lgamma(nb + 1) - lgamma(n + 1)));
	if (!ties && na <= EXACT_MAX && nb <= EXACT_MAX) {
		double lo = exact_cdf(na, nb, fmin(u, 2 * mu - u));

		m->exact = true;
		m->p = fmin(1, 2 * lo);
	} else {
		double var = na * (double)nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
		double z = var > 0 ? fmax(0, fabs(u - mu) - 0.5) / sqrt(var) : 0;

		m->p = var > 0 ? erfc(z / M_SQRT2) : 1;
	}
out:
	free(v);
	free(rank);
	free(idx);
}

/* ---- the comparison ---- */

struct row {
	const char *test, *unit, *file;
	double base, val, ratio, p, p_holm, min_p;
	int nbase, nnew;
	int run;		/* the NEW run's index in cmp.run[] */
	const char *verdict;
	char note[160];
	bool regression;
};

struct cmp {
	struct nb_result run[MAX_FILES];
	int nrun;
	double fail_pct;	/* --fail-on-regression; NaN: not given */
	char warn[64][256];
	int nwarn;
	struct row rows[MAX_FILES * NB_RESULT_MAX_TESTS];
	int nrows;
	int regressions;
	int unjudged;		/* tests the gate could not judge */
};

static void warn(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct cmp *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nwarn == (int)(sizeof(c->warn) / sizeof(c->warn[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(c->warn[c->nwarn++], sizeof(c->warn[0]), fmt, ap);
	va_end(ap);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* What must match between BASE and a NEW run for a fair comparison. */
static void check_config(struct cmp *c, const struct nb_result *b, const struct nb_result *n)
{
	if (b->quick != n->quick)
		warn(c, "%s: quick %s, %s: quick %s: the timing differs (0.5 s and 6 repeats against 3 s and 5)",
		     b->path, b->quick ? "yes" : "no", n->path, n->quick ? "yes" : "no");
	if (b->seed != n->seed)
		warn(c, "%s: seed %ld, %s: seed %ld: other weights and movies", b->path, b->seed,
		     n->path, n->seed);
	if (!same_str(b->weights, n->weights))
		warn(c, "%s: weights %s, %s: weights %s", b->path,
		     b->weights ? b->weights : "from the seed", n->path,
		     n->weights ? n->weights : "from the seed");
	if (strcmp(b->backend, n->backend) || strcmp(b->detail, n->detail))
		warn(c, "%s: backend %s (%s), %s: backend %s (%s)", b->path, b->backend, b->detail,
		     n->path, n->backend, n->detail);
	else if (b->threads != n->threads)
		warn(c, "%s: %ld threads, %s: %ld threads", b->path, b->threads, n->path,
		     n->threads);
	if (!b->ref_id || !n->ref_id || strcmp(b->ref_id, n->ref_id))
		warn(c, "%s and %s: scores against different references (%s, %s): scores not compared",
		     b->path, n->path, b->ref_id ? b->ref_id : "unknown (schema 1)",
		     n->ref_id ? n->ref_id : "unknown (schema 1)");
}

static void flag_run(struct cmp *c, const struct nb_result *r)
{
	if (!r->complete)
		warn(c, "%s: an interrupted run (complete: false): only the tests that finished", r->path);
	else if (!r->valid)
		warn(c, "%s: INVALID: a test failed or was invalid (valid: false)", r->path);
}

/* One test of one NEW run against BASE. */
static void compare_test(struct cmp *c, const struct nb_result_test *b, const struct nb_result_test *n,
			 const char *file)
{
	struct row *w = &c->rows[c->nrows++];
	struct mwu m;

	memset(w, 0, sizeof(*w));
	w->test = b ? b->name : n->name;
	w->unit = b ? b->unit : n->unit;
	w->file = file;
	w->base = b ? b->value : NAN;
	w->val = n ? n->value : NAN;
	w->ratio = w->p = w->p_holm = w->min_p = NAN;
	w->nbase = b ? b->n : 0;
	w->nnew = n ? n->n : 0;
	if (!b || !n) {
		w->verdict = "missing";
		snprintf(w->note, sizeof(w->note), "not in %s", b ? "this run" : "the base");
		return;
	}
	if (strcmp(b->status, "ok") || strcmp(n->status, "ok")) {
		w->verdict = "invalid";
		snprintf(w->note, sizeof(w->note), "base %s, new %s", b->status, n->status);
		w->regression = strcmp(n->status, "ok") != 0;
		return;
	}
	w->ratio = n->value / b->value;
	if (strcmp(b->unit, n->unit) || b->batch != n->batch || b->frames != n->frames) {
		w->verdict = "not comparable";
		w->ratio = NAN;
		snprintf(w->note, sizeof(w->note), "batch %ld x %ld frames against %ld x %ld",
			 b->batch, b->frames, n->batch, n->frames);
		return;
	}
	if (!b->rates || !n->rates) {
		w->verdict = "no repeat times";
		snprintf(w->note, sizeof(w->note), "a schema 1 result keeps no repeat times");
		return;
	}
	mann_whitney(n->rates, n->n, b->rates, b->n, &m);
	w->p = m.p;
	w->min_p = m.min_p;
	w->verdict = "judged";	/* by holm(), over the run's tests */
}

/*
 * Holm's step-down correction over the tests of NEW run k that have a p
 * value (see the top of this file), then each one's verdict.
 */
static void holm(struct cmp *c, int k)
{
	struct row *w[NB_RESULT_MAX_TESTS];
	int m = 0;
	double prev = 0;

	for (int i = 0; i < c->nrows && m < NB_RESULT_MAX_TESTS; i++)
		if (c->rows[i].run == k && !strcmp(c->rows[i].verdict, "judged"))
			w[m++] = &c->rows[i];
	for (int i = 1; i < m; i++)	/* by p, ascending: insertion sort */
		for (int j = i; j > 0 && w[j]->p < w[j - 1]->p; j--) {
			struct row *t = w[j];

			w[j] = w[j - 1];
			w[j - 1] = t;
		}
	for (int i = 0; i < m; i++) {
		struct row *r = w[i];

		r->p_holm = prev = fmax(prev, fmin(1, (m - i) * r->p));
		if (!(r->min_p * m < ALPHA)) {
			r->verdict = "too few repeats";
			snprintf(r->note, sizeof(r->note), "%d and %d repeats: p cannot go below "
				 "%.3f, %.3f after Holm's correction over %d tests", r->nnew,
				 r->nbase, r->min_p, fmin(1, r->min_p * m), m);
		} else {
			r->verdict = !(r->p_holm < ALPHA) ? "within noise" :
				r->ratio > 1 ? "faster" : "slower";
		}
		r->regression = !strcmp(r->verdict, "slower") && isfinite(c->fail_pct) &&
				(1 - r->ratio) * 100 > c->fail_pct;
	}
}

/* Whether the gate judged row w: it has a verdict on the noise, or is invalid. */
static bool judged(const struct row *w)
{
	static const char *const ok[] = { "within noise", "faster", "slower", "invalid" };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(w->verdict, ok[i]))
			return true;
	return false;
}

static void compare_runs(struct cmp *c)
{
	const struct nb_result *b = &c->run[0];

	flag_run(c, b);
	for (int k = 1; k < c->nrun; k++) {
		const struct nb_result *n = &c->run[k];

		check_config(c, b, n);
		flag_run(c, n);
		int first = c->nrows;

		for (int i = 0; i < b->nt; i++)
			compare_test(c, &b->t[i], nb_result_find_test(n, b->t[i].name), n->path);
		for (int i = 0; i < n->nt; i++)
			if (!nb_result_find_test(b, n->t[i].name))
				compare_test(c, NULL, &n->t[i], n->path);
		for (int i = first; i < c->nrows; i++)
			c->rows[i].run = k;
		holm(c, k);
	}
	for (int i = 0; i < c->nrows; i++) {
		c->regressions += c->rows[i].regression;
		c->unjudged += !judged(&c->rows[i]);
	}
}

/* ---- output ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* One run: what it ran on and how it was configured. */
static void emit_run(struct nb_print *p, const struct nb_result *r, bool base)
{
	const char *status = !r->complete ? "interrupted" : r->valid ? "valid" : "INVALID";
	char title[192], text[192];

	snprintf(title, sizeof(title), "%s %s", base ? "Base" : "New", base_name(r->path));
	nb_obj_begin(p, NULL, title);
	nb_str(p, "role", NULL, base ? "base" : "new");
	nb_str(p, "file", NULL, r->path);
	nb_str(p, "date", "date", r->date);
	snprintf(text, sizeof(text), "%s (%s: %s)", r->device, r->backend, r->detail);
	nb_value(p, &(struct nb_value){ .key = "device", .label = "device", .type = NB_V_STR,
					.s = r->device, .text = text });
	nb_str(p, "kind", NULL, r->kind);
	nb_str(p, "backend", NULL, r->backend);
	nb_str(p, "backend_detail", NULL, r->detail);
	snprintf(text, sizeof(text), "quick %s, seed %ld, weights %s", r->quick ? "yes" : "no",
		 r->seed, r->weights ? r->weights : "from the seed");
	nb_value(p, &(struct nb_value){ .key = "quick", .label = "configuration",
					.type = NB_V_BOOL, .b = r->quick, .text = text });
	nb_i64(p, "seed", NULL, r->seed, NULL);
	nb_i64(p, "threads", NULL, r->threads, NULL);
	if (r->weights)
		nb_str(p, "weights", NULL, r->weights);
	else
		nb_missing(p, "weights", NULL, NULL);
	snprintf(text, sizeof(text), "%s%s%s", r->version_str ? r->version_str : "-",
		 r->commit ? " " : "", r->commit ? r->commit : "");
	nb_value(p, &(struct nb_value){ .key = "navibench", .label = "navibench",
					.type = r->version_str ? NB_V_STR : NB_V_MISSING,
					.s = text, .text = text });
	nb_str(p, "kernel", "kernel", r->kernel);
	nb_str(p, "cpu_governor", "CPU governor", r->governor);
	nb_dbl(p, "load_average_start", "load at start", r->load_start, 1, NULL);
	nb_str(p, "status", "result", status);
	if (isfinite(r->score))
		nb_dbl(p, "score", "score", r->score, 0, NULL);
	else
		nb_missing(p, "score", "score", "none in this result");
	nb_str(p, "reference_id", NULL, r->ref_id);
	nb_i64(p, "schema_version", NULL, r->version, NULL);
	nb_obj_end(p);
}

static const struct nb_column test_cols[] = {
	{ "test", "Test", false },
	{ "unit", "Unit", false },
	{ "base", "Base", true },
	{ "new", "New", true },
	{ "ratio", "New/base", true },
	{ "p_value", "p", true },
	{ "p_holm", "Holm p", true },
	{ "verdict", "Verdict", false },
	{ "file", "File", false },
	{ "base_repeats", NULL, false },
	{ "new_repeats", NULL, false },
	{ "regression", NULL, false },
	{ "note", NULL, false },
};

static const char *fmt_val(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, n, v >= 100 ? "%.1f" : "%.2f", v);
	return buf;
}

/* The tests: one record each (a CSV line), per test and NEW run. */
static void emit_tests(struct nb_print *p, const struct cmp *c)
{
	char a[64];

	nb_table_begin(p, "tests", test_cols, (int)(sizeof(test_cols) / sizeof(test_cols[0])));
	for (int i = 0; i < c->nrows; i++) {
		const struct row *w = &c->rows[i];

		nb_record_begin(p, NULL);
		nb_cell_str(p, w->test);
		nb_cell_str(p, w->unit);
		nb_cell_dbl(p, w->base, fmt_val(a, sizeof(a), w->base));
		nb_cell_dbl(p, w->val, fmt_val(a, sizeof(a), w->val));
		snprintf(a, sizeof(a), isfinite(w->ratio) ? "%.3f" : "-", w->ratio);
		nb_cell_dbl(p, w->ratio, a);
		snprintf(a, sizeof(a), !isfinite(w->p) ? "-" : w->p < 0.001 ? "<0.001" : "%.3f",
			 w->p);
		nb_cell_dbl(p, w->p, a);
		snprintf(a, sizeof(a), !isfinite(w->p_holm) ? "-" : w->p_holm < 0.001 ? "<0.001" :
			 "%.3f", w->p_holm);
		nb_cell_dbl(p, w->p_holm, a);
		snprintf(a, sizeof(a), "%s%s", w->verdict, w->regression ? " (REGRESSION)" :
			 isfinite(c->fail_pct) && !judged(w) ? " (NOT JUDGED)" : "");
		nb_cell(p, &(struct nb_value){ .type = NB_V_STR, .s = w->verdict, .text = a });
		nb_cell(p, &(struct nb_value){ .type = NB_V_STR, .s = w->file,
					       .text = base_name(w->file) });
		nb_cell_int(p, w->nbase);
		nb_cell_int(p, w->nnew);
		nb_cell(p, &(struct nb_value){ .type = NB_V_BOOL, .b = w->regression });
		if (w->note[0])
			nb_cell_str(p, w->note);
		else
			nb_cell_missing(p, NULL);
		nb_record_end(p);
	}
	nb_table_end(p);
	for (int i = 0; i < c->nrows; i++)
		if (c->rows[i].note[0])
			nb_text(p, "%s, %s: %s", c->rows[i].test, base_name(c->rows[i].file),
				c->rows[i].note);
}

static void emit_scores(struct nb_print *p, const struct cmp *c)
{
	const struct nb_result *b = &c->run[0];

	nb_arr_begin(p, "scores", NULL);
	for (int k = 1; k < c->nrun; k++) {
		const struct nb_result *n = &c->run[k];
		bool same_ref = b->ref_id && n->ref_id && !strcmp(b->ref_id, n->ref_id);
		double ratio = same_ref ? n->score / b->score : NAN;

		nb_obj_begin(p, NULL, NULL);
		nb_str(p, "file", NULL, n->path);
		nb_dbl(p, "base", NULL, b->score, 0, NULL);
		nb_dbl(p, "new", NULL, n->score, 0, NULL);
		nb_dbl(p, "ratio", NULL, ratio, 3, NULL);
		nb_str(p, "reference_id", NULL, same_ref ? b->ref_id : NULL);
		nb_obj_end(p);
		if (!same_ref)
			nb_text(p, "Score %s: not compared (another reference)", base_name(n->path));
		else if (isfinite(ratio))
			nb_text(p, "Score %s: %.0f against %.0f, x %.3f", base_name(n->path), n->score,
				b->score, ratio);
		else
			nb_text(p, "Score %s: not compared (a run without a score: it needs every test of its suite, standard and valid)",
				base_name(n->path));
	}
	nb_arr_end(p);
}

static const char method[] =
	"Mann-Whitney U, two-sided, on the rates of the repeats (tests[].times_s); "
	"exact for up to 20 repeats a run without ties, else the normal approximation; "
	"Holm's correction over each new run's tests, 5% in all; "
	"'too few repeats' when no outcome could reach 5% after it";

/*
 * The comparison. Warnings are notes: JSON's "notes", stderr in the other
 * formats. In CSV only the tests are records, so it is the tests table.
 */
static int emit(const struct cmp *c, const struct nb_print_ops *fmt, const char *path)
{
	struct nb_print *p = nb_print_open(fmt, path, "compare");

	nb_str(p, "schema", NULL, "navibench-compare");
	nb_i64(p, "schema_version", NULL, 2, NULL);
	nb_time(p, "time", NULL);
	for (int i = 0; i < c->nwarn; i++)
		nb_note(p, "warning: %s", c->warn[i]);
	nb_arr_begin(p, "runs", NULL);
	for (int k = 0; k < c->nrun; k++)
		emit_run(p, &c->run[k], k == 0);
	nb_arr_end(p);
	nb_text(p, "%s", "");
	emit_tests(p, c);
	emit_scores(p, c);
	nb_str(p, "method", NULL, method);
	nb_dbl(p, "alpha", NULL, ALPHA, 2, NULL);
	nb_str(p, "correction", NULL, "holm");
	nb_text(p, "Method: %s.", method);
	if (isfinite(c->fail_pct)) {
		nb_dbl(p, "fail_on_regression_percent", NULL, c->fail_pct, 1, NULL);
		nb_text(p, "Regressions (slower beyond the noise by more than %g%%, or invalid): %d",
			c->fail_pct, c->regressions);
		nb_text(p, "Not judged (the gate fails on them too): %d", c->unjudged);
	} else {
		nb_missing(p, "fail_on_regression_percent", NULL, NULL);
	}
	nb_i64(p, "regressions", NULL, c->regressions, NULL);
	nb_i64(p, "unjudged", NULL, c->unjudged, NULL);
	return nb_print_close(p);
}

/* --fail-on-regression: the gate's verdict, the tests it could not judge named. */
static int gate(const struct cmp *c)
{
	for (int i = 0; i < c->nrows; i++) {
		const struct row *w = &c->rows[i];

		if (!judged(w))
			fprintf(stderr, "navibench compare: --fail-on-regression: %s (%s) not judged: "
				"%s%s%s\n", w->test, base_name(w->file), w->verdict,
				w->note[0] ? ", " : "", w->note);
	}
	if (c->regressions || c->unjudged)
		fprintf(stderr, "navibench compare: --fail-on-regression %g: %d regression%s, "
			"%d test%s not judged: exit %d\n", c->fail_pct, c->regressions,
			c->regressions == 1 ? "" : "s", c->unjudged, c->unjudged == 1 ? "" : "s",
			NB_EXIT_GATE);
	return c->regressions || c->unjudged ? NB_EXIT_GATE : NB_EXIT_OK;
}

static int cmd_compare(int argc, char **argv)
{
	static struct cmp c;
	double fail_pct = NAN;
	bool strict = false;
	const struct cli_option opts[] = {
		CLI_DOUBLE_OPT("fail-on-regression", 0, &fail_pct, "PCT", 0, 100,
			       "the gate: exit 5 when a test of a NEW run is slower than BASE beyond the noise (after Holm's correction) by more than PCT percent, or invalid, or could not be judged (too few repeats, missing, not comparable; stderr names it)"),
		CLI_FLAG_OPT("strict", 0, &strict,
			     "refuse (exit 2) runs whose configurations differ, instead of warning"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = nb_cmd_compare.name,
		.summary = nb_cmd_compare.summary,
		.positional = "BASE.json NEW.json [NEW.json...]",
		.description =
			"Per test: the values side by side, the ratio of each NEW to BASE, and\n"
			"whether the difference is beyond the runs' variation: the Mann-Whitney U\n"
			"test on the kept repeat times, two-sided, with Holm's step-down correction\n"
			"over each NEW run's tests (the i-th smallest of m p values times\n"
			"m - i + 1, never below the one before), 5% in all. Devices, systems and\n"
			"configurations are shown; runs whose configurations differ (quick, seed,\n"
			"weights, backend, threads, reference) are warned about (--strict:\n"
			"refused); a test whose batch or frames differ is not compared; scores\n"
			"made against another reference are not compared. --format csv: the\n"
			"tests, one line each; --json: user/schemas/compare.schema.json.",
		.common = CLI_FORMAT | CLI_FORMAT_NO_PROMETHEUS | CLI_JSON | CLI_ARGS_IN,
		.options = opts,
	};
	struct cli_common common;
	int rc = cli_parse(&spec, argc, argv, &common);

	if (rc != CLI_CONTINUE)
		return rc;
	if (common.nargs < 2)
		return cli_usage_error("compare", "give BASE.json and at least one NEW.json (%d file%s given)",
				       common.nargs, common.nargs == 1 ? "" : "s");
	if (common.nargs > MAX_FILES)
		return cli_usage_error("compare", "at most %d files (%d given)", MAX_FILES,
				       common.nargs);
	memset(&c, 0, sizeof(c));
	c.fail_pct = fail_pct;
	for (int k = 0; k < common.nargs; k++) {
		rc = nb_result_read("compare", common.args[k], &c.run[k]);
		c.nrun = k + 1;
		if (rc)
			goto out;
	}
	compare_runs(&c);
	if (strict && c.nwarn) {
		for (int i = 0; i < c.nwarn; i++)
			fprintf(stderr, "navibench compare: %s\n", c.warn[i]);
		fprintf(stderr, "navibench compare: --strict: %d difference%s above; nothing compared\n",
			c.nwarn, c.nwarn == 1 ? "" : "s");
		rc = NB_EXIT_USAGE;
		goto out;
	}
	rc = emit(&c, common.format, common.json ? common.json_path : NULL);
	if (!rc && isfinite(fail_pct))
		rc = gate(&c);
out:
	for (int k = 0; k < c.nrun; k++)
		nb_result_free(&c.run[k]);
	return rc;
}
#endif /* NB_WITHOUT_JSON_C */

const struct nb_command nb_cmd_compare = {
	.name = "compare",
	.summary = "compare run results: per test, the ratio and whether it is beyond the noise",
	.run = NB_WITH_JSON_C(cmd_compare),
	.needs = NB_LIB_JSON_C,
};
