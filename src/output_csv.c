/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's -x columns, quoted where a field holds the separator. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "output_impl.h"
#include "results.h"

/*
 * RFC 4180: a field holding a quote or a newline is quoted, and so is
 * one where a separator would be read: in it, or, with a separator
 * such as ";;", starting in it and running on into the one after it
 * ("a;" then ";;" reads as "a", then ";").
 */
static bool needs_quotes(const char *s, const char *sep)
{
	size_t len = strlen(s), n = strlen(sep), k;

	if (strpbrk(s, "\"\n\r") || strstr(s, sep))
		return true;
	for (k = 1; k < n && k <= len; k++)
		if (memcmp(s + len - k, sep, k) == 0 &&
		    memcmp(sep + k, sep, n - k) == 0)
			return true;
	return false;
}

static void field(struct output *out, const char *s, bool last)
{
	const char *sep = out->o.sep, *c;

	if (!needs_quotes(s, sep)) {
		fputs(s, out->f);
	} else {
		fputc('"', out->f);
		for (c = s; *c; c++) {
			if (*c == '"')
				fputc('"', out->f);
			fputc(*c, out->f);
		}
		fputc('"', out->f);
	}
	fputs(last ? "\n" : sep, out->f);
}

/*
 * With -I, the first field: the interval's end, or perf's "summary" on
 * the totals of --summary, so that every row has as many fields (but
 * unpadded, as the times are). NULL for none.
 */
static const char *lead_field(const struct output *out)
{
	if (out->interval)
		return out->ts_text;
	if (out->o.interval && !out->o.no_csv_summary)
		return "summary";
	return NULL;
}

/* The time of the interval and the aggregate, which every line repeats. */
static void prefix(struct output *out, const struct output_row *row)
{
	const char *lead = lead_field(out);
	char buf[32];

	if (lead)
		field(out, lead, false);
	/* -r N: the interval's run after its time; none on --summary. */
	if (lead && out->o.runs > 1) {
		snprintf(buf, sizeof(buf), "%zu", out->run + 1);
		field(out, out->interval ? buf : "", false);
	}
	if (row->aggr)
		field(out, row->aggr, false);
	if (row->aggr_cpus) {
		snprintf(buf, sizeof(buf), "%d", row->aggr_cpus);
		field(out, buf, false);
	}
}

/*
 * [time,] [aggregate, [CPUs,]] value, unit, event, [variance,] run time,
 * % running, metric value, metric unit. A second metric gets a line of
 * its own, as in perf: the prefix, empty counter fields, the metric.
 */
static void csv_row(struct output *out, const struct output_row *row)
{
	size_t counter_fields = 5 + (out->o.runs > 1 && !out->interval) +
				(row->cgroup != NULL);
	char buf[64];
	size_t i;
	int m;

	prefix(out, row);
	output_value_text(buf, sizeof(buf), row);
	field(out, buf, false);
	field(out, row->unit, false);
	field(out, row->name, false);
	if (row->cgroup)
		field(out, row->cgroup, false);
	if (out->o.runs > 1 && !out->interval) {
		snprintf(buf, sizeof(buf), "%.2f%%",
			 row->has_variance ? row->variance_pct : 0.0);
		field(out, buf, false);
	}
	fmt_u64(buf, sizeof(buf), row->vals.running);
	field(out, buf, false);
	output_pct_text(buf, sizeof(buf), row->r.running_pct);
	field(out, buf, false);
	for (m = 0; m < (row->n_metrics ? row->n_metrics : 1); m++) {
		if (m > 0) {
			prefix(out, row);
			for (i = 0; i < counter_fields; i++)
				fputs(out->o.sep, out->f);
		}
		buf[0] = '\0';
		if (row->n_metrics)
			fmt_fixed(buf, sizeof(buf), row->m[m].prec,
				  row->m[m].value);
		field(out, buf, false);
		field(out, row->n_metrics ? row->m[m].unit : "", true);
	}
}

/*
 * --metric-only: [time,] [aggregate, [cpus,]] then the columns, on the
 * header as on every line. The time of --summary's totals is "summary".
 */
struct metric_fields {
	bool time, run, aggr, cpus;
	size_t n, done;		/* fields on a line, and written */
};

static struct metric_fields metric_fields(const struct output *out)
{
	struct metric_fields mf = { .time = out->o.interval };

	/* -r N: the run after the time, as on event rows. */
	mf.run = mf.time && out->o.runs > 1;
	mf.aggr = output_aggr_title(out->res->aggr, &mf.cpus) != NULL;
	mf.n = mf.time + mf.run + mf.aggr + mf.cpus + out->mo.n_cols;
	return mf;
}

static void metric_field(struct output *out, struct metric_fields *mf,
			 const char *s)
{
	field(out, s, ++mf->done == mf->n);
}

static void csv_metric_titles(struct output *out)
{
	struct metric_fields mf = metric_fields(out);
	size_t i;

	if (out->sections > 0)
		return;
	if (mf.time)
		metric_field(out, &mf, "time");
	if (mf.run)
		metric_field(out, &mf, "run");
	if (mf.aggr)
		metric_field(out, &mf, output_aggr_title(out->res->aggr,
							 &mf.cpus));
	if (mf.cpus)
		metric_field(out, &mf, "cpus");
	for (i = 0; i < out->mo.n_cols; i++)
		metric_field(out, &mf, out->mo.cols[i].title);
}

static void csv_metric_line(struct output *out, const struct output_row *row,
			    const struct output_cell *cells)
{
	struct metric_fields mf = metric_fields(out);
	char buf[64];
	size_t i;

	/* --no-csv-summary: the totals' line is one field short. */
	if (mf.time && lead_field(out))
		metric_field(out, &mf, lead_field(out));
	else if (mf.time)
		mf.n -= 1 + mf.run;
	if (mf.run && lead_field(out)) {
		snprintf(buf, sizeof(buf), "%zu", out->run + 1);
		metric_field(out, &mf, out->interval ? buf : "");
	}
	if (mf.aggr)
		metric_field(out, &mf, row->aggr);
	if (mf.cpus) {
		snprintf(buf, sizeof(buf), "%d", row->aggr_cpus);
		metric_field(out, &mf, buf);
	}
	for (i = 0; i < out->mo.n_cols; i++) {
		buf[0] = '\0';
		if (cells[i].has)
			snprintf(buf, sizeof(buf), "%.*f",
				 out->mo.cols[i].m.prec, cells[i].value);
		metric_field(out, &mf, buf);
	}
}

const struct output_printer output_csv = {
	.row = csv_row,
	.metric_titles = csv_metric_titles,
	.metric_line = csv_metric_line,
};
