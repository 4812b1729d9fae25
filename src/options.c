/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: options into a struct, validated, and --help. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggr.h"
#include "control.h"
#include "error.h"
#include "options.h"

static const char usage_head[] =
	"Usage: pstat [options] [--] command [args...]\n"
	"       pstat [options]\n"
	"Count performance events while command runs, like perf stat; without\n"
	"a command or a target, count the whole machine (-a) until Ctrl-C,\n"
	"--timeout or --interval-count.\n"
	"\n";

static const char compare_head[] =
	"Usage: pstat compare [options] [--] command_a [args...] ::: command_b [args...]\n"
	"       pstat compare [options] A.json B.json [C.json...]\n"
	"       pstat compare [options] COMPARE.json\n"
	"Run the commands in interleaved, balanced runs (A B B A ...), count\n"
	"the same events in each, and say per event whether the others\n"
	"changed against the first: medians, the change with its 95% interval\n"
	"(Hodges-Lehmann), the Mann-Whitney p-value and a verdict. Or compare\n"
	"the runs of saved results: pstat -r N --format=json files, or a\n"
	"comparison saved with --format=json.\n"
	"\n";

static const char top_head[] =
	"Usage: pstat top [-b] [options]\n"
	"Count events per process (or thread) of the machine, or of -p's\n"
	"processes or -u's user's, and show a table of their rates every\n"
	"interval, sorted, like top (-b: printed, like top -b). New processes\n"
	"are found by a scan of /proc each interval; an ended one is shown\n"
	"once more, marked. Keys: q quit, h help, < > the sort, space pause.\n"
	"\n";

static const char top_tail[] =
	"\n"
	"Without -e: task-clock, context-switches, page-faults, cycles,\n"
	"instructions. %CPU comes from task-clock. The table goes to standard\n"
	"output (-b), or is drawn on the terminal. Exit status: 0; 125 when\n"
	"pstat failed.\n";

static const char compare_tail[] =
	"\n"
	"Without -e: task-clock, context-switches, cpu-migrations, page-faults,\n"
	"cycles, instructions, branches, branch-misses; wall time and max RSS\n"
	"are rows of their own. The table goes to standard error.\n"
	"Exit status: 0; 1 when a --fail-on condition is met or a run failed\n"
	"(without -i); 125 when pstat failed; 126 or 127 when a command could\n"
	"not be run or was not found.\n";

static const char usage_tail[] =
	"\n"
	"Without -e: task-clock, context-switches, cpu-migrations, page-faults,\n"
	"cycles, instructions, branches, branch-misses.\n"
	"Results go to standard error. Exit status: the command's; 128+N when\n"
	"it was killed by signal N; 125 when pstat failed; 126 when the command\n"
	"could not be run; 127 when it was not found.\n"
	"Signals that end a process go on to the command; 2 s after a second\n"
	"SIGINT or SIGTERM, SIGKILL does.\n";

/* The sections of --help, in order. */
enum section { EVENTS, TARGETS, RUNS, COMPARE, OUTPUT, OTHER };

/* Which command lines an option belongs to: pstat's (the default, 0),
 * pstat compare's, or both; or pstat top's alone (a row of another
 * that pstat top takes as well says so with .top). */
enum { COUNT_ONLY, BOTH, COMPARE_ONLY, TOP_ONLY };

/* The command line being read. */
static enum { MODE_COUNT, MODE_COMPARE, MODE_TOP } mode;

static const char *const headings[] = {
	[EVENTS] = "Events:",
	[TARGETS] = "Targets (instead of, or while, a command runs):",
	[RUNS] = "Runs:",
	[COMPARE] = "Comparison:",
	[OUTPUT] = "Output:",
	[OTHER] = "Other:",
};

struct opt;

/* Applies one option to o. 0, or -EINVAL with the reason in err. */
typedef int take_fn(struct options *o, const struct opt *r,
		    const char *arg, char *err, size_t len);

/*
 * One option, declared once: getopt's short string, its long options and
 * --help are all made from these rows.
 */
struct opt {
	const char *name;	/* --name */
	char letter;		/* -l, or 0 */
	const char *arg;	/* the argument's name in --help; NULL: none */
	bool operand;		/* arg is an optional operand after the
				 * options ("--list [FILTER]"), not the
				 * option's own */
	enum section section;
	const char *help;	/* its lines in --help; NULL: the row before
				 * it names this one too, and its help is
				 * for both */
	take_fn *take;
	size_t off, size;	/* the field of struct options it sets */
	long long min, max;	/* a number's range */
	const char *bad;	/* a number out of range: "BAD, not 'ARG'" */
	int value;		/* what it stores: an action, an aggregation */
	int modes;		/* COUNT_ONLY, BOTH, COMPARE_ONLY or TOP_ONLY */
	bool top;		/* pstat top's too */
};

/* Whether r is an option of the command line being read. */
static bool in_mode(const struct opt *r)
{
	if (mode == MODE_TOP)
		return r->modes == TOP_ONLY || r->top;
	if (mode == MODE_COMPARE)
		return r->modes == BOTH || r->modes == COMPARE_ONLY;
	return r->modes == COUNT_ONLY || r->modes == BOTH;
}

#define FIELD(f) .off = offsetof(struct options, f), \
		 .size = sizeof(((struct options *)0)->f)

/* The field r sets in o. */
static void *field(struct options *o, const struct opt *r)
{
	return (char *)o + r->off;
}

/* A whole decimal number in [min, max]; 0 or -EINVAL. */
static int number(const char *arg, long long min, long long max,
		  long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(arg, &end, 10);
	return errno || end == arg || *end || *v < min || *v > max ? -EINVAL
								   : 0;
}

static int set_format(struct options *o, enum output_format f,
		      const char *what, char *err, size_t len)
{
	if (o->out.format != OUTPUT_HUMAN && o->out.format != f)
		return error_say(err, len,
			   "%s and another output format (-x, -j, --format) were both given; choose one",
			   what);
	o->out.format = f;
	return 0;
}

static int take_true(struct options *o, const struct opt *r,
		     const char *arg, char *err, size_t len)
{
	*(bool *)field(o, r) = true;
	return 0;
}

static int take_false(struct options *o, const struct opt *r,
		      const char *arg, char *err, size_t len)
{
	*(bool *)field(o, r) = false;
	return 0;
}

static int take_count(struct options *o, const struct opt *r,
		      const char *arg, char *err, size_t len)
{
	(*(int *)field(o, r))++;
	return 0;
}

/* Kept as given: it points into argv. */
static int take_string(struct options *o, const struct opt *r,
		       const char *arg, char *err, size_t len)
{
	*(const char **)field(o, r) = arg;
	return 0;
}

/* Into an int, unsigned int, long or size_t field: 4 or 8 bytes. */
static int take_number(struct options *o, const struct opt *r,
		       const char *arg, char *err, size_t len)
{
	int32_t v32;
	int64_t v64;
	long long v;

	if (number(arg, r->min, r->max, &v) < 0)
		return error_say(err, len, "%s, not '%s'", r->bad, arg);
	v32 = (int32_t)v;
	v64 = v;
	if (r->size == sizeof(v64))
		memcpy(field(o, r), &v64, sizeof(v64));
	else
		memcpy(field(o, r), &v32, sizeof(v32));
	return 0;
}

