/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of options.c: every option, its errors, and --help. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "aggr.h"
#include "options.h"
#include "unit.h"

#define MAX_ARGS 10
#define MAX_WANT 6
#define MAX_EVENTS 3

/*
 * Every option pstat has, written here a second time on purpose: --help
 * must list exactly these, and the rows below must use each of them.
 */
static const struct known {
	const char *name;
	char letter;
} known[] = {
	{ "event", 'e' },		{ "detailed", 'd' },
	{ "null", 'n' },		{ "no-inherit", 'i' },
	{ "pid", 'p' },			{ "tid", 't' },
	{ "all-cpus", 'a' },		{ "cpu", 'C' },
	{ "no-aggr", 'A' },		{ "per-core", 0 },
	{ "per-die", 0 },		{ "per-socket", 0 },
	{ "per-node", 0 },		{ "per-thread", 0 },
	{ "per-process", 0 },
	{ "repeat", 'r' },		{ "interval-print", 'I' },
	{ "delay", 'D' },		{ "timeout", 0 },
	{ "control", 0 },		{ "cgroup", 'G' },
	{ "regions", 0 },
	{ "for-each-cgroup", 0 },
	{ "interval-count", 0 },	{ "summary", 0 },
	{ "no-csv-summary", 0 },	{ "field-separator", 'x' },
	{ "json", 'j' },		{ "format", 0 },
	{ "output", 'o' },		{ "append", 0 },
	{ "log-fd", 0 },		{ "big-num", 'B' },
	{ "no-big-num", 0 },		{ "no-scale", 0 },
	{ "metric-only", 0 },		{ "no-merge", 0 },
	{ "list", 0 },			{ "explain", 0 },
	{ "check", 0 },			{ "help", 'h' },
	{ "version", 'V' },
	{ "all-user", 0 },		{ "all-kernel", 0 },
	{ "table", 0 },			{ "pre", 0 },
	{ "post", 0 },			{ "sync", 'S' },
	{ "interval-clear", 0 },	{ "json-output", 0 },
	{ "scale", 0 },			{ "verbose", 'v' },
	{ "quiet", 'q' },
	{ "pfm-events", 0 },
	{ "metrics", 'M' },		{ "metric-no-group", 0 },
	{ "metric-no-merge", 0 },	{ "topdown", 0 },
	{ "td-level", 0 },		{ "metric-no-threshold", 0 },
	{ "merge", 0 },
};

/* One field of struct options, and how to compare it. */
enum kind { NUM, STR, STRV };

static const struct field {
	const char *name;
	size_t off, size;
	enum kind kind;
} fields[] = {
#define NUMF(f) { #f, offsetof(struct options, f), \
		  sizeof(((struct options *)0)->f), NUM }
#define STRF(f) { #f, offsetof(struct options, f), \
		  sizeof(((struct options *)0)->f), STR }
	NUMF(action), NUMF(n_events), NUMF(detailed), NUMF(null_run),
	NUMF(no_inherit), NUMF(no_merge), NUMF(no_scale), NUMF(json),
	NUMF(out.format), STRF(out.sep), NUMF(out.big_num),
	NUMF(out.metric_only), NUMF(out.no_threshold),
	NUMF(out.interval), NUMF(out.summary),
	NUMF(out.no_csv_summary), NUMF(out.runs), NUMF(repeat),
	NUMF(interval_ms), NUMF(interval_count), STRF(pids), STRF(tids),
	NUMF(all_cpus), STRF(cpu_list), NUMF(aggr), NUMF(per_process),
	NUMF(delay_ms), NUMF(regions),
	STRF(control), STRF(for_each_cgroup), NUMF(n_cgroups),
	NUMF(timeout_ms), STRF(output_file), NUMF(append), NUMF(log_fd),
	NUMF(n_merge_files),
	{ "argv", offsetof(struct options, argv), sizeof(char **), STRV },
	STRF(list_filter),
	NUMF(forever), STRF(pre_cmd), STRF(post_cmd), NUMF(sync),
	NUMF(verbose), NUMF(quiet), NUMF(all_user), NUMF(all_kernel),
	NUMF(out.interval_clear), NUMF(out.table),
	NUMF(list_pfm), NUMF(list_metrics), NUMF(list_metricgroups),
	NUMF(n_metrics), NUMF(metric_no_group), NUMF(metric_no_merge),
	NUMF(topdown), NUMF(td_level),
#undef NUMF
#undef STRF
};

/* A field's expected value: a number, or a string (NULL for none). */
struct want {
	bool used;
	size_t off;
	long long num;
	const char *str;
};

#define N(f, v) { true, offsetof(struct options, f), (v), NULL }
#define S(f, s) { true, offsetof(struct options, f), 0, (s) }
#define END { false, 0, 0, NULL }

struct good_row {
	int line;
	const char *args[MAX_ARGS];	/* after "pstat" */
	struct want want[MAX_WANT];	/* what differs from plain "true" */
	const char *events[MAX_EVENTS];
	const char *cmd[MAX_ARGS];	/* o->argv, when not just "true" */
	bool no_cmd;			/* o->argv is NULL */
};

