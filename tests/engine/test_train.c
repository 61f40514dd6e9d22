// SPDX-License-Identifier: MIT
/*
 * The training step (engine/train.h): the double-precision reference's
 * gradients against central finite differences, every element of every
 * trained tensor (BatchNorm's gamma and beta included), on small models of
 * both heads; its Adam update and moving averages against their formulas.
 *
 * TAP lines (tests/tap.h) and a last line "train: N passed, N failed".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_kernels.h"
#include "engine/engine.h"
#include "engine/train.h"
#include "../tap.h"

/*
 * Central finite differences, step FD_H on each parameter, against the
 * backward pass's gradient g: relative error
 *   |g - fd| / max(|g|, |fd|, FD_FLOOR x the tensor's largest |g|).
 * The loss, a mean of a few hundred terms in double, is good to ~1e-14, so
 * fd carries ~1e-14 / FD_H of rounding besides FD_H^2 times the third
 * derivative: ~1e-10 absolute at this step, which is what the floor keeps
 * from dominating the relative error of gradients a thousand times
 * smaller than their tensor's largest. A gradient off by a factor, or one
 * missing path through time, errs by far more than FD_TOL.
 */
#define FD_H 1e-5
#define FD_FLOOR 1e-3
#define FD_TOL 1e-5

struct problem {
	struct nb_model m;
	int batch, frames;
	float *in, *target;
	struct nb_weights *w;
};

/*
 * The gate arithmetic's tanh (cpu_gates.h) of instruction set k against
 * the C library's in double: with the input gate open (hsig(zi) = 1), no
 * previous cell state and the output gate open, gates_fwd gives c =
 * tanh(zc) and h = tanh(c). f = 11 filters: whole and partial vectors on
 * every instruction set. Inputs: a sweep of [-20, 20], the polynomial's
 * bound 0.625, tiny and saturating values.
 */
#define GATES_F 11
#define GATES_TOL 1e-6	/* relative, or absolute below 1: a few float ulp */

static void check_gates_tanh(const struct nb_cpu_kernels *k)
{
	static const float special[] = { 0.0f, 1e-7f, 0.6249999f, 0.625f, 0.6250001f,
					 1.0f, 9.0f, 40.0f, 88.0f, 1e4f };
	enum { NSWEEP = 4001, NSPEC = 2 * sizeof(special) / sizeof(special[0]) };
	size_t px = (NSWEEP + NSPEC + GATES_F - 1) / GATES_F, n = px * GATES_F;
	float *z = calloc(px * 4 * GATES_F, sizeof(float));
	float *cp = calloc(n, sizeof(float)), *c = calloc(n, sizeof(float));
	float *h = calloc(n, sizeof(float)), *in = calloc(n, sizeof(float));
	double worst = 0;
	float at = 0;

	for (size_t e = 0; e < n; e++) {
		size_t q = e / GATES_F, j = e % GATES_F;

		in[e] = e < NSWEEP ? -20.0f + 40.0f * (float)e / (NSWEEP - 1) :
			e < NSWEEP + NSPEC ? (e % 2 ? -1 : 1) * special[(e - NSWEEP) / 2] : 0.5f;
		z[q * 4 * GATES_F + j] = 3.0f;			/* input gate: 1 */
		z[q * 4 * GATES_F + 2 * GATES_F + j] = in[e];
		z[q * 4 * GATES_F + 3 * GATES_F + j] = 3.0f;	/* output gate: 1 */
	}
	k->gates_fwd(px, GATES_F, z, cp, c, h);
	for (size_t e = 0; e < n; e++) {
		double t = tanh(in[e]), tt = tanh((double)c[e]);
		double err = fmax(fabs(c[e] - t) / fmax(fabs(t), 1e-30),
				  fabs(h[e] - tt) / fmax(fabs(tt), 1e-30));

		if (err > worst || isnan(err)) {
			worst = isnan(err) ? INFINITY : err;
			at = in[e];
		}
	}
	tap(worst <= GATES_TOL,
	    "%s: the gates' tanh of %zu inputs in [-20, 20] and at 0, 1e-7, 0.625, 9, 40, 88, 1e4 (both signs) against libm's in double: worst relative error %.2e at %g (tolerance %.0e)",
	    k->isa, n, worst, at, GATES_TOL);
	free(z);
	free(cp);
	free(c);
	free(h);
	free(in);
}

