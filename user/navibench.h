/* SPDX-License-Identifier: MIT */
/*
 * navibench: what every command file shares. Commands are declared once,
 * each in its own file, with one handler signature (NB_COMMANDS below).
 */
#ifndef NAVIBENCH_H
#define NAVIBENCH_H

#include <stdbool.h>
#include <stddef.h>

#define NAVIBENCH_VERSION "0.1.0"

/* Exit statuses (navibench(1), EXIT STATUS). */
enum nb_exit {
	NB_EXIT_OK = 0,		/* done; every test valid */
	NB_EXIT_FAIL = 1,	/* a runtime error, or a result failed validation */
	NB_EXIT_USAGE = 2,	/* bad command, option, value or input file */
	NB_EXIT_NODEV = 3,	/* the device asked for does not exist */
	NB_EXIT_NOCOMPUTE = 4,	/* the device exists but nothing here can compute on it */
	NB_EXIT_GATE = 5,	/* a gate did not pass: a regression, or a test not judged */
	/* 128 + N: stopped by signal N (run: the finished tests are written) */
};

/*
 * One command: argv[0] is the command's name, the rest its own arguments.
 * Returns an enum nb_exit value.
 */
struct nb_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* NULL: off in this build */
	int needs;		/* enum nb_lib (optional.h) it needs; 0 (NB_LIB_NONE): none */
};

enum nb_device_kind {
	NB_DEV_AMDGPU,		/* a DRM device bound to amdgpu */
	NB_DEV_PLUGIN,		/* a GPU plugin's device (HIP or CUDA) not matched to an amdgpu one */
	NB_DEV_SIM,		/* a GPU simulated by gputelemetry.ko: telemetry only */
	NB_DEV_CPU,		/* the host CPU: always present, always last */
};

/*
 * One entry of the device list. Indices are the same in every command:
 * amdgpu devices in PCI order, then gputelemetry's simulated GPUs, then
 * HIP devices not already listed, then the CPU.
 */
struct nb_device {
	int index;
	enum nb_device_kind kind;
	char name[128];		/* marketing name, ASIC name or CPU model */
	char pci[32];		/* "0000:03:00.0"; empty for the CPU */
	int hip_ordinal;	/* the GPU plugin's device number, -1 when none */
	int plugin;		/* which plugin (devices/plugin.h), -1 when none */
};

/*
 * nb_device_select() - resolve a --device value (an index, a PCI address
 * or "cpu") of command cmd to a device. Returns NB_EXIT_OK, NB_EXIT_USAGE
 * for a malformed value or NB_EXIT_NODEV for no such device, after
 * printing why, as "navibench CMD: --device ...".
 */
int nb_device_select(const char *cmd, const char *spec, struct nb_device *out);

/*
 * NB_COMMANDS(X) - the commands, in the order navibench --help lists them.
 * Each is declared once, in its own file (cmd/NAME.c), as
 * const struct nb_command nb_cmd_NAME: its name, summary, handler and what
 * it needs; its options are that file's struct cli_spec. Adding a command
 * is that file, a name here and its test (docs/HACKING.md).
 */
#define NB_COMMANDS(X)							\
	X(list) X(info) X(sensors) X(processes) X(top) X(run)	\
	X(predict) X(weights) X(exporter) X(compare) X(report)

#define NB_COMMAND_EXTERN(name) extern const struct nb_command nb_cmd_##name;
NB_COMMANDS(NB_COMMAND_EXTERN)
#undef NB_COMMAND_EXTERN

/*
 * nb_info_json_text() - what `navibench info --device DEVICE --json`
 * prints (malloc'd, the caller frees), or NULL when the device cannot be
 * read. For the run result's system record.
 */
char *nb_info_json_text(const char *device);

#endif /* NAVIBENCH_H */
