// SPDX-License-Identifier: MIT
/*
 * navibench processes: which processes use the GPUs, from DRM fdinfo
 * (devices/fdinfo.c): per process its clients, the busy share of each
 * engine over the interval, and its VRAM and GTT, as amdgpu_top and nvtop
 * show them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "devices/devices.h"
#include "devices/fdinfo.h"
#include "navibench.h"
#include "print/print.h"
#include "cmd/processes.h"

static bool opt_watch;
static unsigned long opt_interval = 1000;
static long opt_count;

static const struct cli_option processes_opts[] = {
	CLI_FLAG_OPT("watch", 'w', &opt_watch,
		     "keep sampling: the same document every interval (a table, a JSON line, CSV rows)"),
	CLI_DURATION_OPT("interval", 'i', &opt_interval, 50, 3600000,
			 "time over which engine use is measured (default 1s)"),
	CLI_INT_OPT("count", 'n', &opt_count, "N", 1, 100000000,
		    "stop after N samples (default: 1, or until Ctrl-C with --watch)"),
	CLI_OPT_END
};

static const struct cli_spec processes_spec = {
	.name = "processes",
	.summary = "Show the processes using the AMD GPUs: per process its DRM clients, each\n"
		   "engine's busy share over the interval, and its VRAM and GTT, from the DRM\n"
		   "fdinfo of its open render and card nodes (/proc/PID/fdinfo).",
	.common = CLI_DEVICE | CLI_FORMAT | CLI_JSON,
	.device_default = "every amdgpu GPU",
	.options = processes_opts,
	.epilog = "Every amdgpu device unless --device names one; a row per process and device\n"
		  "(DEV: the device's index, - for a drm-pdev navibench does not list). A client\n"
		  "(a DRM file) open under several fds or shared by several processes is\n"
		  "counted once, for the lowest pid. CONTAINER: the first 12 digits of the id\n"
		  "of the container the process runs in, and in JSON, CSV and Prometheus its\n"
		  "runtime and Kubernetes pod UID, from /proc/PID/cgroup (- where it is in\n"
		  "none: navibench(1), Containers and pods). Processes whose fds you may not read\n"
		  "(another user's, unless root) are counted and said. Engine busy is the\n"
		  "client's engine time over the interval, and can pass 100% where an engine has\n"
		  "several rings. --format prometheus gives the engine times as counters instead\n"
		  "(not with --watch: 'navibench exporter --processes' serves them over time).\n"
		  "JSON Schema and CSV columns: navibench(1), Output.",
};

/* The engines shown as columns; JSON has the same keys with _percent. */
static const char *const engines[] = { "gfx", "compute", "dma", "dec", "enc" };
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The columns. The engine times (title NULL: not in text) are what the
 * client's fdinfo says, cumulative since it opened the device: the
 * Prometheus format exports them as counters (rate() gives the busy share
 * over any window) and leaves out the percentages, which hold only for
 * this command's interval.
 */
static const struct nb_column columns[] = {
	{ "device", "DEV", true },
	{ "pci_address", NULL, false },
	{ "pid", "PID", true },
	{ "command", "COMMAND", false },
	{ "container_runtime", NULL, false },
	{ "container_id", "CONTAINER", false },
	{ "pod_uid", NULL, false },
	{ "clients", "CLIENTS", true },
	{ "gfx_percent", "GFX", true },
	{ "compute_percent", "COMPUTE", true },
	{ "dma_percent", "DMA", true },
	{ "dec_percent", "DEC", true },
	{ "enc_percent", "ENC", true },
	{ "vram_bytes", "VRAM", true },
	{ "gtt_bytes", "GTT", true },
	{ "gfx_seconds", NULL, false },
	{ "compute_seconds", NULL, false },
	{ "dma_seconds", NULL, false },
	{ "dec_seconds", NULL, false },
	{ "enc_seconds", NULL, false },
};

/* The next cell of the row (nb_cell(): the column gives its key). */
static void put(struct nb_print *p, struct nb_value v)
{
	nb_cell(p, &v);
}

static struct nb_value bytes_value(bool has, uint64_t v, char *buf, size_t n)
{
	if (!has)
		return (struct nb_value){ .type = NB_V_MISSING, .text = "-" };
	return (struct nb_value){ .type = NB_V_UINT, .u = v, .unit = "B", .kind = NB_KIND_GAUGE,
		.text = nb_fmt_bytes(buf, n, v) };
}

/* The device of PCI address pci in l; NULL when none of l's has it. */
static const struct nb_devent *device_of(const struct nb_devlist *l, const char *pci)
{
	for (int i = 0; pci[0] && i < l->n; i++)
		if (l->dev[i].dev.kind == NB_DEV_AMDGPU && !strcmp(l->dev[i].dev.pci, pci))
			return &l->dev[i];
	return NULL;
}

