/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf's metric expressions: parsed once, evaluated as perf 6.12 does. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "expr.h"

/* What a node computes. */
enum op {
	OP_NUM, OP_ID, OP_SOURCE_COUNT, OP_HAS_EVENT, OP_CPUID, OP_LIT,
	OP_NEG, OP_OR, OP_XOR, OP_AND, OP_LT, OP_GT, OP_ADD, OP_SUB,
	OP_MUL, OP_DIV, OP_MOD, OP_D_RATIO, OP_MIN, OP_MAX,
	OP_IF,			/* kid[0] if kid[1] else kid[2] */
};

/* Each op's operands, in kid[]. */
static const unsigned char n_kids[] = {
	[OP_NEG] = 1, [OP_OR] = 2, [OP_XOR] = 2, [OP_AND] = 2, [OP_LT] = 2,
	[OP_GT] = 2, [OP_ADD] = 2, [OP_SUB] = 2, [OP_MUL] = 2, [OP_DIV] = 2,
	[OP_MOD] = 2, [OP_D_RATIO] = 2, [OP_MIN] = 2, [OP_MAX] = 2,
	[OP_IF] = 3,
};

struct node {
	enum op op;
	unsigned depth;		/* of the tree below, itself included */
	size_t kid[3];		/* operands: nodes made before this one */
	size_t name;		/* OP_LIT: in lit[]; the others: in id[] */
	double num;		/* OP_NUM */
};

struct expr_name {
	char *name;
	unsigned use;		/* EXPR_USE_* */
};

/* Nodes come after their operands, so the last one is the root. */
struct expr {
	struct node *node;
	size_t n_node, cap_node;
	struct expr_name *id;
	size_t n_id, cap_id;
	char **lit;
	size_t n_lit, cap_lit;
};

/* Tokens: the operators and brackets as themselves, then these. */
enum {
	T_END = 256, T_NUM, T_ID, T_LIT,
	T_D_RATIO, T_MIN, T_MAX, T_IF, T_ELSE,
	T_SOURCE_COUNT, T_HAS_EVENT, T_CPUID, T_NAN,
};

static const struct keyword {
	const char *word;
	int tok;
} keywords[] = {
	{ "d_ratio", T_D_RATIO },
	{ "max", T_MAX },
	{ "min", T_MIN },
	{ "if", T_IF },
	{ "else", T_ELSE },
	{ "source_count", T_SOURCE_COUNT },
	{ "has_event", T_HAS_EVENT },
	{ "strcmp_cpuid_str", T_CPUID },
	{ "NaN", T_NAN },
};

/* The functions: two operands, or one identifier (op's use of it). */
static const struct function {
	int tok;
	enum op op;
	unsigned use;		/* 0: two operands */
} functions[] = {
	{ T_D_RATIO, OP_D_RATIO, 0 },
	{ T_MIN, OP_MIN, 0 },
	{ T_MAX, OP_MAX, 0 },
	{ T_SOURCE_COUNT, OP_SOURCE_COUNT, EXPR_USE_SOURCE_COUNT },
	{ T_HAS_EVENT, OP_HAS_EVENT, EXPR_USE_HAS_EVENT },
	{ T_CPUID, OP_CPUID, EXPR_USE_CPUID },
};

