/* SPDX-License-Identifier: MIT */
/*
 * One ConvLSTM time step of one layer, for the whole batch, as an implicit
 * GEMM: M = pixels, N = 4 F gate columns, K = 9 (Cin + F). The A operand is
 * never materialised (no im2col, no concatenation of x and h): a block
 * stages a halo tile of x, then of h, through __shared__ memory and reads
 * the nine taps of the 3x3 window out of it. Gate arithmetic as
 * user/engine/ref.c (Keras 2): i, f, o = hard_sigmoid, g = tanh,
 * c' = f c + i g, h' = o tanh(c'); the next layer's folded BatchNorm
 * (y = h' scale + shift) in the same epilogue.
 *
 * Tiling, chosen for Navi 14 (gfx1012, RDNA1: wave32, 64 KiB LDS per
 * workgroup, 32 LDS banks of 4 bytes; the parameters are in nbk_layout.h):
 *
 * - A block is an 8x8-pixel tile x 8 filters (32 gate columns), 128 threads:
 *   four wave32s on RDNA, two wave64s on GCN/CDNA. The 40x40 and 64x64
 *   frames of the benchmark are whole tiles (25 and 64 per frame) and its
 *   40 filters five whole filter blocks, so no lane idles there; other
 *   sizes are bounds-checked. The standard runs give 25 x 5 x 8 = 1000
 *   (mono) and 64 x 5 x 4 = 1280 (colour) blocks: over 10 per CU on 22
 *   or 24 CUs, enough to hide the barriers of one block behind the others.
 * - A thread owns 4 pixels of one row x the 4 gates of one filter: 16
 *   accumulators. Per input channel and kernel row it reads 6 halo values
 *   (4 pixels + 2 neighbours, reused by the 3 taps of that row) and three
 *   16-byte gate vectors, for 48 FMAs: 2.7 FMAs per LDS word, above the
 *   2 that keep RDNA1's 128-byte/clock LDS from limiting 64 FMAs/clock.
 * - The packed weights (nbk_layout.h) put a filter's 4 gates side by side,
 *   so a thread's gates are one ds_read_b128 and the epilogue needs no
 *   other thread.
 * - Thread order: filter fastest. A wave32 is 4 pixel groups x 8 filters:
 *   the weight reads are 8 consecutive 16-byte vectors (all 32 banks, no
 *   conflict) and the halo reads 4 addresses, each broadcast to 8 lanes;
 *   the epilogue's stores of one pixel are 8 consecutive floats.
 * - Halo tile rows have an odd pitch (11 floats for 10 values): the pixel
 *   groups of a wave sit at row * 11 + {0, 4}, on distinct banks for wave32
 *   and wave64 (an even pitch of 10 puts row 0 and row 6 + 4 on one bank).
 * - K stage: 8 channels (KC): 8 x 10 x 11 halo + 9 x 8 x 32 weights =
 *   12.7 KiB of LDS per block, so LDS allows 5 blocks (20 wave32s) per
 *   64 KiB; the 16 accumulators keep VGPRs low enough for that too.
 *   A 1-channel input (the mono model's first layer) stages only 1 channel.
 * - Barriers: one after staging (read-after-write: every thread reads what
 *   others wrote) and one after the FMAs of a stage (write-after-read: the
 *   next stage overwrites what slower waves may still read). No barrier in
 *   the epilogue, which touches registers and global memory only.
 *
 * Loads from global memory are coalesced along the channel (NHWC): a halo
 * value's index runs fastest over its channel, then over x.
 */
#include "nbk_dev.h"
#include "nbk_layout.h"

NBK_INLINE float nbk_hard_sigmoid(float x)
{
	return fminf(fmaxf(fmaf(0.2f, x, 0.5f), 0.0f), 1.0f);
}

/*
 * Accumulates one source (x or h_in) of channel count C into acc: every
 * K stage of KC channels, staged through xs (halo) and ws (weights).
 * Every thread of the block calls it (it holds barriers).
 */
