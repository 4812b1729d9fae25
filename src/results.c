/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rows pstat prints: evsels merged, interval deltas, repeat statistics. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aggr.h"
#include "evlist.h"
#include "evsel.h"
#include "results.h"

static size_t row_span(const struct evlist *el, size_t i, bool no_merge)
{
	size_t n = 1;

	while (!no_merge && i + n < evlist_count(el) &&
	       evsel_merges(evlist_at(el, i + n)))
		n++;
	return n;
}

/* Room for the values of the first runs: -r 0 has no end to allocate
 * for, so the room grows as runs end (results_end_run). */
#define RUNS_FIRST 64

static void init_row(struct results_row *row, const struct evlist *el,
		     size_t i, size_t n, size_t aggr, bool no_merge)
{
	row->e = evlist_at(el, i);
	row->first = i;
	row->n_evsels = n;
	row->aggr = aggr;
	row->by_instance = no_merge && evsel_instance(row->e);
	row->name = row->by_instance ? evsel_instance(row->e)
				     : evsel_name(row->e);
	row->clock = evsel_is_clock(row->e);
	row->unit = row->clock ? "msec" : evsel_unit(row->e);
	row->cgroup = evsel_cgroup(row->e);
	row->attr = evsel_attr(row->e);
	row->scale = evsel_scale(row->e);
	row->covered = true;
	stats_init(&row->runs);
	row->enabled_sum = row->running_sum = 0.0;
	row->runs_scaled = false;
}

/*
 * Room for the values of cap runs of every row, in one allocation each
 * (not two a row), keeping those of the runs so far. 0 or -ENOMEM,
 * leaving the room as it was.
 */
static int runs_room(struct results *r, size_t cap)
{
	size_t n = r->n_rows && cap > (SIZE_MAX - 1) / r->n_rows
		   ? SIZE_MAX : r->n_rows * cap + 1, i;
	double *values = n < SIZE_MAX ? calloc(n, sizeof(*values)) : NULL;
	bool *counted = n < SIZE_MAX ? calloc(n, sizeof(*counted)) : NULL;

	if (!values || !counted) {
		free(values);
		free(counted);
		return -ENOMEM;
	}
	for (i = 0; i < r->n_rows; i++) {
		struct results_row *row = &r->rows[i];

		if (r->n_runs) {
			memcpy(values + i * cap, row->run_values,
			       r->n_runs * sizeof(*values));
			memcpy(counted + i * cap, row->run_counted,
			       r->n_runs * sizeof(*counted));
		}
		row->run_values = values + i * cap;
		row->run_counted = counted + i * cap;
	}
	free(r->values);
	free(r->counted);
	r->values = values;
	r->counted = counted;
	return 0;
}

struct results *results_new(const struct evlist *el, bool no_merge,
			    size_t max_runs, const struct aggr *aggr)
{
	struct results *r = calloc(1, sizeof(*r));
	size_t n_aggr = aggr ? aggr->n : 1, n_ev = evlist_count(el);
	size_t events = 0, i, n, a, ev, at;
	bool event_major = aggr && (aggr->kind == AGGR_CPU ||
				    aggr->kind == AGGR_THREAD);
	size_t *first = calloc(n_ev + 1, sizeof(*first));
	size_t *span = calloc(n_ev + 1, sizeof(*span));

	if (!r || !first || !span)
		goto fail;
	r->el = el;
	r->aggr = aggr;
	r->max_runs = max_runs;
	r->keep_values = r->keep_wall = true;
	r->enabled = true;	/* until a run says it has not started */
	stats_init(&r->wall_ns);
	r->rows = calloc(n_ev * n_aggr + 1, sizeof(*r->rows));
	if (!r->rows)
		goto fail;
	for (i = 0; i < n_ev; i += n) {
		n = row_span(el, i, no_merge);
		first[events] = i;
		span[events++] = n;
	}
	r->n_rows = events * n_aggr;
	for (a = 0; a < n_aggr; a++) {
		for (ev = 0; ev < events; ev++) {
			at = event_major ? ev * n_aggr + a : a * events + ev;
			init_row(&r->rows[at], el, first[ev], span[ev], a,
				 no_merge);
		}
	}
	free(first);
	free(span);
	return r;
fail:
	free(first);
	free(span);
	results_free(r);
	return NULL;
}

