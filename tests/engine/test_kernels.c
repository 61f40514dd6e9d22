// SPDX-License-Identifier: MIT
/*
 * The CPU backend against the reference: model forward passes and single
 * cells on varied shapes, on every instruction set this CPU has, and the
 * FMA peak and triad kernels' results.
 *
 * Prints "ok N - name" / "not ok N - name" lines and a last line
 * "kernels: N passed, N failed".
 *
 *   test_kernels               small shapes, every ISA
 *   test_kernels --full        and both models at their full size
 *   test_kernels --full-only   only the full-size models
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_kernels.h"
#include "engine/engine.h"
#include "../tap.h"



/* the tolerance navibench run uses (engine/bench.c) */
#define TOL_ABS 2e-4

static double max_abs(const float *a, const float *b, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++) {
		double d = fabs((double)a[i] - b[i]);

		if (!(d <= m))
			m = d;	/* NaN wins */
	}
	return m;
}

/* random BN parameters, so BN is not the identity */
static void perturb_bn(struct nb_weights *w, uint64_t seed)
{
	struct nb_rng r;

	nb_rng_seed(&r, seed);
	for (int l = 0; l < w->model.layers; l++)
		for (int j = 0; j < w->model.filters[l]; j++) {
			w->gamma[l][j] = (float)(0.5 + nb_rng_uniform(&r));
			w->beta[l][j] = (float)(nb_rng_uniform(&r) - 0.5);
			w->mean[l][j] = (float)(0.2 * (nb_rng_uniform(&r) - 0.5));
			w->var[l][j] = (float)(0.5 + nb_rng_uniform(&r));
		}
	for (int l = 0; l < w->model.layers; l++)
		for (int j = 0; j < 4 * w->model.filters[l]; j++)
			w->bias[l][j] += (float)(0.4 * (nb_rng_uniform(&r) - 0.5));
}

static void check_model(const char *isa, int threads, struct nb_model m,
			int batch, int frames, const char *what)
{
	char err[256];
	struct nb_backend_config cfg = { .threads = threads, .isa = isa };
	void *ctx = NULL, *prog = NULL;
	struct nb_weights *w = nb_weights_alloc(&m);
	size_t nin = (size_t)batch * frames * m.height * m.width * m.channels;
	size_t nout = nb_output_count(&m, batch, frames);
	float *in = malloc(nin * sizeof(float));
	float *ref = malloc(nout * sizeof(float));
	float *out = malloc(nout * sizeof(float));
	struct nb_rng r;

	if (!w || !in || !ref || !out)
		abort();
	nb_weights_init(w, 7);
	perturb_bn(w, 8);
	nb_rng_seed(&r, 9);
	if (m.channels <= NB_MOVIE_MAX_CHANNELS && m.height <= 80 && m.width <= 80)
		nb_movie_generate(11, batch, frames, m.height, m.width,
				  m.channels, in, NULL);
	else
		for (size_t i = 0; i < nin; i++)
			in[i] = (float)nb_rng_uniform(&r);
	nb_ref_forward(w, in, batch, frames, ref);
	if (nb_cpu_backend.open(&cfg, &ctx, err, sizeof(err)) ||
	    nb_cpu_backend.model_load(ctx, w, &prog, err, sizeof(err)) ||
	    nb_cpu_backend.model_forward(ctx, prog, in, batch, frames, out, err,
					 sizeof(err))) {
		tap(0, "%s %s: %s", isa, what, err);
	} else {
		double e = max_abs(out, ref, nout);

		tap(e <= TOL_ABS, "%s, %d threads: %s: max abs error %.2e (tolerance %.0e)",
		       isa, threads, what, e, TOL_ABS);
		/* a second pass on the same program gives the same bits */
		memset(ref, 0, nout * sizeof(float));
		nb_cpu_backend.model_forward(ctx, prog, in, batch, frames, ref,
					     err, sizeof(err));
		tap(!memcmp(ref, out, nout * sizeof(float)),
		       "%s: %s: second pass identical", isa, what);
	}
	if (prog)
		nb_cpu_backend.model_free(ctx, prog);
	if (ctx)
		nb_cpu_backend.close(ctx);
	nb_weights_free(w);
	free(in);
	free(ref);
	free(out);
}

