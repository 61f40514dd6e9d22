// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: simulated GPUs, in the netdevsim pattern.
 *
 * "new_device" and "del_device" in the debugfs root create and remove
 * devices sim<id> from a profile (plain data, below). Each simulated device
 * is a "sim" source: its readings are deterministic functions of time and
 * of its "load" knob (formulas in gputelemetry.rst), and "fail_sensors"
 * makes chosen readings fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/pci_ids.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "gputelemetry.h"

#define GT_SIM_ID_MAX		255
/* The temperature closes half its gap to the target every 2 s. */
#define GT_SIM_HALF_LIFE_NS	(2 * NSEC_PER_SEC)
/* Period of the ripple on sclk and power. */
#define GT_SIM_RIPPLE_NS	NSEC_PER_SEC

/**
 * struct gt_sim_profile - a simulated GPU, as plain data
 * @name: profile name written to "new_device"
 * @device_id: PCI device id (vendor 0x1002), looked up in the ASIC table
 * @revision: PCI revision
 * @subsys_vendor_id: PCI subsystem vendor id
 * @subsys_device_id: PCI subsystem device id
 * @marketing_name: product name
 * @cu_active: active compute units
 * @vram_type: memory type
 * @vram_bus_width: memory bus width in bits
 * @vram_size: VRAM in bytes
 * @vram_used_idle: VRAM in use at load 0, in bytes
 * @sclk_idle: sclk at load 0, in MHz
 * @sclk_max: top sclk DPM level, in MHz
 * @mclk_idle: mclk at load 0, in MHz
 * @mclk_max: mclk under load, in MHz
 * @power_idle: average power at load 0, in mW
 * @power_max: average power at load 100, in mW
 * @vddgfx_min: vddgfx at sclk_idle, in mV
 * @vddgfx_max: vddgfx at sclk_max, in mV
 * @temp_idle: edge temperature settled at load 0, in mC
 * @temp_max: edge temperature settled at load 100, in mC
 * @fan_min: fan speed at temp_idle, in rpm
 * @fan_max: fan speed at temp_max, in rpm
 * @temp_crit: critical temperature of the edge, junction and memory
 *	sensors, in mC (amdgpu's temp1..3_crit)
 * @power_cap: power cap in force, the board's default, in mW
 * @power_cap_max: highest power cap allowed, in mW (the lowest is 0)
 * @pcie_speed: PCIe link speed
 * @pcie_width: PCIe link width in lanes
 * @pcie_max_speed: the device's highest PCIe link speed
 * @pcie_max_width: the device's widest PCIe link, in lanes
 * @sensors: bit (1 << enum gt_sensor) per reading the GPU has
 */
struct gt_sim_profile {
	const char *name;
	u16 device_id;
	u8 revision;
	u16 subsys_vendor_id;
	u16 subsys_device_id;
	const char *marketing_name;
	u32 cu_active;
	const char *vram_type;
	u32 vram_bus_width;
	u64 vram_size;
	u64 vram_used_idle;
	u32 sclk_idle;
	u32 sclk_max;
	u32 mclk_idle;
	u32 mclk_max;
	u32 power_idle;
	u32 power_max;
	u32 vddgfx_min;
	u32 vddgfx_max;
	s32 temp_idle;
	s32 temp_max;
	u32 fan_min;
	u32 fan_max;
	s32 temp_crit[3];
	u32 power_cap;
	u32 power_cap_max;
	const char *pcie_speed;
	u32 pcie_width;
	const char *pcie_max_speed;
	u32 pcie_max_width;
	u32 sensors;
};

/*
 * The discrete GPUs simulated here: every reading gt_sim_read() makes a
 * value for but vddnb, which only APUs have, and power_input, which Navi
 * 1x firmware lacks (amdgpu shows their SMU's average power only; the
 * Polaris profile swaps the two, below). A reading added to GT_SENSORS is
 * missing on simulated GPUs until it gets a value and a bit here.
 */
