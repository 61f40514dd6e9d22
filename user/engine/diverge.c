// SPDX-License-Identifier: MIT
/*
 * Where a wrong model output went wrong, as one debugs a framework with
 * forward hooks: every ConvLSTM layer's output and the head's, frame by
 * frame, against the reference's on the same input; the first value
 * beyond the tolerance names the layer, the frame and the element.
 *
 * What came before it tells a kernel fault from rounding: float32 with
 * FMA contraction and another summation order differs from the double
 * reference by about 1e-7 per step, and those differences grow smoothly
 * through frames and layers until one crosses the tolerance; a faulty
 * step jumps from that level to far beyond it at once. A first divergence
 * more than NB_DIVERGE_JUMP times the largest difference of every earlier
 * layer and frame is a jump.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* output l (the head when l == layers): frames and floats per frame */
static void output_shape(const struct nb_model *m, int l, int frames, int *nf, size_t *per)
{
	if (l < m->layers) {
		*nf = nb_layer_output_frames(m, l, frames);
		*per = (size_t)m->height * m->width * m->filters[l];
	} else {
		*nf = m->head == NB_HEAD_CONV3D ? frames : 1;
		*per = (size_t)m->height * m->width * m->head_out;
	}
}

static void found(struct nb_divergence *d, const struct nb_model *m, int l, int frame,
		  size_t i, double got, double ref, double tol, double before)
{
	int ch = l < m->layers ? m->filters[l] : m->head_out;

	d->found = true;
	d->layer = l;
	d->frame = frame;
	d->y = (int)(i / ((size_t)m->width * ch));
	d->x = (int)(i / ch % m->width);
	d->channel = (int)(i % ch);
	d->value = got;
	d->ref = ref;
	d->tol = tol;
	d->max_before = before;
	d->jump = !(fabs(got - ref) <= NB_DIVERGE_JUMP * before);	/* NaN: a jump */
}

/* one frame of output l; returns its largest |d| (NaN wins) */
static double compare_frame(struct nb_divergence *d, const struct nb_model *m, int l,
			    int frame, const float *got, const float *ref, size_t n,
			    double tol_abs, double tol_rel, double before)
{
	double fmax = 0;

	for (size_t i = 0; i < n; i++) {
		double diff = fabs((double)got[i] - ref[i]);
		double tol = tol_abs + tol_rel * fabs((double)ref[i]);

		if (!d->found && !(diff <= tol))
			found(d, m, l, frame, i, got[i], ref[i], tol, before);
		if (!(diff <= fmax))
			fmax = diff;
	}
	return fmax;
}

void nb_diverge_find(const struct nb_weights *w, const float *in, int frames,
		     float *const *layers, const float *out, double tol_abs,
		     double tol_rel, struct nb_divergence *d)
{
	const struct nb_model *m = &w->model;
	float *ref[NB_MAX_LAYERS] = { NULL };
	float *rout = malloc(nb_output_count(m, 1, frames) * sizeof(float));
	double before = 0;
	bool oom = !rout;

	memset(d, 0, sizeof(*d));
	for (int l = 0; l < m->layers; l++) {
		ref[l] = malloc(nb_layer_output_count(m, l, 1, frames) * sizeof(float));
		oom |= !ref[l];
	}
	if (oom) {
		snprintf(d->note, sizeof(d->note), "out of memory for the reference's layers");
		goto out;
	}
	nb_ref_forward_layers(w, in, 1, frames, ref, rout);
	d->ran = true;
	d->layers = m->layers + 1;
	for (int l = 0; l <= m->layers; l++) {
		const float *got = l < m->layers ? layers[l] : out;
		const float *want = l < m->layers ? ref[l] : rout;
		size_t per;
		int nf;

		output_shape(m, l, frames, &nf, &per);
		for (int t = 0; t < nf; t++) {
			double fmax = compare_frame(d, m, l, frames - nf + t, got + t * per,
						    want + t * per, per, tol_abs, tol_rel, before);

			if (!(fmax <= d->layer_max[l]))
				d->layer_max[l] = fmax;
			if (!d->found && !(fmax <= before))
				before = fmax;
		}
	}
	if (!d->found)
		snprintf(d->note, sizeof(d->note),
			 "every layer's output is within the tolerance on this input");
out:
	for (int l = 0; l < m->layers; l++)
		free(ref[l]);
	free(rout);
}

