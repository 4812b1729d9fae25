/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The count action: the events (with cgroups), the target, the ranks'
 * names, --control, the destination, the run and its hooks, and what
 * the exit status says of it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"
#include "cgroup.h"
#include "clock.h"
#include "control.h"
#include "count.h"
#include "dest.h"
#include "diag.h"
#include "diagnose.h"
#include "event_table.h"
#include "evlist.h"
#include "evparse.h"
#include "metricgroup.h"
#include "notes.h"
#include "options.h"
#include "output.h"
#include "pfm_events.h"
#include "progress.h"
#include "rank.h"
#include "regions.h"
#include "results.h"
#include "run.h"
#include "target.h"
#include "verbose.h"
#include "workload.h"

/*
 * An event file, read with the user's rights (caps.h). A pipe or a
 * terminal may keep pstat waiting for its writer; no command runs yet,
 * so Ctrl-C and the like end pstat there, as they would any program.
 */
static int event_file(const struct options *o, struct evlist *el,
		      const char *path, struct error *err)
{
	int ret;

	workload_unblock_signals();
	ret = evparse_file(el, path, caps_open_user, err);
	/* --explain reads them too, and keeps signals as they were. */
	if (o->action == OPTIONS_RUN)
		workload_block_signals();
	return ret;
}

/* The -G lists that follow the first n -e: 0, or -EINVAL once said. */
static int apply_cgroups(const struct options *o, struct evlist *el,
			 struct cgroups *cg, size_t n, bool metrics)
{
	char err[PATH_MAX + 256];
	size_t i;
	int ret = 0;

	for (i = 0; cg && ret == 0 && i < o->n_cgroups; i++)
		if (o->cgroups[i].after == n &&
		    o->cgroups[i].after_metrics == metrics)
			ret = cgroups_apply(cg, el, o->cgroups[i].list, err,
					    sizeof(err));
	if (ret == -EINVAL)
		diag_error("%s", err);
	return ret;
}

/*
 * The -e lists and files (or perf's default set) with the cgroups of
 * -G (cg, or NULL for none), then -d's. 0, -EINVAL once said, or
 * -errno.
 */
/*
 * -M's lists and --topdown's group: their metrics into *mg, their
 * events into el. 0, -EINVAL with err, or -errno.
 */
static int add_metrics(const struct options *o, struct evlist *el,
		       struct metricgroup **mg, struct error *err)
{
	const struct metricgroup_opts mo = {
		.no_group = o->metric_no_group,
		.no_merge = o->metric_no_merge,
		.system_wide = o->all_cpus || o->cpu_list,
		.cpu_list = o->cpu_list,
	};
	const char **lists = calloc(o->n_metrics + 1, sizeof(*lists));
	char topdown[32];
	size_t n = o->n_metrics;
	int ret;

	if (!lists)
		return -ENOMEM;
	memcpy(lists, o->metrics, n * sizeof(*lists));
	if (o->topdown) {
		snprintf(topdown, sizeof(topdown), "TopdownL%u",
			 o->td_level ? o->td_level : 1);
		lists[n++] = topdown;
	}
	ret = metricgroup_add(mg, lists, n, &mo, el, err);
	free(lists);
	return ret;
}

static int build_events(const struct options *o, struct evlist *el,
			struct cgroups *cg, struct metricgroup **mg)
{
	/*
	 * Not on the stack: 8 KiB that every frame of the parser would run
	 * below, on pages of their own, each a page fault at start-up.
	 * Written only when a parse fails.
	 */
	static struct error err;
	const char *set;
	size_t i;
	int level, ret = 0;
	bool pfm = false;	/* the list at fault is --pfm-events' */

	if (o->null_run)
		return 0;
	evlist_set_space(el, o->all_user ? EVLIST_SPACE_USER :
			     o->all_kernel ? EVLIST_SPACE_KERNEL :
			     EVLIST_SPACE_AS_GIVEN);
	bool metrics = false;	/* the fault is -M's */

