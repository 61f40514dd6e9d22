// SPDX-License-Identifier: MIT
/*
 * The container and pod of a process from its cgroup paths. See cgroup.h
 * for the layouts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "devices/cgroup.h"
#include "devices/fdinfo.h"

#define ID_LEN 64
#define UID_LEN 36

/* A lower-case hex digit, as the runtimes and Kubernetes write them. */
static bool xdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* n hex digits at s. */
static bool hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!xdigit(s[i]))
			return false;
	return true;
}

/* A pod UID (8-4-4-4-12 hex digits) at s, sep its separator: copied with "-". */
static bool pod_uid(const char *s, size_t n, char sep, char out[40])
{
	if (n != UID_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != sep : !xdigit(s[i]))
			return false;
		out[i] = dash ? '-' : s[i];
	}
	out[n] = '\0';
	return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *rest)
{
	size_t sl = strlen(suffix);

	if (n < sl || memcmp(s + n - sl, suffix, sl))
		return false;
	*rest = n - sl;
	return true;
}

/* "pod<UID>" (cgroupfs) or "kubepods[-<qos>]-pod<UID_>.slice" (systemd). */
static bool pod_component(const char *s, size_t n, char out[40])
{
	const char *p;
	size_t m;

	if (n == 3 + UID_LEN && !memcmp(s, "pod", 3))
		return pod_uid(s + 3, UID_LEN, '-', out);
	if (n < 9 || memcmp(s, "kubepods-", 9) || !ends_with(s, n, ".slice", &m) ||
	    m < 4 + UID_LEN)
		return false;
	p = s + m - UID_LEN - 4;
	return !memcmp(p, "-pod", 4) && pod_uid(p + 4, UID_LEN, '_', out);
}

/* "<prefix><ID>[.scope]" of a runtime, or a bare <ID> (runtime ""). */
static bool container_component(const char *s, size_t n, struct nb_container *c)
{
	static const struct { const char *prefix, *runtime; } runtimes[] = {
		{ "cri-containerd-", "containerd" },
		{ "crio-", "cri-o" },
		{ "docker-", "docker" },
		{ "libpod-", "podman" },
		{ "", "" },
	};
	size_t m;

	if (ends_with(s, n, ".scope", &m))
		n = m;
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		size_t pl = strlen(runtimes[i].prefix);

		if (n != pl + ID_LEN || memcmp(s, runtimes[i].prefix, pl) || !hex(s + pl, ID_LEN))
			continue;
		snprintf(c->runtime, sizeof(c->runtime), "%s", runtimes[i].runtime);
		memcpy(c->id, s + pl, ID_LEN);
		c->id[ID_LEN] = '\0';
		return true;
	}
	return false;
}

/* One cgroup path (n bytes): its pod and its innermost container. */
static bool parse_path(const char *path, size_t n, struct nb_container *c)
{
	const char *s = path, *end = path + n, *prev = NULL;
	size_t prev_n = 0;
	bool kube = false;

	memset(c, 0, sizeof(*c));
	while (s < end) {
		const char *slash = memchr(s, '/', end - s);
		size_t len = slash ? (size_t)(slash - s) : (size_t)(end - s);
		struct nb_container k;

		if ((len == 8 && !memcmp(s, "kubepods", 8)) ||
		    (len >= 9 && !memcmp(s, "kubepods", 8) && (s[8] == '.' || s[8] == '-')))
			kube = true;
		if (kube && !c->pod_uid[0] && pod_component(s, len, c->pod_uid)) {
			/* the pod's own cgroup */
		} else if (len && container_component(s, len, &k) &&
			   (k.runtime[0] || c->pod_uid[0] ||
			    (prev_n == 6 && !memcmp(prev, "docker", 6)))) {
			if (!k.runtime[0] && !c->pod_uid[0])
				snprintf(k.runtime, sizeof(k.runtime), "docker");
			memcpy(c->runtime, k.runtime, sizeof(c->runtime));
			memcpy(c->id, k.id, sizeof(c->id));
		}
		prev = s;
		prev_n = len;
		s += len + 1;
	}
	return c->id[0] || c->pod_uid[0];
}

int nb_cgroup_parse(const char *text, size_t len, struct nb_container *c)
{
	size_t i = 0;

	memset(c, 0, sizeof(*c));
	while (i < len) {
		const char *line = text + i, *nl = memchr(line, '\n', len - i), *p;
		size_t n = nl ? (size_t)(nl - line) : len - i;

		i += n + 1;
		/* "hierarchy-ID:controllers:path" */
		p = memchr(line, ':', n);
		if (p)
			p = memchr(p + 1, ':', n - (p + 1 - line));
		if (p && p + 1 < line + n && p[1] == '/' && parse_path(p + 2, n - (p + 2 - line), c))
			return 0;
	}
	memset(c, 0, sizeof(*c));
	return -1;
}

int nb_cgroup_of_pid(int pid, struct nb_container *c)
{
	char path[64], buf[4096];
	ssize_t len;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	len = nb_read_small(path, buf, sizeof(buf));
	if (len < 0)
		return -1;
	return nb_cgroup_parse(buf, len, c);
}
