/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputelemetry: private declarations shared by the module's files.
 *
 * One file per concern:
 *   main.c      module init/exit and parameters
 *   registry.c  the list of telemetry devices, their lifetime, "devices"
 *   source.c    calling a device's source (struct gt_source_ops)
 *   asic.c      PCI id and revision to ASIC name, family, gfx target, CUs
 *   sampler.c   periodic sampling into a ring, statistics
 *   debugfs.c   a device's files under /sys/kernel/debug/gputelemetry/,
 *               the root, the helpers of every file
 *   sim.c       simulated GPUs (the "sim" source and its control files)
 *   pci.c       real GPUs: PCI devices of vendor 0x1002 followed through a
 *               bus notifier, the trusted_drivers parameter, the "none"
 *               and "amdgpu" sources' ops
 *   amdgpu.c    the "amdgpu" source: amdgpu's sysfs interface, read
 *   debugfs_metrics.c
 *               the "metrics" file: gpu_metrics blobs decoded
 *
 * Layers, as netdevsim's bus, device and netdev: each file calls only
 * the files below it; the only calls upward are through pointers a
 * layer above handed down (struct gt_source_ops, the kref release the
 * registry gives the sampler):
 *
 *   main.c                      parameters; every init and fini
 *   sim.c     pci.c             the "buses": create, switch, remove devices
 *             amdgpu.c          pci.c's source, and its sysfs mount
 *             debugfs_metrics.c pci.c's "metrics" file
 *   registry.c                  devices: list, lifetime, "devices"
 *   debugfs.c                   a device's files, the root, file helpers
 *   sampler.c                   sampling works, ring, statistics
 *   source.c  asic.c            calls into a source; the ASIC table
 *
 * Each init has one owner, which calls its fini too: main.c those of
 * sampler.c (the workqueue), debugfs.c (the root), registry.c, sim.c and
 * pci.c, in that order, and their finis in the reverse one; pci.c those of
 * amdgpu.c (gt_sysfs_init/fini). Each bus removes its own devices at its
 * fini.
 */
#ifndef _GPUTELEMETRY_H
#define _GPUTELEMETRY_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "uapi/gputelemetry.h"

#define GT_MODULE_VERSION	"0.1.0"

#define GT_SIM_DEVICES_MAX	16
#define GT_INTERVAL_MIN_MS	10
#define GT_INTERVAL_MAX_MS	60000
#define GT_HISTORY_MIN		16
#define GT_HISTORY_MAX		65536

#define GT_NAME_LEN		32
#define GT_LOCATION_LEN		48

struct dentry;
struct file;
struct inode;
struct pci_dev;
struct seq_file;
struct gt_device;

/* Key and unit of each sensor, indexed by enum gt_sensor (debugfs.c). */
extern const char * const gt_sensor_keys[GT_S_COUNT];

/**
 * struct gt_sample - one reading of every sensor
 * @ts_ns: CLOCK_MONOTONIC time of the reading, in ns
 * @valid: bit (1 << enum gt_sensor) set when @val holds a reading
 * @val: the readings, in the units of GT_SENSORS
 */
struct gt_sample {
	u64 ts_ns;
	u32 valid;
	s64 val[GT_S_COUNT];
};

/*
 * A bit per reading (1 << enum gt_sensor) is a u32 wherever readings are
 * masks (@valid, fail_sensors, the simulated profiles): GT_SENSORS holds
 * at most 32 rows.
 */
static_assert(GT_S_COUNT <= 32, "GT_SENSORS: more rows than bits of a u32 mask");

static inline bool gt_sample_has(const struct gt_sample *s, enum gt_sensor id)
{
	return s->valid & BIT(id);
}

/**
 * struct gt_asic - what a PCI device id (and revision) is, as plain data
 * @device_id: PCI device id (vendor 0x1002)
 * @revision: PCI revision; meaningful only when @match_rev is set
 * @match_rev: the entry is for @revision only (else for any revision)
 * @name: ASIC name, e.g. "navi14"
 * @family: architecture family, e.g. "rdna1"
 * @gfx_target: LLVM/ROCm target, e.g. "gfx1012"
 * @cu_full: compute units on the full die
 * @marketing_name: product name, or NULL when the revision does not tell
 */
