/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The static tables of named events: hardware and software, with
 * aliases; perf stat's default and -d event sets.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>

#include "event_table.h"

/* A row: its name, the name's length, then the rest. */
#define ROW(n)		.name = (n), .len = sizeof(n) - 1
#define HW(n, c)	{ ROW(n), .type = PERF_TYPE_HARDWARE, \
			  .config = PERF_COUNT_HW_##c }
#define HW_ALIAS(n, c, a) { ROW(n), .type = PERF_TYPE_HARDWARE, \
			  .config = PERF_COUNT_HW_##c, .alias_of = (a) }
#define SW(n, c)	{ ROW(n), .type = PERF_TYPE_SOFTWARE, \
			  .config = PERF_COUNT_SW_##c }
#define SW_ALIAS(n, c, a) { ROW(n), .type = PERF_TYPE_SOFTWARE, \
			  .config = PERF_COUNT_SW_##c, .alias_of = (a) }

#define TOOL(n, t)	{ ROW(n), .type = PERF_TYPE_SOFTWARE, \
			  .config = PERF_COUNT_SW_DUMMY, .tool = (t) }

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

	/* perf's tool events (tools/perf/util/evsel.c, perf_tool_event). */
	TOOL("duration_time", EVENT_TOOL_DURATION),
	TOOL("user_time", EVENT_TOOL_USER),
	TOOL("system_time", EVENT_TOOL_SYSTEM),
};

#define N_EVENTS (sizeof(events) / sizeof(events[0]))

const struct event_def *event_table_find(const char *name, size_t len)
{
	size_t i;

	/* The length first: it rules out all rows but a few. */
	for (i = 0; i < N_EVENTS; i++)
		if (events[i].len == len &&
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
	static char cache_name[64];
	const char *best = NULL;
	size_t best_d = (size_t)-1, i, d;
	uint64_t config;
	char buf[64];

	for (i = 0; i < N_EVENTS; i++) {
		d = distance(name, len, events[i].name);
		if (d < best_d) {
			best_d = d;
			best = events[i].name;
		}
	}
	for (i = 0; event_table_cache_at(i, buf, sizeof(buf), &config) == 0;
	     i++) {
		d = distance(name, len, buf);
		if (d < best_d) {
			best_d = d;
			memcpy(cache_name, buf, sizeof(buf));
			best = cache_name;
		}
	}
	/* A third of the name may be wrong before it stops being a typo. */
	return best && best_d <= (len + 2) / 3 ? best : NULL;
}

/* perf's spellings (tools/perf/util/evsel.c, evsel__hw_cache*). */
#define MAX_ALIASES 5

static const char *const caches[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

/* [0] names a miss, [1] an access, as in "load-misses" and "loads". */
static const char *const ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define OP(x)	(1u << PERF_COUNT_HW_CACHE_OP_##x)

/* The operations each cache has, as perf allows them. */
static const unsigned int cache_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I] = OP(READ) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OP(READ),
	[PERF_COUNT_HW_CACHE_BPU] = OP(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OP(READ) | OP(WRITE) | OP(PREFETCH),
};

/*
 * The row of table whose longest alias starts s[0..len) and ends at a
 * '-' or at the end; its length in *used. -1 when none.
 */
static int match_alias(const char *const table[][MAX_ALIASES], int rows,
		       const char *s, size_t len, size_t *used)
{
	int row, a, best = -1;

	*used = 0;
	for (row = 0; row < rows; row++) {
		for (a = 0; a < MAX_ALIASES && table[row][a]; a++) {
			size_t l = strlen(table[row][a]);

			if (l > len || l <= *used ||
			    strncasecmp(s, table[row][a], l) != 0 ||
			    (l < len && s[l] != '-'))
				continue;
			best = row;
			*used = l;
		}
	}
	return best;
}

int event_table_cache(const char *name, size_t len, uint64_t *config)
{
	size_t used, pos;
	int cache, op = -1, result = -1, m;

	cache = match_alias(caches, PERF_COUNT_HW_CACHE_MAX, name, len, &used);
	if (cache < 0)
		return -ENOENT;
	for (pos = used; pos < len; pos += used) {
		pos++;	/* the '-' */
		m = op < 0 ? match_alias(ops, PERF_COUNT_HW_CACHE_OP_MAX,
					 name + pos, len - pos, &used) : -1;
		if (m >= 0) {
			op = m;
			continue;
		}
		m = result < 0 ? match_alias(results,
					     PERF_COUNT_HW_CACHE_RESULT_MAX,
					     name + pos, len - pos, &used) : -1;
		if (m < 0)
			return -ENOENT;
		result = m;
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(cache_ops[cache] & (1u << op)))
		return -EOPNOTSUPP;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)result << 16;
	return 0;
}

int event_table_cache_at(size_t i, char *buf, size_t len, uint64_t *config)
{
	int cache, op, result;

	for (cache = 0; cache < PERF_COUNT_HW_CACHE_MAX; cache++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_ops[cache] & (1u << op)))
				continue;
			for (result = 0; result < 2; result++) {
				if (i--)
					continue;
				if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(buf, len, "%s-%s",
						 caches[cache][0], ops[op][1]);
				else
					snprintf(buf, len, "%s-%s-%s",
						 caches[cache][0], ops[op][0],
						 results[result][0]);
				*config = (uint64_t)cache |
					  (uint64_t)op << 8 |
					  (uint64_t)result << 16;
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* perf stat's default set (tools/perf/builtin-stat.c). */
static const char default_set[] =
	"task-clock,context-switches,cpu-migrations,page-faults,"
	"cycles,instructions,branches,branch-misses";

/* perf stat's -d, -dd and -ddd: each adds to the one before. */
static const char *const detailed_sets[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	 "iTLB-loads,iTLB-load-misses"),
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

const char *event_table_default_set(void)
{
	return default_set;
}

const char *event_table_detailed_set(int level)
{
	size_t n = sizeof(detailed_sets) / sizeof(detailed_sets[0]);

	return level >= 1 && (size_t)level <= n ? detailed_sets[level - 1]
						 : NULL;
}
