/* SPDX-License-Identifier: MIT */
/*
 * The training step's gate arithmetic (cpu_train.c), forward and
 * backward, in GCC's vector extensions: each kernel file includes it after
 * cpu_conv.h (its vector type and width) and puts gates_fwd and gates_bwd
 * in its nb_cpu_kernels.
 *
 * A pixel's gates are z[q][0..4f): input, forget, cell candidate and
 * output, f each; the cell and hidden states c, h are [q][0..f). The
 * channels of a pixel go by a vector at a time, the last one partial
 * (loaded into and stored from a zero-padded vector), so that every
 * reading takes the same arithmetic.
 *
 * tanh follows Cephes' tanhf, as the inference kernels' vmath_avx2.h
 * does: a polynomial below 0.625, 1 - 2 / (exp(2|x|) + 1) above (exp:
 * 2^n exp(r), |r| <= ln2 / 2), a few ulp from the exact value. GCC's
 * vector extensions have no select in C: the lanes' comparisons are masks
 * (0 or -1) combined with the integers' bits.
 */
#ifndef NB_CPU_GATES_H
#define NB_CPU_GATES_H

#ifndef NB_CPU_CONV_H
#error "include cpu_conv.h (the vector type) before cpu_gates.h"
#endif

#include <limits.h>

typedef int gates_vi __attribute__((vector_size(CONV_V * sizeof(int))));

/* a vector of s in every lane */
#define GATES_ALL(s) ((conv_v){ 0 } + (s))

/* the lanes of a where m, else of b */
CONV_INLINE conv_v gates_sel(gates_vi m, conv_v a, conv_v b)
{
	return (conv_v)((m & (gates_vi)a) | (~m & (gates_vi)b));
}

CONV_INLINE conv_v gates_min(conv_v a, conv_v b)
{
	return gates_sel(a < b, a, b);
}

CONV_INLINE conv_v gates_max(conv_v a, conv_v b)
{
	return gates_sel(a > b, a, b);
}

CONV_INLINE conv_v gates_exp(conv_v x)
{
	conv_v t, n, r, p;
	gates_vi i;

	x = gates_max(gates_min(x, GATES_ALL(88.0f)), GATES_ALL(-87.0f));
	/* n = round(x log2 e): truncate t + 0.5, then step down where it rose */
	t = x * 1.44269504088896341f + 0.5f;
	i = __builtin_convertvector(t, gates_vi);
	i += (gates_vi)(__builtin_convertvector(i, conv_v) > t);
	n = __builtin_convertvector(i, conv_v);
	r = x - n * 0.693359375f;
	r = r - n * -2.12194440e-4f;
	p = r * 1.9875691500e-4f + 1.3981999507e-3f;
	p = p * r + 8.3334519073e-3f;
	p = p * r + 4.1665795894e-2f;
	p = p * r + 1.6666665459e-1f;
	p = p * r + 5.0000001201e-1f;
	p = p * (r * r) + r + 1.0f;
	return p * (conv_v)((i + 127) << 23);
}

CONV_INLINE conv_v gates_tanh(conv_v x)
{
	const gates_vi sign = (gates_vi){ 0 } + INT_MIN;	/* the sign bit */
	conv_v ax = (conv_v)((gates_vi)x & ~sign), z = x * x, p, big;

	p = z * -5.70498872745e-3f + 2.06390887954e-2f;
	p = p * z - 5.37397155531e-2f;
	p = p * z + 1.33314422036e-1f;
	p = p * z - 3.33332819422e-1f;
	big = 1.0f - 2.0f / (gates_exp(gates_min(ax + ax, GATES_ALL(40.0f))) + 1.0f);
	big = (conv_v)((gates_vi)big | ((gates_vi)x & sign));
	return gates_sel(ax < 0.625f, p * z * x + x, big);
}

