/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Faults from the C library for the shell tests, as an LD_PRELOAD shim
 * of pstat: its k-th allocation fails, its system calls are interrupted,
 * its k-th perf_event_open fails. The environment says which:
 *
 *   FAULT_ALLOC=K     the K-th allocation (malloc, calloc, realloc, ...,
 *                     and so strdup, asprintf, fopen) fails with ENOMEM
 *   FAULT_EINTR=1     every read, ioctl, poll, wait4 and perf_event_open
 *                     fails with EINTR once, then runs; but not a read
 *                     of a regular file (sysfs, /proc, tracefs, -e @FILE),
 *                     which Linux never interrupts
 *   FAULT_OPEN=K:ERR  the K-th perf_event_open fails with errno ERR
 *   FAULT_REPORT=FILE at exit, what was done, a "name count" a line:
 *                     allocations, perf_event_opens, eintr_read, ...
 *   FAULT_BACKTRACE=1 the failing allocation's backtrace on stderr, to
 *                     find it by hand (addr2line -e src/pstat)
 *
 * Only the process that loaded it is touched: the shim takes itself and
 * these out of the environment, so the command pstat runs never loads
 * it. pstat's fork child must not allocate before its exec: if it does,
 * the shim says so on standard error, a line starting "fault_shim:".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* glibc's own allocator, under the names it exports for this. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

enum call { READ, IOCTL, POLL, WAIT4, PERF_OPEN, N_CALLS };
static const char *const call_names[N_CALLS] = {
	"read", "ioctl", "poll", "wait4", "perf_event_open",
};

static struct {
	int ready;		/* the constructor ran: faults may start */
	pid_t owner;		/* the process the shim works in */
	unsigned long fail_alloc;	/* FAULT_ALLOC, 0 for none */
	int eintr;		/* FAULT_EINTR */
	int backtrace;		/* FAULT_BACKTRACE */
	unsigned long fail_open;	/* FAULT_OPEN's K, 0 for none */
	int open_err;		/* and its errno */
	char report[4096];	/* FAULT_REPORT, "" for none */
	unsigned long allocs, opens;
	unsigned long eintrs[N_CALLS];
	int retrying[N_CALLS];	/* the last call of each was interrupted */
	ssize_t (*read)(int, void *, size_t);
	int (*ioctl)(int, unsigned long, ...);
	int (*poll)(struct pollfd *, nfds_t, int);
	pid_t (*wait4)(pid_t, int *, int, struct rusage *);
	long (*syscall)(long, ...);
} shim;

static unsigned long number(const char *name)
{
	const char *v = getenv(name);

	return v ? strtoul(v, NULL, 10) : 0;
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *open = getenv("FAULT_OPEN"), *report = getenv("FAULT_REPORT");
	char *colon;

	shim.owner = getpid();
	shim.fail_alloc = number("FAULT_ALLOC");
	shim.eintr = number("FAULT_EINTR") != 0;
	shim.backtrace = number("FAULT_BACKTRACE") != 0;
	if (open) {
		shim.fail_open = strtoul(open, &colon, 10);
		shim.open_err = *colon == ':' ? atoi(colon + 1) : ENOMEM;
	}
	if (report)
		snprintf(shim.report, sizeof(shim.report), "%s", report);
	shim.read = dlsym(RTLD_NEXT, "read");
	shim.ioctl = dlsym(RTLD_NEXT, "ioctl");
	shim.poll = dlsym(RTLD_NEXT, "poll");
	shim.wait4 = dlsym(RTLD_NEXT, "wait4");
	shim.syscall = dlsym(RTLD_NEXT, "syscall");
	unsetenv("LD_PRELOAD");
	unsetenv("FAULT_ALLOC");
	unsetenv("FAULT_EINTR");
	unsetenv("FAULT_OPEN");
	unsetenv("FAULT_REPORT");
	unsetenv("FAULT_BACKTRACE");
	shim.ready = 1;
}

__attribute__((destructor)) static void shim_fini(void)
{
	char buf[1024];
	int fd, n, i;

	if (!shim.report[0] || getpid() != shim.owner)
		return;
	n = snprintf(buf, sizeof(buf),
		     "allocations %lu\nperf_event_opens %lu\n",
		     shim.allocs, shim.opens);
	for (i = 0; i < N_CALLS && n < (int)sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "eintr_%s %lu\n",
			      call_names[i], shim.eintrs[i]);
	fd = open(shim.report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, buf, (size_t)n) != n)
		n = 0;
	close(fd);
}

/* Whether this allocation fails. */
static int alloc_fails(void)
{
	if (!shim.ready)
		return 0;
	if (getpid() != shim.owner) {
		/* The fork child between fork and exec: it must not. */
		static const char msg[] =
			"fault_shim: pstat's fork child allocated before its exec\n";

		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			return 0;
		return 0;
	}
	if (++shim.allocs != shim.fail_alloc)
		return 0;
	if (shim.backtrace) {
		void *frames[32];

		/* Its own allocations come after the one that fails. */
		backtrace_symbols_fd(frames, backtrace(frames, 32),
				     STDERR_FILENO);
	}
	return 1;
}

void *malloc(size_t size)
{
	if (alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, size);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

void *memalign(size_t align, size_t size)
{
	if (alloc_fails()) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_memalign(align, size);
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **p, size_t align, size_t size)
{
	void *q = memalign(align, size);

	if (!q)
		return ENOMEM;
	*p = q;
	return 0;
}

/* Whether this call is interrupted: each once, its retry runs. */
static int interrupted(enum call c)
{
	if (!shim.ready || !shim.eintr || getpid() != shim.owner)
		return 0;
	shim.retrying[c] = !shim.retrying[c];
	if (!shim.retrying[c])
		return 0;
	shim.eintrs[c]++;
	errno = EINTR;
	return 1;
}

ssize_t read(int fd, void *buf, size_t len)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return shim.read(fd, buf, len);
	return interrupted(READ) ? -1 : shim.read(fd, buf, len);
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	return interrupted(IOCTL) ? -1 : shim.ioctl(fd, request, arg);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	return interrupted(POLL) ? -1 : shim.poll(fds, n, timeout);
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	return interrupted(WAIT4) ? -1 : shim.wait4(pid, status, options, ru);
}

/* pstat opens its counters with syscall(SYS_perf_event_open, ...). */
long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open && getpid() == shim.owner) {
		if (interrupted(PERF_OPEN))
			return -1;
		if (++shim.opens == shim.fail_open) {
			errno = shim.open_err;
			return -1;
		}
	}
	return shim.syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
