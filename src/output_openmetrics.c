/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=openmetrics: each section (an interval, the totals) as one
 * OpenMetrics exposition ending in # EOF, for Prometheus (a textfile
 * collector), GitLab's metrics reports and the like. The layout is
 * the man page's (OUTPUT, OpenMetrics).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "aggr.h"
#include "openmetrics.h"
#include "output_impl.h"
#include "rank.h"
#include "regions.h"
#include "results.h"
#include "stats.h"

/* The label naming a row's aggregate, by the run's aggregation. */
static const char *aggr_label(const struct output *out)
{
	const struct results *res = out->res;

	if (!res->aggr || res->aggr->kind == AGGR_GLOBAL)
		return NULL;
	if (res->aggr->kind == AGGR_THREAD && res->per_task &&
	    res->tasks_per_process)
		return "process";
	return output_aggr_keys[res->aggr->kind];
}

static bool same_cgroup(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether rows a and b would carry the same labels but for their
 * number: the same event name in the same aggregate and cgroup. */
static bool alike(const struct output_row *a, const struct output_row *b)
{
	return a->region == b->region && a->rr->aggr == b->rr->aggr &&
	       same_cgroup(a->rr->cgroup, b->rr->cgroup) &&
	       strcmp(a->name, b->name) == 0;
}

/*
 * -e a,a: samples need labels of their own, so the second of a name
 * in its aggregate is numbered (occurrence="2"); 1 for the first.
 */
static unsigned int occurrence(const struct output *out, size_t k)
{
	unsigned int n = 1;
	size_t j;

	if (!out->same_names)
		return 1;
	for (j = 0; j < k; j++)
		n += alike(&out->kept[j], &out->kept[k]);
	return n;
}

/* A row's labels; metric and unit are a metric's (NULL: the event's),
 * run 0 for none. */
static void labels(const struct output *out, size_t k, const char *metric,
		   const char *unit, size_t run)
{
	const struct output_row *row = &out->kept[k];
	const char *agg = aggr_label(out);
	unsigned int n = occurrence(out, k);
	FILE *f = out->f;

	fputs("{event=", f);
	openmetrics_label(f, row->name);
	if (n > 1)
		fprintf(f, ",occurrence=\"%u\"", n);
	if (metric) {
		fputs(",metric=", f);
		openmetrics_label(f, metric);
	}
	fputs(",unit=", f);
	openmetrics_label(f, unit ? unit : row->unit);
	if (agg && row->aggr) {
		fprintf(f, ",%s=", agg);
		openmetrics_label(f, row->aggr);
	}
	if (row->cgroup) {
		fputs(",cgroup=", f);
		openmetrics_label(f, row->cgroup);
	}
	if (row->region) {
		fputs(",region=", f);
		openmetrics_label(f, row->region->name);
	}
	if (run)
		fprintf(f, ",run=\"%zu\"", run);
	fputc('}', f);
}

/* The run label of this section's samples: with -r, an interval's run. */
static size_t section_run(const struct output *out)
{
	return out->interval && out->o.runs > 1 ? out->run + 1 : 0;
}

static void om_start(struct output *out)
{
	const struct results *res = out->res;
	size_t i, j, a0 = res->n_rows ? res->rows[0].aggr : 0;
	struct output_row x, y;

	/* Events alike in one aggregate are alike in each. */
	for (i = 0; i < res->n_rows && !out->same_names; i++) {
		for (j = 0; j < i && res->rows[i].aggr == a0; j++) {
			x = (struct output_row){ .rr = &res->rows[i],
						 .name = res->rows[i].name };
			y = (struct output_row){ .rr = &res->rows[j],
						 .name = res->rows[j].name };
			if (alike(&x, &y)) {
				out->same_names = true;
				break;
			}
		}
	}
}

static void om_row(struct output *out, const struct output_row *row)
{
	/* Room lacking (out of memory for a region's): out->failed says. */
	if (out->rows >= out->kept_cap) {
		out->failed = true;
		return;
	}
	out->kept[out->rows] = *row;
	out->kept[out->rows].region = out->region;
}

/*
 * --regions: a region's rows are kept after the whole run's, to be
 * written in the same families with a region label: room for them.
 */
static void om_region(struct output *out, const struct region *g,
		      bool first)
{
	size_t need = out->rows + g->res->n_rows;
	struct output_row *kept;

	(void)first;
	if (need <= out->kept_cap)
		return;
	kept = realloc(out->kept, (need + 1) * sizeof(*kept));
	if (!kept) {
		out->failed = true;
		return;
	}
	out->kept = kept;
	out->kept_cap = need;
}

/* --regions: each region's entries, time inside and state. */
static void region_facts(FILE *f, const struct regions *rs)
{
	static const char *const names[] = {
		"pstat_region_entries", "pstat_region_seconds",
		"pstat_region_open", "pstat_region_unmatched_ends",
	};
	static const char *const helps[] = {
		"With --regions: the times the region was begun",
		"With --regions: the time inside the region, its spans summed",
		"With --regions: 1 where the region was still open when the command ended (counted to the end)",
		"With --regions: the ends of the region that came while it was not open",
	};
	size_t i, k;
	double v;

	for (k = 0; k < 4; k++) {
		openmetrics_family(f, names[k], "gauge",
				   k == 1 ? "seconds" : NULL, helps[k]);
		for (i = 0; i < rs->n; i++) {
			const struct region *g = &rs->r[i];

			v = k == 0 ? (double)g->entries :
			    k == 1 ? g->time_ns / 1e9 :
			    k == 2 ? (double)g->open : (double)g->unmatched;
			fprintf(f, "%s{region=", names[k]);
			openmetrics_label(f, g->name);
			fputs("} ", f);
			openmetrics_number(f, v);
			fputc('\n', f);
		}
	}
}

/* A counter's sample: its count, exact where it is a whole number. */
static void count_sample(FILE *f, const struct output_row *row)
{
	if (row->fractional)
		openmetrics_number(f, row->value);
	else
		fprintf(f, "%" PRIu64, row->r.value);
	fputc('\n', f);
}

/*
 * Each run's count, from the totals of -r: the last of each run's
 * counters, as its intervals' samples went.
 */
static void run_samples(const struct output *out, size_t k)
{
	const struct results_row *rr = out->kept[k].rr;
	size_t i;

	for (i = 0; rr->run_counted && i < out->res->n_runs; i++) {
		if (!rr->run_counted[i])
			continue;
		fputs("pstat_event_total", out->f);
		labels(out, k, NULL, NULL, i + 1);
		fputc(' ', out->f);
		openmetrics_number(out->f, output_shown(rr, rr->run_values[i]));
		fputc('\n', out->f);
	}
}

/* The events' counters: since the run began, at an interval too. */
static void counters(const struct output *out)
{
	struct output_row so_far;
	size_t k;

	openmetrics_family(out->f, "pstat_event", "counter", NULL,
	       "Each event's count since its run began, in the unit of its unit label (task-clock: msec); none where it did not count");
	for (k = 0; k < out->rows; k++) {
		if (!out->interval && out->o.runs > 1) {
			run_samples(out, k);
			continue;
		}
		so_far = out->kept[k];
		if (out->interval)
			output_row_so_far(out->res, so_far.rr, &so_far);
		if (!counts_counted(&so_far.r))
			continue;
		fputs("pstat_event_total", out->f);
		labels(out, k, NULL, NULL, section_run(out));
		fputc(' ', out->f);
		count_sample(out->f, &so_far);
	}
}

/* What each event's state was, so far in its run (over the runs). */
enum state_gauge { SUPPORTED, COUNTED, RUNNING };

static const struct {
	const char *name, *help;
} state_gauges[] = {
	[SUPPORTED] = { "pstat_event_supported",
			"1 where the event could be opened here, 0 where not (not-supported)" },
	[COUNTED] = { "pstat_event_counted",
		      "1 where the event counted (counted or scaled), 0 where not (not-counted, not-supported)" },
	[RUNNING] = { "pstat_event_running_ratio",
		      "The share of its enabled time the event was on a counter: below 1 where multiplexed, its count scaled" },
};

static void state_gauge(const struct output *out, enum state_gauge g)
{
	struct output_row so_far;
	size_t k;
	double v;

	openmetrics_family(out->f, state_gauges[g].name, "gauge", NULL,
	       state_gauges[g].help);
	for (k = 0; k < out->rows; k++) {
		so_far = out->kept[k];
		if (out->interval)
			output_row_so_far(out->res, so_far.rr, &so_far);
		if (g == SUPPORTED)
			v = so_far.r.state != COUNTS_NOT_SUPPORTED;
		else if (g == COUNTED)
			v = counts_counted(&so_far.r);
		else if (so_far.r.state == COUNTS_NOT_SUPPORTED)
			continue;
		else
			v = so_far.r.running_pct / 100.0;
		fputs(state_gauges[g].name, out->f);
		labels(out, k, NULL, NULL, section_run(out));
		fputc(' ', out->f);
		openmetrics_number(out->f, v);
		fputc('\n', out->f);
	}
}

/* With -r: each event's mean over the runs that counted it, and the
 * standard deviation of those runs' counts. */
static void run_statistics(const struct output *out)
{
	const struct output_row *row;
	size_t k;

	openmetrics_family(out->f, "pstat_event_mean", "gauge", NULL,
	       "With -r: the mean of the runs' counts, in the event's unit");
	for (k = 0; k < out->rows; k++) {
		if (!counts_counted(&out->kept[k].r))
			continue;
		fputs("pstat_event_mean", out->f);
		labels(out, k, NULL, NULL, 0);
		fputc(' ', out->f);
		openmetrics_number(out->f, out->kept[k].value);
		fputc('\n', out->f);
	}
	openmetrics_family(out->f, "pstat_event_stddev", "gauge", NULL,
	       "With -r: the sample standard deviation of the runs' counts");
	for (k = 0; k < out->rows; k++) {
		row = &out->kept[k];
		if (!counts_counted(&row->r))
			continue;
		fputs("pstat_event_stddev", out->f);
		labels(out, k, NULL, NULL, 0);
		fputc(' ', out->f);
		openmetrics_number(out->f, output_shown(row->rr,
					    stats_stddev(&row->rr->runs)));
		fputc('\n', out->f);
	}
}

/* perf's ratios and -M's metrics, of this section's values. */
static void metrics(const struct output *out)
{
	const struct metric *m;
	const char *unit;
	size_t k;
	double v;
	int i;

	openmetrics_family(out->f, "pstat_metric", "gauge", NULL,
	       "The metrics pstat shows beside an event (perf's ratios and rates, -M's), of this interval or the totals; NaN where an input did not count");
	for (k = 0; k < out->rows; k++) {
		for (i = 0; i < out->kept[k].n_metrics; i++) {
			m = &out->kept[k].m[i];
			v = openmetrics_metric(m, &unit);
			fputs("pstat_metric", out->f);
			labels(out, k, m->name ? m->name : unit, unit,
			       section_run(out));
			fputc(' ', out->f);
			openmetrics_number(out->f, v);
			fputc('\n', out->f);
		}
	}
}

/* A gauge of one sample, without labels. */
static void fact(FILE *f, const char *name, const char *unit,
		 const char *help, double v)
{
	openmetrics_family(f, name, "gauge", unit, help);
	fputs(name, f);
	fputc(' ', f);
	openmetrics_number(f, v);
	fputc('\n', f);
}

/* The command's words joined by spaces, as a label value. */
static void command_label(FILE *f, const struct output_run *run)
{
	char *const *a;
	char *s = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&s, &len);

	for (a = run->argv; mem && a && *a; a++)
		fprintf(mem, "%s%s", a == run->argv ? "" : " ", *a);
	if (mem && !run->argv && run->target)
		fputs(run->target, mem);
	if (mem && fclose(mem) == 0)
		openmetrics_label(f, s);
	else
		openmetrics_label(f, "");
	free(s);
}

