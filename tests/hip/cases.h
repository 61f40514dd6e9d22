/* SPDX-License-Identifier: MIT */
/*
 * The kernels' checks against the engine's reference, shared by the two
 * executors that run the kernel source on the CPU (tests/hip/pocl.c:
 * OpenCL on PoCL; tests/hip/fibers.c: one fiber per GPU thread). Included
 * first by each, which then defines these static launchers with
 * hip/nbk.cpp's arguments:
 *
 *   float *dev_alloc(size_t n);   void dev_free(float *p);
 *   void step(const struct nbk_step *p);
 *   void head3d(int b, int t, int h, int w, int c, const float *in,
 *               const float *kernel, const float *bias, float *out);
 *   void head2d(int b, int h, int w, int c, int o, const float *in,
 *               const float *kernel, const float *bias, float *out);
 *
 * Device memory must be readable and writable by the host (PoCL: fine-
 * grained SVM), so that a time step of a sequence is a pointer into it.
 */
#ifndef NBK_TEST_CASES_H
#define NBK_TEST_CASES_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "nbk.h"
#include "kernels/nbk_layout.h"
#include "../tap.h"

/* the executor's (above) */
static float *dev_alloc(size_t n);
static void dev_free(float *p);
static void step(const struct nbk_step *p);
static void head3d(int b, int t, int h, int w, int c, const float *in,
		   const float *kernel, const float *bias, float *out);
static void head2d(int b, int h, int w, int c, int o, const float *in,
		   const float *kernel, const float *bias, float *out);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
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

/* nb_ref_cell, and BN on its h as nb_ref_forward does it */
static void cell_reference(const struct cell_case *cc,
			   const struct nb_weights *w, const float *x,
			   const float *h, const float *c, float *rh, float *rc,
			   float *ry)
{
	const int f = cc->filters;
	const size_t ns = (size_t)cc->batch * cc->height * cc->width * f;

	nb_ref_cell(cc->batch, cc->height, cc->width, cc->cin, f, w->kernel[0],
		    w->rkernel[0], w->bias[0], x, h, c, rh, rc);
	for (size_t i = 0; i < ns; i++) {
		int j = i % f;

		ry[i] = (float)((rh[i] - w->mean[0][j]) /
				sqrt((double)w->var[0][j] + NB_BN_EPSILON) *
				w->gamma[0][j] + w->beta[0][j]);
	}
}