static const struct good_row good_rows[] = {
	/* Events. */
	{ __LINE__, { "-e", "cycles", "true" }, { N(n_events, 1), END },
	  { "cycles" } },
	{ __LINE__, { "-e", "cycles", "--event=task-clock", "-e{a,b}:u",
		      "true" }, { N(n_events, 3), END },
	  { "cycles", "task-clock", "{a,b}:u" } },
	{ __LINE__, { "--event", "@file", "true" }, { N(n_events, 1), END },
	  { "@file" } },
	{ __LINE__, { "--pfm-events", "{a:u,b}", "-e", "cycles", "true" },
	  { N(n_events, 2), END }, { "{a:u,b}", "cycles" } },
	{ __LINE__, { "-d", "true" }, { N(detailed, 1), END } },
	{ __LINE__, { "-dd", "true" }, { N(detailed, 2), END } },
	{ __LINE__, { "-d", "--detailed", "-d", "true" },
	  { N(detailed, 3), END } },
	{ __LINE__, { "-n", "true" }, { N(null_run, 1), END } },
	{ __LINE__, { "--null", "true" }, { N(null_run, 1), END } },
	{ __LINE__, { "-i", "true" }, { N(no_inherit, 1), END } },
	{ __LINE__, { "--no-inherit", "true" }, { N(no_inherit, 1), END } },
	/* Targets. */
	{ __LINE__, { "-p", "1", "true" }, { S(pids, "1"), END } },
	{ __LINE__, { "--pid=1,2", "true" }, { S(pids, "1,2"), END } },
	{ __LINE__, { "--pid=1" }, { S(pids, "1"), END }, .no_cmd = true },
	{ __LINE__, { "-t", "7" }, { S(tids, "7"), END }, .no_cmd = true },
	{ __LINE__, { "--tid=7,8", "true" }, { S(tids, "7,8"), END } },
	{ __LINE__, { "-a", "true" }, { N(all_cpus, 1), END } },
	{ __LINE__, { "--all-cpus", "true" }, { N(all_cpus, 1), END } },
	/* No command and no target: the whole machine. */
	{ __LINE__, { NULL }, { N(all_cpus, 1), END }, .no_cmd = true },
	{ __LINE__, { "-C", "0-3,6", "true" }, { S(cpu_list, "0-3,6"), END } },
	{ __LINE__, { "--cpu=1" }, { S(cpu_list, "1"), END },
	  .no_cmd = true },
	{ __LINE__, { "-A", "-a", "true" },
	  { N(aggr, AGGR_CPU), N(all_cpus, 1), END } },
	{ __LINE__, { "--no-aggr", "-C", "0" },
	  { N(aggr, AGGR_CPU), S(cpu_list, "0"), END }, .no_cmd = true },
	{ __LINE__, { "--per-core", "-a" },
	  { N(aggr, AGGR_CORE), N(all_cpus, 1), END }, .no_cmd = true },
	{ __LINE__, { "--per-die", "-a" },
	  { N(aggr, AGGR_DIE), N(all_cpus, 1), END }, .no_cmd = true },
	{ __LINE__, { "--per-socket", "-C", "0" },
	  { N(aggr, AGGR_SOCKET), S(cpu_list, "0"), END }, .no_cmd = true },
	{ __LINE__, { "--per-node", "-a", "true" },
	  { N(aggr, AGGR_NODE), N(all_cpus, 1), END } },
	/* The same one twice is no conflict. */
	{ __LINE__, { "--per-node", "--per-node", "-a", "true" },
	  { N(aggr, AGGR_NODE), N(all_cpus, 1), END } },
	{ __LINE__, { "--per-thread", "-p", "1" },
	  { N(aggr, AGGR_THREAD), S(pids, "1"), END }, .no_cmd = true },
	{ __LINE__, { "--per-thread", "-a", "true" },
	  { N(aggr, AGGR_THREAD), N(all_cpus, 1), END } },
	/* With a command: its tasks (tasks.c). */
	{ __LINE__, { "--per-thread", "true" }, { N(aggr, AGGR_THREAD), END } },
	{ __LINE__, { "--per-process", "true" },
	  { N(aggr, AGGR_THREAD), N(per_process, 1), END } },
	/* Runs. */
	{ __LINE__, { "-r", "5", "true" },
	  { N(repeat, 5), N(out.runs, 5), END } },
	{ __LINE__, { "--repeat=1000000", "true" },
	  { N(repeat, 1000000), N(out.runs, 1000000), END } },
	{ __LINE__, { "-r1", "true" }, { END } },
	{ __LINE__, { "-I", "100", "true" },
	  { N(interval_ms, 100), N(out.interval, 1), END } },
	{ __LINE__, { "--interval-print=10" },
	  { N(interval_ms, 10), N(out.interval, 1), N(all_cpus, 1), END },
	  .no_cmd = true },
	{ __LINE__, { "-I", "86400000", "true" },
	  { N(interval_ms, 86400000), N(out.interval, 1), END } },
	/* Each run its intervals, as perf accepts -I with -r. */
	{ __LINE__, { "-I", "100", "-r", "2", "true" },
	  { N(interval_ms, 100), N(out.interval, 1), N(repeat, 2),
	    N(out.runs, 2), END } },
	{ __LINE__, { "-D", "10", "true" }, { N(delay_ms, 10), END } },
	{ __LINE__, { "--delay=86400000", "true" },
	  { N(delay_ms, 86400000), END } },
	{ __LINE__, { "-D", "-1", "--control", "fd:3,4", "true" },
	  { N(delay_ms, -1), S(control, "fd:3,4"), END } },
	{ __LINE__, { "-D", "-1", "--regions", "true" },
	  { N(delay_ms, -1), N(regions, 1), END } },
	/* --regions: of one run of a command, its tasks together. */
	{ __LINE__, { "--regions", "true" }, { N(regions, 1), END } },
	{ __LINE__, { "-a", "-e", "x", "--cgroup=a,b", "-e", "y", "-G", "c" },
	  { N(all_cpus, 1), N(n_events, 2), N(n_cgroups, 2), END },
	  { "x", "y" }, .no_cmd = true },
	{ __LINE__, { "-C", "0", "--for-each-cgroup", "a,b" },
	  { S(cpu_list, "0"), S(for_each_cgroup, "a,b"), END },
	  .no_cmd = true },
	{ __LINE__, { "-D-1", "--control=fifo:c", "-a" },
	  { N(delay_ms, -1), S(control, "fifo:c"), N(all_cpus, 1), END },
	  .no_cmd = true },
	{ __LINE__, { "--timeout=1", "true" }, { N(timeout_ms, 1), END } },
	{ __LINE__, { "--timeout", "604800000", "true" },
	  { N(timeout_ms, 604800000), END } },
	{ __LINE__, { "--interval-count=3", "-I", "100", "true" },
	  { N(interval_count, 3), N(interval_ms, 100), N(out.interval, 1),
	    END } },
	{ __LINE__, { "--summary", "-I", "100", "true" },
	  { N(out.summary, 1), N(interval_ms, 100), N(out.interval, 1),
	    END } },
	{ __LINE__, { "--no-csv-summary", "true" },
	  { N(out.no_csv_summary, 1), END } },
	/* Output. */
	{ __LINE__, { "-x", ",", "true" },
	  { N(out.format, OUTPUT_CSV), S(out.sep, ","), END } },
	{ __LINE__, { "-x;", "true" },
	  { N(out.format, OUTPUT_CSV), S(out.sep, ";"), END } },
	{ __LINE__, { "--field-separator=\\t", "true" },
	  { N(out.format, OUTPUT_CSV), S(out.sep, "\t"), END } },
	{ __LINE__, { "-x", ",", "-x", ",", "true" },
	  { N(out.format, OUTPUT_CSV), S(out.sep, ","), END } },
	{ __LINE__, { "-j", "true" },
	  { N(json, 1), N(out.format, OUTPUT_JSONL), END } },
	{ __LINE__, { "--json", "true" },
	  { N(json, 1), N(out.format, OUTPUT_JSONL), END } },
	{ __LINE__, { "--format=csv", "true" },
	  { N(out.format, OUTPUT_PSTAT_CSV), END } },
	{ __LINE__, { "--format", "json", "true" },
	  { N(out.format, OUTPUT_PSTAT_JSON), END } },
	{ __LINE__, { "--format=openmetrics", "-o", "m.prom", "true" },
	  { N(out.format, OUTPUT_OPENMETRICS), S(output_file, "m.prom"),
	    END } },
	{ __LINE__, { "-o", "f", "true" }, { S(output_file, "f"), END } },
	{ __LINE__, { "--output=f", "--append", "true" },
	  { S(output_file, "f"), N(append, 1), END } },
	{ __LINE__, { "--log-fd=3", "true" }, { N(log_fd, 3), END } },
	{ __LINE__, { "--log-fd", "0", "true" }, { N(log_fd, 0), END } },
	{ __LINE__, { "-B", "true" }, { END } },
	{ __LINE__, { "--no-big-num", "true" }, { N(out.big_num, 0), END } },
	{ __LINE__, { "--no-big-num", "--big-num", "true" }, { END } },
	{ __LINE__, { "-B", "--no-big-num", "true" },
	  { N(out.big_num, 0), END } },
	{ __LINE__, { "--no-scale", "true" }, { N(no_scale, 1), END } },
	{ __LINE__, { "--metric-only", "true" },
	  { N(out.metric_only, 1), END } },
	{ __LINE__, { "-M", "a,b", "--metrics=c", "--metric-no-group",
		      "--metric-no-merge", "true" },
	  { N(n_metrics, 2), N(metric_no_group, 1), N(metric_no_merge, 1),
	    END } },
	{ __LINE__, { "--metric-only", "-M", "x", "true" },
	  { N(out.metric_only, 1), N(n_metrics, 1), END } },
	{ __LINE__, { "--metric-no-threshold", "true" },
	  { N(out.no_threshold, 1), END } },
	{ __LINE__, { "--topdown", "--td-level", "2", "true" },
	  { N(topdown, 1), N(td_level, 2), END } },
	{ __LINE__, { "--no-merge", "true" }, { N(no_merge, 1), END } },
	/* Other. */
	{ __LINE__, { "--list" }, { N(action, OPTIONS_LIST), END },
	  .no_cmd = true },
	{ __LINE__, { "--list", "sys*" },
	  { N(action, OPTIONS_LIST), S(list_filter, "sys*"), END },
	  .no_cmd = true },
	{ __LINE__, { "--list", "pfm" },
	  { N(action, OPTIONS_LIST), N(list_pfm, 1), END }, .no_cmd = true },
	{ __LINE__, { "--list", "pfm", "inst*" },
	  { N(action, OPTIONS_LIST), N(list_pfm, 1), S(list_filter, "inst*"),
	    END }, .no_cmd = true },
	{ __LINE__, { "--list", "metrics" },
	  { N(action, OPTIONS_LIST), N(list_metrics, 1), END },
	  .no_cmd = true },
	{ __LINE__, { "--list", "metric", "ipc*" },
	  { N(action, OPTIONS_LIST), N(list_metrics, 1), S(list_filter, "ipc*"),
	    END }, .no_cmd = true },
	{ __LINE__, { "--list", "metricgroups", "Topdown" },
	  { N(action, OPTIONS_LIST), N(list_metricgroups, 1),
	    S(list_filter, "Topdown"), END }, .no_cmd = true },
	{ __LINE__, { "--list", "metricgroup" },
	  { N(action, OPTIONS_LIST), N(list_metricgroups, 1), END },
	  .no_cmd = true },
	{ __LINE__, { "--list", "--json" },
	  { N(action, OPTIONS_LIST), N(json, 1), END }, .no_cmd = true },
	{ __LINE__, { "--explain", "-e", "cycles" },
	  { N(action, OPTIONS_EXPLAIN), N(n_events, 1), END }, { "cycles" },
	  .no_cmd = true },
	{ __LINE__, { "--merge", "a.csv", "b.json" },
	  { N(action, OPTIONS_MERGE), N(n_merge_files, 2), END },
	  .no_cmd = true },
	{ __LINE__, { "--merge", "--format=json", "-o", "m", "a" },
	  { N(action, OPTIONS_MERGE), N(n_merge_files, 1),
	    N(out.format, OUTPUT_PSTAT_JSON), S(output_file, "m"), END },
	  .no_cmd = true },
	{ __LINE__, { "--format=openmetrics", "--merge", "a" },
	  { N(action, OPTIONS_MERGE), N(n_merge_files, 1),
	    N(out.format, OUTPUT_OPENMETRICS), END }, .no_cmd = true },
	{ __LINE__, { "--check" }, { N(action, OPTIONS_CHECK), END },
	  .no_cmd = true },
	{ __LINE__, { "--check", "-j" },
	  { N(action, OPTIONS_CHECK), N(json, 1), END }, .no_cmd = true },
	{ __LINE__, { "-h", "-y" },
	  { N(action, OPTIONS_HELP), N(out.runs, 0), END },
	  .no_cmd = true },
	/* Help wins over whatever follows it. */
	{ __LINE__, { "--help", "-r", "0", "--bogus" },
	  { N(action, OPTIONS_HELP), N(out.runs, 0), END }, .no_cmd = true },
	{ __LINE__, { "-V" },
	  { N(action, OPTIONS_VERSION), N(out.runs, 0), END },
	  .no_cmd = true },
	{ __LINE__, { "-n", "--version" },
	  { N(action, OPTIONS_VERSION), N(null_run, 1), N(out.runs, 0),
	    END },
	  .no_cmd = true },
	/* The command keeps its own options; getopt's abbreviations. */
	{ __LINE__, { "true", "-r", "5" }, { END }, { NULL },
	  { "true", "-r", "5" } },
	{ __LINE__, { "-r", "2", "--", "ls", "-l" },
	  { N(repeat, 2), N(out.runs, 2), END }, { NULL }, { "ls", "-l" } },
	{ __LINE__, { "--rep=3", "true" },
	  { N(repeat, 3), N(out.runs, 3), END } },
	{ __LINE__, { "--no-i", "true" }, { N(no_inherit, 1), END } },
	/* perf's everyday options of issue 14. */
	{ __LINE__, { "--all-user", "true" }, { N(all_user, 1), END } },
	{ __LINE__, { "--all-kernel", "true" }, { N(all_kernel, 1), END } },
	{ __LINE__, { "-r", "0", "true" },
	  { N(repeat, -1), N(out.runs, -1), N(forever, 1), END } },
	{ __LINE__, { "-r", "3", "--table", "true" },
	  { N(repeat, 3), N(out.runs, 3), N(out.table, 1), END } },
	{ __LINE__, { "--pre", "a b", "--post=c", "true" },
	  { S(pre_cmd, "a b"), S(post_cmd, "c"), END } },
	{ __LINE__, { "-S", "true" }, { N(sync, 1), END } },
	{ __LINE__, { "--sync", "true" }, { N(sync, 1), END } },
	{ __LINE__, { "-I", "100", "--interval-clear", "true" },
	  { N(interval_ms, 100), N(out.interval, 1),
	    N(out.interval_clear, 1), END } },
	{ __LINE__, { "--json-output", "true" },
	  { N(json, 1), N(out.format, OUTPUT_JSONL), END } },
	/* A prefix of an option and its alias only is no ambiguity. */
	{ __LINE__, { "--js", "true" },
	  { N(json, 1), N(out.format, OUTPUT_JSONL), END } },
	{ __LINE__, { "--no-scale", "--scale", "true" }, { END } },
	{ __LINE__, { "-v", "true" }, { N(verbose, 1), END } },
	{ __LINE__, { "-vv", "--verbose", "true" }, { N(verbose, 3), END } },
	{ __LINE__, { "-q", "true" }, { N(quiet, 1), END } },
	{ __LINE__, { "--quiet", "true" }, { N(quiet, 1), END } },
	/* What perf takes: -D 0 is no delay, -D delays each run, -r
	 * repeats counting without a command, --summary and
	 * --interval-clear without -I do nothing. */
	{ __LINE__, { "-D", "0", "true" }, { END } },
	{ __LINE__, { "-D", "10", "-r", "2", "true" },
	  { N(delay_ms, 10), N(repeat, 2), N(out.runs, 2), END } },
	{ __LINE__, { "-r", "2", "-a", "--timeout=100" },
	  { N(repeat, 2), N(out.runs, 2), N(all_cpus, 1),
	    N(timeout_ms, 100), END }, { NULL }, { NULL }, true },
	{ __LINE__, { "-r", "0", "-p", "1" },
	  { N(repeat, -1), N(out.runs, -1), N(forever, 1), S(pids, "1"),
	    END }, { NULL }, { NULL }, true },
	{ __LINE__, { "-D", "10", "-a" },
	  { N(delay_ms, 10), N(all_cpus, 1), END }, { NULL }, { NULL },
	  true },
	{ __LINE__, { "--summary", "true" }, { END } },
	{ __LINE__, { "--pre", "x", "-a", "-r", "2" },
	  { S(pre_cmd, "x"), N(all_cpus, 1), N(repeat, 2), N(out.runs, 2),
	    END }, { NULL }, { NULL }, true },
	{ __LINE__, { "--interval-clear", "-x,", "true" },
	  { N(out.format, OUTPUT_CSV), S(out.sep, ","), END } },
};

