/* SPDX-License-Identifier: MIT */
/*
 * The models' heads, sigmoid outputs (user/engine/ref.c, nb_ref_forward):
 *   Conv3D(1, 3x3x3, same) on every frame of a sequence (convlstm-mono);
 *   Conv2D(out, 3x3, same) on the last layer's final state (convlstm-color).
 * A head is under 1% of a forward pass's FLOPs (40 -> 1 or 3 channels), so
 * they are simple: one thread per output value, the weights of a channel
 * stage in __shared__ memory (every thread of the block reads all of them:
 * broadcast reads, no bank conflicts), the activations straight from global
 * memory, where the neighbouring threads' windows overlap in the caches.
 * Every thread reaches every barrier; only the store is bounds-checked.
 */
#include "nbk_dev.h"
#include "nbk_layout.h"

NBK_INLINE float nbk_sigmoid(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

/* in (B, T, H, W, C), kernel (3, 3, 3, C, 1), out (B, T, H, W) */
__global__ void nbk_conv3d_head_kernel(const NBK_G float *__restrict__ in,
				const NBK_G float *__restrict__ wts,
				const NBK_G float *__restrict__ bias,
				NBK_G float *__restrict__ out, int batch,
				int frames, int height, int width, int C)
{
	__shared__ float wk[27 * NBK_HEAD3D_CC];
	const long n = (long)batch * frames * height * width;
	const long idx = (long)blockIdx.x * NBK_HEAD_THREADS + threadIdx.x;
	const int xx = (int)(idx % width);
	const int yy = (int)(idx / width % height);
	const long bt = idx / width / height;	/* b * frames + t */
	const int t = (int)(bt % frames);
	float acc = bias[0];

	for (int c0 = 0; c0 < C; c0 += NBK_HEAD3D_CC) {
		const int kc = C - c0 < NBK_HEAD3D_CC ? C - c0 : NBK_HEAD3D_CC;

		for (int e = threadIdx.x; e < 27 * kc; e += NBK_HEAD_THREADS)
			wk[e] = wts[(long)(e / kc) * C + c0 + e % kc];
		__syncthreads();	/* read-after-write */
		for (int tap = 0; tap < 27 && idx < n; tap++) {
			const int st = t + tap / 9 - 1;
			const int sy = yy + tap / 3 % 3 - 1, sx = xx + tap % 3 - 1;

			if (st < 0 || st >= frames || sy < 0 || sy >= height ||
			    sx < 0 || sx >= width)
				continue;	/* same padding */
			const NBK_G float *v = in +
				(((bt + st - t) * height + sy) * width + sx) * C + c0;

			for (int c = 0; c < kc; c++)
				acc = fmaf(v[c], wk[tap * kc + c], acc);
		}
		__syncthreads();	/* write-after-read */
	}
	if (idx < n)
		out[idx] = nbk_sigmoid(acc);
}

/* in (B, H, W, C), kernel (3, 3, C, O), out (B, H, W, O); O <= 64 */
__global__ void nbk_conv2d_head_kernel(const NBK_G float *__restrict__ in,
				const NBK_G float *__restrict__ wts,
				const NBK_G float *__restrict__ bias,
				NBK_G float *__restrict__ out, int batch,
				int height, int width, int C, int O)
{
	__shared__ float wk[9 * NBK_HEAD2D_CC * NBK_HEAD2D_MAX_OUT];
	const long n = (long)batch * height * width * O;
	const long idx = (long)blockIdx.x * NBK_HEAD_THREADS + threadIdx.x;
	const int o = (int)(idx % O);
	const long pix = idx / O;		/* (b * H + y) * W + x */
	const int xx = (int)(pix % width);
	const int yy = (int)(pix / width % height);
	float acc = idx < n ? bias[o] : 0.0f;

	for (int c0 = 0; c0 < C; c0 += NBK_HEAD2D_CC) {
		const int kc = C - c0 < NBK_HEAD2D_CC ? C - c0 : NBK_HEAD2D_CC;

		/* [tap][c][o] of this stage, O consecutive per channel */
		for (int e = threadIdx.x; e < 9 * kc * O; e += NBK_HEAD_THREADS) {
			const int oo = e % O, c = e / O % kc, tap = e / O / kc;

			wk[e] = wts[((long)tap * C + c0 + c) * O + oo];
		}
		__syncthreads();	/* read-after-write */
		for (int tap = 0; tap < 9 && idx < n; tap++) {
			const int sy = yy + tap / 3 - 1, sx = xx + tap % 3 - 1;

			if (sy < 0 || sy >= height || sx < 0 || sx >= width)
				continue;	/* same padding */
			const NBK_G float *v = in +
				(pix + (long)(sy - yy) * width + (sx - xx)) * C + c0;

			for (int c = 0; c < kc; c++)
				acc = fmaf(v[c], wk[(tap * kc + c) * O + o], acc);
		}
		__syncthreads();	/* write-after-read */
	}
	if (idx < n)
		out[idx] = nbk_sigmoid(acc);
}
