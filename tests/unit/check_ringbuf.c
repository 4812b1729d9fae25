/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of ringbuf.c: records taken from hand-made ring buffers,
 * across the buffer's end, and decoded; LOST records, unknown types
 * passed over, and buffers that make no sense.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include <check.h>

#include "ringbuf.h"
#include "unit.h"

#define SIZE 256

static unsigned char data[SIZE];
static struct ringbuf_record rec;

/* Write n bytes at position at (not wrapped), as the kernel does. */
static void put(uint64_t at, const void *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		data[(at + i) % SIZE] = ((const unsigned char *)src)[i];
}

/* A record of type with body (len bytes) at at; its end. */
static uint64_t put_record(uint64_t at, uint32_t type, const void *body,
			   size_t len)
{
	struct perf_event_header h = {
		.type = type, .size = (uint16_t)(sizeof(h) + len),
	};

	put(at, &h, sizeof(h));
	put(at + sizeof(h), body, len);
	return at + sizeof(h) + len;
}

/* A READ of a group of two: nr, enabled, running, {value, id} x 2. */
static uint64_t put_read(uint64_t at, uint32_t tid, uint64_t v0)
{
	struct {
		uint32_t pid, tid;
		uint64_t v[7];
	} b = { 7, tid, { 2, 1000, 900, v0, 11, v0 * 2, 12 } };

	return put_record(at, PERF_RECORD_READ, &b, sizeof(b));
}

static const struct wrap_row {
	int line;
	uint64_t start;		/* where the record begins */
} wrap_rows[] = {
	{ __LINE__, 0 },		/* whole, at the start */
	{ __LINE__, SIZE - 8 },		/* the header before the end */
	{ __LINE__, SIZE - 4 },		/* the header split by the end */
	{ __LINE__, SIZE - 20 },	/* the body split by the end */
	{ __LINE__, 3 * SIZE - 72 },	/* ends right at the end */
	{ __LINE__, 5 * SIZE + 40 },	/* after several turns */
};

START_TEST(test_wrap)
{
	const struct wrap_row *t = &wrap_rows[_i];
	struct ringbuf_view v = { .data = data, .size = SIZE };
	struct ringbuf_event ev;
	uint64_t tail = t->start;

	memset(data, 0xa5, sizeof(data));
	v.head = put_read(t->start, 42, 5);
	ck_assert_msg(ringbuf_next(&v, &tail, &rec) == 1, "line %d", t->line);
	ck_assert_msg(tail == v.head, "line %d", t->line);
	ck_assert_int_eq(ringbuf_decode(&rec, &ev), 0);
	ck_assert_int_eq(ev.kind, RINGBUF_READ);
	ck_assert_uint_eq(ev.pid, 7);
	ck_assert_uint_eq(ev.tid, 42);
	ck_assert_uint_eq(ev.n_values, 7);
	ck_assert_uint_eq(ev.values[0], 2);
	ck_assert_uint_eq(ev.values[3], 5);
	ck_assert_uint_eq(ev.values[5], 10);
	ck_assert_uint_eq(ev.values[6], 12);
	ck_assert_msg(ringbuf_next(&v, &tail, &rec) == 0, "line %d", t->line);
}
END_TEST

/* Records of each kind in a row, one unknown between them, a LOST. */
START_TEST(test_kinds)
{
	struct ringbuf_view v = { .data = data, .size = SIZE };
	const struct { uint32_t pid, tid; char comm[8]; } comm = {
		7, 7, "tasks" };
	const uint32_t fork[6] = { 7, 7, 8, 7, 0, 0 };
	const uint64_t lost[2] = { 99, 13 };
	const uint64_t unknown[3] = { 1, 2, 3 };
	struct ringbuf_event ev;
	uint64_t tail = SIZE - 16, at = tail;

	at = put_record(at, PERF_RECORD_COMM, &comm, sizeof(comm));
	at = put_record(at, 77, unknown, sizeof(unknown));
	at = put_record(at, PERF_RECORD_FORK, fork, sizeof(fork));
	at = put_record(at, PERF_RECORD_LOST, lost, sizeof(lost));
	v.head = at;
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 1);
	ck_assert_int_eq(ringbuf_decode(&rec, &ev), 0);
	ck_assert_int_eq(ev.kind, RINGBUF_COMM);
	ck_assert_str_eq(ev.comm, "tasks");
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 1);
	ck_assert_int_eq(ringbuf_decode(&rec, &ev), 0);
	ck_assert_int_eq(ev.kind, RINGBUF_OTHER);
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 1);
	ck_assert_int_eq(ringbuf_decode(&rec, &ev), 0);
	ck_assert_int_eq(ev.kind, RINGBUF_FORK);
	ck_assert_uint_eq(ev.pid, 7);
	ck_assert_uint_eq(ev.tid, 8);
	ck_assert_uint_eq(ev.ptid, 7);
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 1);
	ck_assert_int_eq(ringbuf_decode(&rec, &ev), 0);
	ck_assert_int_eq(ev.kind, RINGBUF_LOST);
	ck_assert_uint_eq(ev.lost, 13);
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 0);
	ck_assert_uint_eq(tail, v.head);
}
END_TEST

