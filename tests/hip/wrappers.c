// SPDX-License-Identifier: MIT
/*
 * The launch wrappers' failure paths (hip/nbk.cpp), linked with the fat
 * object and the HIP runtime, on a machine without an AMD GPU: a launch
 * and a runtime call each fail with file, line, what failed and the
 * runtime's error string in nbk_error(); a bad shape is refused before any
 * launch. Where a GPU is present the launches would run, so those checks
 * are skipped. TAP lines on stdout.
 */
#include <stdio.h>
#include <string.h>

#include <hip/hip_runtime_api.h>

#include "nbk.h"
#include "../tap.h"

/* a check, with the wrappers' last error */
static void check(int pass, const char *what)
{
	tap(pass, "%s", what);
	if (!pass || *nbk_error())
		printf("# nbk_error(): %s\n", nbk_error());
}

static int has(const char *s)
{
	return strstr(nbk_error(), s) != NULL;
}

static int noop(void *arg)
{
	(void)arg;
	return 0;
}

int main(void)
{
	int count = 0;
	hipError_t e = hipGetDeviceCount(&count);
	float ms, *p = (float *)64;	/* never dereferenced: no device */

	check(nbk_conv2d_head(NULL, 1, 4, 4, 8, 65, p, p, p, p) == -1 &&
	    has("nbk.cpp:") && has("65 outputs") && has("<= 64"),
	    "a Conv2D head of 65 outputs is refused, naming the limit");
	struct nbk_step st = { .batch = 0, .height = 4, .width = 4, .cin = 1,
			       .filters = 1 };
	check(nbk_convlstm_step(NULL, &st) == -1 && has("batch 1..65535"),
	    "a step of batch 0 is refused");
	struct nbk_conv cv = { .batch = 1, .frames = 1, .height = 4, .width = 4,
			       .cin = 0, .cout = 4 };
	check(nbk_conv_bwd_k(NULL, &cv) == -1 && has("nbk_conv_bwd_k: ") &&
	    has("expected sizes >= 1"),
	    "a training convolution of 0 input channels is refused");
	check(nbk_loss(NULL, 1, 0, p, p, p, p, p) == -1 && has("no values"),
	    "a loss of no values is refused");
	if (e == hipSuccess && count > 0) {
		char why[48];

		snprintf(why, sizeof(why), "%d HIP devices present", count);
		tap_skip(why, "launches fail without a device");
		tap_skip(why, "training launches fail without a device");
		tap_skip(why, "runtime calls fail without a device");
		return tap_done(NULL);
	}
	printf("# hipGetDeviceCount: error %d (%s)\n", (int)e, hipGetErrorString(e));
	check(nbk_triad(NULL, p, p, p, 2, 100) == -1 && has("nbk.cpp:") &&
	    has("launch of nbk_triad_kernel: error "),
	    "a launch without a device fails: file, line, kernel, runtime error");
	check(nbk_adam(NULL, 100, p, p, p, p, 1, 1e-3, 0.9, 0.999, 1e-7) == -1 &&
	    has("launch of nbk_adam_kernel: error "),
	    "a training kernel's launch without a device fails, naming it");
	check(nbk_time_ms(NULL, noop, NULL, 1, &ms) == -1 && has("nbk.cpp:") &&
	    has("hipEventCreate(&ev0): error "),
	    "a runtime call without a device fails: file, line, call, runtime error");
	return tap_done(NULL);
}
