// SPDX-License-Identifier: MIT
/*
 * DRM fdinfo: the parser of one fdinfo text, and the scan of /proc that
 * sums each process's clients per device. See fdinfo.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices/cgroup.h"
#include "devices/fdinfo.h"

/* One "key: value [unit]" line of at most 255 bytes; false if malformed. */
static bool split(const char *line, size_t n, char *key, size_t nkey, uint64_t *v,
		  char *unit, size_t nunit)
{
	const char *colon = memchr(line, ':', n), *p, *end = line + n;
	size_t kl, ul = 0;

	if (!colon || (size_t)(colon - line) >= nkey)
		return false;
	kl = colon - line;
	memcpy(key, line, kl);
	key[kl] = '\0';
	p = colon + 1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || !isdigit((unsigned char)*p))
		return false;
	*v = 0;
	for (; p < end && isdigit((unsigned char)*p); p++) {
		if (*v > (UINT64_MAX - (*p - '0')) / 10)
			return false;
		*v = *v * 10 + (*p - '0');
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && !isspace((unsigned char)*p) && ul + 1 < nunit)
		unit[ul++] = *p++;
	unit[ul] = '\0';
	return true;
}

/* A size with its drm_print_memory_stats() unit (none: bytes). */
static bool size_bytes(uint64_t v, const char *unit, uint64_t *out)
{
	static const struct { const char *u; unsigned int shift; } units[] = {
		{ "", 0 }, { "B", 0 }, { "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].u)) {
			if (v > UINT64_MAX >> units[i].shift)
				return false;
			*out = v << units[i].shift;
			return true;
		}
	return false;
}

static void set_engine(struct nb_fdinfo *fi, const char *name, uint64_t ns)
{
	int i;

	if (!*name || strlen(name) >= sizeof(fi->engine[0].name))
		return;
	for (i = 0; i < fi->nengines; i++)
		if (!strcmp(fi->engine[i].name, name))
			break;
	if (i == NB_FDINFO_ENGINES)
		return;
	if (i == fi->nengines) {
		/* Fits: the length was checked above. */
		memcpy(fi->engine[i].name, name, strlen(name) + 1);
		fi->nengines++;
	}
	fi->engine[i].ns = ns;
}

/* drm-resident-<region> (6.12) wins over drm-memory-<region> (6.1). */
static void set_mem(struct nb_fdinfo *fi, const char *region, uint64_t bytes, int prio,
		    int *vram_prio, int *gtt_prio)
{
	if (!strcmp(region, "vram") && prio >= *vram_prio) {
		fi->vram = bytes;
		fi->has_vram = true;
		*vram_prio = prio;
	} else if (!strcmp(region, "gtt") && prio >= *gtt_prio) {
		fi->gtt = bytes;
		fi->has_gtt = true;
		*gtt_prio = prio;
	}
}

/* A text value: "prefix<spaces>value" copied into out; false if no match. */
static bool text_value(const char *line, size_t n, const char *prefix, char *out, size_t nout)
{
	size_t pl = strlen(prefix);
	const char *p = line + pl, *end = line + n;

	if (n < pl || strncmp(line, prefix, pl))
		return false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	snprintf(out, nout, "%.*s", (int)(end - p), p);
	return true;
}

static void parse_line(struct nb_fdinfo *fi, const char *line, size_t n, int *vp, int *gp)
{
	char key[64], unit[16];
	uint64_t v, bytes;

	if (text_value(line, n, "drm-driver:", fi->driver, sizeof(fi->driver)) ||
	    text_value(line, n, "drm-pdev:", fi->pdev, sizeof(fi->pdev)))
		return;
	if (!split(line, n, key, sizeof(key), &v, unit, sizeof(unit)))
		return;
	if (!strcmp(key, "drm-client-id")) {
		fi->client_id = v;
		fi->has_client_id = true;
	} else if (!strncmp(key, "drm-engine-", 11) &&
		   strncmp(key, "drm-engine-capacity-", 20)) {
		if (!strcmp(unit, "ns"))
			set_engine(fi, key + 11, v);
	} else if (!strncmp(key, "drm-resident-", 13) && size_bytes(v, unit, &bytes)) {
		set_mem(fi, key + 13, bytes, 2, vp, gp);
	} else if (!strncmp(key, "drm-memory-", 11) && size_bytes(v, unit, &bytes)) {
		set_mem(fi, key + 11, bytes, 1, vp, gp);
	}
}

int nb_fdinfo_parse(const char *text, size_t len, struct nb_fdinfo *fi)
{
	int vram_prio = 0, gtt_prio = 0;
	size_t i = 0;

	memset(fi, 0, sizeof(*fi));
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;

		/* Lines past 255 bytes are no key of the spec: skipped. */
		if (n < 256)
			parse_line(fi, text + i, n, &vram_prio, &gtt_prio);
		i += n + 1;
	}
	return fi->driver[0] && fi->has_client_id ? 0 : -1;
}

