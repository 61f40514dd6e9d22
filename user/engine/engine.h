/* SPDX-License-Identifier: MIT */
/*
 * The ConvLSTM benchmark engine: models, weights, data, file formats, the
 * reference implementation and the backend interface.
 *
 * Layouts are Keras' (channels last) everywhere outside a backend:
 *   movie      (B, T, H, W, C)
 *   kernel     (3, 3, Cin, 4F)   gates in the order i, f, c, o
 *   recurrent  (3, 3, F, 4F)
 *   head       (3, 3, 3, F, 1) for Conv3D, (3, 3, F, 3) for Conv2D
 */
#ifndef NB_ENGINE_H
#define NB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NB_MAX_LAYERS 8
#define NB_BN_EPSILON 1e-3f

enum nb_head {
	NB_HEAD_CONV3D,		/* Conv3D(1, 3x3x3, same, sigmoid) on every frame */
	NB_HEAD_CONV2D,		/* Conv2D(out, 3x3, same, sigmoid) on the final state */
};

/*
 * A model's shape. Every ConvLSTM layer is followed by BatchNormalization.
 * The benchmark's standard batch and frames are the tests' (bench.c).
 */
struct nb_model {
	const char *name;
	int height, width, channels;	/* one input frame */
	int layers;
	int filters[NB_MAX_LAYERS];
	enum nb_head head;		/* CONV3D: all layers return sequences;
					 * CONV2D: the last returns its final state */
	int head_out;			/* output channels of the head */
};

/* The models the benchmark knows; NULL when the name is not one of them. */
const struct nb_model *nb_model_find(const char *name);
/* "convlstm-mono, convlstm-color" */
const char *nb_model_names(void);
/* 0 when the shape is usable, else -1 with a reason in err. */
int nb_model_check(const struct nb_model *m, char *err, size_t errlen);
/*
 * A model with its layer count and every layer's filters changed (0: kept),
 * for a smaller model of the same shape (navibench train, predict).
 */
struct nb_model nb_model_resized(const struct nb_model *m, int layers, int filters);
/* Input channels of layer l. */
int nb_layer_cin(const struct nb_model *m, int l);

/*
 * FLOP counts, from the shapes, multiply-add = 2. Only the convolutions
 * count (the gate arithmetic, BN and activations are O(1) per output and
 * left out, as every convolution benchmark does).
 */
double nb_flops_cell(int height, int width, int cin, int filters);
double nb_flops_forward(const struct nb_model *m, int batch, int frames);
double nb_flops_per_frame(const struct nb_model *m);

/* Weights: one allocation per tensor, Keras layouts. */
struct nb_weights {
	struct nb_model model;
	float *kernel[NB_MAX_LAYERS];
	float *rkernel[NB_MAX_LAYERS];
	float *bias[NB_MAX_LAYERS];
	float *gamma[NB_MAX_LAYERS];
	float *beta[NB_MAX_LAYERS];
	float *mean[NB_MAX_LAYERS];
	float *var[NB_MAX_LAYERS];
	float *head_kernel;
	float *head_bias;
};

/* Tensor table: name, shape and storage of each tensor of a model. */
#define NB_TENSOR_NAME 48
struct nb_tensor {
	char name[NB_TENSOR_NAME];
	int rank;
	int64_t shape[5];
	size_t count;
	float **data;		/* points into a struct nb_weights */
};
/* Fills t (room for 7 * NB_MAX_LAYERS + 2); returns the number of tensors. */
int nb_weights_tensors(struct nb_weights *w, struct nb_tensor *t);

/* Allocates every tensor (zeroed); NULL on out of memory. */
struct nb_weights *nb_weights_alloc(const struct nb_model *m);
void nb_weights_free(struct nb_weights *w);
/*
 * Keras' initializers from a seed: Glorot uniform kernels, orthogonal
 * recurrent kernels, zero bias with the forget gate's set to one, BN at
 * gamma 1, beta 0, mean 0, variance 1.
 */
void nb_weights_init(struct nb_weights *w, uint64_t seed);

/* safetensors, float32. Both return 0, or -1 after printing why to stderr. */
int nb_safetensors_write(const char *path, struct nb_weights *w);
int nb_safetensors_read(const char *path, struct nb_weights *w);

