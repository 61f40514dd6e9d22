// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the files under /sys/kernel/debug/gputelemetry/.
 *
 * The line format is specified in gputelemetry.rst; the key names come
 * from uapi/gputelemetry.h.
 *
 * Lifetime: every file is created with debugfs_create_file(), whose proxy
 * brackets each read, write and lseek with debugfs_file_get()/put(), and
 * debugfs_remove() waits for those in progress. A device's files are
 * removed (gt_device_unregister) before its sampler stops and before the
 * registry drops its reference, so every handler below may use the device
 * in i_private. Only ->release runs after removal: it frees what the open
 * file allocated and touches nothing of the device, so no file holds a
 * device reference.
 *
 * This file is below the registry: it makes a device's files, the root
 * directory and the helpers of every file (text files, numbers), and
 * calls only the sampler and the source (gputelemetry.h, "Layers").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "gputelemetry.h"

/* In enum gt_sensor order, as GT_SENSORS lists them. */
#define GT_SENSOR_KEY(id, key, unit, ...) key,
#define GT_SENSOR_UNIT(id, key, unit, ...) unit,

const char * const gt_sensor_keys[GT_S_COUNT] = {
	GT_SENSORS(GT_SENSOR_KEY)
};

static const char * const gt_sensor_units[GT_S_COUNT] = {
	GT_SENSORS(GT_SENSOR_UNIT)
};

/* The root directory; set at init, removed at exit. */
static struct dentry *gt_root;

/**
 * gt_debugfs_root() - the module's debugfs directory
 *
 * Return: the directory, valid between gt_debugfs_init() and
 * gt_debugfs_fini().
 */
struct dentry *gt_debugfs_root(void)
{
	return gt_root;
}

/**
 * gt_parse_cmd() - copy a short command written to a file
 * @ubuf: user buffer
 * @count: bytes written
 * @buf: receives the command, NUL-terminated, one trailing newline removed
 * @size: size of @buf
 *
 * A command is one write of printable text; an empty one, one too long
 * for @buf, or one with a NUL or another control character is refused.
 *
 * Return: 0, -EINVAL or -EFAULT.
 */
