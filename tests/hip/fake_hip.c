// SPDX-License-Identifier: MIT
/*
 * A fake HIP runtime: libamdhip64.so.5 with the functions the plugin
 * imports (nm -D --undefined-only hip/libnavibench_hip.so), so that the
 * real plugin runs where there is no GPU: navibench's list and info, the
 * plugin's error paths, and everything up to a kernel launch.
 *
 * Devices come from NB_FAKE_HIP_DEVICES, one spec per device separated by
 * ';', each a comma-separated list of key=value over the defaults of a
 * Radeon RX 5500 XT (Navi 14):
 *
 *   name=AMD Radeon RX 5500 XT  arch=gfx1012:xnack-  pci=0000:03:00.0
 *   cus=22  wave=32  mem=8589934592  clock=1845000  memclock=875000
 *   bus=128  lds=65536  threads=1024
 *
 * "navi14" (or an empty spec) is the defaults. Unset or empty: no device,
 * hipGetDeviceCount fails with hipErrorNoDevice as on a machine without a
 * GPU. NB_FAKE_HIP_ERROR=N makes every call fail with error N (35: no
 * driver). Device memory is host memory, so copies work (in stream order,
 * when the host synchronizes: NB_FAKE_HIP_ORDER below); every kernel
 * launch fails with hipErrorNotSupported.
 *
 *   cc -shared -fPIC -D__HIP_PLATFORM_AMD__ -Wl,-soname,libamdhip64.so.5 \
 *      -Wl,--version-script=fake_hip.map -o DIR/libamdhip64.so.5 fake_hip.c
 *   LD_LIBRARY_PATH=DIR NB_FAKE_HIP_DEVICES=navi14 navibench list
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_runtime_api.h>

#define FAKE_MAX_DEVICES 16

struct fake_device {
	char name[128], arch[64];
	unsigned int domain, bus, dev;
	int cus, wave, clock, memclock, bus_bits, lds, threads;
	unsigned long long mem;
};

static struct fake_device devices[FAKE_MAX_DEVICES];
static int ndevices = -1;	/* -1: not parsed yet */
static hipError_t last_error = hipSuccess;

static void fake_defaults(struct fake_device *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "AMD Radeon RX 5500 XT");
	snprintf(d->arch, sizeof(d->arch), "gfx1012:xnack-");
	d->bus = 3;
	d->cus = 22;
	d->wave = 32;
	d->mem = 8ULL << 30;
	d->clock = 1845000;
	d->memclock = 875000;
	d->bus_bits = 128;
	d->lds = 65536;
	d->threads = 1024;
}

/* one key=value; a bad one is said once, on stderr, and ignored */
static void fake_set(struct fake_device *d, const char *kv)
{
	const char *v = strchr(kv, '=');
	size_t k = v ? (size_t)(v - kv) : strlen(kv);

	if (v)
		v++;
	if (!v && !strcmp(kv, "navi14"))
		return;
	if (v && k == 4 && !strncmp(kv, "name", 4))
		snprintf(d->name, sizeof(d->name), "%s", v);
	else if (v && k == 4 && !strncmp(kv, "arch", 4))
		snprintf(d->arch, sizeof(d->arch), "%s", v);
	else if (v && k == 3 && !strncmp(kv, "pci", 3) &&
		 sscanf(v, "%x:%x:%x", &d->domain, &d->bus, &d->dev) == 3)
		return;
	else if (v && k == 3 && !strncmp(kv, "cus", 3))
		d->cus = atoi(v);
	else if (v && k == 4 && !strncmp(kv, "wave", 4))
		d->wave = atoi(v);
	else if (v && k == 3 && !strncmp(kv, "mem", 3))
		d->mem = strtoull(v, NULL, 0);
	else if (v && k == 5 && !strncmp(kv, "clock", 5))
		d->clock = atoi(v);
	else if (v && k == 8 && !strncmp(kv, "memclock", 8))
		d->memclock = atoi(v);
	else if (v && k == 3 && !strncmp(kv, "bus", 3))
		d->bus_bits = atoi(v);
	else if (v && k == 3 && !strncmp(kv, "lds", 3))
		d->lds = atoi(v);
	else if (v && k == 7 && !strncmp(kv, "threads", 7))
		d->threads = atoi(v);
	else
		fprintf(stderr, "fake libamdhip64: NB_FAKE_HIP_DEVICES: \"%s\" is not a key=value it knows (see tests/hip/fake_hip.c)\n",
			kv);
}

