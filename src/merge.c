/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge: the files of the ranks of a job (merge_read.c reads each)
 * made into statistics per event over the ranks, the run's spread, and
 * metrics recomputed from the summed counts, never averaged ratios.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "event.h"
#include "expr.h"
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
			return error_say(err, len,
				   "%s has format_version %ld and %s %ld: merge the files of one pstat version",
				   f[i].path, f[i].format_version, f[0].path,
				   f[0].format_version);
		if (f[i].rank < 0)
			return error_say(err, len,
				   "%s has no rank: it was not written under an MPI launcher or srun (set PSTAT_RANK to name one)",
				   f[i].path);
		if (i && f[i].rank == f[i - 1].rank)
			return error_say(err, len,
				   "%s and %s are both rank %ld: give each rank's file once",
				   f[i - 1].path, f[i].path, f[i].rank);
	}
	if (f[0].format_version != FORMAT_VERSION)
		return error_say(err, len,
			   "%s has format_version %ld; this pstat reads %d",
			   f[0].path, f[0].format_version, FORMAT_VERSION);
	return 0;
}

/*
 * The job's size into *size (-1 when no file says one): every file
 * that says one says the same, and every rank is below it.
 */
static int job_size(const struct merge_file *f, size_t n, long *size,
		    char *err, size_t len)
{
	const struct merge_file *said = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (f[i].size < 0)
			continue;
		if (!said)
			said = &f[i];
		else if (f[i].size != said->size)
			return error_say(err, len,
				   "%s says size %ld and %s %ld: merge the files of one job",
				   said->path, said->size, f[i].path,
				   f[i].size);
	}
	*size = said ? said->size : -1;
	for (i = 0; said && i < n; i++)
		if (f[i].rank >= said->size)
			return error_say(err, len,
				   "%s is rank %ld, not below the job's size %ld (%s says so): merge the files of one job",
				   f[i].path, f[i].rank, said->size,
				   said->path);
	return 0;
}

