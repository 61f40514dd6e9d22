/* SPDX-License-Identifier: MIT */
/*
 * One ConvLSTM time step of one layer, for the whole batch, as an implicit
 * GEMM: M = pixels, N = 4 F gate columns, K = 9 (Cin + F). The A operand is
 * never materialised (no im2col, no concatenation of x and h): a block
 * stages a halo tile of x, then of h, through __shared__ memory and reads
 * the nine taps of the 3x3 window out of it. Gate arithmetic as
 * user/engine/refmodel.c (Keras 2): i, f, o = hard_sigmoid, g = tanh,
 * c' = f c + i g, h' = o tanh(c'); the next layer's folded BatchNorm
 * (y = h' scale + shift) in the same epilogue.
 *
 * Tiling (nbk_layout.h has each family's parameters):
 *
 * - A block is an 8x8-pixel tile x 8 filters (32 gate columns). The 40x40
 *   and 64x64 frames of the benchmark are whole tiles and its 40 filters
 *   five whole filter blocks, so no lane idles there; other sizes are
 *   bounds-checked. Filter index fastest within a block, in lane pairs
 *   (nbk_step_kernel() says why): a wave's weight reads are consecutive
 *   16-byte vectors (no bank conflict) and the epilogue's stores of a
 *   pixel consecutive floats.
 * - A thread owns PX pixels of one row x the 4 gates of one filter. Per
 *   input channel and kernel row it reads PX + 2 halo values (16-byte
 *   reads: the halo's rows are whole vectors) and three 16-byte gate
 *   vectors, for 12 PX FMAs. RDNA (wave32, where LDS bandwidth is the
 *   tighter limit) takes PX = 8: 96 FMAs per 6 LDS reads, 2.2 times the
 *   FMAs per LDS byte of PX = 4; GCN/CDNA and NVIDIA take PX = 4 and 128
 *   threads, which keeps twice the blocks in flight at batch 1 (125 per
 *   step for 40 filters of 40x40, against the H200's 132 SMs).
 * - The weights are packed once (nbk_layout.h) so that a K stage of a
 *   filter block is one contiguous run of KC x 9 x 8 float4: staged with
 *   16-byte loads and stores at offsets fixed at compile time.
 * - The halo: the channel index fastest across the threads (a wave loads
 *   runs of KC consecutive floats of consecutive pixels); each thread's
 *   pixels, their LDS places and the frame's edges are worked out once,
 *   before the stages (nbk_step_halo()). Nothing in the stage loop
 *   divides, branches or masks: a stage is straight-line code, its loads,
 *   its stores and KC channels x 9 taps x PX x 4 FMAs.
 * - Register double buffering: a stage's global loads are all issued into
 *   registers before its first wait, while the previous stage computes
 *   from LDS; then a barrier, the registers into LDS, a barrier.
 * - Barriers: one after the stores (read-after-write: every thread reads
 *   what others wrote) and one after the FMAs (write-after-read: the next
 *   stage's stores overwrite what slower waves may still read). No barrier
 *   in the epilogue, which touches registers and global memory only.
 * - A halo row is padded to whole 16-byte vectors with at least one spare
 *   column, where the values outside the frame and past the halo go
 *   (never read), so the stores need no branch; a channel's plane is
 *   padded so that the KC channels of a pixel fall on distinct banks.
 */
#include "nbk_dev.h"
#include "nbk_layout.h"

#define NBK_STEP_FB NBK_PACK_FB
#define NBK_STEP_HH (NBK_STEP_TH + 2)
#define NBK_STEP_HW (NBK_STEP_TW + 2)
#define NBK_STEP_HP (NBK_STEP_HW / 4 * 4 + 4)	/* > HW, a multiple of 4 */
/*
 * One channel's plane: HH rows, padded so that the KC channels of a pixel
 * fall on distinct banks (32 banks of 4 bytes): plane = 32 / KC, modulo
 * 64 / KC, which keeps its rows 16-byte aligned.
 */
