/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The writers: events whose names, units, PMU instances and thread
 * names are any bytes, read from a fake kernel, printed in every format
 * (human, -x with any separator, -j, --format=csv, --format=json) with
 * the input's options, in C or a German locale, and read back: CSV of
 * the right shape with RFC 4180 quoting and every name as it was; JSON
 * that a strict reader takes, with every string as given, ill-formed
 * UTF-8 as U+FFFD.
 */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "aggr.h"
#include "evlist.h"
#include "evsel.h"
#include "options.h"
#include "output.h"
#include "results.h"
#include "sys.h"
#include "target.h"

#include "csvread.h"
#include "fuzz.h"
#include "jsonread.h"

#define MAX_EVENTS 6
#define MAX_TARGETS 3
#define MAX_WORDS 6
#define MAX_FDS 256
#define FIRST_FD 1000
#define FIRST_PID 1001
#define COMMAND_PID 4242

#define SW PERF_TYPE_SOFTWARE
#define HW PERF_TYPE_HARDWARE
#define CACHE(c, op, res) PERF_TYPE_HW_CACHE, \
	(PERF_COUNT_HW_CACHE_##c | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 (uint64_t)PERF_COUNT_HW_CACHE_RESULT_##res << 16)

/* What an event may be: the kinds metrics tell apart, and others. */
static const struct kind {
	uint32_t type;
	uint64_t config;
} kinds[] = {
	{ SW, PERF_COUNT_SW_TASK_CLOCK },
	{ SW, PERF_COUNT_SW_CPU_CLOCK },
	{ SW, PERF_COUNT_SW_PAGE_FAULTS },
	{ SW, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ SW, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ HW, PERF_COUNT_HW_CPU_CYCLES },
	{ HW, PERF_COUNT_HW_INSTRUCTIONS },
	{ HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ HW, PERF_COUNT_HW_BRANCH_MISSES },
	{ HW, PERF_COUNT_HW_CACHE_REFERENCES },
	{ HW, PERF_COUNT_HW_CACHE_MISSES },
	{ HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ CACHE(L1D, READ, ACCESS) },
	{ CACHE(L1D, READ, MISS) },
	{ CACHE(LL, READ, ACCESS) },
	{ CACHE(LL, READ, MISS) },
	{ CACHE(DTLB, READ, ACCESS) },
	{ CACHE(DTLB, READ, MISS) },
	{ PERF_TYPE_TRACEPOINT, 123 },
	{ PERF_TYPE_RAW, 0x1a8 },
	{ 9, 0 },		/* a PMU of its own, as msr */
};

/* sysfs .scale values: usual ones, and what strtod makes of others. */
static const double scales[] = {
	1.0, 1.0, 1.0, 1.0, 0.5, 2.3283064365386962890625e-10, 1e-3,
	6.103515625e-5, 1e6, 1e30, DBL_MAX, -1.0, -2.5, 0.0,
	INFINITY, -INFINITY, NAN,
};

static const double elapsed[] = { 1707000.0, 1e9, 0.0, 3.5e12, 1e-3 };

/* One event, as the input describes it. */
struct event {
	const struct kind *kind;
	bool unsupported;	/* the kernel has no such event: ENOENT */
	bool kernel_refused;	/* EACCES unless user space only */
	bool member;		/* in the group of the event before it */
	bool has_modifiers;
	bool merge_cont;	/* another instance of the PMU before it */
	double scale;
	int mux;		/* 0 exact, 1 multiplexed, 2 never ran, 3
				 * never enabled */
	bool falling;		/* readings that go down, which deltas
				 * must survive */
	uint64_t base, enabled;
	char *name, *unit, *instance;
};

struct run_in {
	struct event ev[MAX_EVENTS];
	size_t n_events;
	unsigned int flags;
	int aggr;		/* 0 the command, 1 threads, 2 CPUs, 3 -A,
				 * 4.. --per-core, die, socket, node */
	size_t n_targets;
	size_t passes;		/* runs, or intervals */
	char *sep;
	char *comm[MAX_TARGETS];
	char *words[MAX_WORDS + 1];
	struct output_run run;
};

enum {
	F_METRIC_ONLY = 1, F_INTERVAL = 2, F_SUMMARY = 4,
	F_NO_CSV_SUMMARY = 8, F_NO_BIG_NUM = 16, F_NO_SCALE = 32,
	F_NO_MERGE = 64, F_GERMAN = 128,
};

/* The fake kernel: a counter per open, read as the kernel lays it out. */
static struct fake_fd {
	int ev, target, group_fd;
	bool closed;
} fds[MAX_FDS];
static int n_fds;
static const struct run_in *kernel_in;
static size_t step;

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	int ev = (int)(attr->config1 >> 32) - 1;
	const struct event *e = &kernel_in->ev[ev];

	FUZZ_CHECK(ev >= 0 && (size_t)ev < kernel_in->n_events,
		   "an open of no event: %d", ev);
	if (e->unsupported)
		return -ENOENT;
	if (e->kernel_refused && !attr->exclude_kernel && pid != -1)
		return -EACCES;
	FUZZ_CHECK(n_fds < MAX_FDS, "too many opens");
	FUZZ_CHECK(group_fd == -1 || (group_fd >= FIRST_FD &&
				      group_fd < FIRST_FD + n_fds),
		   "group_fd %d", group_fd);
	fds[n_fds] = (struct fake_fd){
		.ev = ev,
		.target = pid > 0 && pid != COMMAND_PID ? pid - FIRST_PID
						       : cpu >= 0 ? cpu : 0,
		.group_fd = group_fd,
	};
	return FIRST_FD + n_fds++;
}

