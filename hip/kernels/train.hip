/* SPDX-License-Identifier: MIT */
/*
 * The training step's kernels (user/engine/train.h; the double reference
 * is user/engine/ref_train.c): the forward pass in training form, which
 * keeps the gate pre-activations z and the cell states c for the backward
 * pass and normalizes with the batch's own statistics (no folding), the
 * losses' gradient, backpropagation through time and Adam.
 *
 * Written for correctness first, each one simple enough to be read against
 * the reference: the convolutions are direct (a thread per output value,
 * 9 taps x channels), not the forward's implicit GEMM; the sums over the
 * batch (kernel and bias gradients, BatchNorm's statistics, the loss) are a
 * block per output value whose threads stride over the terms and add them
 * in __shared__ memory in a fixed order, so a step gives the same bits on
 * every run and needs no float atomics (which OpenCL C 1.2 lacks).
 * Element-wise kernels are grid-stride loops, as the triad.
 *
 * Layouts are Keras' (channels last). A sequence is (B, T, H, W, C); an
 * image of it is (b, t); a kernel is (3, 3, cin, cout) (tap = ky 3 + kx).
 * Uses nbk_hard_sigmoid() (convlstm.hip) and nbk_sigmoid() (heads.hip).
 */
#include "nbk_dev.h"
#include "nbk_layout.h"

/*
 * The sum of every thread's v, in a fixed order, returned to all of them;
 * red: NBK_TRAIN_THREADS floats of __shared__ memory. Every thread must
 * call it (it holds barriers).
 */
NBK_INLINE float nbk_block_sum(float v, NBK_L float *red)
{
	const int i = (int)threadIdx.x;

	red[i] = v;
	__syncthreads();	/* read-after-write: the terms */
	for (int s = NBK_TRAIN_THREADS / 2; s > 0; s /= 2) {
		if (i < s)
			red[i] += red[i + s];
		__syncthreads();	/* read-after-write: the partial sums */
	}
	v = red[0];
	__syncthreads();	/* write-after-read: red's next use */
	return v;
}

