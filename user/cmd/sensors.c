// SPDX-License-Identifier: MIT
/*
 * navibench sensors: live readings of a GPU, each tagged with its source.
 *
 * Sources, tried in this order for each reading (--source picks one):
 *   libdrm_amdgpu  AMDGPU_INFO_SENSOR and friends on the render node
 *   hwmon          amdgpu's hwmon directory in sysfs; "sysfs" for the PCI
 *                  device's own attributes (gpu_busy_percent, mem_info_*)
 *   gputelemetry   the module's debugfs "sensors" file (root only)
 * Each source is probed once per reading; one that fails is not asked
 * again (radeontop's habit), so a sample costs only what answers. A
 * reading no source gives is missing, never 0.
 *
 * A runtime-suspended GPU is not woken (libdrm ioctls and hwmon reads
 * resume it) unless --wake is given; the module's readings still show.
 */
#include <errno.h>
#include <json-c/json.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "amdgpu_lib.h"
#include "cli.h"
#include "devices.h"
#include "gtfs.h"
#include "print.h"

enum src { SRC_NONE, SRC_LIBDRM, SRC_HWMON, SRC_SYSFS, SRC_GT };
static const char *const src_names[] = {
	[SRC_NONE] = NULL, [SRC_LIBDRM] = "libdrm_amdgpu", [SRC_HWMON] = "hwmon",
	[SRC_SYSFS] = "sysfs", [SRC_GT] = "gputelemetry",
};

struct reading {
	bool valid;
	int64_t v;		/* unit of gt_sensor_defs[] */
	enum src src;
};

struct ctx {
	struct nb_devent *e;
	bool libdrm, hwmon, gt;		/* sources in use */
	struct nb_amdgpu a;
	char hwmon_dir[512];
	bool dead[GT_S_COUNT][SRC_GT + 1];	/* probed and failed */
	uint64_t vram_total;
	const char *why_missing[GT_S_COUNT];
};

/* Options. */
static bool opt_watch, opt_wake;
static unsigned long opt_interval = 1000;
static long opt_count;
static int opt_source;
static const char *const source_choices[] = { "auto", "libdrm", "hwmon", "gputelemetry", NULL };

static const struct cli_option sensors_opts[] = {
	CLI_FLAG_OPT("watch", 'w', &opt_watch,
		     "keep sampling: a live view on a terminal, one line per sample otherwise"),
	CLI_DURATION_OPT("interval", 'i', &opt_interval, 50, 3600000,
			 "time between samples with --watch (default 1s)"),
	CLI_INT_OPT("count", 'n', &opt_count, "N", 1, 100000000,
		    "stop after N samples (default: until Ctrl-C)"),
	CLI_CHOICE_OPT("source", 's', &opt_source, "SRC", source_choices,
		       "where readings come from (default auto: the first that answers)"),
	CLI_FLAG_OPT("wake", 0, &opt_wake, "read a runtime-suspended GPU anyway (wakes it up)"),
	CLI_OPT_END
};

static const struct cli_spec sensors_spec = {
	.name = "sensors",
	.summary = "Show a GPU's live readings (temperatures, clocks, power, voltages, fan, load,\n"
		   "VRAM), each with where it came from: libdrm_amdgpu, hwmon/sysfs or the\n"
		   "gputelemetry module. A reading none of them gives is shown as missing.",
	.common = CLI_DEVICE | CLI_JSON,
	.options = sensors_opts,
	.epilog = "With --watch on a terminal the view refreshes in place, with a sparkline of\n"
		  "recent values and min/max; Ctrl-C quits and restores the terminal. Not on a\n"
		  "terminal (or with --json), one line (one JSON object) per sample.\n"
		  "A runtime-suspended GPU is not woken unless --wake is given.",
};

/* ---- sources ---- */

static bool read_i64(const char *path, int64_t *v)
{
	char buf[64], *end;

	if (nb_read_file(path, buf, sizeof(buf)))
		return false;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && end != buf;
}

