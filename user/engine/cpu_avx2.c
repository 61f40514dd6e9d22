// SPDX-License-Identifier: MIT
/*
 * AVX2 + FMA kernels: the AVX-512 cell kernel's implicit GEMM on 16 ymm
 * registers. All 32 gate outputs of a group for a pixel take 4 ymm, which
 * leaves room for 3 pixels only: every weight load would serve 3 pixels,
 * and the kernel would wait on the weights streaming from L2. So a call
 * runs the group in two halves, i and f first, then c and o, each over up
 * to 6 pixels (2 ymm per pixel, 12 accumulators): a weight load serves 6
 * pixels, and a half reads one of the two cache lines of each k's weights.
 * Between the halves the activated i and f of the 6 pixels wait in a
 * 384-byte buffer on the stack (L1); c and o stay in registers into the
 * gate arithmetic, as in the AVX-512 kernel.
 */
#include <immintrin.h>
#include <math.h>

#include "engine/cpu_kernels.h"

#define NB_CONV_VLEN 8
#define NB_CONV_BLOCK 6		/* 6 x 2 accumulators of 16 ymm */
#include "engine/cpu_conv.h"
#include "engine/cpu_gates.h"
#include "engine/vmath_avx2.h"

#define NMAX 6

/*
 * Gates 2 half and 2 half + 1 of group g (i, f or c, o) for n pixels, into
 * out. The accumulators are this function's own, and the loops that use
 * them are written out here, not in a helper that takes their address: so
 * the compiler keeps them in registers (given a pointer, GCC stored all 12
 * back to the stack after every FMA pair).
 */
static inline __attribute__((always_inline)) void
conv_half(const struct nb_cell_args *a, int g, int b, int y, int x0,
	  const int n, int half, __m256 out[NMAX][2])
{
	const int cin = a->cin, fp = a->fp, wp = a->width + 2;
	const int kk = cin + fp;
	const float *wg = a->wpack + (size_t)g * 9 * kk * 32 + half * 16;
	const float *xb = a->x + b * a->x_bstride;
	const float *hb = a->h + b * a->h_bstride;
	const __m256 b0 = _mm256_load_ps(a->bias + g * 32 + half * 16);
	const __m256 b1 = _mm256_load_ps(a->bias + g * 32 + half * 16 + 8);
	__m256 acc[NMAX][2];

#pragma GCC unroll 6
	for (int p = 0; p < n; p++) {
		acc[p][0] = b0;
		acc[p][1] = b1;
	}
	for (int ky = 0; ky < 3; ky++) {
		const float *wk = wg + (size_t)ky * 3 * kk * 32;
		const float *xr = xb + ((size_t)(y + ky) * wp + x0) * cin;
		const float *hr = hb + ((size_t)(y + ky) * wp + x0) * fp;

		/*
		 * 3 Cin input floats of the three taps, then 3 Fp recurrent:
		 * two loops of the same shape, each with its stride a loop
		 * invariant (one loop over both sources measured 1-2% slower)
		 */
		for (int ci = 0; ci < 3 * cin; ci++, wk += 32) {
			const __m256 w0 = _mm256_load_ps(wk), w1 = _mm256_load_ps(wk + 8);

#pragma GCC unroll 6
			for (int p = 0; p < n; p++) {
				__m256 v = _mm256_broadcast_ss(xr + (size_t)p * cin + ci);

				acc[p][0] = _mm256_fmadd_ps(w0, v, acc[p][0]);
				acc[p][1] = _mm256_fmadd_ps(w1, v, acc[p][1]);
			}
		}
		for (int cf = 0; cf < 3 * fp; cf++, wk += 32) {
			const __m256 w0 = _mm256_load_ps(wk), w1 = _mm256_load_ps(wk + 8);

#pragma GCC unroll 6
			for (int p = 0; p < n; p++) {
				__m256 v = _mm256_broadcast_ss(hr + (size_t)p * fp + cf);

				acc[p][0] = _mm256_fmadd_ps(w0, v, acc[p][0]);
				acc[p][1] = _mm256_fmadd_ps(w1, v, acc[p][1]);
			}
		}
	}
#pragma GCC unroll 6
	for (int p = 0; p < n; p++) {
		out[p][0] = acc[p][0];
		out[p][1] = acc[p][1];
	}
}

static inline __attribute__((always_inline)) void
cell_n(const struct nb_cell_args *a, int g, int b, int y, int x0, const int n)
{
	const int fp = a->fp, wp = a->width + 2;
	__m256 acc[NMAX][2];
	float ifg[NMAX][16] __attribute__((aligned(32)));

	conv_half(a, g, b, y, x0, n, 0, acc);
#pragma GCC unroll 6
	for (int p = 0; p < n; p++) {
		_mm256_store_ps(ifg[p], nb_hard_sigmoid8(acc[p][0]));
		_mm256_store_ps(ifg[p] + 8, nb_hard_sigmoid8(acc[p][1]));
	}
	conv_half(a, g, b, y, x0, n, 1, acc);

	float *cb = a->c + b * a->c_bstride + ((size_t)y * a->width + x0) * fp + g * 8;
	size_t po = ((size_t)(y + 1) * wp + x0 + 1) * fp + g * 8;
	float *ho = a->h_out + b * a->h_bstride + po;
	float *yo = a->y ? a->y + b * a->y_bstride + po : NULL;

	for (int p = 0; p < n; p++)
		nb_gates8(_mm256_load_ps(ifg[p]), _mm256_load_ps(ifg[p] + 8),
			  acc[p][0], nb_hard_sigmoid8(acc[p][1]),
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
		case 3: cell_n(a, g, b, y + r, x0, 3); break;
		case 4: cell_n(a, g, b, y + r, x0, 4); break;
		case 5: cell_n(a, g, b, y + r, x0, 5); break;
		default: cell_n(a, g, b, y + r, x0, 6); break;
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
	.conv_fwd = conv_fwd,
	.conv_bwd_k = conv_bwd_k,
	.gates_fwd = gates_fwd,
	.gates_bwd = gates_bwd,
	.triad = triad,
};
