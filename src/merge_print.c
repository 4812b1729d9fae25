/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge's report: human (the default), or pstat's CSV or JSON for
 * merged results, versioned like the others, or OpenMetrics. Numbers in
 * the C locale.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "merge.h"
#include "openmetrics.h"
#include "output.h"

/* Bump when a column or key changes meaning or goes away. */
#define MERGE_FORMAT_VERSION 2

static const char csv_header[] =
	"record,event,value,unit,ranks_counted,ranks,sum,mean,stddev,min,"
	"min_rank,max,max_rank,imbalance_pct,load_balance,min_running_pct,"
	"metric_value,metric_unit,uncounted_ranks\n";

/* Ranks as "0-3,6", nothing for none. */
static void ranks_print(FILE *f, const long *r, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i = j + 1) {
		for (j = i; j + 1 < n && r[j + 1] == r[j] + 1; j++)
			;
		fputs(i ? "," : "", f);
		if (j == i)
			fprintf(f, "%ld", r[i]);
		else
			fprintf(f, "%ld-%ld", r[i], r[j]);
	}
}

/* Whether "0-3,6" has a comma: more than one range. */
static bool ranks_ranges(const long *r, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (r[i] != r[i - 1] + 1)
			return true;
	return false;
}

/* Ranges as "0-3,6", nothing for none. */
static void ranges_print(FILE *f, const struct merge_range *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputs(i ? "," : "", f);
		if (r[i].first == r[i].last)
			fprintf(f, "%ld", r[i].first);
		else
			fprintf(f, "%ld-%ld", r[i].first, r[i].last);
	}
}

/*
 * A number as the CSV and human forms show it: integers whole, others
 * with prec decimals (the CSV's 6, the human form's 2, as its means).
 */
static void num_text(char *buf, size_t len, double v, int prec)
{
	/* The range first: a cast of a double past it is undefined. */
	if (fabs(v) < 9e15 && v == (double)(long long)v)
		snprintf(buf, len, "%lld", (long long)v);
	else if (fabs(v) >= 9e15)
		snprintf(buf, len, "%.15g", v);
	else
		snprintf(buf, len, "%.*f", prec, v);
}

/* Human. */

/* "not-supported" as perf shows it: "not supported". */
static const char *human_why(const char *why)
{
	if (strcmp(why, "not-supported") == 0)
		return "not supported";
	if (strcmp(why, "absent") == 0)
		return "not in its file";
	return "not counted";
}

static void human_event(FILE *f, const struct merge_event *e, size_t n)
{
	char sum[32], mean[32], sd[32], lo[32], hi[32], mt[160];
	int i;

	if (!e->counted) {
		fprintf(f, "  %-32s %4zu/%-4zu  <%s> on every rank\n", e->name,
			e->counted, n, human_why(e->uncounted_why[0]));
		return;
	}
	/* Two decimals, as the mean has, but counts whole. */
	num_text(sum, sizeof(sum), e->sum, 2);
	snprintf(mean, sizeof(mean), fabs(e->mean) < 9e15 ? "%.2f" : "%.15g",
		 e->mean);
	snprintf(sd, sizeof(sd), e->stddev < 9e15 ? "%.2f" : "%.15g",
		 e->stddev);
	num_text(lo, sizeof(lo), e->min, 2);
	num_text(hi, sizeof(hi), e->max, 2);
	fprintf(f, "  %-32s %4zu/%-4zu %14s %14s %12s %12s (%ld) %12s (%ld) %8.2f%% %7.3f %7.2f%%\n",
		e->name, e->counted, n, sum, mean, sd, lo, e->min_rank, hi,
		e->max_rank, e->imbalance_pct, e->load_balance,
		e->min_running_pct);
	for (i = 0; i < e->n_metrics; i++) {
		metric_value_text(mt, sizeof(mt), &e->m[i], 3);
		fprintf(f, "  %-32s %14s # %s %s (of the sums)\n", "", "", mt,
			e->m[i].unit);
	}
	if (e->n_uncounted) {
		fprintf(f, "  %-32s left out: rank ", "");
		ranks_print(f, e->uncounted, e->n_uncounted);
		fprintf(f, " <%s>\n", human_why(e->uncounted_why[0]));
	}
}

static void human_spread(FILE *f, const char *what,
			 const struct merge_spread *s, int prec,
			 const char *unit)
{
	if (!s->n)
		return;
	fprintf(f, "  %-12s sum %.*f %s, min %.*f %s (rank %ld), max %.*f %s (rank %ld)\n",
		what, prec, s->sum, unit, prec, s->min, unit, s->min_rank,
		prec, s->max, unit, s->max_rank);
}

