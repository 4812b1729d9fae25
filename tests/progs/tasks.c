/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A workload whose tasks make known numbers of write(2) calls: "threads"
 * (three threads writing 100, 200 and 300 times, then the main thread
 * 50), "forks" (three children writing 100, 200, and 100 + a thread's
 * 200; the first ends before the others begin; then the parent 50) or
 * "exits N" (N threads one after another, one write each, then 50);
 * "exits N stop" the same with its parent (pstat) stopped meanwhile, so
 * that the records of the exits are more than pstat's buffer holds;
 * "daemon" (a child that writes 10 times, once more to its parent, and
 * lives on, paused; the parent writes its pid to stdout, then its 50).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int devnull = -1;

static int write_n(long n)
{
	const char byte = 'x';
	long i;

	for (i = 0; i < n; i++)
		if (write(devnull, &byte, 1) != 1)
			return -1;
	return 0;
}

static void *thread_main(void *arg)
{
	return write_n((long)(intptr_t)arg) ? (void *)1 : NULL;
}

static int threads(const long *n, size_t count)
{
	pthread_t tid[3];
	size_t i, started;
	int ret;
	void *res;

	for (started = 0; started < count; started++)
		if (pthread_create(&tid[started], NULL, thread_main,
				   (void *)(intptr_t)n[started]))
			break;
	ret = started < count ? -1 : 0;
	for (i = 0; i < started; i++)
		if (pthread_join(tid[i], &res) || res)
			ret = -1;
	return ret;
}

static int forks(void)
{
	static const long one[] = { 200 };
	int ret = 0, status, i;
	pid_t pid;

	for (i = 0; i < 3; i++) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0 && i < 2)
			_exit(write_n(100L * (i + 1)) ? 1 : 0);
		if (pid == 0)
			_exit(write_n(100) || threads(one, 1) ? 1 : 0);
		/* The first child ends before the others begin. */
		if (i == 0 && (waitpid(pid, &status, 0) != pid ||
			       !WIFEXITED(status) || WEXITSTATUS(status)))
			ret = -1;
	}
	while ((pid = wait(&status)) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = -1;
	return ret;
}

static int daemon_child(void)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[0]);
		if (write_n(10) || write(p[1], "x", 1) != 1)
			_exit(1);
		close(p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	/* Its writes are done, and none of this one's yet. */
	if (read(p[0], &c, 1) != 1)
		return -1;
	close(p[0]);
	return dprintf(1, "%d\n", (int)pid) > 0 ? 0 : -1;
}

static int exits(long n)
{
	static const long one[] = { 1 };
	long i;

	for (i = 0; i < n; i++)
		if (threads(one, 1))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const long three[] = { 100, 200, 300 };
	int ret;

	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0 || argc < 2)
		return 2;
	if (strcmp(argv[1], "threads") == 0 && argc == 2)
		ret = threads(three, 3);
	else if (strcmp(argv[1], "forks") == 0 && argc == 2)
		ret = forks();
	else if (strcmp(argv[1], "daemon") == 0 && argc == 2)
		ret = daemon_child();
	else if (strcmp(argv[1], "exits") == 0 && argc == 3)
		ret = exits(strtol(argv[2], NULL, 10));
	else if (strcmp(argv[1], "exits") == 0 && argc == 4 &&
		 strcmp(argv[3], "stop") == 0 && kill(getppid(), SIGSTOP) == 0) {
		ret = exits(strtol(argv[2], NULL, 10));
		if (kill(getppid(), SIGCONT))
			ret = -1;
	}
	else
		return 2;
	return ret || write_n(50) ? 1 : 0;
}
