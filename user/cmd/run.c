// SPDX-License-Identifier: MIT
/*
 * navibench run: the ConvLSTM benchmark suite on one device, every result
 * validated against the reference, a composite score against the reference
 * device, text and JSON from the same print calls (print.h). The JSON schema
 * is documented in engine/result-schema.md.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "devices.h"
#include "engine/engine.h"
#include "engine/system.h"
#include "navibench.h"
#include "plugin.h"
#include "monitor.h"
#include "print.h"
#include "run_metrics.h"

#define RUN_SCHEMA_VERSION 3
#define RUN_ALL_SCHEMA_VERSION 1
/* --device all: at most this many devices at once */
#define NB_MAX_RUN_DEVICES 16

static const char *const isa_choices[] = { "auto", "avx512", "avx2", "generic", NULL };

struct run {
	struct nb_device dev;
	const char *device_note;
	char note[1280];	/* device_note when made up here */
	const struct nb_backend_ops *ops;
	void *ctx;
	int ordinal;		/* GPU backends: the runtime's device */
	char open_err[256];	/* the backend did not open: why */
	int isa;
	long threads, batch, frames, seed;
	bool quick;
	const char *tests_arg, *weights_path;
	const char *textfile;	/* --textfile DIR */
	bool selected[NB_TEST_COUNT];
	struct nb_weights *weights;
	struct nb_test_result res[NB_TEST_COUNT];
	struct nb_telemetry telem[NB_TEST_COUNT];	/* of res[i] */
	int nres;
	long telemetry_ms;	/* --telemetry-interval; 0: off */
	double t0;		/* CLOCK_MONOTONIC at the run's start: the series' 0 */
	bool complete;		/* every selected test ran: not interrupted */
	double peak;		/* GFLOP/s for the percentages */
	const char *peak_from;
	char date[32];
	struct nb_system sys;	/* the "system" record */
	/* progress line */
	bool tty;
	int index, count;
};

/*
 * SIGINT and SIGTERM: the first asks the run to stop after the test that is
 * running; the result of the tests that finished is then written, complete
 * and marked "complete": false, and run exits 128 + the signal (when the
 * test running was the last one, nothing was lost: the run ends as if not
 * interrupted, "complete": true and its usual exit status). The handler
 * is installed with SA_RESETHAND, so a second signal stops the process at
 * once, before anything is written (JSON is written only at the end, through
 * a temporary file and rename). While the result is being written both
 * signals are blocked, so a file is never left half-written or behind.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	static const char msg[] =
		"\nnavibench run: interrupted: stopping after the current test "
		"(interrupt again to stop now, with no result written)\n";
	ssize_t ret;

	stop_signal = sig;
	ret = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)ret;
}

static void progress(void *arg, const char *test, const char *what)
{
	struct run *r = arg;

	if (!r->tty)
		return;
	fprintf(stderr, "\r\033[K[%d/%d] %s: %s", r->index, r->count, test, what);
	fflush(stderr);
}

static void progress_done(struct run *r)
{
	if (r->tty) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}

static const char *fmt_value(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (v >= 100)
		snprintf(buf, n, "%.1f", v);
	else
		snprintf(buf, n, "%.2f", v);
	return buf;
}

static const char *status_of(const struct nb_test_result *t)
{
	if (t->error[0])
		return "error";
	return t->valid.pass ? "ok" : "INVALID";
}

static const struct nb_column cols[] = {
	{ "name", "Test", false },
	{ "value", "Result", true },
	{ "unit", "Unit", false },
	{ "best", "Best", true },
	{ "cv", "CV", true },
	{ "gflops", "GFLOP/s", true },
	{ "percent_of_peak", "% peak", true },
	{ "validation", "Validation", false },
	{ "score", "Score", true },
	{ "status", NULL, false },
	{ "error", NULL, false },
	{ "standard", NULL, false },
	{ "batch", NULL, false },
	{ "frames", NULL, false },
	{ "median_s", NULL, false },
	{ "min_s", NULL, false },
	{ "repeats", NULL, false },
	{ "work_per_repeat", NULL, false },
	{ "reference_value", NULL, false },
	{ "description", NULL, false },
};

static void emit_head(struct nb_print *p, struct run *r)
{
	nb_str(p, "schema", NULL, "navibench-run");
	nb_i64(p, "schema_version", NULL, RUN_SCHEMA_VERSION, NULL);
	nb_str(p, "date", NULL, r->date);
	nb_bool(p, "complete", NULL, r->complete);

	nb_obj_begin(p, "device", "Device");
	nb_i64(p, "index", "index", r->dev.index, NULL);
	nb_str(p, "kind", NULL, nb_device_kind_name(r->dev.kind));
	nb_str(p, "name", "name", r->dev.name);
	if (r->dev.pci[0])
		nb_str(p, "pci", "PCI", r->dev.pci);
	nb_str(p, "backend", "backend", r->ops->name);
	nb_str(p, "backend_detail", "runs on", r->ops->describe(r->ctx));
	nb_str(p, "note", "note", r->device_note);
	nb_obj_end(p);

	nb_obj_begin(p, "configuration", "Configuration");
	nb_bool(p, "quick", "quick", r->quick);
	nb_i64(p, "threads", NULL, r->ops->threads(r->ctx), NULL);
	nb_i64(p, "seed", "seed", r->seed, NULL);
	if (r->weights_path)
		nb_str(p, "weights", "weights", r->weights_path);
	else
		nb_value(p, &(struct nb_value){ .key = "weights", .label = "weights",
						.type = NB_V_MISSING,
						.text = "Keras initializers from the seed" });
	/* not measured (e.g. --tests mem-bandwidth): null, JSON has no NaN */
	if (isfinite(r->peak))
		nb_dbl(p, "peak_gflops", "fp32 peak for %", r->peak, 1, "GFLOP/s");
	else
		nb_missing(p, "peak_gflops", "fp32 peak for %", r->peak_from);
	nb_str(p, "peak_source", NULL, r->peak_from);
	nb_obj_end(p);
	nb_system_emit(p, &r->sys);
}

