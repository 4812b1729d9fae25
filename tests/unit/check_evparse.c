/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of evparse.c: the -e grammar, its errors and tracepoints. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include <check.h>

#include "evlist.h"
#include "evsel_impl.h"
#include "evparse.h"
#include "fake_sysfs.h"
#include "pmu.h"
#include "unit.h"

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define TP PERF_TYPE_TRACEPOINT
#define CACHE PERF_TYPE_HW_CACHE
#define RAW PERF_TYPE_RAW
#define BP PERF_TYPE_BREAKPOINT
#define MAX_EVENTS 4

struct want_event {
	const char *name;
	size_t group;
	uint32_t type;
	uint64_t config;
	unsigned eu, ek, eh;	/* exclude_user, _kernel, _hv */
};

struct good_row {
	int line;
	const char *spec;
	size_t n;
	struct want_event ev[MAX_EVENTS];
};

static const struct good_row good_rows[] = {
	{ __LINE__, "cycles", 1, {
		{ "cycles", 0, HW, 0, 0, 0, 0 } } },
	{ __LINE__, "cycles,instructions", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 1, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "task-clock:u", 1, {
		{ "task-clock:u", 0, SW, 1, 0, 1, 1 } } },
	{ __LINE__, "cycles:k", 1, {
		{ "cycles:k", 0, HW, 0, 1, 0, 1 } } },
	{ __LINE__, "cycles:uk", 1, {
		{ "cycles:uk", 0, HW, 0, 0, 0, 1 } } },
	{ __LINE__, "cycles:h", 1, {
		{ "cycles:h", 0, HW, 0, 1, 1, 0 } } },
	{ __LINE__, "cycles:ukh", 1, {
		{ "cycles:ukh", 0, HW, 0, 0, 0, 0 } } },
	{ __LINE__, "cycles:uu", 1, {
		{ "cycles:uu", 0, HW, 0, 0, 1, 1 } } },
	{ __LINE__, "{cycles,instructions}", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 0, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "{cycles,instructions}:u", 2, {
		{ "cycles:u", 0, HW, 0, 0, 1, 1 },
		{ "instructions:u", 0, HW, 1, 0, 1, 1 } } },
	/* perf merges a group's letters into what a member already has. */
	{ __LINE__, "{cycles:k,instructions}:u", 2, {
		{ "cycles:ku", 0, HW, 0, 0, 0, 1 },
		{ "instructions:u", 0, HW, 1, 0, 1, 1 } } },
	{ __LINE__, "cs,{task-clock,faults},migrations", 4, {
		{ "cs", 0, SW, 3, 0, 0, 0 },
		{ "task-clock", 1, SW, 1, 0, 0, 0 },
		{ "faults", 1, SW, 2, 0, 0, 0 },
		{ "migrations", 2, SW, 4, 0, 0, 0 } } },
	{ __LINE__, "{cycles},{instructions}", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 1, HW, 1, 0, 0, 0 } } },
	{ __LINE__, " cycles , instructions ", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 1, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "{ cycles , instructions }", 2, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "instructions", 0, HW, 1, 0, 0, 0 } } },
	{ __LINE__, "cpu-cycles,branches,ref-cycles,cpu-clock", 4, {
		{ "cpu-cycles", 0, HW, 0, 0, 0, 0 },
		{ "branches", 1, HW, 4, 0, 0, 0 },
		{ "ref-cycles", 2, HW, 9, 0, 0, 0 },
		{ "cpu-clock", 3, SW, 0, 0, 0, 0 } } },
};

/* Parse spec into a fresh evlist and compare it with the row. */
static void check_good(const struct good_row *t)
{
	struct evlist *el = evlist_new();
	struct error err = { 0 };
	size_t i;
	int ret;

	ck_assert_ptr_nonnull(el);
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == 0, "line %d: '%s' returned %d: col %zu: %s",
		      t->line, t->spec, ret, err.col, err.reason);
	ck_assert_msg(evlist_count(el) == t->n, "line %d: '%s': %zu events",
		      t->line, t->spec, evlist_count(el));
	for (i = 0; i < t->n; i++) {
		const struct want_event *w = &t->ev[i];
		const struct evsel *e = evlist_at(el, i);
		const struct perf_event_attr *a = &e->attr;

		ck_assert_msg(strcmp(e->name, w->name) == 0,
			      "line %d: event %zu named '%s', want '%s'",
			      t->line, i, e->name, w->name);
		ck_assert_msg(e->group == w->group,
			      "line %d: '%s' in group %zu, want %zu", t->line,
			      w->name, e->group, w->group);
		ck_assert_msg(a->type == w->type && a->config == w->config,
			      "line %d: '%s' is %u/%ju, want %u/%ju", t->line,
			      w->name, a->type, (uintmax_t)a->config, w->type,
			      (uintmax_t)w->config);
		ck_assert_msg(a->exclude_user == w->eu &&
			      a->exclude_kernel == w->ek &&
			      a->exclude_hv == w->eh,
			      "line %d: '%s' excludes u%u k%u h%u, "
			      "want u%u k%u h%u",
			      t->line, w->name, (unsigned)a->exclude_user,
			      (unsigned)a->exclude_kernel,
			      (unsigned)a->exclude_hv, w->eu, w->ek, w->eh);
		ck_assert_msg(a->size == sizeof(*a), "line %d: attr size %u",
			      t->line, a->size);
	}
	evlist_free(el);
}

START_TEST(test_good)
{
	check_good(&good_rows[_i]);
}
END_TEST

/* Every -e adds to the same list; groups keep counting. */
START_TEST(test_two_specs)
{
	struct evlist *el = evlist_new();
	struct error err;

	ck_assert_int_eq(evparse(el, "cycles", &err), 0);
	ck_assert_int_eq(evparse(el, "{instructions,branches}:u", &err), 0);
	ck_assert_int_eq(evparse(el, "task-clock", &err), 0);
	ck_assert_uint_eq(evlist_count(el), 4);
	ck_assert_uint_eq(evlist_at(el, 0)->group, 0);
	ck_assert_uint_eq(evlist_at(el, 1)->group, 1);
	ck_assert_uint_eq(evlist_at(el, 2)->group, 1);
	ck_assert_uint_eq(evlist_at(el, 3)->group, 2);
	ck_assert_str_eq(evlist_at(el, 0)->name, "cycles");
	ck_assert_str_eq(evlist_at(el, 2)->name, "branches:u");
	ck_assert_uint_eq(evlist_at(el, 0)->attr.exclude_kernel, 0);
	evlist_free(el);
}
END_TEST

struct bad_row {
	int line;
	const char *spec;
	size_t col;
	const char *reason;	/* a substring of err.reason */
	const char *hint;	/* a substring of err.hint, or NULL */
};

