/* SPDX-License-Identifier: MIT */
/*
 * The models' heads, sigmoid outputs (user/engine/refmodel.c, nb_ref_forward):
 *   Conv3D(1, 3x3x3, same) on every frame of a sequence (convlstm-mono);
 *   Conv2D(out, 3x3, same) on the last layer's final state (convlstm-color).
 * A head is under 1% of a forward pass's FLOPs (40 channels in, 1 or 3
 * out) and reads its input once: it is memory-bound, so what matters is
 * that its loads are coalesced. A block is an 8x8-pixel tile of one image,
 * one thread per pixel; it stages the tile's halo, NBK_HEAD_KC channels at
 * a time, through __shared__ memory with the channel index fastest across
 * the threads (a wave's loads are runs of 8 consecutive floats, 32 bytes,
 * of consecutive pixels: every byte of a 32-byte sector is used), and the
 * stage's weights, read as broadcasts. The stores are runs of 8
 * consecutive floats (a tile row).
 * Every thread reaches every barrier; only the stores are bounds-checked.
 */
#include "nbk_dev.h"
#include "nbk_layout.h"

#define NBK_HEAD_HW (NBK_HEAD_TILE + 2)
#define NBK_HEAD_HP (NBK_HEAD_HW / 4 * 4 + 4)
/* a channel's plane, an odd multiple of 4 floats: a pixel's 8 channels
 * on distinct banks */
#define NBK_HEAD_PLANE (NBK_HEAD_HW * NBK_HEAD_HP / 8 * 8 + 4)
#define NBK_HEAD_HALO (NBK_HEAD_HW * NBK_HEAD_HW)

