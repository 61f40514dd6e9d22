// SPDX-License-Identifier: MIT
/*
 * AVX-512 kernels. The cell kernel is an implicit GEMM: up to 12 pixels of
 * one row times one group's 32 gate outputs (two zmm per pixel, 24
 * accumulators), over k = 9 taps x (Cin + Fp). Input and recurrent
 * contributions go into the same accumulators, and the gate arithmetic runs
 * on the accumulators before c, h and BN(h) are stored: the gate
 * pre-activations never reach memory.
 *
 * Per k: two weight loads, n broadcasts, 2n FMAs. A group's weights
 * (9 x 80 x 32 floats = 90 KiB for the 40-filter layers) stay in L2 while
 * a thread sweeps its pixels.
 */
#include <immintrin.h>
#include <math.h>

#include "cpu_kernels.h"
#include "vmath_avx2.h"

#define NMAX 12		/* pixels of one row per call */
#define NMAX2 6		/* pixels per row when a call takes two rows */

/*
 * rows (1 or 2) x n pixels, one group. Two rows share every weight load
 * (2 n pixels per load): the weights stream from L2, and the more pixels
 * reuse each load, the closer the kernel runs to the FMA peak.
 */
static inline __attribute__((always_inline)) void
cell_n(const struct nb_cell_args *a, int g, int b, int y, int x0,
       const int rows, const int n)
{
	const int cin = a->cin, fp = a->fp, wp = a->width + 2;
	const int kk = cin + fp;
	const float *wg = a->wpack + (size_t)g * 9 * kk * 32;
	const float *xb = a->x + b * a->x_bstride;
	const float *hb = a->h + b * a->h_bstride;
	const size_t xrow = (size_t)wp * cin, hrow = (size_t)wp * fp;
	__m512 acc[2][NMAX][2];
	__m512 b0 = _mm512_load_ps(a->bias + g * 32);
	__m512 b1 = _mm512_load_ps(a->bias + g * 32 + 16);

#pragma GCC unroll 2
	for (int r = 0; r < rows; r++)
#pragma GCC unroll 12
		for (int p = 0; p < n; p++) {
			acc[r][p][0] = b0;
			acc[r][p][1] = b1;
		}
	for (int ky = 0; ky < 3; ky++) {
		const float *wk = wg + (size_t)ky * 3 * kk * 32;
		const float *xr = xb + ((size_t)(y + ky) * wp + x0) * cin;
		const float *hr = hb + ((size_t)(y + ky) * wp + x0) * fp;

		/* the taps kx = 0, 1, 2 of a row: 3 Cin contiguous floats */
		for (int ci = 0; ci < 3 * cin; ci++, wk += 32) {
			__m512 w0 = _mm512_load_ps(wk);
			__m512 w1 = _mm512_load_ps(wk + 16);

#pragma GCC unroll 2
			for (int r = 0; r < rows; r++)
#pragma GCC unroll 12
				for (int p = 0; p < n; p++) {
					__m512 v = _mm512_set1_ps(xr[r * xrow + p * cin + ci]);

					acc[r][p][0] = _mm512_fmadd_ps(w0, v, acc[r][p][0]);
					acc[r][p][1] = _mm512_fmadd_ps(w1, v, acc[r][p][1]);
				}
		}
		for (int cf = 0; cf < 3 * fp; cf++, wk += 32) {
			__m512 w0 = _mm512_load_ps(wk);
			__m512 w1 = _mm512_load_ps(wk + 16);

#pragma GCC unroll 2
			for (int r = 0; r < rows; r++)
#pragma GCC unroll 12
				for (int p = 0; p < n; p++) {
					__m512 v = _mm512_set1_ps(hr[r * hrow + p * fp + cf]);

					acc[r][p][0] = _mm512_fmadd_ps(w0, v, acc[r][p][0]);
					acc[r][p][1] = _mm512_fmadd_ps(w1, v, acc[r][p][1]);
				}
		}
	}

	const __m512 k02 = _mm512_set1_ps(0.2f), k05 = _mm512_set1_ps(0.5f);
	const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);

#pragma GCC unroll 2
	for (int r = 0; r < rows; r++) {
		float *cb = a->c + b * a->c_bstride +
			((size_t)(y + r) * a->width + x0) * fp + g * 8;
		size_t po = ((size_t)(y + r + 1) * wp + x0 + 1) * fp + g * 8;
		float *ho = a->h_out + b * a->h_bstride + po;
		float *yo = a->y ? a->y + b * a->y_bstride + po : NULL;

#pragma GCC unroll 12
		for (int p = 0; p < n; p++) {
			/* i and f in one zmm, c and o in the other */
			__m512 s = _mm512_min_ps(_mm512_max_ps(
				_mm512_fmadd_ps(acc[r][p][0], k02, k05), zero), one);
			__m512 so = _mm512_min_ps(_mm512_max_ps(
				_mm512_fmadd_ps(acc[r][p][1], k02, k05), zero), one);

			nb_gates8(_mm512_castps512_ps256(s),
				  _mm512_extractf32x8_ps(s, 1),
				  _mm512_castps512_ps256(acc[r][p][1]),
				  _mm512_extractf32x8_ps(so, 1),
				  cb + (size_t)p * fp, ho + (size_t)p * fp,
				  yo ? yo + (size_t)p * fp : NULL,
				  a->bn_scale + g * 8, a->bn_shift + g * 8);
		}
	}
}

