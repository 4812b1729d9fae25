/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_bp [N]: do data breakpoints count here? Independently of pstat,
 * it opens a write breakpoint of length 8 on its own global, stores to it
 * N times (1000 by default) and reads the count. On some hosts (an AMD
 * EPYC host, for one) the breakpoint opens and never fires.
 *
 * Exit status: 0 it counted exactly N; 3 no breakpoint can be opened
 * here; 4 one opens but does not count the stores exactly; 1 the probe
 * itself failed; 2 usage. Anything but 0 prints the reason on stdout.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

enum { PROBE_OK = 0, PROBE_FAILED = 1, PROBE_USAGE = 2,
       PROBE_UNAVAILABLE = 3, PROBE_NO_COUNT = 4 };

/* Only stores touch it, and only in the loop below. */
static volatile uint64_t watched __attribute__((aligned(8)));

static int open_breakpoint(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (uintptr_t)&watched;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.sample_period = 0;
	attr.disabled = 1;
	/* User space only: what any user may count at paranoid 2. */
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

static long parse_count(int argc, char **argv)
{
	char *end;
	long n;

	if (argc == 1)
		return 1000;
	if (argc != 2)
		return -1;
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || n < 1)
		return -1;
	return n;
}

int main(int argc, char **argv)
{
	uint64_t count;
	long i, n = parse_count(argc, argv);
	int fd;

	if (n < 0) {
		fprintf(stderr, "usage: probe_bp [N]\n");
		return PROBE_USAGE;
	}
	fd = open_breakpoint();
	if (fd < 0) {
		printf("cannot open a write breakpoint on a global: perf_event_open: %s\n",
		       strerror(errno));
		return PROBE_UNAVAILABLE;
	}
	if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) < 0 ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		printf("cannot enable the breakpoint: %s\n", strerror(errno));
		return PROBE_FAILED;
	}
	for (i = 0; i < n; i++)
		watched = (uint64_t)i;
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0 ||
	    read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
		printf("cannot read the breakpoint's count: %s\n",
		       strerror(errno));
		return PROBE_FAILED;
	}
	close(fd);
	if (count != (uint64_t)n) {
		printf("a write breakpoint opens but counted %llu of %ld stores%s\n",
		       (unsigned long long)count, n,
		       count ? "" : ": it never fires on this host");
		return PROBE_NO_COUNT;
	}
	return PROBE_OK;
}
