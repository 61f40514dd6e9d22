// SPDX-License-Identifier: MIT
/*
 * Runs the kernels of hip/kernels/ on the CPU through OpenCL (PoCL) and
 * validates them against the engine's reference (user/engine/ref.c): the
 * ConvLSTM step at odd shapes, whole forward passes of both models chained
 * per layer and per time step as the plugin chains them, fp32-peak and the
 * triad; and a mutation check: the step kernel with its read-after-write
 * barrier removed must fail validation. TAP lines on stdout.
 *
 *   pocl KERNEL_DIR
 *
 * The kernel source is the HIP source itself, compiled as OpenCL C 1.2 by
 * PoCL's clang, with hip/kernels/nbk_dev.h mapping HIP's spelling. Device
 * memory is fine-grained shared virtual memory, so that a tensor is passed
 * as a pointer into another, as hip/nbk.h does (a time step of a sequence).
 * The launch geometry and weight packing are hip/kernels/nbk_layout.h's,
 * the same as hip/nbk.cpp's.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "nbk.h"
#include "kernels/nbk_layout.h"

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static cl_kernel k_step, k_head3d, k_head2d, k_peak, k_triad;
static int tests, failed;

static void tap(int pass, const char *fmt, ...)
{
	va_list ap;

	tests++;
	failed += !pass;
	printf("%s %d - ", pass ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, cl_int e)
{
	fprintf(stderr, "pocl: %s: OpenCL error %d\n", what, e);
	exit(1);
}

#define CL_OK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) die(#call, e_); } while (0)

static float *svm(size_t n)
{
	float *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
			      (n ? n : 1) * sizeof(float), 0);

	if (!p) {
		fprintf(stderr, "pocl: clSVMAlloc of %zu floats failed\n", n);
		exit(1);
	}
	return p;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc(n + 1);
	if (!s || fread(s, 1, n, f) != (size_t)n) {
		fprintf(stderr, "pocl: cannot read %s\n", path);
		exit(1);
	}
	s[n] = 0;
	fclose(f);
	return s;
}

/* Replaces every occurrence of from by to in s; returns the count. */
static int replace(char **s, const char *from, const char *to)
{
	int n = 0;
	size_t lf = strlen(from), lt = strlen(to);
	char *p;

	while ((p = strstr(*s, from))) {
		size_t off = p - *s, len = strlen(*s);
		char *t = malloc(len - lf + lt + 1);

		memcpy(t, *s, off);
		memcpy(t + off, to, lt);
		strcpy(t + off + lt, p + lf);
		free(*s);
		*s = t;
		n++;
	}
	return n;
}

/*
 * Builds the kernels; with drop_raw, the step kernel's read-after-write
 * barrier is removed first (it must be there exactly once).
 */
static cl_program build(const char *dir, int drop_raw, double *secs)
{
	static const char *const files[] = { "convlstm.hip", "heads.hip", "micro.hip" };
	char *src[3], path[4096], opts[4200], log[16384];
	cl_program prog;
	cl_int e;

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		src[i] = slurp(path);
	}
	if (drop_raw) {
		int n = replace(&src[0], "__syncthreads();\t/* read-after-write",
				";\t/* removed: read-after-write");

		if (n != 1) {
			fprintf(stderr, "pocl: %d read-after-write barriers in convlstm.hip, expected 1\n", n);
			exit(1);
		}
	}
	double t0 = now();

	prog = clCreateProgramWithSource(ctx, 3, (const char **)src, NULL, &e);
	if (e != CL_SUCCESS)
		die("clCreateProgramWithSource", e);
	snprintf(opts, sizeof(opts), "-cl-std=CL1.2 -Werror -I%s", dir);
	e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
	*secs = now() - t0;
	if (e != CL_SUCCESS) {
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		fprintf(stderr, "pocl: the kernels do not build as OpenCL C:\n%s\n", log);
		exit(1);
	}
	for (int i = 0; i < 3; i++)
		free(src[i]);
	return prog;
}

static void kernels(cl_program prog)
{
	cl_int e;

#define K(var, name) var = clCreateKernel(prog, name, &e); if (e) die("clCreateKernel " name, e)
	K(k_step, "nbk_step_kernel");
	K(k_head3d, "nbk_conv3d_head_kernel");
	K(k_head2d, "nbk_conv2d_head_kernel");
	K(k_peak, "nbk_fma_peak_kernel");
	K(k_triad, "nbk_triad_kernel");
#undef K

}

