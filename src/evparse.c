/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event list grammar, `a,b:u,{c,d}:k`, into an evlist. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "event.h"
#include "event_table.h"
#include "evparse.h"
#include "pmu.h"
#include "topology.h"

/*
 *   spec    := item (',' item)*
 *   item    := '{' event (',' event)* '}' [':' mods] | event
 *   event   := 'mem:' addr ['/' len] [':' access] [':' mods]
 *            | pmu '/' terms '/' [[':'] mods]
 *            | name [':' mods]
 *            | system ':' tracepoint [':' mods]
 *
 * A name the tables know (hardware, software, cache, raw rNNNN) takes
 * modifiers after its colon; anything else before a colon is a
 * tracepoint system. Blanks may surround items, and commas between the
 * slashes of a PMU event are its own.
 */
struct parser {
	const char *s;
	size_t pos;
	struct evlist *el;
	struct evparse_error *err;
	bool in_group;
	size_t first;		/* evlist index of the term's first evsel */
};

static int __attribute__((format(printf, 4, 5)))
fail(struct parser *p, size_t col, const char *hint, const char *fmt, ...)
{
	va_list ap;

	p->err->col = col;
	va_start(ap, fmt);
	vsnprintf(p->err->reason, sizeof(p->err->reason), fmt, ap);
	va_end(ap);
	snprintf(p->err->hint, sizeof(p->err->hint), "%s", hint ? hint : "");
	return -EINVAL;
}

/* An error from event.c, whose offsets count from col. */
static int fail_event(struct parser *p, size_t col,
		      const struct event_error *e)
{
	return fail(p, col + e->off, e->hint[0] ? e->hint : NULL, "%s",
		    e->reason);
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' ||
	       c == '.' || c == '*' || c == '?';
}

static bool is_glob(const char *s, size_t len)
{
	return memchr(s, '*', len) || memchr(s, '?', len);
}

static void skip_blanks(struct parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

/* The length of the name at the cursor, which moves past it. */
static size_t take_name(struct parser *p)
{
	size_t start = p->pos;

	while (name_char(p->s[p->pos]))
		p->pos++;
	return p->pos - start;
}

/* Add an evsel for the current term. */
static struct evsel *add(struct parser *p, const struct perf_event_attr *attr,
			 const char *name, size_t len, int *ret)
{
	*ret = evlist_add(p->el, attr, name, len);
	return *ret < 0 ? NULL : evlist_at(p->el, evlist_count(p->el) - 1);
}

/* Modifier letters at the cursor, for every evsel of this term. */
static int take_modifiers(struct parser *p, size_t first)
{
	size_t start = p->pos, i;
	struct event_error e;
	int ret;

	while (isalpha((unsigned char)p->s[p->pos]))
		p->pos++;
	if (p->pos == start)
		return fail(p, start, "modifiers are u k h I G H p P S D e W",
			    "expected modifiers after ':'");
	for (i = first; i < evlist_count(p->el); i++) {
		struct evsel *ev = evlist_at(p->el, i);
		struct event_mods m = { 0 };

		ret = event_apply_modifiers(&ev->attr, p->s + start,
					    p->pos - start, &m, &e);
		if (ret < 0)
			return fail_event(p, start, &e);
		ev->precise_max |= m.precise_max;
		ev->weak |= m.weak;
		ev->pinned = ev->attr.pinned;
		ev->exclusive = ev->attr.exclusive;
	}
	return 0;
}

/* An optional ':mods' after a term whose evsels start at first. */
static int maybe_modifiers(struct parser *p, size_t first, bool colon)
{
	if (colon) {
		if (p->s[p->pos] != ':')
			return 0;
		p->pos++;
	} else if (!isalpha((unsigned char)p->s[p->pos])) {
		return 0;
	}
	return take_modifiers(p, first);
}

/*
 * Names are the text as typed: the event, then its modifiers. A name
 * from name= gets a colon before them, as other names do.
 */
static int name_modifiers(struct parser *p, size_t first, size_t mods_at)
{
	size_t i, len = p->pos - mods_at;
	const char *mods = p->s + mods_at;
	int ret = 0;

	for (i = first; ret == 0 && i < evlist_count(p->el); i++) {
		struct evsel *e = evlist_at(p->el, i);
		size_t n = strlen(e->name);

		e->has_modifiers = len > 0;
		if (len && *mods != ':' && n && e->name[n - 1] != '/')
			ret = evsel_name_append(e, ":", 1);
		if (ret == 0 && len)
			ret = evsel_name_append(e, mods, len);
	}
	return ret;
}

static int unknown_event(struct parser *p, size_t col, size_t len)
{
	const char *near = event_table_suggest(p->s + col, len);
	char hint[200];

	if (near)
		snprintf(hint, sizeof(hint),
			 "did you mean '%s'? see 'pstat --list'", near);
	else
		snprintf(hint, sizeof(hint), "see 'pstat --list'");
	return fail(p, col, hint, "unknown event '%.*s'", (int)len, p->s + col);
}

static bool all_modifiers(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!event_is_modifier(s[i]))
			return false;
	return len > 0;
}