static void fake_parse(void)
{
	const char *env = getenv("NB_FAKE_HIP_DEVICES");
	char *s, *spec;

	ndevices = 0;
	if (!env || !*env)
		return;
	s = strdup(env);
	if (!s)
		return;
	for (spec = s; spec && ndevices < FAKE_MAX_DEVICES; ) {
		char *end = strchr(spec, ';'), *kv, *save2 = NULL;
		struct fake_device *d = &devices[ndevices++];

		if (end)
			*end = '\0';
		fake_defaults(d);
		for (kv = strtok_r(spec, ",", &save2); kv;
		     kv = strtok_r(NULL, ",", &save2))
			fake_set(d, kv);
		spec = end ? end + 1 : NULL;
	}
	free(s);
}

/* every call: NB_FAKE_HIP_ERROR, else the devices parsed */
static hipError_t fake_enter(void)
{
	const char *e = getenv("NB_FAKE_HIP_ERROR");

	if (ndevices < 0)
		fake_parse();
	if (e && *e)
		return (hipError_t)atoi(e);
	return ndevices ? hipSuccess : hipErrorNoDevice;
}

static hipError_t fake_ret(hipError_t e)
{
	if (e != hipSuccess)
		last_error = e;
	return e;
}

/* ---- errors ---- */

const char *hipGetErrorName(hipError_t e)
{
	switch ((int)e) {
	case hipSuccess: return "hipSuccess";
	case hipErrorInvalidValue: return "hipErrorInvalidValue";
	case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
	case hipErrorInsufficientDriver: return "hipErrorInsufficientDriver";
	case hipErrorNoDevice: return "hipErrorNoDevice";
	case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
	case hipErrorNoBinaryForGpu: return "hipErrorNoBinaryForGpu";
	case hipErrorNotSupported: return "hipErrorNotSupported";
	default: return "hipErrorUnknown";
	}
}

/* as ROCm 5.2's: the name */
const char *hipGetErrorString(hipError_t e)
{
	return hipGetErrorName(e);
}

hipError_t hipGetLastError(void)
{
	hipError_t e = last_error;

	last_error = hipSuccess;
	return e;
}

/* ---- devices ---- */

hipError_t hipGetDeviceCount(int *count)
{
	hipError_t e = fake_enter();

	*count = e == hipSuccess ? ndevices : 0;
	return fake_ret(e);
}

static hipError_t fake_device(int ordinal, struct fake_device **d)
{
	hipError_t e = fake_enter();

	if (e != hipSuccess)
		return fake_ret(e);
	if (ordinal < 0 || ordinal >= ndevices)
		return fake_ret(hipErrorInvalidDevice);
	*d = &devices[ordinal];
	return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int ordinal)
{
	struct fake_device *d;
	hipError_t e = fake_device(ordinal, &d);

	if (e != hipSuccess)
		return e;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", d->name);
	snprintf(p->gcnArchName, sizeof(p->gcnArchName), "%s", d->arch);
	p->totalGlobalMem = d->mem;
	p->sharedMemPerBlock = d->lds;
	p->warpSize = d->wave;
	p->maxThreadsPerBlock = d->threads;
	p->clockRate = d->clock;
	p->memoryClockRate = d->memclock;
	p->memoryBusWidth = d->bus_bits;
	p->multiProcessorCount = d->cus;
	p->pciDomainID = (int)d->domain;
	p->pciBusID = (int)d->bus;
	p->pciDeviceID = (int)d->dev;
	return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t attr, int ordinal)
{
	struct fake_device *d;
	hipError_t e = fake_device(ordinal, &d);

	if (e != hipSuccess)
		return e;
	if (attr == hipDeviceAttributeClockRate)
		*v = d->clock;
	else if (attr == hipDeviceAttributeWarpSize)
		*v = d->wave;
	else if (attr == hipDeviceAttributeMemoryClockRate)
		*v = d->memclock;
	else
		return fake_ret(hipErrorNotSupported);
	return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int *v)
{
	*v = 50221153;
	return hipSuccess;
}

hipError_t hipDriverGetVersion(int *v)
{
	*v = 50221153;
	return hipSuccess;
}

static int current_device;

hipError_t hipSetDevice(int ordinal)
{
	struct fake_device *d;
	hipError_t e = fake_device(ordinal, &d);

	if (e == hipSuccess)
		current_device = ordinal;
	return e;
}

hipError_t hipGetDevice(int *ordinal)
{
	struct fake_device *d;
	hipError_t e = fake_device(current_device, &d);

	*ordinal = current_device;
	return e;
}