/* ---- launchers: the argument lists of hip/nbk.cpp's ---- */

static void arg_ptr(cl_kernel k, int *i, const void *p)
{
	CL_OK(clSetKernelArgSVMPointer(k, (*i)++, p));
}

static void arg(cl_kernel k, int *i, size_t size, const void *v)
{
	CL_OK(clSetKernelArg(k, (*i)++, size, v));
}

static void launch(cl_kernel k, struct nbk_geom g)
{
	size_t gl[3] = { (size_t)g.grid[0] * g.block, g.grid[1], g.grid[2] };
	size_t lo[3] = { g.block, 1, 1 };

	CL_OK(clEnqueueNDRangeKernel(queue, k, 3, NULL, gl, lo, 0, NULL, NULL));
	CL_OK(clFinish(queue));
}

static void step(const struct nbk_step *p)
{
	int i = 0;
	long xs = (long)p->x_batch_stride, ys = (long)p->y_batch_stride;
	int has_h = p->h_in != NULL, has_c = p->c_in != NULL, has_y = p->y != NULL;

	arg_ptr(k_step, &i, p->x);
	arg(k_step, &i, sizeof(long), &xs);
	arg_ptr(k_step, &i, p->h_in);
	arg_ptr(k_step, &i, p->c_in);
	arg_ptr(k_step, &i, p->h_out);
	arg_ptr(k_step, &i, p->c_out);
	arg_ptr(k_step, &i, p->w);
	arg_ptr(k_step, &i, p->bn_scale);
	arg_ptr(k_step, &i, p->bn_shift);
	arg_ptr(k_step, &i, p->y);
	arg(k_step, &i, sizeof(long), &ys);
	arg(k_step, &i, sizeof(int), &p->height);
	arg(k_step, &i, sizeof(int), &p->width);
	arg(k_step, &i, sizeof(int), &p->cin);
	arg(k_step, &i, sizeof(int), &p->filters);
	arg(k_step, &i, sizeof(int), &has_h);
	arg(k_step, &i, sizeof(int), &has_c);
	arg(k_step, &i, sizeof(int), &has_y);
	launch(k_step, nbk_step_geom(p->batch, p->height, p->width, p->filters));
}

static void head3d(int b, int t, int h, int w, int c, const float *in,
		   const float *kernel, const float *bias, float *out)
{
	int i = 0;

	arg_ptr(k_head3d, &i, in);
	arg_ptr(k_head3d, &i, kernel);
	arg_ptr(k_head3d, &i, bias);
	arg_ptr(k_head3d, &i, out);
	arg(k_head3d, &i, sizeof(int), &b);
	arg(k_head3d, &i, sizeof(int), &t);
	arg(k_head3d, &i, sizeof(int), &h);
	arg(k_head3d, &i, sizeof(int), &w);
	arg(k_head3d, &i, sizeof(int), &c);
	launch(k_head3d, nbk_head_geom((size_t)b * t * h * w));
}

static void head2d(int b, int h, int w, int c, int o, const float *in,
		   const float *kernel, const float *bias, float *out)
{
	int i = 0;

	arg_ptr(k_head2d, &i, in);
	arg_ptr(k_head2d, &i, kernel);
	arg_ptr(k_head2d, &i, bias);
	arg_ptr(k_head2d, &i, out);
	arg(k_head2d, &i, sizeof(int), &b);
	arg(k_head2d, &i, sizeof(int), &h);
	arg(k_head2d, &i, sizeof(int), &w);
	arg(k_head2d, &i, sizeof(int), &c);
	arg(k_head2d, &i, sizeof(int), &o);
	launch(k_head2d, nbk_head_geom((size_t)b * h * w * o));
}

/* ---- validation: bench.c's rule, |d| <= tol_abs + tol_rel |ref| ---- */

struct cmp {
	double max_abs, tol_abs, tol_rel;
	size_t bad;
};

static void compare(struct cmp *c, const float *got, const float *ref, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)got[i] - ref[i]);

		if (!(d <= c->tol_abs + c->tol_rel * fabs(ref[i])))
			c->bad++;
		if (!(d <= c->max_abs))
			c->max_abs = d;	/* NaN included */
	}
}

