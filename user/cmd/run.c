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
#include "engine/system.h"
#include "navibench.h"
#include "print.h"

#define RUN_SCHEMA_VERSION 2

static const char *const isa_choices[] = { "auto", "avx512", "avx2", "generic", NULL };

struct run {
	struct nb_device dev;
	const char *device_note;
	const struct nb_backend_ops *ops;
	void *ctx;
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
	struct nb_system sys;	/* JSON: the "system" record */
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
	{ "times_s", NULL, false },
};

/* Every repeat's time, in the order run: what compare judges noise by. */
static struct json_object *times_json(const struct nb_test_result *t)
{
	struct json_object *a;

	if (t->error[0])
		return NULL;
	a = json_object_new_array();
	for (int i = 0; i < t->time.repeats && i < NB_MAX_REPEATS; i++)
		json_object_array_add(a, jdbl(t->time.times[i]));
	return a;
}

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
	if (json)
		nb_system_emit(&r->sys);

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
			nb_cell(validation_json(&t->valid), "%s %.1e",
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
		nb_cell(times_json(t), "-");
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
		nb_text("%s", "");
	}
	nb_obj_begin("score", NULL);
	if (isfinite(score))
		nb_dbl("value", "Score", score, 0, NULL);
	else
		nb_missing("value", "Score", why);
	nb_str("method", NULL,
	       "geometric mean over the five tests of result / reference result x 1000");
	nb_str("reference_id", NULL, nb_reference.id);
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

/*
 * --tests: names separated by single commas. An empty element ("a,,b",
 * a leading or trailing comma) is a usage error, not skipped: it is most
 * likely a name lost in a script's variable.
 */
static int parse_tests(struct run *r)
{
	if (!r->tests_arg) {
		for (int i = 0; i < NB_TEST_COUNT; i++)
			r->selected[i] = true;
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
			"every result against the double-precision reference, and scores the run\n"
			"against the reference device (1000 = the reference). A device without a\n"
			"GPU backend in this build runs on the CPU, and the output says so.",
		.common = CLI_DEVICE | CLI_JSON,
		.options = opts,
		.epilog = "Exit status: 0 all valid, 1 a test failed or was INVALID, 2 usage, 3 no such device.",
	};
	struct cli_common common;
	char err[256];
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
	const struct cli_file in[] = { { "--weights", r.weights_path } };
	const struct cli_file out[] = { { "--json", common.json_path } };

	rc = cli_check_outputs("run", in, 1, out, 1);
	if (rc)
		return rc;
	rc = nb_device_select(common.device, &r.dev);
	if (rc)
		return rc;
	r.ops = &nb_cpu_backend;
	if (r.dev.kind == NB_DEV_CPU)
		r.device_note = "the CPU backend runs the suite on the host CPU";
	else
		r.device_note = "no GPU backend in this build: running on the CPU instead";
	rc = load_weights(&r);
	if (rc)
		goto out;

	struct nb_backend_config bcfg = {
		.threads = (int)r.threads,
		.isa = r.isa ? isa_choices[r.isa] : NULL,
	};
	/*
	 * SIGINT and SIGTERM blocked while the backend starts its worker
	 * threads, which keep that mask: only this thread takes them.
	 */
	sigset_t stop_set, old_mask;
	struct sigaction sa = { .sa_handler = on_stop_signal,
				.sa_flags = SA_RESTART | SA_RESETHAND };

	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigemptyset(&sa.sa_mask);
	pthread_sigmask(SIG_BLOCK, &stop_set, &old_mask);
	if (r.ops->open(&bcfg, &r.ctx, err, sizeof(err))) {
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
		fprintf(stderr, "navibench run: %s\n", err);
		rc = r.isa ? NB_EXIT_USAGE : NB_EXIT_FAIL;
		goto out;
	}
	stop_signal = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (text) {
		printf("navibench run: device %d (%s): %s\n", r.dev.index,
		       r.dev.name, r.device_note);
		printf("backend: %s (%s)%s\n\n", r.ops->name,
		       r.ops->describe(r.ctx), r.quick ? ", quick" : "");
		fflush(stdout);
	}

	nb_system_start(&r.sys, r.dev.pci);
	if (common.json)
		r.sys.device_info = nb_info_json(common.device);
	time_t now = time(NULL);
	strftime(r.date, sizeof(r.date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	r.tty = isatty(STDERR_FILENO);
	r.peak = NAN;
	r.peak_from = "not measured";
	for (int i = 0; i < NB_TEST_COUNT; i++)
		r.count += r.selected[i];

	struct nb_run_config cfg = {
		.batch = (int)r.batch, .frames = (int)r.frames,
		.quick = r.quick, .seed = (uint64_t)r.seed,
		.weights = r.weights,
		.progress = progress, .progress_arg = &r,
	};
	/* fp32-peak first: the other results are shown as a share of it */
	static const enum nb_test_id order[] = { NB_TEST_PEAK, NB_TEST_MONO,
		NB_TEST_COLOR, NB_TEST_GATES, NB_TEST_BW };
	struct nb_test_result tmp[NB_TEST_COUNT];
	bool done[NB_TEST_COUNT] = { false };

	if (!r.selected[NB_TEST_PEAK] &&
	    (r.selected[NB_TEST_MONO] || r.selected[NB_TEST_COLOR] ||
	     r.selected[NB_TEST_GATES]))
		measure_peak(&r);
	for (int k = 0; k < NB_TEST_COUNT; k++) {
		enum nb_test_id id = order[k];

		if (!r.selected[id])
			continue;
		if (stop_signal)
			break;
		r.index++;
		nb_bench_run(r.ops, r.ctx, id, &cfg, r.peak, &tmp[id]);
		done[id] = true;
		if (id == NB_TEST_PEAK && !tmp[id].error[0] && tmp[id].valid.pass) {
			r.peak = tmp[id].best;
			r.peak_from = "the fastest repeat of this run's fp32-peak test";
		}
	}
	progress_done(&r);
	/*
	 * From here on the signals stay blocked, up to the exit: the result
	 * written is the one of the tests that finished, and it is written
	 * whole (nb_print_end: temporary file and rename).
	 */
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	nb_system_end(&r.sys);
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (r.selected[i] && done[i])
			r.res[r.nres++] = tmp[i];
	r.complete = r.nres == r.count;

	bool valid = true;
	for (int i = 0; i < r.nres; i++)
		valid &= !r.res[i].error[0] && r.res[i].valid.pass;

	if (text) {
		emit(&r, false);
		nb_print_end(NULL);
	}
	if (common.json) {
		emit(&r, true);
		if (nb_print_end(common.json_path))
			valid = false;
	}
	rc = valid ? NB_EXIT_OK : NB_EXIT_FAIL;
	if (!r.complete)
		rc = 128 + stop_signal;
out:
	if (r.ctx)
		r.ops->close(r.ctx);
	nb_weights_free(r.weights);
	nb_system_free(&r.sys);
	return rc;
}