/* Keras' hard sigmoid, clip(0.2 x + 0.5, 0, 1), and its derivative */
CONV_INLINE conv_v gates_hsig(conv_v x)
{
	return gates_min(gates_max(x * 0.2f + 0.5f, GATES_ALL(0.0f)), GATES_ALL(1.0f));
}

CONV_INLINE conv_v gates_hsig_grad(conv_v x)
{
	return gates_sel((x > -2.5f) & (x < 2.5f), GATES_ALL(0.2f), GATES_ALL(0.0f));
}

/* n <= CONV_V floats at p, the rest of the vector 0 */
CONV_INLINE conv_v gates_ld(const float *p, int n)
{
	conv_v v = { 0 };

	if (n == CONV_V)
		return conv_ld(p);
	memcpy(&v, p, n * sizeof(float));
	return v;
}

CONV_INLINE void gates_st(float *p, conv_v v, int n)
{
	if (n == CONV_V)
		conv_st(p, v);
	else
		memcpy(p, &v, n * sizeof(float));
}

/*
 * The cell forward for px pixels of f filters: c = hsig(zf) cp +
 * hsig(zi) tanh(zc), h = hsig(zo) tanh(c); cp the previous frame's c.
 */
static void gates_fwd(size_t px, int f, const float *z, const float *cp,
		      float *c, float *h)
{
	for (size_t q = 0; q < px; q++) {
		const float *zq = z + q * 4 * f;

		for (int j = 0; j < f; j += CONV_V) {
			int n = f - j < CONV_V ? f - j : CONV_V;
			size_t e = q * f + j;
			conv_v cn;

			cn = gates_hsig(gates_ld(zq + f + j, n)) * gates_ld(cp + e, n) +
			     gates_hsig(gates_ld(zq + j, n)) *
			     gates_tanh(gates_ld(zq + 2 * f + j, n));
			gates_st(c + e, cn, n);
			gates_st(h + e, gates_hsig(gates_ld(zq + 3 * f + j, n)) *
				 gates_tanh(cn), n);
		}
	}
}

/*
 * The cell backward for px pixels of f filters: from the gates z, the
 * states c and cp (the previous frame's), the gradient of h from above
 * (dho) and from the next frame (dh_rec) and of c from the next frame
 * (dc_next, replaced by this frame's), the gates' gradient dz, added to
 * dbias (4f).
 */
static void gates_bwd(size_t px, int f, const float *z, const float *c,
		      const float *cp, const float *dho, const float *dh_rec,
		      float *dc_next, float *dz, float *dbias)
{
	for (size_t q = 0; q < px; q++) {
		const float *zq = z + q * 4 * f;
		float *dzq = dz + q * 4 * f;

		for (int j = 0; j < f; j += CONV_V) {
			int n = f - j < CONV_V ? f - j : CONV_V;
			size_t e = q * f + j;
			conv_v zi = gates_ld(zq + j, n), zf = gates_ld(zq + f + j, n);
			conv_v zo = gates_ld(zq + 3 * f + j, n);
			conv_v cc = gates_tanh(gates_ld(zq + 2 * f + j, n));
			conv_v tc = gates_tanh(gates_ld(c + e, n));
			conv_v dh = gates_ld(dho + e, n) + gates_ld(dh_rec + e, n);
			conv_v dc = gates_ld(dc_next + e, n) +
				    dh * gates_hsig(zo) * (1.0f - tc * tc);

			gates_st(dzq + j, dc * cc * gates_hsig_grad(zi), n);
			gates_st(dzq + f + j, dc * gates_ld(cp + e, n) *
				 gates_hsig_grad(zf), n);
			gates_st(dzq + 2 * f + j, dc * gates_hsig(zi) *
				 (1.0f - cc * cc), n);
			gates_st(dzq + 3 * f + j, dh * tc * gates_hsig_grad(zo), n);
			gates_st(dc_next + e, dc * gates_hsig(zf), n);
		}
		for (int o = 0; o < 4 * f; o++)
			dbias[o] += dzq[o];
	}
}

#endif /* NB_CPU_GATES_H */