static void validation_members(struct nb_print *p, const struct nb_validation *v)
{
	nb_bool(p, "pass", NULL, v->pass);
	nb_dbl(p, "max_abs_error", NULL, v->max_abs, 0, NULL);
	nb_dbl(p, "max_rel_error", NULL, v->max_rel, 0, NULL);
	nb_dbl(p, "tolerance_abs", NULL, v->tol_abs, 0, NULL);
	nb_dbl(p, "tolerance_rel", NULL, v->tol_rel, 0, NULL);
	nb_str(p, "input", NULL, v->input);
}

/* A failed model test: where its output left the reference (engine/diverge.c). */
static void divergence_members(struct nb_print *p, const struct nb_divergence *d)
{
	char text[512];

	nb_diverge_text(d, text, sizeof(text));
	nb_str(p, "diagnosis", NULL, text);
	if (!d->found) {
		nb_missing(p, "first_divergence", NULL, NULL);
	} else {
		nb_obj_begin(p, "first_divergence", NULL);
		nb_i64(p, "layer", NULL, d->layer, NULL);
		nb_str(p, "layer_kind", NULL, d->layer == d->layers - 1 ? "head" : "convlstm");
		nb_i64(p, "item", NULL, d->item, NULL);
		nb_i64(p, "frame", NULL, d->frame, NULL);
		nb_i64(p, "y", NULL, d->y, NULL);
		nb_i64(p, "x", NULL, d->x, NULL);
		nb_i64(p, "channel", NULL, d->channel, NULL);
		nb_dbl(p, "value", NULL, d->value, 0, NULL);
		nb_dbl(p, "reference", NULL, d->ref, 0, NULL);
		nb_dbl(p, "tolerance", NULL, d->tol, 0, NULL);
		nb_dbl(p, "max_abs_error_before", NULL, d->max_before, 0, NULL);
		nb_str(p, "kind", NULL, d->jump ? "jump" : "gradual");
		nb_obj_end(p);
	}
	if (!d->ran)
		return;
	nb_arr_begin(p, "layer_max_abs_error", NULL);
	for (int l = 0; l < d->layers; l++)
		nb_dbl(p, "max_abs_error", NULL, d->layer_max[l], 0, NULL);
	nb_arr_end(p);
}

/* The validation; on a GPU backend the timed output's check as a member. */
static void cell_validation(struct nb_print *p, const struct nb_test_result *t)
{
	const struct nb_validation *v = &t->valid;
	char text[64];

	if (t->error[0]) {
		nb_cell_missing(p, "ERROR");
		return;
	}
	snprintf(text, sizeof(text), "%s %.1e", v->pass ? "pass" : "INVALID", v->max_abs);
	nb_cell_obj_begin(p, text);
	validation_members(p, v);
	nb_str(p, "reason", NULL, v->reason ? v->reason : "");
	if (!v->pass && t->test->model)
		divergence_members(p, &v->where);
	if (t->timed.ran) {
		nb_obj_begin(p, "timed_output", NULL);
		validation_members(p, &t->timed);
		nb_obj_end(p);
	}
	nb_obj_end(p);
}

static void tstat(struct nb_print *p, const char *key, const struct nb_tstat *st)
{
	if (!st->n) {
		nb_missing(p, key, NULL, NULL);
		return;
	}
	nb_obj_begin(p, key, NULL);
	nb_dbl(p, "min", NULL, st->min, 0, NULL);
	nb_dbl(p, "avg", NULL, st->avg, 0, NULL);
	nb_dbl(p, "max", NULL, st->max, 0, NULL);
	nb_obj_end(p);
}

/* A series member: one value or null per sample. */
static void series_member(struct nb_print *p, const struct nb_telemetry *tm, const char *key,
			  size_t off)
{
	nb_arr_begin(p, key, NULL);
	for (int i = 0; i < tm->nseries; i++)
		nb_dbl(p, key, NULL, *(const double *)((const char *)&tm->series[i] + off), 0,
		       NULL);
	nb_arr_end(p);
}

/* tests[].telemetry (JSON only; text has its own table): null when off */
static void emit_telemetry(struct nb_print *p, const struct nb_telemetry *tm)
{
	if (!tm || !tm->ran) {
		nb_missing(p, "telemetry", NULL, NULL);
		return;
	}
	nb_obj_begin(p, "telemetry", NULL);
	nb_str(p, "method", NULL, tm->method);
	nb_str(p, "source", NULL, tm->source);
	nb_dbl(p, "interval_s", NULL, tm->interval_s, 0, NULL);
	nb_dbl(p, "window_s", NULL, tm->window_s, 0, NULL);
	nb_i64(p, "samples", NULL, tm->samples, NULL);
	tstat(p, "clock_mhz", &tm->clock_mhz);
	tstat(p, "temperature_c", &tm->temp_c);
	tstat(p, "power_w", &tm->power_w);
	nb_dbl(p, "energy_j", NULL, tm->energy_j, 0, NULL);
	if (isfinite(tm->per_joule)) {
		nb_obj_begin(p, "per_joule", NULL);
		nb_dbl(p, "value", NULL, tm->per_joule, 0, NULL);
		nb_str(p, "unit", NULL, tm->per_joule_unit);
		nb_obj_end(p);
	} else {
		nb_missing(p, "per_joule", NULL, NULL);
	}
	if (tm->throttle_known) {
		nb_arr_begin(p, "throttle_reasons", NULL);
		for (int i = 0; i < tm->nreasons; i++)
			nb_str(p, "reason", NULL, tm->reasons[i]);
		nb_arr_end(p);
	} else {
		nb_missing(p, "throttle_reasons", NULL, NULL);
	}
	nb_dbl(p, "sampler_cpu_s", NULL, tm->sampler_cpu_s, 0, NULL);
	nb_str(p, "missing", NULL, tm->missing);
	nb_obj_begin(p, "series", NULL);
	series_member(p, tm, "t_s", offsetof(struct nb_tsample, t));
	series_member(p, tm, "clock_mhz", offsetof(struct nb_tsample, clock_mhz));
	series_member(p, tm, "temperature_c", offsetof(struct nb_tsample, temp_c));
	series_member(p, tm, "power_w", offsetof(struct nb_tsample, power_w));
	nb_obj_end(p);
	nb_obj_end(p);
}