void results_free(struct results *r)
{
	if (!r)
		return;
	free(r->values);
	free(r->counted);
	free(r->rows);
	free(r->run_wall_ns);
	free(r);
}

/* Whether any evsel of the row counts now, and how often they began. */
static bool switches(const struct evlist *el, const struct results_row *row,
		     uint64_t *starts)
{
	bool counting = false;
	uint64_t n;
	size_t j;

	*starts = 0;
	for (j = 0; j < row->n_evsels; j++) {
		counting |= evlist_counting(el, row->first + j, &n);
		*starts += n;
	}
	return counting;
}

void results_snapshot(struct results *r)
{
	const struct aggr *ag = r->aggr;
	size_t i, j, t;

	for (i = 0; i < r->n_rows; i++) {
		struct results_row *row = &r->rows[i];

		/* perf's aggregation: sum value, enabled and running,
		 * and scale once. */
		row->now = (struct counts_values){ 0 };
		row->counting_now = switches(r->el, row, &row->starts_now);
		row->covered = evsel_open_err(row->e) ||
			       evsel_tool(row->e) != EVENT_TOOL_NONE;
		for (j = 0; j < row->n_evsels; j++) {
			const struct evsel *e = evlist_at(r->el, row->first + j);

			for (t = 0; t < evsel_targets(e); t++) {
				const struct counts_values *v = evsel_value(e, t);

				if (ag && ag->of_target[t] != row->aggr)
					continue;
				row->covered |= evsel_open_on(e, t);
				row->now.value += v->value;
				row->now.enabled += v->enabled;
				row->now.running += v->running;
			}
		}
	}
}

void results_snapshot_values(struct results *r, const struct counts_values *v)
{
	size_t n_ev = evlist_count(r->el), i, j;

	for (i = 0; i < r->n_rows; i++) {
		struct results_row *row = &r->rows[i];

		row->now = (struct counts_values){ 0 };
		row->counting_now = switches(r->el, row, &row->starts_now);
		row->covered = true;
		for (j = 0; j < row->n_evsels; j++) {
			const struct counts_values *x =
				&v[row->aggr * n_ev + row->first + j];

			row->now.value += x->value;
			row->now.enabled += x->enabled;
			row->now.running += x->running;
		}
	}
}

/*
 * Whether pstat had the row counting at some time since the previous
 * interval (or the run's start): on then, or started since. The
 * tools' times are pstat's own, counting whenever the run is.
 */
static bool counted_in(const struct results_row *row, bool interval)
{
	if (evsel_tool(row->e) != EVENT_TOOL_NONE)
		return true;
	if (!interval)
		return row->starts_now > 0;
	return row->counting_prev || row->starts_now != row->starts_prev;
}

bool results_values(const struct results_row *row, bool interval,
		    struct counts_values *v)
{
	bool known = true;

	if (interval)
		known = stats_delta(&row->now, &row->prev, v);
	else
		*v = row->now;
	return known && counted_in(row, interval);
}

void results_next_interval(struct results *r)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		r->rows[i].prev = r->rows[i].now;
		r->rows[i].counting_prev = r->rows[i].counting_now;
		r->rows[i].starts_prev = r->rows[i].starts_now;
	}
}

void results_switched(struct results *r)
{
	struct results_row *row;
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		row = &r->rows[i];
		row->counting_prev = switches(r->el, row, &row->starts_prev);
	}
}

void results_restart_intervals(struct results *r)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++) {
		r->rows[i].prev = (struct counts_values){ 0 };
		r->rows[i].counting_prev = false;
		r->rows[i].starts_prev = 0;
	}
}

