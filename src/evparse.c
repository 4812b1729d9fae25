/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event list grammar, `a,b:u,{c,d}:k`, and -e @FILE, into an evlist. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diagnose.h"
#include "event.h"
#include "event_table.h"
#include "evlist.h"
#include "evparse.h"
#include "pfm.h"
#include "pmu_tables.h"
#include "pmu.h"

/*
 * An event being described: an item (an event, or a group) is added to
 * the evlist once complete, with the modifiers that follow it.
 */
struct pending {
	struct evsel_desc d;
	char *name;		/* grows as modifiers are added */
	char *instance;
	char pmu[256];
	char unit[32];
	bool pmu_name;		/* shown as pmu/name/: one of several PMUs */
	bool named;		/* by name=: shown as given, as perf does */
	bool core;		/* on one core PMU of a hybrid CPU */
	char source[200];	/* where a vendor name's encoding came from */
};

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
	struct error *err;
	bool in_group;
	struct pending *pend;	/* the item's events so far */
	size_t n_pend, cap_pend;
	size_t first;		/* the term's first in pend */
};

/*
 * perf's tables, read once a name needs them and kept to the end
 * (evparse_fini): an events file parses a line at a time, and a load
 * costs 5-20 ms.
 */
static struct pmu_tables *tables;
static bool tables_tried;

void evparse_fini(void)
{
	pmu_tables_free(tables);
	tables = NULL;
	tables_tried = false;
}

static int __attribute__((format(printf, 4, 5)))
fail(struct parser *p, size_t col, const char *hint, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = error_vset(p->err, p->s, col, hint, fmt, ap);
	va_end(ap);
	return ret;
}

/* event.c or pfm.c said why in p->err, at a column that counts from
 * col of the spec. */
static int fail_event(struct parser *p, size_t col)
{
	p->err->spec = p->s;
	p->err->col += col;
	p->err->buf = NULL;
	return -EINVAL;
}

/* ASCII, whatever the locale: a comparison or two, not a ctype call. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' ||
	       c == '.' || c == '*' || c == '?';
}

/* A byte of a word as people see one: a name, its modifiers, UTF-8. */
static bool word_char(char c)
{
	return name_char(c) || c == ':' || (unsigned char)c >= 0x80;
}

/*
 * Every name, term and modifier is ASCII. A letter past it would end a
 * name where people see none ('tâsk' read as the unknown 't'): refuse
 * the word it is in, whole, at the first such byte of spec.
 */
