/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rows pstat prints: evsels merged, interval deltas, repeat statistics. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results.h"

static size_t row_span(const struct evlist *el, size_t i, bool no_merge)
{
	size_t n = 1;

	while (!no_merge && i + n < evlist_count(el) &&
	       evlist_at_const(el, i + n)->merge_cont)
		n++;
	return n;
}

struct results *results_new(const struct evlist *el, bool no_merge,
			    size_t max_runs)
{
	struct results *r = calloc(1, sizeof(*r));
	size_t i, n;

	if (!r)
		return NULL;
	r->rows = calloc(evlist_count(el) + 1, sizeof(*r->rows));
	r->max_runs = max_runs;
	stats_init(&r->wall_ns);
	for (i = 0; r->rows && i < evlist_count(el); i += n) {
		struct results_row *row = &r->rows[r->n_rows++];

		n = row_span(el, i, no_merge);
		row->e = evlist_at_const(el, i);
		row->n_evsels = n;
		row->name = no_merge && row->e->instance ? row->e->instance
							 : row->e->name;
		stats_init(&row->runs);
		row->run_values = calloc(max_runs, sizeof(*row->run_values));
		row->run_counted = calloc(max_runs, sizeof(*row->run_counted));
		if (!row->run_values || !row->run_counted) {
			results_free(r);
			return NULL;
		}
	}
	if (!r->rows) {
		free(r);
		return NULL;
	}
	return r;
}

void results_free(struct results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n_rows; i++) {
		free(r->rows[i].run_values);
		free(r->rows[i].run_counted);
	}
	free(r->rows);
	free(r);
}

void results_snapshot(struct results *r)
{
	size_t i, j;

	for (i = 0; i < r->n_rows; i++) {
		struct results_row *row = &r->rows[i];

		row->now = (struct counts_values){ 0 };
		for (j = 0; j < row->n_evsels; j++) {
			const struct counts_values *v = &row->e[j].vals;

			row->now.value += v->value;
			row->now.enabled += v->enabled;
			row->now.running += v->running;
		}
	}
}

void results_values(const struct results_row *row, bool interval,
		    struct counts_values *v)
{
	if (interval)
		stats_delta(&row->now, &row->prev, v);
	else
		*v = row->now;
}

void results_next_interval(struct results *r)
{
	size_t i;

	for (i = 0; i < r->n_rows; i++)
		r->rows[i].prev = r->rows[i].now;
}

double results_value(const struct results *r, const struct results_row *row,
		     const struct counts_values *v, struct counts_result *res)
{
	double value;

	if (row->e->open_err) {
		*res = (struct counts_result){
			.state = COUNTS_NOT_SUPPORTED,
			.running_pct = 100.0,
		};
		return 0.0;
	}
	counts_scale(v, res);
	if (r->no_scale && res->state == COUNTS_SCALED)
		res->value = v->value;
	value = (double)res->value * row->e->scale;
	return evsel_is_clock(row->e) ? value / 1e6 : value;
}

const char *results_unit(const struct results_row *row)
{
	return evsel_is_clock(row->e) ? "msec" : row->e->unit;
}

void results_end_run(struct results *r, double wall_ns)
{
	struct counts_result res;
	size_t i;

	if (r->n_runs >= r->max_runs)
		return;
	for (i = 0; i < r->n_rows; i++) {
		struct results_row *row = &r->rows[i];
		double value = results_value(r, row, &row->now, &res);

		row->run_counted[r->n_runs] = res.state == COUNTS_COUNTED ||
					      res.state == COUNTS_SCALED;
		row->run_values[r->n_runs] = value;
		if (row->run_counted[r->n_runs])
			stats_add(&row->runs, value);
	}
	stats_add(&r->wall_ns, wall_ns);
	r->n_runs++;
}
