// SPDX-License-Identifier: MIT
/*
 * The reference device for the composite score (1000 = this device).
 * Written by engine/mkreference from reference.json, the complete result
 * of the run these values come from; do not edit by hand.
 */
#include "engine.h"

const struct nb_reference nb_reference = {
	.id = "sha256:2d5ccee2153f9b63",
	.machine = "this project's shared 2-core build machine: AMD EPYC (avx2), 2 CPUs, 23 GiB, Debian 12; load average 1.3 at the start (quiet)",
	.cpu = "AMD EPYC",
	.date = "2026-12-07T16:38:50Z",
	.command = "navibench run --device cpu --json FILE (FILE copied to reference.json)",
	.build = "cpu backend, avx2, 2 threads",
	.value = {
		[NB_TEST_MONO] = 136.1779271199913,
		[NB_TEST_COLOR] = 52.431014037462305,
		[NB_TEST_GATES] = 181.46485466106196,
		[NB_TEST_PEAK] = 203.510561051185,
		[NB_TEST_BW] = 37.713855395812345,
		[NB_TEST_TRAIN] = 23.665491290857126,
	},
};
