/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's metric expressions (tools/perf/util/expr.y and expr.l):
 * parsed once, then evaluated with the caller's values, as perf 6.12
 * evaluates them (pure).
 */
#ifndef PSTAT_EXPR_H
#define PSTAT_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/*
 * A parsed expression. The language, as perf's lexer and grammar read it:
 *
 *   numbers      1  2.  .5  1.5e3  1e-3 (no sign, no 'E', no hex: 0x10 is
 *                an identifier), and NaN
 *   identifiers  runs of [0-9a-zA-Z_.:@?] and the escapes \- \, \= :
 *                INST_RETIRED.ANY, cpu@INST_RETIRED.ANY@, duration_time,
 *                topdown\-fe\-bound (named topdown-fe-bound); events,
 *                tool events and other metrics alike, the caller says which
 *   literals     '#' and a run of [0-9a-zA-Z_.-]: #smt_on, #slots
 *   operators    from the loosest: A if C else B (B may be another if),
 *                then | ^ & (logical), < >, + -, * / %, unary -; all
 *                binary ones left-associative
 *   functions    d_ratio(a, b) min(a, b) max(a, b) source_count(ID)
 *                has_event(ID) strcmp_cpuid_str(ID)
 *
 * Blanks (spaces, tabs, newlines) separate tokens. perf's lexer drops
 * any other byte it has no rule for (a stray '$' or '\'); here it is an
 * error.
 *
 * perf 6.1 evaluated some of it otherwise: | & ^ were bitwise, on the
 * operands truncated to long; a NaN operand of < or > gave 0 or 1, not
 * NaN; x / 0 failed the expression; and it had no NaN, has_event or
 * strcmp_cpuid_str. Its tables use none of these but / and < >.
 */
struct expr;

/* Nesting (parentheses, operands of operands) deeper is refused. */
#define EXPR_DEPTH_MAX 256

/*
 * Parse text into *e. 0; -EINVAL with err at the byte offset of the
 * fault in text (error_at: the caller sets err->spec); -ENOMEM.
 */
int expr_parse(const char *text, struct expr **e, struct error *err);

void expr_free(struct expr *e);

/* How an expression reads an identifier: bits of expr_id_use(). */
enum {
	EXPR_USE_VALUE = 1,		/* NAME: its value */
	EXPR_USE_SOURCE_COUNT = 2,	/* source_count(NAME) */
	EXPR_USE_HAS_EVENT = 4,		/* has_event(NAME): only the name */
	EXPR_USE_CPUID = 8,		/* strcmp_cpuid_str(NAME): not an event */
};

/*
 * The identifiers of e, unescaped, each once, in the order they first
 * appear; '?' stays as written (perf puts its runtime parameter there,
 * the chip of powerpc's hv_24x7 metrics).
 */
size_t expr_n_ids(const struct expr *e);
const char *expr_id(const struct expr *e, size_t i);

/* EXPR_USE_* bits: all the ways e reads identifier i. */
unsigned expr_id_use(const struct expr *e, size_t i);

/*
 * The caller's values. Every callback is called with arg and may be
 * called more than once for a name; none may be NULL.
 */
struct expr_env {
	void *arg;
	/* An identifier's value; false: unknown, read as NaN. */
	bool (*id)(void *arg, const char *name, double *v);
	/*
	 * A literal's value, name without '#' as written: perf knows
	 * smt_on and system_tsc_freq in any case, and core_wide,
	 * num_cpus, num_cpus_online, num_packages, num_dies, num_cores,
	 * slots, has_pmem as written. false or NaN: unknown, and then
	 * the whole expression fails, as in perf (its lexer refuses it).
	 */
	bool (*literal)(void *arg, const char *name, double *v);
	/* has_event(name): whether the event exists (expr_ids_needed)
	 * or was counted (expr_eval), as perf asks each time. */
	bool (*has_event)(void *arg, const char *name);
	/* source_count(name): how many counters make up its value; NaN
	 * when name is unknown. */
	double (*source_count)(void *arg, const char *name);
	/* strcmp_cpuid_str(s): 0 when the CPU's cpuid matches s. */
	int (*cpuid_cmp)(void *arg, const char *s);
};

/*
 * Evaluate e as perf 6.12 does. *v is NaN where perf's is: an unknown
 * identifier in an operand that is used, a division by zero, a NaN
 * operand of + - * < >. 0; -EINVAL where perf's evaluation fails and it
 * prints the metric without a value: a literal unknown (anywhere in e),
 * or % by a right side that is 0 once truncated (any branch, taken or
 * not: perf evaluates both sides of every if).
 */
int expr_eval(const struct expr *e, const struct expr_env *env, double *v);

/*
 * Which identifiers evaluation can need: perf's compute_ids pass, which
 * decides the events a metric opens. Identifier values are unknown
 * here; literals, has_event and strcmp_cpuid_str are constants, and an
 * operand that constants make unused needs nothing (A if #smt_on else
 * B needs A or B; 0 & X, d_ratio(X, 0), X / 0 need no X; the branches
 * of an if both the same constant need no condition). needed[i], for
 * each of expr_n_ids(e), is set for an identifier whose value or
 * source_count is needed, cleared otherwise (has_event and
 * strcmp_cpuid_str read no value). 0; -EINVAL where perf's pass fails
 * (an unknown literal, a constant % 0); -ENOMEM.
 */
int expr_ids_needed(const struct expr *e, const struct expr_env *env,
		    bool *needed);

/*
 * The same pass as perf 6.1 builds its sets of identifiers, for callers
 * that keep perf's own sets (a hashmap whose order is the order of a
 * group's events): each identifier a set of its own (id), joined
 * operand by operand as perf's grammar joins them (join: a and b, either
 * NULL, are both given up to the result). The sets of operands that
 * constants leave unused are not made. *out: the whole expression's
 * set, or NULL for none. 0, or expr_ids_needed's errors (*out NULL).
 */
struct expr_sets {
	void *arg;
	void *(*id)(void *arg, const char *name);
	void *(*join)(void *arg, void *a, void *b);
};

int expr_id_sets(const struct expr *e, const struct expr_env *env,
		 const struct expr_sets *s, void **out);

#endif
