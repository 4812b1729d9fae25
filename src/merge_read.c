/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge's reader: one file of pstat --format=csv or --format=json,
 * told apart by its first bytes, parsed in place into its events and
 * run record. Nothing here trusts the file: every field is checked.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "caps.h"
#include "error.h"
#include "merge_impl.h"
#include "output.h"

/* Larger is not a file pstat wrote for one rank. */
#define MAX_FILE (256u << 20)
#define MAX_DEPTH 32

static const char killed_hint[] =
	"was pstat killed? an MPI launcher kills the other ranks when one dies";

/* The whole file, NUL-terminated, into *buf; its length or -errno.
 * With the user's rights, whatever pstat's own (caps.h). */
static long slurp(const char *path, char **buf)
{
	size_t cap = 65536, n = 0;
	char *b = NULL, *nb;
	ssize_t r;
	int fd = caps_open_user(path, O_RDONLY | O_CLOEXEC, 0);

	*buf = NULL;
	if (fd < 0)
		return -errno;
	do {
		if (n + 1 >= cap || !b) {
			cap = b ? cap * 2 : cap;
			nb = cap <= MAX_FILE ? realloc(b, cap) : NULL;
			if (!nb) {
				free(b);
				close(fd);
				return cap <= MAX_FILE ? -ENOMEM : -EFBIG;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n - 1);
		n += r > 0 ? (size_t)r : 0;
	} while (r > 0 || (r < 0 && errno == EINTR));
	r = r < 0 ? -errno : 0;
	close(fd);
	b[n] = '\0';
	*buf = b;
	return r < 0 ? r : (long)n;
}

/*
 * What a number in a rank's file may be: pstat writes none outside
 * these. VALUE_MAX keeps sums and variances over INT_MAX ranks finite,
 * and is far above any 64-bit count times any PMU's scale.
 */
struct kind {
	double lo, hi;
	bool whole;
	const char *what;
};

#define VALUE_MAX 1e30

static const struct kind k_version = { 0, INT_MAX, true,
	"a format version (0 or more)" };
static const struct kind k_rank = { 0, INT_MAX - 1, true,
	"a rank (0 to 2147483646)" };
static const struct kind k_size = { 1, INT_MAX, true,
	"a size (1 to 2147483647)" };
static const struct kind k_exit = { 0, 255, true,
	"an exit status (0 to 255)" };
static const struct kind k_signal = { 1, 64, true,
	"a signal number (1 to 64)" };
static const struct kind k_amount = { 0, VALUE_MAX, false,
	"a decimal number from 0 to 1e30" };
static const struct kind k_pct = { 0, 100, false,
	"a percentage (0 to 100)" };

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The end of the number at s in JSON's grammar (leading zeros let
 * through), or s when none starts there: no "nan", "inf", hex or
 * spaces, all of which strtod takes.
 */
static const char *number_end(const char *s)
{
	const char *p = s + (*s == '-'), *q;

	if (!digit(*p))
		return s;
	while (digit(*p))
		p++;
	if (*p == '.') {
		if (!digit(p[1]))
			return s;
		for (p++; digit(*p); p++)
			;
	}
	if (*p == 'e' || *p == 'E') {
		q = p + 1 + (p[1] == '+' || p[1] == '-');
		if (!digit(*q))
			return s;
		for (p = q; digit(*p); p++)
			;
	}
	return p;
}

/* The number at s, its end in *end: NAN when there is none. */
static double number(const char *s, const char **end)
{
	char *e;
	double d;

	*end = number_end(s);
	if (*end == s)
		return NAN;
	d = strtod(s, &e);
	return e == *end ? d : NAN;
}

/* text (n bytes) as a message shows it: one line, printable, cut short. */
static void show(char *buf, size_t len, const char *text, size_t n)
{
	size_t i;

	for (i = 0; i < n && i + 4 < len; i++)
		buf[i] = (char)(text[i] >= ' ' && text[i] < 0x7f ? text[i] : '?');
	snprintf(buf + i, len - i, "%s", i < n ? "..." : "");
}

