/* SPDX-License-Identifier: MIT */
/*
 * libdrm_amdgpu, loaded at run time with dlopen("libdrm_amdgpu.so.1") so
 * that navibench runs where it is not installed (then device names, the
 * CU layout, clocks and libdrm sensor readings are unavailable; sysfs,
 * hwmon and the gputelemetry module still answer).
 */
#ifndef NAVIBENCH_AMDGPU_LIB_H
#define NAVIBENCH_AMDGPU_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <amdgpu.h>
#include <amdgpu_drm.h>

/* Input power: newer kernels answer only this one; libdrm 2.4.114 lacks it. */
#ifndef AMDGPU_INFO_SENSOR_GPU_INPUT_POWER
#define AMDGPU_INFO_SENSOR_GPU_INPUT_POWER	0xc
#endif

#define NB_AMDGPU_SONAME "libdrm_amdgpu.so.1"

/*
 * nb_amdgpu_lib() - load libdrm_amdgpu once. Returns true when it is
 * there; otherwise *why (when non-NULL) says what dlopen reported.
 */
bool nb_amdgpu_lib(const char **why);

/* What is lost without libdrm_amdgpu, for messages. */
#define NB_AMDGPU_MISSING_COST \
	"marketing name, CU layout, clocks, VRAM type and libdrm sensor readings are unavailable"

struct nb_amdgpu {
	int fd;				/* the render node */
	amdgpu_device_handle h;
	uint32_t drm_major, drm_minor;
};

/*
 * nb_amdgpu_ids_lookup() - whether libdrm's amdgpu.ids names this device
 * id and PCI revision (libdrm_amdgpu answers a generic "AMD Radeon
 * Graphics" when it does not). Returns 1 and the name, 0 when the file
 * lacks it, -errno when the file cannot be read.
 */
#define NB_AMDGPU_IDS "/usr/share/libdrm/amdgpu.ids"
int nb_amdgpu_ids_lookup(unsigned int device, unsigned int rev, char *name, size_t n);

/*
 * nb_amdgpu_open() - open a render node and initialize libdrm_amdgpu on
 * it. Returns 0, or -errno with err (when non-NULL) saying what failed:
 * open(2) errors come back as they are (-EACCES for permissions).
 */
int nb_amdgpu_open(const char *node, struct nb_amdgpu *a, char *err, size_t errlen);
void nb_amdgpu_close(struct nb_amdgpu *a);

const char *nb_amdgpu_marketing_name(struct nb_amdgpu *a);
int nb_amdgpu_gpu_info(struct nb_amdgpu *a, struct amdgpu_gpu_info *gi);
int nb_amdgpu_query(struct nb_amdgpu *a, unsigned int id, unsigned int size, void *out);
int nb_amdgpu_sensor(struct nb_amdgpu *a, unsigned int type, uint32_t *v);
int nb_amdgpu_firmware(struct nb_amdgpu *a, unsigned int type, uint32_t *ver, uint32_t *feat);
/* AMDGPU_INFO_VBIOS / AMDGPU_INFO_VBIOS_INFO, through the ioctl directly
 * (libdrm_amdgpu has no call for it). */
int nb_amdgpu_vbios(struct nb_amdgpu *a, struct drm_amdgpu_info_vbios *vb);

#endif /* NAVIBENCH_AMDGPU_LIB_H */