/* The clients counted so far: drm-pdev plus drm-client-id. */
struct seen {
	struct { char pdev[32]; uint64_t id; } *v;
	size_t n, cap;
};

/* Adds the client; false when it was already counted. */
static bool seen_add(struct seen *s, const struct nb_fdinfo *fi)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].id == fi->client_id && !strcmp(s->v[i].pdev, fi->pdev))
			return false;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		void *v = realloc(s->v, cap * sizeof(*s->v));

		if (!v)
			return false;
		s->v = v;
		s->cap = cap;
	}
	snprintf(s->v[s->n].pdev, sizeof(s->v[0].pdev), "%s", fi->pdev);
	s->v[s->n++].id = fi->client_id;
	return true;
}

/* See fdinfo.h. */
ssize_t nb_read_small(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t r;

	if (fd < 0)
		return -errno;
	while (got + 1 < n && (r = read(fd, buf + got, n - 1 - got)) > 0)
		got += r;
	close(fd);
	buf[got] = '\0';
	return got;
}

static void proc_add(struct nb_proc *p, const struct nb_fdinfo *fi)
{
	p->nclients++;
	for (int i = 0; i < fi->nengines; i++) {
		int j;

		for (j = 0; j < p->nengines; j++)
			if (!strcmp(p->engine[j].name, fi->engine[i].name))
				break;
		if (j == NB_FDINFO_ENGINES)
			continue;
		if (j == p->nengines) {
			p->engine[j] = fi->engine[i];
			p->nengines++;
		} else {
			p->engine[j].ns += fi->engine[i].ns;
		}
	}
	p->vram += fi->vram;
	p->gtt += fi->gtt;
	p->has_vram |= fi->has_vram;
	p->has_gtt |= fi->has_gtt;
}

/*
 * The entry of fi's device among a process's n entries (p[], NB_PROC_PDEVS
 * of them): a new one when the device is new; NULL when there are already
 * NB_PROC_PDEVS devices (a client of a further one is left out).
 */
static struct nb_proc *proc_of_pdev(struct nb_proc *p, int *n, int pid, const char *pdev)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(p[i].pdev, pdev))
			return &p[i];
	if (*n == NB_PROC_PDEVS)
		return NULL;
	memset(&p[*n], 0, sizeof(p[*n]));
	p[*n].pid = pid;
	snprintf(p[*n].pdev, sizeof(p[*n].pdev), "%s", pdev);
	return &p[(*n)++];
}

static int cmp_pdev(const void *a, const void *b)
{
	return strcmp(((const struct nb_proc *)a)->pdev, ((const struct nb_proc *)b)->pdev);
}

/*
 * One process: its amdgpu clients not counted yet, summed per device into
 * p[0..*n) (by PCI address). Returns 1 when it has one, 0 when none, -1
 * when its fds may not be read.
 */
