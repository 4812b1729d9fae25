/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat -j: a JSON object a line, with perf's keys, numbers as numbers. */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include "aggr.h"
#include "json.h"
#include "output_impl.h"
#include "regions.h"
#include "results.h"

static void key(struct output *out, const char *k)
{
	json_string(out->f, k);
	fputs(": ", out->f);
}

/* perf's keys for the aggregate, but a CPU is a number here. */
static void aggregate(struct output *out, const struct output_row *row)
{
	const struct aggr *ag = out->res->aggr;

	key(out, output_aggr_keys[ag->kind]);
	if (ag->kind == AGGR_CPU)
		json_number(out->f, ag->id[row->rr->aggr]);
	else
		json_string(out->f, row->aggr);
	fputs(", ", out->f);
	if (row->aggr_cpus) {
		key(out, "aggregate-number");
		json_number(out->f, row->aggr_cpus);
		fputs(", ", out->f);
	}
}

/* The interval and the aggregate, which every line of a row repeats. */
static void prefix(struct output *out, const struct output_row *row)
{
	if (out->interval) {
		key(out, "interval");
		json_number(out->f, out->ts);
		fputs(", ", out->f);
		/* -r N: the run the interval is of, 1 for the first. */
		if (out->o.runs > 1) {
			key(out, "run");
			fprintf(out->f, "%zu, ", out->run + 1);
		}
	}
	if (row->aggr)
		aggregate(out, row);
	/* --regions: a region's rows name it, and how often it was entered. */
	if (out->region) {
		key(out, "region");
		json_string(out->f, out->region->name);
		fprintf(out->f, ", \"region-entries\": %" PRIu64 ", ",
			out->region->entries);
	}
}

/*
 * Where a metric's value is null, why: JSON has no NaN or infinity,
 * and a metric whose input did not count has no value; the input is
 * named.
 */
static void metric_status(struct output *out, const struct metric *m)
{
	if (m->status == METRIC_COUNTED && isfinite(m->value))
		return;
	fputs(", ", out->f);
	key(out, "metric-status");
	json_string(out->f, metric_status_name(m));
	if (m->missing) {
		fputs(", ", out->f);
		key(out, "metric-input");
		json_string(out->f, m->missing);
	}
}

static void jsonl_row(struct output *out, const struct output_row *row)
{
	bool counted = counts_counted(&row->r);
	char text[64];
	int m;

	fputc('{', out->f);
	prefix(out, row);
	key(out, "counter-value");
	/* A count is the whole number -x prints (a mean of runs, an
	 * estimate, rounded); a value in msec or of a scaled PMU as is. */
	if (counted && !row->fractional) {
		json_uint(out->f, row->r.value);
	} else if (counted) {
		json_number(out->f, row->value);
	} else {
		output_value_text(text, sizeof(text), row);
		json_string(out->f, text);
	}
	fputs(", ", out->f);
	key(out, "unit");
	json_string(out->f, row->unit);
	fputs(", ", out->f);
	key(out, "event");
	json_string(out->f, row->name);
	if (row->cgroup) {
		fputs(", ", out->f);
		key(out, "cgroup");
		json_string(out->f, row->cgroup);
	}
	/* Every row of a repeated run has one, intervals too, as in perf
	 * and as -x has the column. */
	if (out->o.runs > 1) {
		fputs(", ", out->f);
		key(out, "variance");
		json_number(out->f, row->has_variance ? row->variance_pct : 0.0);
	}
	fputs(", ", out->f);
	key(out, "event-runtime");
	json_number(out->f, (double)row->vals.running);
	fputs(", ", out->f);
	key(out, "pcnt-running");
	json_number(out->f, row->r.running_pct);
	/* perf's convention for "no metric": 0 and an empty unit. */
	for (m = 0; m < (row->n_metrics ? row->n_metrics : 1); m++) {
		if (m > 0) {
			fputs("}\n{", out->f);
			prefix(out, row);
		} else {
			fputs(", ", out->f);
		}
		key(out, "metric-value");
		json_number(out->f, row->n_metrics ? row->m[m].value : 0.0);
		fputs(", ", out->f);
		key(out, "metric-unit");
		json_string(out->f, row->n_metrics ? row->m[m].unit : "");
		if (row->n_metrics)
			metric_status(out, &row->m[m]);
	}
	fputs("}\n", out->f);
}

/* A key after the ones before it, if any. */
static void next_key(struct output *out, const char *k, bool *first)
{
	if (!*first)
		fputs(", ", out->f);
	*first = false;
	key(out, k);
}

/*
 * --metric-only: one object a line: "interval", the aggregate's keys as
 * on event rows, then each column's title, null where it has no value.
 */
static void jsonl_metric_line(struct output *out,
			      const struct output_row *row,
			      const struct output_cell *cells)
{
	const struct aggr *ag = out->res->aggr;
	bool first = true;
	size_t i;

	fputc('{', out->f);
	if (out->interval) {
		next_key(out, "interval", &first);
		json_number(out->f, out->ts);
		if (out->o.runs > 1) {
			next_key(out, "run", &first);
			fprintf(out->f, "%zu", out->run + 1);
		}
	}
	if (row->aggr) {
		next_key(out, output_aggr_keys[ag->kind], &first);
		if (ag->kind == AGGR_CPU)
			json_number(out->f, ag->id[row->rr->aggr]);
		else
			json_string(out->f, row->aggr);
	}
	if (row->aggr_cpus) {
		next_key(out, "aggregate-number", &first);
		json_number(out->f, row->aggr_cpus);
	}
	if (out->region) {
		next_key(out, "region", &first);
		json_string(out->f, out->region->name);
		next_key(out, "region-entries", &first);
		fprintf(out->f, "%" PRIu64, out->region->entries);
	}
	for (i = 0; i < out->mo.n_cols; i++) {
		next_key(out, out->mo.cols[i].title, &first);
		if (cells[i].has && cells[i].m.status == METRIC_COUNTED)
			json_number(out->f, cells[i].m.value);
		else
			fputs("null", out->f);
	}
	fputs("}\n", out->f);
}

/* Its rows say the region (prefix): nothing before them. */
static void jsonl_region(struct output *out, const struct region *g,
			 bool first)
{
	(void)out;
	(void)g;
	(void)first;
}

const struct output_printer output_jsonl = {
	.row = jsonl_row,
	.region = jsonl_region,
	.metric_line = jsonl_metric_line,
};
