/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat: options to phases to exit status; the only place that exits. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "caps.h"
#include "diag.h"
#include "evlist.h"
#include "evparse.h"
#include "explain.h"
#include "list.h"
#include "options.h"
#include "output.h"
#include "pmu.h"
#include "workload.h"

/* Exit statuses of env(1) and timeout(1). */
enum {
	EXIT_PSTAT_FAILED = 125,
	EXIT_CANNOT_RUN = 126,
	EXIT_NOT_FOUND = 127,
};

/* perf stat's default set. */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,"
	"cycles,instructions,branches,branch-misses";

/* The reason, then the spec with a caret under the column at fault. */
static void report_spec_error(const char *where, const char *spec,
			      const struct evparse_error *err)
{
	if (err->hint[0])
		diag_error("%s%s (%s)", where, err->reason, err->hint);
	else
		diag_error("%s%s", where, err->reason);
	diag_detail("-e %s", spec);
	diag_detail("   %*s^", (int)err->col, "");
}

/* A line of an event file without its comment and trailing separators. */
static char *event_line(char *line)
{
	char *end;

	end = strchr(line, '#');
	if (end)
		*end = '\0';
	end = line + strlen(line);
	while (end > line && strchr(" \t\r\n,", end[-1]))
		*--end = '\0';
	line += strspn(line, " \t");
	return *line ? line : NULL;
}

/* -e @FILE: specs a line, # comments. 0, or -EINVAL once reported. */
static int parse_event_file(struct evlist *el, const char *path)
{
	struct evparse_error err;
	char *line = NULL, *spec, where[300];
	size_t cap = 0, lineno = 0;
	int ret = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		diag_error("cannot read the event file '%s': %s", path,
			   strerror(errno));
		return -EINVAL;
	}
	while (ret == 0 && getline(&line, &cap, f) >= 0) {
		lineno++;
		spec = event_line(line);
		if (!spec)
			continue;
		ret = evparse(el, spec, &err);
		snprintf(where, sizeof(where), "%s:%zu: ", path, lineno);
		if (ret == -EINVAL)
			report_spec_error(where, spec, &err);
	}
	if (ret == 0 && ferror(f)) {
		diag_error("cannot read the event file '%s': %s", path,
			   strerror(errno));
		ret = -EINVAL;
	}
	free(line);
	fclose(f);
	return ret;
}

