/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of evlist.c against a fake kernel behind sys_set_ops(). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "event.h"
#include "evlist.h"
#include "evsel_impl.h"
#include "sys.h"
#include "target.h"

#include "fake_kernel.h"
#include "unit.h"

#define ALL_FORMATS	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			 PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* No paranoid level to read: an EACCES is final, no :u retry. */
static void evlist_setup(void)
{
	fake_setup();
	fake.paranoid = FAKE_NO_PARANOID;
}

/* A hardware event, weak (:W) if asked. */
static void add_weak(struct evlist *el, uint64_t config, const char *name,
		     bool weak)
{
	struct evsel_desc d = { .name = name, .weak = weak };

	event_attr_init(&d.attr);
	d.attr.type = PERF_TYPE_HARDWARE;
	d.attr.config = config;
	ck_assert_int_eq(evlist_add(el, &d), 0);
}

static void add(struct evlist *el, uint64_t config, const char *name)
{
	add_weak(el, config, name, false);
}

/* {a,b,c},d */
static struct evlist *three_and_one(void)
{
	struct evlist *el = evlist_new();

	ck_assert_ptr_nonnull(el);
	evlist_group_begin(el);
	add(el, PERF_COUNT_HW_CPU_CYCLES, "a");
	add(el, PERF_COUNT_HW_INSTRUCTIONS, "b");
	add(el, PERF_COUNT_HW_BRANCH_MISSES, "c");
	evlist_group_end(el);
	add(el, PERF_COUNT_HW_CACHE_MISSES, "d");
	return el;
}

/* {a,b},{c,d} */
static struct evlist *two_pairs(void)
{
	struct evlist *el = evlist_new();

	ck_assert_ptr_nonnull(el);
	evlist_group_begin(el);
	add(el, PERF_COUNT_HW_CPU_CYCLES, "a");
	add(el, PERF_COUNT_HW_INSTRUCTIONS, "b");
	evlist_group_end(el);
	evlist_group_begin(el);
	add(el, PERF_COUNT_HW_BRANCH_MISSES, "c");
	add(el, PERF_COUNT_HW_CACHE_MISSES, "d");
	evlist_group_end(el);
	return el;
}

static int pid_4242[] = { 4242 }, pid_0[] = { 0 }, cpu_3[] = { 3 };

static const struct target default_target = {
	.pids = pid_4242, .n_pids = 1, .inherit = true, .enable_on_exec = true,
};

static void open_ok(struct evlist *el, const struct target *t)
{
	size_t failed = 99;
	int ret = evlist_open(el, t, &failed);

	ck_assert_msg(ret == 0, "evlist_open: %d, failed %zu", ret, failed);
}

/*
 * Who counts: a member while it and its leader are on, as the kernel
 * schedules groups; each start counted; a name of no event changes
 * nothing and says so.
 */
static void ck_counting(int line, const struct evlist *el,
			const char *want_on, const uint64_t *want_starts)
{
	uint64_t starts;
	size_t i;
	bool on;

	for (i = 0; i < evlist_count(el); i++) {
		on = evlist_counting(el, i, &starts);
		ck_assert_msg(on == (want_on[i] == '1') &&
			      starts == want_starts[i],
			      "line %d: %s counting %d, starts %llu", line,
			      evsel_name(evlist_at(el, i)), on,
			      (unsigned long long)starts);
	}
}

START_TEST(test_counting)
{
	static int cpus[] = { 0, 1 };
	const struct target on_cpus = { .cpus = cpus, .n_cpus = 2 };
	struct evlist *el = two_pairs();

	open_ok(el, &default_target);
	ck_counting(__LINE__, el, "1111", (const uint64_t[]){ 1, 1, 1, 1 });
	evlist_close(el);
	open_ok(el, &on_cpus);
	ck_counting(__LINE__, el, "0000", (const uint64_t[]){ 0, 0, 0, 0 });
	ck_assert_int_eq(evlist_enable(el), 0);
	ck_counting(__LINE__, el, "1111", (const uint64_t[]){ 1, 1, 1, 1 });
	ck_assert_int_eq(evlist_toggle_named(el, "b", false), 0);
	ck_counting(__LINE__, el, "1011", (const uint64_t[]){ 1, 1, 1, 1 });
	ck_assert_int_eq(evlist_disable(el), 0);
	ck_assert_int_eq(evlist_toggle_named(el, "b", true), 0);
	ck_counting(__LINE__, el, "0000", (const uint64_t[]){ 1, 1, 1, 1 });
	ck_assert_int_eq(evlist_toggle_named(el, "c", true), 0);
	ck_counting(__LINE__, el, "0011", (const uint64_t[]){ 1, 1, 2, 2 });
	ck_assert_int_eq(evlist_toggle_named(el, "nosuch", true), -ENOENT);
	ck_counting(__LINE__, el, "0011", (const uint64_t[]){ 1, 1, 2, 2 });
	evlist_free(el);
}
END_TEST

START_TEST(test_groups)
{
	struct evlist *el = three_and_one();

	ck_assert_uint_eq(evlist_count(el), 4);
	ck_assert_uint_eq(evlist_at(el, 0)->group, 0);
	ck_assert_uint_eq(evlist_at(el, 1)->group, 0);
	ck_assert_uint_eq(evlist_at(el, 2)->group, 0);
	ck_assert_uint_eq(evlist_at(el, 3)->group, 1);
	ck_assert_str_eq(evlist_at(el, 3)->name, "d");
	ck_assert(!evsel_is_open(evlist_at(el, 3)));
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 0);
}
END_TEST

static const struct target_row {
	int line;
	struct target t;
} target_rows[] = {
	{ __LINE__, { .pids = pid_4242, .n_pids = 1, .inherit = true,
		      .enable_on_exec = true } },
	{ __LINE__, { .pids = pid_4242, .n_pids = 1, .inherit = false,
		      .enable_on_exec = true } },
	{ __LINE__, { .pids = pid_0, .n_pids = 1, .inherit = true,
		      .enable_on_exec = false } },
	{ __LINE__, { .cpus = cpu_3, .n_cpus = 1, .inherit = false,
		      .enable_on_exec = false } },
};

