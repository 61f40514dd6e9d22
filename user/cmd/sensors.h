/* SPDX-License-Identifier: MIT */
/*
 * navibench sensors, for other commands: one snapshot of every device.
 */
#ifndef NAVIBENCH_CMD_SENSORS_H
#define NAVIBENCH_CMD_SENSORS_H

#include "sources/sources.h"	/* NB_SENSORS_WAKE */

struct nb_print;

/*
 * nb_sensors_snapshot() - scan the devices, read every one that has
 * sensors (amdgpu and sim) once, and print them all into p: exactly what
 * "navibench sensors --all" prints in p's format, p's other contents
 * beside them. A runtime-suspended GPU is not woken unless flags has
 * NB_SENSORS_WAKE. Keeps nothing between calls (a scraper calls it again
 * and again). Returns NB_EXIT_OK, NB_EXIT_NODEV when no device has
 * sensors (nothing printed but the document's time), or NB_EXIT_FAIL (the
 * scan failed, said on stderr).
 */
int nb_sensors_snapshot(struct nb_print *p, unsigned int flags);

#endif /* NAVIBENCH_CMD_SENSORS_H */
