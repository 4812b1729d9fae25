/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results, in the format asked for: one traversal, a printer each. */
#include "config.h"

#include <errno.h>

#include "output.h"
#include "output_impl.h"

static void make_row(const struct evsel *e, const struct metrics_ctx *ctx,
		     struct output_row *row)
{
	row->e = e;
	row->clock = evsel_is_clock(e);
	if (e->open_err) {
		row->r = (struct counts_result){
			.state = COUNTS_NOT_SUPPORTED,
			.running_pct = 100.0,
		};
	} else {
		counts_scale(&e->vals, &row->r);
	}
	row->m.valid = false;
	if (row->r.state == COUNTS_COUNTED || row->r.state == COUNTS_SCALED)
		metrics_compute(row->clock, (double)row->r.value, ctx, &row->m);
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
	size_t i;

	p->header(f, run, o);
	for (i = 0; i < evlist_count(el); i++) {
		make_row(evlist_at_const(el, i), &ctx, &row);
		p->row(f, &row, o);
	}
	p->footer(f, run, o);
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
