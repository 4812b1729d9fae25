/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The least a counting tool can do, for scripts/bench to compare with:
 * fork, hold the child on a pipe, open the counters, let it exec, wait,
 * read each group once, print. floor N-EVENTS command [args...]
 * Also floor rss command [args...]: the command's peak RSS in KiB on
 * stdout, measured from a small parent (a child forked from Python
 * would count Python's memory in its own peak). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int rss(char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 125;
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}

int main(int argc, char **argv)
{
	int go[2], n, i, status, *fd;
	uint64_t buf[3 + 2 * 2];
	pid_t pid;
	char c;

	if (argc >= 3 && strcmp(argv[1], "rss") == 0)
		return rss(argv + 2);
	if (argc < 3 || pipe2(go, O_CLOEXEC) < 0)
		return 125;
	n = atoi(argv[1]);
	fd = calloc((size_t)n, sizeof(*fd));
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	close(go[0]);
	for (i = 0; i < n; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = i % 2 ? PERF_COUNT_SW_PAGE_FAULTS
				 : PERF_COUNT_SW_TASK_CLOCK;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = 1;
		a.enable_on_exec = 1;
		a.inherit = 1;
		fd[i] = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1,
				     PERF_FLAG_FD_CLOEXEC);
	}
	if (write(go[1], "x", 1) != 1)
		return 125;
	waitpid(pid, &status, 0);
	for (i = 0; i < n; i++)
		if (fd[i] >= 0 && read(fd[i], buf, sizeof(buf)) > 0)
			fprintf(stderr, "%llu\n", (unsigned long long)buf[3]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