static void cell(const struct nb_cell_args *a, int g, int b, int y, int rows,
		 int x0, int n)
{
	if (rows == 2) {
		switch (n) {
		case 1: cell_n(a, g, b, y, x0, 2, 1); break;
		case 2: cell_n(a, g, b, y, x0, 2, 2); break;
		case 3: cell_n(a, g, b, y, x0, 2, 3); break;
		case 4: cell_n(a, g, b, y, x0, 2, 4); break;
		case 5: cell_n(a, g, b, y, x0, 2, 5); break;
		default: cell_n(a, g, b, y, x0, 2, NMAX2); break;
		}
		return;
	}
	switch (n) {
	case 1: cell_n(a, g, b, y, x0, 1, 1); break;
	case 2: cell_n(a, g, b, y, x0, 1, 2); break;
	case 3: cell_n(a, g, b, y, x0, 1, 3); break;
	case 4: cell_n(a, g, b, y, x0, 1, 4); break;
	case 5: cell_n(a, g, b, y, x0, 1, 5); break;
	case 6: cell_n(a, g, b, y, x0, 1, 6); break;
	case 7: cell_n(a, g, b, y, x0, 1, 7); break;
	case 8: cell_n(a, g, b, y, x0, 1, 8); break;
	case 9: cell_n(a, g, b, y, x0, 1, 9); break;
	case 10: cell_n(a, g, b, y, x0, 1, 10); break;
	case 11: cell_n(a, g, b, y, x0, 1, 11); break;
	default: cell_n(a, g, b, y, x0, 1, 12); break;
	}
}

static float dot_taps(const float *const *v, const float *k, int taps, int n)
{
	/* one accumulator per tap modulo 4: the sums do not wait on each other */
	__m512 acc[4] = { _mm512_setzero_ps(), _mm512_setzero_ps(),
			  _mm512_setzero_ps(), _mm512_setzero_ps() };
	__mmask16 tail = (__mmask16)((1u << (n & 15)) - 1);

	for (int t = 0; t < taps; t++, k += n) {
		const float *x = v[t];
		__m512 a = acc[t & 3];
		int i = 0;

		if (!x)
			continue;
		for (; i + 16 <= n; i += 16)
			a = _mm512_fmadd_ps(_mm512_loadu_ps(x + i),
					    _mm512_loadu_ps(k + i), a);
		if (i < n)
			a = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, x + i),
					    _mm512_maskz_loadu_ps(tail, k + i), a);
		acc[t & 3] = a;
	}
	return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(acc[0], acc[1]),
						  _mm512_add_ps(acc[2], acc[3])));
}

#define PEAK_ACC 16

static double fma_loop(long iters, float m, float k, float *lane)
{
	__m512 acc[PEAK_ACC];
	__m512 vm = _mm512_set1_ps(m), vk = _mm512_set1_ps(k);

	for (int j = 0; j < PEAK_ACC; j++)
		acc[j] = _mm512_set1_ps(1.0f);
	for (long i = 0; i < iters; i++) {
#pragma GCC unroll 16
		for (int j = 0; j < PEAK_ACC; j++)
			acc[j] = _mm512_fmadd_ps(acc[j], vm, vk);
	}
	/* every lane of every accumulator ran the same chain */
	__m512 first = _mm512_set1_ps(_mm512_cvtss_f32(acc[0]));
	__mmask16 same = 0xffff;
	for (int j = 0; j < PEAK_ACC; j++)
		same &= _mm512_cmp_ps_mask(acc[j], first, _CMP_EQ_OQ);
	*lane = same == 0xffff ? _mm512_cvtss_f32(acc[0]) : NAN;
	return (double)iters * PEAK_ACC * 16 * 2;
}

static void triad(float *a, const float *b, const float *c, float s, size_t n)
{
	__m512 vs = _mm512_set1_ps(s);
	size_t i = 0;

	for (; i + 16 <= n; i += 16)
		_mm512_storeu_ps(a + i, _mm512_fmadd_ps(vs,
			_mm512_loadu_ps(c + i), _mm512_loadu_ps(b + i)));
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
}

const struct nb_cpu_kernels nb_cpu_kernels_avx512 = {
	.isa = "avx512",
	.max_rows = 2,
	.max_px = { NMAX, NMAX2 },
	.cell = cell,
	.dot_taps = dot_taps,
	.fma_loop = fma_loop,
	.triad = triad,
};