static int take_delay(struct options *o, const struct opt *r,
		      const char *arg, char *err, size_t len)
{
	/* perf's "start disabled": --control's "enable" starts counting. */
	if (strcmp(arg, "-1") == 0) {
		o->delay_ms = -1;
		return 0;
	}
	return take_number(o, r, arg, err, len);
}

/* -r 0: until interrupted. */
static int take_repeat(struct options *o, const struct opt *r,
		       const char *arg, char *err, size_t len)
{
	int ret = take_number(o, r, arg, err, len);

	o->forever = ret == 0 && o->repeat == 0;
	if (o->forever)
		o->repeat = SIZE_MAX;
	return ret;
}

/* Its syntax now; main opens it. */
static int take_control(struct options *o, const struct opt *r,
			const char *arg, char *err, size_t len)
{
	struct control c;

	o->control = arg;
	return control_parse(&c, arg, err, len);
}

/* perf's -G names the events of the -e options before it. */
static int take_cgroup(struct options *o, const struct opt *r,
		       const char *arg, char *err, size_t len)
{
	o->cgroups[o->n_cgroups++] = (struct options_cgroup){
		.list = arg,
		.after = o->n_events,
		.after_metrics = (o->n_metrics || o->topdown) &&
				 o->metrics_at == o->n_events,
	};
	return 0;
}

/* Where -M's (or --topdown's) events go among the -e lists: the first's. */
static void metrics_here(struct options *o)
{
	if (!o->n_metrics && !o->topdown)
		o->metrics_at = o->n_events;
}

static int take_topdown(struct options *o, const struct opt *r,
			const char *arg, char *err, size_t len)
{
	metrics_here(o);
	o->topdown = true;
	return 0;
}

static int take_event(struct options *o, const struct opt *r,
		      const char *arg, char *err, size_t len)
{
	o->events[o->n_events++] = arg;
	return 0;
}

static int take_metrics(struct options *o, const struct opt *r,
			const char *arg, char *err, size_t len)
{
	metrics_here(o);
	o->metrics[o->n_metrics++] = arg;
	return 0;
}

/* --pfm-events: in the same order as -e, parsed with libpfm4's syntax. */
static int take_pfm_events(struct options *o, const struct opt *r,
			   const char *arg, char *err, size_t len)
{
	o->events_pfm[o->n_events] = true;
	return take_event(o, r, arg, err, len);
}

static int take_separator(struct options *o, const struct opt *r,
			  const char *arg, char *err, size_t len)
{
	o->out.sep = strcmp(arg, "\\t") == 0 ? "\t" : arg;
	if (!*o->out.sep)
		return error_say(err, len,
			   "the -x separator is empty; give one, as in -x,");
	/* Fields are quoted with '"' and lines end with a newline: no
	 * reader could tell a separator holding either from them. */
	if (strpbrk(o->out.sep, "\"\n\r"))
		return error_say(err, len,
			   "the -x separator cannot hold a double quote or a line break, which quote fields and end lines");
	return set_format(o, OUTPUT_CSV, "-x", err, len);
}

static int take_format(struct options *o, const struct opt *r,
		       const char *arg, char *err, size_t len)
{
	if (strcmp(arg, "csv") == 0)
		return set_format(o, OUTPUT_PSTAT_CSV, "--format", err, len);
	if (strcmp(arg, "json") == 0)
		return set_format(o, OUTPUT_PSTAT_JSON, "--format", err, len);
	if (strcmp(arg, "openmetrics") == 0 && mode != MODE_COMPARE)
		return set_format(o, OUTPUT_OPENMETRICS, "--format", err, len);
	/* pstat compare writes no OpenMetrics. */
	return error_say(err, len,
		   "--format is csv%s json%s, not '%s' (perf's CSV is -x, its JSON -j)",
		   mode == MODE_COMPARE ? " or" : ",",
		   mode == MODE_COMPARE ? "" : " or openmetrics", arg);
}

static int take_per_process(struct options *o, const struct opt *r,
			    const char *arg, char *err, size_t len);

static const char aggr_conflict[] =
	"choose one of -A, --per-core, --per-die, --per-socket, --per-node, --per-thread and --per-process";

static int take_aggr(struct options *o, const struct opt *r,
		     const char *arg, char *err, size_t len)
{
	if ((o->aggr != AGGR_GLOBAL && o->aggr != (enum aggr_kind)r->value) ||
	    (o->per_process && r->take != take_per_process))
		return error_say(err, len, "%s", aggr_conflict);
	o->aggr = (enum aggr_kind)r->value;
	return 0;
}

/* --per-process: the command's threads counted, summed per process. */
static int take_per_process(struct options *o, const struct opt *r,
			    const char *arg, char *err, size_t len)
{
	int ret;

	if (o->aggr == AGGR_THREAD && !o->per_process)
		return error_say(err, len, "%s", aggr_conflict);
	ret = take_aggr(o, r, arg, err, len);
	if (ret == 0)
		o->per_process = true;
	return ret;
}

/* --threshold [EVENT=]PCT%: its syntax now; compare.c applies it. */
static int take_threshold(struct options *o, const struct opt *r,
			  const char *arg, char *err, size_t len)
{
	struct options_threshold t;

	o->thresholds[o->n_thresholds++] = arg;
	return options_parse_threshold(arg, &t, err, len);
}

/* --fail-on EVENT>PCT% or EVENT<PCT%. */
static int take_fail_on(struct options *o, const struct opt *r,
			const char *arg, char *err, size_t len)
{
	struct options_fail_on f;

	o->fail_on[o->n_fail_on++] = arg;
	return options_parse_fail_on(arg, &f, err, len);
}

static int take_action(struct options *o, const struct opt *r,
		       const char *arg, char *err, size_t len)
{
	o->action = (enum options_action)r->value;
	return 0;
}

/* pstat top's -d: seconds, as a decimal number, into milliseconds. */
static int take_seconds(struct options *o, const struct opt *r,
			const char *arg, char *err, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) ||
	    v * 1000 < (double)r->min || v * 1000 > (double)r->max ||
	    strpbrk(arg, "xXpPnN"))
		return error_say(err, len, "%s, not '%s'", r->bad, arg);
	*(unsigned int *)field(o, r) = (unsigned int)lround(v * 1000);
	return 0;
}

/* pstat top's --format: its JSON lines. */
static int take_top_format(struct options *o, const struct opt *r,
			   const char *arg, char *err, size_t len)
{
	if (strcmp(arg, "json") == 0)
		return set_format(o, OUTPUT_PSTAT_JSON, "--format", err, len);
	return error_say(err, len,
		   "pstat top's --format is json, not '%s' (CSV is -x SEP)",
		   arg);
}

