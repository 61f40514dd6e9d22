/* SPDX-License-Identifier: MIT */
/*
 * 8-wide float activations for the AVX2 kernel (the AVX-512 kernel has its
 * own, 16 lanes wide). tanh follows Cephes' tanhf: a polynomial below
 * 0.625, 1 - 2 / (exp(2x) + 1) above; a few ulp from the exact value.
 * Everything is always inlined: a call from a kernel would spill its
 * vector accumulators, which the ABI makes caller-saved.
 */
#ifndef NB_VMATH_AVX2_H
#define NB_VMATH_AVX2_H

#include <immintrin.h>

static inline __attribute__((always_inline)) __m256 nb_exp8(__m256 x)
{
	/* Cephes expf: 2^n * exp(r), |r| <= ln2 / 2 */
	x = _mm256_min_ps(x, _mm256_set1_ps(88.0f));
	x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
	__m256 n = _mm256_round_ps(_mm256_mul_ps(x,
		_mm256_set1_ps(1.44269504088896341f)),
		_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	__m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);

	r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
	__m256 p = _mm256_set1_ps(1.9875691500e-4f);
	p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
	p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
	p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
	p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
	p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
	p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
	p = _mm256_add_ps(p, _mm256_set1_ps(1.0f));
	__m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n),
		_mm256_set1_epi32(127)), 23);
	return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

static inline __attribute__((always_inline)) __m256 nb_tanh8(__m256 x)
{
	const __m256 sign = _mm256_set1_ps(-0.0f);
	__m256 ax = _mm256_andnot_ps(sign, x);
	__m256 z = _mm256_mul_ps(x, x);
	/* small: x + x^3 P(x^2) */
	__m256 p = _mm256_set1_ps(-5.70498872745e-3f);
	p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(2.06390887954e-2f));
	p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-5.37397155531e-2f));
	p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(1.33314422036e-1f));
	p = _mm256_fmadd_ps(p, z, _mm256_set1_ps(-3.33332819422e-1f));
	__m256 small = _mm256_fmadd_ps(_mm256_mul_ps(p, z), x, x);
	/* large: 1 - 2 / (exp(2|x|) + 1), with the sign of x; exp saturates */
	__m256 e = nb_exp8(_mm256_min_ps(_mm256_add_ps(ax, ax),
					 _mm256_set1_ps(40.0f)));
	__m256 big = _mm256_sub_ps(_mm256_set1_ps(1.0f),
		_mm256_div_ps(_mm256_set1_ps(2.0f),
			      _mm256_add_ps(e, _mm256_set1_ps(1.0f))));
	big = _mm256_or_ps(big, _mm256_and_ps(sign, x));
	__m256 use_small = _mm256_cmp_ps(ax, _mm256_set1_ps(0.625f), _CMP_LT_OQ);
	return _mm256_blendv_ps(big, small, use_small);
}

static inline __attribute__((always_inline)) __m256 nb_hard_sigmoid8(__m256 x)
{
	__m256 y = _mm256_fmadd_ps(x, _mm256_set1_ps(0.2f),
				   _mm256_set1_ps(0.5f));

	return _mm256_min_ps(_mm256_max_ps(y, _mm256_setzero_ps()),
			     _mm256_set1_ps(1.0f));
}

/* c = f * c + i * tanh(zc); h = o * tanh(c); y = h * scale + shift */
static inline __attribute__((always_inline)) void nb_gates8(__m256 ig, __m256 fg, __m256 zc, __m256 og,
			     float *c, float *h, float *y, const float *scale,
			     const float *shift)
{
	__m256 cn = _mm256_fmadd_ps(fg, _mm256_loadu_ps(c),
				    _mm256_mul_ps(ig, nb_tanh8(zc)));
	__m256 hn = _mm256_mul_ps(og, nb_tanh8(cn));

	_mm256_storeu_ps(c, cn);
	_mm256_storeu_ps(h, hn);
	if (y)
		_mm256_storeu_ps(y, _mm256_fmadd_ps(hn, _mm256_loadu_ps(scale),
						    _mm256_loadu_ps(shift)));
}

#endif /* NB_VMATH_AVX2_H */