struct gt_asic {
	u16 device_id;
	u8 revision;
	bool match_rev;
	const char *name;
	const char *family;
	const char *gfx_target;
	u32 cu_full;
	const char *marketing_name;
};

const struct gt_asic *gt_asic_lookup(u16 vendor_id, u16 device_id, u8 revision);

/**
 * struct gt_info - identity and capabilities of a device
 * @vendor_id: PCI vendor id
 * @device_id: PCI device id
 * @subsys_vendor_id: PCI subsystem vendor id
 * @subsys_device_id: PCI subsystem device id
 * @revision: PCI revision
 * @asic: the ASIC table's entry, or NULL for an id not in it
 * @marketing_name: product name, or NULL to use @asic's
 * @cu_active: active compute units
 * @cu_source: where @cu_active came from (GT_CU_SOURCE_*)
 * @vram_type: memory type, e.g. "GDDR6"
 * @vram_bus_width: memory bus width in bits
 * @vram_size: VRAM in bytes
 * @sclk_max: highest sclk DPM level in MHz
 * @mclk_max: highest mclk DPM level in MHz
 * @driver: name of the driver bound to the device
 * @pcie_speed: PCIe link speed, e.g. "16.0 GT/s"
 * @pcie_width: PCIe link width in lanes
 * @pcie_max_speed: the device's highest PCIe link speed, e.g. "16.0 GT/s"
 * @pcie_max_width: the device's widest PCIe link, in lanes
 *
 * Filled by the source's fill_info(); a number 0 or a NULL string means
 * "not known" and is printed as "unavailable".
 */
struct gt_info {
	u16 vendor_id;
	u16 device_id;
	u16 subsys_vendor_id;
	u16 subsys_device_id;
	u8 revision;
	const struct gt_asic *asic;
	const char *marketing_name;
	u32 cu_active;
	const char *cu_source;
	const char *vram_type;
	u32 vram_bus_width;
	u64 vram_size;
	u32 sclk_max;
	u32 mclk_max;
	const char *driver;
	const char *pcie_speed;
	u32 pcie_width;
	const char *pcie_max_speed;
	u32 pcie_max_width;
};

/**
 * struct gt_source_ops - where a device's readings come from
 * @name: GT_SOURCE_* value shown in "devices" and "info"
 * @read: read every sensor into @s (ts_ns and valid are preset to now and
 *	0); set a bit of @s->valid per reading obtained. Called in process
 *	context as a counted source call (source.c: started under src_lock,
 *	run without it; a switch of source waits for it), concurrently from
 *	the sampler and from readers of "sensors"; may sleep. Returns 0 or a
 *	negative errno (then every reading is unavailable).
 * @fill_info: fill @info (zeroed beforehand); same context as @read.
 * @debugfs_init: optional; add source-specific files to the device's
 *	directory @dir. Their i_private should be the device.
 * @release: optional; free the source's private data. Called once, from
 *	the device's final gt_device_put(), after sampling stopped and the
 *	device's files were removed.
 * @read_metrics: optional; read the raw gpu_metrics blob into @buf (at
 *	most @size bytes). Same context as @read. Returns the length or a
 *	negative errno (-EAGAIN while the device is runtime-suspended).
 * @suspended: optional; whether the device is runtime-suspended now (its
 *	state is then shown as GT_SUSPENDED). Called with src_lock held.
 *
 * A new source is a new ops table: the sampler and the debugfs files only
 * ever call these, through source.c.
 *
 * Real GPUs (pci.c): a PCI bus notifier registers every display-class
 * device of vendor 0x1002 as a gt_device named by its PCI address, with
 * the "none" source (GT_UNBOUND) until a trusted driver is bound; on bind
 * it attaches the amdgpu source (GT_ACTIVE) with gt_device_set_source();
 * just before unbind it detaches it the same way, which takes src_lock for
 * write, so that no read is in flight or starts once the driver's remove
 * runs; on device removal it unregisters the device. Both ops tables
 * share @release and @debugfs_init, so a switch never changes them.
 */
