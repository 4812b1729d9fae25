/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --list: the events this machine knows, grouped by kind. */
#ifndef PSTAT_LIST_H
#define PSTAT_LIST_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Print every known event whose name matches filter (a substring, or a
 * glob when it holds * ? or [; perf list's class words hw, hardware,
 * cache, hwcache, sw, software, pmu and tracepoint list their class),
 * or all of them when filter is NULL, by
 * kind, saying which generic events this machine supports; as text or
 * one JSON document. 0, or -errno when a write failed (-EIO when it is
 * not known why), or -ENOMEM when the list is not whole.
 */
int list_print(FILE *f, const char *filter, bool json);

/*
 * --list pfm [FILTER]: the events and umasks of the PMU models libpfm4
 * detects here, with its descriptions (as text, a line saying so when
 * it detects none), as text or one JSON document;
 * FILTER as above, but in any case and with perf's '.' for ':'. None
 * is opened. 0, -errno as list_print, or pfm_each_event's error.
 */
int list_print_pfm(FILE *f, const char *filter, bool json);

struct pmu_tables;

/*
 * --list metrics [FILTER]: the metrics of t's model, by name, each with
 * its description (a hybrid CPU's with its core PMU); --list
 * metricgroups [FILTER]: its metric groups, with their descriptions and
 * how many metrics each has. As text or one JSON document (the metrics'
 * groups, expressions, thresholds and units; each group's metrics).
 * FILTER as for list_print_pfm, and for metrics also a group of theirs.
 * 0, or -errno as list_print.
 */
int list_print_metrics(FILE *f, const struct pmu_tables *t,
		       const char *filter, bool json);
int list_print_metricgroups(FILE *f, const struct pmu_tables *t,
			    const char *filter, bool json);

#endif