#define NBK_STEP_P0 (NBK_STEP_HH * NBK_STEP_HP)
#define NBK_STEP_PSTEP (32 / NBK_STEP_KC)
#define NBK_STEP_PLANE (NBK_STEP_P0 + (NBK_STEP_PSTEP + 2 * NBK_STEP_PSTEP - \
	NBK_STEP_P0 % (2 * NBK_STEP_PSTEP)) % (2 * NBK_STEP_PSTEP))
#define NBK_STEP_HALO (NBK_STEP_HH * NBK_STEP_HW)	/* halo pixels */
/* halo values per stage: each thread the same channel of HSLOTS pixels */
#define NBK_STEP_HSLOTS ((NBK_STEP_KC * NBK_STEP_HALO + NBK_STEP_THREADS - 1) / \
	NBK_STEP_THREADS)
#define NBK_STEP_WVEC (NBK_STEP_KC * 9 * NBK_STEP_FB)	/* float4 per stage */
#define NBK_STEP_WSLOTS ((NBK_STEP_WVEC + NBK_STEP_THREADS - 1) / NBK_STEP_THREADS)
#if NBK_STEP_TH * NBK_STEP_TW / NBK_STEP_PX % 2
#error "the lanes pair pixel groups: a tile needs an even number of them"
#endif

NBK_INLINE float nbk_hard_sigmoid(float x)
{
	return fminf(fmaxf(fmaf(0.2f, x, 0.5f), 0.0f), 1.0f);
}

NBK_INLINE int nbk_round8(int n)
{
	return (n + NBK_PACK_CP - 1) / NBK_PACK_CP * NBK_PACK_CP;
}

/*
 * One K stage (uniform across the block): KC channels from c0 of a source
 * with C channels, and its weights' run.
 */
struct nbk_stage {
	const NBK_G float *src;
	const NBK_G float *w;
	int C, c0;
};

/*
 * Stage s of a step: the first sx stages read x (cin channels), the rest
 * h (F channels). w is the packed layout of nbk_layout.h; fb the block's
 * filter block.
 */
NBK_INLINE struct nbk_stage nbk_step_stage(int s, int sx,
					   const NBK_G float *x,
					   const NBK_G float *h,
					   const NBK_G float *w, int cin,
					   int F, int fb)
{
	const int is_h = s >= sx;
	const int fp = (F + NBK_STEP_FB - 1) / NBK_STEP_FB * NBK_STEP_FB;
	const int cp = is_h ? nbk_round8(F) : nbk_round8(cin);
	struct nbk_stage st;

	st.src = is_h ? h : x;
	st.C = is_h ? F : cin;
	st.c0 = (is_h ? s - sx : s) * NBK_STEP_KC;
	st.w = w + ((long)(is_h ? nbk_round8(cin) : 0) * 9 * fp +
		    (long)(fb * cp + st.c0) * 9 * NBK_STEP_FB) * 4;
	return st;
}

/*
 * The stage's global loads into registers, every one issued before any
 * is used: channel c0 + ch of this thread's halo pixels and its share of
 * the weights' run. No value is masked (a select of a loaded value
 * becomes a branch around the load, and a wait, in AMD's code): a pixel
 * outside the frame loads pixel 0 and is stored where nothing reads it
 * (nbk_step_halo()); a channel past C loads channel C - 1, whose packed
 * weights are zeros.
 */
NBK_INLINE void nbk_step_fetch(struct nbk_stage st, int ch, const int *pix,
			       float *hv, float4 *wv)
{
	const int tid = threadIdx.x;
	const int c = st.c0 + ch < st.C ? st.c0 + ch : st.C - 1;
	const NBK_G float *p = st.src + c;

	/* unsigned 32-bit offsets: AMD's loads take them beside a scalar base */
#pragma unroll
	for (int i = 0; i < NBK_STEP_HSLOTS; i++)
		hv[i] = p[(unsigned int)pix[i] * (unsigned int)st.C];
#pragma unroll
	for (int j = 0; j < NBK_STEP_WSLOTS; j++) {
		int e = j * NBK_STEP_THREADS + tid;

		if ((j + 1) * NBK_STEP_THREADS > NBK_STEP_WVEC)
			e = e < NBK_STEP_WVEC ? e : NBK_STEP_WVEC - 1;
		wv[j] = NBK_G_F4(st.w + 4 * e);
	}
}

