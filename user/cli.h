/* SPDX-License-Identifier: MIT */
/*
 * Option parsing shared by every command.
 *
 * Each command describes its options in one table (struct cli_option[]);
 * the same table parses argv and builds "navibench <command> --help".
 * The options every command may share (--device, --json, --help) are
 * added here, in one place, as the command's spec asks for them.
 *
 *	static bool verbose;
 *	static const struct cli_option opts[] = {
 *		CLI_FLAG_OPT("verbose", 'v', &verbose, "say why devices were skipped"),
 *		CLI_OPT_END
 *	};
 *	static const struct cli_spec spec = {
 *		.name = "list", .summary = "...", .common = CLI_JSON,
 *		.options = opts,
 *	};
 *	struct cli_common c;
 *	int rc = cli_parse(&spec, argc, argv, &c);
 *	if (rc != CLI_CONTINUE)
 *		return rc;	// --help printed (0) or bad usage reported (2)
 *
 * A bad value is reported as: the command, the option, the value given and
 * what is accepted; the exit status is NB_EXIT_USAGE (2). Every option
 * takes its value as "--opt VALUE", "--opt=VALUE", "-o VALUE" or "-oVALUE".
 * A file an option names (CLI_INFILE_OPT, CLI_OUTFILE_OPT, --json FILE)
 * is checked here too: missing, of the wrong kind or not accessible is a
 * usage error, before the command does anything; a directory to write in,
 * by cli_check_dir().
 */
#ifndef NAVIBENCH_CLI_H
#define NAVIBENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct nb_print_ops;

enum cli_type {
	CLI_T_FLAG,		/* bool *: set to true, takes no value */
	CLI_T_STRING,		/* const char **: any non-empty value */
	CLI_T_INT,		/* long *: decimal, in [min, max] */
	CLI_T_DOUBLE,		/* double *: in [min, max] */
	CLI_T_DURATION,		/* unsigned long * (ms): 500ms, 2s, 1.5s, 1m */
	CLI_T_CHOICE,		/* int *: index of the value in choices[] */
};

/*
 * A file or directory a CLI_T_STRING value names, checked by cli_parse()
 * before the command runs, so that a bad path is a usage error (2) in
 * every command, said before any work is done.
 */
enum cli_path {
	CLI_PATH_NONE,
	CLI_PATH_IN,		/* a file to read: it exists, is no directory, is readable */
	CLI_PATH_OUT,		/* a file to write ("-": stdout): its directory exists and
				 * is writable; it is no directory */
};

struct cli_option {
	const char *name;	/* long name, without "--"; NULL ends a table */
	char short_name;	/* 0 when none */
	enum cli_type type;
	void *value;		/* where the parsed value goes; see cli_type */
	const char *metavar;	/* value's name in --help ("N", "FILE") */
	const char *help;	/* one line; the default may be stated here */
	double min, max;	/* CLI_T_INT, CLI_T_DOUBLE; ms for CLI_T_DURATION */
	/*
	 * CLI_T_CHOICE: the first name; the next is choice_size bytes on
	 * (0: sizeof(char *), a NULL-terminated array of names; else a table
	 * of structs whose first member is the name), a NULL name ends them.
	 */
	const char *const *choices;
	size_t choice_size;
	enum cli_path path;	/* CLI_T_STRING: what the value names */
	/*
	 * CLI_T_STRING whose value may be left out: --opt alone gives implied
	 * (not NULL); --opt=VALUE, -oVALUE, and "--opt VALUE" when VALUE does
	 * not start with '-' and the command takes no positional arguments
	 * (else only "-"), give VALUE. --help shows --opt[=METAVAR].
	 */
	const char *implied;
};

#define CLI_FLAG_OPT(n, s, v, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_FLAG, .value = (v), .help = (h) }
#define CLI_STRING_OPT(n, s, v, m, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_STRING, .value = (v), \
	  .metavar = (m), .help = (h) }
#define CLI_INFILE_OPT(n, s, v, m, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_STRING, .value = (v), \
	  .metavar = (m), .help = (h), .path = CLI_PATH_IN }
#define CLI_OUTFILE_OPT(n, s, v, m, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_STRING, .value = (v), \
	  .metavar = (m), .help = (h), .path = CLI_PATH_OUT }
#define CLI_INT_OPT(n, s, v, m, lo, hi, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_INT, .value = (v), \
	  .metavar = (m), .min = (lo), .max = (hi), .help = (h) }
#define CLI_DOUBLE_OPT(n, s, v, m, lo, hi, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_DOUBLE, .value = (v), \
	  .metavar = (m), .min = (lo), .max = (hi), .help = (h) }
#define CLI_DURATION_OPT(n, s, v, lo_ms, hi_ms, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_DURATION, .value = (v), \
	  .metavar = "TIME", .min = (lo_ms), .max = (hi_ms), .help = (h) }
#define CLI_CHOICE_OPT(n, s, v, m, ch, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_CHOICE, .value = (v), \
	  .metavar = (m), .choices = (ch), .help = (h) }