/* The sampler's CPU time as a share of the window; "none" for the module's. */
static const char *fmt_cost(char *buf, size_t n, double cpu, double window)
{
	if (!isfinite(cpu))
		snprintf(buf, n, "none in navibench (the module samples in the kernel)");
	else
		snprintf(buf, n, "%.2f ms (%.3f%% of one CPU)", 1000 * cpu,
			 window > 0 ? 100 * cpu / window : 0);
	return buf;
}

/* "min/avg/max" of st with prec digits, or "-". */
static const char *fmt_tstat(char *buf, size_t n, const struct nb_tstat *st, int prec)
{
	if (!st->n)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.*f/%.*f/%.*f", prec, st->min, prec, st->avg, prec, st->max);
	return buf;
}

/* Text: what the device did during each test's timed repeats. */
static void emit_telemetry_text(struct nb_print *p, const struct run *r)
{
	char c[48], t[48], w[96], e[32], j[48];
	bool any = false;

	for (int i = 0; i < r->nres; i++)
		any |= r->telem[i].ran && !r->res[i].error[0];
	if (!any) {
		if (r->nres && r->telem[0].missing[0])
			nb_text(p, "Telemetry: %s", r->telem[0].missing);
		return;
	}
	nb_text(p, "Telemetry during the timed repeats (min/avg/max):");
	nb_text(p, "  %-15s %-17s %-14s %-17s %9s %-18s %s", "Test", "clock MHz", "temp C",
		"power W", "energy J", "per joule", "throttled by");
	for (int i = 0; i < r->nres; i++) {
		const struct nb_telemetry *tm = &r->telem[i];
		char reasons[128] = "";

		if (!tm->ran || r->res[i].error[0])
			continue;
		for (int k = 0, o = 0; k < tm->nreasons && o < (int)sizeof(reasons); k++)
			o += snprintf(reasons + o, sizeof(reasons) - (size_t)o, "%s%s",
				      k ? "," : "", tm->reasons[k]);
		snprintf(e, sizeof(e), isfinite(tm->energy_j) ? "%.2f" : "-", tm->energy_j);
		if (isfinite(tm->per_joule))
			snprintf(j, sizeof(j), "%.4g %s", tm->per_joule, tm->per_joule_unit);
		else
			snprintf(j, sizeof(j), "-");
		nb_text(p, "  %-15s %-17s %-14s %-17s %9s %-18s %s", r->res[i].test->name,
			fmt_tstat(c, sizeof(c), &tm->clock_mhz, 0),
			fmt_tstat(t, sizeof(t), &tm->temp_c, 1),
			fmt_tstat(w, sizeof(w), &tm->power_w, 1), e, j,
			!tm->throttle_known ? "-" : tm->nreasons ? reasons : "none");
	}
	for (int i = 0; i < r->nres; i++) {
		if (!r->telem[i].ran || r->res[i].error[0])
			continue;
		nb_text(p, "  %s, every %.0f ms (%d samples in %s's %.2f s); sampler CPU time %s.",
			r->telem[i].source, 1000 * r->telem[i].interval_s, r->telem[i].samples,
			r->res[i].test->name, r->telem[i].window_s,
			fmt_cost(w, sizeof(w), r->telem[i].sampler_cpu_s, r->telem[i].window_s));
		if (r->telem[i].missing[0])
			nb_text(p, "  Missing: %s.", r->telem[i].missing);
		break;
	}
	nb_text(p, "%s", "");
}

/* One row of the results table: what text shows, then what only JSON has. */
static void emit_row(struct nb_print *p, const struct nb_test_result *t,
		     const struct nb_telemetry *tm)
{
	double ts = nb_test_score(t);
	bool scored = t->standard && t->valid.pass;
	char a[64], b[64];

	nb_record_begin(p, NULL);
	snprintf(a, sizeof(a), "%s%s", t->test->name, t->standard ? "" : " *");
	nb_cell(p, &(struct nb_value){ .type = NB_V_STR, .s = t->test->name, .text = a });
	nb_cell_dbl(p, t->value, fmt_value(a, sizeof(a), t->value));
	nb_cell_str(p, t->test->unit);
	nb_cell_dbl(p, t->best, fmt_value(b, sizeof(b), t->best));
	snprintf(a, sizeof(a), "%.1f%%", 100 * t->time.cv);
	nb_cell_dbl(p, t->error[0] ? NAN : t->time.cv, a);
	nb_cell_dbl(p, t->rate_gflops, fmt_value(b, sizeof(b), t->rate_gflops));
	if (isfinite(t->percent_of_peak))
		snprintf(a, sizeof(a), "%.1f%%", t->percent_of_peak);
	else
		snprintf(a, sizeof(a), "-");
	nb_cell_dbl(p, t->percent_of_peak, a);
	cell_validation(p, t);
	if (scored && isfinite(ts))
		snprintf(b, sizeof(b), "%.0f", ts);
	else
		snprintf(b, sizeof(b), "-");
	nb_cell_dbl(p, scored ? ts : NAN, b);
	nb_cell_str(p, status_of(t));
	if (t->error[0])
		nb_cell_str(p, t->error);
	else
		nb_cell_missing(p, "");
	nb_cell(p, &(struct nb_value){ .type = NB_V_BOOL, .b = t->standard });
	if (t->batch)
		nb_cell_int(p, t->batch);
	else
		nb_cell_missing(p, NULL);
	if (t->frames)
		nb_cell_int(p, t->frames);
	else
		nb_cell_missing(p, NULL);
	nb_cell_dbl(p, t->error[0] ? NAN : t->time.median, NULL);
	nb_cell_dbl(p, t->error[0] ? NAN : t->time.min, NULL);
	nb_cell_int(p, t->time.repeats);
	nb_cell_dbl(p, t->work, NULL);
	nb_cell_dbl(p, nb_reference.value[t->test->id] > 0 ? nb_reference.value[t->test->id] : NAN,
		    NULL);
	nb_cell_str(p, t->test->what);
	/* every repeat's time, in the order run: what compare judges noise by */
	if (t->error[0]) {
		nb_missing(p, "times_s", NULL, NULL);
	} else {
		nb_arr_begin(p, "times_s", NULL);
		for (int i = 0; i < t->time.repeats && i < NB_MAX_REPEATS; i++)
			nb_dbl(p, "time_s", NULL, t->time.times[i], 0, NULL);
		nb_arr_end(p);
	}
	emit_telemetry(p, t->error[0] ? NULL : tm);
	nb_record_end(p);
}