/* The registers into LDS: xs[c][row][column], ws4[c][tap][filter]. */
NBK_INLINE void nbk_step_store(NBK_L float *xs, NBK_L float4 *ws4,
			       const int *lds, const float *hv,
			       const float4 *wv)
{
	const int tid = threadIdx.x;

#pragma unroll
	for (int i = 0; i < NBK_STEP_HSLOTS; i++)
		xs[lds[i]] = hv[i];
#pragma unroll
	for (int j = 0; j < NBK_STEP_WSLOTS; j++) {
		int e = j * NBK_STEP_THREADS + tid;

		/* past the run: the spare vector at its end, never read */
		if ((j + 1) * NBK_STEP_THREADS > NBK_STEP_WVEC)
			e = e < NBK_STEP_WVEC ? e : NBK_STEP_WVEC;
		ws4[e] = wv[j];
	}
}

/* A stage's FMAs: KC channels x 3 kernel rows x 3 taps x PX pixels x 4. */
NBK_INLINE void nbk_step_compute(const NBK_L float *xs,
				 const NBK_L float4 *ws4, int ty, int tx,
				 int jl, float acc[NBK_STEP_PX][4])
{
#pragma unroll
	for (int c = 0; c < NBK_STEP_KC; c++) {
#pragma unroll
		for (int ky = 0; ky < 3; ky++) {
			/* 16-byte aligned: HP and tx are multiples of 4 */
			const NBK_L float *row = xs + c * NBK_STEP_PLANE +
				(ty + ky) * NBK_STEP_HP + tx;
			float a[NBK_STEP_PX + 2];

#pragma unroll
			for (int i = 0; i < NBK_STEP_PX; i += 4) {
				const float4 v = NBK_LDS_F4(row + i);

				a[i] = v.x;
				a[i + 1] = v.y;
				a[i + 2] = v.z;
				a[i + 3] = v.w;
			}
			a[NBK_STEP_PX] = row[NBK_STEP_PX];
			a[NBK_STEP_PX + 1] = row[NBK_STEP_PX + 1];
#pragma unroll
			for (int kx = 0; kx < 3; kx++) {
				const float4 wv = ws4[(c * 9 + ky * 3 + kx) *
						      NBK_STEP_FB + jl];
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
}

/*
 * This thread's halo values, once per step: the channel ch (the same for
 * all its slots: the channel index runs fastest, so a wave's loads are
 * runs of KC consecutive floats), and per slot the pixel pix (0 outside
 * the frame) and lds, where its value goes: its place in the halo, or,
 * outside the frame or past the halo, the spare column of row 0, which no
 * thread reads. Its place outside the frame is zeroed here, once: it is
 * the same for every stage. (A stage multiplies pix by its source's
 * channel count: one multiply per slot, where a second set of offsets
 * would hold registers.)
 */
NBK_INLINE int nbk_step_halo(int y0, int x0, int height, int width,
			     int *pix, int *lds, NBK_L float *xs)
{
	const int tid = threadIdx.x;
	const int ch = tid % NBK_STEP_KC;

#pragma unroll
	for (int i = 0; i < NBK_STEP_HSLOTS; i++) {
		const int p = (i * NBK_STEP_THREADS + tid) / NBK_STEP_KC;
		const int hy = p / NBK_STEP_HW, hx = p % NBK_STEP_HW;
		const int gy = y0 + hy - 1, gx = x0 + hx - 1;
		const int in = gy >= 0 && gy < height && gx >= 0 && gx < width;
		const int place = ch * NBK_STEP_PLANE +
			(p < NBK_STEP_HALO ? hy * NBK_STEP_HP + hx : NBK_STEP_HW);

		pix[i] = p < NBK_STEP_HALO && in ? gy * width + gx : 0;
		lds[i] = p < NBK_STEP_HALO && in ? place :
			ch * NBK_STEP_PLANE + NBK_STEP_HW;
		xs[place] = 0.0f;	/* "same" padding */
	}
	return ch;
}

/*
 * x_bs, y_bs: batch strides in floats (a time step of a sequence tensor);
 * has_h, has_c: 0 for a zero state (h_in, c_in are then not read);
 * has_y: 0 for no BatchNorm output. hip/nbk.cpp checks that a frame's
 * offsets (H W max(cin, F)) fit an int.
 */
#if NBK_STEP_WAVES
__global__ NBK_BOUNDS_W(NBK_STEP_THREADS, NBK_STEP_WAVES)
#else
__global__ NBK_BOUNDS(NBK_STEP_THREADS)
#endif
void nbk_step_kernel(const NBK_G float *__restrict__ x, long x_bs,
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
	/* float4 storage: the 16-byte reads of both need 16-byte alignment */
	__shared__ float4 xs4[NBK_STEP_KC * NBK_STEP_PLANE / 4];
	__shared__ float4 ws4[NBK_STEP_WVEC + 1];
	NBK_L float *xs = (NBK_L float *)xs4;
	const int tid = threadIdx.x;
	/*
	 * Lanes in pairs: 2k and 2k + 1 share a filter (their weight reads
	 * are one address), 2k and 2k + 2 a pixel group (their halo reads):
	 * NVIDIA's LDS then returns a 16-byte read in 2 cycles, not 4 (it
	 * packs a pair's registers); on AMD the reads are as before.
	 */
	const int jl = tid / 2 % NBK_STEP_FB;
	const int grp = tid / (2 * NBK_STEP_FB) * 2 + tid % 2;
	const int ty = grp / (NBK_STEP_TW / NBK_STEP_PX);
	const int tx = grp % (NBK_STEP_TW / NBK_STEP_PX) * NBK_STEP_PX;
	const int tiles_x = (width + NBK_STEP_TW - 1) / NBK_STEP_TW;
	const int y0 = (int)blockIdx.x / tiles_x * NBK_STEP_TH;
	const int x0 = (int)blockIdx.x % tiles_x * NBK_STEP_TW;
	const int fb = (int)blockIdx.y, j = fb * NBK_STEP_FB + jl;
	const long b = blockIdx.z;
	const long px = (long)height * width;
	const int fp = (F + NBK_STEP_FB - 1) / NBK_STEP_FB * NBK_STEP_FB;
	const int sx = (cin + NBK_STEP_KC - 1) / NBK_STEP_KC;
	const int stages = sx + (has_h ? (F + NBK_STEP_KC - 1) / NBK_STEP_KC : 0);
	const NBK_G float *xb = x + b * x_bs;
	const NBK_G float *hb = h_in + b * px * F;
	const NBK_G float *bias = w + (long)(nbk_round8(cin) + nbk_round8(F)) * 9 * fp * 4;
	int pix[NBK_STEP_HSLOTS], lds[NBK_STEP_HSLOTS];
	float hv[NBK_STEP_HSLOTS];
	float4 wv[NBK_STEP_WSLOTS];
	float acc[NBK_STEP_PX][4];
	const float4 b4 = NBK_G_F4(bias + 4 * j);	/* j < fp: padded */

#pragma unroll
	for (int i = 0; i < NBK_STEP_PX; i++) {
		acc[i][0] = b4.x;
		acc[i][1] = b4.y;
		acc[i][2] = b4.z;
		acc[i][3] = b4.w;
	}
	const int ch = nbk_step_halo(y0, x0, height, width, pix, lds, xs);

	nbk_step_fetch(nbk_step_stage(0, sx, xb, hb, w, cin, F, fb), ch, pix,
		       hv, wv);
	for (int s = 0; s < stages; s++) {
		const int next = s + 1 < stages ? s + 1 : s;

		nbk_step_store(xs, ws4, lds, hv, wv);
		__syncthreads();	/* read-after-write: the stage is complete */
		/* the next stage's loads fly while this one computes */
		nbk_step_fetch(nbk_step_stage(next, sx, xb, hb, w, cin, F, fb),
			       ch, pix, hv, wv);
		NBK_ISSUE_HERE();
		nbk_step_compute(xs, ws4, ty, tx, jl, acc);
		__syncthreads();	/* write-after-read: next stage overwrites */
	}

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
