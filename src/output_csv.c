/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's -x columns, quoted where a field holds the separator. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "control.h"
#include "csv.h"
#include "fmt.h"
#include "output_impl.h"
#include "regions.h"
#include "results.h"

/*
 * A line is made here and written with one fwrite: field by field
 * through stdio (a lock, a strlen and a copy each) was most of what an
 * interval cost. A field longer than the rest of buf goes straight on.
 */
struct line {
	const struct output *out;
	const char *sep;
	size_t sep_len;
	char special[5];	/* what may need quotes: '"', CR, LF, sep[0] */
	size_t n;
	char buf[512];
};

static void line_init(struct line *l, const struct output *out)
{
	l->out = out;
	l->sep = out->o.sep;
	l->sep_len = strlen(l->sep);
	memcpy(l->special, (char[]){ '"', '\n', '\r', l->sep[0], '\0' }, 5);
	l->n = 0;
}

static void flush(struct line *l)
{
	if (l->n)
		fwrite(l->buf, 1, l->n, l->out->f);
	l->n = 0;
}

static void put(struct line *l, const char *s, size_t len)
{
	if (len > sizeof(l->buf) - l->n) {
		flush(l);
		if (len > sizeof(l->buf)) {
			fwrite(s, 1, len, l->out->f);
			return;
		}
	}
	memcpy(l->buf + l->n, s, len);
	l->n += len;
}

static void line_put(void *l, const char *s, size_t len)
{
	put(l, s, len);
}

static void field(struct line *l, const char *s, bool last)
{
	/* The usual one-byte separator: one pass finds the end or a byte
	 * that needs quotes (csv.c's rule). */
	size_t len = strcspn(s, l->special);

	if (s[len] == '\0' && l->sep_len == 1)
		put(l, s, len);
	else
		csv_field(line_put, l, s, len + strlen(s + len), l->sep);
	if (last)
		put(l, "\n", 1);
	else
		put(l, l->sep, l->sep_len);
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
static void prefix(struct line *l, const struct output_row *row)
{
	const struct output *out = l->out;
	const char *lead = lead_field(out);
	char buf[32], region[CONTROL_LINE_MAX + 8];

	/* --regions: a region's rows begin with its name. */
	if (out->region) {
		snprintf(region, sizeof(region), "region:%s",
			 out->region->name);
		lead = region;
	}
	if (lead)
		field(l, lead, false);
	if (row->aggr)
		field(l, row->aggr, false);
	if (row->aggr_cpus) {
		snprintf(buf, sizeof(buf), "%d", row->aggr_cpus);
		field(l, buf, false);
	}
}

/*
 * [time,] [aggregate, [CPUs,]] value, unit, event, [cgroup,]
 * [variance,] run time, % running, metric value, metric unit: perf's
 * fields in perf's order on every row of a stream, intervals and
 * --summary's alike, so what reads perf's reads these. -r's variance is
 * on every row, as in perf; the run an interval is of is not a field of
 * perf's (--format=csv and -j have it). A second metric gets a line of
 * its own, as in perf: the prefix, empty counter fields, the metric.
 */
static void csv_row(struct output *out, const struct output_row *row)
{
	size_t counter_fields = 5 + (out->o.runs > 1) +
				(row->cgroup != NULL);
	struct line l;
	char buf[64], mbuf[160];
	size_t i;
	int m;

	line_init(&l, out);
	prefix(&l, row);
	output_value_text(buf, sizeof(buf), row);
	field(&l, buf, false);
	field(&l, row->unit, false);
	field(&l, row->name, false);
	if (row->cgroup)
		field(&l, row->cgroup, false);
	if (out->o.runs > 1) {
		snprintf(buf, sizeof(buf), "%.2f%%",
			 row->has_variance ? row->variance_pct : 0.0);
		field(&l, buf, false);
	}
	fmt_u64(buf, sizeof(buf), row->vals.running);
	field(&l, buf, false);
	output_pct_text(buf, sizeof(buf), row->r.running_pct);
	field(&l, buf, false);
	for (m = 0; m < (row->n_metrics ? row->n_metrics : 1); m++) {
		if (m > 0) {
			prefix(&l, row);
			for (i = 0; i < counter_fields; i++)
				put(&l, l.sep, l.sep_len);
		}
		mbuf[0] = '\0';
		if (row->n_metrics)
			metric_value_text(mbuf, sizeof(mbuf), &row->m[m],
					  row->m[m].prec);
		field(&l, mbuf, false);
		field(&l, row->n_metrics ? row->m[m].unit : "", true);
	}
	flush(&l);
}

/*
 * --metric-only: [time,] [aggregate, [cpus,]] then the columns, on the
 * header as on every line. The time of --summary's totals is "summary".
 */
struct metric_fields {
	bool time, aggr, cpus;
	size_t n, done;		/* fields on a line, and written */
	struct line l;
};

static struct metric_fields metric_fields(const struct output *out)
{
	struct metric_fields mf = { .time = out->o.interval };

	line_init(&mf.l, out);
	mf.aggr = output_aggr_title(out->res->aggr, &mf.cpus) != NULL;
	mf.n = mf.time + mf.aggr + mf.cpus + out->mo.n_cols;
	return mf;
}

static void metric_field(struct metric_fields *mf, const char *s)
{
	field(&mf->l, s, ++mf->done == mf->n);
}

static void csv_metric_titles(struct output *out)
{
	struct metric_fields mf = metric_fields(out);
	size_t i;

	if (out->sections > 0)
		return;
	if (mf.time)
		metric_field(&mf, "time");
	if (mf.aggr)
		metric_field(&mf, output_aggr_title(out->res->aggr,
							 &mf.cpus));
	if (mf.cpus)
		metric_field(&mf, "cpus");
	for (i = 0; i < out->mo.n_cols; i++)
		metric_field(&mf, out->mo.cols[i].title);
	flush(&mf.l);
}

static void csv_metric_line(struct output *out, const struct output_row *row,
			    const struct output_cell *cells)
{
	struct metric_fields mf = metric_fields(out);
	char buf[64], mbuf[160], region[CONTROL_LINE_MAX + 8];
	size_t i;

	/* --regions: a region's line begins with its name, as its rows. */
	if (out->region) {
		snprintf(region, sizeof(region), "region:%s",
			 out->region->name);
		mf.n++;
		metric_field(&mf, region);
	}
	/* --no-csv-summary: the totals' line is one field short. */
	if (mf.time && lead_field(out))
		metric_field(&mf, lead_field(out));
	else if (mf.time)
		mf.n--;
	if (mf.aggr)
		metric_field(&mf, row->aggr);
	if (mf.cpus) {
		snprintf(buf, sizeof(buf), "%d", row->aggr_cpus);
		metric_field(&mf, buf);
	}
	for (i = 0; i < out->mo.n_cols; i++) {
		mbuf[0] = '\0';
		if (cells[i].has)
			metric_value_text(mbuf, sizeof(mbuf), &cells[i].m,
					  out->mo.cols[i].m.prec);
		metric_field(&mf, mbuf);
	}
	flush(&mf.l);
}

/* Its rows say the region (prefix): nothing before them. */
static void csv_region(struct output *out, const struct region *g, bool first)
{
	(void)out;
	(void)g;
	(void)first;
}

const struct output_printer output_csv = {
	.row = csv_row,
	.region = csv_region,
	.metric_titles = csv_metric_titles,
	.metric_line = csv_metric_line,
};