static void find_hwmon(struct ctx *c)
{
	char path[192];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/hwmon", c->e->drm.sysdev);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "hwmon", 5)) {
			snprintf(c->hwmon_dir, sizeof(c->hwmon_dir), "%s/%s", path, de->d_name);
			break;
		}
	}
	closedir(d);
}

static bool from_libdrm(struct ctx *c, int s, struct reading *r)
{
	uint32_t v = 0;
	int64_t scale = 1;
	int q;

	switch (s) {
	case GT_S_SCLK:
		q = AMDGPU_INFO_SENSOR_GFX_SCLK;
		break;
	case GT_S_MCLK:
		q = AMDGPU_INFO_SENSOR_GFX_MCLK;
		break;
	case GT_S_TEMP_EDGE:
		q = AMDGPU_INFO_SENSOR_GPU_TEMP;
		break;
	case GT_S_GPU_BUSY:
		q = AMDGPU_INFO_SENSOR_GPU_LOAD;
		break;
	case GT_S_VDDGFX:
		q = AMDGPU_INFO_SENSOR_VDDGFX;
		break;
	case GT_S_VDDNB:
		q = AMDGPU_INFO_SENSOR_VDDNB;
		break;
	case GT_S_POWER_AVG:	/* W */
		q = AMDGPU_INFO_SENSOR_GPU_AVG_POWER;
		scale = 1000;
		break;
	case GT_S_POWER_INPUT:	/* W; kernels after 6.1, newer firmware */
		q = AMDGPU_INFO_SENSOR_GPU_INPUT_POWER;
		scale = 1000;
		break;
	case GT_S_VRAM_USED: {
		uint64_t u;

		if (nb_amdgpu_query(&c->a, AMDGPU_INFO_VRAM_USAGE, sizeof(u), &u))
			return false;
		r->v = (int64_t)u;
		return true;
	}
	case GT_S_VRAM_TOTAL:
		if (!c->vram_total) {
			struct drm_amdgpu_memory_info m;

			if (nb_amdgpu_query(&c->a, AMDGPU_INFO_MEMORY, sizeof(m), &m))
				return false;
			c->vram_total = m.vram.total_heap_size;
		}
		r->v = (int64_t)c->vram_total;
		return true;
	default:
		return false;
	}
	if (nb_amdgpu_sensor(&c->a, (unsigned int)q, &v))
		return false;
	r->v = (int64_t)v * scale;
	return true;
}

static bool from_hwmon(struct ctx *c, int s, struct reading *r, enum src *src)
{
	static const struct {
		int s;
		const char *file;
		bool sysfs;	/* the PCI device's own attribute */
		int64_t div;
	} map[] = {
		{ GT_S_TEMP_EDGE, "temp1_input", false, 1 },
		{ GT_S_TEMP_JUNCTION, "temp2_input", false, 1 },
		{ GT_S_TEMP_MEM, "temp3_input", false, 1 },
		{ GT_S_SCLK, "freq1_input", false, 1000000 },
		{ GT_S_MCLK, "freq2_input", false, 1000000 },
		{ GT_S_POWER_AVG, "power1_average", false, 1000 },
		{ GT_S_POWER_INPUT, "power1_input", false, 1000 },
		{ GT_S_VDDGFX, "in0_input", false, 1 },
		{ GT_S_VDDNB, "in1_input", false, 1 },
		{ GT_S_FAN, "fan1_input", false, 1 },
		{ GT_S_FAN_PWM, "pwm1", false, 1 },
		{ GT_S_GPU_BUSY, "gpu_busy_percent", true, 1 },
		{ GT_S_MEM_BUSY, "mem_busy_percent", true, 1 },
		{ GT_S_VRAM_USED, "mem_info_vram_used", true, 1 },
		{ GT_S_VRAM_TOTAL, "mem_info_vram_total", true, 1 },
	};
	char path[600];

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		int64_t v;

		if (map[i].s != s)
			continue;
		if (map[i].sysfs)
			snprintf(path, sizeof(path), "%s/%s", c->e->drm.sysdev, map[i].file);
		else if (c->hwmon_dir[0])
			snprintf(path, sizeof(path), "%s/%s", c->hwmon_dir, map[i].file);
		else
			continue;
		if (read_i64(path, &v)) {
			r->v = v / map[i].div;
			*src = map[i].sysfs ? SRC_SYSFS : SRC_HWMON;
			return true;
		}
	}
	return false;
}

