/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The notes of a run: said once each, on stderr, never into machine output. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "compat.h"
#include "aggr.h"
#include "diag.h"
#include "diagnose.h"
#include "evlist.h"
#include "notes.h"
#include "output.h"
#include "regions.h"
#include "results.h"
#include "workload.h"

/* snprintf at buf + *used, never past len; *used follows. */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	*used += (size_t)vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
}

/* Up to four names of the events that pass, then how many more. */
static void event_names(const struct evlist *el,
			bool (*pass)(const struct evsel *), char *buf,
			size_t len)
{
	const struct evsel *e;
	size_t i, n = 0, used = 0;

	buf[0] = '\0';
	evlist_for_each(el, i, e) {
		if (evsel_merges(e) || !pass(e))
			continue;
		if (n++ < 4)
			append(buf, len, &used, "%s%s", n > 1 ? ", " : "",
			       evsel_name(e));
	}
	if (n > 4)
		append(buf, len, &used, " and %zu more", n - 4);
}

static bool counted_user_only(const struct evsel *e)
{
	return evsel_user_only(e) && !evsel_open_err(e);
}

static bool blind_user_only(const struct evsel *e)
{
	return counted_user_only(e) && evsel_kernel_only(e);
}

static bool clock_user_only(const struct evsel *e)
{
	return counted_user_only(e) && evsel_is_clock(e);
}

bool notes_user_only(const struct evlist *el, int paranoid, char *buf,
		     size_t len)
{
	char names[512];
	size_t used = 0;

	event_names(el, counted_user_only, names, sizeof(names));
	if (!names[0])
		return false;
	if (paranoid >= 2)
		append(buf, len, &used, "kernel.perf_event_paranoid=%d",
		       paranoid);
	else
		append(buf, len, &used, "the kernel (a security module?)");
	append(buf, len, &used,
	       " lets you count user space only, so events are counted as :u");
	event_names(el, clock_user_only, names, sizeof(names));
	if (names[0])
		append(buf, len, &used, " (%s still include%s kernel time)",
		       names, strchr(names, ',') ? "" : "s");
	event_names(el, blind_user_only, names, sizeof(names));
	if (names[0])
		append(buf, len, &used,
		       "; %s: <not counted>, as the kernel counts %s in kernel mode only and :u would read 0",
		       names, strchr(names, ',') ? "them" : "it");
	diagnose_sysctl_fix(1, names, sizeof(names));
	append(buf, len, &used,
	       "; to count the kernel too: CAP_PERFMON, or %s (see 'pstat --check')",
	       names);
	return true;
}

static bool is_hardware(const struct evsel *e)
{
	return evsel_attr(e)->type == PERF_TYPE_HARDWARE ||
	       evsel_attr(e)->type == PERF_TYPE_HW_CACHE ||
	       evsel_attr(e)->type == PERF_TYPE_RAW;
}

/*
 * One note per errno that left events <not supported>. Hardware events
 * without a hardware PMU have their own note (note_missing_pmu).
 */
static void note_unsupported(const struct evlist *el,
			     const struct diagnose_facts *facts)
{
	const struct evsel *e;
	static const int errs[] = { ENOENT, ENXIO, ENODEV, EOPNOTSUPP };
	char names[512];
	size_t i, j, used;

	for (j = 0; j < sizeof(errs) / sizeof(errs[0]); j++) {
		used = 0;
		names[0] = '\0';
		evlist_for_each(el, i, e) {
			if (evsel_open_err(e) != errs[j] || evsel_merges(e) ||
			    evsel_modifiers_refused(e))
				continue;
			if (is_hardware(e) && !facts->core_pmu)
				continue;
			append(names, sizeof(names), &used, "%s%s",
			       used ? ", " : "", evsel_name(e));
		}
		if (names[0])
			diag_note("%s: <not supported>: %s (%s)", names,
				  diagnose_errno_meaning(errs[j]),
				  compat_errname(errs[j]));
	}
	used = 0;
	names[0] = '\0';
	evlist_for_each(el, i, e) {
		if (evsel_modifiers_refused(e) && !evsel_merges(e))
			append(names, sizeof(names), &used, "%s%s",
			       used ? ", " : "", evsel_name(e));
	}
	if (names[0])
		diag_note("%s: <not supported>: its PMU %s; drop the modifiers to count it",
			  names, diagnose_modifiers_refused());
}

