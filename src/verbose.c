/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -v and -vv: how each event was opened and what it read, on stderr. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "diag.h"
#include "diagnose.h"
#include "evlist.h"
#include "explain.h"
#include "results.h"
#include "sys.h"
#include "verbose.h"

/* Each line of text as a verbose line of its own. */
static void say_lines(const char *text)
{
	const char *nl;

	for (; *text; text = *nl ? nl + 1 : nl) {
		nl = strchrnul(text, '\n');
		diag_verbose("%.*s", (int)(nl - text), text);
	}
}

/* -vv: the attr as perf stat -vv prints it, a line each. */
static void say_attr(const struct perf_event_attr *a)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	fputs("perf_event_attr:\n", f);
	explain_attr(f, a);
	if (fclose(f) == 0)
		say_lines(text);
	free(text);
}

static void trace_open(void *arg, const struct perf_event_attr *attr,
		       pid_t pid, int cpu, int group_fd, unsigned long flags,
		       int ret)
{
	say_attr(attr);
	if (ret >= 0)
		diag_verbose("perf_event_open: pid %d cpu %d group_fd %d flags %#lx = %d",
			     (int)pid, cpu, group_fd, flags, ret);
	else
		diag_verbose("perf_event_open: pid %d cpu %d group_fd %d flags %#lx = -1 %s (%s)",
			     (int)pid, cpu, group_fd, flags,
			     compat_errname(-ret), strerror(-ret));
}

void verbose_trace_opens(void)
{
	if (diag_verbose_on(2))
		sys_observe_opens(trace_open, NULL);
}

/* Why e is <not supported>, which its open said. */
static void say_unsupported(const struct evsel *e)
{
	int err = evsel_open_err(e), pid, cpu;

	evsel_failed_on(e, &pid, &cpu);
	if (evsel_modifiers_refused(e))
		diag_verbose("%s: <not supported>: EINVAL with its modifiers, though it opens without them: its PMU %s",
			     evsel_name(e), diagnose_modifiers_refused());
	else
		diag_verbose("%s: <not supported>: perf_event_open gave %s (%s) for pid %d, cpu %d: %s",
			     evsel_name(e), compat_errname(err),
			     strerror(err), pid, cpu,
			     diagnose_errno_meaning(err));
}

/* How e opened: as given, or after which fallback. */
static void say_opened(const struct evsel *e)
{
	const struct perf_event_attr *a = evsel_attr(e);
	int paranoid = -1;

	diag_verbose("%s: opened: type %" PRIu32 ", config %#" PRIx64 ", on %zu target%s",
		     evsel_name(e), a->type, (uint64_t)a->config,
		     evsel_targets(e), evsel_targets(e) == 1 ? "" : "s");
	if (evsel_user_only(e)) {
		(void)sys_paranoid(&paranoid);
		diag_verbose("%s: fallback: the kernel refused its kernel part (EACCES, kernel.perf_event_paranoid=%d), so it counts user space only",
			     evsel_name(e), paranoid);
	}
	if (evsel_split(e))
		diag_verbose("%s: fallback: its weak group (:W) did not open whole, so it counts on its own",
			     evsel_name(e));
	if (evsel_precise_max(e))
		diag_verbose("%s: fallback: :P took precise_ip=%u, the most precise the kernel accepts",
			     evsel_name(e), (unsigned int)a->precise_ip);
}

void verbose_opened(const struct evlist *el)
{
	const struct evsel *e;
	size_t i;

	if (!diag_verbose_on(1))
		return;
	evlist_for_each(el, i, e) {
		if (evsel_open_err(e))
			say_unsupported(e);
		else
			say_opened(e);
	}
}

/* Why a row that was read shows <not counted>. */
static const char *not_counted_why(const struct results *res,
				   const struct results_row *row,
				   const struct counts_values *v)
{
	if (!res->enabled)
		return "counting never started (-D outlasted the command)";
	if (evsel_in_error(row->e))
		return "the kernel put its group in error state: it could not keep the pinned group on the PMU";
	if (evsel_user_only(row->e) && evsel_kernel_only(row->e))
		return "it was counted as :u, and the kernel counts it only in kernel mode, so its 0 would be false";
	if (v->enabled && !v->running)
		return "it was enabled but never on a PMU counter (more events than counters, or pinned events held them)";
	return "it never ran";
}

static void say_row(const struct results *res, const struct results_row *row)
{
	struct counts_values v = row->now;
	struct counts_result r;

	(void)results_value(res, row, &v, &r);
	if (r.state == COUNTS_NOT_SUPPORTED)
		return;
	diag_verbose("%s: %" PRIu64 " counted, %" PRIu64 " ns enabled, %" PRIu64 " ns running",
		     row->name, v.value, v.enabled, v.running);
	if (r.state == COUNTS_NOT_COUNTED)
		diag_verbose("%s: <not counted>: %s", row->name,
			     not_counted_why(res, row, &v));
	else if (r.state == COUNTS_SCALED)
		diag_verbose("%s: multiplexed: on a counter %.2f%% of the time, so %" PRIu64 " is an estimate",
			     row->name, r.running_pct, r.value);
}

void verbose_counted(const struct results *res)
{
	size_t i;

	if (!res || !diag_verbose_on(1))
		return;
	for (i = 0; i < res->n_rows; i++)
		say_row(res, &res->rows[i]);
}
