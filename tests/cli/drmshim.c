// SPDX-License-Identifier: MIT
/*
 * drmshim: a test-only LD_PRELOAD library that answers for fake DRM
 * devices at the kernel interface, the way Mesa's drm-shim runs Mesa's
 * drivers without a GPU. The real libdrm and libdrm_amdgpu run on top.
 *
 * Paths under /dev/dri, /sys/dev/char, /sys/devices/pci*, /sys/bus/pci/devices,
 * /sys/kernel/debug/gputelemetry and /sys/module/gputelemetry are
 * redirected into $NBSHIM_ROOT, a
 * directory tree built by tests/cli/mkroot (sysfs files, symlinks, and
 * plain files standing for the device nodes). stat()/fstat() of a node
 * file report a character device of major 226 and the node's minor;
 * ioctl() on it answers DRM_IOCTL_VERSION and DRM_IOCTL_AMDGPU_INFO from
 * the fixture (fixture_navi14.h) and the PCI ids in the tree.
 *
 * Paths under /proc are redirected only where the root has a proc/
 * directory (mkroot procs=...), and then only /proc itself and the
 * numbered process directories (/proc/self, /proc/cpuinfo stay the real
 * ones): the processes and DRM fdinfo files of the fixture. Each
 * opendir("/proc") starts a new scan; from the second on, fdinfo/N@SCAN is
 * served for fdinfo/N where the root has it, so that engine times advance
 * between scans. A process directory holding a file "eacces" denies its fd
 * and fdinfo entries (EACCES), as /proc does for another user's process.
 *
 * The host CPU's files, for the CPU device's telemetry: /sys/class/hwmon,
 * /sys/class/powercap and /sys/devices/system/cpu are redirected only where
 * the root has them (mkroot cpu). An intel-rapl:N directory of the root
 * holding a file "watts" (W) stands for a package drawing that power:
 * its energy_uj reads as W x CLOCK_MONOTONIC (in uJ), modulo its
 * max_energy_range_uj, so that a reader's energy and power are known.
 *
 * $NBSHIM_QUIRKS, comma-separated:
 *   eacces        opening a render node fails with EACCES
 *   gt-eacces     opening the module's debugfs files fails with EACCES, as
 *                 for a user who is not root
 *   rapl-eacces   RAPL's energy_uj files fail with EACCES, as for a user who
 *                 is not root (Linux 5.10 and later)
 *   new-power     the kernel answers input power (0xC) and rejects average
 *                 power (newer kernels); default: the reverse (Linux 6.1)
 *   no-power      both power queries rejected
 *   old-kernel    AMDGPU_INFO_DEV_INFO answers only its first 200 bytes
 *                 (num_cu_per_sh and later unknown), no VBIOS query
 *   no-libdrm-amdgpu  dlopen("libdrm_amdgpu.so.1") fails, as where it is
 *                 not installed
 *   trace         log every redirected path to stderr
 * $NBSHIM_PCIE_BW_MS: how long an open of a pcie_bw file takes (default
 * 1000, as amdgpu's read of it).
 * $NBSHIM_COUNT_FILE: when set, each ioctl appends one byte there (tests
 * use it to check that a suspended GPU was not touched).
 * $NBSHIM_WAKE_FILE: when set, each open that would resume a
 * runtime-suspended device on a real system appends its path there, one
 * line each: a device whose power/runtime_status in the root says
 * "suspended", and an open of its render or card node (amdgpu's open
 * takes a runtime PM reference) or of an attribute amdgpu reads from the
 * hardware (its hwmon files, gpu_busy_percent, mem_busy_percent, mem_info_*,
 * gpu_metrics, pp_*, pcie_bw; ras/<block>_err_count, which reads the error
 * registers without a PM reference: no wake, but the hardware is off). Its
 * PCI ids, class, uevent, power/ and PCIe link attributes are sysfs' own or
 * config space: reading them wakes nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <amdgpu_drm.h>

#include "fixture_navi14.h"

#define DRM_MAJOR 226
#define MAX_NODES 16

static const char *const prefixes[] = {
	"/dev/dri", "/sys/dev/char", "/sys/devices/pci", "/sys/kernel/debug/gputelemetry",
	"/sys/class/drm", "/sys/bus/pci/devices", "/sys/module/gputelemetry",
};

/* Redirected only where the root has them (the host CPU's files). */
static const char *const host_prefixes[] = {
	"/sys/class/hwmon", "/sys/class/powercap", "/sys/devices/system/cpu",
};

