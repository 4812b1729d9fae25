/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat's own machine formats, --format=csv and --format=json: versioned,
 * self-describing, every value with its status, and the run itself. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "csv.h"
#include "json.h"
#include "output_impl.h"
#include "rank.h"
#include "regions.h"
#include "results.h"
#include "stats.h"

/* Bump when a column or key changes meaning or goes away. */
#define FORMAT_VERSION 1

static const char csv_header[] =
	"record,interval,aggregate,aggregate_cpus,event,value,unit,status,"
	"enabled_ns,running_ns,running_pct,metric_value,metric_unit,"
	"variance_pct,run,cgroup,metric_status,metric_input,metric_name,"
	"metric_formula,metric_inputs,metric_running_pct,metric_threshold,"
	"metric_input_events,metric_scale,region\n";

/* The last column: the region a row is of (--regions), or empty. */
static void end_row(const struct output *out)
{
	fputc(',', out->f);
	csv_cell(out->f, out->region ? out->region->name : "", true);
}

/* The columns after cgroup, empty: rows without a metric of -M. */
#define METRIC_CELLS ",,,,,,,,"

/* The words of argv joined by spaces, as one field, however long. */
static void argv_cell(FILE *f, char *const *argv)
{
	bool quote = false;
	char *const *a;

	for (a = argv; a && *a; a++)
		quote |= csv_needs_quotes(*a, strlen(*a), ",");
	if (quote)
		fputc('"', f);
	for (a = argv; a && *a; a++) {
		if (a != argv)
			fputc(' ', f);
		if (quote)
			csv_escape(csv_file_put, f, *a, strlen(*a));
		else
			fputs(*a, f);
	}
	if (quote)
		fputc('"', f);
	fputc(',', f);
}

static void pcsv_start(struct output *out)
{
	fputs(csv_header, out->f);
}

static void aggregate_cells(FILE *f, const struct output_row *row)
{
	csv_cell(f, row->aggr ? row->aggr : "", false);
	if (row->aggr_cpus)
		fprintf(f, "%d,", row->aggr_cpus);
	else
		fputc(',', f);
}

/*
 * A metric's value: six decimals, nan, inf, -inf; empty with none. One
 * whose input did not count is nan, as it always was here: its status
 * says why.
 */
static void metric_text(char *buf, size_t len, const struct metric *m)
{
	buf[0] = '\0';
	if (m && m->status == METRIC_COUNTED)
		metric_value_text(buf, len, m, 6);
	else if (m)
		snprintf(buf, len, "nan");
}

static const char *const threshold_names[] = {
	[METRIC_THRESHOLD_NONE] = NULL,
	[METRIC_THRESHOLD_GOOD] = "good",
	[METRIC_THRESHOLD_BAD] = "bad",
};

/* The name of the row of el's event at, in row's aggregate. */
static const char *event_name(const struct output *out,
			      const struct output_row *row, size_t at)
{
	const struct results *res = out->res;
	size_t k;

	for (k = 0; k < res->n_rows; k++)
		if (res->rows[k].first == at &&
		    res->rows[k].aggr == row->rr->aggr)
			return res->rows[k].name;
	return "?";
}

/*
 * The inputs a metric read, as one cell: names joined by spaces, as its
 * formula names them, or with out and row, as their rows name them.
 */
static void inputs_cell(FILE *f, const struct metric *m,
			const struct output *out,
			const struct output_row *row, bool last)
{
	char *s = NULL;
	size_t len = 0, i;
	FILE *mem = open_memstream(&s, &len);

	for (i = 0; mem && i < m->n_inputs; i++)
		fprintf(mem, "%s%s", i ? " " : "",
			out ? event_name(out, row, m->input_at[i])
			    : m->inputs[i]);
	if (mem && m->inputs_cut)
		fputs(" ...", mem);
	if (mem && fclose(mem) == 0)
		csv_cell(f, s, last);
	else
		csv_cell(f, "", last);
	free(s);
}