static void fill(struct nb_rng *r, float *p, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (float)(lo + (hi - lo) * nb_rng_uniform(r));
}

struct cell_case {
	int batch, height, width, cin, filters;
	int state;	/* 0: zero state (h_in, c_in NULL) */
};

/* A layer's Keras weights: a one-layer model's initializers. */
static struct nb_weights *cell_weights(const struct cell_case *cc, uint64_t seed)
{
	struct nb_model m = {
		.name = "cell", .height = cc->height, .width = cc->width,
		.channels = cc->cin, .layers = 1, .filters = { cc->filters },
		.head = NB_HEAD_CONV3D, .head_out = 1,
	};
	struct nb_weights *w = nb_weights_alloc(&m);
	struct nb_rng r;

	if (!w)
		abort();
	nb_weights_init(w, seed);
	/* a non-zero bias on every gate, BN that is not the identity */
	nb_rng_seed(&r, seed + 1);
	fill(&r, w->bias[0], 4 * cc->filters, -0.5, 0.5);
	fill(&r, w->gamma[0], cc->filters, 0.5, 1.5);
	fill(&r, w->beta[0], cc->filters, -0.5, 0.5);
	fill(&r, w->mean[0], cc->filters, -0.2, 0.2);
	fill(&r, w->var[0], cc->filters, 0.5, 2);
	return w;
}

/* One step against nb_ref_cell: h, c and the BN output y; max error out. */
static int cell_check(const struct cell_case *cc, double *err)
{
	const int b = cc->batch, f = cc->filters;
	const size_t px = (size_t)cc->height * cc->width;
	const size_t nx = b * px * cc->cin, ns = b * px * f;
	struct nb_weights *w = cell_weights(cc, 7 + cc->cin);
	float *x = svm(nx), *h = svm(ns), *c = svm(ns), *ho = svm(ns), *co = svm(ns);
	float *y = svm(ns), *wp = svm(nbk_layout_packed_count(cc->cin, f));
	float *sc = svm(f), *sh = svm(f);
	float *rh = malloc(ns * 4), *rc = malloc(ns * 4), *ry = malloc(ns * 4);
	struct nb_rng r;
	struct cmp cm = { .tol_abs = 1e-5, .tol_rel = 1e-4 };	/* bench.c, gates */

	nb_rng_seed(&r, 99);
	fill(&r, x, nx, -1, 1);
	fill(&r, h, ns, -1, 1);
	fill(&r, c, ns, -1, 1);
	if (!cc->state) {
		memset(h, 0, ns * 4);
		memset(c, 0, ns * 4);
	}
	fill(&r, ho, ns, 100, 101);	/* poison: every output must be written */
	fill(&r, co, ns, 100, 101);
	fill(&r, y, ns, 100, 101);
	nbk_layout_pack(cc->cin, f, w->kernel[0], w->rkernel[0], w->bias[0], wp);
	nbk_layout_bn_fold(f, w->gamma[0], w->beta[0], w->mean[0], w->var[0],
			   NB_BN_EPSILON, sc, sh);

	struct nbk_step p = {
		.batch = b, .height = cc->height, .width = cc->width,
		.cin = cc->cin, .filters = f, .x = x, .x_batch_stride = px * cc->cin,
		.h_in = cc->state ? h : NULL, .c_in = cc->state ? c : NULL,
		.h_out = ho, .c_out = co, .w = wp, .bn_scale = sc, .bn_shift = sh,
		.y = y, .y_batch_stride = px * f,
	};
	step(&p);
	nb_ref_cell(b, cc->height, cc->width, cc->cin, f, w->kernel[0],
		    w->rkernel[0], w->bias[0], x, h, c, rh, rc);
	for (size_t i = 0; i < ns; i++) {
		int j = i % f;

		ry[i] = (float)((rh[i] - w->mean[0][j]) /
				sqrt((double)w->var[0][j] + NB_BN_EPSILON) *
				w->gamma[0][j] + w->beta[0][j]);
	}
	compare(&cm, ho, rh, ns);
	compare(&cm, co, rc, ns);
	compare(&cm, y, ry, ns);
	*err = cm.max_abs;
	for (float *q[] = { x, h, c, ho, co, y, wp, sc, sh }, **e = q; e < q + 9; e++)
		clSVMFree(ctx, *e);
	free(rh);
	free(rc);
	free(ry);
	nb_weights_free(w);
	return cm.bad == 0;
}

