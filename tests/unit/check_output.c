/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of output.c: perf stat's CSV and human layouts, locales. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "aggr.h"
#include "counts.h"
#include "evlist.h"
#include "evparse.h"
#include "options.h"
#include "output.h"
#include "results.h"
#include "target.h"

#include "fake_kernel.h"
#include "unit.h"

#define MAX_EVENTS 4
#define GERMAN "de_DE.UTF-8"

/* What one counter read, set by hand after parsing. */
struct ev {
	uint64_t value, enabled, running;
	int open_err;
	const char *name;	/* replaces the parsed name; NULL keeps it */
};

#define EXACT(v)	{ (v), (v), (v) }
#define TASK_CLOCK	EXACT(1157962)
#define ELAPSED_NS	1707000.0

/*
 * The events of spec, each a group of one, named as names[i] says
 * (NULL: as parsed): the parser's attrs, added as the parser would.
 */
static struct evlist *events(const char *spec, const char *const *names)
{
	struct evlist *parsed = evlist_new(), *el = evlist_new();
	struct error err;
	size_t i;

	ck_assert_ptr_nonnull(parsed);
	ck_assert_ptr_nonnull(el);
	ck_assert_msg(evparse(parsed, spec, &err) == 0, "'%s': %s", spec,
		      err.reason);
	for (i = 0; i < evlist_count(parsed); i++) {
		const struct evsel *e = evlist_at(parsed, i);
		struct evsel_desc d = {
			.attr = *evsel_attr(e),
			.name = names && names[i] ? names[i] : evsel_name(e),
		};

		ck_assert_int_eq(evlist_add(el, &d), 0);
	}
	evlist_free(parsed);
	return el;
}

/*
 * Open el's counters on the fake kernel: on CPUs 0 to n_cpus - 1, or
 * on a command when n_cpus is 0. The kernel refuses event i with
 * open_err[i] (an errno for an event it does not have), or takes it.
 */