static const struct bad_row {
	int line;
	uint16_t size;		/* the header's */
	uint64_t head_past;	/* head, this far past the record's start */
} bad_rows[] = {
	{ __LINE__, 0, 16 },		/* shorter than its header */
	{ __LINE__, 4, 16 },
	{ __LINE__, 32, 16 },		/* past head */
	{ __LINE__, 8, 4 },		/* head inside a header */
	{ __LINE__, 8, SIZE + 8 },	/* more than the buffer holds */
};

START_TEST(test_bad)
{
	const struct bad_row *t = &bad_rows[_i];
	struct ringbuf_view v = { .data = data, .size = SIZE };
	struct perf_event_header h = { .type = PERF_RECORD_READ,
				       .size = t->size };
	uint64_t tail = 100;

	put(tail, &h, sizeof(h));
	v.head = tail + t->head_past;
	ck_assert_msg(ringbuf_next(&v, &tail, &rec) == -EBADMSG, "line %d",
		      t->line);
	ck_assert_msg(tail == 100, "line %d", t->line);
}
END_TEST

/* Known kinds too short for what they carry. */
static const struct short_row {
	int line;
	uint32_t type;
	size_t len;
} short_rows[] = {
	{ __LINE__, PERF_RECORD_READ, 4 },
	{ __LINE__, PERF_RECORD_READ, 12 },	/* not whole u64s */
	{ __LINE__, PERF_RECORD_COMM, 8 },	/* no name */
	{ __LINE__, PERF_RECORD_FORK, 8 },
	{ __LINE__, PERF_RECORD_LOST, 8 },
};

START_TEST(test_short)
{
	const struct short_row *t = &short_rows[_i];
	struct ringbuf_view v = { .data = data, .size = SIZE };
	unsigned char body[16];
	struct ringbuf_event ev;
	uint64_t tail = 0;

	/* A COMM's name without its NUL is too short as well. */
	memset(body, 'x', sizeof(body));
	v.head = put_record(0, t->type, body, t->len);
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 1);
	ck_assert_msg(ringbuf_decode(&rec, &ev) == -EBADMSG, "line %d",
		      t->line);
}
END_TEST

/* A record longer than pstat keeps is passed over whole. */
START_TEST(test_long)
{
	static unsigned char big[2 * RINGBUF_RECORD_MAX];
	struct ringbuf_view v = { .data = big, .size = sizeof(big) };
	struct perf_event_header h = { .type = PERF_RECORD_READ,
				       .size = RINGBUF_RECORD_MAX + 8 };
	struct ringbuf_event ev;
	uint64_t tail = 0;

	memcpy(big, &h, sizeof(h));
	v.head = h.size;
	ck_assert_int_eq(ringbuf_next(&v, &tail, &rec), 1);
	ck_assert_uint_eq(tail, h.size);
	ck_assert_int_eq(ringbuf_decode(&rec, &ev), 0);
	ck_assert_int_eq(ev.kind, RINGBUF_OTHER);
}
END_TEST

static Suite *ringbuf_suite(void)
{
	Suite *s = suite_create("ringbuf");
	TCase *tc = tcase_create("records");

	tcase_add_loop_test(tc, test_wrap, 0, N_ROWS(wrap_rows));
	tcase_add_test(tc, test_kinds);
	tcase_add_loop_test(tc, test_bad, 0, N_ROWS(bad_rows));
	tcase_add_loop_test(tc, test_short, 0, N_ROWS(short_rows));
	tcase_add_test(tc, test_long);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(ringbuf_suite());
}
