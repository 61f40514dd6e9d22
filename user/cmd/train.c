// SPDX-License-Identifier: MIT
/*
 * navibench train: train convlstm-mono to predict the next frame of a
 * movie, on the CPU: Keras' model.fit with binary cross-entropy and Adam
 * (engine/train.h), on the generated moving squares or a user's .npy
 * movies (B, T, 40, 40, 1). Frames 0..T-2 are the input and frames 1..T-1
 * the target. The last --holdout movies are not trained on: their loss
 * (BatchNormalization in inference mode, as Keras' validation) is measured
 * before training and after each epoch. After each epoch the weights go to
 * a safetensors file, atomically: an interrupted run leaves the last
 * complete epoch's. The same seed, movies and options give the same
 * weights on the same CPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "engine/engine.h"
#include "engine/train.h"
#include "optional.h"
#include "navibench.h"

struct movies {
	int n, frames;			/* movies; frames of each input (T - 1) */
	size_t frame;			/* values in one frame */
	float *in, *target;		/* (n, frames, H, W, 1) each */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Input and target from a movie array (n, T, H, W, 1); 0 or -1 on out of memory. */
static int split_frames(const struct nb_array *a, struct movies *mv)
{
	int t = (int)a->shape[1];

	mv->n = (int)a->shape[0];
	mv->frames = t - 1;
	mv->frame = (size_t)a->shape[2] * a->shape[3] * a->shape[4];
	mv->in = malloc((size_t)mv->n * mv->frames * mv->frame * sizeof(float));
	mv->target = malloc((size_t)mv->n * mv->frames * mv->frame * sizeof(float));
	if (!mv->in || !mv->target)
		return -1;
	for (int b = 0; b < mv->n; b++) {
		const float *src = a->data + (size_t)b * t * mv->frame;
		size_t len = (size_t)mv->frames * mv->frame;

		memcpy(mv->in + b * len, src, len * sizeof(float));
		memcpy(mv->target + b * len, src + mv->frame, len * sizeof(float));
	}
	return 0;
}

/* Keras' binary cross-entropy on probabilities, clipped to [1e-7, 1 - 1e-7]. */
static double bce(const float *p, const float *y, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		double q = p[i] < 1e-7 ? 1e-7 : p[i] > 1 - 1e-7 ? 1 - 1e-7 : p[i];

		sum -= y[i] * log(q) + (1 - y[i]) * log(1 - q);
	}
	return sum / (double)n;
}

/* The held-out movies' loss with weights w; NaN after saying why. */
static double holdout_loss(void *ctx, const struct nb_weights *w, const struct movies *mv,
			   int first, int n)
{
	size_t len = (size_t)n * mv->frames * mv->frame;
	float *out = malloc(len * sizeof(float));
	void *prog = NULL;
	char err[256];
	double loss = NAN;

	if (!out) {
		fprintf(stderr, "navibench train: out of memory\n");
		return NAN;
	}
	size_t off = (size_t)first * mv->frames * mv->frame;

	if (nb_cpu_backend.model_load(ctx, w, &prog, err, sizeof(err)) ||
	    nb_cpu_backend.model_forward(ctx, prog, mv->in + off, n, mv->frames, out,
					 err, sizeof(err)))
		fprintf(stderr, "navibench train: %s\n", err);
	else
		loss = bce(out, mv->target + off, len);
	if (prog)
		nb_cpu_backend.model_free(ctx, prog);
	free(out);
	return loss;
}

