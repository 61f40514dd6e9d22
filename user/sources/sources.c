// SPDX-License-Identifier: MIT
/*
 * The table of sources and the loop over it: see sources.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sources/sources.h"

#define NB_SRC_ENTRY(id, name) [NB_SRC_##id] = &nb_source_##name,
const struct nb_source *const nb_sources[NB_SRC_COUNT] = {
	NB_SOURCES(NB_SRC_ENTRY)
};
#undef NB_SRC_ENTRY

/* --source: a name and the sources it reads (1 << enum nb_src each). */
const struct nb_source_choice nb_source_choices[] = {
	{ "auto", (1u << NB_SRC_COUNT) - 1 },
	{ "libdrm", 1u << NB_SRC_LIBDRM },
	{ "hwmon", 1u << NB_SRC_HWMON | 1u << NB_SRC_SYSFS },	/* and the device's own files */
	{ "gputelemetry", 1u << NB_SRC_GT },
	{ NULL, 0 }
};

unsigned int nb_source_mask(int choice)
{
	const int n = (int)(sizeof(nb_source_choices) / sizeof(nb_source_choices[0])) - 1;

	return choice >= 0 && choice < n ? nb_source_choices[choice].mask : 0;
}

void nb_sensor_note(struct nb_sensor_dev *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nnotes >= NB_SENSOR_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(d->note[d->nnotes++], sizeof(d->note[0]), fmt, ap);
	va_end(ap);
}

void nb_sensor_open(struct nb_sensor_dev *d, const struct nb_devent *e, unsigned int mask,
		    unsigned int flags)
{
	bool amdgpu = e->dev.kind == NB_DEV_AMDGPU, cpu = e->dev.kind == NB_DEV_CPU;

	memset(d, 0, sizeof(*d));
	d->e = e;
	d->asleep = amdgpu && !strcmp(e->drm.runtime_status, "suspended") &&
		    !(flags & NB_SENSORS_WAKE);
	if (d->asleep)
		nb_sensor_note(d, "%s is runtime-suspended (asleep): not waking it; libdrm_amdgpu "
			       "and hwmon readings skipped (--wake reads them)%s", e->dev.pci,
			       e->gt_name[0] ? "" : "; no gputelemetry readings either");
	for (int i = 0; i < NB_SRC_COUNT; i++) {
		const struct nb_source *s = nb_sources[i];
		char note[400] = "";

		if (!(mask & (1u << i)) || (s->amdgpu_only && !amdgpu) ||
		    s->cpu_only != cpu || (s->wakes && d->asleep))
			continue;
		int err = s->open(d, &d->priv[i], note, sizeof(note));

		/* a source that opens may still say what it cannot read */
		if (note[0])
			nb_sensor_note(d, "%s", note);
		if (!err)
			d->use |= 1u << i;
	}
}

void nb_sensor_sample(struct nb_sensor_dev *d, struct nb_reading r[GT_S_COUNT])
{
	for (int i = 0; i < NB_SRC_COUNT; i++)
		if (d->use & (1u << i) && nb_sources[i]->sample)
			nb_sources[i]->sample(d, d->priv[i]);
	for (int s = 0; s < GT_S_COUNT; s++) {
		memset(&r[s], 0, sizeof(r[s]));
		for (int i = 0; i < NB_SRC_COUNT && !r[s].valid; i++) {
			if (!(d->use & (1u << i)) || d->dead[s][i])
				continue;
			if (nb_sources[i]->read(d, d->priv[i], s, &r[s].v)) {
				r[s].valid = true;
				r[s].src = nb_sources[i];
			} else if (!nb_sources[i]->retry) {
				d->dead[s][i] = true;
			}
		}
	}
}

void nb_sensor_close(struct nb_sensor_dev *d)
{
	for (int i = 0; i < NB_SRC_COUNT; i++)
		if (d->use & (1u << i) && nb_sources[i]->close)
			nb_sources[i]->close(d->priv[i]);
	d->use = 0;
}
