/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the gputelemetry kselftests: loading the module,
 * creating simulated devices, reading and writing debugfs files.
 *
 * The module is found, in order, at $GPUTELEMETRY_KO, at
 * /lib/gputelemetry/gputelemetry.ko, or through modprobe; when none works
 * the tests skip (KSFT_SKIP).
 */
#ifndef GT_UTIL_H
#define GT_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "gputelemetry.h"
#include "kselftest_harness.h"

#define GT_MODNAME	"gputelemetry"
#define GT_DEBUGFS	"/sys/kernel/debug"
#define GT_ROOT		GT_DEBUGFS "/" GT_DEBUGFS_ROOT
#define GT_KO_DEFAULT	"/lib/gputelemetry/gputelemetry.ko"

static const char *const gt_sensor_keys[] __attribute__((unused)) = {
#define GT_KEY(id, key, unit, ...) key,
	GT_SENSORS(GT_KEY)
#undef GT_KEY
};

static const char *const gt_sensor_units[] __attribute__((unused)) = {
#define GT_UNIT(id, key, unit, ...) unit,
	GT_SENSORS(GT_UNIT)
#undef GT_UNIT
};

/*
 * Body guard: with the harness of kernels before 6.9 a SKIP() in
 * FIXTURE_SETUP runs the body all the same, and sets _metadata->skip.
 * 6.9 ("selftests: kselftest_harness: use exit code to store skip", the
 * series that added XFAIL_ADD) keeps it in exit_code and no longer runs
 * the body.
 */
#ifdef XFAIL_ADD
#define GT_SETUP_SKIPPED() (_metadata->exit_code == KSFT_SKIP)
#else
#define GT_SETUP_SKIPPED() (_metadata->skip)
#endif
#define GT_SKIP_IF_SETUP_SKIPPED() do {				\
	if (GT_SETUP_SKIPPED())					\
		return;						\
} while (0)

static inline long long gt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void gt_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * gt_read_fd() - reads @fd to its end with reads of at most @chunk bytes.
 * Returns the length (NUL-terminated in @buf) or -errno.
 */
static inline ssize_t gt_read_fd(int fd, char *buf, size_t size, size_t chunk)
{
	size_t len = 0;

	for (;;) {
		size_t want = size - 1 - len;
		ssize_t n;

		if (want > chunk)
			want = chunk;
		if (!want)
			return -EFBIG;
		n = read(fd, buf + len, want);
		if (n < 0)
			return -errno;
		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	return len;
}

static inline ssize_t gt_read(const char *path, char *buf, size_t size, size_t chunk)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	ret = gt_read_fd(fd, buf, size, chunk);
	close(fd);
	return ret;
}

