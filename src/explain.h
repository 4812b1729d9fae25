/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat --explain: each event's group and perf_event_attr, opening nothing. */
#ifndef PSTAT_EXPLAIN_H
#define PSTAT_EXPLAIN_H

#include <stdio.h>

struct evlist;

/*
 * Print each evsel's group and the fields of its attr that are not
 * zero, as perf stat -vv names them. 0, or -errno when a write failed
 * (-EIO when it is not known why).
 */
int explain_print(FILE *f, const struct evlist *el);

#endif