static void check_opened(int line, size_t call, const struct target *t,
			 int group_fd)
{
	const struct fake_open *o = &fake.opens[call];
	const struct perf_event_attr *a = &o->attr;
	bool leader = group_fd == -1;

	ck_assert_msg(o->pid == (t->pids ? t->pids[0] : -1) &&
		      o->cpu == (t->cpus ? t->cpus[0] : -1),
		      "line %d: open %zu on pid %d cpu %d", line, call, o->pid,
		      o->cpu);
	ck_assert_msg(o->group_fd == group_fd,
		      "line %d: open %zu with group_fd %d, want %d", line, call,
		      o->group_fd, group_fd);
	ck_assert_msg(o->flags & PERF_FLAG_FD_CLOEXEC,
		      "line %d: open %zu without PERF_FLAG_FD_CLOEXEC", line,
		      call);
	ck_assert_msg(a->read_format == ALL_FORMATS,
		      "line %d: open %zu read_format %#jx", line, call,
		      (uintmax_t)a->read_format);
	ck_assert_msg(a->disabled == leader,
		      "line %d: open %zu disabled=%u", line, call,
		      (unsigned)a->disabled);
	ck_assert_msg(a->enable_on_exec == (leader && t->enable_on_exec),
		      "line %d: open %zu enable_on_exec=%u", line, call,
		      (unsigned)a->enable_on_exec);
	ck_assert_msg(a->inherit == t->inherit, "line %d: open %zu inherit=%u",
		      line, call, (unsigned)a->inherit);
	ck_assert_msg(a->size == sizeof(*a), "line %d: open %zu size %u",
		      line, call, a->size);
}

/*
 * A copy (pstat top's counters of one more task): the same events, in
 * the same groups, closed, and opened as the original would be; the
 * original stays unopened.
 */
START_TEST(test_copy)
{
	struct evlist *el = three_and_one(), *copy;
	size_t i;

	copy = evlist_copy(el);
	ck_assert_ptr_nonnull(copy);
	ck_assert_uint_eq(evlist_count(copy), 4);
	for (i = 0; i < 4; i++) {
		ck_assert_str_eq(evsel_name(evlist_at(copy, i)),
				 evsel_name(evlist_at(el, i)));
		ck_assert_uint_eq(evlist_at(copy, i)->group,
				  evlist_at(el, i)->group);
		ck_assert_uint_eq(evsel_attr(evlist_at(copy, i))->config,
				  evsel_attr(evlist_at(el, i))->config);
		ck_assert(!evsel_is_open(evlist_at(copy, i)));
	}
	open_ok(copy, &default_target);
	ck_assert_uint_eq(fake.n_opens, 4);
	for (i = 0; i < 3; i++)
		check_opened(__LINE__, i, &default_target,
			     i ? fake.opens[0].ret : -1);
	check_opened(__LINE__, 3, &default_target, -1);
	ck_assert(!evsel_is_open(evlist_at(el, 0)));
	evlist_free(copy);
	evlist_free(el);
}
END_TEST

START_TEST(test_open_attrs)
{
	const struct target_row *t = &target_rows[_i];
	struct evlist *el = three_and_one();
	size_t i;

	open_ok(el, &t->t);
	ck_assert_uint_eq(fake.n_opens, 4);
	check_opened(t->line, 0, &t->t, -1);
	check_opened(t->line, 1, &t->t, FAKE_FIRST_FD);
	check_opened(t->line, 2, &t->t, FAKE_FIRST_FD);
	check_opened(t->line, 3, &t->t, -1);
	ck_assert_uint_eq(fake.opens[1].attr.config,
			  PERF_COUNT_HW_INSTRUCTIONS);
	for (i = 0; i < 4; i++) {
		const struct evsel *e = (struct evsel *)evlist_at(el, i);

		ck_assert_int_eq(e->fds[0], FAKE_FIRST_FD + (int)i);
		/* The group of one (the fourth) reads one value: no id. */
		ck_assert_uint_eq(e->ids[0], i == 3 ? 0 : fake_id(e->fds[0]));
		ck_assert_int_eq(e->open_err, 0);
	}
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 4);
	/* Members before their leader, the group's last first. */
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(fake.closed[i], FAKE_FIRST_FD + 3 - (int)i);
}
END_TEST

/* What the kernel says for an event it does not have on this machine. */
static const int unsupported[] = { ENOENT, EOPNOTSUPP, ENODEV, ENXIO };

/* The first member missing: the next one leads the group. */
START_TEST(test_open_leader_missing)
{
	struct evlist *el = three_and_one();
	const struct evsel *a = (struct evsel *)evlist_at(el, 0);

	fake.open_errno[0] = unsupported[_i];
	open_ok(el, &default_target);
	ck_assert_uint_eq(fake.n_opens, 4);
	ck_assert_int_eq(a->fds[0], -1);
	ck_assert_int_eq(a->open_err, unsupported[_i]);
	check_opened(__LINE__, 1, &default_target, -1);
	check_opened(__LINE__, 2, &default_target, FAKE_FIRST_FD);
	check_opened(__LINE__, 3, &default_target, -1);
	ck_assert_int_eq(evlist_at(el, 1)->fds[0], FAKE_FIRST_FD);
	ck_assert_int_eq(evlist_at(el, 1)->open_err, 0);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 3);
}
END_TEST

START_TEST(test_open_member_missing)
{
	struct evlist *el = three_and_one();

	fake.open_errno[1] = ENOENT;
	open_ok(el, &default_target);
	check_opened(__LINE__, 0, &default_target, -1);
	check_opened(__LINE__, 2, &default_target, FAKE_FIRST_FD);
	ck_assert_int_eq(evlist_at(el, 1)->fds[0], -1);
	ck_assert_int_eq(evlist_at(el, 1)->open_err, ENOENT);
	ck_assert_int_eq(evlist_at(el, 2)->fds[0], FAKE_FIRST_FD + 1);
	evlist_free(el);
}
END_TEST