/* Text: why a test failed, and how results are validated. */
static void emit_failures(struct nb_print *p, const struct run *r)
{
	bool any_ns = false;

	for (int i = 0; i < r->nres; i++) {
		const struct nb_test_result *t = &r->res[i];

		any_ns |= !t->standard;
		if (t->error[0])
			nb_text(p, "%s: ERROR: %s", t->test->name, t->error);
		else if (!t->valid.pass)
			nb_text(p, "%s: INVALID: max abs error %.3g, max rel error %.3g; tolerance |d| <= %.0e + %.0e |ref| (%s)",
				t->test->name, t->valid.max_abs, t->valid.max_rel,
				t->valid.tol_abs, t->valid.tol_rel, t->valid.input);
		if (!t->error[0] && !t->valid.pass && t->test->model) {
			char text[512];

			nb_diverge_text(&t->valid.where, text, sizeof(text));
			nb_text(p, "%s: %s", t->test->name, text);
		}
	}
	if (any_ns)
		nb_text(p, "* non-standard configuration (--batch/--frames): no score");
	nb_text(p, "Validation: every result against the double-precision reference; "
		"models |d| <= 1e-4 + 1e-3 |ref|, gates 1e-5 + 1e-4 |ref|, peak and bandwidth exact.");
	if (r->ops != &nb_cpu_backend)
		nb_text(p, "The models' timed output too: the last repeat, items 0 and B-1 "
			"at the full frame count, against the CPU backend, same tolerance.");
	nb_text(p, "%s", "");
}

static void emit_score(struct nb_print *p, const struct run *r, bool all_valid)
{
	const char *why = NULL;
	double score = nb_composite_score(r->res, r->nres, &why);

	nb_obj_begin(p, "score", NULL);
	if (isfinite(score))
		nb_dbl(p, "value", "Score", score, 0, NULL);
	else
		nb_missing(p, "value", "Score", why);
	nb_str(p, "method", NULL,
	       "geometric mean over the five tests of result / reference result x 1000");
	nb_str(p, "reference_id", NULL, nb_reference.id);
	nb_obj_begin(p, "reference", NULL);
	nb_str(p, "machine", NULL, nb_reference.machine);
	nb_str(p, "cpu", NULL, nb_reference.cpu);
	nb_str(p, "date", NULL, nb_reference.date);
	nb_str(p, "command", NULL, nb_reference.command);
	nb_str(p, "build", NULL, nb_reference.build);
	nb_obj_end(p);
	nb_obj_end(p);
	nb_text(p, "(reference, score 1000: %s, %s, %s)", nb_reference.cpu,
		nb_reference.machine, nb_reference.date);
	if (!r->complete)
		nb_text(p, "Result: INTERRUPTED after %d of %d tests%s", r->nres,
			r->count, r->nres ? " (their results above)" : "");
	else
		nb_text(p, "Result: %s", all_valid ? "all results valid" : "INVALID (see above)");
	nb_bool(p, "valid", NULL, all_valid);
}

/* The result, in the format of p (text and JSON: engine/result-schema.md). */
static void emit(struct run *r, struct nb_print *p)
{
	bool all_valid = r->complete;

	emit_head(p, r);
	nb_text(p, "%s", "");
	nb_table_begin(p, "tests", cols, (int)(sizeof(cols) / sizeof(cols[0])));
	for (int i = 0; i < r->nres; i++) {
		if (r->res[i].error[0] || !r->res[i].valid.pass)
			all_valid = false;
		emit_row(p, &r->res[i], &r->telem[i]);
	}
	nb_table_end(p);
	emit_failures(p, r);
	emit_telemetry_text(p, r);
	emit_score(p, r, all_valid);
}

/*
 * --tests: names separated by single commas. An empty element ("a,,b",
 * a leading or trailing comma) is a usage error, not skipped: it is most
 * likely a name lost in a script's variable.
 */