static int not_ascii(struct parser *p)
{
	const char *s = p->s;
	size_t at = 0, start, end, n = 1;

	while ((unsigned char)s[at] < 0x80 && s[at])
		at++;
	if (!s[at])
		return 0;
	for (start = at; start > 0 && word_char(s[start - 1]); start--)
		;
	for (end = at; word_char(s[end]); end++)
		;
	while (n < 4 && ((unsigned char)s[at + n] & 0xc0) == 0x80)
		n++;
	return fail(p, at, "event names, PMU terms and modifiers are ASCII; see 'pstat --list'",
		    "unknown event '%.*s': '%.*s' is not ASCII",
		    (int)(end - start), s + start, (int)n, s + at);
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

/* Describe an event of the current term. NULL, with *ret, on ENOMEM. */
static struct pending *add(struct parser *p,
			   const struct perf_event_attr *attr,
			   const char *name, size_t len, int *ret)
{
	struct pending *e;

	/* An item is most often one event: a group or a PMU's instances
	 * grow it. (Each is 700 bytes, and a page of heap a page fault.) */
	if (p->n_pend == p->cap_pend) {
		size_t cap = p->cap_pend ? 2 * p->cap_pend : 2;

		e = realloc(p->pend, cap * sizeof(*e));
		if (!e) {
			*ret = -ENOMEM;
			return NULL;
		}
		p->pend = e;
		p->cap_pend = cap;
	}
	e = &p->pend[p->n_pend];
	/* Not a memset of its 700 bytes: the strings need only their end. */
	e->d = (struct evsel_desc){ .attr = *attr, .scale = 1.0 };
	e->instance = NULL;
	e->pmu[0] = e->unit[0] = e->source[0] = '\0';
	e->pmu_name = e->core = e->named = false;
	e->name = strndup(name, len);
	*ret = e->name ? 0 : -ENOMEM;
	if (*ret == 0)
		p->n_pend++;
	return *ret ? NULL : e;
}

/* Append text[0..len) to a pending event's name. 0 or -ENOMEM. */
static int name_append(struct pending *e, const char *text, size_t len)
{
	size_t old = strlen(e->name);
	char *name = realloc(e->name, old + len + 1);

	if (!name)
		return -ENOMEM;
	memcpy(name + old, text, len);
	name[old + len] = '\0';
	e->name = name;
	return 0;
}

static void drop_pending(struct parser *p)
{
	size_t i;

	for (i = 0; i < p->n_pend; i++) {
		free(p->pend[i].name);
		free(p->pend[i].instance);
	}
	p->n_pend = 0;
}

/* Its name is final: pmu/name/ when it says which PMU. 0 or -ENOMEM. */
static int add_one(struct parser *p, struct pending *e)
{
	char *wrapped = NULL;
	int ret;

	if (e->pmu_name && asprintf(&wrapped, "%s/%s/", e->pmu, e->name) < 0)
		return -ENOMEM;
	e->d.name = wrapped ? wrapped : e->name;
	e->d.instance = e->instance;
	e->d.pmu = e->pmu[0] ? e->pmu : NULL;
	e->d.unit = e->unit;
	e->d.source = e->source[0] ? e->source : NULL;
	ret = evlist_add(p->el, &e->d);
	free(wrapped);
	return ret;
}

/*
 * A group whose events opened once per core PMU of a hybrid CPU is a
 * group per core PMU, as perf makes them: the first core PMU's takes
 * the events of no core PMU (software events) too. 0 or -ENOMEM.
 */
static int add_core_groups(struct parser *p)
{
	const char *first = NULL;
	size_t i, j;
	int ret = 0;

	for (i = 0; ret == 0 && i < p->n_pend; i++) {
		const char *pmu = p->pend[i].pmu;

		if (!p->pend[i].core)
			continue;
		for (j = 0; j < i; j++)
			if (p->pend[j].core && strcmp(p->pend[j].pmu, pmu) == 0)
				break;
		if (j < i)
			continue;	/* that core PMU's group is made */
		if (!first)
			first = pmu;
		evlist_group_begin(p->el);
		for (j = 0; ret == 0 && j < p->n_pend; j++) {
			const struct pending *e = &p->pend[j];

			if (e->core ? strcmp(e->pmu, pmu) == 0 : pmu == first)
				ret = add_one(p, &p->pend[j]);
		}
		evlist_group_end(p->el);
	}
	return ret;
}

static bool any_core(const struct parser *p)
{
	size_t i;

	for (i = 0; i < p->n_pend; i++)
		if (p->pend[i].core)
			return true;
	return false;
}

/* The item is complete: its events go into the evlist, in a group if
 * it was one. 0 or -ENOMEM. */
static int add_pending(struct parser *p, bool group)
{
	size_t i;
	int ret = 0;

	if (group && any_core(p)) {
		ret = add_core_groups(p);
		drop_pending(p);
		return ret;
	}
	if (group)
		evlist_group_begin(p->el);
	for (i = 0; ret == 0 && i < p->n_pend; i++)
		ret = add_one(p, &p->pend[i]);
	if (group)
		evlist_group_end(p->el);
	drop_pending(p);
	return ret;
}

/* Modifier letters at the cursor, for every evsel of this term. */
static int take_modifiers(struct parser *p, size_t first)
{
	size_t start = p->pos, i;
	int ret;

	while (isalpha((unsigned char)p->s[p->pos]))
		p->pos++;
	if (p->pos == start)
		return fail(p, start, "modifiers are u k h I G H p P S D e W",
			    "expected modifiers after ':'");
	for (i = first; i < p->n_pend; i++) {
		struct evsel_desc *d = &p->pend[i].d;
		struct event_mods m = { 0 };

		ret = event_apply_modifiers(&d->attr, p->s + start,
					    p->pos - start, &m, p->err);
		if (ret < 0)
			return fail_event(p, start);
		d->precise_max |= m.precise_max;
		d->weak |= m.weak;
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
 * from name= is shown as given, without them, as perf shows it.
 */
static int name_modifiers(struct parser *p, size_t first, size_t mods_at)
{
	size_t i, len = p->pos - mods_at;
	const char *mods = p->s + mods_at;
	int ret = 0;

	for (i = first; ret == 0 && i < p->n_pend; i++) {
		struct pending *e = &p->pend[i];
		size_t n = strlen(e->name);

		e->d.has_modifiers = len > 0;
		if (e->named)
			continue;
		if (len && *mods != ':' && n && e->name[n - 1] != '/')
			ret = name_append(e, ":", 1);
		if (ret == 0 && len)
			ret = name_append(e, mods, len);
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
	uint64_t addr = 0, len = 0;
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
				  p->err) < 0)
		return fail_event(p, type_len ? type_at : col);
	add(p, &attr, p->s + col, p->pos - col, &ret);
	return ret;
}

/*
 * An event of PMU pmu from the terms at terms_at, named by the
 * name_len bytes at col, unless name= names it.
 */
static int add_pmu_instance(struct parser *p, const char *pmu, size_t col,
			    size_t name_len, size_t terms_at,
			    size_t terms_len, bool merge)
{
	struct event_pmu_extra x;
	struct perf_event_attr attr;
	struct pending *ev;
	int ret;

	event_attr_init(&attr);
	ret = event_from_pmu(&attr, pmu, p->s + terms_at, terms_len, &x, p->err);
	if (ret == -EINVAL)
		return fail_event(p, terms_at);
	if (ret < 0)
		return ret;
	ev = x.name[0] ? add(p, &attr, x.name, strlen(x.name), &ret)
		       : add(p, &attr, p->s + col, name_len, &ret);
	if (!ev)
		return ret;
	ev->named = x.name[0] != '\0';
	ev->d.scale = x.scale;
	memcpy(ev->unit, x.unit, sizeof(ev->unit));
	/* Its CPUs: an uncore PMU counts only on those it names. */
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pmu);
	ev->d.merge_cont = merge;
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
		ret = add_pmu_instance(p, pmus[i], col,
				       terms_at + terms_len + 1 - col,
				       terms_at, terms_len, i > 0);
	/* One instance: nothing to tell apart with --no-merge. */
	if (n == 1 && ret == 0) {
		free(p->pend[p->n_pend - 1].instance);
		p->pend[p->n_pend - 1].instance = NULL;
	}
	pmu_instances_free(pmus, n);
	p->pos = terms_at + terms_len + 1;
	return ret;
}

/* name_N, or name: the PMU it is an instance of, as a length. */
static size_t pmu_base(const char *pmu)
{
	size_t n = strlen(pmu), i = n;

	while (i > 0 && isdigit((unsigned char)pmu[i - 1]))
		i--;
	return i < n && i > 1 && pmu[i - 1] == '_' ? i - 1 : n;
}

/* Whether pmus are instances of one PMU (uncore_imc_0, uncore_imc_1). */
static bool one_pmu(char **pmus, int n)
{
	size_t base = pmu_base(pmus[0]);
	int i;

	for (i = 1; i < n; i++)
		if (pmu_base(pmus[i]) != base ||
		    strncmp(pmus[i], pmus[0], base) != 0)
			return false;
	return true;
}

/*
 * A PMU's event alias without its PMU, as perf takes it: tsc for
 * msr/tsc/, in any case, on every PMU that has it. Instances of one PMU
 * add up under the name as typed; events of different PMUs, or of a
 * hybrid CPU's core PMU, are each named pmu/alias/. -ENOENT when no PMU
 * has it.
 */
static int parse_alias(struct parser *p, size_t col, size_t len)
{
	size_t first = p->n_pend, i;
	char **pmus;
	bool apart;
	int n, ret = 0;

	n = pmu_alias_owners(p->s + col, len, &pmus);
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	apart = !one_pmu(pmus, n) || pmu_is_hybrid_core(pmus[0]);
	if (n > 1 && !apart && p->in_group)
		ret = fail(p, col, "take it out of the group",
			   "'%.*s' is an event of %d PMUs (%s, ...), which cannot share a group",
			   (int)len, p->s + col, n, pmus[0]);
	for (i = 0; ret == 0 && i < (size_t)n; i++)
		ret = add_pmu_instance(p, pmus[i], col, len, col, len,
				       i > 0 && !apart);
	for (i = first; ret == 0 && i < p->n_pend; i++) {
		struct pending *e = &p->pend[i];

		e->pmu_name = apart;
		e->core = pmu_is_hybrid_core(e->pmu);
		/* One instance: nothing to tell apart with --no-merge. */
		if (n == 1 || apart) {
			free(e->instance);
			e->instance = NULL;
		}
	}
	pmu_instances_free(pmus, n);
	return ret;
}

/*
 * A generic hardware or cache event, or a raw one: once per core PMU
 * on a hybrid CPU, named pmu/name/ and counted on that PMU's CPUs, as
 * perf 6.1 does; else once.
 */
static int add_generic(struct parser *p, const struct perf_event_attr *attr,
		       size_t col, size_t len)
{
	struct perf_event_attr a;
	struct pending *e;
	char **cores;
	uint32_t type;
	int n = 0, i, ret = 0;

	if (attr->type == PERF_TYPE_HARDWARE ||
	    attr->type == PERF_TYPE_HW_CACHE || attr->type == PERF_TYPE_RAW)
		n = pmu_hybrid_cores(&cores);
	if (n <= 0) {
		if (n == 0)
			add(p, attr, p->s + col, len, &ret);
		return n < 0 ? n : ret;
	}
	for (i = 0; ret == 0 && i < n; i++) {
		ret = pmu_type(cores[i], &type);
		if (ret < 0) {
			ret = fail(p, col, NULL,
				   "cannot read the type of PMU %s: %s",
				   cores[i], strerror(-ret));
			break;
		}
		a = *attr;
		event_on_core_pmu(&a, type);
		e = add(p, &a, p->s + col, len, &ret);
		if (!e)
			break;
		snprintf(e->pmu, sizeof(e->pmu), "%s", cores[i]);
		e->pmu_name = e->core = true;
	}
	pmu_instances_free(cores, n);
	return ret;
}

/* duration_time and the like: pstat counts them, in nanoseconds. */
static void mark_tool(struct parser *p, size_t col, size_t len,
		      const struct perf_event_attr *attr)
{
	const struct event_def *def;
	struct pending *e = &p->pend[p->n_pend - 1];

	/* Tool events are software dummies: no other needs a look. */
	if (attr->type != PERF_TYPE_SOFTWARE ||
	    attr->config != PERF_COUNT_SW_DUMMY)
		return;
	def = event_table_find(p->s + col, len);
	if (!def || !def->tool)
		return;
	e->d.tool = def->tool;
	snprintf(e->unit, sizeof(e->unit), "ns");
}

/* Whether the colon at the cursor is followed by modifiers alone. */
static bool modifiers_follow(const struct parser *p)
{
	size_t i = p->pos + 1;

	while (name_char(p->s[i]))
		i++;
	return p->s[p->pos] == ':' && all_modifiers(p->s + p->pos + 1,
						    i - p->pos - 1);
}

/* The tables, read the first time a name needs them: 0, or -ENOMEM
 * (tried again then). Without tables for this CPU, tables stays NULL. */
static int load_tables(void)
{
	char why[512];

	if (tables_tried)
		return 0;
	tables_tried = true;
	if (pmu_tables_load(&tables, PMU_TABLES_EVENTS, why,
			    sizeof(why)) == -ENOMEM) {
		tables_tried = false;
		return -ENOMEM;
	}
	return 0;
}

/*
 * Whether the tables' PMU of an event (pmu_tables.h: "cpu" for the core
 * PMU, uncore_cha for each uncore_cha_N) is pmu.
 */
static bool table_pmu_is(const char *table, const char *pmu)
{
	char core[256];
	size_t n = strlen(table);

	if (strcmp(table, "cpu") == 0)
		return pmu_core_name(core, sizeof(core)) == 0 &&
		       strcmp(core, pmu) == 0;
	return strncmp(table, pmu, n) == 0 &&
	       (pmu[n] == '\0' ||
		(pmu[n] == '_' && strspn(pmu + n + 1, "0123456789") > 0 &&
		 pmu[n + 1 + strspn(pmu + n + 1, "0123456789")] == '\0'));
}

/*
 * event.h's table alias: cpu_atom/TOPDOWN_BE_BOUND.ALL/, a name of
 * perf's tables on that PMU (a hybrid CPU's tables name the same event
 * once for each core PMU), as perf's -M writes cpu_atom@NAME@.
 */
static int table_alias(const char *pmu, const char *name, char *buf,
		       size_t len)
{
	const struct pmu_event *pe;
	size_t n = 0, i;
	char *terms;
	int ret = load_tables();

	if (ret < 0)
		return ret;
	pe = tables ? pmu_tables_event(tables, name, &n) : NULL;
	for (i = 0; pe && i < n; i++, pe++) {
		if (!table_pmu_is(pe->pmu, pmu))
			continue;
		terms = pmu_tables_counting_terms(pe);
		if (!terms)
			return -ENOMEM;
		ret = snprintf(buf, len, "%s", terms) < (int)len ? 0 : -ENOENT;
		free(terms);
		return ret;
	}
	return -ENOENT;
}

/*
 * A name of perf's tables for this CPU's model (pmu_tables.h), as perf
 * takes -e INST_RETIRED.ANY: the table's terms on its PMU, the name as
 * given. The tables are read the first time a name needs them. -ENOENT
 * where no table has it, or there are no tables.
 */
static int parse_table(struct parser *p, size_t col, size_t len)
{
	struct perf_event_attr attr;
	struct event_pmu_extra x;
	const struct pmu_event *pe;
	struct pending *ev;
	char name[256], why[512], pmu[256], *terms, **pmus;
	int ret, n;

	if (len >= sizeof(name))
		return -ENOENT;
	if (load_tables() < 0)
		return -ENOMEM;
	memcpy(name, p->s + col, len);
	name[len] = '\0';
	pe = tables ? pmu_tables_event(tables, name, NULL) : NULL;
	if (!pe)
		return -ENOENT;
	/* The tables' "cpu" is the core PMU, armv8_pmuv3_0 on arm64. */
	snprintf(pmu, sizeof(pmu), "%s", pe->pmu);
	if (strcmp(pmu, "cpu") == 0 && pmu_core_name(pmu, sizeof(pmu)) < 0)
		return -ENOENT;
	/* Without its PMU here, the name is libpfm4's to encode, or no one's. */
	n = pmu_instances(pmu, strlen(pmu), &pmus);
	if (n <= 0)
		return n < 0 && n != -ENOENT ? n : -ENOENT;
	pmu_instances_free(pmus, n);
	terms = pmu_tables_counting_terms(pe);
	if (!terms)
		return -ENOMEM;
	event_attr_init(&attr);
	ret = event_from_pmu(&attr, pmu, terms, strlen(terms), &x, p->err);
	if (ret == -EINVAL) {
		snprintf(why, sizeof(why), "%s", p->err->reason);
		ret = fail(p, col, NULL,
			   "'%s' of perf's %s tables is %s/%s/, which this machine does not take: %s",
			   name, pmu_tables_model(tables), pmu, terms, why);
	}
	free(terms);
	if (ret < 0)
		return ret;
	ev = add(p, &attr, p->s + col, len, &ret);
	if (!ev)
		return ret;
	ev->d.scale = x.scale;
	memcpy(ev->unit, x.unit, sizeof(ev->unit));
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pmu);
	snprintf(ev->source, sizeof(ev->source), "perf's tables, model %s",
		 pmu_tables_model(tables));
	return 0;
}