/* NumPy .npy, float32, C order. */
struct nb_array {
	int rank;
	int64_t shape[8];
	size_t count;
	float *data;
};
/* Reads an array; 0, or -1 after printing why (naming path and field). */
int nb_npy_read(const char *path, struct nb_array *a);
/* Writes atomically (temporary file and rename); 0 or -1 after printing why. */
int nb_npy_write(const char *path, const struct nb_array *a);
void nb_array_free(struct nb_array *a);

/* The deterministic PRNG (xoshiro256**, seeded by splitmix64). */
struct nb_rng {
	uint64_t s[4];
};
void nb_rng_seed(struct nb_rng *r, uint64_t seed);
uint64_t nb_rng_next(struct nb_rng *r);
/* Uniform integer in [lo, hi). */
int nb_rng_int(struct nb_rng *r, int lo, int hi);
/* Uniform double in [0, 1). */
double nb_rng_uniform(struct nb_rng *r);
double nb_rng_normal(struct nb_rng *r);

/*
 * The Keras example's moving squares: movie (B, T, H, W, channels) and, when
 * next is not NULL, the clean next frames (B, T, H, W, channels). Canvas
 * 80x80, cropped to the centre; with channels 3 each square has a colour.
 * The standard crop is 40x40; other sizes crop the same canvas (size <= 80).
 * channels: 1..NB_MOVIE_MAX_CHANNELS.
 */
#define NB_MOVIE_MAX_CHANNELS 64
void nb_movie_generate(uint64_t seed, int batch, int frames, int height,
		       int width, int channels, float *movie, float *next);

/* Output size of a forward pass: mono (B,T,H,W,1), colour (B,H,W,out). */
size_t nb_output_count(const struct nb_model *m, int batch, int frames);
/*
 * Output size of ConvLSTM layer l (after its BatchNormalization), as the
 * layer returns it: (B,T,H,W,F), or (B,1,H,W,F) for a layer that returns
 * its final state only (the Conv2D model's last).
 */
size_t nb_layer_output_count(const struct nb_model *m, int l, int batch, int frames);
int nb_layer_output_frames(const struct nb_model *m, int l, int frames);

/* Naive reference, double-precision accumulation. */
void nb_ref_forward(const struct nb_weights *w, const float *in, int batch,
		    int frames, float *out);
/* The same, with layer l's output in layers[l] (nb_layer_output_count()). */
void nb_ref_forward_layers(const struct nb_weights *w, const float *in, int batch,
			   int frames, float *const *layers, float *out);
/* One cell step: z from x (B,H,W,Cin) and h, gates, new h and c (B,H,W,F). */
void nb_ref_cell(int batch, int height, int width, int cin, int filters,
		 const float *kernel, const float *rkernel, const float *bias,
		 const float *x, const float *h, const float *c,
		 float *h_out, float *c_out);

/*
 * The backend interface. A backend runs a model's forward pass, one ConvLSTM
 * cell step, an FMA peak loop and a memory triad; it knows nothing about
 * output formats or timing. Errors go into err.
 */
struct nb_backend_config {
	int device;		/* GPU backends: the runtime's device ordinal */
	int threads;		/* 0: all cores */
	const char *isa;	/* NULL: best available; "avx512", "avx2", "generic" */
};

struct nb_cell_desc {
	int batch, height, width, cin, filters;
	const float *kernel, *rkernel, *bias;	/* Keras layouts */
};

struct nb_backend_ops {
	const char *name;
	int (*open)(const struct nb_backend_config *cfg, void **ctx,
		    char *err, size_t errlen);
	void (*close)(void *ctx);
	/* "avx512, 2 threads" */
	const char *(*describe)(void *ctx);
	int (*threads)(void *ctx);

	/* Packs the weights once. */
	int (*model_load)(void *ctx, const struct nb_weights *w, void **prog,
			  char *err, size_t errlen);
	/* in (B,T,H,W,C) -> out (see nb_output_count). */
	int (*model_forward)(void *ctx, void *prog, const float *in, int batch,
			     int frames, float *out, char *err, size_t errlen);
	void (*model_free)(void *ctx, void *prog);

	/* One cell: set state, step (h, c <- cell(x, h, c)), read state. */
	int (*cell_load)(void *ctx, const struct nb_cell_desc *d, void **cell,
			 char *err, size_t errlen);
	void (*cell_set)(void *ctx, void *cell, const float *x, const float *h,
			 const float *c);
	void (*cell_step)(void *ctx, void *cell);
	void (*cell_get)(void *ctx, void *cell, float *h, float *c);
	void (*cell_free)(void *ctx, void *cell);