/* the earlier of two divergences (layer, then frame); the maxima of both */
static void earliest(struct nb_divergence *into, const struct nb_divergence *d)
{
	double layer_max[NB_MAX_LAYERS + 1];

	for (int l = 0; l < d->layers; l++)
		layer_max[l] = !(d->layer_max[l] <= into->layer_max[l]) ? d->layer_max[l] :
			into->layer_max[l];
	if (d->found && (!into->found || d->layer < into->layer ||
			 (d->layer == into->layer && d->frame < into->frame)))
		*into = *d;
	memcpy(into->layer_max, layer_max, sizeof(double) * d->layers);
}

static int forward_layers(const struct nb_backend_ops *ops, void *ctx, void *prog,
			  const struct nb_model *m, const float *in, int batch, int frames,
			  float **layers, float *out, struct nb_divergence *d)
{
	char err[256] = "";

	for (int l = 0; l < m->layers; l++)
		if (!layers[l]) {
			snprintf(d->note, sizeof(d->note), "out of memory for the layers' outputs");
			return -1;
		}
	if (!out) {
		snprintf(d->note, sizeof(d->note), "out of memory for the layers' outputs");
		return -1;
	}
	if (ops->model_forward_layers(ctx, prog, in, batch, frames, layers, out, err,
				      sizeof(err))) {
		snprintf(d->note, sizeof(d->note), "the per-layer run failed: %.120s", err);
		return -1;
	}
	return 0;
}

void nb_diverge_run(const struct nb_backend_ops *ops, void *ctx, void *prog,
		    const struct nb_weights *w, const float *in, int batch,
		    int frames, double tol_abs, double tol_rel,
		    struct nb_divergence *d)
{
	const struct nb_model *m = &w->model;
	float *layers[NB_MAX_LAYERS] = { NULL }, *out;
	size_t frame = (size_t)m->height * m->width * m->channels;
	int items[2] = { 0, batch - 1 };

	memset(d, 0, sizeof(*d));
	if (!ops->model_forward_layers) {
		snprintf(d->note, sizeof(d->note), "the %s backend gives no per-layer outputs "
			 "(a plugin of interface version 2: rebuild it)", ops->name);
		return;
	}
	for (int l = 0; l < m->layers; l++)
		layers[l] = malloc(nb_layer_output_count(m, l, batch, frames) * sizeof(float));
	out = malloc(nb_output_count(m, batch, frames) * sizeof(float));
	if (!forward_layers(ops, ctx, prog, m, in, batch, frames, layers, out, d)) {
		for (int k = 0; k < (batch > 1 ? 2 : 1); k++) {
			float *lp[NB_MAX_LAYERS];
			struct nb_divergence dk;

			for (int l = 0; l < m->layers; l++)
				lp[l] = layers[l] + items[k] * nb_layer_output_count(m, l, 1, frames);
			nb_diverge_find(w, in + (size_t)items[k] * frames * frame, frames, lp,
					out + items[k] * nb_output_count(m, 1, frames), tol_abs,
					tol_rel, &dk);
			dk.item = items[k];
			if (k == 0 || !dk.ran)
				*d = dk;
			else
				earliest(d, &dk);
			if (!dk.ran)
				break;
		}
		if (d->ran && !d->found)
			snprintf(d->note, sizeof(d->note), "no layer's output leaves the reference "
				 "on a second run: the failure did not repeat (a race, or work "
				 "skipped in the timed repeats)");
	}
	for (int l = 0; l < m->layers; l++)
		free(layers[l]);
	free(out);
}

void nb_diverge_text(const struct nb_divergence *d, char *buf, size_t n)
{
	char layer[32];

	if (!d->found) {
		snprintf(buf, n, "%s", d->note[0] ? d->note : "not located");
		return;
	}
	if (d->layer == d->layers - 1)
		snprintf(layer, sizeof(layer), "the head");
	else
		snprintf(layer, sizeof(layer), "ConvLSTM layer %d", d->layer);
	snprintf(buf, n, "first divergence: %s, frame %d, item %d, element (y %d, x %d, channel %d): "
		 "%.7g, the reference %.7g, tolerance %.3g; largest |d| before it %.2g: %s",
		 layer, d->frame, d->item, d->y, d->x, d->channel, d->value, d->ref, d->tol,
		 d->max_before, d->jump ? "a jump: one faulty step, not rounding" :
		 "grown gradually: rounding accumulated over layers and frames, not one faulty step");
}
