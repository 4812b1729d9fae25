/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of event_table.c: perf's event names, aliases and typos. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "event_table.h"
#include "unit.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE

/* Every name perf stat -e takes for a hardware or software event. */
static const struct name_row {
	int line;
	const char *name;
	uint32_t type;
	uint64_t config;
} name_rows[] = {
	{ __LINE__, "cpu-cycles", HW, 0 },
	{ __LINE__, "cycles", HW, 0 },
	{ __LINE__, "instructions", HW, 1 },
	{ __LINE__, "cache-references", HW, 2 },
	{ __LINE__, "cache-misses", HW, 3 },
	{ __LINE__, "branch-instructions", HW, 4 },
	{ __LINE__, "branches", HW, 4 },
	{ __LINE__, "branch-misses", HW, 5 },
	{ __LINE__, "bus-cycles", HW, 6 },
	{ __LINE__, "stalled-cycles-frontend", HW, 7 },
	{ __LINE__, "idle-cycles-frontend", HW, 7 },
	{ __LINE__, "stalled-cycles-backend", HW, 8 },
	{ __LINE__, "idle-cycles-backend", HW, 8 },
	{ __LINE__, "ref-cycles", HW, 9 },
	{ __LINE__, "cpu-clock", SW, 0 },
	{ __LINE__, "task-clock", SW, 1 },
	{ __LINE__, "page-faults", SW, 2 },
	{ __LINE__, "faults", SW, 2 },
	{ __LINE__, "context-switches", SW, 3 },
	{ __LINE__, "cs", SW, 3 },
	{ __LINE__, "cpu-migrations", SW, 4 },
	{ __LINE__, "migrations", SW, 4 },
	{ __LINE__, "minor-faults", SW, 5 },
	{ __LINE__, "major-faults", SW, 6 },
	{ __LINE__, "alignment-faults", SW, 7 },
	{ __LINE__, "emulation-faults", SW, 8 },
	{ __LINE__, "dummy", SW, 9 },
	{ __LINE__, "bpf-output", SW, 10 },
	{ __LINE__, "cgroup-switches", SW, 11 },
	/* perf's tool events: pstat counts them, on the dummy. */
	{ __LINE__, "duration_time", SW, 9 },
	{ __LINE__, "user_time", SW, 9 },
	{ __LINE__, "system_time", SW, 9 },
};

START_TEST(test_find)
{
	const struct name_row *t = &name_rows[_i];
	const struct event_def *d = event_table_find(t->name, strlen(t->name));

	ck_assert_msg(d != NULL, "line %d: '%s' not found", t->line, t->name);
	ck_assert_msg(strcmp(d->name, t->name) == 0,
		      "line %d: '%s' found as '%s'", t->line, t->name, d->name);
	ck_assert_msg(d->type == t->type && d->config == t->config,
		      "line %d: '%s' is %u/%ju, want %u/%ju", t->line, t->name,
		      d->type, (uintmax_t)d->config, t->type,
		      (uintmax_t)t->config);
}
END_TEST

/* The table has no row this test does not know the meaning of. */
START_TEST(test_all_known)
{
	size_t n, i;
	const struct event_def *all = event_table_all(&n);
	int j;

	ck_assert_uint_eq(n, N_ROWS(name_rows));
	for (i = 0; i < n; i++) {
		for (j = 0; j < N_ROWS(name_rows); j++)
			if (strcmp(all[i].name, name_rows[j].name) == 0)
				break;
		ck_assert_msg(j < N_ROWS(name_rows), "row '%s' untested",
			      all[i].name);
		ck_assert_msg(all[i].type == name_rows[j].type &&
			      all[i].config == name_rows[j].config,
			      "line %d: row '%s' disagrees", name_rows[j].line,
			      all[i].name);
	}
}
END_TEST

