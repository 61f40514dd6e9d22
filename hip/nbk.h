/* SPDX-License-Identifier: MIT */
/*
 * The ConvLSTM kernels' host interface, in C: thin launch wrappers over the
 * kernels in hip/kernels/. The same kernel source is built by hipcc (AMD
 * targets), by nvcc through hip/cuda_compat.h (NVIDIA) and run on the CPU
 * through OpenCL (PoCL) in the tests.
 *
 * Tensors are float32 in Keras' layouts (channels last), as in
 * user/engine/engine.h: activations (B, H, W, C), a sequence (B, T, H, W, C).
 * Every pointer but those named host_ is a device pointer. Every function
 * returns 0, or -1 with nbk_error() saying what failed (file, line, the
 * runtime call and its error string); each launch is followed by the
 * runtime's last-error check.
 */
#ifndef NBK_H
#define NBK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's stream (hipStream_t, cudaStream_t); NULL: the default. */
typedef void *nbk_stream;

/* The last error of this thread, "" when none. */
const char *nbk_error(void);

/*
 * A ConvLSTM layer's weights, packed once on the host into the layout the
 * step kernel reads (kernels/nbk_layout.h): nbk_cell_pack() writes
 * nbk_cell_packed_count() floats.
 */
size_t nbk_cell_packed_count(int cin, int filters);
void nbk_cell_pack(int cin, int filters, const float *host_kernel,
		   const float *host_rkernel, const float *host_bias,
		   float *host_packed);

/*
 * A BatchNormalization (inference) folded into y = h * scale + shift, for
 * nbk_step's bn_scale and bn_shift: scale = gamma / sqrt(var + eps),
 * shift = beta - mean * scale (in double, then rounded).
 */
void nbk_bn_fold(int filters, const float *host_gamma,
		 const float *host_beta, const float *host_mean,
		 const float *host_var, float eps, float *host_scale,
		 float *host_shift);

/*
 * One ConvLSTM time step of one layer, for the whole batch:
 *   z = conv3x3(x, Wx) + conv3x3(h_in, Wh) + bias   (implicit GEMM)
 *   i, f, o = hard_sigmoid(z_i, z_f, z_o); g = tanh(z_c)
 *   c_out = f * c_in + i * g; h_out = o * tanh(c_out)
 *   y = h_out * bn_scale + bn_shift                  (when y is not NULL)
 * x item b starts at x + b * x_batch_stride (so a time step of a sequence
 * tensor is passed without a copy); y likewise. h_in/c_in NULL: zero state.
 * h_out and c_out must not alias h_in and c_in. A frame's values
 * (H W max(cin, filters)) must fit an int. The tiling is that of the
 * current device's code object (kernels/nbk_layout.h), found from its
 * wave size.
 */
struct nbk_step {
	int batch, height, width, cin, filters;
	const float *x;
	size_t x_batch_stride;		/* floats */
	const float *h_in, *c_in;	/* (B, H, W, F) or NULL */
	float *h_out, *c_out;		/* (B, H, W, F) */
	const float *w;			/* nbk_cell_pack() output */
	const float *bn_scale, *bn_shift;	/* (F) folded BN, with y */
	float *y;			/* NULL: no BN output */
	size_t y_batch_stride;		/* floats */
};
int nbk_convlstm_step(nbk_stream s, const struct nbk_step *p);

/*
 * Conv3D(1 filter, 3x3x3, same, sigmoid) over a sequence (B, T, H, W, C)
 * into (B, T, H, W, 1); kernel (3, 3, 3, C, 1) in Keras' layout, bias (1).
 * A frame's values (H W C) must fit an int.
 */
int nbk_conv3d_head(nbk_stream s, int batch, int frames, int height,
		    int width, int channels, const float *in,
		    const float *kernel, const float *bias, float *out);

/*
 * Conv2D(out_channels, 3x3, same, sigmoid) over (B, H, W, C) into
 * (B, H, W, out_channels); kernel (3, 3, C, out) in Keras' layout.
 */
int nbk_conv2d_head(nbk_stream s, int batch, int height, int width,
		    int channels, int out_channels, const float *in,
		    const float *kernel, const float *bias, float *out);

/*
 * ---- The training step (kernels/train.hip; user/engine/train.h) ----
 *
 * A 3x3 "same" convolution with kernel k (3, 3, cin, cout) between the
 * images of two sequences: image (b, t) of z (cout channels) and image
 * (b, t + shift) of x (cin channels), for every t where both exist (shift
 * -1: the recurrent kernel, h of the frame before; -1, 0, 1: the Conv3D
 * head's three frames). Its three uses:
 *   nbk_conv_fwd    z = (accumulate ? z : bias, or 0 when NULL) + conv(x, k)
 *   nbk_conv_bwd_x  x = (accumulate ? x : 0) + the gradient from dz = z
 *   nbk_conv_bwd_k  k = (accumulate ? k : 0) + the gradient from dz = z
 * An image's values (H W max(cin, cout)) must fit an int.
 */
