// SPDX-License-Identifier: MIT
/*
 * The device's telemetry during a run: see monitor.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "devices/devices.h"
#include "devices/gpu_metrics.h"
#include "sources/monitor.h"

/* One sample, with what only the window's computation needs. */
struct msample {
	struct nb_tsample s;
	double cpu_s;		/* the sampler thread's CPU time after this sample */
	uint32_t reasons;	/* bit i: m->reason[i] active */
	bool has_reasons;
};

struct nb_monitor {
	struct nb_devent e;
	bool off, history;
	double interval_s, t0;
	char source[96];
	char missing[320];	/* why readings are missing at the device level */
	/* the sampler thread */
	struct nb_sensor_dev sd;
	bool running;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	struct msample *s;	/* under lock */
	int n, cap;
	const char *src[3];	/* the source of clock, temperature, power (first seen) */
	/* throttle reasons' names, by bit */
	char reason[NB_TELEM_REASONS][24];
	int nreason;
	bool gm_tried, gm_ok;
	char asic[32];		/* for the SMU's throttle table; "" when not known */
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void addf(char *buf, size_t n, const char *fmt, const char *what)
{
	size_t used = strlen(buf);

	if (used < n)
		snprintf(buf + used, n - used, fmt, *buf ? "; " : "", what);
}

/* The bit of a reason's name, added when new; -1 when the table is full. */
static int reason_bit(struct nb_monitor *m, const char *name)
{
	for (int i = 0; i < m->nreason; i++)
		if (!strcmp(m->reason[i], name))
			return i;
	if (m->nreason == NB_TELEM_REASONS)
		return -1;
	snprintf(m->reason[m->nreason], sizeof(m->reason[0]), "%.23s", name);
	return m->nreason++;
}

/*
 * The throttle reasons the SMU reports active now (gpu_metrics), the ones
 * it sets when not throttling left out. false: not known.
 */
static bool read_throttle(struct nb_monitor *m, uint32_t *bits)
{
	struct nb_throttle_reason r[96];
	struct nb_gpu_metrics gm;
	const char *why = NULL;
	int n;

	*bits = 0;
	if (m->e.dev.kind != NB_DEV_AMDGPU || (m->gm_tried && !m->gm_ok))
		return false;
	m->gm_tried = true;
	if (nb_gpu_metrics_read(m->e.drm.sysdev, &gm, &why))
		return false;
	n = nb_throttle_reasons(&gm, nb_smu_of_asic(m->sd.asic ? m->sd.asic : m->asic), r, 96);
	m->gm_ok = n > 0;
	/* the names' table is read by nb_monitor_window() under the lock */
	if (m->running)
		pthread_mutex_lock(&m->lock);
	for (int i = 0; i < n; i++) {
		int bit = r[i].active && !r[i].unreliable ? reason_bit(m, r[i].name) : -1;

		if (bit >= 0)
			*bits |= 1u << bit;
	}
	if (m->running)
		pthread_mutex_unlock(&m->lock);
	return m->gm_ok;
}

static bool append(struct nb_monitor *m, const struct msample *x)
{
	if (m->n == m->cap) {
		int cap = m->cap ? m->cap * 2 : 256;
		struct msample *s = realloc(m->s, sizeof(*s) * (size_t)cap);

		if (!s)
			return false;
		m->s = s;
		m->cap = cap;
	}
	m->s[m->n++] = *x;
	return true;
}

/* A reading in the sample's unit: value / div, or NaN. */
static double reading(const struct nb_reading *r, int a, int b, double div, const char **src)
{
	const struct nb_reading *x = r[a].valid ? &r[a] : b >= 0 && r[b].valid ? &r[b] : NULL;

	if (!x)
		return NAN;
	if (!*src)
		*src = x->src->name;
	return (double)x->v / div;
}

static void take_sample(struct nb_monitor *m)
{
	struct nb_reading r[GT_S_COUNT];
	struct msample x = { 0 };
	const char *src[3];

	nb_sensor_sample(&m->sd, r);
	x.s.t = mono_now();
	pthread_mutex_lock(&m->lock);
	memcpy(src, m->src, sizeof(src));
	pthread_mutex_unlock(&m->lock);
	x.s.clock_mhz = reading(r, GT_S_SCLK, -1, 1, &src[0]);
	x.s.temp_c = reading(r, GT_S_TEMP_EDGE, GT_S_TEMP_JUNCTION, 1000, &src[1]);
	x.s.power_w = reading(r, GT_S_POWER_AVG, GT_S_POWER_INPUT, 1000, &src[2]);
	x.has_reasons = read_throttle(m, &x.reasons);
	x.cpu_s = thread_cpu_s();
	pthread_mutex_lock(&m->lock);
	memcpy(m->src, src, sizeof(src));
	append(m, &x);
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
}

static void *sampler(void *arg)
{
	struct nb_monitor *m = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		take_sample(m);
		next.tv_nsec += (long)(m->interval_s * 1e9);
		next.tv_sec += next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		pthread_mutex_lock(&m->lock);
		while (!m->stop &&
		       pthread_cond_timedwait(&m->cond, &m->lock, &next) != ETIMEDOUT)
			;
		if (m->stop) {
			pthread_mutex_unlock(&m->lock);
			return NULL;
		}
		pthread_mutex_unlock(&m->lock);
	}
}

