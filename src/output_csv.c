/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's -x columns, quoted where a field holds the separator. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "output_impl.h"

/* RFC 4180: quote a field holding the separator, a quote or a newline. */
static void field(struct output *out, const char *s, bool last)
{
	const char *sep = out->o.sep, *c;

	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
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
	size_t counter_fields = 5 + (out->o.runs > 1 && !out->interval);
	char buf[64];
	size_t i;
	int m;

	prefix(out, row);
	output_value_text(buf, sizeof(buf), row);
	field(out, buf, false);
	field(out, row->unit, false);
	field(out, row->name, false);
	if (out->o.runs > 1 && !out->interval) {
		snprintf(buf, sizeof(buf), "%.2f%%",
			 row->has_variance ? row->variance_pct : 0.0);
		field(out, buf, false);
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, row->vals.running);
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
			snprintf(buf, sizeof(buf), "%.*f", row->m[m].prec,
				 row->m[m].value);
		field(out, buf, false);
		field(out, row->n_metrics ? row->m[m].unit : "", true);
	}
}

/* --metric-only: the titles once, then [time,] the values. */
static void csv_metric_line(struct output *out, const char (*titles)[64],
			    const struct metric *m, size_t n)
{
	const char *lead = lead_field(out);
	char buf[64];
	size_t i;

	if (out->sections == 0) {
		if (out->interval)
			field(out, "time", n == 0);
		for (i = 0; i < n; i++)
			field(out, titles[i], i + 1 == n);
	}
	if (lead)
		field(out, lead, n == 0);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%.*f", m[i].prec, m[i].value);
		field(out, buf, i + 1 == n);
	}
}

const struct output_printer output_csv = {
	.row = csv_row,
	.metric_line = csv_metric_line,
};