#define GT_SIM_DGPU_SENSORS	(BIT(GT_S_TEMP_EDGE) | BIT(GT_S_TEMP_JUNCTION) | \
				 BIT(GT_S_TEMP_MEM) | BIT(GT_S_SCLK) | BIT(GT_S_MCLK) | \
				 BIT(GT_S_POWER_AVG) | BIT(GT_S_VDDGFX) | BIT(GT_S_FAN) | \
				 BIT(GT_S_FAN_PWM) | BIT(GT_S_GPU_BUSY) | \
				 BIT(GT_S_MEM_BUSY) | BIT(GT_S_VRAM_USED) | \
				 BIT(GT_S_VRAM_TOTAL) | BIT(GT_S_TEMP_EDGE_CRIT) | \
				 BIT(GT_S_TEMP_JUNCTION_CRIT) | BIT(GT_S_TEMP_MEM_CRIT) | \
				 BIT(GT_S_POWER_CAP) | BIT(GT_S_POWER_CAP_DEFAULT) | \
				 BIT(GT_S_POWER_CAP_MIN) | BIT(GT_S_POWER_CAP_MAX) | \
				 BIT(GT_S_GTT_USED) | BIT(GT_S_GTT_TOTAL))

/*
 * GTT, system memory the GPU maps: its size is the host's (amdgpu makes it
 * three quarters of system memory by default, here a host of 10.7 GiB),
 * its use follows the load, as VRAM's does.
 */
#define GT_SIM_GTT_TOTAL	SZ_8G
#define GT_SIM_GTT_USED_IDLE	SZ_16M
#define GT_SIM_GTT_USED_MAX	SZ_1G

static const struct gt_sim_profile gt_sim_profiles[] = {
	{
		.name = "navi14",
		.device_id = 0x7340,
		.revision = 0xc5,
		.subsys_vendor_id = 0x1002,
		.subsys_device_id = 0x0b0c,
		.marketing_name = "AMD Radeon RX 5500 XT",
		.cu_active = 22,
		.vram_type = "GDDR6",
		.vram_bus_width = 128,
		.vram_size = SZ_4G,
		.vram_used_idle = SZ_256M,
		.sclk_idle = 300,
		.sclk_max = 1845,
		.mclk_idle = 100,
		.mclk_max = 875,
		.power_idle = 9000,
		.power_max = 130000,
		.vddgfx_min = 750,
		.vddgfx_max = 1150,
		.temp_idle = 35000,
		.temp_max = 78000,
		.fan_min = 700,
		.fan_max = 2400,
		.temp_crit = { 100000, 110000, 105000 },
		.power_cap = 130000,
		.power_cap_max = 156000,
		.pcie_speed = "16.0 GT/s",
		.pcie_width = 8,
		.pcie_max_speed = "16.0 GT/s",
		.pcie_max_width = 8,
		.sensors = GT_SIM_DGPU_SENSORS,
	},
	{
		.name = "navi10",
		.device_id = 0x731f,
		.revision = 0xc1,
		.subsys_vendor_id = 0x1002,
		.subsys_device_id = 0x0b36,
		.marketing_name = "AMD Radeon RX 5700 XT",
		.cu_active = 40,
		.vram_type = "GDDR6",
		.vram_bus_width = 256,
		.vram_size = SZ_8G,
		.vram_used_idle = SZ_256M,
		.sclk_idle = 300,
		.sclk_max = 2100,
		.mclk_idle = 100,
		.mclk_max = 875,
		.power_idle = 10000,
		.power_max = 225000,
		.vddgfx_min = 750,
		.vddgfx_max = 1200,
		.temp_idle = 35000,
		.temp_max = 82000,
		.fan_min = 800,
		.fan_max = 3200,
		.temp_crit = { 100000, 110000, 105000 },
		.power_cap = 225000,
		.power_cap_max = 270000,
		.pcie_speed = "16.0 GT/s",
		.pcie_width = 16,
		.pcie_max_speed = "16.0 GT/s",
		.pcie_max_width = 16,
		.sensors = GT_SIM_DGPU_SENSORS,
	},
	{
		.name = "polaris10",
		.device_id = 0x67df,
		.revision = 0xe7,
		.subsys_vendor_id = 0x1002,
		.subsys_device_id = 0x0b37,
		.marketing_name = "AMD Radeon RX 580 Series",
		.cu_active = 36,
		.vram_type = "GDDR5",
		.vram_bus_width = 256,
		.vram_size = SZ_8G,
		.vram_used_idle = SZ_256M,
		.sclk_idle = 300,
		.sclk_max = 1340,
		.mclk_idle = 300,
		.mclk_max = 2000,
		.power_idle = 10000,
		.power_max = 185000,
		.vddgfx_min = 750,
		.vddgfx_max = 1150,
		.temp_idle = 35000,
		.temp_max = 75000,
		.fan_min = 900,
		.fan_max = 3000,
		.temp_crit = { 94000, 0, 0 },
		.power_cap = 185000,
		.power_cap_max = 222000,
		.pcie_speed = "8.0 GT/s",
		.pcie_width = 16,
		.pcie_max_speed = "8.0 GT/s",
		.pcie_max_width = 16,
		/*
		 * Polaris' SMU reports no junction or memory temperature, and
		 * its power as the input power: power1_input, not
		 * power1_average, from Linux 6.8 on ("drm/amdgpu: fix avg vs
		 * input power reporting on smu7").
		 */
		.sensors = (GT_SIM_DGPU_SENSORS | BIT(GT_S_POWER_INPUT)) &
			   ~(BIT(GT_S_TEMP_JUNCTION) | BIT(GT_S_TEMP_MEM) |
			     BIT(GT_S_TEMP_JUNCTION_CRIT) | BIT(GT_S_TEMP_MEM_CRIT) |
			     BIT(GT_S_POWER_AVG)),
	},
};