static const struct bad_row bad_rows[] = {
	{ __LINE__, "cylces", 0, "unknown event 'cylces'",
	  "did you mean 'cycles'" },
	{ __LINE__, "cycles,cylces", 7, "unknown event 'cylces'",
	  "did you mean 'cycles'" },
	{ __LINE__, "TASK-CLOCK", 0, "unknown event 'TASK-CLOCK'",
	  "did you mean 'task-clock'" },
	{ __LINE__, "zzzzzzzz", 0, "unknown event 'zzzzzzzz'",
	  "pstat --list" },
	{ __LINE__, "cycles:x", 7, "unknown modifier 'x'", NULL },
	{ __LINE__, "task-clock:uz", 12, "unknown modifier 'z'", NULL },
	{ __LINE__, "cycles:", 7, "expected modifiers", NULL },
	{ __LINE__, "{cycles,instructions}:x", 22, "unknown modifier 'x'",
	  NULL },
	{ __LINE__, "{cycles,instructions}:", 22, "expected modifiers", NULL },
	{ __LINE__, "{cycles,instructions", 0, "unclosed '{'", NULL },
	{ __LINE__, "cycles,{instructions", 7, "unclosed '{'", NULL },
	{ __LINE__, "{cycles,{instructions}}", 8, "nested", NULL },
	{ __LINE__, "{cycles;instructions}", 7, "expected ',' or '}'", NULL },
	{ __LINE__, "{}", 1, "expected an event name", NULL },
	{ __LINE__, "", 0, "expected an event name", NULL },
	{ __LINE__, "cycles,", 7, "expected an event name", NULL },
	{ __LINE__, "cycles,,instructions", 7, "unexpected ','", NULL },
	{ __LINE__, ",cycles", 0, "unexpected ','", NULL },
	{ __LINE__, "{,cycles}", 1, "unexpected ','", NULL },
	{ __LINE__, "cycles;", 6, "expected ','", NULL },
	{ __LINE__, "cycles}", 6, "expected ','", NULL },
	{ __LINE__, "cycles instructions", 7, "expected ','", NULL },
	{ __LINE__, "task-clock:u:k", 12, "expected ','", NULL },

	/* Raw events are r and 1 to 16 hexadecimal digits. */
	{ __LINE__, "r", 0, "unknown event 'r'", NULL },
	{ __LINE__, "r0x", 0, "unknown event 'r0x'", NULL },
	{ __LINE__, "r12345678901234567", 0,
	  "unknown event 'r12345678901234567'", NULL },
	{ __LINE__, "r0x12345678901234567", 0, "unknown event", NULL },
	{ __LINE__, "r1a8g", 0, "unknown event 'r1a8g'", NULL },
	{ __LINE__, "rxyz", 0, "unknown event 'rxyz'", NULL },
	{ __LINE__, "R1a8", 0, "unknown event 'R1a8'", NULL },
	{ __LINE__, "task-clock,r0xg", 11, "unknown event 'r0xg'", NULL },

	/* Caches: an operation the cache lacks, or no cache name at all. */
	{ __LINE__, "L1-icache-stores", 0, "that cache has no such operation",
	  "pstat --list cache" },
	{ __LINE__, "task-clock,iTLB-stores:u", 11,
	  "'iTLB-stores': that cache has no such operation", NULL },
	{ __LINE__, "branch-prefetches", 0, "no such operation", NULL },
	{ __LINE__, "LLC-load-load", 0, "unknown event 'LLC-load-load'",
	  NULL },
	{ __LINE__, "L1-dcache-foo", 0, "unknown event 'L1-dcache-foo'", NULL },
	{ __LINE__, "L1-dcache-lods", 0, "unknown event 'L1-dcache-lods'",
	  "did you mean 'L1-dcache-loads'" },

	/* precise_ip is two bits, however the letters are spread. */
	{ __LINE__, "task-clock:pppp", 14, "precise_ip goes up to 3", NULL },
	{ __LINE__, "task-clock:ppp,cs:pppp", 21, "precise_ip goes up to 3",
	  NULL },
	{ __LINE__, "{task-clock:pp}:pp", 17, "precise_ip goes up to 3",
	  NULL },
	{ __LINE__, "{task-clock,cs:ppp}:p", 20, "precise_ip goes up to 3",
	  NULL },

	/* Breakpoints: the caret under the part at fault. */
	{ __LINE__, "mem:0x1000/3", 11, "bad breakpoint length 3",
	  "1, 2, 4 or 8" },
	{ __LINE__, "mem:0x1000/3:w", 11, "bad breakpoint length 3", NULL },
	{ __LINE__, "mem:0x1000/16:rw", 11, "bad breakpoint length 16", NULL },
	{ __LINE__, "mem:0x1000:rr", 12, "bad breakpoint access 'rr'", NULL },
	{ __LINE__, "task-clock,mem:0x1000/8:ww", 25,
	  "bad breakpoint access 'ww'", NULL },
	{ __LINE__, "mem:0x1000/", 11, "expected a number", NULL },
	{ __LINE__, "mem:0x1000:q", 11, "unknown modifier 'q'", NULL },
	{ __LINE__, "mem:0x1000:w:z", 13, "unknown modifier 'z'", NULL },
	{ __LINE__, "mem:0x1000/8:w:", 15, "expected modifiers", NULL },
	{ __LINE__, "mem:99999999999999999999", 4, "number out of range",
	  NULL },
	/* Past ASCII: the whole word, never the name up to it (issue 31). */
	{ __LINE__, "t\xc3\xa2sk-clock", 1,
	  "unknown event 't\xc3\xa2sk-clock': '\xc3\xa2' is not ASCII",
	  "are ASCII" },
	{ __LINE__, "cycles,sys:f\xc3\xb6", 12,
	  "unknown event 'sys:f\xc3\xb6': '\xc3\xb6' is not ASCII", NULL },
	{ __LINE__, "{a,\xe2\x82\xac}:u", 3,
	  "unknown event '\xe2\x82\xac': '\xe2\x82\xac' is not ASCII",
	  NULL },
	{ __LINE__, "\xff", 0, "unknown event '\xff': '\xff' is not ASCII",
	  NULL },
};

/* Parse spec into a fresh evlist and compare the error with the row. */
static void check_bad(const struct bad_row *t)
{
	struct evlist *el = evlist_new();
	struct error err;
	int ret;

	memset(&err, 0x55, sizeof(err));
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == -EINVAL, "line %d: '%s' returned %d", t->line,
		      t->spec, ret);
	ck_assert_msg(memchr(err.reason, '\0', sizeof(err.reason)) &&
		      memchr(err.hint, '\0', sizeof(err.hint)),
		      "line %d: '%s': unterminated error text", t->line,
		      t->spec);
	ck_assert_msg(err.col == t->col, "line %d: '%s': col %zu, want %zu",
		      t->line, t->spec, err.col, t->col);
	ck_assert_msg(strstr(err.reason, t->reason),
		      "line %d: '%s': reason '%s', want '%s'", t->line,
		      t->spec, err.reason, t->reason);
	ck_assert_msg(!t->hint || strstr(err.hint, t->hint),
		      "line %d: '%s': hint '%s', want '%s'", t->line, t->spec,
		      err.hint, t->hint);
	ck_assert_msg(err.spec == t->spec && !err.where[0] && !err.buf,
		      "line %d: '%s': error not about the spec", t->line,
		      t->spec);
	error_fini(&err);
	evlist_free(el);
}

START_TEST(test_bad)
{
	check_bad(&bad_rows[_i]);
}
END_TEST

/* Everything an evsel gets from its spec, attr and evsel alike. */
#define MAX_ATTR_EVENTS 8

enum {
	F_PMAX = 1,		/* evsel->precise_max */
	F_WEAK = 2,		/* evsel->weak */
	F_PINNED = 4,		/* evsel->pinned */
	F_EXCL = 8,		/* evsel->exclusive */
	F_MERGE = 16,		/* evsel->merge_cont */
};

struct attr_want {
	const char *name;
	size_t group;
	uint32_t type;
	uint64_t config, config1, config2;	/* also bp_addr, bp_len */
	unsigned bp_type;
	unsigned eu, ek, eh, eI, eH, eG;	/* exclude_* */
	unsigned pinned, excl, precise;		/* attr bits */
	unsigned flags;				/* F_* */
	const char *instance;			/* NULL: none */
	double scale;				/* 0: 1 */
	const char *unit;			/* NULL: "" */
};

struct attr_row {
	int line;
	const char *spec;
	size_t n;
	struct attr_want ev[MAX_ATTR_EVENTS];
};

#define U64(v)	((uintmax_t)(v))

