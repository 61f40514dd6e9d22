// SPDX-License-Identifier: MIT
/*
 * libdrm_amdgpu through dlopen: see amdgpu.h.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "devices/amdgpu_lib.h"

static struct {
	bool tried, ok;
	char why[256];
	int (*device_initialize)(int, uint32_t *, uint32_t *, amdgpu_device_handle *);
	int (*device_deinitialize)(amdgpu_device_handle);
	int (*query_gpu_info)(amdgpu_device_handle, struct amdgpu_gpu_info *);
	int (*query_info)(amdgpu_device_handle, unsigned int, unsigned int, void *);
	int (*query_sensor_info)(amdgpu_device_handle, unsigned int, unsigned int, void *);
	int (*query_firmware_version)(amdgpu_device_handle, unsigned int, unsigned int,
				      unsigned int, uint32_t *, uint32_t *);
	const char *(*get_marketing_name)(amdgpu_device_handle);
} L;

#define SYM(field, name)						\
	do {								\
		*(void **)&L.field = dlsym(lib, name);			\
		if (!L.field) {						\
			snprintf(L.why, sizeof(L.why), "%s lacks %s",	\
				 NB_AMDGPU_SONAME, name);		\
			return false;					\
		}							\
	} while (0)

static bool load(void)
{
	void *lib = dlopen(NB_AMDGPU_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		const char *e = dlerror();

		snprintf(L.why, sizeof(L.why), "%s", e ? e : "cannot load " NB_AMDGPU_SONAME);
		return false;
	}
	SYM(device_initialize, "amdgpu_device_initialize");
	SYM(device_deinitialize, "amdgpu_device_deinitialize");
	SYM(query_gpu_info, "amdgpu_query_gpu_info");
	SYM(query_info, "amdgpu_query_info");
	SYM(query_sensor_info, "amdgpu_query_sensor_info");
	SYM(query_firmware_version, "amdgpu_query_firmware_version");
	SYM(get_marketing_name, "amdgpu_get_marketing_name");
	/* Kept loaded for the life of the process. */
	return true;
}

bool nb_amdgpu_lib(const char **why)
{
	if (!L.tried) {
		L.tried = true;
		L.ok = load();
	}
	if (!L.ok && why)
		*why = L.why;
	return L.ok;
}

int nb_amdgpu_open(const char *node, struct nb_amdgpu *a, char *err, size_t errlen)
{
	const char *why;
	int r;

	memset(a, 0, sizeof(*a));
	a->fd = -1;
	if (!nb_amdgpu_lib(&why)) {
		if (err)
			snprintf(err, errlen, "%s", why);
		return -ENOSYS;
	}
	a->fd = open(node, O_RDWR | O_CLOEXEC);
	if (a->fd < 0) {
		r = -errno;
		if (err)
			snprintf(err, errlen, "cannot open %s: %s", node, strerror(-r));
		return r;
	}
	r = L.device_initialize(a->fd, &a->drm_major, &a->drm_minor, &a->h);
	if (r) {
		if (err)
			snprintf(err, errlen, "amdgpu_device_initialize on %s failed: %s",
				 node, strerror(r < 0 ? -r : r));
		close(a->fd);
		a->fd = -1;
		a->h = NULL;
		return r < 0 ? r : -EIO;
	}
	return 0;
}

void nb_amdgpu_close(struct nb_amdgpu *a)
{
	if (a->h)
		L.device_deinitialize(a->h);
	if (a->fd >= 0)
		close(a->fd);
	a->h = NULL;
	a->fd = -1;
}

const char *nb_amdgpu_marketing_name(struct nb_amdgpu *a)
{
	return a->h ? L.get_marketing_name(a->h) : NULL;
}

int nb_amdgpu_gpu_info(struct nb_amdgpu *a, struct amdgpu_gpu_info *gi)
{
	return a->h ? L.query_gpu_info(a->h, gi) : -ENODEV;
}

int nb_amdgpu_query(struct nb_amdgpu *a, unsigned int id, unsigned int size, void *out)
{
	return a->h ? L.query_info(a->h, id, size, out) : -ENODEV;
}

int nb_amdgpu_sensor(struct nb_amdgpu *a, unsigned int type, uint32_t *v)
{
	return a->h ? L.query_sensor_info(a->h, type, sizeof(*v), v) : -ENODEV;
}

int nb_amdgpu_firmware(struct nb_amdgpu *a, unsigned int type, uint32_t *ver, uint32_t *feat)
{
	return a->h ? L.query_firmware_version(a->h, type, 0, 0, ver, feat) : -ENODEV;
}

int nb_amdgpu_vbios(struct nb_amdgpu *a, struct drm_amdgpu_info_vbios *vb)
{
	struct drm_amdgpu_info req;

	if (a->fd < 0)
		return -ENODEV;
	memset(&req, 0, sizeof(req));
	memset(vb, 0, sizeof(*vb));
	req.return_pointer = (uintptr_t)vb;
	req.return_size = sizeof(*vb);
	req.query = AMDGPU_INFO_VBIOS;
	req.vbios_info.type = AMDGPU_INFO_VBIOS_INFO;
	return drmCommandWrite(a->fd, DRM_AMDGPU_INFO, &req, sizeof(req));
}

int nb_amdgpu_ids_lookup(unsigned int device, unsigned int rev, char *name, size_t n)
{
	FILE *f = fopen(NB_AMDGPU_IDS, "re");
	char line[256];
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned int d, r;
		int off = 0;

		if (line[0] == '#' || sscanf(line, "%x,%x,%n", &d, &r, &off) != 2 || !off)
			continue;
		if (d != device || r != rev)
			continue;
		char *p = line + off;

		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		if (name && n)
			snprintf(name, n, "%s", p);
		found = 1;
		break;
	}
	fclose(f);
	return found;
}