/* The module's history, when it has this device and root can read it. */
static bool history_usable(struct nb_monitor *m)
{
	struct gtfs_sample one;
	struct gtfs_info info;
	const char *iv;

	if (!m->e.gt_name[0] || gtfs_history(m->e.gt_name, &one, 1, NULL) < 0)
		return false;
	if (gtfs_info(m->e.gt_name, &info))
		return false;
	iv = gtfs_info_get(&info, GT_INFO_ASIC);
	snprintf(m->asic, sizeof(m->asic), "%s", iv ? iv : "");
	iv = gtfs_info_get(&info, GT_INFO_INTERVAL);
	m->interval_s = iv ? atof(iv) / 1000 : 0;
	if (!(m->interval_s > 0))
		return false;
	snprintf(m->source, sizeof(m->source), "the gputelemetry module's history of %.50s",
		 m->e.gt_name);
	return true;
}

static bool find_device(struct nb_monitor *m, const struct nb_device *dev)
{
	struct nb_devlist l;
	bool found = false;

	if (nb_devices_scan(&l, 0))
		return false;
	for (int i = 0; i < l.n && !found; i++) {
		const struct nb_devent *e = &l.dev[i];

		if (e->dev.kind == dev->kind && !strcmp(e->dev.pci, dev->pci) &&
		    (dev->kind != NB_DEV_SIM || !strcmp(e->dev.name, dev->name))) {
			m->e = *e;
			found = true;
		}
	}
	nb_devices_free(&l);
	return found;
}

static void sampler_start(struct nb_monitor *m, long interval_ms)
{
	pthread_condattr_t ca;

	m->interval_s = interval_ms / 1000.0;
	nb_sensor_open(&m->sd, &m->e, (1u << NB_SRC_COUNT) - 1, 0);
	for (int i = 0; i < m->sd.nnotes; i++)
		addf(m->missing, sizeof(m->missing), "%s%s", m->sd.note[i]);
	if (!m->sd.use) {
		addf(m->missing, sizeof(m->missing), "%s%s", m->e.dev.kind == NB_DEV_PLUGIN ?
		     "no telemetry source reads a device of a GPU plugin" :
		     "no telemetry source can read this device");
		return;
	}
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* set before the thread starts: it reads it (read_throttle()) */
	m->running = true;
	if (pthread_create(&m->th, NULL, sampler, m))
		m->running = false;
	if (!m->running)
		addf(m->missing, sizeof(m->missing), "%s%s", "cannot start the sampler thread");
}

struct nb_monitor *nb_monitor_start(const struct nb_device *dev, long interval_ms, double t0)
{
	struct nb_monitor *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->t0 = t0;
	m->off = interval_ms <= 0;
	if (m->off)
		return m;
	if (!find_device(m, dev)) {
		snprintf(m->missing, sizeof(m->missing), "device %d is no longer listed",
			 dev->index);
		return m;
	}
	m->history = history_usable(m);
	if (!m->history)
		sampler_start(m, interval_ms);
	return m;
}

