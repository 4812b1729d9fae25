/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A workload to attach to: T threads that each make N write(2) calls once
 * the process gets SIGUSR1; it lists their thread ids in a file first. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int started, released;
static long writes;
static int devnull;
static pid_t *tids;

static void *worker(void *arg)
{
	const char byte = 'x';
	long i;

	pthread_mutex_lock(&lock);
	tids[(long)arg] = (pid_t)syscall(SYS_gettid);
	started++;
	pthread_cond_signal(&ready);
	while (!released)
		pthread_cond_wait(&go, &lock);
	pthread_mutex_unlock(&lock);
	/* The only write(2) calls after the list: tests count them. */
	for (i = 0; i < writes; i++)
		if (write(devnull, &byte, 1) != 1)
			return (void *)1;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *threads;
	sigset_t usr1;
	long n, i;
	FILE *f;
	int sig;

	if (argc != 4) {
		fprintf(stderr, "usage: waiter N THREADS TIDFILE\n");
		return 2;
	}
	writes = atol(argv[1]);
	n = atol(argv[2]);
	threads = calloc((size_t)n, sizeof(*threads));
	tids = calloc((size_t)n, sizeof(*tids));
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (!threads || !tids || devnull < 0 || n < 1)
		return 1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	for (i = 0; i < n; i++)
		if (pthread_create(&threads[i], NULL, worker, (void *)i))
			return 1;
	pthread_mutex_lock(&lock);
	while (started < n)
		pthread_cond_wait(&ready, &lock);
	pthread_mutex_unlock(&lock);
	/* Written whole and renamed, so a reader never sees half a list. */
	f = fopen("tids.tmp", "w");
	if (!f)
		return 1;
	for (i = 0; i < n; i++)
		fprintf(f, "%d\n", tids[i]);
	if (fclose(f) || rename("tids.tmp", argv[3]))
		return 1;
	sigwait(&usr1, &sig);
	pthread_mutex_lock(&lock);
	released = 1;
	pthread_cond_broadcast(&go);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	free(tids);
	return 0;
}
