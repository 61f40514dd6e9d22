// SPDX-License-Identifier: MIT
/*
 * The plugin's backend against the reference, without a GPU: plugin.cpp
 * linked with the fake runtime (device memory is host memory) and
 * nbk_host.c (nbk.h in plain loops), built with AddressSanitizer, so that
 * a device buffer too small, a wrong stride, a step out of order or a
 * state read while written shows as a difference from nb_ref_forward()
 * or as an ASan report. TAP lines; exit status 1 when a check failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plugin.h"
#include "../tap.h"

const struct nb_plugin *navibench_plugin(void);
extern size_t fake_hip_to_device_bytes;	/* tests/hip/fake_hip.c */


static double max_diff(const float *a, const float *b, size_t n)
{
	double d = 0;

	for (size_t i = 0; i < n; i++) {
		double e = fabs((double)a[i] - b[i]);

		if (!(e <= d))
			d = e;	/* NaN wins */
	}
	return d;
}

/* small, odd shapes: sizes not multiples of anything, Cin 1 and 3 */
static const struct nb_model models[] = {
	{ .name = "mono-small", .height = 5, .width = 7, .channels = 1,
	  .layers = 3, .filters = { 4, 3, 5 }, .head = NB_HEAD_CONV3D,
	  .head_out = 1 },
	{ .name = "color-small", .height = 6, .width = 3, .channels = 3,
	  .layers = 2, .filters = { 5, 2 }, .head = NB_HEAD_CONV2D,
	  .head_out = 3 },
};

/* BN away from the identity, so that a missing or misplaced BN shows */
static void perturb_bn(struct nb_weights *w)
{
	for (int l = 0; l < w->model.layers; l++)
		for (int j = 0; j < w->model.filters[l]; j++) {
			w->gamma[l][j] = 0.5f + 0.25f * j;
			w->beta[l][j] = 0.1f * (j - 1);
			w->mean[l][j] = 0.05f * j;
			w->var[l][j] = 1.0f + 0.5f * j;
		}
}

static void forward_case(const struct nb_backend_ops *o, void *ctx,
			 const struct nb_weights *w, void *prog, int batch,
			 int frames)
{
	const struct nb_model *m = &w->model;
	size_t nin = (size_t)batch * frames * m->height * m->width * m->channels;
	size_t nout = nb_output_count(m, batch, frames);
	float *in = malloc(nin * sizeof(float)), *out = malloc(nout * sizeof(float));
	float *ref = malloc(nout * sizeof(float));
	char err[256] = "", what[400];
	int rc;

	nb_movie_generate(7, batch, frames, m->height, m->width, m->channels, in,
			  NULL);
	rc = o->model_forward(ctx, prog, in, batch, frames, out, err, sizeof(err));
	nb_ref_forward(w, in, batch, frames, ref);
	double d = rc ? INFINITY : max_diff(out, ref, nout);

	snprintf(what, sizeof(what), "%s, batch %d, %d frames: within 1e-5 of nb_ref_forward (%.2g)%s%s",
		 m->name, batch, frames, d, rc ? ": " : "", err);
	tap(!rc && d <= 1e-5, what);
	free(in);
	free(out);
	free(ref);
}

/* model_forward_layers: every layer's output as the reference's, the output as model_forward's */
static void layers_case(const struct nb_backend_ops *o, void *ctx,
			const struct nb_weights *w, void *prog, int batch, int frames)
{
	const struct nb_model *m = &w->model;
	size_t nin = (size_t)batch * frames * m->height * m->width * m->channels;
	size_t nout = nb_output_count(m, batch, frames);
	float *in = malloc(nin * sizeof(float)), *out = malloc(nout * sizeof(float));
	float *plain = malloc(nout * sizeof(float)), *ref = malloc(nout * sizeof(float));
	float *got[NB_MAX_LAYERS], *want[NB_MAX_LAYERS];
	char err[256] = "", what[400];
	double d = 0;
	int rc;

	for (int l = 0; l < m->layers; l++) {
		got[l] = malloc(nb_layer_output_count(m, l, batch, frames) * sizeof(float));
		want[l] = malloc(nb_layer_output_count(m, l, batch, frames) * sizeof(float));
	}
	nb_movie_generate(9, batch, frames, m->height, m->width, m->channels, in, NULL);
	rc = o->model_forward_layers(ctx, prog, in, batch, frames, got, out, err, sizeof(err));
	if (!rc)
		rc = o->model_forward(ctx, prog, in, batch, frames, plain, err, sizeof(err));
	nb_ref_forward_layers(w, in, batch, frames, want, ref);
	for (int l = 0; !rc && l < m->layers; l++) {
		double e = max_diff(got[l], want[l], nb_layer_output_count(m, l, batch, frames));

		if (!(e <= d))
			d = e;
	}
	snprintf(what, sizeof(what), "%s, batch %d, %d frames: model_forward_layers: each layer within 1e-5 of the reference's (%.2g), the output model_forward's%s%s",
		 m->name, batch, frames, d, rc ? ": " : "", err);
	tap(!rc && d <= 1e-5 && max_diff(out, plain, nout) == 0 && max_diff(out, ref, nout) <= 1e-5,
	      what);
	for (int l = 0; l < m->layers; l++) {
		free(got[l]);
		free(want[l]);
	}
	free(in);
	free(out);
	free(plain);
	free(ref);
}

