/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An oracle for the hardware tests (tests/hw), independent of pstat:
 *
 *   hw_count [-u] TYPE CONFIG command [args...]
 *     counts one event (perf_event_attr type and config, numbers) of the
 *     command and its children from its exec, as pstat does, with fork(2)
 *     where pstat does otherwise, and prints the count on stdout; -u
 *     counts user space only
 *   hw_count -p [-u] TYPE CONFIG
 *     whether that event opens here, on this process
 *
 * Exit status: 0 done; 3 the event does not open (the reason on stdout);
 * 4 it opened but never ran; 1 anything else failed; 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

static int open_event(const char *type, const char *config, int user,
		      pid_t pid)
{
	struct perf_event_attr attr;
	char *end;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)strtoul(type, &end, 0);
	if (*end || !*type)
		return -EDOM;
	attr.config = strtoull(config, &end, 0);
	if (*end || !*config)
		return -EDOM;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	attr.inherit = 1;
	attr.enable_on_exec = pid > 0;
	attr.exclude_kernel = user;
	attr.exclude_hv = user;
	fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int unsupported(int err)
{
	if (err == -EDOM) {
		fprintf(stderr, "hw_count: TYPE and CONFIG are numbers\n");
		return 2;
	}
	printf("cannot open: %s\n", strerror(-err));
	return 3;
}

static int count(int user, char **argv)
{
	uint64_t v[3];
	int go[2], fd, status;
	pid_t pid;
	char c = 0;

	if (pipe2(go, O_CLOEXEC))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	fd = open_event(argv[0], argv[1], user, pid);
	if (fd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return unsupported(fd);
	}
	if (write(go[1], &c, 1) != 1 || waitpid(pid, &status, 0) != pid)
		return 1;
	if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "hw_count: %s failed\n", argv[2]);
		return 1;
	}
	if (v[2] == 0) {
		printf("it never ran\n");
		return 4;
	}
	printf("%llu\n", (unsigned long long)v[0]);
	return 0;
}

int main(int argc, char **argv)
{
	int probe = 0, user = 0, opt, fd;

	while ((opt = getopt(argc, argv, "+pu")) != -1) {
		if (opt == 'p')
			probe = 1;
		else if (opt == 'u')
			user = 1;
		else
			return 2;
	}
	argv += optind;
	argc -= optind;
	if (probe && argc == 2) {
		fd = open_event(argv[0], argv[1], user, 0);
		if (fd < 0)
			return unsupported(fd);
		return 0;
	}
	if (probe || argc < 3) {
		fprintf(stderr, "usage: hw_count [-u] TYPE CONFIG command [args...] | hw_count -p [-u] TYPE CONFIG\n");
		return 2;
	}
	return count(user, argv);
}
