/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat: options to phases to exit status; the only place that exits. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aggr.h"
#include "caps.h"
#include "checkup.h"
#include "diag.h"
#include "diagnose.h"
#include "event_table.h"
#include "evlist.h"
#include "evparse.h"
#include "explain.h"
#include "list.h"
#include "merge.h"
#include "notes.h"
#include "options.h"
#include "output.h"
#include "rank.h"
#include "results.h"
#include "run.h"
#include "target.h"
#include "workload.h"

/* Exit statuses of env(1) and timeout(1). */
enum {
	EXIT_TIMEOUT = 124,
	EXIT_PSTAT_FAILED = 125,
	EXIT_CANNOT_RUN = 126,
	EXIT_NOT_FOUND = 127,
};

/* The reason; then the spec, if any, with a caret under the column. */
static void report_parse_error(const struct evparse_error *err)
{
	if (err->hint[0])
		diag_error("%s%s (%s)", err->where, err->reason, err->hint);
	else
		diag_error("%s%s", err->where, err->reason);
	if (err->spec) {
		diag_detail("-e %s", err->spec);
		diag_detail("   %*s^", (int)err->col, "");
	}
}

/*
 * An event file, read with the user's rights (caps.h). A pipe or a
 * terminal may keep pstat waiting for its writer; no command runs yet,
 * so Ctrl-C and the like end pstat there, as they would any program.
 */
static int event_file(const struct options *o, struct evlist *el,
		      const char *path, struct evparse_error *err)
{
	int ret;

	workload_unblock_signals();
	ret = evparse_file(el, path, caps_open_user, err);
	/* --explain reads them too, and keeps signals as they were. */
	if (o->action == OPTIONS_RUN)
		workload_block_signals();
	return ret;
}

/*
 * The -e lists and files (or perf's default set), then -d's. 0, -EINVAL
 * once said, or -errno.
 */
static int build_evlist(const struct options *o, struct evlist *el)
{
	struct evparse_error err;
	const char *set;
	size_t i;
	int level, ret = 0;

	if (o->null_run)
		return 0;
	if (o->n_events == 0)
		ret = evparse(el, event_table_default_set(), &err);
	for (i = 0; ret == 0 && i < o->n_events; i++)
		ret = o->events[i][0] == '@'
		      ? event_file(o, el, o->events[i] + 1, &err)
		      : evparse(el, o->events[i], &err);
	for (level = 1; ret == 0 && level <= o->detailed &&
	     (set = event_table_detailed_set(level)); level++)
		ret = evparse(el, set, &err);
	if (ret == -EINVAL) {
		report_parse_error(&err);
		evparse_error_fini(&err);
	}
	return ret;
}

