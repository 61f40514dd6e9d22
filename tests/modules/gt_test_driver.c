// SPDX-License-Identifier: GPL-2.0
/*
 * gt_test_amdgpu: a test-only PCI driver that presents amdgpu's telemetry
 * interface (hwmon and PCI device attributes) on QEMU's ati-vga device,
 * with values set from debugfs. It exists so that gputelemetry's amdgpu
 * source can be tested on a real PCI device, in the manner of the kernel's
 * lib/test_*.c modules. Never load it on a machine with real hardware.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#include "../../module/compat.h"
#include "gt_test_amdgpu.h"

/**
 * DOC: gt_test_amdgpu
 *
 * A PCI driver for QEMU's ``-device ati-vga`` (vendor 0x1002, device
 * 0x5046, or 0x5159 with ``model=rv100``). It never touches the device:
 * no BAR is mapped, the device is not even enabled, no register is read
 * or written. What it does is present the interface amdgpu (Linux 6.1,
 * drivers/gpu/drm/amd/pm/amdgpu_pm.c and amdgpu_vram_mgr.c) presents to
 * userspace and to gputelemetry, with the same names, units and rules:
 *
 * - a hwmon device named ``amdgpu``, child of the PCI device:
 *   ``temp1_input`` / ``temp2_input`` / ``temp3_input`` (edge, junction,
 *   mem; millidegrees C) with ``temp*_label``; ``freq1_input`` (sclk) and
 *   ``freq2_input`` (mclk) in Hz with ``freq*_label``; ``power1_average``
 *   and ``power1_input`` in microwatts; ``in0_input`` (vddgfx) and
 *   ``in1_input`` (vddnb) in millivolts with ``in*_label``; ``fan1_input``
 *   in RPM; ``pwm1`` (0..255, the fan duty under automatic control);
 *   ``temp1_crit`` / ``temp2_crit`` / ``temp3_crit``; ``power1_cap``,
 *   ``power1_cap_default``, ``power1_cap_min``, ``power1_cap_max`` (uW);
 * - on the PCI device itself: ``gpu_busy_percent``, ``mem_busy_percent``,
 *   ``mem_info_vram_total``, ``mem_info_vram_used``, ``mem_info_gtt_total``
 *   and ``mem_info_gtt_used`` (bytes), and
 *   ``gpu_metrics``, a regular device attribute whose read returns the raw
 *   bytes of a struct gpu_metrics_v*_* (see gt_test_blobs.c).
 *
 * What it copies from which kernel: the attribute set, units and
 * visibility of 6.12's amdgpu_pm.c (hwmon_attributes_visible() and
 * default_attr_update(), 6.1's being the same for these files), by GC IP
 * version (``gc_version``, default 10.1.1, Navi 14), APU or not (``apu``)
 * and fan or not (``no_fan``): no ``temp2`` / ``temp3`` on APUs and before
 * GC 9.0; no ``in0`` on SI (GC 6) and KV (GC 7 APUs); ``in1`` only on APUs;
 * no ``freq2``, ``fan1_input``, ``pwm1`` on APUs; no fan files without a
 * fan; no ``mem_busy_percent`` on APUs and Vega10 (GC 9.0.1); no
 * ``gpu_metrics`` before GC 9.1. Each label follows its input. ``pwm1`` is
 * 0644 as in amdgpu; a write fails with -EINVAL (automatic fan control).
 * Linux 6.1 has ``power1_average`` only; later kernels add
 * ``power1_input`` and hide whichever of the two the firmware lacks, so
 * ``power1_input`` starts hidden and both are switched with the ``hide/``
 * knobs. Any attribute can be hidden, which removes its file at once.
 *
 * Runtime PM is amdgpu's: autosuspend (``autosuspend_ms``, default 100)
 * allowed at probe (``runpm=1``), and amdgpu_pmops_runtime_idle()'s busy
 * mark (amdgpu_drv.c, 6.1 to mainline) in the runtime_idle callback. Every
 * read of a sensor attribute, hwmon or PCI, is refused with -EPERM while
 * the ``in_suspend`` knob is set (a system suspend in progress, as in every
 * amdgpu), then takes a runtime PM reference as the amdgpu of the kernel it
 * is built for (compat.h): up to 6.12 pm_runtime_get_sync(), so a read
 * wakes a suspended device; from 6.13 pm_runtime_get_if_active(), so a
 * read of a suspended device fails with -EPERM (module parameter
 * ``sensor_read_wakes`` chooses either on any kernel). It is dropped with
 * pm_runtime_put_autosuspend(), after a busy mark except on 6.13 and 6.14.
 * Labels and ``mem_info_vram_*`` take no reference, as in amdgpu. The
 * suspend and resume callbacks only count and flip a flag; the suspend
 * callback saves the config space itself so that the PCI core leaves the
 * power state alone.
 *
 * Knobs, per bound device, in ``/sys/kernel/debug/gt_test_amdgpu/<pci
 * address>/`` (root only):
 *
 * - one file per value (see gtt_vals[] below for names, units, ranges and
 *   defaults): a decimal (or 0x hex) integer; out of range input is
 *   refused with -EINVAL and a message giving the range;
 * - ``gpu_metrics_rev``: ``<format>.<content>`` of the blob; 1.0 to 1.5,
 *   2.0 to 2.4 and 3.0 give the kernel's layouts, any other pair of 0..255
 *   gives an "unknown revision" blob: 120 bytes of 0xff under a header
 *   with that revision and structure_size 120;
 * - ``pci_device_id``: the PCI device id the device shows (pdev->device,
 *   restored at remove), 0 for its own: gputelemetry then takes it for that
 *   ASIC (e.g. 0x7340 Navi 14, 0x744c Navi 31), as the metrics tests need;
 * - ``gpu_metrics_truncate``: bytes cut from the end of the blob read
 *   (the header keeps the full structure_size), 0 for a whole blob;
 * - ``hide/<attribute>``: 1 hides the attribute (and its label);
 * - ``fail/<attribute>``: a positive errno makes reads of the attribute
 *   fail with it (after the runtime PM get, as a failed sensor read in
 *   amdgpu does); 0 clears it;
 * - read only: ``runtime_suspends`` and ``runtime_resumes`` (callback
 *   counts), ``runtime_suspended`` (Y while suspended) and ``reads``
 *   (reads of the attributes that take a runtime PM reference).
 */

