/* SPDX-License-Identifier: MIT */
/*
 * What the kernels and every launcher of them (hip/nbk.cpp, the CPU
 * executors tests/hip/pocl.c and tests/hip/fibers.c) must agree on: the
 * tile parameters of each target family, the packed weight layout and the
 * launch geometry. Valid as OpenCL C, C and C++.
 *
 * One source, parameters per family. The device code of each target
 * takes its family's tile at compile time (NBK_FAMILY, from the compiler's
 * own target macros); the host, which does not know which code object the
 * runtime picks, computes the launch geometry from the same table at run
 * time (nbk_tile_of(), from the device's wave size: hip/nbk.cpp). The CPU
 * executors are built for one family (-DNBK_FAMILY=...) and are both.
 *
 * Retuning a family: NBK_TUNE='-DNBK_TILE_RDNA=(8,8,8,4,0)' for
 * make -C hip kernels (hip/README.md); host and device see the same value.
 */
#ifndef NBK_LAYOUT_H
#define NBK_LAYOUT_H

/* ---- target families ---- */
#define NBK_FAMILY_RDNA 0	/* gfx10, gfx11: wave32, 64 KiB LDS per CU */
#define NBK_FAMILY_GCN 1	/* gfx9 (GCN 5, CDNA 1-3): wave64, 64 KiB per CU */
#define NBK_FAMILY_NV 2		/* NVIDIA: warps of 32, up to 227 KiB per SM */
#define NBK_FAMILIES 3

/*
 * The ConvLSTM step's tile per family (convlstm.hip says why):
 * (TH, TW, PX, KC, W) = tile rows, tile columns (pixels), pixels per
 * thread along a row, input channels per K stage, and the occupancy the
 * compiler's register budget must leave room for (__launch_bounds__'
 * second argument: waves per SIMD on AMD, blocks per SM on NVIDIA; 0 for
 * the compiler's own choice). Every family computes
 * NBK_PACK_FB filters per block (the packed layout's blocks), so a block
 * has TH x TW / PX x NBK_PACK_FB threads and the grid is the same for all.
 */
#ifndef NBK_TILE_RDNA
#define NBK_TILE_RDNA (8, 8, 8, 4, 0)	/* 64 threads: 2 wave32s */
#endif
#ifndef NBK_TILE_GCN
#define NBK_TILE_GCN (8, 8, 4, 4, 3)	/* 128 threads: 2 wave64s */
#endif
#ifndef NBK_TILE_NV
#define NBK_TILE_NV (8, 8, 4, 8, 7)	/* 128 threads: 4 warps */
#endif
#define NBK_TILE_TH_(th, tw, px, kc, w) th
#define NBK_TILE_TW_(th, tw, px, kc, w) tw
#define NBK_TILE_PX_(th, tw, px, kc, w) px
#define NBK_TILE_KC_(th, tw, px, kc, w) kc
#define NBK_TILE_W_(th, tw, px, kc, w) w
#define NBK_TILE_TH(t) NBK_TILE_TH_ t
#define NBK_TILE_TW(t) NBK_TILE_TW_ t
#define NBK_TILE_PX(t) NBK_TILE_PX_ t
#define NBK_TILE_KC(t) NBK_TILE_KC_ t
#define NBK_TILE_W(t) NBK_TILE_W_ t
#define NBK_TILE_THREADS(t) \
	(NBK_TILE_TH(t) * NBK_TILE_TW(t) / NBK_TILE_PX(t) * NBK_PACK_FB)

/*
 * The packed weights, shared by every family (so the host packs once,
 * whatever GPU runs them): filters in blocks of NBK_PACK_FB, input
 * channels padded with zeros to a multiple of NBK_PACK_CP (every family's
 * KC divides it), so that one K stage of one filter block is one
 * contiguous run of KC x 9 x FB float4, copied to LDS as it is.
 */
#define NBK_PACK_FB 8
#define NBK_PACK_CP 8

/* ---- the heads (heads.hip), fp32-peak and triad (micro.hip) ---- */
#define NBK_HEAD_TILE 8		/* 8 x 8 output pixels per block */
#define NBK_HEAD_THREADS 64	/* one thread per pixel of the tile */
#define NBK_HEAD_KC 8		/* channels per LDS stage */
#define NBK_HEAD2D_OG 4		/* Conv2D outputs per pass */
#define NBK_HEAD2D_MAX_OUT 64	/* nb_model_check()'s limit */
#define NBK_PEAK_CHAINS 8	/* independent FMA chains per thread */
#define NBK_PEAK_THREADS 256
#define NBK_TRIAD_THREADS 256
#define NBK_TRAIN_THREADS 64	/* train.hip: a power of two (its sums' tree) */

/*
 * The device code's family: from the target (HIP, CUDA), or given (the
 * CPU executors). The host pass of a HIP or CUDA build parses the kernels
 * too, with the first family's values, and never uses them: host code
 * takes its tile from nbk_tile_of().
 */
