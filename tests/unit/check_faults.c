/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Faults of the kernel, through the fake behind sys.c's seam: each is
 * injected into the evlist, and what pstat prints of it is asserted.
 * Interrupted calls, short group reads, opens refused half-way through
 * a group, threads gone before their open, multiplexed and idle
 * counters, and readings that go backwards between intervals.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "evlist.h"
#include "evparse.h"
#include "evsel_impl.h"
#include "options.h"
#include "output.h"
#include "results.h"
#include "target.h"

#include "fake_kernel.h"
#include "unit.h"

static int pid_4242[] = { 4242 }, pids_3[] = { 10, 11, 12 };
static int cpus_2[] = { 0, 1 };

/* A command's one pid; three threads of -t; CPUs 0 and 1 of -C. */
static const struct target command = {
	.pids = pid_4242, .n_pids = 1, .inherit = true, .enable_on_exec = true,
};
static const struct target threads = {
	.pids = pids_3, .n_pids = 3, .skip_vanished = true,
};
static const struct target cpus = {
	.cpus = cpus_2, .n_cpus = 2, .inherit = true,
};

static char arg0[] = "true";
static char *const run_argv[] = { arg0, NULL };

static void faults_setup(void)
{
	fake_setup();
	ck_assert_int_eq(setenv("LC_ALL", "C", 1), 0);
}

static struct evlist *parse(const char *spec)
{
	struct evlist *el = evlist_new();
	struct error err;

	ck_assert_ptr_nonnull(el);
	ck_assert_msg(evparse(el, spec, &err) == 0, "'%s': %s", spec,
		      err.reason);
	return el;
}

static void open_ok(struct evlist *el, const struct target *t)
{
	size_t failed = 99;
	int ret = evlist_open(el, t, &failed);

	ck_assert_msg(ret == 0, "evlist_open: %d on %zu", ret, failed);
}

/* What event i reads on target t: its value and, for a leader, the
 * group's times. */
static void count(const struct evlist *el, size_t i, size_t t,
		  uint64_t value, uint64_t enabled, uint64_t running)
{
	int fd = evlist_at(el, i)->fds[t];

	ck_assert_int_ge(fd, 0);
	fake_count(fd, value, enabled, running);
}

/* Every event on every target reads value, exact, over 1 ms. */
static void count_all(const struct evlist *el, uint64_t value)
{
	size_t i, t;

	for (i = 0; i < evlist_count(el); i++)
		for (t = 0; t < evlist_targets(el); t++)
			if (evlist_at(el, i)->fds[t] >= 0)
				count(el, i, t, value, 1000000, 1000000);
}

/* The output of one run, printed as pstat prints it, into a string. */
struct shown {
	char *buf;
	size_t len;
	FILE *f;
	struct evlist *el;
	struct results *res;
	struct output *out;
};

static void show_begin(struct shown *s, struct evlist *el,
		       enum output_format format, bool interval)
{
	const struct output_opts opts = {
		.format = format,
		.sep = format == OUTPUT_CSV ? "," : NULL,
		.big_num = true,
		.interval = interval,
		.runs = 1,
	};

	memset(s, 0, sizeof(*s));
	s->el = el;
	s->f = open_memstream(&s->buf, &s->len);
	ck_assert_ptr_nonnull(s->f);
	s->res = results_new(el, false, 1, NULL);
	ck_assert_ptr_nonnull(s->res);
	s->out = output_new(s->f, &opts);
	ck_assert_ptr_nonnull(s->out);
}

/* An interval of 100 ms ends: read, print, as run.c does. */
static void show_interval(struct shown *s, double ts)
{
	ck_assert_int_eq(evlist_read(s->el), 0);
	results_snapshot(s->res);
	output_interval(s->out, s->res, 0, ts, 1e8);
	results_next_interval(s->res);
}