/* perf's %left lines, from the loosest; 'if' is looser than them all. */
static const struct binop {
	char c;
	unsigned char prec;
	enum op op;
} binops[] = {
	{ '|', 1, OP_OR }, { '^', 2, OP_XOR }, { '&', 3, OP_AND },
	{ '<', 4, OP_LT }, { '>', 4, OP_GT },
	{ '+', 5, OP_ADD }, { '-', 5, OP_SUB },
	{ '*', 6, OP_MUL }, { '/', 6, OP_DIV }, { '%', 6, OP_MOD },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct token {
	int tok;
	size_t at, len;		/* where in the text */
	double num;		/* T_NUM */
};

struct parser {
	const char *s;
	struct token t;		/* the one looked at */
	struct expr *e;
	struct error *err;
	unsigned nest;
	char quoted[48];
};

/* ASCII, whatever the locale: expr.l's character classes. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* sym [0-9a-zA-Z_\.:@?] */
static bool is_sym(char c)
{
	return is_alnum(c) || c == '_' || c == '.' || c == ':' || c == '@' ||
	       c == '?';
}

static bool is_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* symbol ({spec}|{sym})+ with spec \\[-,=]: its length at s. */
static size_t symbol_len(const char *s)
{
	size_t n = 0;

	for (;;) {
		if (is_sym(s[n]))
			n++;
		else if (s[n] == '\\' && s[n + 1] && strchr("-,=", s[n + 1]))
			n += 2;
		else
			return n;
	}
}

/*
 * number ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)?: digits with at
 * most one point, one digit at least, then an exponent if a whole one
 * follows. Its length at s, 0 for none.
 */
static size_t number_len(const char *s)
{
	size_t n = 0, digits = 0, x;

	for (; is_digit(s[n]); n++)
		digits++;
	if (s[n] == '.')
		for (n++; is_digit(s[n]); n++)
			digits++;
	if (!digits)
		return 0;
	if (s[n] != 'e')
		return n;
	x = n + 1 + (s[n + 1] == '-');
	if (is_digit(s[x]))
		for (n = x; is_digit(s[n]); n++)
			;
	return n;
}

/* literal #[0-9a-zA-Z_\.\-]+: its length at s, 0 for none. */
static size_t literal_len(const char *s)
{
	size_t n = 1;

	if (s[0] != '#')
		return 0;
	while (is_alnum(s[n]) || s[n] == '_' || s[n] == '.' || s[n] == '-')
		n++;
	return n > 1 ? n : 0;
}

static int __attribute__((format(printf, 4, 5)))
fail(struct parser *p, size_t col, const char *hint, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = error_vset(p->err, NULL, col, hint, fmt, ap);
	va_end(ap);
	return ret;
}

/* The token looked at, for a message: quoted (a long one cut), or
 * "the end". */
static const char *quoted(struct parser *p)
{
	const struct token *t = &p->t;

	if (t->tok == T_END)
		return "the end";
	snprintf(p->quoted, sizeof(p->quoted), "'%.*s%s'",
		 (int)(t->len > 40 ? 40 : t->len), p->s + t->at,
		 t->len > 40 ? "..." : "");
	return p->quoted;
}

/*
 * strtod stops where the token ends: what could go on is a symbol's,
 * and the longer symbol would have won. pstat's LC_NUMERIC is "C".
 */
static int number(struct parser *p)
{
	errno = 0;
	p->t.num = strtod(p->s + p->t.at, NULL);
	if (errno)
		return fail(p, p->t.at, NULL, "the number '%.*s' is out of range",
			    (int)p->t.len, p->s + p->t.at);
	return 0;
}

/* A keyword, or an identifier: the symbol of len bytes at s. */
static int word(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < N_OF(keywords); i++)
		if (strlen(keywords[i].word) == len &&
		    !strncmp(s, keywords[i].word, len))
			return keywords[i].tok;
	return T_ID;
}

/* A byte no rule takes: perf's lexer drops it, silently. */
static int stray(struct parser *p)
{
	unsigned char c = (unsigned char)p->s[p->t.at];

	if (c > ' ' && c < 0x7f)
		return fail(p, p->t.at, NULL, "unexpected '%c'", c);
	return fail(p, p->t.at, NULL, "unexpected byte 0x%02x", c);
}

/*
 * The next token, as flex picks it: the longest match, and of those
 * the first rule (keywords, literal, number, symbol, operators).
 */
static int next(struct parser *p)
{
	const char *s = p->s + p->t.at + p->t.len;
	size_t sym, num;

	while (is_blank(*s))
		s++;
	p->t.at = (size_t)(s - p->s);
	p->t.len = literal_len(s);
	p->t.tok = T_LIT;
	if (p->t.len)
		return 0;
	sym = symbol_len(s);
	num = number_len(s);
	if (num && num >= sym) {
		p->t.tok = T_NUM;
		p->t.len = num;
		return number(p);
	}
	if (sym) {
		p->t.tok = word(s, sym);
		p->t.len = sym;
		return 0;
	}
	p->t.tok = *s ? (unsigned char)*s : T_END;
	p->t.len = *s != '\0';
	return *s && !strchr("|^&<>-+*/%(),", *s) ? stray(p) : 0;
}

