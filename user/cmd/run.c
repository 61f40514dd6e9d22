// SPDX-License-Identifier: MIT
/*
 * navibench run: the ConvLSTM benchmark suite on one device, every result
 * validated against the reference, a composite score against the reference
 * device, text and JSON from the same print calls (print.h). The JSON schema
 * is documented in engine/result-schema.md. This file: the options, the
 * device and its backend, the tests, where the result goes; the result's
 * formats are run_print.c's, --device all run_all.c's.
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
#include "devices/devices.h"
#include "engine/engine.h"
#include "engine/system.h"
#include "navibench.h"
#include "devices/plugin.h"
#include "sources/monitor.h"
#include "print/print.h"
#include "cmd/run.h"
#include "cmd/run_textfile.h"

static const char *const isa_choices[] = { "auto", "avx512", "avx2", "generic", NULL };

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
volatile sig_atomic_t run_stop_signal;

static void on_stop_signal(int sig)
{
	static const char msg[] =
		"\nnavibench run: interrupted: stopping after the current test "
		"(interrupt again to stop now, with no result written)\n";
	ssize_t ret;

	run_stop_signal = sig;
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

/*
 * --tests: names separated by single commas. An empty element ("a,,b",
 * a leading or trailing comma) is a usage error, not skipped: it is most
 * likely a name lost in a script's variable.
 */
