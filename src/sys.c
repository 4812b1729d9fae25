/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel seam: perf_event_open, its ioctls, read and close. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys.h"

static int kernel_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				  int cpu, int group_fd, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

static int kernel_ioctl(int fd, unsigned long request, void *arg)
{
	int ret = ioctl(fd, request, arg);

	return ret < 0 ? -errno : ret;
}

static ssize_t kernel_read(int fd, void *buf, size_t len)
{
	ssize_t n = read(fd, buf, len);

	return n < 0 ? -errno : n;
}

static int kernel_close(int fd)
{
	/* Linux releases the descriptor even when close reports EINTR. */
	return close(fd) < 0 && errno != EINTR ? -errno : 0;
}

/* Without stdio, whose buffer is an allocation that may fail. */
static int kernel_paranoid(int *level)
{
	int fd = open("/proc/sys/kernel/perf_event_paranoid",
		      O_RDONLY | O_CLOEXEC);
	char buf[32];
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return sscanf(buf, "%d", level) == 1 ? 0 : -EINVAL;
}

static int kernel_mmap(int fd, size_t len, void **addr)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	*addr = p;
	return 0;
}

static int kernel_munmap(void *addr, size_t len)
{
	return munmap(addr, len) < 0 ? -errno : 0;
}

static const struct sys_ops kernel_ops = {
	.perf_event_open = kernel_perf_event_open,
	.ioctl = kernel_ioctl,
	.read = kernel_read,
	.close = kernel_close,
	.paranoid = kernel_paranoid,
	.mmap = kernel_mmap,
	.munmap = kernel_munmap,
};

static const struct sys_ops *ops = &kernel_ops;
static sys_open_observer *observer;
static void *observer_arg;

void sys_set_ops(const struct sys_ops *new_ops)
{
	ops = new_ops ? new_ops : &kernel_ops;
}

void sys_observe_opens(sys_open_observer *fn, void *arg)
{
	observer = fn;
	observer_arg = arg;
}

/*
 * A signal that interrupts a call is no failure of it: the calls are
 * made again here, above the seam, so that the fake kernel's EINTR
 * tests the retry pstat ships. Not close: Linux has released the
 * descriptor even then.
 */
int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags)
{
	int fd;

	do {
		fd = ops->perf_event_open(attr, pid, cpu, group_fd, flags);
	} while (fd == -EINTR);
	if (observer)
		observer(observer_arg, attr, pid, cpu, group_fd, flags, fd);
	return fd;
}

static int event_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ops->ioctl(fd, request, arg);
	} while (ret == -EINTR);
	return ret;
}

int sys_event_id(int fd, uint64_t *id)
{
	return event_ioctl(fd, PERF_EVENT_IOC_ID, id);
}

int sys_event_ioctl(int fd, unsigned long request, unsigned long arg)
{
	/* NOLINTNEXTLINE(performance-no-int-to-ptr): as ioctl(2) does */
	return event_ioctl(fd, request, (void *)arg);
}

ssize_t sys_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	do {
		n = ops->read(fd, buf, len);
	} while (n == -EINTR);
	return n;
}

int sys_close(int fd)
{
	return ops->close(fd);
}

int sys_paranoid(int *level)
{
	return ops->paranoid ? ops->paranoid(level) : -ENOSYS;
}

int sys_mmap(int fd, size_t len, void **addr)
{
	return ops->mmap ? ops->mmap(fd, len, addr) : -ENOSYS;
}

int sys_munmap(void *addr, size_t len)
{
	return ops->munmap ? ops->munmap(addr, len) : -ENOSYS;
}