static int build_evlist(const struct options *o, struct evlist *el)
{
	struct evparse_error err;
	size_t i;
	int ret;

	if (o->n_events == 0)
		return evparse(el, default_events, &err);
	for (i = 0; i < o->n_events; i++) {
		if (o->events[i][0] == '@') {
			ret = parse_event_file(el, o->events[i] + 1);
		} else {
			ret = evparse(el, o->events[i], &err);
			if (ret == -EINVAL)
				report_spec_error("", o->events[i], &err);
		}
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The member of e's group that led it when e failed, or NULL. */
static const struct evsel *opened_leader(const struct evlist *el, size_t i)
{
	const struct evsel *e = evlist_at_const(el, i);
	size_t j;

	for (j = i; j-- > 0 && evlist_at_const(el, j)->group == e->group;)
		if (!evlist_at_const(el, j)->open_err &&
		    (j == 0 || evlist_at_const(el, j - 1)->group != e->group))
			return evlist_at_const(el, j);
	return NULL;
}

static void report_invalid(const struct evlist *el, size_t i)
{
	const struct evsel *e = evlist_at_const(el, i);
	const struct evsel *leader = opened_leader(el, i);
	const struct perf_event_attr *a = &e->attr;

	if (a->type == PERF_TYPE_BREAKPOINT)
		diag_error("%s: the kernel refused this breakpoint (invalid argument); the address must be aligned to the length, x86 cannot watch reads alone (use :w or :rw), and :x needs length %zu",
			   e->name, sizeof(long));
	else if (a->type >= PERF_TYPE_MAX &&
		 (a->exclude_user || a->exclude_kernel || a->exclude_hv))
		diag_error("%s: this PMU cannot leave out user, kernel or hypervisor time (invalid argument); drop the modifiers",
			   e->name);
	else if (leader)
		diag_error("%s: the kernel will not put it in a group with %s (invalid argument); take it out of the braces, or make the group weak with :W",
			   e->name, leader->name);
	else
		diag_error("%s: the kernel refused its configuration (invalid argument); check it with 'pstat --explain -e %s'",
			   e->name, e->name);
}

static void report_open_error(const struct evlist *el, size_t i, int err)
{
	const struct evsel *e = evlist_at_const(el, i);
	int paranoid;

	switch (err) {
	case EACCES:
	case EPERM:
		if (caps_paranoid(&paranoid) == 0)
			diag_error("%s: permission denied (kernel.perf_event_paranoid=%d); try '%s:u', run as root, or lower the sysctl",
				   e->name, paranoid, e->name);
		else
			diag_error("%s: permission denied", e->name);
		break;
	case EINVAL:
		report_invalid(el, i);
		break;
	case E2BIG:
		diag_error("%s: too many events in one group for a single read; split the group",
			   e->name);
		break;
	case ENOSPC:
		diag_error("%s: no room left on the hardware%s", e->name,
			   e->attr.type == PERF_TYPE_BREAKPOINT ?
			   ": x86 has 4 breakpoints per thread" : "");
		break;
	case EBUSY:
		diag_error("%s: its PMU is busy: another tool uses it exclusively",
			   e->name);
		break;
	case EMFILE:
		diag_error("%s: too many open files; raise 'ulimit -n'",
			   e->name);
		break;
	default:
		diag_error("%s: cannot open counter: %s", e->name,
			   strerror(err));
	}
}

/* One note for the run, not one per event. */
static void note_missing_pmu(const struct evlist *el)
{
	size_t i;

	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);

		if (e->open_err && (e->attr.type == PERF_TYPE_HARDWARE ||
				    e->attr.type == PERF_TYPE_HW_CACHE ||
				    e->attr.type == PERF_TYPE_RAW)) {
			if (!pmu_have_core_pmu())
				diag_note("no hardware PMU is visible (a virtual machine, usually): hardware events are <not supported>; software events and tracepoints still count");
			return;
		}
	}
}

/* One note per weak group the kernel refused whole. */
static void note_split_groups(const struct evlist *el)
{
	size_t i;

	for (i = 0; i < evlist_count(el); i++) {
		const struct evsel *e = evlist_at_const(el, i);

		if (e->split && (i == 0 || !evlist_at_const(el, i - 1)->split))
			diag_note("the kernel refused the weak group led by %s as a whole: its events are counted separately",
				  e->name);
	}
}