static bool counted(const struct merge_value *v)
{
	return v->has_value && (strcmp(v->status, "counted") == 0 ||
				strcmp(v->status, "scaled") == 0);
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

/* An event's value in one file, and its place among all the values. */
struct occurrence {
	const struct merge_value *v;
	size_t file;		/* its index in the files */
	size_t seq;		/* files in order, values in file order */
};

/* The occurrences of one event: occ[start..end). */
struct group {
	size_t start, end;
	size_t first;		/* the seq of the first */
};

static int by_name(const void *a, const void *b)
{
	const struct occurrence *x = a, *y = b;
	int c = strcmp(x->v->name, y->v->name);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Event e over the files, from its occurrences g[0..n_g), ascending by
 * file: a file's first value of e counts, the others are left out.
 */
static void event_stats(struct merge_event *e, const struct merge_file *f,
			size_t n, const struct occurrence *g, size_t n_g)
{
	const struct merge_value *v;
	struct merge_spread s = { 0 }, run = { 0 };
	struct stats st;
	size_t i, k = 0;

	stats_init(&st);
	for (i = 0; i < n; i++) {
		while (k < n_g && g[k].file < i)
			k++;
		v = k < n_g && g[k].file == i ? g[k].v : NULL;
		e->values[i] = NAN;
		if (!v || !counted(v)) {
			uncounted(e, f[i].rank, v);
			continue;
		}
		e->values[i] = v->value;
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

/* Every value of every file, sorted by name: one group per event. */
static struct occurrence *occurrences(const struct merge_file *f, size_t n,
				      size_t *n_occ)
{
	struct occurrence *occ;
	size_t i, j, total = 0;

	for (i = 0; i < n; i++)
		total += f[i].n_vals;
	occ = calloc(total + 1, sizeof(*occ));
	if (!occ)
		return NULL;
	for (i = 0, *n_occ = 0; i < n; i++)
		for (j = 0; j < f[i].n_vals; j++, ++*n_occ)
			occ[*n_occ] = (struct occurrence){
				.v = &f[i].vals[j], .file = i, .seq = *n_occ };
	qsort(occ, *n_occ, sizeof(*occ), by_name);
	return occ;
}

/* Groups in the order of their first occurrence. */
static int by_first(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/*
 * The events, in the order of the first file that has each: sorting
 * keeps this n log n in the values of all files, whatever their names.
 */
static int gather_events(struct merge *m, const struct merge_file *f,
			 size_t n)
{
	struct occurrence *occ;
	struct group *g = NULL;
	struct merge_event *e;
	size_t i, n_occ, n_g = 0;

	occ = occurrences(f, n, &n_occ);
	if (occ)
		g = calloc(n_occ + 1, sizeof(*g));
	if (!occ || !g) {
		free(occ);
		return -ENOMEM;
	}
	for (i = 0; i < n_occ; i++) {
		if (!i || strcmp(occ[i].v->name, occ[i - 1].v->name) != 0)
			g[n_g++] = (struct group){ .start = i,
						   .first = occ[i].seq };
		g[n_g - 1].end = i + 1;
	}
	qsort(g, n_g, sizeof(*g), by_first);
	m->events = calloc(n_g + 1, sizeof(*m->events));
	for (i = 0; m->events && i < n_g; i++, m->n_events++) {
		e = &m->events[i];
		e->name = occ[g[i].start].v->name;
		e->unit = (char *)occ[g[i].start].v->unit;
		e->uncounted = calloc(n, sizeof(long));
		e->uncounted_why = calloc(n, sizeof(char *));
		e->values = calloc(n + 1, sizeof(double));
		if (!e->uncounted || !e->uncounted_why || !e->values)
			break;
		event_stats(e, f, n, &occ[g[i].start], g[i].end - g[i].start);
	}
	free(occ);
	free(g);
	return m->events && i == n_g ? 0 : -ENOMEM;
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
 * Y's sum over the files where x was counted, or false when Y was not
 * counted in one of them: a ratio's denominator comes from the ranks of
 * its numerator, or there is no ratio.
 */
static bool sum_where(const struct merge_event *x, const struct merge_event *y,
		      size_t n, double *sum)
{
	size_t i;

	*sum = 0;
	for (i = 0; i < n; i++) {
		if (isnan(x->values[i]))
			continue;
		if (isnan(y->values[i]))
			return false;
		*sum += y->values[i];
	}
	if (strcmp(y->unit, "msec") == 0)
		*sum *= 1e6;
	return true;
}

/* A metric's denominator: an event and its attr. */
struct denominator {
	const struct merge_event *e;
	struct perf_event_attr attr;
};

/* Event x's metrics, over the ranks that counted it, from the d[0..nd). */
static void event_metrics(struct merge *m, struct merge_event *x,
			  const struct denominator *d, size_t nd, size_t n)
{
	struct perf_event_attr attr;
	struct metrics_ctx ctx;
	double sum;
	size_t k;

	metrics_ctx_init(&ctx, m->wall_s * 1e9);
	for (k = 0; k < nd; k++)
		if (sum_where(x, d[k].e, n, &sum))
			metrics_ctx_add(&ctx, &d[k].attr, sum);
	if (attr_of(x->name, &attr))
		x->n_metrics = metrics_compute(&ctx, &attr, raw_sum(x), x->m);
}

/*
 * The metrics of every counted event. Only the events a metric divides
 * by (task-clock, cycles, ...) are looked at for each: linear in the
 * events, not in their square. 0 or -ENOMEM.
 */
static int recompute_metrics(struct merge *m, size_t n)
{
	struct denominator *d = calloc(m->n_events + 1, sizeof(*d));
	size_t i, nd = 0;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < m->n_events; i++)
		if (m->events[i].counted &&
		    attr_of(m->events[i].name, &d[nd].attr) &&
		    metrics_denominator(&d[nd].attr))
			d[nd++].e = &m->events[i];
	for (i = 0; i < m->n_events; i++)
		if (m->events[i].counted)
			event_metrics(m, &m->events[i], d, nd, n);
	free(d);
	return 0;
}

/* The event named name, or NULL. */
static struct merge_event *event_named(const struct merge *m,
				       const char *name)
{
	size_t i;

	for (i = 0; i < m->n_events; i++)
		if (strcmp(m->events[i].name, name) == 0)
			return &m->events[i];
	return NULL;
}

/* Word k (from 0) of the space-separated s, into buf; false: none. */
static bool word(const char *s, size_t k, char *buf, size_t len)
{
	size_t n;

	for (;;) {
		s += strspn(s, " ");
		n = strcspn(s, " ");
		if (!n)
			return false;
		if (!k--) {
			snprintf(buf, len, "%.*s", (int)n, s);
			return n < len;
		}
		s += n;
	}
}

/* What a formula of -M reads while it is computed again. */
struct recompute {
	const struct merge *m;
	const struct merge_formula *f;
	size_t n;		/* files */
	const bool *ranks;	/* the files whose sums count */
	bool unknown;		/* a name neither input nor tool event */
};

/* The event the formula's input name is, or NULL. */
static const struct merge_event *input_event(const struct recompute *r,
					     const char *name)
{
	char in[512], ev[512];
	size_t k;

	for (k = 0; word(r->f->inputs, k, in, sizeof(in)); k++)
		if (strcmp(in, name) == 0)
			return word(r->f->input_events, k, ev, sizeof(ev))
			       ? event_named(r->m, ev) : NULL;
	return NULL;
}

/* An input's sum over the files that count: clocks in nanoseconds. */
static double input_sum(const struct recompute *r,
			const struct merge_event *e)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->ranks[i])
			sum += e->values[i];
	return strcmp(e->unit, "msec") == 0 ? sum * 1e6 : sum;
}

static bool recompute_id(void *arg, const char *name, double *v)
{
	struct recompute *r = arg;
	const struct merge_event *e = input_event(r, name);

	if (strcmp(name, "duration_time") == 0)
		*v = r->m->wall_s;
	else if (strcmp(name, "user_time") == 0)
		*v = r->m->user.sum;
	else if (strcmp(name, "system_time") == 0)
		*v = r->m->sys.sum;
	else if (e)
		*v = input_sum(r, e);
	else
		r->unknown = true;
	return e || !r->unknown;
}

/* The machine's literals are not in the files: no value. */
static bool no_literal(void *arg, const char *name, double *v)
{
	(void)arg;
	(void)name;
	*v = NAN;
	return false;
}

static bool input_counted(void *arg, const char *name)
{
	const struct merge_event *e = input_event(arg, name);

	return e && e->counted;
}

static double one_source(void *arg, const char *name)
{
	(void)arg;
	(void)name;
	return 1.0;
}

static int no_cpuid(void *arg, const char *s)
{
	(void)arg;
	(void)s;
	return 1;
}

/*
 * The files whose every input counted, into ranks: the sums of one
 * metric come from the same ranks. None: out says which input did not
 * count, and how.
 */
static bool counting_ranks(const struct recompute *r, const struct expr *e,
			   bool *ranks, struct metric *out)
{
	const struct merge_event *x;
	size_t i, k;
	bool any = false;

	for (i = 0; i < r->n; i++)
		ranks[i] = true;
	for (k = 0; k < expr_n_ids(e); k++) {
		x = input_event(r, expr_id(e, k));
		for (i = 0; x && i < r->n; i++)
			ranks[i] = ranks[i] && !isnan(x->values[i]);
		/* Named by its row: the expression goes before out. */
		if (x && !x->counted && !out->missing) {
			out->missing = x->name;
			out->status = x->n_uncounted &&
				      strcmp(x->uncounted_why[0],
					     "not-supported") == 0
				      ? METRIC_NOT_SUPPORTED
				      : METRIC_NOT_COUNTED;
		}
	}
	for (i = 0; i < r->n; i++)
		any |= ranks[i];
	return any;
}

/*
 * A metric of -M computed again from the sums, into out: false where
 * it cannot be (its formula names other metrics or the machine's
 * literals, which the files do not give).
 */
static bool recompute(const struct merge *m, const struct merge_formula *f,
		      size_t n, bool *ranks, struct metric *out)
{
	struct recompute r = { m, f, n, ranks, false };
	const struct expr_env env = {
		.arg = &r, .id = recompute_id, .literal = no_literal,
		.has_event = input_counted, .source_count = one_source,
		.cpuid_cmp = no_cpuid,
	};
	struct error err = { 0 };
	struct expr *e;
	double v = NAN;
	int ret;

	if (expr_parse(f->formula, &e, &err) < 0)
		return false;
	*out = (struct metric){ .width = 8, .prec = 2, .suffix = "",
				.name = f->name, .formula = f->formula,
				.scale = f->scale, .running_pct = 100.0 };
	snprintf(out->unit, sizeof(out->unit), "%s", f->unit);
	if (counting_ranks(&r, e, ranks, out))
		out->status = METRIC_COUNTED;
	ret = expr_eval(e, &env, &v);
	expr_free(e);
	out->value = out->status == METRIC_COUNTED ? v * f->scale : NAN;
	if (out->status == METRIC_COUNTED)
		out->missing = NULL;
	/* Its names are the file's, which live as long as the merge. */
	return ret == 0 && !r.unknown;
}

/* Whether x has the metric called name already. */
static bool has_metric(const struct merge_event *x, const char *name)
{
	int k;

	for (k = 0; k < x->n_metrics; k++)
		if (x->m[k].name && strcmp(x->m[k].name, name) == 0)
			return true;
	return false;
}

/*
 * -M's metrics, each computed again from the summed counts of the
 * ranks where all its inputs counted, with the formula and the inputs
 * the files give, on the row of its event; each once, as the first file
 * that has it gives it. 0 or -ENOMEM.
 */
static int table_metrics(struct merge *m, const struct merge_file *f,
			 size_t n)
{
	bool *ranks = calloc(n + 1, sizeof(*ranks));
	const struct merge_formula *mf;
	struct merge_event *x;
	size_t i, k;

	if (!ranks)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		for (k = 0; k < f[i].n_formulas; k++) {
			mf = &f[i].formulas[k];
			x = event_named(m, mf->event);
			if (!x || x->n_metrics == MERGE_METRICS ||
			    has_metric(x, mf->name))
				continue;
			if (recompute(m, mf, n, ranks, &x->m[x->n_metrics]))
				x->n_metrics++;
		}
	}
	free(ranks);
	return 0;
}

/* A failure's status as a shell gives it, or 0. */
static int failure(const struct merge_rank *r)
{
	if (r->signal)
		return 128 + r->signal;
	return r->exit_status > 0 ? r->exit_status : 0;
}

/* The gaps between the ranks below the job's size: n + 1 at most. */
static int gather_missing(struct merge *m, const struct merge_file *f,
			  size_t n)
{
	long next = 0, r;
	size_t i;

	m->missing = calloc(n + 1, sizeof(*m->missing));
	if (!m->missing)
		return -ENOMEM;
	for (i = 0; m->size > 0 && i <= n; i++) {
		r = i < n ? f[i].rank : m->size;
		if (r > next)
			m->missing[m->n_missing++] =
				(struct merge_range){ next, r - 1 };
		next = r + 1;
	}
	return 0;
}

static int gather_ranks(struct merge *m, const struct merge_file *f,
			size_t n)
{
	struct merge_rank *r;
	size_t i;

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
	return gather_missing(m, f, n);
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
		ret = job_size(p->files, n, &m->size, err, len);
	if (ret == 0)
		ret = gather_ranks(m, p->files, n);
	if (ret == 0)
		ret = gather_events(m, p->files, n);
	if (ret < 0)
		return ret;
	m->command = p->files[0].command;
	ret = recompute_metrics(m, n);
	return ret < 0 ? ret : table_metrics(m, p->files, n);
}

void merge_free(struct merge *m)
{
	struct merge_priv *p = m->priv;
	size_t i;

	for (i = 0; i < m->n_events; i++) {
		free(m->events[i].uncounted);
		free(m->events[i].uncounted_why);
		free(m->events[i].values);
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