int gt_parse_cmd(const char __user *ubuf, size_t count, char *buf, size_t size)
{
	size_t i;

	if (count == 0 || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[--count] = '\0';
	if (count == 0)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (buf[i] < 0x20 || buf[i] > 0x7e)
			return -EINVAL;
	return 0;
}

/**
 * gt_parse_uint() - parse an unsigned decimal integer within a range
 * @s: the text, NUL-terminated
 * @min: smallest value accepted
 * @max: largest value accepted
 * @out: receives the value; unchanged on failure
 *
 * The one rule of every number the module is given, module parameters and
 * debugfs files alike: decimal digits only. kstrtouint() alone would also
 * take a leading '+' and a trailing newline.
 *
 * Return: 0, or -EINVAL when @s is empty, holds anything but digits, or
 * is out of @min..@max.
 */
int gt_parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out)
{
	unsigned int v;
	const char *p;

	if (!*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit(*p))
			return -EINVAL;
	if (kstrtouint(s, 10, &v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/**
 * gt_write_uint() - take a number written to a device's file
 * @gdev: the device
 * @file: the file's name, for the message
 * @ubuf: user buffer
 * @count: bytes written
 * @min: smallest value accepted
 * @max: largest value accepted
 * @out: receives the value
 *
 * One command (gt_parse_cmd()) holding one number (gt_parse_uint()). A
 * refused one is logged with the file and the range expected, rate
 * limited: whoever may write the file must not be able to flood the log.
 *
 * Return: 0, -EINVAL or -EFAULT.
 */
int gt_write_uint(struct gt_device *gdev, const char *file, const char __user *ubuf,
		  size_t count, unsigned int min, unsigned int max, unsigned int *out)
{
	char buf[24];
	int ret;

	ret = gt_parse_cmd(ubuf, count, buf, sizeof(buf));
	if (ret == -EFAULT)
		return ret;
	if (!ret)
		ret = gt_parse_uint(buf, min, max, out);
	else
		buf[0] = '\0';	/* not printable text: not shown */
	if (ret)
		pr_err_ratelimited("%s/%s: \"%s\" is invalid: expected a decimal integer in %u..%u\n",
				   gdev->name, file, buf, min, max);
	return ret;
}

/*
 * Files whose text reads a source: made without seq_file's lock.
 *
 * seq_file's read holds the file's seq_file mutex around ->show(). The
 * amdgpu source reads sysfs attributes, which are seq_files too, so a
 * show() that reads a source would take a seq_file mutex inside another
 * one of the same lock class (and, for "devices", inside the registry
 * lock): lockdep reports that as a possible deadlock. These files format
 * their text with the same show() functions, into a seq_file used only as
 * a buffer, under a mutex of their own taken by nothing else.
 */

/* Largest text of such a file: "devices" with every device listed. */
#define GT_TEXT_MAX	(1024 * 1024)

/**
 * struct gt_text - one open text file
 * @lock: serializes reads of this open file (protects @m); taken before a
 *	device's src_lock, never inside it or inside any seq_file's lock
 * @show: formats the whole text into @m
 * @m: the text: buf, size and count only (private is the inode's
 *	i_private); no other seq_file field is used
 */
struct gt_text {
	struct mutex lock; /* protects m */
	int (*show)(struct seq_file *m, void *v);
	struct seq_file m;
};

/* (Re)makes the text, growing the buffer until it fits. */
static int gt_text_fill(struct gt_text *t)
{
	size_t size = t->m.size ?: PAGE_SIZE;
	int ret;

	lockdep_assert_held(&t->lock);
	for (;;) {
		if (!t->m.buf) {
			t->m.buf = kvmalloc(size, GFP_KERNEL);
			if (!t->m.buf)
				return -ENOMEM;
			t->m.size = size;
		}
		t->m.count = 0;
		ret = t->show(&t->m, NULL);
		if (ret)
			return ret;
		if (!seq_has_overflowed(&t->m))
			return 0;
		kvfree(t->m.buf);
		t->m.buf = NULL;
		size = t->m.size * 2;
		if (size > GT_TEXT_MAX)
			return -EFBIG;
	}
}

/**
 * gt_text_open() - open a text file that formats its text with @show
 * @inode: the inode; its i_private becomes the text's private
 * @file: the file
 * @show: formats the whole text, as a seq_file show() would
 *
 * For files whose text reads a source (see struct gt_text); their read,
 * llseek and release are gt_text_read(), default_llseek and
 * gt_text_release().
 *
 * Return: 0 or -ENOMEM.
 */
int gt_text_open(struct inode *inode, struct file *file,
		 int (*show)(struct seq_file *m, void *v))
{
	struct gt_text *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	mutex_init(&t->lock);
	t->show = show;
	t->m.private = inode->i_private;
	file->private_data = t;
	return 0;
}

/**
 * gt_text_read() - read a text file
 * @file: the file
 * @ubuf: user buffer
 * @count: its size
 * @ppos: the position
 *
 * A read at position 0 makes the text anew (as a seq_file does after a
 * seek to 0); a read further on continues the text made then.
 *
 * Return: bytes read, or a negative errno.
 */
ssize_t gt_text_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct gt_text *t = file->private_data;
	ssize_t ret = 0;

	mutex_lock(&t->lock);
	if (*ppos == 0 || !t->m.buf)
		ret = gt_text_fill(t);
	if (!ret)
		ret = simple_read_from_buffer(ubuf, count, ppos, t->m.buf, t->m.count);
	mutex_unlock(&t->lock);
	return ret;
}

/**
 * gt_text_release() - release a text file
 * @inode: the inode
 * @file: the file
 *
 * Return: 0.
 */
int gt_text_release(struct inode *inode, struct file *file)
{
	struct gt_text *t = file->private_data;

	kvfree(t->m.buf);
	mutex_destroy(&t->lock);
	kfree(t);
	return 0;
}

/* version */

static int gt_version_show(struct seq_file *m, void *v)
{
	seq_printf(m, "gputelemetry %s format %d\n", GT_MODULE_VERSION, GT_FORMAT_VERSION);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gt_version);

/* info */

static void gt_kv_str(struct seq_file *m, const char *key, const char *val)
{
	seq_printf(m, "%s: %s\n", key, val ?: GT_UNAVAILABLE);
}

static void gt_kv_u64(struct seq_file *m, const char *key, u64 val)
{
	if (val)
		seq_printf(m, "%s: %llu\n", key, val);
	else
		gt_kv_str(m, key, NULL);
}

#define GT_INFO_KEY_STR(id) GT_INFO_##id,
static const char * const gt_info_keys[GT_I_COUNT] = {
	GT_INFO_KEYS(GT_INFO_KEY_STR)
};

#undef GT_INFO_KEY_STR

/**
 * struct gt_info_text - what the lines of "info" print
 * @gdev: the device
 * @info: its source's gt_info
 * @src: the source's name
 * @state: the state's name
 */
struct gt_info_text {
	struct gt_device *gdev;
	struct gt_info info;
	const char *src;
	const char *state;
};

/* The line of key @k: GT_INFO_KEYS gives the order, this the value. */
static void gt_info_line(struct seq_file *m, const struct gt_info_text *t,
			 enum gt_info_key k)
{
	const struct gt_info *info = &t->info;
	const struct gt_asic *asic = info->asic;
	const char *key = gt_info_keys[k];

	switch (k) {
	case GT_I_NAME:
		gt_kv_str(m, key, t->gdev->name);
		break;
	case GT_I_LOCATION:
		gt_kv_str(m, key, t->gdev->location);
		break;
	case GT_I_VENDOR_ID:
		seq_printf(m, "%s: 0x%04x\n", key, info->vendor_id);
		break;
	case GT_I_DEVICE_ID:
		seq_printf(m, "%s: 0x%04x\n", key, info->device_id);
		break;
	case GT_I_SUBSYS_VENDOR:
		seq_printf(m, "%s: 0x%04x\n", key, info->subsys_vendor_id);
		break;
	case GT_I_SUBSYS_DEVICE:
		seq_printf(m, "%s: 0x%04x\n", key, info->subsys_device_id);
		break;
	case GT_I_REVISION:
		seq_printf(m, "%s: 0x%02x\n", key, info->revision);
		break;
	case GT_I_ASIC:
		gt_kv_str(m, key, asic ? asic->name : NULL);
		break;
	case GT_I_FAMILY:
		gt_kv_str(m, key, asic ? asic->family : NULL);
		break;
	case GT_I_GFX_TARGET:
		gt_kv_str(m, key, asic ? asic->gfx_target : NULL);
		break;
	case GT_I_MARKETING_NAME:
		gt_kv_str(m, key, info->marketing_name ?: (asic ? asic->marketing_name : NULL));
		break;
	case GT_I_CU_FULL:
		gt_kv_u64(m, key, asic ? asic->cu_full : 0);
		break;
	case GT_I_CU_ACTIVE:
		gt_kv_u64(m, key, info->cu_active);
		break;
	case GT_I_CU_SOURCE:
		gt_kv_str(m, key, info->cu_active ? info->cu_source : NULL);
		break;
	case GT_I_VRAM_TYPE:
		gt_kv_str(m, key, info->vram_type);
		break;
	case GT_I_VRAM_WIDTH:
		gt_kv_u64(m, key, info->vram_bus_width);
		break;
	case GT_I_VRAM_SIZE:
		gt_kv_u64(m, key, info->vram_size);
		break;
	case GT_I_SCLK_MAX:
		gt_kv_u64(m, key, info->sclk_max);
		break;
	case GT_I_MCLK_MAX:
		gt_kv_u64(m, key, info->mclk_max);
		break;
	case GT_I_DRIVER:
		gt_kv_str(m, key, info->driver);
		break;
	case GT_I_SOURCE:
		gt_kv_str(m, key, t->src);
		break;
	case GT_I_STATE:
		gt_kv_str(m, key, t->state);
		break;
	case GT_I_PCIE_SPEED:
		gt_kv_str(m, key, info->pcie_speed);
		break;
	case GT_I_PCIE_WIDTH:
		gt_kv_u64(m, key, info->pcie_width);
		break;
	case GT_I_PCIE_MAX_SPEED:
		gt_kv_str(m, key, info->pcie_max_speed);
		break;
	case GT_I_PCIE_MAX_WIDTH:
		gt_kv_u64(m, key, info->pcie_max_width);
		break;
	case GT_I_INTERVAL:
		gt_kv_u64(m, key, gt_sampler_interval(&t->gdev->sampler));
		break;
	case GT_I_COUNT:
		break;
	}
}

static int gt_info_show(struct seq_file *m, void *v)
{
	struct gt_info_text t = { .gdev = m->private };
	unsigned int k;

	gt_source_info(t.gdev, &t.info);
	gt_source_describe(t.gdev, &t.src, &t.state);
	for (k = 0; k < GT_I_COUNT; k++)
		gt_info_line(m, &t, k);
	return 0;
}

DEFINE_GT_TEXT_ATTRIBUTE(gt_info);

/* sensors */

static int gt_sensors_show(struct seq_file *m, void *v)
{
	struct gt_device *gdev = m->private;
	struct gt_sample s;
	unsigned int i;

	gt_source_read(gdev, &s);
	for (i = 0; i < GT_S_COUNT; i++) {
		if (gt_sample_has(&s, i))
			seq_printf(m, "%s: %lld %s\n", gt_sensor_keys[i], s.val[i],
				   gt_sensor_units[i]);
		else
			gt_kv_str(m, gt_sensor_keys[i], NULL);
	}
	return 0;
}

DEFINE_GT_TEXT_ATTRIBUTE(gt_sensors);

/* cu_count */

static int gt_cu_count_show(struct seq_file *m, void *v)
{
	struct gt_info info;

	gt_source_info(m->private, &info);
	if (info.cu_active)
		seq_printf(m, "%u\n", info.cu_active);
	else
		seq_puts(m, GT_UNAVAILABLE "\n");
	return 0;
}

DEFINE_GT_TEXT_ATTRIBUTE(gt_cu_count);

/* history */

/**
 * struct gt_history_reader - one open "history" file
 * @gdev: the device; used by the seq_file operations only, which the
 *	debugfs proxy keeps from running once the file is removed
 * @started: @base is set
 * @base: sample number shown at seq_file position 0: the oldest sample
 *	kept at the file's first read or seek, so that a reader is not told
 *	of samples lost between its open and its first read
 * @lost: the current record is a "lost <n>" line for this many samples
 * @resume: position after the "lost" record (the oldest sample kept)
 * @s: the current record's sample, copied out of the ring
 *
 * Position p shows sample number base + p, so the seq_file position is the
 * reader's cursor. Only the seq_file's own lock (one reader per open file)
 * serializes access.
 */
struct gt_history_reader {
	struct gt_device *gdev;
	bool started;
	u64 base;
	u64 lost;
	loff_t resume;
	struct gt_sample s;
};

/* One history line: the time, then every reading as key=value or key=na. */
static void gt_seq_sample_line(struct seq_file *m, const struct gt_sample *s)
{
	unsigned int i;

	seq_printf(m, "%llu", s->ts_ns);
	for (i = 0; i < GT_S_COUNT; i++) {
		if (gt_sample_has(s, i))
			seq_printf(m, " %s=%lld", gt_sensor_keys[i], s->val[i]);
		else
			seq_printf(m, " %s=%s", gt_sensor_keys[i], GT_NA);
	}
	seq_putc(m, '\n');
}

static void *gt_history_at(struct seq_file *m, loff_t pos)
{
	struct gt_history_reader *r = m->private;
	u64 seq = r->base + pos;
	u64 oldest;
	int ret;

	if (pos < 0)
		return NULL;
	ret = gt_sampler_copy(&r->gdev->sampler, seq, &r->s, &oldest);
	if (ret == -ENODATA)
		return NULL;
	if (ret == -ESPIPE) {
		r->lost = oldest - seq;
		r->resume = oldest - r->base;
	} else {
		r->lost = 0;
	}
	return r;
}

static void *gt_history_start(struct seq_file *m, loff_t *pos)
{
	struct gt_history_reader *r = m->private;

	if (!r->started) {
		r->base = gt_sampler_oldest(&r->gdev->sampler);
		r->started = true;
	}
	return gt_history_at(m, *pos);
}

static void *gt_history_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct gt_history_reader *r = v;

	if (r->lost)
		*pos = r->resume;
	else
		++*pos;
	return gt_history_at(m, *pos);
}

static void gt_history_stop(struct seq_file *m, void *v)
{
}

static int gt_history_show(struct seq_file *m, void *v)
{
	struct gt_history_reader *r = v;

	if (r->lost)
		seq_printf(m, "%s %llu\n", GT_LOST, r->lost);
	else
		gt_seq_sample_line(m, &r->s);
	return 0;
}

static const struct seq_operations gt_history_sops = {
	.start = gt_history_start,
	.next = gt_history_next,
	.stop = gt_history_stop,
	.show = gt_history_show,
};

static int gt_history_open(struct inode *inode, struct file *file)
{
	struct gt_device *gdev = inode->i_private;
	struct gt_history_reader *r;

	r = __seq_open_private(file, &gt_history_sops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->gdev = gdev;
	return 0;
}

static const struct file_operations gt_history_fops = {
	.owner = THIS_MODULE,
	.open = gt_history_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/* stats */

static int gt_stats_show(struct seq_file *m, void *v)
{
	struct gt_device *gdev = m->private;
	struct gt_stat stat[GT_S_COUNT];
	u64 since, samples, cpu_ns;
	unsigned int i;

	gt_sampler_stats(&gdev->sampler, stat, &since, &samples, &cpu_ns);
	seq_printf(m, "since %llu\n", since);
	for (i = 0; i < GT_S_COUNT; i++) {
		const struct gt_stat *st = &stat[i];

		if (!st->count) {
			gt_kv_str(m, gt_sensor_keys[i], NULL);
			continue;
		}
		seq_printf(m, "%s: min=%lld avg=%lld max=%lld unit=%s samples=%llu\n",
			   gt_sensor_keys[i], st->min, div64_s64(st->sum, st->count),
			   st->max, gt_sensor_units[i], st->count);
	}
	seq_printf(m, "sampler: samples=%llu cpu_ns=%llu\n", samples, cpu_ns);
	return 0;
}

static ssize_t gt_stats_write(struct file *file, const char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct gt_device *gdev = m->private;
	char buf[16];
	int ret;

	ret = gt_parse_cmd(ubuf, count, buf, sizeof(buf));
	if (ret)
		return ret;
	if (strcmp(buf, GT_STATS_RESET))
		return -EINVAL;
	gt_sampler_reset_stats(&gdev->sampler);
	return count;
}

DEFINE_SHOW_STORE_ATTRIBUTE(gt_stats);

/* interval_ms */

static unsigned int gt_interval_get(struct gt_device *gdev)
{
	return gt_sampler_interval(&gdev->sampler);
}

static int gt_interval_set(struct gt_device *gdev, unsigned int interval_ms)
{
	return gt_sampler_set_interval(&gdev->sampler, interval_ms);
}

DEFINE_GT_UINT_ATTRIBUTE(gt_interval, GT_FILE_INTERVAL_MS, GT_INTERVAL_MIN_MS,
			 GT_INTERVAL_MAX_MS);

/**
 * gt_debugfs_device_add() - create a device's directory and files
 * @gdev: the device
 *
 * Called with the registry lock held, before the device is listed.
 *
 * Return: 0, or the negative errno of the directory's creation.
 */
int gt_debugfs_device_add(struct gt_device *gdev)
{
	struct dentry *dir;

	dir = debugfs_create_dir(gdev->name, gt_root);
	if (IS_ERR(dir))
		return PTR_ERR(dir);

	debugfs_create_file(GT_FILE_INFO, 0400, dir, gdev, &gt_info_fops);
	debugfs_create_file(GT_FILE_SENSORS, 0400, dir, gdev, &gt_sensors_fops);
	debugfs_create_file(GT_FILE_CU_COUNT, 0400, dir, gdev, &gt_cu_count_fops);
	debugfs_create_file(GT_FILE_HISTORY, 0400, dir, gdev, &gt_history_fops);
	debugfs_create_file(GT_FILE_STATS, 0600, dir, gdev, &gt_stats_fops);
	debugfs_create_file(GT_FILE_INTERVAL_MS, 0600, dir, gdev, &gt_interval_fops);
	if (gdev->src && gdev->src->debugfs_init)
		gdev->src->debugfs_init(gdev, dir);
	gdev->dir = dir;
	return 0;
}

/**
 * gt_debugfs_device_remove() - remove a device's directory
 * @gdev: the device
 *
 * Waits for every read, write and lseek in progress on its files; none
 * starts afterwards. Files still open keep only what their ->release
 * needs.
 */
void gt_debugfs_device_remove(struct gt_device *gdev)
{
	debugfs_remove(gdev->dir);
	gdev->dir = NULL;
}

/**
 * gt_debugfs_init() - create the root directory and "version"
 *
 * Return: 0, or a negative errno when debugfs is not available (then the
 * module has no interface and refuses to load).
 */
int gt_debugfs_init(void)
{
	struct dentry *root;

	root = debugfs_create_dir(GT_DEBUGFS_ROOT, NULL);
	if (IS_ERR(root)) {
		pr_err("cannot create debugfs directory %s (%ld): is debugfs enabled?\n",
		       GT_DEBUGFS_ROOT, PTR_ERR(root));
		return PTR_ERR(root);
	}
	debugfs_create_file(GT_FILE_VERSION, 0400, root, NULL, &gt_version_fops);
	gt_root = root;
	return 0;
}

/**
 * gt_debugfs_fini() - remove the root directory and all below it
 */
void gt_debugfs_fini(void)
{
	debugfs_remove(gt_root);
	gt_root = NULL;
}