/* What pstat says of a metric beyond perf's value and unit. */
static void metric_cells(const struct output *out,
			 const struct output_row *row, const struct metric *m)
{
	const char *t = threshold_names[m->threshold];
	FILE *f = out->f;

	csv_cell(f, metric_status_name(m), false);
	csv_cell(f, m->missing ? m->missing : "", false);
	if (!m->name) {
		fputs(",,,,,,", f);
		end_row(out);
		return;
	}
	csv_cell(f, m->name, false);
	csv_cell(f, m->formula ? m->formula : "", false);
	inputs_cell(f, m, NULL, NULL, false);
	fprintf(f, "%.2f,", m->running_pct);
	csv_cell(f, t ? t : "", false);
	inputs_cell(f, m, out, row, false);
	fprintf(f, "%.17g", m->scale);
	end_row(out);
}

static void pcsv_row(struct output *out, const struct output_row *row)
{
	char buf[64];
	int m;

	csv_cell(out->f, out->interval ? "interval" : out->region ? "region"
							      : "total", false);
	snprintf(buf, sizeof(buf), "%s", out->ts_text);
	csv_cell(out->f, out->interval ? buf : "", false);
	aggregate_cells(out->f, row);
	csv_cell(out->f, row->name, false);
	snprintf(buf, sizeof(buf), row->fractional ? "%.6f" : "%.0f",
		 row->value);
	csv_cell(out->f, counts_counted(&row->r) ? buf : "", false);
	csv_cell(out->f, row->unit, false);
	csv_cell(out->f, output_state_name(row->r.state), false);
	fprintf(out->f, "%" PRIu64 ",%" PRIu64 ",%.2f,", row->vals.enabled,
		row->vals.running, row->r.running_pct);
	for (m = 0; m < (row->n_metrics ? row->n_metrics : 1); m++) {
		if (m > 0) {
			csv_cell(out->f, "metric", false);
			snprintf(buf, sizeof(buf), "%s", out->ts_text);
			csv_cell(out->f, out->interval ? buf : "", false);
			aggregate_cells(out->f, row);
			csv_cell(out->f, row->name, false);
			fputs(",,,,,,", out->f);
		}
		metric_text(buf, sizeof(buf), row->n_metrics ? &row->m[m]
							    : NULL);
		csv_cell(out->f, buf, false);
		csv_cell(out->f, row->n_metrics ? row->m[m].unit : "", false);
		if (row->has_variance && m == 0)
			fprintf(out->f, "%.4f", row->variance_pct);
		/* An interval's run, 1 for the first; none on totals. */
		if (out->interval)
			fprintf(out->f, ",%zu,", out->run + 1);
		else
			fputs(",,", out->f);
		/* -G's cgroup; empty when counted in every one. */
		csv_cell(out->f, row->cgroup ? row->cgroup : "", false);
		if (row->n_metrics)
			metric_cells(out, row, &row->m[m]);
		else {
			fputs(METRIC_CELLS, out->f);
			end_row(out);
		}
	}
}

/*
 * --per-thread with a command: a record of each statistic of the
 * event's spread over the threads or processes (the tasks record "per"
 * says which): its name in the aggregate column, how many counted the
 * event in aggregate_cpus.
 */
static void pcsv_spread(struct output *out, const struct output_spread *s,
			bool first)
{
	const struct { const char *name; double v; } stat[] = {
		{ "min", s->min }, { "max", s->max }, { "mean", s->mean },
		{ "imbalance", s->imbalance },
	};
	size_t i;

	(void)first;
	for (i = 0; i < sizeof(stat) / sizeof(stat[0]); i++) {
		fprintf(out->f, "spread,,%s,%zu,", stat[i].name, s->n);
		csv_cell(out->f, s->row->name, false);
		fprintf(out->f, "%.6f,", stat[i].v);
		csv_cell(out->f, i < 3 ? s->row->unit : "", false);
		fputs("counted" ",,,,,,,," ",,,,,,,,," ",\n", out->f);
	}
}

/* What the kernel's records of the tasks did not tell. */
static void pcsv_tasks(FILE *f, const struct results *res)
{
	char buf[64];

	fprintf(f, "tasks,,,,per,%s,,,,,,,,,,,,,,,,,,,,\n",
		res->tasks_per_process ? "process" : "thread");
	snprintf(buf, sizeof(buf), "%" PRIu64, res->tasks_lost);
	fputs("tasks,,,,lost_records,", f);
	fprintf(f, "%s,,,,,,,,,,,,,,,,,,,,\n", buf);
	fprintf(f, "tasks,,,,buffer_filled,%s,,,,,,,,,,,,,,,,,,,,\n",
		res->tasks_full ? "true" : "false");
	fprintf(f, "tasks,,,,unended,%zu,,,,,,,,,,,,,,,,,,,,\n",
		res->tasks_unended);
}