static void models_test(const struct nb_backend_ops *o, void *ctx)
{
	static const int shapes[][2] = {
		{ 1, 1 }, { 3, 4 }, { 3, 2 }, { 3, 5 }, { 1, 2 }, { 3, 4 },
	};

	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		struct nb_weights *w = nb_weights_alloc(&models[i]);
		char err[256] = "";
		void *prog = NULL;

		nb_weights_init(w, 11 + i);
		perturb_bn(w);
		tap(!o->model_load(ctx, w, &prog, err, sizeof(err)),
		      models[i].name);
		if (!prog) {
			nb_weights_free(w);
			continue;
		}
		/* new buffers for each shape, and back to one used before */
		for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
			forward_case(o, ctx, w, prog, shapes[s][0], shapes[s][1]);
		layers_case(o, ctx, w, prog, 3, 4);
		float x;
		int rc = o->model_forward(ctx, prog, &x, 0, 3, &x, err, sizeof(err));
		tap(rc && strstr(err, "batch 0"), "model_forward refuses batch 0, saying so");
		o->model_free(ctx, prog);
		nb_weights_free(w);
	}
}

/* two steps from a random state against two reference steps, batch 2 */
static void cell_test(const struct nb_backend_ops *o, void *ctx,
		      const struct nb_weights *w)
{
	enum { B = 2, H = 4, W = 5, CIN = 3, F = 5 };	/* color-small's layer 0 */
	static float x[B * H * W * CIN], h[B * H * W * F], c[B * H * W * F];
	static float h1[B * H * W * F], c1[B * H * W * F];
	static float h2[B * H * W * F], c2[B * H * W * F];
	static float ho[B * H * W * F], co[B * H * W * F];
	struct nb_cell_desc d = { B, H, W, CIN, F, w->kernel[0], w->rkernel[0],
				  w->bias[0] };
	struct nb_rng r;
	char err[256] = "";
	void *cell = NULL;

	nb_rng_seed(&r, 5);
	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		x[i] = (float)(2 * nb_rng_uniform(&r) - 1);
	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		h[i] = (float)(nb_rng_uniform(&r) - 0.5);
		c[i] = (float)(2 * nb_rng_uniform(&r) - 1);
	}
	nb_ref_cell(B, H, W, CIN, F, d.kernel, d.rkernel, d.bias, x, h, c, h1, c1);
	nb_ref_cell(B, H, W, CIN, F, d.kernel, d.rkernel, d.bias, x, h1, c1, h2, c2);
	if (o->cell_load(ctx, &d, &cell, err, sizeof(err))) {
		tap(0, err);
		return;
	}
	o->cell_set(ctx, cell, x, h, c);
	o->cell_step(ctx, cell);
	o->cell_step(ctx, cell);
	o->cell_get(ctx, cell, ho, co);
	tap(max_diff(ho, h2, sizeof(ho) / sizeof(ho[0])) <= 1e-6 &&
	      max_diff(co, c2, sizeof(co) / sizeof(co[0])) <= 1e-6,
	      "cell: set, two steps, get: h and c as two reference steps");
	o->cell_set(ctx, cell, x, h, c);
	o->cell_step(ctx, cell);
	o->cell_get(ctx, cell, ho, co);
	tap(max_diff(ho, h1, sizeof(ho) / sizeof(ho[0])) <= 1e-6 &&
	      max_diff(co, c1, sizeof(co) / sizeof(co[0])) <= 1e-6,
	      "cell: set again, one step: as one reference step");
	o->cell_free(ctx, cell);
}

static void micro_test(const struct nb_backend_ops *o, void *ctx)
{
	enum { N = 1000 };
	static float a[N], b[N], c[N];
	float lane = 0, expect = 1.0f;
	double flops = o->fma_peak(ctx, 1000, 0.9999f, 0.01f, &lane);
	size_t bad = 0;

	for (int i = 0; i < 1000; i++)
		expect = fmaf(expect, 0.9999f, 0.01f);
	tap(lane == expect && flops > 0,
	      "fma_peak: every thread's lane equals fmaf()'s chain; FLOPs counted");
	for (int i = 0; i < N; i++) {
		b[i] = (float)(i & 1023);
		c[i] = (float)(i & 7);
	}
	o->triad(ctx, a, b, c, 0.5f, N);
	size_t before = fake_hip_to_device_bytes;

	o->triad(ctx, a, b, c, 0.5f, N);	/* a repeat: nothing to upload */
	tap(fake_hip_to_device_bytes == before,
	      "triad: a repeat with the same b and c uploads nothing");
	o->triad(ctx, a, c, b, 0.5f, N);	/* new contents, same size */
	for (int i = 0; i < N; i++)
		bad += a[i] != (float)(i & 7) + 0.5f * (float)(i & 1023);
	tap(!bad && fake_hip_to_device_bytes == before + 2 * N * sizeof(float),
	      "triad: a = b + s c on every element, with the latest b and c, uploaded");
}

int main(void)
{
	const struct nb_plugin *p = navibench_plugin();
	const struct nb_backend_ops *o = p->ops;
	struct nb_backend_config cfg = { .device = 0 };
	struct nb_weights *w = nb_weights_alloc(&models[1]);
	char err[256] = "";
	void *ctx = NULL;

	if (o->open(&cfg, &ctx, err, sizeof(err))) {
		printf("not ok 1 - open: %s\n", err);
		return 1;
	}
	models_test(o, ctx);
	nb_weights_init(w, 3);
	cell_test(o, ctx, w);
	micro_test(o, ctx);
	nb_weights_free(w);
	o->close(ctx);
	return tap_done(NULL);
}