static void sample(struct ctx *c, struct reading r[GT_S_COUNT])
{
	struct gt_value gv[GT_S_COUNT];
	bool have_gt = false;

	if (c->gt && c->e->gt_name[0])
		have_gt = !gt_sensors(c->e->gt_name, gv);

	for (int s = 0; s < GT_S_COUNT; s++) {
		struct reading x = { 0 };
		enum src hsrc = SRC_HWMON;

		if (c->libdrm && !c->dead[s][SRC_LIBDRM]) {
			if (from_libdrm(c, s, &x)) {
				x.valid = true;
				x.src = SRC_LIBDRM;
			} else {
				c->dead[s][SRC_LIBDRM] = true;
			}
		}
		if (!x.valid && c->hwmon && !c->dead[s][SRC_HWMON]) {
			if (from_hwmon(c, s, &x, &hsrc)) {
				x.valid = true;
				x.src = hsrc;
			} else {
				c->dead[s][SRC_HWMON] = true;
			}
		}
		if (!x.valid && have_gt && gv[s].valid) {
			x.valid = true;
			x.v = gv[s].v;
			x.src = SRC_GT;
		}
		r[s] = x;
	}
}

/* ---- formatting ---- */

/* Text value in display units ("61.0 C", "118.0 W", "1.50 GiB"). */
static void fmt_value(int s, int64_t v, char *buf, size_t n)
{
	const char *unit = gt_sensor_defs[s].unit;

	if (!strcmp(unit, "mC"))
		snprintf(buf, n, "%.1f C", (double)v / 1000);
	else if (!strcmp(unit, "mW"))
		snprintf(buf, n, "%.1f W", (double)v / 1000);
	else if (!strcmp(unit, "B"))
		nb_fmt_bytes(buf, n, (uint64_t)v);
	else if (!strcmp(unit, "pwm"))
		snprintf(buf, n, "%lld/255", (long long)v);
	else
		snprintf(buf, n, "%lld %s", (long long)v, unit);
}

/* Compact form for one-line samples: display units, no spaces. */
static void fmt_compact(int s, int64_t v, char *buf, size_t n)
{
	const char *unit = gt_sensor_defs[s].unit;

	if (!strcmp(unit, "mC"))
		snprintf(buf, n, "%.1fC", (double)v / 1000);
	else if (!strcmp(unit, "mW"))
		snprintf(buf, n, "%.1fW", (double)v / 1000);
	else if (!strcmp(unit, "B"))
		snprintf(buf, n, "%.0fMiB", (double)v / 1048576);
	else
		snprintf(buf, n, "%lld%s", (long long)v, strcmp(unit, "pwm") ? unit : "");
}

static const char *missing_why(const struct ctx *c, int s)
{
	(void)s;
	if (!c->libdrm && !c->hwmon && !c->gt)
		return "no source";
	return "no source gives it";
}

static void print_snapshot(struct ctx *c, const struct reading r[GT_S_COUNT])
{
	static const struct nb_column cols[] = {
		{ "key", "READING", false },
		{ "value", NULL, false },
		{ "unit", NULL, false },
		{ NULL, "VALUE", true },
		{ "source", "SOURCE", false },
	};

	nb_table_begin("readings", cols, (int)(sizeof(cols) / sizeof(cols[0])));
	for (int s = 0; s < GT_S_COUNT; s++) {
		char val[64];

		nb_row_begin();
		nb_cell_str(gt_sensor_defs[s].key);
		nb_cell(r[s].valid ? json_object_new_int64(r[s].v) : NULL, "-");
		nb_cell_str(gt_sensor_defs[s].unit);
		if (r[s].valid)
			fmt_value(s, r[s].v, val, sizeof(val));
		else
			snprintf(val, sizeof(val), "missing");
		nb_cell(NULL, "%s", val);
		if (r[s].valid)
			nb_cell(json_object_new_string(src_names[r[s].src]), "%s",
				src_names[r[s].src]);
		else
			nb_cell(NULL, "(%s)", missing_why(c, s));
		nb_row_end();
	}
	nb_table_end();
}

