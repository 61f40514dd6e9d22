// SPDX-License-Identifier: MIT
/*
 * nb_safetensors_read() (user/engine/safetensors.c) on any file, for two
 * models: a small one (one layer of 2 filters on 4x4x1 frames, so that a
 * valid file is a few hundred bytes) and convlstm-mono (what
 * `navibench weights` writes). Checked beyond crashes: a rejected file is
 * reported on stderr naming the file; an accepted one says nothing.
 *
 * NB_FUZZ_WRITE_SEED=FILE: write the small model's weights (seed 1) with
 * nb_safetensors_write() to FILE and exit (tests/fuzz/mkcorpus).
 */
#include "fuzz.h"

#include "engine/engine.h"

static const struct nb_model small_model = {
	.name = "fuzz-small",
	.height = 4, .width = 4, .channels = 1,
	.layers = 1, .filters = { 2 },
	.head = NB_HEAD_CONV3D, .head_out = 1,
};

static struct nb_weights *w_small, *w_mono;
static struct fuzz_file in;
static struct fuzz_capture cap;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seed = getenv("NB_FUZZ_WRITE_SEED");

	(void)argc;
	(void)argv;
	w_small = nb_weights_alloc(&small_model);
	w_mono = nb_weights_alloc(nb_model_find("convlstm-mono"));
	if (!w_small || !w_mono)
		abort();
	if (seed) {
		nb_weights_init(w_small, 1);
		exit(nb_safetensors_write(seed, w_small) ? 1 : 0);
	}
	fuzz_file_init(&in, "safetensors");
	fuzz_capture_init(&cap);
	return 0;
}

static void read_as(struct nb_weights *w)
{
	int rc;
	const char *err;

	fuzz_capture_begin(&cap);
	rc = nb_safetensors_read(in.path, w);
	err = fuzz_capture_end(&cap);
	if (rc) {
		FUZZ_CHECK(rc == -1, "returned %d", rc);
		FUZZ_CHECK(!strncmp(err, "navibench: ", 11) && strstr(err, in.path),
			   "rejected without naming the file: '%s'", err);
		FUZZ_CHECK(cap.len && err[cap.len - 1] == '\n', "message not a line: '%s'", err);
	} else {
		FUZZ_CHECK(!cap.len, "accepted, yet printed '%s'", err);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_set(&in, data, size);
	read_as(w_small);
	read_as(w_mono);
	return 0;
}
