// SPDX-License-Identifier: MIT
/*
 * navibench: AMD GPU information, live telemetry and a ConvLSTM compute
 * benchmark. The commands, from NB_COMMANDS (navibench.h); each parses its
 * own options with cli.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gputelemetry.h"
#include "optional.h"
#include "navibench.h"

/* The commands (NB_COMMANDS, navibench.h), each declared in its own file. */
#define NB_COMMAND_ENTRY(name) &nb_cmd_##name,
static const struct nb_command *const commands[] = {
	NB_COMMANDS(NB_COMMAND_ENTRY)
};
#undef NB_COMMAND_ENTRY

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: navibench <command> [options]\n"
		   "       navibench --device DEV [run options]   (same as: navibench run ...)\n"
		   "\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s%s\n", commands[i]->name, commands[i]->summary,
			nb_lib_have(commands[i]->needs) ? "" : " (off in this build)");
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
		       commands[i]->name);
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

/*
 * The readings' names (GT_SENSORS), in parentheses, bold, comma-separated:
 * .RB ( temp_edge ", " ... then .BR lines, about 75 columns each.
 */
#define MAN_SENSOR_KEY(id, key, ...) key,
static void man_sensors(void)
{
	static const char *const keys[] = { GT_SENSORS(MAN_SENSOR_KEY) };
	const size_t n = sizeof(keys) / sizeof(keys[0]);
	int col = printf(".RB (");

	for (size_t i = 0; i < n; i++) {
		const char *sep = i + 1 < n ? " \", \"" : " ).";

		if (col > 5 && col + 1 + strlen(keys[i]) + strlen(sep) > 75)
			col = printf("\n.BR") - 1;
		col += printf(" %s%s", keys[i], sep);
	}
	printf("\n");
}

/* The same names as CSV columns: "temp_edge, temp_junction, ...," lines. */
static void man_sensors_csv(void)
{
	static const char *const keys[] = { GT_SENSORS(MAN_SENSOR_KEY) };
	const size_t n = sizeof(keys) / sizeof(keys[0]);
	int col = 0;

	for (size_t i = 0; i < n; i++) {
		if (col && col + 2 + strlen(keys[i]) > 72) {
			printf("\n");
			col = 0;
		}
		col += printf("%s%s,", col ? " " : "", keys[i]);
	}
	printf("\n");
}
#undef MAN_SENSOR_KEY

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

		if (strcmp(name, commands[i]->name))
			continue;
		if (done[i]) {
			fprintf(stderr, "navibench --man-page: '%s' is documented twice\n", name);
			return -1;
		}
		done[i] = true;
		if (!commands[i]->run) {	/* off in this build: its prose alone */
			printf(".SS %s\n(Not in this build.)\n.PP\n", name);
			return 0;
		}
		snprintf(cmd, sizeof(cmd), "%s", name);
		fflush(stdout);
		return commands[i]->run(2, argv) == NB_EXIT_OK ? 0 : -1;
	}
	fprintf(stderr, "navibench --man-page: no command '%s'\n", name);
	return -1;
}

/* At "@other-commands": each command not documented above it. */
static int man_other_commands(bool *done)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!done[i] && man_command(commands[i]->name, done))
			return -1;
	return 0;
}

/*
 * man_page() - navibench.1 on stdout: the template (user/navibench.1.in,
 * the hand-written text) with "@VERSION@" replaced by the version and
 * these lines replaced by what the code declares:
 *	.\" @synopsis		a line per command
 *	.\" @command NAME	NAME's heading, synopsis, summary and options,
 *				from the table its --help prints
 *	.\" @other-commands	the same for each command that has no
 *				@command line of its own (a new one, until it
 *				has prose around it)
 *	.\" @exit-status	the exit statuses (cli_exit_statuses)
 *	.\" @sensors		the readings' names (GT_SENSORS), a list in
 *				parentheses
 *	.\" @sensors-csv	the same names as CSV columns, comma-ended lines
 * A command is documented once.
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
		else if (!strcmp(line, ".\\\" @sensors\n"))
			man_sensors();
		else if (!strcmp(line, ".\\\" @sensors-csv\n"))
			man_sensors_csv();
		else if (!strcmp(line, ".\\\" @other-commands\n"))
			rc = man_other_commands(done);
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
			fprintf(stderr, "navibench --man-page: %s has no '.\\\" @command %s' line "
				"(nor '.\\\" @other-commands' after the others)\n", template,
				commands[i]->name);
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
		return nb_cmd_run.run(argc, argv);
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i]->name))
			continue;
		if (!commands[i]->run)
			return nb_lib_off(name, "this command", commands[i]->needs);
		return commands[i]->run(argc - 1, argv + 1);
	}

	fprintf(stderr, "navibench: unknown command '%s'; commands:", name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, " %s", commands[i]->name);
	fprintf(stderr, "\nsee 'navibench --help'\n");
	return NB_EXIT_USAGE;
}
