/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pfm-events LIST: libpfm4's event syntax, in a list with {} groups. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "event.h"
#include "evlist.h"
#include "evparse.h"
#include "evsel.h"
#include "pfm.h"
#include "pfm_events.h"

/* At most this many events in one group, as a kernel PMU could hold. */
#define GROUP_MAX	64

/* One event, described whole before it is added. */
struct pfm_event {
	struct evsel_desc d;
	char name[256];
	char source[200];
};

/*
 *   list  := item (',' item)*
 *   item  := '{' event (',' event)* '}' | event
 *   event := libpfm4's [PMU::]EVENT[:UMASK...][:MOD=VAL...]
 */
struct pfm_parser {
	const char *s;
	size_t pos;
	struct error *err;
	struct pfm_event ev[GROUP_MAX];
	size_t n;
};

static int __attribute__((format(printf, 4, 5)))
fail(struct pfm_parser *p, size_t col, const char *hint, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = error_vset(p->err, p->s, col, hint, fmt, ap);
	va_end(ap);
	return ret;
}

static int failed(struct pfm_parser *p, size_t col, size_t len, int ret)
{
	char hint[256];

	/* pfm.c said why in p->err, at a column that counts from col. */
	if (ret == -EINVAL) {
		p->err->spec = p->s;
		p->err->col += col;
		p->err->buf = NULL;
		return ret;
	}
	if (ret == -EOPNOTSUPP)
		return fail(p, col, "configure it --with-libpfm4",
			    "pstat is built without libpfm4, which --pfm-events needs");
	if (ret == -ENODEV)
		return fail(p, col, NULL, "libpfm4 did not start");
	if (ret != -ENOENT)
		return ret;
	pfm_unknown_hint(hint, sizeof(hint));
	return fail(p, col, hint, "unknown event '%.*s'", (int)len, p->s + col);
}

/* The event at the cursor, described into p->ev[p->n]. */
static int take_event(struct pfm_parser *p)
{
	size_t col = p->pos, len = strcspn(p->s + col, ",{} \t");
	struct pfm_event *ev = &p->ev[p->n];
	struct event_mods m = { 0 };
	struct pfm_encoding enc;
	int ret;

	if (len == 0 && p->s[col] && p->s[col] != ',')
		return fail(p, col, NULL, "unexpected '%c'", p->s[col]);
	if (len == 0)
		return fail(p, col, NULL, "expected an event name");
	if (p->n == GROUP_MAX)
		return fail(p, col, "split the group",
			    "more than %d events in a group", GROUP_MAX);
	memset(ev, 0, sizeof(*ev));
	event_attr_init(&ev->d.attr);
	ret = pfm_encode(&ev->d.attr, p->s + col, len, &enc, p->err);
	if (ret == 0)
		ret = event_apply_modifiers(&ev->d.attr, enc.mods,
					    strlen(enc.mods), &m, p->err);
	if (ret < 0)
		return failed(p, col, len, ret);
	p->pos += len;
	if (len >= sizeof(ev->name))
		return fail(p, col, NULL, "the event name is too long");
	memcpy(ev->name, p->s + col, len);
	snprintf(ev->source, sizeof(ev->source), "libpfm4, model %s (%s)",
		 enc.model, enc.model_desc);
	ev->d.name = ev->name;
	ev->d.source = ev->source;
	ev->d.has_modifiers = enc.mods[0] != '\0';
	ev->d.scale = 1.0;
	p->n++;
	return 0;
}

static void skip_blanks(struct pfm_parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static int take_group(struct pfm_parser *p)
{
	size_t open = p->pos++;
	int ret;

	do {
		if (p->s[p->pos] == ',' && p->n)
			p->pos++;
		skip_blanks(p);
		ret = take_event(p);
		skip_blanks(p);
	} while (ret == 0 && p->s[p->pos] == ',');
	if (ret < 0)
		return ret;
	if (p->s[p->pos] != '}')
		return fail(p, p->s[p->pos] ? p->pos : open, NULL,
			    p->s[p->pos] ? "expected ',' or '}'" : "unclosed '{'");
	p->pos++;
	return 0;
}

/* One item, described, then added. */
static int add_item(struct pfm_parser *p, struct evlist *el)
{
	bool group = p->s[p->pos] == '{';
	int ret = group ? take_group(p) : take_event(p);
	size_t i;

	if (ret < 0)
		return ret;
	if (group)
		evlist_group_begin(el);
	for (i = 0; ret == 0 && i < p->n; i++)
		ret = evlist_add(el, &p->ev[i].d);
	if (group)
		evlist_group_end(el);
	p->n = 0;
	return ret;
}

int pfm_events_parse(struct evlist *el, const char *spec,
		     struct error *err)
{
	struct pfm_parser p = { .s = spec, .err = err };
	int ret;

	do {
		if (spec[p.pos] == ',' && p.pos > 0)
			p.pos++;
		skip_blanks(&p);
		ret = add_item(&p, el);
		skip_blanks(&p);
	} while (ret == 0 && spec[p.pos] == ',');
	if (ret == 0 && spec[p.pos])
		ret = fail(&p, p.pos, NULL, "expected ',' after the event");
	return ret;
}
