// SPDX-License-Identifier: MIT
/*
 * navibench run: the ConvLSTM benchmark suite on one device, every result
 * validated against the reference, a composite score against the reference
 * device, text and JSON from the same print calls (print.h). The JSON schema
 * is documented in engine/result-schema.md.
 */
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "devices.h"
#include "engine/engine.h"
#include "navibench.h"
#include "plugin.h"
#include "print.h"

#define RUN_SCHEMA_VERSION 1
#define RUN_ALL_SCHEMA_VERSION 1

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
	bool selected[NB_TEST_COUNT];
	struct nb_weights *weights;
	struct nb_test_result res[NB_TEST_COUNT];
	int nres;
	bool complete;		/* every selected test ran: not interrupted */
	double peak;		/* GFLOP/s for the percentages */
	const char *peak_from;
	char date[32];
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

static struct json_object *jdbl(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
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

static struct json_object *validation_json(const struct nb_validation *v)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "pass", json_object_new_boolean(v->pass));
	json_object_object_add(o, "max_abs_error", jdbl(v->max_abs));
	json_object_object_add(o, "max_rel_error", jdbl(v->max_rel));
	json_object_object_add(o, "tolerance_abs", jdbl(v->tol_abs));
	json_object_object_add(o, "tolerance_rel", jdbl(v->tol_rel));
	json_object_object_add(o, "input", json_object_new_string(v->input));
	json_object_object_add(o, "reason", json_object_new_string(v->reason ? v->reason : ""));
	return o;
}

/* validation, with the timed output's check (GPU backends) as a member */
static struct json_object *result_validation_json(const struct nb_test_result *t)
{
	struct json_object *o = validation_json(&t->valid);

