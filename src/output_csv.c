/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's -x columns, quoted where a field holds the separator. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "output_impl.h"

/* RFC 4180: quote a field holding the separator, a quote or a newline. */
static void field(FILE *f, const char *s, const char *sep, bool last)
{
	const char *c;

	if (!strstr(s, sep) && !strpbrk(s, "\"\n\r")) {
		fputs(s, f);
	} else {
		fputc('"', f);
		for (c = s; *c; c++) {
			if (*c == '"')
				fputc('"', f);
			fputc(*c, f);
		}
		fputc('"', f);
	}
	fputs(last ? "\n" : sep, f);
}

static void csv_header(FILE *f, const struct output_run *run,
		       const struct output_opts *o)
{
}

/* value, unit, event, run time, % running, metric value, metric unit */
static void csv_row(FILE *f, const struct output_row *row,
		    const struct output_opts *o)
{
	char value[32], runtime[32], pct[32], metric[32];

	if (row->r.state == COUNTS_NOT_SUPPORTED)
		snprintf(value, sizeof(value), "<not supported>");
	else if (row->r.state == COUNTS_NOT_COUNTED)
		snprintf(value, sizeof(value), "<not counted>");
	else if (row->fractional)
		snprintf(value, sizeof(value), "%.2f", row->value);
	else
		snprintf(value, sizeof(value), "%" PRIu64, row->r.value);
	snprintf(runtime, sizeof(runtime), "%" PRIu64, row->vals.running);
	snprintf(pct, sizeof(pct), "%.2f", row->r.running_pct);
	metric[0] = '\0';
	if (row->m.valid)
		snprintf(metric, sizeof(metric), "%.3f", row->m.value);

	field(f, value, o->sep, false);
	field(f, row->unit, o->sep, false);
	field(f, row->name, o->sep, false);
	field(f, runtime, o->sep, false);
	field(f, pct, o->sep, false);
	field(f, metric, o->sep, false);
	field(f, row->m.valid ? row->m.unit : "", o->sep, true);
}

static void csv_footer(FILE *f, const struct output_run *run,
		       const struct output_opts *o)
{
}

const struct output_printer output_csv = {
	.header = csv_header,
	.row = csv_row,
	.footer = csv_footer,
};
