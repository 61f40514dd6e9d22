// SPDX-License-Identifier: MIT
/*
 * Option parsing shared by every command: see cli.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "navibench.h"
#include "print/print.h"

/* --device's help is made per command: spec_options(). */
static const struct cli_option common_device =
	CLI_STRING_OPT("device", 'd', NULL, "DEV", NULL);
static const struct cli_option common_json =
	{ .name = "json", .short_name = 'j', .type = CLI_T_STRING, .metavar = "FILE",
	  .path = CLI_PATH_OUT, .implied = "-",
	  .help = "print JSON instead of text; to FILE when given (- for stdout)" };
static const struct cli_option common_format =
	CLI_CHOICE_OPT("format", 0, NULL, "FMT", nb_format_names,
		       "output format (default text)");
/* CLI_FORMAT_NO_PROMETHEUS: a document that is no metrics (text, json, csv) */
static const char *const formats_no_prometheus[] = { "text", "json", "csv", NULL };
static const struct cli_option common_format_no_prometheus =
	CLI_CHOICE_OPT("format", 0, NULL, "FMT", formats_no_prometheus,
		       "output format (default text)");
static const struct cli_option common_help =
	CLI_FLAG_OPT("help", 'h', NULL, "show this help and exit");

const struct cli_exit_status cli_exit_statuses[] = {
	{ "0", "done",
	  "Done; for run, every result valid." },
	{ "1", "a runtime error or an invalid result",
	  "A runtime error (a render node that cannot be opened, a file that cannot be "
	  "written, a port in use), or a result that failed validation." },
	{ "2", "usage",
	  "A bad command, option or option value; an input file that is missing, "
	  "unreadable or malformed; an output file or directory whose directory is "
	  "missing or not writable. Said before anything runs or is written." },
	{ "3", "no such device",
	  "The device asked for does not exist, or is not one the command can use (e.g. "
	  "sensors on the CPU, which has no GPU sensors)." },
	{ "4", "the device cannot compute",
	  "The device exists but nothing here can compute on it: no usable GPU backend "
	  "(no plugin, its runtime missing, no device, a version mismatch)." },
	{ "5", "a gate did not pass",
	  "A gate did not pass: compare --fail-on-regression found a regression, or a "
	  "test it could not judge." },
	{ "128+N", "stopped by signal N",
	  "Stopped by signal N: 130 for SIGINT (Ctrl-C), 143 for SIGTERM. run then "
	  "writes the result of the tests that finished, marked \"complete\": false, and "
	  "never a half-written file; a second signal stops it at once. The --watch views "
	  "and the exporter's server end with 0 on SIGINT and SIGTERM: that is how they "
	  "are stopped." },
	{ NULL, NULL, NULL }
};

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "navibench %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'navibench %s --help'\n", cmd);
	return NB_EXIT_USAGE;
}

bool cli_parse_duration(const char *s, unsigned long *ms)
{
	char *end;
	double v, scale;

	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return false;
	if (!strcmp(end, "ms"))
		scale = 1;
	else if (!strcmp(end, "s") || !*end)
		scale = 1000;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		scale = 60000;
	else
		return false;
	v *= scale;
	if (v > 1e12)
		return false;
	*ms = (unsigned long)llround(v);
	return true;
}

/* Which file a path names: its inode, or its directory's and its name. */
struct file_id {
	bool known, exists;
	dev_t dev;
	ino_t ino;
	const char *base;
};