/* A label of pstat_run_info, when it has a value. */
static void info_label(FILE *f, const char *name, const char *v)
{
	if (!v)
		return;
	fprintf(f, ",%s=", name);
	openmetrics_label(f, v);
}

static void run_info(FILE *f, const struct output_run *run)
{
	const struct rank_info *ri = run->rank && run->rank->found ? run->rank
								   : NULL;
	char buf[16];

	openmetrics_family(f, "pstat_run_info", "gauge", NULL,
	       "1, with what describes the run as labels: the command, pstat's version, the layout's version, a failure that ended the runs, the rank's host and job");
	fputs("pstat_run_info{command=", f);
	command_label(f, run);
	info_label(f, "pstat_version", PACKAGE_VERSION);
	snprintf(buf, sizeof(buf), "%d", OPENMETRICS_LAYOUT_VERSION);
	info_label(f, "format_version", buf);
	info_label(f, "error", run->error);
	info_label(f, "host", ri ? run->host : NULL);
	info_label(f, "job_id", ri ? ri->job_id : NULL);
	info_label(f, "rank_variable", ri ? ri->var : NULL);
	fputs("} 1\n", f);
}

/* The rank the launcher gave, where it told. */
static void rank_facts(FILE *f, const struct output_run *run)
{
	const struct rank_info *ri = run->rank;

	if (!ri || !ri->found)
		return;
	if (ri->rank >= 0)
		fact(f, "pstat_rank", NULL, "The MPI or Slurm rank",
		     (double)ri->rank);
	if (ri->local_rank >= 0)
		fact(f, "pstat_local_rank", NULL, "The rank on its node",
		     (double)ri->local_rank);
	if (ri->size >= 0)
		fact(f, "pstat_ranks", NULL, "The job's number of ranks",
		     (double)ri->size);
}

