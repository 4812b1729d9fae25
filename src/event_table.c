/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The static tables of named events: hardware and software, with aliases. */
#include "config.h"

#include <ctype.h>
#include <string.h>
#include <linux/perf_event.h>

#include "event_table.h"

#define HW(n, c)	{ .name = n, .type = PERF_TYPE_HARDWARE, \
			  .config = PERF_COUNT_HW_##c }
#define HW_ALIAS(n, c, a) { .name = n, .type = PERF_TYPE_HARDWARE, \
			  .config = PERF_COUNT_HW_##c, .alias_of = a }
#define SW(n, c)	{ .name = n, .type = PERF_TYPE_SOFTWARE, \
			  .config = PERF_COUNT_SW_##c }
#define SW_ALIAS(n, c, a) { .name = n, .type = PERF_TYPE_SOFTWARE, \
			  .config = PERF_COUNT_SW_##c, .alias_of = a }

/* perf's names (tools/perf/util/parse-events.c, event_symbols_*). */
static const struct event_def events[] = {
	HW("cpu-cycles", CPU_CYCLES),
	HW_ALIAS("cycles", CPU_CYCLES, "cpu-cycles"),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branch-instructions", BRANCH_INSTRUCTIONS),
	HW_ALIAS("branches", BRANCH_INSTRUCTIONS, "branch-instructions"),
	HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW_ALIAS("idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
		 "stalled-cycles-frontend"),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	HW_ALIAS("idle-cycles-backend", STALLED_CYCLES_BACKEND,
		 "stalled-cycles-backend"),
	HW("ref-cycles", REF_CPU_CYCLES),

	SW("cpu-clock", CPU_CLOCK),
	SW("task-clock", TASK_CLOCK),
	SW("page-faults", PAGE_FAULTS),
	SW_ALIAS("faults", PAGE_FAULTS, "page-faults"),
	SW("context-switches", CONTEXT_SWITCHES),
	SW_ALIAS("cs", CONTEXT_SWITCHES, "context-switches"),
	SW("cpu-migrations", CPU_MIGRATIONS),
	SW_ALIAS("migrations", CPU_MIGRATIONS, "cpu-migrations"),
	SW("minor-faults", PAGE_FAULTS_MIN),
	SW("major-faults", PAGE_FAULTS_MAJ),
	SW("alignment-faults", ALIGNMENT_FAULTS),
	SW("emulation-faults", EMULATION_FAULTS),
	SW("dummy", DUMMY),
	SW("bpf-output", BPF_OUTPUT),
	SW("cgroup-switches", CGROUP_SWITCHES),
};

#define N_EVENTS (sizeof(events) / sizeof(events[0]))

const struct event_def *event_table_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < N_EVENTS; i++)
		if (strlen(events[i].name) == len &&
		    memcmp(events[i].name, name, len) == 0)
			return &events[i];
	return NULL;
}

const struct event_def *event_table_all(size_t *n)
{
	*n = N_EVENTS;
	return events;
}

/* Levenshtein distance, ignoring case, of two short strings. */
static size_t distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), row[64], i, j;

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], up;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) ==
				   tolower((unsigned char)b[j - 1]);
			size_t best = diag + !same;

			up = row[j];
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *event_table_suggest(const char *name, size_t len)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, i;

	for (i = 0; i < N_EVENTS; i++) {
		size_t d = distance(name, len, events[i].name);

		if (d < best_d) {
			best_d = d;
			best = events[i].name;
		}
	}
	/* A third of the name may be wrong before it stops being a typo. */
	return best && best_d <= (len + 2) / 3 ? best : NULL;
}
