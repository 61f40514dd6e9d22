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

#include "cli.h"
#include "navibench.h"
#include "print.h"

static const struct cli_option common_device =
	CLI_STRING_OPT("device", 'd', NULL, "DEV",
		       "the device: an index from 'navibench list', a PCI address "
		       "(0000:03:00.0) or cpu (default: 0)");
static const struct cli_option common_json =
	{ .name = "json", .short_name = 'j', .type = CLI_T_STRING,
	  .metavar = "[=FILE]",
	  .help = "print JSON instead of text; to FILE when given (- for stdout)" };
static const struct cli_option common_format =
	CLI_CHOICE_OPT("format", 0, NULL, "FMT", nb_format_names,
		       "output format (default text)");
static const struct cli_option common_help =
	CLI_FLAG_OPT("help", 'h', NULL, "show this help and exit");

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

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
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
		for (const char *const *c = o->choices; *c && used < n; c++)
			used += (size_t)snprintf(buf + used, n - used, " %s", *c);
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
		for (int i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], value)) {
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

static void help_line(const struct cli_option *o)
{
	char left[64];
	char shortopt[8] = "    ";

	if (o->short_name)
		snprintf(shortopt, sizeof(shortopt), "-%c, ", o->short_name);
	if (o->type == CLI_T_FLAG)
		snprintf(left, sizeof(left), "%s--%s", shortopt, o->name);
	else if (o->metavar && o->metavar[0] == '[')
		snprintf(left, sizeof(left), "%s--%s%s", shortopt, o->name, o->metavar);
	else
		snprintf(left, sizeof(left), "%s--%s %s", shortopt, o->name,
			 o->metavar ? o->metavar : "VALUE");
	char text[512];
	size_t used;

	used = (size_t)snprintf(text, sizeof(text), "%s", o->help ? o->help : "");
	if (o->type == CLI_T_CHOICE) {
		for (int i = 0; o->choices[i] && used < sizeof(text); i++)
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
						 i ? ", " : "; one of: ", o->choices[i]);
	}
	if (strlen(left) > 24)
		printf("  %s\n  %-24s", left, "");
	else
		printf("  %-24s", left);
	print_wrapped(text, 27, 79);
}

void cli_help(const struct cli_spec *spec)
{
	printf("Usage: navibench %s [options]%s%s\n", spec->name,
	       spec->positional ? " " : "", spec->positional ? spec->positional : "");
	if (spec->summary)
		printf("%s\n", spec->summary);
	if (spec->description)
		printf("\n%s\n", spec->description);
	printf("\nOptions:\n");
	if (spec->common & CLI_DEVICE)
		help_line(&common_device);
	for (const struct cli_option *o = spec->options; o && o->name; o++)
		help_line(o);
	if (spec->common & CLI_FORMAT)
		help_line(&common_format);
	if (spec->common & CLI_JSON)
		help_line(&common_json);
	help_line(&common_help);
	if (spec->epilog)
		printf("\n%s\n", spec->epilog);
	printf("\nSee navibench(1).\n");
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
 * --json alone prints to stdout; --json=FILE and "--json FILE" (FILE not
 * starting with '-') write FILE. *i moves past a value taken.
 */
static int take_json(const struct cli_spec *spec, int argc, char **argv, int *i,
		     const char *value, struct cli_common *common)
{
	common->json = true;
	if (!value && !spec->positional && *i + 1 < argc && argv[*i + 1][0] != '-')
		value = argv[++*i];
	else if (!value && *i + 1 < argc && !strcmp(argv[*i + 1], "-"))
		value = argv[++*i];
	if (value && !*value)
		return cli_usage_error(spec->name,
				       "--json: empty file name; give --json alone for stdout");
	common->json_path = value;
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

int cli_parse(const struct cli_spec *spec, int argc, char **argv,
	      struct cli_common *common)
{
	struct cli_option format_opt = common_format;
	bool only_args = false, format_given = false;
	int nargs = 0, format = NB_FORMAT_TEXT, rc;

	memset(common, 0, sizeof(*common));
	common->device = "0";
	common->args = argv + 1;
	format_opt.value = &format;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		struct parsed_arg a;

		if (only_args || arg[0] != '-' || !arg[1]) {
			if (!spec->positional)
				return cli_usage_error(spec->name, "unexpected argument '%s'", arg);
			common->args[nargs++] = argv[i];
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_args = true;
			continue;
		}
		classify(spec, arg, &a);
		if (a.which == OPT_HELP) {
			cli_help(spec);
			return NB_EXIT_OK;
		}
		if (a.which == OPT_JSON) {
			rc = take_json(spec, argc, argv, &i, a.value, common);
			if (rc)
				return rc;
			continue;
		}
		if (a.which == OPT_OWN && !a.o)
			return cli_usage_error(spec->name, "unknown option '%s'", a.name);
		rc = take_value(spec, argc, argv, &i, &a);
		if (rc)
			return rc;
		if (a.which == OPT_DEVICE) {
			if (!*a.value)
				return cli_usage_error(spec->name,
						       "--device: empty value; expected an index, a PCI address or cpu");
			common->device = a.value;
			common->device_given = true;
			continue;
		}
		format_given |= a.which == OPT_FORMAT;
		rc = set_value(spec, a.which == OPT_FORMAT ? &format_opt : a.o, a.value);
		if (rc)
			return rc;
	}
	common->nargs = nargs;
	return settle_format(spec, format, format_given, common);
}