static void human_run(FILE *f, const struct merge *m)
{
	char buf[16];
	size_t i;

	fprintf(f, "\n  ranks        %zu present (", m->n_ranks);
	ranks_print(f, m->present, m->n_ranks);
	fputc(')', f);
	if (m->size > 0) {
		fprintf(f, " of %ld; missing: %s", m->size,
			m->n_missing ? "" : "none");
		ranges_print(f, m->missing, m->n_missing);
	}
	fprintf(f, "\n  wall time    %.9f s (the longest rank's)\n",
		m->wall_s);
	human_spread(f, "user", &m->user, 6, "s");
	human_spread(f, "sys", &m->sys, 6, "s");
	human_spread(f, "max RSS", &m->rss, 0, "KiB");
	for (i = 0; i < m->n_ranks; i++) {
		const struct merge_rank *r = &m->ranks[i];

		if (r->signal)
			fprintf(f, "  rank %ld (%s) was killed by %s\n",
				r->rank, r->file,
				output_signal_name(r->signal, buf, 16));
		else if (r->exit_status > 0)
			fprintf(f, "  rank %ld (%s) exited with status %d\n",
				r->rank, r->file, r->exit_status);
	}
}

static void print_human(FILE *f, const struct merge *m)
{
	size_t i;

	fprintf(f, "\n Merged counter stats of %zu rank%s for '%s'",
		m->n_ranks, m->n_ranks == 1 ? "" : "s",
		m->command ? m->command : "");
	if (m->job_id)
		fprintf(f, ", job %s", m->job_id);
	fprintf(f, ":\n\n  %-32s %9s %14s %14s %12s %17s %17s %9s %7s %8s\n",
		"event", "ranks", "sum", "mean", "std-dev", "min (rank)",
		"max (rank)", "imbalance", "balance", "running");
	for (i = 0; i < m->n_events; i++)
		human_event(f, &m->events[i], m->n_ranks);
	human_run(f, m);
	fputc('\n', f);
}

/* CSV. */

/* Ranks as one field, quoted where it holds a comma: 0-3, "0-3,6". */
static void csv_ranks(FILE *f, const long *r, size_t n, bool last)
{
	bool quote = ranks_ranges(r, n);

	if (quote)
		fputc('"', f);
	ranks_print(f, r, n);
	if (quote)
		fputc('"', f);
	fputc(last ? '\n' : ',', f);
}

static void csv_event(FILE *f, const struct merge_event *e, size_t n)
{
	char b[64];
	int i;

	fputs("event,", f);
	csv_cell(f, e->name, false);
	num_text(b, sizeof(b), e->sum, 6);
	csv_cell(f, e->counted ? b : "", false);
	csv_cell(f, e->unit, false);
	fprintf(f, "%zu,%zu,", e->counted, n);
	if (e->counted) {
		num_text(b, sizeof(b), e->sum, 6);
		fprintf(f, "%s,%.6f,%.6f,", b, e->mean, e->stddev);
		num_text(b, sizeof(b), e->min, 6);
		fprintf(f, "%s,%ld,", b, e->min_rank);
		num_text(b, sizeof(b), e->max, 6);
		fprintf(f, "%s,%ld,%.4f,%.6f,%.2f,", b, e->max_rank,
			e->imbalance_pct, e->load_balance,
			e->min_running_pct);
	} else {
		fputs(",,,,,,,,,,", f);
	}
	for (i = 0; i < (e->n_metrics ? e->n_metrics : 1); i++) {
		if (i > 0) {
			fputs("metric,", f);
			csv_cell(f, e->name, false);
			fputs(",,,,,,,,,,,,,,", f);
		}
		/* nan where an input did not count: as pstat's format. */
		if (e->n_metrics && e->m[i].status != METRIC_COUNTED)
			fputs("nan,", f);
		else if (e->n_metrics)
			metric_value_text(b, sizeof(b), &e->m[i], 6);
		if (e->n_metrics && e->m[i].status == METRIC_COUNTED)
			fprintf(f, "%s,", b);
		else if (!e->n_metrics)
			fputc(',', f);
		csv_cell(f, e->n_metrics ? e->m[i].unit : "", false);
		csv_ranks(f, i == 0 ? e->uncounted : NULL,
			  i == 0 ? e->n_uncounted : 0, true);
	}
}