static const char stops[] =
	"the kernel stops counting a process when it executes such a program, so the counts end at that exec and show almost nothing of it";

void notes_exec_stops(const char *path, const struct workload_stop *stop,
		      char *buf, size_t len)
{
	char owner[32];

	if (stop->uid == 0)
		snprintf(owner, sizeof(owner), "root");
	else
		snprintf(owner, sizeof(owner), "uid %ld", (long)stop->uid);
	if (stop->why == WORKLOAD_SETUID)
		snprintf(buf, len,
			 "'%s' is set-user-ID %s: %s; to count it, run pstat as %s",
			 path, owner, stops, owner);
	else if (stop->why == WORKLOAD_SETGID)
		snprintf(buf, len,
			 "'%s' is set-group-ID (to gid %ld): %s; to count it, run pstat with gid %ld as its real group",
			 path, (long)stop->gid, stops, (long)stop->gid);
	else if (stop->why == WORKLOAD_UNREADABLE)
		snprintf(buf, len,
			 "'%s' cannot be read by you, only executed: %s; to count it, run pstat as its owner or as root",
			 path, stops);
	else
		snprintf(buf, len, "'%s' is counted", path);
}

/* One note for the run, not one per event. */
static void note_missing_pmu(const struct evlist *el,
			     const struct diagnose_facts *facts)
{
	const struct evsel *e;
	size_t i;

	evlist_for_each(el, i, e) {
		if (evsel_open_err(e) && is_hardware(e)) {
			if (!facts->core_pmu)
				diag_note("%s", diagnose_no_core_pmu());
			return;
		}
	}
}

/* One note per weak group the kernel refused whole. */
static void note_split_groups(const struct evlist *el)
{
	const struct evsel *e;
	size_t i;

	evlist_for_each(el, i, e) {
		if (evsel_split(e) && (i == 0 || !evsel_split(evlist_at(el, i - 1))))
			diag_note("the kernel refused the weak group led by %s as a whole: its events are counted separately",
				  evsel_name(e));
	}
}

/* Supported, but opened nowhere: its PMU counts on none of the CPUs. */
static bool uncovered(const struct evsel *e)
{
	return !evsel_open_err(e) && evsel_tool(e) == EVENT_TOOL_NONE &&
	       !evsel_is_open(e);
}

/* As perf warns: events of a hybrid's core PMU outside the CPUs of -C. */
static void note_uncovered(const struct evlist *el)
{
	char names[512];

	event_names(el, uncovered, names, sizeof(names));
	if (names[0])
		diag_note("%s: %s PMU counts on none of the CPUs counted: left out",
			  names, strchr(names, ',') ? "their" : "its");
}

/* The facts the notes of el will use: none when there is no note. */
static unsigned int facts_needed(const struct evlist *el)
{
	const struct evsel *e;
	unsigned int need = 0;
	size_t i;

	evlist_for_each(el, i, e) {
		if (evsel_open_err(e) && is_hardware(e))
			need |= DIAGNOSE_CORE_PMU;
		if (evsel_user_only(e))
			need |= DIAGNOSE_PARANOID;
	}
	return need;
}

/* The text of a note is written only when there is one: it has no room
 * on the stack, where its 2 KiB put a run's deepest frames a page
 * further down. (Called once, in the first run.) */