static const struct opt opts[] = {
	{ .name = "event", .modes = BOTH, .top = true, .letter = 'e', .arg = "LIST", .section = EVENTS,
	  .help = "events to count: names, caches, rNNN,\n"
		  "pmu/terms/, sys:tracepoint (globs),\n"
		  "mem:ADDR[/LEN][:rwx], groups {a,b},\n"
		  "modifiers :u :k ...; @FILE reads a file;\n"
		  "may be given more than once",
	  .take = take_event },
	{ .name = "pfm-events", .modes = BOTH, .arg = "LIST", .section = EVENTS,
	  .help = "events in libpfm4's syntax (groups {a,b}):\n"
		  "[PMU::]EVENT[:UMASK][:MOD=VAL]; next to -e",
	  .take = take_pfm_events },
	{ .name = "detailed", .modes = BOTH, .letter = 'd', .section = EVENTS,
	  .help = "add perf's detailed events (-dd, -ddd: more)",
	  .take = take_count, FIELD(detailed) },
	{ .name = "metrics", .modes = BOTH, .letter = 'M', .arg = "LIST", .section = EVENTS,
	  .help = "perf's metrics and metric groups, from\n"
		  "perf's tables for this CPU (--list metrics)",
	  .take = take_metrics },
	{ .name = "metric-no-group", .modes = BOTH, .section = EVENTS,
	  .help = "-M's events in no group", .take = take_true,
	  FIELD(metric_no_group) },
	{ .name = "metric-no-merge", .modes = BOTH, .section = EVENTS,
	  .help = "-M: a group for each metric, none shared",
	  .take = take_true, FIELD(metric_no_merge) },
	{ .name = "metric-no-threshold", .section = EVENTS,
	  .help = "-M: no MetricThreshold (perf's colours)",
	  .take = take_true, FIELD(out.no_threshold) },
	{ .name = "topdown", .modes = BOTH, .section = EVENTS,
	  .help = "-M TopdownL1 (or --td-level's)", .take = take_topdown },
	{ .name = "td-level", .modes = BOTH, .arg = "N", .section = EVENTS,
	  .help = "--topdown's level, 1 to 6", .take = take_number,
	  FIELD(td_level), .min = 1, .max = 6,
	  .bad = "--td-level takes a level from 1 to 6" },
	{ .name = "null", .letter = 'n', .section = EVENTS,
	  .help = "count nothing: time the command only",
	  .take = take_true, FIELD(null_run) },
	{ .name = "no-inherit", .letter = 'i', .section = EVENTS,
	  .help = "count the command only, not its children\n"
		  "and threads",
	  .take = take_true, FIELD(no_inherit) },
	{ .name = "all-user", .modes = BOTH, .section = EVENTS,
	  .help = "count every event in user space only (:u)",
	  .take = take_true, FIELD(all_user) },
	{ .name = "all-kernel", .modes = BOTH, .section = EVENTS,
	  .help = "count every event in the kernel only (:k)",
	  .take = take_true, FIELD(all_kernel) },

	{ .name = "pid", .letter = 'p', .arg = "PID[,PID...]",
	  .section = TARGETS,
	  .help = "attach to processes and all their threads",
	  .take = take_string, FIELD(pids) },
	{ .name = "tid", .letter = 't', .arg = "TID[,TID...]",
	  .section = TARGETS, .help = "attach to these threads only",
	  .take = take_string, FIELD(tids) },
	{ .name = "all-cpus", .letter = 'a', .section = TARGETS,
	  .help = "count everything on every online CPU\n"
		  "(the default with no command and no target)",
	  .take = take_true, FIELD(all_cpus) },
	{ .name = "cpu", .letter = 'C', .arg = "LIST", .section = TARGETS,
	  .help = "count everything on these CPUs (0-3,6)",
	  .take = take_string, FIELD(cpu_list) },
	{ .name = "cgroup", .letter = 'G', .arg = "NAME[,NAME...]",
	  .section = TARGETS,
	  .help = "with -a or -C: count the events given\n"
		  "before it in these cgroups, one each, in\n"
		  "order (one name: all of them; empty: none)",
	  .take = take_cgroup },
	{ .name = "for-each-cgroup", .arg = "NAME[,NAME...]",
	  .section = TARGETS,
	  .help = "with -a or -C: count every event in each\n"
		  "of these cgroups",
	  .take = take_string, FIELD(for_each_cgroup) },
	{ .name = "no-aggr", .letter = 'A', .section = TARGETS,
	  .help = "one line per CPU", .take = take_aggr, .value = AGGR_CPU },
	{ .name = "per-core", .section = TARGETS,
	  .help = "one line per core, die, socket or node",
	  .take = take_aggr, .value = AGGR_CORE },
	{ .name = "per-die", .section = TARGETS, .take = take_aggr,
	  .value = AGGR_DIE },
	{ .name = "per-socket", .section = TARGETS, .take = take_aggr,
	  .value = AGGR_SOCKET },
	{ .name = "per-node", .section = TARGETS, .take = take_aggr,
	  .value = AGGR_NODE },
	{ .name = "per-thread", .section = TARGETS,
	  .help = "one line per thread (with -p, -t, or -a:\n"
		  "every thread of the system; with a command:\n"
		  "every thread it made, ended ones too)",
	  .take = take_aggr, .value = AGGR_THREAD },
	{ .name = "per-process", .section = TARGETS,
	  .help = "with a command: one line per process it made",
	  .take = take_per_process, .value = AGGR_THREAD },

	{ .name = "repeat", .letter = 'r', .arg = "N", .section = RUNS,
	  .help = "run the command N times: means and spread;\n"
		  "0: until Ctrl-C; without a command, each\n"
		  "run counts until --timeout or Ctrl-C",
	  .take = take_repeat, FIELD(repeat), .min = 0, .max = 1000000,
	  .bad = "-r needs a number of runs, or 0 for until Ctrl-C" },
	{ .name = "table", .section = RUNS,
	  .help = "with -r: each run's elapsed time, and how\n"
		  "far it is from the mean",
	  .take = take_true, FIELD(out.table) },
	{ .name = "pre", .modes = BOTH, .arg = "CMD", .section = RUNS,
	  .help = "run the shell command CMD before each run,\n"
		  "uncounted; its failure stops the runs",
	  .take = take_string, FIELD(pre_cmd) },
	{ .name = "post", .modes = BOTH, .arg = "CMD", .section = RUNS,
	  .help = "and CMD after each run",
	  .take = take_string, FIELD(post_cmd) },
	{ .name = "sync", .modes = BOTH, .letter = 'S', .section = RUNS,
	  .help = "call sync(2) before each run",
	  .take = take_true, FIELD(sync) },
	{ .name = "interval-print", .letter = 'I', .arg = "MS",
	  .section = RUNS,
	  .help = "print counts every MS milliseconds (>= 10)",
	  .take = take_number, FIELD(interval_ms), .min = 10,
	  .max = 86400000, .bad = "-I needs milliseconds, 10 or more" },
	{ .name = "delay", .letter = 'D', .arg = "MS", .section = RUNS,
	  .help = "start counting MS milliseconds after the\n"
		  "command starts, in each run (0: at once);\n"
		  "-1: at --control's enable",
	  .take = take_delay, FIELD(delay_ms), .min = 0, .max = 86400000,
	  .bad = "-D needs milliseconds, 0 for none, or -1" },
	{ .name = "timeout", .arg = "MS", .section = RUNS,
	  .help = "stop the command (SIGTERM, then SIGKILL)\n"
		  "after MS milliseconds; exit status 124",
	  .take = take_number, FIELD(timeout_ms), .min = 1,
	  .max = 86400000 * 7LL,
	  .bad = "--timeout needs milliseconds from 1 up" },
	{ .name = "control", .arg = "fd:CTL[,ACK]", .section = RUNS,
	  .help = "or fifo:CTL[,ACK]: read 'enable', 'disable'\n"
		  "and 'ping' lines from CTL, answer 'ack'\n"
		  "on ACK",
	  .take = take_control, FIELD(control) },
	{ .name = "regions", .section = RUNS,
	  .help = "count the regions the command names on\n"
		  "$PSTAT_CTL_FD ('begin NAME', 'end NAME'):\n"
		  "pstat.h's PSTAT_REGION_BEGIN and END",
	  .take = take_true, FIELD(regions) },
	{ .name = "interval-count", .arg = "N", .section = RUNS,
	  .help = "stop printing after N intervals; without a\n"
		  "command, stop counting",
	  .take = take_number, FIELD(interval_count), .min = 1,
	  .max = 1000000000,
	  .bad = "--interval-count needs a number from 1 up" },
	{ .name = "interval-clear", .section = RUNS,
	  .help = "with -I: clear the screen before each\n"
		  "interval",
	  .take = take_true, FIELD(out.interval_clear) },
	{ .name = "summary", .section = RUNS,
	  .help = "with -I: the totals at the end as well;\n"
		  "with -x, on rows whose first field is\n"
		  "'summary' where intervals have the time",
	  .take = take_true, FIELD(out.summary) },
	{ .name = "no-csv-summary", .section = RUNS,
	  .help = "without that first field, as perf does",
	  .take = take_true, FIELD(out.no_csv_summary) },

	{ .name = "repeat", .letter = 'r', .arg = "N", .section = RUNS,
	  .help = "runs of each command (10 by default)",
	  .take = take_number, FIELD(repeat), .min = 1, .max = 1000000,
	  .bad = "-r needs a number of runs of each command, 1 or more",
	  .modes = COMPARE_ONLY },
	{ .name = "warmup", .arg = "N", .section = RUNS,
	  .help = "first run each command N times, uncounted\n"
		  "and left out (0 by default)",
	  .take = take_number, FIELD(warmup), .min = 0, .max = 1000000,
	  .bad = "--warmup needs a number of runs, 0 or more",
	  .modes = COMPARE_ONLY },
	{ .name = "timeout", .arg = "MS", .section = RUNS,
	  .help = "stop a run's command (SIGTERM, then SIGKILL)\n"
		  "after MS milliseconds: a failed run",
	  .take = take_number, FIELD(timeout_ms), .min = 1,
	  .max = 86400000 * 7LL,
	  .bad = "--timeout needs milliseconds from 1 up",
	  .modes = COMPARE_ONLY },
	{ .name = "no-inherit", .section = RUNS,
	  .help = "count each command only, not its children\n"
		  "and threads",
	  .take = take_true, FIELD(no_inherit), .modes = COMPARE_ONLY },
	{ .name = "ignore-failure", .letter = 'i', .section = COMPARE,
	  .help = "a run that fails (exit status not 0, a\n"
		  "signal, --timeout) is left out, and is no\n"
		  "failure of the comparison",
	  .take = take_true, FIELD(ignore_failure), .modes = COMPARE_ONLY },
	{ .name = "threshold", .arg = "[EVENT=]PCT%", .section = COMPARE,
	  .help = "a change within PCT% is no change (1% by\n"
		  "default); EVENT=: for that event or metric",
	  .take = take_threshold, .modes = COMPARE_ONLY },
	{ .name = "fail-on", .arg = "EVENT>PCT%", .section = COMPARE,
	  .help = "or EVENT<PCT%: exit 1 when the whole 95%\n"
		  "interval of EVENT's change is above (below)\n"
		  "PCT% (signed); may be given more than once",
	  .take = take_fail_on, .modes = COMPARE_ONLY },

	{ .name = "field-separator", .letter = 'x', .arg = "SEP",
	  .section = OUTPUT,
	  .help = "perf's CSV columns, separated by SEP\n"
		  "('\\t' for a tab)",
	  .take = take_separator },
	{ .name = "field-separator", .letter = 'x', .arg = "SEP",
	  .section = OUTPUT,
	  .help = "a row per event and command, its fields\n"
		  "separated by SEP ('\\t' for a tab)",
	  .take = take_separator, .modes = COMPARE_ONLY },
	{ .name = "json", .letter = 'j', .section = OUTPUT,
	  .help = "perf's JSON lines", .take = take_true, FIELD(json) },
	{ .name = "json-output", .section = OUTPUT, .take = take_true,
	  FIELD(json) },
	{ .name = "json", .letter = 'j', .section = OUTPUT,
	  .help = "a JSON line per event and command",
	  .take = take_true, FIELD(json), .modes = COMPARE_ONLY },
	{ .name = "json-output", .section = OUTPUT, .take = take_true,
	  FIELD(json), .modes = COMPARE_ONLY },
	{ .name = "format", .arg = "FORMAT", .section = OUTPUT,
	  .help = "pstat's own: csv or json, versioned, with\n"
		  "a status per value and the run itself; or\n"
		  "openmetrics, for Prometheus and GitLab",
	  .take = take_format },
	{ .name = "format", .arg = "FORMAT", .section = OUTPUT,
	  .help = "pstat's own: csv or json, with every\n"
		  "sample, the order of the runs and the\n"
		  "statistics (json: pstat compare reads it)",
	  .take = take_format, .modes = COMPARE_ONLY },
	{ .name = "output", .letter = 'o', .arg = "FILE", .section = OUTPUT,
	  .help = "write the results to FILE, not stderr;\n"
		  "%r %l %s %h %p %j in it: rank, local rank,\n"
		  "size, host, pid, job (%4r: 0003)",
	  .take = take_string, FIELD(output_file) },
	{ .name = "output", .letter = 'o', .arg = "FILE", .section = OUTPUT,
	  .help = "write the comparison to FILE, not stderr",
	  .take = take_string, FIELD(output_file), .modes = COMPARE_ONLY },
	{ .name = "append", .modes = BOTH, .section = OUTPUT,
	  .help = "with -o: append to FILE", .take = take_true,
	  FIELD(append) },
	{ .name = "log-fd", .modes = BOTH, .arg = "FD", .section = OUTPUT,
	  .help = "write the results to descriptor FD",
	  .take = take_number, FIELD(log_fd), .min = 0, .max = 1 << 30,
	  .bad = "--log-fd needs a file descriptor number" },
	{ .name = "big-num", .modes = BOTH, .letter = 'B', .section = OUTPUT,
	  .help = "group digits in human output (the default)",
	  .take = take_true, FIELD(out.big_num) },
	{ .name = "no-big-num", .modes = BOTH, .section = OUTPUT, .help = "do not",
	  .take = take_false, FIELD(out.big_num) },
	{ .name = "scale", .modes = BOTH, .section = OUTPUT,
	  .help = "scale multiplexed counts (the default)",
	  .take = take_false, FIELD(no_scale) },
	{ .name = "no-scale", .modes = BOTH, .section = OUTPUT,
	  .help = "show multiplexed counts as read, unscaled",
	  .take = take_true, FIELD(no_scale) },
	{ .name = "metric-only", .section = OUTPUT,
	  .help = "show the derived metrics only", .take = take_true,
	  FIELD(out.metric_only) },
	{ .name = "no-merge", .section = OUTPUT,
	  .help = "show each instance of a PMU on its own line",
	  .take = take_true, FIELD(no_merge) },

	{ .name = "per-process", .section = TARGETS,
	  .help = "one row per process, its threads and the\n"
		  "children it makes from now on counted in it\n"
		  "(the default)",
	  .take = take_false, FIELD(top_per_thread), .modes = TOP_ONLY },
	{ .name = "per-thread", .section = TARGETS,
	  .help = "one row per thread",
	  .take = take_true, FIELD(top_per_thread), .modes = TOP_ONLY },
	{ .name = "pid", .letter = 'p', .arg = "PID[,PID...]",
	  .section = TARGETS, .help = "these processes only",
	  .take = take_string, FIELD(pids), .modes = TOP_ONLY },
	{ .name = "user", .letter = 'u', .arg = "USER",
	  .section = TARGETS,
	  .help = "the processes of USER only (a name or a\n"
		  "number), those it starts later too",
	  .take = take_string, FIELD(top_user), .modes = TOP_ONLY },
	{ .name = "batch", .letter = 'b', .section = RUNS,
	  .help = "print a table each interval on standard\n"
		  "output: no screen, no keys",
	  .take = take_true, FIELD(top_batch), .modes = TOP_ONLY },
	{ .name = "delay", .letter = 'd', .arg = "SECONDS", .section = RUNS,
	  .help = "the interval (2 by default; 0.5: half a\n"
		  "second)",
	  .take = take_seconds, FIELD(top_delay_ms), .min = 10,
	  .max = 86400000,
	  .bad = "-d needs seconds, from 0.01 to 86400 (0.5, 2)",
	  .modes = TOP_ONLY },
	{ .name = "iterations", .letter = 'n', .arg = "N", .section = RUNS,
	  .help = "stop after N intervals (without it: until\n"
		  "interrupted)",
	  .take = take_number, FIELD(top_iterations), .min = 1,
	  .max = 1000000000,
	  .bad = "-n needs a number of intervals from 1 up",
	  .modes = TOP_ONLY },
	{ .name = "sort", .arg = "COLUMN", .section = OUTPUT,
	  .help = "sort the rows by COLUMN: %CPU, PID, TID,\n"
		  "COMM or an event (its rate); %CPU by\n"
		  "default, or the first event without\n"
		  "task-clock",
	  .take = take_string, FIELD(top_sort), .modes = TOP_ONLY },
	{ .name = "field-separator", .letter = 'x', .arg = "SEP",
	  .section = OUTPUT,
	  .help = "a line per row and interval, its fields\n"
		  "separated by SEP ('\\t' for a tab)",
	  .take = take_separator, .modes = TOP_ONLY },
	{ .name = "json", .letter = 'j', .section = OUTPUT,
	  .help = "a JSON document per interval, one a line",
	  .take = take_true, FIELD(json), .modes = TOP_ONLY },
	{ .name = "format", .arg = "FORMAT", .section = OUTPUT,
	  .help = "json: as -j",
	  .take = take_top_format, .modes = TOP_ONLY },
	{ .name = "output", .letter = 'o', .arg = "FILE", .section = OUTPUT,
	  .help = "write the table to FILE, not stdout",
	  .take = take_string, FIELD(output_file), .modes = TOP_ONLY },

	{ .name = "verbose", .letter = 'v', .section = OTHER,
	  .help = "say how each event was opened, the fallback\n"
		  "taken and why one is <not supported> or\n"
		  "<not counted>; -vv: each perf_event_attr too",
	  .take = take_count, FIELD(verbose) },
	{ .name = "verbose", .letter = 'v', .section = OTHER,
	  .help = "say each run as it is made (the order),\n"
		  "how each event was opened and why one is\n"
		  "<not supported>; -vv: each perf_event_attr",
	  .take = take_count, FIELD(verbose), .modes = COMPARE_ONLY },
	{ .name = "quiet", .modes = BOTH, .letter = 'q', .section = OTHER,
	  .help = "no notes: the results and errors only",
	  .take = take_true, FIELD(quiet) },
	{ .name = "list", .arg = "FILTER", .operand = true, .section = OTHER,
	  .help = "list the events this machine knows and exit;\n"
		  "FILTER is a substring or a glob, or one of\n"
		  "hw, cache, sw, pmu, tracepoint; with\n"
		  "--json, one JSON document; 'pfm [FILTER]':\n"
		  "libpfm4's events for this CPU; 'metrics\n"
		  "[FILTER]', 'metricgroups [FILTER]': perf's\n"
		  "metrics and their groups for this CPU\n"
		  "(PERF_CPUID=CPUID: another's)",
	  .take = take_action, .value = OPTIONS_LIST },
	{ .name = "merge", .arg = "FILE...", .operand = true,
	  .section = OTHER,
	  .help = "merge the files of an MPI or Slurm job's\n"
		  "ranks (pstat's --format=csv or json): per\n"
		  "event sum, mean, min and max with their\n"
		  "ranks, imbalance; exit with the status of\n"
		  "the lowest-ranked failure",
	  .take = take_action, .value = OPTIONS_MERGE },
	{ .name = "explain", .section = OTHER,
	  .help = "print the perf_event_attr of each event of\n"
		  "-e, by group (with -M: each metric's formulas,\n"
		  "literals and groups too), and exit; nothing is\n"
		  "opened",
	  .take = take_action, .value = OPTIONS_EXPLAIN },
	{ .name = "check", .section = OTHER,
	  .help = "say what this machine and your privileges\n"
		  "let pstat count, why, and what to change;\n"
		  "with --json, as JSON; exit 1 when you\n"
		  "cannot count your own commands",
	  .take = take_action, .value = OPTIONS_CHECK },
	{ .name = "help", .modes = BOTH, .top = true, .letter = 'h', .section = OTHER,
	  .help = "show this help and exit", .take = take_action,
	  .value = OPTIONS_HELP },
	{ .name = "version", .modes = BOTH, .top = true, .letter = 'V', .section = OTHER,
	  .help = "show the version and exit", .take = take_action,
	  .value = OPTIONS_VERSION },
};

