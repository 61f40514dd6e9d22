// SPDX-License-Identifier: MIT
/*
 * amdgpu's pcie_bw, sampled off the scrape path: see pcie_bw.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sources/pcie_bw.h"

#define MAX_DEVS 64

struct bw_dev {
	char sysdev[256];
	bool valid;
	double rx, tx;		/* bytes per second */
	double at;		/* CLOCK_MONOTONIC seconds at the sample's end */
};

static struct {
	pthread_mutex_t lock;	/* held for everything below, never during a read */
	pthread_cond_t cond;	/* a new device, or stop */
	pthread_t th;
	bool running, stop, wake;
	double interval;	/* seconds */
	int n;
	struct bw_dev dev[MAX_DEVS];
} S = { .lock = PTHREAD_MUTEX_INITIALIZER };

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether the PCI device at sysdev is runtime-suspended (read without waking it). */
static bool asleep(const char *sysdev)
{
	char path[300], status[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/power/runtime_status", sysdev);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(status, sizeof(status), f))
		status[0] = '\0';
	fclose(f);
	return !strncmp(status, "suspended", 9);
}

/* One read of sysdev/pcie_bw (a second long): bytes per second each way. */
static bool read_bw(const char *sysdev, double *rx, double *tx)
{
	unsigned long long c0, c1;
	char path[300];
	bool ok;
	int mps;
	FILE *f;

	snprintf(path, sizeof(path), "%s/pcie_bw", sysdev);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu %d", &c0, &c1, &mps) == 3 && mps > 0;
	fclose(f);
	if (ok) {
		*rx = (double)c0 * mps;
		*tx = (double)c1 * mps;
	}
	return ok;
}

/* Sleeps the interval, or until a new device or stop; lock held. */
static void wait_interval(void)
{
	struct timespec until;
	double t;

	clock_gettime(CLOCK_MONOTONIC, &until);
	t = (double)until.tv_sec + (double)until.tv_nsec / 1e9 + S.interval;
	until.tv_sec = (time_t)t;
	until.tv_nsec = (long)((t - (double)until.tv_sec) * 1e9);
	while (!S.stop && !S.wake)
		if (pthread_cond_timedwait(&S.cond, &S.lock, &until) == ETIMEDOUT)
			break;
}

static void *sampler(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&S.lock);
	while (!S.stop) {
		S.wake = false;
		for (int i = 0; i < S.n && !S.stop; i++) {
			char sysdev[sizeof(S.dev[0].sysdev)];
			double rx = 0, tx = 0;
			bool ok;

			memcpy(sysdev, S.dev[i].sysdev, sizeof(sysdev));
			pthread_mutex_unlock(&S.lock);
			ok = !asleep(sysdev) && read_bw(sysdev, &rx, &tx);
			pthread_mutex_lock(&S.lock);
			S.dev[i].valid = ok;
			S.dev[i].rx = rx;
			S.dev[i].tx = tx;
			S.dev[i].at = mono();
		}
		wait_interval();
	}
	pthread_mutex_unlock(&S.lock);
	return NULL;
}

int nb_pcie_bw_start(unsigned long interval_ms)
{
	pthread_condattr_t ca;
	int err;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&S.cond, &ca);
	pthread_condattr_destroy(&ca);
	S.interval = (double)interval_ms / 1000;
	S.stop = false;
	err = pthread_create(&S.th, NULL, sampler, NULL);
	if (err) {
		fprintf(stderr, "navibench: cannot start the PCIe sampler: %s\n", strerror(err));
		pthread_cond_destroy(&S.cond);
		return -1;
	}
	pthread_mutex_lock(&S.lock);
	S.running = true;
	pthread_mutex_unlock(&S.lock);
	return 0;
}

void nb_pcie_bw_stop(void)
{
	pthread_mutex_lock(&S.lock);
	if (!S.running) {
		pthread_mutex_unlock(&S.lock);
		return;
	}
	S.stop = true;
	S.running = false;
	pthread_cond_signal(&S.cond);
	pthread_mutex_unlock(&S.lock);
	pthread_join(S.th, NULL);
	pthread_cond_destroy(&S.cond);
}

bool nb_pcie_bw_get(const char *sysdev, double *rx, double *tx)
{
	bool ok = false;
	int i;

	pthread_mutex_lock(&S.lock);
	if (!S.running || !sysdev[0] || strlen(sysdev) >= sizeof(S.dev[0].sysdev))
		goto out;
	for (i = 0; i < S.n && strcmp(S.dev[i].sysdev, sysdev); i++)
		;
	if (i == S.n) {
		if (S.n == MAX_DEVS)
			goto out;
		snprintf(S.dev[S.n++].sysdev, sizeof(S.dev[0].sysdev), "%s", sysdev);
		S.wake = true;
		pthread_cond_signal(&S.cond);
		goto out;
	}
	/* a sample at most two intervals (and the reads' seconds) old */
	ok = S.dev[i].valid && mono() - S.dev[i].at <= 2 * S.interval + S.n + 1;
	if (ok) {
		*rx = S.dev[i].rx;
		*tx = S.dev[i].tx;
	}
out:
	pthread_mutex_unlock(&S.lock);
	return ok;
}