static int exec_failed(char *const argv[], int err)
{
	if (err == ENOENT && !strchr(argv[0], '/'))
		diag_error("cannot run '%s': command not found", argv[0]);
	else if (err == EACCES)
		diag_error("cannot run '%s': permission denied (not an executable file?)",
			   argv[0]);
	else
		diag_error("cannot run '%s': %s", argv[0], strerror(err));
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The command's status, as a shell would give it. */
static int command_status(char *const argv[], int status)
{
	int sig;

	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	sig = WTERMSIG(status);
	diag_error("'%s' was killed by signal %d (SIG%s: %s)", argv[0], sig,
		   sigabbrev_np(sig) ? sigabbrev_np(sig) : "?",
		   strsignal(sig));
	return 128 + sig;
}

static int run(const struct options *o, struct evlist *el)
{
	struct evlist_target target = {
		.n_pids = 1,
		.inherit = !o->no_inherit,
		.enable_on_exec = true,
	};
	struct output_opts out = { .sep = o->sep, .no_merge = o->no_merge };
	struct output_run info = { .argv = o->argv };
	struct workload w;
	size_t failed;
	double t0;
	int ret;

	ret = workload_prepare(&w, o->argv);
	if (ret < 0) {
		diag_error("cannot start '%s': %s", o->argv[0], strerror(-ret));
		return EXIT_PSTAT_FAILED;
	}
	target.pids = &w.pid;
	ret = evlist_open(el, &target, &failed);
	if (ret < 0) {
		workload_abort(&w);
		report_open_error(el, failed, -ret);
		return EXIT_PSTAT_FAILED;
	}
	note_missing_pmu(el);
	note_split_groups(el);

	t0 = now_ns();
	ret = workload_start(&w);
	if (ret != 0) {
		evlist_close(el);
		if (ret < 0) {
			diag_error("cannot start '%s': %s", o->argv[0],
				   strerror(-ret));
			return EXIT_PSTAT_FAILED;
		}
		return exec_failed(o->argv, ret);
	}
	ret = workload_wait(&w);
	info.elapsed_ns = now_ns() - t0;
	if (ret < 0) {
		diag_error("cannot wait for '%s': %s", o->argv[0],
			   strerror(-ret));
		return EXIT_PSTAT_FAILED;
	}
	info.user_s = tv_seconds(&w.ru.ru_utime);
	info.sys_s = tv_seconds(&w.ru.ru_stime);

	ret = evlist_read(el);
	if (ret < 0) {
		diag_error("cannot read the counters: %s", strerror(-ret));
		return EXIT_PSTAT_FAILED;
	}
	/* Print before closing: the last close of a tracepoint is slow. */
	if (output_print(stderr, el, &info, &out) < 0) {
		diag_error("cannot write the results: %s", strerror(errno));
		return EXIT_PSTAT_FAILED;
	}
	ret = command_status(o->argv, w.status);
	evlist_close(el);
	return ret;
}

static int explain(const struct options *o)
{
	struct evlist_target target = {
		.n_pids = 1,
		.inherit = !o->no_inherit,
		.enable_on_exec = true,
	};
	struct evlist *el = evlist_new();
	int ret;

	if (!el) {
		diag_error("%s", strerror(ENOMEM));
		return EXIT_PSTAT_FAILED;
	}
	ret = build_evlist(o, el);
	if (ret < 0 && ret != -EINVAL)
		diag_error("%s", strerror(-ret));
	if (ret == 0) {
		evlist_configure(el, &target);
		ret = explain_print(stdout, el);
	}
	evlist_free(el);
	return ret < 0 ? EXIT_PSTAT_FAILED : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct evlist *el = NULL;
	char err[256];
	int ret;

	/* A closed stderr must give EPIPE and 125, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	ret = options_parse(&o, argc, argv, err, sizeof(err));
	if (ret < 0) {
		diag_error("%s", ret == -EINVAL ? err : strerror(-ret));
		ret = EXIT_PSTAT_FAILED;
	} else if (o.action == OPTIONS_HELP) {
		options_usage(stdout);
		ret = fflush(stdout) == 0 ? 0 : EXIT_PSTAT_FAILED;
	} else if (o.action == OPTIONS_VERSION) {
		printf("pstat %s\n", PACKAGE_VERSION);
		ret = fflush(stdout) == 0 ? 0 : EXIT_PSTAT_FAILED;
	} else if (o.action == OPTIONS_EXPLAIN) {
		ret = explain(&o);
	} else if (o.action == OPTIONS_LIST) {
		ret = list_print(stdout, o.list_filter, o.json) == 0 ? 0
							     : EXIT_PSTAT_FAILED;
	} else if (!(el = evlist_new())) {
		diag_error("%s", strerror(ENOMEM));
		ret = EXIT_PSTAT_FAILED;
	} else if ((ret = build_evlist(&o, el)) < 0) {
		if (ret != -EINVAL)
			diag_error("%s", strerror(-ret));
		ret = EXIT_PSTAT_FAILED;
	} else {
		ret = run(&o, el);
	}
	evlist_free(el);
	options_free(&o);
	return ret;
}
