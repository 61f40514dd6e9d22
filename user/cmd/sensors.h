/* SPDX-License-Identifier: MIT */
/*
 * navibench sensors, for other commands: one snapshot of every device.
 */
#ifndef NAVIBENCH_CMD_SENSORS_H
#define NAVIBENCH_CMD_SENSORS_H

#include <stdio.h>

#include "sources.h"	/* NB_SENSORS_WAKE */

struct nb_print_ops;

/*
 * nb_sensors_snapshot() - scan the devices, read every one that has
 * sensors (amdgpu and sim) once, and print them all to out in format fmt:
 * exactly what "navibench sensors --all --format F" prints. A
 * runtime-suspended GPU is not woken unless flags has NB_SENSORS_WAKE.
 * Keeps nothing between calls (a scraper calls it again and again).
 * Returns NB_EXIT_OK, NB_EXIT_NODEV when no device has sensors (the
 * document is printed, empty), or NB_EXIT_FAIL (the scan or a write
 * failed, said on stderr).
 */
int nb_sensors_snapshot(FILE *out, const struct nb_print_ops *fmt, unsigned int flags);

#endif /* NAVIBENCH_CMD_SENSORS_H */