static void open_fake(struct evlist *el, size_t n_cpus, const int *open_err)
{
	static int cpus[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, pid[] = { 4242 };
	const struct target t = {
		.pids = n_cpus ? NULL : pid, .n_pids = 1,
		.cpus = n_cpus ? cpus : NULL, .n_cpus = n_cpus,
		.inherit = true, .enable_on_exec = !n_cpus,
	};
	size_t targets = n_cpus ? n_cpus : 1, i, j, call = 0, failed;

	ck_assert_uint_le(n_cpus, N_ROWS(cpus));
	fake_setup();	/* one evlist open at a time: calls count from 0 */
	/* Groups of one, target by target; one refused on the first is
	 * not tried on the others. */
	for (i = 0; i < evlist_count(el); i++)
		for (j = 0; j < targets; j++)
			if (!open_err[i])
				call++;
			else if (j == 0)
				fake.open_errno[call++] = open_err[i];
	ck_assert_int_eq(evlist_open(el, &t, &failed), 0);
	/* As a run does: CPUs' counters start now, a command's at exec. */
	if (n_cpus)
		ck_assert_int_eq(evlist_enable(el), 0);
}

/*
 * What counter i read on target j, at r[i * targets + j], through a
 * read of every group, as the kernel answers it.
 */
static void read_fake(struct evlist *el, size_t targets,
		      const struct counts_values *r)
{
	size_t call = 0, i, j;

	for (i = 0; i < evlist_count(el); i++) {
		if (evsel_open_err(evlist_at(el, i)))
			continue;
		for (j = 0; j < targets; j++, call++) {
			const struct counts_values *v = &r[i * targets + j];

			while (fake.opens[call].ret < 0)
				call++;
			fake_count(fake.opens[call].ret, v->value, v->enabled,
				   v->running);
		}
	}
	ck_assert_int_eq(evlist_read(el), 0);
}

/* The events of spec, on a command, having read what ev says. */
static struct evlist *build(const char *spec, const struct ev *ev)
{
	const char *names[MAX_EVENTS] = { NULL };
	struct counts_values r[MAX_EVENTS];
	int open_err[MAX_EVENTS];
	struct evlist *el = events(spec, NULL);
	size_t i, n = evlist_count(el);

	/* ev has as many rows as spec has events. */
	ck_assert_uint_le(n, MAX_EVENTS);
	evlist_free(el);
	for (i = 0; i < n; i++) {
		names[i] = ev[i].name;
		open_err[i] = ev[i].open_err;
		r[i] = (struct counts_values){ ev[i].value, ev[i].enabled,
					       ev[i].running };
	}
	el = events(spec, names);
	open_fake(el, 0, open_err);
	read_fake(el, 1, r);
	return el;
}

static char arg0[] = "sh", arg1[] = "-c", arg2[] = "true";
static char *const run_argv[] = { arg0, arg1, arg2, NULL };

static int print_to(FILE *f, const struct evlist *el, const char *sep,
		    double elapsed_ns)
{
	const struct output_run run = {
		.argv = run_argv,
		.elapsed_ns = elapsed_ns,
		.user_s = 0.5,
		.sys_s = 0.25,
	};
	const struct output_opts opts = {
		.format = sep ? OUTPUT_CSV : OUTPUT_HUMAN,
		.sep = sep,
		.big_num = true,
		.runs = 1,
	};
	struct results *res = results_new(el, false, 1, NULL);
	struct output *out;
	int ret;

	ck_assert_ptr_nonnull(res);
	results_snapshot(res);
	results_end_run(res, elapsed_ns);
	out = output_new(f, &opts);
	ck_assert_ptr_nonnull(out);
	output_final(out, res, &run);
	ret = output_close(out);
	results_free(res);
	return ret;
}

/* The whole output, to be freed. */
static char *print(const struct evlist *el, const char *sep,
		   double elapsed_ns)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = print_to(f, el, sep, elapsed_ns);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_nonnull(buf);
	return buf;
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

/*
 * Point the printer at a locale. scripts/bootstrap installs the ones
 * used here: a missing one fails the check, never passes it unseen.
 */
static bool use_locale(int line, const char *name)
{
	locale_t loc = newlocale(LC_ALL_MASK, name, (locale_t)0);

	ck_assert_msg(loc != NULL,
		      "line %d: locale %s is not installed; as root, scripts/bootstrap installs it",
		      line, name);
	freelocale(loc);
	ck_assert_int_eq(setenv("LC_ALL", name, 1), 0);
	return true;
}

static void c_locale(void)
{
	ck_assert_int_eq(setenv("LC_ALL", "C", 1), 0);
}

static const struct csv_row {
	int line;
	const char *spec;
	const char *sep;
	double elapsed_ns;
	struct ev ev[MAX_EVENTS];
	const char *want;	/* the whole output */
} csv_rows[] = {
	{ __LINE__, "task-clock", ",", ELAPSED_NS, { TASK_CLOCK },
	  "1.16,msec,task-clock,1157962,100.00,0.678,CPUs utilized\n" },
	{ __LINE__, "task-clock,cycles", ",", ELAPSED_NS,
	  { TASK_CLOCK, { .open_err = ENOENT } },
	  "1.16,msec,task-clock,1157962,100.00,0.678,CPUs utilized\n"
	  "<not supported>,,cycles,0,100.00,,\n" },
	{ __LINE__, "cycles", ",", ELAPSED_NS, { { 5, 100, 0 } },
	  "<not counted>,,cycles,0,0.00,,\n" },
	{ __LINE__, "task-clock,page-faults", ",", 2e9,
	  { EXACT(1000000000), { 100, 200, 100 } },
	  "1000.00,msec,task-clock,1000000000,100.00,0.500,CPUs utilized\n"
	  "200,,page-faults,100,50.00,200.000,/sec\n" },
	/* A ratio without its denominator has no metric, as in perf. */
	{ __LINE__, "task-clock,instructions", ",", 2e9,
	  { EXACT(1000000000), EXACT(200) },
	  "1000.00,msec,task-clock,1000000000,100.00,0.500,CPUs utilized\n"
	  "200,,instructions,200,100.00,,\n" },
	{ __LINE__, "task-clock,cs", ",", 1e9,
	  { EXACT(1000000000), EXACT(97514) },
	  "1000.00,msec,task-clock,1000000000,100.00,1.000,CPUs utilized\n"
	  "97514,,cs,97514,100.00,97.514,K/sec\n" },
	/* Rates go by cpu-clock when there is no task-clock... */
	{ __LINE__, "cpu-clock,page-faults", ",", 2e9,
	  { EXACT(2000000000), EXACT(4000000000) },
	  "2000.00,msec,cpu-clock,2000000000,100.00,1.000,CPUs utilized\n"
	  "4000000000,,page-faults,4000000000,100.00,2.000,G/sec\n" },
	/* ...and by task-clock wherever it is in the list. */
	{ __LINE__, "cpu-clock,page-faults,task-clock", ",", 2e9,
	  { EXACT(2000000000), EXACT(4000000000), EXACT(1000000000) },
	  "2000.00,msec,cpu-clock,2000000000,100.00,1.000,CPUs utilized\n"
	  "4000000000,,page-faults,4000000000,100.00,4.000,G/sec\n"
	  "1000.00,msec,task-clock,1000000000,100.00,0.500,CPUs utilized\n" },
	/* A field holding the separator, a quote or a newline is quoted. */
	{ __LINE__, "instructions", ",", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a,b\"c" } },
	  "1234,,\"a,b\"\"c\",1000,100.00,,\n" },
	{ __LINE__, "instructions", ",", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a\"b" } },
	  "1234,,\"a\"\"b\",1000,100.00,,\n" },
	{ __LINE__, "instructions", ",", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a\nb" } },
	  "1234,,\"a\nb\",1000,100.00,,\n" },
	{ __LINE__, "instructions", ":", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "sched:sched_switch" } },
	  "1234::\"sched:sched_switch\":1000:100.00::\n" },
	{ __LINE__, "instructions", ";", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "sched:sched_switch" } },
	  "1234;;sched:sched_switch;1000;100.00;;\n" },
	/* A separator of several characters. */
	{ __LINE__, "task-clock", "::", ELAPSED_NS, { TASK_CLOCK },
	  "1.16::msec::task-clock::1157962::100.00::0.678::CPUs utilized\n" },
	{ __LINE__, "instructions", "::", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a:b" } },
	  "1234::::a:b::1000::100.00::::\n" },
	{ __LINE__, "instructions", "::", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a::b" } },
	  "1234::::\"a::b\"::1000::100.00::::\n" },
	/* A field whose end and the separator after it make a separator
	 * ("a:" then "::" would read as "a", then ":"), found by fuzzing. */
	{ __LINE__, "instructions", "::", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a:" } },
	  "1234::::\"a:\"::1000::100.00::::\n" },
	{ __LINE__, "instructions", "aba", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "xab" } },
	  "1234abaaba\"xab\"aba1000aba100.00abaaba\n" },
	/* ...but not one that only ends as the separator starts. */
	{ __LINE__, "instructions", ":;", ELAPSED_NS,
	  { { 1234, 1000, 1000, 0, "a:" } },
	  "1234:;:;a::;1000:;100.00:;:;\n" },
};

static void check_csv(const struct csv_row *t)
{
	struct evlist *el = build(t->spec, t->ev);
	char *out = print(el, t->sep, t->elapsed_ns);

	ck_assert_msg(strcmp(out, t->want) == 0,
		      "line %d: got\n%s\nwant\n%s", t->line, out, t->want);
	free(out);
	evlist_free(el);
}

START_TEST(test_csv)
{
	c_locale();
	check_csv(&csv_rows[_i]);
}
END_TEST

/* Machine output never follows the locale. */
START_TEST(test_csv_locale)
{
	int i;

	if (!use_locale(__LINE__, GERMAN))
		return;
	for (i = 0; i < N_ROWS(csv_rows); i++)
		check_csv(&csv_rows[i]);
	c_locale();
}
END_TEST

/*
 * -x -I --summary: an interval of task-clock and instructions, then the
 * totals, whose first field is perf's "summary" unless --no-csv-summary.
 */
