/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results, in the format asked for: one traversal, a printer each. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggr.h"
#include "compat.h"
#include "evlist.h"
#include "fmt.h"
#include "json.h"
#include "metricgroup.h"
#include "output.h"
#include "output_impl.h"
#include "regions.h"
#include "results.h"
#include "stats.h"

static const struct output_printer *const printers[] = {
	[OUTPUT_HUMAN] = &output_human,
	[OUTPUT_CSV] = &output_csv,
	[OUTPUT_JSONL] = &output_jsonl,
	[OUTPUT_PSTAT_CSV] = &output_pstat_csv,
	[OUTPUT_PSTAT_JSON] = &output_pstat_json,
	[OUTPUT_OPENMETRICS] = &output_openmetrics,
};

struct output *output_new(FILE *f, const struct output_opts *o)
{
	struct output *out = calloc(1, sizeof(*out));

	if (!out)
		return NULL;
	out->f = f;
	out->o = *o;
	out->p = printers[o->format];
	return out;
}

const char *output_state_name(enum counts_state s)
{
	static const char *const names[] = {
		[COUNTS_COUNTED] = "counted",
		[COUNTS_SCALED] = "scaled",
		[COUNTS_NOT_COUNTED] = "not-counted",
		[COUNTS_NOT_SUPPORTED] = "not-supported",
	};

	return names[s];
}

void output_value_text(char *buf, size_t len, const struct output_row *row)
{
	if (row->r.state == COUNTS_NOT_SUPPORTED)
		snprintf(buf, len, "<not supported>");
	else if (row->r.state == COUNTS_NOT_COUNTED)
		snprintf(buf, len, "<not counted>");
	else if (row->fractional)
		fmt_fixed(buf, len, 2, row->value);
	else
		fmt_u64(buf, len, row->r.value);
}

/*
 * "%.2f" of a percentage; 100 is the usual case, and floating-point
 * printing is most of the cost of an interval.
 */
void output_pct_text(char *buf, size_t len, double pct)
{
	if (pct == 100.0 && len > 6)
		memcpy(buf, "100.00", 7);
	else
		fmt_fixed(buf, len, 2, pct);
}

const char *output_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = compat_sigabbrev(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else if (sig == SIGRTMIN)
		snprintf(buf, len, "SIGRTMIN");
	else if (sig > SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "SIG%d", sig);
	return buf;
}

const char *const output_aggr_keys[] = {
	[AGGR_GLOBAL] = NULL,
	[AGGR_CPU] = "cpu",
	[AGGR_CORE] = "core",
	[AGGR_DIE] = "die",
	[AGGR_SOCKET] = "socket",
	[AGGR_NODE] = "node",
	[AGGR_THREAD] = "thread",
};

double output_shown(const struct results_row *rr, double v)
{
	return rr->clock ? v / 1e6 : v;
}

/*
 * A mean as a count, rounded. Counts saturate at UINT64_MAX, whose mean
 * is 2^64 as a double, and a PMU's .scale may be anything: a cast of a
 * double past uint64_t's range is undefined, so clamp it first.
 */
static uint64_t count_of(double v)
{
	if (!(v > 0.0))
		return 0;
	return v >= 0x1p64 ? UINT64_MAX : (uint64_t)(v + 0.5);
}

/* Row i as printed; its metrics too when ctx is given. */
/* What a row's readings show, over the interval or the run so far. */
static void row_reading(const struct results *res,
			const struct results_row *rr, bool interval,
			struct output_row *row)
{
	bool known = results_values(rr, interval, &row->vals);

	row->rr = rr;
	row->raw = results_value(res, rr, &row->vals, &row->r);
	/* Readings that went backwards, a counter never enabled then or
	 * never opened in the aggregate: nothing is known. */
	if ((!known || !rr->covered) &&
	    row->r.state != COUNTS_NOT_SUPPORTED) {
		row->r = (struct counts_result){ .state = COUNTS_NOT_COUNTED };
		row->raw = 0.0;
	}
	/* It did not count: whatever time the kernel gave, none ran. */
	if (row->r.state == COUNTS_NOT_COUNTED)
		row->vals.running = 0;
	row->has_variance = false;
}