/*
 * libpfm4's names (issue 13): a name that neither pstat's tables nor
 * sysfs know, bare (inst_retired.any_p, then pstat's modifiers) or in
 * libpfm4's full syntax, PMU::EVENT[:UMASK][:MOD=VAL], whose modifiers
 * become pstat's letters. Only type and configs come from libpfm4.
 */
static bool pfm_wanted(const struct parser *p)
{
	const char *s = p->s + p->pos;
	size_t n = 1;

	if (s[0] != ':' || s[1] == ':')
		return true;
	while (event_is_modifier(s[n]))
		n++;
	return n > 1 && !name_char(s[n]) && s[n] != ':';
}

static int pfm_failed(struct parser *p, size_t col, size_t len, int ret)
{
	char hint[256];

	if (ret == -EINVAL)
		return fail_event(p, col);
	if (ret == -ENODEV)
		return fail(p, col, NULL, "libpfm4 did not start, so '%.*s' is unknown",
			    (int)len, p->s + col);
	if (ret != -ENOENT && ret != -EOPNOTSUPP)
		return ret;
	if (event_table_suggest(p->s + col, len))
		return unknown_event(p, col, len);
	pfm_unknown_hint(hint, sizeof(hint));
	return fail(p, col, hint, "unknown event '%.*s'", (int)len, p->s + col);
}