static bool runpm = true;
module_param(runpm, bool, 0444);
MODULE_PARM_DESC(runpm, "Allow runtime suspend at probe, as amdgpu does (default: 1)");

static bool sensor_read_wakes = GT_AMDGPU_SENSOR_READ_WAKES;
module_param(sensor_read_wakes, bool, 0444);
MODULE_PARM_DESC(sensor_read_wakes,
		 "Sensor reads wake a suspended device, as amdgpu before 6.13; 0: fail with -EPERM, as 6.13 on (default: this kernel's amdgpu)");

static int autosuspend_ms = 100;
module_param(autosuspend_ms, int, 0444);
MODULE_PARM_DESC(autosuspend_ms, "Runtime PM autosuspend delay in ms, 0..60000 (default: 100)");

/**
 * struct gtt_val_desc - a value knob
 * @name: debugfs file name
 * @unit: unit, for messages
 * @min: smallest accepted value
 * @max: largest accepted value
 * @def: value at probe
 * @visibility: a change re-evaluates which attributes exist
 */
struct gtt_val_desc {
	const char *name;
	const char *unit;
	s64 min;
	s64 max;
	s64 def;
	bool visibility;
};

/* Defaults: a Navi 14 (RX 5500 XT) under moderate load. */
static const struct gtt_val_desc gtt_vals[GTT_V_NR] = {
	[GTT_V_TEMP_EDGE] = { "temp_edge", "millidegrees C", -273150, 1000000, 45000 },
	[GTT_V_TEMP_JUNCTION] = { "temp_junction", "millidegrees C", -273150, 1000000, 52000 },
	[GTT_V_TEMP_MEM] = { "temp_mem", "millidegrees C", -273150, 1000000, 60000 },
	[GTT_V_TEMP_VRGFX] = { "temp_vrgfx", "millidegrees C", -273150, 1000000, 48000 },
	[GTT_V_TEMP_VRSOC] = { "temp_vrsoc", "millidegrees C", -273150, 1000000, 47000 },
	[GTT_V_TEMP_VRMEM] = { "temp_vrmem", "millidegrees C", -273150, 1000000, 46000 },
	[GTT_V_TEMP_SOC] = { "temp_soc", "millidegrees C", -273150, 1000000, 50000 },
	[GTT_V_SCLK] = { "sclk", "Hz", 0, 100000000000LL, 1845000000 },
	[GTT_V_SCLK_AVG] = { "sclk_average", "Hz", 0, 100000000000LL, 1800000000 },
	[GTT_V_MCLK] = { "mclk", "Hz", 0, 100000000000LL, 875000000 },
	[GTT_V_MCLK_AVG] = { "mclk_average", "Hz", 0, 100000000000LL, 870000000 },
	[GTT_V_POWER_AVG] = { "power_average", "microwatts", 0, U32_MAX, 85000000 },
	[GTT_V_POWER_INPUT] = { "power_input", "microwatts", 0, U32_MAX, 87000000 },
	[GTT_V_VDDGFX] = { "vddgfx", "millivolts", 0, 65535, 1050 },
	[GTT_V_VDDNB] = { "vddnb", "millivolts", 0, 65535, 900 },
	[GTT_V_VDDMEM] = { "vddmem", "millivolts", 0, 65535, 1350 },
	[GTT_V_FAN_RPM] = { "fan_rpm", "RPM", 0, 65535, 1200 },
	[GTT_V_PWM] = { "pwm", "fan PWM level", 0, 255, 102 },
	[GTT_V_GPU_BUSY] = { "gpu_busy_percent", "percent", 0, 100, 37 },
	[GTT_V_MEM_BUSY] = { "mem_busy_percent", "percent", 0, 100, 12 },
	[GTT_V_MM_BUSY] = { "mm_busy_percent", "percent", 0, 100, 5 },
	[GTT_V_VRAM_TOTAL] = { "vram_total", "bytes", 0, S64_MAX, 4294967296LL },
	[GTT_V_VRAM_USED] = { "vram_used", "bytes", 0, S64_MAX, 536870912 },
	[GTT_V_TEMP_EDGE_CRIT] = { "temp_edge_crit", "millidegrees C", -273150, 1000000, 100000 },
	[GTT_V_TEMP_JUNCTION_CRIT] = { "temp_junction_crit", "millidegrees C", -273150, 1000000,
				       110000 },
	[GTT_V_TEMP_MEM_CRIT] = { "temp_mem_crit", "millidegrees C", -273150, 1000000, 105000 },
	[GTT_V_POWER_CAP] = { "power_cap", "microwatts", 0, U32_MAX, 135000000 },
	[GTT_V_POWER_CAP_DEFAULT] = { "power_cap_default", "microwatts", 0, U32_MAX, 135000000 },
	[GTT_V_POWER_CAP_MIN] = { "power_cap_min", "microwatts", 0, U32_MAX, 0 },
	[GTT_V_POWER_CAP_MAX] = { "power_cap_max", "microwatts", 0, U32_MAX, 162000000 },
	[GTT_V_GTT_TOTAL] = { "gtt_total", "bytes", 0, S64_MAX, 8589934592LL },
	[GTT_V_GTT_USED] = { "gtt_used", "bytes", 0, S64_MAX, 25165824 },
	[GTT_V_ENERGY] = { "energy_accumulator", "raw counter", 0, S64_MAX, 123456789 },
	[GTT_V_THROTTLE] = { "throttle_status", "bit mask", 0, U32_MAX, 0 },
	[GTT_V_INDEP_THROTTLE] = { "indep_throttle_status", "bit mask", 0, S64_MAX, 0 },
	[GTT_V_PCIE_WIDTH] = { "pcie_link_width", "lanes", 0, 254, 16 },
	[GTT_V_PCIE_SPEED] = { "pcie_link_speed", "0.1 GT/s", 0, 254, 160 },
	[GTT_V_SYSCLK] = { "system_clock_counter", "ns", 0, S64_MAX, 1000000000000LL },
	[GTT_V_FWTS] = { "firmware_timestamp", "10 ns", 0, S64_MAX, 100000000000LL },
	[GTT_V_METRICS_TRUNCATE] = { "gpu_metrics_truncate", "bytes", 0, PAGE_SIZE, 0 },
	[GTT_V_APU] = { "apu", "0 (dGPU) or 1 (APU)", 0, 1, 0, true },
	/* IP_VERSION(major, minor, rev) as amdgpu packs it; Navi 14: 10.1.1 */
	[GTT_V_GC_VERSION] = { "gc_version", "IP_VERSION, (major << 16 | minor << 8 | rev)",
			      0x060000, 0xffffff, 0x0a0101, true },
	[GTT_V_NO_FAN] = { "no_fan", "0 or 1 (adev->pm.no_fan)", 0, 1, 0, true },
	[GTT_V_IN_SUSPEND] = { "in_suspend", "0 or 1 (system suspend in progress)", 0, 1, 0 },
	/* 0: QEMU's own id; e.g. 0x7340 (Navi 14) or 0x744c (Navi 31) */
	[GTT_V_PCI_DEVICE] = { "pci_device_id", "PCI device id shown, 0 for the device's own",
			      0, 0xffff, 0 },
};

