// SPDX-License-Identifier: MIT
/*
 * The CPU backend's thread pool (pool.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "engine/pool.h"

/*
 * Workers spin for a while on the generation counter before they sleep on
 * the condition variable: a forward pass dispatches one job per time step
 * and layer, and a sleeping thread's wake-up would cost more than a step
 * at batch 1.
 */
#define POOL_SPINS 20000	/* about a millisecond */

struct worker_arg {
	struct pool *p;
	int tid;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void *worker(void *varg)
{
	struct worker_arg *wa = varg;
	struct pool *p = wa->p;
	int tid = wa->tid;
	unsigned long seen = 0, g;

	free(wa);
	for (;;) {
		long spins = 0;

		while ((g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE)) == seen &&
		       !__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
			if (++spins < POOL_SPINS) {
				cpu_relax();
				continue;
			}
			pthread_mutex_lock(&p->mu);
			while (__atomic_load_n(&p->gen, __ATOMIC_ACQUIRE) == seen &&
			       !__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
				pthread_cond_wait(&p->go, &p->mu);
			pthread_mutex_unlock(&p->mu);
		}
		if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
			return NULL;
		seen = g;
		p->fn(p->arg, tid, p->n);
		__atomic_fetch_sub(&p->pending, 1, __ATOMIC_RELEASE);
	}
}

void pool_run(struct pool *p, void (*fn)(void *, int, int), void *arg)
{
	if (p->n > 1) {
		p->fn = fn;
		p->arg = arg;
		__atomic_store_n(&p->pending, p->n - 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&p->mu);
		__atomic_fetch_add(&p->gen, 1, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&p->go);
		pthread_mutex_unlock(&p->mu);
	}
	fn(arg, 0, p->n);
	/* a worker that lost its CPU to another process gets it back sooner */
	for (long spins = 0; __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE) > 0;)
		if (++spins < POOL_SPINS)
			cpu_relax();
		else
			sched_yield();
}

int pool_start(struct pool *p, int n)
{
	p->n = 1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	for (int i = 1; i < n; i++) {
		struct worker_arg *wa = malloc(sizeof(*wa));

		if (!wa)
			return -1;
		wa->p = p;
		wa->tid = i;
		if (pthread_create(&p->th[i], NULL, worker, wa)) {
			free(wa);
			return -1;
		}
		p->n = i + 1;
	}
	return 0;
}

void pool_stop(struct pool *p)
{
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (int i = 1; i < p->n; i++)
		pthread_join(p->th[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
}