/* One step against nb_ref_cell: h, c and the BN output y; max error out. */
static int cell_check(const struct cell_case *cc, double *err)
{
	const int b = cc->batch, f = cc->filters;
	const size_t px = (size_t)cc->height * cc->width;
	const size_t nx = b * px * cc->cin, ns = b * px * f;
	struct nb_weights *w = cell_weights(cc, 7 + cc->cin);
	float *x = dev_alloc(nx), *h = dev_alloc(ns), *c = dev_alloc(ns), *ho = dev_alloc(ns), *co = dev_alloc(ns);
	float *y = dev_alloc(ns), *wp = dev_alloc(nbk_layout_packed_count(cc->cin, f));
	float *sc = dev_alloc(f), *sh = dev_alloc(f);
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
	cell_reference(cc, w, x, h, c, rh, rc, ry);
	compare(&cm, ho, rh, ns);
	compare(&cm, co, rc, ns);
	compare(&cm, y, ry, ns);
	*err = cm.max_abs;
	for (float *q[] = { x, h, c, ho, co, y, wp, sc, sh }, **e = q; e < q + 9; e++)
		dev_free(*e);
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

/* The step being launched: its layer and frame, for a planted fault (fibers.c). */
static int step_layer, step_frame;

/* One layer over every time step; returns its output (freed by the caller). */
static float *layer(const struct nb_weights *w, int l, const float *seq,
		    int batch, int frames)
{
	const struct nb_model *m = &w->model;
	const size_t px = (size_t)m->height * m->width;
	const int f = m->filters[l], cin = nb_layer_cin(m, l);
	const int final_only = m->head == NB_HEAD_CONV2D && l == m->layers - 1;
	float *wp = dev_alloc(nbk_layout_packed_count(cin, f));
	float *sc = dev_alloc(f), *sh = dev_alloc(f);
	float *hs[2] = { dev_alloc(batch * px * f), dev_alloc(batch * px * f) };
	float *cs[2] = { dev_alloc(batch * px * f), dev_alloc(batch * px * f) };
	float *next = dev_alloc((final_only ? 1 : frames) * batch * px * f);

	nbk_layout_pack(cin, f, w->kernel[l], w->rkernel[l], w->bias[l], wp);
	nbk_layout_bn_fold(f, w->gamma[l], w->beta[l], w->mean[l], w->var[l],
			   NB_BN_EPSILON, sc, sh);
	for (int t = 0; t < frames; t++) {
		struct nbk_step p = {
			.batch = batch, .height = m->height, .width = m->width,
			.cin = cin, .filters = f, .x = seq + t * px * cin,
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
		step_layer = l;
		step_frame = t;
		step(&p);
	}
	for (float *q[] = { wp, sc, sh, hs[0], hs[1], cs[0], cs[1] }, **e = q;
	     e < q + 7; e++)
		dev_free(*e);
	return next;
}

/*
 * A forward pass chained as the plugin chains it: per layer, per time
 * step, the whole batch per launch, x and y addressed inside sequence
 * tensors through their batch strides; the Conv2D model's last layer
 * writes its BN output at the last step only, into (B, H, W, F).
 */
static void forward_layers(const struct nb_weights *w, const float *in, int batch,
			   int frames, float *const *layers, float *out)
{
	const struct nb_model *m = &w->model;
	const int f = m->filters[m->layers - 1];
	const size_t nk = (m->head == NB_HEAD_CONV3D ? 27 : 9) * f * m->head_out;
	float *seq = NULL, *hk = dev_alloc(nk), *hb = dev_alloc(m->head_out);

	for (int l = 0; l < m->layers; l++) {
		float *next = layer(w, l, seq ? seq : in, batch, frames);

		/* each layer's output as a forward hook sees it */
		if (layers)
			memcpy(layers[l], next,
			       nb_layer_output_count(m, l, batch, frames) * sizeof(float));

		if (seq)
			dev_free(seq);
		seq = next;
	}
	memcpy(hk, w->head_kernel, nk * sizeof(float));
	memcpy(hb, w->head_bias, m->head_out * sizeof(float));
	if (m->head == NB_HEAD_CONV3D)
		head3d(batch, frames, m->height, m->width, f, seq, hk, hb, out);
	else
		head2d(batch, m->height, m->width, f, m->head_out, seq, hk, hb, out);
	dev_free(hk);
	dev_free(hb);
	dev_free(seq);
}

static void forward(const struct nb_weights *w, const float *in, int batch,
		    int frames, float *out)
{
	forward_layers(w, in, batch, frames, NULL, out);
}

struct fwd_case {
	const char *model;	/* the real model's layers, or NULL: the ones below */
	int height, width, layers, f0, f1, head_out, conv2d;
	int batch, frames;
};

/* A forward case's model: a real one's layers, or the case's own. */
static struct nb_model case_model(const struct fwd_case *fc)
{
	struct nb_model m;

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
	return m;
}

/*
 * Weights and an input for a forward case: random frames, not the moving
 * squares (a small crop of the squares' canvas can be empty, and zeros
 * check nothing); Keras' initial BN (identity) and zero biases let the
 * signal fade through four layers until the output hardly depends on the
 * first ones: these keep every layer and step visible.
 */
static struct nb_weights *case_weights(const struct nb_model *m, float *in, size_t nin)
{
	struct nb_weights *w = nb_weights_alloc(m);
	struct nb_rng r;

	nb_weights_init(w, 5);
	nb_rng_seed(&r, 11);
	fill(&r, in, nin, 0, 1);
	for (int l = 0; l < m->layers; l++) {
		fill(&r, w->bias[l], 4 * m->filters[l], -0.5, 0.5);
		fill(&r, w->gamma[l], m->filters[l], 2, 6);
		fill(&r, w->beta[l], m->filters[l], -0.5, 0.5);
	}
	fill(&r, w->head_bias, m->head_out, -0.5, 0.5);
	return w;
}

/* A forward pass against nb_ref_forward; *m is the model that ran. */
static int model_check(const struct fwd_case *fc, struct nb_model *mp,
		       double *err)
{
	struct nb_model m = case_model(fc);
	size_t nin = (size_t)fc->batch * fc->frames * m.height * m.width * m.channels;
	float *in = dev_alloc(nin);
	struct nb_weights *w = case_weights(&m, in, nin);
	size_t nout = nb_output_count(&m, fc->batch, fc->frames);
	float *out = dev_alloc(nout), *ref = malloc(nout * 4);
	struct cmp cm = { .tol_abs = 1e-4, .tol_rel = 1e-3 };	/* bench.c, models */

	for (size_t k = 0; k < nout; k++)
		out[k] = 100;
	forward(w, in, fc->batch, fc->frames, out);
	nb_ref_forward(w, in, fc->batch, fc->frames, ref);
	compare(&cm, out, ref, nout);
	*err = cm.max_abs;
	*mp = m;
	dev_free(in);
	dev_free(out);
	free(ref);
	nb_weights_free(w);
	return cm.bad == 0;
}

static void test_model(const struct fwd_case *fc)
{
	struct nb_model m;
	double err, t0 = now();
	int pass = model_check(fc, &m, &err);

	tap(pass, "forward %s: %d layers of %d..%d filters, %dx%d, batch %d x %d frames, %s head: within 1e-4 + 1e-3 |ref| (max |d| %.1e, %.2f s)",
	    fc->model ? fc->model : "test model", m.layers, m.filters[0],
	    m.filters[m.layers - 1], m.height, m.width, fc->batch,
	    fc->frames, m.head == NB_HEAD_CONV3D ? "Conv3D" : "Conv2D",
	    err, now() - t0);
}

static void test_forward(void)
{
	static const struct fwd_case cases[] = {
		{ "convlstm-mono", 11, 13, 0, 0, 0, 0, 0, 3, 3 },
		{ "convlstm-mono", 8, 8, 0, 0, 0, 0, 0, 1, 2 },
		{ "convlstm-color", 10, 9, 0, 0, 0, 0, 0, 3, 2 },
		{ "convlstm-color", 12, 16, 0, 0, 0, 0, 0, 1, 3 },
		{ NULL, 7, 10, 2, 3, 6, 1, 0, 3, 4 },	/* Conv3D, 6 channels */
		{ NULL, 9, 7, 2, 5, 7, 3, 1, 3, 3 },	/* Conv2D, 7 channels: a partial stage */
		{ NULL, 6, 5, 2, 4, 11, 5, 1, 1, 2 },	/* Conv2D, 5 outputs */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_model(&cases[i]);
}

/*
 * Where the forward pass leaves the reference, layer by layer, as navibench
 * run locates a failed validation (engine/diverge.c): convlstm-mono at
 * 8x8, 3 frames, item 0 of 2, the models' tolerance.
 */
static void diverge_locate(struct nb_divergence *d)
{
	const struct fwd_case fc = { "convlstm-mono", 8, 8, 0, 0, 0, 0, 0, 2, 3 };
	struct nb_model m = case_model(&fc);
	size_t nin = (size_t)fc.batch * fc.frames * m.height * m.width * m.channels;
	float *in = dev_alloc(nin), *out = dev_alloc(nb_output_count(&m, fc.batch, fc.frames));
	struct nb_weights *w = case_weights(&m, in, nin);
	float *layers[NB_MAX_LAYERS];

	for (int l = 0; l < m.layers; l++)
		layers[l] = dev_alloc(nb_layer_output_count(&m, l, fc.batch, fc.frames));
	forward_layers(w, in, fc.batch, fc.frames, layers, out);
	nb_diverge_find(w, in, fc.frames, layers, out, 1e-4, 1e-3, d);
	for (int l = 0; l < m.layers; l++)
		dev_free(layers[l]);
	dev_free(in);
	dev_free(out);
	nb_weights_free(w);
}

/* The kernels as they are: no layer located as wrong. */
static void test_diverge(void)
{
	struct nb_divergence d;
	double t0 = now();

	diverge_locate(&d);
	tap(d.ran && !d.found, "every layer's output, frame by frame, within the tolerance of the reference's (largest |d| per layer %.1e %.1e %.1e %.1e, head %.1e; %.2f s)",
	    d.layer_max[0], d.layer_max[1], d.layer_max[2], d.layer_max[3], d.layer_max[4],
	    now() - t0);
}

static inline int mut_step(double *err)
{
	/* 3 + 2 K stages: a stage follows a stage */
	const struct cell_case cc = { 2, 16, 16, 13, 17, 1 };

	return cell_check(&cc, err);
}

static inline int mut_mono(double *err)
{
	/* 40 channels: 2 stages of the Conv3D head */
	const struct fwd_case fc = { "convlstm-mono", 8, 8, 0, 0, 0, 0, 0, 1, 2 };
	struct nb_model m;

	return model_check(&fc, &m, err);
}

static inline int mut_color(double *err)
{
	/* 40 channels: 5 stages of the Conv2D head */
	const struct fwd_case fc = { "convlstm-color", 10, 9, 0, 0, 0, 0, 0, 3, 2 };
	struct nb_model m;

	return model_check(&fc, &m, err);
}

#include "train_cases.h"

#endif /* NBK_TEST_CASES_H */