static struct fake_fd *fake_fd(int fd)
{
	FUZZ_CHECK(fd >= FIRST_FD && fd < FIRST_FD + n_fds &&
		   !fds[fd - FIRST_FD].closed, "fd %d is not open", fd);
	return &fds[fd - FIRST_FD];
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	fake_fd(fd);
	if (request == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = (uint64_t)fd * 7;
		return 0;
	}
	return 0;
}

static uint64_t reading(const struct event *e, size_t t, uint64_t v)
{
	uint64_t times = e->falling ? 3 - step : step + 1;

	return v * times + t;
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	const struct fake_fd *leader = fake_fd(fd);
	const struct event *e = &kernel_in->ev[leader->ev];
	uint64_t out[3 + 2 * MAX_FDS];
	size_t nr = 0, n;
	int i;

	FUZZ_CHECK(leader->group_fd == -1, "a read of a member");
	out[1] = reading(e, 0, e->enabled);
	out[2] = e->mux == 0 ? out[1] : e->mux == 1 ? out[1] / 2 : 0;
	if (e->mux == 3)
		out[1] = 0;
	for (i = 0; i < n_fds; i++) {
		if (fds[i].closed ||
		    (FIRST_FD + i != fd && fds[i].group_fd != fd))
			continue;
		out[3 + 2 * nr] = reading(&kernel_in->ev[fds[i].ev],
					  (size_t)fds[i].target,
					  kernel_in->ev[fds[i].ev].base);
		out[4 + 2 * nr++] = (uint64_t)(FIRST_FD + i) * 7;
	}
	out[0] = nr;
	n = (3 + 2 * nr) * sizeof(uint64_t);
	if (n > len)
		return -ENOSPC;
	memcpy(buf, out, n);
	return (ssize_t)n;
}

static int fake_close(int fd)
{
	fake_fd(fd)->closed = true;
	return 0;
}

static int fake_paranoid(int *level)
{
	*level = 2;
	return 0;
}

static const struct sys_ops fake_ops = {
	.perf_event_open = fake_open,
	.ioctl = fake_ioctl,
	.read = fake_read,
	.close = fake_close,
	.paranoid = fake_paranoid,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* Nothing in sysfs: no topology, no cpumask read from the machine. */
	fuzz_fake_sysfs(true);
	sys_set_ops(&fake_ops);
	return 0;
}