	if (o->n_events == 0 && o->n_metrics == 0 && !o->topdown)
		ret = evparse(el, event_table_default_set(), &err);
	/* -G's failures are said by apply_cgroups: none in err. */
	if (ret == 0 && (ret = apply_cgroups(o, el, cg, 0, false)) < 0)
		return ret;
	for (i = 0; ret == 0 && i <= o->n_events; i++) {
		/* -M's events where the first -M was, as perf adds them;
		 * then the -G lists given after it. */
		if (mg && (o->n_metrics || o->topdown) && o->metrics_at == i) {
			metrics = true;
			ret = add_metrics(o, el, mg, &err);
			if (ret < 0)
				break;
			metrics = false;
			if ((ret = apply_cgroups(o, el, cg, i, true)) < 0)
				return ret;
		}
		if (i == o->n_events)
			break;
		pfm = o->events_pfm[i];
		ret = pfm ? pfm_events_parse(el, o->events[i], &err)
		      : o->events[i][0] == '@'
		      ? event_file(o, el, o->events[i] + 1, &err)
		      : evparse(el, o->events[i], &err);
		if (ret == 0 &&
		    (ret = apply_cgroups(o, el, cg, i + 1, false)) < 0)
			return ret;
	}
	for (level = 1; ret == 0 && level <= o->detailed &&
	     (set = event_table_detailed_set(level)); level++)
		ret = evparse(el, set, &err);
	if (ret == -EINVAL) {
		diag_report(&err, metrics ? "-M" : pfm ? "--pfm-events" : "-e");
		error_fini(&err);
	}
	return ret;
}

/*
 * The events of -G and --for-each-cgroup's cgroups (cg): the latter's
 * are all of them again for each cgroup, as perf makes them. 0,
 * -EINVAL once said, or -errno.
 */
static int build_cgroup_evlist(const struct options *o, struct evlist *el,
			       struct cgroups *cg, struct metricgroup **mg)
{
	char err[PATH_MAX + 256];
	const char *p = o->for_each_cgroup;
	struct metricgroup *again;
	size_t first, n;
	char *name;
	int ret = 0;

	if (!p)
		ret = build_events(o, el, cg, mg);
	while (p && ret == 0) {
		n = strcspn(p, ",");
		first = evlist_count(el);
		name = strndup(p, n);
		/* -M's events alike in each cgroup; the first's metrics are
		 * the ones computed (output.h's mg_block). */
		again = NULL;
		ret = name ? build_events(o, el, NULL, first ? &again : mg)
			   : -ENOMEM;
		metricgroup_free(again);
		if (ret == 0 && (ret = cgroups_name_range(cg, el, name, first,
							  err, sizeof(err))) == -EINVAL)
			diag_error("%s", err);
		free(name);
		p = p[n] ? p + n + 1 : NULL;
	}
	if (ret == 0 && (ret = cgroups_check_groups(el, err, sizeof(err))) < 0)
		diag_error("%s", err);
	return ret;
}

/* How many cgroups --for-each-cgroup names. */
static size_t cgroups_named(const struct options *o)
{
	const char *p;
	size_t n = 1;

	for (p = o->for_each_cgroup; *p; p++)
		n += *p == ',';
	return n;
}

/*
 * The events, and the cgroups they count in: cg, or NULL for none
 * (without -G, or for --explain, whose attrs do not change). 0, -EINVAL
 * once said, or -errno.
 */
int count_events(const struct options *o, struct evlist *el,
		 struct cgroups *cg, struct metricgroup **mg)
{
	if (mg)
		*mg = NULL;
	return cg ? build_cgroup_evlist(o, el, cg, mg)
		  : build_events(o, el, NULL, mg);
}

/* One message per failure, worded by its cause (diagnose.c), in msg. */
static void open_error(const struct evlist *el, size_t i, int err,
		       bool command, char *msg, size_t len)
{
	const struct evsel *e = evlist_at(el, i);
	const struct evsel *leader = evlist_open_leader(el, i);
	struct diagnose_failure f = {
		.event = evsel_name(e),
		.attr = evsel_attr(e),
		.err = err,
		.leader = leader ? evsel_name(leader) : NULL,
		.command = command,
	};
	struct diagnose_facts s;

	evsel_failed_on(e, &f.pid, &f.cpu);
	diagnose_gather(&s, DIAGNOSE_OPEN, f.pid);
	diagnose_open_error(&f, &s, msg, len);
}