static const struct summary_row {
	int line;
	bool no_csv_summary;
	bool metric_only;
	const char *want;	/* the whole output */
} summary_rows[] = {
	{ __LINE__, false, false,
	  "0.100000000,50.00,msec,task-clock,50000000,100.00,0.500,CPUs utilized\n"
	  "0.100000000,1000,,instructions,1000,100.00,,\n"
	  "summary,150.00,msec,task-clock,150000000,100.00,0.500,CPUs utilized\n"
	  "summary,3000,,instructions,3000,100.00,,\n" },
	{ __LINE__, true, false,
	  "0.100000000,50.00,msec,task-clock,50000000,100.00,0.500,CPUs utilized\n"
	  "0.100000000,1000,,instructions,1000,100.00,,\n"
	  "150.00,msec,task-clock,150000000,100.00,0.500,CPUs utilized\n"
	  "3000,,instructions,3000,100.00,,\n" },
	{ __LINE__, false, true,
	  "time,CPUs utilized\n"
	  "0.100000000,0.500\n"
	  "summary,0.500\n" },
	{ __LINE__, true, true,
	  "time,CPUs utilized\n"
	  "0.100000000,0.500\n"
	  "0.500\n" },
};

/* The interval's readings, then the run's. */
static void set_reading(struct evlist *el, uint64_t clock, uint64_t insns)
{
	const struct counts_values r[] = {
		{ clock, clock, clock }, { insns, insns, insns },
	};

	read_fake(el, 1, r);
}

START_TEST(test_csv_summary)
{
	const struct summary_row *t = &summary_rows[_i];
	const struct ev ev[] = { EXACT(0), EXACT(0) };
	const struct output_opts opts = {
		.format = OUTPUT_CSV,
		.sep = ",",
		.metric_only = t->metric_only,
		.interval = true,
		.summary = true,
		.no_csv_summary = t->no_csv_summary,
		.runs = 1,
	};
	const struct output_run run = { .elapsed_ns = 3e8 };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	c_locale();
	el = build("task-clock,instructions", ev);
	res = results_new(el, false, 1, NULL);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(res);
	ck_assert_ptr_nonnull(f);
	out = output_new(f, &opts);
	ck_assert_ptr_nonnull(out);
	set_reading(el, 50000000, 1000);
	results_snapshot(res);
	output_interval(out, res, 0, 0.1, 1e8);
	results_next_interval(res);
	set_reading(el, 150000000, 3000);
	results_snapshot(res);
	results_end_run(res, 3e8);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(strcmp(buf, t->want) == 0, "line %d: got\n%s\nwant\n%s",
		      t->line, buf, t->want);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

static const struct human_row {
	int line;
	const char *locale;
	const char *spec;
	struct ev ev[MAX_EVENTS];
	const char *want;	/* one whole line of the output */
} human_rows[] = {
	{ __LINE__, "C", "task-clock", { TASK_CLOCK },
	  "              1.16 msec task-clock                       "
	  "#    0.678 CPUs utilized" },
	{ __LINE__, "C", "task-clock,cycles",
	  { TASK_CLOCK, { .open_err = ENOENT } },
	  "   <not supported>      cycles" },
	{ __LINE__, "C", "cycles", { { 5, 100, 0 } },
	  "     <not counted>      cycles" },
	{ __LINE__, "C", "instructions", { EXACT(1234567) },
	  "         1,234,567      instructions" },
	{ __LINE__, "C", "instructions", { EXACT(999) },
	  "               999      instructions" },
	{ __LINE__, "C", "instructions", { EXACT(1000) },
	  "             1,000      instructions" },
	{ __LINE__, "C", "instructions", { EXACT(UINT64_MAX) },
	  "18,446,744,073,709,551,615      instructions" },
	{ __LINE__, "C", "task-clock,cs", { EXACT(1000000000), EXACT(97514) },
	  "            97,514      cs                               "
	  "#   97.514 K/sec" },
	{ __LINE__, "C", "task-clock", { TASK_CLOCK },
	  " Performance counter stats for 'sh -c true':" },
	{ __LINE__, "C", "task-clock", { TASK_CLOCK },
	  "       0.001707000 seconds time elapsed" },
	{ __LINE__, "C", "task-clock", { TASK_CLOCK },
	  "       0.500000000 seconds user" },
	{ __LINE__, "C", "task-clock", { TASK_CLOCK },
	  "       0.250000000 seconds sys" },
	{ __LINE__, GERMAN, "instructions", { EXACT(1234567) },
	  "         1.234.567      instructions" },
	{ __LINE__, GERMAN, "task-clock", { TASK_CLOCK },
	  "              1,16 msec task-clock                       "
	  "#    0,678 CPUs utilized" },
	{ __LINE__, GERMAN, "task-clock", { TASK_CLOCK },
	  "       0,001707000 seconds time elapsed" },
};

START_TEST(test_human)
{
	const struct human_row *t = &human_rows[_i];
	struct evlist *el;
	char *out;

	c_locale();
	if (!use_locale(t->line, t->locale))
		return;
	el = build(t->spec, t->ev);
	out = print(el, NULL, ELAPSED_NS);
	ck_assert_msg(has_line(out, t->want), "line %d: no line\n%s\nin\n%s",
		      t->line, t->want, out);
	free(out);
	evlist_free(el);
	c_locale();
}
END_TEST

/* Multiplexed: an estimate, and how much of the time it counted. */
START_TEST(test_human_scaled)
{
	const struct ev ev[] = { EXACT(1000000000), { 100, 200, 100 } };
	const char *want = "               200      page-faults"
			   "                      #  200.000 /sec";
	struct evlist *el;
	char *out, *line, *end;

	c_locale();
	el = build("task-clock,page-faults", ev);
	out = print(el, NULL, ELAPSED_NS);
	line = strstr(out, want);
	ck_assert_msg(line && (line == out || line[-1] == '\n'),
		      "no line starting\n%s\nin\n%s", want, out);
	end = strchr(line, '\n');
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	ck_assert_msg(strlen(line) > 8 &&
		      strcmp(end - 8, "(50.00%)") == 0 &&
		      strstr(line, "/sec  ") && end[-9] == ' ',
		      "no running time in\n%s", line);
	free(out);
	evlist_free(el);
}
END_TEST

/* v with sep between groups of three digits, by snprintf. */
static void grouped(char *buf, size_t len, uint64_t v, const char *sep)
{
	char digits[24];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, v);
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			o += (size_t)snprintf(buf + o, len - o, "%s", sep);
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/*
 * The row of a count as printf would write it: "%18s %-4s %s", and
 * when scaled "%18s %-4s %-32s   %8s %-23s  (%.2f%%)" with the radix.
 */
static void printf_row(char *buf, size_t len, const struct counts_values *v,
		       bool german)
{
	struct counts_result r;
	char value[64], pct[32], *dot;

	counts_scale(v, &r);
	if (r.state == COUNTS_NOT_COUNTED)
		snprintf(value, sizeof(value), "<not counted>");
	else
		grouped(value, sizeof(value), r.value, german ? "." : ",");
	if (r.state != COUNTS_SCALED) {
		snprintf(buf, len, "%18s %-4s %s", value, "", "instructions");
		return;
	}
	snprintf(pct, sizeof(pct), "%.2f", r.running_pct);
	dot = strchr(pct, '.');
	if (dot && german)
		*dot = ',';
	snprintf(buf, len, "%18s %-4s %-32s   %8s %-23s  (%s%%)", value, "",
		 "instructions", "", "", pct);
}

/* A count of any magnitude, scaled or not, in C's and a German locale:
 * the row as printf would write it, though it is written without. */
START_TEST(test_human_many)
{
	uint64_t st = 88172645463325252ULL;
	struct counts_values v;
	struct evlist *el;
	char want[256], *out;
	int i;

	for (i = 0; i < 1500; i++) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		v.value = st >> (st % 64);
		v.enabled = (st >> 8) % 1000000 + 1;
		v.running = i % 3 == 0 ? v.enabled :
			    i % 7 == 0 ? 0 : (st >> 32) % v.enabled;
		c_locale();
		if (i % 2 && !use_locale(__LINE__, GERMAN))
			return;
		el = build("instructions", (const struct ev[]){
			{ v.value, v.enabled, v.running } });
		out = print(el, NULL, ELAPSED_NS);
		printf_row(want, sizeof(want), &v, i % 2);
		ck_assert_msg(has_line(out, want), "no line\n%s\nin\n%s", want,
			      out);
		free(out);
		evlist_free(el);
	}
	c_locale();
}
END_TEST

