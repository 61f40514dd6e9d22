// SPDX-License-Identifier: MIT
/*
 * navibench predict: next-frame prediction on a movie (.npy, float32,
 * (B, T, H, W, C)) with a model's weights from a safetensors file, or from
 * a seed. The output is written atomically: (B, T, H, W, 1) for
 * convlstm-mono, (B, H, W, 3) for convlstm-color. On a device with a GPU
 * plugin the plugin's backend runs it; on any other the CPU backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/engine.h"
#include "optional.h"
#include "navibench.h"
#include "print/picture.h"
#include "devices/plugin.h"

/* The picture: at most this many movies and frames, the first ones. */
#define PNG_MOVIES 4
#define PNG_FRAMES 20
#define PNG_GAP 4		/* between frames */
#define PNG_MOVIE_GAP 20	/* between movies */
#define PNG_TEXT 2		/* the labels' font scale: 14 pixels high */

/* One row of the picture: a label, and the frame in each column (or none). */
struct png_row {
	const char *label;
	const float *frame[PNG_FRAMES + 1];
};

/*
 * The rows of one movie. convlstm-mono predicts frame t + 1 from the
 * frames up to t, so the truth is the input's next frame (unknown after
 * the last); convlstm-color predicts the frame after the last, which the
 * input does not hold: columns are its last frames and the prediction.
 */
static int png_rows(const struct nb_model *m, const struct nb_array *in,
		    const struct nb_array *out, int b, int ncols, struct png_row *rows)
{
	size_t frame = (size_t)m->height * m->width * m->channels;
	int t = (int)in->shape[1];
	const float *x = in->data + (size_t)b * t * frame;

	memset(rows, 0, 3 * sizeof(*rows));
	if (m->head == NB_HEAD_CONV3D) {
		size_t oframe = (size_t)m->height * m->width * m->head_out;

		rows[0].label = "input t";
		rows[1].label = "truth t+1";
		rows[2].label = "predicted t+1";
		for (int c = 0; c < ncols; c++) {
			rows[0].frame[c] = x + c * frame;
			rows[1].frame[c] = c + 1 < t ? x + (c + 1) * frame : NULL;
			rows[2].frame[c] = out->data + ((size_t)b * t + c) * oframe;
		}
		return 3;
	}
	rows[0].label = "input";
	rows[1].label = "predicted";
	for (int c = 0; c < ncols - 1; c++)
		rows[0].frame[c] = x + (size_t)(t - (ncols - 1) + c) * frame;
	rows[1].frame[ncols - 1] = out->data + (size_t)b * frame;
	return 2;
}

/* The figure of the Keras conv_lstm example: movies in rows, frames in columns. */
static int draw_png(const char *path, const struct nb_model *m,
		    const struct nb_array *in, const struct nb_array *out)
{
	int t = (int)in->shape[1], movies = (int)in->shape[0];
	bool mono = m->head == NB_HEAD_CONV3D;
	int ncols = mono ? (t < PNG_FRAMES ? t : PNG_FRAMES)
			 : (t < PNG_FRAMES ? t : PNG_FRAMES) + 1;
	int first = mono ? 0 : t - (ncols - 1);	/* the first column's frame */
	int scale = m->height < 128 ? 128 / m->height : 1;
	int cell = m->height * scale, cellw = m->width * scale;
	int nrows = mono ? 3 : 2, text_h = 7 * PNG_TEXT;
	int left = nb_text_width("predicted t+1", PNG_TEXT) + 16, top = text_h + 12;
	struct png_row rows[3];
	char num[16];
	int rc;

	if (movies > PNG_MOVIES)
		movies = PNG_MOVIES;
	struct nb_canvas *c = nb_canvas_new(left + ncols * (cellw + PNG_GAP) + 8,
					    top + movies * (nrows * (cell + PNG_GAP) + PNG_MOVIE_GAP));
	if (!c) {
		fprintf(stderr, "navibench predict: out of memory for the picture\n");
		return -1;
	}
	for (int col = 0; col < ncols; col++) {
		snprintf(num, sizeof(num), "%d", first + col);
		nb_canvas_text(c, left + col * (cellw + PNG_GAP) +
			       (cellw - nb_text_width(num, PNG_TEXT)) / 2, 6, num, PNG_TEXT);
	}
	for (int b = 0; b < movies; b++) {
		int y0 = top + b * (nrows * (cell + PNG_GAP) + PNG_MOVIE_GAP);

		png_rows(m, in, out, b, ncols, rows);
		for (int r = 0; r < nrows; r++) {
			int y = y0 + r * (cell + PNG_GAP);

			nb_canvas_text(c, 8, y + (cell - text_h) / 2, rows[r].label, PNG_TEXT);
			for (int col = 0; col < ncols; col++) {
				int x = left + col * (cellw + PNG_GAP);

				if (rows[r].frame[col])
					nb_canvas_frame(c, x, y, rows[r].frame[col], m->height,
							m->width, mono && r == 2 ? m->head_out :
							m->channels, scale);
				else if (mono)	/* no truth after the last frame */
					nb_canvas_fill(c, x, y, cellw, cell, 0xd0, 0xd0, 0xd0);
			}
		}
	}
	rc = nb_canvas_write_png(c, path);
	nb_canvas_free(c);
	return rc;
}