static int scan_pid(int pid, const char *pdev, struct seen *seen, struct nb_proc *p, int *n)
{
	char path[64], link[64], buf[4096], comm[32] = "";
	struct nb_container ctr;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return errno == EACCES || errno == EPERM ? -1 : 0;
	while ((de = readdir(d))) {
		struct nb_fdinfo fi;
		struct nb_proc *pp;
		ssize_t len;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%.16s", pid, de->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len < 0 || (link[len] = '\0', strncmp(link, "/dev/dri/", 9)))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%.16s", pid, de->d_name);
		len = nb_read_small(path, buf, sizeof(buf));
		if (len == -EACCES || len == -EPERM) {
			ret = -1;
			break;
		}
		if (len < 0 || nb_fdinfo_parse(buf, len, &fi) || strcmp(fi.driver, "amdgpu"))
			continue;
		if ((pdev && strcmp(fi.pdev, pdev)) || !seen_add(seen, &fi))
			continue;
		pp = proc_of_pdev(p, n, pid, fi.pdev);
		if (!pp)
			continue;
		proc_add(pp, &fi);
		ret = 1;
	}
	closedir(d);
	if (ret != 1)
		return ret;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (nb_read_small(path, comm, sizeof(comm)) > 0)
		comm[strcspn(comm, "\n")] = '\0';
	nb_cgroup_of_pid(pid, &ctr);
	for (int i = 0; i < *n; i++) {
		memcpy(p[i].comm, comm, sizeof(comm));
		p[i].container = ctr;
	}
	qsort(p, *n, sizeof(*p), cmp_pdev);
	return ret;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The numeric entries of /proc, ascending; -errno when it cannot be read. */
static int list_pids(int **pids, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	*pids = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *end || pid <= 0 || pid > 1 << 30)
			continue;
		if (*n == cap) {
			int *v = realloc(*pids, (cap = cap ? 2 * cap : 256) * sizeof(int));

			if (!v) {
				closedir(d);
				return -ENOMEM;
			}
			*pids = v;
		}
		(*pids)[(*n)++] = pid;
	}
	closedir(d);
	qsort(*pids, *n, sizeof(int), cmp_int);
	return 0;
}

int nb_proc_scan(const char *pdev, struct nb_proc_scan *scan)
{
	struct seen seen = { 0 };
	int *pids, ret;
	size_t n;

	memset(scan, 0, sizeof(*scan));
	ret = list_pids(&pids, &n);
	if (ret)
		return ret;
	/* Processes in ascending pid order: a shared client counts for the first. */
	for (size_t i = 0; i < n && !ret; i++) {
		struct nb_proc p[NB_PROC_PDEVS], *v;
		int np, r = scan_pid(pids[i], pdev, &seen, p, &np);

		if (r < 0)
			scan->unreadable++;
		if (r <= 0)
			continue;
		v = realloc(scan->procs, (scan->nprocs + np) * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
			break;
		}
		scan->procs = v;
		memcpy(&scan->procs[scan->nprocs], p, np * sizeof(*p));
		scan->nprocs += np;
	}
	scan->clients = seen.n;
	free(seen.v);
	free(pids);
	if (ret)
		nb_proc_scan_free(scan);
	return ret;
}

void nb_proc_scan_free(struct nb_proc_scan *scan)
{
	free(scan->procs);
	memset(scan, 0, sizeof(*scan));
}

const struct nb_proc *nb_proc_find(const struct nb_proc_scan *scan, int pid, const char *pdev)
{
	for (int i = 0; i < scan->nprocs; i++)
		if (scan->procs[i].pid == pid && !strcmp(scan->procs[i].pdev, pdev))
			return &scan->procs[i];
	return NULL;
}

int64_t nb_proc_engine_ns(const struct nb_proc *p, const char *name)
{
	for (int i = 0; i < p->nengines; i++)
		if (!strcmp(p->engine[i].name, name))
			return p->engine[i].ns > INT64_MAX ? INT64_MAX : (int64_t)p->engine[i].ns;
	return -1;
}

bool nb_proc_busy(const struct nb_proc *p, const struct nb_proc *before, const char *name,
		  double wall_ns, double *pct)
{
	int64_t now, then;

	if (!before || wall_ns <= 0)
		return false;
	/* amdgpu leaves out an engine the client has not used: 0 ns. */
	now = nb_proc_engine_ns(p, name);
	then = nb_proc_engine_ns(before, name);
	now = now < 0 ? 0 : now;
	then = then < 0 ? 0 : then;
	*pct = now > then ? (now - then) * 100.0 / wall_ns : 0;
	return true;
}
