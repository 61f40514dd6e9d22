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

#include "engine/cpu_kernels.h"

#define NB_CONV_VLEN 16
#define NB_CONV_BLOCK 12		/* 12 x 2 accumulators of 32 zmm */
#include "engine/cpu_conv.h"
#include "engine/cpu_gates.h"

/*
 * tanh as a rational function of degree 13 / 6 on [-7.9988, 7.9988] (the
 * coefficients of Eigen's float tanh), clamped outside: within 3e-7 of the
 * exact value; one reciprocal with a Newton step for the division.
 */
static inline __attribute__((always_inline)) __m512 tanh16(__m512 x)
{
	const __m512 lim = _mm512_set1_ps(7.99881172180175781f);
	__m512 t = _mm512_min_ps(_mm512_max_ps(x, _mm512_sub_ps(_mm512_setzero_ps(), lim)), lim);
	__m512 t2 = _mm512_mul_ps(t, t);
	__m512 p = _mm512_fmadd_ps(t2, _mm512_set1_ps(-2.76076847742355e-16f),
				   _mm512_set1_ps(2.00018790482477e-13f));

	p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(-8.60467152213735e-11f));
	p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(5.12229709037114e-08f));
	p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(1.48572235717979e-05f));
	p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(6.37261928875436e-04f));
	p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(4.89352455891786e-03f));
	p = _mm512_mul_ps(p, t);
	__m512 q = _mm512_fmadd_ps(t2, _mm512_set1_ps(1.19825839466702e-06f),
				   _mm512_set1_ps(1.18534705686654e-04f));

	q = _mm512_fmadd_ps(q, t2, _mm512_set1_ps(2.26843463243900e-03f));
	q = _mm512_fmadd_ps(q, t2, _mm512_set1_ps(4.89352518554385e-03f));
	__m512 rq = _mm512_rcp14_ps(q);

	rq = _mm512_mul_ps(rq, _mm512_fnmadd_ps(q, rq, _mm512_set1_ps(2.0f)));
	return _mm512_mul_ps(p, rq);
}

static inline __attribute__((always_inline)) __m512 hard_sigmoid16(__m512 x)
{
	return _mm512_min_ps(_mm512_max_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(0.2f),
		_mm512_set1_ps(0.5f)), _mm512_setzero_ps()), _mm512_set1_ps(1.0f));
}

/* the low half of v to pixel p, the high half to pixel q (fp floats apart) */
static inline __attribute__((always_inline)) void
store2(float *base, int p, int q, int fp, __m512 v)
{
	_mm256_storeu_ps(base + (size_t)q * fp, _mm512_extractf32x8_ps(v, 1));
	_mm256_storeu_ps(base + (size_t)p * fp, _mm512_castps512_ps256(v));
}

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

	const __m512 sc = _mm512_broadcast_f32x8(_mm256_loadu_ps(a->bn_scale + g * 8));
	const __m512 sh = _mm512_broadcast_f32x8(_mm256_loadu_ps(a->bn_shift + g * 8));

#pragma GCC unroll 2
	for (int r = 0; r < rows; r++) {
		float *cb = a->c + b * a->c_bstride +
			((size_t)(y + r) * a->width + x0) * fp + g * 8;
		size_t po = ((size_t)(y + r + 1) * wp + x0 + 1) * fp + g * 8;
		float *ho = a->h_out + b * a->h_bstride + po;
		float *yo = a->y ? a->y + b * a->y_bstride + po : NULL;

		/* two pixels per zmm; an odd last pixel goes twice */
#pragma GCC unroll 6
		for (int p = 0; p < n; p += 2) {
			int q = p + 1 < n ? p + 1 : p;
			__m512 s0 = hard_sigmoid16(acc[r][p][0]);
			__m512 s1 = hard_sigmoid16(acc[r][q][0]);
			__m512 o0 = hard_sigmoid16(acc[r][p][1]);
			__m512 o1 = hard_sigmoid16(acc[r][q][1]);
			/* i, f, c, o of pixel p in the low half, of q in the high */
			__m512 ig = _mm512_shuffle_f32x4(s0, s1, _MM_SHUFFLE(1, 0, 1, 0));
			__m512 fg = _mm512_shuffle_f32x4(s0, s1, _MM_SHUFFLE(3, 2, 3, 2));
			__m512 zc = _mm512_shuffle_f32x4(acc[r][p][1], acc[r][q][1],
							 _MM_SHUFFLE(1, 0, 1, 0));
			__m512 og = _mm512_shuffle_f32x4(o0, o1, _MM_SHUFFLE(3, 2, 3, 2));
			__m512 cold = _mm512_insertf32x8(_mm512_castps256_ps512(
				_mm256_loadu_ps(cb + (size_t)p * fp)),
				_mm256_loadu_ps(cb + (size_t)q * fp), 1);
			__m512 cn = _mm512_fmadd_ps(fg, cold, _mm512_mul_ps(ig, tanh16(zc)));
			__m512 hn = _mm512_mul_ps(og, tanh16(cn));

			store2(cb, p, q, fp, cn);
			store2(ho, p, q, fp, hn);
			if (yo)
				store2(yo, p, q, fp, _mm512_fmadd_ps(hn, sc, sh));
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
	.conv_fwd = conv_fwd,
	.conv_bwd_k = conv_bwd_k,
	.gates_fwd = gates_fwd,
	.gates_bwd = gates_bwd,
	.triad = triad,
};