static void read_event(struct fuzz_in *in, struct event *e, size_t i)
{
	uint8_t flags = fuzz_byte(in), mode = fuzz_byte(in);

	e->kind = &kinds[fuzz_byte(in) % (sizeof(kinds) / sizeof(kinds[0]))];
	e->unsupported = flags & 1;
	e->kernel_refused = flags & 2;
	e->member = i > 0 && (flags & 4);
	e->has_modifiers = flags & 8;
	e->merge_cont = i > 0 && (flags & 16);
	e->scale = scales[fuzz_byte(in) % (sizeof(scales) / sizeof(scales[0]))];
	e->mux = mode & 3;
	e->falling = mode & 4;
	e->base = fuzz_uint(in, 4) << (mode >> 3);
	e->enabled = fuzz_uint(in, 4);
}

/* The input: options, events, then strings cut at NULs. */
static void read_input(struct fuzz_in *in, struct run_in *r)
{
	size_t i, n;
	uint8_t status;

	memset(r, 0, sizeof(*r));
	r->flags = fuzz_byte(in);
	r->aggr = fuzz_byte(in) % 8;
	r->n_events = 1 + fuzz_byte(in) % MAX_EVENTS;
	r->n_targets = 1 + fuzz_byte(in) % MAX_TARGETS;
	r->passes = 1 + fuzz_byte(in) % 3;
	status = fuzz_byte(in);
	r->run.elapsed_ns = elapsed[fuzz_byte(in) % 5];
	for (i = 0; i < r->n_events; i++)
		read_event(in, &r->ev[i], i);
	for (i = 0; i < r->n_events; i++) {
		r->ev[i].name = fuzz_str(in);
		r->ev[i].unit = fuzz_str(in);
		r->ev[i].instance = fuzz_str(in);
	}
	r->sep = fuzz_str(in);
	for (i = 0; i < r->n_targets; i++) {
		r->comm[i] = fuzz_str(in);
		/* As long as the kernel's comm may be. */
		r->comm[i][strnlen(r->comm[i], 15)] = '\0';
	}
	for (n = 0; n < MAX_WORDS && in->n; n++)
		r->words[n] = fuzz_str(in);
	r->run.argv = n ? r->words : NULL;
	r->run.target = n ? NULL : "'system wide'";
	r->run.user_s = 0.25;
	r->run.sys_s = 0.5;
	r->run.max_rss_kib = 1084;
	r->run.status = status & 0x80 ? (status & 0x7f ? status & 0x7f : 9)
				      : (status & 0x7f) << 8;
	if ((r->run.status & 0x7f) == 0x7f)
		r->run.status = 6;
	r->run.runs_done = r->flags & F_INTERVAL ? 1 : r->passes;
	r->run.interrupted = status & 0x40;
}

static void free_input(struct run_in *r)
{
	size_t i;

	for (i = 0; i < r->n_events; i++) {
		free(r->ev[i].name);
		free(r->ev[i].unit);
		free(r->ev[i].instance);
	}
	free(r->sep);
	for (i = 0; i < r->n_targets; i++)
		free(r->comm[i]);
	for (i = 0; r->words[i]; i++)
		free(r->words[i]);
}

/* The events, in their groups, with the names and units of the input. */
static struct evlist *build(const struct run_in *r)
{
	struct evlist *el = evlist_new();
	size_t i;

	FUZZ_CHECK(el, "no memory");
	for (i = 0; i < r->n_events; i++) {
		const struct event *e = &r->ev[i];
		struct evsel_desc d = {
			.name = e->name,
			.has_modifiers = e->has_modifiers,
			.instance = e->instance[0] ? e->instance : NULL,
			.merge_cont = e->merge_cont,
			.scale = e->scale,
			.unit = e->unit[0] ? e->unit : NULL,
		};
		bool leads = i + 1 < r->n_events && r->ev[i + 1].member;

		memset(&d.attr, 0, sizeof(d.attr));
		d.attr.size = sizeof(d.attr);
		d.attr.type = e->kind->type;
		d.attr.config = e->kind->config;
		/* Which event the fake kernel is asked to open. */
		d.attr.config1 = (uint64_t)(i + 1) << 32;
		if (!e->member && leads)
			evlist_group_begin(el);
		FUZZ_CHECK(evlist_add(el, &d) == 0, "evlist_add");
		if (e->member && !leads)
			evlist_group_end(el);
	}
	return el;
}