static struct {
	bool init;
	char root[PATH_MAX];		/* as given */
	char root_real[PATH_MAX];	/* realpath of it */
	bool rapl_eacces;		/* energy_uj is root-only and we are not root */
	bool eacces, gt_eacces, new_power, no_power, old_kernel, no_amdgpu_lib, trace;
	bool has_proc;			/* the root has a proc/ */
	bool has_host[3];		/* the root has host_prefixes[i] */
	int proc_scans;			/* opendir("/proc") calls */
	int nnodes;
	struct {
		dev_t dev;
		ino_t ino;
		unsigned int minor;
		char name[32];
	} nodes[MAX_NODES];
	unsigned long calls;
} S;

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static FILE *(*real_fopen)(const char *, const char *);
static FILE *(*real_fopen64)(const char *, const char *);
static int (*real_stat)(const char *, struct stat *);
static int (*real_stat64)(const char *, struct stat64 *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_lstat64)(const char *, struct stat64 *);
static int (*real_fstat)(int, struct stat *);
static int (*real_fstat64)(int, struct stat64 *);
static int (*real_access)(const char *, int);
static DIR *(*real_opendir)(const char *);
static ssize_t (*real_readlink)(const char *, char *, size_t);
static char *(*real_realpath)(const char *, char *);
static int (*real_ioctl)(int, unsigned long, ...);

#define LOAD(sym) (*(void **)&real_##sym = dlsym(RTLD_NEXT, #sym))

/* NAME is one of the comma-separated words of $NBSHIM_QUIRKS (Q). */
static bool has_quirk(const char *q, const char *name)
{
	size_t n = strlen(name);

	for (const char *w = q; w && *w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL)
		if (!strncmp(w, name, n) && (w[n] == ',' || w[n] == '\0'))
			return true;
	return false;
}