static int tracepoint_error(struct parser *p, int ret, size_t col,
			    size_t sys_len, size_t len)
{
	const char *sys = p->s + col, *name = sys + sys_len + 1;
	const char *events = pmu_tracefs_events();
	char hint[256], fix[200];

	/* cylces:u is a typo, not a tracepoint, whatever tracefs says. */
	if (all_modifiers(name, len) && !is_glob(sys, sys_len))
		return unknown_event(p, col, sys_len);
	if (ret == -EACCES) {
		diagnose_tracefs_fix(events, fix, sizeof(fix));
		snprintf(hint, sizeof(hint),
			 "tracefs lets only root and its group read tracepoint ids: %s",
			 fix);
		return fail(p, col, hint,
			    "cannot read tracepoint '%.*s:%.*s': permission denied on %s",
			    (int)sys_len, sys, (int)len, name, events);
	}
	if (ret == -ENODEV) {
		diagnose_tracefs_fix(NULL, fix, sizeof(fix));
		snprintf(hint, sizeof(hint), "mount it: %s", fix);
		return fail(p, col, hint,
			    "no tracefs is mounted, so there is no tracepoint '%.*s:%.*s'",
			    (int)sys_len, sys, (int)len, name);
	}
	if (ret == -ENOENT) {
		snprintf(hint, sizeof(hint), "see 'pstat --list %.*s:'",
			 (int)sys_len, sys);
		return fail(p, col, hint, "%s tracepoint '%.*s:%.*s'",
			    is_glob(sys, sys_len + 1 + len) ? "no match for"
							    : "unknown",
			    (int)sys_len, sys, (int)len, name);
	}
	return fail(p, col, NULL, "cannot read tracepoint '%.*s:%.*s': %s",
		    (int)sys_len, sys, (int)len, name, strerror(-ret));
}

struct glob_ctx {
	struct parser *p;
	int ret;
};

static int add_tracepoint(void *arg, const char *sys, const char *name,
			  uint64_t id)
{
	struct glob_ctx *g = arg;
	struct perf_event_attr attr;
	char full[512];
	int len = snprintf(full, sizeof(full), "%s:%s", sys, name);

	event_attr_init(&attr);
	event_from_tracepoint(&attr, id);
	add(g->p, &attr, full, (size_t)len, &g->ret);
	return g->ret;
}

/* system:name, either possibly a glob; the cursor is past the ':'. */
static int parse_tracepoint(struct parser *p, size_t col, size_t sys_len)
{
	struct glob_ctx g = { .p = p };
	char sys[256], name[256];
	size_t len = take_name(p);
	uint64_t id;
	int ret;

	if (len == 0)
		return fail(p, p->pos, NULL,
			    "expected a tracepoint name after '%.*s:'",
			    (int)sys_len, p->s + col);
	if (sys_len >= sizeof(sys) || len >= sizeof(name))
		return fail(p, col, NULL, "tracepoint name too long");
	snprintf(sys, sizeof(sys), "%.*s", (int)sys_len, p->s + col);
	snprintf(name, sizeof(name), "%.*s", (int)len, p->s + col + sys_len + 1);
	if (is_glob(sys, sys_len) || is_glob(name, len)) {
		ret = pmu_tracepoint_glob(sys, name, add_tracepoint, &g);
		if (ret == 0)
			ret = -ENOENT;
	} else {
		ret = pmu_tracepoint_id(sys, sys_len, name, len, &id);
		if (ret == 0)
			ret = add_tracepoint(&g, sys, name, id);
	}
	if (ret == -ENOMEM)
		return ret;
	return ret < 0 ? tracepoint_error(p, ret, col, sys_len, len) : 0;
}

/* A number as perf's lexer takes it: 0x hexadecimal, else decimal. */
static int take_number(struct parser *p, uint64_t *v)
{
	const char *start = p->s + p->pos;
	char *end;

	if (!isdigit((unsigned char)*start))
		return fail(p, p->pos, NULL, "expected a number");
	errno = 0;
	*v = strtoull(start, &end, 0);
	if (errno)
		return fail(p, p->pos, NULL, "number out of range");
	p->pos += (size_t)(end - start);
	return 0;
}