NBK_INLINE void nbk_step_source(const NBK_G float *src, int C,
				const NBK_G float *wsrc, int F, int height,
				int width, int y0, int x0, int j0,
				NBK_L float *xs, NBK_L float *ws,
				float acc[NBK_STEP_PX][4])
{
	const int tid = threadIdx.x;
	const int jl = tid % NBK_STEP_FB;
	const int grp = tid / NBK_STEP_FB;
	const int ty = grp / (NBK_STEP_TW / NBK_STEP_PX);
	const int tx = grp % (NBK_STEP_TW / NBK_STEP_PX) * NBK_STEP_PX;
	const int cols = 4 * F;

	for (int c0 = 0; c0 < C; c0 += NBK_STEP_KC) {
		const int kc = C - c0 < NBK_STEP_KC ? C - c0 : NBK_STEP_KC;

		/* halo of kc channels; zero outside the frame (same padding) */
		for (int e = tid; e < kc * NBK_STEP_HH * NBK_STEP_HW;
		     e += NBK_STEP_THREADS) {
			const int c = e % kc, p = e / kc;
			const int hx = p % NBK_STEP_HW, hy = p / NBK_STEP_HW;
			const int gy = y0 + hy - 1, gx = x0 + hx - 1;
			float v = 0.0f;

			if (gy >= 0 && gy < height && gx >= 0 && gx < width)
				v = src[((long)gy * width + gx) * C + c0 + c];
			xs[(c * NBK_STEP_HH + hy) * NBK_STEP_HP + hx] = v;
		}
		/* weights [tap][c][FB filters x 4 gates]; zero past F */
		for (int e = tid; e < 9 * kc * NBK_STEP_FB * 4;
		     e += NBK_STEP_THREADS) {
			const int col = e % (NBK_STEP_FB * 4);
			const int r = e / (NBK_STEP_FB * 4);
			const int c = r % kc, tap = r / kc;
			float v = 0.0f;

			if (j0 * 4 + col < cols)
				v = wsrc[((long)tap * C + c0 + c) * cols +
					 j0 * 4 + col];
			ws[(tap * NBK_STEP_KC + c) * NBK_STEP_FB * 4 + col] = v;
		}
		__syncthreads();	/* read-after-write: the stage is complete */

		for (int c = 0; c < kc; c++) {
#pragma unroll
			for (int ky = 0; ky < 3; ky++) {
				const NBK_L float *row = xs +
					(c * NBK_STEP_HH + ty + ky) * NBK_STEP_HP + tx;
				float a[NBK_STEP_PX + 2];

#pragma unroll
				for (int i = 0; i < NBK_STEP_PX + 2; i++)
					a[i] = row[i];
#pragma unroll
				for (int kx = 0; kx < 3; kx++) {
					/* 16-byte aligned: the row is FB x 4 floats */
					const float4 wv = NBK_LDS_F4(ws +
						((ky * 3 + kx) * NBK_STEP_KC + c) *
						NBK_STEP_FB * 4 + jl * 4);
#pragma unroll
					for (int i = 0; i < NBK_STEP_PX; i++) {
						acc[i][0] = fmaf(a[i + kx], wv.x, acc[i][0]);
						acc[i][1] = fmaf(a[i + kx], wv.y, acc[i][1]);
						acc[i][2] = fmaf(a[i + kx], wv.z, acc[i][2]);
						acc[i][3] = fmaf(a[i + kx], wv.w, acc[i][3]);
					}
				}
			}
		}
		__syncthreads();	/* write-after-read: next stage overwrites */
	}
}

/*
 * x_bs, y_bs: batch strides in floats (a time step of a sequence tensor);
 * has_h, has_c: 0 for a zero state (h_in, c_in are then not read);
 * has_y: 0 for no BatchNorm output.
 */
__global__ void nbk_step_kernel(const NBK_G float *__restrict__ x, long x_bs,
				const NBK_G float *__restrict__ h_in,
				const NBK_G float *__restrict__ c_in,
				NBK_G float *__restrict__ h_out,
				NBK_G float *__restrict__ c_out,
				const NBK_G float *__restrict__ w,
				const NBK_G float *__restrict__ bn_scale,
				const NBK_G float *__restrict__ bn_shift,
				NBK_G float *__restrict__ y, long y_bs,
				int height, int width, int cin, int F,
				int has_h, int has_c, int has_y)
{
	__shared__ float xs[NBK_STEP_KC * NBK_STEP_HH * NBK_STEP_HP];
	/* the 16-byte reads of ws need 16-byte alignment: float4 storage */
	__shared__ float4 ws4[9 * NBK_STEP_KC * NBK_STEP_FB];
	NBK_L float *ws = (NBK_L float *)ws4;
	const int tid = threadIdx.x;
	const int jl = tid % NBK_STEP_FB;
	const int grp = tid / NBK_STEP_FB;
	const int ty = grp / (NBK_STEP_TW / NBK_STEP_PX);
	const int tx = grp % (NBK_STEP_TW / NBK_STEP_PX) * NBK_STEP_PX;
	const int tiles_x = (width + NBK_STEP_TW - 1) / NBK_STEP_TW;
	const int y0 = (int)blockIdx.x / tiles_x * NBK_STEP_TH;
	const int x0 = (int)blockIdx.x % tiles_x * NBK_STEP_TW;
	const int j0 = (int)blockIdx.y * NBK_STEP_FB, j = j0 + jl;
	const long b = blockIdx.z;
	const long px = (long)height * width;
	const NBK_G float *bias = w + (long)9 * (cin + F) * 4 * F;
	float acc[NBK_STEP_PX][4];

#pragma unroll
	for (int i = 0; i < NBK_STEP_PX; i++)
#pragma unroll
		for (int g = 0; g < 4; g++)
			acc[i][g] = j < F ? bias[j * 4 + g] : 0.0f;

	nbk_step_source(x + b * x_bs, cin, w, F, height, width, y0, x0, j0,
			xs, ws, acc);
	if (has_h)
		nbk_step_source(h_in + b * px * F, F, w + (long)9 * cin * 4 * F,
				F, height, width, y0, x0, j0, xs, ws, acc);

	const int gy = y0 + ty;

	if (j >= F || gy >= height)
		return;
#pragma unroll
	for (int i = 0; i < NBK_STEP_PX; i++) {
		const int gx = x0 + tx + i;

		if (gx >= width)
			break;
		const long p = (long)gy * width + gx;
		const long s = (b * px + p) * F + j;
		const float ig = nbk_hard_sigmoid(acc[i][0]);
		const float fg = nbk_hard_sigmoid(acc[i][1]);
		const float gg = tanhf(acc[i][2]);
		const float og = nbk_hard_sigmoid(acc[i][3]);
		const float cn = fmaf(fg, has_c ? c_in[s] : 0.0f, ig * gg);
		const float hn = og * tanhf(cn);

		c_out[s] = cn;
		h_out[s] = hn;
		if (has_y)
			y[b * y_bs + p * F + j] = fmaf(hn, bn_scale[j], bn_shift[j]);
	}
}