static void check_attr_event(const struct attr_row *t, size_t i,
			     const struct evsel *e)
{
	const struct attr_want *w = &t->ev[i];
	const struct perf_event_attr *a = &e->attr;
	unsigned flags = (e->precise_max ? F_PMAX : 0) |
			 (e->weak ? F_WEAK : 0) |
			 (e->pinned ? F_PINNED : 0) |
			 (e->exclusive ? F_EXCL : 0) |
			 (e->merge_cont ? F_MERGE : 0);

	ck_assert_msg(strcmp(e->name, w->name) == 0,
		      "line %d: event %zu named '%s', want '%s'", t->line, i,
		      e->name, w->name);
	ck_assert_msg(e->group == w->group, "line %d: '%s' in group %zu, "
		      "want %zu", t->line, w->name, e->group, w->group);
	ck_assert_msg(a->type == w->type && a->config == w->config &&
		      a->config1 == w->config1 && a->config2 == w->config2,
		      "line %d: '%s' is %u/%#jx/%#jx/%#jx, want %u/%#jx/%#jx/"
		      "%#jx", t->line, w->name, a->type, U64(a->config),
		      U64(a->config1), U64(a->config2), w->type,
		      U64(w->config), U64(w->config1), U64(w->config2));
	ck_assert_msg(a->bp_type == w->bp_type, "line %d: '%s' bp_type %u, "
		      "want %u", t->line, w->name, a->bp_type, w->bp_type);
	ck_assert_msg(a->exclude_user == w->eu && a->exclude_kernel == w->ek &&
		      a->exclude_hv == w->eh && a->exclude_idle == w->eI &&
		      a->exclude_host == w->eH && a->exclude_guest == w->eG,
		      "line %d: '%s' excludes u%u k%u h%u I%u H%u G%u, want "
		      "u%u k%u h%u I%u H%u G%u", t->line, w->name,
		      (unsigned)a->exclude_user, (unsigned)a->exclude_kernel,
		      (unsigned)a->exclude_hv, (unsigned)a->exclude_idle,
		      (unsigned)a->exclude_host, (unsigned)a->exclude_guest,
		      w->eu, w->ek, w->eh, w->eI, w->eH, w->eG);
	ck_assert_msg(a->pinned == w->pinned && a->exclusive == w->excl &&
		      a->precise_ip == w->precise,
		      "line %d: '%s' pinned %u exclusive %u precise_ip %u, "
		      "want %u %u %u", t->line, w->name, (unsigned)a->pinned,
		      (unsigned)a->exclusive, (unsigned)a->precise_ip,
		      w->pinned, w->excl, w->precise);
	ck_assert_msg(flags == w->flags, "line %d: '%s' flags %#x, want %#x",
		      t->line, w->name, flags, w->flags);
	ck_assert_msg(w->instance ? e->instance &&
				    strcmp(e->instance, w->instance) == 0
				  : !e->instance,
		      "line %d: '%s' instance '%s', want '%s'", t->line,
		      w->name, e->instance ? e->instance : "(null)",
		      w->instance ? w->instance : "(null)");
	ck_assert_msg(e->scale == (w->scale ? w->scale : 1.0),
		      "line %d: '%s' scale %g", t->line, w->name, e->scale);
	ck_assert_msg(strcmp(e->unit, w->unit ? w->unit : "") == 0,
		      "line %d: '%s' unit '%s'", t->line, w->name, e->unit);
	ck_assert_msg(a->size == sizeof(*a), "line %d: attr size %u",
		      t->line, a->size);
}

static void check_attr(const struct attr_row *t)
{
	struct evlist *el = evlist_new();
	struct error err = { 0 };
	size_t i;
	int ret;

	ck_assert_ptr_nonnull(el);
	ret = evparse(el, t->spec, &err);
	ck_assert_msg(ret == 0, "line %d: '%s' returned %d: col %zu: %s",
		      t->line, t->spec, ret, err.col, err.reason);
	ck_assert_msg(evlist_count(el) == t->n, "line %d: '%s': %zu events, "
		      "want %zu", t->line, t->spec, evlist_count(el), t->n);
	for (i = 0; i < t->n; i++)
		check_attr_event(t, i, evlist_at(el, i));
	evlist_free(el);
}

#define TC(n, ...)	{ .name = n, .type = SW, .config = 1, __VA_ARGS__ }
#define PF(n, ...)	{ .name = n, .type = SW, .config = 2, __VA_ARGS__ }
#define CS(n, ...)	{ .name = n, .type = SW, .config = 3, __VA_ARGS__ }

/*
 * Each modifier letter alone and together, as perf's get_event_modifier
 * has them, except that u does not exclude the guest here.
 */
static const struct attr_row mod_rows[] = {
	{ __LINE__, "task-clock:u", 1,
	  { TC("task-clock:u", .ek = 1, .eh = 1) } },
	{ __LINE__, "task-clock:k", 1,
	  { TC("task-clock:k", .eu = 1, .eh = 1) } },
	{ __LINE__, "task-clock:h", 1,
	  { TC("task-clock:h", .eu = 1, .ek = 1) } },
	{ __LINE__, "task-clock:uk", 1, { TC("task-clock:uk", .eh = 1) } },
	{ __LINE__, "task-clock:ukh", 1, { TC("task-clock:ukh") } },
	{ __LINE__, "task-clock:I", 1, { TC("task-clock:I", .eI = 1) } },
	{ __LINE__, "task-clock:G", 1, { TC("task-clock:G", .eH = 1) } },
	{ __LINE__, "task-clock:H", 1, { TC("task-clock:H", .eG = 1) } },
	{ __LINE__, "task-clock:GH", 1, { TC("task-clock:GH") } },
	{ __LINE__, "task-clock:p", 1,
	  { TC("task-clock:p", .precise = 1, .eG = 1) } },
	{ __LINE__, "task-clock:pp", 1,
	  { TC("task-clock:pp", .precise = 2, .eG = 1) } },
	{ __LINE__, "task-clock:ppp", 1,
	  { TC("task-clock:ppp", .precise = 3, .eG = 1) } },
	{ __LINE__, "task-clock:Gp", 1,
	  { TC("task-clock:Gp", .precise = 1, .eH = 1) } },
	{ __LINE__, "task-clock:pG", 1,
	  { TC("task-clock:pG", .precise = 1, .eH = 1) } },
	{ __LINE__, "task-clock:pH", 1,
	  { TC("task-clock:pH", .precise = 1, .eG = 1) } },
	{ __LINE__, "task-clock:P", 1,
	  { TC("task-clock:P", .flags = F_PMAX) } },
	{ __LINE__, "task-clock:D", 1,
	  { TC("task-clock:D", .pinned = 1, .flags = F_PINNED) } },
	{ __LINE__, "task-clock:e", 1,
	  { TC("task-clock:e", .excl = 1, .flags = F_EXCL) } },
	{ __LINE__, "task-clock:W", 1,
	  { TC("task-clock:W", .flags = F_WEAK) } },
	{ __LINE__, "task-clock:S", 1, { TC("task-clock:S") } },
	{ __LINE__, "task-clock:uIDeW", 1,
	  { TC("task-clock:uIDeW", .ek = 1, .eh = 1, .eI = 1, .pinned = 1,
	       .excl = 1, .flags = F_PINNED | F_EXCL | F_WEAK) } },
	{ __LINE__, "cycles:kpp", 1,
	  { { .name = "cycles:kpp", .type = HW, .eu = 1, .eh = 1,
	      .precise = 2, .eG = 1 } } },
	{ __LINE__, "task-clock:u,cs:k", 2,
	  { TC("task-clock:u", .ek = 1, .eh = 1),
	    CS("cs:k", .group = 1, .eu = 1, .eh = 1) } },

	/* Group modifiers reach every member, on top of its own. */
	{ __LINE__, "{task-clock,page-faults,cs}:D", 3,
	  { TC("task-clock:D", .pinned = 1, .flags = F_PINNED),
	    PF("page-faults:D", .pinned = 1, .flags = F_PINNED),
	    CS("cs:D", .pinned = 1, .flags = F_PINNED) } },
	{ __LINE__, "{task-clock,page-faults}:e", 2,
	  { TC("task-clock:e", .excl = 1, .flags = F_EXCL),
	    PF("page-faults:e", .excl = 1, .flags = F_EXCL) } },
	/* W is how the group opens: not in the names, as in perf. */
	{ __LINE__, "{task-clock,page-faults}:W", 2,
	  { TC("task-clock", .flags = F_WEAK),
	    PF("page-faults", .flags = F_WEAK) } },
	{ __LINE__, "{task-clock,page-faults}:P", 2,
	  { TC("task-clock:P", .flags = F_PMAX),
	    PF("page-faults:P", .flags = F_PMAX) } },
	{ __LINE__, "{task-clock,page-faults}:uI", 2,
	  { TC("task-clock:uI", .ek = 1, .eh = 1, .eI = 1),
	    PF("page-faults:uI", .ek = 1, .eh = 1, .eI = 1) } },
	{ __LINE__, "{task-clock,page-faults}:Wu", 2,
	  { TC("task-clock:u", .ek = 1, .eh = 1, .flags = F_WEAK),
	    PF("page-faults:u", .ek = 1, .eh = 1, .flags = F_WEAK) } },
	{ __LINE__, "{task-clock:p,page-faults}:p", 2,
	  { TC("task-clock:pp", .precise = 2, .eG = 1),
	    PF("page-faults:p", .precise = 1, .eG = 1) } },
	{ __LINE__, "{task-clock:G,page-faults}:H", 2,
	  { TC("task-clock:GH"), PF("page-faults:H", .eG = 1) } },
	{ __LINE__, "{task-clock:D,page-faults}:u", 2,
	  { TC("task-clock:Du", .pinned = 1, .flags = F_PINNED, .ek = 1,
	       .eh = 1),
	    PF("page-faults:u", .ek = 1, .eh = 1) } },
	{ __LINE__, "cs,{task-clock,page-faults}:e,cs", 4,
	  { CS("cs"),
	    TC("task-clock:e", .group = 1, .excl = 1, .flags = F_EXCL),
	    PF("page-faults:e", .group = 1, .excl = 1, .flags = F_EXCL),
	    CS("cs", .group = 2) } },
};