static int parse_pfm(struct parser *p, size_t col, size_t len)
{
	struct perf_event_attr attr;
	struct pfm_encoding enc;
	struct event_mods m = { 0 };
	struct pending *ev;
	int ret;

	if (p->s[p->pos] == ':' && p->s[p->pos + 1] == ':') {
		p->pos += strcspn(p->s + p->pos, ",{}/ \t");
		len = p->pos - col;
	}
	event_attr_init(&attr);
	ret = pfm_encode(&attr, p->s + col, len, &enc, p->err);
	if (ret < 0)
		return pfm_failed(p, col, len, ret);
	ev = add(p, &attr, p->s + col, len, &ret);
	if (!ev)
		return ret;
	snprintf(ev->source, sizeof(ev->source), "libpfm4, model %s (%s)",
		 enc.model, enc.model_desc);
	return event_apply_modifiers(&ev->d.attr, enc.mods, strlen(enc.mods),
				     &m, p->err) < 0 ? fail_event(p, col) : 0;
}

/* Whether s[0..len) has an upper-case letter: tracepoints have none. */
static bool has_upper(const char *s, size_t len)
{
	while (len--)
		if (isupper((unsigned char)*s++))
			return true;
	return false;
}

/*
 * SYS:NAME that names no tracepoint may be libpfm4's EVENT:UMASK
 * (INST_RETIRED:ANY_P[:u]), as perf takes it: the length of all that
 * libpfm4 reads, up to the next event, or 0 when it is no such name
 * (a tracepoint's message then says what is wrong).
 */