static enum aggr_kind aggr_kind(int aggr)
{
	static const enum aggr_kind kinds_of[] = {
		AGGR_GLOBAL, AGGR_THREAD, AGGR_GLOBAL, AGGR_CPU, AGGR_CORE,
		AGGR_DIE, AGGR_SOCKET, AGGR_NODE,
	};

	return kinds_of[aggr];
}

/* Threads FIRST_PID..., or CPUs 0..., or the command. */
static void make_target(const struct run_in *r, struct target *t, int *ids)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->n_targets; i++)
		ids[i] = r->aggr == 1 ? -(int)i - 1 : (int)i;
	if (r->aggr == 0) {
		static int command = COMMAND_PID;

		t->pids = &command;
		t->n_pids = 1;
		t->inherit = t->enable_on_exec = true;
	} else if (r->aggr == 1) {
		for (i = 0; i < r->n_targets; i++)
			ids[MAX_TARGETS + i] = FIRST_PID + (int)i;
		t->pids = ids + MAX_TARGETS;
		t->n_pids = r->n_targets;
	} else {
		t->cpus = ids;
		t->n_cpus = r->n_targets;
	}
	FUZZ_CHECK(aggr_build(&t->aggr, aggr_kind(r->aggr), ids,
			      r->aggr == 0 ? 0 : r->n_targets, false) == 0,
		   "aggr_build");
	for (i = 0; r->aggr == 1 && i < r->n_targets; i++)
		aggr_set_thread(&t->aggr, i, r->comm[i], FIRST_PID + (int)i);
}

/* pstat's argv for a format and the input's options. */
static int format_argv(const struct run_in *r, int format, char **argv)
{
	static char *const fmts[][2] = {
		{ NULL, NULL }, { "-x", NULL }, { "-j", NULL },
		{ "--format=csv", NULL }, { "--format=json", NULL },
	};
	static const char *const aggrs[][2] = {
		{ NULL, NULL }, { "-p1001", "--per-thread" }, { "-a", NULL },
		{ "-a", "-A" }, { "-a", "--per-core" }, { "-a", "--per-die" },
		{ "-a", "--per-socket" }, { "-a", "--per-node" },
	};
	static char runs[3][8] = { "-r1", "-r2", "-r3" };
	int argc = 0, i;

	argv[argc++] = "pstat";
	if (fmts[format][0])
		argv[argc++] = fmts[format][0];
	if (format == OUTPUT_CSV)
		argv[argc++] = r->sep;
	if (r->flags & F_METRIC_ONLY)
		argv[argc++] = "--metric-only";
	if (r->flags & F_INTERVAL) {
		argv[argc++] = "-I100";
		if (r->flags & F_SUMMARY)
			argv[argc++] = "--summary";
	} else {
		argv[argc++] = runs[r->passes - 1];
	}
	if (r->flags & F_NO_CSV_SUMMARY)
		argv[argc++] = "--no-csv-summary";
	if (r->flags & F_NO_BIG_NUM)
		argv[argc++] = "--no-big-num";
	if (r->flags & F_NO_SCALE)
		argv[argc++] = "--no-scale";
	if (r->flags & F_NO_MERGE)
		argv[argc++] = "--no-merge";
	for (i = 0; i < 2; i++)
		if (aggrs[r->aggr][i])
			argv[argc++] = (char *)aggrs[r->aggr][i];
	argv[argc++] = "--";
	argv[argc++] = "true";
	argv[argc] = NULL;
	return argc;
}

/* s as json.c writes it, decoded: ill-formed parts as U+FFFD. */
static char *utf8_fixed(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	char *out = malloc(3 * strlen(s) + 1), *o = out;
	size_t need, k;
	unsigned char lo, hi;

	FUZZ_CHECK(out, "no memory");
	while (*u) {
		need = *u < 0x80 ? 0 : *u >= 0xc2 && *u <= 0xdf ? 1 :
		       *u >= 0xe0 && *u <= 0xef ? 2 :
		       *u >= 0xf0 && *u <= 0xf4 ? 3 : 4;
		if (need == 0) {
			*o++ = (char)*u++;
			continue;
		}
		lo = *u == 0xe0 ? 0xa0 : *u == 0xf0 ? 0x90 : 0x80;
		hi = *u == 0xed ? 0x9f : *u == 0xf4 ? 0x8f : 0xbf;
		for (k = 0; need < 4 && k < need; k++, lo = 0x80, hi = 0xbf)
			if (u[1 + k] < lo || u[1 + k] > hi)
				break;
		if (need < 4 && k == need) {
			memcpy(o, u, need + 1);
			o += need + 1;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		}
		u += need < 4 ? 1 + k : 1;
	}
	*o = '\0';
	return out;
}