/*
 * What a row counted: its readings, their state, and the value metrics
 * divide (the mean over runs with -r). All the metrics pass needs of a
 * row; make_row adds the rest.
 */
static void row_value(const struct results *res,
		      const struct results_row *rr, bool interval,
		      struct output_row *row)
{
	row_reading(res, rr, interval, row);
	/* Totals of several runs: each field a statistic of the runs
	 * that counted it (the last may not have), and how far to trust
	 * the mean. */
	if (!interval && res->n_runs > 1 &&
	    results_over_runs(rr, &row->vals, &row->r, &row->raw)) {
		row->r.value = count_of(row->raw);
		row->has_variance = true;
		row->variance_pct = stats_rel_stddev_mean(&rr->runs);
	}
}

static void make_row(const struct results *res, const struct results_row *rr,
		     bool interval, const struct metrics_ctx *ctx,
		     struct output_row *row)
{
	const struct aggr *ag = res->aggr;

	row_value(res, rr, interval, row);
	row->aggr = ag ? ag->label[rr->aggr] : NULL;
	row->aggr_cpus = ag && ag->kind != AGGR_CPU && ag->kind != AGGR_THREAD
			 ? ag->n_cpus[rr->aggr] : 0;
	row->name = rr->name;
	row->cgroup = NULL;
	if (evlist_has_cgroups(res->el))
		row->cgroup = rr->cgroup ? rr->cgroup : "";
	row->unit = rr->unit;
	row->fractional = rr->clock || rr->scale != 1.0;
	row->value = output_shown(rr, row->raw);
	row->n_metrics = 0;
	if (ctx && counts_counted(&row->r))
		row->n_metrics = metrics_compute(ctx, rr->attr,
						 row->raw, row->m);
}

void output_row_so_far(const struct results *res,
		       const struct results_row *rr, struct output_row *row)
{
	row_reading(res, rr, false, row);
	row->value = output_shown(rr, row->raw);
}

const char *output_aggr_title(const struct aggr *ag, bool *cpus)
{
	static const char *const titles[] = {
		[AGGR_CPU] = "cpu",
		[AGGR_CORE] = "core",
		[AGGR_DIE] = "die",
		[AGGR_SOCKET] = "socket",
		[AGGR_NODE] = "node",
		[AGGR_THREAD] = "comm-pid",
	};

	*cpus = ag && ag->kind != AGGR_GLOBAL && ag->kind != AGGR_CPU &&
		ag->kind != AGGR_THREAD;
	return ag && ag->kind != AGGR_GLOBAL ? titles[ag->kind] : NULL;
}

/* A column's title: its unit, after the event's name for rates. */
static char *base_title(const char *name, const struct metrics_column *m)
{
	char *t = NULL;

	if (strcmp(m->unit, "/sec") == 0)
		return asprintf(&t, "%s %s", name, m->unit) < 0 ? NULL : t;
	return strdup(m->unit);
}

static bool title_taken(const struct output_metric_only *mo, size_t n,
			const char *title)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (json_same_string(mo->cols[i].title, title))
			return true;
	return false;
}

/* Whether another column than i has i's unit (rates and -M's aside:
 * a metric of the tables is named by its title). */
static bool unit_shared(const struct output_metric_only *mo, size_t i)
{
	size_t k;

	if (strcmp(mo->cols[i].m.unit, "/sec") == 0 || mo->cols[i].mg >= 0)
		return false;
	for (k = 0; k < mo->n_cols; k++)
		if (k != i && mo->cols[k].mg < 0 &&
		    strcmp(mo->cols[k].m.unit, mo->cols[i].m.unit) == 0)
			return true;
	return false;
}

/*
 * What tells column c from the others, after its base title: the
 * event's name where its unit is shared, "GHz (cycles:u)", and the
 * cgroup it counted in with -G, "CPUs utilized (task-clock in cgroup
 * web)", "page-faults /sec (cgroup web)": no comma for -x to quote.
 * 0 or -1.
 */