void notes_opened(void *arg, const struct evlist *el, const char *command)
{
	static char buf[2048];
	struct diagnose_facts facts;
	struct workload_stop stop;

	/* Notes take sysfs reads: only when they will be read. */
	if (!diag_notes_on())
		return;
	diagnose_gather(&facts, facts_needed(el), -1);
	note_missing_pmu(el, &facts);
	note_split_groups(el);
	note_uncovered(el);
	if (notes_user_only(el, facts.paranoid, buf, sizeof(buf)))
		diag_note("%s", buf);
	note_unsupported(el, &facts);
	if (command && workload_exec_stops(command, &stop)) {
		notes_exec_stops(command, &stop, buf, sizeof(buf));
		diag_note("%s", buf);
	}
}

/* What the rows say of an evsel, in never_ran's one pass over them. */
enum ran { RAN_UNSEEN, RAN_NEVER, RAN_SOME };

/*
 * For each evsel, RAN_NEVER when it was enabled and never ran, on every
 * row it counts into: the PMU never had a counter for it. Events that
 * are not supported, or not counted for a reason of their own, did
 * not. One pass over the rows, however many events: NULL when out of
 * memory (then there is no such note).
 */
static unsigned char *never_ran(const struct results *res)
{
	size_t n = evlist_count(res->el), r, j;
	unsigned char *ran = calloc(n + 1, 1);

	if (!ran)
		return NULL;
	for (r = 0; r < res->n_rows; r++) {
		const struct results_row *row = &res->rows[r];
		bool none = row->now.enabled && !row->now.running;

		for (j = row->first; j < row->first + row->n_evsels; j++)
			if (!none)
				ran[j] = RAN_SOME;
			else if (ran[j] == RAN_UNSEEN)
				ran[j] = RAN_NEVER;
	}
	for (j = 0; j < n; j++) {
		const struct evsel *e = evlist_at(res->el, j);

		if (evsel_open_err(e) ||
		    (evsel_user_only(e) && evsel_kernel_only(e)))
			ran[j] = RAN_SOME;
	}
	return ran;
}

/* The group of g's members that never ran, as {a,b,c}, if all did. */
static bool group_never_ran(const struct results *res,
			    const unsigned char *ran,
			    const struct evlist_group *g, char *buf,
			    size_t len)
{
	size_t i, used = 0, n = 0;

	for (i = g->first; i < g->first + g->n; i++)
		if (!evsel_open_err(evlist_at(res->el, i)) &&
		    ran[i] != RAN_NEVER)
			return false;
	append(buf, len, &used, "{");
	for (i = g->first; i < g->first + g->n; i++) {
		if (evsel_open_err(evlist_at(res->el, i)))
			continue;
		append(buf, len, &used, "%s%s", n++ ? "," : "",
		       evsel_name(evlist_at(res->el, i)));
	}
	append(buf, len, &used, "}");
	return n > 1;
}

/*
 * --per-thread with a command: what the kernel's records did not tell.
 * Their counts are in the command's row, and the totals are whole.
 */
static void note_tasks(const struct results *res)
{
	if (!res->per_task)
		return;
	if (res->tasks_lost)
		diag_note("%s%llu record%s of the command's tasks did not fit in pstat's ring buffer: the counts of the tasks they told of are in the command's row (%s); the totals are whole",
			  res->tasks_full ? "at least " : "",
			  (unsigned long long)res->tasks_lost,
			  res->tasks_lost == 1 ? "" : "s",
			  res->aggr ? res->aggr->label[0] : "its first");
	else if (res->tasks_full)
		diag_note("pstat's ring buffer filled up: records of the command's tasks may not have fit, and the counts of the tasks they told of be in the command's row (%s); the totals are whole",
			  res->aggr ? res->aggr->label[0] : "its first");
	if (res->tasks_unended)
		diag_note("%zu task%s of the command had not ended when it did (or %s end was lost): %s counts so far are in the command's row",
			  res->tasks_unended, res->tasks_unended == 1 ? "" : "s",
			  res->tasks_unended == 1 ? "its" : "their",
			  res->tasks_unended == 1 ? "its" : "their");
}