/* Room for one more of n items of size size in *v. 0 or -ENOMEM. */
static int grow(void *v, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? 2 * *cap : 8;
	void *q;

	if (n < *cap)
		return 0;
	q = want <= SIZE_MAX / size ? realloc(*(void **)v, want * size) : NULL;
	if (!q)
		return -ENOMEM;
	*(void **)v = q;
	*cap = want;
	return 0;
}

/* The identifier at t, unescaped, in e's table once: its index. */
static int add_id(struct parser *p, const struct token *t, unsigned use,
		  size_t *at)
{
	struct expr *e = p->e;
	char *name = malloc(t->len + 1);
	size_t i, n = 0;

	if (!name)
		return -ENOMEM;
	for (i = 0; i < t->len; i++) {
		i += p->s[t->at + i] == '\\';
		name[n++] = p->s[t->at + i];
	}
	name[n] = '\0';
	for (*at = 0; *at < e->n_id; (*at)++)
		if (!strcmp(e->id[*at].name, name))
			break;
	if (*at < e->n_id) {
		free(name);
	} else if (grow(&e->id, &e->cap_id, e->n_id, sizeof(*e->id)) < 0) {
		free(name);
		return -ENOMEM;
	} else {
		e->id[e->n_id++] = (struct expr_name){ .name = name };
	}
	e->id[*at].use |= use;
	return 0;
}

/* The literal looked at, without its '#': its index. */
static int add_lit(struct parser *p, size_t *at)
{
	struct expr *e = p->e;
	size_t len = p->t.len - 1;
	char *name;

	if (grow(&e->lit, &e->cap_lit, e->n_lit, sizeof(*e->lit)) < 0)
		return -ENOMEM;
	name = malloc(len + 1);
	if (!name)
		return -ENOMEM;
	memcpy(name, p->s + p->t.at + 1, len);
	name[len] = '\0';
	*at = e->n_lit;
	e->lit[e->n_lit++] = name;
	return 0;
}

/* Add n, whose kids are made, as the newest node; col: its operator. */
static int add_node(struct parser *p, struct node n, size_t col, size_t *at)
{
	struct expr *e = p->e;
	unsigned k;

	n.depth = 1;
	for (k = 0; k < n_kids[n.op]; k++)
		if (e->node[n.kid[k]].depth >= n.depth)
			n.depth = e->node[n.kid[k]].depth + 1;
	if (n.depth > EXPR_DEPTH_MAX)
		return fail(p, col, NULL,
			    "the expression nests deeper than %d levels",
			    EXPR_DEPTH_MAX);
	if (grow(&e->node, &e->cap_node, e->n_node, sizeof(*e->node)) < 0)
		return -ENOMEM;
	e->node[e->n_node] = n;
	*at = e->n_node++;
	return 0;
}

static int expect(struct parser *p, int tok, const char *what)
{
	if (p->t.tok != tok)
		return fail(p, p->t.at, NULL, "expected %s, not %s",
			    what, quoted(p));
	return next(p);
}

static int if_expr(struct parser *p, size_t *at);
static int binary(struct parser *p, unsigned min_prec, size_t *at);

/* f '(' ID ')' */
static int name_arg(struct parser *p, const struct function *f, size_t *at)
{
	struct node n = { .op = f->op };
	struct token fn = p->t;
	int ret = next(p);

	if (ret == 0)
		ret = expect(p, '(', "'(' after the function's name");
	if (ret == 0 && p->t.tok != T_ID)
		return fail(p, p->t.at, NULL, "%.*s takes a name, not %s",
			    (int)fn.len, p->s + fn.at, quoted(p));
	if (ret == 0)
		ret = add_id(p, &p->t, f->use, &n.name);
	if (ret == 0)
		ret = next(p);
	if (ret == 0)
		ret = expect(p, ')', "')' after the name");
	return ret ? ret : add_node(p, n, fn.at, at);
}

/* f '(' expr ',' expr ')': no if without brackets, as in perf. */
/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int two_args(struct parser *p, const struct function *f, size_t *at)
{
	struct node n = { .op = f->op };
	size_t col = p->t.at;
	int ret = next(p);

	if (ret == 0)
		ret = expect(p, '(', "'(' after the function's name");
	if (ret == 0)
		ret = binary(p, 1, &n.kid[0]);
	if (ret == 0)
		ret = expect(p, ',', "',' or an operator");
	if (ret == 0)
		ret = binary(p, 1, &n.kid[1]);
	if (ret == 0)
		ret = expect(p, ')', "')' or an operator");
	return ret ? ret : add_node(p, n, col, at);
}