START_TEST(test_human_frame)
{
	const struct ev ev[] = { TASK_CLOCK };
	struct evlist *el;
	char *out;

	c_locale();
	el = build("task-clock", ev);
	out = print(el, NULL, ELAPSED_NS);
	ck_assert_msg(strncmp(out, "\n Performance counter stats for ", 32)
		      == 0, "header:\n%s", out);
	ck_assert_ptr_nonnull(strstr(out, "seconds time elapsed"));
	ck_assert_ptr_nonnull(strstr(out, "seconds user"));
	ck_assert_ptr_nonnull(strstr(out, "seconds sys"));
	ck_assert_msg(out[strlen(out) - 1] == '\n', "no final newline");
	free(out);
	evlist_free(el);
}
END_TEST

/* Human and CSV output alike report a write that failed. */
START_TEST(test_write_error)
{
	static const char *const seps[] = { NULL, "," };
	const struct ev ev[] = { TASK_CLOCK };
	struct evlist *el;
	FILE *f;

	c_locale();
	el = build("task-clock", ev);
	f = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(print_to(f, el, seps[_i], ELAPSED_NS), -ENOSPC);
	fclose(f);
	evlist_free(el);
}
END_TEST

/*
 * --metric-only. A reading of every event on every target, cumulative,
 * as the kernel gives them; an interval of 0.1 s each.
 */
#define MO_TARGETS 4
#define MO_SECTIONS 3
#define INTERVAL_NS 1e8

struct mo_case {
	const char *spec;
	enum output_format format;
	const char *sep;
	bool interval, summary;
	const struct aggr *aggr;	/* NULL: all together */
	size_t n_targets;			/* with aggr */
	size_t n_sections;			/* readings, and intervals */
	/* [section][event][target]: the value; enabled = running = ns */
	uint64_t value[MO_SECTIONS][MAX_EVENTS][MO_TARGETS];
	uint64_t ns[MO_SECTIONS];
	int open_err[MAX_EVENTS];
};

