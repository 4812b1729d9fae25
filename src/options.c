/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: options into a struct, validated, and --help. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

static const char usage[] =
	"Usage: pstat [options] [--] command [args...]\n"
	"Count performance events while command runs, like perf stat.\n"
	"\n"
	"  -e, --event=LIST           events to count: names, sys:tracepoint,\n"
	"                             groups {a,b}, modifiers :u :k :h;\n"
	"                             may be given more than once\n"
	"  -x, --field-separator=SEP  print CSV separated by SEP ('\\t' for a tab)\n"
	"  -i, --no-inherit           count the command only, not its children\n"
	"                             and threads\n"
	"      --no-merge             show each instance of a PMU on its own line\n"
	"      --list [FILTER]        list the events this machine knows and exit;\n"
	"                             FILTER is a substring or a glob\n"
	"      --json                 with --list: one JSON document\n"
	"      --explain              print the perf_event_attr of each event of\n"
	"                             -e, by group, and exit; nothing is opened\n"
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
	OPT_JSON,
	OPT_EXPLAIN,
	OPT_NO_MERGE,
};

static const struct option long_options[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "no-inherit", no_argument, NULL, 'i' },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "no-merge", no_argument, NULL, OPT_NO_MERGE },
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
	if (opt && strchr("ex", opt))
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

int options_parse(struct options *o, int argc, char **argv, char *err,
		  size_t err_len)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->events = calloc((size_t)argc, sizeof(*o->events));
	if (!o->events)
		return -ENOMEM;
	opterr = 0;
	optind = 1;
	/* '+': stop at the command, so its own options stay its own. */
	while ((c = getopt_long(argc, argv, "+e:x:ihV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'e':
			o->events[o->n_events++] = optarg;
			break;
		case 'x':
			o->sep = strcmp(optarg, "\\t") == 0 ? "\t" : optarg;
			if (!*o->sep)
				return bad(err, err_len,
					   "the -x separator is empty; give one, as in -x,");
			break;
		case 'i':
			o->no_inherit = true;
			break;
		case 'h':
			o->action = OPTIONS_HELP;
			return 0;
		case 'V':
			o->action = OPTIONS_VERSION;
			return 0;
		case OPT_LIST:
			o->action = OPTIONS_LIST;
			break;
		case OPT_EXPLAIN:
			o->action = OPTIONS_EXPLAIN;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_NO_MERGE:
			o->no_merge = true;
			break;
		default:
			return unknown_option(err, err_len, argv, optopt);
		}
	}
	if (o->json && o->action != OPTIONS_LIST)
		return bad(err, err_len,
			   "--json goes with --list; for results, see -x");
	if (o->action == OPTIONS_EXPLAIN) {
		if (o->n_events == 0)
			return bad(err, err_len,
				   "--explain needs the events to explain: -e LIST");
		return 0;
	}
	if (o->action == OPTIONS_LIST) {
		if (argc - optind > 1)
			return bad(err, err_len,
				   "--list takes one filter, not %d; quote a glob",
				   argc - optind);
		o->list_filter = argv[optind];
		return 0;
	}
	if (optind >= argc)
		return bad(err, err_len,
			   "no command given; usage: pstat [options] [--] command [args...]");
	o->argv = argv + optind;
	return 0;
}

void options_free(struct options *o)
{
	free(o->events);
	o->events = NULL;
}
