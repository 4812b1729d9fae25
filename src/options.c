/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: options into a struct, validated, and --help. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "results.h"

static const char usage[] =
	"Usage: pstat [options] [--] command [args...]\n"
	"       pstat [options]\n"
	"Count performance events while command runs, like perf stat; without\n"
	"a command or a target, count the whole machine (-a) until Ctrl-C,\n"
	"--timeout or --interval-count.\n"
	"\n"
	"Events:\n"
	"  -e, --event=LIST           events to count: names, caches, rNNN,\n"
	"                             pmu/terms/, sys:tracepoint (globs),\n"
	"                             mem:ADDR[/LEN][:rwx], groups {a,b},\n"
	"                             modifiers :u :k ...; @FILE reads a file;\n"
	"                             may be given more than once\n"
	"  -d, --detailed             add perf's detailed events (-dd, -ddd: more)\n"
	"  -n, --null                 count nothing: time the command only\n"
	"  -i, --no-inherit           count the command only, not its children\n"
	"                             and threads\n"
	"Targets (instead of, or while, a command runs):\n"
	"  -p, --pid=PID[,PID...]     attach to processes and all their threads\n"
	"  -t, --tid=TID[,TID...]     attach to these threads only\n"
	"  -a, --all-cpus             count everything on every online CPU\n"
	"                             (the default with no command and no target)\n"
	"  -C, --cpu=LIST             count everything on these CPUs (0-3,6)\n"
	"  -A, --no-aggr              one line per CPU\n"
	"      --per-core, --per-die, --per-socket, --per-node\n"
	"                             one line per core, die, socket or node\n"
	"      --per-thread           one line per thread (with -p, -t, or -a:\n"
	"                             every thread of the system)\n"
	"Runs:\n"
	"  -r, --repeat=N             run the command N times: means and spread\n"
	"  -I, --interval-print=MS    print counts every MS milliseconds (>= 10)\n"
	"  -D, --delay=MS             start counting MS milliseconds after the\n"
	"                             command starts\n"
	"      --timeout=MS           stop the command (SIGTERM, then SIGKILL)\n"
	"                             after MS milliseconds; exit status 124\n"
	"      --interval-count=N     stop printing after N intervals; without a\n"
	"                             command, stop counting\n"
	"      --summary              with -I: the totals at the end as well;\n"
	"                             with -x, on rows whose first field is\n"
	"                             'summary' where intervals have the time\n"
	"      --no-csv-summary       without that first field, as perf does\n"
	"Output:\n"
	"  -x, --field-separator=SEP  perf's CSV columns, separated by SEP\n"
	"                             ('\\t' for a tab)\n"
	"  -j, --json                 perf's JSON lines\n"
	"      --format=FORMAT        pstat's own: csv or json, versioned, with\n"
	"                             a status per value and the run itself\n"
	"  -o, --output=FILE          write the results to FILE, not stderr\n"
	"      --append               with -o: append to FILE\n"
	"      --log-fd=FD            write the results to descriptor FD\n"
	"  -B, --big-num              group digits in human output (the default)\n"
	"      --no-big-num           do not\n"
	"      --no-scale             show multiplexed counts as read, unscaled\n"
	"      --metric-only          show the derived metrics only\n"
	"      --no-merge             show each instance of a PMU on its own line\n"
	"Other:\n"
	"      --list [FILTER]        list the events this machine knows and exit;\n"
	"                             FILTER is a substring or a glob; with\n"
	"                             --json, one JSON document\n"
	"      --explain              print the perf_event_attr of each event of\n"
	"                             -e, by group, and exit; nothing is opened\n"
	"      --check                say what this machine and your privileges\n"
	"                             let pstat count, why, and what to change;\n"
	"                             with --json, as JSON; exit 1 when you\n"
	"                             cannot count your own commands\n"
	"  -h, --help                 show this help and exit\n"
	"  -V, --version              show the version and exit\n"
	"\n"
	"Without -e: task-clock, context-switches, cpu-migrations, page-faults,\n"
	"cycles, instructions, branches, branch-misses.\n"
	"Results go to standard error. Exit status: the command's; 128+N when\n"
	"it was killed by signal N; 125 when pstat failed; 126 when the command\n"
	"could not be run; 127 when it was not found.\n";