/* amdgpu's IP_VERSION() (amdgpu.h) */
#define GTT_IP_VERSION(mj, mn, rv) ((mj) << 16 | (mn) << 8 | (rv))

/* The attributes presented; each can be hidden or made to fail. */
enum gtt_attr_id {
	GTT_A_TEMP1,
	GTT_A_TEMP2,
	GTT_A_TEMP3,
	GTT_A_FREQ1,
	GTT_A_FREQ2,
	GTT_A_POWER1_AVERAGE,
	GTT_A_POWER1_INPUT,
	GTT_A_IN0,
	GTT_A_IN1,
	GTT_A_FAN1,
	GTT_A_PWM1,
	GTT_A_GPU_BUSY,
	GTT_A_MEM_BUSY,
	GTT_A_VRAM_TOTAL,
	GTT_A_VRAM_USED,
	GTT_A_GPU_METRICS,
	GTT_A_TEMP1_CRIT,
	GTT_A_TEMP2_CRIT,
	GTT_A_TEMP3_CRIT,
	GTT_A_POWER1_CAP,
	GTT_A_POWER1_CAP_DEFAULT,
	GTT_A_POWER1_CAP_MIN,
	GTT_A_POWER1_CAP_MAX,
	GTT_A_GTT_TOTAL,
	GTT_A_GTT_USED,
	GTT_A_NR
};

/**
 * struct gtt_attr_info - what an attribute shows
 * @name: file name, also the name of its hide/ and fail/ knobs
 * @label: content of its _label file, or NULL
 * @val: the value it shows (unused for gpu_metrics)
 * @wakes: reads take a runtime PM reference, as in amdgpu
 */
struct gtt_attr_info {
	const char *name;
	const char *label;
	enum gtt_val val;
	bool wakes;
};

static const struct gtt_attr_info gtt_attrs[GTT_A_NR] = {
	[GTT_A_TEMP1] = { "temp1_input", "edge", GTT_V_TEMP_EDGE, true },
	[GTT_A_TEMP2] = { "temp2_input", "junction", GTT_V_TEMP_JUNCTION, true },
	[GTT_A_TEMP3] = { "temp3_input", "mem", GTT_V_TEMP_MEM, true },
	[GTT_A_FREQ1] = { "freq1_input", "sclk", GTT_V_SCLK, true },
	[GTT_A_FREQ2] = { "freq2_input", "mclk", GTT_V_MCLK, true },
	[GTT_A_POWER1_AVERAGE] = { "power1_average", NULL, GTT_V_POWER_AVG, true },
	[GTT_A_POWER1_INPUT] = { "power1_input", NULL, GTT_V_POWER_INPUT, true },
	[GTT_A_IN0] = { "in0_input", "vddgfx", GTT_V_VDDGFX, true },
	[GTT_A_IN1] = { "in1_input", "vddnb", GTT_V_VDDNB, true },
	[GTT_A_FAN1] = { "fan1_input", NULL, GTT_V_FAN_RPM, true },
	[GTT_A_PWM1] = { "pwm1", NULL, GTT_V_PWM, true },
	[GTT_A_GPU_BUSY] = { "gpu_busy_percent", NULL, GTT_V_GPU_BUSY, true },
	[GTT_A_MEM_BUSY] = { "mem_busy_percent", NULL, GTT_V_MEM_BUSY, true },
	[GTT_A_VRAM_TOTAL] = { "mem_info_vram_total", NULL, GTT_V_VRAM_TOTAL, false },
	[GTT_A_VRAM_USED] = { "mem_info_vram_used", NULL, GTT_V_VRAM_USED, false },
	[GTT_A_GPU_METRICS] = { "gpu_metrics", NULL, GTT_V_NR, true },
	/* amdgpu_hwmon_show_temp_thresh(): a cached value, no runtime PM */
	[GTT_A_TEMP1_CRIT] = { "temp1_crit", NULL, GTT_V_TEMP_EDGE_CRIT, false },
	[GTT_A_TEMP2_CRIT] = { "temp2_crit", NULL, GTT_V_TEMP_JUNCTION_CRIT, false },
	[GTT_A_TEMP3_CRIT] = { "temp3_crit", NULL, GTT_V_TEMP_MEM_CRIT, false },
	/* amdgpu_hwmon_show_power_cap_generic(): asks the SMU */
	[GTT_A_POWER1_CAP] = { "power1_cap", NULL, GTT_V_POWER_CAP, true },
	[GTT_A_POWER1_CAP_DEFAULT] = { "power1_cap_default", NULL, GTT_V_POWER_CAP_DEFAULT, true },
	[GTT_A_POWER1_CAP_MIN] = { "power1_cap_min", NULL, GTT_V_POWER_CAP_MIN, true },
	[GTT_A_POWER1_CAP_MAX] = { "power1_cap_max", NULL, GTT_V_POWER_CAP_MAX, true },
	[GTT_A_GTT_TOTAL] = { "mem_info_gtt_total", NULL, GTT_V_GTT_TOTAL, false },
	[GTT_A_GTT_USED] = { "mem_info_gtt_used", NULL, GTT_V_GTT_USED, false },
};