static int qualify_title(struct output_column *c, const char *name,
			 bool with_name, const char *cgroup)
{
	bool with_cgroup = cgroup && *cgroup;
	char *t;

	if (!with_name && !with_cgroup)
		return 0;
	if (asprintf(&t, "%s (%s%s%s%s)", c->title, with_name ? name : "",
		     with_name && with_cgroup ? " in " : "",
		     with_cgroup ? "cgroup " : "",
		     with_cgroup ? cgroup : "") < 0)
		return -1;
	free(c->title);
	c->title = t;
	return 0;
}

/*
 * Titles are keys in -j: no two alike, even where names differ only in
 * bytes that are not UTF-8 (each is U+FFFD there). Each names what
 * tells it from the others (qualify_title); a title still taken (the
 * same event twice) gets a number, "page-faults /sec #2".
 */
static int unique_titles(struct output_metric_only *mo,
			 const struct results *res)
{
	const struct results_row *rr;
	struct output_column *c;
	char *t;
	size_t i, k;

	/* Units, not titles, say which are shared: the order is free. */
	for (i = 0; i < mo->n_cols; i++) {
		c = &mo->cols[i];
		rr = &res->rows[mo->rows[c->event]];
		if (qualify_title(c, rr->name, unit_shared(mo, i),
				  rr->cgroup) < 0)
			return -1;
	}
	for (i = 0; i < mo->n_cols; i++) {
		c = &mo->cols[i];
		for (k = 2; title_taken(mo, i, c->title); k++) {
			if (asprintf(&t, "%s #%zu", c->title, k) < 0)
				return -1;
			if (!title_taken(mo, i, t)) {
				free(c->title);
				c->title = t;
				break;
			}
			free(t);
		}
	}
	return 0;
}

/* Each aggregate's rows in event order, whatever order results keeps. */
static int map_rows(struct output_metric_only *mo, const struct results *res)
{
	size_t n_aggr = res->aggr ? res->aggr->n : 1, i, a;
	size_t *next = calloc(n_aggr, sizeof(*next));

	mo->n_events = res->n_rows / n_aggr;
	mo->rows = calloc(res->n_rows + 1, sizeof(*mo->rows));
	if (!next || !mo->rows) {
		free(next);
		return -1;
	}
	for (i = 0; i < res->n_rows; i++) {
		a = res->rows[i].aggr;
		mo->rows[a * mo->n_events + next[a]++] = i;
	}
	free(next);
	return 0;
}

static void aggr_width(struct output_metric_only *mo,
		       const struct aggr *ag)
{
	bool cpus;
	const char *title = output_aggr_title(ag, &cpus);
	size_t a, w = title ? strlen(title) : 0;

	for (a = 0; title && a < ag->n; a++)
		if (strlen(ag->label[a]) > w)
			w = strlen(ag->label[a]);
	mo->aggr_width = (int)w;
}

static void table_metrics(const struct output *out, const struct results *res,
			  const struct output_run *run, double wall_ns,
			  struct output_row *row);

/* -M's metrics beside rr's event, in metricgroup_row's order. */
static int table_columns(struct output *out, const struct results *res,
			 const struct results_row *rr, size_t e)
{
	struct output_metric_only *mo = &out->mo;
	struct output_row row = { .rr = rr };
	struct output_column *c;
	int i;

	if (!out->o.mg)
		return 0;
	table_metrics(out, res, NULL, 0.0, &row);
	for (i = 0; i < row.n_metrics; i++) {
		c = &mo->cols[mo->n_cols++];
		*c = (struct output_column){ .event = e, .mg = i };
		c->m.prec = row.m[i].prec;
		c->m.width = row.m[i].width;
		c->title = strdup(row.m[i].unit);
		if (!c->title)
			return -1;
	}
	return 0;
}

/* Every metric each event can have in this run, by the events alone:
 * its own ratios, then -M's beside it. */
