/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A workload that makes exact numbers of system calls that change
 * nothing: "syscalls unshare=1000 clone=8 getppid=5" makes 1000
 * unshare(0), 8 forks (one clone each, the child exits at once) and 5
 * getppid(); vfork, getcpu, gettid, time, getrusage, sysinfo,
 * sched_yield, getitimer, getgroups, setregid, setresgid, umask (022
 * each time), msync and mincore too. The metric
 * tests count them through tracepoints that a fake PMU names as vendor
 * events.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* Calls that change nothing, made as system calls (never the vDSO's),
 * for the tracepoints that a fake PMU's events land on. */
static int plain(const char *name)
{
	static const struct {
		const char *name;
		long nr;
	} calls[] = {
		{ "getcpu", SYS_getcpu }, { "gettid", SYS_gettid },
		{ "time", SYS_time }, { "getrusage", SYS_getrusage },
		{ "sysinfo", SYS_sysinfo }, { "sched_yield", SYS_sched_yield },
		{ "getitimer", SYS_getitimer }, { "getgroups", SYS_getgroups },
		{ "setregid", SYS_setregid }, { "setresgid", SYS_setresgid },
		{ "umask", SYS_umask }, { "msync", SYS_msync },
		{ "mincore", SYS_mincore },
	};
	static char page[4096] __attribute__((aligned(4096)));
	struct rusage ru;
	struct sysinfo si;
	struct itimerval it;
	unsigned char vec[1];
	unsigned int cpu;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(*calls); i++) {
		if (strcmp(name, calls[i].name) != 0)
			continue;
		switch (calls[i].nr) {
		case SYS_getcpu:
			return (int)syscall(SYS_getcpu, &cpu, NULL, NULL);
		case SYS_time:
			return syscall(SYS_time, NULL) > 0 ? 0 : -1;
		case SYS_getrusage:
			return (int)syscall(SYS_getrusage, RUSAGE_SELF, &ru);
		case SYS_sysinfo:
			return (int)syscall(SYS_sysinfo, &si);
		case SYS_getitimer:
			return (int)syscall(SYS_getitimer, ITIMER_REAL, &it);
		case SYS_getgroups:
			return syscall(SYS_getgroups, 0, NULL) >= 0 ? 0 : -1;
		case SYS_setregid:
			return (int)syscall(SYS_setregid, -1, -1);
		case SYS_setresgid:
			return (int)syscall(SYS_setresgid, -1, -1, -1);
		case SYS_umask:
			/* 022 each time: the mask stays what it is once. */
			return syscall(SYS_umask, 022) >= 0 ? 0 : -1;
		case SYS_msync:
			return (int)syscall(SYS_msync, page, sizeof(page),
					    MS_ASYNC);
		case SYS_mincore:
			return (int)syscall(SYS_mincore, page, sizeof(page), vec);
		default:
			return syscall(calls[i].nr) >= 0 ? 0 : -1;
		}
	}
	return -2;
}

static int one(const char *name)
{
	pid_t pid;

	if (strcmp(name, "unshare") == 0)
		return unshare(0);
	if (strcmp(name, "vfork") == 0) {
		pid = vfork();
		if (pid == 0)
			_exit(0);
		return pid > 0 && waitpid(pid, NULL, 0) == pid ? 0 : -1;
	}
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
	return plain(name);
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
