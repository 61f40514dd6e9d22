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
 * output channels in registers over the pixels a tap reaches in a band of
 * rows (conv_bwd_k).
 */
#ifndef NB_CPU_CONV_H
#define NB_CPU_CONV_H

#include <stddef.h>
#include <stdlib.h>
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
/*
 * The loops over a block's registers, unrolled whole so they stay
 * registers: a loop of more iterations than the pragma's count is unrolled
 * in part, and its accumulators live on the stack (AVX-512's 12 pixels and
 * input channels under "unroll 8": every FMA with a load and a store, the
 * kernels 2.8x slower).
 */
#define CONV_UNROLL _Pragma("GCC unroll 16")
_Static_assert(NB_CONV_BLOCK <= 16, "CONV_UNROLL unrolls a block's loops whole");

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
 * vectors of channels, the kernel's rows kstride apart (cout, or CONV_V
 * for a zero-padded copy of the last channels); part (0 < part < CONV_V):
 * one vector of which z has only the first part channels. A pixel a tap
 * reaches outside the image reads conv_zero. n, nv and part are constants
 * where this is inlined.
 */
CONV_INLINE void conv_fwd_block(int hgt, int wid, int cin, int cout,
				const float *x, const float *k, int kstride,
				float *z, int y, int x0, int o0, const int n,
				const int nv, const int part)
{
	conv_v acc[CONV_PB][2];
	float *zp = z + ((size_t)y * wid + x0) * cout + o0;

	CONV_UNROLL
	for (int p = 0; p < n; p++)
		CONV_UNROLL
		for (int v = 0; v < nv; v++) {
			acc[p][v] = (conv_v){ 0 };
			memcpy(&acc[p][v], zp + (size_t)p * cout + v * CONV_V,
			       (part ? part : CONV_V) * sizeof(float));
		}
	for (int tap = 0; tap < 9; tap++) {
		int sy = y + tap / 3 - 1, dx = tap % 3 - 1;
		const float *xp[CONV_PB];
		const float *kk = k + (size_t)tap * cin * kstride;

		if (sy < 0 || sy >= hgt)
			continue;
		CONV_UNROLL
		for (int p = 0; p < n; p++) {
			int sx = x0 + p + dx;

			xp[p] = sx < 0 || sx >= wid ? conv_zero :
				x + ((size_t)sy * wid + sx) * cin;
		}
		for (int i = 0; i < cin; i++, kk += kstride) {
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
			memcpy(zp + (size_t)p * cout + v * CONV_V, &acc[p][v],
			       (part ? part : CONV_V) * sizeof(float));
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

/* every pixel of channels o0 .. o0 + nv vectors (conv_fwd_block) */
CONV_INLINE void conv_fwd_cols(int hgt, int wid, int cin, int cout,
			       const float *x, const float *k, int kstride,
			       float *z, int o0, const int nv, const int part)
{
	for (int y = 0; y < hgt; y++) {
		int xx = 0;

		for (; xx + CONV_PB <= wid; xx += CONV_PB)
			conv_fwd_block(hgt, wid, cin, cout, x, k, kstride, z,
				       y, xx, o0, CONV_PB, nv, part);
		for (; CONV_PB > CONV_TAIL && xx + CONV_TAIL <= wid; xx += CONV_TAIL)
			conv_fwd_block(hgt, wid, cin, cout, x, k, kstride, z,
				       y, xx, o0, CONV_TAIL, nv, part);
		for (; xx < wid; xx++)
			conv_fwd_block(hgt, wid, cin, cout, x, k, kstride, z,
				       y, xx, o0, 1, nv, part);
	}
}

/*
 * The channels o .. cout - 1 past a layer's last whole vector (fewer than
 * CONV_V; e.g. 40 filters in vectors of 16) as one vector, through a copy
 * of their kernel columns padded with zeros to a vector: the kernel's
 * full-vector blocks, not conv_fwd_one's sum per channel (which took 65%
 * of AVX-512's training step). Returns -1 when out of memory.
 */
static int conv_fwd_part(int hgt, int wid, int cin, int cout,
			 const float *x, const float *k, float *z, int o)
{
	size_t rows = (size_t)9 * cin;
	float *kp = calloc(rows * CONV_V, sizeof(float));

	if (!kp)
		return -1;
	for (size_t r = 0; r < rows; r++)
		memcpy(kp + r * CONV_V, k + r * cout + o,
		       (cout - o) * sizeof(float));
	conv_fwd_cols(hgt, wid, cin, cout, x, kp, CONV_V, z, o, 1, cout - o);
	free(kp);
	return 0;
}

/*
 * z (H,W,cout) += conv3x3(x (H,W,cin), k [tap][cin][cout]); also the
 * transposed convolution that takes dz back to dx, given the kernel with
 * its channel axes swapped and its taps reversed. cin <= CONV_MAX_CIN.
 * A head's channels (cout < CONV_V) go by conv_fwd_one.
 */
static void conv_fwd(int hgt, int wid, int cin, int cout, const float *x,
		     const float *k, float *z)
{
	int o = 0;

	for (; o + 2 * CONV_V <= cout; o += 2 * CONV_V)
		conv_fwd_cols(hgt, wid, cin, cout, x, k + o, cout, z, o, 2, 0);
	for (; o + CONV_V <= cout; o += CONV_V)
		conv_fwd_cols(hgt, wid, cin, cout, x, k + o, cout, z, o, 1, 0);
	if (o == cout || (o && !conv_fwd_part(hgt, wid, cin, cout, x, k, z, o)))
		return;
	for (; o < cout; o++)
		for (int y = 0; y < hgt; y++)
			for (int xx = 0; xx < wid; xx++)
				conv_fwd_one(hgt, wid, cin, cout, x, k, z,
					     y, xx, o);
}

/*
 * dk[tap][i0 .. i0 + ni][o0 .. o0 + nv vectors] += the sum over the pixels
 * of rows ya .. yb - 1 that the tap reaches of x (input channel) times dz
 * (output channels).
 */
CONV_INLINE void conv_bwd_k_block(int hgt, int wid, int cin, int cout,
				  const float *x, const float *dz, float *dk,
				  int tap, int i0, int o0, const int ni,
				  const int nv, int ya, int yb)
{
	int dy = tap / 3 - 1, dx = tap % 3 - 1;
	int y0 = dy < 0 ? 1 : 0, y1 = dy > 0 ? hgt - 1 : hgt;
	int xa = dx < 0 ? 1 : 0, xb = dx > 0 ? wid - 1 : wid;
	float *dp = dk + ((size_t)tap * cin + i0) * cout + o0;
	conv_v acc[CONV_IB][2];

	y0 = y0 > ya ? y0 : ya;
	y1 = y1 < yb ? y1 : yb;
	if (y0 >= y1)
		return;

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
				 int tap, int o0, const int nv, int ya, int yb)
{
	int i = 0;

	for (; i + CONV_IB <= cin; i += CONV_IB)
		conv_bwd_k_block(hgt, wid, cin, cout, x, dz, dk, tap, i, o0,
				 CONV_IB, nv, ya, yb);
	for (; CONV_IB > CONV_TAIL && i + CONV_TAIL <= cin; i += CONV_TAIL)
		conv_bwd_k_block(hgt, wid, cin, cout, x, dz, dk, tap, i, o0,
				 CONV_TAIL, nv, ya, yb);
	for (; i < cin; i++)
		conv_bwd_k_block(hgt, wid, cin, cout, x, dz, dk, tap, i, o0,
				 1, nv, ya, yb);
}

/*
 * dk [tap][cin][cout] += x (H,W,cin) (x) dz (H,W,cout), a band of rows at
 * a time: every tap, input and output channel block of a band before the
 * next, so that the band's dz rows (and the x rows its taps reach) are
 * read from L1 and L2 by every block, not streamed again from the whole
 * image for each (1.3-1.4x on convlstm-mono's 40 x 40 x 160 gates). A band
 * is the rows whose dz fits CONV_BAND_BYTES, at least one.
 */
#define CONV_BAND_BYTES 32768
static void conv_bwd_k(int hgt, int wid, int cin, int cout, const float *x,
		       const float *dz, float *dk)
{
	size_t row = (size_t)wid * cout * sizeof(float);
	int band = row < CONV_BAND_BYTES ? (int)(CONV_BAND_BYTES / row) : 1;

	for (int ya = 0; ya < hgt; ya += band)
		for (int tap = 0; tap < 9; tap++) {
			int o = 0, yb = ya + band;

			for (; o + 2 * CONV_V <= cout; o += 2 * CONV_V)
				conv_bwd_k_cols(hgt, wid, cin, cout, x, dz, dk,
						tap, o, 2, ya, yb);
			for (; o + CONV_V <= cout; o += CONV_V)
				conv_bwd_k_cols(hgt, wid, cin, cout, x, dz, dk,
						tap, o, 1, ya, yb);
		}
	for (int tap = 0; tap < 9; tap++)
		for (int o = cout - cout % CONV_V; o < cout; o++)
			for (int i = 0; i < cin; i++)
				conv_bwd_k_one(hgt, wid, cin, cout, x, dz, dk,
					       tap, i, o);
}

#endif /* NB_CPU_CONV_H */