/* Long options without a letter. */
enum {
	OPT_LIST = 256,
	OPT_EXPLAIN,
	OPT_CHECK,
	OPT_NO_MERGE,
	OPT_NO_SCALE,
	OPT_NO_BIG_NUM,
	OPT_METRIC_ONLY,
	OPT_FORMAT,
	OPT_APPEND,
	OPT_LOG_FD,
	OPT_INTERVAL_COUNT,
	OPT_SUMMARY,
	OPT_NO_CSV_SUMMARY,
	OPT_PER_CORE,
	OPT_PER_DIE,
	OPT_PER_SOCKET,
	OPT_PER_NODE,
	OPT_PER_THREAD,
	OPT_TIMEOUT,
};

static const char short_options[] = "+e:x:jdnir:I:o:Bp:t:aC:AD:hV";

static const struct option long_options[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "detailed", no_argument, NULL, 'd' },
	{ "null", no_argument, NULL, 'n' },
	{ "no-inherit", no_argument, NULL, 'i' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "no-csv-summary", no_argument, NULL, OPT_NO_CSV_SUMMARY },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "per-core", no_argument, NULL, OPT_PER_CORE },
	{ "per-die", no_argument, NULL, OPT_PER_DIE },
	{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
	{ "per-node", no_argument, NULL, OPT_PER_NODE },
	{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
	{ "delay", required_argument, NULL, 'D' },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "json", no_argument, NULL, 'j' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "append", no_argument, NULL, OPT_APPEND },
	{ "log-fd", required_argument, NULL, OPT_LOG_FD },
	{ "big-num", no_argument, NULL, 'B' },
	{ "no-big-num", no_argument, NULL, OPT_NO_BIG_NUM },
	{ "no-scale", no_argument, NULL, OPT_NO_SCALE },
	{ "metric-only", no_argument, NULL, OPT_METRIC_ONLY },
	{ "no-merge", no_argument, NULL, OPT_NO_MERGE },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *f)
{
	fputs(usage, f);
}

static int __attribute__((format(printf, 3, 4)))
bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* getopt's own complaint would not say how to fix it: make ours. */
static int unknown_option(char *err, size_t len, char **argv, int opt)
{
	if (opt && strchr("exroIptCD", opt))
		return bad(err, len,
			   "option -%c needs an argument; see 'pstat --help'",
			   opt);
	if (opt)
		return bad(err, len, "unknown option -%c; see 'pstat --help'",
			   opt);
	return bad(err, len,
		   "unknown option '%s', or it needs an argument; see 'pstat --help'",
		   argv[optind - 1]);
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
		return bad(err, len,
			   "%s and another output format (-x, -j, --format) were both given; choose one",
			   what);
	o->out.format = f;
	return 0;
}

static int set_aggr(struct options *o, int kind, char *err, size_t len)
{
	if (o->aggr && o->aggr != kind)
		return bad(err, len,
			   "choose one of -A, --per-core, --per-die, --per-socket, --per-node and --per-thread");
	o->aggr = kind;
	return 0;
}