/* A string cell, missing (text "-") when empty. */
static struct nb_value str_value(const char *s, const char *text)
{
	if (!s[0])
		return (struct nb_value){ .type = NB_V_MISSING, .text = "-" };
	return (struct nb_value){ .type = NB_V_STR, .s = s, .text = text };
}

/*
 * The process's container (its runtime, its id: in text the first 12
 * digits, as the runtimes' own tools show it) and pod, from its cgroup.
 */
static void put_container(struct nb_print *p, const struct nb_container *c)
{
	char shortid[16];

	snprintf(shortid, sizeof(shortid), "%.12s", c->id);
	put(p, str_value(c->runtime, NULL));
	put(p, str_value(c->id, shortid));
	put(p, str_value(c->pod_uid, NULL));
}

/* Engine e's time in the client's fdinfo, in s (a counter); missing if none. */
static struct nb_value engine_seconds(const struct nb_proc *pr, const char *e)
{
	int64_t ns = nb_proc_engine_ns(pr, e);

	if (ns < 0)
		return (struct nb_value){ .type = NB_V_MISSING };
	return (struct nb_value){ .type = NB_V_DBL, .d = ns / 1e9, .prec = 3, .unit = "s",
		.kind = NB_KIND_COUNTER };
}

/*
 * One process's use of one device: a row of the table, a record about
 * that device (when l has it).
 */
static void print_proc(struct nb_print *p, const struct nb_proc *pr,
		       const struct nb_proc *b, double wall_ns, const struct nb_devlist *l)
{
	const struct nb_devent *e = device_of(l, pr->pdev);
	struct nb_print_device id;
	char buf[3][32];

	if (e)
		nb_device_print_id(e, &id);
	nb_record_begin(p, e ? &id : NULL);
	put(p, e ? (struct nb_value){ .type = NB_V_INT, .i = e->dev.index } :
	    (struct nb_value){ .type = NB_V_MISSING, .text = "-" });
	put(p, pr->pdev[0] ? (struct nb_value){ .type = NB_V_STR, .s = pr->pdev } :
	    (struct nb_value){ .type = NB_V_MISSING });
	put(p, (struct nb_value){ .type = NB_V_INT, .i = pr->pid });
	put(p, pr->comm[0] ? (struct nb_value){ .type = NB_V_STR, .s = pr->comm } :
	    (struct nb_value){ .type = NB_V_MISSING, .text = "-" });
	put_container(p, &pr->container);
	put(p, (struct nb_value){ .type = NB_V_INT, .i = pr->nclients });
	for (size_t i = 0; i < NENGINES; i++) {
		double pct;

		if (!nb_proc_busy(pr, b, engines[i], wall_ns, &pct)) {
			put(p, (struct nb_value){ .type = NB_V_MISSING, .text = "-" });
			continue;
		}
		snprintf(buf[0], sizeof(buf[0]), "%.0f%%", pct);
		put(p, (struct nb_value){ .type = NB_V_DBL, .d = pct, .prec = 0,
		    .unit = "%", .kind = NB_KIND_GAUGE, .text = buf[0] });
	}
	put(p, bytes_value(pr->has_vram, pr->vram, buf[1], sizeof(buf[1])));
	put(p, bytes_value(pr->has_gtt, pr->gtt, buf[2], sizeof(buf[2])));
	for (size_t i = 0; i < NENGINES; i++)
		put(p, engine_seconds(pr, engines[i]));
	nb_record_end(p);
}

/*
 * The CSV columns (print.h, nb_print_columns()): the sample's time, then
 * the table's.
 */
static void declare_columns(struct nb_print *p)
{
	static const char *cols[1 + sizeof(columns) / sizeof(columns[0])];
	int n = 0;

	cols[n++] = "time";
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		cols[n++] = columns[i].key;
	nb_print_columns(p, cols, n);
}

/*
 * One sample: its time, the table and its counts; in a stream (--watch)
 * the same, one sample after another (a JSON line each).
 */