struct gt_source_ops {
	const char *name;
	int (*read)(struct gt_device *gdev, struct gt_sample *s);
	void (*fill_info)(struct gt_device *gdev, struct gt_info *info);
	void (*debugfs_init)(struct gt_device *gdev, struct dentry *dir);
	void (*release)(struct gt_device *gdev);
	ssize_t (*read_metrics)(struct gt_device *gdev, void *buf, size_t size);
	bool (*suspended)(struct gt_device *gdev);
};

/**
 * struct gt_stat - running statistics of one sensor
 * @min: smallest reading
 * @max: largest reading
 * @sum: sum of the readings, for the average
 * @count: readings counted; 0 means none was available
 */
struct gt_stat {
	s64 min;
	s64 max;
	s64 sum;
	u64 count;
};

/**
 * struct gt_sampler - periodic sampling of one device
 * @work: the sampling work, on the module's freezable workqueue (not
 *	during system sleep; sampler.c)
 * @lock: protects every field below it (taken by the work and by readers;
 *	never held across a source read or a copy to user space)
 * @running: the work may queue itself again; cleared before the final
 *	cancel so that neither the work nor an interval change requeues it
 * @interval_ms: sampling period
 * @ring: @depth samples; sample number n lives at ring[n % depth]
 * @depth: ring size, fixed at creation
 * @next_seq: number of the next sample (= samples ever recorded); the
 *	ring holds numbers max(0, next_seq - depth) .. next_seq - 1
 * @stat: statistics per sensor since @since_ns
 * @since_ns: time of the last statistics reset (or of creation)
 * @samples: samples taken since creation
 * @cpu_ns: time spent in the sampling work since creation, in ns
 * @ref: the device's reference count (the work holds one while queued);
 *	set at init, never changed (as @release), so not under @lock
 * @release: the device's release, for the work's last put
 */
struct gt_sampler {
	struct delayed_work work;
	spinlock_t lock; /* protects the fields below */
	bool running;
	unsigned int interval_ms;
	struct gt_sample *ring;
	u32 depth;
	u64 next_seq;
	struct gt_stat stat[GT_S_COUNT];
	u64 since_ns;
	u64 samples;
	u64 cpu_ns;
	struct kref *ref;
	void (*release)(struct kref *ref);
};

/* Device state, shown by name (GT_STATE_*). */
enum gt_state {
	GT_ACTIVE,
	GT_SUSPENDED,
	GT_UNBOUND,
	GT_REMOVING,
};

/**
 * struct gt_device - one telemetry device (simulated or PCI)
 * @ref: references; the registry holds one while the device is listed,
 *	its sampling work one while queued or running; the last put
 *	releases it
 * @node: entry in the registry's list, under gt_devices_lock
 * @name: directory name, "sim<id>" or the PCI address
 * @location: "sim:<id>" or "pci:<address>"
 * @src_lock: protects @src, @src_priv and @state; held for read to start
 *	a call into @src (source.c), for write to change them (e.g. on unbind)
 * @src: the source, or NULL when none may be read
 * @src_priv: the source's data
 * @state: GT_ACTIVE etc.
 * @src_users: calls into @src in flight (started under @src_lock, run
 *	without it)
 * @src_wait: woken when @src_users drops to 0
 * @dir: the device's debugfs directory, or NULL when not registered
 * @sampler: sampling and history
 */
struct gt_device {
	struct kref ref;
	struct list_head node;
	char name[GT_NAME_LEN];
	char location[GT_LOCATION_LEN];
	struct rw_semaphore src_lock; /* protects src, src_priv, state */
	const struct gt_source_ops *src;
	void *src_priv;
	enum gt_state state;
	atomic_t src_users;
	wait_queue_head_t src_wait;
	struct dentry *dir;
	struct gt_sampler sampler;
};

/* registry.c */
struct gt_device * __must_check gt_device_alloc(const char *name, const char *location,
						const struct gt_source_ops *src, void *src_priv);