static void mo_read(struct evlist *el, const struct mo_case *c, size_t sec)
{
	size_t targets = c->aggr ? c->n_targets : 1, i, t;
	struct counts_values *r = calloc(evlist_count(el) * targets, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	for (i = 0; i < evlist_count(el); i++) {
		/* Events past MAX_EVENTS read 0. */
		for (t = 0; t < targets; t++)
			r[i * targets + t] = (struct counts_values){
				i < MAX_EVENTS ? c->value[sec][i][t] : 0,
				c->ns[sec], c->ns[sec],
			};
	}
	read_fake(el, targets, r);
	free(r);
}

/* The whole output of c, to be freed. */
static char *print_mo(const struct mo_case *c)
{
	const struct output_run run = {
		.argv = run_argv,
		.elapsed_ns = INTERVAL_NS * (double)c->n_sections,
	};
	const struct output_opts opts = {
		.format = c->format,
		.sep = c->sep,
		.metric_only = true,
		.interval = c->interval,
		.summary = c->summary,
		.runs = 1,
	};
	struct evlist *el = events(c->spec, NULL);
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0, i, sec;
	int *open_err = calloc(evlist_count(el), sizeof(*open_err));
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(open_err);
	for (i = 0; i < evlist_count(el) && i < MAX_EVENTS; i++)
		open_err[i] = c->open_err[i];
	open_fake(el, c->aggr ? c->n_targets : 0, open_err);
	free(open_err);
	res = results_new(el, false, 1, c->aggr);
	ck_assert_ptr_nonnull(res);
	out = output_new(f, &opts);
	ck_assert_ptr_nonnull(out);
	for (sec = 0; sec < c->n_sections; sec++) {
		mo_read(el, c, sec);
		results_snapshot(res);
		if (c->interval) {
			output_interval(out, res, 0, (double)(sec + 1) / 10.0,
					INTERVAL_NS);
			results_next_interval(res);
		}
	}
	results_end_run(res, run.elapsed_ns);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	results_free(res);
	evlist_free(el);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(buf);
	return buf;
}

static char core_labels[][40] = { "S0-D0-C0", "S0-D0-C1" };
static int core_ids[] = { 0, 1 };
static int two_cpus[] = { 2, 2 };
static size_t core_of_target[] = { 0, 0, 1, 1 };
static const struct aggr per_core = {
	.kind = AGGR_CORE,
	.n = 2,
	.of_target = core_of_target,
	.label = core_labels,
	.id = core_ids,
	.n_cpus = two_cpus,
};

/* 50 ms of task-clock and 100 page-faults, then none, then 100 ms, 50. */
#define STALLS \
	.n_sections = 3, \
	.value = { { { 50000000 }, { 100 } }, \
		   { { 50000000 }, { 100 } }, \
		   { { 150000000 }, { 150 } } }, \
	.ns = { 100000000, 200000000, 300000000 }

static const struct mo_row {
	int line;
	struct mo_case c;
	const char *want;	/* the whole output */
} mo_rows[] = {
	/*
	 * The clock stood still in the second interval: no rate there, an
	 * empty field, and the columns stay where the titles are. cycles
	 * is not supported: its column is there, always empty.
	 */
	{ __LINE__, { "task-clock,page-faults,cycles", OUTPUT_CSV, ",", true,
		      .open_err = { 0, 0, ENOENT }, STALLS },
	  "time,CPUs utilized,page-faults /sec,GHz\n"
	  "0.100000000,0.500,2000.000,\n"
	  "0.200000000,0.000,,\n"
	  "0.300000000,1.000,500.000,\n" },
	/* -j: the same, null where there is no value. */
	{ __LINE__, { "task-clock,page-faults", OUTPUT_JSONL, NULL, true,
		      STALLS },
	  "{\"interval\": 0.1, \"CPUs utilized\": 0.5, "
	  "\"page-faults /sec\": 2000}\n"
	  "{\"interval\": 0.2, \"CPUs utilized\": 0, "
	  "\"page-faults /sec\": null}\n"
	  "{\"interval\": 0.3, \"CPUs utilized\": 1, "
	  "\"page-faults /sec\": 500}\n" },
	/* --summary's totals: "summary" where the time was. */
	{ __LINE__, { "task-clock,page-faults", OUTPUT_CSV, ";", true, true,
		      STALLS },
	  "time;CPUs utilized;page-faults /sec\n"
	  "0.100000000;0.500;2000.000\n"
	  "0.200000000;0.000;\n"
	  "0.300000000;1.000;500.000\n"
	  "summary;0.500;1000.000\n" },
	/* -A: a line per CPU, its label first, under a "cpu" title. */
	{ __LINE__, { "task-clock,page-faults", OUTPUT_CSV, ",", false,
		      .aggr = &fake_per_cpu, .n_targets = 2, .n_sections = 1,
		      .value = { { { 50000000, 100000000 }, { 100, 7 } } },
		      .ns = { 100000000 } },
	  "cpu,CPUs utilized,page-faults /sec\n"
	  "CPU0,0.500,2000.000\n"
	  "CPU1,1.000,70.000\n" },
	{ __LINE__, { "task-clock,page-faults", OUTPUT_CSV, ",", true,
		      .aggr = &fake_per_cpu, .n_targets = 2, .n_sections = 2,
		      .value = { { { 50000000, 0 }, { 100, 0 } },
				 { { 50000000, 100000000 }, { 100, 7 } } },
		      .ns = { 100000000, 200000000 } },
	  "time,cpu,CPUs utilized,page-faults /sec\n"
	  "0.100000000,CPU0,0.500,2000.000\n"
	  "0.100000000,CPU1,0.000,\n"
	  "0.200000000,CPU0,0.000,\n"
	  "0.200000000,CPU1,1.000,70.000\n" },
	/* --per-core: the label and its number of CPUs, as -x rows. */
	{ __LINE__, { "task-clock,page-faults", OUTPUT_CSV, ",", false,
		      .aggr = &per_core, .n_targets = 4, .n_sections = 1,
		      .value = { { { 50000000, 50000000, 0, 100000000 },
				   { 100, 100, 0, 0 } } },
		      .ns = { 100000000 } },
	  "core,cpus,CPUs utilized,page-faults /sec\n"
	  "S0-D0-C0,2,1.000,2000.000\n"
	  "S0-D0-C1,2,1.000,0.000\n" },
	{ __LINE__, { "task-clock,page-faults", OUTPUT_JSONL, NULL, false,
		      .aggr = &per_core, .n_targets = 4, .n_sections = 1,
		      .value = { { { 50000000, 50000000, 0, 100000000 },
				   { 100, 100, 0, 0 } } },
		      .ns = { 100000000 } },
	  "{\"core\": \"S0-D0-C0\", \"aggregate-number\": 2, "
	  "\"CPUs utilized\": 1, \"page-faults /sec\": 2000}\n"
	  "{\"core\": \"S0-D0-C1\", \"aggregate-number\": 2, "
	  "\"CPUs utilized\": 1, \"page-faults /sec\": 0}\n" },
	{ __LINE__, { "task-clock,page-faults", OUTPUT_JSONL, NULL, true,
		      .aggr = &fake_per_cpu, .n_targets = 2, .n_sections = 1,
		      .value = { { { 50000000, 100000000 }, { 100, 7 } } },
		      .ns = { 100000000 } },
	  "{\"interval\": 0.1, \"cpu\": 0, \"CPUs utilized\": 0.5, "
	  "\"page-faults /sec\": 2000}\n"
	  "{\"interval\": 0.1, \"cpu\": 1, \"CPUs utilized\": 1, "
	  "\"page-faults /sec\": 70}\n" },
	/* Two columns of one unit: each says its event, and no key twice. */
	{ __LINE__, { "task-clock,cpu-clock,page-faults,page-faults",
		      OUTPUT_CSV, ",", false, .n_sections = 1,
		      .value = { { { 50000000 }, { 100000000 }, { 10 },
				   { 20 } } },
		      .ns = { 100000000 } },
	  "CPUs utilized (task-clock),CPUs utilized (cpu-clock),"
	  "page-faults /sec,page-faults /sec #2\n"
	  "0.500,1.000,200.000,400.000\n" },
	/* Rates keep their unit: no K/sec, M/sec or G/sec. */
	{ __LINE__, { "task-clock,page-faults", OUTPUT_CSV, ",", true,
		      .n_sections = 3,
		      .value = { { { 100000000 }, { 50 } },
				 { { 200000000 }, { 250050 } },
				 { { 300000000 }, { 300250050 } } },
		      .ns = { 100000000, 200000000, 300000000 } },
	  "time,CPUs utilized,page-faults /sec\n"
	  "0.100000000,1.000,500.000\n"
	  "0.200000000,1.000,2500000.000\n"
	  "0.300000000,1.000,3000000000.000\n" },
	/* Human: titles once, each value under its title's right end. */
	{ __LINE__, { "task-clock,page-faults,cycles", OUTPUT_HUMAN, NULL,
		      true, .open_err = { 0, 0, ENOENT }, STALLS },
	  "#           time CPUs utilized page-faults /sec      GHz\n"
	  "     0.100000000         0.500         2000.000         \n"
	  "     0.200000000         0.000                          \n"
	  "     0.300000000         1.000          500.000         \n" },
};

START_TEST(test_metric_only)
{
	const struct mo_row *t = &mo_rows[_i];
	char *out;

	c_locale();
	out = print_mo(&t->c);
	ck_assert_msg(strcmp(out, t->want) == 0,
		      "line %d: got\n%s\nwant\n%s", t->line, out, t->want);
	free(out);
}
END_TEST

/* Human: the aggregate first, under its title; titles again over totals. */
static const struct mo_line_row {
	int line;
	struct mo_case c;
	const char *want[5];	/* whole lines of the output, up to NULL */
} mo_line_rows[] = {
	{ __LINE__, { "task-clock,page-faults", OUTPUT_HUMAN, NULL, false,
		      .aggr = &per_core, .n_targets = 4, .n_sections = 1,
		      .value = { { { 50000000, 50000000, 0, 100000000 },
				   { 100, 100, 0, 0 } } },
		      .ns = { 100000000 } },
	  { " core     cpus CPUs utilized page-faults /sec",
	    " S0-D0-C0    2         1.000         2000.000",
	    " S0-D0-C1    2         1.000            0.000" } },
	{ __LINE__, { "task-clock,page-faults", OUTPUT_HUMAN, NULL, true,
		      .aggr = &fake_per_cpu, .n_targets = 2, .n_sections = 1,
		      .value = { { { 50000000, 100000000 }, { 100, 7 } } },
		      .ns = { 100000000 } },
	  { "#           time cpu  CPUs utilized page-faults /sec",
	    "     0.100000000 CPU0         0.500         2000.000",
	    "     0.100000000 CPU1         1.000           70.000" } },
	{ __LINE__, { "task-clock,page-faults", OUTPUT_HUMAN, NULL, true, true,
		      STALLS },
	  { "#           time CPUs utilized page-faults /sec",
	    "     0.200000000         0.000                 ",
	    " Performance counter stats for 'sh -c true':",
	    " CPUs utilized page-faults /sec",
	    "         0.500         1000.000" } },
};

START_TEST(test_metric_only_lines)
{
	const struct mo_line_row *t = &mo_line_rows[_i];
	char *out;
	int i;

	c_locale();
	out = print_mo(&t->c);
	for (i = 0; i < 5 && t->want[i]; i++)
		ck_assert_msg(has_line(out, t->want[i]),
			      "line %d: no line\n%s\nin\n%s", t->line,
			      t->want[i], out);
	free(out);
}
END_TEST

/* The fields of a -x, line, quotes aside. */
static size_t n_fields(const char *line, size_t len)
{
	size_t n = 1, i;

	for (i = 0; i < len; i++)
		n += line[i] == ',';
	return n;
}

/* Each line of out, with its length; false past the last. */
static bool next_line(const char **p, const char **line, size_t *len)
{
	const char *nl;

	if (!**p)
		return false;
	nl = strchr(*p, '\n');
	*line = *p;
	*len = nl ? (size_t)(nl - *p) : strlen(*p);
	*p = nl ? nl + 1 : *p + *len;
	return true;
}

/* No silent limit: 70 rates and a clock, 71 columns on every line. */
START_TEST(test_metric_only_many)
{
	struct mo_case c = {
		.format = OUTPUT_CSV, .sep = ",", .interval = true,
		.n_sections = 2, .ns = { 100000000, 200000000 },
	};
	char spec[1024] = "task-clock";
	const char *p, *line;
	size_t len, n = 0, i;
	char *out;

	for (i = 1; i <= 70; i++)
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec),
			 ",r%zx", i);
	c.spec = spec;
	c.value[0][0][0] = 100000000;
	c.value[1][0][0] = 200000000;
	c_locale();
	out = print_mo(&c);
	for (p = out; next_line(&p, &line, &len); n++)
		ck_assert_msg(n_fields(line, len) == 72, "%zu fields in\n%.*s",
			      n_fields(line, len), (int)len, line);
	ck_assert_uint_eq(n, 3);
	ck_assert_msg(strstr(out, ",r46 /sec\n"), "no last title in\n%s", out);
	free(out);
}
END_TEST

