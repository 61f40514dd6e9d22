/* SPDX-License-Identifier: MIT */
/*
 * Training: one step of the Keras next-frame example's training, in double
 * precision for reference (ref_train.c).
 *
 * One step is what Keras' model.fit does for one batch:
 *   1. the forward pass over every frame, BatchNormalization in training
 *      mode: each channel normalized with the batch's own mean and biased
 *      variance over every axis but the channel's (batch, frames, height,
 *      width; the Conv2D model's last layer: batch, height, width of its
 *      final state), and the moving averages updated as Keras 3 does:
 *        moving = moving * NB_BN_MOMENTUM + batch_stat * (1 - NB_BN_MOMENTUM)
 *      with the biased batch variance;
 *   2. the loss, the mean over every output element:
 *        convlstm-mono (Conv3D head, every frame): binary cross-entropy,
 *          computed from the head's logit z as Keras' TensorFlow backend
 *          does for a sigmoid output: max(z, 0) - z y + log(1 + exp(-|z|));
 *        convlstm-color (Conv2D head, the next frame): mean absolute error
 *          |sigmoid(z) - y|;
 *   3. backpropagation through time through the head, every BatchNorm and
 *      every ConvLSTM layer, all frames;
 *   4. Adam with Keras' defaults (NB_ADAM_*), Keras 3's update:
 *        m <- m + (g - m)(1 - beta1);  v <- v + (g^2 - v)(1 - beta2)
 *        p <- p - lr sqrt(1 - beta2^t) / (1 - beta1^t) m / (sqrt(v) + eps)
 *      The moving mean and variance are not trained.
 *
 * The gates are the engine's forward's: hard sigmoid 0.2 z + 0.5 clipped to
 * [0, 1] (derivative 0.2 inside (-2.5, 2.5), 0 outside), tanh for the cell.
 */
#ifndef NB_TRAIN_H
#define NB_TRAIN_H

#include "engine/engine.h"

/* Keras' BatchNormalization defaults (epsilon: NB_BN_EPSILON, 1e-3) */
#define NB_BN_MOMENTUM 0.99
/* Keras' Adam defaults */
#define NB_ADAM_LR 1e-3
#define NB_ADAM_BETA1 0.9
#define NB_ADAM_BETA2 0.999
#define NB_ADAM_EPSILON 1e-7

/* Tensors in nb_weights_tensors()' order: seven per layer, then the head's two. */
#define NB_MAX_TENSORS (7 * NB_MAX_LAYERS + 2)
enum nb_layer_tensor {
	NB_T_KERNEL, NB_T_RKERNEL, NB_T_BIAS, NB_T_GAMMA, NB_T_BETA,
	NB_T_MEAN, NB_T_VAR, NB_T_PER_LAYER,
};

static inline int nb_tensor_index(int layer, enum nb_layer_tensor which)
{
	return layer * NB_T_PER_LAYER + which;
}

static inline int nb_head_kernel_index(const struct nb_model *m)
{
	return m->layers * NB_T_PER_LAYER;
}

/* a moving mean or variance: not trained */
static inline bool nb_tensor_trained(int i)
{
	return i % NB_T_PER_LAYER != NB_T_MEAN && i % NB_T_PER_LAYER != NB_T_VAR;
}

enum nb_loss {
	NB_LOSS_BCE,	/* the Conv3D head: binary cross-entropy */
	NB_LOSS_MAE,	/* the Conv2D head: mean absolute error */
};

static inline enum nb_loss nb_model_loss(const struct nb_model *m)
{
	return m->head == NB_HEAD_CONV3D ? NB_LOSS_BCE : NB_LOSS_MAE;
}

/*
 * A model's tensors in double precision, nb_weights_tensors()' order and
 * shapes: parameters, their gradients, or Adam's moments.
 */
struct nb_ref_params {
	struct nb_model model;
	int n;
	char name[NB_MAX_TENSORS][NB_TENSOR_NAME];
	size_t count[NB_MAX_TENSORS];
	double *v[NB_MAX_TENSORS];
};

/* Every tensor zeroed; NULL on out of memory. */
struct nb_ref_params *nb_ref_params_alloc(const struct nb_model *m);
void nb_ref_params_free(struct nb_ref_params *p);
void nb_ref_params_from(struct nb_ref_params *p, const struct nb_weights *w);
void nb_ref_params_to(const struct nb_ref_params *p, struct nb_weights *w);