/* One message per failure, worded by its cause (diagnose.c). */
static void report_open_error(const struct evlist *el, size_t i, int err)
{
	const struct evsel *e = evlist_at(el, i);
	const struct evsel *leader = evlist_open_leader(el, i);
	struct diagnose_failure f = {
		.event = evsel_name(e),
		.attr = evsel_attr(e),
		.err = err,
		.leader = leader ? evsel_name(leader) : NULL,
	};
	struct diagnose_facts s;
	char msg[2048];

	evsel_failed_on(e, &f.pid, &f.cpu);
	diagnose_gather(&s, DIAGNOSE_OPEN, f.pid);
	diagnose_open_error(&f, &s, msg, sizeof(msg));
	diag_error("%s", msg);
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
 * Where the results go: stderr, -o FILE or --log-fd. NULL, said once,
 * when it cannot be opened.
 */
static FILE *open_destination(const struct options *o)
{
	FILE *f;
	int fd;

	if (o->output_file) {
		/* With the user's rights, whatever pstat's own (caps.h). */
		fd = caps_open_user(o->output_file, O_WRONLY | O_CREAT |
				    O_CLOEXEC | (o->append ? O_APPEND : O_TRUNC),
				    0666);
		f = fd >= 0 ? fdopen(fd, o->append ? "a" : "w") : NULL;
		if (!f && errno == ENOENT)
			diag_error("cannot write to '%s': its directory does not exist (pstat creates none: mkdir -p it first)",
				   o->output_file);
		else if (!f)
			diag_error("cannot write to '%s': %s", o->output_file,
				   strerror(errno));
		return f;
	}
	if (o->log_fd >= 0) {
		f = fdopen(o->log_fd, "a");
		if (!f)
			diag_error("cannot write to descriptor %d (--log-fd): %s",
				   o->log_fd, strerror(errno));
		return f;
	}
	return stderr;
}

/* Whether f writes where pstat's own messages go: stderr's file. */
static bool shares_stderr(FILE *f)
{
	struct stat a, b;

	if (f == stderr)
		return true;
	return fstat(fileno(f), &a) == 0 && fstat(STDERR_FILENO, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Count, print, and say how it went: the exit status. */
static int run(const struct options *o, struct target *tg,
	       struct evlist *el, FILE *dest, const struct output_run *who)
{
	struct output_run info = {
		.argv = o->argv, .rank = who->rank, .host = who->host,
	};
	/* Notes come as the run goes: after the open, as runs end. */
	const struct run_hooks hooks = {
		.opened = notes_opened,
		.run_ended = notes_run_ended,
		.arg = o->argv,
	};
	struct run_failure fail = { 0 };
	enum run_outcome outcome;
	struct results *res;
	struct output *out;
	char msg[512];
	int ret = -1, close_ret;

	res = results_new(el, o->no_merge, o->repeat,
			  tg->aggr.kind != AGGR_GLOBAL ? &tg->aggr : NULL);
	out = res ? output_new(dest, &o->out) : NULL;
	if (!out) {
		results_free(res);
		diag_error("%s", strerror(ENOMEM));
		return EXIT_PSTAT_FAILED;
	}
	res->no_scale = o->no_scale;
	(void)clock_gettime(CLOCK_REALTIME, &info.start);
	outcome = run_command(o, tg, el, res, out, &info, &hooks, &fail);
	if (outcome == RUN_OPEN_FAILED) {
		report_open_error(el, fail.failed, fail.err);
		ret = EXIT_PSTAT_FAILED;
	} else if (outcome == RUN_EXEC_FAILED) {
		ret = exec_failed(o->argv, fail.err);
	} else if (outcome == RUN_FD_LIMIT) {
		diagnose_fd_limit(fail.counters, fail.fds, fail.fd_limit, msg,
				  sizeof(msg));
		diag_error("%s", msg);
		ret = EXIT_PSTAT_FAILED;
	} else if (outcome == RUN_FAILED) {
		diag_error("cannot count %s: %s",
			   o->argv ? o->argv[0] : tg->desc,
			   strerror(fail.err));
		ret = EXIT_PSTAT_FAILED;
	} else {
		/* Print before closing: the last close of a tracepoint is slow. */
		output_final(out, res, &info);
	}
	close_ret = output_close(out);
	/* After the results, which the note is about. */
	if (ret < 0 && close_ret == 0)
		notes_counted(res);
	if (close_ret == -ENOMEM && ret < 0) {
		diag_error("cannot print the results: %s", strerror(ENOMEM));
		ret = EXIT_PSTAT_FAILED;
	} else if (close_ret < 0 && ret < 0) {
		diag_error("cannot write the results to %s: %s",
			   o->output_file ? o->output_file :
			   o->log_fd >= 0 ? "--log-fd" : "standard error",
			   strerror(-close_ret));
		ret = EXIT_PSTAT_FAILED;
	}
	if (ret < 0 && info.timed_out) {
		diag_notice("'%s' ran past --timeout %u ms and was stopped",
			   o->argv[0], o->timeout_ms);
		ret = EXIT_TIMEOUT;
	} else if (ret < 0) {
		ret = o->argv ? command_status(o->argv, info.status) : 0;
	}
	evlist_close(el);
	results_free(res);
	return ret;
}

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
	diag_error("cannot print %s: %s", what, strerror(-ret));
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
	struct target tg = { 0 };
	char err[256];
	int ret;

	if (!el) {
		diag_error("%s", strerror(ENOMEM));
		return EXIT_PSTAT_FAILED;
	}
	ret = build_evlist(o, el);
	if (ret < 0 && ret != -EINVAL)
		diag_error("%s", strerror(-ret));
	if (ret == 0 && (ret = target_resolve(&tg, o, err, sizeof(err))) < 0)
		diag_error("%s", err[0] ? err : strerror(-ret));
	if (ret == 0) {
		evlist_configure(el, &tg);
		ret = printed(explain_print(stdout, el), "the events");
	} else {
		ret = EXIT_PSTAT_FAILED;
	}
	target_free(&tg);
	evlist_free(el);
	return ret;
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
	int ret;

	ret = merge_read(&m, o->merge_files, o->n_merge_files, err,
			 sizeof(err));
	if (ret < 0) {
		diag_error("%s", ret == -EINVAL ? err : strerror(-ret));
		merge_free(&m);
		return EXIT_PSTAT_FAILED;
	}
	dest = o->output_file || o->log_fd >= 0 ? open_destination(o)
						 : stdout;
	ret = dest ? merge_print(dest, &m, o->out.format) : -1;
	if (dest && dest != stdout && fclose(dest) != 0 && ret == 0)
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

static char stderr_buf[BUFSIZ];

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
			char *host, size_t host_len, char *path,
			size_t path_len)
{
	struct rank_names names = { .pid = (long)getpid() };
	char err[1024];
	bool needed;

	needed = rank_template_needs_rank(o->output_file) ||
		 o->out.format == OUTPUT_PSTAT_CSV ||
		 o->out.format == OUTPUT_PSTAT_JSON;
	/* No work at start-up that the command line does not ask for. */
	*ri = (struct rank_info){ .rank = -1, .local_rank = -1, .size = -1 };
	host[0] = '\0';
	if (!needed && !(o->output_file && strchr(o->output_file, '%')))
		return 0;
	names.host = short_host(host, host_len);
	if (rank_detect(ri, environ, err, sizeof(err)) < 0 && needed) {
		diag_error("%s", err);
		return -1;
	}
	if (!o->output_file)
		return 0;
	if (rank_expand(o->output_file, ri, &names, path, path_len, err,
			sizeof(err)) < 0) {
		diag_error("%s", err);
		return -1;
	}
	o->output_file = path;
	return 0;
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

int main(int argc, char **argv)
{
	struct options o;
	struct evlist *el = NULL;
	struct target tg = { 0 };
	struct rank_info ri;
	FILE *dest;
	char err[256], host[256], path[4096];
	int ret, env_err;

	/*
	 * First: from here on a signal waits to be passed on to the
	 * command, a closed stderr gives EPIPE and 125, not a silent
	 * death, and what the caller gave pstat is kept for the command.
	 */
	env_err = workload_init();

	/*
	 * Results go to stderr by default, which stdio leaves unbuffered:
	 * a write(2) a field. Buffer it; diag and each printed section
	 * flush, so nothing comes late or out of order.
	 */
	(void)setvbuf(stderr, stderr_buf, _IOFBF, sizeof(stderr_buf));
	ret = options_parse(&o, argc, argv, err, sizeof(err));
	/* What counts nothing lets signals do what they would. */
	if (ret < 0 || o.action != OPTIONS_RUN)
		workload_unblock_signals();
	if (ret < 0) {
		diag_error("%s", ret == -EINVAL ? err : strerror(-ret));
		ret = EXIT_PSTAT_FAILED;
	} else if (o.action == OPTIONS_HELP) {
		options_usage(stdout);
		ret = printed(flushed(), "the help");
	} else if (o.action == OPTIONS_VERSION) {
		printf("pstat %s\n", PACKAGE_VERSION);
		ret = printed(flushed(), "the version");
	} else if (o.action == OPTIONS_EXPLAIN) {
		ret = explain(&o);
	} else if (o.action == OPTIONS_CHECK) {
		ret = printed(checkup_print(stdout, o.json), "the report");
	} else if (o.action == OPTIONS_LIST) {
		ret = printed(list_print(stdout, o.list_filter, o.json),
			      "the list of events");
	} else if (o.action == OPTIONS_MERGE) {
		ret = merge(&o);
	} else if (!(el = evlist_new())) {
		diag_error("%s", strerror(ENOMEM));
		ret = EXIT_PSTAT_FAILED;
	} else if ((ret = build_evlist(&o, el)) < 0) {
		if (ret != -EINVAL)
			diag_error("%s", strerror(-ret));
		ret = EXIT_PSTAT_FAILED;
	} else if (target_resolve(&tg, &o, err, sizeof(err)) < 0) {
		diag_error("%s", err[0] ? err : strerror(ENOMEM));
		ret = EXIT_PSTAT_FAILED;
	} else if (resolve_rank(&o, &ri, host, sizeof(host), path,
				sizeof(path)) < 0 ||
		   !(dest = open_destination(&o))) {
		ret = EXIT_PSTAT_FAILED;
	} else {
		/* Machine output and notes never share a stream. */
		diag_quiet(o.out.format != OUTPUT_HUMAN && shares_stderr(dest));
		environ_lost(&o, env_err);
		ret = run(&o, &tg, el, dest,
			  &(struct output_run){ .rank = &ri,
						.host = host[0] ? host : NULL });
		if (dest != stderr && fclose(dest) != 0 &&
		    ret != EXIT_PSTAT_FAILED) {
			diag_error("cannot write the results: %s",
				   strerror(errno));
			ret = EXIT_PSTAT_FAILED;
		}
	}
	target_free(&tg);
	evlist_free(el);
	options_free(&o);
	return ret;
}
