/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's metric expressions: any text parses or is refused with a
 * reason and a column within it; a parsed one names each identifier
 * once, evaluates the same way twice, and its value does not move when
 * an identifier expr_ids_needed calls unneeded changes, which is what
 * lets pstat leave that event unopened.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fuzz.h"

/* The machine: values from the names, and unneeded ones moved. */
struct machine {
	const struct expr *e;
	const bool *needed;	/* NULL: move nothing */
};

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Some unknown, some 0, some NaN, the rest numbers; a moved one other. */
static bool id_value(void *arg, const char *name, double *v)
{
	const struct machine *m = arg;
	unsigned h = hash(name);
	size_t i;

	for (i = 0; m->needed && i < expr_n_ids(m->e); i++)
		if (!m->needed[i] && !strcmp(expr_id(m->e, i), name))
			h = ~h * 7;
	if (h % 7 == 0)
		return false;
	*v = h % 7 == 1 ? 0 : h % 7 == 2 ? NAN : (double)(h % 2000) / 8 - 50;
	return true;
}

static bool literal(void *arg, const char *name, double *v)
{
	unsigned h = hash(name);

	*v = h % 5 == 0 ? NAN : (double)(h % 4);
	return h % 11 != 0;
}

static bool has_event(void *arg, const char *name)
{
	return hash(name) & 1;
}

static double source_count(void *arg, const char *name)
{
	double v;

	return id_value(arg, name, &v) ? 1 + hash(name) % 3 : NAN;
}

static int cpuid_cmp(void *arg, const char *s)
{
	return (int)(hash(s) >> 3) & 1;
}

/* Both failed, or both gave the same value (NaN as NaN, -0 as -0). */
static bool same(int r1, double v1, int r2, double v2)
{
	if (r1 || r2)
		return r1 == r2;
	if (isnan(v1) || isnan(v2))
		return isnan(v1) && isnan(v2);
	return v1 == v2 && signbit(v1) == signbit(v2);
}

static void check_parsed(const struct expr *e, const char *text)
{
	struct machine m = { .e = e };
	const struct expr_env env = {
		.arg = &m, .id = id_value, .literal = literal,
		.has_event = has_event, .source_count = source_count,
		.cpuid_cmp = cpuid_cmp,
	};
	size_t i, j, n = expr_n_ids(e);
	bool *needed = malloc(n + 1);
	double v, w;
	int r, s, ret;

	FUZZ_CHECK(needed, "no memory");
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(expr_id(e, i)[0] && expr_id_use(e, i),
			   "'%s': identifier %zu is '%s', used %u", text, i,
			   expr_id(e, i), expr_id_use(e, i));
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(expr_id(e, i), expr_id(e, j)),
				   "'%s': '%s' twice", text, expr_id(e, i));
	}
	r = expr_eval(e, &env, &v);
	s = expr_eval(e, &env, &w);
	FUZZ_CHECK(r == 0 || r == -EINVAL, "'%s': %d", text, r);
	FUZZ_CHECK(same(r, v, s, w), "'%s': %g, then %g", text, v, w);
	ret = expr_ids_needed(e, &env, needed);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM, "'%s': %d",
		   text, ret);
	/* What fails perf's pass fails the evaluation. */
	FUZZ_CHECK(ret != -EINVAL || r == -EINVAL,
		   "'%s': needs nothing it can, yet = %g", text, v);
	if (ret == 0) {
		for (i = 0; i < n; i++)
			FUZZ_CHECK(!needed[i] || (expr_id_use(e, i) &
				   (EXPR_USE_VALUE | EXPR_USE_SOURCE_COUNT)),
				   "'%s': '%s' needed, never read", text,
				   expr_id(e, i));
		m.needed = needed;
		s = expr_eval(e, &env, &w);
		/* A % by 0 may come or go with what was not needed. */
		FUZZ_CHECK(r || s || same(r, v, s, w),
			   "'%s': %g, but %g with what it does not need changed",
			   text, v, w);
	}
	free(needed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct expr *e = NULL;
	struct error err;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = expr_parse(text, &e, &err);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM, "'%s': %d",
		   text, ret);
	if (ret == -EINVAL) {
		FUZZ_CHECK(!e, "'%s': refused, yet an expression", text);
		FUZZ_CHECK(err.reason[0], "'%s': no reason", text);
		FUZZ_CHECK(err.col <= strlen(text),
			   "'%s': column %zu past its end (%zu): %s", text,
			   err.col, strlen(text), err.reason);
	}
	if (ret == 0)
		check_parsed(e, text);
	expr_free(e);
	free(text);
	return 0;
}
