/* SPDX-License-Identifier: MIT */
/*
 * The system a run ran on, recorded in its result as MLPerf's system
 * description and the Phoronix Test Suite do: the build, the kernel, the
 * OS, the CPU and its frequency governor, memory, the GPU's driver and
 * VBIOS, the load before and after. What cannot be read is left empty
 * here and absent from the result, never an empty string.
 */
#ifndef NB_SYSTEM_H
#define NB_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

struct nb_loadavg {
	bool known;
	double v[3];		/* 1, 5 and 15 minutes */
};

struct nb_system {
	char kernel_release[96], kernel_version[160], machine[72];
	char os[128];			/* /etc/os-release PRETTY_NAME */
	char cpu_model[128];
	long logical_cpus;
	char governor[32];		/* cpufreq of cpu0 */
	char scaling_driver[32];
	uint64_t memory_bytes;		/* 0: unknown */
	char gpu_driver[32];		/* GPU devices: the PCI driver */
	char vbios_version[64];		/* amdgpu's sysfs vbios_version */
	struct nb_loadavg load_start, load_end;
	struct json_object *device_info;	/* `navibench info --json`; NULL: none */
};

struct nb_print;

/*
 * nb_system_start() - read what the run starts on; pci: "" for the CPU;
 * device: the --device value whose info record to keep (NULL: none).
 */
void nb_system_start(struct nb_system *s, const char *pci, const char *device);
/* nb_system_end() - the load average at the end. */
void nb_system_end(struct nb_system *s);
void nb_system_free(struct nb_system *s);

/* nb_system_emit() - the "system" object of the result, through print.h. */
void nb_system_emit(struct nb_print *p, const struct nb_system *s);

/* The build: version, `git describe`, compiler and flags. */
const char *nb_build_commit(void);

#endif /* NB_SYSTEM_H */
