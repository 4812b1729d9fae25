/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat: options to phases to exit status; the only place that exits. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "checkup.h"
#include "compare.h"
#include "count.h"
#include "dest.h"
#include "diag.h"
#include "evlist.h"
#include "evparse.h"
#include "explain.h"
#include "list.h"
#include "merge.h"
#include "metricgroup.h"
#include "options.h"
#include "pfm.h"
#include "pmu_tables.h"
#include "target.h"
#include "top.h"
#include "workload.h"


/*
 * The exit status of what printed what on stdout, ret: its own (0, 1),
 * or 125 said once. A reader that stopped reading (pstat --list | head)
 * is no failure: as for most tools, a quiet success.
 */
static int printed(int ret, const char *what)
{
	struct pollfd out = { .fd = STDOUT_FILENO, .events = POLLOUT };

	if (ret >= 0)
		return ret;
	/* stdio may have met EPIPE on an earlier write than the last:
	 * ask the pipe itself whether its reader is gone. */
	if (ret == -EPIPE || (poll(&out, 1, 0) == 1 &&
			      (out.revents & POLLERR)))
		return 0;
	diag_errno(-ret, "cannot print %s", what);
	return EXIT_PSTAT_FAILED;
}

/* stdout flushed: 0, or -errno (-EIO when it is not known why). */
static int flushed(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		return errno ? -errno : -EIO;
	return 0;
}

/* The attrs as a command would get them (target_resolve says which). */
static int explain(const struct options *o)
{
	struct evlist *el = evlist_new();
	struct metricgroup *mg = NULL;
	struct target tg = { 0 };
	char err[256];
	int ret;

	if (!el) {
		diag_errno(ENOMEM, "cannot allocate the event list");
		return EXIT_PSTAT_FAILED;
	}
	ret = count_events(o, el, NULL, &mg);
	if (ret < 0 && ret != -EINVAL)
		diag_errno(-ret, "cannot make the event list");
	if (ret == 0 && (ret = target_resolve(&tg, o, err, sizeof(err))) < 0) {
		if (ret == -EINVAL)
			diag_error("%s", err);
		else
			diag_errno(-ret, "cannot list what to count (its threads, CPUs and aggregates)");
	}
	if (ret == 0) {
		evlist_configure(el, &tg);
		if (mg)
			metricgroup_explain(stdout, mg, el);
		ret = printed(explain_print(stdout, el), "the events");
	} else {
		ret = EXIT_PSTAT_FAILED;
	}
	target_free(&tg);
	metricgroup_free(mg);
	evlist_free(el);
	return ret;
}

/* --list pfm [FILTER]: libpfm4's events, when it is built in. */
static int list_pfm(const struct options *o)
{
	int ret;

	if (!pfm_built_in()) {
		diag_error("--list pfm: pstat is built without libpfm4 (configure it --with-libpfm4)");
		return EXIT_PSTAT_FAILED;
	}
	ret = list_print_pfm(stdout, o->list_filter, o->json);
	if (ret == -ENODEV) {
		diag_error("--list pfm: libpfm4 did not start");
		return EXIT_PSTAT_FAILED;
	}
	return printed(ret, "the list of events");
}

/* --list metrics|metricgroups [FILTER]: from perf's tables of this
 * CPU's model, or PERF_CPUID's; a CPU without one is an error. */
static int list_metrics(const struct options *o)
{
	static char err[PATH_MAX + 512];
	struct pmu_tables *t;
	int ret = pmu_tables_load(&t, PMU_TABLES_METRICS, err, sizeof(err));

	if (ret == -ENOMEM)
		diag_errno(ENOMEM, "cannot read perf's metric tables");
	else if (ret < 0)
		diag_error("%s", err);
	if (ret < 0)
		return EXIT_PSTAT_FAILED;
	if (o->list_metrics)
		ret = list_print_metrics(stdout, t, o->list_filter, o->json);
	else
		ret = list_print_metricgroups(stdout, t, o->list_filter,
					      o->json);
	pmu_tables_free(t);
	return printed(ret, o->list_metrics ? "the list of metrics"
					    : "the list of metric groups");
}

/*
 * --merge: the report, or one message and nothing printed; the exit
 * status of the lowest-ranked failure after printing.
 */
