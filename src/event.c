/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One event term to its perf_event_attr: names, caches, raw, PMU terms,
 * tracepoints, breakpoints and modifiers. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "event.h"
#include "event_table.h"
#include "pmu.h"

#ifndef PERF_PMU_TYPE_SHIFT
#define PERF_PMU_TYPE_SHIFT 32
#endif
#ifndef PERF_HW_EVENT_MASK
#define PERF_HW_EVENT_MASK 0xffffffffULL
#endif

void event_attr_init(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
}

/* rNNNN or r0xNNNN, hexadecimal either way. */
static int raw_config(const char *name, size_t len, uint64_t *config)
{
	size_t i = 1, digits;

	if (len < 2 || name[0] != 'r')
		return -ENOENT;
	if (len > 3 && name[1] == '0' && (name[2] == 'x' || name[2] == 'X'))
		i = 3;
	digits = len - i;
	/* cppcheck-suppress knownConditionTrueFalse ; false: len is any length */
	if (digits > 16)
		return -ENOENT;
	for (*config = 0; i < len; i++) {
		int c = tolower((unsigned char)name[i]);

		if (!isxdigit(c))
			return -ENOENT;
		*config = *config << 4 | (uint64_t)(isdigit(c) ? c - '0'
							       : c - 'a' + 10);
	}
	return 0;
}

int event_from_name(struct perf_event_attr *attr, const char *name,
		    size_t len)
{
	const struct event_def *def = event_table_find(name, len);
	uint64_t config;
	int ret;

	if (def) {
		attr->type = def->type;
		attr->config = def->config;
		return 0;
	}
	ret = event_table_cache(name, len, &config);
	if (ret == 0)
		attr->type = PERF_TYPE_HW_CACHE;
	else if (ret == -ENOENT && raw_config(name, len, &config) == 0)
		attr->type = PERF_TYPE_RAW, ret = 0;
	if (ret == 0)
		attr->config = config;
	return ret;
}

void event_on_core_pmu(struct perf_event_attr *attr, uint32_t pmu_type)
{
	if (attr->type == PERF_TYPE_HARDWARE ||
	    attr->type == PERF_TYPE_HW_CACHE)
		attr->config = (attr->config & PERF_HW_EVENT_MASK) |
			       (uint64_t)pmu_type << PERF_PMU_TYPE_SHIFT;
	else if (attr->type == PERF_TYPE_RAW)
		attr->type = pmu_type;
}

void event_from_tracepoint(struct perf_event_attr *attr, uint64_t id)
{
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
}

int event_from_breakpoint(struct perf_event_attr *attr, uint64_t addr,
			  uint64_t len, const char *type, size_t type_len,
			  struct error *err)
{
	unsigned int bp = 0;
	size_t i;

	for (i = 0; i < type_len; i++) {
		unsigned int bit = type[i] == 'r' ? HW_BREAKPOINT_R :
				   type[i] == 'w' ? HW_BREAKPOINT_W :
				   type[i] == 'x' ? HW_BREAKPOINT_X : 0;

		if (!bit || (bp & bit))
			return error_at(err, i, "the access is r, w, x or rw",
				      "bad breakpoint access '%.*s'",
				      (int)type_len, type);
		bp |= bit;
	}
	if (!bp)
		bp = HW_BREAKPOINT_RW;
	if (!len)
		len = bp == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	if (len != 1 && len != 2 && len != 4 && len != 8)
		return error_at(err, 0, "the length is 1, 2, 4 or 8",
			      "bad breakpoint length %llu",
			      (unsigned long long)len);
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_type = bp;
	attr->bp_addr = addr;
	attr->bp_len = len;
	return 0;
}

/* A term's value: decimal or 0x hexadecimal. */
static int term_number(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf) || !isdigit((unsigned char)*s))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

struct pmu_ctx {
	struct perf_event_attr *attr;
	const char *pmu;
	struct event_pmu_extra *x;
	struct error *err;
	size_t base;		/* in an alias: its offset in the user's
				 * terms, where its faults are shown */
	bool in_alias;		/* reading an alias's own terms */
	const char *alias;	/* its name, for messages */
	const char *user;	/* the terms as the user typed them */
	size_t user_len;
};

static __u64 *config_word(struct perf_event_attr *attr, int word)
{
	return word == 0 ? &attr->config :
	       word == 1 ? &attr->config1 : &attr->config2;
}

static int pmu_terms(struct pmu_ctx *c, const char *s, size_t len);

/*
 * Where a fault skip bytes into the term at off is shown: there, or,
 * in an alias's own terms, which are no part of the spec, at the alias.
 */
static size_t fault_at(const struct pmu_ctx *c, size_t off, size_t skip)
{
	return c->in_alias ? off : off + skip;
}

/* Whether the user's terms give name=value. */
static bool user_gives(const struct pmu_ctx *c, const char *name)
{
	size_t n = strlen(name), start = 0, i;

	for (i = 0; i <= c->user_len; i++) {
		if (i < c->user_len && c->user[i] != ',')
			continue;
		if (i - start > n && strncmp(c->user + start, name, n) == 0 &&
		    c->user[start + n] == '=')
			return true;
		start = i + 1;
	}
	return false;
}