/* Any other failure ends the open, and nothing stays open. */
static const struct fatal_row {
	int line;
	size_t call;		/* the open that fails, by order */
	int err;
	size_t opened;		/* the opens that succeeded before it */
} fatal_rows[] = {
	{ __LINE__, 0, EACCES, 0 },
	{ __LINE__, 1, EACCES, 1 },
	{ __LINE__, 2, EACCES, 2 },
	{ __LINE__, 3, EPERM, 3 },
	{ __LINE__, 2, EMFILE, 2 },
	{ __LINE__, 1, EINVAL, 1 },
	{ __LINE__, 2, EBUSY, 2 },
};

START_TEST(test_open_fatal)
{
	const struct fatal_row *t = &fatal_rows[_i];
	struct evlist *el = two_pairs();
	size_t failed = 99, i;
	int ret;

	fake.open_errno[t->call] = t->err;
	ret = evlist_open(el, &default_target, &failed);
	ck_assert_msg(ret == -t->err, "line %d: returned %d", t->line, ret);
	ck_assert_msg(failed == t->call, "line %d: failed %zu", t->line,
		      failed);
	ck_assert_msg(fake.n_opens == t->call + 1,
		      "line %d: went on to open %zu", t->line, fake.n_opens);
	ck_assert_int_eq(evlist_at(el, t->call)->open_err, t->err);
	for (i = 0; i < t->opened; i++)
		ck_assert_msg(fake.closes[i] == 1,
			      "line %d: fd %d closed %u times", t->line,
			      FAKE_FIRST_FD + (int)i, fake.closes[i]);
	ck_assert_uint_eq(fake.n_closes, t->opened);
	for (i = 0; i < evlist_count(el); i++)
		ck_assert_int_eq(evlist_at(el, i)->fds[0], -1);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, t->opened);
}
END_TEST

/* An fd without an id is no use; it must not leak either. */
START_TEST(test_open_id_fails)
{
	struct evlist *el = two_pairs();
	size_t failed = 99;

	fake.id_errno[1] = ENOTTY;
	ck_assert_int_eq(evlist_open(el, &default_target, &failed), -ENOTTY);
	ck_assert_uint_eq(failed, 1);
	ck_assert_uint_eq(fake.closes[0], 1);
	ck_assert_uint_eq(fake.closes[1], 1);
	ck_assert_uint_eq(fake.n_closes, 2);
	ck_assert_int_eq(evlist_at(el, 1)->fds[0], -1);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 2);
}
END_TEST

/* What e read, summed over its targets. */
static void check_vals(const struct evsel *e, uint64_t value,
		       uint64_t enabled, uint64_t running)
{
	struct counts_values v = { 0 };
	size_t t;

	for (t = 0; t < evsel_targets(e); t++) {
		v.value += evsel_value(e, t)->value;
		v.enabled += evsel_value(e, t)->enabled;
		v.running += evsel_value(e, t)->running;
	}
	ck_assert_msg(v.value == value && v.enabled == enabled &&
		      v.running == running,
		      "%s read %ju/%ju/%ju, want %ju/%ju/%ju", e->name,
		      (uintmax_t)v.value, (uintmax_t)v.enabled,
		      (uintmax_t)v.running, (uintmax_t)value,
		      (uintmax_t)enabled, (uintmax_t)running);
}

/* The kernel's order need not be ours: values go by id. */
START_TEST(test_read)
{
	struct evlist *el = three_and_one();
	const uint64_t group[] = { 30, 102, 10, 100, 20, 101 };
	const uint64_t single[] = { 40, 103 };

	open_ok(el, &default_target);
	fake_reply(100, 1000, 500, 3, group);
	fake_reply(103, 2000, 2000, 1, single);
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 2);
	ck_assert_int_eq(fake.reads[0].fd, 100);
	ck_assert_uint_eq(fake.reads[0].len, 24 + 16 * 3);
	ck_assert_int_eq(fake.reads[1].fd, 103);
	ck_assert_uint_eq(fake.reads[1].len, 24 + 16 * 1);
	check_vals(evlist_at(el, 0), 10, 1000, 500);
	check_vals(evlist_at(el, 1), 20, 1000, 500);
	check_vals(evlist_at(el, 2), 30, 1000, 500);
	check_vals(evlist_at(el, 3), 40, 2000, 2000);

	/* A second read replaces what the first one said. */
	fake.replies[0].buf[3] = 31;
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 4);
	check_vals(evlist_at(el, 2), 31, 1000, 500);
	evlist_free(el);
}
END_TEST

/* A missing member is not read, and the buffer is sized without it. */
START_TEST(test_read_member_missing)
{
	struct evlist *el = three_and_one();
	const uint64_t group[] = { 30, 101, 10, 100 };
	const uint64_t single[] = { 40, 102 };

	fake.open_errno[1] = ENOENT;
	open_ok(el, &default_target);
	fake_reply(100, 1000, 1000, 2, group);
	fake_reply(102, 1000, 1000, 1, single);
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 2);
	ck_assert_uint_eq(fake.reads[0].len, 24 + 16 * 2);
	check_vals(evlist_at(el, 0), 10, 1000, 1000);
	check_vals(evlist_at(el, 1), 0, 0, 0);
	check_vals(evlist_at(el, 2), 30, 1000, 1000);
	check_vals(evlist_at(el, 3), 40, 1000, 1000);
	evlist_free(el);
}
END_TEST

/* A group with nothing open is not read at all. */
START_TEST(test_read_group_missing)
{
	struct evlist *el = three_and_one();
	const uint64_t group[] = { 10, 100, 20, 101, 30, 102 };

	fake.open_errno[3] = EOPNOTSUPP;
	open_ok(el, &default_target);
	fake_reply(100, 1000, 1000, 3, group);
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 1);
	check_vals(evlist_at(el, 3), 0, 0, 0);
	ck_assert_int_eq(evlist_at(el, 3)->open_err, EOPNOTSUPP);
	evlist_free(el);
}
END_TEST