struct gtt_dev;

/**
 * struct gtt_knob_ref - what one debugfs file of a device refers to
 * @gd: the device
 * @id: an enum gtt_val or enum gtt_attr_id, by file
 */
struct gtt_knob_ref {
	struct gtt_dev *gd;
	unsigned int id;
};

/**
 * struct gtt_dev - one bound device
 * @pdev: the PCI device
 * @hwmon: the hwmon device named "amdgpu"
 * @debugfs: this device's knob directory
 * @lock: protects @values, @hide, @fail, @frev and @crev. Held only to
 *	copy values in or out, never across sysfs or runtime PM calls.
 * @vis_lock: serialises sysfs_update_group() calls on both groups; taken
 *	before @lock (is_visible takes @lock under it), never inside it.
 * @values: current value of each knob, indexed by enum gtt_val
 * @hide: attribute hidden, indexed by enum gtt_attr_id
 * @fail: positive errno its reads fail with, 0 for none
 * @frev: gpu_metrics format revision
 * @crev: gpu_metrics content revision
 * @own_device: the PCI device id before any pci_device_id knob write
 * @suspended: set by the runtime suspend callback, cleared by resume
 * @runtime_suspends: runtime suspend callback count
 * @runtime_resumes: runtime resume callback count
 * @reads: reads of attributes that take a runtime PM reference
 * @vref: debugfs context of each value file
 * @href: debugfs context of each hide/ file
 * @fref: debugfs context of each fail/ file
 *
 * Lifetime: allocated in probe, freed in remove after the debugfs files
 * (which drain their handlers on removal), the hwmon device and the PCI
 * attribute group (whose removal drains readers) are gone.
 */
struct gtt_dev {
	struct pci_dev *pdev;
	u16 own_device;
	struct device *hwmon;
	struct dentry *debugfs;
	struct mutex lock; /* see above */
	struct mutex vis_lock; /* see above */
	s64 values[GTT_V_NR];
	bool hide[GTT_A_NR];
	int fail[GTT_A_NR];
	u8 frev;
	u8 crev;
	bool suspended;
	atomic_t runtime_suspends;
	atomic_t runtime_resumes;
	atomic_t reads;
	struct gtt_knob_ref vref[GTT_V_NR];
	struct gtt_knob_ref href[GTT_A_NR];
	struct gtt_knob_ref fref[GTT_A_NR];
};

static struct dentry *gtt_debugfs_root;

/*
 * Whether amdgpu would show attribute @id; called with gd->lock held. The
 * rules of 6.12's amdgpu_pm.c that decide what gputelemetry reads:
 * hwmon_attributes_visible() for the hwmon files, default_attr_update()
 * for the PCI device's, by GC IP version (gc_version), APU or not (apu)
 * and fan or not (no_fan). Families are told apart by GC version: SI is
 * GC 6, KV (the family of the GC 7 APUs) GC 7 with apu.
 */
static bool gtt_attr_present(struct gtt_dev *gd, enum gtt_attr_id id)
{
	bool apu = gd->values[GTT_V_APU];
	u32 gc = gd->values[GTT_V_GC_VERSION];
	bool gc943 = gc == GTT_IP_VERSION(9, 4, 3) || gc == GTT_IP_VERSION(9, 4, 4);

	lockdep_assert_held(&gd->lock);
	if (gd->hide[id])
		return false;
	switch (id) {
	case GTT_A_IN0: /* vddgfx: not on SI and KV, nor GC 9.4.3/9.4.4 */
		return !(gc < GTT_IP_VERSION(7, 0, 0) ||
			 (apu && gc < GTT_IP_VERSION(8, 0, 0)) || gc943);
	case GTT_A_IN1: /* only APUs other than GC 9.4.3/9.4.4 have vddnb */
		return apu && !gc943;
	case GTT_A_TEMP2: /* only SOC15 dGPUs have hotspot and mem temperatures */
	case GTT_A_TEMP3:
	case GTT_A_TEMP2_CRIT:
	case GTT_A_TEMP3_CRIT:
		return gc943 || (!apu && gc >= GTT_IP_VERSION(9, 0, 0));
	case GTT_A_FREQ2: /* no mclk on APUs other than GC 9.4.3 */
		return !apu || gc == GTT_IP_VERSION(9, 4, 3);
	case GTT_A_FAN1: /* no fan attributes on APUs, nor without a fan */
	case GTT_A_PWM1:
		return !apu && !gd->values[GTT_V_NO_FAN];
	case GTT_A_MEM_BUSY: /* not on APUs (but GC 9.4.3), nor on Vega10 */
		return !(apu && gc != GTT_IP_VERSION(9, 4, 3)) &&
		       gc != GTT_IP_VERSION(9, 0, 1);
	case GTT_A_GPU_METRICS: /* GC 9.1 (Raven) on */
		return gc >= GTT_IP_VERSION(9, 1, 0);
	default:
		return true;
	}
}

/**
 * struct gtt_attr - a presented attribute
 * @dev_attr: the sysfs attribute
 * @id: which one
 */
struct gtt_attr {
	struct device_attribute dev_attr;
	enum gtt_attr_id id;
};

#define to_gt_attr(da) container_of(da, struct gtt_attr, dev_attr)

/*
 * Guard, get: as amdgpu's handlers (amdgpu_hwmon_get_sensor_generic() and
 * the other getters of amdgpu_pm.c). A system suspend in progress refuses
 * the read with -EPERM on every kernel ("adev->in_suspend &&
 * !adev->in_runpm"). Then up to 6.12 pm_runtime_get_sync() resumes a
 * suspended device; from 6.13 pm_runtime_get_if_active() refuses it with
 * -EPERM (compat.h, GT_AMDGPU_SENSOR_READ_WAKES; the sensor_read_wakes
 * parameter chooses either on any kernel).
 */