struct nbk_conv {
	int batch, frames, height, width, cin, cout, shift;
	float *x;			/* the input, or its gradient */
	size_t x_batch_stride;		/* floats */
	float *k;			/* the kernel, or its gradient */
	float *z;			/* the output, or its gradient */
	size_t z_batch_stride;		/* floats */
	int accumulate;
};
int nbk_conv_fwd(nbk_stream s, const struct nbk_conv *p, const float *bias);
int nbk_conv_bwd_x(nbk_stream s, const struct nbk_conv *p);
int nbk_conv_bwd_k(nbk_stream s, const struct nbk_conv *p);

/* out[a] = (accumulate ? out[a] : 0) + the sum of x[r channels + a], r < rows */
int nbk_chan_sum(nbk_stream s, const float *x, size_t rows, int channels,
		 float *out, int accumulate);

/*
 * BatchNormalization in training mode over h's kept frames: items (the
 * batch) of rows values per channel (the kept frames' pixels), item i at
 * h + i item_stride. nbk_bn_train_fwd: the batch mean and biased variance
 * per channel, and y = gamma (h - mean) / sqrt(var + eps) + beta, dense
 * (items, rows, F). nbk_bn_bwd: from dy (as y), dgamma, dbeta and dh
 * (at h's places; what is not kept is not written).
 */
struct nbk_bn {
	int items, filters;
	size_t rows;
	const float *h;
	size_t item_stride;		/* floats */
	float *mean, *var;		/* (F) */
	const float *gamma, *beta;	/* (F) */
	float eps;
	float *y;			/* forward */
	const float *dy;		/* backward */
	float *dgamma, *dbeta, *dh;
};
int nbk_bn_train_fwd(nbk_stream s, const struct nbk_bn *p);
int nbk_bn_bwd(nbk_stream s, const struct nbk_bn *p);

/*
 * One time step of a ConvLSTM layer's gates, from the pre-activations z
 * (the 4F columns i, f, c, o of frame t: nbk_conv_fwd of x and of h of
 * the frame before, with the bias). nbk_gates_fwd: c and h of frame t
 * from c_prev (frame t - 1's; NULL at t = 0). nbk_gates_bwd: dz (at z's
 * places) from dh = dh_out (at the states' places; NULL: none) + dh_rec
 * (dense (B, H, W, F), from frame t + 1; NULL: none) and dc (dense, frame
 * t + 1's when dc_in, else zero), and dc for frame t - 1, in place.
 */
struct nbk_gates {
	int batch, height, width, filters;
	const float *z;
	size_t z_batch_stride;		/* floats, z's and dz's */
	const float *c_prev;
	float *c, *h;
	size_t state_batch_stride;	/* floats, c's, h's, c_prev's, dh_out's */
	const float *dh_out, *dh_rec;
	float *dc;
	int dc_in;
	float *dz;
};
int nbk_gates_fwd(nbk_stream s, const struct nbk_gates *p);
int nbk_gates_bwd(nbk_stream s, const struct nbk_gates *p);

/*
 * The loss of n logits against target, and its gradient (train.h): bce,
 * binary cross-entropy from the logits (the Conv3D head); else the mean
 * absolute error of their sigmoid (the Conv2D head). grad (n) receives
 * dloss/dlogit, terms (n) each value's part and loss[0] their sum.
 */
int nbk_loss(nbk_stream s, int bce, size_t n, const float *logit,
	     const float *target, float *grad, float *terms, float *loss);

/*
 * Adam's update of n parameters p with gradient g and moments m and v,
 * Keras 3's (train.h), at step (from 1): the learning rate's bias
 * corrections in double. nbk_moving_average: avg = avg momentum + stat
 * (1 - momentum).
 */
int nbk_adam(nbk_stream s, size_t n, float *p, const float *g, float *m,
	     float *v, long step, double lr, double beta1, double beta2,
	     double eps);
int nbk_moving_average(nbk_stream s, size_t n, float *avg, const float *stat,
		       double momentum);

/*
 * FMA peak: blocks x threads threads (threads at most 256) each run iters
 * iterations of independent chains a = a * m + k, and store one lane's
 * final value in out[global thread id]. Returns the FLOP count in *flops.
 */
int nbk_fma_peak(nbk_stream s, int blocks, int threads, long iters,
		 float m, float k, float *out, double *flops);

/* a[i] = b[i] + scalar * c[i], i < n. */
int nbk_triad(nbk_stream s, float *a, const float *b, const float *c,
	      float scalar, size_t n);

/*
 * Streams in order on the GPU (the host does not wait): nbk_event_record()
 * records event (a hipEvent_t or cudaEvent_t, made without timing) on s;
 * nbk_stream_wait() makes s wait for the event's last record.
 */
int nbk_event_record(void *event, nbk_stream s);
int nbk_stream_wait(nbk_stream s, void *event);

/*
 * The one timing helper for every test: the GPU time, in milliseconds, of
 * what fn(arg) enqueues on s, from events recorded on s before and after
 * it (so host-side launch overhead between kernels counts only where it
 * leaves the GPU idle). warm: fn(arg) is enqueued once more before the
 * first event, and must be idempotent: the GPU is then busy with it while
 * the host enqueues the first event and the timed work, so that a single
 * kernel's span does not include the host's launch latency (a few
 * microseconds, which the first event would otherwise wait for). fn
 * returns 0 or -1 (its error in nbk_error()).
 */
int nbk_time_ms(nbk_stream s, int (*fn)(void *arg), void *arg, int warm,
		float *ms);

#ifdef __cplusplus
}
#endif

#endif /* NBK_H */