/*
 * The keys of a JSON object on one line, in order: every string
 * followed by a colon.
 */
static size_t json_keys(const char *line, size_t len, char keys[][64],
			size_t max)
{
	size_t n = 0, i, k;

	for (i = 0; i < len; i++) {
		if (line[i] != '"')
			continue;
		for (k = 0, i++; i < len && line[i] != '"'; i++) {
			if (line[i] == '\\')
				i++;
			if (k < 63)
				keys[n][k++] = line[i];
		}
		keys[n][k] = '\0';
		while (i + 1 < len && line[i + 1] == ' ')
			i++;
		if (i + 1 < len && line[i + 1] == ':' && n + 1 < max)
			n++;
	}
	return n;
}

/* -j: no key twice in an object, with -A and twin units alike. */
START_TEST(test_metric_only_json_keys)
{
	static const struct mo_case cases[] = {
		{ "task-clock,cpu-clock,page-faults,page-faults",
		  OUTPUT_JSONL, NULL, true, .aggr = &fake_per_cpu, .n_targets = 2,
		  .n_sections = 2,
		  .value = { { { 1 }, { 1 }, { 1 }, { 1 } },
			     { { 2 }, { 2 }, { 2 }, { 2 } } },
		  .ns = { 100000000, 200000000 } },
		{ "task-clock:u,task-clock:k,page-faults:u,page-faults:u",
		  OUTPUT_JSONL, NULL, false, .aggr = &per_core, .n_targets = 4,
		  .n_sections = 1, .ns = { 100000000 } },
	};
	char keys[16][64];
	const char *p, *line;
	size_t len, n, i, j, k, lines;
	char *out;

	c_locale();
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		out = print_mo(&cases[k]);
		for (p = out, lines = 0; next_line(&p, &line, &len); lines++) {
			n = json_keys(line, len, keys, 16);
			ck_assert_msg(n >= 5, "%zu keys in\n%.*s", n, (int)len,
				      line);
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++)
					ck_assert_msg(strcmp(keys[i], keys[j]),
						      "key '%s' twice in\n%.*s",
						      keys[i], (int)len, line);
		}
		ck_assert_uint_eq(lines, cases[k].interval ? 4 : 2);
		free(out);
	}
}
END_TEST

