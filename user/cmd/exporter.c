// SPDX-License-Identifier: MIT
/*
 * navibench exporter: the devices' readings in the Prometheus text format,
 * served over HTTP (libmicrohttpd) at /metrics or written once, atomically,
 * for node_exporter's textfile collector.
 *
 * The HTTP server reads the devices at scrape time, but at most once per
 * --cache interval: a scrape that finds a read younger than that gets the
 * same text, and scrapes that arrive while a read runs wait for it rather
 * than start their own, so concurrent scrapes never multiply the reads
 * (every read opens render nodes and the module's files). What a read
 * cannot see (a render node closed to this user, the module's debugfs,
 * a runtime-suspended GPU it will not wake) is absent from the metrics,
 * said in comment lines at the top of them, and said on stderr when it
 * changes (not at every scrape).
 *
 * The GPUs' PCIe throughput (amdgpu's pcie_bw) takes a second to read:
 * a thread samples it every --pcie-interval (sources/pcie_bw.h), and a
 * read of the devices takes its last sample, never waiting for one.
 *
 * SIGTERM or SIGINT stops it: the signals are blocked in every thread and
 * taken by sigwait() in the main one, which stops the daemon (waiting for
 * the requests in flight) and exits 0.
 */
#include <errno.h>
#ifndef NB_WITHOUT_LIBMICROHTTPD
#include <microhttpd.h>
#endif
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "cli.h"
#include "optional.h"
#include "navibench.h"
#include "print/print.h"
#include "cmd/processes.h"
#include "cmd/run_textfile.h"
#include "cmd/sensors.h"
#include "sources/pcie_bw.h"

#define DEFAULT_LISTEN "127.0.0.1:9457"
#define DEFAULT_TEXTFILE_DIR "/var/lib/prometheus/node-exporter"
#define TEXTFILE_NAME "navibench.prom"
#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

static const char *opt_listen;
static const char *opt_textfile;	/* the directory, when --textfile is given */
static bool opt_processes;
static unsigned long opt_cache = 1000;
static unsigned long opt_pcie_interval = 10000;

static const struct cli_option exporter_opts[] = {
	CLI_STRING_OPT("listen", 'l', &opt_listen, "ADDR:PORT",
		       "serve /metrics there (default " DEFAULT_LISTEN "; [::1]:PORT for IPv6, "
		       ":PORT for every address)"),
	{ .name = "textfile", .short_name = 't', .type = CLI_T_STRING, .value = &opt_textfile,
	  .metavar = "DIR", .implied = DEFAULT_TEXTFILE_DIR,
	  .help = "write DIR/" TEXTFILE_NAME " once, atomically, for node_exporter's textfile "
		  "collector, and exit (DIR default " DEFAULT_TEXTFILE_DIR ")" },
	CLI_FLAG_OPT("processes", 'p', &opt_processes,
		     "export per-process GPU use too (engine time, VRAM, GTT per pid; one series "
		     "set per process: off by default to keep the series count bounded)"),
	CLI_FLAG_OPT("no-hwmon-duplicates", 0, &nb_prom_no_hwmon_duplicates,
		     "leave out, for amdgpu GPUs, the readings node_exporter's hwmon collector "
		     "already exports (temperatures, power, voltages, fan, PWM), for hosts that "
		     "run both (default: every reading)"),
	CLI_DURATION_OPT("cache", 'c', &opt_cache, 0, 60000,
			 "serve a read to every scrape within this time of it (default 1s; "
			 "0: read at every scrape, still one read at a time)"),
	CLI_DURATION_OPT("pcie-interval", 0, &opt_pcie_interval, 0, 3600000,
			 "sample the GPUs' PCIe throughput (amdgpu's pcie_bw, a second per read) "
			 "in the background this often, for the scrapes to serve (default 10s; 0: "
			 "not at all; not with --textfile)"),
	CLI_OPT_END
};

static const struct cli_spec exporter_spec = {
	.name = "exporter",
	.summary = "Export every device's readings to Prometheus: serve /metrics over HTTP, or\n"
		   "write a file for node_exporter's textfile collector (--textfile).",
	.options = exporter_opts,
	.epilog = "Paths other than /metrics and / answer 404, methods other than GET and HEAD\n"
		  "405. SIGTERM or SIGINT stops the server cleanly (exit 0). Runs as any user:\n"
		  "what that user cannot read is said on stderr and left out of the metrics. A\n"
		  "runtime-suspended GPU is never woken. --processes adds a set of series per\n"
		  "process with a GPU client (labels pid, comm): mind the series count on a busy\n"
		  "host. The metrics: navibench(1), PROMETHEUS METRICS.",
};

/* ---- the metrics text, read at most once per cache interval ---- */

struct cache {
	pthread_mutex_t lock;	/* held during a read: concurrent scrapes wait */
	char *text;		/* the last read's metrics; NULL before the first */
	size_t len;
	double read_at;		/* CLOCK_MONOTONIC seconds */
	double read_secs;	/* how long the last read took */
	unsigned long long reads, scrapes;
	char *notes;		/* the notes last said on stderr */
};