/* A bare word that is one of the PMU's event aliases. */
/* NOLINTNEXTLINE(misc-no-recursion): at most one alias deep */
static int pmu_alias(struct pmu_ctx *c, const char *name, size_t off)
{
	char file[320], def[1024], meta[64], real[256];
	struct pmu_ctx inner = *c;
	int ret;

	/* As perf, in any case: msr/TSC/ is msr/tsc/. */
	if (pmu_lookup(c->pmu, "events", name, real, sizeof(real)) < 0)
		return -ENOENT;
	name = real;
	snprintf(file, sizeof(file), "events/%s", name);
	if (pmu_read(c->pmu, file, def, sizeof(def)) < 0)
		return -ENOENT;
	if (c->in_alias)
		return error_at(c->err, off, NULL,
			      "alias '%s' of %s refers to another alias",
			      c->alias, c->pmu);
	inner.in_alias = true;
	inner.alias = name;
	inner.base = off;
	ret = pmu_terms(&inner, def, strlen(def));
	if (ret < 0)
		return ret;
	snprintf(file, sizeof(file), "events/%s.scale", name);
	if (pmu_read(c->pmu, file, meta, sizeof(meta)) == 0)
		c->x->scale = strtod(meta, NULL);
	snprintf(file, sizeof(file), "events/%s.unit", name);
	if (pmu_read(c->pmu, file, meta, sizeof(meta)) == 0)
		snprintf(c->x->unit, sizeof(c->x->unit), "%s", meta);
	return 0;
}

static event_table_alias_fn table_alias;

void event_set_table_alias(event_table_alias_fn fn)
{
	table_alias = fn;
}

/* A name of perf's tables for this PMU: its terms, as an alias's. */
/* NOLINTNEXTLINE(misc-no-recursion): an alias is read once, never within one */
static int pmu_table_alias(struct pmu_ctx *c, const char *name, size_t off)
{
	struct pmu_ctx inner = *c;
	char def[1024];
	int ret;

	if (!table_alias || c->in_alias)
		return -ENOENT;
	ret = table_alias(c->pmu, name, def, sizeof(def));
	if (ret < 0)
		return ret;
	inner.in_alias = true;
	inner.alias = name;
	inner.base = off;
	return pmu_terms(&inner, def, strlen(def));
}

/*
 * cpu_core/cycles/: a generic hardware or cache event, the only term,
 * on one core PMU of a hybrid CPU, as perf 6.1 takes it.
 */
static int pmu_generic(struct pmu_ctx *c, const char *name)
{
	struct perf_event_attr a;
	uint32_t pmu_type = c->attr->type;

	if (c->in_alias || c->user_len != strlen(name) ||
	    !pmu_is_hybrid_core(c->pmu))
		return -ENOENT;
	event_attr_init(&a);
	if (event_from_name(&a, name, strlen(name)) < 0 ||
	    (a.type != PERF_TYPE_HARDWARE && a.type != PERF_TYPE_HW_CACHE))
		return -ENOENT;
	c->attr->type = a.type;
	c->attr->config = a.config;
	event_on_core_pmu(c->attr, pmu_type);
	return 0;
}

/* NOLINTNEXTLINE(misc-no-recursion): at most one alias deep */
static int pmu_term(struct pmu_ctx *c, const char *s, size_t len, size_t off)
{
	const char *eq = memchr(s, '=', len);
	size_t nlen = eq ? (size_t)(eq - s) : len;
	const char *val = eq ? eq + 1 : NULL;
	size_t vlen = eq ? len - nlen - 1 : 0;
	char name[128], real[128], file[160], text[256];
	struct pmu_format f;
	uint64_t v = 1, word;
	int ret;

	if (nlen == 0 || nlen >= sizeof(name))
		return error_at(c->err, off, NULL, "expected a term name");
	memcpy(name, s, nlen);
	name[nlen] = '\0';
	if (strcmp(name, "name") == 0) {
		if (!vlen || vlen >= sizeof(c->x->name))
			return error_at(c->err, off, NULL, "name= needs a name");
		snprintf(c->x->name, sizeof(c->x->name), "%.*s", (int)vlen, val);
		return 0;
	}
	/* An alias's term=? is a parameter: the user's own term sets it,
	 * before or after the alias. */
	if (c->in_alias && val && vlen == 1 && *val == '?') {
		if (user_gives(c, name))
			return 0;
		return error_at(c->err, off, NULL,
			      "this %s event needs a value for '%s': add %s=VALUE",
			      c->pmu, name, name);
	}
	if (val && term_number(val, vlen, &v) < 0)
		return error_at(c->err, fault_at(c, off, nlen + 1),
			      "values are decimal or 0x hexadecimal",
			      "bad value for term '%s'", name);
	if (strcmp(name, "config") == 0 || strcmp(name, "config1") == 0 ||
	    strcmp(name, "config2") == 0) {
		/* perf ORs terms into the word, so order never loses bits. */
		*config_word(c->attr, name[6] ? name[6] - '0' : 0) |= v;
		return 0;
	}
	/* perf wants format terms in lower case; either is one term. */
	ret = pmu_lookup(c->pmu, "format", name, real, sizeof(real));
	if (ret == 0) {
		snprintf(file, sizeof(file), "format/%s", real);
		ret = pmu_read(c->pmu, file, text, sizeof(text));
	}
	if (ret == 0) {
		if (pmu_format_parse(text, &f) < 0)
			return error_at(c->err, off, NULL,
				      "cannot understand %s's format of '%s': %s",
				      c->pmu, name, text);
		word = 0;
		if (pmu_format_pack(&f, v, &word) < 0)
			return error_at(c->err,
				      fault_at(c, off, nlen + (val ? 1 : 0)), NULL,
				      "value 0x%llx does not fit term '%s' (%s)",
				      (unsigned long long)v, name, text);
		*config_word(c->attr, f.word) |= word;
		return 0;
	}
	if (!val) {
		ret = pmu_alias(c, name, off);
		if (ret == -ENOENT)
			ret = pmu_generic(c, name);
		if (ret == -ENOENT)
			ret = pmu_table_alias(c, name, off);
		if (ret != -ENOENT)
			return ret;
	}
	return error_at(c->err, off, NULL, "PMU %s has no term or event '%s'",
		      c->pmu, name);
}