static size_t pfm_colon_name(const struct parser *p, size_t col,
			     size_t len)
{
	const char *s = p->s + col;
	size_t name_len = 0, n = len + strcspn(s + len, ",{}/ \t");
	struct perf_event_attr attr;
	struct pfm_encoding enc;
	uint64_t id;
	int ret;

	while (name_char(s[len + 1 + name_len]))
		name_len++;
	ret = pmu_tracepoint_id(s, len, s + len + 1, name_len, &id);
	if (ret != -ENOENT && ret != -ENODEV)
		return 0;
	event_attr_init(&attr);
	ret = pfm_encode(&attr, s, n, &enc, p->err);
	if (ret == -EOPNOTSUPP)	/* no libpfm4: say so for its upper case */
		return has_upper(s, len) ? n : 0;
	return ret == 0 || ret == -EINVAL ? n : 0;
}

/* One event term, which may add several evsels (globs, PMU instances). */
static int parse_term(struct parser *p, size_t col, size_t *mods_at)
{
	size_t len = take_name(p), n;
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
		ret = add_generic(p, &attr, col, len);
		if (ret == 0)
			mark_tool(p, col, len, &attr);
		*mods_at = p->pos;
		return ret < 0 ? ret : maybe_modifiers(p, p->first, true);
	}
	/* Not a name of pstat's tables: a PMU's alias, unless sys:name. */
	if (!is_glob(p->s + col, len) &&
	    (p->s[p->pos] != ':' || modifiers_follow(p))) {
		ret = parse_alias(p, col, len);
		*mods_at = p->pos;
		if (ret != -ENOENT)
			return ret < 0 ? ret : maybe_modifiers(p, p->first,
							       true);
	}
	/* perf's tables' names of this CPU's model, as perf takes them. */
	if (!is_glob(p->s + col, len) && pfm_wanted(p)) {
		ret = parse_table(p, col, len);
		*mods_at = p->pos;
		if (ret != -ENOENT)
			return ret < 0 ? ret : maybe_modifiers(p, p->first,
							       true);
	}
	/* libpfm4's names, after pstat's own tables and sysfs (issue 13). */
	if (!is_glob(p->s + col, len) && pfm_wanted(p)) {
		ret = parse_pfm(p, col, len);
		*mods_at = p->pos;
		return ret < 0 ? ret : maybe_modifiers(p, p->first, true);
	}
	if (p->s[p->pos] != ':')
		return unknown_event(p, col, len);
	if (!is_glob(p->s + col, len) && (n = pfm_colon_name(p, col, len))) {
		p->pos = col + n;
		ret = parse_pfm(p, col, n);
		*mods_at = p->pos;
		return ret < 0 ? ret : maybe_modifiers(p, p->first, true);
	}
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
	p->first = p->n_pend;
	ret = parse_term(p, col, &mods_at);
	if (ret == 0)
		ret = name_modifiers(p, p->first, mods_at);
	skip_blanks(p);
	return ret;
}