/*
 * d, said as text (n bytes) for key, checked against k: 0, or -EINVAL
 * with the reason, naming path and key, in err.
 */
static int in_bounds(const char *path, const char *key, const char *text,
		     size_t n, double d, const struct kind *k, char *err,
		     size_t len)
{
	char shown[48];

	if (isfinite(d) && !signbit(d) && d >= k->lo && d <= k->hi &&
	    (!k->whole || d == floor(d)))
		return 0;
	show(shown, sizeof(shown), text, n);
	return error_say(err, len, "%s: %s '%s' is not %s", path, key, shown,
		   k->what);
}

/* text, all of it a number of kind k, into *d: 0 or -EINVAL. */
static int text_number(const char *path, const char *key, const char *text,
		       const struct kind *k, double *d, char *err,
		       size_t len)
{
	const char *end;

	*d = number(text, &end);
	if (*end)
		*d = NAN;
	return in_bounds(path, key, text, strlen(text), *d, k, err, len);
}

/* A signal's name as pstat writes it ("SIGKILL", "SIGRTMIN+3"), or 0. */
static int signal_number(const char *name)
{
	char buf[16];
	int sig;

	for (sig = 1; sig < 65; sig++)
		if (strcmp(output_signal_name(sig, buf, sizeof(buf)), name) == 0)
			return sig;
	return 0;
}

/* ptr with room for twice *cap elements of size each, or NULL. */
static void *grow(void *ptr, size_t *cap, size_t size)
{
	size_t n = *cap ? *cap * 2 : 16;
	void *p = n <= SIZE_MAX / size ? realloc(ptr, n * size) : NULL;

	if (p)
		*cap = n;
	return p;
}

