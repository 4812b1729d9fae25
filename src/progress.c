/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line of -r N on a terminal, and its words. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "progress.h"

/* Back to the line's start, and everything after the cursor erased. */
#define ERASE "\r\033[K"

void progress_init(struct progress *p, FILE *f)
{
	const struct itimerspec second = {
		.it_value.tv_sec = 1, .it_interval.tv_sec = 1,
	};

	*p = (struct progress){ .f = f, .tick_fd = -1 };
	if (!f)
		return;
	/* Without a clock, the line is rewritten as each run starts. */
	p->tick_fd = timerfd_create(CLOCK_MONOTONIC,
				    TFD_CLOEXEC | TFD_NONBLOCK);
	if (p->tick_fd >= 0 && timerfd_settime(p->tick_fd, 0, &second,
					       NULL) < 0) {
		close(p->tick_fd);
		p->tick_fd = -1;
	}
}

bool progress_on(const struct progress *p)
{
	return p->f != NULL;
}

double progress_now(void)
{
	struct timespec ts;

	clock_now(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "4.2 s" under a minute, "3 min 05 s" past it. */
static int seconds(char *buf, size_t len, double s)
{
	long whole = (long)(s + 0.5);

	if (s < 59.95)
		return snprintf(buf, len, "%.1f s", s);
	return snprintf(buf, len, "%ld min %02ld s", whole / 60, whole % 60);
}

void progress_format(char *buf, size_t len, size_t run, size_t of,
		     double elapsed, size_t done, double done_s)
{
	char so_far[32], left[32], of_n[32] = "";
	double rest;

	seconds(so_far, sizeof(so_far), elapsed);
	if (of != SIZE_MAX)
		snprintf(of_n, sizeof(of_n), " of %zu", of);
	if (!done || of == SIZE_MAX) {
		snprintf(buf, len, "run %zu%s, %s so far", run + 1, of_n,
			 so_far);
		return;
	}
	/* The runs left, each as long as those that ended, less what
	 * this one has run. */
	rest = done_s / (double)done * (double)(of - run) -
	       (elapsed - done_s);
	seconds(left, sizeof(left), rest > 0.0 ? rest : 0.0);
	snprintf(buf, len, "run %zu%s, %s so far, about %s left", run + 1,
		 of_n, so_far, left);
}

static void show(struct progress *p, double now)
{
	char line[128];

	progress_format(line, sizeof(line), p->run, p->of, now - p->t0,
			p->done, p->done_s);
	fprintf(p->f, ERASE "pstat: %s", line);
	/* A line that could not be written is no failure: what stderr
	 * cannot take, the results' own write finds and reports. */
	(void)fflush(p->f);
	p->shown = true;
}

void progress_started(struct progress *p, size_t run, size_t of,
		      double now)
{
	if (!p->f)
		return;
	if (run == 0)
		p->t0 = now;
	p->run = run;
	p->of = of;
	show(p, now);
}

void progress_tick(struct progress *p, double now)
{
	uint64_t expirations;
	ssize_t n = 0;

	/* Read, or it stays ready; a read that failed misses a tick. */
	if (p->tick_fd >= 0)
		n = read(p->tick_fd, &expirations, sizeof(expirations));
	(void)n;
	if (p->f && p->shown)
		show(p, now);
}

void progress_fini(struct progress *p)
{
	progress_clear(p);
	if (p->tick_fd >= 0)
		close(p->tick_fd);
	p->tick_fd = -1;
}

void progress_ended(struct progress *p, double now)
{
	if (!p->f)
		return;
	progress_clear(p);
	p->done++;
	p->done_s = now - p->t0;
}

void progress_clear(struct progress *p)
{
	if (!p->f || !p->shown)
		return;
	fputs(ERASE, p->f);
	(void)fflush(p->f);
	p->shown = false;
}