static void csv_run_row(FILE *f, const char *key, const char *value)
{
	fputs("run,", f);
	csv_cell(f, key, false);
	csv_cell(f, value, false);
	fputs(",,,,,,,,,,,,,,,\n", f);
}

static void csv_run_ranks(FILE *f, const char *key, const long *r,
			  size_t n)
{
	fputs("run,", f);
	csv_cell(f, key, false);
	csv_ranks(f, r, n, false);
	fputs(",,,,,,,,,,,,,,,\n", f);
}

/* prec: the decimals of what is spread (seconds 6, KiB none). */
static void csv_spread(FILE *f, const char *key, const struct merge_spread *s,
		       int prec)
{
	char k[64], v[64];

	snprintf(k, sizeof(k), "%s_sum", key);
	snprintf(v, sizeof(v), "%.*f", prec, s->sum);
	csv_run_row(f, k, s->n ? v : "");
	snprintf(k, sizeof(k), "%s_min", key);
	snprintf(v, sizeof(v), "%.*f", prec, s->min);
	csv_run_row(f, k, s->n ? v : "");
	snprintf(k, sizeof(k), "%s_max", key);
	snprintf(v, sizeof(v), "%.*f", prec, s->max);
	csv_run_row(f, k, s->n ? v : "");
}

static void print_csv(FILE *f, const struct merge *m)
{
	char buf[4096];
	size_t i;

	fputs(csv_header, f);
	for (i = 0; i < m->n_events; i++)
		csv_event(f, &m->events[i], m->n_ranks);
	csv_run_row(f, "command", m->command ? m->command : "");
	snprintf(buf, sizeof(buf), "%zu", m->n_ranks);
	csv_run_row(f, "ranks", buf);
	snprintf(buf, sizeof(buf), "%ld", m->size);
	csv_run_row(f, "size", m->size > 0 ? buf : "");
	csv_run_ranks(f, "ranks_present", m->present, m->n_ranks);
	/* Quoted where it holds a comma: more than one range. */
	fputs(m->n_missing > 1 ? "run,ranks_missing,\"" : "run,ranks_missing,",
	      f);
	ranges_print(f, m->missing, m->n_missing);
	fputs(m->n_missing > 1 ? "\"," : ",", f);
	fputs(",,,,,,,,,,,,,,,\n", f);
	csv_run_ranks(f, "ranks_failed", m->failed, m->n_failed);
	csv_run_row(f, "job_id", m->job_id ? m->job_id : "");
	snprintf(buf, sizeof(buf), "%.9f", m->wall_s);
	csv_run_row(f, "wall_s", buf);
	csv_spread(f, "user_s", &m->user, 6);
	csv_spread(f, "sys_s", &m->sys, 6);
	csv_spread(f, "max_rss_kib", &m->rss, 0);
	snprintf(buf, sizeof(buf), "%d", m->status);
	csv_run_row(f, "exit_status", buf);
	csv_run_row(f, "pstat_version", PACKAGE_VERSION);
	snprintf(buf, sizeof(buf), "%d", MERGE_FORMAT_VERSION);
	csv_run_row(f, "format_version", buf);
}

/* JSON. */

static void jlist(FILE *f, const long *r, size_t n)
{
	size_t i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		json_int(f, r[i]);
	}
	fputc(']', f);
}

static void json_rank_or_null(FILE *f, long r)
{
	if (r >= 0)
		json_int(f, r);
	else
		json_null(f);
}

/* ", "KEY": v", null where no rank counted the event. */
static void stat_field(FILE *f, const char *key, const struct merge_event *e,
		       double v)
{
	fprintf(f, ", \"%s\": ", key);
	json_number(f, e->counted ? v : NAN);
}

