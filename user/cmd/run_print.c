// SPDX-License-Identifier: MIT
/*
 * navibench run: the result in the format of the print layer (text, JSON,
 * and the JSON that --textfile turns into metrics), one set of print calls
 * for all of them. The JSON schema: engine/result-schema.md and
 * schemas/run.schema.json.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "print/print.h"
#include "cmd/run.h"

const char *run_fmt_value(char *buf, size_t n, double v)
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
	nb_cell_dbl(p, t->value, run_fmt_value(a, sizeof(a), t->value));
	nb_cell_str(p, t->test->unit);
	nb_cell_dbl(p, t->best, run_fmt_value(b, sizeof(b), t->best));
	snprintf(a, sizeof(a), "%.1f%%", 100 * t->time.cv);
	nb_cell_dbl(p, t->error[0] ? NAN : t->time.cv, a);
	nb_cell_dbl(p, t->rate_gflops, run_fmt_value(b, sizeof(b), t->rate_gflops));
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
	bool any_ns = false, any_quick = false;

	for (int i = 0; i < r->nres; i++) {
		const struct nb_test_result *t = &r->res[i];

		any_ns |= !t->standard && !t->quick_form;
		any_quick |= t->quick_form;
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
	if (any_quick)
		nb_text(p, "* --quick's short form (batch %d x %d frame): no score, not in the composite",
			nb_test_get(NB_TEST_TRAIN)->quick_batch,
			nb_test_get(NB_TEST_TRAIN)->quick_frames);
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
	double score = nb_composite_score(r->ops, r->quick, r->res, r->nres, &why);

	nb_obj_begin(p, "score", NULL);
	if (isfinite(score))
		nb_dbl(p, "value", "Score", score, 0, NULL);
	else
		nb_missing(p, "value", "Score", why);
	nb_str(p, "method", NULL, nb_score_method(r->ops, r->quick));
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
void run_emit(struct run *r, struct nb_print *p)
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
