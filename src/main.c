/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pstat: options to phases to exit status; the only place that exits. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caps.h"
#include "checkup.h"
#include "diag.h"
#include "diagnose.h"
#include "evlist.h"
#include "evparse.h"
#include "run.h"
#include "target.h"
#include "explain.h"
#include "list.h"
#include "notes.h"
#include "options.h"
#include "output.h"

/* Exit statuses of env(1) and timeout(1). */
enum {
	EXIT_TIMEOUT = 124,
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

/*
 * An event file as one spec: its lines joined by commas, so that a list
 * or a group may go on over lines; each line's start in the spec, to
 * name the line an error is on.
 */
struct event_file {
	char *spec;
	size_t len, cap;
	struct event_file_line {
		size_t at;		/* where it starts in spec */
		size_t lineno;
	} *lines;
	size_t n_lines;
};

static int event_file_add(struct event_file *ef, const char *text,
			  size_t lineno)
{
	size_t n = strlen(text);
	bool joined = ef->len && ef->spec[ef->len - 1] != '{' && text[0] != '}';
	struct event_file_line *lines;
	char *spec;

	if (ef->len + n + 2 > ef->cap) {
		ef->cap = 2 * (ef->len + n + 2);
		spec = realloc(ef->spec, ef->cap);
		if (!spec)
			return -ENOMEM;
		ef->spec = spec;
	}
	lines = realloc(ef->lines, (ef->n_lines + 1) * sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	ef->lines = lines;
	if (joined)
		ef->spec[ef->len++] = ',';
	lines[ef->n_lines++] = (struct event_file_line){ ef->len, lineno };
	memcpy(ef->spec + ef->len, text, n + 1);
	ef->len += n;
	return 0;
}

/* The error at col of the joined spec, said of the line it is on. */
static void report_file_error(const char *path, const struct event_file *ef,
			      struct evparse_error *err)
{
	size_t i = ef->n_lines - 1, end;
	char where[300];
	char *line;

	while (i > 0 && ef->lines[i].at > err->col)
		i--;
	end = i + 1 < ef->n_lines ? ef->lines[i + 1].at : ef->len;
	/* Not the comma that joined it to the next line. */
	if (i + 1 < ef->n_lines && ef->spec[end - 1] == ',')
		end--;
	line = strndup(ef->spec + ef->lines[i].at, end - ef->lines[i].at);
	err->col = err->col > ef->lines[i].at + (end - ef->lines[i].at)
		   ? end - ef->lines[i].at : err->col - ef->lines[i].at;
	snprintf(where, sizeof(where), "%s:%zu: ", path, ef->lines[i].lineno);
	report_spec_error(where, line ? line : "", err);
	free(line);
}

/* -e @FILE: specs, # comments. 0, or -EINVAL once reported. */
static int parse_event_file(struct evlist *el, const char *path)
{
	struct event_file ef = { 0 };
	struct evparse_error err;
	char *line = NULL, *spec;
	size_t cap = 0, lineno = 0;
	int ret = 0;
	/* Its lines end up in messages: read it as the user would. */
	int fd = caps_open_user(path, O_RDONLY | O_CLOEXEC, 0);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!f) {
		diag_error("cannot read the event file '%s': %s", path,
			   strerror(errno));
		return -EINVAL;
	}
	while (ret == 0 && getline(&line, &cap, f) >= 0) {
		spec = event_line(line);
		lineno++;
		if (spec)
			ret = event_file_add(&ef, spec, lineno);
	}
	if (ret == 0 && ferror(f)) {
		diag_error("cannot read the event file '%s': %s", path,
			   strerror(errno));
		ret = -EINVAL;
	} else if (ret == 0 && !ef.n_lines) {
		diag_error("the event file '%s' names no events", path);
		ret = -EINVAL;
	}
	if (ret == 0)
		ret = evparse(el, ef.spec, &err);
	if (ret == -EINVAL && ef.n_lines && !ferror(f))
		report_file_error(path, &ef, &err);
	free(line);
	free(ef.spec);
	free(ef.lines);
	fclose(f);
	return ret;
}

/* perf stat's -d, -dd and -ddd: each adds to the one before. */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	 "iTLB-loads,iTLB-load-misses"),
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* The -e lists (or perf's default set), then -d's. 0 or -errno. */
static int build_evlist(const struct options *o, struct evlist *el)
{
	struct evparse_error err;
	size_t i;
	int ret = 0;

	if (o->null_run)
		return 0;
	if (o->n_events == 0)
		ret = evparse(el, default_events, &err);
	for (i = 0; ret == 0 && i < o->n_events; i++) {
		if (o->events[i][0] == '@') {
			ret = parse_event_file(el, o->events[i] + 1);
		} else {
			ret = evparse(el, o->events[i], &err);
			if (ret == -EINVAL)
				report_spec_error("", o->events[i], &err);
		}
	}
	for (i = 0; ret == 0 && i < (size_t)o->detailed && i < 3; i++)
		ret = evparse(el, detailed_events[i], &err);
	return ret;
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

/* One message per failure, worded by its cause (diagnose.c). */
static void report_open_error(const struct evlist *el, size_t i, int err)
{
	const struct evsel *e = evlist_at_const(el, i);
	const struct evsel *leader = opened_leader(el, i);
	const struct diagnose_failure f = {
		.event = e->name,
		.attr = &e->attr,
		.err = err,
		.pid = e->err_pid,
		.cpu = e->err_cpu,
		.leader = leader ? leader->name : NULL,
	};
	struct diagnose_facts s;
	char msg[2048];

	diagnose_gather(&s, DIAGNOSE_OPEN, e->err_pid);
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
		if (!f)
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
	       struct evlist *el, FILE *dest)
{
	struct output_run info = { .argv = o->argv };
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
			  tg->has_aggr ? &tg->aggr : NULL);
	out = res ? output_new(dest, &o->out) : NULL;
	if (!out) {
		results_free(res);
		diag_error("%s", strerror(ENOMEM));
		return EXIT_PSTAT_FAILED;
	}
	res->no_scale = o->no_scale;
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
	if (close_ret < 0 && ret < 0) {
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

static char stderr_buf[BUFSIZ];

int main(int argc, char **argv)
{
	struct options o;
	struct evlist *el = NULL;
	struct target tg = { 0 };
	FILE *dest;
	char err[256];
	int ret;

	/* A closed stderr must give EPIPE and 125, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Results go to stderr by default, which stdio leaves unbuffered:
	 * a write(2) a field. Buffer it; diag and each printed section
	 * flush, so nothing comes late or out of order.
	 */
	setvbuf(stderr, stderr_buf, _IOFBF, sizeof(stderr_buf));
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
	} else if (o.action == OPTIONS_CHECK) {
		ret = checkup_print(stdout, o.json);
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
	} else if (target_resolve(&tg, &o, err, sizeof(err)) < 0) {
		diag_error("%s", err[0] ? err : strerror(ENOMEM));
		ret = EXIT_PSTAT_FAILED;
	} else if (!(dest = open_destination(&o))) {
		ret = EXIT_PSTAT_FAILED;
	} else {
		/* Machine output and notes never share a stream. */
		diag_quiet(o.out.format != OUTPUT_HUMAN && shares_stderr(dest));
		ret = run(&o, &tg, el, dest);
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