#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

/* getopt_long's value for the long option of opts[i]: past any letter. */
#define LONG_OPT 256

/* Where --help's descriptions start. */
#define HELP_COLUMN 29

static bool takes_arg(const struct opt *r)
{
	return r->arg && !r->operand;
}

/* The row getopt_long's value c stands for, or NULL. */
static const struct opt *opt_of(int c)
{
	size_t i;

	if (c >= LONG_OPT)
		return (size_t)(c - LONG_OPT) < N_OPTS ? &opts[c - LONG_OPT]
						       : NULL;
	for (i = 0; c && i < N_OPTS; i++)
		if (opts[i].letter == c && in_mode(&opts[i]))
			return &opts[i];
	return NULL;
}

/*
 * getopt_long's value for opts[i]: that of the first row doing the same
 * (--json-output is --json), so that a prefix of both is no ambiguity.
 */
static int long_value(size_t i)
{
	const struct opt *r = &opts[i];
	size_t j;

	for (j = 0; j < i; j++)
		if (in_mode(&opts[j]) && opts[j].take == r->take && opts[j].off == r->off &&
		    opts[j].value == r->value && takes_arg(&opts[j]) ==
		    takes_arg(r))
			break;
	return LONG_OPT + (int)j;
}

/* "+e:dni...", and the long options, from the table: those of the
 * command line being read. */
