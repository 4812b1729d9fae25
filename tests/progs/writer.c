/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A workload that makes an exact number of write(2) calls, in one process, T threads or C children. */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int devnull = -1;
static long nwrites;

/* The only write(2) calls a successful run makes: tests count them exactly. */
static int write_n(void)
{
	const char byte = 'x';
	long i;

	for (i = 0; i < nwrites; i++)
		if (write(devnull, &byte, 1) != 1)
			return -1;
	return 0;
}

static void *thread_main(void *arg)
{
	(void)arg;
	return write_n() ? (void *)1 : NULL;
}

static int run_threads(long nthreads)
{
	pthread_t *tids = calloc(nthreads, sizeof(*tids));
	int ret = 0;
	long i, started;

	if (!tids)
		return -1;
	for (started = 0; started < nthreads; started++)
		if (pthread_create(&tids[started], NULL, thread_main, NULL))
			break;
	if (started < nthreads)
		ret = -1;
	for (i = 0; i < started; i++) {
		void *res;

		if (pthread_join(tids[i], &res) || res)
			ret = -1;
	}
	free(tids);
	return ret;
}

/* The parent only forks and waits, so with no inherit it writes nothing. */
static int run_forks(long nchildren)
{
	int ret = 0;
	long i;

	for (i = 0; i < nchildren; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(write_n() ? 1 : 0);
	}
	for (;;) {
		int status;
		pid_t pid = wait(&status);

		if (pid < 0)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = -1;
	}
	return errno == ECHILD ? ret : -1;
}

static long parse_count(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 0)
		return -1;
	return n;
}

static int usage(void)
{
	static const char msg[] =
		"usage: writer N [threads T | forks C]\n";

	/* Only on error: the extra write does not matter then. */
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	return 2;
}

int main(int argc, char **argv)
{
	long workers = 1;
	int ret;

	if (argc != 2 && argc != 4)
		return usage();
	nwrites = parse_count(argv[1]);
	if (argc == 4)
		workers = parse_count(argv[3]);
	if (nwrites < 0 || workers < 1)
		return usage();

	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return 1;

	if (argc == 2)
		ret = write_n();
	else if (!strcmp(argv[2], "threads"))
		ret = run_threads(workers);
	else if (!strcmp(argv[2], "forks"))
		ret = run_forks(workers);
	else
		return usage();
	return ret ? 1 : 0;
}
