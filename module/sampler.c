// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the sampler - a per-device delayed work that reads the
 * source every interval_ms into a ring of timestamped samples, numbered
 * by a 64-bit sequence number, and keeps min/avg/max statistics.
 *
 * The work runs on the module's own freezable workqueue: it does not run
 * while the system suspends or resumes (when the devices a source reads
 * are being suspended or resumed), and module unload drains it.
 *
 * Nothing waits for the work while holding a lock: the amdgpu source's
 * reads take sysfs (kernfs) locks, which the PCI bus notifier's callers
 * hold, so a synchronous cancel from the notifier would be a lock cycle
 * for lockdep. Instead the work holds a reference on its device while it
 * is queued or running; stopping clears "running" and cancels a queued
 * work, and a running one does not queue itself again and drops its
 * reference. Module unload waits for the last one (gt_sampler_wq_fini()).
 * The reference is the device's kref, with the release function the
 * registry gave gt_sampler_init(): this file calls nothing above it.
 *
 * Readers never touch the ring directly: gt_sampler_copy() copies one
 * sample out under the lock, by number, and tells a reader that asked for
 * an overwritten number which sample is the oldest still kept.
 */
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gputelemetry.h"

/* The sampling works of every device; see the top comment. */
static struct workqueue_struct *gt_sampler_wq;

/**
 * gt_sampler_wq_init() - create the sampling workqueue
 *
 * Return: 0 or -ENOMEM.
 */
int gt_sampler_wq_init(void)
{
	/* Unbound: a sample may run on any CPU (and see compat.h). */
	gt_sampler_wq = alloc_workqueue("gputelemetry", WQ_FREEZABLE | WQ_UNBOUND, 0);
	return gt_sampler_wq ? 0 : -ENOMEM;
}

/**
 * gt_sampler_wq_fini() - wait for every sampling work and free the queue
 *
 * Called at unload, after every sampler was stopped: the works still
 * running finish (and may drop their devices' last references) first.
 */
void gt_sampler_wq_fini(void)
{
	destroy_workqueue(gt_sampler_wq);
	gt_sampler_wq = NULL;
}

static void gt_stats_clear(struct gt_sampler *smp)
{
	lockdep_assert_held(&smp->lock);
	memset(smp->stat, 0, sizeof(smp->stat));
	smp->since_ns = ktime_get_ns();
}

static void gt_stats_add(struct gt_sampler *smp, const struct gt_sample *s)
{
	unsigned int i;

	lockdep_assert_held(&smp->lock);
	for (i = 0; i < GT_S_COUNT; i++) {
		struct gt_stat *st = &smp->stat[i];
		s64 v = s->val[i];

		if (!gt_sample_has(s, i))
			continue;
		if (!st->count) {
			st->min = v;
			st->max = v;
			st->sum = v;
			st->count = 1;
			continue;
		}
		st->min = min(st->min, v);
		st->max = max(st->max, v);
		/*
		 * Bytes of VRAM are the largest values: 2^33 per sample at
		 * 100 samples/s overflow after months. Then the average
		 * restarts from the current one, weighted as one sample.
		 */
		if (check_add_overflow(st->sum, v, &st->sum)) {
			st->sum = v;
			st->count = 0;
		}
		st->count++;
	}
}

/*
 * Delay until the next sample. A timer of n jiffies fires after n - 1 to n
 * jiffies; one more keeps consecutive samples at least interval_ms apart.
 */
static unsigned long gt_sampler_delay(unsigned int interval_ms)
{
	return msecs_to_jiffies(interval_ms) + 1;
}

static void gt_sampler_work(struct work_struct *work)
{
	struct gt_sampler *smp = container_of(to_delayed_work(work), struct gt_sampler, work);
	struct gt_device *gdev = container_of(smp, struct gt_device, sampler);
	struct gt_sample s;
	u64 start = ktime_get_ns();
	bool requeued = false;
	u32 idx;

	gt_source_read(gdev, &s);

	spin_lock(&smp->lock);
	div_u64_rem(smp->next_seq, smp->depth, &idx);
	smp->ring[idx] = s;
	smp->next_seq++;
	gt_stats_add(smp, &s);
	smp->samples++;
	smp->cpu_ns += ktime_get_ns() - start;
	/* The queued work takes over this one's reference. */
	if (smp->running)
		requeued = queue_delayed_work(gt_sampler_wq, &smp->work,
					      gt_sampler_delay(smp->interval_ms));
	spin_unlock(&smp->lock);
	/* May free the device: nothing of it is used past this point. */
	if (!requeued)
		kref_put(smp->ref, smp->release);
}

/**
 * gt_sampler_init() - set a sampler up, stopped
 * @smp: the sampler, zeroed, in a struct gt_device
 * @interval_ms: sampling period, GT_INTERVAL_MIN_MS..GT_INTERVAL_MAX_MS
 * @depth: ring size, GT_HISTORY_MIN..GT_HISTORY_MAX
 * @ref: the device's reference count, held by the work while queued
 * @release: what the last kref_put() of @ref calls
 *
 * Return: 0 or -ENOMEM. On success gt_sampler_fini() must be called.
 */
int gt_sampler_init(struct gt_sampler *smp, unsigned int interval_ms, u32 depth,
		    struct kref *ref, void (*release)(struct kref *ref))
{
	smp->ring = kvcalloc(depth, sizeof(*smp->ring), GFP_KERNEL);
	if (!smp->ring)
		return -ENOMEM;
	smp->depth = depth;
	smp->interval_ms = interval_ms;
	smp->ref = ref;
	smp->release = release;
	spin_lock_init(&smp->lock);
	INIT_DELAYED_WORK(&smp->work, gt_sampler_work);
	spin_lock(&smp->lock);
	gt_stats_clear(smp);
	spin_unlock(&smp->lock);
	return 0;
}