static void getopt_tables(char *shorts, struct option *longs)
{
	const struct opt *r;
	size_t i, n = 0;

	/* '+': stop at the command, so its own options stay its own. */
	*shorts++ = '+';
	for (i = 0; i < N_OPTS; i++) {
		r = &opts[i];
		if (!in_mode(r))
			continue;
		if (r->letter) {
			*shorts++ = r->letter;
			if (takes_arg(r))
				*shorts++ = ':';
		}
		longs[n++] = (struct option){
			.name = r->name,
			.has_arg = takes_arg(r) ? required_argument
						: no_argument,
			.val = long_value(i),
		};
	}
	*shorts = '\0';
	longs[n] = (struct option){ 0 };
}

/* "-e, --event=LIST", "--per-die", "--list [FILTER]": its width. */
static int print_names(FILE *f, const struct opt *r)
{
	int n = 0;

	if (r->letter)
		n += fprintf(f, "-%c, ", r->letter);
	n += fprintf(f, "--%s", r->name);
	/* An operand of "..." is one or more: not optional. */
	if (r->arg)
		n += fprintf(f, !r->operand ? "=%s" :
			     strstr(r->arg, "...") ? " %s" : " [%s]", r->arg);
	return n;
}

/* r and the rows its help covers, then the help; the row after them. */
static const struct opt *print_entry(FILE *f, const struct opt *r)
{
	const struct opt *end = opts + N_OPTS;
	const char *line = r->help, *nl;
	int col;

	col = fprintf(f, r->letter ? "  " : "      ") + print_names(f, r);
	for (r++; r < end && !r->help; r++)
		if (in_mode(r))
			col += fprintf(f, ", ") + print_names(f, r);
	if (col + 2 > HELP_COLUMN) {
		fputc('\n', f);
		col = 0;
	}
	do {
		nl = strchrnul(line, '\n');
		fprintf(f, "%*s%.*s\n", HELP_COLUMN - col, "",
			(int)(nl - line), line);
		col = 0;
		line = *nl ? nl + 1 : nl;
	} while (*line);
	return r;
}