/* Choices from a table of structs tb[] whose first member is the name. */
#define CLI_CHOICE_TABLE_OPT(n, s, v, m, tb, h) \
	{ .name = (n), .short_name = (s), .type = CLI_T_CHOICE, .value = (v), \
	  .metavar = (m), .choices = &(tb)[0].name, .choice_size = sizeof((tb)[0]), \
	  .help = (h) }
#define CLI_OPT_END { .name = NULL }

/* Common options a command takes (struct cli_spec.common). */
enum {
	CLI_DEVICE = 1 << 0,	/* -d, --device DEV */
	CLI_JSON = 1 << 1,	/* -j, --json[=FILE] (an output file, checked) */
	CLI_FORMAT = 1 << 2,	/* --format FMT (text, json, csv, prometheus); with
				 * CLI_JSON, --json is --format json */
	CLI_DEVICE_ALL = 1 << 3,	/* with CLI_DEVICE: --device all, every GPU at once */
	CLI_ARGS_IN = 1 << 4,	/* the positional arguments are files to read,
				 * checked as CLI_PATH_IN */
	CLI_FORMAT_NO_PROMETHEUS = 1 << 5,	/* with CLI_FORMAT: text, json and csv
						 * only (a document that is no metrics) */
};

struct cli_spec {
	const char *name;	/* the command, as typed */
	const char *summary;	/* one line, shown in --help */
	const char *description;	/* optional paragraph(s) after the usage */
	const char *positional;	/* e.g. "FILE...": positional arguments allowed */
	unsigned int common;	/* CLI_DEVICE | CLI_JSON | CLI_FORMAT ... */
	/*
	 * CLI_DEVICE: what the command reads without --device, in --help and
	 * the man page ("0" when NULL; the command's code must agree).
	 */
	const char *device_default;
	const struct cli_option *options;	/* may be NULL */
	const char *epilog;	/* optional text after the options */
};

/* What the common options gave. */
struct cli_common {
	const char *device;	/* --device value; "0" when not given */
	bool device_given;
	bool json;		/* --json given */
	const char *json_path;	/* --json=FILE; NULL or "-" for stdout */
	/*
	 * The output format: --format's, json for --json, else text. Only
	 * formats this build implements (nb_format_ready()) get here.
	 */
	const struct nb_print_ops *format;
	int nargs;		/* positional arguments (spec.positional) */
	char **args;
};

/* cli_parse() returns this when the command should go on. */
#define CLI_CONTINUE (-1)

/*
 * cli_parse() - parse argv (argv[0] is the command name) against the spec.
 * Returns CLI_CONTINUE, 0 after printing --help, or NB_EXIT_USAGE after
 * printing what was wrong to stderr.
 */
int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      struct cli_common *common);

/* cli_help() - print the command's help to stdout. */
void cli_help(const struct cli_spec *spec);

/*
 * cli_help_as_roff() - from now on, --help prints the command's synopsis
 * and options as roff for the man page's COMMANDS section (a .SS heading,
 * the synopsis, the summary and a .TP per option), from the same table
 * as the text: navibench --man-page, run when navibench.1 is built.
 */
void cli_help_as_roff(void);

/*
 * cli_roff_text() - print text to f for roff: backslashes and minus signs
 * escaped, a line that would start with a control character ('.' or ')
 * protected; new lines kept.
 */
void cli_roff_text(FILE *f, const char *text);

/*
 * The exit statuses (enum nb_exit) with what each means: the man page's
 * EXIT STATUS and the last line of every --help come from this table.
 */
struct cli_exit_status {
	const char *status;	/* "0", ..., "128+N" */
	const char *brief;	/* a few words, for --help */
	const char *meaning;	/* the man page's paragraph */
};
extern const struct cli_exit_status cli_exit_statuses[];

/*
 * cli_check_dir() - before anything is written: dir is a directory this
 * user may write in. Returns 0, or NB_EXIT_USAGE after naming the option,
 * the directory, what is wrong and fix ("create it, or ..."; NULL: the
 * generic one).
 */
int cli_check_dir(const char *cmd, const char *opt, const char *dir, const char *fix);

/*
 * cli_usage_error() - report a usage problem of a command in the common
 * format ("navibench CMD: ...; see 'navibench CMD --help'"), return 2.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * cli_parse_duration() - "500ms", "2s", "1.5s", "1m", or a plain number
 * of seconds, into milliseconds. Returns false when malformed.
 */
bool cli_parse_duration(const char *s, unsigned long *ms);

/* A file a command reads or writes, and the option that names it. */
struct cli_file {
	const char *opt;	/* "--output", "--json" */
	const char *path;	/* NULL (not given) and "-" (stdout) are skipped */
};

/*
 * cli_check_outputs() - before anything is written: refuse an output that
 * is the same file as an input, or as another output. Files are compared
 * by device and inode (stat(2), links followed), not by name, so a hard
 * link, a symbolic link or "./x" is caught too; an output that does not
 * exist yet is compared by its directory's device and inode and its name.
 * Returns 0, or NB_EXIT_USAGE after naming both options and the file.
 */
int cli_check_outputs(const char *cmd, const struct cli_file *in, int nin,
		      const struct cli_file *out, int nout);

#endif /* NAVIBENCH_CLI_H */
