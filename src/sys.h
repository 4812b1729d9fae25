/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel seam: every perf syscall pstat makes goes through here. */
#ifndef PSTAT_SYS_H
#define PSTAT_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

/*
 * The operations behind the seam. Each returns what the system call
 * returns, or -errno on failure, so callers never look at errno;
 * -EINTR too, which the sys_ functions below retry.
 */
struct sys_ops {
	int (*perf_event_open)(struct perf_event_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags);
	int (*ioctl)(int fd, unsigned long request, void *arg);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*close)(int fd);
	/* kernel.perf_event_paranoid into *level; NULL: unknown. */
	int (*paranoid)(int *level);
	/* A shared read-write mapping of len bytes of a counter, in *addr
	 * (its ring buffer); and its unmapping. NULL: -ENOSYS. */
	int (*mmap)(int fd, size_t len, void **addr);
	int (*munmap)(void *addr, size_t len);
};

/* Replace the operations (unit tests); NULL restores the kernel's. */
void sys_set_ops(const struct sys_ops *ops);

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags);

/*
 * Told of every perf_event_open after it returned ret (the descriptor
 * or -errno): -vv's trace, printed above this seam. NULL: none.
 */
typedef void sys_open_observer(void *arg, const struct perf_event_attr *attr,
			       pid_t pid, int cpu, int group_fd,
			       unsigned long flags, int ret);
void sys_observe_opens(sys_open_observer *fn, void *arg);
int sys_event_id(int fd, uint64_t *id);
int sys_event_ioctl(int fd, unsigned long request, unsigned long arg);
ssize_t sys_read(int fd, void *buf, size_t len);
int sys_close(int fd);

/*
 * Map len bytes of counter fd, shared and writable (its metadata page
 * and ring buffer, perf_event_open(2)): 0 with *addr, or -errno. The
 * mapping is undone by sys_munmap.
 */
int sys_mmap(int fd, size_t len, void **addr);
int sys_munmap(void *addr, size_t len);

/* kernel.perf_event_paranoid; 0, or -ENOENT without perf events, or
 * -ENOSYS when the operations in use do not say. */
int sys_paranoid(int *level);

#endif