/* Replies the kernel should never give, and errors it can. */
static const struct bad_read_row {
	int line;
	size_t nr;		/* pairs in the reply */
	uint64_t pairs[8];	/* value, fd */
	size_t len;		/* bytes returned; 0: all of them */
	int err;		/* the read fails with this instead */
	int ret;
} bad_read_rows[] = {
	{ __LINE__, 3, { 10, 100, 20, 101, 30, 99 }, 0, 0, -EIO },
	{ __LINE__, 3, { 10, 100, 20, 101, 30, 103 }, 0, 0, -EIO },
	{ __LINE__, 3, { 10, 100, 20, 101, 30, 102 }, 40, 0, -EIO },
	{ __LINE__, 3, { 10, 100, 20, 101, 30, 102 }, 71, 0, -EIO },
	{ __LINE__, 3, { 10, 100, 20, 101, 30, 102 }, 8, 0, -EIO },
	{ __LINE__, 2, { 10, 100, 20, 101 }, 0, 0, -EIO },
	{ __LINE__, 0, { 0 }, 0, 0, -EIO },
	{ __LINE__, 0, { 0 }, 0, EIO, -EIO },
	{ __LINE__, 0, { 0 }, 0, ENOSPC, -ENOSPC },
};

START_TEST(test_read_bad)
{
	const struct bad_read_row *t = &bad_read_rows[_i];
	struct evlist *el = three_and_one();
	int ret;

	open_ok(el, &default_target);
	fake_reply(100, 1000, 1000, t->nr, t->pairs);
	if (t->len)
		fake.replies[0].len = t->len;
	fake.replies[0].err = t->err;
	ret = evlist_read(el);
	ck_assert_msg(ret == t->ret, "line %d: returned %d, want %d", t->line,
		      ret, t->ret);
	ck_assert_msg(fake.n_reads == 1, "line %d: %zu reads", t->line,
		      fake.n_reads);
	evlist_free(el);
}
END_TEST

START_TEST(test_close_twice)
{
	struct evlist *el = three_and_one();
	size_t i;

	open_ok(el, &default_target);
	evlist_close(el);
	evlist_close(el);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(fake.closes[i], 1);
		ck_assert_int_eq(evlist_at(el, i)->fds[0], -1);
	}
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 4);
	evlist_free(NULL);
}
END_TEST

/* An evlist that never opened, or that failed to, closes nothing. */
START_TEST(test_close_unopened)
{
	struct evlist *el = two_pairs();

	evlist_close(el);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 0);
}
END_TEST

/* {a,b},c with a and b weak (:W) or not. */
static struct evlist *pair_and_one(bool weak)
{
	struct evlist *el = evlist_new();

	ck_assert_ptr_nonnull(el);
	evlist_group_begin(el);
	add_weak(el, PERF_COUNT_HW_CPU_CYCLES, "a", weak);
	add_weak(el, PERF_COUNT_HW_INSTRUCTIONS, "b", weak);
	evlist_group_end(el);
	add(el, PERF_COUNT_HW_CACHE_MISSES, "c");
	return el;
}

/*
 * The kernel refuses the weak group as a whole (EINVAL on a member):
 * every member is reopened as a group of its own.
 */
START_TEST(test_weak_split)
{
	struct evlist *el = pair_and_one(true);
	const struct evsel *a = (struct evsel *)evlist_at(el, 0), *b = (struct evsel *)evlist_at(el, 1);
	const struct evsel *c = (struct evsel *)evlist_at(el, 2);
	const uint64_t ra[] = { 10, 101 }, rb[] = { 20, 102 };
	const uint64_t rc[] = { 30, 103 };

	fake.open_errno[1] = EINVAL;
	open_ok(el, &default_target);
	ck_assert_uint_eq(fake.n_opens, 5);
	check_opened(__LINE__, 0, &default_target, -1);
	check_opened(__LINE__, 1, &default_target, FAKE_FIRST_FD);
	/* Again, each alone: leaders, disabled, no group_fd. */
	check_opened(__LINE__, 2, &default_target, -1);
	check_opened(__LINE__, 3, &default_target, -1);
	check_opened(__LINE__, 4, &default_target, -1);
	ck_assert_uint_eq(fake.opens[2].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert_uint_eq(fake.opens[3].attr.config,
			  PERF_COUNT_HW_INSTRUCTIONS);
	ck_assert_uint_eq(fake.opens[4].attr.config,
			  PERF_COUNT_HW_CACHE_MISSES);
	ck_assert_uint_eq(fake.closes[0], 1);
	ck_assert_uint_eq(fake.n_closes, 1);
	ck_assert(a->split && b->split && !c->split);
	ck_assert_uint_ne(a->group, b->group);
	ck_assert_uint_ne(a->group, c->group);
	ck_assert_uint_ne(b->group, c->group);
	ck_assert_int_eq(a->fds[0], FAKE_FIRST_FD + 1);
	ck_assert_int_eq(b->fds[0], FAKE_FIRST_FD + 2);
	ck_assert_int_eq(c->fds[0], FAKE_FIRST_FD + 3);
	ck_assert_int_eq(a->open_err, 0);
	ck_assert_int_eq(b->open_err, 0);

	/* Read one by one too. */
	fake_reply(101, 1000, 500, 1, ra);
	fake_reply(102, 1000, 400, 1, rb);
	fake_reply(103, 1000, 1000, 1, rc);
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 3);
	check_vals(a, 10, 1000, 500);
	check_vals(b, 20, 1000, 400);
	check_vals(c, 30, 1000, 1000);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 4);
}
END_TEST

