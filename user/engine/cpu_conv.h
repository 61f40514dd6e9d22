/* SPDX-License-Identifier: MIT */
/*
 * The training step's 3x3 "same" convolutions (cpu_train.c), channels
 * last and without a border, in GCC's vector extensions: each kernel file
 * (cpu_avx512.c, cpu_avx2.c, cpu_generic.c) defines NB_CONV_VLEN, the
 * floats of its vector, and NB_CONV_BLOCK (below), includes this file under its own instruction set
 * and puts conv_fwd and conv_bwd_k in its nb_cpu_kernels.
 *
 * NB_CONV_BLOCK, the pixels (and input channels) of a register block, so
 * that the block's two vectors of each fill the file's registers.
 *
 * Blocking: a block of CONV_PB pixels of one row times one or two vectors
 * of output channels stays in registers while the taps and input channels
 * go by; the output channels are the outer loop, so that the kernel's
 * slice of those channels stays in cache over the rows. The weight
 * gradient keeps CONV_IB input channels times one or two vectors of
 * output channels in registers over every pixel a tap reaches.
 */
#ifndef NB_CPU_CONV_H
#define NB_CPU_CONV_H

#include <stddef.h>
#include <string.h>

#ifndef NB_CONV_VLEN
#error "define NB_CONV_VLEN (floats per vector) before including cpu_conv.h"
#endif

typedef float conv_v __attribute__((vector_size(NB_CONV_VLEN * sizeof(float))));

#ifndef NB_CONV_BLOCK
#error "define NB_CONV_BLOCK (pixels, input channels per register block) before including cpu_conv.h"
#endif

#define CONV_V NB_CONV_VLEN
#define CONV_PB NB_CONV_BLOCK	/* pixels per block */
#define CONV_IB NB_CONV_BLOCK	/* input channels per weight-gradient block */
#define CONV_TAIL 4		/* the block for what is left, then 1 */
#define CONV_MAX_CIN 4096	/* 4 x 1024 filters: the gates, as bwd_x's input */
#define CONV_INLINE static inline __attribute__((always_inline))
/* the loops over a block's registers, unrolled so they stay registers */
#define CONV_UNROLL _Pragma("GCC unroll 8")

static const float conv_zero[CONV_MAX_CIN];

CONV_INLINE conv_v conv_ld(const float *p)
{
	conv_v v;

	memcpy(&v, p, sizeof(v));
	return v;
}