/* random weights with BN away from the identity, random input and target */
static void problem_make(struct problem *pb, struct nb_model m, int batch,
			 int frames, uint64_t seed)
{
	struct nb_rng r;
	size_t nin = (size_t)batch * frames * m.height * m.width * m.channels;
	size_t nout = nb_output_count(&m, batch, frames);

	pb->m = m;
	pb->batch = batch;
	pb->frames = frames;
	pb->w = nb_weights_alloc(&m);
	pb->in = malloc(nin * sizeof(float));
	pb->target = malloc(nout * sizeof(float));
	if (!pb->w || !pb->in || !pb->target)
		abort();
	nb_weights_init(pb->w, seed);
	nb_rng_seed(&r, seed + 1);
	for (int l = 0; l < m.layers; l++) {
		for (int j = 0; j < m.filters[l]; j++) {
			pb->w->gamma[l][j] = (float)(0.5 + nb_rng_uniform(&r));
			pb->w->beta[l][j] = (float)(nb_rng_uniform(&r) - 0.5);
			pb->w->mean[l][j] = (float)(0.2 * (nb_rng_uniform(&r) - 0.5));
			pb->w->var[l][j] = (float)(0.5 + nb_rng_uniform(&r));
		}
		for (int j = 0; j < 4 * m.filters[l]; j++)
			pb->w->bias[l][j] += (float)(0.4 * (nb_rng_uniform(&r) - 0.5));
	}
	for (int o = 0; o < m.head_out; o++)
		pb->w->head_bias[o] = (float)(0.2 * (nb_rng_uniform(&r) - 0.5));
	for (size_t i = 0; i < nin; i++)
		pb->in[i] = (float)nb_rng_uniform(&r);
	for (size_t i = 0; i < nout; i++)
		pb->target[i] = (float)nb_rng_uniform(&r);
}

static void problem_free(struct problem *pb)
{
	nb_weights_free(pb->w);
	free(pb->in);
	free(pb->target);
}

static void check_fd(struct nb_model m, int batch, int frames, const char *what)
{
	struct problem pb;
	struct nb_ref_params *p, *g;

	problem_make(&pb, m, batch, frames, 21);
	p = nb_ref_params_alloc(&m);
	g = nb_ref_params_alloc(&m);
	if (!p || !g)
		abort();
	nb_ref_params_from(p, pb.w);
	double loss = nb_ref_train_loss(p, pb.in, pb.target, batch, frames, g);
	double worst = 0;
	int tensors = 0;
	size_t values = 0;

	for (int i = 0; i < p->n; i++) {
		if (!nb_tensor_trained(i))
			continue;
		double emax = 0, gmax = 0, floor;
		double *fd = malloc(p->count[i] * sizeof(double));
		size_t at = 0;

		if (!fd)
			abort();
		for (size_t e = 0; e < p->count[i]; e++) {
			double keep = p->v[i][e];

			p->v[i][e] = keep + FD_H;
			double lp = nb_ref_train_loss(p, pb.in, pb.target, batch,
						      frames, NULL);
			p->v[i][e] = keep - FD_H;
			double lm = nb_ref_train_loss(p, pb.in, pb.target, batch,
						      frames, NULL);
			p->v[i][e] = keep;
			fd[e] = (lp - lm) / (2 * FD_H);
			gmax = fmax(gmax, fabs(g->v[i][e]));
		}
		floor = fmax(FD_FLOOR * gmax, 1e-12);
		for (size_t e = 0; e < p->count[i]; e++) {
			double ge = g->v[i][e];
			double err = fabs(ge - fd[e]) /
				fmax(fmax(fabs(ge), fabs(fd[e])), floor);

			if (!(err <= emax)) {
				emax = err;
				at = e;
			}
		}
		free(fd);
		tap(emax <= FD_TOL && gmax > 0,
		       "%s: %s (%zu values, largest |gradient| %.2e): finite-difference max relative error %.2e at %zu (tolerance %.0e)",
		       what, p->name[i], p->count[i], gmax, emax, at, FD_TOL);
		worst = fmax(worst, emax);
		tensors++;
		values += p->count[i];
	}
	printf("# %s: loss %.6f; %d tensors, %zu values; max relative error %.2e\n",
	       what, loss, tensors, values, worst);
	nb_ref_params_free(p);
	nb_ref_params_free(g);
	problem_free(&pb);
}

