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
#include "navibench.h"
#include "plugin.h"

int cmd_predict(int argc, char **argv)
{
	const char *model = NULL, *weights = NULL, *input = NULL, *output = NULL;
	long seed = 1, threads = 0;
	const struct cli_option opts[] = {
		CLI_STRING_OPT("model", 'm', &model, "MODEL",
			       "convlstm-mono or convlstm-color (required)"),
		CLI_STRING_OPT("weights", 'w', &weights, "FILE",
			       "trained weights, safetensors (default: from the seed)"),
		CLI_INT_OPT("seed", 's', &seed, "N", 0, 2147483647,
			    "seed for the weights when --weights is not given (default 1)"),
		CLI_STRING_OPT("input", 'i', &input, "FILE",
			       "the movie, .npy float32 (B, T, H, W, C) (required)"),
		CLI_STRING_OPT("output", 'o', &output, "FILE",
			       "the predictions, .npy float32 (required)"),
		CLI_INT_OPT("threads", 0, &threads, "N", 0, 256,
			    "CPU threads (default 0: all cores)"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = "predict",
		.summary = "predict next frames of a movie with a ConvLSTM model",
		.common = CLI_DEVICE,
		.options = opts,
		.epilog = "convlstm-mono: 40x40x1 frames in, (B, T, 40, 40, 1) out (frame t+1 from frames <= t);\n"
			  "convlstm-color: 64x64x3 frames in, (B, 64, 64, 3) out (the frame after the last).",
	};
	struct cli_common common;
	struct nb_array in = { 0 }, out = { 0 };
	const struct nb_backend_ops *ops = &nb_cpu_backend;
	struct nb_device dev;
	struct nb_weights *w = NULL;
	void *ctx = NULL, *prog = NULL;
	char err[256];
	int rc = cli_parse(&spec, argc, argv, &common);

	if (rc != CLI_CONTINUE)
		return rc;
	if (common.nargs > 0)
		return cli_usage_error("predict", "unexpected argument '%s'", common.args[0]);
	if (!model || !input || !output)
		return cli_usage_error("predict", "--model, --input and --output are required");
	const struct nb_model *m = nb_model_find(model);
	if (!m)
		return cli_usage_error("predict", "--model: unknown model '%s'; the models are %s",
				       model, nb_model_names());
	rc = nb_device_select(common.device, &dev);
	if (rc)
		return rc;
	if (dev.plugin >= 0)
		ops = nb_plugins_get(dev.plugin)->p->ops;
	else if (dev.kind != NB_DEV_CPU)
		fprintf(stderr, "navibench predict: device %d (%s): no GPU backend (%s): running on the CPU\n",
			dev.index, dev.name, nb_plugins_notice()[0] ? nb_plugins_notice() :
			"no GPU plugin reports this device");
	w = nb_weights_alloc(m);
	if (!w) {
		fprintf(stderr, "navibench predict: out of memory\n");
		return NB_EXIT_FAIL;
	}
	if (weights) {
		if (nb_safetensors_read(weights, w)) {
			rc = NB_EXIT_USAGE;
			goto out;
		}
	} else {
		nb_weights_init(w, (uint64_t)seed);
	}
	if (nb_npy_read(input, &in)) {
		rc = NB_EXIT_USAGE;
		goto out;
	}
	if (in.rank != 5 || in.shape[0] < 1 || in.shape[1] < 1 ||
	    in.shape[2] != m->height || in.shape[3] != m->width ||
	    in.shape[4] != m->channels || in.shape[0] > 4096 || in.shape[1] > 4096) {
		char got[128] = "(";
		size_t o = 1;

		for (int i = 0; i < in.rank && o < sizeof(got); i++)
			o += snprintf(got + o, sizeof(got) - o, "%s%lld", i ? ", " : "",
				      (long long)in.shape[i]);
		if (o < sizeof(got))
			snprintf(got + o, sizeof(got) - o, ")");
		fprintf(stderr,
			"navibench: %s: field shape: %s, expected (B, T, %d, %d, %d) for %s (B, T from 1 to 4096)\n",
			input, got, m->height, m->width, m->channels, m->name);
		rc = NB_EXIT_USAGE;
		goto out;
	}
	int batch = (int)in.shape[0], frames = (int)in.shape[1];
	out.count = nb_output_count(m, batch, frames);
	out.data = malloc(out.count * sizeof(float));
	if (!out.data) {
		fprintf(stderr, "navibench predict: out of memory\n");
		rc = NB_EXIT_FAIL;
		goto out;
	}
	if (m->head == NB_HEAD_CONV3D) {
		int64_t s[5] = { batch, frames, m->height, m->width, m->head_out };

		out.rank = 5;
		memcpy(out.shape, s, sizeof(s));
	} else {
		int64_t s[4] = { batch, m->height, m->width, m->head_out };

		out.rank = 4;
		memcpy(out.shape, s, sizeof(s));
	}
	struct nb_backend_config cfg = { .device = dev.hip_ordinal, .threads = (int)threads };
	if (ops->open(&cfg, &ctx, err, sizeof(err)) ||
	    ops->model_load(ctx, w, &prog, err, sizeof(err)) ||
	    ops->model_forward(ctx, prog, in.data, batch, frames, out.data, err, sizeof(err))) {
		fprintf(stderr, "navibench predict: %s\n", err);
		rc = NB_EXIT_FAIL;
		goto out;
	}
	rc = nb_npy_write(output, &out) ? NB_EXIT_FAIL : NB_EXIT_OK;
out:
	if (prog)
		ops->model_free(ctx, prog);
	if (ctx)
		ops->close(ctx);
	nb_weights_free(w);
	nb_array_free(&in);
	nb_array_free(&out);
	return rc;
}
