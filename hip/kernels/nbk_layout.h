/* SPDX-License-Identifier: MIT */
/*
 * What the kernels and every launcher of them (hip/nbk.cpp, the OpenCL
 * test harness tests/hip/pocl.c) must agree on: the tile parameters, the
 * packed weight layout and the launch geometry. Device code sees only the
 * parameters; the geometry and packing are host C (valid as C and C++).
 *
 * The parameters are chosen for RDNA1 (Navi 14, gfx1012; the reasoning is
 * in convlstm.hip) and are the same for every target of one build, since
 * the host computes the launch geometry without knowing which code object
 * the runtime picks. Another target family is tuned by building with
 * -DNBK_STEP_FB=... etc. (hip/README.md), never by a copy of a kernel.
 */
#ifndef NBK_LAYOUT_H
#define NBK_LAYOUT_H

/* ---- the ConvLSTM step (convlstm.hip) ---- */
#ifndef NBK_STEP_TH
#define NBK_STEP_TH 8		/* tile rows (pixels) */
#endif
#ifndef NBK_STEP_TW
#define NBK_STEP_TW 8		/* tile columns (pixels) */
#endif
#ifndef NBK_STEP_PX
#define NBK_STEP_PX 4		/* pixels per thread, along a row */
#endif
#ifndef NBK_STEP_FB
#define NBK_STEP_FB 8		/* filters per block (x 4 gates = GEMM N) */
#endif
#ifndef NBK_STEP_KC
#define NBK_STEP_KC 8		/* input channels per LDS stage (GEMM K / 9) */
#endif
/* halo tile: one pixel of "same" padding each side; odd row pitch (below) */
#define NBK_STEP_HH (NBK_STEP_TH + 2)
#define NBK_STEP_HW (NBK_STEP_TW + 2)
#define NBK_STEP_HP (NBK_STEP_HW | 1)
#define NBK_STEP_GROUPS (NBK_STEP_TH * NBK_STEP_TW / NBK_STEP_PX)
#define NBK_STEP_THREADS (NBK_STEP_GROUPS * NBK_STEP_FB)

/* ---- the heads (heads.hip) ---- */
#define NBK_HEAD_THREADS 128
#define NBK_HEAD3D_CC 32	/* channels per LDS stage: 27 x 32 weights */
#define NBK_HEAD2D_CC 8		/* channels per LDS stage: 9 x 8 x out */
#define NBK_HEAD2D_MAX_OUT 64	/* nb_model_check()'s limit */

/* ---- fp32-peak, triad (micro.hip) ---- */
#define NBK_PEAK_CHAINS 8	/* independent FMA chains per thread */
#define NBK_TRIAD_THREADS 256

#ifndef __OPENCL_VERSION__
#include <stddef.h>

/* Every block size a multiple of 64 is whole waves for wave32 and wave64. */
#if NBK_STEP_THREADS % 64 || NBK_HEAD_THREADS % 64 || NBK_TRIAD_THREADS % 64
#error "block sizes must be multiples of 64 (whole waves of 32 and 64)"
#endif
#if NBK_STEP_TW % NBK_STEP_PX
#error "NBK_STEP_TW must be a multiple of NBK_STEP_PX"
#endif

struct nbk_geom {
	unsigned int grid[3];
	unsigned int block;
};

/*
 * Packed ConvLSTM weights: the gate columns of each filter side by side,
 * so that one thread's four gate sums (i, f, c, o of filter j) are one
 * 16-byte load and its epilogue needs no other thread:
 *   wx[tap 9][cin][F][4], then wh[tap 9][F][F][4], then bias[F][4]
 * where Keras has kernel (3, 3, cin, 4F) with column gate * F + j.
 */
static inline size_t nbk_layout_packed_count(int cin, int f)
{
	return (size_t)9 * (cin + f) * 4 * f + (size_t)4 * f;
}

static inline void nbk_layout_pack_one(int rows, int f, const float *k,
				       float *out)
{
	for (int r = 0; r < 9 * rows; r++)
		for (int j = 0; j < f; j++)
			for (int g = 0; g < 4; g++)
				out[((size_t)r * f + j) * 4 + g] =
					k[(size_t)r * 4 * f + (size_t)g * f + j];
}

static inline void nbk_layout_pack(int cin, int f, const float *kernel,
				   const float *rkernel, const float *bias,
				   float *packed)
{
	float *wh = packed + (size_t)9 * cin * 4 * f;
	float *b = wh + (size_t)9 * f * 4 * f;

	nbk_layout_pack_one(cin, f, kernel, packed);
	nbk_layout_pack_one(f, f, rkernel, wh);
	for (int j = 0; j < f; j++)
		for (int g = 0; g < 4; g++)
			b[j * 4 + g] = bias[g * f + j];
}

/* BatchNormalization (inference) folded: y = h scale + shift */
static inline void nbk_layout_bn_fold(int f, const float *gamma,
				      const float *beta, const float *mean,
				      const float *var, float eps,
				      float *scale, float *shift)
{
	for (int j = 0; j < f; j++) {
		double sc = gamma[j] / __builtin_sqrt((double)var[j] + eps);

		scale[j] = (float)sc;
		shift[j] = (float)(beta[j] - mean[j] * sc);
	}
}

static inline unsigned int nbk_div_up(size_t a, size_t b)
{
	return (unsigned int)((a + b - 1) / b);
}

/* grid x: spatial tiles, y: filter blocks, z: batch items */
static inline struct nbk_geom nbk_step_geom(int batch, int height, int width,
					    int filters)
{
	struct nbk_geom g = {
		{ nbk_div_up(height, NBK_STEP_TH) * nbk_div_up(width, NBK_STEP_TW),
		  nbk_div_up(filters, NBK_STEP_FB), (unsigned int)batch },
		NBK_STEP_THREADS,
	};
	return g;
}

/* one thread per output value */
static inline struct nbk_geom nbk_head_geom(size_t outputs)
{
	struct nbk_geom g = {
		{ nbk_div_up(outputs, NBK_HEAD_THREADS), 1, 1 },
		NBK_HEAD_THREADS,
	};
	return g;
}

/* grid-stride: enough blocks to fill any GPU, no more than needed */
static inline struct nbk_geom nbk_triad_geom(size_t n)
{
	unsigned int b = nbk_div_up(n, NBK_TRIAD_THREADS);
	struct nbk_geom g = {
		{ b < 4096 ? (b ? b : 1) : 4096, 1, 1 },
		NBK_TRIAD_THREADS,
	};
	return g;
}
#endif /* !__OPENCL_VERSION__ */

#endif /* NBK_LAYOUT_H */