	/*
	 * FMA peak: every thread runs iters iterations of independent
	 * multiply-adds a = a * m + k; returns the FLOP count and one lane's
	 * final value (every lane computes the same chain) in *lane.
	 */
	double (*fma_peak)(void *ctx, long iters, float m, float k, float *lane);
	/* a[i] = b[i] + s * c[i] over n floats, all threads. */
	void (*triad)(void *ctx, float *a, const float *b, const float *c,
		      float s, size_t n);

	/*
	 * The device time, in seconds, of the last model_forward, cell_step,
	 * fma_peak or triad call: what a GPU backend measures with events on
	 * its stream around that call's kernels, so the copies between host
	 * and device that the host-memory interface needs (triad's arrays,
	 * the model's input and output) are not counted. NaN when not known.
	 * NULL for a backend that runs on the host (the CPU backend): the
	 * benchmark then times the call with the host clock.
	 */
	double (*device_seconds)(void *ctx);

	/*
	 * Optional (NULL: not offered; plugins of interface version 2 lack
	 * it): model_forward that also writes each ConvLSTM layer's output
	 * into layers[l] (nb_layer_output_count() floats), what a framework's
	 * forward hooks see, so that a wrong output can be traced to the
	 * first layer, frame and element that left the reference
	 * (nb_diverge_run()). Not timed.
	 */
	int (*model_forward_layers)(void *ctx, void *prog, const float *in,
				    int batch, int frames, float *const *layers,
				    float *out, char *err, size_t errlen);
};

extern const struct nb_backend_ops nb_cpu_backend;

/* ---- the benchmark: tests, timing, validation, score (bench.c) ---- */

enum nb_test_id {
	NB_TEST_MONO,
	NB_TEST_COLOR,
	NB_TEST_GATES,
	NB_TEST_PEAK,
	NB_TEST_BW,
	NB_TEST_TRAIN,		/* only on a backend with a training step (bench.c) */
	NB_TEST_COUNT,
};

struct nb_test_info {
	enum nb_test_id id;
	const char *name;
	const char *unit;		/* of the result */
	const char *model;		/* NULL when the test has none */
	int batch, frames;		/* standard configuration; 0: n/a */
	int quick_batch, quick_frames;	/* --quick's short form, not scored; 0: none */
	bool percent_of_peak;		/* the result as % of fp32-peak means something */
	const char *what;
};

const struct nb_test_info *nb_test_find(const char *name);
const struct nb_test_info *nb_test_get(enum nb_test_id id);
/* "convlstm-mono, convlstm-color, ..." */
const char *nb_test_names(void);
/*
 * Whether the backend runs the test (convlstm-train: only a backend with
 * a training step): a run without --tests runs every test it can.
 */
bool nb_test_available(const struct nb_backend_ops *ops, enum nb_test_id id);
/*
 * Whether the test counts in the composite score of a run on ops: every
 * test the backend runs, but for a test with a short --quick form (not
 * standard, no score) in a --quick run.
 */
bool nb_test_scored(const struct nb_backend_ops *ops, bool quick, enum nb_test_id id);

struct nb_run_config {
	int batch;		/* 0: the test's standard */
	int frames;		/* 0: the test's standard */
	bool quick;		/* shorter timing, for CI */
	uint64_t seed;		/* weights and data */
	const struct nb_weights *weights;	/* NULL: from seed */
	/* called while running, e.g. for a progress line; may be NULL */
	void (*progress)(void *arg, const char *test, const char *what);
	void *progress_arg;
};

/* The most timed repeats of one test. */
#define NB_MAX_REPEATS 1000
/* --quick's least repeats per test: enough for compare to judge (bench.c) */
#define NB_QUICK_MIN_REPEATS 6

struct nb_stats {
	int repeats;
	double median, min, max, mean, cv;	/* seconds per repeat */
	double times[NB_MAX_REPEATS];	/* every repeat, in the order run */
	/*
	 * CLOCK_MONOTONIC seconds at the start of the first timed repeat and
	 * the end of the last: the window the device's telemetry is read over
	 */
	double begin, end;
};

/*
 * Where a model's output went wrong: the backend's per-layer outputs
 * (model_forward_layers) against the reference's, layer by layer, frame by
 * frame, element by element, the first value beyond the tolerance.
 */