static void check_cell(const char *isa, int batch, int h, int wd, int cin,
		       int f, int steps)
{
	char err[256];
	struct nb_backend_config cfg = { .threads = 2, .isa = isa };
	struct nb_model m = { .height = h, .width = wd, .channels = cin,
			      .layers = 1, .filters = { f },
			      .head = NB_HEAD_CONV2D, .head_out = 1 };
	struct nb_weights *w = nb_weights_alloc(&m);
	size_t nx = (size_t)batch * h * wd * cin, ns = (size_t)batch * h * wd * f;
	float *x = malloc(nx * 4), *hs = malloc(ns * 4), *cs = malloc(ns * 4);
	float *h2 = malloc(ns * 4), *c2 = malloc(ns * 4);
	float *ho = malloc(ns * 4), *co = malloc(ns * 4);
	void *ctx = NULL, *cell = NULL;
	struct nb_rng r;

	nb_weights_init(w, 3);
	nb_rng_seed(&r, 4);
	for (size_t i = 0; i < nx; i++)
		x[i] = (float)(nb_rng_uniform(&r) * 2 - 1);
	for (size_t i = 0; i < ns; i++) {
		hs[i] = (float)(nb_rng_uniform(&r) - 0.5);
		cs[i] = (float)(nb_rng_uniform(&r) * 2 - 1);
	}
	struct nb_cell_desc d = { batch, h, wd, cin, f, w->kernel[0],
				  w->rkernel[0], w->bias[0] };
	if (nb_cpu_backend.open(&cfg, &ctx, err, sizeof(err)) ||
	    nb_cpu_backend.cell_load(ctx, &d, &cell, err, sizeof(err))) {
		tap(0, "%s cell: %s", isa, err);
		goto out;
	}
	nb_cpu_backend.cell_set(ctx, cell, x, hs, cs);
	for (int s = 0; s < steps; s++) {
		nb_cpu_backend.cell_step(ctx, cell);
		nb_ref_cell(batch, h, wd, cin, f, w->kernel[0], w->rkernel[0],
			    w->bias[0], x, hs, cs, h2, c2);
		memcpy(hs, h2, ns * 4);
		memcpy(cs, c2, ns * 4);
	}
	nb_cpu_backend.cell_get(ctx, cell, ho, co);
	double eh = max_abs(ho, hs, ns), ec = max_abs(co, cs, ns);
	tap(eh <= 1e-5 && ec <= 1e-5,
	       "%s cell batch %d %dx%d Cin %d F %d, %d steps: h error %.1e, c error %.1e",
	       isa, batch, h, wd, cin, f, steps, eh, ec);
out:
	if (cell)
		nb_cpu_backend.cell_free(ctx, cell);
	if (ctx)
		nb_cpu_backend.close(ctx);
	nb_weights_free(w);
	free(x); free(hs); free(cs); free(h2); free(c2); free(ho); free(co);
}

static void check_peak(const char *isa)
{
	char err[256];
	struct nb_backend_config cfg = { .threads = 2, .isa = isa };
	void *ctx;
	float lane, expect = 1.0f;
	const long iters = 1000;

	if (nb_cpu_backend.open(&cfg, &ctx, err, sizeof(err))) {
		tap(0, "%s peak: %s", isa, err);
		return;
	}
	const struct nb_cpu_kernels *k = !strcmp(isa, "avx512") ? &nb_cpu_kernels_avx512 :
		!strcmp(isa, "avx2") ? &nb_cpu_kernels_avx2 : &nb_cpu_kernels_generic;
	float klane;
	double flops = nb_cpu_backend.fma_peak(ctx, iters, 0.9999f, 0.01f, &lane);
	double kflops = k->fma_loop(iters, 0.9999f, 0.01f, &klane);

	for (long i = 0; i < iters; i++)
		expect = fmaf(expect, 0.9999f, 0.01f);
	tap(lane == expect && flops > 0 && klane == expect && kflops > 0,
	       "%s fma peak loop: lane %.9g (backend %.9g), expected %.9g", isa,
	       klane, lane, expect);

	size_t n = 100003;
	float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		b[i] = (float)(i % 1024);
		c[i] = 2.0f;
	}
	nb_cpu_backend.triad(ctx, a, b, c, 0.5f, n);
	for (size_t i = 0; i < n; i++)
		bad += a[i] != (float)(i % 1024) + 1.0f;
	tap(!bad, "%s triad over %zu floats: %d wrong", isa, n, bad);
	free(a); free(b); free(c);
	nb_cpu_backend.close(ctx);
}

int main(int argc, char **argv)
{
	const char *isas[3];
	int nisa = 0;
	int full = argc > 1 && !strncmp(argv[1], "--full", 6);
	int only = argc > 1 && !strcmp(argv[1], "--full-only");

	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
		isas[nisa++] = "avx512";
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		isas[nisa++] = "avx2";
	isas[nisa++] = "generic";

	for (int i = 0; i < nisa && !only; i++) {
		const char *isa = isas[i];
		struct nb_model one = { .height = 7, .width = 9, .channels = 1,
					.layers = 1, .filters = { 16 },
					.head = NB_HEAD_CONV3D, .head_out = 1 };
		struct nb_model three = { .height = 11, .width = 13, .channels = 3,
					  .layers = 2, .filters = { 12, 8 },
					  .head = NB_HEAD_CONV2D, .head_out = 3 };
		struct nb_model forty = { .height = 5, .width = 17, .channels = 40,
					  .layers = 3, .filters = { 40, 20, 40 },
					  .head = NB_HEAD_CONV3D, .head_out = 1 };

		check_model(isa, 2, one, 1, 4, "batch 1, 7x9, Cin 1, 1 layer F 16, Conv3D");
		check_model(isa, 1, three, 3, 3, "batch 3, 11x13, Cin 3, 2 layers F 12/8, Conv2D");
		check_model(isa, 2, forty, 2, 3, "batch 2, 5x17, Cin 40, 3 layers F 40/20/40");
		check_cell(isa, 1, 40, 40, 40, 40, 2);
		check_cell(isa, 2, 3, 29, 3, 5, 3);
		check_cell(isa, 1, 1, 1, 1, 8, 2);
		/* every block width of every kernel (1..12 pixels, one and two rows) */
		for (int wd = 2; wd <= 12; wd++)
			check_cell(isa, 1, 3, wd, 2, 8, 2);
		check_peak(isa);
	}
	if (full) {
		const struct nb_model *mono = nb_model_find("convlstm-mono");
		const struct nb_model *color = nb_model_find("convlstm-color");

		check_model(isas[0], 2, *mono, 1, 3, "convlstm-mono, batch 1, 3 frames");
		check_model(isas[0], 2, *color, 1, 2, "convlstm-color, batch 1, 2 frames");
	}
	return tap_done("kernels");
}
