/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event list grammar, `a,b:u,{c,d}:k`, into an evlist. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "event.h"
#include "event_table.h"
#include "evparse.h"
#include "pmu.h"

/*
 *   spec    := item (',' item)*
 *   item    := '{' event (',' event)* '}' [':' mods] | event
 *   event   := name [':' mods] | system ':' tracepoint [':' mods]
 *
 * A name the table knows takes modifiers after its colon; anything else
 * before a colon is a tracepoint system.
 */
struct parser {
	const char *s;
	size_t pos;
	struct evlist *el;
	struct evparse_error *err;
};

static int fail(struct parser *p, size_t col, const char *hint,
		const char *fmt, ...)
{
	va_list ap;

	p->err->col = col;
	va_start(ap, fmt);
	vsnprintf(p->err->reason, sizeof(p->err->reason), fmt, ap);
	va_end(ap);
	snprintf(p->err->hint, sizeof(p->err->hint), "%s", hint ? hint : "");
	return -EINVAL;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
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

static int take_modifiers(struct parser *p, struct perf_event_attr *attr)
{
	size_t start = p->pos, bad;

	while (isalpha((unsigned char)p->s[p->pos]))
		p->pos++;
	if (p->pos == start)
		return fail(p, start, "modifiers are u, k and h",
			    "expected modifiers after ':'");
	if (event_apply_modifiers(attr, p->s + start, p->pos - start,
				  &bad) < 0)
		return fail(p, start + bad, "modifiers are u, k and h",
			    "unknown modifier '%c'", p->s[start + bad]);
	return 0;
}

static bool all_modifiers(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!event_is_modifier(s[i]))
			return false;
	return len > 0;
}

static int unknown_event(struct parser *p, size_t col, size_t len)
{
	const char *near = event_table_suggest(p->s + col, len);
	char hint[200];

	if (near)
		snprintf(hint, sizeof(hint), "did you mean '%s'? see 'pstat --list'",
			 near);
	else
		snprintf(hint, sizeof(hint), "see 'pstat --list'");
	return fail(p, col, hint, "unknown event '%.*s'", (int)len, p->s + col);
}

static int tracepoint_error(struct parser *p, int ret, size_t col,
			    size_t sys_len, size_t len)
{
	const char *sys = p->s + col, *name = sys + sys_len + 1;
	const char *events = pmu_tracefs_events();
	char hint[200];

	if (ret == -ENOENT && all_modifiers(name, len))
		return unknown_event(p, col, sys_len);
	if (ret == -EACCES) {
		snprintf(hint, sizeof(hint),
			 "tracefs is readable by root only here: run as root, or remount it with 'mount -o remount,mode=755 %.*s'",
			 (int)(strlen(events) - strlen("/events")), events);
		return fail(p, col, hint,
			    "cannot read tracepoint '%.*s:%.*s': permission denied on %s",
			    (int)sys_len, sys, (int)len, name, events);
	}
	if (ret == -ENODEV)
		return fail(p, col,
			    "mount it: mount -t tracefs nodev /sys/kernel/tracing",
			    "no tracefs is mounted, so tracepoint '%.*s:%.*s' cannot be found",
			    (int)sys_len, sys, (int)len, name);
	snprintf(hint, sizeof(hint), "tracepoints are listed under %s",
		 events ? events : "/sys/kernel/tracing/events");
	return fail(p, col, hint, "unknown tracepoint '%.*s:%.*s'",
		    (int)sys_len, sys, (int)len, name);
}

/* A name, a tracepoint, either with modifiers, into attr. */
static int parse_event(struct parser *p, struct perf_event_attr *attr)
{
	size_t col = p->pos, len = take_name(p), len2;
	int ret;

	event_attr_init(attr);
	if (len == 0 && p->s[col])
		return fail(p, col, NULL, "unexpected '%c'", p->s[col]);
	if (len == 0)
		return fail(p, col, NULL, "expected an event name");
	if (event_from_name(attr, p->s + col, len) == 0) {
		if (p->s[p->pos] != ':')
			return 0;
		p->pos++;
		return take_modifiers(p, attr);
	}
	if (p->s[p->pos] != ':')
		return unknown_event(p, col, len);
	p->pos++;
	len2 = take_name(p);
	if (len2 == 0)
		return fail(p, p->pos, NULL,
			    "expected a tracepoint name after '%.*s:'",
			    (int)len, p->s + col);
	ret = event_from_tracepoint(attr, p->s + col, len, p->s + col + len + 1,
				    len2);
	if (ret < 0)
		return tracepoint_error(p, ret, col, len, len2);
	if (p->s[p->pos] != ':')
		return 0;
	p->pos++;
	return take_modifiers(p, attr);
}

static int add_event(struct parser *p)
{
	struct perf_event_attr attr;
	size_t col;
	int ret;

	skip_blanks(p);
	col = p->pos;
	ret = parse_event(p, &attr);
	if (ret < 0)
		return ret;
	ret = evlist_add(p->el, &attr, p->s + col, p->pos - col);
	skip_blanks(p);
	return ret;
}

/* Whether the name already carries modifier letters after a colon. */
static bool name_has_modifiers(const struct evsel *e)
{
	size_t colons = 0;
	const char *c;

	for (c = e->name; *c; c++)
		colons += *c == ':';
	return colons > (e->attr.type == PERF_TYPE_TRACEPOINT ? 1u : 0u);
}

/* Group modifiers reach every member, and their names show it. */
static int apply_group_modifiers(struct parser *p, size_t first)
{
	size_t col = p->pos, i;
	int ret;

	for (i = first; i < evlist_count(p->el); i++) {
		struct evsel *e = evlist_at(p->el, i);
		bool has_mods = name_has_modifiers(e);

		p->pos = col;
		ret = take_modifiers(p, &e->attr);
		if (ret == 0 && !has_mods)
			ret = evsel_name_append(e, ":", 1);
		if (ret == 0)
			ret = evsel_name_append(e, p->s + col, p->pos - col);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int parse_group(struct parser *p)
{
	size_t open = p->pos, first = evlist_count(p->el);
	int ret;

	p->pos++;
	evlist_group_begin(p->el);
	do {
		if (p->s[p->pos] == ',')
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
	if (p->s[p->pos] != '}')
		return fail(p, p->s[p->pos] ? p->pos : open,
			    NULL, p->s[p->pos] ? "expected ',' or '}'"
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
		if (spec[p.pos] == ',')
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