static int add_columns(struct output *out, const struct results *res)
{
	struct output_metric_only *mo = &out->mo;
	struct metrics_column m[METRICS_MAX];
	struct metrics_ctx members;
	const struct results_row *rr;
	struct output_column *c;
	size_t e, per = METRICS_MAX + (out->o.mg ? OUTPUT_ROW_METRICS : 0);
	int i, n;

	metrics_ctx_init(&members, 0.0);
	for (e = 0; e < mo->n_events; e++)
		metrics_ctx_add(&members, res->rows[mo->rows[e]].attr, 0.0);
	mo->cols = calloc(mo->n_events * per + 1, sizeof(*mo->cols));
	mo->cells = calloc(mo->n_events * per + 1, sizeof(*mo->cells));
	if (!mo->cols || !mo->cells)
		return -1;
	for (e = 0; e < mo->n_events; e++) {
		rr = &res->rows[mo->rows[e]];
		n = metrics_columns(&members, rr->attr, m);
		for (i = 0; i < n; i++) {
			c = &mo->cols[mo->n_cols++];
			c->event = e;
			c->mg = -1;
			c->m = m[i];
			c->title = base_title(rr->name, &m[i]);
			if (!c->title)
				return -1;
		}
		if (table_columns(out, res, rr, e) < 0)
			return -1;
	}
	return 0;
}

/*
 * The columns, once: from which events the run has, never from what
 * they read, so that no interval can add, drop or move one.
 */
static int metric_columns(struct output *out, const struct results *res)
{
	struct output_metric_only *mo = &out->mo;
	size_t i;

	if (map_rows(mo, res) < 0 || add_columns(out, res) < 0 ||
	    unique_titles(mo, res) < 0)
		return -1;
	for (i = 0; i < mo->n_cols; i++) {
		mo->cols[i].width = (int)strlen(mo->cols[i].title);
		if (mo->cols[i].width < mo->cols[i].m.width)
			mo->cols[i].width = mo->cols[i].m.width;
	}
	aggr_width(mo, res->aggr);
	mo->ready = true;
	return 0;
}

static void metric_only_free(struct output_metric_only *mo)
{
	size_t i;

	for (i = 0; mo->cols && i < mo->n_cols; i++)
		free(mo->cols[i].title);
	free(mo->cols);
	free(mo->cells);
	free(mo->rows);
}

/* The cgroups of the rows, none first, each once: by pointer, for
 * cgroup.c names each once. 0 or -1. */
static int list_cgroups(struct output *out, const struct results *res)
{
	const char *c;
	size_t i, j;

	if (out->cgroups)
		return 0;
	out->cgroups = calloc(res->n_rows + 1, sizeof(*out->cgroups));
	if (!out->cgroups)
		return -1;
	out->n_cgroups = 1;
	for (i = 0; i < res->n_rows; i++) {
		c = res->rows[i].cgroup;
		for (j = 0; j < out->n_cgroups && out->cgroups[j] != c; j++)
			;
		if (j == out->n_cgroups)
			out->cgroups[out->n_cgroups++] = c;
	}
	return 0;
}

/* The metrics context of a row: its aggregate's, for its cgroup. */
static struct metrics_ctx *ctx_of(const struct output *out,
				  const struct results_row *rr)
{
	const char *c = rr->cgroup;
	size_t j;

	for (j = 0; j < out->n_cgroups && out->cgroups[j] != c; j++)
		;
	return &out->ctx[rr->aggr * out->n_cgroups + j];
}

/*
 * Whether row y counted in the very runs rr did. Where the runs' values
 * are not kept (results.h), only rows that counted in every run are
 * known to have.
 */
static bool same_runs(const struct results *res, const struct results_row *rr,
		      const struct results_row *y)
{
	size_t k;

	if (!res->keep_values)
		return rr->runs.n == (double)res->n_runs &&
		       y->runs.n == (double)res->n_runs;
	for (k = 0; k < res->n_runs; k++)
		if (y->run_counted[k] != rr->run_counted[k])
			return false;
	return true;
}