static int gtt_get(struct gtt_dev *gd, enum gtt_attr_id id)
{
	struct device *dev = &gd->pdev->dev;
	int ret;

	if (!gtt_attrs[id].wakes)
		return 0;
	if (READ_ONCE(gd->values[GTT_V_IN_SUSPEND]))
		return -EPERM;
	if (sensor_read_wakes) {
		ret = pm_runtime_get_sync(dev);
		if (ret < 0) {
			pm_runtime_put_autosuspend(dev);
			return ret;
		}
	} else {
		ret = gt_pm_runtime_get_if_active(dev);
		if (ret <= 0)
			return ret ?: -EPERM;
	}
	atomic_inc(&gd->reads);
	return 0;
}

/* As amdgpu: a busy mark, except in 6.13 and 6.14 (compat.h). */
static void gtt_put(struct gtt_dev *gd, enum gtt_attr_id id)
{
	struct device *dev = &gd->pdev->dev;

	if (!gtt_attrs[id].wakes)
		return;
	if (GT_AMDGPU_SENSOR_READ_MARKS_BUSY)
		pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);
}

static ssize_t gtt_value_show(struct device *dev, struct device_attribute *da,
			      char *buf)
{
	struct gtt_dev *gd = dev_get_drvdata(dev);
	enum gtt_attr_id id = to_gt_attr(da)->id;
	s64 val;
	int ret;

	ret = gtt_get(gd, id);
	if (ret)
		return ret;
	mutex_lock(&gd->lock);
	ret = -gd->fail[id];
	val = gd->values[gtt_attrs[id].val];
	mutex_unlock(&gd->lock);
	gtt_put(gd, id);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%lld\n", val);
}

static ssize_t gtt_label_show(struct device *dev, struct device_attribute *da,
			      char *buf)
{
	return sysfs_emit(buf, "%s\n", gtt_attrs[to_gt_attr(da)->id].label);
}

/* As amdgpu's: the blob's raw bytes, at most PAGE_SIZE - 1 of them. */
static ssize_t gtt_metrics_show(struct device *dev, struct device_attribute *da,
				char *buf)
{
	struct gtt_dev *gd = dev_get_drvdata(dev);
	enum gtt_attr_id id = to_gt_attr(da)->id;
	s64 v[GTT_V_NR];
	u8 frev, crev;
	size_t size;
	int ret;

	ret = gtt_get(gd, id);
	if (ret)
		return ret;
	mutex_lock(&gd->lock);
	ret = -gd->fail[id];
	memcpy(v, gd->values, sizeof(v));
	frev = gd->frev;
	crev = gd->crev;
	mutex_unlock(&gd->lock);
	gtt_put(gd, id);
	if (ret)
		return ret;

	size = gtt_metrics_build(buf, v, frev, crev);
	return size - min_t(s64, v[GTT_V_METRICS_TRUNCATE], size);
}

#define GTT_ATTR(_name, _id, _show)					\
	static struct gtt_attr gtt_attr_##_name = {			\
		.dev_attr = __ATTR(_name, 0444, _show, NULL),		\
		.id = _id,						\
	}

GTT_ATTR(temp1_input, GTT_A_TEMP1, gtt_value_show);
GTT_ATTR(temp1_label, GTT_A_TEMP1, gtt_label_show);
GTT_ATTR(temp2_input, GTT_A_TEMP2, gtt_value_show);
GTT_ATTR(temp2_label, GTT_A_TEMP2, gtt_label_show);
GTT_ATTR(temp3_input, GTT_A_TEMP3, gtt_value_show);
GTT_ATTR(temp3_label, GTT_A_TEMP3, gtt_label_show);
GTT_ATTR(freq1_input, GTT_A_FREQ1, gtt_value_show);
GTT_ATTR(freq1_label, GTT_A_FREQ1, gtt_label_show);
GTT_ATTR(freq2_input, GTT_A_FREQ2, gtt_value_show);
GTT_ATTR(freq2_label, GTT_A_FREQ2, gtt_label_show);
GTT_ATTR(power1_average, GTT_A_POWER1_AVERAGE, gtt_value_show);
GTT_ATTR(power1_input, GTT_A_POWER1_INPUT, gtt_value_show);
GTT_ATTR(in0_input, GTT_A_IN0, gtt_value_show);
GTT_ATTR(in0_label, GTT_A_IN0, gtt_label_show);
GTT_ATTR(in1_input, GTT_A_IN1, gtt_value_show);
GTT_ATTR(in1_label, GTT_A_IN1, gtt_label_show);
GTT_ATTR(fan1_input, GTT_A_FAN1, gtt_value_show);
GTT_ATTR(temp1_crit, GTT_A_TEMP1_CRIT, gtt_value_show);
GTT_ATTR(temp2_crit, GTT_A_TEMP2_CRIT, gtt_value_show);
GTT_ATTR(temp3_crit, GTT_A_TEMP3_CRIT, gtt_value_show);
GTT_ATTR(power1_cap, GTT_A_POWER1_CAP, gtt_value_show);
GTT_ATTR(power1_cap_default, GTT_A_POWER1_CAP_DEFAULT, gtt_value_show);
GTT_ATTR(power1_cap_min, GTT_A_POWER1_CAP_MIN, gtt_value_show);
GTT_ATTR(power1_cap_max, GTT_A_POWER1_CAP_MAX, gtt_value_show);
/*
 * pwm1 is 0644 in amdgpu; a write while the fan is under automatic
 * control (the only mode here) fails as amdgpu_hwmon_set_pwm1() does.
 */
static ssize_t gtt_pwm1_store(struct device *dev, struct device_attribute *da,
			      const char *buf, size_t count)
{
	return -EINVAL;
}

