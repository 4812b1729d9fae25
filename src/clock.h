/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pstat's clock reads. By the system call until clock_read_often():
 * the vDSO's first read costs two page faults, its code and the
 * kernel's clock data (about 25 us on these machines, against 1.5 us
 * a system call), which one run of a command, reading the clock four
 * or five times, never wins back; intervals and repeated runs do.
 */
#ifndef PSTAT_CLOCK_H
#define PSTAT_CLOCK_H

#include <time.h>

/* The time of clock id, as clock_gettime(2) gives it. */
void clock_now(clockid_t id, struct timespec *ts);

/* Many reads to come: from now on, the vDSO's. */
void clock_read_often(void);

#endif