/* one step: Adam's first update and the moving averages, from their formulas */
static void check_step(struct nb_model m, int batch, int frames, const char *what)
{
	struct problem pb;
	struct nb_ref_adam a;
	struct nb_ref_params *before, *after, *g;

	problem_make(&pb, m, batch, frames, 31);
	before = nb_ref_params_alloc(&m);
	after = nb_ref_params_alloc(&m);
	g = nb_ref_params_alloc(&m);
	if (!before || !after || !g || nb_ref_adam_init(&a, &m))
		abort();
	nb_ref_params_from(before, pb.w);
	double loss = nb_ref_train_step(pb.w, &a, pb.in, pb.target, batch,
					frames, g);
	nb_ref_params_from(after, pb.w);

	/*
	 * the first step: m = 0.1 g, v = 0.001 g^2, bias-corrected step
	 * lr sqrt(0.001) / 0.1 * 0.1 g / (sqrt(0.001) |g| + eps)
	 */
	double adam = 0, moving = 0;
	for (int i = 0; i < before->n; i++)
		for (size_t e = 0; e < before->count[i]; e++) {
			double b = (float)before->v[i][e], ge = g->v[i][e], want;

			if (nb_tensor_trained(i))
				want = b - NB_ADAM_LR * sqrt(1 - NB_ADAM_BETA2) *
					ge / (sqrt((1 - NB_ADAM_BETA2) * ge * ge) +
					      NB_ADAM_EPSILON);
			else
				want = 0.99 * b + 0.01 * ge;
			double d = fabs((float)want - after->v[i][e]);

			if (nb_tensor_trained(i))
				adam = fmax(adam, d);
			else
				moving = fmax(moving, d);
		}
	tap(isfinite(loss) && adam <= 1e-7 && moving <= 1e-7,
	       "%s: one step: loss %.5f, Adam update max error %.1e, moving averages max error %.1e (tolerance 1e-7)",
	       what, loss, adam, moving);

	/* a second step lowers the loss on the same batch (lr 1e-3 is small) */
	double loss2 = nb_ref_train_step(pb.w, &a, pb.in, pb.target, batch,
					 frames, NULL);
	double loss3 = nb_ref_train_loss(after, pb.in, pb.target, batch, frames,
					 NULL);
	tap(loss2 < loss && a.step == 2 && fabs(loss3 - loss2) < 1e-6,
	       "%s: the loss after one step %.6f < %.6f before", what, loss2, loss);
	nb_ref_adam_free(&a);
	nb_ref_params_free(before);
	nb_ref_params_free(after);
	nb_ref_params_free(g);
	problem_free(&pb);
}

/*
 * The CPU backend's step against the reference (nb_train_validate), and
 * with a planted error, which must fail it.
 */
static void check_cpu(struct nb_model m, int batch, int frames, int threads,
		      const char *isa, enum nb_train_fault fault, const char *what)
{
	struct nb_backend_config cfg = { .threads = threads, .isa = isa };
	struct nb_validation v;
	struct problem pb;
	char err[256];
	void *ctx = NULL;

	problem_make(&pb, m, batch, frames, 41);
	nb_train_fault = fault;
	if (nb_cpu_backend.open(&cfg, &ctx, err, sizeof(err)) ||
	    nb_train_validate(&nb_cpu_train, ctx, pb.w, pb.in, pb.target, batch,
			      frames, 2, &v, err, sizeof(err))) {
		tap(0, "%s: %s", what, err);
	} else if (fault == NB_FAULT_NONE) {
		tap(v.pass, "%s, %d threads: %s: %s", isa, threads, what, v.input);
	} else {
		tap(!v.pass, "%s, %d threads: %s: planted %s fails the validation: %s",
		       isa, threads, what,
		       fault == NB_FAULT_GRAD_SCALE ? "head gradient x 1.01" :
		       "transposed input filter", v.input);
	}
	nb_train_fault = NB_FAULT_NONE;
	if (ctx)
		nb_cpu_backend.close(ctx);
	problem_free(&pb);
}

/* The training FLOP count (train.h), against the count worked by hand. */
static void check_flops(void)
{
	/*
	 * Worked by hand for convlstm-mono (40x40, P = 1600; layer 0: Cin 1,
	 * layers 1-3: Cin 40; F 40), one item:
	 * x-conv 2 P 9 Cin 4F = 4.608e6 (layer 0), 184.32e6 (others); h-conv
	 * 184.32e6; head 2 P 27 F = 3.456e6 per frame.
	 * T = 1: layer 0 (4.608 + 184.32) + 4.608 = 193.536e6; layers 1-3
	 * 3 x (368.64 + 368.64) = 2211.84e6; head 3 x 3.456 = 10.368e6.
	 * T = 2: layer 0 2 x 188.928 + 2 x 4.608 + 2 x 184.32 = 755.712e6;
	 * layers 1-3 3 x (737.28 + 737.28 + 368.64) = 5529.6e6; head 20.736e6.
	 */
	const struct nb_model *full = nb_model_find("convlstm-mono");
	double f1 = nb_flops_train(full, 1, 1), f2 = nb_flops_train(full, 1, 2);
	tap(f1 == 2415744000.0 && f2 == 6306048000.0 &&
	       nb_flops_train(full, 8, 2) == 8 * f2,
	       "training FLOPs of convlstm-mono per item: %.0f at 1 frame, %.0f at 2 (by hand: 2415744000, 6306048000)",
	       f1, f2);
	/* result-schema.md: "299.428 GFLOP per standard step (batch 8, 10 frames ...)" */
	const struct nb_test_info *ti = nb_test_find("convlstm-train");
	double fstd = nb_flops_train(full, ti->batch, ti->frames);
	double fq = nb_flops_train(full, ti->quick_batch, ti->quick_frames);
	tap(fstd == 8 * (f1 + 9 * (f2 - f1)) && fstd == 299427840000.0 && fq == 2 * f1,
	    "a standard convlstm-train step (batch %d, %d frames) counts %.0f FLOPs, 8 x (T1 + 9 (T2 - T1)), as result-schema.md writes it; the --quick form (batch %d, %d frame) %.0f",
	    ti->batch, ti->frames, fstd, ti->quick_batch, ti->quick_frames, fq);
}

