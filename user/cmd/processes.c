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

#include <json-c/json.h>

#include "cli.h"
#include "devices.h"
#include "fdinfo.h"
#include "navibench.h"
#include "print.h"

static bool opt_watch;
static unsigned long opt_interval = 1000;
static long opt_count;

static const struct cli_option processes_opts[] = {
	CLI_FLAG_OPT("watch", 'w', &opt_watch, "keep sampling, one table (one JSON line) per interval"),
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
	.common = CLI_DEVICE | CLI_JSON,
	.options = processes_opts,
	.epilog = "Every amdgpu device unless --device names one. A client (a DRM file) open\n"
		  "under several fds or shared by several processes is counted once, for the\n"
		  "lowest pid. Processes whose fds you may not read (another user's, unless\n"
		  "root) are counted and said. Engine busy is the client's engine time over the\n"
		  "interval, and can pass 100% where an engine has several rings.",
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

/* Busy % of p on engine e over wall_ns since before (NULL: not known then). */
static bool busy(const struct nb_proc *p, const struct nb_proc *before, const char *e,
		 double wall_ns, double *pct)
{
	int64_t now, then;

	if (!before || wall_ns <= 0)
		return false;
	/* amdgpu leaves out an engine the client has not used: 0 ns. */
	now = nb_proc_engine_ns(p, e);
	then = nb_proc_engine_ns(before, e);
	now = now < 0 ? 0 : now;
	then = then < 0 ? 0 : then;
	/* A client closed in between can make the sum go down: 0, not less. */
	*pct = now > then ? (now - then) * 100.0 / wall_ns : 0;
	return true;
}

static const struct nb_column columns[] = {
	{ "pid", "PID", true },
	{ "command", "COMMAND", false },
	{ "clients", "CLIENTS", true },
	{ "gfx_percent", "GFX", true },
	{ "compute_percent", "COMPUTE", true },
	{ "dma_percent", "DMA", true },
	{ "dec_percent", "DEC", true },
	{ "enc_percent", "ENC", true },
	{ "vram_bytes", "VRAM", true },
	{ "gtt_bytes", "GTT", true },
};

static void bytes_cell(bool has, uint64_t v)
{
	char buf[32];

	if (!has)
		nb_cell(NULL, "-");
	else
		nb_cell(json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v), "%s",
			nb_fmt_bytes(buf, sizeof(buf), v));
}

static void print_sample(const struct nb_proc_scan *now, const struct nb_proc_scan *before,
			 double wall_ns, const char *pci)
{
	nb_str("device", NULL, pci);
	nb_u64("interval_ms", NULL, (uint64_t)(wall_ns / 1e6 + 0.5), "ms");
	nb_table_begin("processes", columns, sizeof(columns) / sizeof(columns[0]));
	for (int i = 0; i < now->nprocs; i++) {
		const struct nb_proc *p = &now->procs[i];
		const struct nb_proc *b = before ? nb_proc_find(before, p->pid) : NULL;

		nb_row_begin();
		nb_cell(json_object_new_int(p->pid), "%d", p->pid);
		nb_cell_str(p->comm[0] ? p->comm : NULL);
		nb_cell(json_object_new_int(p->nclients), "%d", p->nclients);
		for (size_t e = 0; e < NENGINES; e++) {
			double pct;

			if (busy(p, b, engines[e], wall_ns, &pct))
				nb_cell(json_object_new_double(pct), "%.0f%%", pct);
			else
				nb_cell(NULL, "-");
		}
		bytes_cell(p->has_vram, p->vram);
		bytes_cell(p->has_gtt, p->gtt);
		nb_row_end();
	}
	nb_table_end();
	nb_i64("clients", NULL, now->clients, NULL);
	nb_i64("unreadable_processes", NULL, now->unreadable, NULL);
	nb_text("%d process%s, %d client%s", now->nprocs, now->nprocs == 1 ? "" : "es",
		now->clients, now->clients == 1 ? "" : "s");
	if (now->unreadable)
		nb_text("%d process%s not readable (another user's: run as root to see them)",
			now->unreadable, now->unreadable == 1 ? "" : "es");
}

/* The PCI address of --device, or NULL for every device; rc on error. */
static int device_filter(const struct cli_common *cc, char *pci, size_t n, const char **out)
{
	struct nb_devlist l;
	struct nb_devent *e;
	int rc;

	*out = NULL;
	if (!cc->device_given)
		return 0;
	if (nb_devices_scan(&l, 0))
		return NB_EXIT_FAIL;
	rc = nb_devices_find(&l, cc->device, "processes", &e);
	if (!rc && e->dev.kind != NB_DEV_AMDGPU) {
		fprintf(stderr, "navibench processes: device %d is no amdgpu GPU; "
			"DRM fdinfo names amdgpu devices only ('navibench list' shows them)\n",
			e->dev.index);
		rc = NB_EXIT_NODEV;
	}
	if (!rc) {
		nb_strcpy(pci, n, e->dev.pci);
		*out = pci;
	}
	nb_devices_free(&l);
	return rc;
}

int cmd_processes(int argc, char **argv)
{
	struct nb_proc_scan before, now;
	struct cli_common cc;
	char pcibuf[32];
	const char *pci;
	double t0, t1;
	long samples;
	int rc = cli_parse(&processes_spec, argc, argv, &cc);

	if (rc != CLI_CONTINUE)
		return rc;
	rc = device_filter(&cc, pcibuf, sizeof(pcibuf), &pci);
	if (rc)
		return rc;
	t0 = now_ns();
	rc = nb_proc_scan(pci, &before);
	if (rc) {
		fprintf(stderr, "navibench processes: cannot read /proc: %s\n", strerror(-rc));
		return NB_EXIT_FAIL;
	}
	nb_print_begin(cc.json);
	samples = opt_count ? opt_count : opt_watch ? -1 : 1;
	for (long s = 0; samples < 0 || s < samples; s++) {
		sleep_ms(opt_interval);
		t1 = now_ns();
		rc = nb_proc_scan(pci, &now);
		if (rc) {
			fprintf(stderr, "navibench processes: cannot read /proc: %s\n", strerror(-rc));
			rc = NB_EXIT_FAIL;
			break;
		}
		print_sample(&now, &before, t1 - t0, pci);
		nb_proc_scan_free(&before);
		before = now;
		t0 = t1;
		if (samples != 1) {
			nb_print_line();
			nb_text("%s", "");
		}
	}
	nb_proc_scan_free(&before);
	if (rc) {
		nb_print_discard();
		return rc;
	}
	if (samples != 1) {
		nb_print_discard();
		return NB_EXIT_OK;
	}
	return nb_print_end(cc.json_path);
}