/*
 * nb_ref_train_loss() - steps 1 to 3 on parameters p, for input in
 * (B,T,H,W,C) and target (nb_output_count() values): returns the loss.
 * When grad is not NULL, fills it with dloss/dp; its moving-mean and
 * moving-variance tensors, which have no gradient, receive the batch mean
 * and biased batch variance that step 1 updates the moving averages with.
 * p's moving averages are not used (training mode) nor changed.
 */
double nb_ref_train_loss(const struct nb_ref_params *p, const float *in,
			 const float *target, int batch, int frames,
			 struct nb_ref_params *grad);

/*
 * The reference's pieces, in double, for the tests of a backend's kernels
 * (tests/hip): what nb_ref_train_loss() computes with.
 *
 * nb_ref_conv3x3() adds a 3x3 "same" convolution of one frame x (H,W,cin)
 * with k (3,3,cin,cout) into z (H,W,cout); nb_ref_conv3x3_bwd() its
 * backward: dz (H,W,cout) added into dk and, when dx is not NULL, dx.
 */
void nb_ref_conv3x3(int hgt, int wid, int cin, int cout, const double *x,
		    const double *k, double *z);
void nb_ref_conv3x3_bwd(int hgt, int wid, int cin, int cout, const double *x,
			const double *k, const double *dz, double *dk,
			double *dx);
/*
 * One pixel's f cells: z its gate pre-activations (i, f, c, o: 4f),
 * c_prev the previous frame's cell state; nb_ref_gates() gives c and h.
 * nb_ref_gates_bwd(), from dh (from above and through time) and dc (the
 * next frame's, in place: this frame's for the one before), gives dz.
 */
void nb_ref_gates(int f, const double *z, const double *c_prev, double *c,
		  double *h);
void nb_ref_gates_bwd(int f, const double *z, const double *c,
		      const double *c_prev, const double *dh, double *dc,
		      double *dz);
/*
 * BatchNormalization in training mode over n rows of f channels (dense):
 * the batch mean and biased variance, xhat (may be h) and y; backward,
 * dy into dgamma and dbeta (added) and dh.
 */
void nb_ref_bn_forward(size_t n, int f, const double *h, const double *gamma,
		       const double *beta, double *mean, double *var,
		       double *xhat, double *y);
void nb_ref_bn_backward(size_t n, int f, const double *gamma,
			const double *var, const double *xhat, const double *dy,
			double *dgamma, double *dbeta, double *dh);
/* The loss of nout logits against target; each logit becomes its gradient. */
double nb_ref_loss_grad(enum nb_loss kind, const float *target, double *logit,
			size_t nout);

/* Adam's state: the step count and both moments, in double. */
struct nb_ref_adam {
	long step;
	struct nb_ref_params *m, *v;
};
int nb_ref_adam_init(struct nb_ref_adam *a, const struct nb_model *m);
void nb_ref_adam_free(struct nb_ref_adam *a);

/*
 * nb_ref_adam_apply() - step 4 on p with gradient g, and the moving
 * averages of p from g's batch statistics (step 1's update).
 */
void nb_ref_adam_apply(struct nb_ref_adam *a, struct nb_ref_params *p,
		       const struct nb_ref_params *g);

/*
 * nb_ref_train_step() - one whole step on w, in place (float in and out,
 * double inside); grad (may be NULL) receives the gradients and batch
 * statistics before the update. Returns the loss before the update, NaN
 * when out of memory.
 */
double nb_ref_train_step(struct nb_weights *w, struct nb_ref_adam *a,
			 const float *in, const float *target, int batch,
			 int frames, struct nb_ref_params *grad);

/*
 * A backend's training step, float32, same model and same step as the
 * reference's. Separate from struct nb_backend_ops so that the plugin
 * interface is unchanged; a backend without one (the GPU plugins, for now)
 * has no training test.
 */
