/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing OpenMetrics text: descriptors, label values escaped, numbers
 * in the C locale. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "metrics.h"
#include "openmetrics.h"

/* U+FFFD, for each ill-formed part of a value: OpenMetrics is UTF-8. */
static const char replacement[] = "\xef\xbf\xbd";

void openmetrics_family(FILE *f, const char *name, const char *type,
			const char *unit, const char *help)
{
	fprintf(f, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s %s\n", name, help);
}

void openmetrics_label(FILE *f, const char *s)
{
	const unsigned char *c = (const unsigned char *)s;
	int n;

	fputc('"', f);
	while (*c) {
		if (*c == '\\' || *c == '"') {
			fputc('\\', f);
			fputc(*c++, f);
		} else if (*c == '\n') {
			fputs("\\n", f);
			c++;
		} else if (*c < 0x80) {
			fputc(*c++, f);
		} else if ((n = json_utf8_sequence(c)) > 0) {
			fwrite(c, 1, (size_t)n, f);
			c += n;
		} else {
			fputs(replacement, f);
			c -= n;
		}
	}
	fputc('"', f);
}

void openmetrics_label_pair(FILE *f, const char *name, const char *value)
{
	fprintf(f, ",%s=", name);
	openmetrics_label(f, value);
}

void openmetrics_number(FILE *f, double v)
{
	char buf[32];

	if (isnan(v)) {
		fputs("NaN", f);
		return;
	}
	if (isinf(v)) {
		fputs(v > 0 ? "+Inf" : "-Inf", f);
		return;
	}
	json_number_text(buf, sizeof(buf), v);
	fputs(buf, f);
}

double openmetrics_metric(const struct metric *m, const char **unit)
{
	static const struct { const char *unit; double times; } rates[] = {
		{ "K/sec", 1e3 }, { "M/sec", 1e6 }, { "G/sec", 1e9 },
	};
	size_t i;

	*unit = m->unit;
	if (m->status != METRIC_COUNTED)
		return NAN;
	for (i = 0; !m->name && i < sizeof(rates) / sizeof(rates[0]); i++) {
		if (strcmp(m->unit, rates[i].unit) == 0) {
			*unit = "/sec";
			return m->value * rates[i].times;
		}
	}
	return m->value;
}
