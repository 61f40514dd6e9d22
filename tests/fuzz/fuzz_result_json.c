// SPDX-License-Identifier: MIT
/*
 * The run result as `navibench run --json FILE` writes it: run_emit() of
 * user/cmd/run_print.c (user/cmd/run.c included here, for its static
 * functions) through the print layer and nb_print_close() into a file,
 * read back with json-c and checked against user/engine/result-schema.md,
 * in C.
 *
 * No part of navibench reads a result back (its readers are jq scripts:
 * tests/engine/schema.jq, engine/mkreference, scripts/bench-cpu), so what
 * is fuzzed is the writer: the input is a run result (the seeds are real
 * ones), parsed leniently into the struct the run fills (any field may be
 * missing, of the wrong type, NaN, Infinity, or a string of any bytes),
 * written out, and the file must be JSON that follows the schema and
 * carries the same names, values and messages. Text mode is printed too
 * (to /dev/null), for the table layout.
 */
#include "fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>

#include "cmd/run.c"

static char out_dir[64], out_path[128];
static char detail[128];
static long fake_threads;

static const char *fake_describe(void *ctx)
{
	(void)ctx;
	return detail;
}

static int fake_threads_of(void *ctx)
{
	(void)ctx;
	return (int)fake_threads;
}

static const struct nb_backend_ops fake_ops = {
	.name = "cpu",
	.describe = fake_describe,
	.threads = fake_threads_of,
};