/* y's mean over the runs rr counted in, or false: y missed one. */
static bool mean_where(const struct results *res,
		       const struct results_row *rr,
		       const struct results_row *y, double *mean)
{
	double sum = 0.0, n = 0.0;
	size_t k;

	for (k = 0; k < res->n_runs; k++) {
		if (!rr->run_counted[k])
			continue;
		if (!y->run_counted[k])
			return false;
		sum += y->run_values[k];
		n += 1.0;
	}
	*mean = n > 0.0 ? sum / n : 0.0;
	return n > 0.0;
}

/*
 * What rr's metrics divide by. With -r, a ratio takes its denominator
 * from the runs that counted its numerator: when rows of the context
 * counted in other runs than rr, own is filled with their means (and
 * the wall time's) over rr's runs alone, leaving out a row that missed
 * one of them; else the shared context serves. Where the runs' values
 * are not kept, own stays empty: rr's ratios are not shown, rather
 * than taken over other runs.
 */
static const struct metrics_ctx *ratio_ctx(const struct output *out,
					   const struct results *res,
					   const struct results_row *rr,
					   struct metrics_ctx *own)
{
	const struct metrics_ctx *shared = ctx_of(out, rr);
	const struct results_row *y;
	double wall = 0.0, n = 0.0, mean;
	size_t i, k;

	if (out->interval || res->n_runs < 2)
		return shared;
	for (i = 0; i < res->n_rows; i++)
		if (ctx_of(out, &res->rows[i]) == shared &&
		    !same_runs(res, rr, &res->rows[i]))
			break;
	if (i == res->n_rows)
		return shared;
	if (!res->keep_values || !res->keep_wall) {
		metrics_ctx_init(own, 0.0);
		return own;
	}
	for (k = 0; k < res->n_runs; k++)
		if (rr->run_counted[k]) {
			wall += res->run_wall_ns[k];
			n += 1.0;
		}
	metrics_ctx_init(own, n > 0.0 ? wall / n : 0.0);
	for (i = 0; i < res->n_rows; i++) {
		y = &res->rows[i];
		if (ctx_of(out, y) == shared && mean_where(res, rr, y, &mean))
			metrics_ctx_add(own, y->attr, mean);
	}
	return own;
}

/* Aggregate a's value of each column; none where a metric has none.
 * A metric of -M always has a cell: a number, or what it is not. */
static void metric_cells(struct output *out, const struct results *res,
			 const struct output_run *run, double wall_ns,
			 size_t a, struct output_row *first)
{
	struct output_metric_only *mo = &out->mo;
	const struct output_column *c;
	const size_t *rows = &mo->rows[a * mo->n_events];
	struct output_cell *cell;
	struct output_row row;
	struct metrics_ctx own;
	const struct metrics_ctx *ctx = NULL;
	size_t i, e = SIZE_MAX;

	make_row(res, &res->rows[rows[0]], out->interval, NULL, first);
	for (i = 0; i < mo->n_cols; i++) {
		c = &mo->cols[i];
		cell = &mo->cells[i];
		if (i == 0 || c->event != e) {
			e = c->event;
			make_row(res, &res->rows[rows[e]], out->interval, NULL,
				 &row);
			ctx = ratio_ctx(out, res, row.rr, &own);
			if (out->o.mg)
				table_metrics(out, res, run, wall_ns, &row);
		}
		if (c->mg >= 0 && c->mg < row.n_metrics) {
			cell->m = row.m[c->mg];
			cell->has = true;
		} else {
			cell->m = (struct metric){ .status = METRIC_COUNTED };
			cell->has = c->mg < 0 && counts_counted(&row.r) &&
				metrics_column_value(ctx, row.rr->attr,
						     row.raw, &c->m,
						     &cell->m.value);
		}
		cell->value = cell->m.value;
	}
}

