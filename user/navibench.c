// SPDX-License-Identifier: MIT
/*
 * navibench: AMD GPU information, live telemetry and a ConvLSTM compute
 * benchmark. The commands, in one table; each parses its own options with
 * cli.h.
 */
#include <stdio.h>
#include <string.h>

#include "optional.h"
#include "navibench.h"

/* needs: the optional library (optional.h) without which the command is off */
static const struct nb_command commands[] = {
	{ "list",    "list the devices, one index each (GPUs, then the CPU)", cmd_list, NB_LIB_NONE },
	{ "info",    "what a device is: ids, CU layout, clocks, memory, peaks", cmd_info, NB_LIB_NONE },
	{ "sensors", "live readings (clocks, temperatures, power), --watch for a view", cmd_sensors, NB_LIB_NONE },
	{ "processes", "which processes use the GPUs: engine busy, VRAM, GTT (DRM fdinfo)", cmd_processes, NB_LIB_NONE },
	{ "run",     "run the benchmark (the default command)", cmd_run, NB_LIB_NONE },
	{ "predict", "predict next frames of a movie with a ConvLSTM model", cmd_predict, NB_LIB_NONE },
	{ "weights", "write a model's weights to a safetensors file", cmd_weights, NB_LIB_NONE },
	{ "exporter", "serve every device's readings to Prometheus (/metrics, textfile)", cmd_exporter, NB_LIB_NONE },
	{ "compare", "compare run results: per test, the ratio and whether it is beyond the noise",
	  NB_WITH_JSON_C(cmd_compare), NB_LIB_JSON_C },
	{ "report",  "an HTML report of run results: devices, charts, telemetry, validation",
	  NB_WITH_JSON_C(cmd_report), NB_LIB_JSON_C },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: navibench <command> [options]\n"
		   "       navibench --device DEV [run options]   (same as: navibench run ...)\n"
		   "\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s%s\n", commands[i].name, commands[i].summary,
			nb_lib_have(commands[i].needs) ? "" : " (off in this build)");
	fprintf(f, "\nOptions:\n"
		   "  -h, --help     show this help; 'navibench <command> --help' for a command's\n"
		   "  -V, --version  show the version\n"
		   "\nDevices are numbered by 'navibench list': amdgpu GPUs, then other GPUs,\n"
		   "then the CPU, the same in every command. See navibench(1).\n");
}

int main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return NB_EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
		usage(stdout);
		return NB_EXIT_OK;
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		printf("navibench %s\n", NAVIBENCH_VERSION);
		nb_libs_print_off(stdout);
		return NB_EXIT_OK;
	}
	if (name[0] == '-') {
		/* "navibench --device 0 ..." is "navibench run --device 0 ...". */
		argv[0] = "run";
		return cmd_run(argc, argv);
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i].name))
			continue;
		if (!commands[i].run)
			return nb_lib_off(name, "this command", commands[i].needs);
		return commands[i].run(argc - 1, argv + 1);
	}

	fprintf(stderr, "navibench: unknown command '%s'; commands:", name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, " %s", commands[i].name);
	fprintf(stderr, "\nsee 'navibench --help'\n");
	return NB_EXIT_USAGE;
}
