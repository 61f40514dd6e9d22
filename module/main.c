// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: AMD GPU telemetry under debugfs - module init, exit and
 * parameters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "gputelemetry.h"

static unsigned int gt_param_sim_devices;
static unsigned int gt_param_interval_ms = 100;
static unsigned int gt_param_history_depth = 1024;

/*
 * Parse an unsigned decimal parameter, by the rule of every number the
 * module takes (gt_parse_uint(): digits only, no sign), and refuse it,
 * with a message that names the parameter and its range, when it breaks
 * the rule or is out of range: insmod then fails with -EINVAL.
 */
static int gt_param_set_range(const char *val, const struct kernel_param *kp,
			      unsigned int min, unsigned int max)
{
	unsigned int v;
	int ret;

	ret = gt_parse_uint(val, min, max, &v);
	if (ret) {
		pr_err("%s=%s is invalid: expected a decimal integer in %u..%u\n",
		       kp->name, val, min, max);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static int gt_param_set_sim_devices(const char *val, const struct kernel_param *kp)
{
	return gt_param_set_range(val, kp, 0, GT_SIM_DEVICES_MAX);
}

static int gt_param_set_interval(const char *val, const struct kernel_param *kp)
{
	return gt_param_set_range(val, kp, GT_INTERVAL_MIN_MS, GT_INTERVAL_MAX_MS);
}

static int gt_param_set_depth(const char *val, const struct kernel_param *kp)
{
	return gt_param_set_range(val, kp, GT_HISTORY_MIN, GT_HISTORY_MAX);
}

static const struct kernel_param_ops gt_sim_devices_ops = {
	.set = gt_param_set_sim_devices,
	.get = param_get_uint,
};

static const struct kernel_param_ops gt_interval_ops = {
	.set = gt_param_set_interval,
	.get = param_get_uint,
};

static const struct kernel_param_ops gt_depth_ops = {
	.set = gt_param_set_depth,
	.get = param_get_uint,
};

module_param_cb(sim_devices, &gt_sim_devices_ops, &gt_param_sim_devices, 0444);
MODULE_PARM_DESC(sim_devices,
		 "simulated GPUs created at load, ids 0..n-1, profile navi14 (0..16, default 0)");
module_param_cb(interval_ms, &gt_interval_ops, &gt_param_interval_ms, 0444);
MODULE_PARM_DESC(interval_ms,
		 "sampling period of each new device in ms (10..60000, default 100)");
module_param_cb(history_depth, &gt_depth_ops, &gt_param_history_depth, 0444);
MODULE_PARM_DESC(history_depth,
		 "samples kept per device (16..65536, default 1024)");

/*
 * Each layer's init, bottom up (gputelemetry.h, "Layers"); each undone by
 * its fini, top down, here and nowhere else.
 */
static int __init gt_init(void)
{
	int ret;

	ret = gt_sampler_wq_init();
	if (ret)
		return ret;

	ret = gt_debugfs_init();
	if (ret)
		goto err_wq_fini;

	ret = gt_registry_init(gt_debugfs_root(), gt_param_interval_ms,
			       gt_param_history_depth);
	if (ret)
		goto err_debugfs_fini;

	ret = gt_sim_init(gt_debugfs_root(), gt_param_sim_devices);
	if (ret)
		goto err_registry_fini;

	ret = gt_pci_init();
	if (ret)
		goto err_sim_fini;

	pr_info("version %s loaded, %u simulated device(s)\n", GT_MODULE_VERSION,
		gt_param_sim_devices);
	return 0;

err_sim_fini:
	gt_sim_fini();
err_registry_fini:
	gt_registry_fini();
err_debugfs_fini:
	gt_debugfs_fini();
err_wq_fini:
	gt_sampler_wq_fini();
	return ret;
}

static void __exit gt_exit(void)
{
	/*
	 * The buses first: each stops creating devices and removes its own
	 * (pci.c also drops the amdgpu source's sysfs mount). Then the
	 * registry's file and the root. Sampling works still finishing hold
	 * the last device references: the workqueue goes last.
	 */
	gt_pci_fini();
	gt_sim_fini();
	gt_registry_fini();
	gt_debugfs_fini();
	gt_sampler_wq_fini();
}

module_init(gt_init);
module_exit(gt_exit);

MODULE_DESCRIPTION("AMD GPU telemetry under debugfs: amdgpu's sensors, and simulated GPUs");
MODULE_LICENSE("GPL");
MODULE_VERSION(GT_MODULE_VERSION);