/*
 * ---- streams and events: work deferred until the host synchronizes ----
 *
 * A stream is a queue of operations (copies, the host work that tests
 * linked with this file enqueue through fake_hip_defer(), event records
 * and waits), run only when the host waits for a stream or an event, in an
 * order chosen to find a missing wait: NB_FAKE_HIP_ORDER=newest runs, of
 * the streams that can go on, the most recently created first; oldest (the
 * default) the first created. A wait that nothing can satisfy aborts: on a
 * GPU it would hang. The NULL stream runs its work at once.
 */
struct fake_event {
	unsigned long recorded, done;	/* the last record enqueued, run */
};

struct fake_op {
	enum { FAKE_WORK, FAKE_RECORD, FAKE_WAIT } kind;
	void (*fn)(void *arg);
	void *arg;			/* freed once fn has run */
	struct fake_event *ev;
	unsigned long seq;
	struct fake_op *next;
};

struct fake_stream {
	unsigned long id;		/* creation order */
	struct fake_op *head, **tail;
	struct fake_stream *next;
};

static struct fake_stream *streams;
static unsigned long stream_ids;

static void fake_op_run(struct fake_op *op)
{
	if (op->kind == FAKE_WORK) {
		op->fn(op->arg);
		free(op->arg);
	} else if (op->kind == FAKE_RECORD) {
		op->ev->done = op->seq;
	}
	free(op);
}

/* runs one operation; 0 when none can run */
static int fake_step(void)
{
	int newest = getenv("NB_FAKE_HIP_ORDER") &&
		!strcmp(getenv("NB_FAKE_HIP_ORDER"), "newest");
	struct fake_stream *pick = NULL;
	struct fake_op *op;

	for (struct fake_stream *st = streams; st; st = st->next) {
		op = st->head;
		if (!op || (op->kind == FAKE_WAIT && op->ev->done < op->seq))
			continue;
		if (!pick || (newest ? st->id > pick->id : st->id < pick->id))
			pick = st;
	}
	if (!pick)
		return 0;
	op = pick->head;
	pick->head = op->next;
	if (!pick->head)
		pick->tail = &pick->head;
	fake_op_run(op);
	return 1;
}

static int fake_all_idle(void)
{
	for (struct fake_stream *st = streams; st; st = st->next)
		if (st->head)
			return 0;
	return 1;
}

/* runs work until st is idle, or ev's last record ran, or (both NULL) all */
static void fake_run(struct fake_stream *st, struct fake_event *ev)
{
	while (ev ? ev->done < ev->recorded : st ? st->head != NULL : !fake_all_idle())
		if (!fake_step()) {
			fprintf(stderr, "fake HIP runtime: every stream waits for an event that no stream will record\n");
			abort();
		}
}

static hipError_t fake_enqueue(hipStream_t s, struct fake_op *op)
{
	struct fake_stream *st = (struct fake_stream *)s;

	if (!st) {			/* the NULL stream: now */
		fake_op_run(op);
		return hipSuccess;
	}
	op->next = NULL;
	*st->tail = op;
	st->tail = &op->next;
	return hipSuccess;
}

static struct fake_op *fake_op(int kind)
{
	struct fake_op *op = (struct fake_op *)calloc(1, sizeof(*op));

	if (!op) {
		fprintf(stderr, "fake HIP runtime: out of memory\n");
		abort();
	}
	op->kind = kind;
	return op;
}

/* For tests linked with this file: fn(arg) in stream order; arg is freed. */
void fake_hip_defer(hipStream_t s, void (*fn)(void *arg), void *arg);

void fake_hip_defer(hipStream_t s, void (*fn)(void *arg), void *arg)
{
	struct fake_op *op = fake_op(FAKE_WORK);

	op->fn = fn;
	op->arg = arg;
	fake_enqueue(s, op);
}

hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned int flags)
{
	hipError_t e = fake_enter();
	struct fake_stream *st;

	(void)flags;
	if (e != hipSuccess)
		return fake_ret(e);
	st = (struct fake_stream *)calloc(1, sizeof(*st));
	if (!st)
		return fake_ret(hipErrorOutOfMemory);
	st->id = ++stream_ids;
	st->tail = &st->head;
	st->next = streams;
	streams = st;
	*s = (hipStream_t)st;
	return hipSuccess;
}

/* what a destroyed stream or event still has to do is done first */
hipError_t hipStreamDestroy(hipStream_t s)
{
	fake_run(NULL, NULL);
	for (struct fake_stream **p = &streams; *p; p = &(*p)->next)
		if (*p == (struct fake_stream *)s) {
			*p = (*p)->next;
			break;
		}
	free(s);
	return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t s)
{
	if (s)
		fake_run((struct fake_stream *)s, NULL);
	return fake_enter();
}