/**
 * struct gt_sim - one simulated GPU, the "sim" source's private data
 * @id: the id written to "new_device"
 * @p: its profile
 * @epoch_ns: creation time, origin of the ripple's phase
 * @lock: protects the fields below it (those above never change)
 * @load: the load knob, 0..100
 * @fail: bit (1 << enum gt_sensor) per reading made to fail
 * @t0_ns: time of the last load change (or of creation)
 * @temp0: edge temperature at @t0_ns, in mC
 *
 * Owned by the device (gdev->src_priv, never changed), freed by its final
 * put through gt_sim_release().
 */
struct gt_sim {
	unsigned int id;
	const struct gt_sim_profile *p;
	u64 epoch_ns;
	spinlock_t lock; /* protects the fields below */
	unsigned int load;
	u32 fail;
	u64 t0_ns;
	s64 temp0;
};

/* Serializes new_device and del_device. */
static DEFINE_MUTEX(gt_sim_lock);
static struct dentry *gt_sim_new_dentry;
static struct dentry *gt_sim_del_dentry;
/* Profile names for error messages, built at init. */
static char gt_sim_profile_names[64];

/* 2^(-i/32) in Q16, i = 0..31. */
static const u32 gt_pow2_frac[32] = {
	65536, 64132, 62757, 61413, 60097, 58809, 57549, 56316,
	55109, 53928, 52773, 51642, 50535, 49452, 48393, 47356,
	46341, 45348, 44376, 43425, 42495, 41584, 40693, 39821,
	38968, 38133, 37316, 36516, 35734, 34968, 34219, 33486,
};

/* @delta * 2^(-dt / half-life), in steps of 1/32 of the half-life. */
static s64 gt_sim_decay(s64 delta, u64 dt_ns)
{
	u64 steps = div64_u64(dt_ns, GT_SIM_HALF_LIFE_NS / 32);
	u64 halvings = steps >> 5;

	if (halvings >= 32)
		return 0;
	delta = div_s64(delta * gt_pow2_frac[steps & 31], 65536);
	return div64_s64(delta, 1LL << halvings);
}

static s64 gt_sim_target(const struct gt_sim_profile *p, unsigned int load)
{
	return p->temp_idle + div_s64((s64)(p->temp_max - p->temp_idle) * load, 100);
}