START_TEST(test_modifiers)
{
	check_attr(&mod_rows[_i]);
}
END_TEST

/* Cache events in any of perf's spellings, and raw events. */
static const struct attr_row name_rows[] = {
	{ __LINE__, "L1-dcache-load-misses", 1,
	  { { .name = "L1-dcache-load-misses", .type = CACHE,
	      .config = 0x10000 } } },
	{ __LINE__, "l1d-loads:u", 1,
	  { { .name = "l1d-loads:u", .type = CACHE, .ek = 1, .eh = 1 } } },
	{ __LINE__, "LLC-LOADS", 1,
	  { { .name = "LLC-LOADS", .type = CACHE, .config = 2 } } },
	{ __LINE__, "Instruction-TLB-read-access", 1,
	  { { .name = "Instruction-TLB-read-access", .type = CACHE,
	      .config = 4 } } },
	{ __LINE__, "bpu-read-misses", 1,
	  { { .name = "bpu-read-misses", .type = CACHE,
	      .config = 0x10005 } } },
	{ __LINE__, "node-prefetch-misses", 1,
	  { { .name = "node-prefetch-misses", .type = CACHE,
	      .config = 0x10206 } } },
	/* The hardware names win over the cache grammar, as in perf. */
	{ __LINE__, "branches,branch-misses,branch-loads", 3,
	  { { .name = "branches", .type = HW, .config = 4 },
	    { .name = "branch-misses", .group = 1, .type = HW, .config = 5 },
	    { .name = "branch-loads", .group = 2, .type = CACHE,
	      .config = 5 } } },
	{ __LINE__, "r1a8", 1, { { .name = "r1a8", .type = RAW,
				   .config = 0x1a8 } } },
	{ __LINE__, "r0x1a8", 1, { { .name = "r0x1a8", .type = RAW,
				     .config = 0x1a8 } } },
	{ __LINE__, "r0X1a8", 1, { { .name = "r0X1a8", .type = RAW,
				     .config = 0x1a8 } } },
	{ __LINE__, "rabc", 1, { { .name = "rabc", .type = RAW,
				   .config = 0xabc } } },
	{ __LINE__, "rABC", 1, { { .name = "rABC", .type = RAW,
				   .config = 0xabc } } },
	{ __LINE__, "r0", 1, { { .name = "r0", .type = RAW } } },
	{ __LINE__, "r1234567890abcdef", 1,
	  { { .name = "r1234567890abcdef", .type = RAW,
	      .config = 0x1234567890abcdefULL } } },
	{ __LINE__, "r0xffffffffffffffff", 1,
	  { { .name = "r0xffffffffffffffff", .type = RAW,
	      .config = ~0ULL } } },
	{ __LINE__, "r1a8:ppp", 1,
	  { { .name = "r1a8:ppp", .type = RAW, .config = 0x1a8,
	      .precise = 3, .eG = 1 } } },
	{ __LINE__, "{r1a8,L1-dcache-loads}:k", 2,
	  { { .name = "r1a8:k", .type = RAW, .config = 0x1a8, .eu = 1,
	      .eh = 1 },
	    { .name = "L1-dcache-loads:k", .type = CACHE, .eu = 1,
	      .eh = 1 } } },
};

START_TEST(test_names)
{
	check_attr(&name_rows[_i]);
}
END_TEST

#define MEM(n, a, l, bp, ...)	{ .name = n, .type = BP, .config1 = a, \
				  .config2 = l, .bp_type = bp, __VA_ARGS__ }
#define R HW_BREAKPOINT_R
#define W HW_BREAKPOINT_W
#define X HW_BREAKPOINT_X
#define RW HW_BREAKPOINT_RW

/* mem:ADDR[/LEN][:rwx]: rw and 4 bytes unless told, x a long. */
static const struct attr_row mem_rows[] = {
	{ __LINE__, "mem:0x1000", 1, { MEM("mem:0x1000", 0x1000, 4, RW) } },
	{ __LINE__, "mem:0x1000/8:w", 1,
	  { MEM("mem:0x1000/8:w", 0x1000, 8, W) } },
	{ __LINE__, "mem:4096:x", 1,
	  { MEM("mem:4096:x", 0x1000, sizeof(long), X) } },
	{ __LINE__, "mem:0x1000:rw", 1,
	  { MEM("mem:0x1000:rw", 0x1000, 4, RW) } },
	{ __LINE__, "mem:0x1000:wr", 1,
	  { MEM("mem:0x1000:wr", 0x1000, 4, RW) } },
	{ __LINE__, "mem:0x1000:r", 1, { MEM("mem:0x1000:r", 0x1000, 4, R) } },
	{ __LINE__, "mem:0x1000:w", 1, { MEM("mem:0x1000:w", 0x1000, 4, W) } },
	{ __LINE__, "mem:0x1000:rwx", 1,
	  { MEM("mem:0x1000:rwx", 0x1000, 4, RW | X) } },
	{ __LINE__, "mem:0x1000/1:rw", 1,
	  { MEM("mem:0x1000/1:rw", 0x1000, 1, RW) } },
	{ __LINE__, "mem:0x1000/2:x", 1,
	  { MEM("mem:0x1000/2:x", 0x1000, 2, X) } },
	{ __LINE__, "mem:0x1000/8", 1, { MEM("mem:0x1000/8", 0x1000, 8, RW) } },
	{ __LINE__, "mem:0xffffffffffffffff/1:r", 1,
	  { MEM("mem:0xffffffffffffffff/1:r", ~0ULL, 1, R) } },
	/* Letters that are not an access are modifiers. */
	{ __LINE__, "mem:0x1000:w:u", 1,
	  { MEM("mem:0x1000:w:u", 0x1000, 4, W, .ek = 1, .eh = 1) } },
	{ __LINE__, "mem:0x1000:u", 1,
	  { MEM("mem:0x1000:u", 0x1000, 4, RW, .ek = 1, .eh = 1) } },
	{ __LINE__, "mem:0x1000/8:w:kD", 1,
	  { MEM("mem:0x1000/8:w:kD", 0x1000, 8, W, .eu = 1, .eh = 1,
		.pinned = 1, .flags = F_PINNED) } },
	{ __LINE__, "{mem:0x1000:w,mem:0x2000:r}:u", 2,
	  { MEM("mem:0x1000:w:u", 0x1000, 4, W, .ek = 1, .eh = 1),
	    MEM("mem:0x2000:r:u", 0x2000, 4, R, .ek = 1, .eh = 1) } },
	{ __LINE__, "task-clock,mem:0x1000,cs", 3,
	  { TC("task-clock"), MEM("mem:0x1000", 0x1000, 4, RW, .group = 1),
	    CS("cs", .group = 2) } },
};

START_TEST(test_mem)
{
	check_attr(&mem_rows[_i]);
}
END_TEST