	if (t->timed.ran) {
		struct json_object *v = validation_json(&t->timed);

		json_object_object_del(v, "reason");
		json_object_object_add(o, "timed_output", v);
	}
	return o;
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

static void emit(struct run *r, bool json)
{
	char a[64], b[64];
	const char *why = NULL;
	double score = nb_composite_score(r->res, r->nres, &why);
	bool all_valid = true;

	nb_print_begin(json);
	if (json) {
		json_object_object_add(nb_print_root(), "schema",
				       json_object_new_string("navibench-run"));
		json_object_object_add(nb_print_root(), "schema_version",
				       json_object_new_int(RUN_SCHEMA_VERSION));
		json_object_object_add(nb_print_root(), "date",
				       json_object_new_string(r->date));
		json_object_object_add(nb_print_root(), "complete",
				       json_object_new_boolean(r->complete));
	}
	nb_obj_begin("device", "Device");
	nb_i64("index", "index", r->dev.index, NULL);
	nb_str("kind", NULL, nb_device_kind_name(r->dev.kind));
	nb_str("name", "name", r->dev.name);
	if (r->dev.pci[0])
		nb_str("pci", "PCI", r->dev.pci);
	nb_str("backend", "backend", r->ops->name);
	nb_str("backend_detail", "runs on", r->ops->describe(r->ctx));
	nb_str("note", "note", r->device_note);
	nb_obj_end();

	nb_obj_begin("configuration", "Configuration");
	nb_bool("quick", "quick", r->quick);
	nb_i64("threads", NULL, r->ops->threads(r->ctx), NULL);
	nb_i64("seed", "seed", r->seed, NULL);
	if (r->weights_path)
		nb_str("weights", "weights", r->weights_path);
	else
		nb_fieldf("weights", "weights", NULL,
			  "Keras initializers from the seed");
	/* not measured (e.g. --tests mem-bandwidth): null, JSON has no NaN */
	if (isfinite(r->peak))
		nb_dbl("peak_gflops", "fp32 peak for %", r->peak, 1, "GFLOP/s");
	else
		nb_missing("peak_gflops", "fp32 peak for %", r->peak_from);
	nb_str("peak_source", NULL, r->peak_from);
	nb_obj_end();

	if (!json)
		nb_text("%s", "");
	nb_table_begin("tests", cols, (int)(sizeof(cols) / sizeof(cols[0])));
	for (int i = 0; i < r->nres; i++) {
		const struct nb_test_result *t = &r->res[i];
		double ts = nb_test_score(t);

		if (t->error[0] || !t->valid.pass)
			all_valid = false;
		nb_row_begin();
		nb_cell(json_object_new_string(t->test->name), "%s%s",
			t->test->name, t->standard ? "" : " *");
		nb_cell(jdbl(t->value), "%s", fmt_value(a, sizeof(a), t->value));
		nb_cell(json_object_new_string(t->test->unit), "%s", t->test->unit);
		nb_cell(jdbl(t->best), "%s", fmt_value(b, sizeof(b), t->best));
		nb_cell(jdbl(t->error[0] ? NAN : t->time.cv), "%.1f%%",
			100 * t->time.cv);
		nb_cell(jdbl(t->rate_gflops), "%s",
			fmt_value(a, sizeof(a), t->rate_gflops));
		nb_cell(jdbl(t->percent_of_peak), "%s",
			isfinite(t->percent_of_peak) ?
			(snprintf(b, sizeof(b), "%.1f%%", t->percent_of_peak), b) : "-");
		if (t->error[0])
			nb_cell(NULL, "ERROR");
		else
			nb_cell(result_validation_json(t), "%s %.1e",
				t->valid.pass ? "pass" : "INVALID",
				t->valid.max_abs);
		nb_cell(jdbl(t->standard && t->valid.pass ? ts : NAN), "%s",
			t->standard && t->valid.pass && isfinite(ts) ?
			(snprintf(a, sizeof(a), "%.0f", ts), a) : "-");
		nb_cell_str(status_of(t));
		nb_cell(t->error[0] ? json_object_new_string(t->error) : NULL,
			"%s", t->error);
		nb_cell(json_object_new_boolean(t->standard), "%d", t->standard);
		nb_cell(t->batch ? json_object_new_int(t->batch) : NULL, "%d", t->batch);
		nb_cell(t->frames ? json_object_new_int(t->frames) : NULL, "%d", t->frames);
		nb_cell(jdbl(t->error[0] ? NAN : t->time.median), "%g", t->time.median);
		nb_cell(jdbl(t->error[0] ? NAN : t->time.min), "%g", t->time.min);
		nb_cell(json_object_new_int(t->time.repeats), "%d", t->time.repeats);
		nb_cell(jdbl(t->work), "%g", t->work);
		nb_cell(jdbl(nb_reference.value[t->test->id] > 0 ?
			     nb_reference.value[t->test->id] : NAN), "-");
		nb_cell(json_object_new_string(t->test->what), "%s", t->test->what);
		nb_row_end();
	}
	nb_table_end();

	if (!json) {
		bool any_ns = false;

		for (int i = 0; i < r->nres; i++) {
			const struct nb_test_result *t = &r->res[i];

			any_ns |= !t->standard;
			if (t->error[0])
				nb_text("%s: ERROR: %s", t->test->name, t->error);
			else if (!t->valid.pass)
				nb_text("%s: INVALID: max abs error %.3g, max rel error %.3g; tolerance |d| <= %.0e + %.0e |ref| (%s)",
					t->test->name, t->valid.max_abs,
					t->valid.max_rel, t->valid.tol_abs,
					t->valid.tol_rel, t->valid.input);
		}
		if (any_ns)
			nb_text("* non-standard configuration (--batch/--frames): no score");
		nb_text("Validation: every result against the double-precision reference; "
			"models |d| <= 1e-4 + 1e-3 |ref|, gates 1e-5 + 1e-4 |ref|, peak and bandwidth exact.");
		if (r->ops != &nb_cpu_backend)
			nb_text("The models' timed output too: the last repeat, items 0 and B-1 "
				"at the full frame count, against the CPU backend, same tolerance.");
		nb_text("%s", "");
	}
	nb_obj_begin("score", NULL);
	if (isfinite(score))
		nb_dbl("value", "Score", score, 0, NULL);
	else
		nb_missing("value", "Score", why);
	nb_str("method", NULL,
	       "geometric mean over the five tests of result / reference result x 1000");
	nb_obj_begin("reference", NULL);
	nb_str("machine", NULL, nb_reference.machine);
	nb_str("cpu", NULL, nb_reference.cpu);
	nb_str("date", NULL, nb_reference.date);
	nb_str("command", NULL, nb_reference.command);
	nb_str("build", NULL, nb_reference.build);
	nb_obj_end();
	nb_obj_end();
	if (!r->complete)
		all_valid = false;
	if (!json) {
		nb_text("(reference, score 1000: %s, %s, %s)", nb_reference.cpu,
			nb_reference.machine, nb_reference.date);
		if (!r->complete)
			nb_text("Result: INTERRUPTED after %d of %d tests%s", r->nres,
				r->count, r->nres ? " (their results above)" : "");
		else
			nb_text("Result: %s", all_valid ? "all results valid" :
				"INVALID (see above)");
	}
	nb_bool("valid", NULL, all_valid);
}

static int parse_tests(struct run *r)
{
	if (!r->tests_arg) {
		for (int i = 0; i < NB_TEST_COUNT; i++)
			r->selected[i] = true;
		return 0;
	}
	char *s = strdup(r->tests_arg), *save = NULL;
	int n = 0;

	if (!s)
		return NB_EXIT_FAIL;
	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct nb_test_info *ti = nb_test_find(tok);

		if (!ti) {
			int rc = cli_usage_error("run", "--tests: unknown test '%s'; the tests are %s",
						 tok, nb_test_names());
			free(s);
			return rc;
		}
		r->selected[ti->id] = true;
		n++;
	}
	free(s);
	if (!n)
		return cli_usage_error("run", "--tests: empty list; the tests are %s",
				       nb_test_names());
	return 0;
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

/* Open the backend; 0, or -1 with r->open_err set. */
static int open_backend(struct run *r)
{
	struct nb_backend_config bcfg = {
		.device = r->ordinal,
		.threads = (int)r->threads,
		.isa = r->isa ? isa_choices[r->isa] : NULL,
	};

	return r->ops->open(&bcfg, &r->ctx, r->open_err, sizeof(r->open_err)) ? -1 : 0;
}

/* Every selected test, fp32-peak first, until a stop signal. */
static void run_tests(struct run *r)
{
	struct nb_run_config cfg = {
		.batch = (int)r->batch, .frames = (int)r->frames,
		.quick = r->quick, .seed = (uint64_t)r->seed,
		.weights = r->weights,
		.progress = progress, .progress_arg = r,
	};
	/* fp32-peak first: the other results are shown as a share of it */
	static const enum nb_test_id order[] = { NB_TEST_PEAK, NB_TEST_MONO,
		NB_TEST_COLOR, NB_TEST_GATES, NB_TEST_BW };
	struct nb_test_result tmp[NB_TEST_COUNT];
	bool done[NB_TEST_COUNT] = { false };

	r->peak = NAN;
	r->peak_from = "not measured";
	for (int i = 0; i < NB_TEST_COUNT; i++)
		r->count += r->selected[i];
	if (!r->selected[NB_TEST_PEAK] &&
	    (r->selected[NB_TEST_MONO] || r->selected[NB_TEST_COLOR] ||
	     r->selected[NB_TEST_GATES]))
		measure_peak(r);
	for (int k = 0; k < NB_TEST_COUNT; k++) {
		enum nb_test_id id = order[k];

		if (!r->selected[id])
			continue;
		if (stop_signal)
			break;
		r->index++;
		nb_bench_run(r->ops, r->ctx, id, &cfg, r->peak, &tmp[id]);
		done[id] = true;
		if (id == NB_TEST_PEAK && !tmp[id].error[0] && tmp[id].valid.pass) {
			r->peak = tmp[id].best;
			r->peak_from = "the fastest repeat of this run's fp32-peak test";
		}
	}
	progress_done(r);
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (r->selected[i] && done[i])
			r->res[r->nres++] = tmp[i];
	r->complete = r->nres == r->count;
}

static bool run_valid(const struct run *r)
{
	bool valid = r->complete;

	for (int i = 0; i < r->nres; i++)
		valid &= !r->res[i].error[0] && r->res[i].valid.pass;
	return valid;
}

/*
 * SIGINT and SIGTERM are blocked while threads start (the backends' and
 * the devices'), which keep that mask: only this thread takes them.
 */
static void block_stop(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, set, old);
}

