/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results, in the format asked for: one traversal, a printer each. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "output_impl.h"

static const struct output_printer *const printers[] = {
	[OUTPUT_HUMAN] = &output_human,
	[OUTPUT_CSV] = &output_csv,
	[OUTPUT_JSONL] = &output_jsonl,
	[OUTPUT_PSTAT_CSV] = &output_pstat_csv,
	[OUTPUT_PSTAT_JSON] = &output_pstat_json,
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
		snprintf(buf, len, "%.2f", row->value);
	else
		snprintf(buf, len, "%" PRIu64, row->r.value);
}

/*
 * "%.2f" of a percentage; 100 is the usual case, and floating-point
 * printing is most of the cost of an interval.
 */
void output_pct_text(char *buf, size_t len, double pct)
{
	if (pct == 100.0)
		snprintf(buf, len, "100.00");
	else
		snprintf(buf, len, "%.2f", pct);
}

const char *output_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

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

static bool counted(const struct counts_result *r)
{
	return r->state == COUNTS_COUNTED || r->state == COUNTS_SCALED;
}

/* What metrics divide: the value shown, with clocks in nanoseconds. */
static double metric_input(const struct output_row *row)
{
	return evsel_is_clock(row->rr->e) ? row->value * 1e6 : row->value;
}

/* Row i as printed; its metrics too when ctx is given. */
static void make_row(const struct results *res, const struct results_row *rr,
		     bool interval, const struct metrics_ctx *ctx,
		     struct output_row *row)
{
	const struct results_aggr *ag = res->aggr;

	row->rr = rr;
	row->aggr = ag ? ag->label[rr->aggr] : NULL;
	row->aggr_cpus = ag && ag->kind != AGGR_CPU && ag->kind != AGGR_THREAD
			 ? ag->n_cpus[rr->aggr] : 0;
	row->name = results_name(rr);
	row->unit = results_unit(rr);
	results_values(rr, interval, &row->vals);
	row->value = results_value(res, rr, &row->vals, &row->r);
	/* It did not count: whatever time the kernel gave, none ran. */
	if (row->r.state == COUNTS_NOT_COUNTED)
		row->vals.running = 0;
	row->fractional = evsel_is_clock(rr->e) || rr->e->scale != 1.0;
	row->has_variance = false;
	/* Totals of several runs: their mean, and how far to trust it. */
	if (!interval && res->n_runs > 1 && counted(&row->r)) {
		row->value = stats_mean(&rr->runs);
		row->r.value = (uint64_t)(row->value + 0.5);
		row->has_variance = true;
		row->variance_pct = stats_rel_stddev_mean(&rr->runs);
	}
	row->n_metrics = 0;
	if (ctx && counted(&row->r))
		row->n_metrics = metrics_compute(ctx, &rr->e->attr,
						 metric_input(row), row->m);
}

/* A metric's column title: its unit, and the event's name for rates. */
static void metric_title(char *buf, size_t len, const struct output_row *row,
			 const struct metric *m)
{
	if (strstr(m->unit, "/sec"))
		snprintf(buf, len, "%s %s", row->name, m->unit);
	else
		snprintf(buf, len, "%s", m->unit);
}

/* Each metric as a column; perf's --metric-only, which works here. */
static void print_metric_only(struct output *out, const struct results *res,
			      const struct metrics_ctx *ctx)
{
	struct output_row row;
	struct metric cells[OUTPUT_MAX_CELLS];
	char titles[OUTPUT_MAX_CELLS][64];
	size_t i, n = 0;
	int m;

	for (i = 0; i < res->n_rows; i++) {
		make_row(res, &res->rows[i], out->interval,
			 &ctx[res->rows[i].aggr], &row);
		for (m = 0; m < row.n_metrics && n < OUTPUT_MAX_CELLS; m++) {
			metric_title(titles[n], sizeof(titles[n]), &row,
				     &row.m[m]);
			cells[n++] = row.m[m];
		}
	}
	out->p->metric_line(out, titles, cells, n);
}

/* The metrics context of each aggregate, from what its rows counted. */
static int build_contexts(struct output *out, const struct results *res,
			  double wall_ns)
{
	size_t n = res->aggr ? res->aggr->n : 1, i;
	struct output_row row;

	if (out->n_ctx < n) {
		free(out->ctx);
		out->ctx = calloc(n, sizeof(*out->ctx));
		out->n_ctx = out->ctx ? n : 0;
		if (!out->ctx)
			return -1;
	}
	for (i = 0; i < n; i++)
		metrics_ctx_init(&out->ctx[i], wall_ns);
	for (i = 0; i < res->n_rows; i++) {
		make_row(res, &res->rows[i], out->interval, NULL, &row);
		if (counted(&row.r))
			metrics_ctx_add(&out->ctx[row.rr->aggr],
					&row.rr->e->attr, metric_input(&row));
	}
	return 0;
}

/* A thread of the whole system that counted nothing: as perf, people
 * are not shown the hundreds of them; scripts get every row. */
static bool quiet_zero(const struct results *res, const struct output_row *row)
{
	return res->aggr && res->aggr->quiet_zeros && counted(&row->r) &&
	       row->r.value == 0;
}

static void print_section(struct output *out, const struct results *res,
			  const struct output_run *run, double wall_ns)
{
	struct output_row row;
	size_t i;

	out->res = res;
	out->rows = 0;
	errno = 0;
	/*
	 * Nothing is written before there are results: a failure before
	 * then leaves only its message, not the start of a document.
	 */
	if (out->sections == 0 && out->p->start)
		out->p->start(out);
	if (build_contexts(out, res, wall_ns) < 0) {
		out->failed = true;
		return;
	}
	if (out->p->section)
		out->p->section(out, run);
	if (out->o.metric_only && out->p->metric_line) {
		print_metric_only(out, res, out->ctx);
		i = res->n_rows;
	} else {
		i = 0;
	}
	for (; i < res->n_rows; i++) {
		make_row(res, &res->rows[i], out->interval,
			 &out->ctx[res->rows[i].aggr], &row);
		if (out->o.format == OUTPUT_HUMAN && quiet_zero(res, &row))
			continue;
		out->p->row(out, &row);
		out->rows++;
	}
	if (out->p->section_end)
		out->p->section_end(out, run);
	out->sections++;
	/* An interval is worth seeing now, not when the buffer fills. */
	if (fflush(out->f) != 0 && !out->write_err)
		out->write_err = errno ? errno : EIO;
}

void output_interval(struct output *out, const struct results *res,
		     double ts, double interval_ns)
{
	out->interval = true;
	out->ts = ts;
	/* Once a section, not once a row. */
	snprintf(out->ts_text, sizeof(out->ts_text), "%.9f", ts);
	print_section(out, res, NULL, interval_ns);
}

void output_final(struct output *out, const struct results *res,
		  const struct output_run *run)
{
	bool own_format = out->o.format == OUTPUT_PSTAT_CSV ||
			  out->o.format == OUTPUT_PSTAT_JSON;

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
	free(out->ctx);
	free(out);
	return ret;
}