/* The movie's shape: (B, T, H, W, C) of the model's frames; 0, or -1 after saying why. */
static int check_shape(const struct nb_model *m, const struct nb_array *in, const char *input)
{
	char got[128] = "(";
	size_t o = 1;

	if (in->rank == 5 && in->shape[0] >= 1 && in->shape[1] >= 1 &&
	    in->shape[2] == m->height && in->shape[3] == m->width &&
	    in->shape[4] == m->channels && in->shape[0] <= 4096 && in->shape[1] <= 4096)
		return 0;
	for (int i = 0; i < in->rank && o < sizeof(got); i++)
		o += snprintf(got + o, sizeof(got) - o, "%s%lld", i ? ", " : "",
			      (long long)in->shape[i]);
	if (o < sizeof(got))
		snprintf(got + o, sizeof(got) - o, ")");
	fprintf(stderr,
		"navibench: %s: field shape: %s, expected (B, T, %d, %d, %d) for %s (B, T from 1 to 4096)\n",
		input, got, m->height, m->width, m->channels, m->name);
	return -1;
}

/* (B, T, H, W, 1) for convlstm-mono, (B, H, W, 3) for convlstm-color. */
static void out_shape(const struct nb_model *m, int batch, int frames, struct nb_array *out)
{
	if (m->head == NB_HEAD_CONV3D) {
		int64_t s[5] = { batch, frames, m->height, m->width, m->head_out };

		out->rank = 5;
		memcpy(out->shape, s, sizeof(s));
	} else {
		int64_t s[4] = { batch, m->height, m->width, m->head_out };

		out->rank = 4;
		memcpy(out->shape, s, sizeof(s));
	}
}

/* The device's backend: its GPU plugin's, else the CPU's (said for a GPU). */
static const struct nb_backend_ops *predict_backend(const struct nb_device *dev)
{
	if (dev->plugin >= 0)
		return nb_plugins_get(dev->plugin)->p->ops;
	if (dev->kind != NB_DEV_CPU)
		fprintf(stderr, "navibench predict: device %d (%s): no GPU backend (%s): running on the CPU\n",
			dev->index, dev->name, nb_plugins_notice()[0] ? nb_plugins_notice() :
			"no GPU plugin reports this device");
	return &nb_cpu_backend;
}

/* The weights, from FILE or the seed; NULL after saying why (*rc set). */
static struct nb_weights *predict_weights(const struct nb_model *m, const char *file,
					  long seed, int *rc)
{
	struct nb_weights *w = nb_weights_alloc(m);

	if (!w) {
		fprintf(stderr, "navibench predict: out of memory\n");
		*rc = NB_EXIT_FAIL;
		return NULL;
	}
	if (!file) {
		nb_weights_init(w, (uint64_t)seed);
		return w;
	}
	if (nb_safetensors_read(file, w)) {
		nb_weights_free(w);
		*rc = NB_EXIT_USAGE;
		return NULL;
	}
	return w;
}

/* in -> out on the backend; 0, or -1 after saying why. */
static int predict_forward(const struct nb_backend_ops *ops, const struct nb_device *dev,
			   long threads, const struct nb_weights *w, const struct nb_array *in,
			   struct nb_array *out)
{
	struct nb_backend_config cfg = { .device = dev->hip_ordinal, .threads = (int)threads };
	void *ctx = NULL, *prog = NULL;
	char err[256];
	int rc = 0;

	if (ops->open(&cfg, &ctx, err, sizeof(err)) ||
	    ops->model_load(ctx, w, &prog, err, sizeof(err)) ||
	    ops->model_forward(ctx, prog, in->data, (int)in->shape[0], (int)in->shape[1],
			       out->data, err, sizeof(err))) {
		fprintf(stderr, "navibench predict: %s\n", err);
		rc = -1;
	}
	if (prog)
		ops->model_free(ctx, prog);
	if (ctx)
		ops->close(ctx);
	return rc;
}

/* What the command line asks for. */
struct predict_args {
	const char *model, *weights, *input, *output, *png;
	long seed, threads;
};