CONV_INLINE void conv_st(float *p, conv_v v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * z[y][x0 + p][o0 ..] += the taps' sum for n pixels (n <= CONV_PB) and nv
 * vectors of channels; a pixel a tap reaches outside the image reads
 * conv_zero. n and nv are constants where this is inlined.
 */
CONV_INLINE void conv_fwd_block(int hgt, int wid, int cin, int cout,
				const float *x, const float *k, float *z,
				int y, int x0, int o0, const int n,
				const int nv)
{
	conv_v acc[CONV_PB][2];
	float *zp = z + ((size_t)y * wid + x0) * cout + o0;

	CONV_UNROLL
	for (int p = 0; p < n; p++)
		CONV_UNROLL
		for (int v = 0; v < nv; v++)
			acc[p][v] = conv_ld(zp + (size_t)p * cout + v * CONV_V);
	for (int tap = 0; tap < 9; tap++) {
		int sy = y + tap / 3 - 1, dx = tap % 3 - 1;
		const float *xp[CONV_PB];
		const float *kk = k + (size_t)tap * cin * cout + o0;

		if (sy < 0 || sy >= hgt)
			continue;
		CONV_UNROLL
		for (int p = 0; p < n; p++) {
			int sx = x0 + p + dx;

			xp[p] = sx < 0 || sx >= wid ? conv_zero :
				x + ((size_t)sy * wid + sx) * cin;
		}
		for (int i = 0; i < cin; i++, kk += cout) {
			conv_v kv[2];

			CONV_UNROLL
			for (int v = 0; v < nv; v++)
				kv[v] = conv_ld(kk + v * CONV_V);
			CONV_UNROLL
			for (int p = 0; p < n; p++)
				CONV_UNROLL
				for (int v = 0; v < nv; v++)
					acc[p][v] += xp[p][i] * kv[v];
		}
	}
	CONV_UNROLL
	for (int p = 0; p < n; p++)
		CONV_UNROLL
		for (int v = 0; v < nv; v++)
			conv_st(zp + (size_t)p * cout + v * CONV_V, acc[p][v]);
}

/*
 * The same for one pixel and one output channel, past the last vector
 * (a head's one or three channels): the input channels go by a vector at
 * a time, the kernel's column gathered where it is not contiguous, so
 * that the sum is no chain of dependent scalar FMAs.
 */
static void conv_fwd_one(int hgt, int wid, int cin, int cout,
			 const float *x, const float *k, float *z,
			 int y, int xx, int o)
{
	float acc = z[((size_t)y * wid + xx) * cout + o];
	conv_v va = { 0 };

	for (int tap = 0; tap < 9; tap++) {
		int sy = y + tap / 3 - 1, sx = xx + tap % 3 - 1, i = 0;
		const float *xi, *kk = k + (size_t)tap * cin * cout + o;

		if (sy < 0 || sy >= hgt || sx < 0 || sx >= wid)
			continue;
		xi = x + ((size_t)sy * wid + sx) * cin;
		for (; i + CONV_V <= cin; i += CONV_V) {
			conv_v kv;

			if (cout == 1)
				kv = conv_ld(kk + i);
			else
				for (int l = 0; l < CONV_V; l++)
					kv[l] = kk[(size_t)(i + l) * cout];
			va += conv_ld(xi + i) * kv;
		}
		for (; i < cin; i++)
			acc += xi[i] * kk[(size_t)i * cout];
	}
	for (int l = 0; l < CONV_V; l++)
		acc += va[l];
	z[((size_t)y * wid + xx) * cout + o] = acc;
}

/* every pixel of channels o0 .. o0 + nv vectors */
CONV_INLINE void conv_fwd_cols(int hgt, int wid, int cin, int cout,
			       const float *x, const float *k, float *z,
			       int o0, const int nv)
{
	for (int y = 0; y < hgt; y++) {
		int xx = 0;

		for (; xx + CONV_PB <= wid; xx += CONV_PB)
			conv_fwd_block(hgt, wid, cin, cout, x, k, z, y,
				       xx, o0, CONV_PB, nv);
		for (; CONV_PB > CONV_TAIL && xx + CONV_TAIL <= wid; xx += CONV_TAIL)
			conv_fwd_block(hgt, wid, cin, cout, x, k, z, y,
				       xx, o0, CONV_TAIL, nv);
		for (; xx < wid; xx++)
			conv_fwd_block(hgt, wid, cin, cout, x, k, z, y,
				       xx, o0, 1, nv);
	}
}

/*
 * z (H,W,cout) += conv3x3(x (H,W,cin), k [tap][cin][cout]); also the
 * transposed convolution that takes dz back to dx, given the kernel with
 * its channel axes swapped and its taps reversed. cin <= CONV_MAX_CIN.
 */
static void conv_fwd(int hgt, int wid, int cin, int cout, const float *x,
		     const float *k, float *z)
{
	int o = 0;

	for (; o + 2 * CONV_V <= cout; o += 2 * CONV_V)
		conv_fwd_cols(hgt, wid, cin, cout, x, k, z, o, 2);
	for (; o + CONV_V <= cout; o += CONV_V)
		conv_fwd_cols(hgt, wid, cin, cout, x, k, z, o, 1);
	for (; o < cout; o++)
		for (int y = 0; y < hgt; y++)
			for (int xx = 0; xx < wid; xx++)
				conv_fwd_one(hgt, wid, cin, cout, x, k, z,
					     y, xx, o);
}

/*
 * dk[tap][i0 .. i0 + ni][o0 .. o0 + nv vectors] += the sum over the pixels
 * the tap reaches of x (input channel) times dz (output channels).
 */
CONV_INLINE void conv_bwd_k_block(int hgt, int wid, int cin, int cout,
				  const float *x, const float *dz, float *dk,
				  int tap, int i0, int o0, const int ni,
				  const int nv)
{
	int dy = tap / 3 - 1, dx = tap % 3 - 1;
	int y0 = dy < 0 ? 1 : 0, y1 = dy > 0 ? hgt - 1 : hgt;
	int xa = dx < 0 ? 1 : 0, xb = dx > 0 ? wid - 1 : wid;
	float *dp = dk + ((size_t)tap * cin + i0) * cout + o0;
	conv_v acc[CONV_IB][2];

	CONV_UNROLL
	for (int i = 0; i < ni; i++)
		CONV_UNROLL
		for (int v = 0; v < nv; v++)
			acc[i][v] = conv_ld(dp + (size_t)i * cout + v * CONV_V);
	for (int y = y0; y < y1; y++) {
		const float *d = dz + ((size_t)y * wid + xa) * cout + o0;
		const float *xi = x + ((size_t)(y + dy) * wid + xa + dx) * cin + i0;

		for (int xx = xa; xx < xb; xx++, d += cout, xi += cin) {
			conv_v dv[2];

			CONV_UNROLL
			for (int v = 0; v < nv; v++)
				dv[v] = conv_ld(d + v * CONV_V);
			CONV_UNROLL
			for (int i = 0; i < ni; i++)
				CONV_UNROLL
				for (int v = 0; v < nv; v++)
					acc[i][v] += xi[i] * dv[v];
		}
	}
	CONV_UNROLL
	for (int i = 0; i < ni; i++)
		CONV_UNROLL
		for (int v = 0; v < nv; v++)
			conv_st(dp + (size_t)i * cout + v * CONV_V, acc[i][v]);
}

/*
 * One input channel times one output channel, past the last vector: the
 * pixels of a row that the tap reaches go by a vector at a time (gathered
 * from both images), so that the sum is no chain of dependent scalar FMAs.
 */
static void conv_bwd_k_one(int hgt, int wid, int cin, int cout,
			   const float *x, const float *dz, float *dk, int tap,
			   int i, int o)
{
	int dy = tap / 3 - 1, dx = tap % 3 - 1;
	int x0 = dx < 0 ? 1 : 0, x1 = dx > 0 ? wid - 1 : wid;
	float acc = dk[((size_t)tap * cin + i) * cout + o];
	conv_v va = { 0 };

	for (int y = dy < 0 ? 1 : 0; y < (dy > 0 ? hgt - 1 : hgt); y++) {
		const float *xr = x + (size_t)(y + dy) * wid * cin + i;
		const float *dr = dz + (size_t)y * wid * cout + o;
		int xx = x0;

		for (; xx + CONV_V <= x1; xx += CONV_V) {
			conv_v xv, dv;

			for (int l = 0; l < CONV_V; l++) {
				xv[l] = xr[(size_t)(xx + l + dx) * cin];
				dv[l] = dr[(size_t)(xx + l) * cout];
			}
			va += xv * dv;
		}
		for (; xx < x1; xx++)
			acc += xr[(size_t)(xx + dx) * cin] * dr[(size_t)xx * cout];
	}
	for (int l = 0; l < CONV_V; l++)
		acc += va[l];
	dk[((size_t)tap * cin + i) * cout + o] = acc;
}

CONV_INLINE void conv_bwd_k_cols(int hgt, int wid, int cin, int cout,
				 const float *x, const float *dz, float *dk,
				 int tap, int o0, const int nv)
{
	int i = 0;

	for (; i + CONV_IB <= cin; i += CONV_IB)
		conv_bwd_k_block(hgt, wid, cin, cout, x, dz, dk, tap, i, o0,
				 CONV_IB, nv);
	for (; CONV_IB > CONV_TAIL && i + CONV_TAIL <= cin; i += CONV_TAIL)
		conv_bwd_k_block(hgt, wid, cin, cout, x, dz, dk, tap, i, o0,
				 CONV_TAIL, nv);
	for (; i < cin; i++)
		conv_bwd_k_block(hgt, wid, cin, cout, x, dz, dk, tap, i, o0,
				 1, nv);
}

/* dk [tap][cin][cout] += x (H,W,cin) (x) dz (H,W,cout) */
static void conv_bwd_k(int hgt, int wid, int cin, int cout, const float *x,
		       const float *dz, float *dk)
{
	for (int tap = 0; tap < 9; tap++) {
		int o = 0;

		for (; o + 2 * CONV_V <= cout; o += 2 * CONV_V)
			conv_bwd_k_cols(hgt, wid, cin, cout, x, dz, dk, tap, o, 2);
		for (; o + CONV_V <= cout; o += CONV_V)
			conv_bwd_k_cols(hgt, wid, cin, cout, x, dz, dk, tap, o, 1);
		for (; o < cout; o++)
			for (int i = 0; i < cin; i++)
				conv_bwd_k_one(hgt, wid, cin, cout, x, dz, dk,
					       tap, i, o);
	}
}

#endif /* NB_CPU_CONV_H */