/* Out of descriptors before the counters: how many to allow, in msg. */
static void out_of_fds(const struct evlist *el, const struct target *tg,
		       char *msg, size_t len)
{
	struct diagnose_facts s;

	diagnose_gather(&s, DIAGNOSE_FDS, 0);
	diagnose_out_of_fds(&s, evlist_fds_needed(el, target_count(tg)) +
				RUN_RESERVED_FDS, msg, len);
}

/* The command could not be run: why in msg, and the exit status. */
static int exec_failed(char *const argv[], int err, char *msg, size_t len)
{
	if (err == ENOENT && !strchr(argv[0], '/'))
		snprintf(msg, len, "cannot run '%s': command not found",
			 argv[0]);
	else if (err == EACCES)
		snprintf(msg, len, "cannot run '%s': permission denied (not an executable file?)",
			 argv[0]);
	else
		snprintf(msg, len, "cannot run '%s': %s", argv[0],
			 strerror(err));
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}

/* The command's status, as a shell would give it. */
static int command_status(char *const argv[], int status)
{
	char name[16];
	int sig;

	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	sig = WTERMSIG(status);
	diag_notice("'%s' was killed by signal %d (%s: %s)", argv[0], sig,
		    output_signal_name(sig, name, sizeof(name)),
		    strsignal(sig));
	return 128 + sig;
}

/*
 * Whether -o's file is one that --format=openmetrics replaces whole at
 * each exposition (dest_open_replacing): a regular file, or none yet.
 * Not a FIFO, a terminal, a symbolic link (/dev/stdout, or one the
 * user keeps): those take the stream as it is, in place.
 */
static bool replaceable(const struct options *o)
{
	struct stat st;
	bool regular;
	int fd;

	if (o->out.format != OUTPUT_OPENMETRICS || o->action != OPTIONS_RUN)
		return false;
	fd = caps_open_user(o->output_file, O_PATH | O_NOFOLLOW | O_CLOEXEC,
			    0);
	if (fd < 0)
		return errno == ENOENT;
	regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	close(fd);
	return regular;
}

/*
 * Where the results go: stderr, -o FILE or --log-fd, its descriptor in
 * *fd (-1 for a file replaced at each exposition, whose descriptor
 * changes), through a stream that a reader that stops reading never
 * wedges (dest.h). NULL, said once, when it cannot be opened.
 */
FILE *count_destination(const struct options *o, int *fd)
{
	sigset_t stop;
	FILE *f;
	int flags;

	workload_stop_signals(&stop);
	if (o->output_file && replaceable(o)) {
		*fd = -1;
		f = dest_open_replacing(o->output_file, &stop);
		if (!f && errno == ENOENT)
			diag_error("cannot write to '%s': its directory does not exist (pstat creates none: mkdir -p it first)",
				   o->output_file);
		else if (!f)
			diag_errno(errno, "cannot write to '%s.tmp', which replaces '%s' at each exposition",
				   o->output_file, o->output_file);
		return f;
	}
	if (o->output_file) {
		/*
		 * With the user's rights, whatever pstat's own (caps.h). A
		 * FIFO keeps pstat here until it has a reader; no command
		 * runs yet, so Ctrl-C and the like end pstat, as they would
		 * any program.
		 */
		workload_unblock_signals();
		*fd = caps_open_user(o->output_file, O_WRONLY | O_CREAT |
				     O_CLOEXEC | (o->append ? O_APPEND : O_TRUNC),
				     0666);
		if (o->action == OPTIONS_RUN || o->sides)
			workload_block_signals();
		f = *fd >= 0 ? dest_open(*fd, true, &stop) : NULL;
		if (*fd >= 0 && !f) {
			close(*fd);
			errno = ENOMEM;
		}
		if (!f && errno == ENOENT)
			diag_error("cannot write to '%s': its directory does not exist (pstat creates none: mkdir -p it first)",
				   o->output_file);
		else if (!f)
			diag_errno(errno, "cannot write to '%s'",
				   o->output_file);
		return f;
	}
	if (o->log_fd < 0) {
		*fd = STDERR_FILENO;
		return diag_stream();
	}
	*fd = o->log_fd;
	/* Open, and for writing, as fdopen(3) asks. */
	flags = fcntl(*fd, F_GETFL);
	if (flags >= 0 && (flags & O_ACCMODE) == O_RDONLY) {
		errno = EBADF;
		flags = -1;
	}
	f = flags >= 0 ? dest_open(*fd, true, &stop) : NULL;
	if (!f)
		diag_errno(errno, "cannot write to descriptor %d (--log-fd)",
			   o->log_fd);
	return f;
}