/* Writes @s in one write(2). Returns 0 or -errno. */
static inline int gt_write(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (close(fd))
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static inline int gt_writef(const char *path, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return gt_write(path, buf);
}

/* Reads a file holding one decimal integer. Returns 0 or -errno. */
static inline int gt_read_ll(const char *path, long long *val)
{
	char buf[64], *end;
	ssize_t n;

	n = gt_read(path, buf, sizeof(buf), sizeof(buf));
	if (n < 0)
		return n;
	errno = 0;
	*val = strtoll(buf, &end, 10);
	if (errno || end == buf || strcmp(end, "\n"))
		return -EINVAL;
	return 0;
}

static inline bool gt_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static inline bool gt_module_loaded(void)
{
	return gt_exists("/sys/module/" GT_MODNAME);
}

static inline const char *gt_ko_path(void)
{
	const char *p = getenv("GPUTELEMETRY_KO");

	if (p && *p)
		return p;
	if (gt_exists(GT_KO_DEFAULT))
		return GT_KO_DEFAULT;
	return NULL;
}

/*
 * gt_module_unload() - removes the module, retrying while it is busy
 * (a reader from a previous test may still be closing). Returns 0 or -errno.
 */
static inline int gt_module_unload(void)
{
	int i, ret = 0;

	for (i = 0; i < 100 && gt_module_loaded(); i++) {
		ret = syscall(SYS_delete_module, GT_MODNAME, O_NONBLOCK) ? -errno : 0;
		if (!ret || (ret != -EBUSY && ret != -EAGAIN))
			break;
		gt_sleep_ms(50);
	}
	return ret;
}

/*
 * gt_module_load() - loads the module with @params ("" for none).
 * Returns 0, -ENOENT when the module is not found, or -errno.
 */
static inline int gt_module_load(const char *params)
{
	const char *ko = gt_ko_path();
	char cmd[512];
	int fd, ret;

	if (ko) {
		fd = open(ko, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
		close(fd);
		return ret;
	}
	snprintf(cmd, sizeof(cmd), "modprobe -q " GT_MODNAME " %s >/dev/null 2>&1", params);
	if (system(cmd) == 0 && gt_module_loaded())
		return 0;
	return -ENOENT;
}

/* Whether the module was loaded before this program ran: if not, unload at exit. */
static bool gt_loaded_at_start;

static void __attribute__((constructor)) gt_note_start(void)
{
	gt_loaded_at_start = gt_module_loaded();
}

static void __attribute__((destructor)) gt_restore(void)
{
	if (!gt_loaded_at_start)
		gt_module_unload();
}

/*
 * gt_require_module() - makes sure the module is loaded, with @params if
 * not NULL (reloading it when it is loaded already). Skips the test when
 * the module cannot be found. Returns false when the caller must return.
 */
static inline bool __gt_require_module(struct __test_metadata *_metadata,
				       const char *params)
{
	int ret;

	if (!gt_exists(GT_DEBUGFS "/"))
		SKIP(return false, "debugfs is not mounted at " GT_DEBUGFS);
	if (gt_module_loaded() && !params)
		return true;
	if (gt_module_loaded()) {
		ret = gt_module_unload();
		ASSERT_EQ(0, ret) TH_LOG("cannot unload " GT_MODNAME ": %s", strerror(-ret));
	}
	ret = gt_module_load(params ? params : "");
	if (ret == -ENOENT && !gt_ko_path())
		SKIP(return false, GT_MODNAME ".ko not found (set GPUTELEMETRY_KO, or install it for modprobe)");
	ASSERT_EQ(0, ret) TH_LOG("loading " GT_MODNAME " %s: %s", params ? params : "",
				 strerror(-ret));
	ASSERT_TRUE(gt_exists(GT_ROOT)) TH_LOG(GT_ROOT " missing after loading");
	return true;
}
#define gt_require_module(params) __gt_require_module(_metadata, params)

/* Picks an id in 128..255 with no "sim<id>" directory. -1 if none. */
static inline int gt_free_sim_id(void)
{
	char path[PATH_MAX];
	int id, start = 128 + getpid() % 128;

	for (int i = 0; i < 128; i++) {
		id = 128 + (start - 128 + i) % 128;
		snprintf(path, sizeof(path), GT_ROOT "/" GT_SIM_PREFIX "%d", id);
		if (!gt_exists(path))
			return id;
	}
	return -1;
}

static inline int gt_sim_new(int id, const char *profile)
{
	return gt_writef(GT_ROOT "/" GT_FILE_NEW_DEVICE, "%d %s", id, profile);
}

static inline int gt_sim_del(int id)
{
	return gt_writef(GT_ROOT "/" GT_FILE_DEL_DEVICE, "%d", id);
}

/* Path of file @file of device sim<id>. */
static inline const char *gt_dev_path(char *buf, size_t size, int id, const char *file)
{
	snprintf(buf, size, GT_ROOT "/" GT_SIM_PREFIX "%d/%s", id, file);
	return buf;
}

/* Splits @buf into lines in place; returns the count, at most @max. */
static inline int gt_lines(char *buf, char **lines, int max)
{
	int n = 0;
	char *p = buf, *nl;

	while (*p && n < max) {
		nl = strchr(p, '\n');
		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return n;
}

/* Whether @s is a whole decimal integer (optional '-'). */
static inline bool gt_is_int(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * gt_sensor_value() - value of reading @key in a "sensors" file text.
 * Returns 1 with *val set, 0 when "unavailable", -1 when the key is absent
 * or malformed.
 */
static inline int gt_sensor_value(const char *text, const char *key, long long *val)
{
	char pat[64];
	const char *p;
	size_t kl;

	snprintf(pat, sizeof(pat), "%s: ", key);
	kl = strlen(pat);
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, pat, kl))
			continue;
		p += kl;
		if (!strncmp(p, GT_UNAVAILABLE "\n", strlen(GT_UNAVAILABLE) + 1))
			return 0;
		return sscanf(p, "%lld ", val) == 1 ? 1 : -1;
	}
	return -1;
}

/* Reads reading @key from device sim<id>'s "sensors". Same returns. */
static inline int gt_read_sensor(int id, const char *key, long long *val)
{
	char path[PATH_MAX], buf[4096];

	if (gt_read(gt_dev_path(path, sizeof(path), id, GT_FILE_SENSORS),
		    buf, sizeof(buf), sizeof(buf)) < 0)
		return -1;
	return gt_sensor_value(buf, key, val);
}

/* One line of a "history" file. */
struct gt_hline {
	bool lost;		/* a "lost <n>" line */
	long long lost_n;
	long long ts;		/* sample lines: monotonic ns */
	unsigned int valid;	/* bit per reading that is not "na" */
	long long val[GT_S_COUNT];
};

/*
 * gt_parse_history() - parses "history" text into @out (at most @max lines).
 * Every line must be a whole "lost <n>" or a sample line with every key of
 * GT_SENSORS in order. Returns the line count, or -(1 + index) of the first
 * malformed line (its text is left in @bad).
 */
static inline int gt_parse_history(const char *text, struct gt_hline *out, int max,
				   char *bad, size_t badsize)
{
	const char *p = text;
	int n = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		char line[1024], *tok, *save, *end;
		struct gt_hline *h = &out[n];
		size_t len;
		int k;

		if (!nl || n >= max)
			goto bad;
		len = nl - p;
		if (len >= sizeof(line))
			goto bad;
		memcpy(line, p, len);
		line[len] = '\0';
		memset(h, 0, sizeof(*h));
		tok = strtok_r(line, " ", &save);
		if (!tok)
			goto bad;
		if (!strcmp(tok, GT_LOST)) {
			tok = strtok_r(NULL, " ", &save);
			if (!tok || !gt_is_int(tok) || strtok_r(NULL, " ", &save))
				goto bad;
			h->lost = true;
			h->lost_n = strtoll(tok, NULL, 10);
			if (h->lost_n <= 0)
				goto bad;
		} else {
			if (!gt_is_int(tok) || *tok == '-')
				goto bad;
			h->ts = strtoll(tok, NULL, 10);
			for (k = 0; k < GT_S_COUNT; k++) {
				size_t kl = strlen(gt_sensor_keys[k]);

				tok = strtok_r(NULL, " ", &save);
				if (!tok || strncmp(tok, gt_sensor_keys[k], kl) || tok[kl] != '=')
					goto bad;
				tok += kl + 1;
				if (!strcmp(tok, GT_NA))
					continue;
				if (!gt_is_int(tok))
					goto bad;
				h->val[k] = strtoll(tok, &end, 10);
				h->valid |= 1u << k;
			}
			if (strtok_r(NULL, " ", &save))
				goto bad;
		}
		n++;
		p = nl + 1;
		continue;
bad:
		snprintf(bad, badsize, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		return -(1 + n);
	}
	return n;
}

/* Reads everything an open "history" fd has for this reader and parses it. */
static inline int gt_read_history(int fd, char *buf, size_t size, size_t chunk,
				  struct gt_hline *out, int max, char *bad, size_t badsize)
{
	ssize_t len = gt_read_fd(fd, buf, size, chunk);

	if (len < 0) {
		snprintf(bad, badsize, "read: %s", strerror(-len));
		return -1000000;
	}
	return gt_parse_history(buf, out, max, bad, badsize);
}

/* Index of reading @key in GT_SENSORS, or -1. */
static inline int gt_sensor_index(const char *key)
{
	for (int k = 0; k < GT_S_COUNT; k++)
		if (!strcmp(gt_sensor_keys[k], key))
			return k;
	return -1;
}

/* Whether @text holds something that looks like a kernel pointer. */
static inline bool gt_has_kernel_pointer(const char *text)
{
	for (const char *p = text; *p; p++) {
		int n = 0;

		if (strncasecmp(p, "ffff", 4))
			continue;
		while (n < 16 && ((p[n] >= '0' && p[n] <= '9') ||
				  (p[n] >= 'a' && p[n] <= 'f') || (p[n] >= 'A' && p[n] <= 'F')))
			n++;
		if (n == 16)
			return true;
	}
	return false;
}

/*
 * gt_sampler_samples() - the sampler's count of samples of sim<id> since
 * creation, from the last "stats" line "sampler: samples=<n> cpu_ns=<ns>";
 * -1 when the file or the line is missing.
 */
static inline long long gt_sampler_samples(int id)
{
	char path[PATH_MAX], text[8192], *p;
	long long n;

	if (gt_read(gt_dev_path(path, sizeof(path), id, GT_FILE_STATS), text, sizeof(text),
		    sizeof(text)) < 0)
		return -1;
	p = strstr(text, "\nsampler: samples=");
	if (!p || sscanf(p, "\nsampler: samples=%lld ", &n) != 1)
		return -1;
	return n;
}

/*
 * gt_wait_samples() - waits until sim<id>'s sampler took @n more samples
 * (a slow VM samples less often than the period says), at most 20 s.
 * Without the sampler count, sleeps @n periods of @interval_ms, three times
 * over. Returns false on timeout.
 */
static inline bool gt_wait_samples(int id, int n, int interval_ms)
{
	long long start = gt_sampler_samples(id), deadline = gt_now_ns() + 20000000000LL;

	if (start < 0) {
		gt_sleep_ms(3L * n * interval_ms);
		return true;
	}
	while (gt_sampler_samples(id) < start + n) {
		if (gt_now_ns() > deadline)
			return false;
		gt_sleep_ms(interval_ms);
	}
	return true;
}

/*
 * GT_HARNESS_MAIN - TEST_HARNESS_MAIN, but the whole program skips (exit 4,
 * KSFT_SKIP) when there is no module to test: no $GPUTELEMETRY_KO, no
 * /lib/gputelemetry/gputelemetry.ko, nothing modprobe knows, not loaded.
 */
static inline bool gt_module_available(void)
{
	/*
	 * modinfo reads the name from the file modules.dep names; its status
	 * alone says nothing (busybox's returns 0 when the file is missing,
	 * and busybox's modprobe has no -n).
	 */
	return gt_module_loaded() || gt_ko_path() ||
	       system("modinfo -F name " GT_MODNAME " 2>/dev/null | "
		      "grep -qx " GT_MODNAME) == 0;
}

#define GT_HARNESS_MAIN							\
	int main(int argc, char **argv)					\
	{								\
		if (geteuid())						\
			ksft_exit_skip("needs root\n");			\
		if (!gt_module_available())				\
			ksft_exit_skip(GT_MODNAME ".ko not found (set GPUTELEMETRY_KO, or install it for modprobe)\n"); \
		return test_harness_run(argc, argv);			\
	}

#endif /* GT_UTIL_H */
