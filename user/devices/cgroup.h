/* SPDX-License-Identifier: MIT */
/*
 * The container and Kubernetes pod of a process, from the cgroup paths of
 * /proc/<pid>/cgroup (cgroup v2: "0::/path"; v1: "N:controllers:/path"),
 * as the container runtimes name their cgroups with either cgroup driver:
 *
 *   containerd  systemd   .../kubepods-<qos>-pod<UID_>.slice/cri-containerd-<ID>.scope
 *               cgroupfs  /kubepods/<qos>/pod<UID>/<ID>
 *   CRI-O       systemd   .../kubepods-<qos>-pod<UID_>.slice/crio-<ID>.scope
 *               cgroupfs  /kubepods/<qos>/pod<UID>/crio-<ID>
 *   Docker      systemd   /system.slice/docker-<ID>.scope
 *               cgroupfs  /docker/<ID>
 *   Podman      systemd   /machine.slice/libpod-<ID>.scope[/container]
 *               cgroupfs  /libpod_parent/libpod-<ID>
 *
 * (<ID>: 64 hex digits; <UID>: the pod's UID, which the systemd driver
 * writes with "_" for "-"; <qos> is burstable or besteffort, absent for a
 * Guaranteed pod). A bare <ID> is a container only below a pod or /docker,
 * and its runtime is then unknown below a pod (containerd, or Docker
 * through cri-dockerd, name it alike). The runtimes' monitor processes
 * (crio-conmon-, libpod-conmon-) are no container.
 */
#ifndef NAVIBENCH_CGROUP_H
#define NAVIBENCH_CGROUP_H

#include <stddef.h>

struct nb_container {
	char runtime[16];	/* "containerd", "cri-o", "docker", "podman"; "" unknown */
	char id[72];		/* 64 hex digits; "" when in no container */
	char pod_uid[40];	/* the pod's UID (with "-"); "" when in no pod */
};

/*
 * nb_cgroup_parse() - the container and pod named by a /proc/PID/cgroup
 * text (len bytes, need not be NUL-terminated): the first line whose path
 * names one. Returns 0 when it names a container or a pod, -1 otherwise
 * (c all empty).
 */
int nb_cgroup_parse(const char *text, size_t len, struct nb_container *c);

/* nb_cgroup_of_pid() - the same for /proc/<pid>/cgroup; -1 when unreadable. */
int nb_cgroup_of_pid(int pid, struct nb_container *c);

#endif /* NAVIBENCH_CGROUP_H */
