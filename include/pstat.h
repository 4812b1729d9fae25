/* SPDX-License-Identifier: MIT */
/*
 * pstat.h: named regions of interest for pstat --regions. Header only,
 * for C and C++.
 *
 *	#include <pstat.h>
 *
 *	PSTAT_REGION_BEGIN("solve");
 *	solve();
 *	PSTAT_REGION_END("solve");
 *
 * Run the program as `pstat --regions -e EVENTS -- ./prog`: pstat prints
 * the counts of each region (summed over its entries, with the entries
 * and the time inside) after those of the whole run. Each mark waits for
 * pstat's answer, so the counts change at the mark itself. Regions nest
 * and repeat; a region entered again while open counts once, from its
 * first begin to its last end.
 *
 * Without pstat (no PSTAT_CTL_FD in the environment) a mark costs one
 * branch, after the first, which reads the environment. A mark writes
 * its line to PSTAT_CTL_FD and reads pstat's answer from PSTAT_ACK_FD
 * with writev(2) and readv(2), not write(2) and read(2), so that the
 * tracepoints syscalls:sys_enter_write and _read do not count the marks.
 * Threads of one process take turns at a mark (a lock here); processes
 * that mark at the same time on one channel may see each other's
 * answers, and a mark may then count a few events early or late. When
 * pstat is gone, its answer is an end of file, and the marks stop.
 *
 * The channel is perf's too: PERF_CTL_FD and PERF_ACK_FD name the same
 * pipes, so a program that writes "enable" and "disable" for perf stat
 * --control works under pstat --control or --regions unchanged.
 */
#ifndef PSTAT_H
#define PSTAT_H

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The protocol's version: lines "begin NAME", "end NAME", "ack" back. */
#define PSTAT_H_VERSION 1

/* The longest name pstat keeps whole; longer ones are cut. */
#define PSTAT_REGION_NAME_MAX 240

#ifdef __cplusplus
#define PSTAT_CAST_(type, x) static_cast<type>(x)
#else
#define PSTAT_CAST_(type, x) ((type)(x))
#endif

/* The channel's descriptors: ctl -2 not yet looked for, -1 none. One
 * per file that includes this header, which is harmless: each looks
 * once. */
struct pstat_channel_ {
	int ctl, ack;
};

static inline struct pstat_channel_ *pstat_channel_(void)
{
	static struct pstat_channel_ ch = { -2, -1 };

	return &ch;
}

/*
 * One lock for every file of the process that includes this header (a
 * weak definition: the linker keeps one), so that a thread hears the
 * answer to its own mark.
 */
extern int pstat_lock_;
__attribute__((weak)) int pstat_lock_;

/* The descriptor an environment variable names, digits only, or -1. */
static inline int pstat_env_fd_(const char *name)
{
	const char *s = getenv(name);
	int v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* Send "VERB NAME\n" and wait for the answer: 0, or -1 with errno. */
static inline int pstat_mark_(const char *verb, const char *name)
{
	struct pstat_channel_ *ch = pstat_channel_();
	char line[PSTAT_REGION_NAME_MAX + 16], ack[16];
	size_t v = strlen(verb), n = strcspn(name, "\n"), off = 0;
	struct iovec io;
	ssize_t k;
	int ret = 0;

	if (ch->ctl == -2) {
		ch->ack = pstat_env_fd_("PSTAT_ACK_FD");
		ch->ctl = ch->ack < 0 ? -1 : pstat_env_fd_("PSTAT_CTL_FD");
	}
	/* pstat answers no line without a name: none is sent. */
	if (ch->ctl < 0 || n == 0)
		return 0;
	if (n > PSTAT_REGION_NAME_MAX)
		n = PSTAT_REGION_NAME_MAX;
	memcpy(line, verb, v);
	line[v] = ' ';
	memcpy(line + v + 1, name, n);
	line[v + 1 + n] = '\n';
	while (__atomic_exchange_n(&pstat_lock_, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	while (off < v + n + 2) {
		io.iov_base = line + off;
		io.iov_len = v + n + 2 - off;
		k = writev(ch->ctl, &io, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			ret = -1;
			break;
		}
		off += PSTAT_CAST_(size_t, k);
	}
	/* "ack\n", in one piece as a rule: read to its newline. */
	while (ret == 0) {
		io.iov_base = ack;
		io.iov_len = sizeof(ack);
		k = readv(ch->ack, &io, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			ret = -1;
		else if (ack[k - 1] == '\n')
			break;
	}
	/* pstat is gone: the program goes on, unmarked. */
	if (ret < 0)
		ch->ctl = -1;
	__atomic_store_n(&pstat_lock_, 0, __ATOMIC_RELEASE);
	return ret;
}

/* Enter the region NAME (a string; the name ends at a newline; an empty
 * one marks nothing). */
#define PSTAT_REGION_BEGIN(name) \
	((void)(pstat_channel_()->ctl != -1 ? pstat_mark_("begin", (name)) : 0))
/* Leave it. */
#define PSTAT_REGION_END(name) \
	((void)(pstat_channel_()->ctl != -1 ? pstat_mark_("end", (name)) : 0))

#ifdef __cplusplus
}
#endif

#endif