/*
 * out image (b, t) = (accumulate ? out : bias, or 0) + a 3x3 "same"
 * convolution of in image (b, t + shift) (nothing where that is outside
 * 0..frames-1), ci channels in, co out; n = B T H W co. The kernel's
 * value for tap, input channel c and output channel a is
 * k[tap kt + c kc + a ka], and the tap (ky, kx) reads the input pixel
 * (y + dir (ky - 1), x + dir (kx - 1)): the forward (kc = cout, ka = 1,
 * dir 1) and the input gradient (the transposed convolution: kc = 1,
 * ka = cout, dir -1, shift negated) are the same loop.
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_tconv_kernel(const NBK_G float *__restrict__ in, long in_bstride,
		      const NBK_G float *__restrict__ k, int kt, int kc, int ka,
		      int dir, const NBK_G float *__restrict__ bias,
		      NBK_G float *__restrict__ out, long out_bstride,
		      int frames, int shift, int height, int width, int ci,
		      int co, int accumulate, long n)
{
	const long px = (long)height * width;

	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const int a = (int)(e % co);
		const long q = e / co % px, img = e / co / px;
		const int t = (int)(img % frames), y = (int)(q / width);
		const int x = (int)(q % width), st = t + shift;
		const long b = img / frames;
		NBK_G float *o = out + b * out_bstride + ((long)t * px + q) * co + a;
		float acc = accumulate ? *o : bias ? bias[a] : 0.0f;

		if (st >= 0 && st < frames) {
			const NBK_G float *src = in + b * in_bstride + (long)st * px * ci;

			for (int tap = 0; tap < 9; tap++) {
				const int sy = y + dir * (tap / 3 - 1);
				const int sx = x + dir * (tap % 3 - 1);

				if (sy < 0 || sy >= height || sx < 0 || sx >= width)
					continue;
				const NBK_G float *v = src + ((long)sy * width + sx) * ci;
				const NBK_G float *w = k + (long)tap * kt + (long)a * ka;

				for (int c = 0; c < ci; c++)
					acc = fmaf(v[c], w[(long)c * kc], acc);
			}
		}
		*o = acc;
	}
}

/*
 * The kernel gradient of that convolution (forward form): a block per
 * value of dk (3, 3, cin, cout), the sum over every image (b, t) whose
 * t + shift is a frame and every output pixel of
 * x(b, t + shift)[pixel + tap] dz(b, t)[pixel], added to dk when
 * accumulate.
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_wgrad_kernel(const NBK_G float *__restrict__ x, long x_bstride,
		      const NBK_G float *__restrict__ dz, long z_bstride,
		      NBK_G float *__restrict__ dk, int batch, int frames,
		      int shift, int height, int width, int cin, int cout,
		      int accumulate)
{
	__shared__ float red[NBK_TRAIN_THREADS];
	const long px = (long)height * width, terms = (long)batch * frames * px;
	const int o = (int)(blockIdx.x % cout);
	const int i = (int)(blockIdx.x / cout % cin), tap = (int)(blockIdx.x / cout / cin);
	const int dy = tap / 3 - 1, dx = tap % 3 - 1;
	float acc = 0.0f;

	for (long r = threadIdx.x; r < terms; r += NBK_TRAIN_THREADS) {
		const long q = r % px, img = r / px;
		const int t = (int)(img % frames), st = t + shift;
		const long b = img / frames;
		const int sy = (int)(q / width) + dy, sx = (int)(q % width) + dx;

		if (st < 0 || st >= frames || sy < 0 || sy >= height || sx < 0 ||
		    sx >= width)
			continue;
		acc = fmaf(x[b * x_bstride + ((long)st * px + (long)sy * width + sx) *
			     cin + i],
			   dz[b * z_bstride + ((long)t * px + q) * cout + o], acc);
	}
	acc = nbk_block_sum(acc, red);
	if (threadIdx.x == 0)
		dk[blockIdx.x] = accumulate ? dk[blockIdx.x] + acc : acc;
}

/* out[a] (+)= the sum of x[r C + a] over rows r: a block per channel a */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_chan_sum_kernel(const NBK_G float *__restrict__ x, long rows, int C,
			 NBK_G float *__restrict__ out, int accumulate)
{
	__shared__ float red[NBK_TRAIN_THREADS];
	const int a = (int)blockIdx.x;
	float acc = 0.0f;

	for (long r = threadIdx.x; r < rows; r += NBK_TRAIN_THREADS)
		acc += x[r * C + a];
	acc = nbk_block_sum(acc, red);
	if (threadIdx.x == 0)
		out[a] = accumulate ? out[a] + acc : acc;
}

/*
 * BatchNorm in training mode over h's values of channel j: items (batch)
 * of rows pixels, item i at h + i item_stride, F channels. Row r of the
 * whole is item r / rows, row r % rows.
 */
NBK_INLINE long nbk_bn_at(long r, long rows, long item_stride, int F, int j)
{
	return r / rows * item_stride + r % rows * F + j;
}

/* mean and biased variance per channel (two passes): a block per channel */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_bn_stats_kernel(const NBK_G float *__restrict__ h, long item_stride,
			 int items, long rows, int F,
			 NBK_G float *__restrict__ mean,
			 NBK_G float *__restrict__ var)
{
	__shared__ float red[NBK_TRAIN_THREADS];
	const int j = (int)blockIdx.x;
	const long n = items * rows;
	float acc = 0.0f;

	for (long r = threadIdx.x; r < n; r += NBK_TRAIN_THREADS)
		acc += h[nbk_bn_at(r, rows, item_stride, F, j)];
	const float mu = nbk_block_sum(acc, red) / (float)n;

	acc = 0.0f;
	for (long r = threadIdx.x; r < n; r += NBK_TRAIN_THREADS) {
		const float d = h[nbk_bn_at(r, rows, item_stride, F, j)] - mu;

		acc = fmaf(d, d, acc);
	}
	acc = nbk_block_sum(acc, red);
	if (threadIdx.x == 0) {
		mean[j] = mu;
		var[j] = acc / (float)n;
	}
}

NBK_INLINE float nbk_bn_xhat(const NBK_G float *h, long at, int j,
			     const NBK_G float *mean, const NBK_G float *var,
			     float eps)
{
	return (h[at] - mean[j]) / sqrtf(var[j] + eps);
}