struct nb_train_ops {
	/* Copies w (weights, moving averages) in; Adam's state at zero. */
	int (*load)(void *ctx, const struct nb_weights *w, int batch,
		    int frames, void **tr, char *err, size_t errlen);
	/* One step (train.h's 1 to 4) on in (B,T,H,W,C) and target
	 * (nb_output_count()); *loss: the loss before the update. */
	int (*step)(void *ctx, void *tr, const float *in, const float *target,
		    double *loss, char *err, size_t errlen);
	/*
	 * The weights and moving averages after the last step into w, and,
	 * when grad is not NULL, that step's gradients (before the update)
	 * into grad, whose moving-mean and moving-variance tensors receive the
	 * batch statistics, as nb_ref_train_loss() writes them.
	 */
	void (*read)(void *ctx, void *tr, struct nb_weights *w,
		     struct nb_weights *grad);
	void (*free)(void *ctx, void *tr);
};

/* The CPU backend's (cpu_train.c); ctx from nb_cpu_backend.open(). */
extern const struct nb_train_ops nb_cpu_train;

/*
 * nb_flops_train() - FLOPs of one training step (multiply-add = 2), counted
 * as nb_flops_forward() counts the forward: the convolutions only, every
 * one of the 3x3 (head: 3x3x3) taps at every output, borders included.
 * Per batch item, with P = H W pixels, layer l of Cin inputs and F filters:
 *   forward      T x 2 P 9 (Cin + F) 4F                       (z = K*x + U*h)
 *   backward     T x 2 P 9 Cin 4F                             (dK)
 *              + T x 2 P 9 Cin 4F, layers above the first     (dx)
 *              + (T - 1) x 2 x 2 P 9 F 4F                     (dU, dh; none at t = 0)
 * and the head, forward and twice that backward (its kernel and its input):
 *   3 x 2 P taps F out, per output frame (T for Conv3D, 1 for Conv2D).
 * Gate arithmetic, BatchNorm, the loss and Adam are O(1) per value and
 * left out, as in the forward's count.
 */
double nb_flops_train(const struct nb_model *m, int batch, int frames);

/*
 * nb_train_validate() - one training step of a backend against the
 * reference's, from the same weights w, input and target, steps times in a
 * row (a second step's gradients depend on the first's update and on Adam's
 * moments): each step's gradients (before its update) and batch
 * statistics, then the weights and moving averages after it.
 *
 * Tolerances (float32 against double, through every frame back in time):
 *   a gradient tensor: max |g - g_ref| <= NB_TRAIN_TOL_GRAD x max |g_ref|
 *     over the tensor (elements near zero carry the absolute rounding of
 *     the large ones they are summed with);
 *   batch statistics, weights and moving averages after a step:
 *     |w - w_ref| <= NB_TRAIN_TOL_ABS + NB_TRAIN_TOL_REL |w_ref|;
 *     NB_TRAIN_TOL_ABS is 1% of the learning rate, the most one step of
 *     Adam moves a weight: Adam divides each gradient by its own size, so
 *     a gradient near zero, whose float32 rounding is large beside it,
 *     moves its weight by a visibly different fraction of the rate (seen:
 *     4e-6 on the full-size mono model). A scaled gradient leaves Adam's
 *     step unchanged: that is caught before the update, by the first rule.
 * v->max_rel is the worst gradient error as a fraction of its tensor's
 * largest (tol_rel: NB_TRAIN_TOL_GRAD); v->max_abs the worst of the rest
 * beyond its relative allowance (tol_abs: NB_TRAIN_TOL_ABS). Returns 0 when
 * it ran (v->pass the verdict), -1 with err when the backend could not.
 */
#define NB_TRAIN_TOL_GRAD 1e-4
#define NB_TRAIN_TOL_ABS 1e-5
#define NB_TRAIN_TOL_REL 1e-4
int nb_train_validate(const struct nb_train_ops *ops, void *ctx,
		      const struct nb_weights *w, const float *in,
		      const float *target, int batch, int frames, int steps,
		      struct nb_validation *v, char *err, size_t errlen);

#ifdef NB_TESTING
/*
 * Planted errors, for the tests to show that validation catches them:
 * NB_FAULT_GRAD_SCALE scales the head kernel's gradient by 1.01;
 * NB_FAULT_TRANSPOSED backpropagates through each ConvLSTM layer's input
 * kernel with its 3x3 taps transposed (ky and kx swapped).
 */
enum nb_train_fault { NB_FAULT_NONE, NB_FAULT_GRAD_SCALE, NB_FAULT_TRANSPOSED };
extern enum nb_train_fault nb_train_fault;
#endif

#endif /* NB_TRAIN_H */