static void shim_init(void)
{
	const char *root = getenv("NBSHIM_ROOT");
	const char *q = getenv("NBSHIM_QUIRKS");
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;

	if (S.init)
		return;
	S.init = true;
	LOAD(open);
	LOAD(open64);
	LOAD(openat);
	LOAD(fopen);
	LOAD(fopen64);
	LOAD(stat);
	LOAD(stat64);
	LOAD(lstat);
	LOAD(lstat64);
	LOAD(fstat);
	LOAD(fstat64);
	LOAD(access);
	LOAD(opendir);
	LOAD(readlink);
	LOAD(realpath);
	LOAD(ioctl);
	if (!root || !*root)
		return;
	snprintf(S.root, sizeof(S.root), "%s", root);
	if (!real_realpath(root, S.root_real))
		snprintf(S.root_real, sizeof(S.root_real), "%s", root);
	S.eacces = has_quirk(q, "eacces");
	S.gt_eacces = has_quirk(q, "gt-eacces");
	S.rapl_eacces = has_quirk(q, "rapl-eacces");
	S.new_power = has_quirk(q, "new-power");
	S.no_power = has_quirk(q, "no-power");
	S.old_kernel = has_quirk(q, "old-kernel");
	S.trace = has_quirk(q, "trace");
	S.no_amdgpu_lib = has_quirk(q, "no-libdrm-amdgpu");
	snprintf(path, sizeof(path), "%s/proc", S.root);
	S.has_proc = real_access(path, F_OK) == 0;
	for (size_t i = 0; i < sizeof(host_prefixes) / sizeof(host_prefixes[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", S.root, host_prefixes[i]);
		S.has_host[i] = real_access(path, F_OK) == 0;
	}
	/* The node files: their identity tells fds of fake nodes apart. */
	snprintf(path, sizeof(path), "%s/dev/dri", S.root);
	d = real_opendir(path);
	while (d && (de = readdir(d)) && S.nnodes < MAX_NODES) {
		struct stat st;
		unsigned int minor;
		char file[PATH_MAX];

		if (sscanf(de->d_name, "renderD%u", &minor) != 1 &&
		    sscanf(de->d_name, "card%u", &minor) != 1)
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
		if (real_stat(file, &st))
			continue;
		S.nodes[S.nnodes].dev = st.st_dev;
		S.nodes[S.nnodes].ino = st.st_ino;
		S.nodes[S.nnodes].minor = minor;
		snprintf(S.nodes[S.nnodes].name, sizeof(S.nodes[0].name), "%s", de->d_name);
		S.nnodes++;
	}
	if (d)
		closedir(d);
}

/* Before main(): wrappers may run before any redirect() call. */
__attribute__((constructor)) static void shim_ctor(void)
{
	shim_init();
}

/* /proc or a numbered process directory of the root's (see the top). */
static bool proc_path(const char *p)
{
	return S.has_proc && (!strcmp(p, "/proc") || !strcmp(p, "/proc/") ||
			      (!strncmp(p, "/proc/", 6) && p[6] >= '0' && p[6] <= '9'));
}

/* A process's fd or fdinfo entry, for a process whose directory says eacces. */
static bool proc_denied(const char *p)
{
	char path[PATH_MAX];
	const char *slash;
	int len;

	if (!proc_path(p) || !p[6] || !(slash = strchr(p + 6, '/')) ||
	    (strncmp(slash, "/fd", 3) != 0))
		return false;
	len = snprintf(path, sizeof(path), "%s%.*s/eacces", S.root, (int)(slash - p), p);
	return len < (int)sizeof(path) && real_access(path, F_OK) == 0;
}

/* The path to use for p: redirected into the root, or p itself. */
static const char *redirect(const char *p, char *buf, size_t n)
{
	shim_init();
	if (!S.root[0] || !p || p[0] != '/')
		return p;
	if (proc_path(p)) {
		char later[PATH_MAX];

		snprintf(buf, n, "%s%s", S.root, p);
		if (S.proc_scans > 1 && strstr(p, "/fdinfo/") &&
		    snprintf(later, sizeof(later), "%s@%d", buf, S.proc_scans) < (int)sizeof(later) &&
		    real_access(later, F_OK) == 0)
			snprintf(buf, n, "%s", later);
		if (S.trace)
			fprintf(stderr, "drmshim: %s -> %s\n", p, buf);
		return buf;
	}
	for (size_t i = 0; i < sizeof(host_prefixes) / sizeof(host_prefixes[0]); i++) {
		if (S.has_host[i] && !strncmp(p, host_prefixes[i], strlen(host_prefixes[i]))) {
			snprintf(buf, n, "%s%s", S.root, p);
			return buf;
		}
	}
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t l = strlen(prefixes[i]);

		if (!strncmp(p, prefixes[i], l)) {
			snprintf(buf, n, "%s%s", S.root, p);
			if (S.trace)
				fprintf(stderr, "drmshim: %s -> %s\n", p, buf);
			return buf;
		}
	}
	return p;
}

static int node_of(dev_t dev, ino_t ino)
{
	for (int i = 0; i < S.nnodes; i++)
		if (S.nodes[i].dev == dev && S.nodes[i].ino == ino)
			return i;
	return -1;
}

/* A stat result of a node file reports a DRM character device. */
static void patch_node(dev_t dev, ino_t ino, mode_t *mode, dev_t *rdev)
{
	int i = node_of(dev, ino);

	if (i < 0)
		return;
	*mode = S_IFCHR | (*mode & 07777);
	*rdev = makedev(DRM_MAJOR, S.nodes[i].minor);
}

static bool is_render_node(const char *p)
{
	return !strncmp(p, "/dev/dri/renderD", 16);
}

#define OPEN_MODE(flags, mode)					\
	do {							\
		if ((flags) & (O_CREAT | O_TMPFILE)) {		\
			va_list ap;				\
			va_start(ap, flags);			\
			mode = va_arg(ap, int);			\
			va_end(ap);				\
		}						\
	} while (0)

/* Whether an amdgpu attribute (the file's name) is read from the hardware. */
static bool wakes_attr(const char *rp)
{
	static const char *const names[] = { "gpu_busy_percent", "mem_busy_percent", "gpu_metrics",
					     "pcie_bw" };
	const char *base = strrchr(rp, '/');

	base = base ? base + 1 : rp;
	if (strstr(rp, "/hwmon/") || !strncmp(base, "mem_info_", 9) || !strncmp(base, "pp_", 3))
		return true;
	if (strstr(rp, "/ras/") && strstr(base, "_err_count"))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(base, names[i]))
			return true;
	return false;
}