static void json_event(FILE *f, const struct merge_event *e, size_t n)
{
	size_t i;
	int k;

	fputs("{\"event\": ", f);
	json_string(f, e->name);
	fputs(", \"unit\": ", f);
	json_string(f, e->unit);
	fprintf(f, ", \"ranks_counted\": %zu, \"ranks\": %zu", e->counted,
		n);
	stat_field(f, "sum", e, e->sum);
	stat_field(f, "mean", e, e->mean);
	stat_field(f, "stddev", e, e->stddev);
	stat_field(f, "min", e, e->min);
	fputs(", \"min_rank\": ", f);
	json_rank_or_null(f, e->min_rank);
	stat_field(f, "max", e, e->max);
	fputs(", \"max_rank\": ", f);
	json_rank_or_null(f, e->max_rank);
	stat_field(f, "imbalance_pct", e, e->imbalance_pct);
	stat_field(f, "load_balance", e, e->load_balance);
	stat_field(f, "min_running_pct", e, e->min_running_pct);
	fputs(", \"metrics\": [", f);
	for (k = 0; k < e->n_metrics; k++) {
		fputs(k ? ", {\"value\": " : "{\"value\": ", f);
		json_number(f, e->m[k].status == METRIC_COUNTED
				? e->m[k].value : NAN);
		fputs(", \"unit\": ", f);
		json_string(f, e->m[k].unit);
		fputs(", \"status\": ", f);
		json_string(f, metric_status_name(&e->m[k]));
		if (e->m[k].missing) {
			fputs(", \"input\": ", f);
			json_string(f, e->m[k].missing);
		}
		if (e->m[k].name) {
			fputs(", \"name\": ", f);
			json_string(f, e->m[k].name);
		}
		fputc('}', f);
	}
	fputs("], \"uncounted\": [", f);
	for (i = 0; i < e->n_uncounted; i++) {
		fprintf(f, "%s{\"rank\": %ld, \"status\": ", i ? ", " : "",
			e->uncounted[i]);
		json_string(f, e->uncounted_why[i]);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void json_spread(FILE *f, const char *key, const struct merge_spread *s)
{
	fprintf(f, ", \"%s\": ", key);
	if (!s->n) {
		json_null(f);
		return;
	}
	fputs("{\"sum\": ", f);
	json_number(f, s->sum);
	fputs(", \"min\": ", f);
	json_number(f, s->min);
	fprintf(f, ", \"min_rank\": %ld, \"max\": ", s->min_rank);
	json_number(f, s->max);
	fprintf(f, ", \"max_rank\": %ld}", s->max_rank);
}

static void json_run(FILE *f, const struct merge *m)
{
	size_t i, n = 0;

	fputs(" \"run\": {\"command\": ", f);
	json_string(f, m->command ? m->command : "");
	fputs(", \"ranks\": ", f);
	jlist(f, m->present, m->n_ranks);
	fputs(", \"size\": ", f);
	json_rank_or_null(f, m->size);
	fputs(", \"missing\": [", f);
	for (i = 0; i < m->n_missing; i++)
		fprintf(f, "%s[%ld, %ld]", i ? ", " : "", m->missing[i].first,
			m->missing[i].last);
	fputc(']', f);
	fputs(", \"failed\": [", f);
	for (i = 0; i < m->n_ranks; i++) {
		const struct merge_rank *k = &m->ranks[i];

		if (!k->signal && k->exit_status <= 0)
			continue;
		fprintf(f, "%s{\"rank\": %ld, \"exit_status\": ", n++ ? ", " : "",
			k->rank);
		json_rank_or_null(f, k->signal ? -1 : k->exit_status);
		fputs(", \"signal\": ", f);
		json_rank_or_null(f, k->signal ? k->signal : -1);
		fputc('}', f);
	}
	fputs("], \"job_id\": ", f);
	if (m->job_id)
		json_string(f, m->job_id);
	else
		json_null(f);
	fputs(", \"wall_s\": ", f);
	json_number(f, m->wall_s);
	json_spread(f, "user_s", &m->user);
	json_spread(f, "sys_s", &m->sys);
	json_spread(f, "max_rss_kib", &m->rss);
	fprintf(f, ", \"exit_status\": %d}}\n", m->status);
}

static void print_json(FILE *f, const struct merge *m)
{
	size_t i;

	fprintf(f, "{\"format\": \"pstat-merge\", \"format_version\": %d, "
		"\"pstat_version\": ", MERGE_FORMAT_VERSION);
	json_string(f, PACKAGE_VERSION);
	fputs(",\n \"events\": [", f);
	for (i = 0; i < m->n_events; i++) {
		fputs(i ? ",\n   " : "\n   ", f);
		json_event(f, &m->events[i], m->n_ranks);
	}
	fputs("\n  ],\n", f);
	json_run(f, m);
}

/*
 * OpenMetrics: each rank's counts and facts under its rank label, as
 * --format=openmetrics gives them for one rank; the job's metrics from
 * the summed counts, without one.
 */

/* An event's labels, up to the rank's or the closing brace. */
static void om_event(FILE *f, const struct merge_event *e,
		     const char *metric, const char *unit)
{
	fputs("{event=", f);
	openmetrics_label(f, e->name);
	if (metric)
		openmetrics_label_pair(f, "metric", metric);
	openmetrics_label_pair(f, "unit", unit ? unit : e->unit);
}

/* A sample's end: the rank's label (none: < 0), the value. */
static void om_value(FILE *f, long rank, double v)
{
	if (rank >= 0)
		fprintf(f, ",rank=\"%ld\"", rank);
	fputs("} ", f);
	openmetrics_number(f, v);
	fputc('\n', f);
}

/* Why rank i did not count e: "not-supported", "not-counted", "absent". */
static const char *om_why(const struct merge *m, const struct merge_event *e,
			  size_t i)
{
	size_t k;

	for (k = 0; k < e->n_uncounted; k++)
		if (e->uncounted[k] == m->ranks[i].rank)
			return e->uncounted_why[k];
	return "absent";
}

static void om_events(FILE *f, const struct merge *m)
{
	const struct merge_event *e;
	const char *why;
	size_t j, i;

	openmetrics_family(f, "pstat_event", "counter", NULL,
			   "Each rank's count of the event, in the unit of its unit label (task-clock: msec); none where it did not count");
	for (j = 0; j < m->n_events; j++)
		for (i = 0, e = &m->events[j]; i < m->n_ranks; i++) {
			if (isnan(e->values[i]))
				continue;
			fputs("pstat_event_total", f);
			om_event(f, e, NULL, NULL);
			om_value(f, m->ranks[i].rank, e->values[i]);
		}
	openmetrics_family(f, "pstat_event_supported", "gauge", NULL,
			   "1 where the rank could open the event, 0 where not (not-supported); none where its file lacks the event");
	for (j = 0; j < m->n_events; j++)
		for (i = 0, e = &m->events[j]; i < m->n_ranks; i++) {
			why = isnan(e->values[i]) ? om_why(m, e, i) : "";
			if (strcmp(why, "absent") == 0)
				continue;
			fputs("pstat_event_supported", f);
			om_event(f, e, NULL, NULL);
			om_value(f, m->ranks[i].rank,
				 strcmp(why, "not-supported") != 0);
		}
	openmetrics_family(f, "pstat_event_counted", "gauge", NULL,
			   "1 where the rank counted the event, 0 where not (not-counted, not-supported, absent)");
	for (j = 0; j < m->n_events; j++)
		for (i = 0, e = &m->events[j]; i < m->n_ranks; i++) {
			fputs("pstat_event_counted", f);
			om_event(f, e, NULL, NULL);
			om_value(f, m->ranks[i].rank, !isnan(e->values[i]));
		}
}

/* The job's view of each event: ranks counted, imbalance, metrics. */
static void om_job_events(FILE *f, const struct merge *m)
{
	const struct merge_event *e;
	const char *unit;
	double v;
	size_t j;
	int k;

	openmetrics_family(f, "pstat_event_ranks_counted", "gauge", NULL,
			   "The ranks that counted the event");
	for (j = 0; j < m->n_events; j++) {
		fputs("pstat_event_ranks_counted", f);
		om_event(f, &m->events[j], NULL, NULL);
		om_value(f, -1, (double)m->events[j].counted);
	}
	openmetrics_family(f, "pstat_event_imbalance_ratio", "gauge", NULL,
			   "The largest rank's count over the mean, less 1: 0 where the ranks count alike");
	for (j = 0; j < m->n_events; j++) {
		if (!m->events[j].counted)
			continue;
		fputs("pstat_event_imbalance_ratio", f);
		om_event(f, &m->events[j], NULL, NULL);
		om_value(f, -1, m->events[j].imbalance_pct / 100.0);
	}
	openmetrics_family(f, "pstat_metric", "gauge", NULL,
			   "The metrics of the job, from the ranks' summed counts; NaN where an input did not count");
	for (j = 0; j < m->n_events; j++)
		for (k = 0, e = &m->events[j]; k < e->n_metrics; k++) {
			v = openmetrics_metric(&e->m[k], &unit);
			fputs("pstat_metric", f);
			om_event(f, e, e->m[k].name ? e->m[k].name : unit,
				 unit);
			om_value(f, -1, v);
		}
}

/* Each rank's run facts, a family each. */
enum om_fact { EXIT_STATUS, SIGNAL, ELAPSED, USER, SYS, RSS };

static const struct {
	const char *name, *unit, *help;
} om_facts[] = {
	[EXIT_STATUS] = { "pstat_exit_status", NULL,
			  "Each rank's command's exit status" },
	[SIGNAL] = { "pstat_signal", NULL,
		     "The signal that killed a rank's command" },
	[ELAPSED] = { "pstat_elapsed_seconds", "seconds",
		      "Each rank's wall-clock time" },
	[USER] = { "pstat_user_seconds", "seconds",
		   "User CPU time of each rank's command" },
	[SYS] = { "pstat_system_seconds", "seconds",
		  "System CPU time of each rank's command" },
	[RSS] = { "pstat_max_rss_bytes", "bytes",
		  "Each rank's command's maximum resident set size" },
};

/* Rank r's value of fact, false where it has none. */
static bool om_fact_of(const struct merge_rank *r, enum om_fact fact,
		       double *v)
{
	switch (fact) {
	case EXIT_STATUS:
		*v = r->exit_status;
		return !r->signal && r->exit_status >= 0;
	case SIGNAL:
		*v = r->signal;
		return r->signal > 0;
	case ELAPSED:
		*v = r->elapsed_s;
		return true;
	case USER:
		*v = r->user_s;
		return r->has_command;
	case SYS:
		*v = r->sys_s;
		return r->has_command;
	case RSS:
		*v = r->max_rss_kib * 1024.0;
		return r->has_command;
	}
	return false;
}

static void om_ranks(FILE *f, const struct merge *m)
{
	size_t i, n;
	double v;
	int fact;

	for (fact = EXIT_STATUS; fact <= RSS; fact++) {
		for (i = n = 0; i < m->n_ranks; i++)
			n += om_fact_of(&m->ranks[i], fact, &v);
		if (!n)
			continue;
		openmetrics_family(f, om_facts[fact].name, "gauge",
				   om_facts[fact].unit, om_facts[fact].help);
		for (i = 0; i < m->n_ranks; i++) {
			if (!om_fact_of(&m->ranks[i], fact, &v))
				continue;
			fprintf(f, "%s{rank=\"%ld\"} ", om_facts[fact].name,
				m->ranks[i].rank);
			openmetrics_number(f, v);
			fputc('\n', f);
		}
	}
}

/* A gauge of one sample, without labels. */
static void om_fact(FILE *f, const char *name, const char *help, double v)
{
	openmetrics_family(f, name, "gauge", NULL, help);
	fprintf(f, "%s ", name);
	openmetrics_number(f, v);
	fputc('\n', f);
}

static void om_job(FILE *f, const struct merge *m)
{
	char buf[16];
	size_t i;
	long missing = 0;

	openmetrics_family(f, "pstat_run_info", "gauge", NULL,
			   "1, with what describes the job as labels: the first rank's command, pstat's version, the layout's version, the job");
	fputs("pstat_run_info{command=", f);
	openmetrics_label(f, m->command ? m->command : "");
	openmetrics_label_pair(f, "pstat_version", PACKAGE_VERSION);
	snprintf(buf, sizeof(buf), "%d", OPENMETRICS_LAYOUT_VERSION);
	openmetrics_label_pair(f, "format_version", buf);
	if (m->job_id)
		openmetrics_label_pair(f, "job_id", m->job_id);
	fputs("} 1\n", f);
	if (m->size > 0)
		om_fact(f, "pstat_ranks", "The job's number of ranks",
			(double)m->size);
	om_fact(f, "pstat_ranks_merged", "The ranks whose files were merged",
		(double)m->n_ranks);
	for (i = 0; i < m->n_missing; i++)
		missing += m->missing[i].last - m->missing[i].first + 1;
	om_fact(f, "pstat_ranks_missing",
		"Ranks below the job's size without a file", (double)missing);
	om_fact(f, "pstat_job_exit_status",
		"The exit status --merge gives: the lowest-ranked failure's, or 0",
		m->status);
}

static void print_openmetrics(FILE *f, const struct merge *m)
{
	om_events(f, m);
	om_job_events(f, m);
	om_ranks(f, m);
	om_job(f, m);
	fputs("# EOF\n", f);
}

int merge_print(FILE *f, const struct merge *m, enum output_format format)
{
	if (format == OUTPUT_PSTAT_CSV)
		print_csv(f, m);
	else if (format == OUTPUT_PSTAT_JSON)
		print_json(f, m);
	else if (format == OUTPUT_OPENMETRICS)
		print_openmetrics(f, m);
	else
		print_human(f, m);
	errno = 0;
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