/* NOLINTNEXTLINE(misc-no-recursion): at most one alias deep */
static int pmu_terms(struct pmu_ctx *c, const char *s, size_t len)
{
	size_t start = 0, i;
	int ret;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (i == start)
			return error_at(c->err, fault_at(c, c->base, start),
				      NULL, "empty term in %s/%s/", c->pmu,
				      c->in_alias ? c->alias : "");
		ret = pmu_term(c, s + start, i - start,
			       fault_at(c, c->base, start));
		if (ret < 0)
			return ret;
		start = i + 1;
	}
	return 0;
}

int event_from_pmu(struct perf_event_attr *attr, const char *pmu,
		   const char *terms, size_t len, struct event_pmu_extra *x,
		   struct error *err)
{
	struct pmu_ctx c = {
		.attr = attr, .pmu = pmu, .x = x, .err = err,
		.user = terms, .user_len = len,
	};
	int ret;

	x->name[0] = x->unit[0] = '\0';
	x->scale = 1.0;
	ret = pmu_type(pmu, &attr->type);
	if (ret < 0)
		return error_at(err, 0, NULL, "cannot read the type of PMU %s: %s",
			      pmu, strerror(-ret));
	if (len == 0)
		return error_at(err, 0, "name an event, as in msr/tsc/, or terms, as in msr/event=0x0/",
			      "no terms in %s//", pmu);
	return pmu_terms(&c, terms, len);
}

bool event_is_modifier(char c)
{
	return c && strchr("ukhIGHpPSDeW", c) != NULL;
}

/*
 * perf's rule (get_event_modifier): the first of u, k and h excludes all
 * three, then each letter lets its own level back in; an attr that
 * already excludes some (a group member with its own letters) starts
 * from there. G and H work the same way on guest and host. Unlike perf,
 * u does not also exclude the guest: the msr PMU refuses any exclude bit.
 */
int event_apply_modifiers(struct perf_event_attr *attr, const char *mods,
			  size_t len, struct event_mods *m,
			  struct error *err)
{
	int eu = attr->exclude_user, ek = attr->exclude_kernel;
	int eh = attr->exclude_hv, eH = attr->exclude_host;
	int eG = attr->exclude_guest, precise = attr->precise_ip;
	int excluding = eu | ek | eh, excluding_gh = eH | eG;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = mods[i];

		if (!event_is_modifier(c))
			return error_at(err, i, "modifiers are u k h I G H p P S D e W",
				      "unknown modifier '%c'", c);
		if (strchr("ukh", c) && !excluding)
			excluding = eu = ek = eh = 1;
		if (strchr("GH", c) && !excluding_gh)
			excluding_gh = eG = eH = 1;
		switch (c) {
		case 'u': eu = 0; break;
		case 'k': ek = 0; break;
		case 'h': eh = 0; break;
		case 'G': eG = 0; break;
		case 'H': eH = 0; break;
		case 'I': attr->exclude_idle = 1; break;
		case 'D': attr->pinned = 1; break;
		case 'e': attr->exclusive = 1; break;
		case 'P': m->precise_max = true; break;
		case 'W': m->weak = true; break;
		case 'S': break;	/* sampling read: nothing to count */
		case 'p':
			if (++precise > 3)
				return error_at(err, i, "p, pp or ppp",
					      "precise_ip goes up to 3");
			/* As perf: precise sampling wants the host only. */
			if (!excluding_gh)
				eG = 1;
			break;
		}
	}
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	attr->exclude_host = eH;
	attr->exclude_guest = eG;
	attr->precise_ip = precise;
	return 0;
}