/* An identifier, or what looks like a call of a function perf lacks. */
static int identifier(struct parser *p, size_t *at)
{
	struct node n = { .op = OP_ID };
	struct token id = p->t;
	int ret = next(p);

	if (ret == 0 && p->t.tok == '(')
		return fail(p, id.at,
			    "the functions are d_ratio, min, max, source_count, has_event and strcmp_cpuid_str",
			    "unknown function '%.*s'", (int)id.len,
			    p->s + id.at);
	if (ret == 0)
		ret = add_id(p, &id, EXPR_USE_VALUE, &n.name);
	return ret ? ret : add_node(p, n, id.at, at);
}

/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int bracket(struct parser *p, size_t *at)
{
	size_t open = p->t.at;
	int ret = next(p);

	if (ret == 0)
		ret = if_expr(p, at);
	if (ret == 0 && p->t.tok == T_END)
		return fail(p, open, NULL, "this '(' is not closed");
	return ret ? ret : expect(p, ')', "')' or an operator");
}

static int leaf(struct parser *p, struct node n, size_t *at)
{
	size_t col = p->t.at;
	int ret = n.op == OP_LIT ? add_lit(p, &n.name) : 0;

	if (ret == 0)
		ret = next(p);
	return ret ? ret : add_node(p, n, col, at);
}

/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int primary(struct parser *p, size_t *at)
{
	size_t i;

	for (i = 0; i < N_OF(functions); i++)
		if (p->t.tok == functions[i].tok)
			return functions[i].use ? name_arg(p, &functions[i], at) :
						  two_args(p, &functions[i], at);
	switch (p->t.tok) {
	case T_NUM:
	case T_NAN:
		return leaf(p, (struct node){ .op = OP_NUM,
			.num = p->t.tok == T_NAN ? NAN : p->t.num }, at);
	case T_LIT:
		return leaf(p, (struct node){ .op = OP_LIT }, at);
	case T_ID:
		return identifier(p, at);
	case '(':
		return bracket(p, at);
	}
	return fail(p, p->t.at, NULL,
		    "expected a number, a name, a function or '(', not %s",
		    quoted(p));
}

/*
 * One level more of parentheses, minus signs or ifs in each other, as
 * deep as allowed: the parser's recursion, which the caller undoes
 * (p->nest--) whatever enter said.
 */
static int enter(struct parser *p)
{
	if (++p->nest <= EXPR_DEPTH_MAX)
		return 0;
	return fail(p, p->t.at, NULL,
		    "the expression nests deeper than %d levels",
		    EXPR_DEPTH_MAX);
}

/* '-' unary | primary: perf's NEG binds tighter than any operator. */
/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int unary(struct parser *p, size_t *at)
{
	struct node n = { .op = OP_NEG };
	size_t col = p->t.at;
	int ret = enter(p);

	if (ret == 0 && p->t.tok != '-')
		ret = primary(p, at);
	else if (ret == 0) {
		ret = next(p);
		if (ret == 0)
			ret = unary(p, &n.kid[0]);
		if (ret == 0)
			ret = add_node(p, n, col, at);
	}
	p->nest--;
	return ret;
}

static const struct binop *binop_of(int tok)
{
	size_t i;

	for (i = 0; i < N_OF(binops); i++)
		if (tok == binops[i].c)
			return &binops[i];
	return NULL;
}

/* Operands joined by operators of min_prec or tighter, left to right. */
/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int binary(struct parser *p, unsigned min_prec, size_t *at)
{
	const struct binop *b;
	struct node n;
	size_t col;
	int ret = unary(p, at);

	while (ret == 0 && (b = binop_of(p->t.tok)) && b->prec >= min_prec) {
		n = (struct node){ .op = b->op, .kid = { *at } };
		col = p->t.at;
		ret = next(p);
		if (ret == 0)
			ret = binary(p, b->prec + 1u, &n.kid[1]);
		if (ret == 0)
			ret = add_node(p, n, col, at);
	}
	return ret;
}