static int add_value(struct merge_file *mf, const char *event,
		     const char *aggr, struct merge_value v)
{
	struct merge_value *nv;
	size_t len = strlen(event) + (aggr && *aggr ? strlen(aggr) + 4 : 1);

	if (mf->n_vals == mf->cap_vals) {
		nv = grow(mf->vals, &mf->cap_vals, sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		mf->vals = nv;
	}
	v.name = malloc(len);
	if (!v.name)
		return -ENOMEM;
	if (aggr && *aggr)
		snprintf(v.name, len, "%s (%s)", event, aggr);
	else
		snprintf(v.name, len, "%s", event);
	mf->vals[mf->n_vals++] = v;
	return 0;
}

/* CSV, as RFC 4180 quotes it; parsed in place. */

enum { C_RECORD, C_AGGR, C_EVENT, C_VALUE, C_UNIT, C_STATUS, C_RUNNING,
       N_COLS };

static const char *const col_names[N_COLS] = {
	"record", "aggregate", "event", "value", "unit", "status",
	"running_pct",
};

#define MAX_FIELDS 32

/*
 * The record at *p: its fields made C strings in place, up to MAX_FIELDS
 * of them in f. Their number, 0 at the end, -EINVAL when a quote is
 * left open or text follows one.
 */
static int csv_record(char **p, char *end, char **f)
{
	char *s = *p, *w, *start, c;
	int n = 0;

	if (s >= end)
		return 0;
	for (;;) {
		start = w = s;
		if (*s == '"') {
			for (s++;; s++) {
				if (s >= end)
					return -EINVAL;
				if (*s == '"' && s[1] != '"')
					break;
				if (*s == '"')
					s++;
				*w++ = *s;
			}
			s++;
		} else {
			while (s < end && *s != ',' && *s != '\n')
				*w++ = *s++;
		}
		c = '\n';
		if (s < end)
			c = *s;
		if (c != ',' && c != '\n')
			return -EINVAL;
		if (*start != '"' && w > start && w[-1] == '\r')
			w--;
		*w = '\0';
		if (n < MAX_FIELDS)
			f[n] = start;
		n++;
		s = s < end ? s + 1 : end;
		if (c == '\n')
			break;
	}
	*p = s;
	return n;
}

/* Each column's place in the header's fields, or -EINVAL. */
static int csv_columns(char **f, int n, int *col)
{
	int i, j;

	for (i = 0; i < N_COLS; i++) {
		col[i] = -1;
		for (j = 0; j < n && j < MAX_FIELDS; j++)
			if (strcmp(f[j], col_names[i]) == 0)
				col[i] = j;
		if (col[i] < 0)
			return -EINVAL;
	}
	return 0;
}

/* A run fact with a number: where it goes in a merge_file. */
enum fact_type { F_LONG, F_INT, F_DOUBLE };

static const struct fact {
	const char *key;
	const struct kind *kind;
	size_t off;
	enum fact_type type;
} facts[] = {
	{ "format_version", &k_version,
	  offsetof(struct merge_file, format_version), F_LONG },
	{ "rank", &k_rank, offsetof(struct merge_file, rank), F_LONG },
	{ "size", &k_size, offsetof(struct merge_file, size), F_LONG },
	{ "exit_status", &k_exit, offsetof(struct merge_file, exit_status),
	  F_INT },
	{ "signal", &k_signal, offsetof(struct merge_file, signal), F_INT },
	{ "elapsed_s", &k_amount, offsetof(struct merge_file, elapsed_s),
	  F_DOUBLE },
	{ "user_s", &k_amount, offsetof(struct merge_file, user_s),
	  F_DOUBLE },
	{ "sys_s", &k_amount, offsetof(struct merge_file, sys_s), F_DOUBLE },
	{ "max_rss_kib", &k_amount, offsetof(struct merge_file, max_rss_kib),
	  F_DOUBLE },
};

static const struct fact *fact_of(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		if (strcmp(facts[i].key, key) == 0)
			return &facts[i];
	return NULL;
}

/* d, within ft's bounds, into mf. */
static void fact_set(struct merge_file *mf, const struct fact *ft, double d)
{
	void *at = (char *)mf + ft->off;

	if (ft->type == F_LONG)
		*(long *)at = (long)d;
	else if (ft->type == F_INT)
		*(int *)at = (int)d;
	else
		*(double *)at = d;
	if (strcmp(ft->key, "user_s") == 0)
		mf->has_command = true;
}

static int csv_run_fact(struct merge_file *mf, const char *key,
			const char *v, int line, char *err, size_t len)
{
	const struct fact *ft = fact_of(key);
	char where[64];
	double d;
	int ret;

	if (strcmp(key, "signal") == 0 && *v) {
		/* pstat writes a signal's name in CSV ("SIGKILL"). */
		mf->signal = signal_number(v);
		show(where, sizeof(where), v, strlen(v));
		if (!mf->signal)
			return error_say(err, len,
				   "%s: line %d: signal '%s' is not a signal's name as pstat writes it",
				   mf->path, line, where);
	} else if (ft && *v && ft->kind != &k_signal) {
		snprintf(where, sizeof(where), "line %d: %s", line, key);
		ret = text_number(mf->path, where, v, ft->kind, &d, err, len);
		if (ret < 0)
			return ret;
		fact_set(mf, ft, d);
	} else if (strcmp(key, "job_id") == 0 && *v) {
		mf->job_id = v;
	} else if (strcmp(key, "command") == 0 && !mf->command) {
		return (mf->command = strdup(v)) ? 0 : -ENOMEM;
	}
	return 0;
}

/* An event's value or running percentage: none when empty. */
static int csv_number(const struct merge_file *mf, const char *text,
		      const char *col, int line, const struct kind *k,
		      double *d, char *err, size_t len)
{
	char where[64];

	if (!*text)
		return 0;
	snprintf(where, sizeof(where), "line %d: %s", line, col);
	return text_number(mf->path, where, text, k, d, err, len) < 0 ?
	       -EINVAL : 1;
}

static int csv_row(struct merge_file *mf, char **f, const int *col,
		   int line, char *err, size_t len)
{
	struct merge_value v = { 0 };
	int ret;

	if (strcmp(f[col[C_RECORD]], "run") == 0) {
		mf->has_run = true;
		return csv_run_fact(mf, f[col[C_EVENT]], f[col[C_VALUE]], line,
				    err, len);
	}
	if (strcmp(f[col[C_RECORD]], "total") != 0)
		return 0;
	v.unit = f[col[C_UNIT]];
	v.status = f[col[C_STATUS]];
	ret = csv_number(mf, f[col[C_VALUE]], "value", line, &k_amount,
			 &v.value, err, len);
	if (ret < 0)
		return ret;
	v.has_value = ret > 0;
	ret = csv_number(mf, f[col[C_RUNNING]], "running_pct", line, &k_pct,
			 &v.running_pct, err, len);
	if (ret < 0)
		return ret;
	return add_value(mf, f[col[C_EVENT]], f[col[C_AGGR]], v);
}

static int csv_read(struct merge_file *mf, char *err, size_t len)
{
	char *p = mf->buf, *end = p + strlen(p), *f[MAX_FIELDS];
	int col[N_COLS], n, width, line = 1, ret;

	n = csv_record(&p, end, f);
	if (n <= 0 || csv_columns(f, n, col) < 0)
		return error_say(err, len,
			   "%s: not pstat's --format=csv (its header lacks a column --merge reads)",
			   mf->path);
	width = n;
	while ((n = csv_record(&p, end, f)) != 0) {
		line++;
		if (n == 1 && !*f[0])
			continue;
		if (n < 0)
			return error_say(err, len,
				   "%s: line %d: a quote left open, or text after one",
				   mf->path, line);
		if (n != width)
			return error_say(err, len,
				   "%s: line %d is not a record of pstat's --format=csv (%d fields, not %d)",
				   mf->path, line, n, width);
		ret = csv_row(mf, f, col, line, err, len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* JSON: a small tree, strings decoded in place. */

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jtype t;
	double num;
	const char *text;	/* J_NUM: as written, len bytes */
	size_t len;
	char *str;
	size_t n, cap;		/* items, and room for them */
	struct jv *items;
	char **keys;		/* J_OBJ: one per item */
};

struct jparse {
	char *p;
	int depth;
	int err;		/* -EINVAL or -ENOMEM */
};

/* NOLINTNEXTLINE(misc-no-recursion): at most MAX_DEPTH deep */
static void jv_free(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		jv_free(&v->items[i]);
	free(v->items);
	free(v->keys);
}

static void skip_ws(struct jparse *jp)
{
	while (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' ||
	       *jp->p == '\r')
		jp->p++;
}

static int hex4(const char *s, unsigned int *u)
{
	int i;

	*u = 0;
	for (i = 0; i < 4; i++) {
		char c = s[i];

		*u <<= 4;
		if (c >= '0' && c <= '9')
			*u |= (unsigned int)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*u |= (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return -EINVAL;
	}
	return 0;
}

/* Code point u as UTF-8 at *w. */
static void utf8(char **w, unsigned int u)
{
	unsigned char *o = (unsigned char *)*w;

	if (u < 0x80) {
		*o++ = (unsigned char)u;
	} else if (u < 0x800) {
		*o++ = (unsigned char)(0xc0 | u >> 6);
		*o++ = (unsigned char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		*o++ = (unsigned char)(0xe0 | u >> 12);
		*o++ = (unsigned char)(0x80 | ((u >> 6) & 0x3f));
		*o++ = (unsigned char)(0x80 | (u & 0x3f));
	} else {
		*o++ = (unsigned char)(0xf0 | u >> 18);
		*o++ = (unsigned char)(0x80 | ((u >> 12) & 0x3f));
		*o++ = (unsigned char)(0x80 | ((u >> 6) & 0x3f));
		*o++ = (unsigned char)(0x80 | (u & 0x3f));
	}
	*w = (char *)o;
}

/* \uXXXX at s (past the backslash and u), a surrogate pair whole. */
static int unicode_escape(char **s, char **w)
{
	unsigned int u, lo;

	if (hex4(*s, &u) < 0)
		return -EINVAL;
	*s += 4;
	if (u >= 0xd800 && u < 0xdc00 && (*s)[0] == '\\' && (*s)[1] == 'u' &&
	    hex4(*s + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		*s += 6;
	} else if (u >= 0xd800 && u < 0xe000) {
		u = 0xfffd;
	}
	utf8(w, u);
	return 0;
}

static char *jstring(struct jparse *jp)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	char *s = jp->p + 1, *w = s, *start = s;
	const char *e;

	while (*s != '"') {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s != '\\') {
			*w++ = *s++;
		} else if (s[1] == 'u') {
			s += 2;
			if (unicode_escape(&s, &w) < 0)
				return NULL;
		} else if (s[1] && (e = strchr(from, s[1]))) {
			*w++ = to[e - from];
			s += 2;
		} else {
			return NULL;
		}
	}
	jp->p = s + 1;
	*w = '\0';
	return start;
}

static int jvalue(struct jparse *jp, struct jv *v);

/* One more item in v (and its key, for an object). */
static struct jv *jv_push(struct jv *v, char *key)
{
	struct jv *items;
	char **keys;
	size_t cap;

	if (v->n == v->cap) {
		cap = v->cap;
		items = grow(v->items, &cap, sizeof(*items));
		if (!items)
			return NULL;
		v->items = items;
		if (v->t == J_OBJ) {
			cap = v->cap;
			keys = grow(v->keys, &cap, sizeof(*keys));
			if (!keys)
				return NULL;
			v->keys = keys;
		}
		v->cap = cap;
	}
	if (v->t == J_OBJ)
		v->keys[v->n] = key;
	v->items[v->n] = (struct jv){ 0 };
	return &v->items[v->n++];
}

/* An array's or object's members, past its opening bracket. */
/* NOLINTNEXTLINE(misc-no-recursion): jvalue stops at MAX_DEPTH */
static int jmembers(struct jparse *jp, struct jv *v, char close)
{
	struct jv *item;
	char *key = NULL;

	skip_ws(jp);
	if (*jp->p == close) {
		jp->p++;
		return 0;
	}
	for (;;) {
		skip_ws(jp);
		if (v->t == J_OBJ) {
			if (*jp->p != '"' || !(key = jstring(jp)))
				return -EINVAL;
			skip_ws(jp);
			if (*jp->p++ != ':')
				return -EINVAL;
		}
		if (!(item = jv_push(v, key)))
			return -ENOMEM;
		if (jvalue(jp, item) < 0)
			return jp->err;
		skip_ws(jp);
		if (*jp->p == close) {
			jp->p++;
			return 0;
		}
		if (*jp->p++ != ',')
			return -EINVAL;
	}
}

static int jword(struct jparse *jp, struct jv *v)
{
	static const struct { const char *w; enum jtype t; } words[] = {
		{ "null", J_NULL }, { "true", J_TRUE }, { "false", J_FALSE },
	};
	const char *end;
	size_t i, n;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].w);
		if (strncmp(jp->p, words[i].w, n) == 0) {
			v->t = words[i].t;
			jp->p += n;
			return 0;
		}
	}
	v->t = J_NUM;
	v->num = number(jp->p, &end);
	if (end == jp->p)
		return -EINVAL;
	v->text = jp->p;
	v->len = (size_t)(end - jp->p);
	jp->p = (char *)end;
	return 0;
}

/* NOLINTNEXTLINE(misc-no-recursion): it stops at MAX_DEPTH */
static int jvalue(struct jparse *jp, struct jv *v)
{
	int ret;

	skip_ws(jp);
	if (++jp->depth > MAX_DEPTH)
		return jp->err = -EINVAL;
	if (*jp->p == '"') {
		v->t = J_STR;
		ret = (v->str = jstring(jp)) ? 0 : -EINVAL;
	} else if (*jp->p == '[' || *jp->p == '{') {
		v->t = *jp->p == '[' ? J_ARR : J_OBJ;
		jp->p++;
		ret = jmembers(jp, v, v->t == J_ARR ? ']' : '}');
	} else {
		ret = jword(jp, v);
	}
	jp->depth--;
	if (ret < 0)
		jp->err = ret;
	return ret;
}

/* Member key of object v, or NULL. */
static const struct jv *jget(const struct jv *v, const char *key)
{
	size_t i;

	for (i = 0; v && v->t == J_OBJ && i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

static const char *jstr(const struct jv *v, const char *key)
{
	const struct jv *m = jget(v, key);

	return m && m->t == J_STR ? m->str : NULL;
}

/*
 * Member key of v as a number of kind k into *d: 1, 0 when it is
 * absent or null, or -EINVAL with the reason, which names it as where
 * says ("run.rank"), in err.
 */
static int jfact(const struct merge_file *mf, const struct jv *v,
		 const char *key, const char *where, const struct kind *k,
		 double *d, char *err, size_t len)
{
	const struct jv *m = jget(v, key);

	if (!m || m->t == J_NULL)
		return 0;
	if (m->t != J_NUM)
		return error_say(err, len, "%s: %s is not a number", mf->path,
			   where);
	if (in_bounds(mf->path, where, m->text, m->len, m->num, k, err,
		      len) < 0)
		return -EINVAL;
	*d = m->num;
	return 1;
}

static int json_event(struct merge_file *mf, const struct jv *e, size_t i,
		      char *err, size_t len)
{
	struct merge_value v = { 0 };
	const char *name = jstr(e, "event");
	char where[64];
	int ret;

	if (!name)
		return error_say(err, len, "%s: events[%zu] has no \"event\"",
			   mf->path, i);
	v.unit = jstr(e, "unit");
	v.status = jstr(e, "status");
	v.unit = v.unit ? v.unit : "";
	v.status = v.status ? v.status : "";
	snprintf(where, sizeof(where), "events[%zu].value", i);
	ret = jfact(mf, e, "value", where, &k_amount, &v.value, err, len);
	if (ret < 0)
		return ret;
	v.has_value = ret > 0;
	snprintf(where, sizeof(where), "events[%zu].running_pct", i);
	ret = jfact(mf, e, "running_pct", where, &k_pct, &v.running_pct, err,
		    len);
	if (ret < 0)
		return ret;
	return add_value(mf, name, jstr(e, "aggregate"), v);
}

static int json_command(struct merge_file *mf, const struct jv *c)
{
	size_t i, len = 1, n = 0;

	for (i = 0; c && c->t == J_ARR && i < c->n; i++)
		len += c->items[i].t == J_STR ? strlen(c->items[i].str) + 1
					     : 0;
	mf->command = calloc(1, len);
	if (!mf->command)
		return -ENOMEM;
	for (i = 0; c && c->t == J_ARR && i < c->n; i++)
		if (c->items[i].t == J_STR)
			n += (size_t)snprintf(mf->command + n, len - n, "%s%s",
					      n ? " " : "", c->items[i].str);
	return 0;
}

/*
 * The facts with a number in object v: format_version alone (version)
 * or the others; in says where v is ("run.") in a reason.
 */
static int json_facts(struct merge_file *mf, const struct jv *v,
		      const char *in, bool version, char *err, size_t len)
{
	const struct fact *ft;
	char where[64];
	double d = 0.0;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		ft = &facts[i];
		if ((strcmp(ft->key, "format_version") == 0) != version)
			continue;
		snprintf(where, sizeof(where), "%s%s", in, ft->key);
		ret = jfact(mf, v, ft->key, where, ft->kind, &d, err, len);
		if (ret < 0)
			return ret;
		if (ret > 0)
			fact_set(mf, ft, d);
	}
	return 0;
}

static int json_run(struct merge_file *mf, const struct jv *run, char *err,
		    size_t len)
{
	int ret;

	mf->has_run = true;
	mf->job_id = jstr(run, "job_id");
	ret = json_facts(mf, run, "run.", false, err, len);
	return ret < 0 ? ret : json_command(mf, jget(run, "command"));
}

static int json_doc(struct merge_file *mf, const struct jv *doc, char *err,
		    size_t len)
{
	const struct jv *events = jget(doc, "events"), *run = jget(doc, "run");
	const char *format = jstr(doc, "format");
	size_t i;
	int ret;

	if (!format || strcmp(format, "pstat") != 0 || !events ||
	    events->t != J_ARR)
		return error_say(err, len,
			   "%s: not a document of pstat --format=json",
			   mf->path);
	ret = json_facts(mf, doc, "", true, err, len);
	for (i = 0; ret == 0 && i < events->n; i++)
		ret = json_event(mf, &events->items[i], i, err, len);
	if (ret == 0 && run && run->t == J_OBJ)
		ret = json_run(mf, run, err, len);
	return ret;
}

static int json_read(struct merge_file *mf, char *err, size_t len)
{
	struct jparse jp = { .p = mf->buf };
	struct jv doc = { 0 };
	int ret;

	ret = jvalue(&jp, &doc);
	skip_ws(&jp);
	if (ret == 0 && *jp.p)
		ret = -EINVAL;
	if (ret == -EINVAL)
		error_say(err, len, "%s: not valid JSON (at byte %ld)", mf->path,
		    (long)(jp.p - mf->buf));
	if (ret == 0)
		ret = json_doc(mf, &doc, err, len);
	jv_free(&doc);
	return ret;
}

int merge_file_read(struct merge_file *mf, const char *path, char *err,
		    size_t len)
{
	const char *p;
	long n;
	int ret;

	*mf = (struct merge_file){ .path = path, .rank = -1, .size = -1,
				   .format_version = -1, .exit_status = -1 };
	n = slurp(path, &mf->buf);
	if (n == -ENOMEM)
		return -ENOMEM;
	if (n < 0 || !mf->buf)
		return error_say(err, len, "cannot read '%s': %s", path,
			   strerror(n < 0 ? (int)-n : EIO));
	if ((size_t)n != strlen(mf->buf))
		return error_say(err, len, "%s: a NUL byte: not a file pstat wrote",
			   path);
	p = mf->buf + strspn(mf->buf, " \t\r\n");
	if (!*p)
		return error_say(err, len, "%s is empty: %s", path, killed_hint);
	if (*p == '{')
		ret = json_read(mf, err, len);
	else if (strncmp(p, "record,", 7) == 0)
		ret = csv_read(mf, err, len);
	else
		return error_say(err, len,
			   "%s: not a file of pstat --format=csv or --format=json",
			   path);
	if (ret == 0 && !mf->has_run)
		return error_say(err, len, "%s has no run record: %s", path,
			   killed_hint);
	return ret;
}

void merge_file_free(struct merge_file *mf)
{
	size_t i;

	for (i = 0; i < mf->n_vals; i++)
		free(mf->vals[i].name);
	free(mf->vals);
	free(mf->command);
	free(mf->buf);
	mf->vals = NULL;
	mf->command = NULL;
	mf->buf = NULL;
	mf->n_vals = mf->cap_vals = 0;
}