/* A fake tracefs: directories, id files, and some it may not read. */
static const struct fake_sysfs_file tracefs[] = {
	{ "events/syscalls/sys_enter_write/id", "123\n" },
	{ "events/sched/sched_switch/id", "77\n" },
	/* Unreadable, both (tracefs_setup). */
	{ "events/locked/secret/id", "5\n" },
	{ "closed", NULL },
	/* For globs: more events, and files that are not events. */
	{ "events/enable", "0\n" },
	{ "events/syscalls/enable", "0\n" },
	{ "events/syscalls/filter", "none\n" },
	{ "events/syscalls/sys_exit_write/id", "125\n" },
	{ "events/syscalls/sys_enter_writev/id", "124\n" },
	{ "events/sched/sched_wakeup/id", "78\n" },
	{ "events/systest/b/id", "301\n" },
	{ "events/systest/a/id", "300\n" },
	{ "events/systest/noid", NULL },
};

/* A fake sysfs: an msr-like PMU and one with two instances. */
static const struct fake_sysfs_entry msr_format[] = {
	{ "event", "config:0-63" },
	{ "umask", "config:8-15" },
	{ "ldlat", "config1:0-15" },
	{ "fe", "config2:0-23" },
	{ "split", "config:20-23,40-43" },
	{ "bit", "config:63" },
	{ "bad", "config:7-3" },
	{ NULL },
};

static const struct fake_sysfs_entry msr_events[] = {
	{ "tsc", "event=0x00" },
	{ "foo", "event=0x3,umask=?" },
	{ "both", "event=0x1,umask=0x2" },
	{ "nested", "tsc" },
	/* Aliases at fault in their own terms, which are longer than
	 * their names. */
	{ "bv", "event=xyz" },
	{ "big", "umask=0x100" },
	{ "energy", "event=0x2" },
	{ "energy.scale", "2.3283064365386962890625e-10" },
	{ "energy.unit", "Joules" },
	{ NULL },
};

static const struct fake_sysfs_entry imc_format[] = {
	{ "event", "config:0-7" },
	{ NULL },
};

static const struct fake_sysfs_entry imc_events[] = {
	{ "cas", "event=0x4" },
	{ NULL },
};

static const struct fake_sysfs_pmu pmus[] = {
	{ "msr", "9", NULL, msr_format, msr_events },
	{ "uncore_imc_0", "20", NULL, imc_format, imc_events },
	{ "uncore_imc_1", "21", NULL, imc_format, imc_events },
};

static void tracefs_setup(void)
{
	fake_sysfs_setup("check_evparse");
	fake_sysfs_files(tracefs, N_ROWS(tracefs));
	fake_sysfs_chmod("events/locked/secret/id", 0);
	fake_sysfs_chmod("closed", 0);
	fake_sysfs_pmus("sys", pmus, N_ROWS(pmus));
	fake_sysfs_use("sys", "events");
}

static const struct good_row tp_good_rows[] = {
	{ __LINE__, "syscalls:sys_enter_write", 1, {
		{ "syscalls:sys_enter_write", 0, TP, 123, 0, 0, 0 } } },
	{ __LINE__, "syscalls:sys_enter_write:u", 1, {
		{ "syscalls:sys_enter_write:u", 0, TP, 123, 0, 1, 1 } } },
	{ __LINE__, "{sched:sched_switch,syscalls:sys_enter_write}:k", 2, {
		{ "sched:sched_switch:k", 0, TP, 77, 1, 0, 1 },
		{ "syscalls:sys_enter_write:k", 0, TP, 123, 1, 0, 1 } } },
	{ __LINE__, "{sched:sched_switch:u,cycles}:k", 2, {
		{ "sched:sched_switch:uk", 0, TP, 77, 0, 0, 1 },
		{ "cycles:k", 0, HW, 0, 1, 0, 1 } } },
	{ __LINE__, "cycles,sched:sched_switch,task-clock", 3, {
		{ "cycles", 0, HW, 0, 0, 0, 0 },
		{ "sched:sched_switch", 1, TP, 77, 0, 0, 0 },
		{ "task-clock", 2, SW, 1, 0, 0, 0 } } },
};

START_TEST(test_tp_good)
{
	check_good(&tp_good_rows[_i]);
}
END_TEST

#define TPE(n, id, ...)	{ .name = n, .type = TP, .config = id, __VA_ARGS__ }

/* Globs expand sorted by system, then name; modifiers reach them all. */
static const struct attr_row glob_rows[] = {
	{ __LINE__, "sys*:*", 5,
	  { TPE("syscalls:sys_enter_write", 123),
	    TPE("syscalls:sys_enter_writev", 124, .group = 1),
	    TPE("syscalls:sys_exit_write", 125, .group = 2),
	    TPE("systest:a", 300, .group = 3),
	    TPE("systest:b", 301, .group = 4) } },
	{ __LINE__, "syscalls:sys_enter_writ*", 2,
	  { TPE("syscalls:sys_enter_write", 123),
	    TPE("syscalls:sys_enter_writev", 124, .group = 1) } },
	{ __LINE__, "syscalls:sys_enter_writ*:u", 2,
	  { TPE("syscalls:sys_enter_write:u", 123, .ek = 1, .eh = 1),
	    TPE("syscalls:sys_enter_writev:u", 124, .group = 1, .ek = 1,
		.eh = 1) } },
	{ __LINE__, "{syscalls:sys_enter_writ*}:k", 2,
	  { TPE("syscalls:sys_enter_write:k", 123, .eu = 1, .eh = 1),
	    TPE("syscalls:sys_enter_writev:k", 124, .eu = 1, .eh = 1) } },
	{ __LINE__, "{cs,syscalls:sys_*_write:D}", 3,
	  { CS("cs"),
	    TPE("syscalls:sys_enter_write:D", 123, .pinned = 1,
		.flags = F_PINNED),
	    TPE("syscalls:sys_exit_write:D", 125, .pinned = 1,
		.flags = F_PINNED) } },
	{ __LINE__, "*:sched_switch", 1, { TPE("sched:sched_switch", 77) } },
	{ __LINE__, "sched:*", 2,
	  { TPE("sched:sched_switch", 77),
	    TPE("sched:sched_wakeup", 78, .group = 1) } },
	{ __LINE__, "syscalls:sys_enter_wr?te", 1,
	  { TPE("syscalls:sys_enter_write", 123) } },
	{ __LINE__, "cs,syscalls:sys_*_write,task-clock", 4,
	  { CS("cs"), TPE("syscalls:sys_enter_write", 123, .group = 1),
	    TPE("syscalls:sys_exit_write", 125, .group = 2),
	    TC("task-clock", .group = 3) } },
};

START_TEST(test_tp_glob)
{
	check_attr(&glob_rows[_i]);
}
END_TEST

static const struct tp_bad_row {
	struct bad_row bad;
	const char *root;	/* tracefs in the tree; NULL: "events" */
	int needs_user;		/* permissions do not stop root */
} tp_bad_rows[] = {
	{ { __LINE__, "syscalls:nosuch", 0,
	    "unknown tracepoint 'syscalls:nosuch'", NULL } },
	{ { __LINE__, "cycles,nosys:sys_enter_write", 7,
	    "unknown tracepoint 'nosys:sys_enter_write'", NULL } },
	{ { __LINE__, "syscalls:", 9, "expected a tracepoint name", NULL } },
	{ { __LINE__, "syscalls:sys_enter_write:x", 25,
	    "unknown modifier 'x'", NULL } },
	/* All modifier letters: a mistyped name, not a tracepoint. */
	{ { __LINE__, "cylces:u", 0, "unknown event 'cylces'",
	    "did you mean 'cycles'" } },
	{ { __LINE__, "cycles,cylces:uk", 7, "unknown event 'cylces'",
	    "did you mean 'cycles'" } },
	{ { __LINE__, "locked:secret", 0, "permission denied", NULL },
	  NULL, 1 },
	/* The common case for users: tracefs is root's alone. */
	{ { __LINE__, "cylces:u", 0, "unknown event 'cylces'",
	    "did you mean 'cycles'" }, "closed", 1 },
	{ { __LINE__, "sched:sched_switch", 0, "permission denied", NULL },
	  "closed", 1 },
	/* A glob that matches nothing is an error, not zero events. */
	{ { __LINE__, "syscalls:nomatch*", 0,
	    "no match for tracepoint 'syscalls:nomatch*'", "pstat --list" } },
	{ { __LINE__, "nosys*:x", 0, "no match for tracepoint 'nosys*:x'",
	    NULL } },
	{ { __LINE__, "task-clock,sys*:nomatch", 11,
	    "no match for tracepoint 'sys*:nomatch'", NULL } },
	/* Files in tracefs without an id are not tracepoints. */
	{ { __LINE__, "*:enable", 0, "no match for tracepoint '*:enable'",
	    NULL } },
	{ { __LINE__, "systest:noid", 0, "unknown tracepoint 'systest:noid'",
	    NULL } },
	/* Modifier letters after a glob system are still a tracepoint. */
	{ { __LINE__, "sys*:u", 0, "no match for tracepoint 'sys*:u'", NULL } },
};

