/* SPDX-License-Identifier: MIT */
/*
 * The CPU backend's inner kernels, one set per instruction set, chosen at
 * run time (cpu.c).
 *
 * Packed layout (cpu.c packs once, every kernel reads the same):
 *   filters are padded to Fp, a multiple of 8, and split into groups of 8;
 *   a group's 32 gate outputs are ordered i[8] f[8] c[8] o[8];
 *   wpack[g][ky][k][32], k over the kernel row's three taps kx: first
 *   k = kx Cin + ci (input kernel), then 3 Cin + kx Fp + cf (recurrent
 *   kernel, zero past F), the order of the floats in a padded row;
 *   bias[g][32].
 * Activations are channels last with a one-pixel zero border ("same"
 * padding without branches): x (H+2, W+2, Cin), h and y (H+2, W+2, Fp);
 * c has no border (H, W, Fp).
 */
#ifndef NB_CPU_KERNELS_H
#define NB_CPU_KERNELS_H

#include <stddef.h>

struct nb_cell_args {
	int height, width;
	int cin, fp;
	const float *wpack;
	const float *bias;
	const float *x;		/* frame of batch item 0 */
	size_t x_bstride;	/* floats between batch items */
	const float *h;		/* h(t-1), padded */
	float *h_out;		/* h(t), same layout as h */
	size_t h_bstride;
	float *c;		/* c, updated in place */
	size_t c_bstride;
	float *y;		/* BN(h(t)), padded, or NULL */
	size_t y_bstride;
	const float *bn_scale, *bn_shift;	/* Fp each */
};

struct nb_cpu_kernels {
	const char *isa;
	int max_rows;		/* rows one cell call takes: 1 or 2 */
	int max_px[2];		/* most pixels per row, for 1 and 2 rows */
	/*
	 * Group g of batch item b, rows y .. y + rows - 1, pixels x0 .. x0 +
	 * n - 1 of each: the gate convolution into registers, then the gate
	 * arithmetic, storing c, h and y.
	 */
	void (*cell)(const struct nb_cell_args *a, int g, int b, int y,
		     int rows, int x0, int n);
	/* sum over t < taps of dot(v[t], k + t * n), n a multiple of 8;
	 * v[t] NULL is skipped (zero padding) */
	float (*dot_taps)(const float *const *v, const float *k, int taps,
			  int n);
	/* one thread of the FMA peak loop; see nb_backend_ops.fma_peak */
	double (*fma_loop)(long iters, float m, float k, float *lane);
	void (*triad)(float *a, const float *b, const float *c, float s,
		      size_t n);
	/*
	 * The training step's 3x3 "same" convolutions, channels last, no
	 * border (cpu_conv.h): z (H,W,cout) += conv(x (H,W,cin), k
	 * [tap][cin][cout]); dk [tap][cin][cout] += x (H,W,cin) (x) dz
	 * (H,W,cout).
	 */
	void (*conv_fwd)(int hgt, int wid, int cin, int cout, const float *x,
			 const float *k, float *z);
	void (*conv_bwd_k)(int hgt, int wid, int cin, int cout,
			   const float *x, const float *dz, float *dk);
	/*
	 * The training step's gate arithmetic for px pixels of f filters
	 * (cpu_gates.h): the cell forward, z (px,4f) and cp to c and h; the
	 * cell backward, to dz (px,4f), added to dbias, and dc_next.
	 */
	void (*gates_fwd)(size_t px, int f, const float *z, const float *cp,
			  float *c, float *h);
	void (*gates_bwd)(size_t px, int f, const float *z, const float *c,
			  const float *cp, const float *dho,
			  const float *dh_rec, float *dc_next, float *dz,
			  float *dbias);
};

extern const struct nb_cpu_kernels nb_cpu_kernels_avx512;
extern const struct nb_cpu_kernels nb_cpu_kernels_avx2;
extern const struct nb_cpu_kernels nb_cpu_kernels_generic;

/*
 * Runs fn(arg, tid, n) on each of the CPU backend's n threads (ctx from
 * nb_cpu_backend.open) and returns when all have: what the training step
 * (cpu_train.c) shares the forward's thread pool through.
 */
void nb_cpu_parallel(void *ctx, void (*fn)(void *arg, int tid, int n), void *arg);

/* the kernels the CPU backend's ctx runs (its --isa's) */
const struct nb_cpu_kernels *nb_cpu_kernels_of(void *ctx);

#endif /* NB_CPU_KERNELS_H */