/* The directory a path is in: "." for a bare name. */
static void path_dir(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, n, ".");
	else
		snprintf(dir, n, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

static struct file_id file_id(const char *path)
{
	struct file_id id = { 0 };
	struct stat st;

	if (!path || !strcmp(path, "-"))
		return id;
	if (!stat(path, &st)) {
		id.known = id.exists = true;
		id.dev = st.st_dev;
		id.ino = st.st_ino;
		return id;
	}
	if (errno != ENOENT)
		return id;	/* the read or the write will say what is wrong */
	const char *slash = strrchr(path, '/');
	char dir[4096];

	path_dir(path, dir, sizeof(dir));
	if (stat(dir, &st))
		return id;
	id.known = true;
	id.dev = st.st_dev;
	id.ino = st.st_ino;
	id.base = slash ? slash + 1 : path;
	return id;
}

static bool same_file(const struct file_id *a, const struct file_id *b)
{
	if (!a->known || !b->known || a->exists != b->exists ||
	    a->dev != b->dev || a->ino != b->ino)
		return false;
	return a->exists || !strcmp(a->base, b->base);
}

int cli_check_outputs(const char *cmd, const struct cli_file *in, int nin,
		      const struct cli_file *out, int nout)
{
	for (int i = 0; i < nout; i++) {
		struct file_id o = file_id(out[i].path);

		for (int j = 0; j < nin; j++) {
			struct file_id f = file_id(in[j].path);

			if (same_file(&o, &f))
				return cli_usage_error(cmd,
						       "%s %s is the same file as %s %s: writing it would destroy the input; name another output file",
						       out[i].opt, out[i].path, in[j].opt, in[j].path);
		}
		for (int j = 0; j < i; j++) {
			struct file_id f = file_id(out[j].path);

			if (same_file(&o, &f))
				return cli_usage_error(cmd,
						       "%s %s and %s %s are the same file: one output would replace the other; name two files",
						       out[j].opt, out[j].path, out[i].opt, out[i].path);
		}
	}
	return 0;
}

int cli_check_dir(const char *cmd, const char *opt, const char *dir, const char *fix)
{
	struct stat st;
	const char *why = NULL;

	if (!fix)
		fix = "create it, or name an existing directory";
	if (!*dir)
		why = "an empty name";
	else if (stat(dir, &st))
		why = errno == ENOENT ? "it does not exist" : strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "it is a file";
	if (why)
		return cli_usage_error(cmd, "%s: '%s' is not a directory (%s); %s", opt, dir, why,
				       fix);
	if (access(dir, W_OK | X_OK))
		return cli_usage_error(cmd, "%s: cannot write in %s: %s; run as a user who may, "
				       "or give another directory", opt, dir, strerror(errno));
	return 0;
}

/* A file to read: it is there, no directory, and readable. */
static int check_infile(const char *cmd, const char *opt, const char *path)
{
	struct stat st;

	if (stat(path, &st) || access(path, R_OK))
		return cli_usage_error(cmd, "%s%s%s: %s; name a file that exists and this user "
				       "may read", opt, *opt ? " " : "", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return cli_usage_error(cmd, "%s%s%s: is a directory; name a file", opt,
				       *opt ? " " : "", path);
	return 0;
}

/*
 * A file to write: "-" (stdout) and files that are not regular (a
 * terminal, /dev/stdout) are written in place; any other is written
 * through a temporary file in its directory, which must take it.
 */
static int check_outfile(const char *cmd, const char *opt, const char *path)
{
	char dir[4096];
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return cli_usage_error(cmd, "%s %s: is a directory; name a file in it", opt,
					       path);
		if (!S_ISREG(st.st_mode))
			return 0;
	}
	path_dir(path, dir, sizeof(dir));
	if (stat(dir, &st))
		return cli_usage_error(cmd, "%s %s: the directory %s %s%s; create it, or name a "
				       "file in an existing directory", opt, path, dir,
				       errno == ENOENT ? "does not exist" : "cannot be read: ",
				       errno == ENOENT ? "" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(cmd, "%s %s: %s is not a directory; name a file in an "
				       "existing directory", opt, path, dir);
	if (access(dir, W_OK | X_OK))
		return cli_usage_error(cmd, "%s %s: cannot write in %s: %s; run as a user who may, "
				       "or name a file elsewhere", opt, path, dir, strerror(errno));
	return 0;
}

static int check_path(const char *cmd, const char *opt, enum cli_path kind, const char *path)
{
	switch (kind) {
	case CLI_PATH_IN:
		return check_infile(cmd, opt, path);
	case CLI_PATH_OUT:
		return check_outfile(cmd, opt, path);
	case CLI_PATH_NONE:
		break;
	}
	return 0;
}

static void fmt_duration(char *buf, size_t n, double ms)
{
	if (ms >= 60000 && fmod(ms, 60000) == 0)
		snprintf(buf, n, "%.0fm", ms / 60000);
	else if (ms >= 1000 && fmod(ms, 1000) == 0)
		snprintf(buf, n, "%.0fs", ms / 1000);
	else
		snprintf(buf, n, "%.0fms", ms);
}

/* What a value of this option may be, for error messages. */
/* The name of choice i of a CLI_T_CHOICE option, NULL past the last. */
static const char *cli_choice(const struct cli_option *o, int i)
{
	size_t step = o->choice_size ? o->choice_size : sizeof(const char *);

	return *(const char *const *)(const void *)((const char *)o->choices + step * (size_t)i);
}

static void accepted(const struct cli_option *o, char *buf, size_t n)
{
	char lo[32], hi[32];
	size_t used;

	switch (o->type) {
	case CLI_T_INT:
		snprintf(buf, n, "an integer from %.0f to %.0f", o->min, o->max);
		break;
	case CLI_T_DOUBLE:
		snprintf(buf, n, "a number from %g to %g", o->min, o->max);
		break;
	case CLI_T_DURATION:
		fmt_duration(lo, sizeof(lo), o->min);
		fmt_duration(hi, sizeof(hi), o->max);
		snprintf(buf, n, "a duration such as 500ms, 2s or 1.5s (a plain number is seconds), "
			 "from %s to %s", lo, hi);
		break;
	case CLI_T_CHOICE:
		used = (size_t)snprintf(buf, n, "one of:");
		for (int i = 0; cli_choice(o, i) && used < n; i++)
			used += (size_t)snprintf(buf + used, n - used, " %s", cli_choice(o, i));
		break;
	default:
		snprintf(buf, n, "a non-empty value");
		break;
	}
}

static int bad_value(const struct cli_spec *spec, const struct cli_option *o,
		     const char *value)
{
	char acc[256];

	accepted(o, acc, sizeof(acc));
	return cli_usage_error(spec->name, "--%s: invalid value '%s'; expected %s",
			       o->name, value, acc);
}

static int set_value(const struct cli_spec *spec, const struct cli_option *o,
		     const char *value)
{
	char *end;

	switch (o->type) {
	case CLI_T_FLAG:
		*(bool *)o->value = true;
		return 0;
	case CLI_T_STRING:
		if (!*value)
			return bad_value(spec, o, value);
		*(const char **)o->value = value;
		return 0;
	case CLI_T_INT: {
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || end == value || *end || v < o->min || v > o->max)
			return bad_value(spec, o, value);
		*(long *)o->value = v;
		return 0;
	}
	case CLI_T_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(v) || v < o->min || v > o->max)
			return bad_value(spec, o, value);
		*(double *)o->value = v;
		return 0;
	}
	case CLI_T_DURATION: {
		unsigned long ms;

		if (!cli_parse_duration(value, &ms) || ms < o->min || ms > o->max)
			return bad_value(spec, o, value);
		*(unsigned long *)o->value = ms;
		return 0;
	}
	case CLI_T_CHOICE:
		for (int i = 0; cli_choice(o, i); i++) {
			if (!strcmp(cli_choice(o, i), value)) {
				*(int *)o->value = i;
				return 0;
			}
		}
		return bad_value(spec, o, value);
	}
	return bad_value(spec, o, value);
}

