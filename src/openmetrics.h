/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing OpenMetrics text: descriptors, label values escaped, numbers
 * in the C locale. */
#ifndef PSTAT_OPENMETRICS_H
#define PSTAT_OPENMETRICS_H

#include <stdio.h>

struct metric;

/*
 * The version of pstat's families and labels (pstat_run_info's
 * format_version): raised when one goes away or changes meaning.
 */
#define OPENMETRICS_LAYOUT_VERSION 1

/*
 * A family's # TYPE, # UNIT (unit NULL for none: the name must end in
 * it) and # HELP lines; help holds no backslash, double quote or
 * newline, which it would have to escape.
 */
void openmetrics_family(FILE *f, const char *name, const char *type,
			const char *unit, const char *help);

/* s as a label value, quoted: backslash, double quote and newline
 * escaped as the ABNF's escaped-string has them, and each ill-formed
 * UTF-8 part as U+FFFD. */
void openmetrics_label(FILE *f, const char *s);

/* ",name=" and value as openmetrics_label writes it. */
void openmetrics_label_pair(FILE *f, const char *name, const char *value);

/* A value: the shortest decimal that reads back the same, NaN, +Inf
 * or -Inf. */
void openmetrics_number(FILE *f, double v);

/*
 * A metric's value, and its unit as a label: NaN where it is no number
 * or an input did not count. perf scales a rate to K/sec, M/sec or
 * G/sec by its size, which would make another series of each change:
 * here a rate is always per second ("/sec").
 */
double openmetrics_metric(const struct metric *m, const char **unit);

#endif
