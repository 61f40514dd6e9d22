// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition format: not implemented yet. Declared so
 * that --format lists it; nb_format_ready() says "not yet supported" and
 * cli_parse() refuses it (exit 2) while begin is NULL.
 */
#include "print_ops.h"

const struct nb_print_ops nb_print_prometheus_ops = {
	.name = "prometheus",
};