START_TEST(test_tp_bad)
{
	const struct tp_bad_row *t = &tp_bad_rows[_i];

	if (t->needs_user && geteuid() == 0) {
		printf("line %d: '%s' skipped: root reads any file\n",
		       t->bad.line, t->bad.spec);
		return;
	}
	if (t->root)
		fake_sysfs_use("sys", t->root);
	check_bad(&t->bad);
	fake_sysfs_use("sys", "events");
}
END_TEST

#define MSR(n, ...)	{ .name = n, .type = 9, __VA_ARGS__ }
#define IMC(n, t, ...)	{ .name = n, .type = t, .config = 4, __VA_ARGS__ }

/* PMU events from the fake sysfs: format terms, built-ins, aliases. */
static const struct attr_row pmu_rows[] = {
	{ __LINE__, "msr/tsc/", 1, { MSR("msr/tsc/") } },
	{ __LINE__, "msr/event=0x4/", 1,
	  { MSR("msr/event=0x4/", .config = 4) } },
	{ __LINE__, "msr/event=4/", 1, { MSR("msr/event=4/", .config = 4) } },
	{ __LINE__, "msr/tsc,name=abc/", 1, { MSR("abc") } },
	/* As perf 6.1: a name from name= is shown as given. */
	{ __LINE__, "msr/tsc,name=abc/u", 1,
	  { MSR("abc", .ek = 1, .eh = 1) } },
	{ __LINE__, "{msr/tsc,name=abc/,msr/tsc/}:u", 2,
	  { MSR("abc", .ek = 1, .eh = 1),
	    MSR("msr/tsc/:u", .ek = 1, .eh = 1) } },
	{ __LINE__, "msr/config=5,config1=6,config2=7/", 1,
	  { MSR("msr/config=5,config1=6,config2=7/", .config = 5,
		.config1 = 6, .config2 = 7) } },
	{ __LINE__, "msr/foo,umask=2/", 1,
	  { MSR("msr/foo,umask=2/", .config = 0x203) } },
	/* A parameter may come before its alias, as in perf. */
	{ __LINE__, "msr/umask=2,foo/", 1,
	  { MSR("msr/umask=2,foo/", .config = 0x203) } },
	{ __LINE__, "msr/both/", 1, { MSR("msr/both/", .config = 0x201) } },
	{ __LINE__, "msr/event=1,umask=0xff/", 1,
	  { MSR("msr/event=1,umask=0xff/", .config = 0xff01) } },
	{ __LINE__, "msr/ldlat=3/", 1, { MSR("msr/ldlat=3/", .config1 = 3) } },
	{ __LINE__, "msr/fe=0x10/", 1,
	  { MSR("msr/fe=0x10/", .config2 = 0x10) } },
	{ __LINE__, "msr/split=0xab/", 1,
	  { MSR("msr/split=0xab/", .config = 0xa0000b00000ULL) } },
	{ __LINE__, "msr/bit/", 1, { MSR("msr/bit/", .config = 1ULL << 63) } },
	{ __LINE__, "msr/energy/", 1,
	  { MSR("msr/energy/", .config = 2,
		.scale = 2.3283064365386962890625e-10, .unit = "Joules") } },
	{ __LINE__, "msr/tsc/u", 1, { MSR("msr/tsc/u", .ek = 1, .eh = 1) } },
	{ __LINE__, "msr/tsc/:u", 1, { MSR("msr/tsc/:u", .ek = 1, .eh = 1) } },
	{ __LINE__, "msr/tsc/ku", 1, { MSR("msr/tsc/ku", .eh = 1) } },
	{ __LINE__, "{task-clock,msr/tsc/}:D", 2,
	  { TC("task-clock:D", .pinned = 1, .flags = F_PINNED),
	    MSR("msr/tsc/:D", .pinned = 1, .flags = F_PINNED) } },
	/* A PMU of several instances: one evsel each, summed into the first. */
	{ __LINE__, "uncore_imc/event=0x4/", 2,
	  { IMC("uncore_imc/event=0x4/", 20,
		.instance = "uncore_imc_0/event=0x4/"),
	    IMC("uncore_imc/event=0x4/", 21, .group = 1, .flags = F_MERGE,
		.instance = "uncore_imc_1/event=0x4/") } },
	{ __LINE__, "uncore_imc/cas/u", 2,
	  { IMC("uncore_imc/cas/u", 20, .ek = 1, .eh = 1,
		.instance = "uncore_imc_0/cas/"),
	    IMC("uncore_imc/cas/u", 21, .group = 1, .ek = 1, .eh = 1,
		.flags = F_MERGE, .instance = "uncore_imc_1/cas/") } },
	{ __LINE__, "uncore_imc/cas,name=x/", 2,
	  { IMC("x", 20, .instance = "uncore_imc_0/cas,name=x/"),
	    IMC("x", 21, .group = 1, .flags = F_MERGE,
		.instance = "uncore_imc_1/cas,name=x/") } },
	{ __LINE__, "uncore_imc_1/cas/", 1, { IMC("uncore_imc_1/cas/", 21) } },
	{ __LINE__, "task-clock,uncore_imc/cas/,cs", 4,
	  { TC("task-clock"),
	    IMC("uncore_imc/cas/", 20, .group = 1,
		.instance = "uncore_imc_0/cas/"),
	    IMC("uncore_imc/cas/", 21, .group = 2, .flags = F_MERGE,
		.instance = "uncore_imc_1/cas/"),
	    CS("cs", .group = 3) } },
};

START_TEST(test_pmu_good)
{
	check_attr(&pmu_rows[_i]);
}
END_TEST

static const struct bad_row pmu_bad_rows[] = {
	{ __LINE__, "msr/foo/", 4, "needs a value for 'umask'", NULL },
	{ __LINE__, "msr/nosuch/", 4, "PMU msr has no term or event 'nosuch'",
	  NULL },
	{ __LINE__, "msr/event=1,nosuch/", 12, "no term or event 'nosuch'",
	  NULL },
	{ __LINE__, "msr/umask=0x100/", 10, "does not fit term 'umask'", NULL },
	{ __LINE__, "msr/ldlat=0x10000/", 10, "does not fit", NULL },
	{ __LINE__, "uncore_imc/event=0x100/", 17, "does not fit", NULL },
	{ __LINE__, "msr/event=0x1ffffffffffffffff/", 10,
	  "bad value for term 'event'", NULL },
	{ __LINE__, "msr/event=/", 10, "bad value for term 'event'", NULL },
	{ __LINE__, "msr/event=xyz/", 10, "bad value for term 'event'", NULL },
	{ __LINE__, "msr/bad=1/", 4, "cannot understand msr's format of 'bad'",
	  NULL },
	{ __LINE__, "msr/nested/", 4, "refers to another alias", NULL },
	/* A fault in an alias's terms is shown at the alias, within the
	 * spec (the fuzzer found columns past its end). */
	{ __LINE__, "msr/bv/", 4, "bad value for term 'event'", NULL },
	{ __LINE__, "msr/event=1,bv/", 12, "bad value for term 'event'", NULL },
	{ __LINE__, "msr/big/", 4, "does not fit term 'umask'", NULL },
	{ __LINE__, "msr/event=1,foo/", 12, "needs a value for 'umask'", NULL },
	{ __LINE__, "msr//", 4, "no terms in msr//", NULL },
	{ __LINE__, "msr/tsc", 3, "missing the closing '/'", NULL },
	{ __LINE__, "nopmu/tsc/", 0, "no PMU named 'nopmu'", NULL },
	{ __LINE__, "uncore/cas/", 0, "no PMU named 'uncore'", NULL },
	{ __LINE__, "msr/,tsc/", 4, "empty term", NULL },
	{ __LINE__, "msr/tsc,/", 8, "empty term", NULL },
	{ __LINE__, "msr/name=/", 4, "name= needs a name", NULL },
	{ __LINE__, "msr/tsc/x", 8, "unknown modifier 'x'", NULL },
	/* A colon promises modifiers, as after any other event. */
	{ __LINE__, "msr/tsc/:", 9, "expected modifiers", NULL },
	{ __LINE__, "msr/tsc/:,cs", 9, "expected modifiers", NULL },
	{ __LINE__, "{uncore_imc/cas/}", 1,
	  "'uncore_imc' means 2 PMUs, which cannot share a group",
	  "take it out of the group" },
	{ __LINE__, "{task-clock,uncore_imc/cas/}", 12, "cannot share a group",
	  NULL },
};

