// SPDX-License-Identifier: MIT
/*
 * The reference device for the composite score (1000 = this device).
 * Written by engine/mkreference from reference.json, the complete result
 * of the run these values come from; do not edit by hand.
 */
#include "engine.h"

const struct nb_reference nb_reference = {
	.id = "sha256:f8743ddb3ddc3626",
	.machine = "this project's shared 2-core build machine: AMD EPYC (avx512), 2 CPUs, 23 GiB, Debian 12; load average 1.7 at the start (other builds)",
	.cpu = "AMD EPYC",
	.date = "2026-12-02T19:59:28Z",
	.command = "navibench run --device cpu --json FILE (FILE copied to reference.json)",
	.build = "cpu backend, avx512, 2 threads",
	.value = {
		[NB_TEST_MONO] = 264.0161068835852,
		[NB_TEST_COLOR] = 103.51910613323814,
		[NB_TEST_GATES] = 360.46646789770114,
		[NB_TEST_PEAK] = 439.9426041155951,
		[NB_TEST_BW] = 33.945438187527195,
		[NB_TEST_TRAIN] = 2.4585631506252392,
	},
};