/* expr ['if' expr 'else' if_expr] */
/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int if_expr(struct parser *p, size_t *at)
{
	struct node n = { .op = OP_IF };
	size_t col;
	int ret = binary(p, 1, at);

	if (ret < 0 || p->t.tok != T_IF)
		return ret;
	n.kid[0] = *at;
	col = p->t.at;
	ret = next(p);
	if (ret == 0)
		ret = binary(p, 1, &n.kid[1]);
	if (ret == 0)
		ret = expect(p, T_ELSE, "'else' or an operator");
	if (ret < 0)
		return ret;
	ret = enter(p);
	if (ret == 0)
		ret = if_expr(p, &n.kid[2]);
	p->nest--;
	return ret ? ret : add_node(p, n, col, at);
}

void expr_free(struct expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->n_id; i++)
		free(e->id[i].name);
	for (i = 0; i < e->n_lit; i++)
		free(e->lit[i]);
	free(e->id);
	free(e->lit);
	free(e->node);
	free(e);
}

int expr_parse(const char *text, struct expr **e, struct error *err)
{
	struct parser p = { .s = text, .err = err };
	size_t root = 0;
	int ret;

	p.e = calloc(1, sizeof(*p.e));
	if (!p.e)
		return -ENOMEM;
	ret = next(&p);
	if (ret == 0 && p.t.tok == T_END)
		ret = fail(&p, p.t.at, NULL, "the expression is empty");
	if (ret == 0)
		ret = if_expr(&p, &root);
	if (ret == 0 && p.t.tok == ')')
		ret = fail(&p, p.t.at, NULL, "unexpected ')': no '(' is open");
	if (ret == 0 && p.t.tok != T_END)
		ret = fail(&p, p.t.at, NULL, "expected an operator, not %s",
			   quoted(&p));
	if (ret < 0) {
		expr_free(p.e);
		return ret;
	}
	*e = p.e;
	return 0;
}

size_t expr_n_ids(const struct expr *e)
{
	return e->n_id;
}

const char *expr_id(const struct expr *e, size_t i)
{
	return e->id[i].name;
}

unsigned expr_id_use(const struct expr *e, size_t i)
{
	return e->id[i].use;
}

/*
 * An evaluation: perf's, or its compute_ids pass (ids), where every
 * identifier is BOTTOM, a NaN that stands for any value, and only
 * finite values are the constants that decide branches (is_const).
 */
struct eval {
	const struct expr *e;
	const struct expr_env *env;
	bool ids;
	double *val;		/* ids: each node's value, for needed() */
};

static bool is_const(double v)
{
	return isfinite(v);
}

/*
 * 6.12's | & ^ are logical on constants (6.1's were bitwise on longs).
 * A side that is no constant (NaN, inf) passes on through | 0 and & 1,
 * and loses to | 1 and & 0.
 */
static double logical(enum op op, double a, double b)
{
	bool ca = is_const(a), cb = is_const(b);
	double c = ca ? a : b, x = ca ? b : a;

	if (ca && cb && op == OP_OR)
		return a != 0 || b != 0;
	if (ca && cb && op == OP_AND)
		return a != 0 && b != 0;
	if (ca && cb)
		return (a == 0) != (b == 0);
	if (op == OP_XOR || (!ca && !cb))
		return NAN;
	/* One side is the constant c, the other x. */
	if (op == OP_OR)
		return c == 0 ? x : 1;
	return c != 0 ? x : 0;
}

/*
 * perf: (long)a % (long)b, fails for b == 0. A b that truncates to 0
 * fails too (perf's would trap), and an operand that is no long gives
 * NaN (perf's conversion is undefined: LONG_MIN on x86). fmod of the
 * truncated operands is exact, and + 0.0 makes its -0 perf's 0.
 */
static int mod(double a, double b, double *v)
{
	a = trunc(a);
	b = trunc(b);
	if (b == 0)
		return -EINVAL;
	if (fabs(a) < 0x1p63 && fabs(b) < 0x1p63)
		*v = fmod(a, b) + 0.0;
	else
		*v = NAN;
	return 0;
}

