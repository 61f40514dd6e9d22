// SPDX-License-Identifier: MIT
/*
 * The device list and nb_device_select(): see devices.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifndef NB_WITHOUT_LIBDRM
#include <xf86drm.h>

#include "devices/amdgpu_lib.h"
#endif
#include "devices/asic.h"
#include "devices/devices.h"
#include "optional.h"
#include "devices/gtfs.h"
#include "devices/plugin.h"
#include "print/print.h"

#define MAX_DRM 64

const char *nb_device_kind_name(enum nb_device_kind k)
{
	switch (k) {
	case NB_DEV_AMDGPU:
		return "amdgpu";
	case NB_DEV_PLUGIN:
		return "hip";
	case NB_DEV_SIM:
		return "sim";
	case NB_DEV_CPU:
		return "cpu";
	}
	return "?";
}

int nb_read_file(const char *path, char *buf, unsigned long n)
{
	FILE *f = fopen(path, "re");
	size_t len;

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)n, f)) {
		int err = ferror(f) ? -EIO : -ENODATA;

		fclose(f);
		buf[0] = '\0';
		return err;
	}
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return 0;
}

bool nb_read_i64(const char *path, int64_t *v)
{
	char buf[64], *end;

	if (nb_read_file(path, buf, sizeof(buf)))
		return false;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return !errno && end != buf;
}

void nb_read_runtime_status(const char *sysdev, char *buf, unsigned long n)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/power/runtime_status", sysdev);
	if (nb_read_file(path, buf, n))
		buf[0] = '\0';
}

void nb_access_hint(const char *node, int err, char *buf, unsigned long n)
{
	struct stat st;
	const char *group = "render";

	if (!stat(node, &st) && st.st_gid != 0) {
		struct group *g = getgrgid(st.st_gid);

		if (g)
			group = g->gr_name;
	}
	snprintf(buf, n, "cannot open %s: %s; it is for group '%s': "
		 "run 'sudo usermod -aG %s $USER', then log out and in again "
		 "(a new login is needed for the group to apply)",
		 node, strerror(err), group, group);
}

/* The driver a sysfs device directory is bound to, from its driver link. */
static void sysfs_driver(const char *sysdev, char *buf, size_t n)
{
	char path[336], link[256];	/* sysdev: at most a 320-byte path */
	ssize_t len;
	const char *base;

	snprintf(path, sizeof(path), "%s/driver", sysdev);
	len = readlink(path, link, sizeof(link) - 1);
	buf[0] = '\0';
	if (len <= 0)
		return;
	link[len] = '\0';
	base = strrchr(link, '/');
	nb_strcpy(buf, n, base ? base + 1 : link);
}