/* Print text from column col, wrapped at width, continuation lines at col. */
static void print_wrapped(const char *text, int col, int width)
{
	int pos = col - 1;
	const char *p = text;

	while (*p) {
		int len = (int)strcspn(p, " ");

		/* each word comes after one space; a line starts at col - 1 */
		if (pos >= col && pos + 1 + len > width) {
			printf("\n%*s", col - 1, "");
			pos = col - 1;
		}
		printf(" %.*s", len, p);
		pos += len + 1;
		p += len;
		while (*p == ' ')
			p++;
	}
	printf("\n");
}

/* The option's value as --help writes it: "", " DEV", "[=FILE]". */
static const char *value_fmt(const struct cli_option *o)
{
	if (o->type == CLI_T_FLAG)
		return "";
	return o->implied ? "[=%s]" : " %s";
}

static const char *metavar(const struct cli_option *o)
{
	return o->metavar ? o->metavar : "VALUE";
}

/* "-d, --device DEV", "    --json[=FILE]". */
static void option_left(const struct cli_option *o, char *buf, size_t n)
{
	char shortopt[8] = "    ";
	size_t used;

	if (o->short_name)
		snprintf(shortopt, sizeof(shortopt), "-%c, ", o->short_name);
	used = (size_t)snprintf(buf, n, "%s--%s", shortopt, o->name);
	if (used < n)
		snprintf(buf + used, n - used, value_fmt(o), metavar(o));
}