/**
 * gt_sampler_fini() - free a stopped sampler's ring
 * @smp: the sampler
 */
void gt_sampler_fini(struct gt_sampler *smp)
{
	kvfree(smp->ring);
	smp->ring = NULL;
}

/**
 * gt_sampler_start() - take the first sample now, then every interval
 * @gdev: the device; the queued work holds a reference on it
 *
 * Does not sleep; starting a running sampler does nothing.
 */
void gt_sampler_start(struct gt_device *gdev)
{
	struct gt_sampler *smp = &gdev->sampler;

	spin_lock(&smp->lock);
	smp->running = true;
	if (queue_delayed_work(gt_sampler_wq, &smp->work, 0))
		kref_get(smp->ref);
	spin_unlock(&smp->lock);
}

/**
 * gt_sampler_stop() - stop sampling, without waiting
 * @gdev: the device
 *
 * After this no sample starts later than the one that may be running now,
 * which finishes and drops its reference; nothing queues the work again.
 * Does not sleep: callable with any lock held. gt_sampler_wq_fini() waits
 * for the works of every device.
 */
void gt_sampler_stop(struct gt_device *gdev)
{
	struct gt_sampler *smp = &gdev->sampler;
	bool cancelled;

	spin_lock(&smp->lock);
	smp->running = false;
	cancelled = cancel_delayed_work(&smp->work);
	spin_unlock(&smp->lock);
	/* The caller holds a reference of its own: this is never the last. */
	if (cancelled)
		kref_put(smp->ref, smp->release);
}

/**
 * gt_sampler_set_interval() - change the sampling period
 * @smp: the sampler
 * @interval_ms: new period, GT_INTERVAL_MIN_MS..GT_INTERVAL_MAX_MS
 *
 * A running sampler takes its next sample one new period from now.
 *
 * Return: 0, or -EINVAL when out of range (the period is unchanged).
 */
int gt_sampler_set_interval(struct gt_sampler *smp, unsigned int interval_ms)
{
	if (interval_ms < GT_INTERVAL_MIN_MS || interval_ms > GT_INTERVAL_MAX_MS)
		return -EINVAL;
	spin_lock(&smp->lock);
	smp->interval_ms = interval_ms;
	/*
	 * Not queued (running now): the work queued here needs a reference;
	 * the running one will find it queued and drop its own.
	 */
	if (smp->running &&
	    !mod_delayed_work(gt_sampler_wq, &smp->work, gt_sampler_delay(interval_ms)))
		kref_get(smp->ref);
	spin_unlock(&smp->lock);
	return 0;
}

/**
 * gt_sampler_interval() - the sampling period
 * @smp: the sampler
 *
 * Return: the period in ms.
 */
unsigned int gt_sampler_interval(struct gt_sampler *smp)
{
	unsigned int v;

	spin_lock(&smp->lock);
	v = smp->interval_ms;
	spin_unlock(&smp->lock);
	return v;
}

/**
 * gt_sampler_oldest() - number of the oldest sample kept
 * @smp: the sampler
 *
 * Return: the number (equal to the next sample's number while the ring is
 * empty).
 */
u64 gt_sampler_oldest(struct gt_sampler *smp)
{
	u64 oldest;

	spin_lock(&smp->lock);
	oldest = smp->next_seq > smp->depth ? smp->next_seq - smp->depth : 0;
	spin_unlock(&smp->lock);
	return oldest;
}

/**
 * gt_sampler_copy() - copy one sample out of the ring
 * @smp: the sampler
 * @seq: the sample's number
 * @out: receives the sample
 * @oldest: receives the number of the oldest sample kept
 *
 * Return: 0 when copied; -ENODATA when sample @seq was not taken yet;
 * -ESPIPE when it was overwritten (see @oldest).
 */
int gt_sampler_copy(struct gt_sampler *smp, u64 seq, struct gt_sample *out, u64 *oldest)
{
	int ret = 0;
	u32 idx;

	spin_lock(&smp->lock);
	*oldest = smp->next_seq > smp->depth ? smp->next_seq - smp->depth : 0;
	if (seq >= smp->next_seq) {
		ret = -ENODATA;
	} else if (seq < *oldest) {
		ret = -ESPIPE;
	} else {
		div_u64_rem(seq, smp->depth, &idx);
		*out = smp->ring[idx];
	}
	spin_unlock(&smp->lock);
	return ret;
}

/**
 * gt_sampler_stats() - copy the statistics out
 * @smp: the sampler
 * @stat: receives GT_S_COUNT entries
 * @since_ns: receives the time of the last reset
 * @samples: receives the samples taken since creation
 * @cpu_ns: receives the ns spent sampling since creation
 */
void gt_sampler_stats(struct gt_sampler *smp, struct gt_stat *stat, u64 *since_ns,
		      u64 *samples, u64 *cpu_ns)
{
	spin_lock(&smp->lock);
	memcpy(stat, smp->stat, sizeof(smp->stat));
	*since_ns = smp->since_ns;
	*samples = smp->samples;
	*cpu_ns = smp->cpu_ns;
	spin_unlock(&smp->lock);
}

/**
 * gt_sampler_reset_stats() - restart the min/avg/max statistics now
 * @smp: the sampler
 */
void gt_sampler_reset_stats(struct gt_sampler *smp)
{
	spin_lock(&smp->lock);
	gt_stats_clear(smp);
	spin_unlock(&smp->lock);
}
