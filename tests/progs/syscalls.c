/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A workload that makes exact numbers of system calls that change
 * nothing: "syscalls unshare=1000 clone=8 getppid=5" makes 1000
 * unshare(0), 8 forks (one clone each, the child exits at once) and 5
 * getppid(). The metric tests count them through tracepoints that a
 * fake PMU names as vendor events.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int one(const char *name)
{
	pid_t pid;

	if (strcmp(name, "unshare") == 0)
		return unshare(0);
	if (strcmp(name, "getppid") == 0)
		return getppid() > 0 ? 0 : -1;
	if (strcmp(name, "getuid") == 0)
		return (int)getuid() >= 0 ? 0 : -1;
	if (strcmp(name, "clone") == 0) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		return pid > 0 && waitpid(pid, NULL, 0) == pid ? 0 : -1;
	}
	return -2;
}

int main(int argc, char **argv)
{
	char *eq;
	long n, i;
	int a, ret;

	for (a = 1; a < argc; a++) {
		eq = strchr(argv[a], '=');
		n = eq ? strtol(eq + 1, NULL, 10) : -1;
		if (!eq || n < 0) {
			fprintf(stderr, "syscalls: give NAME=COUNT, not '%s'\n", argv[a]);
			return 2;
		}
		*eq = '\0';
		for (i = 0; i < n; i++) {
			ret = one(argv[a]);
			if (ret == -2) {
				fprintf(stderr, "syscalls: unknown call '%s'\n", argv[a]);
				return 2;
			}
			if (ret < 0) {
				perror(argv[a]);
				return 1;
			}
		}
	}
	return 0;
}
