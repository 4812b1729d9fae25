/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel seam: perf_event_open, its ioctls, read and close. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys.h"

static int kernel_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				  int cpu, int group_fd, unsigned long flags)
{
	long fd;

	do {
		fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			     flags);
	} while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : (int)fd;
}

static int kernel_ioctl(int fd, unsigned long request, void *arg)
{
	int ret = ioctl(fd, request, arg);

	return ret < 0 ? -errno : ret;
}

static ssize_t kernel_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	do {
		n = read(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int kernel_close(int fd)
{
	/* Linux releases the descriptor even when close reports EINTR. */
	return close(fd) < 0 && errno != EINTR ? -errno : 0;
}

static int kernel_paranoid(int *level)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", level) == 1;
	(void)fclose(f);
	return ok ? 0 : -EINVAL;
}

static const struct sys_ops kernel_ops = {
	.perf_event_open = kernel_perf_event_open,
	.ioctl = kernel_ioctl,
	.read = kernel_read,
	.close = kernel_close,
	.paranoid = kernel_paranoid,
};

static const struct sys_ops *ops = &kernel_ops;

void sys_set_ops(const struct sys_ops *new_ops)
{
	ops = new_ops ? new_ops : &kernel_ops;
}

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags)
{
	return ops->perf_event_open(attr, pid, cpu, group_fd, flags);
}

int sys_event_id(int fd, uint64_t *id)
{
	return ops->ioctl(fd, PERF_EVENT_IOC_ID, id);
}

int sys_event_ioctl(int fd, unsigned long request, unsigned long arg)
{
	/* NOLINTNEXTLINE(performance-no-int-to-ptr): as ioctl(2) does */
	return ops->ioctl(fd, request, (void *)arg);
}

ssize_t sys_read(int fd, void *buf, size_t len)
{
	return ops->read(fd, buf, len);
}

int sys_close(int fd)
{
	return ops->close(fd);
}

int sys_paranoid(int *level)
{
	return ops->paranoid ? ops->paranoid(level) : -ENOSYS;
}
