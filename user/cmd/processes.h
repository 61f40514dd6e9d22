/* SPDX-License-Identifier: MIT */
/*
 * navibench processes, for other commands: one scan of the processes.
 */
#ifndef NAVIBENCH_CMD_PROCESSES_H
#define NAVIBENCH_CMD_PROCESSES_H

struct nb_print;

/*
 * nb_processes_snapshot() - scan /proc once and print every process's use
 * of each amdgpu device into p (beside what p holds), as "navibench
 * processes" does but without its interval: the engine times as counters,
 * no busy percentages. Meant for the Prometheus format (the exporter's
 * --processes). Returns NB_EXIT_OK or NB_EXIT_FAIL (said on stderr).
 */
int nb_processes_snapshot(struct nb_print *p);

#endif /* NAVIBENCH_CMD_PROCESSES_H */