/* y (items, rows, F: dense) = gamma xhat + beta; n = items rows F */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_bn_fwd_kernel(const NBK_G float *__restrict__ h, long item_stride,
		       long rows, int F, const NBK_G float *__restrict__ mean,
		       const NBK_G float *__restrict__ var,
		       const NBK_G float *__restrict__ gamma,
		       const NBK_G float *__restrict__ beta, float eps,
		       NBK_G float *__restrict__ y, long n)
{
	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const int j = (int)(e % F);
		const long at = nbk_bn_at(e / F, rows, item_stride, F, j);

		y[e] = fmaf(gamma[j], nbk_bn_xhat(h, at, j, mean, var, eps), beta[j]);
	}
}

/* dgamma = sum dy xhat, dbeta = sum dy per channel: a block per channel */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_bn_bwd_sums_kernel(const NBK_G float *__restrict__ h, long item_stride,
			    int items, long rows, int F,
			    const NBK_G float *__restrict__ mean,
			    const NBK_G float *__restrict__ var, float eps,
			    const NBK_G float *__restrict__ dy,
			    NBK_G float *__restrict__ dgamma,
			    NBK_G float *__restrict__ dbeta)
{
	__shared__ float red[NBK_TRAIN_THREADS];
	const int j = (int)blockIdx.x;
	const long n = items * rows;
	float sg = 0.0f, sb = 0.0f;

	for (long r = threadIdx.x; r < n; r += NBK_TRAIN_THREADS) {
		const float d = dy[r * F + j];
		const long at = nbk_bn_at(r, rows, item_stride, F, j);

		sg = fmaf(d, nbk_bn_xhat(h, at, j, mean, var, eps), sg);
		sb += d;
	}
	sg = nbk_block_sum(sg, red);
	sb = nbk_block_sum(sb, red);
	if (threadIdx.x == 0) {
		dgamma[j] = sg;
		dbeta[j] = sb;
	}
}

