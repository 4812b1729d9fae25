/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge: the files of the ranks of a job (merge_read.c reads each)
 * made into statistics per event over the ranks, the run's spread, and
 * metrics recomputed from the summed counts, never averaged ratios.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "merge.h"
#include "merge_impl.h"
#include "metrics.h"
#include "stats.h"

/* The version of pstat's formats this pstat reads. */
#define FORMAT_VERSION 1

struct merge_priv {
	struct merge_file *files;	/* ascending ranks */
	size_t n_files;
};

static int __attribute__((format(printf, 3, 4)))
bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int by_rank(const void *a, const void *b)
{
	const struct merge_file *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The files agree: one version this pstat reads, one file a rank. */
static int check_files(const struct merge_file *f, size_t n, char *err,
		       size_t len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i].format_version != f[0].format_version)
			return bad(err, len,
				   "%s has format_version %ld and %s %ld: merge the files of one pstat version",
				   f[i].path, f[i].format_version, f[0].path,
				   f[0].format_version);
		if (f[i].rank < 0)
			return bad(err, len,
				   "%s has no rank: it was not written under an MPI launcher or srun (set PSTAT_RANK to name one)",
				   f[i].path);
		if (i && f[i].rank == f[i - 1].rank)
			return bad(err, len,
				   "%s and %s are both rank %ld: give each rank's file once",
				   f[i - 1].path, f[i].path, f[i].rank);
	}
	if (f[0].format_version != FORMAT_VERSION)
		return bad(err, len,
			   "%s has format_version %ld; this pstat reads %d",
			   f[0].path, f[0].format_version, FORMAT_VERSION);
	return 0;
}

static bool counted(const struct merge_value *v)
{
	return v->has_value && (strcmp(v->status, "counted") == 0 ||
				strcmp(v->status, "scaled") == 0);
}

/* The value named name in f, or NULL. */
static const struct merge_value *value_of(const struct merge_file *f,
					  const char *name)
{
	size_t i;

	for (i = 0; i < f->n_vals; i++)
		if (strcmp(f->vals[i].name, name) == 0)
			return &f->vals[i];
	return NULL;
}

static void spread_add(struct merge_spread *s, double v, long rank)
{
	if (!s->n || v < s->min) {
		s->min = v;
		s->min_rank = rank;
	}
	if (!s->n || v > s->max) {
		s->max = v;
		s->max_rank = rank;
	}
	s->sum += v;
	s->n++;
}

static int uncounted(struct merge_event *e, long rank,
		     const struct merge_value *v)
{
	e->uncounted[e->n_uncounted] = rank;
	e->uncounted_why[e->n_uncounted++] = !v ? "absent" : *v->status ?
					     v->status : "not-counted";
	return 0;
}

/* Event e over the files, from its value in each. */
static void event_stats(struct merge_event *e, const struct merge_file *f,
			size_t n)
{
	const struct merge_value *v;
	struct merge_spread s = { 0 }, run = { 0 };
	struct stats st;
	size_t i;

	stats_init(&st);
	for (i = 0; i < n; i++) {
		v = value_of(&f[i], e->name);
		if (!v || !counted(v)) {
			uncounted(e, f[i].rank, v);
			continue;
		}
		stats_add(&st, v->value);
		spread_add(&s, v->value, f[i].rank);
		spread_add(&run, v->running_pct, f[i].rank);
	}
	e->counted = s.n;
	e->sum = s.sum;
	e->mean = s.n ? stats_mean(&st) : 0;
	e->stddev = stats_stddev(&st);
	e->min = s.min;
	e->max = s.max;
	e->min_rank = s.n ? s.min_rank : -1;
	e->max_rank = s.n ? s.max_rank : -1;
	e->imbalance_pct = e->mean != 0 ? (e->max / e->mean - 1) * 100 : 0;
	e->load_balance = e->max != 0 ? e->mean / e->max : 1;
	e->min_running_pct = run.min;
	e->min_running_rank = s.n ? run.min_rank : -1;
}

/* The events, in the order of the first file that has each. */
static int gather_events(struct merge *m, const struct merge_file *f,
			 size_t n)
{
	struct merge_event *e;
	size_t i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < f[i].n_vals; j++) {
			for (k = 0; k < m->n_events; k++)
				if (strcmp(m->events[k].name,
					   f[i].vals[j].name) == 0)
					break;
			if (k < m->n_events)
				continue;
			e = realloc(m->events, (m->n_events + 1) * sizeof(*e));
			if (!e)
				return -ENOMEM;
			m->events = e;
			e = &m->events[m->n_events++];
			*e = (struct merge_event){
				.name = f[i].vals[j].name,
				.unit = (char *)f[i].vals[j].unit,
				.uncounted = calloc(n, sizeof(long)),
				.uncounted_why = calloc(n, sizeof(char *)),
			};
			if (!e->uncounted || !e->uncounted_why)
				return -ENOMEM;
			event_stats(e, f, n);
		}
	return 0;
}

/* name's attr as metrics know it, or false: "cycles:u", a tracepoint. */
static bool attr_of(const char *name, struct perf_event_attr *attr)
{
	const char *colon = strrchr(name, ':');
	static struct error err;	/* the reason, unused: 8 KiB */
	struct event_mods mods;

	event_attr_init(attr);
	if (strchr(name, ' ') || strchr(name, '/'))
		return false;
	if (event_from_name(attr, name, strlen(name)) == 0)
		return true;
	if (colon && event_from_name(attr, name, (size_t)(colon - name)) == 0)
		return event_apply_modifiers(attr, colon + 1, strlen(colon + 1),
					     &mods, &err) == 0;
	if (colon && colon == strchr(name, ':')) {
		event_from_tracepoint(attr, 0);
		return true;
	}
	return false;
}