void options_usage(FILE *f)
{
	const struct opt *r = opts;
	int section = -1;

	fputs(mode == MODE_TOP ? top_head : mode == MODE_COMPARE ?
	      compare_head : usage_head, f);
	while (r < opts + N_OPTS) {
		if (!in_mode(r)) {
			r++;
			continue;
		}
		if ((int)r->section != section) {
			section = (int)r->section;
			fprintf(f, "%s\n", headings[section]);
		}
		r = print_entry(f, r);
	}
	fputs(mode == MODE_TOP ? top_tail : mode == MODE_COMPARE ?
	      compare_tail : usage_tail, f);
}

/*
 * A long option getopt did not take, as "--per" or "--bogus=1": the
 * options it begins (ambiguous), or none (unknown).
 */
/* Where the options of the command line being read are told. */
static const char *help_ref(void)
{
	return mode == MODE_TOP ? "pstat top --help" :
	       mode == MODE_COMPARE ? "pstat compare --help" : "pstat --help";
}

static int unknown_long(char *err, size_t len, const char *arg)
{
	const char *name = arg + 2;
	size_t n = strcspn(name, "="), i, found = 0, at = 0;
	char all[512];

	all[0] = '\0';
	for (i = 0; i < N_OPTS; i++) {
		if (!in_mode(&opts[i]) || strncmp(opts[i].name, name, n) != 0)
			continue;
		at += (size_t)snprintf(all + at, sizeof(all) - at, "%s--%s",
				       found++ ? ", " : "", opts[i].name);
		if (at >= sizeof(all))
			at = sizeof(all) - 1;
	}
	if (found > 1)
		return error_say(err, len,
			   "option '--%.*s' is ambiguous: %s; see '%s'",
			   (int)n, name, all, help_ref());
	return error_say(err, len, "unknown option '--%.*s'; see '%s'",
		   (int)n, name, help_ref());
}

/*
 * getopt's own complaint would not say how to fix it: make ours. opt is
 * getopt's optopt: a letter, a long option's value (it lacks its
 * argument, or was given one it does not take), or 0 for a long option
 * it does not know or cannot tell from another (--per).
 */
static int unknown_option(char *err, size_t len, char **argv, int opt)
{
	const struct opt *r = opt_of(opt);

	if (r && opt >= LONG_OPT)
		return error_say(err, len,
			   takes_arg(r) ? "option --%s needs an argument; see '%s'"
					: "option --%s takes no argument; see '%s'",
			   r->name, help_ref());
	if (r && takes_arg(r))
		return error_say(err, len,
			   "option -%c needs an argument; see '%s'",
			   opt, help_ref());
	if (opt)
		return error_say(err, len, "unknown option -%c; see '%s'",
			   opt, help_ref());
	if (strncmp(argv[optind - 1], "--", 2) == 0)
		return unknown_long(err, len, argv[optind - 1]);
	return error_say(err, len, "unknown option '%s'; see '%s'",
		   argv[optind - 1], help_ref());
}

