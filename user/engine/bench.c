// SPDX-License-Identifier: MIT
/*
 * The benchmark's tests: what each runs, how it is timed, how its result is
 * validated against the reference, and the score.
 *
 * Timing (as clpeak does it): one warm-up repeat, which also sizes the
 * repeat count to a target duration; every repeat timed on its own, so the
 * median, the minimum and the coefficient of variation come from the same
 * samples. The result is computed from the median.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/train.h"

static const struct nb_test_info tests[NB_TEST_COUNT] = {
	[NB_TEST_MONO] = {
		.id = NB_TEST_MONO, .name = "convlstm-mono", .unit = "frames/s",
		.model = "convlstm-mono", .batch = 8, .frames = 15,
		.percent_of_peak = true,
		.what = "Keras conv_lstm example: 4 x ConvLSTM2D(40) + BN, Conv3D head, 40x40x1",
	},
	[NB_TEST_COLOR] = {
		.id = NB_TEST_COLOR, .name = "convlstm-color", .unit = "frames/s",
		.model = "convlstm-color", .batch = 4, .frames = 10,
		.percent_of_peak = true,
		.what = "4 x ConvLSTM2D(40) + BN, Conv2D next-frame head, 64x64x3",
	},
	[NB_TEST_GATES] = {
		.id = NB_TEST_GATES, .name = "convlstm-gates", .unit = "GFLOP/s",
		.batch = 8, .frames = 1, .percent_of_peak = true,
		.what = "one fused gate convolution + gate step, 40x40, Cin 40, 40 filters",
	},
	[NB_TEST_PEAK] = {
		.id = NB_TEST_PEAK, .name = "fp32-peak", .unit = "GFLOP/s",
		.what = "independent float32 FMAs on every thread",
	},
	[NB_TEST_BW] = {
		.id = NB_TEST_BW, .name = "mem-bandwidth", .unit = "GB/s",
		.what = "STREAM triad a = b + s c over 3 x 64 MiB",
	},
	/*
	 * Training frames per second: batch x frames / the median step. Its
	 * GFLOP/s from nb_flops_train() (train.h: forward plus backward,
	 * written out there). In the suite and the composite score on a
	 * backend with a training step (the CPU's; no GPU backend has one
	 * yet). One standard step takes seconds to a minute on a CPU, so
	 * --quick times a short form instead (quick_batch x quick_frames,
	 * not standard, no score) and the quick composite leaves it out.
	 */
	[NB_TEST_TRAIN] = {
		.id = NB_TEST_TRAIN, .name = "convlstm-train", .unit = "frames/s",
		.model = "convlstm-mono", .batch = 8, .frames = 10,
		.quick_batch = 2, .quick_frames = 1,
		.percent_of_peak = true,
		.what = "one training step of convlstm-mono: BatchNorm in training mode, binary cross-entropy, backpropagation through time, Adam",
	},
};

/* a backend's training step; NULL when it has none */
static const struct nb_train_ops *train_ops(const struct nb_backend_ops *ops)
{
	return ops == &nb_cpu_backend ? &nb_cpu_train : NULL;
}

bool nb_test_available(const struct nb_backend_ops *ops, enum nb_test_id id)
{
	return id != NB_TEST_TRAIN || train_ops(ops);
}

bool nb_test_scored(const struct nb_backend_ops *ops, bool quick, enum nb_test_id id)
{
	return nb_test_available(ops, id) && !(quick && nb_test_get(id)->quick_batch);
}

const struct nb_test_info *nb_test_get(enum nb_test_id id)
{
	return id < NB_TEST_COUNT ? &tests[id] : NULL;
}

const struct nb_test_info *nb_test_find(const char *name)
{
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (!strcmp(tests[i].name, name))
			return &tests[i];
	return NULL;
}