static void add_skipped(struct nb_devlist *l, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_skipped(struct nb_devlist *l, const char *what, const char *fmt, ...)
{
	struct nb_skipped *s = realloc(l->skipped, sizeof(*s) * (size_t)(l->nskipped + 1));
	va_list ap;

	if (!s)
		return;
	l->skipped = s;
	s = &s[l->nskipped++];
	snprintf(s->what, sizeof(s->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

static struct nb_devent *add_dev(struct nb_devlist *l, enum nb_device_kind kind)
{
	struct nb_devent *d = realloc(l->dev, sizeof(*d) * (size_t)(l->n + 1));

	if (!d)
		return NULL;
	l->dev = d;
	d = &d[l->n];
	memset(d, 0, sizeof(*d));
	d->dev.index = l->n++;
	d->dev.kind = kind;
	d->dev.hip_ordinal = -1;
	d->dev.plugin = -1;
	return d;
}

#ifndef NB_WITHOUT_LIBDRM
/*
 * The identity of an amdgpu device from its PCI ids alone: the name from
 * libdrm's amdgpu.ids (the file libdrm_amdgpu names devices from, read
 * here without opening the device), else the ASIC table's product, else
 * the ASIC and ids; ASIC and gfx target from the table. Nothing of the
 * device is read: a runtime-suspended GPU is named as an awake one, and
 * not woken.
 */
static void amdgpu_identity(struct nb_devent *e)
{
	struct nb_asic_id id;
	const char *asic_name = NULL;
	char ids[96];

	if (nb_asic_of_pci(e->drm.vendor, e->drm.device, e->drm.revision, &id)) {
		nb_strcpy(e->asic, sizeof(e->asic), id.code);
		nb_strcpy(e->gfx_target, sizeof(e->gfx_target), id.gfx);
		asic_name = nb_asic_name_of_code(id.code);
	} else {
		id.product = NULL;
	}
	if (nb_amdgpu_ids_lookup(e->drm.device, e->drm.revision, ids, sizeof(ids)) == 1 && ids[0])
		nb_strcpy(e->dev.name, sizeof(e->dev.name), ids);
	else if (id.product)
		nb_strcpy(e->dev.name, sizeof(e->dev.name), id.product);
	else
		snprintf(e->dev.name, sizeof(e->dev.name), "AMD %s [%04x:%04x rev %02x]",
			 asic_name ? asic_name : "GPU", e->drm.vendor, e->drm.device,
			 e->drm.revision);
}

static int cmp_pci(const void *a, const void *b)
{
	return strcmp(((const struct nb_devent *)a)->dev.pci,
		      ((const struct nb_devent *)b)->dev.pci);
}

/*
 * A DRM device's identity: PCI address and ids, render node. False, with
 * the reason recorded in l's skipped list, when it is not an AMD PCI device
 * with a render node; what names it in that list.
 */
static bool drm_identify(struct nb_devlist *l, drmDevicePtr d, struct nb_drm *drm,
			 char *pci, size_t pcilen, char *what, size_t whatlen)
{
	memset(drm, 0, sizeof(*drm));
	if (d->available_nodes & (1 << DRM_NODE_RENDER))
		snprintf(drm->render, sizeof(drm->render), "%s", d->nodes[DRM_NODE_RENDER]);
	if (d->available_nodes & (1 << DRM_NODE_PRIMARY))
		snprintf(drm->primary, sizeof(drm->primary), "%s", d->nodes[DRM_NODE_PRIMARY]);
	snprintf(what, whatlen, "%s", drm->render[0] ? drm->render : drm->primary);
	if (d->bustype != DRM_BUS_PCI) {
		add_skipped(l, what, "not a PCI device (bus type %d)", d->bustype);
		return false;
	}
	snprintf(pci, pcilen, "%04x:%02x:%02x.%x", d->businfo.pci->domain,
		 d->businfo.pci->bus, d->businfo.pci->dev, d->businfo.pci->func);
	snprintf(what, whatlen, "%s %s [%04x:%04x]", pci,
		 drm->render[0] ? drm->render : drm->primary, d->deviceinfo.pci->vendor_id,
		 d->deviceinfo.pci->device_id);
	if (d->deviceinfo.pci->vendor_id != NB_PCI_VENDOR_AMD) {
		add_skipped(l, what, "vendor 0x%04x is not AMD (0x1002)",
			    d->deviceinfo.pci->vendor_id);
		return false;
	}
	if (!drm->render[0]) {
		add_skipped(l, what, "no render node");
		return false;
	}
	drm->vendor = d->deviceinfo.pci->vendor_id;
	drm->device = d->deviceinfo.pci->device_id;
	drm->subvendor = d->deviceinfo.pci->subvendor_id;
	drm->subdevice = d->deviceinfo.pci->subdevice_id;
	drm->revision = d->deviceinfo.pci->revision_id;
	return true;
}

/*
 * The render node's sysfs device, runtime status and driver: drmGetVersion
 * on the node when it may be opened (never when asleep and not to be
 * woken), else sysfs. False, with the reason recorded, when it is not a
 * character device or not amdgpu's. *asleep: runtime-suspended, not woken.
 */
static bool drm_driver(struct nb_devlist *l, struct nb_drm *drm, const char *what,
		       unsigned int flags, bool *asleep)
{
	struct stat st;
	int fd = -1;

	if (stat(drm->render, &st) || !S_ISCHR(st.st_mode)) {
		add_skipped(l, what, "%s is not a character device", drm->render);
		return false;
	}
	snprintf(drm->sysdev, sizeof(drm->sysdev), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	nb_read_runtime_status(drm->sysdev, drm->runtime_status, sizeof(drm->runtime_status));
	*asleep = !strcmp(drm->runtime_status, "suspended") && !(flags & NB_SCAN_WAKE);
	if (!*asleep) {
		fd = open(drm->render, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			drm->open_errno = errno;
	}
	if (fd >= 0) {
		drmVersionPtr v = drmGetVersion(fd);

		if (v && v->name)
			snprintf(drm->driver, sizeof(drm->driver), "%s", v->name);
		drmFreeVersion(v);
		close(fd);
	}
	if (!drm->driver[0])
		sysfs_driver(drm->sysdev, drm->driver, sizeof(drm->driver));
	if (strcmp(drm->driver, "amdgpu")) {
		add_skipped(l, what, "driver %s, not amdgpu",
			    drm->driver[0] ? drm->driver : "unknown");
		return false;
	}
	return true;
}

/* An amdgpu device's entry, with its status when it cannot be used as it is. */
static bool drm_add(struct nb_devlist *l, const struct nb_drm *drm, const char *pci,
		    bool asleep, const char *libwhy)
{
	struct nb_devent *e = add_dev(l, NB_DEV_AMDGPU);

	if (!e)
		return false;
	e->drm = *drm;
	snprintf(e->dev.pci, sizeof(e->dev.pci), "%s", pci);
	if (asleep)
		snprintf(e->status, sizeof(e->status),
			 "runtime-suspended; not woken (--wake wakes it)");
	else if (drm->open_errno)
		snprintf(e->status, sizeof(e->status), "no access to %s: %s", drm->render,
			 strerror(drm->open_errno));
	else if (libwhy)
		snprintf(e->status, sizeof(e->status), "libdrm_amdgpu missing");
	return true;
}

/* The amdgpu entries from first on: PCI order, indexes, identity. */
static void drm_name_all(struct nb_devlist *l, int first)
{
	if (l->n > first)
		qsort(l->dev + first, (size_t)(l->n - first), sizeof(*l->dev), cmp_pci);
	for (int i = first; i < l->n; i++) {
		l->dev[i].dev.index = i;
		amdgpu_identity(&l->dev[i]);
	}
}

static void scan_drm(struct nb_devlist *l, unsigned int flags)
{
	drmDevicePtr devs[MAX_DRM];
	int n = drmGetDevices2(DRM_DEVICE_GET_PCI_REVISION, devs, MAX_DRM);
	int first = l->n;
	const char *libwhy = NULL;

	if (n < 0) {
		if (n == -ENOENT)
			snprintf(l->drm_note, sizeof(l->drm_note),
				 "no DRM devices (/dev/dri is absent)");
		else
			snprintf(l->drm_note, sizeof(l->drm_note), "drmGetDevices2 failed: %s",
				 strerror(-n));
		return;
	}
	if (n == 0)
		snprintf(l->drm_note, sizeof(l->drm_note), "no DRM devices in /dev/dri");
	if (!nb_amdgpu_lib(&libwhy))
		snprintf(l->lib_note, sizeof(l->lib_note), "%s: %s", libwhy,
			 NB_AMDGPU_MISSING_COST);

	for (int i = 0; i < n; i++) {
		struct nb_drm drm;
		char what[128], pci[32];
		bool asleep = false;

		if (!drm_identify(l, devs[i], &drm, pci, sizeof(pci), what, sizeof(what)) ||
		    !drm_driver(l, &drm, what, flags, &asleep))
			continue;
		if (!drm_add(l, &drm, pci, asleep, libwhy))
			break;
	}
	drmFreeDevices(devs, n);
	drm_name_all(l, first);
}
#else
static void scan_drm(struct nb_devlist *l, unsigned int flags)
{
	(void)flags;
	snprintf(l->drm_note, sizeof(l->drm_note), "amdgpu devices are off: navibench was built "
		 "without libdrm (install libdrm-dev, then rebuild: make -C user)");
}
#endif

/*
 * AMD display devices that have no DRM node at all (no driver bound, or a
 * non-DRM one, like QEMU's ati-vga): drmGetDevices2 cannot see them, so
 * say what they are and why they are not usable.
 */
static void scan_pci_without_drm(struct nb_devlist *l)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[320], buf[32], drv[64], what[128];
		unsigned long vendor, device, cls;
		bool known = false;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", de->d_name);
		if (nb_read_file(path, buf, sizeof(buf)))
			continue;
		vendor = strtoul(buf, NULL, 16);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/class", de->d_name);
		if (vendor != NB_PCI_VENDOR_AMD || nb_read_file(path, buf, sizeof(buf)))
			continue;
		cls = strtoul(buf, NULL, 16);
		if ((cls >> 16) != 0x03)	/* display controllers only */
			continue;
		for (int i = 0; i < l->n; i++)
			known |= !strcmp(l->dev[i].dev.pci, de->d_name);
		for (int i = 0; i < l->nskipped; i++)
			known |= !strncmp(l->skipped[i].what, de->d_name, strlen(de->d_name));
		if (known)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", de->d_name);
		device = nb_read_file(path, buf, sizeof(buf)) ? 0 : strtoul(buf, NULL, 16);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", de->d_name);
		sysfs_driver(path, drv, sizeof(drv));
		snprintf(what, sizeof(what), "%s [%04lx:%04lx]", de->d_name, vendor, device);
		if (!nb_lib_have(NB_LIB_LIBDRM))
			add_skipped(l, what, "driver: %s; navibench was built without libdrm",
				    drv[0] ? drv : "none");
		else
			add_skipped(l, what, "AMD display device without a DRM node (driver: %s); "
				    "navibench needs one bound to amdgpu", drv[0] ? drv : "none");
	}
	closedir(d);
}

/* A simulated GPU's ASIC (the devices file) and gfx target (its info file). */
static void sim_identity(struct nb_devent *e, const struct gtfs_dev *g)
{
	struct gtfs_info info;

	nb_strcpy(e->asic, sizeof(e->asic), g->asic);
	if (!gtfs_info(g->name, &info) && gtfs_info_get(&info, GT_INFO_GFX_TARGET))
		nb_strcpy(e->gfx_target, sizeof(e->gfx_target),
			  gtfs_info_get(&info, GT_INFO_GFX_TARGET));
}

static void scan_gputelemetry(struct nb_devlist *l)
{
	struct gtfs_dev *g;
	int n = gtfs_devices(&g);

	if (n == -EACCES || n == -EPERM) {
		/*
		 * debugfs is root-only, loaded module or not: say so only when
		 * the module is loaded (sysfs, readable by all, tells), since
		 * only then is something being missed.
		 */
		if (!access("/sys/module/" GT_DEBUGFS_ROOT, F_OK))
			snprintf(l->gt_note, sizeof(l->gt_note),
				 "gputelemetry is loaded but %s is readable by root only: its simulated GPUs and readings are skipped (run as root to see them)",
				 GTFS_ROOT);
		return;
	}
	if (n < 0)
		return;		/* not loaded: nothing to say */
	for (int i = 0; i < n; i++) {
		struct nb_devent *e = NULL;

		if (!strcmp(g[i].source, GT_SOURCE_SIM)) {
			e = add_dev(l, NB_DEV_SIM);
			if (!e)
				break;
			snprintf(e->dev.name, sizeof(e->dev.name), "%s (simulated %s)", g[i].name,
				 g[i].asic);
			sim_identity(e, &g[i]);
			if (strcmp(g[i].state, GT_STATE_ACTIVE))
				snprintf(e->status, sizeof(e->status), "%s", g[i].state);
		} else {
			for (int j = 0; j < l->n; j++)
				if (l->dev[j].dev.kind == NB_DEV_AMDGPU &&
				    !strcmp(l->dev[j].dev.pci, g[i].name))
					e = &l->dev[j];
		}
		if (e)
			snprintf(e->gt_name, sizeof(e->gt_name), "%s", g[i].name);
	}
	free(g);
}

/*
 * GPU devices of the plugins (plugin.h): one whose PCI address matches an
 * amdgpu entry sets that entry's hip_ordinal, so that the index
 * "navibench list" gives an RX 5500 XT runs on it through HIP; the others
 * (a runtime's device libdrm does not see, an NVIDIA GPU) are appended as
 * NB_DEV_PLUGIN, before the CPU. Nothing is added when no plugin loads.
 */
static bool parse_pci(const char *s, char *out, size_t n);

static void nb_devices_add_hip(struct nb_devlist *l)
{
	for (int p = 0; p < nb_plugins_count(); p++) {
		const struct nb_gpu_plugin *g = nb_plugins_get(p);

		for (int o = 0; o < g->ndev; o++) {
			const struct nb_plugin_device *pd = &g->dev[o];
			struct nb_devent *e = NULL;
			char pci[32] = "";

			if (parse_pci(pd->pci, pci, sizeof(pci)))
				for (int i = 0; i < l->n && !e; i++)
					if (l->dev[i].dev.kind == NB_DEV_AMDGPU &&
					    l->dev[i].dev.hip_ordinal < 0 &&
					    !strcmp(l->dev[i].dev.pci, pci))
						e = &l->dev[i];
			if (!e) {
				e = add_dev(l, NB_DEV_PLUGIN);
				if (!e)
					return;
				nb_strcpy(e->dev.name, sizeof(e->dev.name), pd->name);
				nb_strcpy(e->dev.pci, sizeof(e->dev.pci), pci);
			}
			e->dev.hip_ordinal = o;
			e->dev.plugin = p;
		}
	}
}

static void cpu_name(char *buf, size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, n, "CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10)) {
			char *v = strchr(line, ':');

			if (v) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, n, "%s", v);
			}
			break;
		}
	}
	fclose(f);
}