struct nb_divergence {
	bool ran;			/* the per-layer comparison ran */
	bool found;			/* a value beyond the tolerance */
	int layer;			/* ConvLSTM layer 0..layers-1; layers: the head */
	int item, frame;		/* batch item; frame (the head's: its output frame) */
	int y, x, channel;		/* the element in that frame (H, W, C) */
	double value, ref, tol;		/* tol: tol_abs + tol_rel |ref| */
	double max_before;		/* largest |d| over every earlier layer and frame */
	bool jump;			/* |d| > NB_DIVERGE_JUMP x max_before: one faulty step */
	int layers;			/* entries of layer_max below */
	double layer_max[NB_MAX_LAYERS + 1];	/* largest |d| per layer, the head last */
	char note[160];			/* !ran or !found: why */
};

/* A first divergence this many times the largest difference before it is a jump. */
#define NB_DIVERGE_JUMP 10.0

struct nb_validation {
	bool ran, pass;
	double max_abs, max_rel;	/* over the compared values */
	double tol_abs, tol_rel;	/* pass: |d| <= tol_abs + tol_rel |ref| */
	char input[320];		/* what was compared */
	const char *reason;		/* why this tolerance */
	struct nb_divergence where;	/* a model test that failed: where it went wrong */
};

struct nb_test_result {
	const struct nb_test_info *test;
	bool standard;			/* the standard configuration */
	bool quick_form;		/* --quick's short form (quick_batch, quick_frames) */
	int batch, frames;
	double value, best;		/* unit; from the median and min times */
	double work;			/* FLOPs or bytes per repeat */
	double rate_gflops;		/* NaN when not FLOP-based */
	double percent_of_peak;		/* NaN when not meaningful */
	struct nb_stats time;
	struct nb_validation valid;	/* the verdict: every check below */
	/*
	 * GPU backends: the last timed repeat's output against the CPU
	 * backend (ran false on the CPU backend, and for tests without a
	 * model); valid includes it.
	 */
	struct nb_validation timed;
	char error[256];		/* "" when the test ran */
};

/*
 * nb_bench_run() - run one test on a backend: warm-up, repeats sized to a
 * target duration, statistics, then validation against the reference.
 * peak_gflops (for percentages) may be NaN. Returns 0 when the test ran
 * (valid or not), -1 with r->error set when it could not run.
 */
int nb_bench_run(const struct nb_backend_ops *ops, void *ctx,
		 enum nb_test_id id, const struct nb_run_config *cfg,
		 double peak_gflops, struct nb_test_result *r);

/*
 * nb_diverge_find() - one item (batch 1): the backend's per-layer outputs
 * layers[l] and output out, for input in (frames frames), against the
 * reference's; fills d (the first value beyond tol_abs + tol_rel |ref|).
 */
void nb_diverge_find(const struct nb_weights *w, const float *in, int frames,
		     float *const *layers, const float *out, double tol_abs,
		     double tol_rel, struct nb_divergence *d);
/*
 * nb_diverge_run() - run prog on in (batch x frames) with its per-layer
 * outputs and locate, over items 0 and batch - 1, the first divergence
 * (the earliest layer, then frame). d->ran false, with d->note, when the
 * backend has no per-layer outputs or could not run.
 */
void nb_diverge_run(const struct nb_backend_ops *ops, void *ctx, void *prog,
		    const struct nb_weights *w, const float *in, int batch,
		    int frames, double tol_abs, double tol_rel,
		    struct nb_divergence *d);

/* One sentence for people: where, the values, jump or rounding; or why not. */
void nb_diverge_text(const struct nb_divergence *d, char *buf, size_t n);

/* The reference device's results (scores.c), for the score. */
struct nb_reference {
	const char *id;		/* "sha256:" + 16 hex digits of reference.json */
	const char *machine, *cpu, *date, *command, *build;
	double value[NB_TEST_COUNT];
};
extern const struct nb_reference nb_reference;

/* result / reference x 1000; NaN when there is no reference value */
double nb_test_score(const struct nb_test_result *r);
/*
 * Composite score of a run on ops: the geometric mean of the scores of the
 * tests nb_test_scored() names. NaN (with why) unless each of them ran, in
 * its standard configuration, and was valid.
 */
double nb_composite_score(const struct nb_backend_ops *ops, bool quick,
			  const struct nb_test_result *r, int n, const char **why);
/* How the composite of a run on ops is computed, naming its tests. */
const char *nb_score_method(const struct nb_backend_ops *ops, bool quick);

#endif /* NB_ENGINE_H */