int main(void)
{
	struct nb_model mono = { .name = "small-mono", .height = 5, .width = 6,
				 .channels = 1, .layers = 2, .filters = { 3, 2 },
				 .head = NB_HEAD_CONV3D, .head_out = 1 };
	struct nb_model color = { .name = "small-color", .height = 6, .width = 5,
				  .channels = 3, .layers = 2, .filters = { 2, 3 },
				  .head = NB_HEAD_CONV2D, .head_out = 3 };

	check_flops();
	check_fd(mono, 2, 4, "Conv3D head, binary cross-entropy, 2 layers F 3/2, batch 2, 4 frames, 5x6");
	check_fd(color, 2, 3, "Conv2D head, MAE, 2 layers F 2/3, batch 2, 3 frames, 6x5x3");
	check_step(mono, 2, 4, "mono");
	check_step(color, 2, 3, "colour");

	struct nb_model mono8 = { .name = "mono8", .height = 9, .width = 8,
				  .channels = 1, .layers = 3, .filters = { 8, 5, 8 },
				  .head = NB_HEAD_CONV3D, .head_out = 1 };
	struct nb_model color8 = { .name = "color8", .height = 8, .width = 10,
				   .channels = 3, .layers = 2, .filters = { 8, 6 },
				   .head = NB_HEAD_CONV2D, .head_out = 3 };
	/*
	 * Rows of 32 x 80 gates: the weight gradient goes a band of 3 rows at
	 * a time (cpu_conv.h, CONV_BAND_BYTES), the last band of 1; h's
	 * gradient, 20 channels, is a whole vector and a part of one with 8
	 * and 16 floats a vector (conv_fwd_part).
	 */
	struct nb_model wide = { .name = "wide", .height = 7, .width = 32,
				 .channels = 1, .layers = 1, .filters = { 20 },
				 .head = NB_HEAD_CONV3D, .head_out = 1 };
	const char *what_m = "mono, 3 layers F 8/5/8, batch 3, 5 frames, 9x8";
	const char *what_c = "colour, 2 layers F 8/6, batch 2, 4 frames, 8x10x3";
	const char *what_w = "mono, 1 layer F 20, batch 2, 3 frames, 7x32 (weight gradient in bands of rows, a part vector of channels)";

	/*
	 * Every instruction set this CPU has: each has its own convolution
	 * kernels (cpu_conv.h), whose blocks (4 pixels, 1 or 2 vectors of
	 * channels, 4 input channels) these shapes leave remainders of.
	 */
	const char *isas[3];
	int nisa = 0;

	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
		isas[nisa++] = "avx512";
	else
		tap_skip("this CPU has no AVX-512", "the training step on avx512");
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		isas[nisa++] = "avx2";
	else
		tap_skip("this CPU has no AVX2 and FMA", "the training step on avx2");
	isas[nisa++] = "generic";
	for (int i = 0; i < nisa; i++) {
		check_gates_tanh(!strcmp(isas[i], "avx512") ? &nb_cpu_kernels_avx512 :
				 !strcmp(isas[i], "avx2") ? &nb_cpu_kernels_avx2 :
				 &nb_cpu_kernels_generic);
		check_cpu(mono8, 3, 5, 2, isas[i], NB_FAULT_NONE, what_m);
		check_cpu(color8, 2, 4, 2, isas[i], NB_FAULT_NONE, what_c);
		check_cpu(wide, 2, 3, 2, isas[i], NB_FAULT_NONE, what_w);
	}
	check_cpu(mono8, 3, 5, 1, "generic", NB_FAULT_NONE, what_m);
	check_cpu(mono8, 3, 5, 2, "generic", NB_FAULT_GRAD_SCALE, what_m);
	check_cpu(mono8, 3, 5, 2, "generic", NB_FAULT_TRANSPOSED, what_m);
	check_cpu(color8, 2, 4, 2, "generic", NB_FAULT_TRANSPOSED, what_c);
	return tap_done("train");
}
