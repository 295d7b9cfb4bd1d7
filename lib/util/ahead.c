/* SPDX-License-Identifier: MIT */
/*
 * One worker thread that runs jobs in the order they were submitted, ahead of the caller who
 * takes their results in that order (gx_local.h, struct gx_ahead): a ring of slots, each
 * published by a count, the submitted ones by the caller and the done ones by the thread. The
 * slots' contents are the caller's own array, indexed by what gx_ahead_next() and
 * gx_ahead_take() return; a slot is the caller's until submitted, the thread's until done, the
 * caller's again once done. Waits poll briefly, then sleep on a condition variable; the
 * thread takes no signal.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "../gx_local.h"

#define SPIN 2000 /* polls before sleeping: a job takes some tens of microseconds */

struct gx_ahead {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	atomic_size_t nsub;  /* jobs submitted (the caller's) */
	atomic_size_t ndone; /* jobs run (the thread's) */
	atomic_int sleep_w;  /* the thread sleeps on work */
	atomic_int sleep_c;  /* the caller sleeps on done */
	atomic_int stop;
	size_t ntaken;       /* the caller's: jobs taken back */
	size_t nslots;
	void (*run)(void *user, size_t slot);
	void *user;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause");
#elif defined(__aarch64__) || (defined(__arm__) && __ARM_ARCH >= 7)
	__asm__ __volatile__("yield");
#endif
}

/*
 * Wait until *@count reaches @want (or, with @stop, a stop): a short poll, then sleep on @cv
 * with *@sleep raised. The other side raises the count, then looks at *@sleep (post());
 * both sequentially consistent, one of the two sees the other's store, and the signal is
 * sent under the lock the sleeper holds until it sleeps: no wakeup is lost. Return 1 when the
 * count was reached.
 */
static int wait_for(struct gx_ahead *a, atomic_size_t *count, size_t want, atomic_int *sleep,
		    pthread_cond_t *cv, int stop)
{
	int i;

	for (i = 0; i < SPIN; i++) {
		if (atomic_load_explicit(count, memory_order_acquire) >= want)
			return 1;
		if (stop && atomic_load_explicit(&a->stop, memory_order_relaxed))
			break;
		cpu_relax();
	}
	pthread_mutex_lock(&a->mu);
	atomic_store(sleep, 1);
	while (atomic_load(count) < want && !(stop && atomic_load(&a->stop)))
		pthread_cond_wait(cv, &a->mu);
	atomic_store(sleep, 0);
	pthread_mutex_unlock(&a->mu);
	return atomic_load(count) >= want;
}

static void post(struct gx_ahead *a, atomic_size_t *count, size_t v, atomic_int *sleep,
		 pthread_cond_t *cv)
{
	atomic_store(count, v);
	if (atomic_load(sleep)) {
		pthread_mutex_lock(&a->mu);
		pthread_cond_signal(cv);
		pthread_mutex_unlock(&a->mu);
	}
}

static void *thread_main(void *arg)
{
	struct gx_ahead *a = arg;
	size_t k = 0;

	while (wait_for(a, &a->nsub, k + 1, &a->sleep_w, &a->work, 1)) {
		a->run(a->user, k % a->nslots);
		k++;
		post(a, &a->ndone, k, &a->sleep_c, &a->done);
	}
	return NULL;
}

struct gx_ahead *gx_ahead_new(size_t nslots, void (*run)(void *user, size_t slot), void *user)
{
	struct gx_ahead *a = calloc(1, sizeof(*a));
	sigset_t all, old;
	int rc;

	if (!a || !nslots)
		goto fail_free;
	a->nslots = nslots;
	a->run = run;
	a->user = user;
	atomic_init(&a->nsub, 0);
	atomic_init(&a->ndone, 0);
	atomic_init(&a->sleep_w, 0);
	atomic_init(&a->sleep_c, 0);
	atomic_init(&a->stop, 0);
	if (pthread_mutex_init(&a->mu, NULL))
		goto fail_free;
	if (pthread_cond_init(&a->work, NULL))
		goto fail_mu;
	if (pthread_cond_init(&a->done, NULL))
		goto fail_work;
	/* the thread takes no signal: the caller's handlers (SIGINT, SIGPIPE) run where the
	 * caller expects them, in its thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&a->th, NULL, thread_main, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!rc)
		return a;
	pthread_cond_destroy(&a->done);
fail_work:
	pthread_cond_destroy(&a->work);
fail_mu:
	pthread_mutex_destroy(&a->mu);
fail_free:
	free(a);
	return NULL;
}

size_t gx_ahead_pending(const struct gx_ahead *a)
{
	return atomic_load_explicit(&a->nsub, memory_order_relaxed) - a->ntaken;
}

size_t gx_ahead_next(const struct gx_ahead *a)
{
	size_t k = atomic_load_explicit(&a->nsub, memory_order_relaxed);

	return k - a->ntaken < a->nslots ? k % a->nslots : GX_AHEAD_FULL;
}

void gx_ahead_submit(struct gx_ahead *a)
{
	size_t k = atomic_load_explicit(&a->nsub, memory_order_relaxed);

	post(a, &a->nsub, k + 1, &a->sleep_w, &a->work);
}

size_t gx_ahead_head(const struct gx_ahead *a)
{
	return a->ntaken % a->nslots;
}

size_t gx_ahead_take(struct gx_ahead *a)
{
	wait_for(a, &a->ndone, a->ntaken + 1, &a->sleep_c, &a->done, 0);
	return a->ntaken++ % a->nslots;
}

void gx_ahead_free(struct gx_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	atomic_store(&a->stop, 1);
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->done);
	pthread_mutex_destroy(&a->mu);
	free(a);
}