int __must_check gt_device_register(struct gt_device *gdev);
void gt_device_unregister(struct gt_device *gdev);
struct gt_device *gt_device_get(struct gt_device *gdev);
void gt_device_put(struct gt_device *gdev);
struct gt_device * __must_check gt_device_find(const char *name);
struct gt_device * __must_check gt_device_find_match(bool (*match)(struct gt_device *gdev));
int __must_check gt_registry_init(struct dentry *root, unsigned int interval_ms, u32 depth);
void gt_registry_fini(void);
void gt_device_set_source(struct gt_device *gdev, const struct gt_source_ops *src,
			  enum gt_state state,
			  void (*update)(struct gt_device *gdev, void *arg), void *arg);

/* source.c */
const char *gt_state_name(enum gt_state state);
int gt_source_read(struct gt_device *gdev, struct gt_sample *s);
void gt_source_info(struct gt_device *gdev, struct gt_info *info);
void gt_source_describe(struct gt_device *gdev, const char **src_name,
			const char **state_name);
ssize_t gt_source_read_metrics(struct gt_device *gdev, void *buf, size_t size);
void gt_source_wait_idle(struct gt_device *gdev);

/* sampler.c */
int __must_check gt_sampler_init(struct gt_sampler *smp, unsigned int interval_ms,
				 u32 depth, struct kref *ref,
				 void (*release)(struct kref *ref));
void gt_sampler_start(struct gt_device *gdev);
void gt_sampler_stop(struct gt_device *gdev);
void gt_sampler_fini(struct gt_sampler *smp);
int __must_check gt_sampler_wq_init(void);
void gt_sampler_wq_fini(void);
int __must_check gt_sampler_set_interval(struct gt_sampler *smp, unsigned int interval_ms);
unsigned int gt_sampler_interval(struct gt_sampler *smp);
int gt_sampler_copy(struct gt_sampler *smp, u64 seq, struct gt_sample *out, u64 *oldest);
u64 gt_sampler_oldest(struct gt_sampler *smp);
void gt_sampler_stats(struct gt_sampler *smp, struct gt_stat *stat, u64 *since_ns,
		      u64 *samples, u64 *cpu_ns);
void gt_sampler_reset_stats(struct gt_sampler *smp);

/* debugfs.c */
struct dentry *gt_debugfs_root(void);
int __must_check gt_debugfs_init(void);
void gt_debugfs_fini(void);
int __must_check gt_debugfs_device_add(struct gt_device *gdev);
void gt_debugfs_device_remove(struct gt_device *gdev);
int gt_text_open(struct inode *inode, struct file *file,
		 int (*show)(struct seq_file *m, void *v));
ssize_t gt_text_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos);
int gt_text_release(struct inode *inode, struct file *file);
int __must_check gt_parse_cmd(const char __user *ubuf, size_t count, char *buf,
			      size_t size);
int __must_check gt_parse_uint(const char *s, unsigned int min, unsigned int max,
			       unsigned int *out);
int __must_check gt_write_uint(struct gt_device *gdev, const char *file,
			       const char __user *ubuf, size_t count, unsigned int min,
			       unsigned int max, unsigned int *out);

/**
 * DEFINE_GT_TEXT_ATTRIBUTE() - a read-only file whose text reads a source
 * @__name: prefix; __name##_show(struct seq_file *m, void *v) formats the
 *	whole text (m->private is the inode's i_private)
 *
 * Defines __name##_open and __name##_fops, as DEFINE_SHOW_ATTRIBUTE()
 * does, but on the text files of debugfs.c (struct gt_text): the text is
 * made without seq_file's lock, so that it may read sysfs.
 */
#define DEFINE_GT_TEXT_ATTRIBUTE(__name)					\
static int __name ## _open(struct inode *inode, struct file *file)		\
{										\
	return gt_text_open(inode, file, __name ## _show);			\
}										\
										\
static const struct file_operations __name ## _fops = {			\
	.owner = THIS_MODULE,							\
	.open = __name ## _open,						\
	.read = gt_text_read,							\
	.llseek = default_llseek,						\
	.release = gt_text_release,						\
}