static const struct miss_row {
	int line;
	const char *name;
	size_t len;
} miss_rows[] = {
	{ __LINE__, "cycle", 5 },
	{ __LINE__, "task-clock2", 11 },
	{ __LINE__, "cyclesx", 7 },
	{ __LINE__, "-cycles", 7 },
	{ __LINE__, "c", 1 },
	{ __LINE__, "", 0 },
	{ __LINE__, "CYCLES", 6 },
	{ __LINE__, "cycles ", 7 },
	/* The length bounds the name: a prefix of a longer spec. */
	{ __LINE__, "cycles", 5 },
};

START_TEST(test_find_miss)
{
	const struct miss_row *t = &miss_rows[_i];
	const struct event_def *d = event_table_find(t->name, t->len);

	ck_assert_msg(d == NULL, "line %d: '%.*s' matched '%s'", t->line,
		      (int)t->len, t->name, d ? d->name : "");
}
END_TEST

/* Only the first len bytes are the name. */
START_TEST(test_find_len)
{
	const struct event_def *d = event_table_find("cycles:u,instructions",
						     6);

	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->name, "cycles");
	d = event_table_find("task-clockwork", 10);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->name, "task-clock");
}
END_TEST

static const struct suggest_row {
	int line;
	const char *typo;
	size_t len;
	const char *want;	/* NULL: not a typo of anything */
} suggest_rows[] = {
	{ __LINE__, "cylces", 6, "cycles" },
	{ __LINE__, "TASK-CLOCK", 10, "task-clock" },
	{ __LINE__, "Cycles", 6, "cycles" },
	{ __LINE__, "pagefaults", 10, "page-faults" },
	{ __LINE__, "instrucitons", 12, "instructions" },
	{ __LINE__, "cache-mises", 11, "cache-misses" },
	{ __LINE__, "branch-miss", 11, "branch-misses" },
	{ __LINE__, "cylces:u", 6, "cycles" },
	{ __LINE__, "zzzzzzzz", 8, NULL },
	{ __LINE__, "", 0, NULL },
	{ __LINE__, "x", 1, NULL },
	{ __LINE__, "syscalls", 8, NULL },
};

START_TEST(test_suggest)
{
	const struct suggest_row *t = &suggest_rows[_i];
	const char *got = event_table_suggest(t->typo, t->len);

	if (!t->want) {
		ck_assert_msg(got == NULL, "line %d: '%.*s' suggests '%s'",
			      t->line, (int)t->len, t->typo, got);
		return;
	}
	ck_assert_msg(got && strcmp(got, t->want) == 0,
		      "line %d: '%.*s' suggests '%s', want '%s'", t->line,
		      (int)t->len, t->typo, got ? got : "(null)", t->want);
}
END_TEST

