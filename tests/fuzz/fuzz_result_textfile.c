// SPDX-License-Identifier: MIT
/*
 * nb_result_textfile() (user/cmd/run_textfile.c), what `navibench run
 * --textfile DIR` writes, on any JSON: the seeds are real results (one
 * device, --device all, with a telemetry record). Either it refuses the
 * document, says why in one message naming the field and writes nothing,
 * or every file it writes is DIR/navibench-run-<index>.prom in the
 * Prometheus text format as node_exporter's textfile collector takes it:
 * HELP and TYPE once per family before its series, navibench_run_* names,
 * well-formed labels, a number per series, no series twice, and no
 * temporary file left.
 */
#include "fuzz.h"

#include <dirent.h>
#include <json-c/json.h>
#include <math.h>

#include "navibench.h"
#include "cmd/run_textfile.h"

static char out_dir[64];
static struct fuzz_capture cap;

static void clear_dir(void)
{
	DIR *d = opendir(out_dir);
	struct dirent *e;
	char path[512];

	FUZZ_CHECK(d, "%s gone", out_dir);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", out_dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

static void cleanup(void)
{
	clear_dir();
	rmdir(out_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* tmpfs when there is one: nb_write_file_atomic() syncs the file */
	snprintf(out_dir, sizeof(out_dir), "%s/nb-fuzz-tf.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(out_dir))
		abort();
	atexit(cleanup);
	fuzz_capture_init(&cap);
	return 0;
}

/* {name="value",...}: names [a-zA-Z_][a-zA-Z0-9_]*, values escaped; end of it. */
static const char *labels(const char *s, const char *line)
{
	FUZZ_CHECK(*s == '{', "no labels: %s", line);
	s++;
	while (*s != '}') {
		FUZZ_CHECK((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_',
			   "label name: %s", line);
		s += strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		FUZZ_CHECK(s[0] == '=' && s[1] == '"', "label: %s", line);
		for (s += 2; *s != '"'; s++) {
			FUZZ_CHECK(*s, "label value not closed: %s", line);
			if (*s == '\\') {
				s++;
				FUZZ_CHECK(*s == '\\' || *s == '"' || *s == 'n', "escape: %s", line);
			}
		}
		s++;
		if (*s == ',')
			s++;
		else
			FUZZ_CHECK(*s == '}', "after a label: %s", line);
	}
	return s + 1;
}

/* One file: the text format, families declared once, no series twice. */
static void check_file(const char *path)
{
	static char text[1 << 20];
	char typed[32][64], series[4096][160];
	int ntyped = 0, nseries = 0;
	FILE *f = fopen(path, "r");
	size_t len;

	FUZZ_CHECK(f, "cannot read %s", path);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	FUZZ_CHECK(len && text[len - 1] == '\n', "%s: no final newline", path);
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		if (!strncmp(line, "# HELP navibench_run_", 21))
			continue;
		if (!strncmp(line, "# TYPE ", 7)) {
			size_t n = strcspn(line + 7, " ");

			FUZZ_CHECK(!strcmp(line + 7 + n, " gauge") && n < 64 && ntyped < 32,
				   "TYPE: %s", line);
			for (int i = 0; i < ntyped; i++)
				FUZZ_CHECK(strncmp(typed[i], line + 7, n) || typed[i][n],
					   "TYPE twice: %s", line);
			snprintf(typed[ntyped++], 64, "%.*s", (int)n, line + 7);
			continue;
		}
		size_t n = strcspn(line, "{");

		FUZZ_CHECK(!strncmp(line, "navibench_run_", 14) && ntyped &&
			   strlen(typed[ntyped - 1]) == n && !strncmp(typed[ntyped - 1], line, n),
			   "a series not under its family's TYPE: %s", line);
		const char *v = labels(line + n, line);
		char *end;

		FUZZ_CHECK(*v == ' ', "no value: %s", line);
		*(char *)v = '\0';
		strtod(v + 1, &end);
		FUZZ_CHECK(v[1] && !*end, "value '%s' of %s", v + 1, line);
		/* the same series twice: the collector refuses the file */
		for (int i = 0; i < nseries; i++)
			FUZZ_CHECK(strncmp(series[i], line, sizeof(series[i]) - 1) ||
				   strlen(line) >= sizeof(series[i]) - 1, "twice: %s", line);
		if (nseries < 4096)
			snprintf(series[nseries++], sizeof(series[0]), "%s", line);
	}
}

/* What is in the directory: navibench-run-<n>.prom only; how many. */
static int check_dir(void)
{
	DIR *d = opendir(out_dir);
	struct dirent *e;
	char path[512];
	int n = 0;

	FUZZ_CHECK(d, "%s gone", out_dir);
	while ((e = readdir(d))) {
		size_t digits = strspn(e->d_name + 14, "0123456789");

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		FUZZ_CHECK(!strncmp(e->d_name, "navibench-run-", 14) && digits &&
			   !strcmp(e->d_name + 14 + digits, ".prom"), "left behind: %s", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", out_dir, e->d_name);
		check_file(path);
		n++;
	}
	closedir(d);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_tokener *tok;
	struct json_object *in;
	const char *err;
	int rc, files;

	if (size > (1u << 20))
		return 0;
	tok = json_tokener_new();
	in = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!in)
		return 0;
	clear_dir();
	fuzz_capture_begin(&cap);
	rc = nb_result_textfile("run", in, out_dir);
	err = fuzz_capture_end(&cap);
	json_object_put(in);
	files = check_dir();
	if (rc == NB_EXIT_OK) {
		FUZZ_CHECK(!*err, "written, yet said: %s", err);
	} else {
		FUZZ_CHECK(rc == NB_EXIT_USAGE, "exit %d: %s", rc, err);
		FUZZ_CHECK(!files, "refused (%s), yet %d files written", err, files);
		/* one message (a string of the input in it may hold a newline) */
		FUZZ_CHECK(!strncmp(err, "navibench run: --textfile: the result: ", 39) && err[39] &&
			   err[strlen(err) - 1] == '\n', "the refusal: '%s'", err);
	}
	return 0;
}