static long long get_num(const void *p, size_t size)
{
	int32_t i32;
	int64_t i64;

	if (size == 1)
		return *(const unsigned char *)p;
	if (size == sizeof(i32)) {
		memcpy(&i32, p, sizeof(i32));
		return i32;
	}
	ck_assert_uint_eq(size, sizeof(i64));
	memcpy(&i64, p, sizeof(i64));
	return i64;
}

static void set_num(void *p, size_t size, long long v)
{
	int32_t i32 = (int32_t)v;
	int64_t i64 = v;

	if (size == 1)
		*(unsigned char *)p = (unsigned char)v;
	else if (size == sizeof(i32))
		memcpy(p, &i32, sizeof(i32));
	else
		memcpy(p, &i64, sizeof(i64));
}

static const struct field *field_at(size_t off)
{
	int i;

	for (i = 0; i < N_ROWS(fields); i++)
		if (fields[i].off == off)
			return &fields[i];
	ck_abort_msg("no field at offset %zu", off);
	return NULL;
}

static const char *str_at(const struct options *o, size_t off)
{
	const char *s;

	memcpy(&s, (const char *)o + off, sizeof(s));
	return s;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_strv(char **a, const char *const *b)
{
	size_t i;

	if (!a || !b)
		return !a && !b;
	for (i = 0; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return !a[i] && !b[i];
}

/* got against want, field by field, naming the first that differs. */
static void same_options(int line, const struct options *got,
			 const struct options *want,
			 const char *const *want_argv)
{
	const struct field *f;
	int i;

	for (i = 0; i < N_ROWS(fields); i++) {
		f = &fields[i];
		if (f->kind == NUM)
			ck_assert_msg(get_num((const char *)got + f->off,
					      f->size) ==
				      get_num((const char *)want + f->off,
					      f->size),
				      "line %d: %s is %lld, want %lld", line,
				      f->name,
				      get_num((const char *)got + f->off,
					      f->size),
				      get_num((const char *)want + f->off,
					      f->size));
		else if (f->kind == STR)
			ck_assert_msg(same_str(str_at(got, f->off),
					       str_at(want, f->off)),
				      "line %d: %s is '%s', want '%s'", line,
				      f->name, str_at(got, f->off),
				      str_at(want, f->off));
		else
			ck_assert_msg(same_strv(got->argv, want_argv),
				      "line %d: the command differs", line);
	}
}

/* argv for options_parse: "pstat", then args, copied to be writable. */
static int make_argv(const char *const *args, char **argv)
{
	int argc = 0;

	argv[argc++] = strdup("pstat");
	for (; argc <= MAX_ARGS && args[argc - 1]; argc++)
		argv[argc] = strdup(args[argc - 1]);
	argv[argc] = NULL;
	return argc;
}

static void free_argv(char **argv)
{
	for (; *argv; argv++)
		free(*argv);
}

START_TEST(test_good)
{
	static const char *const true_cmd[] = { "true", NULL };
	const struct good_row *t = &good_rows[_i];
	const struct want *w;
	const struct field *f;
	struct options base, got;
	static const char *const base_args[] = { "true", NULL };
	char *argv[MAX_ARGS + 2], *base_argv[3];
	char err[256] = "";
	int argc, ret;
	size_t i;

	make_argv(base_args, base_argv);
	ck_assert_int_eq(options_parse(&base, 2, base_argv, err,
				       sizeof(err)), 0);
	argc = make_argv(t->args, argv);
	ret = options_parse(&got, argc, argv, err, sizeof(err));
	ck_assert_msg(ret == 0, "line %d: %d '%s'", t->line, ret, err);
	for (w = t->want; w->used; w++) {
		f = field_at(w->off);
		if (f->kind == NUM)
			set_num((char *)&base + f->off, f->size, w->num);
		else
			memcpy((char *)&base + f->off, &w->str,
			       sizeof(w->str));
	}
	same_options(t->line, &got, &base,
		     t->no_cmd ? NULL : t->cmd[0] ? t->cmd : true_cmd);
	for (i = 0; i < got.n_events; i++)
		ck_assert_msg(same_str(got.events[i], t->events[i]),
			      "line %d: event %zu is '%s', want '%s'", t->line,
			      i, got.events[i], t->events[i]);
	options_free(&got);
	options_free(&base);
	free_argv(argv);
	free_argv(base_argv);
}
END_TEST

struct bad_row {
	int line;
	const char *args[MAX_ARGS];
	const char *err;
};

static const struct bad_row bad_rows[] = {
	/* Numbers out of range, or not numbers. */
	{ __LINE__, { "-r", "-1", "true" },
	  "-r needs a number of runs, or 0 for until Ctrl-C, not '-1'" },
	{ __LINE__, { "--repeat=1000001", "true" },
	  "-r needs a number of runs, or 0 for until Ctrl-C, not '1000001'" },
	{ __LINE__, { "-r", "5x", "true" },
	  "-r needs a number of runs, or 0 for until Ctrl-C, not '5x'" },
	{ __LINE__, { "-r", "", "true" },
	  "-r needs a number of runs, or 0 for until Ctrl-C, not ''" },
	{ __LINE__, { "-r", "99999999999999999999", "true" },
	  "-r needs a number of runs, or 0 for until Ctrl-C, not '99999999999999999999'" },
	{ __LINE__, { "-I", "9", "true" },
	  "-I needs milliseconds, 10 or more, not '9'" },
	{ __LINE__, { "--interval-print=86400001", "true" },
	  "-I needs milliseconds, 10 or more, not '86400001'" },
	{ __LINE__, { "-I", "100", "--interval-count=0", "true" },
	  "--interval-count needs a number from 1 up, not '0'" },
	{ __LINE__, { "--interval-count", "x", "true" },
	  "--interval-count needs a number from 1 up, not 'x'" },
	{ __LINE__, { "-D", "-2", "true" },
	  "-D needs milliseconds, 0 for none, or -1, not '-2'" },
	{ __LINE__, { "--delay=86400001", "true" },
	  "-D needs milliseconds, 0 for none, or -1, not '86400001'" },
	{ __LINE__, { "-D", "-1", "true" },
	  "-D -1 starts with counting disabled until --control says 'enable': add --control fd:CTL or fifo:CTL, or --regions for the command's own" },
	/* --regions: of one run of a command, its tasks together. */
	{ __LINE__, { "--regions", "-a" },
	  "--regions counts the regions a command names: give the command after --" },
	{ __LINE__, { "--regions", "-r", "3", "true" },
	  "--regions counts the regions of one run: drop -r" },
	{ __LINE__, { "--regions", "-I", "100", "true" },
	  "--regions with -I prints the regions after the intervals, with the totals: add --summary" },
	{ __LINE__, { "--regions", "--per-process", "true" },
	  "--regions sums what all of the command's tasks count in a region: drop --per-thread and --per-process" },
	{ __LINE__, { "-e", "x", "-G", "cg", "true" },
	  "-G and --for-each-cgroup count a cgroup on CPUs: add -a or -C LIST (and no --per-thread)" },
	{ __LINE__, { "-a", "--per-thread", "--for-each-cgroup=cg", "true" },
	  "-G and --for-each-cgroup count a cgroup on CPUs: add -a or -C LIST (and no --per-thread)" },
	{ __LINE__, { "-a", "-e", "x", "-G", "cg", "--for-each-cgroup", "cg" },
	  "-G and --for-each-cgroup both given; choose one" },
	{ __LINE__, { "--control", "fd:x", "true" },
	  "bad --control 'fd:x': fd: takes descriptor numbers, as in fd:10 or fd:10,11" },
	{ __LINE__, { "--control=pipe", "true" },
	  "bad --control 'pipe': give fd:CTL[,ACK] or fifo:CTL[,ACK]" },
	{ __LINE__, { "--timeout=0", "true" },
	  "--timeout needs milliseconds from 1 up, not '0'" },
	{ __LINE__, { "--timeout=604800001", "true" },
	  "--timeout needs milliseconds from 1 up, not '604800001'" },
	{ __LINE__, { "--log-fd=-1", "true" },
	  "--log-fd needs a file descriptor number, not '-1'" },
	{ __LINE__, { "--log-fd", "1073741825", "true" },
	  "--log-fd needs a file descriptor number, not '1073741825'" },
	/* Words that are not one of the choices. */
	{ __LINE__, { "-x", "", "true" },
	  "the -x separator is empty; give one, as in -x," },
	/* No reader could tell them from the quoting (found by fuzzing). */
	{ __LINE__, { "-x", "\"", "true" },
	  "the -x separator cannot hold a double quote or a line break, which quote fields and end lines" },
	{ __LINE__, { "-x", ",\n", "true" },
	  "the -x separator cannot hold a double quote or a line break, which quote fields and end lines" },
	{ __LINE__, { "--field-separator=a\rb", "true" },
	  "the -x separator cannot hold a double quote or a line break, which quote fields and end lines" },
	{ __LINE__, { "--format=xml", "true" },
	  "--format is csv, json or openmetrics, not 'xml' (perf's CSV is -x, its JSON -j)" },
	{ __LINE__, { "--format=CSV", "true" },
	  "--format is csv, json or openmetrics, not 'CSV' (perf's CSV is -x, its JSON -j)" },
	{ __LINE__, { "--format=OpenMetrics", "true" },
	  "--format is csv, json or openmetrics, not 'OpenMetrics' (perf's CSV is -x, its JSON -j)" },
	/* One output format. */
	{ __LINE__, { "-x", ",", "-j", "true" },
	  "-j and another output format (-x, -j, --format) were both given; choose one" },
	{ __LINE__, { "--format=csv", "-x", ",", "true" },
	  "-x and another output format (-x, -j, --format) were both given; choose one" },
	{ __LINE__, { "--format=csv", "--format=json", "true" },
	  "--format and another output format (-x, -j, --format) were both given; choose one" },
	/* One aggregation. */
	{ __LINE__, { "-A", "--per-core", "-a", "true" },
	  "choose one of -A, --per-core, --per-die, --per-socket, --per-node, --per-thread and --per-process" },
	{ __LINE__, { "--per-thread", "--per-socket", "-a", "true" },
	  "choose one of -A, --per-core, --per-die, --per-socket, --per-node, --per-thread and --per-process" },
	/* Options that need others, or exclude them. */
	{ __LINE__, { "--append", "true" }, "--append goes with -o FILE" },
	{ __LINE__, { "--format=openmetrics", "-o", "f", "--append", "true" },
	  "--append does not go with --format=openmetrics: its file holds one exposition, replaced whole each time" },
	{ __LINE__, { "--format=openmetrics", "-j", "true" },
	  "-j and another output format (-x, -j, --format) were both given; choose one" },
	{ __LINE__, { "-o", "f", "--log-fd=3", "true" },
	  "-o and --log-fd both given; choose one" },
	{ __LINE__, { "--interval-count=2", "true" },
	  "--interval-count goes with -I MS" },
	{ __LINE__, { "-n", "-e", "cycles", "true" },
	  "-n counts nothing: drop -e, -M, --topdown and -d, or -n" },
	{ __LINE__, { "-n", "-d", "true" },
	  "-n counts nothing: drop -e, -M, --topdown and -d, or -n" },
	{ __LINE__, { "-n", "-M", "TopdownL1", "true" },
	  "-n counts nothing: drop -e, -M, --topdown and -d, or -n" },
	{ __LINE__, { "--td-level", "2", "true" },
	  "--td-level goes with --topdown" },
	{ __LINE__, { "--topdown", "--td-level", "7", "true" },
	  "--td-level takes a level from 1 to 6, not '7'" },
	{ __LINE__, { "-p", "1", "-t", "2" },
	  "-p, -t and -a/-C each choose what to count; give one of them" },
	{ __LINE__, { "-C", "0", "-p", "1" },
	  "-p, -t and -a/-C each choose what to count; give one of them" },
	/* With a command: whole runs of its tasks, its tasks at all. */
	{ __LINE__, { "--per-thread", "-I", "100", "true" },
	  "--per-thread and --per-process with a command count one whole run of its tasks: drop -I and -r" },
	{ __LINE__, { "--per-process", "-r", "0", "true" },
	  "--per-thread and --per-process with a command count one whole run of its tasks: drop -I and -r" },
	{ __LINE__, { "--per-thread", "-i", "true" },
	  "--per-thread and --per-process with a command count the tasks it makes: drop -i" },
	{ __LINE__, { "--per-process", "-p", "1" },
	  "--per-process counts the processes of a command: drop -p, -t, -a and -C" },
	{ __LINE__, { "--per-process", "--per-thread", "true" },
	  "choose one of -A, --per-core, --per-die, --per-socket, --per-node, --per-thread and --per-process" },
	{ __LINE__, { "-A", "true" },
	  "-A and --per-core, --per-die, --per-socket, --per-node count per CPU: add -a or -C LIST" },
	{ __LINE__, { "--per-die", "-p", "1" },
	  "-A and --per-core, --per-die, --per-socket, --per-node count per CPU: add -a or -C LIST" },
	{ __LINE__, { "--explain" },
	  "--explain needs the events to explain: -e LIST or -M LIST" },
	{ __LINE__, { "--list", "a", "b" },
	  "--list takes one filter, not 2; quote a glob" },
	{ __LINE__, { "--merge" },
	  "--merge needs the files of the ranks: pstat --merge out/rank.*.csv" },
	{ __LINE__, { "--merge", "-x,", "a" },
	  "--merge prints human output or --format=csv, json or openmetrics; drop -x and -j" },
	{ __LINE__, { "--check", "true" }, "--check runs no command; drop 'true'" },
	{ __LINE__, { "--table", "true" }, "--table goes with -r N" },
	{ __LINE__, { "-r", "1", "--table", "true" }, "--table goes with -r N" },
	{ __LINE__, { "-I", "100", "--interval-clear", "-x,", "true" },
	  "--interval-clear clears a terminal: it does not go with -x, -j or --format" },
	{ __LINE__, { "--all-user", "--all-kernel", "true" },
	  "--all-user and --all-kernel both given; choose one" },
	{ __LINE__, { "-q", "-v", "true" }, "-q and -v both given; choose one" },
	/* Options getopt does not know, or without their argument. */
	{ __LINE__, { "-y", "true" }, "unknown option -y; see 'pstat --help'" },
	{ __LINE__, { "-jy", "true" }, "unknown option -y; see 'pstat --help'" },
	{ __LINE__, { "-r" }, "option -r needs an argument; see 'pstat --help'" },
	{ __LINE__, { "-a", "-C" },
	  "option -C needs an argument; see 'pstat --help'" },
	{ __LINE__, { "--bogus", "true" },
	  "unknown option '--bogus'; see 'pstat --help'" },
	{ __LINE__, { "--bogus=1", "true" },
	  "unknown option '--bogus'; see 'pstat --help'" },
	{ __LINE__, { "--repeat" },
	  "option --repeat needs an argument; see 'pstat --help'" },
	{ __LINE__, { "--timeout" },
	  "option --timeout needs an argument; see 'pstat --help'" },
	{ __LINE__, { "--interval-co" },
	  "option --interval-count needs an argument; see 'pstat --help'" },
	{ __LINE__, { "--json=1", "true" },
	  "option --json takes no argument; see 'pstat --help'" },
	{ __LINE__, { "--list=sys*" },
	  "option --list takes no argument; see 'pstat --help'" },
	{ __LINE__, { "--help=x" },
	  "option --help takes no argument; see 'pstat --help'" },
	/* Ambiguous: the options it could be (issue 31). */
	{ __LINE__, { "--per", "true" },
	  "option '--per' is ambiguous: --per-core, --per-die, --per-socket, --per-node, --per-thread, --per-process; see 'pstat --help'" },
	{ __LINE__, { "-a", "--per=x" },
	  "option '--per' is ambiguous: --per-core, --per-die, --per-socket, --per-node, --per-thread, --per-process; see 'pstat --help'" },
	{ __LINE__, { "--no-", "true" },
	  "option '--no-' is ambiguous: --no-inherit, --no-aggr, --no-csv-summary, --no-big-num, --no-scale, --no-merge; see 'pstat --help'" },
};

START_TEST(test_bad)
{
	const struct bad_row *t = &bad_rows[_i];
	char *argv[MAX_ARGS + 2], err[256] = "";
	struct options o;
	int argc, ret;

	argc = make_argv(t->args, argv);
	ret = options_parse(&o, argc, argv, err, sizeof(err));
	ck_assert_msg(ret == -EINVAL, "line %d: %d, want -EINVAL", t->line,
		      ret);
	ck_assert_msg(strcmp(err, t->err) == 0, "line %d: '%s', want '%s'",
		      t->line, err, t->err);
	options_free(&o);
	free_argv(argv);
}
END_TEST

/* The whole --help, to be freed. */
static char *help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	options_usage(f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_ptr_nonnull(buf);
	return buf;
}

/*
 * The options a help line declares: its start, up to the two spaces
 * before its description ("  -e, --event=LIST    events to ..."). Each
 * "--name" and "-X" found there is counted; the count of those this file
 * does not know is returned.
 */
static int count_labels(const char *help, int *n_long, int *n_letter)
{
	const char *line, *end, *p, *q;
	int k, unknown = 0, hits;
	size_t n;

	for (line = help; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (strncmp(line, "  -", 3) != 0 &&
		    strncmp(line, "      --", 8) != 0)
			continue;
		q = strstr(line + strspn(line, " "), "  ");
		if (!q || q > end)
			q = end;
		for (p = line; p < q; p++) {
			if (*p != '-' || (p > line && p[-1] != ' '))
				continue;
			hits = 0;
			n = p[1] == '-' ? strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-")
					: 0;
			for (k = 0; k < N_ROWS(known); k++) {
				if (p[1] != '-' && known[k].letter == p[1]) {
					n_letter[k]++;
					hits++;
				} else if (p[1] == '-' &&
					   strlen(known[k].name) == n &&
					   strncmp(p + 2, known[k].name, n) == 0) {
					n_long[k]++;
					hits++;
				}
			}
			unknown += !hits;
		}
	}
	return unknown;
}

START_TEST(test_help_lists_each_once)
{
	int n_long[N_ROWS(known)] = { 0 }, n_letter[N_ROWS(known)] = { 0 };
	char *help = help_text();
	char pair[64];
	int k;

	/* And none that this file does not know, and so does not test. */
	ck_assert_int_eq(count_labels(help, n_long, n_letter), 0);
	for (k = 0; k < N_ROWS(known); k++) {
		ck_assert_msg(n_long[k] == 1, "--%s is in --help %d times",
			      known[k].name, n_long[k]);
		if (!known[k].letter)
			continue;
		ck_assert_msg(n_letter[k] == 1, "-%c is in --help %d times",
			      known[k].letter, n_letter[k]);
		snprintf(pair, sizeof(pair), "-%c, --%s", known[k].letter,
			 known[k].name);
		ck_assert_msg(strstr(help, pair), "--help lacks '%s'", pair);
	}
	free(help);
}
END_TEST

/* Whether some good row gives the option, long or short. */
static bool tested(const struct known *k)
{
	size_t n = strlen(k->name);
	const char *a;
	int i, j;

	for (i = 0; i < N_ROWS(good_rows); i++) {
		for (j = 0; j < MAX_ARGS && (a = good_rows[i].args[j]); j++) {
			if (strncmp(a, "--", 2) == 0 &&
			    strncmp(a + 2, k->name, n) == 0 &&
			    (a[n + 2] == '\0' || a[n + 2] == '='))
				return true;
			if (k->letter && a[0] == '-' && a[1] == k->letter)
				return true;
		}
	}
	return false;
}

/* --pfm-events lists keep their place among the -e lists. */
START_TEST(test_pfm_events_in_order)
{
	static const char *const args[] = {
		"pstat", "-e", "a", "--pfm-events", "b", "-e", "c", "true", NULL
	};
	struct options o;
	char err[128] = "";

	ck_assert_int_eq(options_parse(&o, 8, (char **)args, err,
				       sizeof(err)), 0);
	ck_assert_int_eq(o.n_events, 3);
	ck_assert(!o.events_pfm[0] && o.events_pfm[1] && !o.events_pfm[2]);
	ck_assert_str_eq(o.events[1], "b");
	options_free(&o);
}
END_TEST

START_TEST(test_each_option_tested)
{
	int k;

	for (k = 0; k < N_ROWS(known); k++)
		ck_assert_msg(tested(&known[k]), "no row parses --%s",
			      known[k].name);
}
END_TEST

/*
 * A second parse in one process starts afresh, even after the first
 * stopped inside a cluster of letters (getopt keeps its place there).
 */
START_TEST(test_parse_twice)
{
	static const char *const first[] = { "-jZq", "true", NULL };
	static const char *const second[] = { "-r", "5", "true", NULL };
	char *argv[MAX_ARGS + 2], err[128] = "";
	struct options o;
	int argc;

	argc = make_argv(first, argv);
	ck_assert_int_eq(options_parse(&o, argc, argv, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "unknown option -Z; see 'pstat --help'");
	options_free(&o);
	free_argv(argv);
	argc = make_argv(second, argv);
	ck_assert_int_eq(options_parse(&o, argc, argv, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.repeat, 5);
	options_free(&o);
	free_argv(argv);
}
END_TEST

/* pstat compare: its own options, its commands split at ':::' (which
 * become the NULL that ends each), or its files. */
START_TEST(test_compare)
{
	static const char *const live[] = {
		"compare", "-r", "3", "-i", "--warmup", "2", "--threshold",
		"2%", "--fail-on", "a>1%", "-e", "x", "--", "./a", "1",
		":::", "./b", NULL
	};
	static const char *const files[] = { "compare", "a.json", "b.json",
					      NULL };
	char *argv[MAX_ARGS + 12], *words[MAX_ARGS + 12], err[256] = "";
	struct options o;
	char *help;
	int argc;

	/* make_argv's, longer; words keeps them, to see argv unchanged. */
	words[0] = strdup("pstat");
	for (argc = 1; live[argc - 1]; argc++)
		words[argc] = strdup(live[argc - 1]);
	words[argc] = NULL;
	memcpy(argv, words, sizeof(words));
	ck_assert_int_eq(options_parse(&o, argc, argv, err, sizeof(err)), 0);
	ck_assert_int_eq(o.action, OPTIONS_COMPARE);
	ck_assert_uint_eq(o.n_sides, 2);
	ck_assert_str_eq(o.sides[0][0], "./a");
	ck_assert_str_eq(o.sides[0][1], "1");
	ck_assert_ptr_null(o.sides[0][2]);
	ck_assert_str_eq(o.sides[1][0], "./b");
	ck_assert_ptr_null(o.sides[1][1]);
	ck_assert_uint_eq(o.repeat, 3);
	ck_assert_uint_eq(o.warmup, 2);
	/* -i is --ignore-failure here, not --no-inherit. */
	ck_assert(o.ignore_failure && !o.no_inherit);
	ck_assert_uint_eq(o.n_thresholds, 1);
	ck_assert_str_eq(o.fail_on[0], "a>1%");
	ck_assert_uint_eq(o.n_events, 1);
	/* argv stays as it was: the words are copied, not cut. */
	ck_assert(memcmp(argv, words, sizeof(words)) == 0);
	ck_assert_str_eq(argv[16], ":::");
	options_free(&o);
	free_argv(words);

	argc = make_argv(files, argv);
	ck_assert_int_eq(options_parse(&o, argc, argv, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.n_compare_files, 2);
	ck_assert_ptr_null(o.sides);
	help = help_text();
	ck_assert_ptr_nonnull(strstr(help, "Usage: pstat compare"));
	ck_assert_ptr_nonnull(strstr(help, "-i, --ignore-failure"));
	ck_assert_ptr_null(strstr(help, "-i, --no-inherit"));
	ck_assert_ptr_null(strstr(help, "--per-thread"));
	free(help);
	options_free(&o);
	free_argv(argv);

	/* Without 'compare', -i is --no-inherit again, and compare's own
	 * options are unknown. */
	static const char *const plain[] = { "--warmup", "1", "true", NULL };

	argc = make_argv(plain, argv);
	ck_assert_int_eq(options_parse(&o, argc, argv, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "unknown option '--warmup'; see 'pstat --help'");
	options_free(&o);
	free_argv(argv);

	/* A comparison has no OpenMetrics form. */
	static const char *const om[] = { "compare", "--format=openmetrics",
					  "a.json", "b.json", NULL };

	argc = make_argv(om, argv);
	ck_assert_int_eq(options_parse(&o, argc, argv, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "--format is csv or json, not 'openmetrics' (perf's CSV is -x, its JSON -j)");
	options_free(&o);
	free_argv(argv);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tg = tcase_create("good");
	TCase *tb = tcase_create("bad");
	TCase *th = tcase_create("help");

	tcase_add_loop_test(tg, test_good, 0, N_ROWS(good_rows));
	tcase_add_test(tg, test_each_option_tested);
	tcase_add_test(tg, test_pfm_events_in_order);
	suite_add_tcase(s, tg);
	tcase_add_loop_test(tb, test_bad, 0, N_ROWS(bad_rows));
	tcase_add_test(tb, test_parse_twice);
	suite_add_tcase(s, tb);
	tcase_add_test(th, test_help_lists_each_once);
	tcase_add_test(th, test_compare);
	suite_add_tcase(s, th);
	return s;
}

int main(void)
{
	return unit_run(options_suite());
}