/* mem:ADDR[/LEN][:rwx]; the cursor is past "mem:". */
static int parse_breakpoint(struct parser *p, size_t col)
{
	struct perf_event_attr attr;
	struct event_error e;
	uint64_t addr, len = 0;
	size_t type_at, type_len = 0;
	int ret;

	ret = take_number(p, &addr);
	if (ret == 0 && p->s[p->pos] == '/') {
		size_t len_at = ++p->pos;

		ret = take_number(p, &len);
		if (ret == 0 && len != 1 && len != 2 && len != 4 && len != 8)
			return fail(p, len_at, "the length is 1, 2, 4 or 8",
				    "bad breakpoint length %llu",
				    (unsigned long long)len);
	}
	if (ret < 0)
		return ret;
	type_at = p->pos + 1;
	/* An access is letters of r, w, x; anything else is modifiers. */
	if (p->s[p->pos] == ':') {
		while (strchr("rwx", p->s[type_at + type_len]) &&
		       p->s[type_at + type_len])
			type_len++;
		if (type_len && !isalpha((unsigned char)p->s[type_at + type_len]))
			p->pos = type_at + type_len;
		else
			type_len = 0;
	}
	event_attr_init(&attr);
	if (event_from_breakpoint(&attr, addr, len, p->s + type_at, type_len,
				  &e) < 0)
		return fail_event(p, type_len ? type_at : col, &e);
	add(p, &attr, p->s + col, p->pos - col, &ret);
	return ret;
}

