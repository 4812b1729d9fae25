/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --explain: each event's group and perf_event_attr, opening nothing. */
#ifndef PSTAT_EXPLAIN_H
#define PSTAT_EXPLAIN_H

#include <stdio.h>

#include <linux/perf_event.h>

struct evlist;

/*
 * Print each evsel's group and the fields of its attr that are not
 * zero, as perf stat -vv names them. 0, or -errno when a write failed
 * (-EIO when it is not known why).
 */
int explain_print(FILE *f, const struct evlist *el);

/* The fields of a that are not zero, a line each, indented by two. */
void explain_attr(FILE *f, const struct perf_event_attr *a);

#endif