/* Edge temperature at @t_ns; sim->lock held. */
static s64 gt_sim_edge(struct gt_sim *sim, u64 t_ns)
{
	s64 target = gt_sim_target(sim->p, sim->load);
	u64 dt = t_ns > sim->t0_ns ? t_ns - sim->t0_ns : 0;

	lockdep_assert_held(&sim->lock);
	return target + gt_sim_decay(sim->temp0 - target, dt);
}

/* Triangle wave 0..1000..0 over GT_SIM_RIPPLE_NS. */
static u32 gt_sim_ripple(u64 since_ns)
{
	u32 ph;

	div_u64_rem(since_ns, GT_SIM_RIPPLE_NS, &ph);
	if (ph < GT_SIM_RIPPLE_NS / 2)
		return ph / (GT_SIM_RIPPLE_NS / 2000);
	return (GT_SIM_RIPPLE_NS - ph) / (GT_SIM_RIPPLE_NS / 2000);
}

/* @lo + (@hi - @lo) * @num / @den, for @num in 0..@den. */
static s64 gt_sim_lerp(s64 lo, s64 hi, s64 num, s64 den)
{
	return lo + div64_s64((hi - lo) * num, den);
}

/* The power input, the limits and GTT: the profile's, GTT use by @load. */
static void gt_sim_limits(const struct gt_sim_profile *p, unsigned int load,
			  struct gt_sample *s)
{
	/* Where the firmware has the input power, it is what the average is. */
	s->val[GT_S_POWER_INPUT] = s->val[GT_S_POWER_AVG];
	s->val[GT_S_TEMP_EDGE_CRIT] = p->temp_crit[0];
	s->val[GT_S_TEMP_JUNCTION_CRIT] = p->temp_crit[1];
	s->val[GT_S_TEMP_MEM_CRIT] = p->temp_crit[2];
	s->val[GT_S_POWER_CAP] = p->power_cap;
	s->val[GT_S_POWER_CAP_DEFAULT] = p->power_cap;
	s->val[GT_S_POWER_CAP_MIN] = 0;
	s->val[GT_S_POWER_CAP_MAX] = p->power_cap_max;
	s->val[GT_S_GTT_USED] = gt_sim_lerp(GT_SIM_GTT_USED_IDLE, GT_SIM_GTT_USED_MAX, load, 100);
	s->val[GT_S_GTT_TOTAL] = GT_SIM_GTT_TOTAL;
}

static int gt_sim_read(struct gt_device *gdev, struct gt_sample *s)
{
	struct gt_sim *sim = gdev->src_priv;
	const struct gt_sim_profile *p = sim->p;
	s64 edge, dyn, heat, sclk, power;
	unsigned int load;
	u32 fail, r;

	spin_lock(&sim->lock);
	load = sim->load;
	fail = sim->fail;
	edge = gt_sim_edge(sim, s->ts_ns);
	spin_unlock(&sim->lock);

	r = gt_sim_ripple(s->ts_ns > sim->epoch_ns ? s->ts_ns - sim->epoch_ns : 0);
	/* Clock and power follow the load at once, less a ripple of 0..2 %. */
	dyn = div_s64((s64)(p->sclk_max - p->sclk_idle) * load, 100);
	sclk = p->sclk_idle + dyn - div_s64(dyn * r, 50000);
	dyn = div_s64((s64)(p->power_max - p->power_idle) * load, 100);
	power = p->power_idle + dyn - div_s64(dyn * r, 50000);
	/* Fans follow the temperature, clamped to the profile's range. */
	heat = clamp_t(s64, edge - p->temp_idle, 0, p->temp_max - p->temp_idle);

	s->val[GT_S_TEMP_EDGE] = edge;
	s->val[GT_S_TEMP_JUNCTION] = edge + 3000 + (edge - p->temp_idle) / 2;
	s->val[GT_S_TEMP_MEM] = edge + 4000;
	s->val[GT_S_SCLK] = sclk;
	s->val[GT_S_MCLK] = load ? p->mclk_max : p->mclk_idle;
	s->val[GT_S_POWER_AVG] = power;
	s->val[GT_S_VDDGFX] = gt_sim_lerp(p->vddgfx_min, p->vddgfx_max, sclk - p->sclk_idle,
					  p->sclk_max - p->sclk_idle);
	s->val[GT_S_VDDNB] = 0;
	s->val[GT_S_FAN] = gt_sim_lerp(p->fan_min, p->fan_max, heat, p->temp_max - p->temp_idle);
	s->val[GT_S_FAN_PWM] = div_s64(s->val[GT_S_FAN] * 255, p->fan_max);
	s->val[GT_S_GPU_BUSY] = load;
	s->val[GT_S_MEM_BUSY] = load / 2;
	s->val[GT_S_VRAM_USED] = gt_sim_lerp(p->vram_used_idle, p->vram_size / 2, load, 100);
	s->val[GT_S_VRAM_TOTAL] = p->vram_size;
	gt_sim_limits(p, load, s);
	s->valid = p->sensors & ~fail;
	return 0;
}