static struct gtt_attr gtt_attr_pwm1 = {
	.dev_attr = __ATTR(pwm1, 0644, gtt_value_show, gtt_pwm1_store),
	.id = GTT_A_PWM1,
};
GTT_ATTR(gpu_busy_percent, GTT_A_GPU_BUSY, gtt_value_show);
GTT_ATTR(mem_busy_percent, GTT_A_MEM_BUSY, gtt_value_show);
GTT_ATTR(mem_info_vram_total, GTT_A_VRAM_TOTAL, gtt_value_show);
GTT_ATTR(mem_info_vram_used, GTT_A_VRAM_USED, gtt_value_show);
GTT_ATTR(mem_info_gtt_total, GTT_A_GTT_TOTAL, gtt_value_show);
GTT_ATTR(mem_info_gtt_used, GTT_A_GTT_USED, gtt_value_show);
GTT_ATTR(gpu_metrics, GTT_A_GPU_METRICS, gtt_metrics_show);

static umode_t gtt_is_visible(struct kobject *kobj, struct attribute *attr,
			      int n)
{
	struct gtt_dev *gd = dev_get_drvdata(kobj_to_dev(kobj));
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);
	bool present;

	mutex_lock(&gd->lock);
	present = gtt_attr_present(gd, to_gt_attr(da)->id);
	mutex_unlock(&gd->lock);
	return present ? attr->mode : 0;
}

static struct attribute *gtt_hwmon_attrs[] = {
	&gtt_attr_temp1_input.dev_attr.attr,
	&gtt_attr_temp1_label.dev_attr.attr,
	&gtt_attr_temp2_input.dev_attr.attr,
	&gtt_attr_temp2_label.dev_attr.attr,
	&gtt_attr_temp3_input.dev_attr.attr,
	&gtt_attr_temp3_label.dev_attr.attr,
	&gtt_attr_freq1_input.dev_attr.attr,
	&gtt_attr_freq1_label.dev_attr.attr,
	&gtt_attr_freq2_input.dev_attr.attr,
	&gtt_attr_freq2_label.dev_attr.attr,
	&gtt_attr_power1_average.dev_attr.attr,
	&gtt_attr_power1_input.dev_attr.attr,
	&gtt_attr_in0_input.dev_attr.attr,
	&gtt_attr_in0_label.dev_attr.attr,
	&gtt_attr_in1_input.dev_attr.attr,
	&gtt_attr_in1_label.dev_attr.attr,
	&gtt_attr_fan1_input.dev_attr.attr,
	&gtt_attr_pwm1.dev_attr.attr,
	&gtt_attr_temp1_crit.dev_attr.attr,
	&gtt_attr_temp2_crit.dev_attr.attr,
	&gtt_attr_temp3_crit.dev_attr.attr,
	&gtt_attr_power1_cap.dev_attr.attr,
	&gtt_attr_power1_cap_default.dev_attr.attr,
	&gtt_attr_power1_cap_min.dev_attr.attr,
	&gtt_attr_power1_cap_max.dev_attr.attr,
	NULL
};

static const struct attribute_group gtt_hwmon_group = {
	.attrs = gtt_hwmon_attrs,
	.is_visible = gtt_is_visible,
};

static const struct attribute_group *gtt_hwmon_groups[] = {
	&gtt_hwmon_group,
	NULL
};

static struct attribute *gtt_pci_attrs[] = {
	&gtt_attr_gpu_busy_percent.dev_attr.attr,
	&gtt_attr_mem_busy_percent.dev_attr.attr,
	&gtt_attr_mem_info_vram_total.dev_attr.attr,
	&gtt_attr_mem_info_vram_used.dev_attr.attr,
	&gtt_attr_mem_info_gtt_total.dev_attr.attr,
	&gtt_attr_mem_info_gtt_used.dev_attr.attr,
	&gtt_attr_gpu_metrics.dev_attr.attr,
	NULL
};

static const struct attribute_group gtt_pci_group = {
	.attrs = gtt_pci_attrs,
	.is_visible = gtt_is_visible,
};

/* Re-evaluates is_visible for every attribute, adding or removing files. */
static int gtt_update_visibility(struct gtt_dev *gd)
{
	int ret, ret2;

	mutex_lock(&gd->vis_lock);
	ret = sysfs_update_group(&gd->hwmon->kobj, &gtt_hwmon_group);
	ret2 = sysfs_update_group(&gd->pdev->dev.kobj, &gtt_pci_group);
	mutex_unlock(&gd->vis_lock);
	return ret ? ret : ret2;
}

/* Longest accepted knob input: a sign, 19 digits or 0x and 16, newline. */
#define GTT_KNOB_MAX_INPUT 24

static __printf(4, 5)
ssize_t gtt_knob_emit(char __user *ubuf, size_t count, loff_t *ppos,
		      const char *fmt, ...)
{
	char tmp[32];
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(tmp, sizeof(tmp), fmt, args);
	va_end(args);
	return simple_read_from_buffer(ubuf, count, ppos, tmp, len);
}

static ssize_t gtt_value_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct gtt_knob_ref *ref = file->private_data;
	struct gtt_dev *gd = ref->gd;
	s64 val;

	mutex_lock(&gd->lock);
	val = gd->values[ref->id];
	mutex_unlock(&gd->lock);
	return gtt_knob_emit(ubuf, count, ppos, "%lld\n", val);
}

static ssize_t gtt_value_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	const struct gtt_knob_ref *ref = file->private_data;
	const struct gtt_val_desc *d = &gtt_vals[ref->id];
	struct gtt_dev *gd = ref->gd;
	s64 val;
	int ret;

	ret = count > GTT_KNOB_MAX_INPUT ? -EINVAL :
	      kstrtoll_from_user(ubuf, count, 0, &val);
	if (ret || val < d->min || val > d->max) {
		pr_err("%s: %s: expected one integer from %lld to %lld (%s)\n",
		       pci_name(gd->pdev), d->name, d->min, d->max, d->unit);
		return -EINVAL;
	}
	mutex_lock(&gd->lock);
	gd->values[ref->id] = val;
	/*
	 * What the PCI core shows as the device id, so that gputelemetry
	 * takes the device for that ASIC (asic.c). A test-only lie about a
	 * QEMU device: nothing matches drivers on it after probe.
	 */
	if (ref->id == GTT_V_PCI_DEVICE)
		WRITE_ONCE(gd->pdev->device, val ? val : gd->own_device);
	mutex_unlock(&gd->lock);
	if (d->visibility) {
		ret = gtt_update_visibility(gd);
		if (ret)
			return ret;
	}
	return count;
}