/* A member that is not here is no reason to split. */
START_TEST(test_weak_member_unsupported)
{
	struct evlist *el = pair_and_one(true);

	fake.open_errno[1] = ENOENT;
	open_ok(el, &default_target);
	ck_assert_uint_eq(fake.n_opens, 3);
	ck_assert(!evlist_at(el, 0)->split && !evlist_at(el, 1)->split);
	ck_assert_uint_eq(evlist_at(el, 0)->group, evlist_at(el, 1)->group);
	ck_assert_int_eq(evlist_at(el, 1)->open_err, ENOENT);
	ck_assert_uint_eq(fake.n_closes, 0);
	evlist_free(el);
}
END_TEST

/* Split, a member the kernel still refuses alone is fatal. */
START_TEST(test_weak_split_still_fails)
{
	struct evlist *el = pair_and_one(true);
	size_t failed = 99, i;

	fake.open_errno[1] = EINVAL;
	fake.open_errno[3] = EINVAL;
	ck_assert_int_eq(evlist_open(el, &default_target, &failed), -EINVAL);
	ck_assert_uint_eq(failed, 1);
	ck_assert_uint_eq(fake.n_opens, 4);
	ck_assert_uint_eq(fake.closes[0], 1);
	ck_assert_uint_eq(fake.closes[1], 1);
	ck_assert_uint_eq(fake.n_closes, 2);
	for (i = 0; i < evlist_count(el); i++)
		ck_assert_int_eq(evlist_at(el, i)->fds[0], -1);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 2);
}
END_TEST

/* A leader refused even alone: fatal, at the leader. */
START_TEST(test_weak_leader_fails)
{
	struct evlist *el = pair_and_one(true);
	size_t failed = 99, i;

	for (i = 0; i < FAKE_MAX_CALLS; i++)
		fake.open_errno[i] = i < 2 ? EINVAL : 0;
	ck_assert_int_eq(evlist_open(el, &default_target, &failed), -EINVAL);
	ck_assert_uint_eq(failed, 0);
	for (i = 0; i < evlist_count(el); i++)
		ck_assert_int_eq(evlist_at(el, i)->fds[0], -1);
	ck_assert_uint_eq(fake.n_closes, fake.next_fd - FAKE_FIRST_FD);
	evlist_free(el);
}
END_TEST

/* The same group without :W: the open fails there, nothing stays open. */
START_TEST(test_not_weak_fails)
{
	struct evlist *el = pair_and_one(false);
	size_t failed = 99, i;

	fake.open_errno[1] = EINVAL;
	ck_assert_int_eq(evlist_open(el, &default_target, &failed), -EINVAL);
	ck_assert_uint_eq(failed, 1);
	ck_assert_uint_eq(fake.n_opens, 2);
	ck_assert_uint_eq(fake.closes[0], 1);
	ck_assert_uint_eq(fake.n_closes, 1);
	for (i = 0; i < evlist_count(el); i++) {
		ck_assert_int_eq(evlist_at(el, i)->fds[0], -1);
		ck_assert(!evlist_at(el, i)->split);
	}
	ck_assert_int_eq(evlist_at(el, 1)->open_err, EINVAL);
	ck_assert_uint_eq(evlist_at(el, 0)->group, evlist_at(el, 1)->group);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 1);
}
END_TEST

/* Who led the group of the event whose open failed, for its message. */
static const struct leader_row {
	int line;
	int open_errno[4];	/* by call; {a,b,c},d opens in that order */
	size_t failed;
	const char *leader;	/* NULL: none */
} leader_rows[] = {
	{ __LINE__, { EINVAL }, 0, NULL },
	{ __LINE__, { 0, EINVAL }, 1, "a" },
	{ __LINE__, { 0, 0, EINVAL }, 2, "a" },
	{ __LINE__, { 0, ENOENT, EINVAL }, 2, "a" },
	{ __LINE__, { 0, 0, 0, EINVAL }, 3, NULL },
	/* Without a, b led: the kernel refused c beside b. */
	{ __LINE__, { ENOENT, EINVAL }, 1, NULL },
	{ __LINE__, { ENOENT, 0, EINVAL }, 2, "b" },
	{ __LINE__, { EOPNOTSUPP, ENODEV, EINVAL }, 2, NULL },
};

START_TEST(test_open_leader)
{
	const struct leader_row *t = &leader_rows[_i];
	struct evlist *el = three_and_one();
	const struct evsel *leader;
	size_t failed = 99;

	memcpy(fake.open_errno, t->open_errno, sizeof(t->open_errno));
	ck_assert_int_eq(evlist_open(el, &default_target, &failed), -EINVAL);
	ck_assert_msg(failed == t->failed, "line %d: failed %zu", t->line,
		      failed);
	leader = evlist_open_leader(el, failed);
	ck_assert_msg(t->leader ? leader && !strcmp(leader->name, t->leader)
				: !leader,
		      "line %d: led by %s, want %s", t->line,
		      leader ? leader->name : "none",
		      t->leader ? t->leader : "none");
	evlist_free(el);
}
END_TEST

/* A member whose PMU does not count on that CPU led nothing there. */
START_TEST(test_open_leader_cpumask)
{
	static int cpus[] = { 0, 2 };
	const struct target on_cpus = { .cpus = cpus, .n_cpus = 2 };
	struct evlist *el = three_and_one();
	struct evsel *a = (struct evsel *)evlist_at(el, 0);
	size_t failed = 99;

	a->cpus = malloc(sizeof(*a->cpus));
	ck_assert_ptr_nonnull(a->cpus);
	a->cpus[0] = 0;
	a->n_cpus = 1;
	/* CPU 0: a, b, c; CPU 2: b leads, and c is refused. */
	fake.open_errno[4] = EINVAL;
	ck_assert_int_eq(evlist_open(el, &on_cpus, &failed), -EINVAL);
	ck_assert_uint_eq(failed, 2);
	ck_assert_int_eq(evlist_at(el, 2)->err_cpu, 2);
	ck_assert_str_eq(evlist_open_leader(el, failed)->name, "b");
	evlist_free(el);
}
END_TEST

