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

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	int frames = argc > 3 ? atoi(argv[3]) : 3;
	const struct nb_model *m = nb_model_find("convlstm-mono");
	struct nb_backend_config cfg = { .threads = threads };
	static double t[NB][MAXR];
	char err[256];
	void *ctx, *prog[NB];

	if (threads < 0 || rounds < 1 || rounds > MAXR || frames < 1) {
		fprintf(stderr, "usage: bench_sweep [threads >= 0] [rounds 1..%d] [frames >= 1]\n",
			MAXR);
		return 2;
	}
	struct nb_weights *w = nb_weights_alloc(m);
	if (!w) {
		fprintf(stderr, "bench_sweep: out of memory\n");
		return 1;
	}
	nb_weights_init(w, 1);
	if (nb_cpu_backend.open(&cfg, &ctx, err, sizeof(err))) {
		fprintf(stderr, "bench_sweep: %s\n", err);
		return 1;
	}
	/* one program per batch size: each keeps its buffers between rounds */
	for (int i = 0; i < NB; i++)
		if (nb_cpu_backend.model_load(ctx, w, &prog[i], err, sizeof(err))) {
			fprintf(stderr, "bench_sweep: %s\n", err);
			return 1;
		}
	size_t frame = (size_t)m->height * m->width * m->channels;
	int bmax = batches[NB - 1];
	float *in = xalloc((size_t)bmax * frames * frame * sizeof(float));
	float *out = xalloc(nb_output_count(m, bmax, frames) * sizeof(float));
	float *ref = xalloc(nb_output_count(m, 1, 1) * sizeof(float));
	float *one = xalloc(frame * sizeof(float));

	nb_movie_generate(7, bmax, frames, m->height, m->width, m->channels,
			  in, NULL);

	/* validation: each batch size, 1 frame, first and last item */
	for (int i = 0; i < NB; i++) {
		int b = batches[i];
		float *bin = xalloc((size_t)b * frame * sizeof(float));

		for (int k = 0; k < b; k++)
			memcpy(bin + k * frame, in + (size_t)k * frames * frame,
			       frame * sizeof(float));
		if (nb_cpu_backend.model_forward(ctx, prog[i], bin, b, 1, out, err,
						 sizeof(err))) {
			fprintf(stderr, "bench_sweep: batch %d: %s\n", b, err);
			return 1;
		}
		for (int k = 0; k < b; k += b > 1 ? b - 1 : 1) {
			size_t n = nb_output_count(m, 1, 1);

			memcpy(one, bin + k * frame, frame * sizeof(float));
			nb_ref_forward(w, one, 1, 1, ref);
			for (size_t j = 0; j < n; j++)
				if (!(fabs(out[k * n + j] - ref[j]) <= 1e-4 + 1e-3 * fabs(ref[j]))) {
					fprintf(stderr, "bench_sweep: batch %d item %d: output %zu is %g, the reference %g\n",
						b, k, j, out[k * n + j], ref[j]);
					return 1;
				}
		}
		free(bin);
	}

	for (int r = -1; r < rounds; r++)
		for (int i = 0; i < NB; i++) {
			double t0 = now();

			if (nb_cpu_backend.model_forward(ctx, prog[i], in, batches[i],
							 frames, out, err, sizeof(err))) {
				fprintf(stderr, "bench_sweep: %s\n", err);
				return 1;
			}
			if (r >= 0)
				t[i][r] = now() - t0;
		}

	double rate[NB], best[NB];
	int i8 = 0;

	for (int i = 0; i < NB; i++) {
		double fl = nb_flops_forward(m, batches[i], frames);

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
	       nb_cpu_backend.describe(ctx), frames, rounds);
	printf("  %5s %14s %12s %12s %12s\n", "batch", "median GFLOP/s", "best GFLOP/s",
	       "median / b8", "best / b8");
	double lo = 1e9, lob = 1e9;
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
	for (int i = 0; i < NB; i++)
		nb_cpu_backend.model_free(ctx, prog[i]);
	nb_cpu_backend.close(ctx);
	nb_weights_free(w);
	free(in);
	free(out);
	free(ref);
	free(one);
	return 0;
}
