/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A loop whose instruction count is known, for the hardware tests
 * (tests/hw): insn_loop [-f K | -t K] [-w] N runs N iterations of a
 * loop of exactly two instructions (subs; b.ne on aarch64, dec; jnz on
 * x86_64), so N more iterations retire exactly 2N more instructions in
 * user space.
 *
 *   -f K  K children forked, each runs the loop; the parent only waits
 *   -t K  K threads, each runs the loop; the main thread only joins
 *   -w    print "ready" on stdout, then wait for SIGUSR1 before looping
 *         (for tests that attach to it with -p)
 *
 * insn_loop -c prints the instructions of one iteration (2), or fails
 * with status 3 where there is no known loop (another architecture).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "insn_loop.h"

static unsigned long iterations;

static void *thread_loop(void *arg)
{
	loop(iterations);
	return arg;
}

static int run_forks(long k)
{
	long i;
	int status, ret = 0;
	pid_t pid;

	for (i = 0; i < k; i++) {
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			loop(iterations);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = 1;
	return ret;
}

static int run_threads(long k)
{
	pthread_t *t = calloc((size_t)k, sizeof(*t));
	long i;

	if (!t)
		return 1;
	for (i = 0; i < k; i++)
		if (pthread_create(&t[i], NULL, thread_loop, NULL))
			return 1;
	for (i = 0; i < k; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}

/* "ready" once SIGUSR1 is blocked, so that a signal sent on reading it
 * is never lost; then wait for it. */
static int wait_usr1(void)
{
	sigset_t usr1;
	int sig;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL))
		return 1;
	if (printf("ready\n") < 0 || fflush(stdout))
		return 1;
	return sigwait(&usr1, &sig) != 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: insn_loop [-f K | -t K] [-w] N | insn_loop -c\n");
	return 2;
}

int main(int argc, char **argv)
{
	long forks = 0, threads = 0;
	int opt, wait_first = 0;
	char *end;

	while ((opt = getopt(argc, argv, "cf:t:w")) != -1) {
		switch (opt) {
		case 'c':
			if (!LOOP_INSNS) {
				fprintf(stderr, "insn_loop: no known loop on this architecture\n");
				return 3;
			}
			printf("%d\n", LOOP_INSNS);
			return 0;
		case 'f':
			forks = strtol(optarg, &end, 10);
			if (*end || forks < 1)
				return usage();
			break;
		case 't':
			threads = strtol(optarg, &end, 10);
			if (*end || threads < 1)
				return usage();
			break;
		case 'w':
			wait_first = 1;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc - 1 || (forks && threads))
		return usage();
	iterations = strtoul(argv[optind], &end, 10);
	if (*end || argv[optind][0] == '-')
		return usage();
	if (wait_first && wait_usr1())
		return 1;
	if (forks)
		return run_forks(forks);
	if (threads)
		return run_threads(threads);
	loop(iterations);
	return 0;
}
