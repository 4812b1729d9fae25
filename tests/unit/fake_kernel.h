/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The unit tests' one fake kernel, behind sys.c's seam: it logs what
 * pstat asks, answers opens by rule or call by call, and keeps a
 * counter per descriptor that a group read reports as the kernel
 * lays it out. A test sets the answers after fake_setup().
 */
#ifndef PSTAT_FAKE_KERNEL_H
#define PSTAT_FAKE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "aggr.h"

#define FAKE_FIRST_FD	100
#define FAKE_MAX_CALLS	256
#define FAKE_NO_PARANOID	(-1000)	/* the level cannot be read */

struct fake_kernel {
	/* What pstat asked. */
	struct fake_open {
		struct perf_event_attr attr;
		pid_t pid;
		int cpu, group_fd, ret;
		unsigned long flags;
	} opens[FAKE_MAX_CALLS];
	size_t n_opens;
	unsigned closes[FAKE_MAX_CALLS];	/* by fd - FAKE_FIRST_FD */
	int closed[FAKE_MAX_CALLS];	/* the fds, in the order closed */
	size_t n_closes;
	struct fake_read {
		int fd;
		size_t len;
	} reads[FAKE_MAX_CALLS];
	size_t n_reads;
	unsigned ioctls[FAKE_MAX_CALLS];	/* enables and disables, by fd */
	size_t n_paranoid;

	/* What it answers. */
	int open_errno[FAKE_MAX_CALLS];	/* by call: fail it with this */
	int kernel_err;		/* an open that counts the kernel fails so */
	int user_err;		/* one that leaves the kernel out fails so */
	int cpu_err;		/* one on a CPU (pid -1) fails so */
	int id_errno[FAKE_MAX_CALLS];	/* by fd: fail its PERF_EVENT_IOC_ID */
	int paranoid;		/* kernel.perf_event_paranoid, 2 by default */
	bool eintr;		/* every open, ioctl and read is interrupted
				 * (EINTR) once, then answered */
	size_t n_eintr;		/* the calls interrupted so */
	bool retrying;		/* the last call was interrupted */
	struct fake_counter {
		uint64_t value, enabled, running;
	} counters[FAKE_MAX_CALLS];	/* by fd: what a read reports */
	struct fake_reply {
		uint64_t buf[64];
		size_t len;	/* bytes; 0: answer from the counters */
		int err;	/* fail the read with this instead */
		bool eof;	/* or say end of file, as for a pinned group
				 * in error state */
	} replies[FAKE_MAX_CALLS];	/* by fd: a read answered as is */
	int next_fd;
	/* The ring buffer it maps (sys_mmap), and where counters send
	 * their records (PERF_EVENT_IOC_SET_OUTPUT), by fd; 0: nowhere. */
	union {
		unsigned char ring[64 * 1024];
		uint64_t align;
	};
	size_t mmap_len;	/* mapped now, 0 when not */
	int mmap_fd;
	int mmap_err;		/* fail the mmap with this */
	unsigned munmaps;
	int output[FAKE_MAX_CALLS];
};

extern struct fake_kernel fake;

/* Install the fake with nothing failing (Check fixtures). */
void fake_setup(void);
void fake_teardown(void);

/* -A on the fake machine's two CPUs: targets 0 and 1, a CPU each. */
extern const struct aggr fake_per_cpu;

/* The id the fake gives fd: not the fd, so no one can mix them up. */
uint64_t fake_id(int fd);

/* What fd's counter reads: a group read reports it with its members. */
void fake_count(int fd, uint64_t value, uint64_t enabled, uint64_t running);

/* A group read answered as is; pairs are (value, fd) of its members. */
void fake_reply(int fd, uint64_t enabled, uint64_t running, size_t nr,
		const uint64_t *pairs);

#endif
