// SPDX-License-Identifier: MIT
/*
 * AVX2 + FMA kernels: the AVX-512 cell kernel's scheme on 16 ymm registers,
 * 3 pixels x one group (4 ymm accumulators per pixel: i, f, c, o).
 */
#include <immintrin.h>
#include <math.h>

#include "cpu_kernels.h"
#include "vmath_avx2.h"

#define NMAX 3

/* acc[p] += w[0..31] * v[p * stride], p < n */
static inline __attribute__((always_inline)) void
fma_row(__m256 acc[NMAX][4], const float *w, const float *v, int stride,
	const int n)
{
	__m256 b[NMAX];

#pragma GCC unroll 3
	for (int p = 0; p < n; p++)
		b[p] = _mm256_broadcast_ss(v + (size_t)p * stride);
#pragma GCC unroll 4
	for (int q = 0; q < 4; q++) {
		__m256 wq = _mm256_load_ps(w + q * 8);

#pragma GCC unroll 3
		for (int p = 0; p < n; p++)
			acc[p][q] = _mm256_fmadd_ps(wq, b[p], acc[p][q]);
	}
}

static inline __attribute__((always_inline)) void
cell_n(const struct nb_cell_args *a, int g, int b, int y, int x0, const int n)
{
	const int cin = a->cin, fp = a->fp, wp = a->width + 2;
	const int kk = cin + fp;
	const float *wg = a->wpack + (size_t)g * 9 * kk * 32;
	const float *xb = a->x + b * a->x_bstride;
	const float *hb = a->h + b * a->h_bstride;
	__m256 acc[NMAX][4];

	for (int p = 0; p < n; p++)
		for (int q = 0; q < 4; q++)
			acc[p][q] = _mm256_load_ps(a->bias + g * 32 + q * 8);
	for (int ky = 0; ky < 3; ky++) {
		const float *wk = wg + (size_t)ky * 3 * kk * 32;
		const float *xr = xb + ((size_t)(y + ky) * wp + x0) * cin;
		const float *hr = hb + ((size_t)(y + ky) * wp + x0) * fp;

		/* 3 Cin input floats of the three taps, then 3 Fp recurrent */
		for (int ci = 0; ci < 3 * cin; ci++, wk += 32)
			fma_row(acc, wk, xr + ci, cin, n);
		for (int cf = 0; cf < 3 * fp; cf++, wk += 32)
			fma_row(acc, wk, hr + cf, fp, n);
	}

	float *cb = a->c + b * a->c_bstride + ((size_t)y * a->width + x0) * fp + g * 8;
	size_t po = ((size_t)(y + 1) * wp + x0 + 1) * fp + g * 8;
	float *ho = a->h_out + b * a->h_bstride + po;
	float *yo = a->y ? a->y + b * a->y_bstride + po : NULL;

	for (int p = 0; p < n; p++)
		nb_gates8(nb_hard_sigmoid8(acc[p][0]), nb_hard_sigmoid8(acc[p][1]),
			  acc[p][2], nb_hard_sigmoid8(acc[p][3]),
			  cb + (size_t)p * fp, ho + (size_t)p * fp,
			  yo ? yo + (size_t)p * fp : NULL,
			  a->bn_scale + g * 8, a->bn_shift + g * 8);
}

static void cell(const struct nb_cell_args *a, int g, int b, int y, int rows,
		 int x0, int n)
{
	for (int r = 0; r < rows; r++)
		switch (n) {
		case 1: cell_n(a, g, b, y + r, x0, 1); break;
		case 2: cell_n(a, g, b, y + r, x0, 2); break;
		default: cell_n(a, g, b, y + r, x0, 3); break;
		}
}

static float dot_taps(const float *const *v, const float *k, int taps, int n)
{
	__m256 acc = _mm256_setzero_ps();
	float s[8], sum = 0;

	for (int t = 0; t < taps; t++, k += n) {
		if (!v[t])
			continue;
		for (int i = 0; i < n; i += 8)
			acc = _mm256_fmadd_ps(_mm256_loadu_ps(v[t] + i),
					      _mm256_loadu_ps(k + i), acc);
	}
	_mm256_storeu_ps(s, acc);
	for (int i = 0; i < 8; i++)
		sum += s[i];
	return sum;
}

#define PEAK_ACC 12

static double fma_loop(long iters, float m, float k, float *lane)
{
	__m256 acc[PEAK_ACC];
	__m256 vm = _mm256_set1_ps(m), vk = _mm256_set1_ps(k);
	float out[8];
	int same = 1;

	for (int j = 0; j < PEAK_ACC; j++)
		acc[j] = _mm256_set1_ps(1.0f);
	for (long i = 0; i < iters; i++) {
#pragma GCC unroll 12
		for (int j = 0; j < PEAK_ACC; j++)
			acc[j] = _mm256_fmadd_ps(acc[j], vm, vk);
	}
	float first = _mm256_cvtss_f32(acc[0]);
	for (int j = 0; j < PEAK_ACC; j++) {
		_mm256_storeu_ps(out, acc[j]);
		for (int e = 0; e < 8; e++)
			same &= out[e] == first;
	}
	*lane = same ? first : NAN;
	return (double)iters * PEAK_ACC * 8 * 2;
}

static void triad(float *a, const float *b, const float *c, float s, size_t n)
{
	__m256 vs = _mm256_set1_ps(s);
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		_mm256_storeu_ps(a + i, _mm256_fmadd_ps(vs,
			_mm256_loadu_ps(c + i), _mm256_loadu_ps(b + i)));
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
}

const struct nb_cpu_kernels nb_cpu_kernels_avx2 = {
	.isa = "avx2",
	.max_rows = 1,
	.max_px = { NMAX, NMAX },
	.cell = cell,
	.dot_taps = dot_taps,
	.fma_loop = fma_loop,
	.triad = triad,
};