/* The prediction of a, on dev with model m: an exit status. */
static int predict_run(const struct predict_args *a, const struct nb_model *m,
		       const struct nb_device *dev)
{
	const struct nb_backend_ops *ops = predict_backend(dev);
	struct nb_array in = { 0 }, out = { 0 };
	struct nb_weights *w;
	int rc = 0;

	w = predict_weights(m, a->weights, a->seed, &rc);
	if (!w)
		return rc;
	if (nb_npy_read(a->input, &in) || check_shape(m, &in, a->input)) {
		rc = NB_EXIT_USAGE;
		goto out;
	}
	out.count = nb_output_count(m, (int)in.shape[0], (int)in.shape[1]);
	out.data = malloc(out.count * sizeof(float));
	if (!out.data) {
		fprintf(stderr, "navibench predict: out of memory\n");
		rc = NB_EXIT_FAIL;
		goto out;
	}
	out_shape(m, (int)in.shape[0], (int)in.shape[1], &out);
	if (predict_forward(ops, dev, a->threads, w, &in, &out)) {
		rc = NB_EXIT_FAIL;
		goto out;
	}
	rc = nb_npy_write(a->output, &out) ? NB_EXIT_FAIL : NB_EXIT_OK;
	if (!rc && a->png && draw_png(a->png, m, &in, &out))
		rc = NB_EXIT_FAIL;
out:
	nb_weights_free(w);
	nb_array_free(&in);
	nb_array_free(&out);
	return rc;
}

static int cmd_predict(int argc, char **argv)
{
	struct predict_args a = { .seed = 1 };
	const struct cli_option opts[] = {
		CLI_STRING_OPT("model", 'm', &a.model, "MODEL",
			       "convlstm-mono or convlstm-color (required)"),
		CLI_INFILE_OPT("weights", 'w', &a.weights, "FILE",
			       "trained weights, safetensors (default: from the seed)"),
		CLI_INT_OPT("seed", 's', &a.seed, "N", 0, 2147483647,
			    "seed for the weights when --weights is not given (default 1)"),
		CLI_INFILE_OPT("input", 'i', &a.input, "FILE",
			       "the movie, .npy float32 (B, T, H, W, C) (required)"),
		CLI_OUTFILE_OPT("output", 'o', &a.output, "FILE",
			       "the predictions, .npy float32 (required)"),
		CLI_OUTFILE_OPT("png", 0, &a.png, "FILE",
			       "also draw the input frames, the ground truth where known and the predictions (PNG)"),
		CLI_INT_OPT("threads", 0, &a.threads, "N", 0, 256,
			    "CPU threads (default 0: all cores)"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = nb_cmd_predict.name,
		.summary = nb_cmd_predict.summary,
		.common = CLI_DEVICE,
		.options = opts,
		.epilog = "convlstm-mono: 40x40x1 frames in, (B, T, 40, 40, 1) out (frame t+1 from frames <= t);\n"
			  "convlstm-color: 64x64x3 frames in, (B, 64, 64, 3) out (the frame after the last).\n"
			  "--png: the first 4 movies, the first 20 frames (convlstm-mono: rows input t,\n"
			  "truth t+1 and predicted t+1) or the last 20 and the prediction (convlstm-color).",
	};
	struct cli_common common;
	struct nb_device dev;
	int rc = cli_parse(&spec, argc, argv, &common);

	if (rc != CLI_CONTINUE)
		return rc;
	if (common.nargs > 0)
		return cli_usage_error("predict", "unexpected argument '%s'", common.args[0]);
	if (!a.model || !a.input || !a.output)
		return cli_usage_error("predict", "--model, --input and --output are required");
	if (a.png && !nb_lib_have(NB_LIB_LIBPNG))
		return nb_lib_off("predict", "--png", NB_LIB_LIBPNG);
	if (a.weights && !nb_lib_have(NB_LIB_JSON_C))
		return nb_lib_off("predict", "--weights", NB_LIB_JSON_C);
	const struct cli_file ins[] = { { "--input", a.input }, { "--weights", a.weights } };
	const struct cli_file outs[] = { { "--output", a.output }, { "--png", a.png } };

	rc = cli_check_outputs("predict", ins, 2, outs, 2);
	if (rc)
		return rc;
	const struct nb_model *m = nb_model_find(a.model);
	if (!m)
		return cli_usage_error("predict", "--model: unknown model '%s'; the models are %s",
				       a.model, nb_model_names());
	rc = nb_device_select("predict", common.device, &dev);
	if (rc)
		return rc;
	return predict_run(&a, m, &dev);
}

const struct nb_command nb_cmd_predict = {
	.name = "predict",
	.summary = "predict next frames of a movie with a ConvLSTM model",
	.run = cmd_predict,
};
