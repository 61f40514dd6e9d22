// SPDX-License-Identifier: MIT
/*
 * Every command's options through user/cli.c, with each command's real
 * option table: the input is an argument vector (arguments separated by
 * NUL bytes) given to navibench's main() (user/navibench.c, built with
 * -Dmain=nb_main), which picks the command as navibench does. cli_parse()
 * is wrapped (-Wl,--wrap=cli_parse): the real one parses, the checks below
 * run, and the command then returns at once instead of doing its work.
 * cli.c never calls exit(), so one process serves every input.
 *
 * Checked beyond crashes: the result is CLI_CONTINUE, 0 (--help) or
 * NB_EXIT_USAGE after a message on stderr naming the command; on success
 * every option that changed holds a value its type and range allow (a
 * string: non-empty, one of the arguments or the value an option left
 * without one implies; an int, number, duration: in
 * [min, max]; a choice: an index of its list), the positional arguments
 * are arguments given, and the common options are sane.
 */
#include "fuzz.h"

#include <fcntl.h>
#include <math.h>

#include "cli.h"
#include "navibench.h"

int nb_main(int argc, char **argv);
int __real_cli_parse(const struct cli_spec *spec, int argc, char **argv,
		     struct cli_common *common);
int __wrap_cli_parse(const struct cli_spec *spec, int argc, char **argv,
		     struct cli_common *common);

#define MAX_ARGS 64
#define MAX_OPTS 32

static struct fuzz_capture cap, cap_main;
static char *given[MAX_ARGS + 2];	/* the arguments as built, before parsing */
static int ngiven;
static int parsed;
static bool usage_reported;	/* by cli_parse, its message checked */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	(void)argc;
	(void)argv;
	/* --help text: not wanted, yet printed */
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	close(null);
	fuzz_capture_init(&cap);
	fuzz_capture_init(&cap_main);
	return 0;
}

static bool is_given(const char *s)
{
	for (int i = 0; i < ngiven; i++)
		if (given[i] && s >= given[i] && s <= given[i] + strlen(given[i]))
			return true;
	return false;
}

union optval {
	bool b;
	const char *s;
	long l;
	double d;
	unsigned long ms;
	int choice;
};

static void save(const struct cli_option *o, union optval *v)
{
	memset(v, 0, sizeof(*v));
	switch (o->type) {
	case CLI_T_FLAG: v->b = *(bool *)o->value; break;
	case CLI_T_STRING: v->s = *(const char **)o->value; break;
	case CLI_T_INT: v->l = *(long *)o->value; break;
	case CLI_T_DOUBLE: v->d = *(double *)o->value; break;
	case CLI_T_DURATION: v->ms = *(unsigned long *)o->value; break;
	case CLI_T_CHOICE: v->choice = *(int *)o->value; break;
	}
}

static void check_value(const struct cli_spec *spec, const struct cli_option *o,
			const union optval *before)
{
	union optval now;
	int n = 0;

	save(o, &now);
	switch (o->type) {
	case CLI_T_FLAG:
		FUZZ_CHECK(now.b == before->b || now.b, "%s --%s: flag cleared", spec->name, o->name);
		break;
	case CLI_T_STRING:
		if (now.s != before->s)
			FUZZ_CHECK(now.s && *now.s && (is_given(now.s) || now.s == o->implied),
				   "%s --%s: not a non-empty argument, nor its implied value",
				   spec->name, o->name);
		break;
	case CLI_T_INT:
		if (now.l != before->l)
			FUZZ_CHECK(now.l >= o->min && now.l <= o->max, "%s --%s: %ld out of [%g, %g]",
				   spec->name, o->name, now.l, o->min, o->max);
		break;
	case CLI_T_DOUBLE:
		if (memcmp(&now.d, &before->d, sizeof(double)))
			FUZZ_CHECK(isfinite(now.d) && now.d >= o->min && now.d <= o->max,
				   "%s --%s: %g out of [%g, %g]", spec->name, o->name, now.d,
				   o->min, o->max);
		break;
	case CLI_T_DURATION:
		if (now.ms != before->ms)
			FUZZ_CHECK(now.ms >= o->min && now.ms <= o->max,
				   "%s --%s: %lu ms out of [%g, %g]", spec->name, o->name,
				   now.ms, o->min, o->max);
		break;
	case CLI_T_CHOICE:
		while (o->choices[n])
			n++;
		if (now.choice != before->choice)
			FUZZ_CHECK(now.choice >= 0 && now.choice < n, "%s --%s: choice %d of %d",
				   spec->name, o->name, now.choice, n);
		break;
	}
}