static void print_sample(struct nb_print *p, const struct nb_proc_scan *now,
			 const struct nb_proc_scan *before, double wall_ns,
			 const struct nb_devlist *l, bool note)
{
	int npids = 0;

	nb_time(p, "time", NULL);
	nb_table_begin(p, "processes", columns, (int)(sizeof(columns) / sizeof(columns[0])));
	for (int i = 0; i < now->nprocs; i++)
		npids += !i || now->procs[i].pid != now->procs[i - 1].pid;
	for (int i = 0; i < now->nprocs; i++)
		print_proc(p, &now->procs[i],
			   before ? nb_proc_find(before, now->procs[i].pid, now->procs[i].pdev) :
			   NULL, wall_ns, l);
	nb_table_end(p);
	if (wall_ns > 0)
		nb_u64(p, "interval_ms", NULL, (uint64_t)(wall_ns / 1e6 + 0.5), "ms");
	else
		nb_missing(p, "interval_ms", NULL, "one read of fdinfo: no busy shares");
	nb_i64(p, "clients", NULL, now->clients, NULL);
	nb_i64(p, "unreadable_processes", NULL, now->unreadable, NULL);
	nb_text(p, "%d process%s, %d client%s", npids, npids == 1 ? "" : "es",
		now->clients, now->clients == 1 ? "" : "s");
	if (note && now->unreadable)
		nb_note(p, "%d process%s not readable (another user's: run as root to see them)",
			now->unreadable, now->unreadable == 1 ? "" : "es");
}

/*
 * The devices (l, kept: rows name their device from it) and the PCI
 * address of the one --device names (*pci; NULL for every device).
 * Returns 0 or an exit status after saying why.
 */
static int devices(const struct cli_common *cc, struct nb_devlist *l, const char **pci)
{
	struct nb_devent *e;
	int rc;

	*pci = NULL;
	if (nb_devices_scan(l, 0))
		return NB_EXIT_FAIL;
	if (!cc->device_given)
		return 0;
	rc = nb_devices_find(l, cc->device, "processes", &e);
	if (!rc && e->dev.kind != NB_DEV_AMDGPU) {
		fprintf(stderr, "navibench processes: device %d is no amdgpu GPU; "
			"DRM fdinfo names amdgpu devices only ('navibench list' shows them)\n",
			e->dev.index);
		rc = NB_EXIT_NODEV;
	}
	if (rc)
		nb_devices_free(l);
	else
		*pci = e->dev.pci;
	return rc;
}

int nb_processes_snapshot(struct nb_print *p)
{
	struct nb_proc_scan scan;
	struct nb_devlist l;
	int rc;

	if (nb_devices_scan(&l, 0))
		return NB_EXIT_FAIL;
	rc = nb_proc_scan(NULL, &scan);
	if (rc) {
		fprintf(stderr, "navibench processes: cannot read /proc: %s\n", strerror(-rc));
		nb_devices_free(&l);
		return NB_EXIT_FAIL;
	}
	print_sample(p, &scan, NULL, 0, &l, true);
	nb_proc_scan_free(&scan);
	nb_devices_free(&l);
	return NB_EXIT_OK;
}

static int cmd_processes(int argc, char **argv)
{
	struct nb_proc_scan before, now;
	struct cli_common cc;
	struct nb_devlist l;
	struct nb_print *p;
	const char *pci, *why;
	double t0, t1;
	long samples;
	int rc = cli_parse(&processes_spec, argc, argv, &cc);

	if (rc != CLI_CONTINUE)
		return rc;
	rc = devices(&cc, &l, &pci);
	if (rc)
		return rc;
	t0 = now_ns();
	rc = nb_proc_scan(pci, &before);
	if (rc) {
		fprintf(stderr, "navibench processes: cannot read /proc: %s\n", strerror(-rc));
		nb_devices_free(&l);
		return NB_EXIT_FAIL;
	}
	samples = opt_count ? opt_count : opt_watch ? -1 : 1;
	if (samples != 1 && !nb_format_streams(cc.format, &why)) {
		nb_proc_scan_free(&before);
		nb_devices_free(&l);
		return cli_usage_error("processes", "--format %s cannot go with --watch (or --count "
				       "above 1): %s; for use over time, let Prometheus scrape "
				       "'navibench exporter --processes'", nb_format_name(cc.format),
				       why);
	}
	p = nb_print_open(cc.format, cc.json_path, "processes");
	declare_columns(p);
	if (samples != 1)
		nb_print_stream(p);
	for (long s = 0; samples < 0 || s < samples; s++) {
		sleep_ms(opt_interval);
		t1 = now_ns();
		rc = nb_proc_scan(pci, &now);
		if (rc) {
			fprintf(stderr, "navibench processes: cannot read /proc: %s\n", strerror(-rc));
			rc = NB_EXIT_FAIL;
			break;
		}
		print_sample(p, &now, &before, t1 - t0, &l, s == 0);
		nb_proc_scan_free(&before);
		before = now;
		t0 = t1;
		if (samples != 1)
			nb_print_flush(p);
	}
	nb_proc_scan_free(&before);
	nb_devices_free(&l);
	if (rc) {
		nb_print_discard(p);
		return rc;
	}
	return nb_print_close(p);
}

const struct nb_command nb_cmd_processes = {
	.name = "processes",
	.summary = "which processes use the GPUs: engine busy, VRAM, GTT (DRM fdinfo)",
	.run = cmd_processes,
};
