/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The least a counting tool can do, for scripts/bench to compare with.
 *
 * floor N-EVENTS command [args...]
 *	fork, hold the child on a pipe, open N counters (task-clock and
 *	page-faults in turn, each its own group), let it exec, wait, read
 *	each group once, print: the start-up floor, pstat's budget.
 * floor clone N-EVENTS /absolute/command [args...]
 *	the same with a child started by clone(CLONE_VM) on a small stack
 *	of its own, which makes raw system calls only until its exec (no
 *	page tables to copy, no copy-on-write faults); scripts/bench links
 *	this one statically: the true limit of a counting tool here.
 * floor interval N-EVENTS MS command [args...]
 *	the interval floor: counters as above, then poll on a timerfd
 *	(every MS ms) and a signalfd (SIGCHLD); each tick reads each group
 *	once and writes its CSV lines (pstat -x, -I's shape, without the
 *	metric; by snprintf) to stderr in one write(2); at the child's end the last
 *	partial interval, then exit.
 * floor rss command [args...]
 *	the command's peak RSS in KiB on stdout, measured from a small
 *	parent (a child forked from Python would count Python's memory in
 *	its own peak). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct held {
	int go[2];
	char **argv;
};

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

/* One counter a group, as pstat -e a,b opens them without braces. */
static int *open_counters(int n, pid_t pid)
{
	int *fd = calloc((size_t)n, sizeof(*fd));
	int i;

	for (i = 0; fd && i < n; i++) {
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
	return fd;
}

/* A forked child, held on the pipe until the counters are open. */
static pid_t fork_held(struct held *h, const sigset_t *mask)
{
	pid_t pid;
	char c;

	if (pipe2(h->go, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(h->go[1]);
		if (mask)
			sigprocmask(SIG_SETMASK, mask, NULL);
		if (read(h->go[0], &c, 1) != 1)
			_exit(127);
		execvp(h->argv[0], h->argv);
		_exit(127);
	}
	close(h->go[0]);
	return pid;
}

/* The clone child shares our memory and thread pointer: system calls
 * only (syscall(2) touches errno only when one fails, and then the
 * child leaves at once), no path search, no library state. */
static int clone_child(void *arg)
{
	struct held *h = arg;
	char c;

	if (syscall(SYS_read, h->go[0], &c, 1) == 1)
		syscall(SYS_execve, h->argv[0], h->argv, environ);
	syscall(SYS_exit_group, 127);
	return 127;
}

static char stack[16384] __attribute__((aligned(16)));

static pid_t clone_held(struct held *h)
{
	pid_t pid;

	if (pipe2(h->go, O_CLOEXEC) < 0)
		return -1;
	pid = clone(clone_child, stack + sizeof(stack), CLONE_VM | SIGCHLD,
		    h);
	close(h->go[0]);
	return pid;
}

static int startup(int n, pid_t pid, struct held *h)
{
	uint64_t buf[3 + 2 * 2];
	int i, status, *fd;

	if (pid < 0)
		return 125;
	fd = open_counters(n, pid);
	if (!fd || write(h->go[1], "x", 1) != 1)
		return 125;
	waitpid(pid, &status, 0);
	for (i = 0; i < n; i++)
		if (fd[i] >= 0 && read(fd[i], buf, sizeof(buf)) > 0)
			fprintf(stderr, "%llu\n", (unsigned long long)buf[3]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct last {
	uint64_t val, ena, run;
};

/* One interval: read each group once, one line each, one write. The
 * lines by snprintf, as a plain C tool writes them (the floor issue 16
 * set the interval budget against: about 35k instructions an interval
 * for 20 events). */
static void interval(int n, const int *fd, struct last *last, char *out,
		     size_t len, uint64_t t0)
{
	uint64_t buf[3 + 2 * 2], v, e, r;
	double t = (double)(now_ns() - t0) / 1e9;
	size_t used = 0;
	int i;

	for (i = 0; i < n && used < len; i++) {
		if (fd[i] < 0 || read(fd[i], buf, sizeof(buf)) <= 0)
			continue;
		v = buf[3] - last[i].val;
		e = buf[1] - last[i].ena;
		r = buf[2] - last[i].run;
		last[i] = (struct last){ buf[3], buf[1], buf[2] };
		if (i % 2 == 0)
			used += (size_t)snprintf(out + used, len - used,
				"%.9f,%.2f,msec,task-clock,%llu,%.2f,,\n", t,
				(double)v / 1e6, (unsigned long long)r,
				e ? 100.0 * (double)r / (double)e : 100.0);
		else
			used += (size_t)snprintf(out + used, len - used,
				"%.9f,%llu,,page-faults,%llu,%.2f,,\n", t,
				(unsigned long long)v, (unsigned long long)r,
				e ? 100.0 * (double)r / (double)e : 100.0);
	}
	if (used > len)
		used = len;
	if (used && write(2, out, used) < 0)
		return;
}

static int intervals(int n, long ms, char **argv)
{
	struct itimerspec its = { { ms / 1000, ms % 1000 * 1000000L },
				  { ms / 1000, ms % 1000 * 1000000L } };
	struct held h = { .argv = argv };
	struct signalfd_siginfo si;
	struct pollfd pfd[2];
	sigset_t chld, old;
	struct last *last;
	uint64_t tick, t0;
	int *fd, status;
	char *out;
	pid_t pid;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	pid = fork_held(&h, &old);
	if (pid < 0 || ms <= 0)
		return 125;
	fd = open_counters(n, pid);
	last = calloc((size_t)n, sizeof(*last));
	out = malloc((size_t)n * 128);
	pfd[0].fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	pfd[1].fd = signalfd(-1, &chld, SFD_CLOEXEC);
	pfd[0].events = pfd[1].events = POLLIN;
	if (!fd || !last || !out || pfd[0].fd < 0 || pfd[1].fd < 0 ||
	    write(h.go[1], "x", 1) != 1)
		return 125;
	t0 = now_ns();
	timerfd_settime(pfd[0].fd, 0, &its, NULL);
	for (;;) {
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[1].revents && read(pfd[1].fd, &si, sizeof(si)) > 0 &&
		    waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (pfd[0].revents && read(pfd[0].fd, &tick, 8) == 8)
			interval(n, fd, last, out, (size_t)n * 128, t0);
	}
	interval(n, fd, last, out, (size_t)n * 128, t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int main(int argc, char **argv)
{
	struct held h = { .argv = argv + 2 };

	if (argc >= 3 && strcmp(argv[1], "rss") == 0)
		return rss(argv + 2);
	if (argc >= 4 && strcmp(argv[1], "clone") == 0) {
		h.argv = argv + 3;
		return startup(atoi(argv[2]), clone_held(&h), &h);
	}
	if (argc >= 5 && strcmp(argv[1], "interval") == 0)
		return intervals(atoi(argv[2]), atol(argv[3]), argv + 4);
	if (argc < 3)
		return 125;
	return startup(atoi(argv[1]), fork_held(&h, NULL), &h);
}