/* Options that only mean something together. */
static int check_combinations(struct options *o, char *err, size_t len)
{
	if (o->json && o->action != OPTIONS_LIST &&
	    o->action != OPTIONS_CHECK &&
	    set_format(o, OUTPUT_JSONL, "-j", err, len) < 0)
		return -EINVAL;
	if (o->append && !o->output_file)
		return error_say(err, len, "--append goes with -o FILE");
	if (o->append && o->out.format == OUTPUT_OPENMETRICS)
		return error_say(err, len,
			   "--append does not go with --format=openmetrics: its file holds one exposition, replaced whole each time");
	if (o->output_file && o->log_fd >= 0)
		return error_say(err, len, "-o and --log-fd both given; choose one");
	/* perf refuses this one; --summary and --interval-clear without
	 * -I it takes, and they do nothing. */
	if (o->interval_count && !o->interval_ms)
		return error_say(err, len, "--interval-count goes with -I MS");
	if (o->out.table && o->repeat <= 1)
		return error_say(err, len, "--table goes with -r N");
	if (!o->interval_ms)
		o->out.summary = o->out.interval_clear = false;
	if (o->out.interval_clear && o->out.format != OUTPUT_HUMAN)
		return error_say(err, len,
			   "--interval-clear clears a terminal: it does not go with -x, -j or --format");
	if (o->all_user && o->all_kernel)
		return error_say(err, len,
			   "--all-user and --all-kernel both given; choose one");
	if (o->quiet && o->verbose)
		return error_say(err, len, "-q and -v both given; choose one");
	if (o->null_run && (o->n_events || o->detailed || o->n_metrics ||
			    o->topdown))
		return error_say(err, len, "-n counts nothing: drop -e, -M, --topdown and -d, or -n");
	if (o->td_level && !o->topdown)
		return error_say(err, len, "--td-level goes with --topdown");
	if ((o->pids != NULL) + (o->tids != NULL) +
	    (o->all_cpus || o->cpu_list) > 1)
		return error_say(err, len,
			   "-p, -t and -a/-C each choose what to count; give one of them");
	if (o->n_cgroups && o->for_each_cgroup)
		return error_say(err, len,
			   "-G and --for-each-cgroup both given; choose one");
	if ((o->n_cgroups || o->for_each_cgroup) &&
	    ((!o->all_cpus && !o->cpu_list) || o->aggr == AGGR_THREAD))
		return error_say(err, len,
			   "-G and --for-each-cgroup count a cgroup on CPUs: add -a or -C LIST (and no --per-thread)");
	if (o->per_process && (o->pids || o->tids || o->all_cpus ||
			       o->cpu_list))
		return error_say(err, len,
			   "--per-process counts the processes of a command: drop -p, -t, -a and -C");
	if (o->aggr != AGGR_GLOBAL && o->aggr != AGGR_THREAD && !o->all_cpus &&
	    !o->cpu_list)
		return error_say(err, len,
			   "-A and --per-core, --per-die, --per-socket, --per-node count per CPU: add -a or -C LIST");
	if (o->delay_ms < 0 && !o->control && !o->regions)
		return error_say(err, len,
			   "-D -1 starts with counting disabled until --control says 'enable': add --control fd:CTL or fifo:CTL, or --regions for the command's own");
	if (o->action == OPTIONS_EXPLAIN && o->n_events == 0 &&
	    o->n_metrics == 0 && !o->topdown)
		return error_say(err, len,
			   "--explain needs the events to explain: -e LIST or -M LIST");
	return 0;
}

/* --regions: one run of a command, its tasks together. */
static int check_regions(const struct options *o, char *err, size_t len)
{
	if (!o->regions)
		return 0;
	if (!o->argv)
		return error_say(err, len,
			   "--regions counts the regions a command names: give the command after --");
	if (o->aggr == AGGR_THREAD)
		return error_say(err, len,
			   "--regions sums what all of the command's tasks count in a region: drop --per-thread and --per-process");
	if (o->repeat != 1 || o->forever)
		return error_say(err, len,
			   "--regions counts the regions of one run: drop -r");
	/* The regions follow the totals, which -I prints with --summary. */
	if (o->interval_ms && !o->out.summary &&
	    o->out.format != OUTPUT_PSTAT_CSV &&
	    o->out.format != OUTPUT_PSTAT_JSON)
		return error_say(err, len,
			   "--regions with -I prints the regions after the intervals, with the totals: add --summary");
	return 0;
}

/*
 * --per-thread or --per-process with a command: the counts of each of
 * its tasks come once, as it ends (tasks.c), so they are a whole run's.
 */
static int check_per_task(const struct options *o, char *err, size_t len)
{
	if (o->aggr != AGGR_THREAD || !o->argv || o->pids || o->tids ||
	    o->all_cpus || o->cpu_list)
		return 0;
	if (o->interval_ms || o->repeat != 1 || o->forever)
		return error_say(err, len,
			   "--per-thread and --per-process with a command count one whole run of its tasks: drop -I and -r");
	if (o->no_inherit)
		return error_say(err, len,
			   "--per-thread and --per-process with a command count the tasks it makes: drop -i");
	return 0;
}

/* --merge FILE...: one file or more; pstat's own formats, or human. */
static int merge_operands(struct options *o, int argc, char **argv,
			  char *err, size_t len)
{
	if (o->out.format == OUTPUT_CSV || o->out.format == OUTPUT_JSONL)
		return error_say(err, len,
			   "--merge prints human output or --format=csv, json or openmetrics; drop -x and -j");
	if (optind >= argc)
		return error_say(err, len,
			   "--merge needs the files of the ranks: pstat --merge out/rank.*.csv");
	o->merge_files = argv + optind;
	o->n_merge_files = (size_t)(argc - optind);
	return 0;
}

/* "1.5%" at s (to its end): 0 and the number, or -EINVAL. */
static int percent(const char *s, double *pct)
{
	char *end;

	if (!*s || strchr(" \t", *s))
		return -EINVAL;
	*pct = strtod(s, &end);
	if (end == s || strcmp(end, "%") != 0 || !isfinite(*pct))
		return -EINVAL;
	return 0;
}

int options_parse_threshold(const char *arg, struct options_threshold *t,
			    char *err, size_t len)
{
	const char *eq = strrchr(arg, '=');
	const char *num = eq ? eq + 1 : arg;

	*t = (struct options_threshold){ .event = eq ? arg : NULL,
					 .event_len = eq ? (size_t)(eq - arg)
							 : 0 };
	if ((eq && eq == arg) || percent(num, &t->pct) < 0 || t->pct < 0)
		return error_say(err, len,
			   "--threshold takes a percentage, 0%% or more, for every row or for one: 1%% or instructions:u=0.2%%, not '%s'",
			   arg);
	return 0;
}

int options_parse_fail_on(const char *arg, struct options_fail_on *f,
			  char *err, size_t len)
{
	const char *gt = strrchr(arg, '>'), *lt = strrchr(arg, '<');
	const char *op = gt > lt ? gt : lt;

	*f = (struct options_fail_on){ .event = arg };
	if (!op || op == arg || percent(op + 1, &f->pct) < 0)
		return error_say(err, len,
			   "--fail-on takes EVENT>PCT%% or EVENT<PCT%% (a signed percentage: instructions:u>1%% or wall-time<-5%%), not '%s'",
			   arg);
	f->event_len = (size_t)(op - arg);
	f->above = *op == '>';
	return 0;
}

/* Runs of each command without -r. */
#define COMPARE_RUNS 10

/*
 * pstat compare's operands: commands split at ':::' (each a NULL-ended
 * copy of its words' pointers: argv stays as it is), or saved results'
 * files.
 */
