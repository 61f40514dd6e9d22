// SPDX-License-Identifier: MIT
/*
 * navibench: AMD GPU information, live telemetry and a ConvLSTM compute
 * benchmark. The commands, in one table; each parses its own options with
 * cli.h.
 */
#include <stdio.h>
#include <string.h>

#include "navibench.h"

static const struct nb_command commands[] = {
	{ "list",    "list the devices, one index each (GPUs, then the CPU)", cmd_list },
	{ "info",    "what a device is: ids, CU layout, clocks, memory, peaks", cmd_info },
	{ "sensors", "live readings (clocks, temperatures, power), --watch for a view", cmd_sensors },
	{ "processes", "which processes use the GPUs: engine busy, VRAM, GTT (DRM fdinfo)", cmd_processes },
	{ "run",     "run the benchmark (the default command)", cmd_run },
	{ "predict", "predict next frames of a movie with a ConvLSTM model", cmd_predict },
	{ "weights", "write a model's weights to a safetensors file", cmd_weights },
	{ "exporter", "serve every device's readings to Prometheus (/metrics, textfile)", cmd_exporter },
	{ "compare", "compare run results: per test, the ratio and whether it is beyond the noise", cmd_compare },
	{ "report",  "an HTML report of run results: devices, charts, telemetry, validation", cmd_report },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: navibench <command> [options]\n"
		   "       navibench --device DEV [run options]   (same as: navibench run ...)\n"
		   "\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
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
		return NB_EXIT_OK;
	}
	if (name[0] == '-') {
		/* "navibench --device 0 ..." is "navibench run --device 0 ...". */
		argv[0] = "run";
		return cmd_run(argc, argv);
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);

	fprintf(stderr, "navibench: unknown command '%s'; commands:", name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, " %s", commands[i].name);
	fprintf(stderr, "\nsee 'navibench --help'\n");
	return NB_EXIT_USAGE;
}