static int parse_tests(struct run *r)
{
	if (!r->tests_arg) {
		for (int i = 0; i < NB_TEST_COUNT; i++)
			r->selected[i] = nb_test_default(i);
		return 0;
	}
	const char *p = r->tests_arg;

	for (;;) {
		size_t len = strcspn(p, ",");
		char name[64];
		const struct nb_test_info *ti;

		if (!len)
			return cli_usage_error("run", "--tests '%s': an empty test name (two commas, or a comma at an end); the tests are %s",
					       r->tests_arg, nb_test_names());
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		ti = len < sizeof(name) ? nb_test_find(name) : NULL;
		if (!ti)
			return cli_usage_error("run", "--tests: unknown test '%.*s'; the tests are %s",
					       (int)len, p, nb_test_names());
		r->selected[ti->id] = true;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static int load_weights(struct run *r)
{
	const struct nb_model *m = NULL;
	int models = 0;

	if (!r->weights_path)
		return 0;
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (r->selected[i] && nb_test_get(i)->model) {
			m = nb_model_find(nb_test_get(i)->model);
			models++;
		}
	if (models != 1)
		return cli_usage_error("run",
				       "--weights %s: select exactly one model test with --tests (convlstm-mono or convlstm-color); %d selected",
				       r->weights_path, models);
	r->weights = nb_weights_alloc(m);
	if (!r->weights) {
		fprintf(stderr, "navibench run: out of memory\n");
		return NB_EXIT_FAIL;
	}
	if (nb_safetensors_read(r->weights_path, r->weights))
		return NB_EXIT_USAGE;
	return 0;
}

static void measure_peak(struct run *r)
{
	struct nb_run_config cfg = { .quick = true, .seed = r->seed,
				     .progress = progress, .progress_arg = r };
	struct nb_test_result t;

	if (!nb_bench_run(r->ops, r->ctx, NB_TEST_PEAK, &cfg, NAN, &t) &&
	    t.valid.pass) {
		r->peak = t.best;
		r->peak_from = "the fastest repeat of a short fp32-peak run before the tests";
	}
}

/*
 * SIGINT and SIGTERM blocked while the backend starts its worker threads,
 * which keep that mask: only this thread takes them. Then the handler.
 */
/* The backend opened on r's device; 0, or -1 with r->open_err set. */
static int backend_open(struct run *r)
{
	struct nb_backend_config bcfg = {
		.device = r->ordinal,
		.threads = (int)r->threads,
		.isa = r->isa ? isa_choices[r->isa] : NULL,
	};

	return r->ops->open(&bcfg, &r->ctx, r->open_err, sizeof(r->open_err)) ? -1 : 0;
}

/* From here on SIGINT and SIGTERM ask the run to stop (on_stop_signal). */
static void catch_stop(const sigset_t *old_mask)
{
	struct sigaction sa = { .sa_handler = on_stop_signal,
				.sa_flags = SA_RESTART | SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pthread_sigmask(SIG_SETMASK, old_mask, NULL);
}

static int open_backend(struct run *r, const sigset_t *stop_set)
{
	sigset_t old_mask;

	pthread_sigmask(SIG_BLOCK, stop_set, &old_mask);
	if (backend_open(r)) {
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
		fprintf(stderr, "navibench run: %s\n", r->open_err);
		return r->isa ? NB_EXIT_USAGE : NB_EXIT_FAIL;
	}
	catch_stop(&old_mask);
	return 0;
}

/*
 * What the device did during t's timed repeats. A GPU whose tests ran on
 * the CPU (no GPU backend) is recorded all the same, but its energy is not
 * that of the work: no result per joule then.
 */
static void device_telemetry(const struct run *r, struct nb_monitor *mon,
			     const struct nb_test_result *t, struct nb_telemetry *tm)
{
	nb_monitor_window(mon, t->time.begin, t->time.end, t->value, t->test->unit, tm);
	if (r->ops == &nb_cpu_backend && r->dev.kind != NB_DEV_CPU && isfinite(tm->per_joule)) {
		tm->per_joule = NAN;
		snprintf(tm->missing + strlen(tm->missing), sizeof(tm->missing) - strlen(tm->missing),
			 "%sper joule: the test ran on the CPU, not on this device",
			 tm->missing[0] ? "; " : "");
	}
}

/* The selected tests, fp32-peak first: the others are shown as a share of it. */
static void run_tests(struct run *r)
{
	static const enum nb_test_id order[] = { NB_TEST_PEAK, NB_TEST_MONO,
		NB_TEST_COLOR, NB_TEST_GATES, NB_TEST_BW, NB_TEST_TRAIN };
	struct nb_run_config cfg = {
		.batch = (int)r->batch, .frames = (int)r->frames,
		.quick = r->quick, .seed = (uint64_t)r->seed,
		.weights = r->weights,
		.progress = progress, .progress_arg = r,
	};
	struct nb_test_result tmp[NB_TEST_COUNT];
	struct nb_telemetry tel[NB_TEST_COUNT] = { 0 };
	bool done[NB_TEST_COUNT] = { false };
	time_t now = time(NULL);
	struct nb_monitor *mon;
	struct timespec ts;
	struct tm tm;

	/* gmtime_r: with --device all, one thread per device is here */
	strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	r->tty = isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->t0 = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
	/* NULL (out of memory) is telemetry off: the tests still run */
	mon = nb_monitor_start(&r->dev, r->telemetry_ms, r->t0);
	r->peak = NAN;
	r->peak_from = "not measured";
	for (int i = 0; i < NB_TEST_COUNT; i++)
		r->count += r->selected[i];
	if (!r->selected[NB_TEST_PEAK] &&
	    (r->selected[NB_TEST_MONO] || r->selected[NB_TEST_COLOR] ||
	     r->selected[NB_TEST_GATES] || r->selected[NB_TEST_TRAIN]))
		measure_peak(r);
	for (int k = 0; k < NB_TEST_COUNT; k++) {
		enum nb_test_id id = order[k];

		if (!r->selected[id] || stop_signal)
			continue;
		r->index++;
		nb_bench_run(r->ops, r->ctx, id, &cfg, r->peak, &tmp[id]);
		if (!tmp[id].error[0])
			device_telemetry(r, mon, &tmp[id], &tel[id]);
		done[id] = true;
		if (id == NB_TEST_PEAK && !tmp[id].error[0] && tmp[id].valid.pass) {
			r->peak = tmp[id].best;
			r->peak_from = "the fastest repeat of this run's fp32-peak test";
		}
	}
	progress_done(r);
	nb_monitor_stop(mon);
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (r->selected[i] && done[i]) {
			r->telem[r->nres] = tel[i];
			r->res[r->nres++] = tmp[i];
		} else {
			nb_telemetry_free(&tel[i]);
		}
	r->complete = r->nres == r->count;
}

static int emit_all(struct run *runs, int n, const char *note, const char *date,
		    const struct nb_print_ops *fmt, const char *path, FILE *out);

/*
 * --textfile DIR: the JSON result, made in memory by the emit() that
 * --json writes (one run: r; --device all: the n runs), as metrics
 * (cmd/run_metrics.c). 0, or an exit status after saying why.
 */
static int textfile_write(struct run *r, struct run *runs, int n, const char *note,
			  const char *date)
{
	const struct nb_print_ops *json = nb_format_ops(NB_FORMAT_JSON);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = NB_EXIT_FAIL;

	if (f && r) {
		struct nb_print *p = nb_print_open_file(json, f, "run");

		emit(r, p);
		rc = nb_print_close(p) ? NB_EXIT_FAIL : NB_EXIT_OK;
	} else if (f) {
		rc = emit_all(runs, n, note, date, json, NULL, f) < 0 ? NB_EXIT_FAIL : NB_EXIT_OK;
	}
	if (!f || fclose(f) || rc)
		fprintf(stderr, "navibench run: --textfile: out of memory\n");
	else
		rc = nb_result_textfile_json("run", buf, len, r ? r->textfile : runs[0].textfile);
	free(buf);
	return rc;
}

/*
 * The result: text on stdout unless --json alone (JSON on stdout); JSON
 * to FILE with --json FILE, written whole (temporary file and rename).
 * Returns whether every result is valid and written.
 */
static bool write_result(struct run *r, const struct cli_common *common, bool text)
{
	bool valid = true;

	for (int i = 0; i < r->nres; i++)
		valid &= !r->res[i].error[0] && r->res[i].valid.pass;
	if (text) {
		struct nb_print *p = nb_print_open(nb_format_ops(NB_FORMAT_TEXT), NULL, "run");

		emit(r, p);
		nb_print_close(p);
	}
	if (common->json) {
		struct nb_print *p = nb_print_open(nb_format_ops(NB_FORMAT_JSON),
						   common->json_path, "run");

		emit(r, p);
		if (nb_print_close(p))
			valid = false;
	}
	if (r->textfile && textfile_write(r, NULL, 0, NULL, NULL))
		valid = false;
	return valid;
}

/*
 * The backend for the device: its plugin's when it has one, else the CPU
 * backend, with a note saying where the tests run and why (the plugin
 * loader's one-line notice when no GPU backend can be used).
 */
static void select_backend(struct run *r, bool asked_cpu)
{
	const struct nb_gpu_plugin *g = nb_plugins_get(r->dev.plugin);
	const char *notice = nb_plugins_notice();

	r->ops = &nb_cpu_backend;
	r->device_note = r->note;
	if (g) {
		r->ops = g->p->ops;
		r->ordinal = r->dev.hip_ordinal;
		snprintf(r->note, sizeof(r->note), "runs on the GPU through the %s plugin (%s; %s)",
			 g->p->name, g->p->runtime ? g->p->runtime : "runtime version unknown",
			 g->path);
	} else if (r->dev.kind == NB_DEV_CPU) {
		if (asked_cpu || !notice[0])
			r->device_note = "the CPU backend runs the suite on the host CPU";
		else
			snprintf(r->note, sizeof(r->note),
				 "no GPU backend (%s): the CPU backend runs the suite on the host CPU",
				 notice);
	} else if (r->dev.kind == NB_DEV_SIM) {
		r->device_note = "a simulated GPU (telemetry only): running on the CPU instead";
	} else if (notice[0]) {
		snprintf(r->note, sizeof(r->note), "no GPU backend (%s): running on the CPU instead",
			 notice);
	} else {
		snprintf(r->note, sizeof(r->note), "no GPU backend for %s (no plugin's runtime "
			 "reports this PCI address): running on the CPU instead", r->dev.pci);
	}
}

static bool run_valid(const struct run *r)
{
	bool valid = r->complete;

	for (int i = 0; i < r->nres; i++)
		valid &= !r->res[i].error[0] && r->res[i].valid.pass;
	return valid;
}

/* ---- --device all ---- */

static void *device_thread(void *arg)
{
	struct run *r = arg;

	if (!backend_open(r))
		run_tests(r);
	return NULL;
}

static const char aggregate_method[] =
	"each test's result summed over the devices; every device ran the whole suite "
	"at the same time, one host thread each, so the sum is what they delivered "
	"together (null unless every device's result is valid)";

static const struct nb_test_result *result_of(const struct run *r, int id)
{
	for (int i = 0; i < r->nres; i++)
		if (r->res[i].test->id == (enum nb_test_id)id)
			return &r->res[i];
	return NULL;
}

/* One test over every device: the sum, each device's value, validity. */
static void aggregate_row(struct nb_print *p, const struct run *runs, int n, int id)
{
	double sum = 0;
	bool valid = true;
	char a[64], per[512];
	size_t o = 0;

	per[0] = '\0';
	for (int k = 0; k < n; k++) {
		const struct nb_test_result *t = result_of(&runs[k], id);
		double v = t ? t->value : NAN;

		if (!t || t->error[0] || !t->valid.pass)
			valid = false;
		sum += v;
		if (o < sizeof(per))
			o += (size_t)snprintf(per + o, sizeof(per) - o, "%s%s", k ? " + " : "",
					      fmt_value(a, sizeof(a), v));
	}
	nb_record_begin(p, NULL);
	nb_cell_str(p, nb_test_get(id)->name);
	nb_cell_str(p, nb_test_get(id)->unit);
	nb_cell_dbl(p, valid ? sum : NAN, fmt_value(a, sizeof(a), valid ? sum : NAN));
	nb_cell_obj_begin(p, per);
	nb_arr_begin(p, "per_device", NULL);
	for (int k = 0; k < n; k++) {
		const struct nb_test_result *t = result_of(&runs[k], id);

		nb_dbl(p, "value", NULL, t ? t->value : NAN, 6, NULL);
	}
	nb_arr_end(p);
	nb_obj_end(p);
	nb_cell(p, &(struct nb_value){ .type = NB_V_BOOL, .b = valid,
				       .text = valid ? "yes" : "NO" });
	nb_record_end(p);
}

static void emit_aggregate(struct nb_print *p, const struct run *runs, int n)
{
	static const struct nb_column acols[] = {
		{ "name", "Test", false },
		{ "unit", "Unit", false },
		{ "value", "Sum", true },
		{ "values", "Per device", false },
		{ "valid", "Valid", false },
	};

	nb_table_begin(p, "aggregate", acols, (int)(sizeof(acols) / sizeof(acols[0])));
	for (int id = 0; id < NB_TEST_COUNT; id++)
		if (runs[0].selected[id])
			aggregate_row(p, runs, n, id);
	nb_table_end(p);
}

/* One device's run, or its error when its backend did not open. */
static void emit_device(struct nb_print *p, struct run *r)
{
	nb_obj_begin(p, NULL, NULL);
	nb_text(p, "=== device %d (%s): %s", r->dev.index, r->dev.name, r->device_note);
	if (r->open_err[0]) {
		nb_i64(p, "device_index", NULL, r->dev.index, NULL);
		nb_str(p, "name", NULL, r->dev.name);
		nb_str(p, "error", NULL, r->open_err);
		nb_bool(p, "valid", NULL, false);
		nb_text(p, "ERROR: the %s backend did not open: %s", r->ops->name, r->open_err);
	} else {
		nb_text(p, "backend: %s (%s)%s", r->ops->name, r->ops->describe(r->ctx),
			r->quick ? ", quick" : "");
		nb_text(p, "%s", "");
		emit(r, p);
	}
	nb_obj_end(p);
	nb_text(p, "%s", "");
}

/* The result of --device all in format fmt, to path, or to out when not NULL. */
static int emit_all(struct run *runs, int n, const char *note, const char *date,
		    const struct nb_print_ops *fmt, const char *path, FILE *out)
{
	bool valid = true, complete = true;
	struct nb_print *p = out ? nb_print_open_file(fmt, out, "run") :
		nb_print_open(fmt, path, "run");

	for (int k = 0; k < n; k++) {
		valid &= !runs[k].open_err[0] && run_valid(&runs[k]);
		complete &= runs[k].open_err[0] || runs[k].complete;
	}
	nb_str(p, "schema", NULL, "navibench-run-all");
	nb_i64(p, "schema_version", NULL, RUN_ALL_SCHEMA_VERSION, NULL);
	nb_str(p, "date", NULL, date);
	nb_bool(p, "complete", NULL, complete);
	nb_str(p, "note", NULL, note);
	nb_text(p, "navibench run --device all: %s", note);
	nb_text(p, "%s", "");
	nb_arr_begin(p, "runs", NULL);
	for (int k = 0; k < n; k++)
		emit_device(p, &runs[k]);
	nb_arr_end(p);
	nb_text(p, "=== all %d device%s together", n, n == 1 ? "" : "s");
	emit_aggregate(p, runs, n);
	nb_str(p, "aggregate_method", NULL, aggregate_method);
	nb_text(p, "Aggregate: %s.", aggregate_method);
	nb_bool(p, "valid", NULL, valid);
	nb_text(p, "Result: %s", !complete ? "INTERRUPTED" :
		valid ? "all results valid" : "INVALID (see above)");
	return nb_print_close(p) ? -1 : valid ? 0 : 1;
}

/* The devices --device all runs on: every GPU with a backend, else the CPU. */
static int all_devices(struct run *runs, char *note, size_t len)
{
	struct nb_devlist l;
	int n = 0;

	if (nb_devices_scan(&l, 0))
		return -1;
	for (int i = 0; i < l.n && n < NB_MAX_RUN_DEVICES; i++)
		if (l.dev[i].dev.plugin >= 0)
			runs[n++].dev = l.dev[i].dev;
	if (n) {
		size_t o = (size_t)snprintf(note, len, "%d GPU%s at once, one host thread each:",
					    n, n == 1 ? "" : "s");

		for (int k = 0; k < n && o < len; k++)
			o += (size_t)snprintf(note + o, len - o, "%s device %d (%s)",
					      k ? "," : "", runs[k].dev.index, runs[k].dev.name);
	} else {
		runs[n++].dev = l.dev[l.n - 1].dev;
		snprintf(note, len, "no GPU with a backend (%s): the CPU only",
			 nb_plugins_notice()[0] ? nb_plugins_notice() : "no plugin device");
	}
	nb_devices_free(&l);
	return n;
}

/*
 * navibench run --device all: every device with a GPU backend at once, one
 * host thread each, each with its own backend context (nothing of a device
 * is shared between threads; the weights are read-only host memory);
 * without one, the CPU alone.
 */
static int run_all(struct run *base, const struct cli_common *common, bool text)
{
	static struct run runs[NB_MAX_RUN_DEVICES];
	pthread_t th[NB_MAX_RUN_DEVICES];
	bool started[NB_MAX_RUN_DEVICES] = { false };
	sigset_t stop_set, old_mask;
	char note[1280], date[32];
	bool complete = true;
	time_t now = time(NULL);
	struct tm tm;
	int n, rc = 0;

	n = all_devices(runs, note, sizeof(note));
	if (n < 0) {
		fprintf(stderr, "navibench run: out of memory listing devices\n");
		return NB_EXIT_FAIL;
	}
	for (int k = 0; k < n; k++) {
		struct nb_device dev = runs[k].dev;

		runs[k] = *base;
		runs[k].dev = dev;
		select_backend(&runs[k], false);
	}
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	/* each device's system record, read here before the threads start */
	for (int k = 0; k < n; k++) {
		char idx[16];

		snprintf(idx, sizeof(idx), "%d", runs[k].dev.index);
		nb_system_start(&runs[k].sys, runs[k].dev.pci, common->json ? idx : NULL);
	}
	/* the threads keep SIGINT and SIGTERM blocked: only this one takes them */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop_set, &old_mask);
	for (int k = 0; k < n; k++) {
		started[k] = !pthread_create(&th[k], NULL, device_thread, &runs[k]);
		if (!started[k])
			snprintf(runs[k].open_err, sizeof(runs[k].open_err),
				 "cannot start a thread for it");
	}
	catch_stop(&old_mask);
	for (int k = 0; k < n; k++)
		if (started[k])
			pthread_join(th[k], NULL);
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	for (int k = 0; k < n; k++)
		nb_system_end(&runs[k].sys);
	if (text)
		rc = emit_all(runs, n, note, date, nb_format_ops(NB_FORMAT_TEXT), NULL, NULL);
	if (common->json) {
		int jrc = emit_all(runs, n, note, date, nb_format_ops(NB_FORMAT_JSON),
				   common->json_path, NULL);

		rc = jrc ? jrc : rc;
	}
	if (base->textfile && textfile_write(NULL, runs, n, note, date))
		rc = -1;
	for (int k = 0; k < n; k++) {
		complete &= runs[k].open_err[0] || runs[k].complete;
		if (runs[k].ctx)
			runs[k].ops->close(runs[k].ctx);
		runs[k].ctx = NULL;
		nb_system_free(&runs[k].sys);
		for (int i = 0; i < runs[k].nres; i++)
			nb_telemetry_free(&runs[k].telem[i]);
	}
	if (!complete && stop_signal)
		return 128 + stop_signal;
	return rc ? NB_EXIT_FAIL : NB_EXIT_OK;
}

static int run_main(struct run *r, const struct cli_common *common)
{
	/* --json FILE: text on stdout and JSON in FILE; --json: JSON on stdout */
	bool text = !common->json || (common->json_path && strcmp(common->json_path, "-"));
	sigset_t stop_set;
	int rc;

	if (common->nargs > 0)
		return cli_usage_error("run", "unexpected argument '%s'", common->args[0]);
	rc = parse_tests(r);
	if (rc)
		return rc;
	if (r->telemetry_ms > 0 && r->telemetry_ms < 10)
		return cli_usage_error("run", "--telemetry-interval %ld: expected 0 (off) or "
				       "10..60000 ms", r->telemetry_ms);
	const struct cli_file in[] = { { "--weights", r->weights_path } };
	const struct cli_file out[] = { { "--json", common->json_path } };

	rc = cli_check_outputs("run", in, 1, out, 1);
	if (rc)
		return rc;
	/* before the run: a result never lost to a directory that was not there */
	rc = r->textfile ? nb_result_textfile_check("run", r->textfile) : 0;
	if (rc)
		return rc;
	if (!strcmp(common->device, "all")) {
		rc = load_weights(r);
		return rc ? rc : run_all(r, common, text);
	}
	rc = nb_device_select("run", common->device, &r->dev);
	if (rc)
		return rc;
	select_backend(r, !strcmp(common->device, "cpu"));
	rc = load_weights(r);
	if (rc)
		return rc;
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	rc = open_backend(r, &stop_set);
	if (rc)
		return rc;
	if (text) {
		printf("navibench run: device %d (%s): %s\n", r->dev.index,
		       r->dev.name, r->device_note);
		printf("backend: %s (%s)%s\n\n", r->ops->name,
		       r->ops->describe(r->ctx), r->quick ? ", quick" : "");
		fflush(stdout);
	}
	nb_system_start(&r->sys, r->dev.pci, common->json ? common->device : NULL);
	run_tests(r);
	nb_system_end(&r->sys);
	/*
	 * From here on the signals stay blocked, up to the exit: the result
	 * written is the one of the tests that finished, and it is written
	 * whole.
	 */
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	rc = write_result(r, common, text) ? NB_EXIT_OK : NB_EXIT_FAIL;
	if (!r->complete)
		rc = 128 + stop_signal;
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	static struct run r;
	const struct cli_option opts[] = {
		CLI_STRING_OPT("tests", 't', &r.tests_arg, "LIST",
			       "comma-separated tests (default: all but convlstm-train): convlstm-mono, convlstm-color, convlstm-gates, fp32-peak, mem-bandwidth, convlstm-train"),
		CLI_INT_OPT("batch", 'b', &r.batch, "N", 1, 256,
			    "batch size for the model and gate tests (non-standard)"),
		CLI_INT_OPT("frames", 'f', &r.frames, "N", 1, 1000,
			    "frames per sequence for the model tests (non-standard)"),
		CLI_INT_OPT("threads", 0, &r.threads, "N", 0, 256,
			    "CPU threads (default 0: all cores)"),
		CLI_FLAG_OPT("quick", 'q', &r.quick,
			     "short timing (0.5 s per test, 2 repeats at least), for CI"),
		CLI_INFILE_OPT("weights", 'w', &r.weights_path, "FILE",
			       "model weights (safetensors); needs one model test in --tests"),
		CLI_INT_OPT("seed", 0, &r.seed, "N", 0, 2147483647,
			    "seed for the weights and the movies (default 1)"),
		CLI_INT_OPT("telemetry-interval", 0, &r.telemetry_ms, "MS", 0, 60000,
			    "sample the device every MS ms during the tests (default 100; 0: off; "
			    "the gputelemetry module's own interval where its history is read)"),
		CLI_CHOICE_OPT("isa", 0, &r.isa, "ISA", isa_choices,
			       "CPU kernels (default auto: the best this CPU runs)"),
		CLI_STRING_OPT("textfile", 0, &r.textfile, "DIR",
			       "also write the result as Prometheus metrics, DIR/navibench-run-<device>.prom, for node_exporter's textfile collector"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = nb_cmd_run.name,
		.summary = nb_cmd_run.summary,
		.description =
			"Runs each test with a warm-up and repeats sized to a target duration,\n"
			"reports the median, the best and the coefficient of variation, validates\n"
			"every result against the double-precision reference (on a GPU, the timed\n"
			"output too, against the CPU backend), and scores the run against the\n"
			"reference device (1000 = the reference). A device without a GPU backend\n"
			"runs on the CPU, and the output says why. --device all runs the suite on\n"
			"every GPU at once, one host thread per device, and reports each device and\n"
			"the sum of their results.",
		.common = CLI_DEVICE | CLI_DEVICE_ALL | CLI_JSON,
		.options = opts,
	};
	struct cli_common common;
	int rc;

	memset(&r, 0, sizeof(r));
	r.seed = 1;
	r.telemetry_ms = 100;
	rc = cli_parse(&spec, argc, argv, &common);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = run_main(&r, &common);
	if (r.ctx)
		r.ops->close(r.ctx);
	nb_weights_free(r.weights);
	nb_system_free(&r.sys);
	for (int i = 0; i < r.nres; i++)
		nb_telemetry_free(&r.telem[i]);
	return rc;
}

const struct nb_command nb_cmd_run = {
	.name = "run",
	.summary = "run the ConvLSTM benchmark suite on a device (the default command)",
	.run = cmd_run,
};
