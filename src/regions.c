/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --regions: the counts of each named region, from the readings at its
 * begins and ends. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "regions.h"
#include "results.h"

struct regions *regions_new(size_t n_values)
{
	struct regions *rs = calloc(1, sizeof(*rs));

	if (rs)
		rs->n_values = n_values;
	return rs;
}

void regions_free(struct regions *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; i < rs->n; i++) {
		free(rs->r[i].name);
		free(rs->r[i].start);
		free(rs->r[i].sum);
		results_free(rs->r[i].res);
	}
	free(rs->r);
	free(rs);
}

/* NAME's region, made when new: NULL with -ENOMEM or -E2BIG in *err. */
static struct region *find(struct regions *rs, const char *name, int *err)
{
	struct region *g;
	size_t i, cap;

	for (i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].name, name) == 0)
			return &rs->r[i];
	if (rs->n == REGIONS_MAX) {
		rs->dropped++;
		*err = -E2BIG;
		return NULL;
	}
	if (rs->n == rs->cap) {
		cap = rs->cap ? rs->cap * 2 : 8;
		g = realloc(rs->r, cap * sizeof(*g));
		if (!g) {
			*err = -ENOMEM;
			return NULL;
		}
		rs->r = g;
		rs->cap = cap;
	}
	g = &rs->r[rs->n];
	*g = (struct region){ 0 };
	g->name = strdup(name);
	g->start = calloc(rs->n_values + 1, sizeof(*g->start));
	g->sum = calloc(rs->n_values + 1, sizeof(*g->sum));
	if (!g->name || !g->start || !g->sum) {
		free(g->name);
		free(g->start);
		free(g->sum);
		*err = -ENOMEM;
		return NULL;
	}
	rs->n++;
	return g;
}

int regions_begin(struct regions *rs, const char *name,
		  const struct counts_values *now, double t)
{
	int err = 0;
	struct region *g = find(rs, name, &err);

	if (!g)
		return err;
	g->entries++;
	if (g->depth++ == 0) {
		memcpy(g->start, now, rs->n_values * sizeof(*now));
		g->begun_ns = t;
	}
	return 0;
}

/*
 * What the counters read from g's begin to now, added to its sum. A
 * reading lower than the begin's (a counter reopened) adds nothing.
 */
static void add_span(const struct regions *rs, struct region *g,
		     const struct counts_values *now, double t)
{
	size_t i;

	for (i = 0; i < rs->n_values; i++) {
		const struct counts_values *a = &g->start[i], *b = &now[i];

		if (b->value >= a->value)
			g->sum[i].value += b->value - a->value;
		if (b->enabled >= a->enabled)
			g->sum[i].enabled += b->enabled - a->enabled;
		if (b->running >= a->running)
			g->sum[i].running += b->running - a->running;
	}
	if (t > g->begun_ns)
		g->time_ns += t - g->begun_ns;
}

int regions_end(struct regions *rs, const char *name,
		const struct counts_values *now, double t)
{
	int err = 0;
	struct region *g = find(rs, name, &err);

	if (!g)
		return err;
	if (g->depth == 0) {
		g->unmatched++;
		return 0;
	}
	if (--g->depth == 0)
		add_span(rs, g, now, t);
	return 0;
}

void regions_finish(struct regions *rs, const struct counts_values *now,
		    double t)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].depth == 0)
			continue;
		add_span(rs, &rs->r[i], now, t);
		rs->r[i].depth = 0;
		rs->r[i].open = true;
	}
}