#ifndef NB_WITHOUT_LIBMICROHTTPD
static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
#endif

#define NOTE_PREFIX "# navibench: "

/*
 * read_metrics() - one exposition: every device's metrics
 * (nb_sensors_snapshot()) and with --processes every process's use
 * (nb_processes_snapshot()) in one document, so that each family has one
 * HELP and TYPE and a device's identity is there once; into a new buffer.
 * 0, or -1 after saying why.
 */
static int read_metrics(char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);
	struct nb_print *p;
	int rc;

	if (!f) {
		fprintf(stderr, "navibench exporter: out of memory\n");
		return -1;
	}
	p = nb_print_open_file(nb_format_ops(NB_FORMAT_PROMETHEUS), f, "exporter");
	rc = nb_sensors_snapshot(p, 0);
	if (opt_processes && (rc == NB_EXIT_OK || rc == NB_EXIT_NODEV))
		rc = nb_processes_snapshot(p);
	if (rc == NB_EXIT_OK || rc == NB_EXIT_NODEV)
		rc = nb_print_close(p);
	else
		nb_print_discard(p);
	if (fclose(f) || rc != NB_EXIT_OK) {
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}

/*
 * say_notes() - the notes in the text (what could not be read, and with
 * --processes the processes not readable: comment lines, at the top of
 * each part), on stderr, when they differ from the last ones said (*last,
 * updated): a log line when something changes, not one per scrape.
 */
static void say_notes(const char *text, char **last)
{
	size_t plen = strlen(NOTE_PREFIX), len = 0;
	char *notes = NULL;
	FILE *f = open_memstream(&notes, &len);

	if (!f)
		return;
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");

		if (!strncmp(l, NOTE_PREFIX, plen)) {
			fwrite(l, 1, n, f);
			fputc('\n', f);
		}
		l += n + (l[n] != '\0');
	}
	if (fclose(f) || (*last && !strcmp(*last, notes))) {
		free(notes);
		return;
	}
	free(*last);
	*last = notes;
	for (const char *l = notes; *l; l += strcspn(l, "\n") + 1)
		fprintf(stderr, "navibench exporter: %.*s\n",
			(int)(strcspn(l, "\n") - plen), l + plen);
}

#ifndef NB_WITHOUT_LIBMICROHTTPD
/*
 * scrape() - one scrape's body: the cached device metrics (read again when
 * older than --cache) followed by the exporter's own, in a new buffer the
 * caller frees. NULL when out of memory or the read failed.
 */
static char *scrape(struct cache *c, size_t *len)
{
	char *body = NULL;
	double now;
	FILE *f;

	pthread_mutex_lock(&c->lock);
	now = mono_now();
	c->scrapes++;
	if (!c->text || now - c->read_at >= (double)opt_cache / 1000) {
		char *text;
		size_t n;

		if (!read_metrics(&text, &n)) {
			say_notes(text, &c->notes);
			free(c->text);
			c->text = text;
			c->len = n;
			c->reads++;
			c->read_at = mono_now();
			c->read_secs = c->read_at - now;
		} else {
			/* never stale metrics as if they were current: 500 */
			free(c->text);
			c->text = NULL;
		}
	}
	f = c->text ? open_memstream(&body, len) : NULL;
	if (f) {
		fwrite(c->text, 1, c->len, f);
		fprintf(f, "# HELP navibench_exporter_scrapes_total Scrapes of /metrics answered.\n"
			   "# TYPE navibench_exporter_scrapes_total counter\n"
			   "navibench_exporter_scrapes_total %llu\n"
			   "# HELP navibench_exporter_reads_total Reads of the devices; scrapes within "
			   "the cache interval of a read share it.\n"
			   "# TYPE navibench_exporter_reads_total counter\n"
			   "navibench_exporter_reads_total %llu\n"
			   "# HELP navibench_exporter_read_duration_seconds How long the last read of "
			   "the devices took.\n"
			   "# TYPE navibench_exporter_read_duration_seconds gauge\n"
			   "navibench_exporter_read_duration_seconds %.6f\n",
			c->scrapes, c->reads, c->read_secs);
		if (fclose(f)) {
			free(body);
			body = NULL;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return body;
}

/* ---- HTTP ---- */

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *text, const char *allow)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result serve_metrics(struct cache *c, struct MHD_Connection *conn)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	size_t len;
	char *body = scrape(c, &len);

	if (!body)
		return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "navibench exporter: reading the devices failed; see its log\n", NULL);
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, CONTENT_TYPE);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * One request. Answered at the first call, before any body is read: a
 * request with a body is one this server does not take (405), and
 * libmicrohttpd then closes the connection rather than read the body.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "navibench exporter: only GET and HEAD\n", "GET, HEAD");
	if (!strcmp(url, "/metrics"))
		return serve_metrics(cls, conn);
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK,
			     "navibench exporter: the metrics are at /metrics\n", NULL);
	return reply(conn, MHD_HTTP_NOT_FOUND,
		     "navibench exporter: not found; the metrics are at /metrics\n", NULL);
}