/* + - * < >, and min and max: NaN in, NaN out (6.12; 6.1 compared). */
static double arith(const struct eval *ev, enum op op, double a, double b)
{
	if (ev->ids && (op == OP_MIN || op == OP_MAX))
		return NAN;
	if (op == OP_MIN)
		return a < b ? a : b;
	if (op == OP_MAX)
		return a > b ? a : b;
	if (isnan(a) || isnan(b) || (ev->ids && !(is_const(a) && is_const(b))))
		return NAN;
	switch (op) {
	case OP_LT:
		return a < b;
	case OP_GT:
		return a > b;
	case OP_ADD:
		return a + b;
	case OP_SUB:
		return a - b;
	default:
		return a * b;
	}
}

/* / % d_ratio: what a zero on the right gives, then the quotient. */
static int divide(const struct eval *ev, enum op op, double a, double b,
		  double *v)
{
	if (b == 0 && op == OP_MOD)
		return -EINVAL;
	if (b == 0) {
		*v = op == OP_DIV ? NAN : 0;
		return 0;
	}
	*v = NAN;
	if (ev->ids && !(is_const(a) && is_const(b)))
		return 0;
	if (op == OP_MOD)
		return mod(a, b, v);
	*v = a / b;
	return 0;
}

/* then if cond else other: only a 0 is false, NaN is true. */
static double choose(const struct eval *ev, double then, double cond,
		     double other)
{
	if (cond == 0)
		return other;
	if (!ev->ids || is_const(cond))
		return then;
	return then == other ? then : NAN;
}

/* A node without operands. 0, or -EINVAL for a literal unknown. */
static int leaf_value(const struct eval *ev, const struct node *n,
		      double *v)
{
	const struct expr_env *env = ev->env;
	const char *name;

	if (n->op == OP_NUM) {
		*v = n->num;
		return 0;
	}
	name = n->op == OP_LIT ? ev->e->lit[n->name] : ev->e->id[n->name].name;
	*v = NAN;
	switch (n->op) {
	case OP_LIT:
		return env->literal(env->arg, name, v) && !isnan(*v) ? 0 :
								     -EINVAL;
	case OP_HAS_EVENT:
		*v = env->has_event(env->arg, name);
		return 0;
	case OP_CPUID:
		*v = env->cpuid_cmp(env->arg, name) == 0;
		return 0;
	case OP_SOURCE_COUNT:
		if (!ev->ids)
			*v = env->source_count(env->arg, name);
		return 0;
	default:
		if (!ev->ids && !env->id(env->arg, name, v))
			*v = NAN;
		return 0;
	}
}

/*
 * Node i's value. Every operand is evaluated, taken or not, as perf's
 * parser does bottom up: a failure anywhere fails the whole.
 */
/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static int value(const struct eval *ev, size_t i, double *v)
{
	const struct node *n = &ev->e->node[i];
	double x[3] = { 0 };
	unsigned k;
	int ret = 0;

	for (k = 0; k < n_kids[n->op] && ret == 0; k++)
		ret = value(ev, n->kid[k], &x[k]);
	if (ret < 0)
		return ret;
	switch (n->op) {
	case OP_NEG:
		*v = -x[0];
		break;
	case OP_OR:
	case OP_AND:
	case OP_XOR:
		*v = logical(n->op, x[0], x[1]);
		break;
	case OP_DIV:
	case OP_MOD:
	case OP_D_RATIO:
		ret = divide(ev, n->op, x[0], x[1], v);
		break;
	case OP_IF:
		*v = choose(ev, x[0], x[1], x[2]);
		break;
	default:
		if (n_kids[n->op])
			*v = arith(ev, n->op, x[0], x[1]);
		else
			ret = leaf_value(ev, n, v);
	}
	if (ret == 0 && ev->val)
		ev->val[i] = *v;
	return ret;
}

int expr_eval(const struct expr *e, const struct expr_env *env, double *v)
{
	const struct eval ev = { .e = e, .env = env };

	return value(&ev, e->n_node - 1, v);
}

/*
 * Mark the operands of live node n whose identifiers perf's pass keeps,
 * from their values: a side that a constant makes unused has none.
 */