static const struct file_operations gtt_value_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = gtt_value_read,
	.write = gtt_value_write,
	.llseek = default_llseek,
};

/*
 * hide/<attr> and fail/<attr>: one integer each (hide a flag, fail an
 * errno), read and stored the same way under gd->lock.
 */
static ssize_t gtt_flag_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos, bool fail)
{
	const struct gtt_knob_ref *ref = file->private_data;
	struct gtt_dev *gd = ref->gd;
	int val;

	mutex_lock(&gd->lock);
	val = fail ? gd->fail[ref->id] : gd->hide[ref->id];
	mutex_unlock(&gd->lock);
	return gtt_knob_emit(ubuf, count, ppos, "%d\n", val);
}

static void gtt_flag_store(const struct gtt_knob_ref *ref, bool fail, int val)
{
	struct gtt_dev *gd = ref->gd;

	mutex_lock(&gd->lock);
	if (fail)
		gd->fail[ref->id] = val;
	else
		gd->hide[ref->id] = val;
	mutex_unlock(&gd->lock);
}

static ssize_t gtt_hide_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	return gtt_flag_read(file, ubuf, count, ppos, false);
}

static ssize_t gtt_hide_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct gtt_knob_ref *ref = file->private_data;
	bool hide;
	int ret;

	ret = count > GTT_KNOB_MAX_INPUT ? -EINVAL :
	      kstrtobool_from_user(ubuf, count, &hide);
	if (ret) {
		pr_err("%s: hide/%s: expected 1 (hide) or 0 (show)\n",
		       pci_name(ref->gd->pdev), gtt_attrs[ref->id].name);
		return -EINVAL;
	}
	gtt_flag_store(ref, false, hide);
	ret = gtt_update_visibility(ref->gd);
	return ret ? ret : count;
}

static const struct file_operations gtt_hide_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = gtt_hide_read,
	.write = gtt_hide_write,
	.llseek = default_llseek,
};

static ssize_t gtt_fail_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	return gtt_flag_read(file, ubuf, count, ppos, true);
}

static ssize_t gtt_fail_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct gtt_knob_ref *ref = file->private_data;
	int ret, err;

	ret = count > GTT_KNOB_MAX_INPUT ? -EINVAL :
	      kstrtoint_from_user(ubuf, count, 0, &err);
	if (ret || err < 0 || err > MAX_ERRNO) {
		pr_err("%s: fail/%s: expected an errno from 1 to %d, or 0 for none\n",
		       pci_name(ref->gd->pdev), gtt_attrs[ref->id].name, MAX_ERRNO);
		return -EINVAL;
	}
	gtt_flag_store(ref, true, err);
	return count;
}

static const struct file_operations gtt_fail_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = gtt_fail_read,
	.write = gtt_fail_write,
	.llseek = default_llseek,
};

static ssize_t gtt_rev_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct gtt_dev *gd = file->private_data;
	u8 frev, crev;

	mutex_lock(&gd->lock);
	frev = gd->frev;
	crev = gd->crev;
	mutex_unlock(&gd->lock);
	return gtt_knob_emit(ubuf, count, ppos, "%u.%u\n", frev, crev);
}

static ssize_t gtt_rev_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct gtt_dev *gd = file->private_data;
	char tmp[GTT_KNOB_MAX_INPUT + 1];
	unsigned int frev, crev;
	char extra;

	if (count > GTT_KNOB_MAX_INPUT)
		goto bad;
	if (copy_from_user(tmp, ubuf, count))
		return -EFAULT;
	tmp[count] = '\0';
	if (sscanf(strim(tmp), "%u.%u%c", &frev, &crev, &extra) != 2 ||
	    frev > U8_MAX || crev > U8_MAX)
		goto bad;
	mutex_lock(&gd->lock);
	gd->frev = frev;
	gd->crev = crev;
	mutex_unlock(&gd->lock);
	return count;
bad:
	pr_err("%s: gpu_metrics_rev: expected <format>.<content>, each 0..255 (1.0-1.5, 2.0-2.4 and 3.0 are known layouts)\n",
	       pci_name(gd->pdev));
	return -EINVAL;
}

static const struct file_operations gtt_rev_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = gtt_rev_read,
	.write = gtt_rev_write,
	.llseek = default_llseek,
};

static void gtt_debugfs_add(struct gtt_dev *gd)
{
	struct dentry *hide, *fail;
	unsigned int i;

	gd->debugfs = debugfs_create_dir(pci_name(gd->pdev), gtt_debugfs_root);
	for (i = 0; i < GTT_V_NR; i++) {
		gd->vref[i].gd = gd;
		gd->vref[i].id = i;
		debugfs_create_file(gtt_vals[i].name, 0600, gd->debugfs,
				    &gd->vref[i], &gtt_value_fops);
	}
	hide = debugfs_create_dir("hide", gd->debugfs);
	fail = debugfs_create_dir("fail", gd->debugfs);
	for (i = 0; i < GTT_A_NR; i++) {
		gd->href[i].gd = gd;
		gd->href[i].id = i;
		debugfs_create_file(gtt_attrs[i].name, 0600, hide, &gd->href[i],
				    &gtt_hide_fops);
		gd->fref[i].gd = gd;
		gd->fref[i].id = i;
		debugfs_create_file(gtt_attrs[i].name, 0600, fail, &gd->fref[i],
				    &gtt_fail_fops);
	}
	debugfs_create_file("gpu_metrics_rev", 0600, gd->debugfs, gd,
			    &gtt_rev_fops);
	debugfs_create_atomic_t("runtime_suspends", 0400, gd->debugfs,
				&gd->runtime_suspends);
	debugfs_create_atomic_t("runtime_resumes", 0400, gd->debugfs,
				&gd->runtime_resumes);
	debugfs_create_atomic_t("reads", 0400, gd->debugfs, &gd->reads);
	debugfs_create_bool("runtime_suspended", 0400, gd->debugfs,
			    &gd->suspended);
}

