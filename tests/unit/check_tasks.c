/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of tasks.c on the fake kernel: the counters and dummies it
 * opens and redirects, and the rows it makes of hand-made records:
 * names from COMM and FORK, a value set once however often it comes,
 * the command's row as what the others leave of its totals, processes
 * summed, lost records and tasks that never ended.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <check.h>

#include "aggr.h"
#include "event.h"
#include "evlist.h"
#include "fake_kernel.h"
#include "target.h"
#include "tasks.h"
#include "unit.h"

static int pid_1234[] = { 1234 };
static struct target tg = {
	.pids = pid_1234, .n_pids = 1, .inherit = true,
	.enable_on_exec = true, .per_task = true,
};

static uint64_t head;	/* where the next record goes */

static void add(struct evlist *el, uint64_t config, const char *name)
{
	struct evsel_desc d = { .name = name };

	event_attr_init(&d.attr);
	d.attr.type = PERF_TYPE_SOFTWARE;
	d.attr.config = config;
	ck_assert_int_eq(evlist_add(el, &d), 0);
}

/* {a,b} opened on the command, its ring buffer made: fds 100 to 103. */
static struct evlist *opened(struct tasks **t)
{
	struct evlist *el = evlist_new();
	size_t failed;

	ck_assert_ptr_nonnull(el);
	evlist_group_begin(el);
	add(el, PERF_COUNT_SW_TASK_CLOCK, "a");
	add(el, PERF_COUNT_SW_PAGE_FAULTS, "b");
	evlist_group_end(el);
	ck_assert_int_eq(evlist_open(el, &tg, &failed), 0);
	ck_assert_int_eq(tasks_open(t, el, 1234, 1), 0);
	head = 0;
	return el;
}

static unsigned char *data(void)
{
	return fake.ring + sysconf(_SC_PAGESIZE);
}

static void put_record(uint32_t type, const void *body, size_t len)
{
	struct perf_event_header h = {
		.type = type, .size = (uint16_t)(sizeof(h) + len),
	};

	memcpy(data() + head, &h, sizeof(h));
	memcpy(data() + head + sizeof(h), body, len);
	head += h.size;
	((struct perf_event_mmap_page *)(void *)fake.ring)->data_head = head;
}

static void put_comm(uint32_t pid, uint32_t tid, const char *comm)
{
	struct { uint32_t pid, tid; char comm[16]; } b = { pid, tid, "" };

	strncpy(b.comm, comm, sizeof(b.comm) - 1);
	put_record(PERF_RECORD_COMM, &b, sizeof(b));
}

static void put_fork(uint32_t pid, uint32_t tid, uint32_t ptid)
{
	const uint32_t b[6] = { pid, pid, tid, ptid, 0, 0 };

	put_record(PERF_RECORD_FORK, b, sizeof(b));
}

/* A READ of nr counters (fds 100, 101 ...) with values a and b. */
static void put_read(uint32_t pid, uint32_t tid, uint64_t nr, uint64_t a,
		     uint64_t b)
{
	struct { uint32_t pid, tid; uint64_t v[7]; } r = {
		pid, tid,
		{ nr, 10, 10, a, fake_id(100), b, fake_id(101) },
	};

	put_record(PERF_RECORD_READ, &r, 8 + (3 + 2 * nr) * 8);
}

START_TEST(test_opens)
{
	struct tasks *t;
	struct evlist *el;

	fake_setup();
	el = opened(&t);
	ck_assert_uint_eq(fake.n_opens, 4);
	ck_assert(fake.opens[0].attr.inherit_stat);
	ck_assert(fake.opens[1].attr.inherit_stat);
	/* The buffer's owner: not inherited, so mappable. */
	ck_assert(!fake.opens[2].attr.inherit);
	ck_assert(fake.opens[2].attr.exclude_kernel);
	ck_assert_int_eq(fake.mmap_fd, 102);
	ck_assert_uint_eq(fake.mmap_len, 2 * (size_t)sysconf(_SC_PAGESIZE));
	/* The names: inherited, with COMM and FORK records. */
	ck_assert(fake.opens[3].attr.inherit && fake.opens[3].attr.comm &&
		  fake.opens[3].attr.task);
	ck_assert_int_eq(fake.output[0], 102);
	ck_assert_int_eq(fake.output[1], 102);
	ck_assert_int_eq(fake.output[3], 102);
	tasks_close(t);
	ck_assert_uint_eq(fake.munmaps, 1);
	ck_assert_uint_eq(fake.closes[2], 1);
	ck_assert_uint_eq(fake.closes[3], 1);
	evlist_free(el);
	fake_teardown();
}
END_TEST