static void fmt_time(char *buf, size_t n, double s)
{
	long t = s > 0 && s < 1e8 ? (long)(s + 0.5) : 0;

	snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

struct run {
	void *ctx, *tr;
	struct nb_weights *w;
	const struct movies *mv;
	int ntrain, nhold, batch, epochs;
	long seed;
	const char *output;
	bool tty;
};

/* Every epoch: shuffled batches, the held-out loss, the checkpoint. */
static int train_epochs(struct run *r)
{
	const struct movies *mv = r->mv;
	size_t len = (size_t)mv->frames * mv->frame;
	int steps = r->ntrain / r->batch;
	float *bin = malloc((size_t)r->batch * len * sizeof(float));
	float *btg = malloc((size_t)r->batch * len * sizeof(float));
	int *order = malloc((size_t)r->ntrain * sizeof(int));
	struct nb_rng rng;
	char err[256], left[32];
	double t0 = now_s();
	int rc = NB_EXIT_FAIL;

	if (!bin || !btg || !order) {
		fprintf(stderr, "navibench train: out of memory\n");
		goto out;
	}
	nb_rng_seed(&rng, (uint64_t)r->seed ^ 0x7261696eULL);
	for (int i = 0; i < r->ntrain; i++)
		order[i] = i;
	double h0 = holdout_loss(r->ctx, r->w, mv, r->ntrain, r->nhold);

	if (isnan(h0))
		goto out;
	printf("epoch 0/%d held-out loss %.6f\n", r->epochs, h0);
	fflush(stdout);
	for (int e = 0; e < r->epochs; e++) {
		double sum = 0;

		for (int i = r->ntrain - 1; i > 0; i--) {	/* Fisher-Yates */
			int j = nb_rng_int(&rng, 0, i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (int s = 0; s < steps; s++) {
			double loss;

			for (int b = 0; b < r->batch; b++) {
				int k = order[s * r->batch + b];

				memcpy(bin + b * len, mv->in + k * len, len * sizeof(float));
				memcpy(btg + b * len, mv->target + k * len, len * sizeof(float));
			}
			if (nb_cpu_train.step(r->ctx, r->tr, bin, btg, &loss, err, sizeof(err))) {
				fprintf(stderr, "navibench train: %s\n", err);
				goto out;
			}
			sum += loss;
			if (r->tty) {
				int done = e * steps + s + 1, all = r->epochs * steps;
				double el = now_s() - t0;

				fmt_time(left, sizeof(left), el / done * (all - done));
				fprintf(stderr, "\repoch %d/%d batch %d/%d loss %.6f left %s ",
					e + 1, r->epochs, s + 1, steps, sum / (s + 1), left);
			}
		}
		nb_cpu_train.read(r->ctx, r->tr, r->w, NULL);
		double h = holdout_loss(r->ctx, r->w, mv, r->ntrain, r->nhold);

		if (isnan(h))
			goto out;
		if (nb_safetensors_write(r->output, r->w))
			goto out;
		fmt_time(left, sizeof(left), (now_s() - t0) / (e + 1) * (r->epochs - e - 1));
		if (r->tty)
			fprintf(stderr, "\r\033[K");
		printf("epoch %d/%d loss %.6f held-out loss %.6f left %s\n",
		       e + 1, r->epochs, sum / steps, h, left);
		fflush(stdout);
	}
	rc = NB_EXIT_OK;
out:
	free(bin);
	free(btg);
	free(order);
	return rc;
}

/* What the command line asks for. */
struct train_args {
	const char *model, *input, *output;
	long seed, threads, epochs, batch, holdout, movies, frames, layers, filters;
};

/* The movies into a: read from t->input, or generated. An exit status. */
static int load_movies(const struct train_args *t, const struct nb_model *m, struct nb_array *a)
{
	float *next;

	if (t->input) {
		if (nb_npy_read(t->input, a))
			return NB_EXIT_USAGE;
		if (a->rank != 5 || a->shape[1] < 2 || a->shape[2] != m->height ||
		    a->shape[3] != m->width || a->shape[4] != m->channels) {
			nb_array_free(a);
			return cli_usage_error("train", "%s: expected movies of shape (B, T, %d, %d, %d) with T >= 2",
					       t->input, m->height, m->width, m->channels);
		}
		return 0;
	}
	a->rank = 5;
	a->shape[0] = t->movies;
	a->shape[1] = t->frames;
	a->shape[2] = m->height;
	a->shape[3] = m->width;
	a->shape[4] = m->channels;
	a->count = (size_t)t->movies * t->frames * m->height * m->width * m->channels;
	a->data = malloc(a->count * sizeof(float));
	next = malloc(a->count * sizeof(float));
	if (!a->data || !next) {
		free(next);
		nb_array_free(a);
		fprintf(stderr, "navibench train: out of memory\n");
		return NB_EXIT_FAIL;
	}
	nb_movie_generate((uint64_t)t->seed, (int)t->movies, (int)t->frames, m->height,
			  m->width, m->channels, a->data, next);
	free(next);
	return 0;
}

/* Model m trained on the movies of a as t says: an exit status. */
static int train_model(const struct train_args *t, const struct nb_model *m, struct nb_array *a)
{
	struct nb_backend_config cfg = { .device = -1, .threads = (int)t->threads };
	struct movies mv = { 0 };
	struct nb_weights *w;
	struct run r = { 0 };
	char err[256];
	int rc;

	w = nb_weights_alloc(m);
	if (!w || split_frames(a, &mv)) {
		fprintf(stderr, "navibench train: out of memory\n");
		rc = NB_EXIT_FAIL;
		goto out;
	}
	nb_weights_init(w, (uint64_t)t->seed);
	if (nb_cpu_backend.open(&cfg, &r.ctx, err, sizeof(err)) ||
	    nb_cpu_train.load(r.ctx, w, (int)t->batch, mv.frames, &r.tr, err, sizeof(err))) {
		fprintf(stderr, "navibench train: %s\n", err);
		rc = NB_EXIT_FAIL;
		goto out;
	}
	r.w = w;
	r.mv = &mv;
	r.ntrain = mv.n - (int)t->holdout;
	r.nhold = (int)t->holdout;
	r.batch = (int)t->batch;
	r.epochs = (int)t->epochs;
	r.seed = t->seed;
	r.output = t->output;
	r.tty = isatty(STDERR_FILENO);
	rc = train_epochs(&r);
out:
	if (r.tr)
		nb_cpu_train.free(r.ctx, r.tr);
	if (r.ctx)
		nb_cpu_backend.close(r.ctx);
	nb_weights_free(w);
	free(mv.in);
	free(mv.target);
	return rc;
}

static int cmd_train(int argc, char **argv)
{
	struct train_args t = { .model = "convlstm-mono", .seed = 1, .epochs = 1, .batch = 4,
				.holdout = 4, .movies = 64, .frames = 20 };
	const struct cli_option opts[] = {
		CLI_STRING_OPT("model", 'm', &t.model, "MODEL",
			       "the model to train: convlstm-mono (the default)"),
		CLI_INFILE_OPT("input", 'i', &t.input, "FILE",
			       "the movies, .npy float32 (B, T, 40, 40, 1), T >= 2 "
			       "(default: generated moving squares)"),
		CLI_INT_OPT("movies", 0, &t.movies, "N", 2, 100000,
			    "generated movies, held-out ones included (default 64)"),
		CLI_INT_OPT("frames", 0, &t.frames, "N", 2, 4096,
			    "frames of each generated movie (default 20)"),
		CLI_OUTFILE_OPT("output", 'o', &t.output, "FILE",
				"the checkpoint, safetensors, rewritten after each epoch (required)"),
		CLI_INT_OPT("epochs", 'e', &t.epochs, "N", 1, 100000, "passes over the training movies (default 1)"),
		CLI_INT_OPT("batch", 'b', &t.batch, "N", 1, 4096, "movies per step (default 4)"),
		CLI_INT_OPT("holdout", 0, &t.holdout, "N", 1, 100000,
			    "the last N movies are held out of training (default 4)"),
		CLI_INT_OPT("seed", 's', &t.seed, "N", 0, 2147483647,
			    "seed for the initial weights, the generated movies and the order (default 1)"),
		CLI_INT_OPT("layers", 0, &t.layers, "N", 1, NB_MAX_LAYERS,
			    "ConvLSTM layers (default: the model's, 4); predict needs the same"),
		CLI_INT_OPT("filters", 0, &t.filters, "N", 1, 1024,
			    "filters of every layer (default: the model's, 40); predict needs the same"),
		CLI_INT_OPT("threads", 0, &t.threads, "N", 0, 256, "CPU threads (default 0: all cores)"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = nb_cmd_train.name,
		.summary = nb_cmd_train.summary,
		.options = opts,
		.epilog = "Prints the held-out loss before training and after each epoch; on a terminal,\n"
			  "a progress line with the mean training loss and the time left.",
	};
	struct cli_common common;
	struct nb_array a = { 0 };
	int rc = cli_parse(&spec, argc, argv, &common);

	if (rc != CLI_CONTINUE)
		return rc;
	if (common.nargs > 0)
		return cli_usage_error("train", "unexpected argument '%s'", common.args[0]);
	if (!t.output)
		return cli_usage_error("train", "--output FILE is required");
	if (!nb_lib_have(NB_LIB_JSON_C))
		return nb_lib_off("train", "--output", NB_LIB_JSON_C);
	const struct cli_file ins[] = { { "--input", t.input } };
	const struct cli_file outs[] = { { "--output", t.output } };

	rc = cli_check_outputs("train", ins, 1, outs, 1);
	if (rc)
		return rc;
	const struct nb_model *known = nb_model_find(t.model);

	if (!known)
		return cli_usage_error("train", "--model: unknown model '%s'; the models are %s",
				       t.model, nb_model_names());
	struct nb_model shape = nb_model_resized(known, (int)t.layers, (int)t.filters);

	if (shape.head != NB_HEAD_CONV3D)
		return cli_usage_error("train", "--model %s: only convlstm-mono can be trained", t.model);
	rc = load_movies(&t, &shape, &a);
	if (rc)
		return rc;
	if (t.holdout >= a.shape[0] || a.shape[0] - t.holdout < t.batch)
		rc = cli_usage_error("train", "%lld movies: --holdout %ld leaves fewer than --batch %ld to train on",
				     (long long)a.shape[0], t.holdout, t.batch);
	else
		rc = train_model(&t, &shape, &a);
	nb_array_free(&a);
	return rc;
}

const struct nb_command nb_cmd_train = {
	.name = "train",
	.summary = "train convlstm-mono to predict the next frame, on the CPU",
	.run = cmd_train,
};