static void keep(const struct node *n, const double *val, bool *live)
{
	const size_t *k = n->kid;
	bool kept[3] = { true, true, true };
	unsigned i;

	switch (n->op) {
	case OP_OR:
		kept[0] = !(is_const(val[k[1]]) && val[k[1]] != 0);
		kept[1] = !(is_const(val[k[0]]) && val[k[0]] != 0);
		break;
	case OP_AND:
		kept[0] = !(is_const(val[k[1]]) && val[k[1]] == 0);
		kept[1] = !(is_const(val[k[0]]) && val[k[0]] == 0);
		break;
	case OP_DIV:
	case OP_D_RATIO:
		kept[0] = val[k[1]] != 0;
		break;
	case OP_IF:
		kept[0] = val[k[1]] != 0;
		kept[2] = val[k[1]] == 0 || !is_const(val[k[1]]);
		/* Both branches the same constant: nothing is needed. */
		if (!is_const(val[k[1]]) && val[k[0]] == val[k[2]])
			kept[0] = kept[2] = false;
		kept[1] = kept[0] && kept[2];
		break;
	default:
		break;
	}
	for (i = 0; i < n_kids[n->op]; i++)
		live[k[i]] = live[k[i]] || kept[i];
}

int expr_ids_needed(const struct expr *e, const struct expr_env *env,
		    bool *needed)
{
	struct eval ev = { .e = e, .env = env, .ids = true };
	bool *live = calloc(e->n_node, sizeof(*live));
	size_t i;
	double v;
	int ret = -ENOMEM;

	ev.val = malloc(e->n_node * sizeof(*ev.val));
	if (live && ev.val)
		ret = value(&ev, e->n_node - 1, &v);
	memset(needed, 0, e->n_id * sizeof(*needed));
	if (ret == 0)
		live[e->n_node - 1] = true;
	/* Parents come after their operands: each is decided first. */
	for (i = e->n_node; ret == 0 && i-- > 0;) {
		if (!live[i])
			continue;
		if (e->node[i].op == OP_ID || e->node[i].op == OP_SOURCE_COUNT)
			needed[e->node[i].name] = true;
		else if (n_kids[e->node[i].op])
			keep(&e->node[i], ev.val, live);
	}
	free(ev.val);
	free(live);
	return ret;
}

/*
 * Node i's set, from its operands' (ev->val holds every node's value):
 * perf 6.1's expr.y, which joins its operands' sets in this order.
 */
/* NOLINTNEXTLINE(misc-no-recursion): nests EXPR_DEPTH_MAX deep at most */
static void *node_set(const struct eval *ev, const struct expr_sets *s,
		      size_t i)
{
	const struct node *n = &ev->e->node[i];
	const double *val = ev->val;
	const size_t *k = n->kid;

	switch (n->op) {
	case OP_ID:
	case OP_SOURCE_COUNT:
		return s->id(s->arg, ev->e->id[n->name].name);
	case OP_NEG:
		return node_set(ev, s, k[0]);
	case OP_IF:
		if (val[k[1]] == 0)
			return node_set(ev, s, k[2]);
		if (is_const(val[k[1]]))
			return node_set(ev, s, k[0]);
		if (val[k[0]] == val[k[2]])
			return NULL;
		return s->join(s->arg, node_set(ev, s, k[0]),
			       s->join(s->arg, node_set(ev, s, k[1]),
				       node_set(ev, s, k[2])));
	case OP_MIN:
	case OP_MAX:
		return s->join(s->arg, node_set(ev, s, k[0]),
			       node_set(ev, s, k[1]));
	default:
		break;
	}
	if (!n_kids[n->op] || is_const(val[i]))
		return NULL;
	if ((n->op == OP_DIV || n->op == OP_D_RATIO) && val[k[1]] == 0)
		return node_set(ev, s, k[1]);
	return s->join(s->arg, node_set(ev, s, k[0]), node_set(ev, s, k[1]));
}

int expr_id_sets(const struct expr *e, const struct expr_env *env,
		 const struct expr_sets *s, void **out)
{
	struct eval ev = { .e = e, .env = env, .ids = true };
	double v;
	int ret = -ENOMEM;

	*out = NULL;
	ev.val = malloc(e->n_node * sizeof(*ev.val));
	if (ev.val)
		ret = value(&ev, e->n_node - 1, &v);
	if (ret == 0)
		*out = node_set(&ev, s, e->n_node - 1);
	free(ev.val);
	return ret;
}