static int merge(const struct options *o)
{
	struct merge m;
	char err[1024];
	FILE *dest;
	int ret, fd;

	ret = merge_read(&m, o->merge_files, o->n_merge_files, err,
			 sizeof(err));
	if (ret == -EINVAL)
		diag_error("%s", err);
	else if (ret < 0)
		diag_errno(-ret, "cannot read the ranks' files");
	if (ret < 0) {
		merge_free(&m);
		return EXIT_PSTAT_FAILED;
	}
	dest = o->output_file || o->log_fd >= 0 ? count_destination(o, &fd)
						 : stdout;
	ret = dest ? merge_print(dest, &m, o->out.format) : -1;
	if (dest && dest != stdout && dest_finish(dest) != 0 && ret == 0)
		ret = -errno;
	if (ret == 0)
		ret = m.status;
	else if (ret < -1)
		ret = printed(ret, "the merged results");
	else
		ret = EXIT_PSTAT_FAILED;
	merge_free(&m);
	return ret;
}

/* pstat's version, and whether libpfm4 is built in and what it sees. */
static void print_version(void)
{
	char models[512];

	printf("pstat %s\n", PACKAGE_VERSION);
	if (!pfm_built_in())
		printf("libpfm4: not built in\n");
	else if (pfm_models(models, sizeof(models), NULL) < 0)
		printf("libpfm4: built in, did not start\n");
	else
		printf("libpfm4: built in, detects %s\n",
		       models[0] ? models : "no PMU model of this CPU");
}

/* --help, -V, --check and --list: what each prints on stdout. */
static int help(const struct options *o)
{
	options_usage(stdout);
	return printed(flushed(), "the help");
}

static int version(const struct options *o)
{
	print_version();
	return printed(flushed(), "the version");
}

static int check(const struct options *o)
{
	return printed(checkup_print(stdout, o->json), "the report");
}

static int list(const struct options *o)
{
	if (o->list_pfm)
		return list_pfm(o);
	if (o->list_metrics || o->list_metricgroups)
		return list_metrics(o);
	return printed(list_print(stdout, o->list_filter, o->json),
		      "the list of events");
}

/* Each action to its handler; counting (count.c) is the one that runs
 * a command. The exit status. */
static int act(struct options *o, int env_err)
{
	static int (*const handlers[])(const struct options *) = {
		[OPTIONS_HELP] = help,
		[OPTIONS_VERSION] = version,
		[OPTIONS_LIST] = list,
		[OPTIONS_EXPLAIN] = explain,
		[OPTIONS_CHECK] = check,
		[OPTIONS_MERGE] = merge,
		[OPTIONS_COMPARE] = NULL,	/* compare_run */
		[OPTIONS_TOP] = top_run,
	};

	if (o->action == OPTIONS_RUN)
		return count_run(o, env_err);
	if (o->action == OPTIONS_COMPARE)
		return compare_run(o, env_err);
	return handlers[o->action](o);
}

int main(int argc, char **argv)
{
	struct options o;
	char err[256];
	sigset_t stop;
	int ret, env_err;

	/*
	 * First: from here on a signal waits to be passed on to the
	 * command, a closed stderr gives EPIPE and 125, not a silent
	 * death, and what the caller gave pstat is kept for the command.
	 */
	env_err = workload_init();

	/*
	 * pstat's messages, and the results meant for stderr, through one
	 * buffered stream that a stalled reader never wedges (dest.h).
	 */
	workload_stop_signals(&stop);
	diag_to(dest_stderr(&stop));
	ret = options_parse(&o, argc, argv, err, sizeof(err));
	diag_set_verbose(ret < 0 ? 0 : o.verbose);
	/* What counts nothing lets signals do what they would. */
	if (ret < 0 || (o.action != OPTIONS_RUN && !o.sides))
		workload_unblock_signals();
	if (ret == -EINVAL)
		diag_error("%s", err);
	else if (ret < 0)
		diag_errno(-ret, "cannot read the command line");
	if (ret < 0) {
		ret = EXIT_PSTAT_FAILED;
	} else {
		ret = act(&o, env_err);
	}
	options_free(&o);
	evparse_fini();
	pfm_fini();
	diag_to(NULL);
	dest_stderr_close();
	return ret;
}