/* :P: precise_ip from 3 down while the kernel says no, down to 0. */
static const struct precise_row {
	int line;
	bool precise_max;
	unsigned start;		/* precise_ip as parsed (:p, :pp) */
	size_t fails;		/* opens that fail, from the first */
	int err;
	size_t opens;		/* opens made */
	int ret;
	bool opened;		/* the event is open in the end */
	unsigned final;		/* its precise_ip then */
} precise_rows[] = {
	{ __LINE__, true, 0, 0, 0, 1, 0, true, 3 },
	{ __LINE__, true, 0, 1, EOPNOTSUPP, 2, 0, true, 2 },
	{ __LINE__, true, 0, 2, EOPNOTSUPP, 3, 0, true, 1 },
	{ __LINE__, true, 0, 3, EOPNOTSUPP, 4, 0, true, 0 },
	{ __LINE__, true, 0, 4, EOPNOTSUPP, 4, 0, false, 0 },
	{ __LINE__, true, 0, 2, EINVAL, 3, 0, true, 1 },
	{ __LINE__, true, 0, 4, EINVAL, 4, -EINVAL, false, 0 },
	/* P does not care what the letters asked for. */
	{ __LINE__, true, 1, 1, EOPNOTSUPP, 2, 0, true, 2 },
	/* Without P, no second try. */
	{ __LINE__, false, 2, 1, EOPNOTSUPP, 1, 0, false, 2 },
	{ __LINE__, false, 3, 1, EINVAL, 1, -EINVAL, false, 3 },
	{ __LINE__, false, 2, 0, 0, 1, 0, true, 2 },
};

START_TEST(test_precise_max)
{
	const struct precise_row *t = &precise_rows[_i];
	struct evlist *el = evlist_new();
	struct evsel *e;
	size_t failed = 99, i;
	int ret;

	add(el, PERF_COUNT_HW_CPU_CYCLES, "cycles");
	e = (struct evsel *)evlist_at(el, 0);
	e->precise_max = t->precise_max;
	e->attr.precise_ip = t->start;
	for (i = 0; i < t->fails; i++)
		fake.open_errno[i] = t->err;
	ret = evlist_open(el, &default_target, &failed);
	ck_assert_msg(ret == t->ret, "line %d: returned %d", t->line, ret);
	ck_assert_msg(fake.n_opens == t->opens, "line %d: %zu opens",
		      t->line, fake.n_opens);
	for (i = 0; i < fake.n_opens; i++) {
		unsigned want = t->precise_max ? 3 - (unsigned)i : t->start;

		ck_assert_msg(fake.opens[i].attr.precise_ip == want,
			      "line %d: open %zu with precise_ip %u, want %u",
			      t->line, i,
			      (unsigned)fake.opens[i].attr.precise_ip, want);
	}
	ck_assert_msg((e->fds[0] >= 0) == t->opened, "line %d: fd %d",
		      t->line, e->fds[0]);
	ck_assert_msg(e->attr.precise_ip == t->final,
		      "line %d: left at precise_ip %u", t->line,
		      (unsigned)e->attr.precise_ip);
	ck_assert_msg(e->open_err == (t->opened ? 0 : t->err),
		      "line %d: open_err %d", t->line, e->open_err);
	evlist_free(el);
}
END_TEST

/* --explain shows what the first try would be: 3 for :P. */
START_TEST(test_configure)
{
	struct evlist *el = pair_and_one(false);
	struct evsel *a = (struct evsel *)evlist_at(el, 0), *b = (struct evsel *)evlist_at(el, 1);

	a->pinned = b->pinned = true;
	a->exclusive = b->exclusive = true;
	a->attr.pinned = b->attr.pinned = 1;
	a->attr.exclusive = b->attr.exclusive = 1;
	b->precise_max = true;
	evlist_configure(el, &default_target);
	ck_assert_uint_eq(a->attr.pinned, 1);
	ck_assert_uint_eq(a->attr.exclusive, 1);
	ck_assert_uint_eq(a->attr.disabled, 1);
	ck_assert_uint_eq(a->attr.precise_ip, 0);
	ck_assert_uint_eq(b->attr.pinned, 0);
	ck_assert_uint_eq(b->attr.exclusive, 0);
	ck_assert_uint_eq(b->attr.disabled, 0);
	ck_assert_uint_eq(b->attr.precise_ip, 3);
	ck_assert_uint_eq(evlist_at(el, 2)->attr.disabled, 1);
	ck_assert_uint_eq(fake.n_opens, 0);
	evlist_free(el);
}
END_TEST

/* :D and :e are the leader's to carry, whoever ends up leading. */
START_TEST(test_pinned_leader_only)
{
	struct evlist *el = three_and_one();
	size_t i;

	for (i = 0; i < 3; i++) {
		struct evsel *e = (struct evsel *)evlist_at(el, i);

		e->pinned = e->exclusive = true;
		e->attr.pinned = e->attr.exclusive = 1;
	}
	fake.open_errno[0] = _i ? ENOENT : 0;
	open_ok(el, &default_target);
	ck_assert_uint_eq(fake.n_opens, 4);
	for (i = 0; i < 3; i++) {
		const struct perf_event_attr *a = &fake.opens[i].attr;
		/* a, missing, was tried as the leader all the same. */
		unsigned lead = i <= (size_t)_i;

		ck_assert_msg(a->pinned == lead && a->exclusive == lead,
			      "open %zu: pinned %u exclusive %u", i,
			      (unsigned)a->pinned, (unsigned)a->exclusive);
		ck_assert(evlist_at(el, i)->pinned);
	}
	ck_assert_uint_eq(fake.opens[3].attr.pinned, 0);
	ck_assert_uint_eq(fake.opens[3].attr.exclusive, 0);
	evlist_free(el);
}
END_TEST

static int pids_10_11[] = { 10, 11 }, cpus_0_2[] = { 0, 2 };

static const struct target two_pids = {
	.pids = pids_10_11, .n_pids = 2, .inherit = true,
	.enable_on_exec = true,
};

