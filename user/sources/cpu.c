// SPDX-License-Identifier: MIT
/*
 * Source cpu: what Linux tells of the host CPU, for the CPU device.
 *
 *	sclk       the mean current frequency of the online CPUs: cpufreq's
 *	           scaling_cur_freq, else /proc/cpuinfo's "cpu MHz" (which
 *	           x86 kernels compute from APERF/MPERF; a VM shows the
 *	           host's nominal clock there)
 *	temp_edge  the package temperature: the first hwmon device named
 *	           k10temp, zenpower or coretemp (AMD Tctl, Intel package),
 *	           temp1_input
 *	power_avg  RAPL's package energy counters (powercap intel-rapl:N, which
 *	           the intel_rapl driver also offers on AMD Zen): the sum of
 *	           the packages' energy_uj deltas over the time since the
 *	           previous sample, modulo max_energy_range_uj. The first
 *	           sample has no power. energy_uj is root-only since Linux
 *	           5.10 (CVE-2020-8694).
 *
 * The power is the whole package's, every process's: a result per joule
 * from it is that of the machine's CPU, not of navibench alone.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sources/sources.h"

#define CPU_MAX_RAPL 8

struct rapl {
	char path[300];		/* .../energy_uj */
	int64_t range;		/* max_energy_range_uj: the counter wraps there */
	int64_t last;
};

struct cpu {
	char temp[300];		/* hwmon temp1_input; "" when none */
	char temp_name[16];
	struct rapl rapl[CPU_MAX_RAPL];
	int nrapl;
	bool have_last;		/* the counters were read at last_t */
	double last_t;
	/* this sample's readings */
	bool has[GT_S_COUNT];
	int64_t v[GT_S_COUNT];
	char detail[160];
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The CPU package's temperature sensor in hwmon. */
static void find_temp(struct cpu *c)
{
	static const char *const names[] = { "k10temp", "zenpower", "coretemp" };
	DIR *d = opendir("/sys/class/hwmon");
	struct dirent *de;

	while (d && (de = readdir(d)) && !c->temp[0]) {
		char path[300], name[32];
		int64_t v;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/hwmon/%s/name", de->d_name);
		if (nb_read_file(path, name, sizeof(name)))
			continue;
		name[strcspn(name, "\n")] = '\0';
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "/sys/class/hwmon/%s/temp1_input",
				 de->d_name);
			if (!strcmp(name, names[i]) && nb_read_i64(path, &v)) {
				snprintf(c->temp, sizeof(c->temp), "%s", path);
				snprintf(c->temp_name, sizeof(c->temp_name), "%s", names[i]);
				break;
			}
		}
	}
	if (d)
		closedir(d);
}

/*
 * The package domains of RAPL: intel-rapl:N (not intel-rapl:N:M, its
 * subzones, which the package's counter already holds). 0, or -errno of
 * the first energy_uj that exists but cannot be read.
 */
static int find_rapl(struct cpu *c)
{
	DIR *d = opendir("/sys/class/powercap");
	struct dirent *de;
	int err = 0;

	while (d && (de = readdir(d)) && c->nrapl < CPU_MAX_RAPL) {
		struct rapl *r = &c->rapl[c->nrapl];
		char path[300], buf[8];
		int n = 0;

		if (sscanf(de->d_name, "intel-rapl:%d%1s", &n, buf) != 1)
			continue;
		snprintf(r->path, sizeof(r->path), "/sys/class/powercap/%s/energy_uj", de->d_name);
		snprintf(path, sizeof(path), "/sys/class/powercap/%s/max_energy_range_uj",
			 de->d_name);
		int e = nb_read_file(r->path, buf, sizeof(buf));

		if (e) {
			if (!err)
				err = e;
			continue;
		}
		if (!nb_read_i64(path, &r->range) || !r->range)
			r->range = 0;
		c->nrapl++;
	}
	if (d)
		closedir(d);
	return c->nrapl ? 0 : err;
}

