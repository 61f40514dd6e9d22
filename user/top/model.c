// SPDX-License-Identifier: MIT
/*
 * navibench top's model: the devices' readings, throttle reasons, limits
 * and history, and the process rows (top.h).
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "top/top.h"

#define TOP_COL_ENTRY(id, name, width, left) { name, width, left },
const struct top_column top_cols[TOP_COL_COUNT] = { TOP_COLUMNS(TOP_COL_ENTRY) };
#undef TOP_COL_ENTRY
const char *const top_engines[5] = { "gfx", "compute", "dma", "dec", "enc" };

double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void series_add(struct top_series *s, double t, bool ok, double v)
{
	int k;

	if (!ok)
		return;
	/* samples arrive in time order; one older than the last is dropped */
	if (s->n && t < s->t[(s->head + TOP_SERIES - 1) % TOP_SERIES])
		return;
	k = s->head;
	s->t[k] = t;
	s->v[k] = (float)v;
	s->head = (s->head + 1) % TOP_SERIES;
	if (s->n < TOP_SERIES)
		s->n++;
}

/* The charts' values of one set of readings (gputelemetry's or a sample's). */
static void chart_values(const bool valid[GT_S_COUNT], const int64_t v[GT_S_COUNT],
			 bool ok[TOP_CH_COUNT], double out[TOP_CH_COUNT])
{
	static const int temps[] = { GT_S_TEMP_EDGE, GT_S_TEMP_JUNCTION, GT_S_TEMP_MEM };

	ok[TOP_CH_BUSY] = valid[GT_S_GPU_BUSY];
	out[TOP_CH_BUSY] = (double)v[GT_S_GPU_BUSY];
	ok[TOP_CH_CLOCK] = valid[GT_S_SCLK];
	out[TOP_CH_CLOCK] = (double)v[GT_S_SCLK];
	ok[TOP_CH_POWER] = valid[GT_S_POWER_AVG] || valid[GT_S_POWER_INPUT];
	out[TOP_CH_POWER] = (valid[GT_S_POWER_AVG] ? v[GT_S_POWER_AVG] : v[GT_S_POWER_INPUT]) / 1000.0;
	ok[TOP_CH_TEMP] = false;
	out[TOP_CH_TEMP] = 0;
	for (size_t i = 0; i < sizeof(temps) / sizeof(temps[0]); i++) {
		if (!valid[temps[i]])
			continue;
		if (!ok[TOP_CH_TEMP] || v[temps[i]] / 1000.0 > out[TOP_CH_TEMP])
			out[TOP_CH_TEMP] = v[temps[i]] / 1000.0;
		ok[TOP_CH_TEMP] = true;
	}
}

static void add_readings(struct top_dev *d, double t, const bool valid[GT_S_COUNT],
			 const int64_t v[GT_S_COUNT])
{
	bool ok[TOP_CH_COUNT];
	double x[TOP_CH_COUNT];

	chart_values(valid, v, ok, x);
	for (int c = 0; c < TOP_CH_COUNT; c++)
		series_add(&d->ser[c], t, ok[c], x[c]);
}

/*
 * The module's history of d, when it reads d: the charts start with the
 * last minutes (the module's clock is CLOCK_MONOTONIC, as top_now()).
 */
static void seed_history(struct top_dev *d)
{
	struct gtfs_sample *h;
	int n;

	if (!(d->sd.use & (1u << NB_SRC_GT)) || !d->sd.e->gt_name[0])
		return;
	h = calloc(TOP_SERIES, sizeof(*h));
	if (!h)
		return;
	n = gtfs_history(d->sd.e->gt_name, h, TOP_SERIES, NULL);
	for (int i = 0; i < n; i++) {
		bool valid[GT_S_COUNT];
		int64_t v[GT_S_COUNT];

		for (int s = 0; s < GT_S_COUNT; s++) {
			valid[s] = h[i].r[s].valid;
			v[s] = h[i].r[s].v;
		}
		add_readings(d, (double)h[i].ns / 1e9, valid, v);
	}
	d->from_history = n > 0;
	free(h);
}

static bool shown(const struct nb_devent *e, bool cpu)
{
	return e->dev.kind == NB_DEV_AMDGPU || e->dev.kind == NB_DEV_SIM ||
	       e->dev.kind == NB_DEV_PLUGIN || (cpu && e->dev.kind == NB_DEV_CPU);
}

/*
 * A GPU runtime's device: what its plugin reported when it loaded (the
 * runtimes give properties, not readings; no telemetry source reads it).
 */