/* Whether the output is pstat's own format, with its run record. */
static bool own_format(const struct options *o)
{
	return o->out.format == OUTPUT_PSTAT_CSV ||
	       o->out.format == OUTPUT_PSTAT_JSON ||
	       o->out.format == OUTPUT_OPENMETRICS;
}

bool count_shares_stderr(int fd)
{
	struct stat a, b;

	if (fd == STDERR_FILENO)
		return true;
	return fstat(fd, &a) == 0 && fstat(STDERR_FILENO, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* What the hooks of a run need: the command's words, the progress line. */
struct hook_arg {
	char **argv;
	struct progress progress;
};

/* --pre or --post failed: the runs stopped there. Words in msg. */
static void step_failed(const struct run_failure *f, char *msg, size_t len)
{
	bool pre = strcmp(f->step, "--pre") == 0;
	char how[64], name[16];

	if (WIFEXITED(f->step_status))
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(f->step_status));
	else
		snprintf(how, sizeof(how), "was killed by %s",
			 output_signal_name(WIFSIGNALED(f->step_status) ?
					    WTERMSIG(f->step_status) : 0,
					    name, sizeof(name)));
	snprintf(msg, len, "%s '%s' %s %s run %zu, so %s", f->step,
		 f->step_cmd, how, pre ? "before" : "after", f->step_run + 1,
		 pre && f->step_run == 0 ? "nothing was counted"
					 : "no more runs were made");
}

int count_failed(const struct options *o, const struct target *tg,
		 const struct evlist *el, enum run_outcome outcome,
		 const struct run_failure *f, char *msg, size_t len)
{
	switch (outcome) {
	case RUN_OPEN_FAILED:
		open_error(el, f->failed, f->err, o->argv != NULL, msg, len);
		return EXIT_PSTAT_FAILED;
	case RUN_EXEC_FAILED:
		return exec_failed(o->argv, f->err, msg, len);
	case RUN_FD_LIMIT:
		diagnose_fd_limit(f->counters, f->fds, f->fd_limit, msg, len);
		return EXIT_PSTAT_FAILED;
	case RUN_FAILED:
		if (f->err == EMFILE) {
			out_of_fds(el, tg, msg, len);
			return EXIT_PSTAT_FAILED;
		}
		if (f->tasks) {
			snprintf(msg, len, "cannot map the ring buffer of --per-thread for %s: %s%s",
				 o->argv[0], strerror(f->err),
				 f->err == EPERM ? " (more than kernel.perf_event_mlock_kb allows each user: set PSTAT_RING_PAGES lower)" : "");
			return EXIT_PSTAT_FAILED;
		}
		snprintf(msg, len, "cannot count %s: %s",
			 o->argv ? o->argv[0] : tg->desc, strerror(f->err));
		return EXIT_PSTAT_FAILED;
	case RUN_DONE:
		break;
	}
	step_failed(f, msg, len);
	return EXIT_PSTAT_FAILED;
}

/* The first run's counters are open: the notes, then -v's lines. */
static void opened(void *arg, const struct evlist *el, const char *command)
{
	struct hook_arg *a = arg;

	notes_opened(a->argv, el, command);
	verbose_opened(el);
}

/* The clock is read for the progress line alone: only when it is on. */
static void run_started(void *arg, size_t run, size_t of)
{
	struct hook_arg *a = arg;

	if (progress_on(&a->progress))
		progress_started(&a->progress, run, of, progress_now());
}

/* Every second of a run: the time so far, on the progress line. */
static void tick(void *arg)
{
	struct hook_arg *a = arg;

	progress_tick(&a->progress, progress_now());
}

/* The progress line goes before a note can come. */
static void run_ended(void *arg, size_t run, size_t of, int status,
		      int signalled, bool left_out)
{
	struct hook_arg *a = arg;

	if (progress_on(&a->progress))
		progress_ended(&a->progress, progress_now());
	notes_run_ended(a->argv, run, of, status, signalled, left_out);
}

/*
 * -r N on a terminal, with human results: a progress line on stderr.
 * Never where a script reads stderr, nor into machine output; nor with
 * -I, whose intervals would come under it and whose run lines say it.
 */
static FILE *progress_stream(const struct options *o)
{
	return o->repeat > 1 && o->out.format == OUTPUT_HUMAN && !o->quiet &&
	       !o->interval_ms && isatty(STDERR_FILENO) ? diag_stream() : NULL;
}

/*
 * The runs ended as asked, or cut short by a signal (signal, 0 for
 * none) or --timeout: the exit status, and why when it is not the
 * command's.
 */
static int counted(const struct options *o, const struct output_run *info,
		   int signal, int close_ret)
{
	if (close_ret == -ENOMEM) {
		diag_errno(ENOMEM, "cannot print the results");
		return EXIT_PSTAT_FAILED;
	}
	if (close_ret < 0) {
		diag_errno(-close_ret, "cannot write the results to %s",
			   o->output_file ? o->output_file :
			   o->log_fd >= 0 ? "--log-fd" : "standard error");
		return EXIT_PSTAT_FAILED;
	}
	/* The user's signal, whenever it came: 128+N, as a shell gives for
	 * a program it ended. */
	if (signal)
		return 128 + signal;
	if (info->timed_out) {
		diag_notice("'%s' ran past --timeout %u ms and was stopped",
			    o->argv[0], o->timeout_ms);
		return EXIT_TIMEOUT;
	}
	return o->argv ? command_status(o->argv, info->status) : 0;
}

static int publish(void *dest)
{
	return dest_publish(dest);
}

/* Count, print, and say how it went: the exit status. */
static int run(const struct options *o, struct target *tg,
	       struct evlist *el, struct control *ctl, FILE *dest, int dest_fd,
	       const struct output_run *who)
{
	struct output_run info = {
		.argv = o->argv, .rank = who->rank, .host = who->host,
	};
	struct hook_arg arg = { .argv = o->argv };
	/* Notes come as the run goes: after the open, as runs end. */
	struct run_hooks hooks = {
		.opened = opened,
		.run_started = run_started,
		.run_ended = run_ended,
		.unmatched = notes_unmatched,
		.arg = &arg,
	};
	struct run_failure fail = { 0 };
	enum run_outcome outcome;
	struct results *res = NULL;
	struct output *out;
	char msg[2048];
	bool failed, late, shown;
	int ret = -1, close_ret, stalled;

	out = output_new(dest, &o->out);
	if (!out) {
		diag_errno(ENOMEM, "cannot allocate the output");
		return EXIT_PSTAT_FAILED;
	}
	/* -o's file of OpenMetrics: each exposition replaces it whole. */
	if (o->out.format == OUTPUT_OPENMETRICS)
		output_on_section(out, publish, dest);
	progress_init(&arg.progress, progress_stream(o));
	if (progress_on(&arg.progress)) {
		hooks.tick = tick;
		hooks.tick_fd = arg.progress.tick_fd;
	}
	/* The wall-clock start is in pstat's own formats alone. */
	if (own_format(o))
		clock_now(CLOCK_REALTIME, &info.start);
	outcome = run_command(o, tg, el, &res, out, &info, &hooks, ctl, &fail);
	progress_fini(&arg.progress);
	/* The user's signal is no failure: 128+N, whenever it came. */
	failed = outcome != RUN_DONE || (fail.step && !fail.signal);
	if (failed)
		ret = count_failed(o, tg, el, outcome, &fail, msg, sizeof(msg));
	/*
	 * A failure once something was counted (a run made, an interval
	 * printed) is late: the results of what was counted come whole,
	 * their run record saying what failed, then the failure.
	 */
	late = failed && res && (info.runs_done > 0 || output_started(out));
	if (late)
		info.error = msg;
	/* Stopped by a signal before anything was counted: nothing to show. */
	shown = (!failed || late) && !(fail.signal && info.runs_done == 0 &&
				       !output_started(out));
	/* Print before closing: the last close of a tracepoint is slow. */
	if (shown)
		output_final(out, res, &info);
	close_ret = output_close(out);
	/* A reader that stopped reading, and then a signal: pstat gave up
	 * on the results, and says nothing where they were to go. */
	stalled = close_ret < 0 ? dest_stalled() : 0;
	if (stalled)
		diag_quiet(true);
	/* After the results, which the notes are about. */
	if (shown && close_ret == 0) {
		notes_counted(res);
		notes_regions(info.regions);
		verbose_counted(res);
	}
	/* A stream of machine output carries nothing else: there, the
	 * exit status and the run record say it. */
	if (failed && !stalled &&
	    (!late || o->out.format == OUTPUT_HUMAN || !count_shares_stderr(dest_fd)))
		diag_error("%s", msg);
	if (stalled)
		ret = 128 + stalled;
	else if (!failed)
		ret = counted(o, &info, fail.signal, close_ret);
	/* Printed; the counters are exit's to close (evlist.h). */
	evlist_leave_to_exit(el);
	results_free(res);
	regions_free(info.regions);
	return ret;
}

/* The short host name (up to the first dot) in buf, or NULL. */
static const char *short_host(char *buf, size_t len)
{
	if (gethostname(buf, len) < 0)
		return NULL;
	buf[len - 1] = '\0';
	buf[strcspn(buf, ".")] = '\0';
	return buf;
}

/*
 * The rank the launcher gave (rank.h), and -o's name expanded into
 * path: 0, or -1 said once. A rank variable that says nothing sensible
 * stops pstat only where the rank is used: -o's name, --format.
 */
static int resolve_rank(struct options *o, struct rank_info *ri,
			char *host, size_t host_len, char **path)
{
	struct rank_names names = { 0 };
	char err[1024];
	bool needed;

	needed = rank_template_needs_rank(o->output_file) || own_format(o);
	/* No work at start-up that the command line does not ask for. */
	*ri = (struct rank_info){ .rank = -1, .local_rank = -1, .size = -1 };
	host[0] = '\0';
	if (!needed && !(o->output_file && strchr(o->output_file, '%')))
		return 0;
	names.pid = (long)getpid();
	names.host = short_host(host, host_len);
	if (rank_detect(ri, environ, err, sizeof(err)) < 0 && needed) {
		diag_error("%s", err);
		return -1;
	}
	if (!o->output_file)
		return 0;
	*path = malloc(PATH_MAX);
	if (!*path) {
		diag_errno(ENOMEM, "cannot allocate -o's file name");
		return -1;
	}
	if (rank_expand(o->output_file, ri, &names, *path, PATH_MAX, err,
			sizeof(err)) < 0) {
		diag_error("%s", err);
		return -1;
	}
	o->output_file = *path;
	return 0;
}

/* -M's words that are perf 6.1's names of renamed metrics: said. */
static void renamed_metrics(const struct metricgroup *mg)
{
	const char *from, *to;
	size_t i;

	for (i = 0; metricgroup_renamed(mg, i, &from, &to); i++)
		diag_note("-M %s: perf 6.1's name, counted as %s, its name in perf 6.12's tables",
			  from, to);
}

/* The command gets pstat's environment, not the caller's: say so. */
static void environ_lost(const struct options *o, int err)
{
	if (err < 0 && o->argv)
		diag_note("'%s' gets pstat's environment, without the variables "
			  "the C library leaves out for a program with "
			  "privileges: /proc/self/stat: %s", o->argv[0],
			  strerror(-err));
}

/* --control's channel, opened; NULL and 0 when none was asked for. */
static int open_control(const struct options *o, struct control **ctl)
{
	struct control *c;
	char err[512];

	*ctl = NULL;
	if (!o->control)
		return 0;
	c = malloc(sizeof(*c));
	if (!c) {
		diag_errno(ENOMEM, "cannot allocate --control's channel");
		return -1;
	}
	/* options_parse took its syntax already. */
	if (control_parse(c, o->control, err, sizeof(err)) < 0 ||
	    control_open(c, err, sizeof(err)) < 0) {
		diag_error("%s", err);
		free(c);
		return -1;
	}
	*ctl = c;
	return 0;
}

/*
 * The cgroups of -G and --for-each-cgroup, or NULL without them. Not
 * on main's stack, which all else runs below: a path's worth, 4 KiB
 * that would push every later frame onto pages of its own, each a page
 * fault at start-up. 0, or -ENOMEM.
 */
static int new_cgroups(const struct options *o, struct cgroups **cg)
{
	*cg = NULL;
	if (!o->n_cgroups && !o->for_each_cgroup)
		return 0;
	*cg = malloc(sizeof(**cg));
	if (!*cg)
		return -ENOMEM;
	cgroups_init(*cg);
	return 0;
}

int count_run(struct options *o, int env_err)
{
	struct control *ctl = NULL;
	struct cgroups *cg = NULL;
	struct metricgroup *mg = NULL;
	struct evlist *el = NULL;
	struct target tg = { 0 };
	struct rank_info ri;
	FILE *dest;
	char err[256], host[256], *path = NULL;
	int ret, dest_fd;

	if (!(el = evlist_new()) || new_cgroups(o, &cg) < 0) {
		diag_errno(ENOMEM, "cannot allocate the event list");
		ret = EXIT_PSTAT_FAILED;
	} else if ((ret = count_events(o, el, cg, &mg)) < 0) {
		if (ret != -EINVAL)
			diag_errno(-ret, "cannot make the event list");
		ret = EXIT_PSTAT_FAILED;
	} else if ((ret = target_resolve(&tg, o, err, sizeof(err))) < 0) {
		if (ret == -EINVAL)
			diag_error("%s", err);
		else
			diag_errno(-ret, "cannot list what to count (its threads, CPUs and aggregates)");
		ret = EXIT_PSTAT_FAILED;
	} else if (resolve_rank(o, &ri, host, sizeof(host), &path) < 0 ||
		   open_control(o, &ctl) < 0 ||
		   !(dest = count_destination(o, &dest_fd))) {
		ret = EXIT_PSTAT_FAILED;
	} else {
		/* Machine output and notes never share a stream. */
		diag_quiet(o->quiet || (o->out.format != OUTPUT_HUMAN &&
					count_shares_stderr(dest_fd)));
		verbose_trace_opens();
		environ_lost(o, env_err);
		renamed_metrics(mg);
		o->out.mg = mg;
		/* --for-each-cgroup: each cgroup's events alike. */
		o->out.mg_block = mg && o->for_each_cgroup ?
				  evlist_count(el) / cgroups_named(o) : 0;
		o->out.tty = isatty(dest_fd);
		ret = run(o, &tg, el, ctl, dest, dest_fd,
			  &(struct output_run){ .rank = &ri,
						.host = host[0] ? host : NULL });
		if (dest_finish(dest) != 0 && ret != EXIT_PSTAT_FAILED &&
		    !dest_stalled()) {
			diag_errno(errno, "cannot write the results");
			ret = EXIT_PSTAT_FAILED;
		}
		if (dest_stalled() && !count_shares_stderr(dest_fd))
			diag_error("gave up writing the results to %s: its reader stopped reading, and %s came",
				   o->output_file ? o->output_file : "--log-fd",
				   output_signal_name(dest_stalled(), err,
						      sizeof(err)));
	}
	if (ctl)
		control_close(ctl);
	free(ctl);
	target_free(&tg);
	o->out.mg = NULL;
	metricgroup_free(mg);
	evlist_free(el);
	if (cg)
		cgroups_free(cg);
	free(cg);
	free(path);
	return ret;
}
