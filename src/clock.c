/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's clock reads: the system call, or the vDSO once worth it. */
#include "config.h"

#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

static bool often;

/* The kernel's timespec is {long, long}: a 64-bit time_t on a 32-bit
 * architecture is not, and takes the C library's way. */
static bool by_syscall(clockid_t id, struct timespec *ts)
{
#ifdef SYS_clock_gettime
	return sizeof(ts->tv_sec) == sizeof(long) &&
	       syscall(SYS_clock_gettime, id, ts) == 0;
#else
	return false;
#endif
}

void clock_now(clockid_t id, struct timespec *ts)
{
	if (often || !by_syscall(id, ts))
		clock_gettime(id, ts);
}

void clock_read_often(void)
{
	often = true;
}