static int compare_operands(struct options *o, int argc, char **argv,
			    char *err, size_t len)
{
	size_t n = 0;
	int i, start;

	for (i = optind; i < argc; i++)
		n += strcmp(argv[i], ":::") == 0;
	if (optind >= argc)
		return error_say(err, len,
			   "pstat compare needs two commands separated by ':::', or saved results (files); see 'pstat compare --help'");
	if (n == 0) {
		o->compare_files = argv + optind;
		o->n_compare_files = (size_t)(argc - optind);
		for (i = optind + 1; i < argc; i++)
			if (argv[i][0] == '-' && argv[i][1])
				return error_say(err, len,
					   "pstat compare: '%s' after the files: options go first (pstat compare [options] FILE...)",
					   argv[i]);
		if (o->n_events || o->n_metrics || o->topdown || o->detailed ||
		    o->repeat || o->warmup || o->pre_cmd || o->post_cmd ||
		    o->sync || o->timeout_ms || o->no_inherit || o->all_user ||
		    o->all_kernel)
			return error_say(err, len,
				   "pstat compare of saved results runs nothing: drop the options about events and runs (-e, -M, -r, --warmup, --pre, ...), or separate commands with ':::'");
		return 0;
	}
	o->sides = calloc(n + 1, sizeof(*o->sides));
	o->side_words = calloc((size_t)(argc - optind) + 1,
			       sizeof(*o->side_words));
	if (!o->sides || !o->side_words)
		return -ENOMEM;
	for (start = i = optind; i <= argc; i++) {
		if (i < argc && strcmp(argv[i], ":::") != 0) {
			o->side_words[i - optind] = argv[i];
			continue;
		}
		if (i == start)
			return error_say(err, len,
				   "pstat compare: command %zu is empty; write each command between ':::' separators",
				   o->n_sides + 1);
		/* Where the ':::' was, NULL ends the command. */
		o->sides[o->n_sides++] = o->side_words + (start - optind);
		start = i + 1;
	}
	o->argv = o->sides[0];
	if (!o->repeat)
		o->repeat = COMPARE_RUNS;
	return 0;
}

/* pstat top: no operands; batch output in one format. */
static int top_operands(struct options *o, int argc, char **argv,
			char *err, size_t len)
{
	o->action = OPTIONS_TOP;
	if (optind < argc)
		return error_say(err, len,
			   "pstat top runs no command; drop '%s' (-p PID counts a process)",
			   argv[optind]);
	if (o->json && set_format(o, OUTPUT_JSONL, "-j", err, len) < 0)
		return -EINVAL;
	if (o->pids && o->top_user)
		return error_say(err, len,
			   "-p and -u each choose the processes; give one of them");
	if (!o->top_batch && (o->out.format != OUTPUT_HUMAN || o->output_file))
		return error_say(err, len,
			   "-x, -j, --format and -o print the tables: add -b");
#ifndef HAVE_NCURSES
	if (!o->top_batch)
		return error_say(err, len,
			   "this pstat is built without ncurses, so pstat top has no screen: add -b for a table each interval");
#endif
	if (!o->top_delay_ms)
		o->top_delay_ms = 2000;
	return 0;
}

int options_parse(struct options *o, int argc, char **argv, char *err,
		  size_t err_len)
{
	char shorts[2 + 2 * N_OPTS];
	struct option longs[N_OPTS + 1];
	const struct opt *r;
	const char *word;
	bool comparing;
	int c, ret;

	memset(o, 0, sizeof(*o));
	/* pstat compare ... and pstat top ...: their own command lines,
	 * read from their word. */
	word = argc > 1 ? argv[1] : "";
	mode = strcmp(word, "compare") == 0 ? MODE_COMPARE :
	       strcmp(word, "top") == 0 ? MODE_TOP : MODE_COUNT;
	comparing = mode == MODE_COMPARE;
	o->compare = comparing;
	if (mode != MODE_COUNT) {
		argc--;
		argv++;
	}
	o->repeat = comparing ? 0 : 1;
	o->log_fd = -1;
	o->out.big_num = true;
	o->events = calloc((size_t)argc, sizeof(*o->events));
	o->cgroups = calloc((size_t)argc, sizeof(*o->cgroups));
	o->events_pfm = calloc((size_t)argc, sizeof(*o->events_pfm));
	o->metrics = calloc((size_t)argc, sizeof(*o->metrics));
	o->thresholds = calloc((size_t)argc, sizeof(*o->thresholds));
	o->fail_on = calloc((size_t)argc, sizeof(*o->fail_on));
	if (!o->events || !o->cgroups || !o->events_pfm || !o->metrics ||
	    !o->thresholds || !o->fail_on) {
		options_free(o);
		return -ENOMEM;
	}
	getopt_tables(shorts, longs);
	opterr = 0;
	optind = 0;	/* afresh, even where a parse stopped mid-cluster */
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		r = opt_of(c);
		if (!r)
			return unknown_option(err, err_len, argv, optopt);
		ret = r->take(o, r, optarg, err, err_len);
		if (ret < 0)
			return ret;
		if (o->action == OPTIONS_HELP || o->action == OPTIONS_VERSION)
			return 0;
	}
	if (mode == MODE_TOP)
		return top_operands(o, argc, argv, err, err_len);
	if (comparing) {
		o->action = OPTIONS_COMPARE;
		ret = check_combinations(o, err, err_len);
		return ret < 0 ? ret
			       : compare_operands(o, argc, argv, err, err_len);
	}
	/* perf stat's default: no command and no target is the machine. */
	if (o->action == OPTIONS_RUN && optind >= argc && !o->pids &&
	    !o->tids && !o->cpu_list)
		o->all_cpus = true;
	ret = check_combinations(o, err, err_len);
	if (ret < 0)
		return ret;
	o->out.interval = o->interval_ms > 0;
	o->out.runs = o->repeat;
	if (o->action == OPTIONS_LIST) {
		/* --list pfm [FILTER]: libpfm4's events, not the machine's;
		 * metrics and metricgroups (perf's metric and metricgroup
		 * too): perf's tables'. */
		word = optind < argc ? argv[optind] : "";
		o->list_pfm = strcmp(word, "pfm") == 0;
		o->list_metrics = strcmp(word, "metrics") == 0 ||
				  strcmp(word, "metric") == 0;
		o->list_metricgroups = strcmp(word, "metricgroups") == 0 ||
				       strcmp(word, "metricgroup") == 0;
		optind += o->list_pfm || o->list_metrics ||
			  o->list_metricgroups;
		if (argc - optind > 1)
			return error_say(err, err_len,
				   "--list takes one filter, not %d; quote a glob",
				   argc - optind);
		o->list_filter = argv[optind];
		return 0;
	}
	if (o->action == OPTIONS_MERGE)
		return merge_operands(o, argc, argv, err, err_len);
	if (o->action == OPTIONS_EXPLAIN)
		return 0;
	if (o->action == OPTIONS_CHECK)
		return optind < argc ? error_say(err, err_len,
					   "--check runs no command; drop '%s'",
					   argv[optind]) : 0;
	if (optind < argc)
		o->argv = argv + optind;
	ret = check_regions(o, err, err_len);
	return ret < 0 ? ret : check_per_task(o, err, err_len);
}

void options_free(struct options *o)
{
	free(o->events);
	free(o->cgroups);
	o->events = NULL;
	o->cgroups = NULL;
	free(o->events_pfm);
	o->events_pfm = NULL;
	free(o->metrics);
	o->metrics = NULL;
	free(o->thresholds);
	free(o->fail_on);
	free(o->sides);
	free(o->side_words);
	o->side_words = NULL;
	o->thresholds = NULL;
	o->fail_on = NULL;
	o->sides = NULL;
}