/**
 * DEFINE_GT_UINT_ATTRIBUTE() - a device's read-write number
 * @__name: prefix; unsigned int __name##_get(struct gt_device *) reads
 *	the number, int __name##_set(struct gt_device *, unsigned int) sets
 *	it (0 or a negative errno)
 * @__file: the file's name, for the message of a refused write
 * @__min: smallest value accepted
 * @__max: largest value accepted
 *
 * Defines __name##_fops, as DEFINE_DEBUGFS_ATTRIBUTE() does for a typed
 * value, for a file whose i_private is the device: it reads "%u\n", and
 * takes one number by gt_write_uint()'s rule (digits only, in range, a
 * refused write logged). DEFINE_DEBUGFS_ATTRIBUTE() itself would take a
 * leading '+' or spaces (simple_attr_write() parses with kstrtoull()).
 */
#define DEFINE_GT_UINT_ATTRIBUTE(__name, __file, __min, __max)			\
static int __name ## _show(struct seq_file *m, void *v)			\
{										\
	seq_printf(m, "%u\n", __name ## _get(m->private));			\
	return 0;								\
}										\
										\
static ssize_t __name ## _write(struct file *file, const char __user *ubuf,	\
				size_t count, loff_t *ppos)			\
{										\
	struct seq_file *m = file->private_data;				\
	unsigned int v;								\
	int ret;								\
										\
	ret = gt_write_uint(m->private, __file, ubuf, count, __min, __max, &v);	\
	if (!ret)								\
		ret = __name ## _set(m->private, v);				\
	return ret ? ret : count;						\
}										\
										\
DEFINE_SHOW_STORE_ATTRIBUTE(__name)

/* sim.c */
int __must_check gt_sim_init(struct dentry *root, unsigned int sim_devices);
void gt_sim_fini(void);

/**
 * struct gt_pci_gpu - a PCI device's data, gdev->src_priv of PCI devices
 * @pdev: the PCI device, referenced until the gt_device is freed
 * @dir: its sysfs directory, relative to the sysfs root ("devices/...")
 * @driver: name of the bound driver, "" when none
 * @probe_lock: protects @probed, @hwmon_dir, @cu_active and @cu_source
 *	among source calls (concurrent ones look them up once, lazily:
 *	amdgpu.c); held across sysfs reads, so never taken under src_lock
 * @probed: the fields below were looked up since the driver bound
 * @hwmon_dir: sysfs directory of its hwmon device named "amdgpu", or NULL
 *	when it has none
 * @cu_active: active CUs, 0 when not known
 * @cu_source: GT_CU_SOURCE_* of @cu_active
 *
 * @driver and the reset of the looked-up fields happen in
 * gt_device_set_source()'s update callback: src_lock held for write and no
 * source call in flight.
 */
struct gt_pci_gpu {
	struct pci_dev *pdev;
	char *dir;
	char driver[GT_NAME_LEN];
	struct mutex probe_lock; /* see above */
	bool probed;
	char *hwmon_dir;
	u32 cu_active;
	const char *cu_source;
};

/* pci.c */
int __must_check gt_pci_init(void);
void gt_pci_fini(void);

/* amdgpu.c: the amdgpu source's operations, gathered in pci.c */
int __must_check gt_sysfs_init(void);
void gt_sysfs_fini(void);
int gt_amdgpu_read(struct gt_device *gdev, struct gt_sample *s);
void gt_amdgpu_fill_info(struct gt_device *gdev, struct gt_info *info);
ssize_t gt_amdgpu_read_metrics(struct gt_device *gdev, void *buf, size_t size);
bool gt_amdgpu_suspended(struct gt_device *gdev);

/* debugfs_metrics.c */
void gt_metrics_decode(struct seq_file *m, const u8 *blob, ssize_t len, const char *family);
void gt_metrics_debugfs_add(struct gt_device *gdev, struct dentry *dir);

#endif /* _GPUTELEMETRY_H */