static void on_mhd_error(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fprintf(stderr, "navibench exporter: ");
	vfprintf(stderr, fmt, ap);
}

/*
 * parse_listen() - "ADDR:PORT", "[ADDR6]:PORT" or ":PORT" (every address)
 * into a socket address. Returns 0, or NB_EXIT_USAGE after saying why.
 */
static int parse_listen(const char *spec, struct sockaddr_storage *ss, socklen_t *sslen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res;
	char host[256];
	const char *colon = strrchr(spec, ':');
	const char *port = colon ? colon + 1 : NULL;
	size_t hl = colon ? (size_t)(colon - spec) : 0;
	char *end;
	long pn;
	int err;

	if (!colon || !*port)
		return cli_usage_error("exporter", "--listen: invalid value '%s'; expected ADDR:PORT "
				       "(127.0.0.1:9457, [::1]:9457, :9457)", spec);
	pn = strtol(port, &end, 10);
	if (*end || pn < 1 || pn > 65535)
		return cli_usage_error("exporter", "--listen: invalid port '%s' in '%s'; expected "
				       "1 to 65535", port, spec);
	if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		return cli_usage_error("exporter", "--listen: address too long in '%s'", spec);
	memcpy(host, spec, hl);
	host[hl] = '\0';
	err = getaddrinfo(hl ? host : NULL, port, &hints, &res);
	if (err)
		return cli_usage_error("exporter", "--listen: cannot use address '%s': %s; expected "
				       "an IP address or a host name", host, gai_strerror(err));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*sslen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static int serve(const char *listen)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct cache c = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct MHD_Daemon *d;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	sigset_t set;
	int sig, rc = parse_listen(listen, &ss, &sslen);

	if (rc)
		return rc;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* Blocked before the daemon's thread starts, so that it inherits the mask. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* the first scrape registers the GPUs it samples */
	if (opt_pcie_interval && nb_pcie_bw_start(opt_pcie_interval))
		return NB_EXIT_FAIL;

	/* The first read says what cannot be read, before the first scrape. */
	free(scrape(&c, &(size_t){ 0 }));
	c.scrapes = 0;

	errno = 0;
	d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, &c,
			     MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, NULL,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_CONNECTION_LIMIT, 512U,
			     MHD_OPTION_CONNECTION_TIMEOUT, 10U,
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "navibench exporter: cannot listen on %s%s%s; is another exporter "
			"there? give another --listen ADDR:PORT\n", listen, errno ? ": " : "",
			errno ? strerror(errno) : "");
		nb_pcie_bw_stop();
		free(c.text);
		free(c.notes);
		return NB_EXIT_FAIL;
	}
	fprintf(stderr, "navibench exporter: serving http://%s/metrics%s\n", listen,
		listen[0] == ':' ? " (every address)" : "");
	while (sigwait(&set, &sig) || (sig != SIGTERM && sig != SIGINT))
		;
	MHD_stop_daemon(d);
	nb_pcie_bw_stop();
	fprintf(stderr, "navibench exporter: %s: stopped after %llu scrapes\n",
		strsignal(sig), c.scrapes);
	free(c.text);
	free(c.notes);
	pthread_mutex_destroy(&c.lock);
	return NB_EXIT_OK;
}
#else
static int serve(const char *listen)
{
	(void)listen;
	return nb_lib_off("exporter", "serving /metrics over HTTP (--textfile is on)",
			  NB_LIB_LIBMICROHTTPD);
}
#endif

/* ---- textfile ---- */

static int write_textfile(const char *dir)
{
	char path[4096];
	char *text, *notes = NULL;
	size_t len;
	int err;

	err = cli_check_dir("exporter", "--textfile", dir, NB_TEXTFILE_DIR_FIX);
	if (err)
		return err;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, TEXTFILE_NAME) >= sizeof(path))
		return cli_usage_error("exporter", "--textfile: directory name too long");
	if (read_metrics(&text, &len))
		return NB_EXIT_FAIL;
	say_notes(text, &notes);
	free(notes);
	err = nb_write_file_atomic(path, text, len);
	free(text);
	if (err) {
		fprintf(stderr, "navibench exporter: cannot write %s: %s%s\n", path, strerror(-err),
			err == -EACCES ? " (run as a user who may write there, e.g. through the "
			"systemd unit navibench-textfile.service)" : "");
		return NB_EXIT_FAIL;
	}
	return NB_EXIT_OK;
}

static int cmd_exporter(int argc, char **argv)
{
	struct cli_common cc;
	int rc = cli_parse(&exporter_spec, argc, argv, &cc);

	if (rc != CLI_CONTINUE)
		return rc;
	if (opt_textfile && opt_listen)
		return cli_usage_error("exporter", "--textfile and --listen: give one (a file for "
				       "node_exporter, or an HTTP server)");
	if (opt_textfile)
		return write_textfile(opt_textfile);
	return serve(opt_listen ? opt_listen : DEFAULT_LISTEN);
}

const struct nb_command nb_cmd_exporter = {
	.name = "exporter",
	.summary = "serve every device's readings to Prometheus (/metrics, textfile)",
	.run = cmd_exporter,
};