static void gt_sim_fill_info(struct gt_device *gdev, struct gt_info *info)
{
	struct gt_sim *sim = gdev->src_priv;
	const struct gt_sim_profile *p = sim->p;

	info->vendor_id = PCI_VENDOR_ID_ATI;
	info->device_id = p->device_id;
	info->revision = p->revision;
	info->subsys_vendor_id = p->subsys_vendor_id;
	info->subsys_device_id = p->subsys_device_id;
	info->asic = gt_asic_lookup(info->vendor_id, p->device_id, p->revision);
	info->marketing_name = p->marketing_name;
	info->cu_active = p->cu_active;
	info->cu_source = GT_CU_SOURCE_SIM;
	info->vram_type = p->vram_type;
	info->vram_bus_width = p->vram_bus_width;
	info->vram_size = p->vram_size;
	info->sclk_max = p->sclk_max;
	info->mclk_max = p->mclk_max;
	info->driver = KBUILD_MODNAME;
	info->pcie_speed = p->pcie_speed;
	info->pcie_width = p->pcie_width;
	info->pcie_max_speed = p->pcie_max_speed;
	info->pcie_max_width = p->pcie_max_width;
}

/* load */

static unsigned int gt_sim_load_get(struct gt_device *gdev)
{
	struct gt_sim *sim = gdev->src_priv;
	unsigned int load;

	spin_lock(&sim->lock);
	load = sim->load;
	spin_unlock(&sim->lock);
	return load;
}

static int gt_sim_load_set(struct gt_device *gdev, unsigned int load)
{
	struct gt_sim *sim = gdev->src_priv;
	u64 now = ktime_get_ns();

	spin_lock(&sim->lock);
	/* The temperature continues from where it is now. */
	sim->temp0 = gt_sim_edge(sim, now);
	sim->t0_ns = now;
	sim->load = load;
	spin_unlock(&sim->lock);
	return 0;
}

DEFINE_GT_UINT_ATTRIBUTE(gt_sim_load, GT_FILE_LOAD, 0, 100);

/* fail_sensors */

static int gt_sim_fail_show(struct seq_file *m, void *v)
{
	struct gt_device *gdev = m->private;
	struct gt_sim *sim = gdev->src_priv;
	const char *sep = "";
	unsigned int i;
	u32 fail;

	spin_lock(&sim->lock);
	fail = sim->fail;
	spin_unlock(&sim->lock);

	if (!fail)
		seq_puts(m, GT_NONE);
	for (i = 0; i < GT_S_COUNT; i++) {
		if (!(fail & BIT(i)))
			continue;
		seq_printf(m, "%s%s", sep, gt_sensor_keys[i]);
		sep = " ";
	}
	seq_putc(m, '\n');
	return 0;
}

static int gt_sim_sensor_by_key(const char *key)
{
	unsigned int i;

	for (i = 0; i < GT_S_COUNT; i++)
		if (!strcmp(key, gt_sensor_keys[i]))
			return i;
	return -EINVAL;
}