/* What the rows of the results are called, and where they count. */
struct expect {
	const struct run_in *in;
	const struct results *res;
	const struct options *o;
	size_t sections;	/* in the machine formats */
};

static const char *row_name(const struct expect *x, size_t i)
{
	return x->res->rows[i % x->res->n_rows].name;
}

static const char *row_unit(const struct expect *x, size_t i)
{
	return x->res->rows[i % x->res->n_rows].unit;
}

static const char *row_aggr(const struct expect *x, size_t i)
{
	const struct aggr *ag = x->res->aggr;

	return ag ? ag->label[x->res->rows[i % x->res->n_rows].aggr] : "";
}

/* A JSON string is s, as json.c promises to write it. */
static void check_json_string(const struct jr_value *v, const char *s,
			      const char *what)
{
	char *want = utf8_fixed(s);

	FUZZ_CHECK(v && v->type == JR_STRING, "%s '%s' is not a string", what,
		   s);
	FUZZ_CHECK(v->len == strlen(want) && memcmp(v->text, want, v->len) == 0,
		   "%s '%s' reads back as '%s'", what, s, v->text);
	free(want);
}

/*
 * perf's counter-value: a number (null when not finite, which a sysfs
 * .scale may make it), or why there is none.
 */
static void check_jsonl_value(const struct jr_value *v)
{
	const char *s = jr_string(v);

	FUZZ_CHECK(v && (v->type == JR_NUMBER || v->type == JR_NULL ||
			 (s && (strcmp(s, "<not counted>") == 0 ||
				strcmp(s, "<not supported>") == 0))),
		   "-j: counter-value '%s'", v && v->text ? v->text : "");
}

static void check_jsonl(const struct expect *x, const char *buf, size_t len)
{
	const char *line = buf, *end, *err;
	struct jr_value v;
	size_t at, rows = 0, n;

	FUZZ_CHECK(len == 0 || buf[len - 1] == '\n', "-j: no final newline");
	for (; line < buf + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(buf + len - line));
		n = (size_t)(end - line);
		FUZZ_CHECK(jr_parse(line, n, &v, &err, &at) == 0,
			   "-j: %s at %zu of '%.*s'", err, at, (int)n, line);
		FUZZ_CHECK(v.type == JR_OBJECT, "-j: a line is no object");
		if (!x->o->out.metric_only && jr_get(&v, "event")) {
			check_json_string(jr_get(&v, "event"),
					  row_name(x, rows), "-j: event");
			check_json_string(jr_get(&v, "unit"), row_unit(x, rows),
					  "-j: unit");
			check_jsonl_value(jr_get(&v, "counter-value"));
			rows++;
		} else if (!x->o->out.metric_only) {
			FUZZ_CHECK(jr_get(&v, "metric-value"),
				   "-j: a line without an event or a metric");
		}
		jr_free(&v);
	}
	if (!x->o->out.metric_only)
		FUZZ_CHECK(rows == x->sections * x->res->n_rows,
			   "-j: %zu rows, want %zu", rows,
			   x->sections * x->res->n_rows);
}

/* A value with its status: a number when counted (or null, as above),
 * else null. */
static void check_pjson_value(const struct jr_value *e)
{
	static const char *const states[] = {
		"counted", "scaled", "not-counted", "not-supported",
	};
	const struct jr_value *v = jr_get(e, "value");
	const char *status = jr_string(jr_get(e, "status"));
	size_t i;

	for (i = 0; status && i < 4 && strcmp(status, states[i]); i++)
		;
	FUZZ_CHECK(status && i < 4, "--format=json: status '%s'",
		   status ? status : "(none)");
	FUZZ_CHECK(v && (v->type == JR_NULL || (i < 2 && v->type == JR_NUMBER)),
		   "--format=json: %s, value '%s'", status,
		   v && v->text ? v->text : "null");
}