int __wrap_cli_parse(const struct cli_spec *spec, int argc, char **argv,
		     struct cli_common *common)
{
	union optval before[MAX_OPTS];
	int nopts = 0, rc;
	const char *err;

	for (const struct cli_option *o = spec->options; o && o->name; o++) {
		FUZZ_CHECK(nopts < MAX_OPTS, "%s: more than %d options", spec->name, MAX_OPTS);
		save(o, &before[nopts++]);
	}
	fuzz_capture_begin(&cap);
	rc = __real_cli_parse(spec, argc, argv, common);
	err = fuzz_capture_end(&cap);
	parsed++;

	if (rc == NB_EXIT_USAGE) {
		char want[64];

		snprintf(want, sizeof(want), "navibench %s: ", spec->name);
		FUZZ_CHECK(!strncmp(err, want, strlen(want)) && strstr(err, "--help"),
			   "usage error without the command and the hint: '%s'", err);
		usage_reported = true;
		return rc;
	}
	FUZZ_CHECK(!cap.len, "%s: parsed (%d), yet printed '%s'", spec->name, rc, err);
	if (rc == NB_EXIT_OK)
		return rc;	/* --help */
	FUZZ_CHECK(rc == CLI_CONTINUE, "%s: cli_parse returned %d", spec->name, rc);

	nopts = 0;
	for (const struct cli_option *o = spec->options; o && o->name; o++)
		check_value(spec, o, &before[nopts++]);
	FUZZ_CHECK(common->device && *common->device, "%s: empty device", spec->name);
	FUZZ_CHECK(!common->device_given || is_given(common->device), "%s: device not given",
		   spec->name);
	FUZZ_CHECK(!common->json_path || (*common->json_path && is_given(common->json_path)),
		   "%s: json path", spec->name);
	FUZZ_CHECK(common->json || !common->json_path, "%s: json path without --json", spec->name);
	FUZZ_CHECK(common->nargs >= 0 && common->nargs < argc, "%s: %d positional of %d",
		   spec->name, common->nargs, argc);
	FUZZ_CHECK(!common->nargs || spec->positional, "%s: positional arguments accepted",
		   spec->name);
	for (int i = 0; i < common->nargs; i++)
		FUZZ_CHECK(is_given(common->args[i]), "%s: positional %d", spec->name, i);
	/* the command stops here: only its options are under test */
	return NB_EXIT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 2];
	int argc = 0, rc;
	size_t start = 0;

	if (size > 4096)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "navibench";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i == size || !buf[i]) {
			if (i < size || start < size)
				argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	memcpy(given, argv, sizeof(argv[0]) * (size_t)(argc + 1));
	ngiven = argc;

	parsed = 0;
	usage_reported = false;
	fuzz_capture_begin(&cap_main);
	rc = nb_main(argc, argv);
	fuzz_capture_end(&cap_main);
	if (rc == NB_EXIT_USAGE)
		FUZZ_CHECK(usage_reported || (cap_main.len && strstr(cap_main.text, "navibench")),
			   "exit status 2 without a message");
	FUZZ_CHECK(parsed <= 1, "cli_parse called %d times", parsed);
	FUZZ_CHECK(rc == NB_EXIT_OK || rc == NB_EXIT_USAGE, "exit status %d", rc);
	free(buf);
	return 0;
}