static int take_option(struct options *o, int c, char **argv, char *err,
		       size_t len)
{
	long long v;

	switch (c) {
	case 'e':
		o->events[o->n_events++] = optarg;
		return 0;
	case 'd':
		o->detailed++;
		return 0;
	case 'n':
		o->null_run = true;
		return 0;
	case 'i':
		o->no_inherit = true;
		return 0;
	case 'r':
		if (number(optarg, 1, 1000000, &v) < 0)
			return bad(err, len,
				   "-r needs a number of runs from 1 up, not '%s'",
				   optarg);
		o->repeat = (size_t)v;
		return 0;
	case 'I':
		if (number(optarg, 10, 86400000, &v) < 0)
			return bad(err, len,
				   "-I needs milliseconds, 10 or more, not '%s'",
				   optarg);
		o->interval_ms = (unsigned int)v;
		return 0;
	case OPT_INTERVAL_COUNT:
		if (number(optarg, 1, 1000000000, &v) < 0)
			return bad(err, len,
				   "--interval-count needs a number from 1 up, not '%s'",
				   optarg);
		o->interval_count = (size_t)v;
		return 0;
	case OPT_SUMMARY:
		o->out.summary = true;
		return 0;
	case OPT_NO_CSV_SUMMARY:
		o->out.no_csv_summary = true;
		return 0;
	case 'p':
		o->pids = optarg;
		return 0;
	case 't':
		o->tids = optarg;
		return 0;
	case 'a':
		o->all_cpus = true;
		return 0;
	case 'C':
		o->cpu_list = optarg;
		return 0;
	case 'A':
		return set_aggr(o, AGGR_CPU, err, len);
	case OPT_PER_CORE:
		return set_aggr(o, AGGR_CORE, err, len);
	case OPT_PER_DIE:
		return set_aggr(o, AGGR_DIE, err, len);
	case OPT_PER_SOCKET:
		return set_aggr(o, AGGR_SOCKET, err, len);
	case OPT_PER_NODE:
		return set_aggr(o, AGGR_NODE, err, len);
	case OPT_PER_THREAD:
		return set_aggr(o, AGGR_THREAD, err, len);
	case 'D':
		if (strcmp(optarg, "-1") == 0)
			return bad(err, len,
				   "-D -1 (start disabled until told) needs --control, which pstat does not have; give a delay in milliseconds");
		if (number(optarg, 1, 86400000, &v) < 0)
			return bad(err, len,
				   "-D needs milliseconds from 1 up, not '%s'",
				   optarg);
		o->delay_ms = (long)v;
		return 0;
	case OPT_TIMEOUT:
		if (number(optarg, 1, 86400000 * 7LL, &v) < 0)
			return bad(err, len,
				   "--timeout needs milliseconds from 1 up, not '%s'",
				   optarg);
		o->timeout_ms = (unsigned int)v;
		return 0;
	case 'x':
		o->out.sep = strcmp(optarg, "\\t") == 0 ? "\t" : optarg;
		if (!*o->out.sep)
			return bad(err, len,
				   "the -x separator is empty; give one, as in -x,");
		return set_format(o, OUTPUT_CSV, "-x", err, len);
	case 'j':
		o->json = true;
		return 0;
	case OPT_FORMAT:
		if (strcmp(optarg, "csv") == 0)
			return set_format(o, OUTPUT_PSTAT_CSV, "--format", err,
					  len);
		if (strcmp(optarg, "json") == 0)
			return set_format(o, OUTPUT_PSTAT_JSON, "--format",
					  err, len);
		return bad(err, len,
			   "--format is csv or json, not '%s' (perf's CSV is -x, its JSON -j)",
			   optarg);
	case 'o':
		o->output_file = optarg;
		return 0;
	case OPT_APPEND:
		o->append = true;
		return 0;
	case OPT_LOG_FD:
		if (number(optarg, 0, 1 << 30, &v) < 0)
			return bad(err, len,
				   "--log-fd needs a file descriptor number, not '%s'",
				   optarg);
		o->log_fd = (int)v;
		return 0;
	case 'B':
		o->out.big_num = true;
		return 0;
	case OPT_NO_BIG_NUM:
		o->out.big_num = false;
		return 0;
	case OPT_NO_SCALE:
		o->no_scale = true;
		return 0;
	case OPT_METRIC_ONLY:
		o->out.metric_only = true;
		return 0;
	case OPT_NO_MERGE:
		o->no_merge = true;
		return 0;
	case OPT_LIST:
		o->action = OPTIONS_LIST;
		return 0;
	case OPT_EXPLAIN:
		o->action = OPTIONS_EXPLAIN;
		return 0;
	case OPT_CHECK:
		o->action = OPTIONS_CHECK;
		return 0;
	case 'h':
		o->action = OPTIONS_HELP;
		return 0;
	case 'V':
		o->action = OPTIONS_VERSION;
		return 0;
	default:
		return unknown_option(err, len, argv, optopt);
	}
}