/* Every group on every thread; reads per thread, summed. */
START_TEST(test_targets)
{
	struct evlist *el = three_and_one();
	const struct evsel *a = (struct evsel *)evlist_at(el, 0), *d = evlist_at(el, 3);
	static const struct { pid_t pid; int group_fd; } want[] = {
		{ 10, -1 }, { 10, 100 }, { 10, 100 },
		{ 11, -1 }, { 11, 103 }, { 11, 103 },
		{ 10, -1 }, { 11, -1 },
	};
	const uint64_t g10[] = { 1, 100, 2, 101, 3, 102 };
	const uint64_t g11[] = { 30, 105, 10, 103, 20, 104 };
	const uint64_t d10[] = { 5, 106 }, d11[] = { 7, 107 };
	size_t i;

	open_ok(el, &two_pids);
	ck_assert_uint_eq(evlist_targets(el), 2);
	ck_assert_uint_eq(fake.n_opens, N_ROWS(want));
	for (i = 0; i < (size_t)N_ROWS(want); i++) {
		ck_assert_msg(fake.opens[i].pid == want[i].pid &&
			      fake.opens[i].cpu == -1 &&
			      fake.opens[i].group_fd == want[i].group_fd,
			      "open %zu: pid %d cpu %d group_fd %d", i,
			      fake.opens[i].pid, fake.opens[i].cpu,
			      fake.opens[i].group_fd);
		ck_assert_uint_eq(fake.opens[i].attr.disabled,
				  want[i].group_fd == -1);
	}
	ck_assert_int_eq(a->fds[0], 100);
	ck_assert_int_eq(a->fds[1], 103);
	ck_assert_int_eq(d->fds[1], 107);

	fake_reply(100, 100, 50, 3, g10);
	fake_reply(103, 200, 150, 3, g11);
	fake_reply(106, 1000, 1000, 1, d10);
	fake_reply(107, 10, 10, 1, d11);
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 4);
	ck_assert_int_eq(fake.reads[0].fd, 100);
	ck_assert_int_eq(fake.reads[1].fd, 103);
	ck_assert_int_eq(fake.reads[2].fd, 106);
	ck_assert_int_eq(fake.reads[3].fd, 107);
	ck_assert_uint_eq(a->tvals[0].value, 1);
	ck_assert_uint_eq(a->tvals[1].value, 10);
	check_vals(a, 11, 300, 200);
	check_vals(evlist_at(el, 1), 22, 300, 200);
	check_vals(evlist_at(el, 2), 33, 300, 200);
	check_vals(d, 12, 1010, 1010);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, 8);
}
END_TEST

/* Threads x CPUs, threads outermost; or CPUs alone. */
START_TEST(test_targets_cpus)
{
	const struct target both = {
		.pids = pids_10_11, .n_pids = 2, .cpus = cpus_0_2, .n_cpus = 2,
	}, cpus_only = {
		.cpus = cpus_0_2, .n_cpus = 2,
	};
	static const struct { pid_t pid; int cpu; } want[] = {
		{ 10, 0 }, { 10, 2 }, { 11, 0 }, { 11, 2 },
		{ -1, 0 }, { -1, 2 },
	};
	struct evlist *el = evlist_new();
	struct evlist *el2 = evlist_new();
	size_t i;

	add(el, PERF_COUNT_HW_CPU_CYCLES, "a");
	add(el2, PERF_COUNT_HW_CPU_CYCLES, "a");
	open_ok(el, &both);
	ck_assert_uint_eq(evlist_targets(el), 4);
	open_ok(el2, &cpus_only);
	ck_assert_uint_eq(evlist_targets(el2), 2);
	ck_assert_uint_eq(fake.n_opens, 6);
	for (i = 0; i < 6; i++)
		ck_assert_msg(fake.opens[i].pid == want[i].pid &&
			      fake.opens[i].cpu == want[i].cpu,
			      "open %zu: pid %d cpu %d", i, fake.opens[i].pid,
			      fake.opens[i].cpu);
	evlist_free(el);
	evlist_free(el2);
	ck_assert_uint_eq(fake.n_closes, 6);
}
END_TEST

/* Not here on the first thread: not tried on the others. */
START_TEST(test_targets_unsupported)
{
	struct evlist *el = three_and_one();
	static const struct {
		pid_t pid;
		int group_fd;
		uint64_t config;
	} want[] = {
		{ 10, -1, PERF_COUNT_HW_CPU_CYCLES },
		{ 10, -1, PERF_COUNT_HW_INSTRUCTIONS },
		{ 10, 100, PERF_COUNT_HW_BRANCH_MISSES },
		{ 11, -1, PERF_COUNT_HW_INSTRUCTIONS },
		{ 11, 102, PERF_COUNT_HW_BRANCH_MISSES },
		{ 10, -1, PERF_COUNT_HW_CACHE_MISSES },
		{ 11, -1, PERF_COUNT_HW_CACHE_MISSES },
	};
	size_t i;

	fake.open_errno[0] = ENOENT;
	open_ok(el, &two_pids);
	ck_assert_uint_eq(fake.n_opens, N_ROWS(want));
	for (i = 0; i < (size_t)N_ROWS(want); i++)
		ck_assert_msg(fake.opens[i].pid == want[i].pid &&
			      fake.opens[i].group_fd == want[i].group_fd &&
			      fake.opens[i].attr.config == want[i].config,
			      "open %zu: pid %d group_fd %d config %ju", i,
			      fake.opens[i].pid, fake.opens[i].group_fd,
			      (uintmax_t)fake.opens[i].attr.config);
	ck_assert_int_eq(evlist_at(el, 0)->open_err, ENOENT);
	ck_assert(!evsel_is_open(evlist_at(el, 0)));
	evlist_free(el);
}
END_TEST

/* A read of {c,d} on target t: c counted vc, d vd. */
static void fake_reply_cd(struct evlist *el, size_t t, uint64_t vc,
			  uint64_t vd)
{
	const struct evsel *c = (struct evsel *)evlist_at(el, 2), *d = evlist_at(el, 3);
	const uint64_t pairs[] = { vc, (uint64_t)c->fds[t],
				   vd, (uint64_t)d->fds[t] };

	fake_reply(c->fds[t], 100, 100, 2, pairs);
}