static void runtime_of(struct top_dev *d)
{
	const struct nb_device *dev = &d->e->dev;

	if (dev->kind != NB_DEV_PLUGIN)
		return;
	d->gpu = nb_plugins_get(dev->plugin);
	if (d->gpu && dev->hip_ordinal >= 0 && dev->hip_ordinal < d->gpu->ndev)
		d->gpu_dev = &d->gpu->dev[dev->hip_ordinal];
}

int top_model_open(struct top_model *m, bool cpu)
{
	memset(m, 0, sizeof(*m));
	m->cpu = cpu;
	if (nb_devices_scan(&m->l, 0))
		return NB_EXIT_FAIL;
	m->dev = calloc((size_t)m->l.n ? (size_t)m->l.n : 1, sizeof(*m->dev));
	if (!m->dev) {
		fprintf(stderr, "navibench top: out of memory\n");
		return NB_EXIT_FAIL;
	}
	for (int i = 0; i < m->l.n; i++) {
		if (!shown(&m->l.dev[i], cpu))
			continue;
		m->dev[m->n].e = &m->l.dev[i];
		nb_sensor_open(&m->dev[m->n].sd, &m->l.dev[i], nb_source_mask(0), 0);
		runtime_of(&m->dev[m->n]);
		seed_history(&m->dev[m->n]);
		m->n++;
	}
	return NB_EXIT_OK;
}

/*
 * A GPU that went to sleep (or woke) since the last sample: its sources
 * opened again for the new state, so that a sleeping GPU is not woken.
 * runtime_status is sysfs' own: reading it wakes nothing.
 */
static void follow_power_state(struct top_dev *d)
{
	struct nb_devent *e = d->e;
	char st[sizeof(e->drm.runtime_status)];
	bool asleep;

	if (e->dev.kind != NB_DEV_AMDGPU)
		return;
	nb_read_runtime_status(e->drm.sysdev, st, sizeof(st));
	asleep = !strcmp(st, "suspended");
	nb_strcpy(e->drm.runtime_status, sizeof(e->drm.runtime_status), st);
	if (asleep == d->sd.asleep)
		return;
	nb_sensor_close(&d->sd);
	nb_sensor_open(&d->sd, e, nb_source_mask(0), 0);
}

static void sample_dev(struct top_dev *d, double t)
{
	bool valid[GT_S_COUNT];
	int64_t v[GT_S_COUNT];
	const struct nb_devent *e = d->sd.e;

	follow_power_state(d);
	nb_sensor_sample(&d->sd, d->r);
	for (int s = 0; s < GT_S_COUNT; s++) {
		valid[s] = d->r[s].valid;
		v[s] = d->r[s].v;
	}
	add_readings(d, t, valid, v);
	nb_limits_read(&d->sd, d->r, &d->lim);
	d->gm_ok = false;
	d->nreasons = 0;
	if (e->dev.kind != NB_DEV_AMDGPU) {
		d->gm_why = "no gpu_metrics";
	} else if (d->sd.asleep) {
		d->gm_why = "asleep";	/* reading gpu_metrics would wake it */
	} else {
		struct nb_gpu_metrics gm;

		d->gm_ok = !nb_gpu_metrics_read(e->drm.sysdev, &gm, &d->gm_why);
		if (d->gm_ok)
			d->nreasons = nb_throttle_reasons(&gm, nb_smu_of_asic(d->sd.asic ? d->sd.asic :
							  e->asic), d->reason, TOP_REASONS);
	}
}

/* The user owning pid, remembered per uid. */
static void user_of(int pid, char *out, size_t n)
{
	static struct { unsigned int uid; char name[32]; } cache[64];
	static int ncache;
	char path[32];
	struct passwd *pw;
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	if (stat(path, &st)) {
		nb_strcpy(out, n, "?");
		return;
	}
	for (int i = 0; i < ncache; i++)
		if (cache[i].uid == st.st_uid) {
			nb_strcpy(out, n, cache[i].name);
			return;
		}
	pw = getpwuid(st.st_uid);
	if (pw)
		nb_strcpy(out, n, pw->pw_name);
	else
		snprintf(out, n, "%u", st.st_uid);
	if (ncache < (int)(sizeof(cache) / sizeof(cache[0]))) {
		cache[ncache].uid = st.st_uid;
		nb_strcpy(cache[ncache].name, sizeof(cache[ncache].name), out);
		ncache++;
	}
}

static struct top_dev *dev_of_pdev(struct top_model *m, const char *pdev)
{
	for (int i = 0; pdev[0] && i < m->n; i++)
		if (m->dev[i].sd.e->dev.kind == NB_DEV_AMDGPU &&
		    !strcmp(m->dev[i].sd.e->dev.pci, pdev))
			return &m->dev[i];
	return NULL;
}