/* The history's samples into m->s (replacing them); 0 or -errno. */
static int history_read(struct nb_monitor *m)
{
	struct gtfs_sample *h = malloc(sizeof(*h) * NB_TELEM_SERIES_MAX);
	int n = h ? gtfs_history(m->e.gt_name, h, NB_TELEM_SERIES_MAX, NULL) : -ENOMEM;

	m->n = 0;
	for (int i = 0; i < n; i++) {
		struct msample x = { .s.t = h[i].ns * 1e-9, .cpu_s = NAN };
		const struct gtfs_value *v = h[i].r;

		x.s.clock_mhz = v[GT_S_SCLK].valid ? (double)v[GT_S_SCLK].v : NAN;
		x.s.temp_c = v[GT_S_TEMP_EDGE].valid ? v[GT_S_TEMP_EDGE].v / 1000.0 :
			     v[GT_S_TEMP_JUNCTION].valid ? v[GT_S_TEMP_JUNCTION].v / 1000.0 : NAN;
		x.s.power_w = v[GT_S_POWER_AVG].valid ? v[GT_S_POWER_AVG].v / 1000.0 :
			      v[GT_S_POWER_INPUT].valid ? v[GT_S_POWER_INPUT].v / 1000.0 : NAN;
		if (!append(m, &x)) {
			n = -ENOMEM;
			break;
		}
	}
	free(h);
	return n < 0 ? n : 0;
}

/*
 * Wait for a sample at or after end (the one whose interval holds the
 * window's end), at most two intervals (2.5 s at most); the samples are
 * then those of m->s.
 */
static int collect(struct nb_monitor *m, double end)
{
	/* a long module interval (up to 60 s) must not hold the run up */
	double limit = mono_now() + fmin(2 * m->interval_s + 0.1, 2.5);

	if (m->history) {
		for (;;) {
			int rc = history_read(m);

			if (rc || (m->n && m->s[m->n - 1].s.t >= end) || mono_now() > limit)
				return rc;
			usleep(20000);
		}
	}
	if (!m->running)
		return 0;
	pthread_mutex_lock(&m->lock);
	while ((!m->n || m->s[m->n - 1].s.t < end) && mono_now() < limit) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 20000000;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&m->cond, &m->lock, &ts);
	}
	return 0;		/* with m->lock held */
}

static void tstat_add(struct nb_tstat *st, double v)
{
	if (isnan(v))
		return;
	if (!st->n || v < st->min)
		st->min = v;
	if (!st->n || v > st->max)
		st->max = v;
	st->avg += (v - st->avg) / ++st->n;
}

/* "frames/s" -> "frames/J"; "" when the unit is not a rate. */
static void per_joule_unit(const char *unit, char *out, size_t n)
{
	size_t len = unit ? strlen(unit) : 0;

	out[0] = '\0';
	if (len > 2 && !strcmp(unit + len - 2, "/s"))
		snprintf(out, n, "%.*s/J", (int)(len - 2), unit);
}

/*
 * Energy over [b, e]: each sample's power times the part of the time
 * since the previous sample inside the window. Missing unless power is
 * known over 90% of the window.
 */
static void energy(const struct msample *s, int n, double b, double e, struct nb_telemetry *t)
{
	double joules = 0, covered = 0;

	for (int i = 1; i < n; i++) {
		double lo = fmax(s[i - 1].s.t, b), hi = fmin(s[i].s.t, e);

		if (hi > lo && !isnan(s[i].s.power_w)) {
			joules += s[i].s.power_w * (hi - lo);
			covered += hi - lo;
		}
	}
	if (covered >= 0.9 * (e - b) && e > b) {
		t->energy_j = joules;
	} else if (t->power_w.n) {
		char why[96];

		snprintf(why, sizeof(why), "energy: power known over %.0f%% of the window only",
			 e > b ? 100 * covered / (e - b) : 0);
		addf(t->missing, sizeof(t->missing), "%s%s", why);
	}
}

/* The names of the reasons of bits, after those t has, each once. */
static void add_reasons(const struct nb_monitor *m, uint32_t bits, struct nb_telemetry *t)
{
	for (int k = 0; k < m->nreason; k++) {
		bool dup = false;

		if (!(bits & (1u << k)))
			continue;
		for (int i = 0; i < t->nreasons && !dup; i++)
			dup = !strcmp(t->reasons[i], m->reason[k]);
		if (!dup && t->nreasons < NB_TELEM_REASONS)
			snprintf(t->reasons[t->nreasons++], sizeof(t->reasons[0]), "%s",
				 m->reason[k]);
	}
}