static int gtt_runtime_suspend(struct device *dev)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	struct gtt_dev *gd = pci_get_drvdata(pdev);

	/*
	 * With the state saved, pci_pm_runtime_suspend() leaves the power
	 * state alone: no write to the device's PM capability.
	 */
	pci_save_state(pdev);
	if (gd) {
		WRITE_ONCE(gd->suspended, true);
		atomic_inc(&gd->runtime_suspends);
	}
	return 0;
}

static int gtt_runtime_resume(struct device *dev)
{
	struct gtt_dev *gd = pci_get_drvdata(to_pci_dev(dev));

	if (gd) {
		WRITE_ONCE(gd->suspended, false);
		atomic_inc(&gd->runtime_resumes);
	}
	return 0;
}

/*
 * amdgpu_pmops_runtime_idle() (amdgpu_drv.c, 6.1 to mainline): marks the
 * device busy and requests an autosuspend; with no display to check, the
 * PM core then autosuspends it after the delay. Run by pm_runtime_put()
 * and pm_runtime_idle(), not by pm_runtime_put_autosuspend().
 */
static int gtt_runtime_idle(struct device *dev)
{
	pm_runtime_mark_last_busy(dev);
	pm_runtime_autosuspend(dev);
	return 0;
}

static const struct dev_pm_ops gtt_pm_ops = {
	RUNTIME_PM_OPS(gtt_runtime_suspend, gtt_runtime_resume, gtt_runtime_idle)
};

static int gtt_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct gtt_dev *gd;
	unsigned int i;
	int ret;

	gd = kzalloc(sizeof(*gd), GFP_KERNEL);
	if (!gd)
		return -ENOMEM;
	gd->pdev = pdev;
	gd->own_device = pdev->device;
	mutex_init(&gd->lock);
	mutex_init(&gd->vis_lock);
	for (i = 0; i < GTT_V_NR; i++)
		gd->values[i] = gtt_vals[i].def;
	gd->hide[GTT_A_POWER1_INPUT] = true; /* Linux 6.1 has no power1_input */
	gd->frev = 1; /* Navi 1x: gpu_metrics_v1_3 */
	gd->crev = 3;
	atomic_set(&gd->runtime_suspends, 0);
	atomic_set(&gd->runtime_resumes, 0);
	atomic_set(&gd->reads, 0);
	pci_set_drvdata(pdev, gd);

	ret = device_add_group(dev, &gtt_pci_group);
	if (ret)
		goto err_free;
	gd->hwmon = hwmon_device_register_with_groups(dev, "amdgpu", gd,
						      gtt_hwmon_groups);
	if (IS_ERR(gd->hwmon)) {
		ret = PTR_ERR(gd->hwmon);
		goto err_remove_group;
	}
	gtt_debugfs_add(gd);

	/* amdgpu_driver_load_kms(): autosuspend, allowed, reference dropped */
	pm_runtime_set_autosuspend_delay(dev, autosuspend_ms);
	pm_runtime_use_autosuspend(dev);
	if (runpm)
		pm_runtime_allow(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);

	dev_info(dev, "test driver: presents amdgpu's telemetry interface, values from debugfs\n");
	return 0;

err_remove_group:
	device_remove_group(dev, &gtt_pci_group);
err_free:
	mutex_destroy(&gd->vis_lock);
	mutex_destroy(&gd->lock);
	kfree(gd);
	return ret;
}

static void gtt_remove(struct pci_dev *pdev)
{
	struct gtt_dev *gd = pci_get_drvdata(pdev);
	struct device *dev = &pdev->dev;

	/* Knob writers finish before the files they update go away. */
	debugfs_remove_recursive(gd->debugfs);
	pdev->device = gd->own_device;

	/*
	 * The PCI core resumed the device before calling us; take back the
	 * reference probe dropped and restore the PCI default ("on").
	 */
	pm_runtime_get_noresume(dev);
	pm_runtime_forbid(dev);
	pm_runtime_dont_use_autosuspend(dev);

	/* Both removals wait for readers inside a show() to leave. */
	hwmon_device_unregister(gd->hwmon);
	device_remove_group(dev, &gtt_pci_group);

	mutex_destroy(&gd->vis_lock);
	mutex_destroy(&gd->lock);
	kfree(gd);
}

/*
 * QEMU's ati-vga: Rage 128 Pro (default) and Radeon 7000 (model=rv100).
 * No MODULE_DEVICE_TABLE: the module is never loaded automatically.
 */
static const struct pci_device_id gtt_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_ATI, 0x5046) },
	{ PCI_DEVICE(PCI_VENDOR_ID_ATI, 0x5159) },
	{ }
};

static struct pci_driver gtt_driver = {
	.name = KBUILD_MODNAME,
	.id_table = gtt_ids,
	.probe = gtt_probe,
	.remove = gtt_remove,
	.driver.pm = pm_ptr(&gtt_pm_ops),
};

static int __init gtt_init(void)
{
	int ret;

	if (autosuspend_ms < 0 || autosuspend_ms > 60000) {
		pr_err("autosuspend_ms=%d is out of range: use 0..60000\n",
		       autosuspend_ms);
		return -EINVAL;
	}
	gtt_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	ret = pci_register_driver(&gtt_driver);
	if (ret)
		debugfs_remove_recursive(gtt_debugfs_root);
	return ret;
}
module_init(gtt_init);

static void __exit gtt_exit(void)
{
	pci_unregister_driver(&gtt_driver);
	debugfs_remove_recursive(gtt_debugfs_root);
}
module_exit(gtt_exit);

MODULE_DESCRIPTION("Test driver presenting amdgpu's telemetry interface on QEMU's ati-vga");
MODULE_LICENSE("GPL");