/* Signals by the names kill -l gives, real-time ones included. */
static const struct {
	int line;
	int sig;
	const char *name;
} signal_rows[] = {
	{ __LINE__, SIGINT, "SIGINT" },
	{ __LINE__, SIGKILL, "SIGKILL" },
	{ __LINE__, 0, "SIGRTMIN" },
	{ __LINE__, 3, "SIGRTMIN+3" },
	{ __LINE__, -1, NULL },		/* SIGRTMAX: SIGRTMIN+N */
};

START_TEST(test_signal_name)
{
	int sig = signal_rows[_i].sig;
	const char *want = signal_rows[_i].name;
	char buf[16], max[16];

	if (signal_rows[_i].sig == -1) {
		sig = SIGRTMAX;
		snprintf(max, sizeof(max), "SIGRTMIN+%d", SIGRTMAX - SIGRTMIN);
		want = max;
	} else if (!strncmp(want, "SIGRTMIN", 8)) {
		sig += SIGRTMIN;
	}
	ck_assert_msg(strcmp(output_signal_name(sig, buf, sizeof(buf)), want)
		      == 0, "line %d: %d is '%s', not '%s'",
		      signal_rows[_i].line, sig, buf, want);
}
END_TEST

/*
 * Counters never enabled (-D longer than the command) counted nothing:
 * <not counted> with no run time, whatever the kernel's times say.
 */
