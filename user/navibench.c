// SPDX-License-Identifier: MIT
/*
 * navibench: AMD GPU information, live telemetry and a ConvLSTM compute
 * benchmark. The commands, in one table; each parses its own options with
 * cli.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "optional.h"
#include "navibench.h"

/* needs: the optional library (optional.h) without which the command is off */
static const struct nb_command commands[] = {
	{ "list",    "list the devices, one index each (GPUs, then the CPU)", cmd_list, NB_LIB_NONE },
	{ "info",    "what a device is: ids, CU layout, clocks, memory, peaks", cmd_info, NB_LIB_NONE },
	{ "sensors", "live readings (clocks, temperatures, power), --watch for a view", cmd_sensors, NB_LIB_NONE },
	{ "processes", "which processes use the GPUs: engine busy, VRAM, GTT (DRM fdinfo)", cmd_processes, NB_LIB_NONE },
	{ "top",     "a live full-screen view of every GPU and the processes using them",
	  NB_WITH_NCURSESW(cmd_top), NB_LIB_NCURSESW },
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

/* ---- navibench.1, from its template and the commands' option tables ---- */

static void man_synopsis(void)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("%s\\fBnavibench %s\\fR\n.RI [ options ]\n", i ? ".br\n" : "",
		       commands[i].name);
}

static void man_exit_status(void)
{
	for (const struct cli_exit_status *e = cli_exit_statuses; e->status; e++) {
		printf(".TP\n.B ");
		cli_roff_text(stdout, e->status);
		printf("\n");
		cli_roff_text(stdout, e->meaning);
		printf("\n");
	}
}

/* The command's section, from its table (its --help, as roff). */
static int man_command(const char *name, bool *done)
{
	if (!name) {
		fprintf(stderr, "navibench --man-page: a command line names no command\n");
		return -1;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char cmd[32], help[] = "--help";
		char *argv[] = { cmd, help, NULL };

		if (strcmp(name, commands[i].name))
			continue;
		if (done[i]) {
			fprintf(stderr, "navibench --man-page: '%s' is documented twice\n", name);
			return -1;
		}
		done[i] = true;
		if (!commands[i].run) {	/* off in this build: its prose alone */
			printf(".SS %s\n(Not in this build.)\n.PP\n", name);
			return 0;
		}
		snprintf(cmd, sizeof(cmd), "%s", name);
		fflush(stdout);
		return commands[i].run(2, argv) == NB_EXIT_OK ? 0 : -1;
	}
	fprintf(stderr, "navibench --man-page: no command '%s'\n", name);
	return -1;
}

/*
 * man_page() - navibench.1 on stdout: the template (user/navibench.1.in,
 * the hand-written text) with "@VERSION@" replaced by the version and
 * these lines replaced by what the code declares:
 *	.\" @synopsis		a line per command
 *	.\" @command NAME	NAME's heading, synopsis, summary and options,
 *				from the table its --help prints
 *	.\" @exit-status	the exit statuses (cli_exit_statuses)
 * Every command of the table must have its @command line, once.
 */
#define MAN_COMMAND ".\\\" @command "

static int man_page(const char *template)
{
	FILE *f = fopen(template, "r");
	bool done[NCOMMANDS] = { false };
	char line[4096];
	struct stat st;
	int rc = 0;

	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "navibench --man-page: %s: %s\n", template,
			f ? "not a regular file" : strerror(errno));
		if (f)
			fclose(f);
		return NB_EXIT_USAGE;
	}
	cli_help_as_roff();
	while (!rc && fgets(line, sizeof(line), f)) {
		char *v = strstr(line, "@VERSION@");

		if (!strcmp(line, ".\\\" @synopsis\n"))
			man_synopsis();
		else if (!strcmp(line, ".\\\" @exit-status\n"))
			man_exit_status();
		else if (!strncmp(line, MAN_COMMAND, strlen(MAN_COMMAND)))
			rc = man_command(strtok(line + strlen(MAN_COMMAND), "\n"), done);
		else if (v)
			printf("%.*s%s%s", (int)(v - line), line, NAVIBENCH_VERSION, v + 9);
		else
			fputs(line, stdout);
	}
	fclose(f);
	for (size_t i = 0; !rc && i < NCOMMANDS; i++) {
		if (!done[i]) {
			fprintf(stderr, "navibench --man-page: %s has no '.\\\" @command %s' line\n",
				template, commands[i].name);
			rc = -1;
		}
	}
	return rc || fflush(stdout) ? NB_EXIT_FAIL : NB_EXIT_OK;
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
	if (!strcmp(name, "--man-page") && argc == 3)
		return man_page(argv[2]);	/* for the build: not in --help */
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