#ifndef NBK_FAMILY
#if defined(__CUDA_ARCH__)
#define NBK_FAMILY NBK_FAMILY_NV
#elif defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 64
#define NBK_FAMILY NBK_FAMILY_GCN
#else
#define NBK_FAMILY NBK_FAMILY_RDNA
#endif
#endif
#if NBK_FAMILY == NBK_FAMILY_NV
#define NBK_TILE NBK_TILE_NV
#elif NBK_FAMILY == NBK_FAMILY_GCN
#define NBK_TILE NBK_TILE_GCN
#else
#define NBK_TILE NBK_TILE_RDNA
#endif
#define NBK_STEP_TH NBK_TILE_TH(NBK_TILE)
#define NBK_STEP_TW NBK_TILE_TW(NBK_TILE)
#define NBK_STEP_PX NBK_TILE_PX(NBK_TILE)
#define NBK_STEP_KC NBK_TILE_KC(NBK_TILE)
#define NBK_STEP_THREADS NBK_TILE_THREADS(NBK_TILE)
#define NBK_STEP_WAVES NBK_TILE_W(NBK_TILE)

#ifndef __OPENCL_VERSION__
#include <math.h>
#include <stddef.h>

/* Whole waves: wave32 on RDNA and NVIDIA, wave64 on GCN and CDNA. */
#if NBK_TILE_THREADS(NBK_TILE_RDNA) % 32 || NBK_TILE_THREADS(NBK_TILE_NV) % 32 || \
	NBK_TILE_THREADS(NBK_TILE_GCN) % 64 || NBK_HEAD_THREADS % 64 || \
	NBK_PEAK_THREADS % 64 || NBK_TRIAD_THREADS % 64 || NBK_TRAIN_THREADS % 64
#error "a block size is not a whole number of waves"
#endif
#if NBK_TRAIN_THREADS & (NBK_TRAIN_THREADS - 1)
#error "train.hip's block sums halve NBK_TRAIN_THREADS down to 1"
#endif
#if NBK_TILE_TW(NBK_TILE_RDNA) % NBK_TILE_PX(NBK_TILE_RDNA) || \
	NBK_TILE_TW(NBK_TILE_GCN) % NBK_TILE_PX(NBK_TILE_GCN) || \
	NBK_TILE_TW(NBK_TILE_NV) % NBK_TILE_PX(NBK_TILE_NV) || \
	NBK_TILE_PX(NBK_TILE_RDNA) % 4 || NBK_TILE_PX(NBK_TILE_GCN) % 4 || \
	NBK_TILE_PX(NBK_TILE_NV) % 4
#error "a thread's pixels must be whole 16-byte vectors of a tile row"
#endif
#if NBK_PACK_CP % NBK_TILE_KC(NBK_TILE_RDNA) || \
	NBK_PACK_CP % NBK_TILE_KC(NBK_TILE_GCN) || NBK_PACK_CP % NBK_TILE_KC(NBK_TILE_NV)
#error "every family's K stage must divide the packed channel padding"
#endif

struct nbk_geom {
	unsigned int grid[3];
	unsigned int block;
};

struct nbk_tile {
	int th, tw, px, kc, threads;
};

#define NBK_TILE_INIT(t) { NBK_TILE_TH(t), NBK_TILE_TW(t), NBK_TILE_PX(t), \
			   NBK_TILE_KC(t), NBK_TILE_THREADS(t) }

/* family: NBK_FAMILY_*; anything else is a bug of the caller */
static inline struct nbk_tile nbk_tile_of(int family)
{
	static const struct nbk_tile tiles[NBK_FAMILIES] = {
		NBK_TILE_INIT(NBK_TILE_RDNA),
		NBK_TILE_INIT(NBK_TILE_GCN),
		NBK_TILE_INIT(NBK_TILE_NV),
	};

	return tiles[family];
}

static inline size_t nbk_round_up(size_t a, size_t b)
{
	return (a + b - 1) / b * b;
}

/*
 * Packed ConvLSTM weights, from Keras' kernel (3, 3, cin, 4F) and
 * recurrent kernel (3, 3, F, 4F) with column gate * F + j, and bias (4F):
 *   wx[F / FB][cin padded][tap 9][FB][gate 4], then
 *   wh[F / FB][F padded][tap 9][FB][gate 4], then bias[F padded][4]
 * with F padded to whole filter blocks; the padding is zeros.
 */
static inline size_t nbk_layout_packed_count(int cin, int f)
{
	size_t fp = nbk_round_up(f, NBK_PACK_FB);

	return (nbk_round_up(cin, NBK_PACK_CP) + nbk_round_up(f, NBK_PACK_CP)) *
		9 * fp * 4 + fp * 4;
}