double results_value(const struct results *r, const struct results_row *row,
		     const struct counts_values *v, struct counts_result *res)
{
	if (evsel_open_err(row->e)) {
		*res = (struct counts_result){
			.state = COUNTS_NOT_SUPPORTED,
			.running_pct = 100.0,
		};
		return 0.0;
	}
	/* Its :u count would be a false 0 (see notes_user_only's note);
	 * a counter never enabled reads 0 for nothing it saw; one in
	 * error state stopped counting. */
	if ((evsel_user_only(row->e) && evsel_kernel_only(row->e)) ||
	    !r->enabled || evsel_in_error(row->e)) {
		*res = (struct counts_result){ .state = COUNTS_NOT_COUNTED };
		return 0.0;
	}
	counts_scale(v, res);
	if (r->no_scale && res->state == COUNTS_SCALED)
		res->value = v->value;
	return (double)res->value * row->scale;
}

/* A mean of times in nanoseconds, as a reading holds them. */
static uint64_t mean_ns(double sum, double n)
{
	double m = sum / n;

	return m >= 0x1p64 ? UINT64_MAX : (uint64_t)(m + 0.5);
}

bool results_over_runs(const struct results_row *row,
		       struct counts_values *v, struct counts_result *res,
		       double *mean)
{
	if (row->runs.n < 1.0)
		return false;
	*mean = stats_mean(&row->runs);
	v->enabled = mean_ns(row->enabled_sum, row->runs.n);
	v->running = mean_ns(row->running_sum, row->runs.n);
	res->state = row->runs_scaled ? COUNTS_SCALED : COUNTS_COUNTED;
	res->running_pct = 100.0;
	if (row->runs_scaled && row->enabled_sum > 0.0)
		res->running_pct = 100.0 * row->running_sum / row->enabled_sum;
	return true;
}

/* *p, of n items of size each, made room for want. 0 or -ENOMEM. */
static int resize(void *p, size_t want, size_t size)
{
	void *q = reallocarray(*(void **)p, want, size);

	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	return 0;
}

/*
 * Room for what is kept of RUNS_FIRST runs, then of twice as many, up
 * to max_runs.
 */
static int grow_runs(struct results *r)
{
	size_t want = !r->runs_cap ? (r->max_runs < RUNS_FIRST ? r->max_runs
							      : RUNS_FIRST)
		      : r->runs_cap > r->max_runs / 2 ? r->max_runs
						      : 2 * r->runs_cap;

	if (r->keep_wall &&
	    resize(&r->run_wall_ns, want, sizeof(*r->run_wall_ns)) < 0)
		return -ENOMEM;
	if (r->keep_values && runs_room(r, want) < 0)
		return -ENOMEM;
	r->runs_cap = want;
	return 0;
}

int results_end_run(struct results *r, double wall_ns)
{
	struct counts_result res;
	size_t i;

	if (r->n_runs >= r->max_runs)
		return 0;
	if ((r->keep_values || r->keep_wall) && r->n_runs == r->runs_cap &&
	    grow_runs(r) < 0)
		return -ENOMEM;
	for (i = 0; i < r->n_rows; i++) {
		struct results_row *row = &r->rows[i];
		struct counts_values v;
		bool known = results_values(row, false, &v);
		double value = results_value(r, row, &v, &res);
		bool counted = known && row->covered && counts_counted(&res);

		if (r->keep_values) {
			row->run_counted[r->n_runs] = counted;
			row->run_values[r->n_runs] = value;
		}
		if (!counted)
			continue;
		stats_add(&row->runs, value);
		row->enabled_sum += (double)v.enabled;
		row->running_sum += (double)v.running;
		row->runs_scaled |= res.state == COUNTS_SCALED;
	}
	stats_add(&r->wall_ns, wall_ns);
	if (r->keep_wall)
		r->run_wall_ns[r->n_runs] = wall_ns;
	r->n_runs++;
	return 0;
}