/* Whether the PCI device directory holding rp (in the root) is runtime-suspended. */
static bool suspended_dir(const char *rp)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], status[32] = "";
	size_t l = strlen(S.root_real);
	FILE *f;

	if (!real_realpath(rp, dir) || strncmp(dir, S.root_real, l))
		return false;
	for (char *slash = strrchr(dir, '/'); slash && slash > dir + l; slash = strrchr(dir, '/')) {
		*slash = '\0';
		snprintf(file, sizeof(file), "%s/vendor", dir);
		if (real_access(file, F_OK))
			continue;
		snprintf(file, sizeof(file), "%s/power/runtime_status", dir);
		f = real_fopen(file, "r");
		if (f && !fgets(status, sizeof(status), f))
			status[0] = '\0';
		if (f)
			fclose(f);
		return !strncmp(status, "suspended", 9);
	}
	return false;
}

/*
 * An open of a fixture's pcie_bw: as long as amdgpu's read of it
 * ($NBSHIM_PCIE_BW_MS, default 1000: the driver sleeps a second between
 * its counts).
 */
static void pcie_bw_delay(const char *rp)
{
	const char *ms = getenv("NBSHIM_PCIE_BW_MS");
	const char *base = strrchr(rp, '/');
	long n = ms ? strtol(ms, NULL, 10) : 1000;

	if (base && !strcmp(base + 1, "pcie_bw") && n > 0)
		nanosleep(&(struct timespec){ n / 1000, n % 1000 * 1000000L }, NULL);
}

/* An open of p (redirected to rp): logged when it would wake a suspended device. */
static void note_wake(const char *p, const char *rp)
{
	const char *log = getenv("NBSHIM_WAKE_FILE");
	char dev[PATH_MAX];
	unsigned int minor;
	FILE *f;

	if (rp != p)
		pcie_bw_delay(rp);
	if (!log || rp == p)
		return;
	if (sscanf(p, "/dev/dri/renderD%u", &minor) == 1 || sscanf(p, "/dev/dri/card%u", &minor) == 1)
		snprintf(dev, sizeof(dev), "%s/sys/dev/char/%d:%u/device/vendor", S.root, DRM_MAJOR,
			 minor);
	else if (wakes_attr(rp))
		snprintf(dev, sizeof(dev), "%s", rp);
	else
		return;
	if (!suspended_dir(dev))
		return;
	f = real_fopen(log, "a");
	if (f) {
		fprintf(f, "%s\n", p);
		fclose(f);
	}
}

/* What the quirks deny (EACCES): render nodes, the module's debugfs files. */
static bool denied(const char *p)
{
	static const char gt[] = "/sys/kernel/debug/gputelemetry";

	shim_init();
	static const char rapl[] = "/sys/class/powercap/";
	const char *end = p ? strrchr(p, '/') : NULL;

	return S.root[0] && ((S.eacces && is_render_node(p)) ||
			     (S.gt_eacces && !strncmp(p, gt, sizeof(gt) - 1)) || proc_denied(p) ||
			     (S.rapl_eacces && !strncmp(p, rapl, sizeof(rapl) - 1) && end &&
			      !strcmp(end, "/energy_uj")));
}

int open(const char *p, int flags, ...)
{
	char buf[PATH_MAX];
	int mode = 0;

	OPEN_MODE(flags, mode);
	if (denied(p)) {
		errno = EACCES;
		return -1;
	}
	const char *rp = redirect(p, buf, sizeof(buf));

	note_wake(p, rp);
	return real_open(rp, flags, mode);
}

int open64(const char *p, int flags, ...)
{
	char buf[PATH_MAX];
	int mode = 0;

	OPEN_MODE(flags, mode);
	if (denied(p)) {
		errno = EACCES;
		return -1;
	}
	const char *rp = redirect(p, buf, sizeof(buf));

	note_wake(p, rp);
	return real_open64(rp, flags, mode);
}