/* Options that only mean something together. */
static int check_combinations(struct options *o, char *err, size_t len)
{
	if (o->json && o->action != OPTIONS_LIST &&
	    o->action != OPTIONS_CHECK &&
	    set_format(o, OUTPUT_JSONL, "-j", err, len) < 0)
		return -EINVAL;
	if (o->append && !o->output_file)
		return bad(err, len, "--append goes with -o FILE");
	if (o->output_file && o->log_fd >= 0)
		return bad(err, len, "-o and --log-fd both given; choose one");
	if ((o->interval_count || o->out.summary) && !o->interval_ms)
		return bad(err, len,
			   "--interval-count and --summary go with -I MS");
	if (o->interval_ms && o->repeat > 1)
		return bad(err, len, "-I and -r do not go together; choose one");
	if (o->null_run && (o->n_events || o->detailed))
		return bad(err, len, "-n counts nothing: drop -e and -d, or -n");
	if ((o->pids != NULL) + (o->tids != NULL) +
	    (o->all_cpus || o->cpu_list) > 1)
		return bad(err, len,
			   "-p, -t and -a/-C each choose what to count; give one of them");
	if (o->aggr == AGGR_THREAD && !o->pids && !o->tids && !o->all_cpus)
		return bad(err, len, "--per-thread goes with -p, -t or -a");
	if (o->aggr && o->aggr != AGGR_THREAD && !o->all_cpus && !o->cpu_list)
		return bad(err, len,
			   "-A and --per-core, --per-die, --per-socket, --per-node count per CPU: add -a or -C LIST");
	if (o->delay_ms && o->repeat > 1)
		return bad(err, len, "-D and -r do not go together");
	if (o->action == OPTIONS_EXPLAIN && o->n_events == 0)
		return bad(err, len,
			   "--explain needs the events to explain: -e LIST");
	return 0;
}

int options_parse(struct options *o, int argc, char **argv, char *err,
		  size_t err_len)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->repeat = 1;
	o->log_fd = -1;
	o->out.big_num = true;
	o->events = calloc((size_t)argc, sizeof(*o->events));
	if (!o->events)
		return -ENOMEM;
	opterr = 0;
	optind = 1;
	/* '+': stop at the command, so its own options stay its own. */
	while ((c = getopt_long(argc, argv, short_options, long_options,
				NULL)) != -1) {
		ret = take_option(o, c, argv, err, err_len);
		if (ret < 0)
			return ret;
		if (o->action == OPTIONS_HELP || o->action == OPTIONS_VERSION)
			return 0;
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
		if (argc - optind > 1)
			return bad(err, err_len,
				   "--list takes one filter, not %d; quote a glob",
				   argc - optind);
		o->list_filter = argv[optind];
		return 0;
	}
	if (o->action == OPTIONS_EXPLAIN)
		return 0;
	if (o->action == OPTIONS_CHECK)
		return optind < argc ? bad(err, err_len,
					   "--check runs no command; drop '%s'",
					   argv[optind]) : 0;
	if (optind < argc)
		o->argv = argv + optind;
	if (!o->argv && o->repeat > 1)
		return bad(err, err_len, "-r repeats a command: give one");
	if (!o->argv && o->delay_ms)
		return bad(err, err_len, "-D delays after a command starts: give one");
	return 0;
}

void options_free(struct options *o)
{
	free(o->events);
	o->events = NULL;
}