START_TEST(test_pmu_bad)
{
	check_bad(&pmu_bad_rows[_i]);
}
END_TEST

/* -e @FILE: what the file holds, and how its opener behaves. */
static struct {
	const char *text;
	size_t len;
	int flags;		/* what evparse_file asked for */
	int fd;			/* what it was given */
	int err;		/* fail the open with this */
} file;

/* The text as a regular file, already unlinked. */
static int file_open(const char *path, int flags, mode_t mode)
{
	FILE *f = tmpfile();

	(void)path;
	(void)mode;
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(file.text, 1, file.len, f), file.len);
	ck_assert_int_eq(fflush(f), 0);
	rewind(f);
	file.flags = flags;
	file.fd = dup(fileno(f));
	fclose(f);
	return file.fd;
}

/* The text through a pipe: no size, no seeking. */
static int pipe_open(const char *path, int flags, mode_t mode)
{
	int fds[2];

	(void)path;
	(void)mode;
	ck_assert_uint_lt(file.len, 4096);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], file.text, file.len),
			 (ssize_t)file.len);
	close(fds[1]);
	file.flags = flags;
	file.fd = fds[0];
	return file.fd;
}

static int sys_open(const char *path, int flags, mode_t mode)
{
	file.flags = flags;
	file.fd = open(path, flags, mode);
	return file.fd;
}

static int failed_open(const char *path, int flags, mode_t mode)
{
	(void)path;
	(void)flags;
	(void)mode;
	file.fd = -1;
	errno = file.err;
	return -1;
}

/* A descriptor that opens but cannot be read. */
static int unreadable_open(const char *path, int flags, mode_t mode)
{
	(void)path;
	(void)mode;
	file.flags = flags;
	file.fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return file.fd;
}

/* evparse_file on text; then it asked to read, and closed what it got. */
static int parse_file(struct evlist *el, const char *path, const char *text,
		      size_t len, evparse_open_fn *open_fn,
		      struct error *err)
{
	int ret;

	file.text = text;
	file.len = len ? len : strlen(text);
	file.flags = -1;
	ret = evparse_file(el, path, open_fn, err);
	if (open_fn != failed_open) {
		/* Not blocking: a FIFO with no writer must not hang it. */
		ck_assert_int_eq(file.flags,
				 O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		ck_assert_msg(file.fd >= 0 && fcntl(file.fd, F_GETFD) < 0,
			      "fd %d left open", file.fd);
	}
	return ret;
}

/* Lines are joined: name@group for each event, in order. */
static const struct file_good_row {
	int line;
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *want;
} file_good_rows[] = {
	{ __LINE__, "cs\nfaults\n", 0, "cs@0 faults@1" },
	{ __LINE__, "cs,faults", 0, "cs@0 faults@1" },
	{ __LINE__, "# a group over two lines, then one of its own\n"
		    "{task-clock,   # the leader\n  page-faults}:u\n\n"
		    "{\ncs\n}\ncpu-clock,\n", 0,
	  "task-clock:u@0 page-faults:u@0 cs@1 cpu-clock@2" },
	{ __LINE__, "{\n  cs,\n\tfaults , \n}:u\nmigrations", 0,
	  "cs:u@0 faults:u@0 migrations@1" },
	{ __LINE__, "cs\r\nfaults\r\n", 0, "cs@0 faults@1" },
	{ __LINE__, "cs # a comment, with {commas}\n#\n", 0, "cs@0" },
	{ __LINE__, "cs,,,\n\n,\nfaults,", 0, "cs@0 faults@1" },
	/* A NUL ends its line, as in a C string. */
	{ __LINE__, "cs\0{junk\nfaults\n", 16, "cs@0 faults@1" },
};

static void check_file_good(const struct file_good_row *t,
			    evparse_open_fn *open_fn)
{
	struct evlist *el = evlist_new();
	struct error err;
	char got[256] = "";
	size_t i, n = 0;
	int ret;

	ret = parse_file(el, "ev.txt", t->text, t->len, open_fn, &err);
	ck_assert_msg(ret == 0, "line %d: returned %d: %s%s", t->line, ret,
		      err.where, err.reason);
	for (i = 0; i < evlist_count(el); i++)
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s@%zu",
				      i ? " " : "", evlist_at(el, i)->name,
				      evlist_at(el, i)->group);
	ck_assert_msg(strcmp(got, t->want) == 0, "line %d: '%s', want '%s'",
		      t->line, got, t->want);
	evlist_free(el);
}

START_TEST(test_file_good)
{
	check_file_good(&file_good_rows[_i / 2],
			_i % 2 ? pipe_open : file_open);
}
END_TEST

/* A bad line: the error said of it, with the caret in it. */
static const struct file_bad_row {
	int line;
	const char *text;
	const char *where;
	const char *spec;	/* NULL: no line to show */
	size_t col;
	const char *reason;	/* a substring */
} file_bad_rows[] = {
	{ __LINE__, "{task-clock,\n  page-fualts}\n", "ev.txt:2: ",
	  "page-fualts}", 0, "unknown event 'page-fualts'" },
	{ __LINE__, "page-faults\n{task-clock,\ncs\n", "ev.txt:2: ",
	  "{task-clock", 0, "unclosed '{'" },
	{ __LINE__, "cs,\n{faults,\n{migrations}}\n", "ev.txt:3: ",
	  "{migrations}}", 0, "groups cannot be nested" },
	{ __LINE__, "# c\n\ncs\n\n# d\n  task-clock,cylces # x\n",
	  "ev.txt:6: ", "task-clock,cylces", 11, "unknown event 'cylces'" },
	{ __LINE__, "cs,,\n,faults\n", "ev.txt:2: ", ",faults", 0,
	  "unexpected ','" },
	{ __LINE__, "{cs\n,faults}\n", "ev.txt:2: ", ",faults}", 0,
	  "unexpected ','" },
	/* At the comma that joined two lines: the end of the first. */
	{ __LINE__, "cs:\nfaults\n", "ev.txt:1: ", "cs:", 3,
	  "expected modifiers" },
	{ __LINE__, "cs\nfaults:\n", "ev.txt:2: ", "faults:", 7,
	  "expected modifiers" },
	{ __LINE__, "task-clock:u:k\n", "ev.txt:1: ", "task-clock:u:k", 12,
	  "expected ','" },
	{ __LINE__, "cs\n}\n", "ev.txt:2: ", "}", 0, "expected ','" },
	{ __LINE__, "{\n}:u\n", "ev.txt:2: ", "}:u", 0,
	  "expected an event name" },
	{ __LINE__, "", "", NULL, 0,
	  "the event file 'ev.txt' names no events" },
	{ __LINE__, "# nothing but a comment\n\n  \t\n,,\n", "", NULL, 0,
	  "the event file 'ev.txt' names no events" },
};

