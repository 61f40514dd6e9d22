/* SPDX-License-Identifier: MIT */
/*
 * The CPU backend's thread pool: n threads (the caller being thread 0)
 * that run one job at a time, each with its thread id.
 */
#ifndef NAVIBENCH_ENGINE_POOL_H
#define NAVIBENCH_ENGINE_POOL_H

#include <pthread.h>

#define NB_MAX_THREADS 256

struct pool {
	int n;
	pthread_t th[NB_MAX_THREADS];
	pthread_mutex_t mu;
	pthread_cond_t go;
	unsigned long gen;	/* atomic; bumped per job, under mu */
	int pending;		/* atomic; workers still running the job */
	int stop;		/* atomic */
	void (*fn)(void *arg, int tid, int n);	/* published by gen */
	void *arg;
};

/* pool_start() - the caller and n - 1 workers; -1 when a thread could not
 * start (p->n says how many run; pool_stop() them). */
int pool_start(struct pool *p, int n);
/* pool_run() - fn(arg, tid, p->n) on every thread, the caller's included;
 * returns when all are done. */
void pool_run(struct pool *p, void (*fn)(void *, int, int), void *arg);
/* pool_stop() - the workers stopped and joined. */
void pool_stop(struct pool *p);

#endif /* NAVIBENCH_ENGINE_POOL_H */