void notes_counted(const struct results *res)
{
	const struct evlist *el = res->el;
	char names[512], group[512];
	size_t i, j, used = 0;
	struct evlist_group g;
	unsigned char *ran;

	if (!diag_notes_on() || !res->enabled)
		return;
	note_tasks(res);
	ran = never_ran(res);
	if (!ran)
		return;
	names[0] = '\0';
	for (i = 0; i < evlist_count(el); i = g.first + g.n) {
		g = evlist_group_of(el, i);
		if (group_never_ran(res, ran, &g, group, sizeof(group))) {
			diag_note("the group %s: <not counted>: the PMU never had counters for all of it at once (pinned events, the NMI watchdog or other tools held some); make it smaller, or count its events without braces",
				  group);
			continue;
		}
		for (j = g.first; j < g.first + g.n; j++)
			if (ran[j] == RAN_NEVER)
				append(names, sizeof(names), &used, "%s%s",
				       used ? ", " : "",
				       evsel_name(evlist_at(el, j)));
	}
	free(ran);
	if (names[0])
		diag_note("%s: <not counted>: the PMU had no counter free for %s (more events than counters, and the command ended before %s turn came; or pinned events held them)",
			  names, strchr(names, ',') ? "them" : "it",
			  strchr(names, ',') ? "their" : "its");
}

/* Say so when a run of several fails, as its status will be pstat's. */
static void note_failed_run(const char *command, size_t run, size_t of,
			    int status)
{
	char name[16];

	char runs[64];

	if (of == 1 || (WIFEXITED(status) && !WEXITSTATUS(status)))
		return;
	if (of)
		snprintf(runs, sizeof(runs), "run %zu of %zu", run + 1, of);
	else
		snprintf(runs, sizeof(runs), "run %zu", run + 1);
	if (WIFEXITED(status))
		diag_note("%s: '%s' exited with status %d", runs, command,
			  WEXITSTATUS(status));
	else
		diag_note("%s: '%s' was killed by %s", runs, command,
			  output_signal_name(WTERMSIG(status), name,
					     sizeof(name)));
}

void notes_run_ended(void *arg, size_t run, size_t of, int status,
		     int signalled, bool left_out)
{
	char *const *argv = arg;
	char name[16];

	/* A run cut short and kept is the last: its status says it all. */
	if (left_out && !of)
		diag_note("run %zu was cut short by %s: it is left out of the means",
			  run + 1,
			  output_signal_name(signalled, name, sizeof(name)));
	else if (left_out)
		diag_note("run %zu of %zu was cut short by %s: it is left out of the means",
			  run + 1, of,
			  output_signal_name(signalled, name, sizeof(name)));
	else if (!signalled && argv)
		note_failed_run(argv[0], run, of, status);
}

void notes_unmatched(void *arg, const char *cmd, const char *name)
{
	(void)arg;
	diag_note("--control: '%s %s': no event is named '%s', so nothing changed (the names are those the results show); it is answered all the same",
		  cmd, name, name);
}

void notes_regions(const struct regions *rs)
{
	size_t i, open = 0, unmatched = 0;
	const char *first_open = NULL, *first_unmatched = NULL;

	if (!rs)
		return;
	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].open && !open++)
			first_open = rs->r[i].name;
		if (rs->r[i].unmatched && !unmatched++)
			first_unmatched = rs->r[i].name;
	}
	if (open)
		diag_note("--regions: %zu region%s ('%s'%s) %s still open when the command ended: %s counted up to its end",
			  open, open == 1 ? "" : "s", first_open,
			  open > 1 ? " and others" : "",
			  open == 1 ? "was" : "were",
			  open == 1 ? "it is" : "they are");
	if (unmatched)
		diag_note("--regions: 'end' of %zu region%s ('%s'%s) that %s not open: ignored (each 'end NAME' closes one 'begin NAME')",
			  unmatched, unmatched == 1 ? "" : "s", first_unmatched,
			  unmatched > 1 ? " and others" : "",
			  unmatched == 1 ? "was" : "were");
	if (rs->dropped)
		diag_note("--regions: marks of %" PRIu64 " region%s beyond the first %d names were not counted",
			  rs->dropped, rs->dropped == 1 ? "" : "s",
			  REGIONS_MAX);
}