static void test_cells(void)
{
	static const struct cell_case cases[] = {
		/* batch, H, W, Cin, F, state */
		{ 1, 8, 8, 1, 8, 1 },		/* one whole tile, one filter block */
		{ 1, 5, 7, 1, 3, 1 },		/* smaller than a tile */
		{ 3, 9, 13, 3, 5, 1 },		/* partial tiles, batch 3 */
		{ 3, 9, 13, 3, 5, 0 },		/* zero state */
		{ 1, 11, 6, 40, 40, 1 },	/* Cin 40: 5 K stages; 5 filter blocks */
		{ 3, 6, 17, 40, 9, 1 },		/* partial filter block */
		{ 2, 16, 16, 13, 17, 1 },	/* partial K stage (13 = 8 + 5) */
		{ 1, 1, 1, 1, 1, 1 },		/* a single pixel and filter */
		{ 3, 40, 40, 40, 40, 1 },	/* the gates test's layer, batch 3 */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cell_case *c = &cases[i];
		double err, t0 = now();
		int pass = cell_check(c, &err);

		tap(pass, "convlstm step: batch %d, %dx%d, Cin %d, %d filters, %s state: h, c, BN y within 1e-5 + 1e-4 |ref| (max |d| %.1e, %.2f s)",
		    c->batch, c->height, c->width, c->cin, c->filters,
		    c->state ? "random" : "zero", err, now() - t0);
	}
}

/*
 * A forward pass chained as the plugin chains it: per layer, per time
 * step, the whole batch per launch, x and y addressed inside sequence
 * tensors through their batch strides; the Conv2D model's last layer
 * writes its BN output at the last step only, into (B, H, W, F).
 */
static void forward(const struct nb_weights *w, const float *in, int batch,
		    int frames, float *out)
{
	const struct nb_model *m = &w->model;
	const size_t px = (size_t)m->height * m->width;
	const float *seq = in;
	float *prev = NULL, *last = NULL;
	int cin = m->channels;

	for (int l = 0; l < m->layers; l++) {
		const int f = m->filters[l];
		const int final_only = m->head == NB_HEAD_CONV2D && l == m->layers - 1;
		float *wp = svm(nbk_layout_packed_count(cin, f));
		float *sc = svm(f), *sh = svm(f);
		float *hs[2] = { svm(batch * px * f), svm(batch * px * f) };
		float *cs[2] = { svm(batch * px * f), svm(batch * px * f) };
		float *next = final_only ? svm(batch * px * f) :
			svm(batch * frames * px * f);

		nbk_layout_pack(cin, f, w->kernel[l], w->rkernel[l], w->bias[l], wp);
		nbk_layout_bn_fold(f, w->gamma[l], w->beta[l], w->mean[l],
				   w->var[l], NB_BN_EPSILON, sc, sh);
		for (int t = 0; t < frames; t++) {
			struct nbk_step p = {
				.batch = batch, .height = m->height,
				.width = m->width, .cin = cin, .filters = f,
				.x = seq + t * px * cin,
				.x_batch_stride = frames * px * cin,
				.h_in = t ? hs[(t - 1) & 1] : NULL,
				.c_in = t ? cs[(t - 1) & 1] : NULL,
				.h_out = hs[t & 1], .c_out = cs[t & 1],
				.w = wp, .bn_scale = sc, .bn_shift = sh,
			};
			if (!final_only) {
				p.y = next + t * px * f;
				p.y_batch_stride = frames * px * f;
			} else if (t == frames - 1) {
				p.y = next;
				p.y_batch_stride = px * f;
			}
			step(&p);
		}
		for (float *q[] = { wp, sc, sh, hs[0], hs[1], cs[0], cs[1] }, **e = q;
		     e < q + 7; e++)
			clSVMFree(ctx, *e);
		if (prev)
			clSVMFree(ctx, prev);
		prev = next;
		seq = next;
		cin = f;
		last = next;
	}
	float *hk = svm(m->head == NB_HEAD_CONV3D ? 27 * cin : 9 * cin * m->head_out);
	float *hb = svm(m->head_out);

	memcpy(hk, w->head_kernel, (m->head == NB_HEAD_CONV3D ? 27 * cin :
				    9 * cin * m->head_out) * sizeof(float));
	memcpy(hb, w->head_bias, m->head_out * sizeof(float));
	if (m->head == NB_HEAD_CONV3D)
		head3d(batch, frames, m->height, m->width, cin, last, hk, hb, out);
	else
		head2d(batch, m->height, m->width, cin, m->head_out, last, hk, hb, out);
	clSVMFree(ctx, hk);
	clSVMFree(ctx, hb);
	clSVMFree(ctx, last);
}