/* The option's help: the table's line, then the choices. */
static void option_text(const struct cli_option *o, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "%s", o->help ? o->help : "");

	if (o->type != CLI_T_CHOICE)
		return;
	for (int i = 0; cli_choice(o, i) && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "; one of: ",
					 cli_choice(o, i));
}

static void help_line(const struct cli_option *o)
{
	char left[64], text[512];

	option_left(o, left, sizeof(left));
	option_text(o, text, sizeof(text));
	if (strlen(left) > 24)
		printf("  %s\n  %-24s", left, "");
	else
		printf("  %-24s", left);
	print_wrapped(text, 27, 79);
}

#define MAX_HELP_OPTIONS 48

/* What --device takes in this command, and what it reads without it. */
struct device_help {
	char text[320];
};

/*
 * spec_options() - the options of a command in the order --help shows
 * them: --device, the command's own, --format, --json, --help. Copies,
 * so that --device's help can be the command's own. Returns how many.
 */
static int spec_options(const struct cli_spec *spec, struct cli_option *out,
			struct device_help *dh)
{
	int n = 0;

	if (spec->common & CLI_DEVICE) {
		snprintf(dh->text, sizeof(dh->text),
			 "the device: an index from 'navibench list', a PCI address (0000:03:00.0 or "
			 "03:00.0), a simulated GPU's name (sim0), cpu%s (default: %s)",
			 spec->common & CLI_DEVICE_ALL ? ", or all (every GPU at once)" : "",
			 spec->device_default ? spec->device_default : "0");
		out[n] = common_device;
		out[n++].help = dh->text;
	}
	for (const struct cli_option *o = spec->options; o && o->name; o++)
		if (n < MAX_HELP_OPTIONS - 3)
			out[n++] = *o;
	if (spec->common & CLI_FORMAT)
		out[n++] = spec->common & CLI_FORMAT_NO_PROMETHEUS ?
			common_format_no_prometheus : common_format;
	if (spec->common & CLI_JSON)
		out[n++] = common_json;
	out[n++] = common_help;
	return n;
}

/* The exit statuses, from the one table, after every --help. */
static void help_exit_statuses(void)
{
	char text[512];
	size_t used = 0;

	for (const struct cli_exit_status *e = cli_exit_statuses; e->status && used < sizeof(text);
	     e++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s %s",
					 e == cli_exit_statuses ? "" : ", ", e->status, e->brief);
	if (used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, ".");
	printf("\nExit status:");
	print_wrapped(text, 13, 79);
}

void cli_help(const struct cli_spec *spec)
{
	struct cli_option opts[MAX_HELP_OPTIONS];
	struct device_help dh;
	int n = spec_options(spec, opts, &dh);

	printf("Usage: navibench %s [options]%s%s\n", spec->name,
	       spec->positional ? " " : "", spec->positional ? spec->positional : "");
	if (spec->summary)
		printf("%s\n", spec->summary);
	if (spec->description)
		printf("\n%s\n", spec->description);
	printf("\nOptions:\n");
	for (int i = 0; i < n; i++)
		help_line(&opts[i]);
	if (spec->epilog)
		printf("\n%s\n", spec->epilog);
	help_exit_statuses();
	printf("See navibench(1).\n");
}