static void cleanup(void)
{
	unlink(out_path);
	rmdir(out_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	(void)argc;
	(void)argv;
	/* the text output: not wanted, yet printed */
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	close(null);
	/* tmpfs when there is one: nb_write_file_atomic() syncs the file */
	snprintf(out_dir, sizeof(out_dir), "%s/nb-fuzz-json.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(out_dir))
		abort();
	snprintf(out_path, sizeof(out_path), "%s/r.json", out_dir);
	atexit(cleanup);
	return 0;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_num(struct json_object *o)
{
	return json_object_is_type(o, json_type_double) ||
	       json_object_is_type(o, json_type_int);
}

static double num(struct json_object *o, double def)
{
	return is_num(o) ? json_object_get_double(o) : def;
}

static long integer(struct json_object *o, long def)
{
	return json_object_is_type(o, json_type_int) ? (long)json_object_get_int64(o) : def;
}

static bool boolean(struct json_object *o, bool def)
{
	return json_object_is_type(o, json_type_boolean) ? json_object_get_boolean(o) : def;
}

static const char *str(struct json_object *o, const char *def)
{
	return json_object_is_type(o, json_type_string) ? json_object_get_string(o) : def;
}

/* ---- the schema (result-schema.md), on what was written ---- */

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	FUZZ_CHECK(json_object_is_type(o, json_type_object), "parent of %s not an object", key);
	FUZZ_CHECK(json_object_object_get_ex(o, key, &v), "%s missing", key);
	return v;
}

#define MUST(o, key, cond)							\
	do {									\
		struct json_object *v_ = member(o, key);			\
		FUZZ_CHECK(cond(v_), "%s: wrong type (%s)", key,		\
			   json_type_to_name(json_object_get_type(v_)));	\
	} while (0)

static bool t_str(struct json_object *o) { return json_object_is_type(o, json_type_string); }
static bool t_int(struct json_object *o) { return json_object_is_type(o, json_type_int); }
static bool t_bool(struct json_object *o) { return json_object_is_type(o, json_type_boolean); }
static bool t_obj(struct json_object *o) { return json_object_is_type(o, json_type_object); }
static bool t_numnull(struct json_object *o) { return !o || is_num(o); }
static bool t_strnull(struct json_object *o) { return !o || t_str(o); }
static bool t_intnull(struct json_object *o) { return !o || t_int(o); }
static bool t_objnull(struct json_object *o) { return !o || t_obj(o); }

/* a double as written: the same number, or null when not finite */
static void same_num(struct json_object *o, const char *key, double in)
{
	struct json_object *v = member(o, key);

	if (!isfinite(in))
		FUZZ_CHECK(!v, "%s: %g written as %s", key, in, json_object_to_json_string(v));
	else
		FUZZ_CHECK(is_num(v) && json_object_get_double(v) == in,
			   "%s: %.17g written as %s", key, in, json_object_to_json_string(v));
}

static void same_str(struct json_object *o, const char *key, const char *in)
{
	const char *s = str(member(o, key), NULL);

	FUZZ_CHECK(s && !strcmp(s, in), "%s: '%s' written as '%s'", key, in, s ? s : "(none)");
}

/* the system record: what was read is written, what was not is absent */
static void opt_same(struct json_object *o, const char *key, const char *in)
{
	if (in[0])
		same_str(o, key, in);
	else
		FUZZ_CHECK(!get(o, key), "%s: absent when unknown, not \"\"", key);
}

static void check_system(const struct run *r, struct json_object *sys)
{
	struct json_object *o;

	MUST(sys, "navibench", t_obj);
	same_str(member(sys, "navibench"), "version", NAVIBENCH_VERSION);
	MUST(sys, "kernel", t_obj);
	opt_same(member(sys, "kernel"), "release", r->sys.kernel_release);
	opt_same(sys, "os", r->sys.os);
	MUST(sys, "cpu", t_obj);
	opt_same(member(sys, "cpu"), "model", r->sys.cpu_model);
	opt_same(member(sys, "cpu"), "governor", r->sys.governor);
	o = member(sys, "load_average");
	FUZZ_CHECK(!r->sys.load_start.known == !get(o, "start"), "load_average.start");
	if (r->sys.load_start.known)
		FUZZ_CHECK(json_object_array_length(get(o, "start")) == 3,
			   "load_average.start: not 3 values");
	FUZZ_CHECK(!get(sys, "device_info"), "device_info without a device");
}

static void same_tstat(struct json_object *o, const char *key, const struct nb_tstat *st)
{
	struct json_object *v = member(o, key);

	FUZZ_CHECK(!st->n == !v, "telemetry.%s: null iff no sample had it", key);
	if (v) {
		same_num(v, "min", st->min);
		same_num(v, "avg", st->avg);
		same_num(v, "max", st->max);
	}
}

/* tests[].telemetry: null when off or the test did not run, else as given */
static void check_telemetry(struct json_object *e, const struct nb_test_result *t,
			    const struct nb_telemetry *tm)
{
	static const char *const keys[] = { "t_s", "clock_mhz", "temperature_c", "power_w" };
	struct json_object *o = member(e, "telemetry"), *ser, *pj, *rs;

	if (t->error[0] || !tm->ran) {
		FUZZ_CHECK(!o, "telemetry for a test without it");
		return;
	}
	FUZZ_CHECK(t_obj(o), "telemetry: not an object");
	same_str(o, "method", tm->method);
	same_str(o, "source", tm->source);
	same_num(o, "interval_s", tm->interval_s);
	same_num(o, "window_s", tm->window_s);
	FUZZ_CHECK(integer(member(o, "samples"), -1) == tm->samples, "telemetry.samples");
	same_tstat(o, "clock_mhz", &tm->clock_mhz);
	same_tstat(o, "temperature_c", &tm->temp_c);
	same_tstat(o, "power_w", &tm->power_w);
	same_num(o, "energy_j", tm->energy_j);
	pj = member(o, "per_joule");
	FUZZ_CHECK(!pj == !isfinite(tm->per_joule), "per_joule: null iff unknown");
	if (pj) {
		same_num(pj, "value", tm->per_joule);
		same_str(pj, "unit", tm->per_joule_unit);
	}
	rs = member(o, "throttle_reasons");
	FUZZ_CHECK(!rs == !tm->throttle_known, "throttle_reasons: null iff unknown");
	for (int i = 0; rs && i < tm->nreasons; i++) {
		const char *x = str(json_object_array_get_idx(rs, i), NULL);

		FUZZ_CHECK(x && !strcmp(x, tm->reasons[i]), "throttle_reasons[%d]", i);
	}
	same_num(o, "sampler_cpu_s", tm->sampler_cpu_s);
	same_str(o, "missing", tm->missing);
	ser = member(o, "series");
	for (int k = 0; k < 4; k++) {
		struct json_object *a = member(ser, keys[k]);

		FUZZ_CHECK(json_object_is_type(a, json_type_array) &&
			   (int)json_object_array_length(a) == tm->nseries,
			   "series.%s: not %d values", keys[k], tm->nseries);
		for (int i = 0; i < tm->nseries; i++) {
			const double *v = &tm->series[i].t + k;
			struct json_object *x = json_object_array_get_idx(a, i);

			FUZZ_CHECK(isfinite(*v) ? is_num(x) && json_object_get_double(x) == *v : !x,
				   "series.%s[%d]", keys[k], i);
		}
	}
}

/* @text as one strict JSON document ending in a newline. */
static struct json_object *parse_written(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;
	enum json_tokener_error jerr;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);

	json_tokener_free(tok);
	FUZZ_CHECK(root && jerr == json_tokener_success, "not JSON (%s at byte %zu of %zu)",
		   json_tokener_error_desc(jerr), end, len);
	FUZZ_CHECK(end <= len && strspn(text + end, " \n") == len - end,
		   "more than one JSON document (it ends at byte %zu of %zu)", end, len);
	FUZZ_CHECK(len && text[len - 1] == '\n', "no final newline");
	return root;
}

static void check_device(const struct run *r, struct json_object *o)
{
	const char *kind;

	MUST(o, "index", t_int);
	FUZZ_CHECK(integer(member(o, "index"), -1) == r->dev.index, "device.index");
	MUST(o, "kind", t_str);
	kind = str(member(o, "kind"), "?");
	FUZZ_CHECK(!strcmp(kind, "cpu") || !strcmp(kind, "hip") || !strcmp(kind, "amdgpu") ||
		   !strcmp(kind, "sim"),
		   "device.kind %s", kind);
	same_str(o, "name", r->dev.name);
	if (r->dev.pci[0])
		same_str(o, "pci", r->dev.pci);
	else
		FUZZ_CHECK(!get(o, "pci"), "device.pci present without a PCI address");
	same_str(o, "backend", "cpu");
	same_str(o, "backend_detail", detail);
	same_str(o, "note", r->device_note);
}

static void check_configuration(const struct run *r, struct json_object *o)
{
	MUST(o, "quick", t_bool);
	MUST(o, "threads", t_int);
	MUST(o, "seed", t_int);
	FUZZ_CHECK(integer(member(o, "seed"), -1) == r->seed, "seed");
	MUST(o, "weights", t_strnull);
	MUST(o, "peak_gflops", t_numnull);
	same_num(o, "peak_gflops", r->peak);
	same_str(o, "peak_source", r->peak_from);
}

/* A test's "validation" (null when it could not run) and "times_s". */
static void check_validation_times(struct json_object *e, const struct nb_test_result *t)
{
	struct json_object *v = member(e, "validation");

	FUZZ_CHECK(!v == !!t->error[0], "validation null iff the test has an error");
	if (v) {
		MUST(v, "pass", t_bool);
		FUZZ_CHECK(boolean(member(v, "pass"), 0) == t->valid.pass, "validation.pass");
		same_num(v, "max_abs_error", t->valid.max_abs);
		same_num(v, "max_rel_error", t->valid.max_rel);
		same_num(v, "tolerance_abs", t->valid.tol_abs);
		same_num(v, "tolerance_rel", t->valid.tol_rel);
		same_str(v, "input", t->valid.input);
		same_str(v, "reason", t->valid.reason ? t->valid.reason : "");
	}
	v = member(e, "times_s");
	if (t->error[0]) {
		FUZZ_CHECK(!v, "times_s for a test that could not run");
		return;
	}
	FUZZ_CHECK(json_object_is_type(v, json_type_array) &&
		   (int)json_object_array_length(v) ==
		   (t->time.repeats < 0 ? 0 : t->time.repeats),
		   "times_s: not %d times", t->time.repeats);
	for (int k = 0; k < t->time.repeats; k++) {
		struct json_object *x = json_object_array_get_idx(v, k);

		if (isfinite(t->time.times[k]))
			FUZZ_CHECK(is_num(x) && json_object_get_double(x) ==
				   t->time.times[k], "times_s[%d]", k);
		else
			FUZZ_CHECK(!x, "times_s[%d]: %g not null", k, t->time.times[k]);
	}
}

/* One entry @e of "tests", written from @t. */
static void check_test(struct json_object *e, const struct nb_test_result *t)
{
	const char *status;

	same_str(e, "name", t->test->name);
	same_num(e, "value", t->value);
	same_str(e, "unit", t->test->unit);
	FUZZ_CHECK(!strcmp(t->test->unit, "frames/s") || !strcmp(t->test->unit, "GFLOP/s") ||
		   !strcmp(t->test->unit, "GB/s"), "unit %s", t->test->unit);
	same_num(e, "best", t->best);
	MUST(e, "cv", t_numnull);
	same_num(e, "gflops", t->rate_gflops);
	same_num(e, "percent_of_peak", t->percent_of_peak);
	MUST(e, "validation", t_objnull);
	MUST(e, "score", t_numnull);
	if (!t->standard || !t->valid.pass)
		FUZZ_CHECK(!member(e, "score"), "a score for a non-standard or invalid result");
	status = str(member(e, "status"), "?");
	FUZZ_CHECK(!strcmp(status, t->error[0] ? "error" : t->valid.pass ? "ok" : "INVALID"),
		   "status %s", status);
	if (t->error[0])
		same_str(e, "error", t->error);
	else
		FUZZ_CHECK(!member(e, "error"), "error not null without an error");
	MUST(e, "standard", t_bool);
	MUST(e, "batch", t_intnull);
	MUST(e, "frames", t_intnull);
	MUST(e, "median_s", t_numnull);
	MUST(e, "min_s", t_numnull);
	MUST(e, "repeats", t_int);
	FUZZ_CHECK(integer(member(e, "repeats"), -1) == t->time.repeats, "repeats");
	same_num(e, "work_per_repeat", t->work);
	MUST(e, "reference_value", t_numnull);
	same_str(e, "description", t->test->what);
	check_validation_times(e, t);
}

static void check_score(const struct run *r, struct json_object *o)
{
	MUST(o, "value", t_numnull);
	if (!r->complete)
		FUZZ_CHECK(!member(o, "value"), "a score for an incomplete run");
	MUST(o, "method", t_str);
	MUST(o, "reference", t_obj);
	MUST(member(o, "reference"), "machine", t_str);
	MUST(member(o, "reference"), "cpu", t_str);
	MUST(member(o, "reference"), "date", t_str);
	same_str(o, "reference_id", nb_reference.id);
}

static void check_written(const struct run *r, const char *text, size_t len)
{
	struct json_object *root = parse_written(text, len), *tests;

	same_str(root, "schema", "navibench-run");
	FUZZ_CHECK(integer(member(root, "schema_version"), 0) == RUN_SCHEMA_VERSION, "schema_version");
	same_str(root, "date", r->date);
	MUST(root, "complete", t_bool);
	FUZZ_CHECK(boolean(member(root, "complete"), 0) == r->complete, "complete");
	check_device(r, member(root, "device"));
	check_configuration(r, member(root, "configuration"));
	tests = member(root, "tests");
	FUZZ_CHECK(json_object_is_type(tests, json_type_array) &&
		   (int)json_object_array_length(tests) == r->nres, "tests: not %d", r->nres);
	for (int i = 0; i < r->nres; i++) {
		struct json_object *e = json_object_array_get_idx(tests, i);

		check_test(e, &r->res[i]);
		check_telemetry(e, &r->res[i], &r->telem[i]);
	}
	check_score(r, member(root, "score"));
	check_system(r, member(root, "system"));
	MUST(root, "valid", t_bool);
	if (!r->complete)
		FUZZ_CHECK(!boolean(member(root, "valid"), 1), "an incomplete run marked valid");
	json_object_put(root);
}

/* ---- the input: a run result, read leniently ---- */

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

static void tstat_from_json(struct nb_tstat *st, struct json_object *o)
{
	st->n = json_object_is_type(o, json_type_object);
	st->min = num(get(o, "min"), NAN);
	st->avg = num(get(o, "avg"), NAN);
	st->max = num(get(o, "max"), NAN);
}

/* tests[].telemetry, leniently; the series as long as t_s */
static void telemetry_from_json(struct nb_telemetry *tm, struct json_object *o)
{
	struct json_object *ser = get(o, "series"), *t = get(ser, "t_s"), *pj = get(o, "per_joule");
	struct json_object *rs = get(o, "throttle_reasons");
	static const char *const keys[] = { "t_s", "clock_mhz", "temperature_c", "power_w" };
	size_t n = json_object_is_type(t, json_type_array) ? json_object_array_length(t) : 0;

	tm->ran = json_object_is_type(o, json_type_object);
	tm->method = str(get(o, "method"), "sampler");
	copy(tm->source, sizeof(tm->source), str(get(o, "source"), ""));
	tm->interval_s = num(get(o, "interval_s"), NAN);
	tm->window_s = num(get(o, "window_s"), NAN);
	tm->samples = (int)integer(get(o, "samples"), 0);
	tstat_from_json(&tm->clock_mhz, get(o, "clock_mhz"));
	tstat_from_json(&tm->temp_c, get(o, "temperature_c"));
	tstat_from_json(&tm->power_w, get(o, "power_w"));
	tm->energy_j = num(get(o, "energy_j"), NAN);
	tm->per_joule = num(get(pj, "value"), NAN);
	copy(tm->per_joule_unit, sizeof(tm->per_joule_unit), str(get(pj, "unit"), ""));
	tm->throttle_known = json_object_is_type(rs, json_type_array);
	for (size_t i = 0; tm->throttle_known && i < json_object_array_length(rs) &&
	     tm->nreasons < NB_TELEM_REASONS; i++)
		copy(tm->reasons[tm->nreasons++], sizeof(tm->reasons[0]),
		     str(json_object_array_get_idx(rs, i), ""));
	tm->sampler_cpu_s = num(get(o, "sampler_cpu_s"), NAN);
	copy(tm->missing, sizeof(tm->missing), str(get(o, "missing"), ""));
	if (n > NB_TELEM_SERIES_MAX)
		n = NB_TELEM_SERIES_MAX;
	tm->series = n ? calloc(n, sizeof(*tm->series)) : NULL;
	for (size_t i = 0; tm->series && i < n; i++) {
		double *v[] = { &tm->series[i].t, &tm->series[i].clock_mhz,
				&tm->series[i].temp_c, &tm->series[i].power_w };

		for (int k = 0; k < 4; k++) {
			struct json_object *a = get(ser, keys[k]);

			*v[k] = num(json_object_is_type(a, json_type_array) ?
				    json_object_array_get_idx(a, i) : NULL, NAN);
		}
		tm->nseries++;
	}
}

static void from_json(struct run *r, struct json_object *in)
{
	struct json_object *dev = get(in, "device"), *cfg = get(in, "configuration");
	struct json_object *tests = get(in, "tests");
	const char *kind = str(get(dev, "kind"), "cpu");

	for (int i = 0; i < NB_TEST_COUNT; i++)
		nb_telemetry_free(&r->telem[i]);
	memset(r, 0, sizeof(*r));
	copy(r->date, sizeof(r->date), str(get(in, "date"), ""));
	r->complete = boolean(get(in, "complete"), true);
	r->dev.index = (int)integer(get(dev, "index"), 0);
	r->dev.kind = !strcmp(kind, "cpu") ? NB_DEV_CPU :
		      !strcmp(kind, "hip") ? NB_DEV_PLUGIN :
		      !strcmp(kind, "sim") ? NB_DEV_SIM : NB_DEV_AMDGPU;
	copy(r->dev.name, sizeof(r->dev.name), str(get(dev, "name"), ""));
	copy(r->dev.pci, sizeof(r->dev.pci), str(get(dev, "pci"), ""));
	r->device_note = str(get(dev, "note"), "");
	copy(detail, sizeof(detail), str(get(dev, "backend_detail"), ""));
	r->ops = &fake_ops;
	r->quick = boolean(get(cfg, "quick"), false);
	fake_threads = integer(get(cfg, "threads"), 1);
	r->seed = integer(get(cfg, "seed"), 1);
	r->weights_path = str(get(cfg, "weights"), NULL);
	r->peak = num(get(cfg, "peak_gflops"), NAN);
	r->peak_from = str(get(cfg, "peak_source"), "not measured");

	struct json_object *sys = get(in, "system"), *la = get(get(sys, "load_average"), "start");

	copy(r->sys.kernel_release, sizeof(r->sys.kernel_release),
	     str(get(get(sys, "kernel"), "release"), ""));
	copy(r->sys.os, sizeof(r->sys.os), str(get(sys, "os"), ""));
	copy(r->sys.cpu_model, sizeof(r->sys.cpu_model), str(get(get(sys, "cpu"), "model"), ""));
	copy(r->sys.governor, sizeof(r->sys.governor), str(get(get(sys, "cpu"), "governor"), ""));
	r->sys.load_start.known = json_object_is_type(la, json_type_array);
	for (int k = 0; k < 3 && r->sys.load_start.known; k++)
		r->sys.load_start.v[k] = num(json_object_array_get_idx(la, k), 0);

	for (size_t i = 0; json_object_is_type(tests, json_type_array) &&
	     i < json_object_array_length(tests) && r->nres < NB_TEST_COUNT; i++) {
		struct json_object *e = json_object_array_get_idx(tests, i);
		struct json_object *v = get(e, "validation");
		struct nb_test_result *t = &r->res[r->nres++];
		const struct nb_test_info *ti = nb_test_find(str(get(e, "name"), ""));

		t->test = ti ? ti : nb_test_get((enum nb_test_id)(i % NB_TEST_COUNT));
		t->standard = boolean(get(e, "standard"), true);
		t->batch = (int)integer(get(e, "batch"), 0);
		t->frames = (int)integer(get(e, "frames"), 0);
		t->value = num(get(e, "value"), NAN);
		t->best = num(get(e, "best"), NAN);
		t->work = num(get(e, "work_per_repeat"), NAN);
		t->rate_gflops = num(get(e, "gflops"), NAN);
		t->percent_of_peak = num(get(e, "percent_of_peak"), NAN);
		t->time.repeats = (int)integer(get(e, "repeats"), 0);
		t->time.median = num(get(e, "median_s"), NAN);
		t->time.min = num(get(e, "min_s"), NAN);
		t->time.cv = num(get(e, "cv"), NAN);
		t->valid.ran = v != NULL;
		t->valid.pass = boolean(get(v, "pass"), false);
		t->valid.max_abs = num(get(v, "max_abs_error"), NAN);
		t->valid.max_rel = num(get(v, "max_rel_error"), NAN);
		t->valid.tol_abs = num(get(v, "tolerance_abs"), NAN);
		t->valid.tol_rel = num(get(v, "tolerance_rel"), NAN);
		copy(t->valid.input, sizeof(t->valid.input), str(get(v, "input"), ""));
		t->valid.reason = str(get(v, "reason"), NULL);
		copy(t->error, sizeof(t->error), str(get(e, "error"), ""));
		struct json_object *ts = get(e, "times_s");

		for (int k = 0; k < t->time.repeats && k < NB_MAX_REPEATS; k++)
			t->time.times[k] = num(json_object_is_type(ts, json_type_array) ?
					       json_object_array_get_idx(ts, k) : NULL, NAN);
		if (t->time.repeats > NB_MAX_REPEATS)
			t->time.repeats = NB_MAX_REPEATS;
		telemetry_from_json(&r->telem[r->nres - 1], get(e, "telemetry"));
	}
	r->count = r->nres + !r->complete;
}

static void no_temporary_left(void)
{
	DIR *d = opendir(out_dir);
	struct dirent *e;

	FUZZ_CHECK(d, "%s gone", out_dir);
	while ((e = readdir(d)))
		FUZZ_CHECK(!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
			   !strcmp(e->d_name, "r.json"), "left behind: %s", e->d_name);
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run r;
	struct nb_print *p;
	struct json_tokener *tok;
	struct json_object *in;
	char *text;
	size_t len = 0, cap = 0;
	FILE *f;

	if (size > (1u << 20))
		return 0;
	tok = json_tokener_new();
	in = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!json_object_is_type(in, json_type_object)) {
		json_object_put(in);
		return 0;
	}
	from_json(&r, in);

	p = nb_print_open(nb_format_ops(NB_FORMAT_TEXT), NULL, "run");
	run_emit(&r, p);
	FUZZ_CHECK(nb_print_close(p) == NB_EXIT_OK, "text output failed");
	p = nb_print_open(nb_format_ops(NB_FORMAT_JSON), out_path, "run");
	run_emit(&r, p);
	FUZZ_CHECK(nb_print_close(p) == NB_EXIT_OK, "cannot write %s", out_path);
	no_temporary_left();

	f = fopen(out_path, "r");
	FUZZ_CHECK(f, "%s not written", out_path);
	text = NULL;
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? 2 * cap : 65536;
			text = realloc(text, cap);
			if (!text)
				abort();
		}
		size_t n = fread(text + len, 1, cap - len - 1, f);

		if (!n)
			break;
		len += n;
	}
	fclose(f);
	text[len] = '\0';
	check_written(&r, text, len);
	free(text);
	json_object_put(in);
	return 0;
}