/* one source of rows channels: k is Keras' (3, 3, rows, 4f) */
static inline void nbk_layout_pack_one(int rows, int f, const float *k,
				       float *out)
{
	const size_t cp = nbk_round_up(rows, NBK_PACK_CP);
	const size_t fp = nbk_round_up(f, NBK_PACK_FB);

	for (size_t fb = 0; fb < fp / NBK_PACK_FB; fb++)
		for (size_t c = 0; c < cp; c++)
			for (size_t tap = 0; tap < 9; tap++)
				for (size_t jl = 0; jl < NBK_PACK_FB; jl++)
					for (size_t g = 0; g < 4; g++) {
						size_t j = fb * NBK_PACK_FB + jl;
						size_t o = (((fb * cp + c) * 9 + tap) *
							    NBK_PACK_FB + jl) * 4 + g;

						out[o] = c < (size_t)rows && j < (size_t)f ?
							k[(tap * rows + c) * 4 * f +
							  g * f + j] : 0.0f;
					}
}

static inline void nbk_layout_pack(int cin, int f, const float *kernel,
				   const float *rkernel, const float *bias,
				   float *packed)
{
	const size_t fp = nbk_round_up(f, NBK_PACK_FB);
	float *wh = packed + nbk_round_up(cin, NBK_PACK_CP) * 9 * fp * 4;
	float *b = wh + nbk_round_up(f, NBK_PACK_CP) * 9 * fp * 4;

	nbk_layout_pack_one(cin, f, kernel, packed);
	nbk_layout_pack_one(f, f, rkernel, wh);
	for (size_t j = 0; j < fp; j++)
		for (int g = 0; g < 4; g++)
			b[j * 4 + g] = j < (size_t)f ? bias[g * f + j] : 0.0f;
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
static inline struct nbk_geom nbk_step_geom(int family, int batch, int height,
					    int width, int filters)
{
	const struct nbk_tile t = nbk_tile_of(family);
	struct nbk_geom g = {
		{ nbk_div_up(height, t.th) * nbk_div_up(width, t.tw),
		  nbk_div_up(filters, NBK_PACK_FB), (unsigned int)batch },
		(unsigned int)t.threads,
	};
	return g;
}

static inline size_t nbk_head_blocks(size_t images, int height, int width)
{
	return images * nbk_div_up(height, NBK_HEAD_TILE) *
		nbk_div_up(width, NBK_HEAD_TILE);
}

/*
 * grid x: the 8 x 8 tiles of every image (B x T frames, or B states); the
 * launcher checks that they fit (nbk_head_blocks()).
 */
static inline struct nbk_geom nbk_head_geom(size_t images, int height, int width)
{
	struct nbk_geom g = {
		{ (unsigned int)nbk_head_blocks(images, height, width), 1, 1 },
		NBK_HEAD_THREADS,
	};
	return g;
}

/* grid-stride: enough blocks to fill any GPU, no more than needed */
static inline struct nbk_geom nbk_stride_geom(size_t n, unsigned int threads)
{
	unsigned int b = nbk_div_up(n, threads);
	struct nbk_geom g = { { b < 4096 ? (b ? b : 1) : 4096, 1, 1 }, threads };

	return g;
}

static inline struct nbk_geom nbk_triad_geom(size_t n)
{
	return nbk_stride_geom(n, NBK_TRIAD_THREADS);
}

/* train.hip's element-wise kernels: grid-stride, as the triad */
static inline struct nbk_geom nbk_train_geom(size_t n)
{
	return nbk_stride_geom(n, NBK_TRAIN_THREADS);
}

/* train.hip's sums: a block per value summed */
static inline struct nbk_geom nbk_sums_geom(size_t values)
{
	struct nbk_geom g = { { (unsigned int)values, 1, 1 }, NBK_TRAIN_THREADS };

	return g;
}

/*
 * nbk_tconv_kernel's arguments for a convolution with kernel (3, 3, cin,
 * cout) of images paired by shift (train.hip): the forward, or with
 * transposed its input gradient.
 */
struct nbk_tconv_map {
	int kt, kc, ka, dir, shift, ci, co;
};

static inline struct nbk_tconv_map nbk_tconv_map(int cin, int cout, int shift,
						 int transposed)
{
	struct nbk_tconv_map fwd = { cin * cout, cout, 1, 1, shift, cin, cout };
	struct nbk_tconv_map bwd = { cin * cout, 1, cout, -1, -shift, cout, cin };

	return transposed ? bwd : fwd;
}

/* Adam's learning rate at step (from 1), with both bias corrections */
static inline float nbk_adam_alpha(long step, double lr, double beta1,
				   double beta2)
{
	return (float)(lr * sqrt(1 - pow(beta2, (double)step)) /
		       (1 - pow(beta1, (double)step)));
}
#endif /* !__OPENCL_VERSION__ */

#endif /* NBK_LAYOUT_H */