/* ---- the same, as roff for navibench.1 ---- */

static bool help_roff;

void cli_help_as_roff(void)
{
	help_roff = true;
}

void cli_roff_text(FILE *f, const char *text)
{
	bool bol = true;

	for (const char *p = text; *p; p++) {
		if (bol && (*p == '.' || *p == '\''))
			fputs("\\&", f);
		bol = *p == '\n';
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-')
			fputs("\\-", f);
		else
			fputc(*p, f);
	}
}

/* "\fB\-d\fR|\fB\-\-device\fR \fIDEV\fR", with sep between the two names. */
static void roff_option_names(const struct cli_option *o, const char *sep)
{
	if (o->short_name)
		printf("\\fB\\-%c\\fR%s", o->short_name, sep);
	printf("\\fB");
	cli_roff_text(stdout, "--");
	cli_roff_text(stdout, o->name);
	printf("\\fR");
	if (o->type == CLI_T_FLAG)
		return;
	printf(o->implied ? "[=\\fI" : " \\fI");
	cli_roff_text(stdout, metavar(o));
	printf(o->implied ? "\\fR]" : "\\fR");
}

/*
 * The command in navibench.1's COMMANDS section: a heading, the synopsis,
 * the summary, then each option with its help, as --help has them.
 */
static void cli_help_roff(const struct cli_spec *spec)
{
	struct cli_option opts[MAX_HELP_OPTIONS];
	struct device_help dh;
	char text[512];
	int n = spec_options(spec, opts, &dh);

	printf(".SS %s\n.nh\n.ad l\n\\fBnavibench %s\\fR", spec->name, spec->name);
	for (int i = 0; i < n - 1; i++) {	/* not --help */
		printf("\n[");
		roff_option_names(&opts[i], "|");
		printf("]");
	}
	if (spec->positional) {
		printf("\n\\fI");
		cli_roff_text(stdout, spec->positional);
		printf("\\fR");
	}
	printf("\n.ad\n.hy\n.PP\n");
	cli_roff_text(stdout, spec->summary ? spec->summary : "");
	printf("\n");
	for (int i = 0; i < n; i++) {
		printf(".TP\n");
		roff_option_names(&opts[i], ", ");
		option_text(&opts[i], text, sizeof(text));
		printf("\n");
		cli_roff_text(stdout, text);
		printf("\n");
	}
	printf(".PP\n");	/* the prose after it is a paragraph of its own */
}