NBK_INLINE float nbk_sigmoid(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

/*
 * NBK_HEAD_KC channels from c0 of the halo around the tile at (y0, x0) of
 * img (H, W, C) into hs[c][row][column]; zeros outside the frame and past
 * C. (The head is memory-bound: its loads are not software-pipelined;
 * the CU's other blocks hide their latency.)
 */
NBK_INLINE void nbk_head_halo(const NBK_G float *img, int C, int c0, int y0,
			      int x0, int height, int width, NBK_L float *hs)
{
	const int c = (int)threadIdx.x % NBK_HEAD_KC;

	for (int e = threadIdx.x; e < NBK_HEAD_KC * NBK_HEAD_HALO;
	     e += NBK_HEAD_THREADS) {
		const int p = e / NBK_HEAD_KC;
		const int hy = p / NBK_HEAD_HW, hx = p % NBK_HEAD_HW;
		const int gy = y0 + hy - 1, gx = x0 + hx - 1;
		float v = 0.0f;

		if (c0 + c < C && gy >= 0 && gy < height && gx >= 0 && gx < width)
			v = img[((long)gy * width + gx) * C + c0 + c];
		hs[c * NBK_HEAD_PLANE + hy * NBK_HEAD_HP + hx] = v;
	}
}

/*
 * in (B, T, H, W, C), kernel (3, 3, 3, C, 1), out (B, T, H, W). A stage is
 * NBK_HEAD_KC channels of one of the three frames (before, this, after),
 * so that a block's LDS is one frame's halo and more blocks fit a CU.
 */
__global__ NBK_BOUNDS(NBK_HEAD_THREADS)
void nbk_conv3d_head_kernel(const NBK_G float *__restrict__ in,
			    const NBK_G float *__restrict__ wts,
			    const NBK_G float *__restrict__ bias,
			    NBK_G float *__restrict__ out, int frames,
			    int height, int width, int C)
{
	__shared__ float hs[NBK_HEAD_KC * NBK_HEAD_PLANE];
	__shared__ float wk[9 * NBK_HEAD_KC];
	const int tiles_x = (width + NBK_HEAD_TILE - 1) / NBK_HEAD_TILE;
	const int tiles = tiles_x * ((height + NBK_HEAD_TILE - 1) / NBK_HEAD_TILE);
	const long img = (long)blockIdx.x / tiles;	/* b * frames + t */
	const int tile = (int)((long)blockIdx.x - img * tiles);
	const int t = (int)(img % frames);
	const int y0 = tile / tiles_x * NBK_HEAD_TILE;
	const int x0 = tile % tiles_x * NBK_HEAD_TILE;
	const int ty = (int)threadIdx.x / NBK_HEAD_TILE;
	const int tx = (int)threadIdx.x % NBK_HEAD_TILE;
	const long fsize = (long)height * width * C;
	float acc = bias[0];

	for (int d = 0; d < 3; d++) {
		/* uniform: a frame before the first or after the last is zeros */
		if (t + d - 1 < 0 || t + d - 1 >= frames)
			continue;
		const NBK_G float *frame = in + (img + d - 1) * fsize;

		for (int c0 = 0; c0 < C; c0 += NBK_HEAD_KC) {
			nbk_head_halo(frame, C, c0, y0, x0, height, width, hs);
			for (int e = threadIdx.x; e < 9 * NBK_HEAD_KC;
			     e += NBK_HEAD_THREADS) {
				const int tap = e / NBK_HEAD_KC, c = e % NBK_HEAD_KC;

				wk[e] = c0 + c < C ?
					wts[(long)(d * 9 + tap) * C + c0 + c] : 0.0f;
			}
			__syncthreads();	/* read-after-write */
			for (int tap = 0; tap < 9; tap++) {
				const NBK_L float *v = hs + (ty + tap / 3) * NBK_HEAD_HP +
					tx + tap % 3;

#pragma unroll
				for (int c = 0; c < NBK_HEAD_KC; c++)
					acc = fmaf(v[c * NBK_HEAD_PLANE],
						   wk[tap * NBK_HEAD_KC + c], acc);
			}
			__syncthreads();	/* write-after-read */
		}
	}
	if (y0 + ty < height && x0 + tx < width)
		out[(img * height + y0 + ty) * width + x0 + tx] = nbk_sigmoid(acc);
}

/*
 * in (B, H, W, C), kernel (3, 3, C, O), out (B, H, W, O); O <= 64, in
 * passes of NBK_HEAD2D_OG outputs (the colour model's 3: one pass).
 */
__global__ NBK_BOUNDS(NBK_HEAD_THREADS)
void nbk_conv2d_head_kernel(const NBK_G float *__restrict__ in,
			    const NBK_G float *__restrict__ wts,
			    const NBK_G float *__restrict__ bias,
			    NBK_G float *__restrict__ out, int height,
			    int width, int C, int O)
{
	__shared__ float hs[NBK_HEAD_KC * NBK_HEAD_PLANE];
	__shared__ float wk[9 * NBK_HEAD_KC * NBK_HEAD2D_OG];
	const int tiles_x = (width + NBK_HEAD_TILE - 1) / NBK_HEAD_TILE;
	const int tiles = tiles_x * ((height + NBK_HEAD_TILE - 1) / NBK_HEAD_TILE);
	const long img = (long)blockIdx.x / tiles;	/* b */
	const int tile = (int)((long)blockIdx.x - img * tiles);
	const int y0 = tile / tiles_x * NBK_HEAD_TILE;
	const int x0 = tile % tiles_x * NBK_HEAD_TILE;
	const int ty = (int)threadIdx.x / NBK_HEAD_TILE;
	const int tx = (int)threadIdx.x % NBK_HEAD_TILE;
	const long p = (img * height + y0 + ty) * width + x0 + tx;

	for (int o0 = 0; o0 < O; o0 += NBK_HEAD2D_OG) {
		float acc[NBK_HEAD2D_OG];

#pragma unroll
		for (int o = 0; o < NBK_HEAD2D_OG; o++)
			acc[o] = o0 + o < O ? bias[o0 + o] : 0.0f;
		for (int c0 = 0; c0 < C; c0 += NBK_HEAD_KC) {
			nbk_head_halo(in + img * height * width * C, C, c0, y0,
				      x0, height, width, hs);
			/* [tap][c][o] of this stage and pass */
			for (int e = threadIdx.x; e < 9 * NBK_HEAD_KC * NBK_HEAD2D_OG;
			     e += NBK_HEAD_THREADS) {
				const int o = e % NBK_HEAD2D_OG;
				const int c = e / NBK_HEAD2D_OG % NBK_HEAD_KC;
				const int tap = e / NBK_HEAD2D_OG / NBK_HEAD_KC;

				wk[e] = c0 + c < C && o0 + o < O ?
					wts[((long)tap * C + c0 + c) * O + o0 + o] : 0.0f;
			}
			__syncthreads();	/* read-after-write */
			for (int tap = 0; tap < 9; tap++) {
				const NBK_L float *v = hs + (ty + tap / 3) * NBK_HEAD_HP +
					tx + tap % 3;

#pragma unroll
				for (int c = 0; c < NBK_HEAD_KC; c++)
#pragma unroll
					for (int o = 0; o < NBK_HEAD2D_OG; o++)
						acc[o] = fmaf(v[c * NBK_HEAD_PLANE],
							      wk[(tap * NBK_HEAD_KC + c) *
								 NBK_HEAD2D_OG + o], acc[o]);
			}
			__syncthreads();	/* write-after-read */
		}
		if (y0 + ty < height && x0 + tx < width)
#pragma unroll
			for (int o = 0; o < NBK_HEAD2D_OG; o++)
				if (o0 + o < O)
					out[p * O + o0 + o] = nbk_sigmoid(acc[o]);
	}
}