hipError_t hipEventCreate(hipEvent_t *ev)
{
	hipError_t e = fake_enter();

	if (e != hipSuccess)
		return fake_ret(e);
	*ev = (hipEvent_t)calloc(1, sizeof(struct fake_event));
	return *ev ? hipSuccess : fake_ret(hipErrorOutOfMemory);
}

hipError_t hipEventCreateWithFlags(hipEvent_t *ev, unsigned int flags)
{
	(void)flags;
	return hipEventCreate(ev);
}

hipError_t hipEventDestroy(hipEvent_t ev)
{
	fake_run(NULL, NULL);
	free(ev);
	return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t ev, hipStream_t s)
{
	struct fake_op *op;
	hipError_t e = fake_enter();

	if (e != hipSuccess)
		return fake_ret(e);
	op = fake_op(FAKE_RECORD);
	op->ev = (struct fake_event *)ev;
	op->seq = ++op->ev->recorded;
	return fake_enqueue(s, op);
}

hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t ev, unsigned int flags)
{
	struct fake_op *op;
	hipError_t e = fake_enter();

	(void)flags;
	if (e != hipSuccess)
		return fake_ret(e);
	op = fake_op(FAKE_WAIT);
	op->ev = (struct fake_event *)ev;
	op->seq = op->ev->recorded;
	return fake_enqueue(s, op);
}

hipError_t hipEventSynchronize(hipEvent_t ev)
{
	hipError_t e = fake_enter();

	if (e != hipSuccess)
		return fake_ret(e);
	fake_run(NULL, (struct fake_event *)ev);
	return hipSuccess;
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b)
{
	(void)a;
	(void)b;
	*ms = 0;
	return fake_enter();
}

/* ---- memory: host memory stands in for the device's ---- */

hipError_t hipMalloc(void **p, size_t bytes)
{
	hipError_t e = fake_enter();

	if (e != hipSuccess)
		return fake_ret(e);
	*p = malloc(bytes ? bytes : 1);
	return *p ? hipSuccess : fake_ret(hipErrorOutOfMemory);
}

hipError_t hipFree(void *p)
{
	free(p);
	return hipSuccess;
}

/* bytes copied to the device, for tests linked with this file */
size_t fake_hip_to_device_bytes;

struct fake_copy {
	void *dst;
	const void *src;
	size_t bytes;
};

static void fake_copy_run(void *arg)
{
	struct fake_copy *c = (struct fake_copy *)arg;

	memmove(c->dst, c->src, c->bytes);
}

/* in stream order, as on a GPU: the host must not touch src or dst before */
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes,
			  hipMemcpyKind kind, hipStream_t s)
{
	hipError_t e = fake_enter();
	struct fake_copy *c;

	if (e != hipSuccess)
		return fake_ret(e);
	c = (struct fake_copy *)malloc(sizeof(*c));
	if (!c)
		return fake_ret(hipErrorOutOfMemory);
	*c = (struct fake_copy){ dst, src, bytes };
	if (kind == hipMemcpyHostToDevice)
		fake_hip_to_device_bytes += bytes;
	fake_hip_defer(s, fake_copy_run, c);
	return hipSuccess;
}

/* ---- code objects and launches ---- */

void **__hipRegisterFatBinary(const void *data);
void __hipUnregisterFatBinary(void **handle);
void __hipRegisterFunction(void **handle, const void *host, char *device,
			   const char *name, unsigned int limit, void *tid,
			   void *bid, void *bdim, void *gdim, int *wsize);

static void *fake_module;

void **__hipRegisterFatBinary(const void *data)
{
	(void)data;
	return &fake_module;
}

void __hipUnregisterFatBinary(void **handle)
{
	(void)handle;
}

void __hipRegisterFunction(void **handle, const void *host, char *device,
			   const char *name, unsigned int limit, void *tid,
			   void *bid, void *bdim, void *gdim, int *wsize)
{
	(void)handle; (void)host; (void)device; (void)name; (void)limit;
	(void)tid; (void)bid; (void)bdim; (void)gdim; (void)wsize;
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
				      hipStream_t s)
{
	(void)grid; (void)block; (void)shmem; (void)s;
	return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
				     hipStream_t *s)
{
	*grid = (dim3){ 1, 1, 1 };
	*block = (dim3){ 1, 1, 1 };
	*shmem = 0;
	*s = NULL;
	return hipSuccess;
}

/* a fake device runs nothing */
hipError_t hipLaunchKernel(const void *f, dim3 grid, dim3 block, void **args,
			   size_t shmem, hipStream_t s)
{
	(void)f; (void)grid; (void)block; (void)args; (void)shmem; (void)s;
	return fake_ret(hipErrorNotSupported);
}
