// SPDX-License-Identifier: MIT
/*
 * convlstm-mono's forward pass on the CPU backend at batch sizes 1..64,
 * interleaved: every round runs each batch size once, so that on a shared
 * machine each one sees the same mix of load; the rate of each batch size
 * is the median (and the best) over the rounds, compared with batch 8's.
 * Every batch size's output is first checked against the reference on its
 * first and last item (1 frame).
 *
 * Built and run by scripts/bench-cpu --sweep-interleaved.
 *   bench_sweep [threads] [rounds] [frames]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"

#define MAXR 64

static const int batches[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 32,
			       33, 48, 63, 64 };
#define NB (int)(sizeof(batches) / sizeof(batches[0]))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void *xalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		fprintf(stderr, "bench_sweep: out of memory\n");
		exit(1);
	}
	return p;
}

/* What every part of the sweep works on. */
struct sweep {
	const struct nb_model *m;
	struct nb_weights *w;
	void *ctx, *prog[NB];
	int frames;
	size_t frame;		/* floats per frame */
	float *in, *out;	/* the largest batch's input and output */
};

static void die(const char *what, const char *err)
{
	fprintf(stderr, "bench_sweep: %s%s\n", what, err);
	exit(1);
}

/* Each batch size's output for 1 frame against the reference, on its first
 * and last item; exits on a difference. */
static void validate(struct sweep *sw)
{
	size_t n = nb_output_count(sw->m, 1, 1);
	float *ref = xalloc(n * sizeof(float));
	float *one = xalloc(sw->frame * sizeof(float));
	char err[256];

	for (int i = 0; i < NB; i++) {
		int b = batches[i];
		float *bin = xalloc((size_t)b * sw->frame * sizeof(float));

		for (int k = 0; k < b; k++)
			memcpy(bin + k * sw->frame, sw->in + (size_t)k * sw->frames * sw->frame,
			       sw->frame * sizeof(float));
		if (nb_cpu_backend.model_forward(sw->ctx, sw->prog[i], bin, b, 1, sw->out, err,
						 sizeof(err)))
			die("", err);
		for (int k = 0; k < b; k += b > 1 ? b - 1 : 1) {
			const float *o = sw->out + k * n;

			memcpy(one, bin + k * sw->frame, sw->frame * sizeof(float));
			nb_ref_forward(sw->w, one, 1, 1, ref);
			for (size_t j = 0; j < n; j++)
				if (!(fabs(o[j] - ref[j]) <= 1e-4 + 1e-3 * fabs(ref[j]))) {
					fprintf(stderr, "bench_sweep: batch %d item %d: output %zu is %g, the reference %g\n",
						b, k, j, o[j], ref[j]);
					exit(1);
				}
		}
		free(bin);
	}
	free(ref);
	free(one);
}

/* The table: each batch size's median and best rate over the @rounds
 * times in @t (sorted here), against batch 8's. */
static void report(struct sweep *sw, double t[NB][MAXR], int rounds)
{
	double rate[NB], best[NB], lo = 1e9, lob = 1e9;
	int i8 = 0;

	for (int i = 0; i < NB; i++) {
		double fl = nb_flops_forward(sw->m, batches[i], sw->frames);

		qsort(t[i], rounds, sizeof(double), cmpd);
		double med = rounds & 1 ? t[i][rounds / 2] :
			(t[i][rounds / 2 - 1] + t[i][rounds / 2]) / 2;
		rate[i] = fl / med / 1e9;
		best[i] = fl / t[i][0] / 1e9;
		if (batches[i] == 8)
			i8 = i;
	}
	printf("convlstm-mono, %s, %d frames, %d interleaved rounds (every batch size once a round);\n"
	       "outputs checked against the reference (1 frame, first and last item)\n",
	       nb_cpu_backend.describe(sw->ctx), sw->frames, rounds);
	printf("  %5s %14s %12s %12s %12s\n", "batch", "median GFLOP/s", "best GFLOP/s",
	       "median / b8", "best / b8");
	for (int i = 0; i < NB; i++) {
		printf("  %5d %14.1f %12.1f %12.2f %12.2f\n", batches[i], rate[i], best[i],
		       rate[i] / rate[i8], best[i] / best[i8]);
		if (rate[i] / rate[i8] < lo)
			lo = rate[i] / rate[i8];
		if (best[i] / best[i8] < lob)
			lob = best[i] / best[i8];
	}
	printf("lowest: %.2f x batch 8 (medians), %.2f x (best rounds); target >= 0.50\n",
	       lo, lob);
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	struct sweep sw = { .m = nb_model_find("convlstm-mono"),
			    .frames = argc > 3 ? atoi(argv[3]) : 3 };
	struct nb_backend_config cfg = { .threads = threads };
	static double t[NB][MAXR];
	char err[256];

	if (threads < 0 || rounds < 1 || rounds > MAXR || sw.frames < 1) {
		fprintf(stderr, "usage: bench_sweep [threads >= 0] [rounds 1..%d] [frames >= 1]\n",
			MAXR);
		return 2;
	}
	sw.w = nb_weights_alloc(sw.m);
	if (!sw.w)
		die("out of memory", "");
	nb_weights_init(sw.w, 1);
	if (nb_cpu_backend.open(&cfg, &sw.ctx, err, sizeof(err)))
		die("", err);
	/* one program per batch size: each keeps its buffers between rounds */
	for (int i = 0; i < NB; i++)
		if (nb_cpu_backend.model_load(sw.ctx, sw.w, &sw.prog[i], err, sizeof(err)))
			die("", err);
	sw.frame = (size_t)sw.m->height * sw.m->width * sw.m->channels;
	int bmax = batches[NB - 1];
	sw.in = xalloc((size_t)bmax * sw.frames * sw.frame * sizeof(float));
	sw.out = xalloc(nb_output_count(sw.m, bmax, sw.frames) * sizeof(float));
	nb_movie_generate(7, bmax, sw.frames, sw.m->height, sw.m->width, sw.m->channels,
			  sw.in, NULL);
	validate(&sw);

	for (int r = -1; r < rounds; r++)
		for (int i = 0; i < NB; i++) {
			double t0 = now();

			if (nb_cpu_backend.model_forward(sw.ctx, sw.prog[i], sw.in, batches[i],
							 sw.frames, sw.out, err, sizeof(err)))
				die("", err);
			if (r >= 0)
				t[i][r] = now() - t0;
		}
	report(&sw, t, rounds);
	for (int i = 0; i < NB; i++)
		nb_cpu_backend.model_free(sw.ctx, sw.prog[i]);
	nb_cpu_backend.close(sw.ctx);
	nb_weights_free(sw.w);
	free(sw.in);
	free(sw.out);
	return 0;
}