static bool sample_procs(struct top_model *m, double t)
{
	struct nb_proc_scan now;
	struct top_proc *rows;
	int rc = nb_proc_scan(NULL, &now);

	if (rc) {
		snprintf(m->error, sizeof(m->error), "cannot read /proc: %s", strerror(-rc));
		return false;
	}
	rows = calloc((size_t)now.nprocs + 1, sizeof(*rows));
	if (!rows) {
		nb_proc_scan_free(&now);
		snprintf(m->error, sizeof(m->error), "out of memory");
		return false;
	}
	for (int i = 0; i < m->n; i++) {
		m->dev[i].has_media = m->have_before && m->dev[i].sd.e->dev.kind == NB_DEV_AMDGPU;
		m->dev[i].media_pct = 0;
		m->dev[i].nprocs = 0;
	}
	for (int i = 0; i < now.nprocs; i++) {
		const struct nb_proc *p = &now.procs[i];
		const struct nb_proc *b = m->have_before ?
					  nb_proc_find(&m->before, p->pid, p->pdev) : NULL;
		struct top_dev *d = dev_of_pdev(m, p->pdev);
		struct top_proc *r = &rows[i];

		r->pid = p->pid;
		nb_strcpy(r->comm, sizeof(r->comm), p->comm[0] ? p->comm : "-");
		user_of(p->pid, r->user, sizeof(r->user));
		r->dev = d ? d->sd.e->dev.index : -1;
		r->has_busy = m->have_before;
		for (int k = 0; k < 5; k++) {
			double pct = 0;

			/* a process new since the last scan: its time since then unknown, 0 */
			if (b && !nb_proc_busy(p, b, top_engines[k], (t - m->t_before) * 1e9, &pct))
				pct = 0;
			r->busy[k] = pct;
		}
		r->has_vram = p->has_vram;
		r->vram = p->vram;
		r->has_gtt = p->has_gtt;
		r->gtt = p->gtt;
		/* as 'processes' shows it: the first digits, as the runtimes' tools do */
		nb_strcpy(r->container, sizeof(r->container), p->container.id);
		if (d) {
			d->media_pct += r->busy[3] + r->busy[4];
			d->nprocs++;
		}
	}
	free(m->procs);
	m->procs = rows;
	m->nprocs = now.nprocs;
	m->unreadable = now.unreadable;
	if (m->have_before)
		nb_proc_scan_free(&m->before);
	m->before = now;
	m->have_before = true;
	m->t_before = t;
	return true;
}

bool top_model_sample(struct top_model *m)
{
	double t = top_now();

	m->now = t;
	for (int i = 0; i < m->n; i++)
		sample_dev(&m->dev[i], t);
	return sample_procs(m, t);
}

static enum top_col sort_col;
static bool sort_rev;

static int cmp_num(double a, double b)
{
	return a < b ? -1 : a > b;
}

static int cmp_proc(const void *pa, const void *pb)
{
	const struct top_proc *a = pa, *b = pb;
	int c;

	switch (sort_col) {
	case TOP_COL_PID: c = cmp_num(a->pid, b->pid); break;
	case TOP_COL_USER: c = strcmp(a->user, b->user); break;
	case TOP_COL_DEV: c = cmp_num(a->dev, b->dev); break;
	case TOP_COL_COMMAND: c = strcmp(a->comm, b->comm); break;
	case TOP_COL_VRAM: c = cmp_num((double)a->vram, (double)b->vram); break;
	case TOP_COL_GTT: c = cmp_num((double)a->gtt, (double)b->gtt); break;
	case TOP_COL_CONTAINER: c = strcmp(a->container, b->container); break;
	default:
		c = cmp_num(a->busy[sort_col - TOP_COL_GFX], b->busy[sort_col - TOP_COL_GFX]);
		break;
	}
	if (sort_rev)
		c = -c;
	/* ties: by pid, then device, so that the order holds still */
	if (!c)
		c = cmp_num(a->pid, b->pid);
	if (!c)
		c = cmp_num(a->dev, b->dev);
	return c;
}

void top_sort(struct top_model *m, enum top_col col, bool rev)
{
	sort_col = col;
	sort_rev = rev;
	qsort(m->procs, (size_t)m->nprocs, sizeof(*m->procs), cmp_proc);
}

void top_model_close(struct top_model *m)
{
	for (int i = 0; i < m->n; i++)
		nb_sensor_close(&m->dev[i].sd);
	free(m->dev);
	free(m->procs);
	if (m->have_before)
		nb_proc_scan_free(&m->before);
	nb_devices_free(&m->l);
	memset(m, 0, sizeof(*m));
}