/* perf's --metric-only, done right: the same columns on every line. */
static void print_metric_only(struct output *out, const struct results *res,
			      const struct output_run *run, double wall_ns)
{
	size_t n_aggr = res->aggr ? res->aggr->n : 1, a;
	struct output_row first;
	bool cpus;

	if (!res->n_rows)
		return;
	/* Not even a time or an aggregate: no line to print. */
	if (!out->mo.n_cols && !out->o.interval &&
	    !output_aggr_title(res->aggr, &cpus))
		return;
	/* A region's lines go under the whole run's titles, but in the
	 * human format, where each block has its own. */
	if (out->p->metric_titles &&
	    (!out->region || out->o.format == OUTPUT_HUMAN))
		out->p->metric_titles(out);
	for (a = 0; a < n_aggr; a++) {
		metric_cells(out, res, run, wall_ns, a, &first);
		out->p->metric_line(out, &first, out->mo.cells);
	}
}

/* Room for the metrics context of each aggregate and cgroup. 0 or -1. */
static int alloc_contexts(struct output *out, const struct results *res)
{
	size_t n = res->aggr ? res->aggr->n : 1;

	if (list_cgroups(out, res) < 0)
		return -1;
	n *= out->n_cgroups;
	if (out->n_ctx >= n)
		return 0;
	free(out->ctx);
	out->ctx = calloc(n, sizeof(*out->ctx));
	out->n_ctx = out->ctx ? n : 0;
	return out->ctx ? 0 : -1;
}

/* The metrics context of each aggregate, from what its rows counted. */
static int build_contexts(struct output *out, const struct results *res,
			  double wall_ns)
{
	size_t i;
	struct output_row row;

	if (alloc_contexts(out, res) < 0)
		return -1;
	for (i = 0; i < out->n_ctx; i++)
		metrics_ctx_init(&out->ctx[i], wall_ns);
	for (i = 0; i < res->n_rows; i++) {
		row_value(res, &res->rows[i], out->interval, &row);
		if (counts_counted(&row.r))
			metrics_ctx_add(ctx_of(out, row.rr),
					row.rr->attr, row.raw);
	}
	return 0;
}

/* What -M's formulas read of one aggregate of the results. */
struct aggregate_values {
	const struct results *res;
	size_t aggr;
	bool interval;
	size_t base;	/* the first event of the row's cgroup's block */
};

static enum counts_state event_value(void *arg, size_t i, double *v,
				     double *running_pct)
{
	const struct aggregate_values *a = arg;
	const struct results *res = a->res;
	struct output_row row;
	size_t k;

	i += a->base;
	for (k = 0; k < res->n_rows; k++) {
		if (res->rows[k].first != i || res->rows[k].aggr != a->aggr)
			continue;
		row_value(res, &res->rows[k], a->interval, &row);
		*v = row.raw;
		*running_pct = row.r.running_pct;
		return row.r.state;
	}
	return COUNTS_NOT_COUNTED;
}

/* -M's metrics of the row's event, after perf's own ratios. */
static void table_metrics(const struct output *out, const struct results *res,
			  const struct output_run *run, double wall_ns,
			  struct output_row *row)
{
	size_t block = out->o.mg_block, first = row->rr->first;
	struct aggregate_values a = {
		res, row->rr->aggr, out->interval,
		block ? first - first % block : 0,
	};
	const struct metricgroup_values v = {
		.arg = &a, .event = event_value, .wall_ns = wall_ns,
		.user_ns = run ? run->user_s * 1e9 : NAN,
		.system_ns = run ? run->sys_s * 1e9 : NAN,
		.thresholds = !out->o.no_threshold,
	};

	/* The metrics of the first cgroup's events, on this one's. */
	row->n_metrics += metricgroup_row(out->o.mg, first - a.base, &v,
					  row->m + row->n_metrics,
					  OUTPUT_ROW_METRICS - row->n_metrics);
}

/* A thread of the whole system that counted nothing: as perf, people
 * are not shown the hundreds of them; scripts get every row. */
static bool quiet_zero(const struct results *res, const struct output_row *row)
{
	return res->aggr && res->aggr->quiet_zeros && counts_counted(&row->r) &&
	       row->r.value == 0;
}

