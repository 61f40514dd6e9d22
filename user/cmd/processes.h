/* SPDX-License-Identifier: MIT */
/*
 * navibench processes, for other commands: one scan of the processes.
 */
#ifndef NAVIBENCH_CMD_PROCESSES_H
#define NAVIBENCH_CMD_PROCESSES_H

#include <stdio.h>

struct nb_print_ops;

/*
 * nb_processes_snapshot() - scan /proc once and print every process's use
 * of each amdgpu device to out in format fmt, as "navibench processes"
 * does but without its interval: the engine times as counters, no busy
 * percentages. Meant for the Prometheus format (the exporter's
 * --processes). Returns NB_EXIT_OK or NB_EXIT_FAIL (said on stderr).
 */
int nb_processes_snapshot(FILE *out, const struct nb_print_ops *fmt);

#endif /* NAVIBENCH_CMD_PROCESSES_H */