static void check_pjson_events(const struct expect *x,
			       const struct jr_value *events, size_t *rows)
{
	const struct jr_value *e;
	size_t i;

	FUZZ_CHECK(events && events->type == JR_ARRAY,
		   "--format=json: no events");
	for (i = 0; i < events->n; i++, (*rows)++) {
		e = &events->items[i];
		check_json_string(jr_get(e, "event"), row_name(x, *rows),
				  "--format=json: event");
		check_json_string(jr_get(e, "unit"), row_unit(x, *rows),
				  "--format=json: unit");
		check_pjson_value(e);
		if (x->res->aggr)
			check_json_string(jr_get(e, "aggregate"),
					  row_aggr(x, *rows),
					  "--format=json: aggregate");
	}
}

static void check_pjson(const struct expect *x, const char *buf, size_t len)
{
	const struct jr_value *intervals, *cmd;
	struct jr_value v;
	const char *err;
	size_t at, rows = 0, i, n_words = 0;

	FUZZ_CHECK(jr_parse(buf, len, &v, &err, &at) == 0,
		   "--format=json: %s at %zu of:\n%.*s", err, at, (int)len,
		   buf);
	FUZZ_CHECK(jr_string(jr_get(&v, "format")) &&
		   strcmp(jr_string(jr_get(&v, "format")), "pstat") == 0,
		   "--format=json: not pstat's");
	intervals = jr_get(&v, "intervals");
	FUZZ_CHECK(intervals && intervals->type == JR_ARRAY,
		   "--format=json: no intervals");
	for (i = 0; i < intervals->n; i++)
		check_pjson_events(x, jr_get(&intervals->items[i], "events"),
				   &rows);
	check_pjson_events(x, jr_get(&v, "events"), &rows);
	FUZZ_CHECK(rows == x->sections * x->res->n_rows,
		   "--format=json: %zu rows, want %zu", rows,
		   x->sections * x->res->n_rows);
	cmd = jr_get(jr_get(&v, "run"), "command");
	FUZZ_CHECK(cmd && cmd->type == JR_ARRAY, "--format=json: no command");
	for (; x->in->run.argv && x->in->run.argv[n_words]; n_words++)
		;
	FUZZ_CHECK(cmd->n == n_words, "--format=json: %zu words, want %zu",
		   cmd->n, n_words);
	for (i = 0; i < cmd->n; i++)
		check_json_string(&cmd->items[i], x->in->run.argv[i],
				  "--format=json: command word");
	jr_free(&v);
}

static void parse_csv(const char *buf, size_t len, const char *sep,
		      struct csv *c, const char *what)
{
	const char *err;
	size_t at;

	FUZZ_CHECK(csv_parse(buf, len, sep, c, &err, &at) == 0,
		   "%s: %s at %zu of:\n%.*s", what, err, at, (int)len, buf);
}

