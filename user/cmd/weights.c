// SPDX-License-Identifier: MIT
/*
 * navibench weights: write a model's deterministic weights (Keras'
 * initializers from a seed) to a safetensors file, atomically.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine/engine.h"
#include "navibench.h"

static int cmd_weights(int argc, char **argv)
{
	const char *model = NULL, *output = NULL;
	long seed = 1;
	const struct cli_option opts[] = {
		CLI_STRING_OPT("model", 'm', &model, "MODEL",
			       "convlstm-mono or convlstm-color (required)"),
		CLI_INT_OPT("seed", 's', &seed, "N", 0, 2147483647,
			    "seed for the initializers (default 1, as navibench run uses)"),
		CLI_OUTFILE_OPT("output", 'o', &output, "FILE",
			       "the safetensors file to write (required)"),
		CLI_OPT_END
	};
	const struct cli_spec spec = {
		.name = nb_cmd_weights.name,
		.summary = nb_cmd_weights.summary,
		.description =
			"Glorot uniform kernels, orthogonal recurrent kernels, unit forget\n"
			"bias, BatchNormalization at its initial values; tensor names and\n"
			"layouts as Keras (channels last), float32.",
		.options = opts,
	};
	struct cli_common common;
	int rc = cli_parse(&spec, argc, argv, &common);

	if (rc != CLI_CONTINUE)
		return rc;
	if (common.nargs > 0)
		return cli_usage_error("weights", "unexpected argument '%s'", common.args[0]);
	if (!model)
		return cli_usage_error("weights", "--model is required (%s)", nb_model_names());
	if (!output)
		return cli_usage_error("weights", "--output FILE is required");
	const struct nb_model *m = nb_model_find(model);
	if (!m)
		return cli_usage_error("weights", "--model: unknown model '%s'; the models are %s",
				       model, nb_model_names());
	struct nb_weights *w = nb_weights_alloc(m);
	if (!w) {
		fprintf(stderr, "navibench weights: out of memory\n");
		return NB_EXIT_FAIL;
	}
	nb_weights_init(w, (uint64_t)seed);
	rc = nb_safetensors_write(output, w) ? NB_EXIT_FAIL : NB_EXIT_OK;
	nb_weights_free(w);
	return rc;
}

const struct nb_command nb_cmd_weights = {
	.name = "weights",
	.summary = "write a model's weights to a safetensors file",
	.run = cmd_weights,
};