static int add_pmu_instance(struct parser *p, const char *pmu, size_t col,
			    size_t terms_at, size_t terms_len, bool merge)
{
	struct event_pmu_extra x;
	struct perf_event_attr attr;
	struct event_error e;
	struct evsel *ev;
	char mask[4096];
	size_t bad;
	int ret;

	event_attr_init(&attr);
	ret = event_from_pmu(&attr, pmu, p->s + terms_at, terms_len, &x, &e);
	if (ret == -EINVAL)
		return fail_event(p, terms_at, &e);
	if (ret < 0)
		return ret;
	ev = x.name[0] ? add(p, &attr, x.name, strlen(x.name), &ret)
		       : add(p, &attr, p->s + col, terms_at + terms_len + 1 - col,
			     &ret);
	if (!ev)
		return ret;
	ev->scale = x.scale;
	memcpy(ev->unit, x.unit, sizeof(ev->unit));
	/* Uncore PMUs count once a socket: only on the CPUs they name. */
	if (pmu_read(pmu, "cpumask", mask, sizeof(mask)) == 0) {
		ev->n_cpus = topology_parse_list(mask, &ev->cpus, &bad);
		if (ev->n_cpus <= 0)
			ev->cpus = NULL;
	}
	ev->merge_cont = merge;
	if (asprintf(&ev->instance, "%s/%.*s/", pmu, (int)terms_len,
		     p->s + terms_at) < 0) {
		ev->instance = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* pmu/terms/; the cursor is on the first '/'. */
static int parse_pmu(struct parser *p, size_t col, size_t len)
{
	const char *slash = strchr(p->s + p->pos + 1, '/');
	size_t terms_at = p->pos + 1, terms_len;
	char **pmus;
	int n, i, ret = 0;

	if (!slash)
		return fail(p, p->pos, "PMU events are pmu/terms/",
			    "missing the closing '/'");
	terms_len = (size_t)(slash - (p->s + terms_at));
	n = pmu_instances(p->s + col, len, &pmus);
	if (n < 0)
		return n;
	if (n == 0)
		return fail(p, col, "PMUs are listed in /sys/bus/event_source/devices",
			    "no PMU named '%.*s'", (int)len, p->s + col);
	if (n > 1 && p->in_group)
		ret = fail(p, col, "take it out of the group",
			   "'%.*s' means %d PMUs, which cannot share a group",
			   (int)len, p->s + col, n);
	for (i = 0; ret == 0 && i < n; i++)
		ret = add_pmu_instance(p, pmus[i], col, terms_at, terms_len,
				       i > 0);
	if (n == 1 && ret == 0) {
		struct evsel *ev = evlist_at(p->el, evlist_count(p->el) - 1);

		free(ev->instance);
		ev->instance = NULL;
	}
	pmu_instances_free(pmus, n);
	p->pos = terms_at + terms_len + 1;
	return ret;
}

/* One event term, which may add several evsels (globs, PMU instances). */
static int parse_term(struct parser *p, size_t col, size_t *mods_at)
{
	size_t len = take_name(p);
	struct perf_event_attr attr;
	int ret;

	if (len == 3 && strncmp(p->s + col, "mem", 3) == 0 &&
	    p->s[p->pos] == ':' && isdigit((unsigned char)p->s[p->pos + 1])) {
		p->pos++;
		ret = parse_breakpoint(p, col);
		*mods_at = p->pos;
		return ret < 0 ? ret : maybe_modifiers(p, p->first, true);
	}
	if (len && p->s[p->pos] == '/') {
		ret = parse_pmu(p, col, len);
		*mods_at = p->pos;
		if (ret < 0)
			return ret;
		/* msr/tsc/u as perf writes it; msr/tsc/:u as well. */
		if (p->s[p->pos] == ':') {
			p->pos++;
			return take_modifiers(p, p->first);
		}
		return maybe_modifiers(p, p->first, false);
	}
	if (len == 0 && p->s[col])
		return fail(p, col, NULL, "unexpected '%c'", p->s[col]);
	if (len == 0)
		return fail(p, col, NULL, "expected an event name");
	event_attr_init(&attr);
	ret = is_glob(p->s + col, len) ? -ENOENT
				       : event_from_name(&attr, p->s + col, len);
	if (ret == -EOPNOTSUPP)
		return fail(p, col, "see 'pstat --list cache'",
			    "'%.*s': that cache has no such operation",
			    (int)len, p->s + col);
	if (ret == 0) {
		add(p, &attr, p->s + col, len, &ret);
		*mods_at = p->pos;
		return ret < 0 ? ret : maybe_modifiers(p, p->first, true);
	}
	if (p->s[p->pos] != ':')
		return unknown_event(p, col, len);
	p->pos++;
	ret = parse_tracepoint(p, col, len);
	*mods_at = p->pos;
	return ret < 0 ? ret : maybe_modifiers(p, p->first, true);
}

static int add_event(struct parser *p)
{
	size_t col, mods_at = 0;
	int ret;

	skip_blanks(p);
	col = p->pos;
	p->first = evlist_count(p->el);
	ret = parse_term(p, col, &mods_at);
	if (ret == 0)
		ret = name_modifiers(p, p->first, mods_at);
	skip_blanks(p);
	return ret;
}

/* Group modifiers reach every member, and their names show it. */
static int apply_group_modifiers(struct parser *p, size_t first)
{
	size_t col = p->pos, i;
	int ret = take_modifiers(p, first);

	for (i = first; ret == 0 && i < evlist_count(p->el); i++) {
		struct evsel *e = evlist_at(p->el, i);

		if (!e->has_modifiers)
			ret = evsel_name_append(e, ":", 1);
		if (ret == 0)
			ret = evsel_name_append(e, p->s + col, p->pos - col);
		e->has_modifiers = true;
	}
	return ret;
}

static int parse_group(struct parser *p)
{
	size_t open = p->pos, first = evlist_count(p->el);
	int ret;

	p->pos++;
	p->in_group = true;
	evlist_group_begin(p->el);
	do {
		if (p->s[p->pos] == ',' && evlist_count(p->el) > first)
			p->pos++;
		skip_blanks(p);
		if (p->s[p->pos] == '{')
			return fail(p, p->pos, NULL, "groups cannot be nested");
		if (p->s[p->pos] == '}')
			return fail(p, p->pos, NULL, "expected an event name");
		ret = add_event(p);
		if (ret < 0)
			return ret;
	} while (p->s[p->pos] == ',');
	evlist_group_end(p->el);
	p->in_group = false;
	if (p->s[p->pos] != '}')
		return fail(p, p->s[p->pos] ? p->pos : open, NULL,
			    p->s[p->pos] ? "expected ',' or '}'"
					 : "unclosed '{'");
	p->pos++;
	if (p->s[p->pos] != ':')
		return 0;
	p->pos++;
	return apply_group_modifiers(p, first);
}

int evparse(struct evlist *el, const char *spec, struct evparse_error *err)
{
	struct parser p = { .s = spec, .el = el, .err = err };
	int ret;

	do {
		if (spec[p.pos] == ',' && p.pos > 0)
			p.pos++;
		skip_blanks(&p);
		ret = spec[p.pos] == '{' ? parse_group(&p) : add_event(&p);
		if (ret < 0)
			return ret;
		skip_blanks(&p);
	} while (spec[p.pos] == ',');
	if (spec[p.pos])
		return fail(&p, p.pos, NULL, "expected ',' after the event");
	return 0;
}
