// SPDX-License-Identifier: MIT
/*
 * Portable kernels, for CPUs without AVX2: the same packed layout and
 * blocking as the vector kernels, in plain C.
 */
#include <math.h>

#include "engine/cpu_kernels.h"

#define NB_CONV_VLEN 4		/* SSE2, x86-64's baseline */
#define NB_CONV_BLOCK 4		/* 4 x 2 accumulators of 16 xmm */
#include "engine/cpu_conv.h"
#include "engine/cpu_gates.h"

#define NMAX 4

static float hard_sigmoid(float x)
{
	float y = 0.2f * x + 0.5f;

	return y < 0.0f ? 0.0f : y > 1.0f ? 1.0f : y;
}

static void cell_row(const struct nb_cell_args *a, int g, int b, int y, int x0,
		     int n)
{
	const int cin = a->cin, fp = a->fp, wp = a->width + 2;
	const int kk = cin + fp;
	const float *wg = a->wpack + (size_t)g * 9 * kk * 32;
	const float *xb = a->x + b * a->x_bstride;
	const float *hb = a->h + b * a->h_bstride;
	float acc[NMAX][32];

	for (int p = 0; p < n; p++)
		for (int o = 0; o < 32; o++)
			acc[p][o] = a->bias[g * 32 + o];
	for (int ky = 0; ky < 3; ky++) {
		const float *wk = wg + (size_t)ky * 3 * kk * 32;
		const float *xr = xb + ((size_t)(y + ky) * wp + x0) * cin;
		const float *hr = hb + ((size_t)(y + ky) * wp + x0) * fp;

		/* 3 Cin input floats of the three taps, then 3 Fp recurrent */
		for (int ci = 0; ci < 3 * kk; ci++, wk += 32)
			for (int p = 0; p < n; p++) {
				float v = ci < 3 * cin ? xr[p * cin + ci] :
					hr[p * fp + ci - 3 * cin];

				for (int o = 0; o < 32; o++)
					acc[p][o] += v * wk[o];
			}
	}

	float *cb = a->c + b * a->c_bstride + ((size_t)y * a->width + x0) * fp + g * 8;
	size_t po = ((size_t)(y + 1) * wp + x0 + 1) * fp + g * 8;
	float *ho = a->h_out + b * a->h_bstride + po;
	float *yo = a->y ? a->y + b * a->y_bstride + po : NULL;

	for (int p = 0; p < n; p++)
		for (int j = 0; j < 8; j++) {
			float ig = hard_sigmoid(acc[p][j]);
			float fg = hard_sigmoid(acc[p][8 + j]);
			float cc = tanhf(acc[p][16 + j]);
			float og = hard_sigmoid(acc[p][24 + j]);
			float *c = cb + (size_t)p * fp + j;
			float cn = fg * *c + ig * cc;
			float hn = og * tanhf(cn);

			*c = cn;
			ho[(size_t)p * fp + j] = hn;
			if (yo)
				yo[(size_t)p * fp + j] = hn * a->bn_scale[g * 8 + j] +
					a->bn_shift[g * 8 + j];
		}
}

static void cell(const struct nb_cell_args *a, int g, int b, int y, int rows,
		 int x0, int n)
{
	for (int r = 0; r < rows; r++)
		cell_row(a, g, b, y + r, x0, n);
}

static float dot_taps(const float *const *v, const float *k, int taps, int n)
{
	float acc[8] = { 0 }, sum = 0;

	for (int t = 0; t < taps; t++, k += n) {
		if (!v[t])
			continue;
		for (int i = 0; i < n; i += 8)
			for (int e = 0; e < 8; e++)
				acc[e] += v[t][i + e] * k[i + e];
	}
	for (int e = 0; e < 8; e++)
		sum += acc[e];
	return sum;
}

#define PEAK_ACC 16

static double fma_loop(long iters, float m, float k, float *lane)
{
	float acc[PEAK_ACC];
	int same = 1;

	for (int j = 0; j < PEAK_ACC; j++)
		acc[j] = 1.0f;
	for (long i = 0; i < iters; i++)
		for (int j = 0; j < PEAK_ACC; j++)
			acc[j] = fmaf(acc[j], m, k);
	for (int j = 0; j < PEAK_ACC; j++)
		same &= acc[j] == acc[0];
	*lane = same ? acc[0] : NAN;
	return (double)iters * PEAK_ACC * 2;
}

static void triad(float *a, const float *b, const float *c, float s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

const struct nb_cpu_kernels nb_cpu_kernels_generic = {
	.isa = "generic",
	.max_rows = 1,
	.max_px = { NMAX, NMAX },
	.cell = cell,
	.dot_taps = dot_taps,
	.fma_loop = fma_loop,
	.conv_fwd = conv_fwd,
	.conv_bwd_k = conv_bwd_k,
	.gates_fwd = gates_fwd,
	.gates_bwd = gates_bwd,
	.triad = triad,
};