int nb_devices_scan(struct nb_devlist *l, unsigned int flags)
{
	struct nb_devent *cpu;

	memset(l, 0, sizeof(*l));
	scan_drm(l, flags);
	scan_pci_without_drm(l);
	scan_gputelemetry(l);
	nb_devices_add_hip(l);
	cpu = add_dev(l, NB_DEV_CPU);
	if (!cpu)
		return -ENOMEM;
	cpu_name(cpu->dev.name, sizeof(cpu->dev.name));
	return 0;
}

void nb_devices_free(struct nb_devlist *l)
{
	free(l->dev);
	free(l->skipped);
	memset(l, 0, sizeof(*l));
}

void nb_devices_explain(const struct nb_devlist *l, FILE *f)
{
	fprintf(f, "found:");
	if (l->drm_note[0])
		fprintf(f, " %s;", l->drm_note);
	if (l->gt_note[0])
		fprintf(f, " %s;", l->gt_note);
	for (int i = 0; i < l->nskipped; i++)
		fprintf(f, "\n  %s: skipped, %s", l->skipped[i].what, l->skipped[i].why);
	for (int i = 0; i < l->n; i++)
		fprintf(f, "\n  %d  %s  %s", l->dev[i].dev.index,
			nb_device_kind_name(l->dev[i].dev.kind), l->dev[i].dev.name);
	fprintf(f, "\n");
}