/* The run ends: the totals (read first when read_totals), printed. */
static char *show_end(struct shown *s, bool read_totals)
{
	const struct output_run run = {
		.argv = run_argv,
		.elapsed_ns = 2e6,
		.runs_done = 1,
	};

	if (read_totals)
		ck_assert_int_eq(evlist_read(s->el), 0);
	results_snapshot(s->res);
	results_end_run(s->res, run.elapsed_ns);
	output_final(s->out, s->res, &run);
	ck_assert_int_eq(output_close(s->out), 0);
	ck_assert_int_eq(fclose(s->f), 0);
	results_free(s->res);
	return s->buf;
}

/* The whole output of el's totals as read, in format. */
static char *totals(struct evlist *el, enum output_format format)
{
	struct shown s;

	show_begin(&s, el, format, false);
	return show_end(&s, true);
}

/* Whether out holds line as a whole line. */
static bool has_line(const char *out, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = strstr(out, line); p; p = strstr(p + 1, line))
		if ((p == out || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* Whether out has a line that starts with start and ends with end. */
static bool has_line_with(const char *out, const char *start,
			  const char *end)
{
	size_t n = strlen(start), m = strlen(end);
	const char *p, *eol;

	for (p = strstr(out, start); p; p = strstr(p + 1, start)) {
		if (p != out && p[-1] != '\n')
			continue;
		eol = strchrnul(p, '\n');
		if ((size_t)(eol - p) >= n + m && strncmp(eol - m, end, m) == 0)
			return true;
	}
	return false;
}

static size_t occurrences(const char *out, const char *s)
{
	size_t n = 0;

	for (out = strstr(out, s); out; out = strstr(out + 1, s))
		n++;
	return n;
}

#define ck_assert_line(out, line) \
	ck_assert_msg(has_line((out), (line)), "no line\n%s\nin\n%s", \
		      (line), (out))

/* Every descriptor the fake gave was closed exactly once. */
static void ck_all_closed(int line)
{
	int fd;

	for (fd = FAKE_FIRST_FD; fd < fake.next_fd; fd++)
		ck_assert_msg(fake.closes[fd - FAKE_FIRST_FD] == 1,
			      "line %d: fd %d closed %u times", line, fd,
			      fake.closes[fd - FAKE_FIRST_FD]);
}

/*
 * A signal may interrupt any call: every open, ioctl and read is
 * interrupted once. pstat makes each again, opens nothing twice, and
 * prints the exact counts.
 */
START_TEST(test_eintr)
{
	struct evlist *el = parse("{task-clock,page-faults},cs");
	char *out;

	fake.eintr = true;
	open_ok(el, &command);
	ck_assert_uint_eq(fake.n_opens, 3);
	ck_assert_int_eq(fake.next_fd, FAKE_FIRST_FD + 3);
	ck_assert_int_eq(evlist_enable(el), 0);
	ck_assert_uint_eq(fake.ioctls[0] + fake.ioctls[2], 2);
	count(el, 0, 0, 2000000, 2000000, 2000000);
	count(el, 1, 0, 123, 0, 0);
	count(el, 2, 0, 45, 2000000, 2000000);
	out = totals(el, OUTPUT_CSV);
	ck_assert_uint_eq(fake.n_reads, 2);
	/* 3 opens, the ids of the group's 2 (cs, alone, needs none), 2
	 * enables, 2 reads. */
	ck_assert_uint_eq(fake.n_eintr, 9);
	ck_assert_line(out, "2.00,msec,task-clock,2000000,100.00,1.000,CPUs utilized");
	ck_assert_line(out, "123,,page-faults,2000000,100.00,61.500,K/sec");
	ck_assert_line(out, "45,,cs,2000000,100.00,22.500,K/sec");
	free(out);
	evlist_close(el);
	ck_all_closed(__LINE__);
	evlist_free(el);
}
END_TEST

/*
 * A group read shorter than the group: pstat cannot tell which values
 * it holds, so the read fails (main says "cannot count", 125) and no
 * group after it is read.
 */
static const struct short_row {
	int line;
	size_t group;		/* the group whose read is short */
	size_t len;		/* bytes of it returned */
	size_t reads;		/* reads made */
} short_rows[] = {
	{ __LINE__, 0, 24 + 16 * 2 - 8, 1 },	/* the last id missing */
	{ __LINE__, 0, 24 + 16 * 2 - 1, 1 },	/* a byte short */
	{ __LINE__, 0, 24 + 16, 1 },		/* one member of two */
	{ __LINE__, 0, 24, 1 },			/* the times alone */
	{ __LINE__, 0, 8, 1 },			/* nr alone */
	{ __LINE__, 1, 24 + 8, 2 },		/* a value without its id */
	{ __LINE__, 1, 23, 2 },
};

START_TEST(test_short_read)
{
	const struct short_row *t = &short_rows[_i];
	struct evlist *el = parse("{task-clock,page-faults},cs");
	const struct evsel *a = evlist_at(el, 0), *b = evlist_at(el, 1);
	const struct evsel *c = evlist_at(el, 2);
	int ret;

	open_ok(el, &command);
	{
		const uint64_t ab[] = { 7, (uint64_t)a->fds[0],
					8, (uint64_t)b->fds[0] };
		const uint64_t cc[] = { 9, (uint64_t)c->fds[0] };

		fake_reply(a->fds[0], 100, 100, 2, ab);
		fake_reply(c->fds[0], 100, 100, 1, cc);
	}
	fake.replies[t->group ? 2 : 0].len = t->len;
	ret = evlist_read(el);
	ck_assert_msg(ret == -EIO, "line %d: read returned %d", t->line, ret);
	ck_assert_msg(fake.n_reads == t->reads, "line %d: %zu reads",
		      t->line, fake.n_reads);
	evlist_free(el);
	ck_all_closed(t->line);
}
END_TEST

/*
 * The shortest read, end of file, is what the kernel says of a group in
 * error state: pinned (:D), it could not stay on the PMU and counts no
 * more. Its events are <not counted>; the other groups count on. A
 * second run opens it afresh.
 */
START_TEST(test_read_eof)
{
	struct evlist *el = parse("{task-clock,page-faults}:D,cs");
	char *out;

	open_ok(el, &command);
	count_all(el, 1000);
	fake.replies[0].eof = true;
	out = totals(el, OUTPUT_CSV);
	ck_assert_uint_eq(fake.n_reads, 2);
	ck_assert_line(out, "<not counted>,msec,task-clock:D,0,0.00,,");
	ck_assert_line(out, "<not counted>,,page-faults:D,0,0.00,,");
	ck_assert_line(out, "1000,,cs,1000000,100.00,,");
	free(out);
	ck_assert(evsel_in_error(evlist_at(el, 0)));
	ck_assert(!evsel_in_error(evlist_at(el, 2)));
	open_ok(el, &command);
	ck_assert(!evsel_in_error(evlist_at(el, 0)));
	evlist_free(el);
	ck_all_closed(__LINE__);
}
END_TEST

/*
 * Out of descriptors or kernel memory half-way through a group, on any
 * target: the open fails naming the event, and every descriptor opened
 * before it is closed (the command is then let go to exit, unexecuted:
 * tests/fault-open.sh).
 */
static const struct midgroup_row {
	int line;
	const struct target *t;
	size_t call;		/* the open that fails, by order */
	int err;
	size_t failed;		/* the evsel it names */
	const char *name;
} midgroup_rows[] = {
	/* {task-clock,page-faults,cs},{cpu-clock,faults} */
	{ __LINE__, &command, 1, EMFILE, 1, "page-faults" },
	{ __LINE__, &command, 2, ENOMEM, 2, "cs" },
	{ __LINE__, &command, 4, EMFILE, 4, "faults" },
	{ __LINE__, &command, 3, ENFILE, 3, "cpu-clock" },
	/* The second thread: calls 3 to 5 open the first group there. */
	{ __LINE__, &threads, 4, ENOMEM, 1, "page-faults" },
	{ __LINE__, &threads, 5, EMFILE, 2, "cs" },
	/* The second group on the first CPU: calls 6 and 7. */
	{ __LINE__, &cpus, 7, EMFILE, 4, "faults" },
	{ __LINE__, &cpus, 5, ENOMEM, 2, "cs" },
};

START_TEST(test_open_midgroup)
{
	const struct midgroup_row *t = &midgroup_rows[_i];
	struct evlist *el = parse("{task-clock,page-faults,cs},{cpu-clock,faults}");
	size_t failed = 99, i;
	int ret;

	fake.open_errno[t->call] = t->err;
	ret = evlist_open(el, t->t, &failed);
	ck_assert_msg(ret == -t->err, "line %d: returned %d", t->line, ret);
	ck_assert_msg(failed == t->failed, "line %d: failed on %zu", t->line,
		      failed);
	ck_assert_str_eq(evsel_name(evlist_at(el, failed)), t->name);
	ck_assert_int_eq(evsel_open_err(evlist_at(el, failed)), t->err);
	ck_assert_msg(fake.n_opens == t->call + 1,
		      "line %d: went on to %zu opens", t->line, fake.n_opens);
	ck_assert_msg(fake.next_fd - FAKE_FIRST_FD == (int)t->call,
		      "line %d: %d opened", t->line,
		      fake.next_fd - FAKE_FIRST_FD);
	ck_all_closed(t->line);
	for (i = 0; i < evlist_count(el); i++)
		ck_assert(!evsel_is_open(evlist_at(el, i)));
	evlist_free(el);
	ck_all_closed(t->line);
}
END_TEST

/*
 * A thread of -t gone between its listing and its open (ESRCH on any
 * event of it): it is left out, and the others are counted and summed.
 */
static const struct vanish_row {
	int line;
	size_t calls[2];	/* the opens on thread 11 that say ESRCH */
	size_t closed;		/* an fd of 11 opened, then closed, or 0 */
} vanish_rows[] = {
	/* Group one's leader on 11 (its member is not tried), then
	 * group two's. */
	{ __LINE__, { 2, 7 }, 0 },
	/* Its member on 11: the leader opened there is closed. */
	{ __LINE__, { 3, 9 }, FAKE_FIRST_FD + 2 },
};

START_TEST(test_vanish)
{
	const struct vanish_row *t = &vanish_rows[_i];
	struct evlist *el = parse("{task-clock,page-faults},{cpu-clock,faults}");
	size_t i;
	char *out;

	fake.open_errno[t->calls[0]] = ESRCH;
	fake.open_errno[t->calls[1]] = ESRCH;
	open_ok(el, &threads);
	/* As a run does: -t's counters start when opened. */
	ck_assert_int_eq(evlist_enable(el), 0);
	for (i = 0; i < evlist_count(el); i++) {
		ck_assert_int_ge(evlist_at(el, i)->fds[0], 0);
		ck_assert_int_eq(evlist_at(el, i)->fds[1], -1);
		ck_assert_int_ge(evlist_at(el, i)->fds[2], 0);
		ck_assert_int_eq(evsel_open_err(evlist_at(el, i)), 0);
	}
	if (t->closed)
		ck_assert_uint_eq(fake.closes[t->closed - FAKE_FIRST_FD], 1);
	count_all(el, 1000000);
	out = totals(el, OUTPUT_CSV);
	ck_assert_uint_eq(fake.n_reads, 4);
	ck_assert_line(out, "2.00,msec,task-clock,2000000,100.00,1.000,CPUs utilized");
	ck_assert_line(out, "2000000,,page-faults,2000000,100.00,1000.000,M/sec");
	ck_assert_line(out, "2.00,msec,cpu-clock,2000000,100.00,1.000,CPUs utilized");
	ck_assert_line(out, "2000000,,faults,2000000,100.00,1000.000,M/sec");
	free(out);
	evlist_free(el);
	ck_all_closed(t->line);
}
END_TEST

/*
 * Multiplexed (running < enabled): an estimate, and the share of the
 * time it ran. Never running (running == 0): <not counted>, with no run
 * time. Never enabled (the task did not run): an exact 0.
 */
static const struct scale_row {
	int line;
	uint64_t value, enabled, running;
	enum output_format format;
	const char *want;	/* a whole line, or its start */
	const char *end;	/* and its end, or NULL */
} scale_rows[] = {
	{ __LINE__, 100, 2000000, 1000000, OUTPUT_CSV,
	  "200,,cs,1000000,50.00,100.000,K/sec", NULL },
	{ __LINE__, 100, 2000000, 1000000, OUTPUT_PSTAT_CSV,
	  "total,,,,cs,200,,scaled,2000000,1000000,50.00,100.000000,K/sec,,,"
	  ",counted,,,,,,,,,", NULL },
	{ __LINE__, 100, 2000000, 1000000, OUTPUT_HUMAN,
	  "               200      cs                               "
	  "#  100.000 K/sec", "(50.00%)" },
	{ __LINE__, 3, 3000000, 1000000, OUTPUT_CSV,
	  "9,,cs,1000000,33.33,4.500,K/sec", NULL },
	{ __LINE__, 100, 2000000, 0, OUTPUT_CSV,
	  "<not counted>,,cs,0,0.00,,", NULL },
	{ __LINE__, 100, 2000000, 0, OUTPUT_PSTAT_CSV,
	  "total,,,,cs,,,not-counted,2000000,0,0.00,,,,,,,,,,,,,,,", NULL },
	{ __LINE__, 100, 2000000, 0, OUTPUT_HUMAN,
	  "     <not counted>      cs", NULL },
	{ __LINE__, 0, 0, 0, OUTPUT_CSV,
	  "0,,cs,0,100.00,0.000,/sec", NULL },
	{ __LINE__, 0, 0, 0, OUTPUT_PSTAT_CSV,
	  "total,,,,cs,0,,counted,0,0,100.00,0.000000,/sec,,,"
	  ",counted,,,,,,,,,", NULL },
};

START_TEST(test_scale)
{
	const struct scale_row *t = &scale_rows[_i];
	struct evlist *el = parse("task-clock,cs");
	char *out;

	open_ok(el, &command);
	count(el, 0, 0, 2000000, 2000000, 2000000);
	count(el, 1, 0, t->value, t->enabled, t->running);
	out = totals(el, t->format);
	if (t->end)
		ck_assert_msg(has_line_with(out, t->want, t->end),
			      "line %d: no line\n%s...%s\nin\n%s", t->line,
			      t->want, t->end, out);
	else
		ck_assert_msg(has_line(out, t->want),
			      "line %d: no line\n%s\nin\n%s", t->line, t->want,
			      out);
	free(out);
	evlist_free(el);
}
END_TEST

/*
 * A counter's readings never go backwards; when one does (a counter
 * reset, or a count past 2^64), nothing is known of that interval: it
 * is <not counted>, never a wrapped 2^64 - n nor a false 0, and the
 * interval after it counts from the new reading.
 */
static const struct backwards_row {
	int line;
	struct counts_values cs[3];	/* cumulative readings of cs */
	enum output_format format;
	const char *want[3];		/* its row in each interval */
} backwards_rows[] = {
	{ __LINE__,
	  { { 1000, 1000000, 1000000 }, { 900, 2000000, 2000000 },
	    { 1500, 3000000, 3000000 } },
	  OUTPUT_CSV,
	  { "0.100000000,1000,,cs,1000000,100.00,,",
	    "0.200000000,<not counted>,,cs,0,0.00,,",
	    "0.300000000,600,,cs,1000000,100.00,," } },
	/* Past 2^64: as far as can be told, backwards. */
	{ __LINE__,
	  { { UINT64_MAX - 5, 1000000, 1000000 }, { 10, 2000000, 2000000 },
	    { 30, 3000000, 3000000 } },
	  OUTPUT_CSV,
	  { "0.100000000,18446744073709551610,,cs,1000000,100.00,,",
	    "0.200000000,<not counted>,,cs,0,0.00,,",
	    "0.300000000,20,,cs,1000000,100.00,," } },
	/* Times that go backwards are no better. */
	{ __LINE__,
	  { { 1000, 2000000, 2000000 }, { 2000, 1000000, 1000000 },
	    { 3000, 3000000, 3000000 } },
	  OUTPUT_CSV,
	  { "0.100000000,1000,,cs,2000000,100.00,,",
	    "0.200000000,<not counted>,,cs,0,0.00,,",
	    "0.300000000,1000,,cs,2000000,100.00,," } },
	{ __LINE__,
	  { { 1000, 2000000, 2000000 }, { 2000, 3000000, 1000000 },
	    { 3000, 4000000, 3000000 } },
	  OUTPUT_CSV,
	  { "0.100000000,1000,,cs,2000000,100.00,,",
	    "0.200000000,<not counted>,,cs,0,0.00,,",
	    "0.300000000,1000,,cs,2000000,100.00,," } },
	{ __LINE__,
	  { { 1000, 1000000, 1000000 }, { 900, 2000000, 2000000 },
	    { 1500, 3000000, 3000000 } },
	  OUTPUT_PSTAT_CSV,
	  { "interval,0.100000000,,,cs,1000,,counted,1000000,1000000,100.00,,,,1,"
	    ",,,,,,,,,,",
	    "interval,0.200000000,,,cs,,,not-counted,1000000,0,0.00,,,,1,"
	    ",,,,,,,,,,",
	    "interval,0.300000000,,,cs,600,,counted,1000000,1000000,100.00,,,,1,"
	    ",,,,,,,,,," } },
	{ __LINE__,
	  { { 1000, 1000000, 1000000 }, { 900, 2000000, 2000000 },
	    { 1500, 3000000, 3000000 } },
	  OUTPUT_HUMAN,
	  { "     0.100000000              1,000      cs",
	    "     0.200000000      <not counted>      cs",
	    "     0.300000000                600      cs" } },
};

START_TEST(test_backwards)
{
	const struct backwards_row *t = &backwards_rows[_i];
	struct evlist *el = parse("cs,page-faults");
	struct shown s;
	char *out;
	int i;

	open_ok(el, &command);
	show_begin(&s, el, t->format, true);
	for (i = 0; i < 3; i++) {
		count(el, 0, 0, t->cs[i].value, t->cs[i].enabled,
		      t->cs[i].running);
		count(el, 1, 0, 10 * (i + 1), 1000000 * (i + 1),
		      1000000 * (i + 1));
		show_interval(&s, 0.1 * (i + 1));
	}
	out = show_end(&s, false);
	for (i = 0; i < 3; i++)
		ck_assert_msg(has_line(out, t->want[i]),
			      "line %d: interval %d: no line\n%s\nin\n%s",
			      t->line, i + 1, t->want[i], out);
	/* The events beside it count on. */
	ck_assert_msg(occurrences(out, "<not counted>") +
		      occurrences(out, ",not-counted,") == 1,
		      "line %d: more than cs not counted:\n%s", t->line, out);
	free(out);
	evlist_free(el);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc;

	tc = tcase_create("kernel");
	tcase_add_checked_fixture(tc, faults_setup, fake_teardown);
	tcase_add_test(tc, test_eintr);
	tcase_add_loop_test(tc, test_short_read, 0, N_ROWS(short_rows));
	tcase_add_test(tc, test_read_eof);
	tcase_add_loop_test(tc, test_open_midgroup, 0, N_ROWS(midgroup_rows));
	tcase_add_loop_test(tc, test_vanish, 0, N_ROWS(vanish_rows));
	suite_add_tcase(s, tc);

	tc = tcase_create("values");
	tcase_add_checked_fixture(tc, faults_setup, fake_teardown);
	tcase_add_loop_test(tc, test_scale, 0, N_ROWS(scale_rows));
	tcase_add_loop_test(tc, test_backwards, 0, N_ROWS(backwards_rows));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(faults_suite());
}
