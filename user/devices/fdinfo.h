/* SPDX-License-Identifier: MIT */
/*
 * Per-process GPU use from DRM fdinfo (/proc/<pid>/fdinfo/<fd> of an open
 * DRM node), as Linux's Documentation/gpu/drm-usage-stats.rst specifies
 * it and amdgpu (amdgpu_fdinfo.c) writes it:
 *
 *	drm-driver:	amdgpu
 *	drm-pdev:	0000:03:00.0
 *	drm-client-id:	42
 *	drm-memory-vram:	524288 KiB	(6.1; kept as an alias later)
 *	drm-memory-gtt: 	2048 KiB
 *	drm-total-vram:	512 MiB		(6.12: drm-total-, drm-shared-,
 *	drm-resident-vram:	512 MiB	 drm-resident-, ... per region,
 *					 sizes in B, KiB or MiB)
 *	drm-engine-gfx:	123456789 ns	(time the client's jobs ran)
 *
 * A client (one drm_file: drm-pdev plus drm-client-id) can be open under
 * several fds and in several processes (dup, fork): it is counted once.
 */
#ifndef NAVIBENCH_FDINFO_H
#define NAVIBENCH_FDINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "devices/cgroup.h"

#define NB_FDINFO_ENGINES 12

struct nb_engine_ns {
	char name[24];		/* "gfx", "compute", "dma", "dec", "enc", ... */
	uint64_t ns;
};

struct nb_fdinfo {
	char driver[32];	/* "" when the fd is no DRM client */
	char pdev[32];		/* PCI address, "" when not given */
	bool has_client_id;
	uint64_t client_id;
	int nengines;
	struct nb_engine_ns engine[NB_FDINFO_ENGINES];
	bool has_vram, has_gtt;
	uint64_t vram, gtt;	/* bytes resident (6.12) or in the region (6.1) */
};

/*
 * nb_fdinfo_parse() - the DRM keys of one fdinfo text (len bytes, need not
 * be NUL-terminated). Unknown keys and malformed lines are skipped.
 * Returns 0 when the text names a DRM client (drm-driver and
 * drm-client-id), -1 otherwise.
 */
int nb_fdinfo_parse(const char *text, size_t len, struct nb_fdinfo *fi);

/*
 * One process's use of one device: the sum over its clients of that
 * device (each counted once). A process with clients of several devices
 * has one entry per device, NB_PROC_PDEVS at most.
 */
#define NB_PROC_PDEVS 16

struct nb_proc {
	int pid;
	char comm[32];
	char pdev[32];		/* the device's PCI address (drm-pdev); "" when not given */
	int nclients;
	int nengines;
	struct nb_engine_ns engine[NB_FDINFO_ENGINES];	/* sums */
	uint64_t vram, gtt;
	bool has_vram, has_gtt;
	struct nb_container container;	/* its container and pod (cgroup.h) */
};

struct nb_proc_scan {
	struct nb_proc *procs;	/* by pid, ascending, then by pdev */
	int nprocs;
	int unreadable;		/* processes whose fds we may not read */
	int clients;		/* distinct clients counted */
};

/*
 * nb_proc_scan() - every process with an amdgpu client open, under
 * /proc. pdev: only clients of that PCI address (NULL: all). Returns 0,
 * or -errno when /proc itself cannot be read. Free with nb_proc_scan_free().
 */
int nb_proc_scan(const char *pdev, struct nb_proc_scan *scan);
void nb_proc_scan_free(struct nb_proc_scan *scan);

/* The entry of pid's use of device pdev in scan, or NULL. */
const struct nb_proc *nb_proc_find(const struct nb_proc_scan *scan, int pid, const char *pdev);
/* Its time on engine name, or -1 when it has none. */
int64_t nb_proc_engine_ns(const struct nb_proc *p, const char *name);

/*
 * nb_read_small() - the file's first n - 1 bytes into buf, NUL-terminated.
 * Returns their count, or -errno.
 */
ssize_t nb_read_small(const char *path, char *buf, size_t n);

/*
 * nb_proc_busy() - the busy share (%) of p on engine name over wall_ns,
 * from before, the same process and device at the previous scan (NULL:
 * not known then, false). Can pass 100 where the engine has several
 * rings; a client closed in between gives 0, never less.
 */
bool nb_proc_busy(const struct nb_proc *p, const struct nb_proc *before, const char *name,
		  double wall_ns, double *pct);

#endif /* NAVIBENCH_FDINFO_H */