/*
 * What a section needs that may fail, before a byte of it is written:
 * the metrics contexts, and the metric-only columns (made once). Out
 * of memory once is enough: nothing more is printed, and output_close
 * says so.
 */
static int prepare_section(struct output *out, const struct results *res,
			   double wall_ns)
{
	if (out->failed || build_contexts(out, res, wall_ns) < 0 ||
	    output_prepare(out, res) < 0) {
		out->failed = true;
		return -1;
	}
	return 0;
}

/* The spread of the event of rows ev, ev + n_events, ... over them. */
static bool event_spread(const struct results *res, size_t ev,
			 struct output_row *first, struct output_spread *s)
{
	size_t n_aggr = res->aggr->n, a;
	struct output_row row;
	double sum = 0.0;

	*s = (struct output_spread){
		.row = first,
		.over = res->tasks_per_process ? "processes" : "threads",
	};
	for (a = 0; a < n_aggr; a++) {
		row_value(res, &res->rows[ev * n_aggr + a], false, &row);
		if (a == 0)
			*first = row;
		if (!counts_counted(&row.r))
			continue;
		row.value = output_shown(row.rr, row.raw);
		s->min = s->n && s->min < row.value ? s->min : row.value;
		s->max = s->n && s->max > row.value ? s->max : row.value;
		sum += row.value;
		s->n++;
	}
	if (!s->n)
		return false;
	first->name = first->rr->name;
	first->unit = first->rr->unit;
	first->fractional = first->rr->clock || first->rr->scale != 1.0;
	s->mean = sum / (double)s->n;
	s->imbalance = s->mean > 0.0 ? s->max / s->mean - 1.0 : 0.0;
	return true;
}

/* After the totals of --per-thread with a command: each event's spread. */
static void print_spreads(struct output *out, const struct results *res)
{
	size_t n_events, ev;
	struct output_spread s;
	struct output_row first;
	bool any = false;

	if (!res->per_task || out->interval || !out->p->spread ||
	    !res->aggr || !res->aggr->n)
		return;
	n_events = res->n_rows / res->aggr->n;
	for (ev = 0; ev < n_events; ev++) {
		if (!event_spread(res, ev, &first, &s))
			continue;
		out->p->spread(out, &s, !any);
		any = true;
	}
}

/* The rows of res (or --metric-only's lines), and their metrics. */
static void print_rows(struct output *out, const struct results *res,
		       const struct output_run *run, double wall_ns)
{
	struct metrics_ctx own;
	struct output_row row;
	size_t i;

	if (out->o.metric_only && out->p->metric_line) {
		print_metric_only(out, res, run, wall_ns);
		return;
	}
	for (i = 0; i < res->n_rows; i++) {
		/* Not on a CPU of its aggregate: no row, as in perf. */
		if (!res->rows[i].covered)
			continue;
		make_row(res, &res->rows[i], out->interval,
			 ratio_ctx(out, res, &res->rows[i], &own), &row);
		if (out->o.mg)
			table_metrics(out, res, run, wall_ns, &row);
		if (out->o.format == OUTPUT_HUMAN && quiet_zero(res, &row))
			continue;
		out->p->row(out, &row);
		out->rows++;
	}
}

/*
 * --regions: each region's rows after the whole run's, its metrics
 * over the time inside it. The run's CPU times are not a region's.
 */
static void print_regions(struct output *out, const struct output_run *run)
{
	const struct regions *rs = run ? run->regions : NULL;
	const struct results *whole = out->res;
	size_t i;

	out->regions = 0;
	if (!rs || out->interval || !out->p->region)
		return;
	for (i = 0; i < rs->n && !out->failed; i++) {
		const struct region *g = &rs->r[i];

		if (!g->res)
			continue;
		if (build_contexts(out, g->res, g->time_ns) < 0) {
			out->failed = true;
			break;
		}
		out->res = g->res;
		out->region = g;
		out->p->region(out, g, out->regions == 0);
		/* A printer that keeps the rows keeps the regions' too. */
		if (!out->p->keeps_rows)
			out->rows = 0;
		print_rows(out, g->res, NULL, g->time_ns);
		out->regions++;
	}
	out->region = NULL;
	out->res = whole;
}