const char *nb_test_names(void)
{
	return "convlstm-mono, convlstm-color, convlstm-gates, fp32-peak, mem-bandwidth, convlstm-train";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void stats(const double *t, int n, struct nb_stats *s)
{
	double *c = malloc(sizeof(double) * n), sum = 0, var = 0;

	if (!c)
		abort();
	memcpy(c, t, sizeof(double) * n);
	qsort(c, n, sizeof(double), cmp_double);
	for (int i = 0; i < n; i++)
		sum += c[i];
	s->repeats = n;
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		var += (c[i] - s->mean) * (c[i] - s->mean);
	s->cv = n > 1 ? sqrt(var / (n - 1)) / s->mean : 0;
	s->median = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
	s->min = c[0];
	s->max = c[n - 1];
	memcpy(s->times, t, sizeof(double) * n);	/* kept for compare */
	free(c);
}

/* One repeat of a test. */
struct job {
	const struct nb_backend_ops *ops;
	void *ctx;
	int (*repeat)(struct job *j);
	/* model */
	void *prog;
	const float *in;
	float *out;
	int batch, frames;
	/* cell */
	void *cell;
	/* training */
	const struct nb_train_ops *train;
	void *tr;
	const float *target;
	/* peak */
	long iters;
	float lane;
	/* triad */
	float *a, *b, *c;
	size_t n;
	char err[256];
};

static int repeat_model(struct job *j)
{
	return j->ops->model_forward(j->ctx, j->prog, j->in, j->batch,
				     j->frames, j->out, j->err, sizeof(j->err));
}

static int repeat_train(struct job *j)
{
	double loss;

	if (j->train->step(j->ctx, j->tr, j->in, j->target, &loss, j->err,
			   sizeof(j->err)))
		return -1;
	if (!isfinite(loss)) {
		snprintf(j->err, sizeof(j->err), "training step: the loss is %g", loss);
		return -1;
	}
	return 0;
}

static int repeat_cell(struct job *j)
{
	j->ops->cell_step(j->ctx, j->cell);
	return 0;
}

static const float peak_m = 0.9999f, peak_k = 0.01f;

static int repeat_peak(struct job *j)
{
	j->ops->fma_peak(j->ctx, j->iters, peak_m, peak_k, &j->lane);
	if (isnan(j->lane)) {
		snprintf(j->err, sizeof(j->err),
			 "FMA peak loop: the lanes disagree");
		return -1;
	}
	return 0;
}

static int repeat_triad(struct job *j)
{
	j->ops->triad(j->ctx, j->a, j->b, j->c, 0.5f, j->n);
	return 0;
}

static void progress(const struct nb_run_config *cfg, const char *test,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#include <stdarg.h>
static void progress(const struct nb_run_config *cfg, const char *test,
		     const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	if (!cfg->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cfg->progress(cfg->progress_arg, test, buf);
}

#define MAX_REPEATS NB_MAX_REPEATS

/*
 * One repeat's time: the backend's device time for the call when it has
 * one (GPU backends: events on the stream), else the host clock's.
 */
static double repeat_time(const struct job *j, double host)
{
	double dev = j->ops->device_seconds ? j->ops->device_seconds(j->ctx) : NAN;

	return isfinite(dev) && dev > 0 ? dev : host;
}

#ifdef NB_TESTING
/*
 * A planted regression, in test builds only (make TESTING=1, -DNB_TESTING;
 * never in a release build): NAVIBENCH_TESTING_SLOWDOWN=TEST:FACTOR makes
 * each timed repeat of TEST last FACTOR times as long, the extra spent
 * asleep inside the repeat's host-clock time, so that compare's gate is
 * shown to fire on a known slowdown (tests/cli/gate.sh).
 */
static void planted_slowdown(const char *test, double t0)
{
	const char *env = getenv("NAVIBENCH_TESTING_SLOWDOWN");
	size_t len = strlen(test);
	double factor, extra;
	struct timespec ts;

	if (!env || strncmp(env, test, len) || env[len] != ':')
		return;
	factor = strtod(env + len + 1, NULL);
	extra = (factor - 1) * (now() - t0);
	if (!(extra > 0))
		return;
	ts.tv_sec = (time_t)extra;
	ts.tv_nsec = (long)((extra - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}
#else
static inline void planted_slowdown(const char *test, double t0)
{
	(void)test;
	(void)t0;
}
#endif

/*
 * --quick: 0.5 s and 6 repeats at least, so that compare's rank test can
 * judge two quick runs (6 against 6: p down to 0.002, below 5% split over
 * the five tests by Holm's correction); else 3 s and 5 at least.
 */
static int timed(struct job *j, const struct nb_run_config *cfg,
		 const char *test, struct nb_stats *st)
{
	double target = cfg->quick ? 0.5 : 3.0;
	int min_reps = cfg->quick ? NB_QUICK_MIN_REPEATS : 5;
	double t[MAX_REPEATS];

	progress(cfg, test, "warm-up");
	double t0 = now();
	if (j->repeat(j))
		return -1;
	double warm = repeat_time(j, now() - t0);
	int reps = warm > 0 ? (int)ceil(target / warm) : MAX_REPEATS;

	if (reps < min_reps)
		reps = min_reps;
	if (reps > MAX_REPEATS)
		reps = MAX_REPEATS;
	double begin = now();

	for (int i = 0; i < reps; i++) {
		progress(cfg, test, "repeat %d/%d", i + 1, reps);
		t0 = now();
		if (j->repeat(j))
			return -1;
		planted_slowdown(test, t0);
		t[i] = repeat_time(j, now() - t0);
	}
	stats(t, reps, st);
	st->begin = begin;
	st->end = now();
	return 0;
}

/* |d| <= tol_abs + tol_rel |ref| on every value, numpy.allclose's rule */
static void compare(struct nb_validation *v, const float *got,
		    const float *ref, size_t n)
{
	v->ran = true;
	v->pass = true;
	v->max_abs = 0;
	v->max_rel = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)got[i] - ref[i]), a = fabs((double)ref[i]);

		if (!(d <= v->tol_abs + v->tol_rel * a))
			v->pass = false;	/* NaN fails too */
		if (!(d <= v->max_abs))
			v->max_abs = d;
		if (a >= 1e-3 && !(d / a <= v->max_rel))
			v->max_rel = d / a;
	}
}

static const char model_reason[] =
	"float32 with FMA contraction and another summation order changes the "
	"last bits of each of the 9 (Cin + F) products per gate; the difference "
	"grows through the layers and time steps to about 1e-7, and 1e-4 still "
	"catches a wrong weight, tap or gate (>= 1e-2)";
static const char cell_reason[] =
	"one step: float32 sums of 9 (Cin + F) products in another order and "
	"with FMA contraction differ from double sums by about 1e-6";
static const char exact_reason[] =
	"the same correctly rounded operations in the same order: bit-exact";

#define VALIDATION_SEED 20260

/* items 0 and batch - 1: a batch offset error shows in one of them */
static int check_items(int batch, int item[2])
{
	item[0] = 0;
	item[1] = batch - 1;
	return batch > 1 ? 2 : 1;
}

static void merge(struct nb_validation *into, const struct nb_validation *v)
{
	into->pass = into->pass && v->pass;
	into->max_abs = fmax(into->max_abs, v->max_abs);
	into->max_rel = fmax(into->max_rel, v->max_rel);
}

/*
 * validate_timed() - the output of the last timed repeat (out, for in),
 * items 0 and B-1 at the full frame count, against the CPU backend (which
 * the reference validates: every CPU run and the engine suite). On a GPU
 * a launch can fail silently or work be skipped in the timed repeats
 * alone, which a separate validation run would not see. Fills r->timed;
 * -1 with r->error set when the CPU backend cannot run.
 */
static int validate_timed(const struct nb_weights *w, const float *in, const float *out,
			  const struct nb_run_config *cfg, const char *test,
			  struct nb_test_result *r)
{
	const struct nb_model *m = &w->model;
	size_t frame = (size_t)m->height * m->width * m->channels;
	size_t nout1 = nb_output_count(m, 1, r->frames);
	struct nb_backend_config bc = { .device = 0 };
	float *ref = malloc(nout1 * sizeof(float));
	void *ctx = NULL, *prog = NULL;
	int item[2], n = check_items(r->batch, item), rc = -1;

	if (!ref) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		return -1;
	}
	if (nb_cpu_backend.open(&bc, &ctx, r->error, sizeof(r->error)) ||
	    nb_cpu_backend.model_load(ctx, w, &prog, r->error, sizeof(r->error)))
		goto out;
	r->timed.tol_abs = r->valid.tol_abs;
	r->timed.tol_rel = r->valid.tol_rel;
	r->timed.reason = r->valid.reason;
	for (int k = 0; k < n; k++) {
		struct nb_validation v = r->timed;

		progress(cfg, test, "validating the timed output, item %d, on the CPU", item[k]);
		if (nb_cpu_backend.model_forward(ctx, prog, in + (size_t)item[k] * r->frames * frame,
						 1, r->frames, ref, r->error,
						 sizeof(r->error)))
			goto out;
		compare(&v, out + (size_t)item[k] * nout1, ref, nout1);
		if (k == 0)
			r->timed = v;
		else
			merge(&r->timed, &v);
	}
	snprintf(r->timed.input, sizeof(r->timed.input),
		 "the last timed repeat's output (seed %llu), items 0 and %d at %d frames, against the CPU backend",
		 (unsigned long long)cfg->seed, r->batch - 1, r->frames);
	rc = 0;
out:
	if (prog)
		nb_cpu_backend.model_free(ctx, prog);
	if (ctx)
		nb_cpu_backend.close(ctx);
	free(ref);
	return rc;
}

/*
 * The model test's validation: the same batch as the benchmark at vframes
 * frames (in and out, its buffers, reused), items 0 and B-1 against the
 * reference (ref and in1: one item's output and input), merged with the
 * timed output's check; where it diverged when it failed. -1 with
 * r->error when the backend failed.
 */
static int validate_model(struct job *j, const struct nb_model *m, const struct nb_weights *w,
			  const struct nb_run_config *cfg, const char *name, float *in, float *out,
			  float *ref, float *in1, int vframes, struct nb_test_result *r)
{
	size_t frame = (size_t)m->height * m->width * m->channels;
	size_t vout1 = nb_output_count(m, 1, vframes);
	struct nb_validation v[2];
	int items[2], nitems = check_items(r->batch, items);

	progress(cfg, name, "validating");
	nb_movie_generate(VALIDATION_SEED, r->batch, vframes, m->height,
			  m->width, m->channels, in, NULL);
	j->frames = vframes;
	if (repeat_model(j)) {
		snprintf(r->error, sizeof(r->error), "%s", j->err);
		return -1;
	}
	for (int k = 0; k < nitems; k++) {
		progress(cfg, name, "validating item %d against the reference",
			 items[k]);
		memcpy(in1, in + (size_t)items[k] * vframes * frame,
		       (size_t)vframes * frame * sizeof(float));
		nb_ref_forward(w, in1, 1, vframes, ref);
		v[k] = r->valid;
		compare(&v[k], out + (size_t)items[k] * vout1, ref, vout1);
	}
	r->valid = v[0];
	if (nitems == 2)
		merge(&r->valid, &v[1]);
	snprintf(r->valid.input, sizeof(r->valid.input),
		 "moving squares (seed %d), batch %d x %d frames; items 0 and %d against the reference",
		 VALIDATION_SEED, r->batch, vframes, r->batch - 1);
	if (r->timed.ran) {
		/* one verdict: both checks pass; the text names both */
		merge(&r->valid, &r->timed);
		snprintf(r->valid.input + strlen(r->valid.input),
			 sizeof(r->valid.input) - strlen(r->valid.input),
			 "; and %s", r->timed.input);
	}
	if (!r->valid.pass) {
		progress(cfg, name, "locating the divergence, layer by layer");
		nb_diverge_run(j->ops, j->ctx, j->prog, w, in, r->batch, vframes, r->valid.tol_abs,
			       r->valid.tol_rel, &r->valid.where);
	}
	return 0;
}

static int run_model(const struct nb_backend_ops *ops, void *ctx,
		     const struct nb_test_info *ti,
		     const struct nb_run_config *cfg, struct nb_test_result *r)
{
	const struct nb_model *m = nb_model_find(ti->model);
	struct nb_weights *own = NULL;
	const struct nb_weights *w = cfg->weights;
	struct job j = { .ops = ops, .ctx = ctx, .repeat = repeat_model,
			 .batch = r->batch, .frames = r->frames };
	size_t frame = (size_t)m->height * m->width * m->channels;
	int vframes = m->head == NB_HEAD_CONV3D ? 3 : 2;
	size_t nin = (size_t)r->batch * (r->frames > vframes ? r->frames : vframes) * frame;
	size_t nout = nb_output_count(m, r->batch,
				      r->frames > vframes ? r->frames : vframes);
	size_t vout1 = nb_output_count(m, 1, vframes);
	float *in = malloc(nin * sizeof(float));
	float *out = malloc(nout * sizeof(float));
	float *ref = malloc(vout1 * sizeof(float));
	float *in1 = malloc((size_t)vframes * frame * sizeof(float));
	int rc = -1;

	if (!w || strcmp(w->model.name, m->name)) {
		own = nb_weights_alloc(m);
		if (!own)
			goto oom;
		nb_weights_init(own, cfg->seed);
		w = own;
	}
	if (!in || !out || !ref || !in1)
		goto oom;
	r->work = nb_flops_forward(m, r->batch, r->frames);
	if (ops->model_load(ctx, w, &j.prog, r->error, sizeof(r->error)))
		goto out;

	/* the benchmark */
	nb_movie_generate(cfg->seed, r->batch, r->frames, m->height, m->width,
			  m->channels, in, NULL);
	j.in = in;
	j.out = out;
	if (timed(&j, cfg, ti->name, &r->time)) {
		snprintf(r->error, sizeof(r->error), "%s", j.err);
		goto out;
	}
	r->valid.tol_abs = 1e-4;
	r->valid.tol_rel = 1e-3;
	r->valid.reason = model_reason;
	/*
	 * On the CPU backend the timed output is the CPU backend's own: the
	 * validation against the reference below is its check.
	 */
	if (ops != &nb_cpu_backend && validate_timed(w, in, out, cfg, ti->name, r))
		goto out;

	/* validation: the same batch, fewer frames */
	if (validate_model(&j, m, w, cfg, ti->name, in, out, ref, in1, vframes, r))
		goto out;
	rc = 0;
	goto out;
oom:
	snprintf(r->error, sizeof(r->error), "out of memory");
out:
	if (j.prog)
		ops->model_free(ctx, j.prog);
	nb_weights_free(own);
	free(in);
	free(out);
	free(ref);
	free(in1);
	return rc;
}

static int run_gates(const struct nb_backend_ops *ops, void *ctx,
		     const struct nb_test_info *ti,
		     const struct nb_run_config *cfg, struct nb_test_result *r)
{
	const struct nb_model *m = nb_model_find("convlstm-mono");
	struct nb_weights *w = nb_weights_alloc(m);
	const int hh = 40, ww = 40, cin = 40, f = 40, b = r->batch;
	size_t nx = (size_t)b * hh * ww * cin, ns = (size_t)b * hh * ww * f;
	size_t s1 = (size_t)hh * ww * f, x1 = (size_t)hh * ww * cin;
	float *x = malloc(nx * 4), *h = malloc(ns * 4), *c = malloc(ns * 4);
	float *ho = malloc(ns * 4), *co = malloc(ns * 4);
	float *hr = malloc(s1 * 4), *cr = malloc(s1 * 4);
	struct job j = { .ops = ops, .ctx = ctx, .repeat = repeat_cell };
	struct nb_rng rng;
	int rc = -1;

	if (!w || !x || !h || !c || !ho || !co || !hr || !cr) {
		snprintf(r->error, sizeof(r->error), "out of memory");
		goto out;
	}
	/* the second layer of convlstm-mono: 40 channels in, 40 filters */
	nb_weights_init(w, cfg->seed);
	struct nb_cell_desc d = { b, hh, ww, cin, f, w->kernel[1],
				  w->rkernel[1], w->bias[1] };
	r->work = nb_flops_cell(hh, ww, cin, f) * b;
	if (ops->cell_load(ctx, &d, &j.cell, r->error, sizeof(r->error)))
		goto out;
	nb_rng_seed(&rng, VALIDATION_SEED);
	for (size_t i = 0; i < nx; i++)
		x[i] = (float)(2 * nb_rng_uniform(&rng) - 1);
	for (size_t i = 0; i < ns; i++) {
		h[i] = (float)(nb_rng_uniform(&rng) - 0.5);
		c[i] = (float)(2 * nb_rng_uniform(&rng) - 1);
	}
	ops->cell_set(ctx, j.cell, x, h, c);
	if (timed(&j, cfg, ti->name, &r->time))
		goto out;

	progress(cfg, ti->name, "validating");
	ops->cell_set(ctx, j.cell, x, h, c);
	ops->cell_step(ctx, j.cell);
	ops->cell_get(ctx, j.cell, ho, co);
	nb_ref_cell(1, hh, ww, cin, f, w->kernel[1], w->rkernel[1], w->bias[1],
		    x + (size_t)(b - 1) * x1, h + (size_t)(b - 1) * s1,
		    c + (size_t)(b - 1) * s1, hr, cr);
	r->valid.tol_abs = 1e-5;
	r->valid.tol_rel = 1e-4;
	r->valid.reason = cell_reason;
	snprintf(r->valid.input, sizeof(r->valid.input),
		 "random x, h, c (seed %d), batch %d, one step; h and c of item %d against the reference",
		 VALIDATION_SEED, b, b - 1);
	struct nb_validation vh = r->valid, vc = r->valid;
	compare(&vh, ho + (size_t)(b - 1) * s1, hr, s1);
	compare(&vc, co + (size_t)(b - 1) * s1, cr, s1);
	r->valid = vh;
	r->valid.pass = vh.pass && vc.pass;
	r->valid.max_abs = fmax(vh.max_abs, vc.max_abs);
	r->valid.max_rel = fmax(vh.max_rel, vc.max_rel);
	rc = 0;
out:
	if (j.cell)
		ops->cell_free(ctx, j.cell);
	nb_weights_free(w);
	free(x); free(h); free(c); free(ho); free(co); free(hr); free(cr);
	return rc;
}

static int run_peak(const struct nb_backend_ops *ops, void *ctx,
		    const struct nb_test_info *ti,
		    const struct nb_run_config *cfg, struct nb_test_result *r)
{
	struct job j = { .ops = ops, .ctx = ctx, .repeat = repeat_peak };
	double t = 0;
	float expect = 1.0f;

	/*
	 * Size one repeat to about 50 ms, from the faster of two timings: one
	 * preemption on a busy machine must not stop the sizing at 10000
	 * iterations (70 us repeats, then 1000 of them and a CV over 100%).
	 */
	for (j.iters = 10000; j.iters < (1L << 40); j.iters *= 4) {
		t = INFINITY;
		for (int k = 0; k < 2; k++) {
			double t0 = now();

			ops->fma_peak(ctx, j.iters, peak_m, peak_k, &j.lane);
			t = fmin(t, repeat_time(&j, now() - t0));
		}
		if (t >= 0.0125)
			break;
	}
	if (t < 0.05)
		j.iters = (long)(j.iters * (0.05 / (t > 0 ? t : 1e-6)));
	r->work = ops->fma_peak(ctx, 1, peak_m, peak_k, &j.lane) * j.iters;
	if (timed(&j, cfg, ti->name, &r->time)) {
		snprintf(r->error, sizeof(r->error), "%s", j.err);
		return -1;
	}
	progress(cfg, ti->name, "validating");
	const long viters = 100000;
	float lane;

	ops->fma_peak(ctx, viters, peak_m, peak_k, &lane);
	for (long i = 0; i < viters; i++)
		expect = fmaf(expect, peak_m, peak_k);
	r->valid.tol_abs = 0;
	r->valid.tol_rel = 0;
	r->valid.reason = exact_reason;
	snprintf(r->valid.input, sizeof(r->valid.input),
		 "a = a x %.4f + %.2f, %ld iterations from 1, every lane of every thread against fmaf()",
		 peak_m, peak_k, viters);
	compare(&r->valid, &lane, &expect, 1);
	return 0;
}

static int run_bw(const struct nb_backend_ops *ops, void *ctx,
		  const struct nb_test_info *ti,
		  const struct nb_run_config *cfg, struct nb_test_result *r)
{
	struct job j = { .ops = ops, .ctx = ctx, .repeat = repeat_triad };
	size_t n = (64u << 20) / sizeof(float);
	size_t bad = 0;
	int rc = -1;

	j.n = n;
	j.a = malloc(n * 4);
	j.b = malloc(n * 4);
	j.c = malloc(n * 4);
	if (!j.a || !j.b || !j.c) {
		snprintf(r->error, sizeof(r->error), "out of memory (3 x 64 MiB)");
		goto out;
	}
	/* exactly representable: b + 0.5 c is exact in float */
	for (size_t i = 0; i < n; i++) {
		j.a[i] = -1.0f;
		j.b[i] = (float)(i & 1023);
		j.c[i] = (float)(i & 7);
	}
	r->work = 3.0 * n * sizeof(float);
	if (timed(&j, cfg, ti->name, &r->time))
		goto out;
	progress(cfg, ti->name, "validating");
	for (size_t i = 0; i < n; i++)
		bad += j.a[i] != (float)(i & 1023) + 0.5f * (float)(i & 7);
	r->valid.ran = true;
	r->valid.pass = bad == 0;
	r->valid.max_abs = bad ? 1 : 0;
	r->valid.max_rel = 0;
	r->valid.tol_abs = 0;
	r->valid.tol_rel = 0;
	r->valid.reason = exact_reason;
	snprintf(r->valid.input, sizeof(r->valid.input),
		 "every element of a against b + 0.5 c; %zu wrong", bad);
	rc = 0;
out:
	free(j.a);
	free(j.b);
	free(j.c);
	return rc;
}

/* the training step's validation: batch 2, 2 frames, one step */
#define TRAIN_VBATCH 2
#define TRAIN_VFRAMES 2

static int run_train(const struct nb_backend_ops *ops, void *ctx,
		     const struct nb_test_info *ti,
		     const struct nb_run_config *cfg, struct nb_test_result *r)
{
	const struct nb_model *m = nb_model_find(ti->model);
	const struct nb_train_ops *t = train_ops(ops);
	const struct nb_weights *w = cfg->weights;
	struct nb_weights *own = NULL;
	struct job j = { .ops = ops, .ctx = ctx, .repeat = repeat_train,
			 .train = t, .batch = r->batch, .frames = r->frames };
	size_t frame = (size_t)m->height * m->width * m->channels;
	size_t n = (size_t)r->batch * r->frames * frame;
	size_t nv = (size_t)TRAIN_VBATCH * TRAIN_VFRAMES * frame;
	float *in = malloc((n > nv ? n : nv) * sizeof(float));
	float *next = malloc((n > nv ? n : nv) * sizeof(float));
	int rc = -1;

	if (!t) {
		snprintf(r->error, sizeof(r->error),
			 "the %s backend has no training step (only the CPU backend has one)",
			 ops->name);
		goto out;
	}
	if (!w || strcmp(w->model.name, m->name)) {
		own = nb_weights_alloc(m);
		if (!own)
			goto oom;
		nb_weights_init(own, cfg->seed);
		w = own;
	}
	if (!in || !next)
		goto oom;
	r->work = nb_flops_train(m, r->batch, r->frames);
	/* the Keras example's task: every frame's next frame */
	nb_movie_generate(cfg->seed, r->batch, r->frames, m->height, m->width,
			  m->channels, in, next);
	j.in = in;
	j.target = next;
	if (t->load(ctx, w, r->batch, r->frames, &j.tr, r->error, sizeof(r->error)))
		goto out;
	if (timed(&j, cfg, ti->name, &r->time)) {
		snprintf(r->error, sizeof(r->error), "%s", j.err);
		goto out;
	}
	t->free(ctx, j.tr);
	j.tr = NULL;

	progress(cfg, ti->name, "validating one step against the reference (batch %d, %d frames)",
		 TRAIN_VBATCH, TRAIN_VFRAMES);
	nb_movie_generate(VALIDATION_SEED, TRAIN_VBATCH, TRAIN_VFRAMES, m->height,
			  m->width, m->channels, in, next);
	if (nb_train_validate(t, ctx, w, in, next, TRAIN_VBATCH, TRAIN_VFRAMES, 1,
			      &r->valid, r->error, sizeof(r->error)))
		goto out;
	rc = 0;
	goto out;
oom:
	snprintf(r->error, sizeof(r->error), "out of memory");
out:
	if (j.tr)
		t->free(ctx, j.tr);
	nb_weights_free(own);
	free(in);
	free(next);
	return rc;
}

int nb_bench_run(const struct nb_backend_ops *ops, void *ctx,
		 enum nb_test_id id, const struct nb_run_config *cfg,
		 double peak_gflops, struct nb_test_result *r)
{
	const struct nb_test_info *ti = nb_test_get(id);
	int rc;

	memset(r, 0, sizeof(*r));
	r->test = ti;
	r->value = r->best = NAN;
	r->rate_gflops = r->percent_of_peak = NAN;
	r->batch = cfg->batch && ti->batch ? cfg->batch : ti->batch;
	r->frames = cfg->frames && ti->model ? cfg->frames : ti->frames;
	r->standard = r->batch == ti->batch && r->frames == ti->frames;
	if (cfg->quick && ti->quick_batch && r->standard) {
		/* --quick's short form: timed and validated, not scored */
		r->batch = ti->quick_batch;
		r->frames = ti->quick_frames;
		r->standard = false;
		r->quick_form = true;
	}

	switch (id) {
	case NB_TEST_MONO:
	case NB_TEST_COLOR:
		rc = run_model(ops, ctx, ti, cfg, r);
		break;
	case NB_TEST_GATES:
		rc = run_gates(ops, ctx, ti, cfg, r);
		break;
	case NB_TEST_PEAK:
		rc = run_peak(ops, ctx, ti, cfg, r);
		break;
	case NB_TEST_BW:
		rc = run_bw(ops, ctx, ti, cfg, r);
		break;
	case NB_TEST_TRAIN:
		rc = run_train(ops, ctx, ti, cfg, r);
		break;
	default:
		snprintf(r->error, sizeof(r->error), "no such test");
		return -1;
	}
	if (rc)
		return -1;

	double med = r->time.median, min = r->time.min;
	switch (id) {
	case NB_TEST_MONO:
	case NB_TEST_COLOR:
	case NB_TEST_TRAIN:
		r->value = r->batch * r->frames / med;
		r->best = r->batch * r->frames / min;
		r->rate_gflops = r->work / med / 1e9;
		break;
	case NB_TEST_GATES:
	case NB_TEST_PEAK:
		r->value = r->rate_gflops = r->work / med / 1e9;
		r->best = r->work / min / 1e9;
		break;
	case NB_TEST_BW:
		r->value = r->work / med / 1e9;
		r->best = r->work / min / 1e9;
		break;
	default:
		break;
	}
	if (ti->percent_of_peak && peak_gflops > 0)
		r->percent_of_peak = 100.0 * r->rate_gflops / peak_gflops;
	return 0;
}

double nb_test_score(const struct nb_test_result *r)
{
	double ref = nb_reference.value[r->test->id];

	if (!(ref > 0) || !(r->value > 0))
		return NAN;
	return r->value / ref * 1000.0;
}

const char *nb_score_method(const struct nb_backend_ops *ops, bool quick)
{
	static __thread char buf[256];
	int n = 0, len;

	len = snprintf(buf, sizeof(buf), "geometric mean of result / reference result x 1000 over");
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (nb_test_scored(ops, quick, i))
			n++;
	for (int i = 0, k = 0; i < NB_TEST_COUNT; i++) {
		if (!nb_test_scored(ops, quick, i))
			continue;
		k++;
		len += snprintf(buf + len, sizeof(buf) - len, "%s %s",
				k == 1 ? "" : k == n ? " and" : ",", tests[i].name);
	}
	return buf;
}

double nb_composite_score(const struct nb_backend_ops *ops, bool quick,
			  const struct nb_test_result *r, int n, const char **why)
{
	bool seen[NB_TEST_COUNT] = { false };
	double logsum = 0;
	int counted = 0;

	for (int i = 0; i < n; i++) {
		if (!nb_test_scored(ops, quick, r[i].test->id))
			continue;	/* convlstm-train's --quick form, or not run */
		counted++;
		if (r[i].error[0] || !r[i].valid.pass) {
			*why = "a test failed or was invalid";
			return NAN;
		}
		if (!r[i].standard) {
			*why = "non-standard configuration: --batch or --frames";
			return NAN;
		}
		seen[r[i].test->id] = true;
		logsum += log(nb_test_score(&r[i]));
	}
	for (int i = 0; i < NB_TEST_COUNT; i++)
		if (!seen[i] && nb_test_scored(ops, quick, i)) {
			*why = "not every test of the suite ran (score.method names them)";
			return NAN;
		}
	if (!isfinite(logsum)) {
		*why = "this build has no reference results";
		return NAN;
	}
	*why = NULL;
	return exp(logsum / counted);
}