/* The sums as metrics take them: clocks in nanoseconds. */
static double raw_sum(const struct merge_event *e)
{
	return strcmp(e->unit, "msec") == 0 ? e->sum * 1e6 : e->sum;
}

/*
 * Y's sum over the ranks where x was counted, or false when Y was not
 * counted on one of them: a ratio's denominator comes from the ranks of
 * its numerator, or there is no ratio.
 */
static bool sum_where(const struct merge_event *x, const struct merge_event *y,
		      const struct merge_file *f, size_t n, double *sum)
{
	const struct merge_value *vx, *vy;
	size_t i;

	*sum = 0;
	for (i = 0; i < n; i++) {
		vx = value_of(&f[i], x->name);
		if (!vx || !counted(vx))
			continue;
		vy = value_of(&f[i], y->name);
		if (!vy || !counted(vy))
			return false;
		*sum += vy->value;
	}
	if (strcmp(y->unit, "msec") == 0)
		*sum *= 1e6;
	return true;
}

/* Event i's metrics, over the ranks that counted it. */
static void event_metrics(struct merge *m, size_t i,
			  const struct merge_file *f, size_t n)
{
	struct merge_event *x = &m->events[i];
	struct perf_event_attr attr;
	struct metrics_ctx ctx;
	double sum;
	size_t k;

	metrics_ctx_init(&ctx, m->wall_s * 1e9);
	for (k = 0; k < m->n_events; k++)
		if (m->events[k].counted &&
		    attr_of(m->events[k].name, &attr) &&
		    sum_where(x, &m->events[k], f, n, &sum))
			metrics_ctx_add(&ctx, &attr, sum);
	if (attr_of(x->name, &attr))
		x->n_metrics = metrics_compute(&ctx, &attr, raw_sum(x), x->m);
}

static void recompute_metrics(struct merge *m, const struct merge_file *f,
			      size_t n)
{
	size_t i;

	for (i = 0; i < m->n_events; i++)
		if (m->events[i].counted)
			event_metrics(m, i, f, n);
}

/* A failure's status as a shell gives it, or 0. */
static int failure(const struct merge_rank *r)
{
	if (r->signal)
		return 128 + r->signal;
	return r->exit_status > 0 ? r->exit_status : 0;
}

static int gather_ranks(struct merge *m, const struct merge_file *f,
			size_t n)
{
	struct merge_rank *r;
	size_t i;
	long k;

	m->ranks = calloc(n, sizeof(*m->ranks));
	m->present = calloc(n, sizeof(long));
	m->failed = calloc(n, sizeof(long));
	if (!m->ranks || !m->present || !m->failed)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r = &m->ranks[m->n_ranks++];
		*r = (struct merge_rank){
			.rank = f[i].rank, .file = f[i].path,
			.exit_status = f[i].exit_status,
			.signal = f[i].signal, .elapsed_s = f[i].elapsed_s,
			.user_s = f[i].user_s, .sys_s = f[i].sys_s,
			.max_rss_kib = f[i].max_rss_kib,
			.has_command = f[i].has_command,
		};
		if (m->size < 0 && f[i].size > 0)
			m->size = f[i].size;
		if (!m->job_id)
			m->job_id = f[i].job_id;
		if (r->elapsed_s > m->wall_s)
			m->wall_s = r->elapsed_s;
		if (r->has_command) {
			spread_add(&m->user, r->user_s, r->rank);
			spread_add(&m->sys, r->sys_s, r->rank);
			spread_add(&m->rss, r->max_rss_kib, r->rank);
		}
		m->present[i] = r->rank;
		if (failure(r))
			m->failed[m->n_failed++] = r->rank;
		if (!m->status)
			m->status = failure(r);
	}
	m->missing = calloc(m->size > 0 ? (size_t)m->size : 1, sizeof(long));
	if (!m->missing)
		return -ENOMEM;
	for (k = 0, i = 0; k < m->size; k++) {
		while (i < n && f[i].rank < k)
			i++;
		if (i == n || f[i].rank != k)
			m->missing[m->n_missing++] = k;
	}
	return 0;
}

int merge_read(struct merge *m, char *const *files, size_t n, char *err,
	       size_t len)
{
	struct merge_priv *p;
	size_t i;
	int ret = 0;

	*m = (struct merge){ .size = -1 };
	m->priv = p = calloc(1, sizeof(*p));
	if (p)
		p->files = calloc(n, sizeof(*p->files));
	if (!p || !p->files)
		return -ENOMEM;
	for (i = 0; i < n && ret == 0; i++, p->n_files++)
		ret = merge_file_read(&p->files[i], files[i], err, len);
	if (ret < 0)
		return ret;
	qsort(p->files, n, sizeof(*p->files), by_rank);
	ret = check_files(p->files, n, err, len);
	if (ret == 0)
		ret = gather_ranks(m, p->files, n);
	if (ret == 0)
		ret = gather_events(m, p->files, n);
	if (ret < 0)
		return ret;
	m->command = p->files[0].command;
	recompute_metrics(m, p->files, n);
	return 0;
}

void merge_free(struct merge *m)
{
	struct merge_priv *p = m->priv;
	size_t i;

	for (i = 0; i < m->n_events; i++) {
		free(m->events[i].uncounted);
		free(m->events[i].uncounted_why);
	}
	free(m->events);
	free(m->ranks);
	free(m->missing);
	free(m->present);
	free(m->failed);
	for (i = 0; p && i < p->n_files; i++)
		merge_file_free(&p->files[i]);
	free(p ? p->files : NULL);
	free(p);
	*m = (struct merge){ .size = -1 };
}