/* Every key, each and a space after it: the longest set fail_sensors takes. */
#define GT_SIM_KEY_SP(id, key, ...) key " "

static ssize_t gt_sim_fail_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct gt_device *gdev = m->private;
	struct gt_sim *sim = gdev->src_priv;
	char buf[sizeof(GT_SENSORS(GT_SIM_KEY_SP))], *cur, *key;
	u32 fail = 0;
	int ret, id;

	ret = gt_parse_cmd(ubuf, count, buf, sizeof(buf));
	if (ret)
		return ret;
	if (strcmp(buf, GT_NONE)) {
		cur = buf;
		while ((key = strsep(&cur, " "))) {
			id = gt_sim_sensor_by_key(key);
			if (id < 0) {
				pr_err_ratelimited("%s: fail_sensors: unknown key \"%s\": expected \"none\" or keys of \"sensors\" separated by one space\n",
						   gdev->name, key);
				return -EINVAL;
			}
			fail |= BIT(id);
		}
	}

	spin_lock(&sim->lock);
	sim->fail = fail;
	spin_unlock(&sim->lock);
	return count;
}

DEFINE_SHOW_STORE_ATTRIBUTE(gt_sim_fail);

static void gt_sim_debugfs_init(struct gt_device *gdev, struct dentry *dir)
{
	debugfs_create_file(GT_FILE_LOAD, 0600, dir, gdev, &gt_sim_load_fops);
	debugfs_create_file(GT_FILE_FAIL_SENSORS, 0600, dir, gdev, &gt_sim_fail_fops);
}

static void gt_sim_release(struct gt_device *gdev)
{
	kfree(gdev->src_priv);
}

static const struct gt_source_ops gt_sim_ops = {
	.name = GT_SOURCE_SIM,
	.read = gt_sim_read,
	.fill_info = gt_sim_fill_info,
	.debugfs_init = gt_sim_debugfs_init,
	.release = gt_sim_release,
};

static const struct gt_sim_profile *gt_sim_profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gt_sim_profiles); i++)
		if (!strcmp(name, gt_sim_profiles[i].name))
			return &gt_sim_profiles[i];
	return NULL;
}

/* Create and register sim<id>; gt_sim_lock held. */
static int gt_sim_create(unsigned int id, const struct gt_sim_profile *p)
{
	char name[GT_NAME_LEN], location[GT_LOCATION_LEN];
	struct gt_device *gdev;
	struct gt_sim *sim;
	int ret;

	lockdep_assert_held(&gt_sim_lock);
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	sim->id = id;
	sim->p = p;
	spin_lock_init(&sim->lock);
	sim->epoch_ns = ktime_get_ns();
	sim->t0_ns = sim->epoch_ns;
	sim->temp0 = p->temp_idle;

	snprintf(name, sizeof(name), GT_SIM_PREFIX "%u", id);
	snprintf(location, sizeof(location), GT_SIM_PREFIX ":%u", id);
	gdev = gt_device_alloc(name, location, &gt_sim_ops, sim);
	if (IS_ERR(gdev)) {
		kfree(sim);
		return PTR_ERR(gdev);
	}
	ret = gt_device_register(gdev);
	if (ret)
		gt_device_put(gdev); /* frees sim too */
	return ret;
}

static ssize_t gt_sim_new_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	const struct gt_sim_profile *p = NULL;
	char buf[32], *sp;
	unsigned int id;
	int ret;

	ret = gt_parse_cmd(ubuf, count, buf, sizeof(buf));
	if (ret == -EFAULT)
		return ret;
	if (!ret) {
		sp = strchr(buf, ' ');
		ret = -EINVAL;
		if (sp) {
			*sp = '\0';
			p = gt_sim_profile_find(sp + 1);
			if (p)
				ret = gt_parse_uint(buf, 0, GT_SIM_ID_MAX, &id);
		}
	}
	if (ret) {
		pr_err_ratelimited("new_device: expected \"<id> <profile>\" with id 0..%u and profile one of: %s\n",
				   GT_SIM_ID_MAX, gt_sim_profile_names);
		return ret;
	}

	mutex_lock(&gt_sim_lock);
	ret = gt_sim_create(id, p);
	mutex_unlock(&gt_sim_lock);
	if (ret == -EEXIST)
		pr_err_ratelimited("new_device: " GT_SIM_PREFIX "%u already exists\n", id);
	return ret ? ret : count;
}

