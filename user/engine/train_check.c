// SPDX-License-Identifier: MIT
/*
 * A backend's training step against the reference's (train.h,
 * nb_train_validate()): gradients compared before the optimizer's update,
 * weights and moving averages after it, since comparing either on the
 * wrong side of the update mixes Adam's step into the difference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/train.h"

struct worst {
	double grad, other;
	char grad_at[72], other_at[72];
};

static void compare(const struct nb_ref_params *ref, struct nb_weights *got,
		    int step, bool gradients, struct worst *w)
{
	struct nb_tensor t[NB_MAX_TENSORS];

	nb_weights_tensors(got, t);
	for (int i = 0; i < ref->n; i++) {
		const float *g = *t[i].data;
		const double *r = ref->v[i];

		if (gradients && nb_tensor_trained(i)) {
			double big = 0, d = 0;

			for (size_t e = 0; e < ref->count[i]; e++) {
				big = fmax(big, fabs(r[e]));
				double x = fabs(g[e] - r[e]);

				if (!(x <= d))
					d = x;	/* NaN wins */
			}
			double rel = big > 0 ? d / big : d;
			if (!(rel <= w->grad)) {
				w->grad = rel;
				snprintf(w->grad_at, sizeof(w->grad_at),
					 "step %d, gradient of %s", step, ref->name[i]);
			}
			continue;
		}
		/* batch statistics (gradients), or values after the step */
		for (size_t e = 0; e < ref->count[i]; e++) {
			double x = fabs(g[e] - r[e]) - NB_TRAIN_TOL_REL * fabs(r[e]);

			if (!(x <= w->other)) {
				w->other = x;
				snprintf(w->other_at, sizeof(w->other_at), "step %d, %s%s",
					 step, gradients ? "batch statistic " : "",
					 ref->name[i]);
			}
		}
	}
}

int nb_train_validate(const struct nb_train_ops *ops, void *ctx,
		      const struct nb_weights *w, const float *in,
		      const float *target, int batch, int frames, int steps,
		      struct nb_validation *v, char *err, size_t errlen)
{
	const struct nb_model *m = &w->model;
	struct nb_weights *rw = nb_weights_alloc(m), *got = nb_weights_alloc(m);
	struct nb_weights *ggot = nb_weights_alloc(m);
	struct nb_ref_params *gref = nb_ref_params_alloc(m);
	struct nb_ref_params *after = nb_ref_params_alloc(m);
	struct nb_ref_adam adam = { 0 };
	struct worst worst = { 0 };
	struct nb_tensor ts[NB_MAX_TENSORS], td[NB_MAX_TENSORS];
	void *tr = NULL;
	int rc = -1;

	memset(v, 0, sizeof(*v));
	if (!rw || !got || !ggot || !gref || !after || nb_ref_adam_init(&adam, m)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	int n = nb_weights_tensors((struct nb_weights *)w, ts);
	nb_weights_tensors(rw, td);
	for (int i = 0; i < n; i++)
		memcpy(*td[i].data, *ts[i].data, ts[i].count * sizeof(float));
	if (ops->load(ctx, w, batch, frames, &tr, err, errlen))
		goto out;
	for (int s = 1; s <= steps; s++) {
		double loss, rloss;

		if (ops->step(ctx, tr, in, target, &loss, err, errlen))
			goto out;
		ops->read(ctx, tr, got, ggot);
		rloss = nb_ref_train_step(rw, &adam, in, target, batch, frames, gref);
		compare(gref, ggot, s, true, &worst);
		nb_ref_params_from(after, rw);
		compare(after, got, s, false, &worst);
		double x = fabs(loss - rloss) - NB_TRAIN_TOL_REL * fabs(rloss);

		if (!(x <= worst.other)) {
			worst.other = x;
			snprintf(worst.other_at, sizeof(worst.other_at),
				 "step %d, the loss", s);
		}
	}
	v->ran = true;
	v->max_rel = worst.grad;
	v->max_abs = worst.other;
	v->tol_rel = NB_TRAIN_TOL_GRAD;
	v->tol_abs = NB_TRAIN_TOL_ABS;
	v->pass = worst.grad <= NB_TRAIN_TOL_GRAD && worst.other <= NB_TRAIN_TOL_ABS;
	snprintf(v->input, sizeof(v->input),
		 "%d step(s) of batch %d x %d frames vs the double reference: worst gradient: %s (%.2e of its largest); worst value: %s (%.2e beyond %.0e relative)",
		 steps, batch, frames, worst.grad_at[0] ? worst.grad_at : "-",
		 worst.grad, worst.other_at[0] ? worst.other_at : "-",
		 worst.other, NB_TRAIN_TOL_REL);
	v->reason = "float32 against double through every frame back in time: each gradient tensor within 1e-4 of its largest value (before Adam's update); batch statistics, loss, weights and moving averages after each update within 1e-5 (1% of Adam's learning rate: Adam divides by each gradient's size, so rounding of near-zero gradients shows) + 1e-4 |ref|";
	rc = 0;
out:
	if (tr)
		ops->free(ctx, tr);
	nb_ref_adam_free(&adam);
	nb_ref_params_free(gref);
	nb_ref_params_free(after);
	nb_weights_free(rw);
	nb_weights_free(got);
	nb_weights_free(ggot);
	return rc;
}