/* Group modifiers reach every member, and their names show it (but
 * for names given by name=). */
static int apply_group_modifiers(struct parser *p, size_t first)
{
	size_t col = p->pos, i, k, n = 0;
	int ret = take_modifiers(p, first);
	char shown[32];

	/* W says how the group opens, not what it counts: as perf, not
	 * in the names. */
	for (k = col; k < p->pos && n + 1 < sizeof(shown); k++)
		if (p->s[k] != 'W')
			shown[n++] = p->s[k];
	for (i = first; ret == 0 && n && i < p->n_pend; i++) {
		struct pending *e = &p->pend[i];

		if (!e->d.has_modifiers && !e->named)
			ret = name_append(e, ":", 1);
		if (ret == 0 && !e->named)
			ret = name_append(e, shown, n);
		e->d.has_modifiers = true;
	}
	return ret;
}

static int parse_group(struct parser *p)
{
	size_t open = p->pos, first = p->n_pend;
	int ret;

	p->pos++;
	p->in_group = true;
	do {
		if (p->s[p->pos] == ',' && p->n_pend > first)
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

/* One item, an event or a group, described, then added. */
static int add_item(struct parser *p)
{
	bool group = p->s[p->pos] == '{';
	int ret = group ? parse_group(p) : add_event(p);

	return ret < 0 ? ret : add_pending(p, group);
}

/* Each item has a comma after it but the last: about so many events. */
static size_t events_in(const char *spec)
{
	size_t n = 1;

	for (spec = strchr(spec, ','); spec; spec = strchr(spec + 1, ','))
		n++;
	return n;
}

int evparse(struct evlist *el, const char *spec, struct error *err)
{
	struct parser p = { .s = spec, .el = el, .err = err };
	int ret = not_ascii(&p);

	if (ret < 0)
		return ret;
	event_set_table_alias(table_alias);
	if (evlist_reserve(el, events_in(spec)) < 0)
		return -ENOMEM;
	do {
		if (spec[p.pos] == ',' && p.pos > 0)
			p.pos++;
		skip_blanks(&p);
		ret = add_item(&p);
		skip_blanks(&p);
	} while (ret == 0 && spec[p.pos] == ',');
	if (ret == 0 && spec[p.pos])
		ret = fail(&p, p.pos, NULL, "expected ',' after the event");
	drop_pending(&p);
	free(p.pend);
	return ret;
}

/* An error about an event file as a whole, or one line of it. */
static int __attribute__((format(printf, 3, 4)))
file_fail(struct error *err, const char *hint, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = error_vset(err, NULL, 0, hint, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * All of fd, NUL-terminated. 0, -errno, or -EFBIG past
 * EVPARSE_FILE_MAX: a FIFO or a device is read no further than a file.
 */
static int read_bounded(int fd, char **text, size_t *len)
{
	size_t n = 0, cap = 0;
	char *buf = NULL, *grown;
	ssize_t got;
	int ret = 0;

	while (ret == 0) {
		if (cap - n < 2) {
			cap = cap ? 2 * cap : 4096;
			grown = realloc(buf, cap);
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got == 0)
			break;
		if (got < 0)
			ret = errno == EINTR ? 0 : -errno;
		else if ((n += (size_t)got) > EVPARSE_FILE_MAX)
			ret = -EFBIG;
	}
	if (ret < 0) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
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
	const char *path;
	char *spec;		/* as long as the file and a byte, at most */
	size_t len;
	struct event_file_line {
		size_t at;		/* where it starts in spec */
		size_t lineno;
	} *lines;
	size_t n_lines, cap_lines;
};

static int event_file_add(struct event_file *ef, const char *text,
			  size_t lineno)
{
	size_t n = strlen(text);
	bool joined = ef->len && ef->spec[ef->len - 1] != '{' && text[0] != '}';
	struct event_file_line *lines;

	if (ef->n_lines == ef->cap_lines) {
		ef->cap_lines = ef->cap_lines ? 2 * ef->cap_lines : 16;
		lines = realloc(ef->lines, ef->cap_lines * sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		ef->lines = lines;
	}
	if (joined)
		ef->spec[ef->len++] = ',';
	ef->lines[ef->n_lines++] = (struct event_file_line){ ef->len, lineno };
	memcpy(ef->spec + ef->len, text, n + 1);
	ef->len += n;
	return 0;
}

static int line_too_long(const struct event_file *ef, size_t lineno,
			 struct error *err)
{
	file_fail(err, "put its events on several lines",
		  "the line is longer than %u KiB", EVPARSE_LINE_MAX >> 10);
	snprintf(err->where, sizeof(err->where), "%s:%zu: ", ef->path,
		 lineno);
	return -EINVAL;
}

/*
 * The events of text[0..len), a line at a time, into ef->spec: every
 * line adds at most its length and a comma, so len + 2 bytes hold them.
 */
static int join_lines(struct event_file *ef, char *text, size_t len,
		      struct error *err)
{
	char *line = text, *end, *events;
	size_t lineno;
	int ret = 0;

	ef->spec = malloc(len + 2);
	if (!ef->spec)
		return -ENOMEM;
	ef->spec[0] = '\0';
	for (lineno = 1; ret == 0 && line < text + len; lineno++) {
		end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len;
		if ((size_t)(end - line) > EVPARSE_LINE_MAX)
			return line_too_long(ef, lineno, err);
		*end = '\0';
		events = event_line(line);
		if (events)
			ret = event_file_add(ef, events, lineno);
		line = end + 1;
	}
	return ret;
}

/* err, at col of the joined spec, said of the line it is on. */
static void event_file_error(struct event_file *ef, struct error *err)
{
	size_t i = ef->n_lines - 1, at, end;

	while (i > 0 && ef->lines[i].at > err->col)
		i--;
	at = ef->lines[i].at;
	end = i + 1 < ef->n_lines ? ef->lines[i + 1].at : ef->len;
	/* Not the comma that joined it to the next line. */
	if (i + 1 < ef->n_lines && ef->spec[end - 1] == ',')
		end--;
	ef->spec[end] = '\0';
	err->col = err->col > end ? end - at : err->col - at;
	snprintf(err->where, sizeof(err->where), "%s:%zu: ", ef->path,
		 ef->lines[i].lineno);
	err->spec = ef->spec + at;
	err->buf = ef->spec;
	ef->spec = NULL;
}

static int cannot_read(struct error *err, const char *path, int errnum)
{
	return file_fail(err, NULL, "cannot read the event file '%s': %s",
			 path, strerror(errnum));
}

/* The events of text[0..len), the file at ef->path, into el. */
static int parse_event_file(struct evlist *el, struct event_file *ef,
			    char *text, size_t len, struct error *err)
{
	int ret = join_lines(ef, text, len, err);

	if (ret < 0)
		return ret;
	if (!ef->n_lines)
		return file_fail(err, NULL,
				 "the event file '%s' names no events",
				 ef->path);
	ret = evparse(el, ef->spec, err);
	if (ret == -EINVAL)
		event_file_error(ef, err);
	return ret;
}

int evparse_file(struct evlist *el, const char *path, evparse_open_fn *open_fn,
		 struct error *err)
{
	struct event_file ef = { .path = path };
	char *text = NULL;
	size_t len = 0;
	struct stat st;
	int fd, ret;

	/*
	 * Its lines end up in messages: the caller opens it as the user.
	 * A FIFO opens at once even without a writer; then the reads wait
	 * for one that had it open, and end at once when there was none.
	 */
	fd = open_fn(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
	if (fd < 0)
		return cannot_read(err, path, errno);
	if (fstat(fd, &st) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		ret = errno;
		close(fd);
		return cannot_read(err, path, ret);
	}
	ret = read_bounded(fd, &text, &len);
	close(fd);
	if (ret == 0 && len == 0 && S_ISFIFO(st.st_mode)) {
		free(text);
		return file_fail(err, "start its writer first, or use a file",
				 "the event file '%s' is a FIFO with no writer: pstat does not wait for one",
				 path);
	}
	if (ret == -EFBIG)
		return file_fail(err, "split it over several -e @FILE",
				 "the event file '%s' is larger than %u MiB",
				 path, EVPARSE_FILE_MAX >> 20);
	if (ret < 0 && ret != -ENOMEM)
		return cannot_read(err, path, -ret);
	if (ret == 0)
		ret = parse_event_file(el, &ef, text, len, err);
	free(text);
	free(ef.spec);
	free(ef.lines);
	return ret;
}
