/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What an event list's parse promises (evcheck.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evcheck.h"
#include "evlist.h"
#include "fuzz.h"

struct parsed {
	struct evlist *el;
	struct error err;
	int ret;
};

static evcheck_parse_fn *parse_fn;
static size_t group_max;

static void parse(struct parsed *p, const char *spec)
{
	memset(&p->err, 0, sizeof(p->err));
	p->el = evlist_new();
	FUZZ_CHECK(p->el, "no memory");
	p->ret = parse_fn(p->el, spec, &p->err);
}

/* What any parse promises, good or bad. */
static void check_one(const struct parsed *p, const char *spec)
{
	size_t i, n = evlist_count(p->el);

	FUZZ_CHECK(p->ret == 0 || p->ret == -EINVAL || p->ret == -ENOMEM,
		   "'%s': %d", spec, p->ret);
	if (p->ret == -EINVAL) {
		FUZZ_CHECK(p->err.reason[0], "'%s': no reason", spec);
		FUZZ_CHECK(p->err.spec == spec, "'%s': the error shows '%s'",
			   spec, p->err.spec ? p->err.spec : "(null)");
		FUZZ_CHECK(p->err.col <= strlen(spec),
			   "'%s': column %zu past its end (%zu): %s", spec,
			   p->err.col, strlen(spec), p->err.reason);
		FUZZ_CHECK(!p->err.where[0] && !p->err.buf, "'%s': where '%s'",
			   spec, p->err.where);
	}
	if (p->ret == 0)
		FUZZ_CHECK(n > 0, "'%s' is good but has no events", spec);
	for (i = 0; i < n; i++) {
		const struct evsel *e = evlist_at(p->el, i);
		const struct perf_event_attr *a = evsel_attr(e);
		struct evlist_group g = evlist_group_of(p->el, i);

		FUZZ_CHECK(evsel_name(e)[0], "'%s': event %zu has no name",
			   spec, i);
		FUZZ_CHECK(a->size == sizeof(*a) && a->precise_ip <= 3,
			   "'%s': event %zu: size %u, precise_ip %u", spec, i,
			   a->size, (unsigned)a->precise_ip);
		FUZZ_CHECK(g.first <= i && i < g.first + g.n &&
			   g.first + g.n <= n && g.n <= group_max,
			   "'%s': event %zu in group [%zu, +%zu)", spec, i,
			   g.first, g.n);
	}
}

/* The same spec, the same answer: nothing depends on an earlier parse. */
static void check_same(const struct parsed *a, const struct parsed *b,
		       const char *spec)
{
	size_t i;

	FUZZ_CHECK(a->ret == b->ret, "'%s': %d, then %d", spec, a->ret, b->ret);
	FUZZ_CHECK(evlist_count(a->el) == evlist_count(b->el),
		   "'%s': %zu events, then %zu", spec, evlist_count(a->el),
		   evlist_count(b->el));
	if (a->ret == -EINVAL)
		FUZZ_CHECK(a->err.col == b->err.col &&
			   strcmp(a->err.reason, b->err.reason) == 0 &&
			   strcmp(a->err.hint, b->err.hint) == 0,
			   "'%s': '%s' at %zu, then '%s' at %zu", spec,
			   a->err.reason, a->err.col, b->err.reason,
			   b->err.col);
	for (i = 0; i < evlist_count(a->el); i++) {
		const struct evsel *x = evlist_at(a->el, i);
		const struct evsel *y = evlist_at(b->el, i);

		FUZZ_CHECK(strcmp(evsel_name(x), evsel_name(y)) == 0 &&
			   memcmp(evsel_attr(x), evsel_attr(y),
				  sizeof(struct perf_event_attr)) == 0,
			   "'%s': event %zu '%s', then '%s'", spec, i,
			   evsel_name(x), evsel_name(y));
	}
}

/* "spec,spec" of a good spec: twice its events, in the same groups. */
static void check_twice(const struct parsed *once, const char *spec)
{
	size_t len = strlen(spec), n = evlist_count(once->el), i;
	char *twice = malloc(2 * len + 2);
	struct parsed p;

	FUZZ_CHECK(twice, "no memory");
	memcpy(twice, spec, len);
	twice[len] = ',';
	memcpy(twice + len + 1, spec, len + 1);
	parse(&p, twice);
	FUZZ_CHECK(p.ret == 0, "'%s' is good, '%s' is not: %s at %zu", spec,
		   twice, p.err.reason, p.err.col);
	FUZZ_CHECK(evlist_count(p.el) == 2 * n, "'%s': %zu events, '%s': %zu",
		   spec, n, twice, evlist_count(p.el));
	for (i = 0; i < n; i++) {
		const struct evsel *x = evlist_at(once->el, i);
		const struct evsel *y = evlist_at(p.el, n + i);
		struct evlist_group gx = evlist_group_of(once->el, i);
		struct evlist_group gy = evlist_group_of(p.el, n + i);

		FUZZ_CHECK(strcmp(evsel_name(x), evsel_name(y)) == 0 &&
			   gx.n == gy.n && gx.first + n == gy.first,
			   "'%s': event %zu '%s', in '%s' '%s'", spec, i,
			   evsel_name(x), twice, evsel_name(y));
	}
	error_fini(&p.err);
	evlist_free(p.el);
	free(twice);
}

void evcheck(const uint8_t *data, size_t size, evcheck_parse_fn *fn,
	     size_t max)
{
	/* Exactly as long as the string: a read past its end is caught. */
	char *spec = fuzz_strndup(data, strnlen((const char *)data, size));
	struct parsed a, b;

	parse_fn = fn;
	group_max = max;
	parse(&a, spec);
	check_one(&a, spec);
	parse(&b, spec);
	check_same(&a, &b, spec);
	if (a.ret == 0)
		check_twice(&a, spec);
	error_fini(&a.err);
	error_fini(&b.err);
	evlist_free(a.el);
	evlist_free(b.el);
	free(spec);
}