/* "0000:03:00.0" or "03:00.0", normalized to the long form. */
static bool parse_pci(const char *s, char *out, size_t n)
{
	unsigned int dom = 0, bus, dev, fn;
	char tail;

	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4 ||
	    (dom = 0, sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3)) {
		if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
			return false;
		snprintf(out, n, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
		return true;
	}
	return false;
}

int nb_devices_find(struct nb_devlist *l, const char *spec, const char *cmd,
		    struct nb_devent **out)
{
	char pci[32];
	bool digits = *spec != '\0';

	*out = NULL;
	for (const char *p = spec; *p; p++)
		if (!isdigit((unsigned char)*p))
			digits = false;

	if (digits) {
		long idx = strtol(spec, NULL, 10);

		if (strlen(spec) < 6 && idx >= 0 && idx < l->n) {
			*out = &l->dev[idx];
			return NB_EXIT_OK;
		}
		fprintf(stderr, "navibench %s: --device %s: no such device; devices are 0..%d\n",
			cmd, spec, l->n - 1);
		nb_devices_explain(l, stderr);
		return NB_EXIT_NODEV;
	}
	if (!strcmp(spec, "cpu")) {
		*out = &l->dev[l->n - 1];
		return NB_EXIT_OK;
	}
	if (parse_pci(spec, pci, sizeof(pci))) {
		for (int i = 0; i < l->n; i++) {
			if (!strcmp(l->dev[i].dev.pci, pci)) {
				*out = &l->dev[i];
				return NB_EXIT_OK;
			}
		}
		fprintf(stderr, "navibench %s: --device %s: no amdgpu device at PCI address %s\n",
			cmd, spec, pci);
		nb_devices_explain(l, stderr);
		return NB_EXIT_NODEV;
	}
	for (int i = 0; i < l->n; i++) {
		if (l->dev[i].gt_name[0] && !strcmp(l->dev[i].gt_name, spec)) {
			*out = &l->dev[i];
			return NB_EXIT_OK;
		}
	}
	if (!strncmp(spec, GT_SIM_PREFIX, strlen(GT_SIM_PREFIX))) {
		fprintf(stderr, "navibench %s: --device %s: no such simulated GPU%s\n", cmd, spec,
			l->gt_note[0] ? " (gputelemetry's debugfs is not readable)" : "");
		nb_devices_explain(l, stderr);
		return NB_EXIT_NODEV;
	}
	fprintf(stderr, "navibench %s: --device: invalid value '%s'; expected an index from "
		"'navibench list' (0..%d), a PCI address such as 0000:03:00.0, cpu, or a "
		"simulated GPU's name such as sim0\n", cmd, spec, l->n - 1);
	return NB_EXIT_USAGE;
}

int nb_device_select(const char *cmd, const char *spec, struct nb_device *out)
{
	struct nb_devlist l;
	struct nb_devent *e;
	int rc;

	if (nb_devices_scan(&l, 0)) {
		fprintf(stderr, "navibench: out of memory listing devices\n");
		return NB_EXIT_FAIL;
	}
	rc = nb_devices_find(&l, spec ? spec : "0", cmd, &e);
	if (rc == NB_EXIT_OK)
		*out = e->dev;
	nb_devices_free(&l);
	return rc;
}

void nb_device_print_id(const struct nb_devent *e, struct nb_print_device *id)
{
	memset(id, 0, sizeof(*id));
	id->index = e->dev.index;
	id->kind = nb_device_kind_name(e->dev.kind);
	id->name = e->dev.name;
	id->pci_address = e->dev.pci[0] ? e->dev.pci : NULL;
	id->asic = e->asic[0] ? e->asic : NULL;
	id->gfx_target = e->gfx_target[0] ? e->gfx_target : NULL;
	id->runtime_status = e->dev.kind == NB_DEV_AMDGPU && e->drm.runtime_status[0] ?
			     e->drm.runtime_status : NULL;
}