static void window_stats(struct nb_monitor *m, double b, double e, struct nb_telemetry *t)
{
	const struct msample *s = m->s;
	uint32_t seen = 0;
	double cpu0 = NAN, cpu1 = NAN;
	int first = -1, last = -1;

	for (int i = 0; i < m->n; i++) {
		if (s[i].s.t < b) {
			cpu0 = s[i].cpu_s;
			continue;
		}
		if (first < 0)
			first = i;
		if (s[i].s.t > e) {
			last = i;	/* the sample that closes the window */
			break;
		}
		last = i;
		cpu1 = s[i].cpu_s;
		t->samples++;
		tstat_add(&t->clock_mhz, s[i].s.clock_mhz);
		tstat_add(&t->temp_c, s[i].s.temp_c);
		tstat_add(&t->power_w, s[i].s.power_w);
		t->throttle_known |= s[i].has_reasons;
		seen |= s[i].reasons;
	}
	add_reasons(m, seen, t);
	t->sampler_cpu_s = isnan(cpu0) ? cpu1 : cpu1 - cpu0;
	if (first < 0)
		return;
	if (first > 0)
		first--;	/* the sample before the window: where it starts */
	energy(s + first, last - first + 1, b, e, t);
	t->series = malloc(sizeof(*t->series) * (size_t)(last - first + 1));
	for (int i = first; t->series && i <= last; i++) {
		t->series[t->nseries] = s[i].s;
		t->series[t->nseries++].t -= m->t0;
	}
}

static void describe(struct nb_monitor *m, struct nb_telemetry *t)
{
	static const char *const what[] = { "clock", "temperature", "power" };
	const char *detail = m->sd.use & (1u << NB_SRC_CPU) ?
		nb_source_cpu.detail(m->sd.priv[NB_SRC_CPU]) : NULL;
	size_t o = 0;

	if (m->history || detail) {
		snprintf(t->source, sizeof(t->source), "%s", m->history ? m->source : detail);
		return;
	}
	for (int k = 0; k < 3; k++)
		if (m->src[k] && o < sizeof(t->source))
			o += (size_t)snprintf(t->source + o, sizeof(t->source) - o, "%s%s %s",
					      o ? ", " : "", what[k], m->src[k]);
}

/* Readings no sample had: named in missing. */
static void name_missing(struct nb_telemetry *t)
{
	static const char *const what[] = { "clock", "temperature", "power" };
	const struct nb_tstat *st[] = { &t->clock_mhz, &t->temp_c, &t->power_w };
	char why[64];

	for (int k = 0; k < 3; k++) {
		snprintf(why, sizeof(why), "%s: ", what[k]);
		if (st[k]->n || strstr(t->missing, why))
			continue;	/* there, or its source said why not */
		snprintf(why, sizeof(why), "%s: no sample in the window has it", what[k]);
		addf(t->missing, sizeof(t->missing), "%s%s", why);
	}
}

void nb_monitor_window(struct nb_monitor *m, double begin, double end, double value,
		       const char *unit, struct nb_telemetry *t)
{
	uint32_t bits;

	memset(t, 0, sizeof(*t));
	t->energy_j = t->per_joule = t->sampler_cpu_s = NAN;
	t->window_s = end - begin;
	if (!m || m->off) {
		snprintf(t->missing, sizeof(t->missing), "telemetry off (--telemetry-interval 0)");
		return;
	}
	t->ran = true;
	t->method = m->history ? "history" : "sampler";
	t->interval_s = m->interval_s;
	snprintf(t->missing, sizeof(t->missing), "%s", m->missing);
	if (collect(m, end))
		addf(t->missing, sizeof(t->missing), "%s%s", "the module's history: read failed");
	window_stats(m, begin, end, t);
	describe(m, t);		/* m->src: the sampler's, under its lock */
	if (m->running)
		pthread_mutex_unlock(&m->lock);
	if (m->history && read_throttle(m, &bits)) {
		/* the module's history has no throttle status: the one at the end */
		t->throttle_known = true;
		add_reasons(m, bits, t);
	}
	name_missing(t);
	per_joule_unit(unit, t->per_joule_unit, sizeof(t->per_joule_unit));
	if (isfinite(t->energy_j) && t->energy_j > 0 && t->per_joule_unit[0] && isfinite(value))
		t->per_joule = value * t->window_s / t->energy_j;
}

void nb_monitor_stop(struct nb_monitor *m)
{
	if (!m)
		return;
	if (m->running) {
		pthread_mutex_lock(&m->lock);
		m->stop = true;
		pthread_cond_broadcast(&m->cond);
		pthread_mutex_unlock(&m->lock);
		pthread_join(m->th, NULL);
		pthread_mutex_destroy(&m->lock);
		pthread_cond_destroy(&m->cond);
	}
	if (!m->off && !m->history)
		nb_sensor_close(&m->sd);
	free(m->s);
	free(m);
}

void nb_telemetry_free(struct nb_telemetry *t)
{
	free(t->series);
	t->series = NULL;
	t->nseries = 0;
}