static int cpu_open(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	struct cpu *c = calloc(1, sizeof(*c));
	int err;

	(void)d;
	if (!c)
		return -ENOMEM;
	find_temp(c);
	err = find_rapl(c);
	snprintf(c->detail, sizeof(c->detail), "clock: %s%s%s%s%s",
		 nb_read_i64("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
			  &(int64_t){ 0 }) ? "cpufreq" : "/proc/cpuinfo",
		 c->temp[0] ? "; temperature: hwmon " : "", c->temp_name,
		 c->nrapl ? "; power: RAPL package energy" : "", "");
	/* what is missing, and why: the monitor's "missing" */
	if (err == -EACCES || err == -EPERM)
		snprintf(note, n, "%spower: RAPL's energy_uj in /sys/class/powercap is readable "
			 "by root only (run as root)", c->temp[0] ? "" :
			 "temperature: no k10temp, zenpower or coretemp device in hwmon; ");
	else if (!c->nrapl)
		snprintf(note, n, "%spower: no RAPL package domain in /sys/class/powercap",
			 c->temp[0] ? "" :
			 "temperature: no k10temp, zenpower or coretemp device in hwmon; ");
	else if (!c->temp[0])
		snprintf(note, n, "temperature: no k10temp, zenpower or coretemp device in hwmon");
	*priv = c;
	return 0;
}

static void cpu_close(void *priv)
{
	free(priv);
}

/* The mean of "cpu MHz" over /proc/cpuinfo's processors; 0 when none. */
static int64_t cpuinfo_mhz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double sum = 0, v;
	int n = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &v) == 1) {
			sum += v;
			n++;
		}
	if (f)
		fclose(f);
	return n ? (int64_t)(sum / n + 0.5) : 0;
}

/* The mean of cpufreq's scaling_cur_freq (kHz) in MHz; 0 when none. */
static int64_t cpufreq_mhz(void)
{
	DIR *d = opendir("/sys/devices/system/cpu");
	struct dirent *de;
	int64_t sum = 0, v;
	int n = 0, cpu;
	char path[600], tail[4];

	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, "cpu%d%1s", &cpu, tail) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/cpufreq/scaling_cur_freq",
			 de->d_name);
		if (nb_read_i64(path, &v)) {
			sum += v;
			n++;
		}
	}
	if (d)
		closedir(d);
	return n ? (int64_t)((sum / n + 500) / 1000) : 0;
}

static void sample_power(struct cpu *c)
{
	double t = mono_now();
	int64_t delta = 0, v;
	bool ok = c->nrapl > 0;

	for (int i = 0; i < c->nrapl; i++) {
		struct rapl *r = &c->rapl[i];

		if (!nb_read_i64(r->path, &v)) {
			ok = false;
			continue;
		}
		if (v < r->last && r->range <= 0)
			ok = false;	/* went back, and where it wraps is not known */
		else if (c->have_last)
			delta += v >= r->last ? v - r->last : v + r->range - r->last;
		r->last = v;
	}
	if (ok && c->have_last && t > c->last_t) {
		/* uJ over s is uW; in mW */
		c->v[GT_S_POWER_AVG] = (int64_t)(delta / (t - c->last_t) / 1000 + 0.5);
		c->has[GT_S_POWER_AVG] = true;
	}
	c->have_last = ok;
	c->last_t = t;
}

static void cpu_sample(struct nb_sensor_dev *d, void *priv)
{
	struct cpu *c = priv;
	int64_t v;

	(void)d;
	memset(c->has, 0, sizeof(c->has));
	c->v[GT_S_SCLK] = cpufreq_mhz();
	if (!c->v[GT_S_SCLK])
		c->v[GT_S_SCLK] = cpuinfo_mhz();
	c->has[GT_S_SCLK] = c->v[GT_S_SCLK] > 0;
	if (c->temp[0] && nb_read_i64(c->temp, &v)) {
		c->v[GT_S_TEMP_EDGE] = v;
		c->has[GT_S_TEMP_EDGE] = true;
	}
	sample_power(c);
}

static bool cpu_read(struct nb_sensor_dev *d, void *priv, int s, int64_t *v)
{
	struct cpu *c = priv;

	(void)d;
	if (s < 0 || s >= GT_S_COUNT || !c->has[s])
		return false;
	*v = c->v[s];
	return true;
}

static const char *cpu_detail(void *priv)
{
	return ((struct cpu *)priv)->detail;
}

const struct nb_source nb_source_cpu = {
	.name = "cpu",
	.cpu_only = true,
	.retry = true,		/* power is missing at the first sample only */
	.open = cpu_open,
	.close = cpu_close,
	.sample = cpu_sample,
	.read = cpu_read,
	.detail = cpu_detail,
};
