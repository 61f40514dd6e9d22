/* SPDX-License-Identifier: MIT */
/*
 * The device list: amdgpu devices (drmGetDevices2, PCI vendor 0x1002,
 * DRM driver "amdgpu") in PCI order, then gputelemetry's simulated GPUs,
 * then HIP devices (nb_devices_add_hip()), then the CPU. One index per
 * device, the same in every command.
 */
#ifndef NAVIBENCH_DEVICES_H
#define NAVIBENCH_DEVICES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "navibench.h"

#define NB_PCI_VENDOR_AMD 0x1002

struct nb_drm {
	char render[64];	/* "/dev/dri/renderD128"; "" when none */
	char primary[64];	/* "/dev/dri/card0"; "" when none */
	char sysdev[96];	/* "/sys/dev/char/226:128/device" */
	unsigned int vendor, device, subvendor, subdevice, revision;
	char driver[32];	/* DRM driver name; from sysfs when the node is closed to us */
	char runtime_status[16];	/* power/runtime_status; "" when absent */
	int open_errno;		/* opening the render node: 0 or errno */
};

struct nb_devent {
	struct nb_device dev;
	struct nb_drm drm;	/* NB_DEV_AMDGPU */
	char gt_name[64];	/* gputelemetry's name for it; "" when it has none */
	char status[160];	/* "" when usable; else why not (asleep, no access) */
	/*
	 * What the device is, for every command's identity (the name in dev):
	 * for an amdgpu device from its PCI ids alone (libdrm's amdgpu.ids,
	 * the ASIC table of module/uapi/gt_asic.h), never from the device, so
	 * that it is the same awake and runtime-suspended; for a simulated
	 * GPU from the module. "" when not known.
	 */
	char asic[32];		/* "navi14" */
	char gfx_target[32];	/* "gfx1012" */
};

/* A DRM device left out of the list, and why. */
struct nb_skipped {
	char what[128];
	char why[160];
};

struct nb_devlist {
	struct nb_devent *dev;
	int n;
	struct nb_skipped *skipped;
	int nskipped;
	char drm_note[160];	/* drmGetDevices2 trouble, "" when none */
	char lib_note[256];	/* libdrm_amdgpu missing: what it costs */
	char gt_note[256];	/* gputelemetry loaded, debugfs not readable; else "" */
};

enum {
	NB_SCAN_WAKE = 1 << 0,	/* open runtime-suspended GPUs (wakes them) */
};

int nb_devices_scan(struct nb_devlist *l, unsigned int flags);
void nb_devices_free(struct nb_devlist *l);

/*
 * nb_devices_find() - resolve a --device value against the list: an index,
 * a PCI address ("0000:03:00.0" or "03:00.0"), "cpu", or a gputelemetry
 * name ("sim0"). Returns NB_EXIT_OK with *out set, or NB_EXIT_USAGE /
 * NB_EXIT_NODEV after printing why, prefixed by cmd.
 */
int nb_devices_find(struct nb_devlist *l, const char *spec, const char *cmd,
		    struct nb_devent **out);

/* "amdgpu", "sim", "hip" or "cpu". */
const char *nb_device_kind_name(enum nb_device_kind k);

/* The runtime PM status of a device directory's power/runtime_status. */
void nb_read_runtime_status(const char *sysdev, char *buf, unsigned long n);

/* Copy src into dst of size n, truncating, always terminated. */
static inline void nb_strcpy(char *dst, unsigned long n, const char *src)
{
	unsigned long i = 0;

	for (; n && i < n - 1 && src[i]; i++)
		dst[i] = src[i];
	if (n)
		dst[i] = '\0';
}

/* Read a sysfs file into buf, trailing newline removed. 0 or -errno. */
int nb_read_file(const char *path, char *buf, unsigned long n);

/* nb_read_i64() - a sysfs file holding one decimal integer: true, *v set. */
bool nb_read_i64(const char *path, int64_t *v);

/*
 * nb_access_hint() - why a node cannot be opened and how to fix it: the
 * node, the group that grants access and the new login needed.
 */
void nb_access_hint(const char *node, int err, char *buf, unsigned long n);

/* What was found when no AMD GPU is there, for "no AMD GPU" messages. */
void nb_devices_explain(const struct nb_devlist *l, FILE *f);

/*
 * nb_device_print_id() - who e is, for the print layer's records: index,
 * kind, name, PCI address, ASIC, gfx target and runtime PM status, the
 * same in every command and state. Valid while e is.
 */
struct nb_print_device;
void nb_device_print_id(const struct nb_devent *e, struct nb_print_device *id);

#endif /* NAVIBENCH_DEVICES_H */