/*
 * dh (at h's places) = gamma / sqrt(var + eps) (dy - dbeta / N
 * - xhat dgamma / N), N = items rows; n = N F
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_bn_bwd_kernel(const NBK_G float *__restrict__ h, long item_stride,
		       long rows, int F, const NBK_G float *__restrict__ mean,
		       const NBK_G float *__restrict__ var, float eps,
		       const NBK_G float *__restrict__ gamma,
		       const NBK_G float *__restrict__ dy,
		       const NBK_G float *__restrict__ dgamma,
		       const NBK_G float *__restrict__ dbeta,
		       NBK_G float *__restrict__ dh, long n)
{
	const float inv_n = (float)F / (float)n;

	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const int j = (int)(e % F);
		const long at = nbk_bn_at(e / F, rows, item_stride, F, j);
		const float xh = nbk_bn_xhat(h, at, j, mean, var, eps);

		dh[at] = gamma[j] / sqrtf(var[j] + eps) *
			(dy[e] - dbeta[j] * inv_n - xh * dgamma[j] * inv_n);
	}
}

/*
 * One time step's gates from z (its 4F columns: i, f, c, o): c and h of
 * frame t, from c_prev (frame t - 1; none at t = 0). A thread per state
 * value (b, pixel, j); z, c, h and c_prev of item b at b z_bstride and
 * b s_bstride; m = H W F, n = B m.
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_gates_fwd_kernel(const NBK_G float *__restrict__ z, long z_bstride,
			  const NBK_G float *__restrict__ c_prev, int has_prev,
			  NBK_G float *__restrict__ c, NBK_G float *__restrict__ h,
			  long s_bstride, int F, long m, long n)
{
	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const long b = e / m, s = e % m, q = s / F;
		const int j = (int)(s % F);
		const NBK_G float *zq = z + b * z_bstride + q * 4 * F;
		const long at = b * s_bstride + s;
		const float cn = nbk_hard_sigmoid(zq[F + j]) *
			(has_prev ? c_prev[at] : 0.0f) +
			nbk_hard_sigmoid(zq[j]) * tanhf(zq[2 * F + j]);

		c[at] = cn;
		h[at] = nbk_hard_sigmoid(zq[3 * F + j]) * tanhf(cn);
	}
}

NBK_INLINE float nbk_hard_sigmoid_grad(float x)
{
	return x > -2.5f && x < 2.5f ? 0.2f : 0.0f;
}

/*
 * The same step backward: dh = dh_out (from BN; has_out) + dh_rec (dense
 * (B, H, W, F), through the next frame's recurrent kernel; has_rec),
 * dc = dc (dense, from the next frame; has_dc) + dh o tanh'(c); into dz
 * (the 4F columns of frame t, at z's places) and dc <- dc f for the
 * frame before.
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_gates_bwd_kernel(const NBK_G float *__restrict__ z, long z_bstride,
			  const NBK_G float *__restrict__ c,
			  const NBK_G float *__restrict__ c_prev, int has_prev,
			  long s_bstride, const NBK_G float *__restrict__ dh_out,
			  int has_out, const NBK_G float *__restrict__ dh_rec,
			  int has_rec, NBK_G float *__restrict__ dc, int has_dc,
			  NBK_G float *__restrict__ dz, int F, long m, long n)
{
	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const long b = e / m, s = e % m, q = s / F;
		const int j = (int)(s % F);
		const long zo = b * z_bstride + q * 4 * F + j, at = b * s_bstride + s;
		const float zi = z[zo], zf = z[zo + F], zg = z[zo + 2 * F];
		const float zz = z[zo + 3 * F], gg = tanhf(zg), tc = tanhf(c[at]);
		const float dh = (has_out ? dh_out[at] : 0.0f) +
			(has_rec ? dh_rec[e] : 0.0f);
		const float d = (has_dc ? dc[e] : 0.0f) +
			dh * nbk_hard_sigmoid(zz) * (1.0f - tc * tc);

		dz[zo] = d * gg * nbk_hard_sigmoid_grad(zi);
		dz[zo + F] = (has_prev ? d * c_prev[at] : 0.0f) *
			nbk_hard_sigmoid_grad(zf);
		dz[zo + 2 * F] = d * nbk_hard_sigmoid(zi) * (1.0f - gg * gg);
		dz[zo + 3 * F] = dh * tc * nbk_hard_sigmoid_grad(zz);
		dc[e] = d * nbk_hard_sigmoid(zf);
	}
}

/*
 * The loss of logits z against target y, per value divided by n, and its
 * gradient: bce (the Conv3D head) max(z, 0) - z y + log(1 + exp(-|z|)),
 * d = sigmoid(z) - y; else (the Conv2D head) |sigmoid(z) - y|, d =
 * sign(s - y) s (1 - s); both d / n.
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_loss_kernel(const NBK_G float *__restrict__ logit,
		     const NBK_G float *__restrict__ target, int bce,
		     NBK_G float *__restrict__ grad, NBK_G float *__restrict__ loss,
		     long n)
{
	const float inv_n = 1.0f / (float)n;

	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const float z = logit[e], y = target[e], s = nbk_sigmoid(z);

		if (bce) {
			loss[e] = (fmaxf(z, 0.0f) - z * y + log1pf(expf(-fabsf(z)))) *
				inv_n;
			grad[e] = (s - y) * inv_n;
		} else {
			loss[e] = fabsf(s - y) * inv_n;
			grad[e] = (s > y ? 1.0f : s < y ? -1.0f : 0.0f) * s *
				(1.0f - s) * inv_n;
		}
	}
}

/*
 * Adam, Keras 3's update: m += (g - m)(1 - beta1), v += (g^2 - v)(1 -
 * beta2), p -= alpha m / (sqrt(v) + eps), alpha the step's learning rate
 * with both bias corrections (the launcher's, in double).
 */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_adam_kernel(NBK_G float *__restrict__ p,
		     const NBK_G float *__restrict__ g, NBK_G float *__restrict__ m,
		     NBK_G float *__restrict__ v, float alpha, float one_b1,
		     float one_b2, float eps, long n)
{
	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x) {
		const float ge = g[e];
		const float me = fmaf(ge - m[e], one_b1, m[e]);
		const float ve = fmaf(ge * ge - v[e], one_b2, v[e]);

		m[e] = me;
		v[e] = ve;
		p[e] -= alpha * me / (sqrtf(ve) + eps);
	}
}

/* a moving average: avg = avg momentum + stat (1 - momentum) */
__global__ NBK_BOUNDS(NBK_TRAIN_THREADS)
void nbk_moving_kernel(NBK_G float *__restrict__ avg,
		       const NBK_G float *__restrict__ stat, float momentum,
		       long n)
{
	for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < n;
	     e += (long)gridDim.x * blockDim.x)
		avg[e] = fmaf(avg[e], momentum, stat[e] * (1.0f - momentum));
}