START_TEST(test_file_bad)
{
	const struct file_bad_row *t = &file_bad_rows[_i];
	struct evlist *el = evlist_new();
	struct error err;
	int ret;

	memset(&err, 0x55, sizeof(err));
	ret = parse_file(el, "ev.txt", t->text, 0, file_open, &err);
	ck_assert_msg(ret == -EINVAL, "line %d: returned %d", t->line, ret);
	ck_assert_msg(strcmp(err.where, t->where) == 0,
		      "line %d: where '%s', want '%s'", t->line, err.where,
		      t->where);
	ck_assert_msg(strstr(err.reason, t->reason),
		      "line %d: reason '%s', want '%s'", t->line, err.reason,
		      t->reason);
	ck_assert_msg(t->spec ? err.spec && strcmp(err.spec, t->spec) == 0
			      : !err.spec,
		      "line %d: spec '%s', want '%s'", t->line,
		      err.spec ? err.spec : "(none)",
		      t->spec ? t->spec : "(none)");
	ck_assert_msg(!t->spec || err.col == t->col,
		      "line %d: col %zu, want %zu", t->line, err.col, t->col);
	error_fini(&err);
	ck_assert_ptr_null(err.buf);
	evlist_free(el);
}
END_TEST

/* The file and the -e lists around it make one list. */
START_TEST(test_file_between)
{
	struct evlist *el = evlist_new();
	struct error err;

	ck_assert_int_eq(evparse(el, "cycles", &err), 0);
	ck_assert_int_eq(parse_file(el, "ev.txt", "{cs,\nfaults}\n", 0,
				    file_open, &err), 0);
	ck_assert_int_eq(evparse(el, "task-clock", &err), 0);
	ck_assert_uint_eq(evlist_count(el), 4);
	ck_assert_uint_eq(evlist_at(el, 1)->group, 1);
	ck_assert_uint_eq(evlist_at(el, 2)->group, 1);
	ck_assert_uint_eq(evlist_at(el, 3)->group, 2);
	evlist_free(el);
}
END_TEST

/* What keeps the file from being read: said of the file, no line. */
static void check_file_refused(int line, const char *path, const char *text,
			       size_t len, evparse_open_fn *open_fn,
			       const char *reason, const char *where)
{
	struct evlist *el = evlist_new();
	struct error err;
	int ret;

	memset(&err, 0x55, sizeof(err));
	ret = parse_file(el, path, text, len, open_fn, &err);
	ck_assert_msg(ret == -EINVAL, "line %d: returned %d", line, ret);
	ck_assert_msg(strcmp(err.reason, reason) == 0,
		      "line %d: reason '%s', want '%s'", line, err.reason,
		      reason);
	ck_assert_msg(strcmp(err.where, where) == 0,
		      "line %d: where '%s', want '%s'", line, err.where, where);
	ck_assert_msg(!err.spec, "line %d: a spec to show", line);
	ck_assert_uint_eq(evlist_count(el), 0);
	error_fini(&err);
	evlist_free(el);
}

START_TEST(test_file_unreadable)
{
	file.err = EACCES;
	check_file_refused(__LINE__, "ev.txt", "", 0, failed_open,
			   "cannot read the event file 'ev.txt': "
			   "Permission denied", "");
	file.err = ENOENT;
	check_file_refused(__LINE__, "/no/such", "", 0, failed_open,
			   "cannot read the event file '/no/such': "
			   "No such file or directory", "");
	check_file_refused(__LINE__, "/", "", 0, sys_open,
			   "cannot read the event file '/': Is a directory",
			   "");
	check_file_refused(__LINE__, "ev.txt", "", 0, unreadable_open,
			   "cannot read the event file 'ev.txt': "
			   "Bad file descriptor", "");
}
END_TEST

/*
 * cs, a line of line_len blanks, empty lines, faults: len bytes in all,
 * in a buffer the caller frees.
 */
static char *bounds_text(size_t len, size_t line_len)
{
	char *text = malloc(len);

	ck_assert_ptr_nonnull(text);
	memset(text, '\n', len);
	memcpy(text, "cs\n", 3);
	memset(text + 3, ' ', line_len);
	memcpy(text + len - 7, "faults\n", 7);
	return text;
}

/* A file or a line at its bound is read; past it, said so. */
START_TEST(test_file_bounds)
{
	const size_t max = EVPARSE_FILE_MAX, line = EVPARSE_LINE_MAX;
	char *text = bounds_text(max, line);
	struct evlist *el = evlist_new();
	struct error err;

	ck_assert_int_eq(parse_file(el, "ev.txt", text, max, file_open, &err),
			 0);
	ck_assert_uint_eq(evlist_count(el), 2);
	free(text);
	text = bounds_text(max + 1, line);
	check_file_refused(__LINE__, "ev.txt", text, max + 1, file_open,
			   "the event file 'ev.txt' is larger than 1 MiB", "");
	free(text);
	text = bounds_text(max, line + 1);
	check_file_refused(__LINE__, "ev.txt", text, max, file_open,
			   "the line is longer than 64 KiB", "ev.txt:2: ");
	free(text);
	evlist_free(el);
}
END_TEST

/* A device that never ends is read no further than a file. */
START_TEST(test_file_endless)
{
	check_file_refused(__LINE__, "/dev/zero", "", 0, sys_open,
			   "the event file '/dev/zero' is larger than 1 MiB",
			   "");
}
END_TEST

/* The FIFO at path, whose writer writes the text and is gone by the
 * time evparse_file reads. */
static int fifo_open(const char *path, int flags, mode_t mode)
{
	int w;

	file.flags = flags;
	file.fd = open(path, flags, mode);
	ck_assert_int_ge(file.fd, 0);
	w = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	ck_assert_int_ge(w, 0);
	ck_assert_int_eq(write(w, file.text, file.len), (ssize_t)file.len);
	close(w);
	return file.fd;
}

/*
 * A FIFO: refused at once without a writer (the open waited for one
 * forever); read to its end when one wrote.
 */
START_TEST(test_file_fifo)
{
	char path[PATH_MAX], reason[PATH_MAX + 128];
	struct evlist *el = evlist_new();
	struct error err;

	fake_sysfs_setup("check_evparse");
	fake_sysfs_path(path, sizeof(path), "fifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	snprintf(reason, sizeof(reason),
		 "the event file '%s' is a FIFO with no writer: pstat does not wait for one",
		 path);
	check_file_refused(__LINE__, path, "", 0, sys_open, reason, "");
	ck_assert_int_eq(parse_file(el, path, "cs,\nfaults\n", 0, fifo_open,
				    &err), 0);
	ck_assert_uint_eq(evlist_count(el), 2);
	evlist_free(el);
	fake_sysfs_teardown();
}
END_TEST

static Suite *evparse_suite(void)
{
	Suite *s = suite_create("evparse");
	TCase *tc;

	tc = tcase_create("good");
	tcase_add_loop_test(tc, test_good, 0, N_ROWS(good_rows));
	tcase_add_test(tc, test_two_specs);
	tcase_add_loop_test(tc, test_modifiers, 0, N_ROWS(mod_rows));
	tcase_add_loop_test(tc, test_names, 0, N_ROWS(name_rows));
	tcase_add_loop_test(tc, test_mem, 0, N_ROWS(mem_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("bad");
	tcase_add_loop_test(tc, test_bad, 0, N_ROWS(bad_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("tracepoint");
	tcase_add_unchecked_fixture(tc, tracefs_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tc, test_tp_good, 0, N_ROWS(tp_good_rows));
	tcase_add_loop_test(tc, test_tp_bad, 0, N_ROWS(tp_bad_rows));
	tcase_add_loop_test(tc, test_tp_glob, 0, N_ROWS(glob_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("pmu");
	tcase_add_unchecked_fixture(tc, tracefs_setup, fake_sysfs_teardown);
	tcase_add_loop_test(tc, test_pmu_good, 0, N_ROWS(pmu_rows));
	tcase_add_loop_test(tc, test_pmu_bad, 0, N_ROWS(pmu_bad_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("file");
	tcase_add_loop_test(tc, test_file_good, 0, 2 * N_ROWS(file_good_rows));
	tcase_add_loop_test(tc, test_file_bad, 0, N_ROWS(file_bad_rows));
	tcase_add_test(tc, test_file_between);
	tcase_add_test(tc, test_file_unreadable);
	tcase_add_test(tc, test_file_bounds);
	tcase_add_test(tc, test_file_endless);
	tcase_add_test(tc, test_file_fifo);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(evparse_suite());
}