static void catch_stop(const sigset_t *old)
{
	struct sigaction sa = { .sa_handler = on_stop_signal,
				.sa_flags = SA_RESTART | SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void set_date(char *buf, size_t n)
{
	time_t now = time(NULL);

	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

/* One device: the run as it always was. */
static int run_one(struct run *r, const struct cli_common *common, bool text)
{
	sigset_t stop_set, old_mask;
	int rc;

	block_stop(&stop_set, &old_mask);
	if (open_backend(r)) {
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
		fprintf(stderr, "navibench run: %s\n", r->open_err);
		return r->isa ? NB_EXIT_USAGE : NB_EXIT_FAIL;
	}
	catch_stop(&old_mask);
	if (text) {
		printf("navibench run: device %d (%s): %s\n", r->dev.index,
		       r->dev.name, r->device_note);
		printf("backend: %s (%s)%s\n\n", r->ops->name,
		       r->ops->describe(r->ctx), r->quick ? ", quick" : "");
		fflush(stdout);
	}
	set_date(r->date, sizeof(r->date));
	r->tty = isatty(STDERR_FILENO);
	run_tests(r);
	/*
	 * From here on the signals stay blocked, up to the exit: the result
	 * written is the one of the tests that finished, and it is written
	 * whole (nb_print_end: temporary file and rename).
	 */
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);

	bool valid = run_valid(r);

	if (text) {
		emit(r, false);
		nb_print_end(NULL);
	}
	if (common->json) {
		emit(r, true);
		if (nb_print_end(common->json_path))
			valid = false;
	}
	rc = valid ? NB_EXIT_OK : NB_EXIT_FAIL;
	if (!r->complete && stop_signal)
		rc = 128 + stop_signal;
	return rc;
}


/* ---- --device all ---- */

static void *device_thread(void *arg)
{
	struct run *r = arg;

	if (!open_backend(r))
		run_tests(r);
	return NULL;
}

static const char aggregate_method[] =
	"each test's result summed over the devices; every device ran the whole suite "
	"at the same time, one host thread each, so the sum is what they delivered "
	"together (null unless every device's result is valid)";

static void emit_aggregate(struct run *runs, int n)
{
	static const struct nb_column acols[] = {
		{ "name", "Test", false },
		{ "unit", "Unit", false },
		{ "value", "Sum", true },
		{ "values", "Per device", false },
		{ "valid", "Valid", false },
	};
	char a[64], per[512];

	nb_table_begin("aggregate", acols, (int)(sizeof(acols) / sizeof(acols[0])));
	for (int id = 0; id < NB_TEST_COUNT; id++) {
		struct json_object *vals = json_object_new_array();
		double sum = 0;
		bool valid = true, any = false;
		size_t o = 0;

		per[0] = '\0';
		for (int k = 0; k < n; k++) {
			const struct nb_test_result *t = NULL;

			for (int i = 0; i < runs[k].nres; i++)
				if (runs[k].res[i].test->id == (enum nb_test_id)id)
					t = &runs[k].res[i];
			if (!runs[k].selected[id])
				continue;
			any = true;
			if (!t || t->error[0] || !t->valid.pass)
				valid = false;
			double v = t ? t->value : NAN;

			sum += v;
			json_object_array_add(vals, jdbl(v));
			if (o < sizeof(per))
				o += snprintf(per + o, sizeof(per) - o, "%s%s", k ? " + " : "",
					      fmt_value(a, sizeof(a), v));
		}
		if (!any) {
			json_object_put(vals);
			continue;
		}
		nb_row_begin();
		nb_cell(json_object_new_string(nb_test_get(id)->name), "%s",
			nb_test_get(id)->name);
		nb_cell(json_object_new_string(nb_test_get(id)->unit), "%s",
			nb_test_get(id)->unit);
		nb_cell(jdbl(valid ? sum : NAN), "%s", fmt_value(a, sizeof(a), valid ? sum : NAN));
		nb_cell(vals, "%s", per);
		nb_cell(json_object_new_boolean(valid), "%s", valid ? "yes" : "NO");
		nb_row_end();
	}
	nb_table_end();
}

/* The run of one device as JSON, or its error when its backend did not open. */
static struct json_object *run_json(struct run *r)
{
	struct json_object *o;

	if (r->open_err[0]) {
		o = json_object_new_object();
		json_object_object_add(o, "device_index", json_object_new_int(r->dev.index));
		json_object_object_add(o, "name", json_object_new_string(r->dev.name));
		json_object_object_add(o, "error", json_object_new_string(r->open_err));
		json_object_object_add(o, "valid", json_object_new_boolean(false));
		return o;
	}
	emit(r, true);
	o = json_object_get(nb_print_root());
	nb_print_discard();
	return o;
}

static void emit_all_text(struct run *runs, int n, const char *note)
{
	printf("navibench run --device all: %s\n", note);
	for (int k = 0; k < n; k++) {
		struct run *r = &runs[k];

		printf("\n=== device %d (%s): %s\n", r->dev.index, r->dev.name, r->device_note);
		if (r->open_err[0]) {
			printf("ERROR: the %s backend did not open: %s\n", r->ops->name, r->open_err);
			continue;
		}
		printf("backend: %s (%s)%s\n\n", r->ops->name, r->ops->describe(r->ctx),
		       r->quick ? ", quick" : "");
		nb_print_begin(false);
		emit(r, false);
		nb_print_end(NULL);
	}
}

static int emit_all(struct run *runs, int n, const char *note, const char *date,
		    bool json, const char *path)
{
	bool valid = true, complete = true;

	for (int k = 0; k < n; k++) {
		valid &= !runs[k].open_err[0] && run_valid(&runs[k]);
		complete &= runs[k].open_err[0] || runs[k].complete;
	}
	if (!json)
		emit_all_text(runs, n, note);
	else {
		struct json_object *arr = json_object_new_array();

		for (int k = 0; k < n; k++)
			json_object_array_add(arr, run_json(&runs[k]));
		nb_print_begin(true);
		json_object_object_add(nb_print_root(), "schema",
				       json_object_new_string("navibench-run-all"));
		json_object_object_add(nb_print_root(), "schema_version",
				       json_object_new_int(RUN_ALL_SCHEMA_VERSION));
		json_object_object_add(nb_print_root(), "date", json_object_new_string(date));
		json_object_object_add(nb_print_root(), "complete",
				       json_object_new_boolean(complete));
		json_object_object_add(nb_print_root(), "note", json_object_new_string(note));
		json_object_object_add(nb_print_root(), "runs", arr);
	}
	if (!json)
		nb_print_begin(false);
	if (!json)
		nb_text("\n=== all %d device%s together", n, n == 1 ? "" : "s");
	emit_aggregate(runs, n);
	nb_str("aggregate_method", NULL, aggregate_method);
	if (!json)
		nb_text("Aggregate: %s.", aggregate_method);
	nb_bool("valid", NULL, valid);
	if (!json)
		nb_text("Result: %s", !complete ? "INTERRUPTED" :
			valid ? "all results valid" : "INVALID (see above)");
	return nb_print_end(path) ? -1 : valid ? 0 : 1;
}

/*
 * navibench run --device all: every device with a GPU backend at once, one
 * host thread each, each with its own backend context (nothing of a device
 * is shared between threads; the weights are read-only host memory);
 * without one, the CPU alone.
 */
static int run_all(struct run *base, const struct cli_common *common, bool text)
{
	struct nb_devlist l;
	struct run *runs;
	pthread_t *th;
	sigset_t stop_set, old_mask;
	char note[1280], date[32];
	int n = 0, rc;

	if (nb_devices_scan(&l, NB_SCAN_NAMES)) {
		fprintf(stderr, "navibench run: out of memory listing devices\n");
		return NB_EXIT_FAIL;
	}
	runs = calloc((size_t)l.n, sizeof(*runs));
	th = calloc((size_t)l.n, sizeof(*th));
	if (!runs || !th) {
		free(runs);
		free(th);
		nb_devices_free(&l);
		return NB_EXIT_FAIL;
	}
	for (int i = 0; i < l.n; i++)
		if (l.dev[i].dev.plugin >= 0)
			runs[n++].dev = l.dev[i].dev;
	if (n) {
		size_t o = (size_t)snprintf(note, sizeof(note),
					    "%d GPU%s at once, one host thread each:", n,
					    n == 1 ? "" : "s");
		for (int k = 0; k < n && o < sizeof(note); k++)
			o += (size_t)snprintf(note + o, sizeof(note) - o, "%s device %d (%s)",
					      k ? "," : "", runs[k].dev.index, runs[k].dev.name);
	} else {
		runs[n++].dev = l.dev[l.n - 1].dev;
		snprintf(note, sizeof(note), "no GPU with a backend (%s): the CPU only",
			 nb_plugins_notice()[0] ? nb_plugins_notice() :
			 "no plugin device");
	}
	nb_devices_free(&l);
	for (int k = 0; k < n; k++) {
		struct nb_device dev = runs[k].dev;

		runs[k] = *base;
		runs[k].dev = dev;
		select_backend(&runs[k], false);
	}
	set_date(date, sizeof(date));
	block_stop(&stop_set, &old_mask);
	for (int k = 0; k < n; k++) {
		nb_strcpy(runs[k].date, sizeof(runs[k].date), date);
		if (pthread_create(&th[k], NULL, device_thread, &runs[k])) {
			snprintf(runs[k].open_err, sizeof(runs[k].open_err),
				 "cannot start a thread for it");
			th[k] = 0;
		}
	}
	catch_stop(&old_mask);
	for (int k = 0; k < n; k++)
		if (th[k])
			pthread_join(th[k], NULL);
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);

	bool complete = true;

	rc = 0;
	if (text)
		rc = emit_all(runs, n, note, date, false, NULL);
	if (common->json) {
		int jrc = emit_all(runs, n, note, date, true, common->json_path);

		rc = jrc ? jrc : rc;
	}
	for (int k = 0; k < n; k++) {
		complete &= runs[k].open_err[0] || runs[k].complete;
		if (runs[k].ctx)
			runs[k].ops->close(runs[k].ctx);
	}
	free(runs);
	free(th);
	if (!complete && stop_signal)
		return 128 + stop_signal;
	return rc < 0 ? NB_EXIT_FAIL : rc ? NB_EXIT_FAIL : NB_EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
	static struct run r;
	const struct cli_option opts[] = {
		CLI_STRING_OPT("tests", 't', &r.tests_arg, "LIST",
			       "comma-separated tests (default: all): convlstm-mono, convlstm-color, convlstm-gates, fp32-peak, mem-bandwidth"),
		CLI_INT_OPT("batch", 'b', &r.batch, "N", 1, 256,
			    "batch size for the model and gate tests (non-standard)"),
		CLI_INT_OPT("frames", 'f', &r.frames, "N", 1, 1000,
			    "frames per sequence for the model tests (non-standard)"),
		CLI_INT_OPT("threads", 0, &r.threads, "N", 0, 256,
			    "CPU threads (default 0: all cores)"),
		CLI_FLAG_OPT("quick", 'q', &r.quick,
			     "short timing (0.5 s per test, 2 repeats at least), for CI"),
		CLI_STRING_OPT("weights", 'w', &r.weights_path, "FILE",
			       "model weights (safetensors); needs one model test in --tests"),
		CLI_INT_OPT("seed", 0, &r.seed, "N", 0, 2147483647,
			    "seed for the weights and the movies (default 1)"),
		CLI_CHOICE_OPT("isa", 0, &r.isa, "ISA", isa_choices,
			       "CPU kernels (default auto: the best this CPU runs)"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = "run",
		.summary = "run the ConvLSTM benchmark suite on a device",
		.description =
			"Runs each test with a warm-up and repeats sized to a target duration,\n"
			"reports the median, the best and the coefficient of variation, validates\n"
			"every result against the double-precision reference (on a GPU, the timed\n"
			"output too, against the CPU backend), and scores the run against the\n"
			"reference device (1000 = the reference). A device without a GPU backend\n"
			"runs on the CPU, and the output says why. --device all runs the suite on\n"
			"every GPU at once, one host thread per device, and reports each device and\n"
			"the sum of their results.",
		.common = CLI_DEVICE | CLI_JSON,
		.options = opts,
		.epilog = "Exit status: 0 all valid, 1 a test failed or was INVALID, 2 usage, 3 no such device.",
	};
	struct cli_common common;
	int rc;

	memset(&r, 0, sizeof(r));
	r.seed = 1;
	rc = cli_parse(&spec, argc, argv, &common);
	if (rc != CLI_CONTINUE)
		return rc;
	if (common.nargs > 0)
		return cli_usage_error("run", "unexpected argument '%s'", common.args[0]);
	/* --json FILE: text on stdout and JSON in FILE; --json: JSON on stdout */
	bool text = !common.json || (common.json_path && strcmp(common.json_path, "-"));

	rc = parse_tests(&r);
	if (rc)
		return rc;
	if (!strcmp(common.device, "all")) {
		rc = load_weights(&r);
		if (!rc)
			rc = run_all(&r, &common, text);
		nb_weights_free(r.weights);
		return rc;
	}
	rc = nb_device_select(common.device, &r.dev);
	if (rc)
		return rc;
	select_backend(&r, !strcmp(common.device, "cpu"));
	rc = load_weights(&r);
	if (!rc)
		rc = run_one(&r, &common, text);
	if (r.ctx)
		r.ops->close(r.ctx);
	nb_weights_free(r.weights);
	return rc;
}