struct fwd_case {
	const char *model;	/* the real model's layers, or NULL: the ones below */
	int height, width, layers, f0, f1, head_out, conv2d;
	int batch, frames;
};

static void test_forward(void)
{
	static const struct fwd_case cases[] = {
		{ "convlstm-mono", 11, 13, 0, 0, 0, 0, 0, 3, 3 },
		{ "convlstm-mono", 8, 8, 0, 0, 0, 0, 0, 1, 2 },
		{ "convlstm-color", 10, 9, 0, 0, 0, 0, 0, 3, 2 },
		{ "convlstm-color", 12, 16, 0, 0, 0, 0, 0, 1, 3 },
		{ NULL, 7, 10, 2, 3, 6, 1, 0, 3, 4 },	/* Conv3D, 6 channels */
		{ NULL, 9, 7, 2, 5, 7, 3, 1, 3, 3 },	/* Conv2D, 7 channels: 8 + ... */
		{ NULL, 6, 5, 2, 4, 11, 5, 1, 1, 2 },	/* Conv2D, 5 outputs */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fwd_case *fc = &cases[i];
		struct nb_model m;
		double t0 = now();

		if (fc->model) {
			m = *nb_model_find(fc->model);
		} else {
			memset(&m, 0, sizeof(m));
			m.name = "test";
			m.channels = fc->conv2d ? 3 : 1;
			m.layers = fc->layers;
			m.filters[0] = fc->f0;
			m.filters[1] = fc->f1;
			m.head = fc->conv2d ? NB_HEAD_CONV2D : NB_HEAD_CONV3D;
			m.head_out = fc->head_out;
		}
		m.height = fc->height;
		m.width = fc->width;

		struct nb_weights *w = nb_weights_alloc(&m);
		size_t nin = (size_t)fc->batch * fc->frames * m.height * m.width * m.channels;
		size_t nout = nb_output_count(&m, fc->batch, fc->frames);
		float *in = svm(nin), *out = svm(nout), *ref = malloc(nout * 4);
		struct cmp cm = { .tol_abs = 1e-4, .tol_rel = 1e-3 };	/* bench.c, models */

		struct nb_rng r;

		/*
		 * Random frames, not the moving squares: a small crop of the
		 * squares' canvas can be empty, and zeros check nothing.
		 */
		nb_weights_init(w, 5);
		nb_rng_seed(&r, 11);
		fill(&r, in, nin, 0, 1);
		/*
		 * Keras' initial BN (identity) and zero biases let the signal
		 * fade through four layers until the output hardly depends on
		 * the first ones; these keep every layer and step visible.
		 */
		for (int l = 0; l < m.layers; l++) {
			fill(&r, w->bias[l], 4 * m.filters[l], -0.5, 0.5);
			fill(&r, w->gamma[l], m.filters[l], 2, 6);
			fill(&r, w->beta[l], m.filters[l], -0.5, 0.5);
		}
		fill(&r, w->head_bias, m.head_out, -0.5, 0.5);
		for (size_t k = 0; k < nout; k++)
			out[k] = 100;
		forward(w, in, fc->batch, fc->frames, out);
		nb_ref_forward(w, in, fc->batch, fc->frames, ref);
		compare(&cm, out, ref, nout);
		tap(cm.bad == 0, "forward %s: %d layers of %d..%d filters, %dx%d, batch %d x %d frames, %s head: within 1e-4 + 1e-3 |ref| (max |d| %.1e, %.2f s)",
		    fc->model ? fc->model : "test model", m.layers, m.filters[0],
		    m.filters[m.layers - 1], m.height, m.width, fc->batch,
		    fc->frames, m.head == NB_HEAD_CONV3D ? "Conv3D" : "Conv2D",
		    cm.max_abs, now() - t0);
		clSVMFree(ctx, in);
		clSVMFree(ctx, out);
		free(ref);
		nb_weights_free(w);
	}
}