int openat(int dirfd, const char *p, int flags, ...)
{
	char buf[PATH_MAX];
	int mode = 0;

	OPEN_MODE(flags, mode);
	if (denied(p)) {
		errno = EACCES;
		return -1;
	}
	const char *rp = redirect(p, buf, sizeof(buf));

	note_wake(p, rp);
	return real_openat(dirfd, rp, flags, mode);
}

/*
 * A redirected RAPL energy_uj whose directory has a "watts" file: the
 * energy of that power since CLOCK_MONOTONIC's origin, in a memory stream.
 * NULL when rp is not one.
 */
static FILE *rapl_energy(const char *rp)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], text[64];
	const char *slash = strrchr(rp, '/');
	double watts = 0;
	unsigned long long range = 0;
	struct timespec ts;
	FILE *f;

	if (!S.has_host[1] || !slash || strcmp(slash, "/energy_uj") ||
	    strncmp(rp, S.root, strlen(S.root)))
		return NULL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rp), rp);
	snprintf(file, sizeof(file), "%s/watts", dir);
	f = real_fopen(file, "r");
	if (!f)
		return NULL;
	if (fscanf(f, "%lf", &watts) != 1)
		watts = 0;
	fclose(f);
	snprintf(file, sizeof(file), "%s/max_energy_range_uj", dir);
	f = real_fopen(file, "r");
	if (f && fscanf(f, "%llu", &range) != 1)
		range = 0;
	if (f)
		fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	unsigned long long uj = (unsigned long long)((ts.tv_sec + ts.tv_nsec * 1e-9) * watts * 1e6);

	snprintf(text, sizeof(text), "%llu\n", range ? uj % range : uj);
	f = fmemopen(NULL, sizeof(text), "w+");
	if (f) {
		fputs(text, f);
		rewind(f);
	}
	return f;
}

FILE *fopen(const char *p, const char *m)
{
	char buf[PATH_MAX];
	FILE *f;

	if (denied(p)) {
		errno = EACCES;
		return NULL;
	}
	const char *rp = redirect(p, buf, sizeof(buf));

	note_wake(p, rp);
	f = rp == buf ? rapl_energy(rp) : NULL;
	return f ? f : real_fopen(rp, m);
}

FILE *fopen64(const char *p, const char *m)
{
	char buf[PATH_MAX];

	if (denied(p)) {
		errno = EACCES;
		return NULL;
	}
	const char *rp = redirect(p, buf, sizeof(buf));

	note_wake(p, rp);
	return real_fopen64(rp, m);
}

/* stat() and its kin: the path redirected, a node file reported as a node */
#define STAT_BY_PATH(fn, type)						\
int fn(const char *p, struct type *st)					\
{									\
	char buf[PATH_MAX];						\
	const char *rp;							\
	int r;								\
									\
	/* a library's constructor may stat() before ours ran */	\
	shim_init();							\
	rp = redirect(p, buf, sizeof(buf));				\
	r = real_##fn(rp, st);						\
	if (!r)								\
		patch_node(st->st_dev, st->st_ino, &st->st_mode, &st->st_rdev); \
	return r;							\
}
#define STAT_BY_FD(fn, type)						\
int fn(int fd, struct type *st)						\
{									\
	int r;								\
									\
	shim_init();							\
	r = real_##fn(fd, st);						\
	if (!r)								\
		patch_node(st->st_dev, st->st_ino, &st->st_mode, &st->st_rdev); \
	return r;							\
}
STAT_BY_PATH(stat, stat)
STAT_BY_PATH(stat64, stat64)
STAT_BY_PATH(lstat, stat)
STAT_BY_PATH(lstat64, stat64)
STAT_BY_FD(fstat, stat)
STAT_BY_FD(fstat64, stat64)

int access(const char *p, int mode)
{
	char buf[PATH_MAX];

	const char *rp = redirect(p, buf, sizeof(buf));

	return real_access(rp, mode);
}

DIR *opendir(const char *p)
{
	char buf[PATH_MAX];

	if (denied(p)) {
		errno = EACCES;
		return NULL;
	}
	if (proc_path(p) && strlen(p) <= 6)
		S.proc_scans++;
	const char *rp = redirect(p, buf, sizeof(buf));

	return real_opendir(rp);
}