static const struct file_operations gt_sim_new_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = gt_sim_new_write,
	.llseek = noop_llseek,
};

static ssize_t gt_sim_del_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	char buf[16], name[GT_NAME_LEN];
	struct gt_device *gdev;
	unsigned int id;
	int ret;

	ret = gt_parse_cmd(ubuf, count, buf, sizeof(buf));
	if (ret == -EFAULT)
		return ret;
	if (!ret)
		ret = gt_parse_uint(buf, 0, GT_SIM_ID_MAX, &id);
	if (ret) {
		pr_err_ratelimited("del_device: expected \"<id>\" with id 0..%u\n", GT_SIM_ID_MAX);
		return ret;
	}

	snprintf(name, sizeof(name), GT_SIM_PREFIX "%u", id);
	mutex_lock(&gt_sim_lock);
	gdev = gt_device_find(name);
	if (gdev && gdev->src == &gt_sim_ops) {
		gt_device_unregister(gdev);
		ret = count;
	} else {
		ret = -ENOENT;
	}
	gt_device_put(gdev);
	mutex_unlock(&gt_sim_lock);
	if (ret == -ENOENT)
		pr_err_ratelimited("del_device: no simulated device %s\n", name);
	return ret;
}

static const struct file_operations gt_sim_del_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = gt_sim_del_write,
	.llseek = noop_llseek,
};

/* A device of this file. */
static bool gt_sim_owned(struct gt_device *gdev)
{
	return gdev->src == &gt_sim_ops;
}

/* Unregisters every simulated device; new_device and del_device are gone. */
static void gt_sim_remove_all(void)
{
	struct gt_device *gdev;

	while ((gdev = gt_device_find_match(gt_sim_owned))) {
		gt_device_unregister(gdev);
		gt_device_put(gdev);
	}
}

/**
 * gt_sim_init() - create "new_device", "del_device" and the first devices
 * @root: the module's debugfs directory
 * @sim_devices: devices sim0..sim<n-1> to create, profile navi14
 *
 * Return: 0 or a negative errno (then nothing is left: no file, no
 * device).
 */
int gt_sim_init(struct dentry *root, unsigned int sim_devices)
{
	size_t i, len = 0;
	unsigned int id;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(gt_sim_profiles); i++)
		len += scnprintf(gt_sim_profile_names + len, sizeof(gt_sim_profile_names) - len,
				 "%s%s", i ? " " : "", gt_sim_profiles[i].name);

	gt_sim_new_dentry = debugfs_create_file(GT_FILE_NEW_DEVICE, 0200, root, NULL,
						&gt_sim_new_fops);
	gt_sim_del_dentry = debugfs_create_file(GT_FILE_DEL_DEVICE, 0200, root, NULL,
						&gt_sim_del_fops);

	mutex_lock(&gt_sim_lock);
	for (id = 0; id < sim_devices && !ret; id++)
		ret = gt_sim_create(id, &gt_sim_profiles[0]);
	mutex_unlock(&gt_sim_lock);
	if (ret) {
		pr_err("cannot create simulated device %u: %d\n", id - 1, ret);
		gt_sim_fini();
	}
	return ret;
}

/**
 * gt_sim_fini() - remove "new_device", "del_device" and every sim device
 *
 * The files first: this waits for a creation or removal in progress, and
 * none starts afterwards. Then the devices.
 */
void gt_sim_fini(void)
{
	debugfs_remove(gt_sim_new_dentry);
	debugfs_remove(gt_sim_del_dentry);
	gt_sim_new_dentry = NULL;
	gt_sim_del_dentry = NULL;
	gt_sim_remove_all();
}
