/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: any argv (the input cut at NULs and newlines) is
 * taken, with what it asked within the bounds the options set, or
 * refused with a one-line reason that fits the buffer; and the same
 * argv gives the same answer however the parse before it ended.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options.h"

#define MAX_ARGS 256
#define ERR_LEN 256

/* argv[0] "pstat", then the input's words, NULL-terminated. */
static int make_argv(const uint8_t *data, size_t size, char **argv)
{
	size_t start = 0, i;
	int argc = 0;

	argv[argc++] = strdup("pstat");
	for (i = 0; i <= size && argc < MAX_ARGS; i++) {
		if (i < size && data[i] != '\0' && data[i] != '\n')
			continue;
		argv[argc++] = fuzz_strndup(data + start, i - start);
		start = i + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static void free_argv(char **argv)
{
	for (; *argv; argv++)
		free(*argv);
}

/*
 * Where p points: argv word k at offset i is k << 16 | i; NULL is -1,
 * the tab of -x '\t' -2. Anything else is no string of argv's.
 */
static long where(char *const *argv, int argc, const char *p)
{
	int k;

	if (!p)
		return -1;
	for (k = 0; k < argc; k++)
		if (p >= argv[k] && p <= argv[k] + strlen(argv[k]))
			return (long)k << 16 | (p - argv[k]);
	FUZZ_CHECK(strcmp(p, "\t") == 0, "'%s' points outside argv", p);
	return -2;
}

/* What a parse said, with its pointers as places in argv. */
struct answer {
	int ret;
	char err[ERR_LEN];
	struct options o;
	long events[MAX_ARGS], pids, tids, cpu_list, output_file, sep;
	long cmd, list_filter, pre_cmd, post_cmd;
};

static void parse(struct answer *a, int argc, char **argv)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	a->ret = options_parse(&a->o, argc, argv, a->err, sizeof(a->err));
	FUZZ_CHECK(a->ret == 0 || a->ret == -EINVAL || a->ret == -ENOMEM,
		   "%d", a->ret);
	if (a->ret < 0)
		return;
	FUZZ_CHECK(a->o.n_events < (size_t)argc, "%zu events of %d words",
		   a->o.n_events, argc);
	for (i = 0; i < a->o.n_events; i++)
		a->events[i] = where(argv, argc, a->o.events[i]);
	a->pids = where(argv, argc, a->o.pids);
	a->tids = where(argv, argc, a->o.tids);
	a->cpu_list = where(argv, argc, a->o.cpu_list);
	a->output_file = where(argv, argc, a->o.output_file);
	a->sep = where(argv, argc, a->o.out.sep);
	a->list_filter = where(argv, argc, a->o.list_filter);
	a->pre_cmd = where(argv, argc, a->o.pre_cmd);
	a->post_cmd = where(argv, argc, a->o.post_cmd);
	a->cmd = -1;
	/* pstat compare's commands are copies of argv's pointers: the
	 * first's first word is in argv. */
	if (a->o.argv && a->o.compare) {
		a->cmd = where(argv, argc, a->o.argv[0]);
		FUZZ_CHECK(a->cmd >= 0, "compare's first command is not in argv");
	} else if (a->o.argv) {
		FUZZ_CHECK(a->o.argv > argv && a->o.argv < argv + argc,
			   "the command is not in argv");
		a->cmd = a->o.argv - argv;
	}
}

/* pstat compare: two commands or more, each of words, or its files. */
static void check_compare(const struct options *o)
{
	size_t k;

	FUZZ_CHECK(!o->sides != !o->compare_files, "commands and files");
	FUZZ_CHECK(o->compare_files ? o->n_compare_files >= 1 && !o->repeat
		   : o->n_sides >= 2 && o->repeat >= 1 &&
		     o->repeat <= 1000000, "%zu commands, %zu files, -r %zu",
		   o->n_sides, o->n_compare_files, o->repeat);
	for (k = 0; o->sides && k < o->n_sides; k++)
		FUZZ_CHECK(o->sides[k][0] && strcmp(o->sides[k][0], ":::"),
			   "command %zu is empty", k);
	FUZZ_CHECK(o->warmup <= 1000000, "--warmup %zu", o->warmup);
	FUZZ_CHECK(!o->append || o->output_file, "--append without -o");
	FUZZ_CHECK(!(o->quiet && o->verbose), "-q with -v");
}

/* pstat top: its interval, its intervals, one filter, batch formats. */
static void check_top(const struct options *o)
{
	FUZZ_CHECK(o->top_delay_ms >= 10 && o->top_delay_ms <= 86400000,
		   "-d %u ms", o->top_delay_ms);
	FUZZ_CHECK(o->top_iterations <= 1000000000, "-n %zu",
		   o->top_iterations);
	FUZZ_CHECK(!(o->pids && o->top_user), "-p with -u");
	FUZZ_CHECK(!o->argv && !o->compare, "a command for top");
	FUZZ_CHECK(o->out.format == OUTPUT_HUMAN || o->out.format == OUTPUT_CSV ||
		   o->out.format == OUTPUT_JSONL ||
		   o->out.format == OUTPUT_PSTAT_JSON, "format %d",
		   o->out.format);
	FUZZ_CHECK(o->out.format != OUTPUT_CSV || (o->out.sep && *o->out.sep),
		   "-x without a separator");
	FUZZ_CHECK(o->top_batch || (o->out.format == OUTPUT_HUMAN &&
				    !o->output_file),
		   "machine output or -o without -b");
}

/* What a good parse promises; -h and -V stop at once, and promise less. */
static void check_good(const struct answer *a)
{
	const struct options *o = &a->o;

	FUZZ_CHECK(o->action <= OPTIONS_TOP, "action %d", o->action);
	if (o->action == OPTIONS_TOP) {
		check_top(o);
		return;
	}
	FUZZ_CHECK(o->compare == (o->action == OPTIONS_COMPARE) ||
		   (o->compare && (o->action == OPTIONS_HELP ||
				   o->action == OPTIONS_VERSION)),
		   "compare's command line, action %d", o->action);
	if (o->action == OPTIONS_COMPARE)
		check_compare(o);
	/* Its -h and -V stop at once, -r not yet given its default. */
	if (o->compare)
		return;
	FUZZ_CHECK(o->forever ? o->repeat == SIZE_MAX
			      : o->repeat >= 1 && o->repeat <= 1000000,
		   "-r %zu", o->repeat);
	FUZZ_CHECK(!o->interval_ms || (o->interval_ms >= 10 &&
				       o->interval_ms <= 86400000),
		   "-I %u", o->interval_ms);
	FUZZ_CHECK(o->delay_ms >= -1 && o->delay_ms <= 86400000, "-D %ld",
		   o->delay_ms);
	FUZZ_CHECK(o->log_fd >= -1 && o->log_fd <= 1 << 30, "--log-fd %d",
		   o->log_fd);
	FUZZ_CHECK(o->out.format <= OUTPUT_PSTAT_JSON, "format %d",
		   o->out.format);
	FUZZ_CHECK(o->out.format != OUTPUT_CSV || (o->out.sep && *o->out.sep),
		   "-x without a separator");
	if (o->action == OPTIONS_HELP || o->action == OPTIONS_VERSION)
		return;
	FUZZ_CHECK(o->out.interval == (o->interval_ms > 0) &&
		   o->out.runs == o->repeat, "output options out of step");
	FUZZ_CHECK(!o->append || o->output_file, "--append without -o");
	FUZZ_CHECK(!(o->output_file && o->log_fd >= 0), "-o with --log-fd");
	FUZZ_CHECK(!o->null_run || (!o->n_events && !o->detailed),
		   "-n with events");
	FUZZ_CHECK((o->pids != NULL) + (o->tids != NULL) +
		   (o->all_cpus || o->cpu_list) <= 1, "two targets");
	FUZZ_CHECK(o->action == OPTIONS_RUN || !o->argv,
		   "action %d with a command", o->action);
	FUZZ_CHECK(o->action != OPTIONS_RUN || o->argv || o->pids || o->tids ||
		   o->all_cpus || o->cpu_list, "nothing to count");
	FUZZ_CHECK(o->action != OPTIONS_EXPLAIN || o->n_events,
		   "--explain without events");
	FUZZ_CHECK(!o->out.table || o->repeat > 1, "--table without -r");
	FUZZ_CHECK(!o->out.interval_clear ||
		   (o->interval_ms && o->out.format == OUTPUT_HUMAN),
		   "--interval-clear without -I or with machine output");
	FUZZ_CHECK(!(o->all_user && o->all_kernel),
		   "--all-user with --all-kernel");
	FUZZ_CHECK(!(o->quiet && o->verbose), "-q with -v");
	FUZZ_CHECK(o->action != OPTIONS_MERGE ||
		   (o->n_merge_files && o->merge_files),
		   "--merge without files");
}

static void check_same(const struct answer *a, const struct answer *b)
{
	const struct options *x = &a->o, *y = &b->o;

	FUZZ_CHECK(a->ret == b->ret && strcmp(a->err, b->err) == 0,
		   "%d '%s', then %d '%s'", a->ret, a->err, b->ret, b->err);
	if (a->ret < 0)
		return;
	FUZZ_CHECK(x->action == y->action && x->n_events == y->n_events &&
		   memcmp(a->events, b->events,
			  x->n_events * sizeof(a->events[0])) == 0 &&
		   x->detailed == y->detailed && x->null_run == y->null_run &&
		   x->no_inherit == y->no_inherit &&
		   x->no_merge == y->no_merge && x->no_scale == y->no_scale &&
		   x->json == y->json && x->out.format == y->out.format &&
		   a->sep == b->sep && x->out.big_num == y->out.big_num &&
		   x->out.metric_only == y->out.metric_only &&
		   x->out.summary == y->out.summary &&
		   x->out.no_csv_summary == y->out.no_csv_summary &&
		   x->repeat == y->repeat && x->interval_ms == y->interval_ms &&
		   x->interval_count == y->interval_count &&
		   a->pids == b->pids && a->tids == b->tids &&
		   x->all_cpus == y->all_cpus && a->cpu_list == b->cpu_list &&
		   x->aggr == y->aggr && x->delay_ms == y->delay_ms &&
		   x->timeout_ms == y->timeout_ms &&
		   a->output_file == b->output_file &&
		   x->append == y->append && x->log_fd == y->log_fd &&
		   a->cmd == b->cmd && a->list_filter == b->list_filter &&
		   x->forever == y->forever && a->pre_cmd == b->pre_cmd &&
		   a->post_cmd == b->post_cmd && x->sync == y->sync &&
		   x->verbose == y->verbose && x->quiet == y->quiet &&
		   x->all_user == y->all_user &&
		   x->all_kernel == y->all_kernel &&
		   x->out.interval_clear == y->out.interval_clear &&
		   x->out.table == y->out.table,
		   "the same argv, two parses, two answers");
}

/* Leaves getopt inside a cluster of letters, as a parse may. */
static void unsettle_getopt(void)
{
	char a0[] = "pstat", a1[] = "-jZq", a2[] = "true";
	char *argv[] = { a0, a1, a2, NULL };
	struct options o;
	char err[64];

	FUZZ_CHECK(options_parse(&o, 3, argv, err, sizeof(err)) == -EINVAL,
		   "-jZq is taken");
	options_free(&o);
}

/* A short buffer gets the start of the same reason. */
static void check_short_err(int argc, char **argv, const struct answer *a,
			    size_t len)
{
	char *err = malloc(len);
	struct options o;
	int ret;

	FUZZ_CHECK(err, "no memory");
	ret = options_parse(&o, argc, argv, err, len);
	FUZZ_CHECK(ret == a->ret, "%d with %zu bytes for the reason, else %d",
		   ret, len, a->ret);
	if (ret < 0)
		FUZZ_CHECK(strlen(err) < len &&
			   strncmp(err, a->err, strlen(err)) == 0 &&
			   strlen(err) == (strlen(a->err) < len - 1 ?
					   strlen(a->err) : len - 1),
			   "'%s' in %zu bytes, '%s' in %d", err, len, a->err,
			   ERR_LEN);
	options_free(&o);
	free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 1], *again[MAX_ARGS + 1];
	struct answer *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t short_len = size ? 1 + data[0] % 64 : 1;
	int argc;

	FUZZ_CHECK(a && b, "no memory");
	argc = make_argv(data, size, argv);
	make_argv(data, size, again);
	parse(a, argc, argv);
	if (a->ret == -EINVAL)
		FUZZ_CHECK(a->err[0] && strlen(a->err) < ERR_LEN &&
			   !strchr(a->err, '\n'), "reason '%s'", a->err);
	if (a->ret == 0)
		check_good(a);
	unsettle_getopt();
	parse(b, argc, again);
	check_same(a, b);
	options_free(&a->o);
	options_free(&b->o);
	unsettle_getopt();
	check_short_err(argc, argv, a, short_len);
	free_argv(argv);
	free_argv(again);
	free(a);
	free(b);
	return 0;
}