static void print_section(struct output *out, const struct results *res,
			  const struct output_run *run, double wall_ns)
{
	int ret;

	out->res = res;
	out->rows = 0;
	errno = 0;
	/*
	 * Nothing is written before there are results: a failure before
	 * then (out of memory for the metrics, too) leaves only its
	 * message, not the start of a document.
	 */
	if (prepare_section(out, res, wall_ns) < 0)
		return;
	if (out->sections == 0 && out->p->start)
		out->p->start(out);
	/* The human layout's locale: out of memory is said, not guessed. */
	if (out->failed)
		return;
	if (out->p->section)
		out->p->section(out, run);
	print_rows(out, res, run, wall_ns);
	print_spreads(out, res);
	print_regions(out, run);
	if (out->p->section_end)
		out->p->section_end(out, run);
	out->sections++;
	/* An interval is worth seeing now, not when the buffer fills. */
	if (fflush(out->f) != 0 && !out->write_err)
		out->write_err = errno ? errno : EIO;
	ret = !out->write_err && out->section_done ?
	      out->section_done(out->section_done_arg) : 0;
	if (ret < 0)
		out->write_err = -ret;
}

void output_on_section(struct output *out, int (*done)(void *arg),
		       void *arg)
{
	out->section_done = done;
	out->section_done_arg = arg;
}

/* Room for the rows of a section, for a printer that keeps them. */
static int alloc_kept(struct output *out, const struct results *res)
{
	if (!out->p->keeps_rows || out->kept_cap >= res->n_rows)
		return 0;
	free(out->kept);
	out->kept = calloc(res->n_rows + 1, sizeof(*out->kept));
	out->kept_cap = out->kept ? res->n_rows : 0;
	return out->kept ? 0 : -ENOMEM;
}

int output_prepare(struct output *out, const struct results *res)
{
	if (alloc_contexts(out, res) < 0 || alloc_kept(out, res) < 0)
		return -ENOMEM;
	if (out->o.metric_only && out->p->metric_line && res->n_rows && !out->mo.ready &&
	    metric_columns(out, res) < 0)
		return -ENOMEM;
	return 0;
}

void output_interval(struct output *out, const struct results *res,
		     size_t run, double ts, double interval_ns)
{
	out->interval = true;
	out->new_run = out->sections == 0 || run != out->run;
	out->run = run;
	out->ts = ts;
	/* Once a section, not once a row. */
	fmt_fixed(out->ts_text, sizeof(out->ts_text), 9, ts);
	print_section(out, res, NULL, interval_ns);
}

bool output_started(const struct output *out)
{
	return out->sections > 0;
}

void output_final(struct output *out, const struct results *res,
		  const struct output_run *run)
{
	bool own_format = out->o.format == OUTPUT_PSTAT_CSV ||
			  out->o.format == OUTPUT_PSTAT_JSON ||
			  out->o.format == OUTPUT_OPENMETRICS;

	if (out->o.interval && !out->o.summary && !own_format)
		return;
	out->interval = false;
	print_section(out, res, run, res->n_runs > 1 ? stats_mean(&res->wall_ns)
						     : run->elapsed_ns);
}

int output_close(struct output *out)
{
	int ret;

	if (out->sections && out->p->finish)
		out->p->finish(out);
	errno = 0;
	ret = fflush(out->f) == 0 && !ferror(out->f) ? 0 : errno ? -errno : -EIO;
	/* The first failure says why; later flushes only know it failed. */
	if (out->write_err)
		ret = -out->write_err;
	if (out->failed)
		ret = -ENOMEM;
	metric_only_free(&out->mo);
	free(out->ctx);
	free(out->cgroups);
	free(out->kept);
	free(out);
	return ret;
}
