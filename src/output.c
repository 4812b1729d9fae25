/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results, in the format asked for: one traversal, a printer each. */
#include "config.h"

#include <errno.h>

#include "output.h"
#include "output_impl.h"

/* The row that starts at evlist index i; *next gets the one after. */
static void make_row(const struct evlist *el, size_t i, size_t *next,
		     const struct metrics_ctx *ctx, const struct output_opts *o,
		     struct output_row *row)
{
	const struct evsel *e = evlist_at_const(el, i);
	bool clock = evsel_is_clock(e);

	row->e = e;
	row->name = o->no_merge && e->instance ? e->instance : e->name;
	row->vals = e->vals;
	for (*next = i + 1; !o->no_merge && *next < evlist_count(el) &&
	     evlist_at_const(el, *next)->merge_cont; (*next)++) {
		const struct counts_values *v = &evlist_at_const(el, *next)->vals;

		row->vals.value += v->value;
		row->vals.enabled += v->enabled;
		row->vals.running += v->running;
	}
	if (e->open_err)
		row->r = (struct counts_result){
			.state = COUNTS_NOT_SUPPORTED,
			.running_pct = 100.0,
		};
	else
		counts_scale(&row->vals, &row->r);
	row->value = (double)row->r.value * e->scale;
	row->fractional = clock || e->scale != 1.0;
	row->unit = clock ? "msec" : e->unit;
	if (clock)
		row->value /= 1e6;
	row->m.valid = false;
	if (row->r.state == COUNTS_COUNTED || row->r.state == COUNTS_SCALED)
		metrics_compute(clock, (double)row->r.value, ctx, &row->m);
}

/* Rates are per second of task-clock, as in perf stat; else cpu-clock. */
static double clock_ns(const struct evlist *el)
{
	double cpu_clock = 0.0;
	size_t i;

	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);
		struct counts_result r;

		if (e->open_err || !evsel_is_clock(e))
			continue;
		counts_scale(&e->vals, &r);
		if (evsel_is_task_clock(e))
			return (double)r.value;
		if (cpu_clock == 0.0)
			cpu_clock = (double)r.value;
	}
	return cpu_clock;
}

int output_print(FILE *f, const struct evlist *el,
		 const struct output_run *run, const struct output_opts *o)
{
	const struct output_printer *p = o->sep ? &output_csv : &output_human;
	struct metrics_ctx ctx = {
		.wall_ns = run->elapsed_ns,
		.clock_ns = clock_ns(el),
	};
	struct output_row row;
	size_t i, next;

	p->header(f, run, o);
	for (i = 0; i < evlist_count(el); i = next) {
		make_row(el, i, &next, &ctx, o, &row);
		p->row(f, &row, o);
	}
	p->footer(f, run, o);
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