/* The run itself, after the totals, as --format=json's "run". */
static void run_facts(const struct output *out, const struct output_run *run)
{
	FILE *f = out->f;

	run_info(f, run);
	if (run->argv && WIFEXITED(run->status))
		fact(f, "pstat_exit_status", NULL,
		     "The command's exit status (with -r: the first failing run's)",
		     WEXITSTATUS(run->status));
	else if (run->argv)
		fact(f, "pstat_signal", NULL,
		     "The signal that killed the command", WTERMSIG(run->status));
	fact(f, "pstat_elapsed_seconds", "seconds",
	     "Wall-clock time of the last run", run->elapsed_ns / 1e9);
	if (run->argv) {
		fact(f, "pstat_user_seconds", "seconds",
		     "User CPU time of the command", run->user_s);
		fact(f, "pstat_system_seconds", "seconds",
		     "System CPU time of the command", run->sys_s);
		fact(f, "pstat_max_rss_bytes", "bytes",
		     "The command's maximum resident set size",
		     (double)run->max_rss_kib * 1024.0);
	}
	fact(f, "pstat_runs", NULL, "Runs whose counts are in the totals",
	     (double)run->runs_done);
	fact(f, "pstat_interrupted", NULL,
	     "1 where a signal to pstat cut the last run short", run->interrupted);
	if (run->start.tv_sec)
		fact(f, "pstat_start_time_seconds", "seconds",
		     "When counting began, in seconds since the Unix epoch",
		     (double)run->start.tv_sec +
		     (double)run->start.tv_nsec / 1e9);
	rank_facts(f, run);
}

static void om_section_end(struct output *out, const struct output_run *run)
{
	size_t r = section_run(out);

	counters(out);
	state_gauge(out, SUPPORTED);
	state_gauge(out, COUNTED);
	state_gauge(out, RUNNING);
	if (!out->interval && out->o.runs > 1)
		run_statistics(out);
	metrics(out);
	if (out->interval) {
		openmetrics_family(out->f, "pstat_time_seconds", "gauge", "seconds",
		       "Seconds from the start of counting to the end of this interval");
		fputs("pstat_time_seconds", out->f);
		if (r)
			fprintf(out->f, "{run=\"%zu\"}", r);
		fputc(' ', out->f);
		openmetrics_number(out->f, out->ts);
		fputc('\n', out->f);
	} else {
		run_facts(out, run);
		if (run->regions && run->regions->n)
			region_facts(out->f, run->regions);
	}
	fputs("# EOF\n", out->f);
}

const struct output_printer output_openmetrics = {
	.keeps_rows = true,
	.start = om_start,
	.row = om_row,
	.region = om_region,
	.section_end = om_section_end,
};