static char *joined(char *const *argv)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; argv && argv[i]; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	FUZZ_CHECK(s, "no memory");
	for (i = 0; argv && argv[i]; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* The fields of a --format=csv row: 16, the metric's 9 since, and the
 * region (--regions; empty here, where there are none). */
#define PCSV_FIELDS 26

static void check_pcsv(const struct expect *x, const char *buf, size_t len)
{
	static const char *const records[] = { "total", "interval", "metric",
					       "run" };
	struct csv c;
	size_t i, k, rows = 0;
	char *cmd = joined(x->in->run.argv);

	parse_csv(buf, len, ",", &c, "--format=csv");
	FUZZ_CHECK(c.n > 0 && c.records[0].n == PCSV_FIELDS &&
		   strcmp(c.records[0].fields[0], "record") == 0,
		   "--format=csv: no header");
	for (i = 1; i < c.n; i++) {
		char **f = c.records[i].fields;

		FUZZ_CHECK(c.records[i].n == PCSV_FIELDS,
			   "--format=csv: %zu fields in row %zu",
			   c.records[i].n, i);
		FUZZ_CHECK(!f[PCSV_FIELDS - 1][0],
			   "--format=csv: region '%s' in row %zu",
			   f[PCSV_FIELDS - 1], i);
		for (k = 0; k < 4 && strcmp(f[0], records[k]); k++)
			;
		FUZZ_CHECK(k < 4, "--format=csv: record '%s'", f[0]);
		if (k == 3) {
			if (strcmp(f[4], "command") == 0)
				FUZZ_CHECK(strcmp(f[5], cmd) == 0,
					   "--format=csv: command '%s'", f[5]);
			continue;
		}
		/* A metric row repeats its event's. */
		if (k < 2)
			rows++;
		FUZZ_CHECK(rows > 0 &&
			   strcmp(f[4], row_name(x, rows - 1)) == 0 &&
			   strcmp(f[2], row_aggr(x, rows - 1)) == 0,
			   "--format=csv: '%s' in '%s', not '%s' in '%s'", f[4],
			   f[2], row_name(x, rows - 1), row_aggr(x, rows - 1));
		if (k < 2)
			FUZZ_CHECK(strcmp(f[6], row_unit(x, rows - 1)) == 0,
				   "--format=csv: unit '%s', want '%s'", f[6],
				   row_unit(x, rows - 1));
	}
	FUZZ_CHECK(rows == x->sections * x->res->n_rows,
		   "--format=csv: %zu rows, want %zu", rows,
		   x->sections * x->res->n_rows);
	csv_free(&c);
	free(cmd);
}

/* -x: as many fields on every line, each name where it belongs. */
struct csv_shape {
	size_t interval_rows;	/* rows before the totals, which lead with
				 * their time */
	size_t lead_final;	/* the totals' "summary" field, or none */
	size_t before;		/* aggregate, and its CPUs */
	size_t fields;		/* the rest: value ... metric unit */
};

static size_t csv_lead(const struct csv_shape *s, size_t row)
{
	return row < s->interval_rows ? 1 : s->lead_final;
}

/* Whether f[0..n) is a row (true) or its second metric, led by lead. */
static bool csv_row_is(const struct csv_shape *s, char **f, size_t n,
		       size_t lead, bool row)
{
	return n == lead + s->before + s->fields &&
	       (f[lead + s->before][0] != '\0') == row;
}

static void check_csv(const struct expect *x, const char *buf, size_t len)
{
	const struct output_opts *o = &x->o->out;
	const struct aggr *ag = x->res->aggr;
	const struct csv_shape s = {
		.interval_rows = o->interval ? x->in->passes * x->res->n_rows
					     : 0,
		.lead_final = o->interval && !o->no_csv_summary,
		.before = (ag != NULL) + (ag && ag->kind != AGGR_CPU &&
					  ag->kind != AGGR_THREAD),
		.fields = 7 + (o->runs > 1),
	};
	size_t i, rows = 0, lead, n;
	struct csv c;
	char **f;

	parse_csv(buf, len, o->sep, &c, "-x");
	for (i = 0; i < c.n; i++) {
		f = c.records[i].fields;
		n = c.records[i].n;
		if (o->metric_only) {
			FUZZ_CHECK(n == c.records[0].n ||
				   (o->no_csv_summary &&
				    n + 1 == c.records[0].n),
				   "-x '%s': %zu fields on line %zu, %zu first",
				   o->sep, n, i, c.records[0].n);
			continue;
		}
		if (rows > 0 && csv_row_is(&s, f, n, csv_lead(&s, rows - 1),
					   false))
			continue;	/* a second metric of the row before */
		lead = csv_lead(&s, rows);
		FUZZ_CHECK(csv_row_is(&s, f, n, lead, true),
			   "-x '%s': %zu fields on line %zu, want %zu:\n%.*s",
			   o->sep, n, i, lead + s.before + s.fields, (int)len,
			   buf);
		f += lead;
		FUZZ_CHECK(strcmp(f[s.before + 2], row_name(x, rows)) == 0 &&
			   strcmp(f[s.before + 1], row_unit(x, rows)) == 0,
			   "-x '%s': event '%s' unit '%s', want '%s' '%s'",
			   o->sep, f[s.before + 2], f[s.before + 1],
			   row_name(x, rows), row_unit(x, rows));
		FUZZ_CHECK(!ag || strcmp(f[0], row_aggr(x, rows)) == 0,
			   "-x '%s': aggregate '%s', want '%s'", o->sep, f[0],
			   row_aggr(x, rows));
		rows++;
	}
	if (!o->metric_only)
		FUZZ_CHECK(rows == x->sections * x->res->n_rows,
			   "-x: %zu rows, want %zu", rows,
			   x->sections * x->res->n_rows);
	csv_free(&c);
}

/* The rows' names are the input's, as the kernel left them. */
static void check_names(const struct expect *x)
{
	size_t i;

	for (i = 0; i < x->res->n_rows; i++) {
		const struct results_row *row = &x->res->rows[i];
		const struct event *e = &x->in->ev[row->first];
		const char *name = row->name, *given;

		given = row->by_instance ? e->instance : e->name;
		FUZZ_CHECK(strncmp(name, given, strlen(given)) == 0,
			   "row %zu is '%s', given '%s'", i, name, given);
	}
}

/* Counted and printed in one format, then read back. */
static void print_format(const struct run_in *r, struct evlist *el,
			 const struct target *t, int format)
{
	char *argv[32], err[256], *buf = NULL;
	struct expect x = { .in = r };
	struct options o;
	struct results *res;
	struct output *out;
	size_t len = 0, p;
	FILE *f;
	int argc = format_argv(r, format, argv);

	if (options_parse(&o, argc, argv, err, sizeof(err)) < 0) {
		options_free(&o);
		return;		/* pstat would not print this */
	}
	res = results_new(el, o.no_merge, o.repeat,
			  t->aggr.kind != AGGR_GLOBAL ? &t->aggr : NULL);
	FUZZ_CHECK(res, "results_new");
	res->no_scale = o.no_scale;
	f = open_memstream(&buf, &len);
	FUZZ_CHECK(f, "open_memstream");
	out = output_new(f, &o.out);
	FUZZ_CHECK(out, "output_new");
	for (p = 0; p < r->passes; p++) {
		step = p;
		FUZZ_CHECK(evlist_read(el) == 0, "evlist_read");
		results_snapshot(res);
		if (o.out.interval) {
			output_interval(out, res, 0, 0.1 * (double)(p + 1), 1e8);
			results_next_interval(res);
		} else {
			results_end_run(res,
					r->run.elapsed_ns * (double)(p + 1));
		}
	}
	output_final(out, res, &r->run);
	FUZZ_CHECK(output_close(out) == 0, "output_close");
	FUZZ_CHECK(fclose(f) == 0, "fclose");
	FUZZ_CHECK(!memchr(buf, '\0', len), "a NUL in the output");
	x.res = res;
	x.o = &o;
	x.sections = o.out.interval ? r->passes : 0;
	if (!o.out.interval || o.out.summary || format >= OUTPUT_PSTAT_CSV)
		x.sections++;
	check_names(&x);
	if (format == OUTPUT_CSV)
		check_csv(&x, buf, len);
	else if (format == OUTPUT_JSONL)
		check_jsonl(&x, buf, len);
	else if (format == OUTPUT_PSTAT_CSV)
		check_pcsv(&x, buf, len);
	else if (format == OUTPUT_PSTAT_JSON)
		check_pjson(&x, buf, len);
	free(buf);
	results_free(res);
	options_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct run_in r;
	struct target t;
	struct evlist *el;
	int ids[2 * MAX_TARGETS], format;
	size_t failed;

	read_input(&in, &r);
	/* Only the human format may follow the locale. */
	setenv("LC_ALL", r.flags & F_GERMAN ? "de_DE.UTF-8" : "C", 1);
	kernel_in = &r;
	n_fds = 0;
	step = 0;
	el = build(&r);
	make_target(&r, &t, ids);
	FUZZ_CHECK(evlist_open(el, &t, &failed) == 0, "evlist_open");
	for (format = OUTPUT_HUMAN; format <= OUTPUT_PSTAT_JSON; format++)
		print_format(&r, el, &t, format);
	evlist_close(el);
	evlist_free(el);
	aggr_free(&t.aggr);
	free_input(&r);
	return 0;
}