/* A fact of record's, key and value, of a region or none (""). */
static void fact_cell(FILE *f, const char *record, const char *key,
		      const char *value, const char *region)
{
	csv_cell(f, record, false);
	fputs(",,,", f);
	csv_cell(f, key, false);
	csv_cell(f, value, false);
	fputs(",,,,,,,,,," METRIC_CELLS ",", f);
	csv_cell(f, region, true);
}

static void run_cell(FILE *f, const char *key, const char *value)
{
	fact_cell(f, "run", key, value, "");
}

/*
 * --regions: what a region's rows follow, facts of their own: its
 * entries, the time inside, whether it was open at the end, and the
 * ends that came while it was not.
 */
static void pcsv_region(struct output *out, const struct region *g,
			bool first)
{
	char buf[64];

	(void)first;
	snprintf(buf, sizeof(buf), "%" PRIu64, g->entries);
	fact_cell(out->f, "region_info", "entries", buf, g->name);
	snprintf(buf, sizeof(buf), "%.0f", g->time_ns);
	fact_cell(out->f, "region_info", "time_ns", buf, g->name);
	fact_cell(out->f, "region_info", "open", g->open ? "true" : "false",
		  g->name);
	snprintf(buf, sizeof(buf), "%" PRIu64, g->unmatched);
	fact_cell(out->f, "region_info", "unmatched_ends", buf, g->name);
}