/* A thread gone before its open (ESRCH): that thread is left out. */
static const struct vanish_row {
	int line;
	size_t call;		/* the open that says ESRCH */
	bool skip;		/* skip_vanished */
	int ret;
	size_t opens;
} vanish_rows[] = {
	/* a on 11: the rest of its group on 11 is not tried. */
	{ __LINE__, 2, true, 0, 7 },
	/* b on 11: a on 11, opened, is closed again. */
	{ __LINE__, 3, true, 0, 8 },
	/* Without skip_vanished it is an error like any other. */
	{ __LINE__, 2, false, -ESRCH, 3 },
	{ __LINE__, 3, false, -ESRCH, 4 },
};

START_TEST(test_skip_vanished)
{
	const struct vanish_row *t = &vanish_rows[_i];
	struct target tg = two_pids;
	struct evlist *el = two_pairs();
	const struct evsel *a = (struct evsel *)evlist_at(el, 0), *b = (struct evsel *)evlist_at(el, 1);
	const uint64_t ab10[] = { 1, 100, 2, 101 };
	size_t failed = 99, i;
	int ret;

	tg.skip_vanished = t->skip;
	fake.open_errno[t->call] = ESRCH;
	ret = evlist_open(el, &tg, &failed);
	ck_assert_msg(ret == t->ret, "line %d: returned %d", t->line, ret);
	ck_assert_msg(fake.n_opens == t->opens, "line %d: %zu opens", t->line,
		      fake.n_opens);
	if (ret < 0) {
		ck_assert_uint_eq(failed, t->call == 2 ? 0 : 1);
		for (i = 0; i < evlist_count(el); i++)
			ck_assert(!evsel_is_open(evlist_at(el, i)));
		ck_assert_uint_eq(fake.n_closes, fake.next_fd - FAKE_FIRST_FD);
		evlist_free(el);
		return;
	}
	ck_assert_int_eq(a->fds[0], 100);
	ck_assert_int_eq(b->fds[0], 101);
	ck_assert_int_eq(a->fds[1], -1);
	ck_assert_int_eq(b->fds[1], -1);
	ck_assert_int_eq(a->open_err, 0);
	ck_assert_int_eq(b->open_err, 0);
	if (t->call == 3)
		ck_assert_uint_eq(fake.closes[2], 1);
	/* {c,d} on both threads. */
	for (i = 2; i < 4; i++) {
		ck_assert_int_ge(evlist_at(el, i)->fds[0], 0);
		ck_assert_int_ge(evlist_at(el, i)->fds[1], 0);
	}
	/* The thread left out of {a,b} is not read for it. */
	fake_reply(100, 100, 100, 2, ab10);
	fake_reply_cd(el, 0, 3, 4);
	fake_reply_cd(el, 1, 5, 6);
	ck_assert_int_eq(evlist_read(el), 0);
	ck_assert_uint_eq(fake.n_reads, 3);
	check_vals(a, 1, 100, 100);
	check_vals(b, 2, 100, 100);
	check_vals(evlist_at(el, 2), 8, 200, 200);
	check_vals(evlist_at(el, 3), 10, 200, 200);
	evlist_free(el);
	ck_assert_uint_eq(fake.n_closes, fake.next_fd - FAKE_FIRST_FD);
}
END_TEST

static Suite *evlist_suite(void)
{
	Suite *s = suite_create("evlist");
	TCase *tc;

	tc = tcase_create("open");
	tcase_add_checked_fixture(tc, evlist_setup, fake_teardown);
	tcase_add_test(tc, test_groups);
	tcase_add_loop_test(tc, test_open_attrs, 0, N_ROWS(target_rows));
	tcase_add_loop_test(tc, test_open_leader_missing, 0,
			    N_ROWS(unsupported));
	tcase_add_test(tc, test_open_member_missing);
	tcase_add_loop_test(tc, test_open_fatal, 0, N_ROWS(fatal_rows));
	tcase_add_loop_test(tc, test_open_leader, 0, N_ROWS(leader_rows));
	tcase_add_test(tc, test_open_id_fails);
	tcase_add_test(tc, test_counting);
	suite_add_tcase(s, tc);

	tc = tcase_create("weak");
	tcase_add_checked_fixture(tc, evlist_setup, fake_teardown);
	tcase_add_test(tc, test_weak_split);
	tcase_add_test(tc, test_weak_member_unsupported);
	tcase_add_test(tc, test_weak_split_still_fails);
	tcase_add_test(tc, test_weak_leader_fails);
	tcase_add_test(tc, test_not_weak_fails);
	suite_add_tcase(s, tc);

	tc = tcase_create("modifiers");
	tcase_add_checked_fixture(tc, evlist_setup, fake_teardown);
	tcase_add_loop_test(tc, test_precise_max, 0, N_ROWS(precise_rows));
	tcase_add_test(tc, test_configure);
	tcase_add_loop_test(tc, test_pinned_leader_only, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("targets");
	tcase_add_checked_fixture(tc, evlist_setup, fake_teardown);
	tcase_add_test(tc, test_targets);
	tcase_add_test(tc, test_copy);
	tcase_add_test(tc, test_targets_cpus);
	tcase_add_test(tc, test_targets_unsupported);
	tcase_add_test(tc, test_open_leader_cpumask);
	tcase_add_loop_test(tc, test_skip_vanished, 0, N_ROWS(vanish_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("read");
	tcase_add_checked_fixture(tc, evlist_setup, fake_teardown);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_read_member_missing);
	tcase_add_test(tc, test_read_group_missing);
	tcase_add_loop_test(tc, test_read_bad, 0, N_ROWS(bad_read_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("close");
	tcase_add_checked_fixture(tc, evlist_setup, fake_teardown);
	tcase_add_test(tc, test_close_twice);
	tcase_add_test(tc, test_close_unopened);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(evlist_suite());
}
