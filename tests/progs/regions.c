/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Named regions through pstat.h, with known numbers of write(2) calls
 * in each (tests/regions.sh):
 *
 *   regions marks    5 outside; 'a' entered 3 times, 100 writes each;
 *                    'b' once, 7; 'o' with 5, 'i' inside it with 10,
 *                    then 3 more in 'o'; an end of 'never', never
 *                    begun; 'left' begun, 4 writes, never ended.
 *                    334 writes in all.
 *   regions threads  4 threads, each entering 't' 50 times with 2
 *                    writes inside: 400 in 't'.
 *   regions perf     perf's protocol on PERF_CTL_FD and PERF_ACK_FD:
 *                    enable, 10 writes, disable, 20 writes, enable,
 *                    30 writes, disable: what perf stat -D -1
 *                    --control counts, pstat must count.
 *   regions bench N  N begin/end pairs of an empty region (scripts/bench:
 *                    what a mark costs)
 *   regions perfbench N
 *                    N enable/disable pairs on perf's protocol (the same
 *                    figure for pstat -D -1 and perf stat -D -1 --control)
 *   regions odd      an empty name (marks nothing) and "x\ny" (the
 *                    region x): 2 writes inside x
 *   regions metric   10 getppid and 10 getuid outside; in 'm', 6 getppid
 *                    and 3 getuid (a metric's ratio: 2 in 'm')
 *   regions linger   "started" on stdout, 100 marks 10 ms apart, then
 *                    "done": tests/regions.sh kills pstat meanwhile
 *   regions loop N   'loop' around a loop of N iterations, N > 0
 *                    (insn_loop's: two instructions each), for exact
 *                    instruction counts (tests/hw/regions.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../include/pstat.h"
#include "insn_loop.h"

static void writes(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (write(STDOUT_FILENO, "", 0) < 0)
			exit(1);
}

static int marks(void)
{
	int i;

	writes(5);
	for (i = 0; i < 3; i++) {
		PSTAT_REGION_BEGIN("a");
		writes(100);
		PSTAT_REGION_END("a");
	}
	PSTAT_REGION_BEGIN("b");
	writes(7);
	PSTAT_REGION_END("b");
	PSTAT_REGION_BEGIN("o");
	writes(5);
	PSTAT_REGION_BEGIN("i");
	writes(10);
	PSTAT_REGION_END("i");
	writes(3);
	PSTAT_REGION_END("o");
	PSTAT_REGION_END("never");
	PSTAT_REGION_BEGIN("left");
	writes(4);
	return 0;
}

static void *thread(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 50; i++) {
		PSTAT_REGION_BEGIN("t");
		writes(2);
		PSTAT_REGION_END("t");
	}
	return NULL;
}

static int threads(void)
{
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, thread, NULL))
			return 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/* perf's side: a line on CTL, then an "ack\n" (perf adds a NUL) on ACK. */
static int perf_cmd(int ctl, int ack, const char *cmd)
{
	char c;
	ssize_t n;

	if (write(ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -1;
	do {
		n = read(ack, &c, 1);
	} while ((n == 1 && c != '\n') || (n < 0 && errno == EINTR));
	return n == 1 ? 0 : -1;
}

/* PERF_CTL_FD and PERF_ACK_FD: 0, or 2 with a message. */
static int perf_fds(int *ctl, int *ack)
{
	const char *c = getenv("PERF_CTL_FD"), *a = getenv("PERF_ACK_FD");

	if (!c || !a) {
		fprintf(stderr, "regions: no PERF_CTL_FD or PERF_ACK_FD\n");
		return 2;
	}
	*ctl = atoi(c);
	*ack = atoi(a);
	return 0;
}

static int perf_protocol(void)
{
	int ctl, ack;

	if (perf_fds(&ctl, &ack))
		return 2;
	if (perf_cmd(ctl, ack, "enable\n") < 0)
		return 1;
	writes(10);
	if (perf_cmd(ctl, ack, "disable\n") < 0)
		return 1;
	writes(20);
	if (perf_cmd(ctl, ack, "enable\n") < 0)
		return 1;
	writes(30);
	return perf_cmd(ctl, ack, "disable\n") < 0;
}

static int odd(void)
{
	PSTAT_REGION_BEGIN("");
	PSTAT_REGION_BEGIN("x\ny");
	writes(2);
	PSTAT_REGION_END("x\ny");
	PSTAT_REGION_END("");
	return 0;
}

static int metric(void)
{
	int i;

	for (i = 0; i < 10; i++)
		(void)(getppid() + getuid());
	PSTAT_REGION_BEGIN("m");
	for (i = 0; i < 6; i++)
		(void)getppid();
	for (i = 0; i < 3; i++)
		(void)getuid();
	PSTAT_REGION_END("m");
	return 0;
}

static int linger(void)
{
	int i;

	printf("started\n");
	fflush(stdout);
	for (i = 0; i < 100; i++) {
		PSTAT_REGION_BEGIN("linger");
		PSTAT_REGION_END("linger");
		usleep(10000);
	}
	printf("done\n");
	return 0;
}

static int bench(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		PSTAT_REGION_BEGIN("bench");
		PSTAT_REGION_END("bench");
	}
	return 0;
}

static int perf_bench(long n)
{
	int ctl, ack;
	long i;

	if (perf_fds(&ctl, &ack))
		return 2;
	for (i = 0; i < n; i++)
		if (perf_cmd(ctl, ack, "enable\n") < 0 ||
		    perf_cmd(ctl, ack, "disable\n") < 0)
			return 1;
	return 0;
}

/* The region around insn_loop's loop. */
static int loop_region(unsigned long n)
{
	PSTAT_REGION_BEGIN("loop");
	loop(n);
	PSTAT_REGION_END("loop");
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "marks") == 0)
		return marks();
	if (strcmp(mode, "threads") == 0)
		return threads();
	if (strcmp(mode, "perf") == 0)
		return perf_protocol();
	if (strcmp(mode, "odd") == 0)
		return odd();
	if (strcmp(mode, "metric") == 0)
		return metric();
	if (strcmp(mode, "linger") == 0)
		return linger();
	if (strcmp(mode, "bench") == 0 && argc > 2)
		return bench(atol(argv[2]));
	if (strcmp(mode, "perfbench") == 0 && argc > 2)
		return perf_bench(atol(argv[2]));
	if (strcmp(mode, "loop") == 0 && argc > 2 && atol(argv[2]) > 0)
		return loop_region(strtoul(argv[2], NULL, 10));
	fprintf(stderr,
		"usage: regions marks|threads|perf|odd|metric|linger|bench N|\n"
		"       perfbench N|loop N\n");
	return 2;
}
