/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_pmu hardware|msr: does this counter count here? Independently of
 * pstat, it opens the event on itself, spins a little and reads it:
 * hardware is the instructions it retires in user space (a hardware
 * PMU), msr is msr/tsc/ (the msr PMU, which takes no exclude bits, so
 * the right to count the kernel too).
 *
 * Exit status: 0 it counted; 3 it cannot be opened here (no such PMU,
 * or no right to it); 4 it opens but counted nothing; 1 the probe itself
 * failed; 2 usage. Anything but 0 prints the reason on stdout.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

enum { PROBE_OK = 0, PROBE_FAILED = 1, PROBE_USAGE = 2,
       PROBE_UNAVAILABLE = 3, PROBE_NO_COUNT = 4 };

#define MSR_TYPE "/sys/bus/event_source/devices/msr/type"

/* The dynamic type of the msr PMU, or -1 with the reason printed. */
static int msr_type(void)
{
	FILE *f = fopen(MSR_TYPE, "r");
	int type = -1;

	if (!f) {
		printf("no msr PMU: %s: %s\n", MSR_TYPE, strerror(errno));
		return -1;
	}
	if (fscanf(f, "%d", &type) != 1 || type < 0) {
		printf("no msr PMU: %s holds no type\n", MSR_TYPE);
		type = -1;
	}
	fclose(f);
	return type;
}

/* Fills attr for NAME; 0, or a probe status with the reason printed. */
static int describe(const char *name, struct perf_event_attr *attr)
{
	int type;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->disabled = 1;
	if (!strcmp(name, "hardware")) {
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = PERF_COUNT_HW_INSTRUCTIONS;
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		return 0;
	}
	if (!strcmp(name, "msr")) {
		type = msr_type();
		if (type < 0)
			return PROBE_UNAVAILABLE;
		attr->type = (uint32_t)type;
		attr->config = 0;	/* tsc: event=0x00 */
		return 0;
	}
	fprintf(stderr, "usage: probe_pmu hardware|msr\n");
	return PROBE_USAGE;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	volatile unsigned long spin;
	uint64_t count;
	int fd, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: probe_pmu hardware|msr\n");
		return PROBE_USAGE;
	}
	ret = describe(argv[1], &attr);
	if (ret)
		return ret;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		printf("cannot open the %s counter: perf_event_open: %s\n",
		       argv[1], strerror(errno));
		return PROBE_UNAVAILABLE;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		printf("cannot enable the %s counter: %s\n", argv[1],
		       strerror(errno));
		return PROBE_FAILED;
	}
	for (spin = 0; spin < 100000; spin++)
		;
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0 ||
	    read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
		printf("cannot read the %s counter: %s\n", argv[1],
		       strerror(errno));
		return PROBE_FAILED;
	}
	close(fd);
	if (count == 0) {
		printf("the %s counter opens but counted nothing\n", argv[1]);
		return PROBE_NO_COUNT;
	}
	return PROBE_OK;
}