static void print_gt_stats(struct ctx *c)
{
	struct gt_stat st[GT_S_COUNT];
	uint64_t since;

	if (!c->gt || !c->e->gt_name[0] || gt_stats(c->e->gt_name, st, &since))
		return;
	nb_text("%s", "");
	nb_obj_begin("gputelemetry_stats", NULL);
	nb_u64("since_ns", NULL, since, NULL);
	nb_text("gputelemetry statistics since %.3f s (monotonic):", (double)since / 1e9);
	nb_arr_begin("readings", NULL);
	for (int s = 0; s < GT_S_COUNT; s++) {
		char a[32], b[32], d[32];

		if (!st[s].valid)
			continue;
		nb_obj_begin(NULL, NULL);
		nb_str("key", NULL, gt_sensor_defs[s].key);
		nb_i64("min", NULL, st[s].min, NULL);
		nb_i64("avg", NULL, st[s].avg, NULL);
		nb_i64("max", NULL, st[s].max, NULL);
		nb_str("unit", NULL, gt_sensor_defs[s].unit);
		nb_u64("samples", NULL, st[s].samples, NULL);
		fmt_value(s, st[s].min, a, sizeof(a));
		fmt_value(s, st[s].avg, b, sizeof(b));
		fmt_value(s, st[s].max, d, sizeof(d));
		nb_text("  %-14s min %-12s avg %-12s max %-12s (%llu samples)",
			gt_sensor_defs[s].key, a, b, d, (unsigned long long)st[s].samples);
		nb_obj_end();
	}
	nb_arr_end();
	nb_obj_end();
}

/* ---- watch ---- */

#define HIST 32

struct series {
	int64_t v[HIST];
	bool ok[HIST];
	int n, head;
	bool any;
	int64_t min, max;
};