ssize_t readlink(const char *p, char *out, size_t n)
{
	char buf[PATH_MAX];

	const char *rp = redirect(p, buf, sizeof(buf));

	return real_readlink(rp, out, n);
}

char *realpath(const char *p, char *out)
{
	char buf[PATH_MAX];
	const char *rp = redirect(p, buf, sizeof(buf));
	char *r = real_realpath(rp, out);
	size_t l = strlen(S.root_real);

	/* Give back the path as the program would see it, outside the root. */
	if (r && rp != p && l && !strncmp(r, S.root_real, l) && r[l] == '/')
		memmove(r, r + l, strlen(r + l) + 1);
	return r;
}

char *__realpath_chk(const char *p, char *out, size_t n)
{
	(void)n;
	return realpath(p, out);
}

void *dlopen(const char *file, int mode)
{
	static void *(*real_dlopen)(const char *, int);

	if (!real_dlopen)
		*(void **)&real_dlopen = dlsym(RTLD_NEXT, "dlopen");
	shim_init();
	if (S.no_amdgpu_lib && file && strstr(file, "libdrm_amdgpu")) {
		/* what dlerror() then says comes from the real dlopen of a
		 * name that does not exist */
		return real_dlopen("libdrm_amdgpu.so.1-not-installed", mode);
	}
	return real_dlopen(file, mode);
}

/* ---- ioctl ---- */