/* An alias names a canonical row, above it, counting the same thing. */
START_TEST(test_aliases)
{
	size_t n, i, j;
	const struct event_def *all = event_table_all(&n);

	for (i = 0; i < n; i++) {
		const struct event_def *c;

		if (!all[i].alias_of)
			continue;
		c = event_table_find(all[i].alias_of, strlen(all[i].alias_of));
		ck_assert_msg(c != NULL, "'%s' is an alias of missing '%s'",
			      all[i].name, all[i].alias_of);
		ck_assert_msg(c->alias_of == NULL, "'%s' aliases alias '%s'",
			      all[i].name, c->name);
		ck_assert_msg(c->type == all[i].type &&
			      c->config == all[i].config,
			      "'%s' counts other than its '%s'", all[i].name,
			      c->name);
		ck_assert_msg(c < &all[i], "'%s' listed before its '%s'",
			      all[i].name, c->name);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			ck_assert_msg(strcmp(all[i].name, all[j].name) != 0,
				      "'%s' twice", all[i].name);
}
END_TEST

/* Two canonical names never count the same thing. */
START_TEST(test_canonical_unique)
{
	size_t n, i, j;
	const struct event_def *all = event_table_all(&n);

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			ck_assert_msg(all[i].alias_of || all[j].alias_of ||
				      all[i].tool != all[j].tool ||
				      all[i].type != all[j].type ||
				      all[i].config != all[j].config,
				      "'%s' and '%s' are both canonical",
				      all[i].name, all[j].name);
}
END_TEST

/*
 * perf's hardware cache spellings (tools/perf/util/evsel.c), written out
 * again here so that the table is checked against something else.
 */
#define MAX_SPELLINGS 5

#define READ	PERF_COUNT_HW_CACHE_OP_READ
#define WRITE	PERF_COUNT_HW_CACHE_OP_WRITE
#define PREFETCH PERF_COUNT_HW_CACHE_OP_PREFETCH
#define ACCESS	PERF_COUNT_HW_CACHE_RESULT_ACCESS
#define MISS	PERF_COUNT_HW_CACHE_RESULT_MISS

/* perf allows L1I read and prefetch, ITLB and BPU read only. */
#define R	(1u << READ)
#define RP	(1u << READ | 1u << PREFETCH)
#define RWP	(1u << READ | 1u << WRITE | 1u << PREFETCH)

static const struct cache_spelling {
	uint64_t id;
	unsigned ops;		/* the operations perf allows, by bit */
	const char *names[MAX_SPELLINGS];
} cache_spellings[] = {
	{ PERF_COUNT_HW_CACHE_L1D, RWP,
	  { "L1-dcache", "l1-d", "l1d", "L1-data" } },
	{ PERF_COUNT_HW_CACHE_L1I, RP,
	  { "L1-icache", "l1-i", "l1i", "L1-instruction" } },
	{ PERF_COUNT_HW_CACHE_LL, RWP, { "LLC", "L2" } },
	{ PERF_COUNT_HW_CACHE_DTLB, RWP, { "dTLB", "d-tlb", "Data-TLB" } },
	{ PERF_COUNT_HW_CACHE_ITLB, R,
	  { "iTLB", "i-tlb", "Instruction-TLB" } },
	{ PERF_COUNT_HW_CACHE_BPU, R,
	  { "branch", "branches", "bpu", "btb", "bpc" } },
	{ PERF_COUNT_HW_CACHE_NODE, RWP, { "node" } },
};

/* Each spelling of an operation or result; "" leaves it out. */
static const struct spelling {
	const char *name;
	uint64_t id;
} op_spellings[] = {
	{ "", READ },
	{ "load", READ }, { "loads", READ }, { "read", READ },
	{ "store", WRITE }, { "stores", WRITE }, { "write", WRITE },
	{ "prefetch", PREFETCH }, { "prefetches", PREFETCH },
	{ "speculative-read", PREFETCH }, { "speculative-load", PREFETCH },
}, result_spellings[] = {
	{ "", ACCESS },
	{ "refs", ACCESS }, { "Reference", ACCESS }, { "ops", ACCESS },
	{ "access", ACCESS },
	{ "misses", MISS }, { "miss", MISS },
};

/* name, or its upper- or lower-case copy, through event_table_cache. */
static void check_cache(const char *name, int folding, int want_ret,
			uint64_t want)
{
	char buf[96];
	uint64_t config = 0x5555;
	size_t i;
	int ret;

	for (i = 0; name[i] && i < sizeof(buf) - 1; i++)
		buf[i] = folding > 0 ? (char)toupper((unsigned char)name[i]) :
			 folding < 0 ? (char)tolower((unsigned char)name[i]) :
			 name[i];
	buf[i] = '\0';
	ret = event_table_cache(buf, strlen(buf), &config);
	ck_assert_msg(ret == want_ret, "'%s' returned %d, want %d", buf, ret,
		      want_ret);
	if (want_ret == 0)
		ck_assert_msg(config == want, "'%s' is %#jx, want %#jx", buf,
			      (uintmax_t)config, (uintmax_t)want);
	else
		ck_assert_msg(config == 0x5555, "'%s' failed yet set config",
			      buf);
}

/*
 * <cache>[-<op>][-<result>] for every cache, every spelling of it, every
 * operation (or none: a read) and every result (or none: an access), in
 * perf's case, upper case and lower case.
 */
START_TEST(test_cache_every_combination)
{
	const struct cache_spelling *c = &cache_spellings[_i];
	int a, o, r, fold, checked = 0;
	char name[96];

	for (a = 0; a < MAX_SPELLINGS && c->names[a]; a++) {
		for (o = 0; o < N_ROWS(op_spellings); o++) {
			const struct spelling *op = &op_spellings[o];
			int ret = (c->ops >> op->id) & 1 ? 0 : -EOPNOTSUPP;

			for (r = 0; r < N_ROWS(result_spellings); r++) {
				const struct spelling *res;

				res = &result_spellings[r];

				snprintf(name, sizeof(name), "%s%s%s%s%s",
					 c->names[a], *op->name ? "-" : "",
					 op->name, *res->name ? "-" : "",
					 res->name);
				for (fold = -1; fold <= 1; fold++)
					check_cache(name, fold, ret,
						    c->id | op->id << 8 |
						    res->id << 16);
				checked++;
			}
		}
	}
	ck_assert_int_eq(checked, a * N_ROWS(op_spellings) *
				  N_ROWS(result_spellings));
}
END_TEST

static const struct cache_row {
	int line;
	const char *name;
	size_t len;		/* 0: strlen(name) */
	int ret;
	uint64_t config;
} cache_rows[] = {
	{ __LINE__, "L1-dcache-load-misses", 0, 0, 0x10000 },
	{ __LINE__, "L1-dcache-loads", 0, 0, 0 },
	{ __LINE__, "LLC-prefetch-misses", 0, 0, 0x10202 },
	{ __LINE__, "dTLB-store-misses", 0, 0, 0x10103 },
	{ __LINE__, "iTLB-load-misses", 0, 0, 0x10004 },
	{ __LINE__, "branch-loads", 0, 0, 0x5 },
	{ __LINE__, "node-stores", 0, 0, 0x106 },
	/* perf takes the result before the operation too. */
	{ __LINE__, "L1-dcache-misses-load", 0, 0, 0x10000 },
	{ __LINE__, "L1-dcache-Reference-speculative-load", 0, 0, 0x200 },
	{ __LINE__, "LLC-miss-store", 0, 0, 0x10102 },
	/* The length bounds the name. */
	{ __LINE__, "L1-dcache-loads,cycles", 15, 0, 0 },
	{ __LINE__, "LLC-load-misses:u", 15, 0, 0x10002 },
	{ __LINE__, "LLC-load-misses", 8, 0, 0x2 },
	{ __LINE__, "LLC-load-misses", 3, 0, 0x2 },

	{ __LINE__, "L1-icache-stores", 0, -EOPNOTSUPP, 0 },
	{ __LINE__, "L1-icache-store-misses", 0, -EOPNOTSUPP, 0 },
	{ __LINE__, "iTLB-stores", 0, -EOPNOTSUPP, 0 },
	{ __LINE__, "iTLB-prefetches", 0, -EOPNOTSUPP, 0 },
	{ __LINE__, "branch-stores", 0, -EOPNOTSUPP, 0 },
	{ __LINE__, "bpu-prefetch-misses", 0, -EOPNOTSUPP, 0 },

	{ __LINE__, "L1-dcache-foo", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-load-load", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-load-store", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-misses-misses", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-misses-refs", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-load-misses-x", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-load-misses-", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-", 0, -ENOENT, 0 },
	{ __LINE__, "LLC--load", 0, -ENOENT, 0 },
	{ __LINE__, "LLCx", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-loadsx", 0, -ENOENT, 0 },
	{ __LINE__, "L1-dcachex-loads", 0, -ENOENT, 0 },
	{ __LINE__, "L1", 0, -ENOENT, 0 },
	{ __LINE__, "L3-loads", 0, -ENOENT, 0 },
	{ __LINE__, "cycles", 0, -ENOENT, 0 },
	{ __LINE__, "loads", 0, -ENOENT, 0 },
	{ __LINE__, "-LLC", 0, -ENOENT, 0 },
	{ __LINE__, "", 0, -ENOENT, 0 },
	{ __LINE__, "LLC-load-misses", 2, -ENOENT, 0 },
	{ __LINE__, "LLC-load-misses", 4, -ENOENT, 0 },
};

START_TEST(test_cache)
{
	const struct cache_row *t = &cache_rows[_i];
	size_t len = t->len ? t->len : strlen(t->name);
	uint64_t config = 0x5555;
	int ret = event_table_cache(t->name, len, &config);

	ck_assert_msg(ret == t->ret, "line %d: '%.*s' returned %d, want %d",
		      t->line, (int)len, t->name, ret, t->ret);
	ck_assert_msg(config == (ret == 0 ? t->config : 0x5555),
		      "line %d: '%.*s' is %#jx, want %#jx", t->line, (int)len,
		      t->name, (uintmax_t)config, (uintmax_t)t->config);
}
END_TEST

/* perf list's names of the cache events, in its order. */
static const char *const cache_list[] = {
	"L1-dcache-loads", "L1-dcache-load-misses",
	"L1-dcache-stores", "L1-dcache-store-misses",
	"L1-dcache-prefetches", "L1-dcache-prefetch-misses",
	"L1-icache-loads", "L1-icache-load-misses",
	"L1-icache-prefetches", "L1-icache-prefetch-misses",
	"LLC-loads", "LLC-load-misses",
	"LLC-stores", "LLC-store-misses",
	"LLC-prefetches", "LLC-prefetch-misses",
	"dTLB-loads", "dTLB-load-misses",
	"dTLB-stores", "dTLB-store-misses",
	"dTLB-prefetches", "dTLB-prefetch-misses",
	"iTLB-loads", "iTLB-load-misses",
	"branch-loads", "branch-load-misses",
	"node-loads", "node-load-misses",
	"node-stores", "node-store-misses",
	"node-prefetches", "node-prefetch-misses",
};

/* Each listed name reads back as the config it was listed with. */
START_TEST(test_cache_at)
{
	char buf[64];
	uint64_t config, again, seen[64];
	size_t i, j;

	for (i = 0; event_table_cache_at(i, buf, sizeof(buf), &config) == 0;
	     i++) {
		ck_assert_uint_lt(i, N_ROWS(cache_list));
		ck_assert_msg(strcmp(buf, cache_list[i]) == 0,
			      "cache event %zu is '%s', want '%s'", i, buf,
			      cache_list[i]);
		ck_assert_msg(event_table_cache(buf, strlen(buf), &again) == 0,
			      "'%s' does not parse", buf);
		ck_assert_msg(again == config,
			      "'%s' listed as %#jx, reads %#jx", buf,
			      (uintmax_t)config, (uintmax_t)again);
		for (j = 0; j < i; j++)
			ck_assert_msg(seen[j] != config, "'%s' listed twice",
				      buf);
		seen[i] = config;
	}
	ck_assert_uint_eq(i, N_ROWS(cache_list));
	ck_assert_int_eq(event_table_cache_at(i + 1, buf, sizeof(buf),
					      &config), -ENOENT);
	ck_assert_int_eq(event_table_cache_at((size_t)-1, buf, sizeof(buf),
					      &config), -ENOENT);
}
END_TEST

/* Cache names are suggested for their typos too. */
static const struct suggest_row cache_suggest_rows[] = {
	{ __LINE__, "L1-dcache-lods", 14, "L1-dcache-loads" },
	{ __LINE__, "LLC-load-mises", 14, "LLC-load-misses" },
	{ __LINE__, "dTLB-load-missses", 17, "dTLB-load-misses" },
};

START_TEST(test_cache_suggest)
{
	const struct suggest_row *t = &cache_suggest_rows[_i];
	const char *got = event_table_suggest(t->typo, t->len);

	ck_assert_msg(got && strcmp(got, t->want) == 0,
		      "line %d: '%.*s' suggests '%s', want '%s'", t->line,
		      (int)t->len, t->typo, got ? got : "(null)", t->want);
}
END_TEST

/* Every name of an -e list is one the tables know, and none repeats. */
static void check_set(const char *set, char seen[][64], size_t *n_seen)
{
	const char *name = set, *end;
	uint64_t config;
	size_t len, i;

	ck_assert_ptr_nonnull(set);
	for (; *name; name = *end ? end + 1 : end) {
		end = strchr(name, ',');
		if (!end)
			end = name + strlen(name);
		len = (size_t)(end - name);
		ck_assert_msg(len > 0 && len < 64, "empty or long name in '%s'",
			      set);
		ck_assert_msg(event_table_find(name, len) ||
			      event_table_cache(name, len, &config) == 0,
			      "'%.*s' is no known event", (int)len, name);
		for (i = 0; i < *n_seen; i++)
			ck_assert_msg(strlen(seen[i]) != len ||
				      memcmp(seen[i], name, len) != 0,
				      "'%.*s' twice", (int)len, name);
		ck_assert_uint_lt(*n_seen, 32);
		memcpy(seen[*n_seen], name, len);
		seen[(*n_seen)++][len] = '\0';
	}
}

/* perf stat's sets, name for name: scripts compare their rows. */
START_TEST(test_sets)
{
	char seen[32][64];
	size_t n = 0;
	int level;

	ck_assert_str_eq(event_table_default_set(),
			 "task-clock,context-switches,cpu-migrations,"
			 "page-faults,cycles,instructions,branches,"
			 "branch-misses");
	check_set(event_table_default_set(), seen, &n);
	ck_assert_uint_eq(n, 8);
	ck_assert_str_eq(event_table_detailed_set(1),
			 "L1-dcache-loads,L1-dcache-load-misses,LLC-loads,"
			 "LLC-load-misses");
	for (level = 1; level <= 3; level++)
		check_set(event_table_detailed_set(level), seen, &n);
	ck_assert_uint_eq(n, 8 + 4 + 6 + 2);
	ck_assert_ptr_null(event_table_detailed_set(0));
	ck_assert_ptr_null(event_table_detailed_set(-1));
	ck_assert_ptr_null(event_table_detailed_set(4));
}
END_TEST

static Suite *event_table_suite(void)
{
	Suite *s = suite_create("event_table");
	TCase *tc;

	tc = tcase_create("find");
	tcase_add_loop_test(tc, test_find, 0, N_ROWS(name_rows));
	tcase_add_test(tc, test_all_known);
	tcase_add_loop_test(tc, test_find_miss, 0, N_ROWS(miss_rows));
	tcase_add_test(tc, test_find_len);
	suite_add_tcase(s, tc);

	tc = tcase_create("suggest");
	tcase_add_loop_test(tc, test_suggest, 0, N_ROWS(suggest_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("aliases");
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_canonical_unique);
	suite_add_tcase(s, tc);

	tc = tcase_create("cache");
	tcase_add_loop_test(tc, test_cache_every_combination, 0,
			    N_ROWS(cache_spellings));
	tcase_add_loop_test(tc, test_cache, 0, N_ROWS(cache_rows));
	tcase_add_test(tc, test_cache_at);
	tcase_add_loop_test(tc, test_cache_suggest, 0,
			    N_ROWS(cache_suggest_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("sets");
	tcase_add_test(tc, test_sets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(event_table_suite());
}
