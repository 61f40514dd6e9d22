// SPDX-License-Identifier: MIT
/*
 * The reference device for the composite score (1000 = this device).
 * Written by engine/mkreference from reference.json, the complete result
 * of the run these values come from; do not edit by hand.
 */
#include "engine/engine.h"

const struct nb_reference nb_reference = {
	.id = "sha256:7fc7aa4d5e5a0696",
	.machine = "project build machine: 2-vCPU Firecracker VM, Intel Xeon with AVX-512 and AMX (2 MiB L2 per core), 24 GiB, Debian 12; load average 0.9 at the start",
	.cpu = "Intel(R) Xeon(R) Processor",
	.date = "2026-11-29T17:03:31Z",
	.command = "navibench run --device cpu --json FILE (FILE copied to reference.json)",
	.build = "cpu backend, avx512, 2 threads",
	.value = {
		[NB_TEST_MONO] = 226.73550154952636,
		[NB_TEST_COLOR] = 89.08742318101073,
		[NB_TEST_GATES] = 317.7050498400707,
		[NB_TEST_PEAK] = 454.07086238793283,
		[NB_TEST_BW] = 35.45774775790039,
	},
};