/* The start as ISO 8601 in UTC, to the microsecond. */
static void start_text(char *buf, size_t len, const struct timespec *ts)
{
	struct tm tm;
	size_t n;

	if (!gmtime_r(&ts->tv_sec, &tm) ||
	    !(n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf + n, len - n, ".%06ldZ", ts->tv_nsec / 1000);
}

/* A number, or empty when not known (< 0). */
static void number_text(char *buf, size_t len, long v)
{
	if (v >= 0)
		snprintf(buf, len, "%ld", v);
	else
		buf[0] = '\0';
}

/* The rank's rows, when the launcher gave one. */
static void pcsv_rank(FILE *f, const struct output_run *run)
{
	const struct rank_info *ri = run->rank;
	char buf[64];

	number_text(buf, sizeof(buf), ri->rank);
	run_cell(f, "rank", buf);
	number_text(buf, sizeof(buf), ri->local_rank);
	run_cell(f, "local_rank", buf);
	number_text(buf, sizeof(buf), ri->size);
	run_cell(f, "size", buf);
	run_cell(f, "host", run->host ? run->host : "");
	run_cell(f, "job_id", ri->job_id ? ri->job_id : "");
	run_cell(f, "rank_variable", ri->var);
	start_text(buf, sizeof(buf), &run->start);
	run_cell(f, "start_time", buf);
}

static void pcsv_section_end(struct output *out, const struct output_run *run)
{
	char buf[64];

	if (out->interval)
		return;
	if (out->res->per_task)
		pcsv_tasks(out->f, out->res);
	fputs("run,,,,command,", out->f);
	argv_cell(out->f, run->argv);
	fputs(",,,,,,,,,," METRIC_CELLS ",\n", out->f);
	if (!run->argv) {
		run_cell(out->f, "target", run->target ? run->target : "");
	} else if (WIFEXITED(run->status)) {
		snprintf(buf, sizeof(buf), "%d", WEXITSTATUS(run->status));
		run_cell(out->f, "exit_status", buf);
	} else {
		run_cell(out->f, "signal",
			 output_signal_name(WTERMSIG(run->status), buf,
					    sizeof(buf)));
	}
	snprintf(buf, sizeof(buf), "%.9f", run->elapsed_ns / 1e9);
	run_cell(out->f, "elapsed_s", buf);
	/* Facts of a command: empty when there is none. */
	snprintf(buf, sizeof(buf), "%.6f", run->user_s);
	run_cell(out->f, "user_s", run->argv ? buf : "");
	snprintf(buf, sizeof(buf), "%.6f", run->sys_s);
	run_cell(out->f, "sys_s", run->argv ? buf : "");
	snprintf(buf, sizeof(buf), "%ld", run->max_rss_kib);
	run_cell(out->f, "max_rss_kib", run->argv ? buf : "");
	snprintf(buf, sizeof(buf), "%zu", run->runs_done);
	run_cell(out->f, "runs", buf);
	run_cell(out->f, "interrupted", run->interrupted ? "true" : "false");
	/* Only when a failure ended the runs: then it says which. */
	if (run->error)
		run_cell(out->f, "error", run->error);
	if (run->rank && run->rank->found)
		pcsv_rank(out->f, run);
	run_cell(out->f, "pstat_version", PACKAGE_VERSION);
	snprintf(buf, sizeof(buf), "%d", FORMAT_VERSION);
	run_cell(out->f, "format_version", buf);
}

const struct output_printer output_pstat_csv = {
	.start = pcsv_start,
	.row = pcsv_row,
	.spread = pcsv_spread,
	.region = pcsv_region,
	.section_end = pcsv_section_end,
};

/* JSON: one document, written as it comes: intervals, totals, run. */

static void json_or_null(FILE *f, const char *s);

static void key(FILE *f, const char *k)
{
	json_string(f, k);
	fputs(": ", f);
}

static void pjson_start(struct output *out)
{
	fprintf(out->f, "{\"format\": \"pstat\", \"format_version\": %d, "
		"\"pstat_version\": ", FORMAT_VERSION);
	json_string(out->f, PACKAGE_VERSION);
	fputs(",\n \"intervals\": [", out->f);
}

static void pjson_section(struct output *out, const struct output_run *run)
{
	if (out->interval) {
		fputs(out->sections ? ",\n  " : "\n  ", out->f);
		fputs("{\"time\": ", out->f);
		json_number(out->f, out->ts);
		fprintf(out->f, ", \"run\": %zu", out->run + 1);
		fputs(", \"events\": [", out->f);
	} else {
		fputs("],\n \"events\": [", out->f);
	}
}

static void runs(FILE *f, const struct output_row *row, size_t n)
{
	const struct results_row *rr = row->rr;
	size_t i;

	fputs(", \"runs\": [", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		if (rr->run_counted[i])
			json_number(f, output_shown(rr, rr->run_values[i]));
		else
			fputs("null", f);
	}
	fputs("], \"mean\": ", f);
	json_number(f, rr->runs.n ? output_shown(rr, stats_mean(&rr->runs))
				 : NAN);
	fputs(", \"stddev\": ", f);
	json_number(f, rr->runs.n > 1 ? output_shown(rr, stats_stddev(&rr->runs))
				     : 0.0);
	fputs(", \"min\": ", f);
	json_number(f, rr->runs.n ? output_shown(rr, rr->runs.min) : NAN);
	fputs(", \"max\": ", f);
	json_number(f, rr->runs.n ? output_shown(rr, rr->runs.max) : NAN);
}

/*
 * A metric: perf's value and unit, its status (the value is null
 * where it is no number), and for -M's the rest of what the CSV has.
 */
static void pjson_metric(const struct output *out,
			 const struct output_row *row, const struct metric *m)
{
	FILE *f = out->f;
	const char *t = threshold_names[m->threshold];
	unsigned int i;

	fputs("{", f);
	key(f, "value");
	if (m->status == METRIC_COUNTED)
		json_number(f, m->value);
	else
		json_null(f);
	fputs(", ", f);
	key(f, "unit");
	json_string(f, m->unit);
	fputs(", ", f);
	key(f, "status");
	json_string(f, metric_status_name(m));
	fputs(", ", f);
	key(f, "input");
	json_or_null(f, m->missing);
	if (m->name) {
		fputs(", ", f);
		key(f, "name");
		json_string(f, m->name);
		fputs(", ", f);
		key(f, "formula");
		json_or_null(f, m->formula);
		fputs(", \"inputs\": [", f);
		for (i = 0; i < m->n_inputs; i++) {
			fputs(i ? ", " : "", f);
			json_string(f, m->inputs[i]);
		}
		fputs("], \"input_events\": [", f);
		for (i = 0; i < m->n_inputs; i++) {
			fputs(i ? ", " : "", f);
			json_string(f, event_name(out, row, m->input_at[i]));
		}
		fprintf(f, "], \"inputs_cut\": %s, ",
			m->inputs_cut ? "true" : "false");
		key(f, "scale");
		json_number(f, m->scale);
		fputs(", ", f);
		key(f, "running_pct");
		json_number(f, m->running_pct);
		fputs(", ", f);
		key(f, "threshold");
		json_or_null(f, t);
	}
	fputc('}', f);
}

static void pjson_row(struct output *out, const struct output_row *row)
{
	FILE *f = out->f;
	int m;

	fputs(out->rows ? ",\n   {" : "\n   {", f);
	key(f, "event");
	json_string(f, row->name);
	/* -G's, null for an event counted in every cgroup. */
	if (row->cgroup && *row->cgroup) {
		fputs(", \"cgroup\": ", f);
		json_string(f, row->cgroup);
	} else if (row->cgroup) {
		fputs(", \"cgroup\": null", f);
	}
	if (row->aggr) {
		fputs(", \"aggregate\": ", f);
		json_string(f, row->aggr);
		fprintf(f, ", \"aggregate_cpus\": %d", row->aggr_cpus);
	}
	fputs(", ", f);
	key(f, "value");
	if (counts_counted(&row->r))
		json_number(f, row->value);
	else
		fputs("null", f);
	fputs(", ", f);
	key(f, "unit");
	json_string(f, row->unit);
	fputs(", ", f);
	key(f, "status");
	json_string(f, output_state_name(row->r.state));
	fprintf(f, ", \"enabled_ns\": %" PRIu64 ", \"running_ns\": %" PRIu64
		", \"running_pct\": ", row->vals.enabled, row->vals.running);
	json_number(f, row->r.running_pct);
	fputs(", \"metrics\": [", f);
	for (m = 0; m < row->n_metrics; m++) {
		fputs(m ? ", " : "", f);
		pjson_metric(out, row, &row->m[m]);
	}
	fputc(']', f);
	if (!out->interval && out->o.runs > 1) {
		fputs(", \"variance_pct\": ", f);
		json_number(f, row->has_variance ? row->variance_pct : 0.0);
		runs(f, row, out->res->n_runs);
	}
	fputc('}', f);
}

/* A number, or null when not known (< 0). */
static void json_known(FILE *f, long v)
{
	if (v >= 0)
		json_int(f, v);
	else
		json_null(f);
}

static void json_or_null(FILE *f, const char *s)
{
	if (s)
		json_string(f, s);
	else
		json_null(f);
}

static void pjson_rank(FILE *f, const struct output_run *run)
{
	const struct rank_info *ri = run->rank;
	char buf[64];

	fputs(", \"rank\": ", f);
	json_known(f, ri->rank);
	fputs(", \"local_rank\": ", f);
	json_known(f, ri->local_rank);
	fputs(", \"size\": ", f);
	json_known(f, ri->size);
	fputs(", \"host\": ", f);
	json_or_null(f, run->host);
	fputs(", \"job_id\": ", f);
	json_or_null(f, ri->job_id);
	fputs(", \"rank_variable\": ", f);
	json_string(f, ri->var);
	start_text(buf, sizeof(buf), &run->start);
	fputs(", \"start_time\": ", f);
	json_string(f, buf);
}

static void pjson_run(FILE *f, const struct output_run *run,
		      const struct results *res)
{
	char *const *a;
	size_t i;

	fputs(",\n \"run\": {\"command\": [", f);
	for (a = run->argv; a && *a; a++) {
		fputs(a == run->argv ? "" : ", ", f);
		json_string(f, *a);
	}
	fputs("], \"exit_status\": ", f);
	if (!run->argv)
		fputs("null, \"signal\": null", f);
	else if (WIFEXITED(run->status))
		fprintf(f, "%d, \"signal\": null", WEXITSTATUS(run->status));
	else
		fprintf(f, "null, \"signal\": %d", WTERMSIG(run->status));
	fputs(", \"elapsed_s\": ", f);
	json_number(f, run->elapsed_ns / 1e9);
	/* Facts of a command: null when there is none. */
	fputs(", \"user_s\": ", f);
	json_number(f, run->argv ? run->user_s : NAN);
	fputs(", \"sys_s\": ", f);
	json_number(f, run->argv ? run->sys_s : NAN);
	fputs(", \"max_rss_kib\": ", f);
	json_number(f, run->argv ? (double)run->max_rss_kib : NAN);
	fprintf(f, ", \"runs\": %zu, \"interrupted\": %s", run->runs_done,
		run->interrupted ? "true" : "false");
	/* With -r, each run's elapsed time: pstat compare reads it. */
	if (res && res->run_wall_ns && res->max_runs > 1) {
		fputs(", \"runs_elapsed_s\": [", f);
		for (i = 0; i < res->n_runs; i++) {
			fputs(i ? ", " : "", f);
			json_number(f, res->run_wall_ns[i] / 1e9);
		}
		fputc(']', f);
	}
	if (run->error) {
		fputs(", \"error\": ", f);
		json_string(f, run->error);
	}
	if (run->rank && run->rank->found)
		pjson_rank(f, run);
	fputc('}', f);
}

/*
 * --per-thread with a command: the events' array ends, and "spread"'s
 * begins (section_end ends it, as it would have the events').
 */
static void pjson_spread(struct output *out, const struct output_spread *s,
			 bool first)
{
	FILE *f = out->f;

	fputs(first ? "\n  ],\n \"spread\": [\n   {" : ",\n   {", f);
	key(f, "event");
	json_string(f, s->row->name);
	fputs(", ", f);
	key(f, "unit");
	json_string(f, s->row->unit);
	fputs(", ", f);
	key(f, "over");
	json_string(f, s->over);
	fprintf(f, ", \"n\": %zu, \"min\": ", s->n);
	json_number(f, s->min);
	fputs(", \"max\": ", f);
	json_number(f, s->max);
	fputs(", \"mean\": ", f);
	json_number(f, s->mean);
	fputs(", \"imbalance\": ", f);
	json_number(f, s->imbalance);
	fputc('}', f);
}

/* What the kernel's records of the tasks did not tell. */
static void pjson_tasks(FILE *f, const struct results *res)
{
	fprintf(f, ",\n \"tasks\": {\"per\": \"%s\", \"lost_records\": %"
		PRIu64 ", \"buffer_filled\": %s, \"unended\": %zu}",
		res->tasks_per_process ? "process" : "thread",
		res->tasks_lost, res->tasks_full ? "true" : "false",
		res->tasks_unended);
}

/*
 * --regions: the array open (the events', or the spread's, or the last
 * region's events) ends, and a region begins: its facts, then its
 * events, which the next region or section_end ends.
 */
static void pjson_region(struct output *out, const struct region *g,
			 bool first)
{
	FILE *f = out->f;

	fputs(out->rows ? "\n  ]" : "]", f);
	fputs(first ? ",\n \"regions\": [\n  {" : "},\n  {", f);
	key(f, "name");
	json_string(f, g->name);
	fprintf(f, ", \"entries\": %" PRIu64 ", \"time_s\": ", g->entries);
	json_number(f, g->time_ns / 1e9);
	fprintf(f, ", \"open\": %s, \"unmatched_ends\": %" PRIu64,
		g->open ? "true" : "false", g->unmatched);
	fputs(", \"events\": [", f);
}

static void pjson_section_end(struct output *out, const struct output_run *run)
{
	fputs(out->rows ? "\n  ]" : "]", out->f);
	if (out->regions)
		fputs("}\n ]", out->f);
	if (out->interval) {
		fputc('}', out->f);
		return;
	}
	if (out->res->per_task)
		pjson_tasks(out->f, out->res);
	pjson_run(out->f, run, out->res);
	fputs("}\n", out->f);
}

const struct output_printer output_pstat_json = {
	.start = pjson_start,
	.section = pjson_section,
	.row = pjson_row,
	.spread = pjson_spread,
	.region = pjson_region,
	.section_end = pjson_section_end,
};