static void test_peak(void)
{
	const int blocks = 3, threads = 128;
	const long iters = 20000;
	const float m = 0.9999f, k = 0.01f, step0 = 0;
	float *out = svm(blocks * threads), expect = 1.0f;
	size_t bad = 0;
	int i = 0;

	arg_ptr(k_peak, &i, out);
	arg(k_peak, &i, sizeof(long), &iters);
	arg(k_peak, &i, sizeof(float), &m);
	arg(k_peak, &i, sizeof(float), &k);
	arg(k_peak, &i, sizeof(float), &step0);
	launch(k_peak, (struct nbk_geom){ { blocks, 1, 1 }, threads });
	for (long n = 0; n < iters; n++)
		expect = fmaf(expect, m, k);
	for (int n = 0; n < blocks * threads; n++)
		bad += out[n] != expect;
	tap(bad == 0, "fp32-peak: every lane of %d x %d threads equals fmaf() after %ld iterations (%zu differ)",
	    blocks, threads, iters, bad);
	clSVMFree(ctx, out);
}

static void test_triad(void)
{
	/* more than the grid's threads: the grid-stride loop goes round */
	const size_t n = (size_t)4096 * NBK_TRIAD_THREADS * 2 + 77;
	float *a = svm(n), *b = svm(n), *c = svm(n), s = 0.5f;
	long ln = (long)n;
	size_t bad = 0;
	int i = 0;

	for (size_t j = 0; j < n; j++) {
		a[j] = -1;
		b[j] = (float)(j & 1023);
		c[j] = (float)(j & 7);
	}
	arg_ptr(k_triad, &i, a);
	arg_ptr(k_triad, &i, b);
	arg_ptr(k_triad, &i, c);
	arg(k_triad, &i, sizeof(float), &s);
	arg(k_triad, &i, sizeof(long), &ln);
	launch(k_triad, nbk_triad_geom(n));
	for (size_t j = 0; j < n; j++)
		bad += a[j] != (float)(j & 1023) + 0.5f * (float)(j & 7);
	tap(bad == 0, "triad: %zu elements, a = b + 0.5 c exactly (%zu wrong)", n, bad);
	clSVMFree(ctx, a);
	clSVMFree(ctx, b);
	clSVMFree(ctx, c);
}

static void release(void)
{
	clReleaseKernel(k_step);
	clReleaseKernel(k_head3d);
	clReleaseKernel(k_head2d);
	clReleaseKernel(k_peak);
	clReleaseKernel(k_triad);
}

int main(int argc, char **argv)
{
	cl_platform_id plat;
	cl_int e;
	double secs, t0 = now();
	char name[256];

	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL_DIR (hip/kernels)\n", argv[0]);
		return 2;
	}
	CL_OK(clGetPlatformIDs(1, &plat, NULL));
	CL_OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	CL_OK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL));
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	if (e)
		die("clCreateContext", e);
	queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
	if (e)
		die("clCreateCommandQueueWithProperties", e);

	cl_program prog = build(argv[1], 0, &secs);

	printf("# OpenCL device: %s; kernels built as OpenCL C in %.2f s\n", name, secs);
	kernels(prog);
	test_cells();
	test_forward();
	test_peak();
	test_triad();
	release();
	clReleaseProgram(prog);

	/* the mutation: without its read-after-write barrier the step must fail */
	prog = build(argv[1], 1, &secs);
	kernels(prog);
	struct cell_case cc = { 3, 9, 13, 3, 5, 1 };
	double err;
	int pass = cell_check(&cc, &err);

	tap(!pass, "the step kernel without its read-after-write barrier fails validation (max |d| %.1e)", err);
	release();
	clReleaseProgram(prog);
	clReleaseCommandQueue(queue);
	clReleaseContext(ctx);
	printf("# %d tests, %d failed, %.1f s\n", tests, failed, now() - t0);
	return failed ? 1 : 0;
}