static const struct cli_option *find_long(const struct cli_spec *spec, const char *name,
					  size_t len)
{
	for (const struct cli_option *o = spec->options; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct cli_option *find_short(const struct cli_spec *spec, char c)
{
	for (const struct cli_option *o = spec->options; o && o->name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* Which option an argument names. */
enum common_opt { OPT_OWN, OPT_DEVICE, OPT_JSON, OPT_FORMAT, OPT_HELP };

struct parsed_arg {
	enum common_opt which;
	const struct cli_option *o;	/* OPT_OWN: the command's option, NULL: unknown */
	const char *value;		/* "--opt=value", "-ovalue"; NULL when none */
	char name[64];			/* as typed, for messages */
};

static void classify(const struct cli_spec *spec, const char *arg, struct parsed_arg *a)
{
	memset(a, 0, sizeof(*a));
	if (arg[1] == '-') {
		const char *name = arg + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);

		if (eq)
			a->value = eq + 1;
		snprintf(a->name, sizeof(a->name), "--%.*s", (int)len, name);
		if ((spec->common & CLI_DEVICE) && len == 6 && !strncmp(name, "device", 6))
			a->which = OPT_DEVICE;
		else if ((spec->common & CLI_JSON) && len == 4 && !strncmp(name, "json", 4))
			a->which = OPT_JSON;
		else if ((spec->common & CLI_FORMAT) && len == 6 && !strncmp(name, "format", 6))
			a->which = OPT_FORMAT;
		else if (len == 4 && !strncmp(name, "help", 4))
			a->which = OPT_HELP;
		else
			a->o = find_long(spec, name, len);
		return;
	}
	if (arg[2])
		a->value = arg + 2;
	snprintf(a->name, sizeof(a->name), "-%c", arg[1]);
	if ((spec->common & CLI_DEVICE) && arg[1] == 'd')
		a->which = OPT_DEVICE;
	else if ((spec->common & CLI_JSON) && arg[1] == 'j')
		a->which = OPT_JSON;
	else if (arg[1] == 'h')
		a->which = OPT_HELP;
	else
		a->o = find_short(spec, arg[1]);
}

/*
 * The paths given, checked once every argument is parsed: --help wins
 * over a bad path, and the first bad one is said.
 */
struct path_checks {
	int n;
	struct {
		char opt[64];		/* "--json"; "" for a positional argument */
		enum cli_path kind;
		const char *path;
	} c[32];
};

static int add_path_check(const struct cli_spec *spec, struct path_checks *pc,
			  const char *opt, enum cli_path kind, const char *path)
{
	if (kind == CLI_PATH_NONE)
		return 0;
	if (pc->n == (int)(sizeof(pc->c) / sizeof(pc->c[0])))
		return cli_usage_error(spec->name, "more than %d files given", pc->n);
	snprintf(pc->c[pc->n].opt, sizeof(pc->c[0].opt), "%s", opt);
	pc->c[pc->n].kind = kind;
	pc->c[pc->n++].path = path;
	return 0;
}

static int run_path_checks(const struct cli_spec *spec, const struct path_checks *pc)
{
	for (int i = 0; i < pc->n; i++)
		if (check_path(spec->name, pc->c[i].opt, pc->c[i].kind, pc->c[i].path))
			return NB_EXIT_USAGE;
	return 0;
}

/*
 * take_optional() - the value of an option whose value may be left out
 * (struct cli_option.implied): given with it, or the next argument when
 * that does not start with '-' and the command takes no positional
 * arguments (else only when it is "-"), or implied. *i moves past a value
 * taken.
 */
static const char *take_optional(const struct cli_spec *spec, const struct cli_option *o,
				 int argc, char **argv, int *i, const char *value)
{
	if (value)
		return value;
	if (*i + 1 < argc && ((!spec->positional && argv[*i + 1][0] != '-') ||
			      !strcmp(argv[*i + 1], "-")))
		return argv[++*i];
	return o->implied;
}

/* --json alone prints to stdout; --json=FILE and "--json FILE" write FILE. */
static int take_json(const struct cli_spec *spec, int argc, char **argv, int *i,
		     const char *value, struct cli_common *common, struct path_checks *pc)
{
	value = take_optional(spec, &common_json, argc, argv, i, value);
	if (!*value)
		return cli_usage_error(spec->name,
				       "--json: empty file name; give --json alone for stdout");
	if (add_path_check(spec, pc, "--json", common_json.path, value))
		return NB_EXIT_USAGE;
	common->json = true;
	common->json_path = value == common_json.implied ? NULL : value;
	return 0;
}

/* --format and --json together: --json is --format json, and a format is not ready. */
static int settle_format(const struct cli_spec *spec, int format, bool format_given,
			 struct cli_common *common)
{
	const char *why = NULL;

	if (common->json && format_given && format != NB_FORMAT_JSON)
		return cli_usage_error(spec->name, "--json is --format json; it cannot go with "
				       "--format %s: give one of them", nb_format_names[format]);
	if (common->json)
		format = NB_FORMAT_JSON;
	common->format = nb_format_ops((enum nb_format)format);
	if (!nb_format_ready(common->format, &why))
		return cli_usage_error(spec->name, "--format %s: %s in this build; the formats "
				       "are text, json and csv", nb_format_names[format], why);
	return CLI_CONTINUE;
}

/* An option's value: given with it, or the next argument. */
static int take_value(const struct cli_spec *spec, int argc, char **argv, int *i,
		      struct parsed_arg *a)
{
	if (a->which == OPT_OWN && a->o->implied) {
		a->value = take_optional(spec, a->o, argc, argv, i, a->value);
		return 0;
	}
	if (a->which == OPT_DEVICE || a->which == OPT_FORMAT || a->o->type != CLI_T_FLAG) {
		if (a->value)
			return 0;
		if (*i + 1 >= argc)
			return cli_usage_error(spec->name, "%s needs a value (%s)", a->name,
					       a->which == OPT_DEVICE ? "DEV" :
					       a->which == OPT_FORMAT ? common_format.metavar :
					       a->o->metavar ? a->o->metavar : "VALUE");
		a->value = argv[++*i];
		return 0;
	}
	if (a->value)
		return cli_usage_error(spec->name, "%s takes no value (got '%s')", a->name,
				       a->value);
	return 0;
}

/* One parse of a command's arguments. */
struct parse {
	const struct cli_spec *spec;
	struct cli_common *common;
	struct cli_option format_opt;	/* --format, its value in format */
	int format;
	bool format_given;
	struct path_checks pc;
};

/*
 * parse_option() - the option at argv[*i] and its value (*i moves past a
 * value taken). CLI_CONTINUE, or what cli_parse() returns.
 */
static int parse_option(struct parse *ps, int argc, char **argv, int *i)
{
	const struct cli_spec *spec = ps->spec;
	struct parsed_arg a;
	int rc;

	classify(spec, argv[*i], &a);
	if (a.which == OPT_HELP) {
		if (help_roff)
			cli_help_roff(spec);
		else
			cli_help(spec);
		return NB_EXIT_OK;
	}
	if (a.which == OPT_JSON)
		return take_json(spec, argc, argv, i, a.value, ps->common, &ps->pc) ?: CLI_CONTINUE;
	if (a.which == OPT_OWN && !a.o)
		return cli_usage_error(spec->name, "unknown option '%s'", a.name);
	rc = take_value(spec, argc, argv, i, &a);
	if (rc)
		return rc;
	if (a.which == OPT_DEVICE) {
		if (!*a.value)
			return cli_usage_error(spec->name,
					       "--device: empty value; expected an index, a PCI address or cpu");
		ps->common->device = a.value;
		ps->common->device_given = true;
		return CLI_CONTINUE;
	}
	ps->format_given |= a.which == OPT_FORMAT;
	rc = set_value(spec, a.which == OPT_FORMAT ? &ps->format_opt : a.o, a.value);
	if (rc)
		return rc;
	if (a.which == OPT_OWN && a.o->type == CLI_T_STRING) {
		char opt[64];

		snprintf(opt, sizeof(opt), "--%s", a.o->name);
		if (add_path_check(spec, &ps->pc, opt, a.o->path, a.value))
			return NB_EXIT_USAGE;
	}
	return CLI_CONTINUE;
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      struct cli_common *common)
{
	struct parse ps = { .spec = spec, .common = common, .format_opt = common_format,
			    .format = NB_FORMAT_TEXT };
	bool only_args = false;
	int nargs = 0, rc;

	memset(common, 0, sizeof(*common));
	common->device = "0";
	common->args = argv + 1;
	if (spec->common & CLI_FORMAT_NO_PROMETHEUS)
		ps.format_opt = common_format_no_prometheus;
	ps.format_opt.value = &ps.format;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (only_args || arg[0] != '-' || !arg[1]) {
			if (!spec->positional)
				return cli_usage_error(spec->name, "unexpected argument '%s': this "
						       "command takes options only (a value goes "
						       "with its option: --opt VALUE or --opt=VALUE)",
						       arg);
			if (add_path_check(spec, &ps.pc, "", spec->common & CLI_ARGS_IN ?
					   CLI_PATH_IN : CLI_PATH_NONE, arg))
				return NB_EXIT_USAGE;
			common->args[nargs++] = argv[i];
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_args = true;
			continue;
		}
		rc = parse_option(&ps, argc, argv, &i);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	common->nargs = nargs;
	if (run_path_checks(spec, &ps.pc))
		return NB_EXIT_USAGE;
	return settle_format(spec, ps.format, ps.format_given, common);
}
