/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line of -r N on a terminal, and its words. */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "clock.h"
#include "progress.h"

/* Back to the line's start, and everything after the cursor erased. */
#define ERASE "\r\033[K"

void progress_init(struct progress *p, FILE *f)
{
	*p = (struct progress){ .f = f };
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
	char so_far[32], left[32];

	seconds(so_far, sizeof(so_far), elapsed);
	if (!done) {
		snprintf(buf, len, "run %zu of %zu, %s so far", run + 1, of,
			 so_far);
		return;
	}
	seconds(left, sizeof(left), done_s / (double)done * (double)(of - run));
	snprintf(buf, len, "run %zu of %zu, %s so far, about %s left",
		 run + 1, of, so_far, left);
}

void progress_started(struct progress *p, size_t run, size_t of,
		      double now)
{
	char line[128];

	if (!p->f)
		return;
	if (run == 0)
		p->t0 = now;
	progress_format(line, sizeof(line), run, of, now - p->t0, p->done,
			p->done_s);
	fprintf(p->f, ERASE "pstat: %s", line);
	/* A line that could not be written is no failure: what stderr
	 * cannot take, the results' own write finds and reports. */
	(void)fflush(p->f);
	p->shown = true;
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
