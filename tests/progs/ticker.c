/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A workload that makes RATE write(2) calls a second, on time, until killed or SECONDS pass. */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Ticks a second: the writes due are made at each. */
#define TICKS 100

static void add_ns(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

int main(int argc, char **argv)
{
	const char byte = 'x';
	struct timespec at;
	long rate, seconds, tick, done = 0, due;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: ticker RATE [SECONDS]\n");
		return 2;
	}
	rate = strtol(argv[1], NULL, 10);
	seconds = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	clock_gettime(CLOCK_MONOTONIC, &at);
	/* Late ticks catch up: the writes follow the clock, not the sleeps. */
	for (tick = 1; !seconds || tick <= seconds * TICKS; tick++) {
		add_ns(&at, 1000000000L / TICKS);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at,
				       NULL))
			;
		for (due = rate * tick / TICKS; done < due; done++)
			if (write(STDOUT_FILENO, &byte, 1) != 1)
				return 1;
	}
	return 0;
}
