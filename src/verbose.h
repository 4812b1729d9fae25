/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -v and -vv: how each event was opened and what it read, on stderr
 * (diag.h), never into machine output.
 */
#ifndef PSTAT_VERBOSE_H
#define PSTAT_VERBOSE_H

struct evlist;
struct results;

/* -vv: every perf_event_open from now on, its attr and its result. */
void verbose_trace_opens(void);

/*
 * -v, once the first run's counters are open: each event opened (type,
 * config, targets) and the fallback taken (:u, a weak group split, :P's
 * precise_ip), or why it is <not supported>.
 */
void verbose_opened(const struct evlist *el);

/*
 * -v, after the results: each row's count, time enabled and running,
 * as perf stat -v gives them, and why one is <not counted> or scaled.
 */
void verbose_counted(const struct results *res);

#endif