/* Its mapping refused: -errno, and the dummy closed again. */
START_TEST(test_mmap_refused)
{
	struct evlist *el = evlist_new();
	struct tasks *t = (struct tasks *)1;
	size_t failed;

	fake_setup();
	fake.mmap_err = EPERM;
	add(el, PERF_COUNT_SW_TASK_CLOCK, "a");
	ck_assert_int_eq(evlist_open(el, &tg, &failed), 0);
	ck_assert_int_eq(tasks_open(&t, el, 1234, 1), -EPERM);
	ck_assert_ptr_null(t);
	ck_assert_uint_eq(fake.n_opens, 2);
	ck_assert_uint_eq(fake.closes[1], 1);
	evlist_free(el);
	fake_teardown();
}
END_TEST

static const struct rows_row {
	int line;
	bool per_process;
	size_t n;
	const char *label[4];
	uint64_t a[4], b[4];
} rows_rows[] = {
	{ __LINE__, false, 4,
	  { "cmd-1234", "cmd-1235", "ch?ld-1236", "ch?ld-1237" },
	  { 88, 7, 2, 3 }, { 880, 70, 20, 30 } },
	{ __LINE__, true, 2, { "cmd-1234", "ch?ld-1236" },
	  { 95, 5 }, { 950, 50 } },
};

START_TEST(test_rows)
{
	const struct rows_row *w = &rows_rows[_i];
	const struct counts_values totals[2] = {
		{ 100, 100, 100 }, { 1000, 100, 100 },
	};
	const uint64_t lost[2] = { 0, 4 }, unknown[2] = { 1, 2 };
	struct counts_values *v;
	struct tasks_gaps gaps;
	struct tasks *t;
	struct evlist *el;
	struct aggr a;
	size_t i;

	fake_setup();
	el = opened(&t);
	put_comm(1234, 1234, "cmd");
	put_fork(1234, 1235, 1234);
	put_read(1234, 1235, 2, 7, 70);
	put_read(1234, 1235, 1, 7, 0);	/* again: set, not added */
	put_fork(1236, 1236, 1234);
	put_comm(1236, 1236, "ch\tld");
	ck_assert_int_eq(tasks_drain(t, el), 6);
	put_fork(1236, 1237, 1236);
	put_read(1236, 1237, 2, 3, 30);
	put_read(1236, 1236, 2, 2, 20);
	put_fork(1234, 1238, 1234);	/* never ends */
	put_record(PERF_RECORD_LOST, lost, sizeof(lost));
	put_record(99, unknown, sizeof(unknown));
	ck_assert_int_eq(tasks_drain(t, el), 6);
	ck_assert_uint_eq(((struct perf_event_mmap_page *)(void *)
			   fake.ring)->data_tail, head);
	ck_assert_int_eq(tasks_aggr(t, totals, w->per_process, &a, &v,
				    &gaps), 0);
	ck_assert_msg(a.n == w->n, "line %d: %zu rows", w->line, a.n);
	for (i = 0; i < w->n; i++) {
		ck_assert_msg(strcmp(a.label[i], w->label[i]) == 0,
			      "line %d: row %zu is %s", w->line, i,
			      a.label[i]);
		ck_assert_msg(v[2 * i].value == w->a[i] &&
			      v[2 * i + 1].value == w->b[i],
			      "line %d: row %zu: %llu %llu", w->line, i,
			      (unsigned long long)v[2 * i].value,
			      (unsigned long long)v[2 * i + 1].value);
	}
	ck_assert_uint_eq(gaps.lost, 4);
	ck_assert_uint_eq(gaps.unended, 1);
	ck_assert(!gaps.full);
	free(v);
	aggr_free(&a);
	tasks_close(t);
	evlist_free(el);
	fake_teardown();
}
END_TEST

static Suite *tasks_suite(void)
{
	Suite *s = suite_create("tasks");
	TCase *tc = tcase_create("tasks");

	tcase_add_test(tc, test_opens);
	tcase_add_test(tc, test_mmap_refused);
	tcase_add_loop_test(tc, test_rows, 0, N_ROWS(rows_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(tasks_suite());
}