static int parse_tests(struct run *r)
{
	if (!r->tests_arg) {
		/* every test; run_tests() drops those the backend cannot run */
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

/*
 * SIGINT and SIGTERM blocked while the backend starts its worker threads,
 * which keep that mask: only this thread takes them. Then the handler.
 */
/* The backend opened on r's device; 0, or -1 with r->open_err set. */
int run_backend_open(struct run *r)
{
	struct nb_backend_config bcfg = {
		.device = r->ordinal,
		.threads = (int)r->threads,
		.isa = r->isa ? isa_choices[r->isa] : NULL,
	};

	return r->ops->open(&bcfg, &r->ctx, r->open_err, sizeof(r->open_err)) ? -1 : 0;
}

/* From here on SIGINT and SIGTERM ask the run to stop (on_stop_signal). */
void run_catch_stop(const sigset_t *old_mask)
{
	struct sigaction sa = { .sa_handler = on_stop_signal,
				.sa_flags = SA_RESTART | SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	run_stop_signal = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	pthread_sigmask(SIG_SETMASK, old_mask, NULL);
}

static int open_backend(struct run *r, const sigset_t *stop_set)
{
	sigset_t old_mask;

	pthread_sigmask(SIG_BLOCK, stop_set, &old_mask);
	if (run_backend_open(r)) {
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
		fprintf(stderr, "navibench run: %s\n", r->open_err);
		return r->isa ? NB_EXIT_USAGE : NB_EXIT_FAIL;
	}
	run_catch_stop(&old_mask);
	return 0;
}

/* The selected tests, fp32-peak first: the others are shown as a share of it. */
void run_tests(struct run *r)
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
	for (int i = 0; i < NB_TEST_COUNT; i++) {
		if (!r->tests_arg && !nb_test_available(r->ops, i))
			r->selected[i] = false;
		r->count += r->selected[i];
	}
	if (!r->selected[NB_TEST_PEAK] &&
	    (r->selected[NB_TEST_MONO] || r->selected[NB_TEST_COLOR] ||
	     r->selected[NB_TEST_GATES] || r->selected[NB_TEST_TRAIN]))
		measure_peak(r);
	for (int k = 0; k < NB_TEST_COUNT; k++) {
		enum nb_test_id id = order[k];

		if (!r->selected[id] || run_stop_signal)
			continue;
		r->index++;
		nb_bench_run(r->ops, r->ctx, id, &cfg, r->peak, &tmp[id]);
		if (!tmp[id].error[0])
			nb_monitor_window(mon, tmp[id].time.begin, tmp[id].time.end,
					  tmp[id].value, tmp[id].test->unit, &tel[id]);
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

/*
 * --textfile DIR: the JSON result, made in memory by the run_emit() that
 * --json writes (one run: r; --device all: the n runs), as metrics
 * (cmd/run_textfile.c). 0, or an exit status after saying why.
 */
int run_textfile_write(struct run *r, struct run *runs, int n, const char *note,
			  const char *date)
{
	const struct nb_print_ops *json = nb_format_ops(NB_FORMAT_JSON);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = NB_EXIT_FAIL;

	if (f && r) {
		struct nb_print *p = nb_print_open_file(json, f, "run");

		run_emit(r, p);
		rc = nb_print_close(p) ? NB_EXIT_FAIL : NB_EXIT_OK;
	} else if (f) {
		rc = run_emit_all(runs, n, note, date, json, NULL, f) < 0 ? NB_EXIT_FAIL : NB_EXIT_OK;
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

		run_emit(r, p);
		nb_print_close(p);
	}
	if (common->json) {
		struct nb_print *p = nb_print_open(nb_format_ops(NB_FORMAT_JSON),
						   common->json_path, "run");

		run_emit(r, p);
		if (nb_print_close(p))
			valid = false;
	}
	if (r->textfile && run_textfile_write(r, NULL, 0, NULL, NULL))
		valid = false;
	return valid;
}

/*
 * The backend for the device: its plugin's when it has one, else, for the
 * CPU device, the CPU backend. A GPU (or a simulated GPU) with no usable
 * GPU backend is never benchmarked under its own name: r->nocompute says
 * why (the plugin loader's one-line notice, or no runtime reporting its PCI
 * address) and r->fix what to do. Returns whether the device can compute.
 */
bool run_select_backend(struct run *r, bool asked_cpu)
{
	const struct nb_gpu_plugin *g = nb_plugins_get(r->dev.plugin);
	const char *notice = nb_plugins_notice();

	r->ops = &nb_cpu_backend;
	r->device_note = r->note;
	r->nocompute[0] = '\0';
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
		snprintf(r->nocompute, sizeof(r->nocompute),
			 "a simulated GPU has telemetry only: nothing computes on it");
		r->fix = "run the suite on the CPU with --device cpu";
	} else if (notice[0]) {
		snprintf(r->nocompute, sizeof(r->nocompute), "no GPU backend: %s", notice);
		r->fix = "install the GPU runtime and navibench's plugin for it (ROCm's HIP "
			 "runtime and libnavibench_hip.so, built by make -C hip; "
			 "NAVIBENCH_PLUGIN_DIR says where to look), or run the suite on the "
			 "CPU with --device cpu";
	} else {
		snprintf(r->nocompute, sizeof(r->nocompute),
			 "no GPU backend for %s: no plugin's runtime reports this PCI address",
			 r->dev.pci);
		r->fix = "check that the GPU runtime sees this GPU (rocminfo; "
			 "HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES), or run the suite on the "
			 "CPU with --device cpu";
	}
	if (r->nocompute[0])
		snprintf(r->note, sizeof(r->note), "cannot compute: %s", r->nocompute);
	return !r->nocompute[0];
}

/*
 * run --device N on a device that cannot compute: the reason and the fix,
 * on stderr, and with --json as an error document (error.schema.json)
 * where the result would have gone. Nothing has run. NB_EXIT_NOCOMPUTE.
 */
static int refuse_nocompute(const struct run *r, const struct cli_common *common)
{
	fprintf(stderr, "navibench run: device %d (%s) cannot compute: %s\n"
		"navibench run: fix: %s\n", r->dev.index, r->dev.name, r->nocompute, r->fix);
	if (common->json) {
		struct nb_print *p = nb_print_open(nb_format_ops(NB_FORMAT_JSON),
						   common->json_path, "run");

		nb_str(p, "schema", NULL, "navibench-error");
		nb_i64(p, "schema_version", NULL, 1, NULL);
		nb_time(p, "time", NULL);
		nb_str(p, "command", NULL, "run");
		nb_i64(p, "exit_status", NULL, NB_EXIT_NOCOMPUTE, NULL);
		nb_str(p, "error", NULL, "device cannot compute");
		nb_obj_begin(p, "device", NULL);
		nb_i64(p, "index", NULL, r->dev.index, NULL);
		nb_str(p, "kind", NULL, nb_device_kind_name(r->dev.kind));
		nb_str(p, "name", NULL, r->dev.name);
		if (r->dev.pci[0])
			nb_str(p, "pci", NULL, r->dev.pci);
		else
			nb_missing(p, "pci", NULL, NULL);
		nb_obj_end(p);
		nb_str(p, "reason", NULL, r->nocompute);
		nb_str(p, "fix", NULL, r->fix);
		nb_print_close(p);
	}
	return NB_EXIT_NOCOMPUTE;
}

bool run_valid(const struct run *r)
{
	bool valid = r->complete;

	for (int i = 0; i < r->nres; i++)
		valid &= !r->res[i].error[0] && r->res[i].valid.pass;
	return valid;
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
	if (!run_select_backend(r, !strcmp(common->device, "cpu")))
		return refuse_nocompute(r, common);
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
		printf("navibench run: on the %s, device %d (%s): %s\n",
		       r->ops == &nb_cpu_backend ? "host CPU" : "GPU", r->dev.index,
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
		rc = 128 + run_stop_signal;
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	static struct run r;
	const struct cli_option opts[] = {
		CLI_STRING_OPT("tests", 't', &r.tests_arg, "LIST",
			       "comma-separated tests (default: every test the backend runs; convlstm-train needs a training step, the CPU backend's): convlstm-mono, convlstm-color, convlstm-gates, fp32-peak, mem-bandwidth, convlstm-train"),
		CLI_INT_OPT("batch", 'b', &r.batch, "N", 1, 256,
			    "batch size for the model and gate tests (non-standard)"),
		CLI_INT_OPT("frames", 'f', &r.frames, "N", 1, 1000,
			    "frames per sequence for the model tests (non-standard)"),
		CLI_INT_OPT("threads", 0, &r.threads, "N", 0, 256,
			    "CPU threads (default 0: all cores)"),
		CLI_FLAG_OPT("quick", 'q', &r.quick,
			     "short timing (0.5 s per test, 6 repeats at least: enough for compare to judge; convlstm-train in a short form, batch 2 x 1 frame, not scored), for CI"),
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
			"reference device (1000 = the reference). A GPU without a usable GPU\n"
			"backend is refused before any test (exit 4), with the reason and the fix;\n"
			"--device cpu runs the CPU. --device all runs the suite on\n"
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