START_TEST(test_never_enabled)
{
	const struct ev ev[] = { TASK_CLOCK, EXACT(7) };
	const struct output_opts opts = { .format = OUTPUT_CSV, .sep = ",",
					  .runs = 1 };
	const struct output_run run = { .argv = run_argv };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("task-clock,page-faults", ev);
	res = results_new(el, false, 1, NULL);
	ck_assert_ptr_nonnull(res);
	res->enabled = false;
	results_snapshot(res);
	results_end_run(res, 0.0);
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(has_line(buf, "<not counted>,msec,task-clock,0,0.00,,") &&
		      has_line(buf, "<not counted>,,page-faults,0,0.00,,"),
		      "never enabled:\n%s", buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * The mean of runs whose counts saturated is 2^64 as a double, one past
 * uint64_t: the count shown is UINT64_MAX, not what an undefined cast
 * makes of it (UBSan under the writers' fuzz target found it).
 */
START_TEST(test_repeat_saturated)
{
	const struct ev ev[] = { EXACT(UINT64_MAX) };
	const struct output_opts opts = { .format = OUTPUT_CSV, .sep = ",",
					  .runs = 2 };
	const struct output_run run = { .argv = run_argv, .runs_done = 2 };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("page-faults", ev);
	res = results_new(el, false, 2, NULL);
	ck_assert_ptr_nonnull(res);
	results_snapshot(res);
	results_end_run(res, 1e9);
	results_end_run(res, 1e9);
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(strncmp(buf, "18446744073709551615,,page-faults,0.00%,",
			      40) == 0, "saturated:\n%s", buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * With -r every field of a row is a statistic over the runs that
 * counted it, not the last run's: the mean value, enabled and running
 * times, and their percentage; scaled when a run was.
 */
static const struct repeat_case {
	int line;
	struct ev runs[2];
	enum output_format format;
	const char *want;	/* the page-faults line */
} repeat_rows[] = {
	/* An estimate, 200, then an exact 100. */
	{ __LINE__, { { 100, 1000, 500 }, { 100, 1000, 1000 } }, OUTPUT_CSV,
	  "150,,page-faults,33.33%,750,75.00,," },
	{ __LINE__, { { 100, 1000, 500 }, { 100, 1000, 1000 } },
	  OUTPUT_PSTAT_CSV,
	  "total,,,,page-faults,150,,scaled,1000,750,75.00,,,33.3333,,,,,,,,,,,," },
	/* Counted, then enabled and never running: the first run's. */
	{ __LINE__, { EXACT(100), { 0, 1000, 0 } }, OUTPUT_CSV,
	  "100,,page-faults,0.00%,100,100.00,," },
	{ __LINE__, { { 100, 1000, 500 }, { 0, 1000, 0 } }, OUTPUT_PSTAT_CSV,
	  "total,,,,page-faults,200,,scaled,1000,500,50.00,,,0.0000,,,,,,,,,,,," },
	/* Exact both times: counted, 100%. */
	{ __LINE__, { EXACT(300), EXACT(100) }, OUTPUT_PSTAT_CSV,
	  "total,,,,page-faults,200,,counted,200,200,100.00,,,50.0000,,,,,,,,,,,," },
};

START_TEST(test_repeat_fields)
{
	const struct repeat_case *c = &repeat_rows[_i];
	const struct output_opts opts = { .format = c->format, .sep = ",",
					  .runs = 2 };
	const struct output_run run = { .argv = run_argv, .runs_done = 2 };
	struct counts_values r;
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("page-faults", c->runs);
	res = results_new(el, false, 2, NULL);
	ck_assert_ptr_nonnull(res);
	for (i = 0; i < 2; i++) {
		r = (struct counts_values){ c->runs[i].value,
					    c->runs[i].enabled,
					    c->runs[i].running };
		if (i > 0)
			read_fake(el, 1, &r);
		results_snapshot(res);
		ck_assert_int_eq(results_end_run(res, 1e9), 0);
	}
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(has_line(buf, c->want), "line %d: no line '%s' in:\n%s",
		      c->line, c->want, buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * With -r a rate divides by the task-clock of the runs that counted
 * the event: page-faults counted 1000 in the first run (1 s of
 * task-clock) and not in the second (3 s): 1000/sec, not 500.
 */
START_TEST(test_repeat_ratio)
{
	const struct ev ev[] = { EXACT(1000000000), EXACT(1000) };
	const struct counts_values second[] = {
		EXACT(3000000000), { 0, 1000, 0 },
	};
	const struct output_opts opts = { .format = OUTPUT_CSV, .sep = ",",
					  .runs = 2 };
	const struct output_run run = { .argv = run_argv, .runs_done = 2 };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("task-clock,page-faults", ev);
	res = results_new(el, false, 2, NULL);
	ck_assert_ptr_nonnull(res);
	results_snapshot(res);
	ck_assert_int_eq(results_end_run(res, 2e9), 0);
	read_fake(el, 1, second);
	results_snapshot(res);
	ck_assert_int_eq(results_end_run(res, 4e9), 0);
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(has_line(buf, "1000,,page-faults,0.00%,1000,100.00,"
				    "1000.000,/sec") &&
		      has_line(buf, "2000.00,msec,task-clock,50.00%,2000000000,"
				    "100.00,0.667,CPUs utilized"),
		      "a rate over other runs:\n%s", buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * --metric-only -j: titles are keys, and names that differ only in
 * bytes that are not UTF-8 are alike there (U+FFFD): the second gets a
 * number, as the same name twice does (the writers fuzz target found
 * a key twice in an object).
 */
START_TEST(test_metric_only_json_bytes)
{
	const struct ev ev[] = {
		{ 1000000, 1000000, 1000000, 0, "a\xff" },
		{ 1000000, 1000000, 1000000, 0, "a\xfe" },
	};
	const struct output_opts opts = { .format = OUTPUT_JSONL,
					  .metric_only = true, .runs = 1 };
	const struct output_run run = { .argv = run_argv, .elapsed_ns = 2e6 };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("task-clock,cpu-clock", ev);
	res = results_new(el, false, 1, NULL);
	ck_assert_ptr_nonnull(res);
	results_snapshot(res);
	results_end_run(res, run.elapsed_ns);
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(strcmp(buf, "{\"CPUs utilized (a\\ufffd)\": 0.5, "
			     "\"CPUs utilized (a\\ufffd) #2\": 0.5}\n") == 0,
		      "keys:\n%s", buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * -r 0: room for each run's values grows past the first 64 runs, and
 * --table lists every run's elapsed time, the 100th too.
 */
START_TEST(test_repeat_forever_table)
{
	const struct ev ev[] = { EXACT(7) };
	const struct output_opts opts = { .format = OUTPUT_HUMAN,
					  .runs = SIZE_MAX, .table = true };
	const struct output_run run = { .argv = run_argv, .runs_done = 100 };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL, *p;
	size_t len = 0, i, lines = 0;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("page-faults", ev);
	res = results_new(el, false, SIZE_MAX, NULL);
	ck_assert_ptr_nonnull(res);
	results_snapshot(res);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(results_end_run(res, i == 99 ? 2e9 : 1e9), 0);
	ck_assert_uint_eq(res->n_runs, 100);
	ck_assert(res->rows[0].run_counted[99] &&
		  res->rows[0].run_values[99] == 7.0);
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	p = strstr(buf, "# Table of individual measurements:\n");
	ck_assert_msg(p != NULL, "no table:\n%s", buf);
	for (p = strchr(p, '\n') + 1; *p != '\n'; p = strchr(p, '\n') + 1)
		lines++;
	ck_assert_uint_eq(lines, 100);
	ck_assert_msg(strstr(buf, "\n            2.0000 (+0.9900) ##########\n"),
		      "no 100th run:\n%s", buf);
	ck_assert_msg(strstr(buf, "# Final result:\n") != NULL,
		      "no final result:\n%s", buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

/*
 * -r 0 without --table or pstat's JSON: each run's statistics are kept,
 * not its values, so nothing grows with the runs, and the mean is the
 * same.
 */
START_TEST(test_repeat_forever_kept)
{
	const struct ev ev[] = { EXACT(7) };
	const struct output_opts opts = { .format = OUTPUT_CSV, .sep = ",",
					  .runs = SIZE_MAX };
	const struct output_run run = { .argv = run_argv, .runs_done = 1000 };
	struct evlist *el;
	struct results *res;
	struct output *out;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	c_locale();
	el = build("page-faults", ev);
	res = results_new(el, false, SIZE_MAX, NULL);
	ck_assert_ptr_nonnull(res);
	res->keep_values = res->keep_wall = false;
	results_snapshot(res);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(results_end_run(res, 1e9), 0);
	ck_assert_uint_eq(res->n_runs, 1000);
	ck_assert_uint_eq(res->runs_cap, 0);
	ck_assert_ptr_null(res->rows[0].run_values);
	ck_assert_ptr_null(res->run_wall_ns);
	ck_assert(res->rows[0].runs.n == 1000.0);
	out = output_new(f, &opts);
	output_final(out, res, &run);
	ck_assert_int_eq(output_close(out), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(strncmp(buf, "7,,page-faults,", 15) == 0,
		      "not the mean of 7:\n%s", buf);
	free(buf);
	results_free(res);
	evlist_free(el);
}
END_TEST

static Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc;

	tc = tcase_create("csv");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_csv, 0, N_ROWS(csv_rows));
	tcase_add_test(tc, test_csv_locale);
	tcase_add_loop_test(tc, test_csv_summary, 0, N_ROWS(summary_rows));
	tcase_add_test(tc, test_repeat_saturated);
	suite_add_tcase(s, tc);

	tc = tcase_create("human");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_human, 0, N_ROWS(human_rows));
	tcase_add_test(tc, test_human_scaled);
	tcase_add_test(tc, test_human_many);
	tcase_add_test(tc, test_human_frame);
	tcase_add_test(tc, test_repeat_forever_table);
	tcase_add_test(tc, test_repeat_forever_kept);
	suite_add_tcase(s, tc);

	tc = tcase_create("metric-only");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_metric_only, 0, N_ROWS(mo_rows));
	tcase_add_loop_test(tc, test_metric_only_lines, 0,
			    N_ROWS(mo_line_rows));
	tcase_add_test(tc, test_metric_only_many);
	tcase_add_test(tc, test_metric_only_json_keys);
	tcase_add_test(tc, test_metric_only_json_bytes);
	suite_add_tcase(s, tc);

	tc = tcase_create("truth");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_signal_name, 0, N_ROWS(signal_rows));
	tcase_add_test(tc, test_never_enabled);
	tcase_add_loop_test(tc, test_repeat_fields, 0, N_ROWS(repeat_rows));
	tcase_add_test(tc, test_repeat_ratio);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_loop_test(tc, test_write_error, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(output_suite());
}