static void series_add(struct series *se, bool ok, int64_t v)
{
	se->v[se->head] = v;
	se->ok[se->head] = ok;
	se->head = (se->head + 1) % HIST;
	if (se->n < HIST)
		se->n++;
	if (!ok)
		return;
	if (!se->any || v < se->min)
		se->min = v;
	if (!se->any || v > se->max)
		se->max = v;
	se->any = true;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void sparkline(const struct series *se, bool utf8, char *out, size_t n)
{
	static const char *const blocks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ascii[] = "_.-:=+*#";
	int64_t lo = 0, hi = 0;
	bool first = true;
	size_t used = 0;

	for (int i = 0; i < se->n; i++) {
		int k = (se->head - se->n + i + HIST) % HIST;

		if (!se->ok[k])
			continue;
		if (first || se->v[k] < lo)
			lo = se->v[k];
		if (first || se->v[k] > hi)
			hi = se->v[k];
		first = false;
	}
	out[0] = '\0';
	for (int i = 0; i < se->n && used + 4 < n; i++) {
		int k = (se->head - se->n + i + HIST) % HIST;
		int level = 0;

		if (se->ok[k] && hi > lo)
			level = (int)((se->v[k] - lo) * 7 / (hi - lo));
		else if (se->ok[k])
			level = 3;
		if (!se->ok[k])
			used += (size_t)snprintf(out + used, n - used, " ");
		else if (utf8)
			used += (size_t)snprintf(out + used, n - used, "%s", blocks[level]);
		else
			used += (size_t)snprintf(out + used, n - used, "%c", ascii[level]);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	/* a signal ends the sleep early: stop is checked right after */
	nanosleep(&ts, NULL);
}

static void draw_frame(struct ctx *c, const struct reading r[GT_S_COUNT],
		       struct series *se, bool utf8, long k)
{
	printf("\033[H");
	printf("navibench sensors: device %d, %s  (every %lu ms, sample %ld; Ctrl-C quits)\033[K\n\033[K\n",
	       c->e->dev.index, c->e->dev.name, opt_interval, k);
	printf("%-14s %14s %14s %14s  %-*s  %s\033[K\n", "READING", "VALUE", "MIN", "MAX", HIST,
	       "HISTORY", "SOURCE");
	for (int s = 0; s < GT_S_COUNT; s++) {
		char v[32] = "missing", mn[32] = "-", mx[32] = "-", sp[HIST * 4 + 1];

		if (r[s].valid)
			fmt_value(s, r[s].v, v, sizeof(v));
		if (se[s].any) {
			fmt_value(s, se[s].min, mn, sizeof(mn));
			fmt_value(s, se[s].max, mx, sizeof(mx));
		}
		sparkline(&se[s], utf8, sp, sizeof(sp));
		printf("%-14s %14s %14s %14s  %s%*s  %s\033[K\n", gt_sensor_defs[s].key, v, mn, mx,
		       sp, HIST - se[s].n, "", r[s].valid ? src_names[r[s].src] : "-");
	}
	printf("\033[J");
	fflush(stdout);
}

static void print_line(const struct reading r[GT_S_COUNT], double t)
{
	if (nb_print_is_json()) {
		nb_dbl("t", NULL, round(t * 1000) / 1000, 3, NULL);
		nb_obj_begin("readings", NULL);
		for (int s = 0; s < GT_S_COUNT; s++) {
			if (!r[s].valid) {
				nb_missing(gt_sensor_defs[s].key, NULL, NULL);
				continue;
			}
			nb_obj_begin(gt_sensor_defs[s].key, NULL);
			nb_i64("value", NULL, r[s].v, NULL);
			nb_str("unit", NULL, gt_sensor_defs[s].unit);
			nb_str("source", NULL, src_names[r[s].src]);
			nb_obj_end();
		}
		nb_obj_end();
		nb_print_line();
		return;
	}
	printf("t=%.3f", t);
	for (int s = 0; s < GT_S_COUNT; s++) {
		char v[32];

		if (r[s].valid)
			fmt_compact(s, r[s].v, v, sizeof(v));
		else
			snprintf(v, sizeof(v), "missing");
		printf(" %s=%s", gt_sensor_defs[s].key, v);
	}
	printf("\n");
	fflush(stdout);
}

static int watch(struct ctx *c)
{
	struct series se[GT_S_COUNT];
	struct reading r[GT_S_COUNT];
	struct sigaction sa;
	bool tty = isatty(STDOUT_FILENO) && !nb_print_is_json();
	bool utf8;
	double t0 = now_s();
	long k = 0;

	memset(se, 0, sizeof(se));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	setlocale(LC_CTYPE, "");
	utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");

	/* Seed the history with the module's recent samples, when it keeps them. */
	if (tty && c->gt && c->e->gt_name[0]) {
		struct gt_sample *h = calloc(HIST, sizeof(*h));
		int n = h ? gt_history(c->e->gt_name, h, HIST - 1, NULL) : 0;

		for (int i = 0; i < n; i++)
			for (int s = 0; s < GT_S_COUNT; s++)
				series_add(&se[s], h[i].r[s].valid, h[i].r[s].v);
		free(h);
	}
	if (tty)
		printf("\033[?1049h\033[?25l");	/* alternate screen, hide cursor */
	while (!stop) {
		sample(c, r);
		k++;
		for (int s = 0; s < GT_S_COUNT; s++)
			series_add(&se[s], r[s].valid, r[s].v);
		if (tty)
			draw_frame(c, r, se, utf8, k);
		else
			print_line(r, now_s() - t0);
		if (opt_count && k >= opt_count)
			break;
		sleep_ms(opt_interval);
	}
	if (tty) {
		printf("\033[?25h\033[?1049l");	/* cursor back, main screen back */
		fflush(stdout);
	}
	return NB_EXIT_OK;
}

/* ---- command ---- */

int cmd_sensors(int argc, char **argv)
{
	struct cli_common cc;
	struct nb_devlist l;
	struct ctx c;
	struct reading r[GT_S_COUNT];
	bool asleep;
	char err[384];
	int rc = cli_parse(&sensors_spec, argc, argv, &cc);

	if (rc != CLI_CONTINUE)
		return rc;
	if (nb_devices_scan(&l, NB_SCAN_NAMES | (opt_wake ? NB_SCAN_WAKE : 0)))
		return NB_EXIT_FAIL;
	memset(&c, 0, sizeof(c));
	c.a.fd = -1;
	rc = nb_devices_find(&l, cc.device, "sensors", &c.e);
	if (rc)
		goto out;
	if (c.e->dev.kind == NB_DEV_CPU || c.e->dev.kind == NB_DEV_HIP) {
		fprintf(stderr, "navibench sensors: device %d is %s, which has no GPU sensors; ",
			c.e->dev.index, c.e->dev.kind == NB_DEV_CPU ? "the CPU" : "a HIP device");
		if (l.n == 1)
			fprintf(stderr, "no AMD GPU found\n");
		else
			fprintf(stderr, "pick an amdgpu or sim device\n");
		nb_devices_explain(&l, stderr);
		rc = NB_EXIT_NODEV;
		goto out;
	}

	asleep = c.e->dev.kind == NB_DEV_AMDGPU &&
		 !strcmp(c.e->drm.runtime_status, "suspended") && !opt_wake;
	c.gt = opt_source == 0 || opt_source == 3;
	if (c.gt && l.gt_note[0])
		fprintf(stderr, "navibench sensors: %s\n", l.gt_note);
	if (c.e->dev.kind == NB_DEV_AMDGPU && !asleep) {
		c.libdrm = opt_source == 0 || opt_source == 1;
		c.hwmon = opt_source == 0 || opt_source == 2;
	}
	nb_print_begin(cc.json);
	if (asleep) {
		fprintf(stderr, "navibench sensors: %s is runtime-suspended (asleep): not waking it; "
			"libdrm_amdgpu and hwmon readings skipped (--wake reads them)%s\n",
			c.e->dev.pci, c.e->gt_name[0] ? "" : "; no gputelemetry readings either");
	}
	if (c.libdrm) {
		rc = nb_amdgpu_open(c.e->drm.render, &c.a, err, sizeof(err));
		if (rc == -EACCES || rc == -EPERM) {
			nb_access_hint(c.e->drm.render, -rc, err, sizeof(err));
			fprintf(stderr, "navibench sensors: %s; libdrm_amdgpu readings skipped\n", err);
		} else if (rc && !nb_print_is_json()) {
			fprintf(stderr, "navibench sensors: %s; libdrm_amdgpu readings skipped\n", err);
		}
		if (rc)
			c.libdrm = false;
		rc = 0;
	}
	if (c.hwmon)
		find_hwmon(&c);

	if (opt_watch || opt_count > 1) {
		rc = watch(&c);
		if (nb_print_is_json())
			nb_print_discard();
		goto out;
	}

	sample(&c, r);
	nb_obj_begin("device", NULL);
	nb_i64("index", NULL, c.e->dev.index, NULL);
	nb_str("name", NULL, c.e->dev.name);
	nb_str("pci", NULL, c.e->dev.pci[0] ? c.e->dev.pci : NULL);
	nb_str("runtime_status", NULL, c.e->dev.kind == NB_DEV_AMDGPU &&
	       c.e->drm.runtime_status[0] ? c.e->drm.runtime_status : NULL);
	nb_obj_end();
	nb_bool("asleep", NULL, asleep);
	nb_text("device %d: %s%s%s%s", c.e->dev.index, c.e->dev.name, c.e->dev.pci[0] ? " (" : "",
		c.e->dev.pci, c.e->dev.pci[0] ? ")" : "");
	if (asleep)
		nb_text("runtime-suspended: not woken (--wake reads libdrm_amdgpu and hwmon)");
	nb_text("%s", "");
	print_snapshot(&c, r);
	print_gt_stats(&c);
	rc = nb_print_end(cc.json_path);
out:
	nb_amdgpu_close(&c.a);
	nb_devices_free(&l);
	return rc;
}