static void count_call(void)
{
	const char *f = getenv("NBSHIM_COUNT_FILE");

	if (f) {
		int fd = real_open(f, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

		if (fd >= 0) {
			if (write(fd, "i", 1) < 0) {
				/* nothing to do: the count is advisory */
			}
			close(fd);
		}
	}
}

/* The sysfs device directory of a node, inside the root. */
static void node_sysdev(int node, char *buf, size_t n)
{
	snprintf(buf, n, "%s/sys/dev/char/%d:%u/device", S.root, DRM_MAJOR, S.nodes[node].minor);
}

static unsigned int sysfs_hex(int node, const char *attr)
{
	char path[PATH_MAX], dir[PATH_MAX];
	unsigned int v = 0;
	FILE *f;

	node_sysdev(node, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = real_fopen(path, "r");
	if (f) {
		if (fscanf(f, "%x", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static void node_driver(int node, char *out, size_t n)
{
	char path[PATH_MAX], dir[PATH_MAX], link[PATH_MAX];
	ssize_t l;
	const char *b;

	node_sysdev(node, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/driver", dir);
	l = real_readlink(path, link, sizeof(link) - 1);
	if (l <= 0) {
		snprintf(out, n, "unknown");
		return;
	}
	link[l] = '\0';
	b = strrchr(link, '/');
	snprintf(out, n, "%s", b ? b + 1 : link);
}

static void copy_str(char *dst, __kernel_size_t *len, const char *src)
{
	size_t l = strlen(src);

	if (dst && *len)
		memcpy(dst, src, l < *len ? l : *len);
	*len = l;
}

static int drm_version(int node, struct drm_version *v)
{
	char name[64];

	node_driver(node, name, sizeof(name));
	v->version_major = FIX_DRM_MAJOR;
	v->version_minor = FIX_DRM_MINOR;
	v->version_patchlevel = 0;
	copy_str(v->name, &v->name_len, name);
	copy_str(v->date, &v->date_len, "20150101");
	copy_str(v->desc, &v->desc_len, "AMD GPU");
	return 0;
}

static int answer(struct drm_amdgpu_info *req, const void *data, size_t size)
{
	size_t n = req->return_size < size ? req->return_size : size;

	memcpy((void *)(uintptr_t)req->return_pointer, data, n);
	return 0;
}

static int sensor(struct drm_amdgpu_info *req)
{
	unsigned long k = S.calls++;
	uint32_t v;

	switch (req->sensor_info.type) {
	case AMDGPU_INFO_SENSOR_GFX_SCLK:
		v = FIX_SENSOR_SCLK_MHZ - (uint32_t)(k % 8) * 25;
		break;
	case AMDGPU_INFO_SENSOR_GFX_MCLK:
		v = FIX_SENSOR_MCLK_MHZ;
		break;
	case AMDGPU_INFO_SENSOR_GPU_TEMP:
		v = FIX_SENSOR_TEMP_MC + (uint32_t)(k % 5) * 500;
		break;
	case AMDGPU_INFO_SENSOR_GPU_LOAD:
		v = FIX_SENSOR_LOAD - (uint32_t)(k % 4);
		break;
	case AMDGPU_INFO_SENSOR_GPU_AVG_POWER:
		if (S.new_power || S.no_power)
			return -EINVAL;
		v = FIX_SENSOR_POWER_W;
		break;
	case 0xc:	/* AMDGPU_INFO_SENSOR_GPU_INPUT_POWER, Linux 6.5+ */
		if (!S.new_power || S.no_power)
			return -EINVAL;
		v = FIX_SENSOR_POWER_W + 2;
		break;
	case AMDGPU_INFO_SENSOR_VDDGFX:
		v = FIX_SENSOR_VDDGFX_MV;
		break;
	case AMDGPU_INFO_SENSOR_VDDNB:
		/* a discrete GPU has no northbridge rail: the kernel says so */
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
	return answer(req, &v, sizeof(v));
}

static int amdgpu_info(int node, struct drm_amdgpu_info *req)
{
	char drv[64];

	node_driver(node, drv, sizeof(drv));
	if (strcmp(drv, "amdgpu"))
		return -EINVAL;

	switch (req->query) {
	case AMDGPU_INFO_ACCEL_WORKING: {
		uint32_t one = 1;

		return answer(req, &one, sizeof(one));
	}
	case AMDGPU_INFO_DEV_INFO: {
		struct drm_amdgpu_info_device di;

		fixture_dev_info(&di);
		di.device_id = sysfs_hex(node, "device");
		di.pci_rev = sysfs_hex(node, "revision");
		return answer(req, &di, S.old_kernel && sizeof(di) > 200 ? 200 : sizeof(di));
	}
	case AMDGPU_INFO_MEMORY: {
		struct drm_amdgpu_memory_info m;

		fixture_memory(&m);
		return answer(req, &m, sizeof(m));
	}
	case AMDGPU_INFO_VRAM_USAGE: {
		uint64_t u = FIX_VRAM_USED;

		return answer(req, &u, sizeof(u));
	}
	case AMDGPU_INFO_READ_MMR_REG: {
		uint32_t *out = (uint32_t *)(uintptr_t)req->return_pointer;

		for (uint32_t i = 0; i < req->read_mmr_reg.count; i++) {
			uint32_t reg = req->read_mmr_reg.dword_offset + i;

			if (reg != FIX_REG_GB_ADDR_CONFIG)
				return -EINVAL;
			out[i] = FIX_GB_ADDR_CONFIG;
		}
		return 0;
	}
	case AMDGPU_INFO_FW_VERSION: {
		struct drm_amdgpu_info_firmware fw;

		if (fixture_firmware(req->query_fw.fw_type, &fw))
			return -EINVAL;
		return answer(req, &fw, sizeof(fw));
	}
	case AMDGPU_INFO_VBIOS: {
		struct drm_amdgpu_info_vbios vb;

		if (S.old_kernel || req->vbios_info.type != AMDGPU_INFO_VBIOS_INFO)
			return -EINVAL;
		fixture_vbios(&vb);
		return answer(req, &vb, sizeof(vb));
	}
	case AMDGPU_INFO_SENSOR:
		return sensor(req);
	default:
		return -EINVAL;
	}
}

int ioctl(int fd, unsigned long req, ...)
{
	struct stat st;
	va_list ap;
	void *arg;
	int node, r;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	shim_init();
	if (!S.root[0] || real_fstat(fd, &st) || (node = node_of(st.st_dev, st.st_ino)) < 0)
		return real_ioctl(fd, req, arg);

	count_call();
	if (req == DRM_IOCTL_VERSION)
		r = drm_version(node, arg);
	else if (req == DRM_IOCTL_AMDGPU_INFO)
		r = amdgpu_info(node, arg);
	else
		r = -ENOTTY;
	if (S.trace)
		fprintf(stderr, "drmshim: ioctl %s 0x%lx -> %d\n", S.nodes[node].name, req, r);
	if (r) {
		errno = -r;
		return -1;
	}
	return 0;
}
