/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --merge's reader: one file of pstat --format=csv or --format=json,
 * told apart by its first bytes, read into its events and run record
 * (CSV parsed in place, JSON by json-c). Nothing here trusts the file:
 * every field is checked.
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

#include <json-c/json.h>

#include "caps.h"
#include "error.h"
#include "merge_impl.h"
#include "output.h"

/* Larger is not a file pstat wrote for one rank. */
#define MAX_FILE (256u << 20)
/* JSON's nesting, the document's level one of them: pstat writes 5. */
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

/*
 * v, the total of event (aggr: its aggregate, NULL or empty when none),
 * into mf: its name, unit and status copied into one allocation, which
 * v.name holds, so that they outlive the file's text and json-c's tree.
 */
static int add_value(struct merge_file *mf, const char *event,
		     const char *aggr, const char *unit, const char *status,
		     struct merge_value v)
{
	struct merge_value *nv;
	size_t name = strlen(event) + 1, u = strlen(unit) + 1;
	size_t st = strlen(status) + 1;
	char *at;

	if (aggr && *aggr)
		name += strlen(aggr) + 3;	/* " (aggr)" */
	if (mf->n_vals == mf->cap_vals) {
		nv = grow(mf->vals, &mf->cap_vals, sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		mf->vals = nv;
	}
	v.name = malloc(name + u + st);
	if (!v.name)
		return -ENOMEM;
	if (aggr && *aggr)
		snprintf(v.name, name, "%s (%s)", event, aggr);
	else
		snprintf(v.name, name, "%s", event);
	at = v.name + name;
	v.unit = memcpy(at, unit, u);
	v.status = memcpy(at + u, status, st);
	mf->vals[mf->n_vals++] = v;
	return 0;
}

/*
 * A region's rows (--regions) are merged as an aggregate of their own:
 * "event (region NAME)", or "event (region NAME, AGGREGATE)", and its
 * entries as "entries (region NAME)". The label into buf.
 */
static const char *region_label(char *buf, size_t len, const char *region,
				const char *aggr)
{
	if (aggr && *aggr)
		snprintf(buf, len, "region %s, %s", region, aggr);
	else
		snprintf(buf, len, "region %s", region);
	return buf;
}

/* Room for a region's label: its name (CONTROL_LINE_MAX) and more. */
#define REGION_LABEL_MAX 512

/* A region's entries, as a value of its own. */
static int add_entries(struct merge_file *mf, const char *region,
		       double entries)
{
	char label[REGION_LABEL_MAX];
	struct merge_value v = {
		.has_value = true, .value = entries, .running_pct = 100,
	};

	return add_value(mf, "entries",
			 region_label(label, sizeof(label), region, NULL), "",
			 "counted", v);
}

/*
 * A metric of -M on event's row into mf, its strings copied into one
 * allocation. A scale that is not a positive number is the file's
 * fault: -EINVAL with the reason.
 */
static int add_formula(struct merge_file *mf, const char *event,
		       const char *const s[5], const char *scale,
		       const char *where, char *err, size_t len)
{
	struct merge_formula *nf, f = { 0 };
	const char **to[5] = { &f.unit, &f.formula, &f.inputs,
			       &f.input_events, &f.event };
	size_t n[6], total = 0, i;
	char *end, *at;

	f.scale = strtod(scale, &end);
	if (end == scale || *end || !isfinite(f.scale) || !(f.scale > 0))
		return error_say(err, len,
			   "%s: %s: the scale '%s' is not a positive number",
			   mf->path, where, scale);
	for (i = 0; i < 5; i++)
		total += (n[i] = strlen(i < 4 ? s[i + 1] : event) + 1);
	total += (n[5] = strlen(s[0]) + 1);
	if (mf->n_formulas == mf->cap_formulas) {
		nf = grow(mf->formulas, &mf->cap_formulas, sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		mf->formulas = nf;
	}
	f.name = malloc(total);
	if (!f.name)
		return -ENOMEM;
	at = memcpy(f.name, s[0], n[5]);
	at += n[5];
	for (i = 0; i < 5; i++) {
		*to[i] = memcpy(at, i < 4 ? s[i + 1] : event, n[i]);
		at += n[i];
	}
	mf->formulas[mf->n_formulas++] = f;
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

/* The columns of -M's metrics: read when the header has them all. */
enum { M_NAME, M_UNIT, M_FORMULA, M_INPUTS, M_INPUT_EVENTS, M_SCALE,
       N_MCOLS };

static const char *const mcol_names[N_MCOLS] = {
	"metric_name", "metric_unit", "metric_formula", "metric_inputs",
	"metric_input_events", "metric_scale",
};

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
static int csv_columns(char **f, int n, int *col, const char *const *names,
		       int n_names)
{
	int i, j;

	for (i = 0; i < n_names; i++) {
		col[i] = -1;
		for (j = 0; j < n && j < MAX_FIELDS; j++)
			if (strcmp(f[j], names[i]) == 0)
				col[i] = j;
		if (col[i] < 0)
			return -EINVAL;
	}
	return 0;
}

/* A metric of -M on a total or metric row without an aggregate. */
static int csv_formula(struct merge_file *mf, char **f, const int *col,
		       const int *mcol, int line, char *err, size_t len)
{
	const char *s[5];
	char where[32];
	int i;

	if (mcol[0] < 0 || !*f[mcol[M_NAME]] || *f[col[C_AGGR]])
		return 0;
	for (i = 0; i < 5; i++)
		s[i] = f[mcol[i]];
	snprintf(where, sizeof(where), "line %d", line);
	return add_formula(mf, f[col[C_EVENT]], s, f[mcol[M_SCALE]], where,
			   err, len);
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
		free(mf->job_id);
		return (mf->job_id = strdup(v)) ? 0 : -ENOMEM;
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

/*
 * A region's record (--regions): its entries from "region_info", its
 * rows from "region", named in the region column (rcol, -1 in the file
 * of a pstat before regions). 1 when it was one, 0 when not, or
 * -EINVAL.
 */
static int csv_region(struct merge_file *mf, char **f, const int *col,
		      int rcol, int line, char *err, size_t len)
{
	const char *record = f[col[C_RECORD]], *region;
	double d;
	int ret;

	if (rcol < 0 || (strcmp(record, "region") != 0 &&
			 strcmp(record, "region_info") != 0))
		return 0;
	region = f[rcol];
	if (!*region)
		return error_say(err, len,
			   "%s: line %d: a %s record names no region",
			   mf->path, line, record);
	if (strcmp(record, "region_info") != 0 ||
	    strcmp(f[col[C_EVENT]], "entries") != 0)
		return 0;
	ret = csv_number(mf, f[col[C_VALUE]], "entries", line, &k_amount, &d,
			 err, len);
	if (ret <= 0)
		return ret;
	ret = add_entries(mf, region, d);
	return ret < 0 ? ret : 1;
}

static int csv_row(struct merge_file *mf, char **f, const int *col,
		   const int *mcol, int rcol, int line, char *err, size_t len)
{
	struct merge_value v = { 0 };
	const char *record = f[col[C_RECORD]], *aggr = f[col[C_AGGR]];
	char label[REGION_LABEL_MAX];
	bool region = rcol >= 0 && strcmp(record, "region") == 0;
	int ret;

	if (strcmp(record, "run") == 0) {
		mf->has_run = true;
		return csv_run_fact(mf, f[col[C_EVENT]], f[col[C_VALUE]], line,
				    err, len);
	}
	ret = csv_region(mf, f, col, rcol, line, err, len);
	if (ret < 0)
		return ret;
	if (region)
		aggr = region_label(label, sizeof(label), f[rcol], aggr);
	else if (strcmp(record, "total") != 0 &&
		 strcmp(record, "metric") != 0)
		return 0;
	/* -M's metrics of the whole run's rows are computed again; a
	 * region's second metrics (record "metric") are left. */
	if (!region && rcol >= 0 && *f[rcol])
		return 0;
	ret = region ? 0 : csv_formula(mf, f, col, mcol, line, err, len);
	if (ret < 0 || strcmp(record, "metric") == 0)
		return ret;
	ret = csv_number(mf, f[col[C_VALUE]], "value", line, &k_amount,
			 &v.value, err, len);
	if (ret < 0)
		return ret;
	v.has_value = ret > 0;
	ret = csv_number(mf, f[col[C_RUNNING]], "running_pct", line, &k_pct,
			 &v.running_pct, err, len);
	if (ret < 0)
		return ret;
	return add_value(mf, f[col[C_EVENT]], aggr, f[col[C_UNIT]],
			 f[col[C_STATUS]], v);
}

static int csv_read(struct merge_file *mf, char *buf, char *err, size_t len)
{
	static const char *const rcol_name[] = { "region" };
	char *p = buf, *end = p + strlen(p), *f[MAX_FIELDS];
	int col[N_COLS], mcol[N_MCOLS], rcol, n, width, line = 1, ret;

	n = csv_record(&p, end, f);
	/* A file of a pstat before them has no metrics of -M to read, */
	if (n > 0 && csv_columns(f, n, mcol, mcol_names, N_MCOLS) < 0)
		mcol[0] = -1;
	/* nor regions. */
	if (n <= 0 || csv_columns(f, n, &rcol, rcol_name, 1) < 0)
		rcol = -1;
	if (n <= 0 || csv_columns(f, n, col, col_names, N_COLS) < 0)
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
		ret = csv_row(mf, f, col, mcol, rcol, line, err, len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * JSON, read by json-c. Its strict mode refuses comments, trailing
 * commas, strings in single quotes and text after the document, but
 * still takes NaN, Infinity, numbers such as "1.", "-.5" and "00", keys
 * in single quotes and (before json-c 0.17) control characters raw in
 * a string. Its tree keeps a fraction's text (json_object_new_double_s)
 * but not an integer's: "-0" comes back as 0, and an integer past 64
 * bits as the largest there is (0.16) or as an error (0.17 on). And of
 * a key given twice it keeps the last. pstat's verdicts are on what the
 * file says, so the text is walked beside the tree: the numbers of the
 * tree, in the order json-c keeps (the file's), are the numbers of the
 * text, each checked and given its text (jtext_number), unless a key
 * was given twice, which is refused.
 *
 * The cost follows the bytes, whatever the numbers say: the file
 * (MAX_FILE at most) is read once by json-c and once by the walk, and
 * json-c's tree of it, freed before the next file is read, costs some
 * 14 times the bytes of a file pstat wrote (as pstat's own reader's
 * did), and no more than some 20 times whatever the file: json-c gives
 * even an empty object a table of 16 entries, and a file with more
 * than one object or array in 32 bytes is refused (crowded). It is at most MAX_DEPTH deep (json_tokener_new_ex),
 * which bounds json-c's recursion (json_object_put) and the walk's.
 */

struct jtext {
	const char *path;
	const char *buf, *p;	/* the text, and how far the walk is */
	size_t colons;		/* the members it passed, one ':' each */
	size_t members;		/* those of the objects of the tree */
	char *err;		/* the reason, len bytes */
	size_t len;
};

/*
 * On to the next number of the text (or what json-c took for one: NaN,
 * Infinity) at t->p: 1, 0 at the end, or -EINVAL at what json-c's
 * strict mode takes and JSON does not: a control character in a string
 * (json-c 0.16), a key in single quotes. Between the strings of a text
 * that json-c took are only numbers, words, spaces and , : [ ] { }.
 */
static int jtext_next(struct jtext *t)
{
	const char *why = NULL, *p;
	bool in_string = false;

	for (p = t->p; *p; p++) {
		if (in_string && (unsigned char)*p < 0x20) {
			why = "a control character in a string";
			break;
		} else if (in_string) {
			if (*p == '\\' && p[1])
				p++;
			else
				in_string = *p != '"';
		} else if (*p == '"') {
			in_string = true;
		} else if (*p == '\'') {
			why = "a key in single quotes";
			break;
		} else if (strchr("-0123456789NI", *p)) {
			break;
		}
		t->colons += !in_string && *p == ':';
	}
	t->p = p;
	if (why)
		return error_say(t->err, t->len,
			   "%s: not valid JSON (at byte %zu: %s)", t->path,
			   (size_t)(p - t->buf), why);
	return *p != '\0';
}

/*
 * Of a key given twice, json-c keeps the last, pstat kept the first
 * before it; which one a file meant is not for --merge to guess.
 */
static int jtext_twice(const char *path, char *err, size_t len)
{
	return error_say(err, len,
		   "%s: not valid JSON for --merge: a key twice in one object",
		   path);
}

/* The number at s, all of it an integer, is beyond json-c's 64 bits. */
static bool past_64_bits(const char *s)
{
	errno = 0;
	if (*s == '-')
		return strtoll(s, NULL, 10) == LLONG_MIN && errno == ERANGE;
	return strtoull(s, NULL, 10) == ULLONG_MAX && errno == ERANGE;
}

/*
 * Number o of the tree, the text's next, checked: a number in JSON's
 * grammar (RFC 8259: no leading zeros, which json-c refuses in "01"
 * but takes in "00" and "-01") and, when an integer, within 64 bits
 * (json-c 0.17 refuses the others as it reads them: now every json-c
 * does). Then given its text, for jfact.
 */
static int jtext_number(struct jtext *t, json_object *o)
{
	const char *end, *why = NULL, *s;
	char shown[48];
	size_t n;
	int ret = jtext_next(t);

	if (ret <= 0)	/* None left: a key twice lost the walk its place. */
		return ret < 0 ? ret : jtext_twice(t->path, t->err, t->len);
	s = t->p;
	n = strspn(s, "+-.0123456789Ee");
	t->p = s + (n ? n : 1);
	(void)number(s, &end);
	if (!n || end != s + n ||
	    (s[*s == '-'] == '0' && digit(s[(*s == '-') + 1])))
		why = "is not a number as JSON writes it";
	else if (!memchr(s, '.', n) && !memchr(s, 'e', n) &&
		 !memchr(s, 'E', n) && past_64_bits(s))
		why = "is an integer past 64 bits";
	if (!why) {
		/* Read, never written: void * is json-c's type. */
		json_object_set_serializer(o, NULL, (void *)s, NULL);
		return 0;
	}
	show(shown, sizeof(shown), s, strcspn(s, ",]} \t\r\n"));
	return error_say(t->err, t->len,
		   "%s: not valid JSON (at byte %zu: '%s' %s)", t->path,
		   (size_t)(s - t->buf), shown, why);
}

/* NOLINTNEXTLINE(misc-no-recursion): the tree is MAX_DEPTH deep at most */
static int jtext_walk(struct jtext *t, json_object *o)
{
	struct json_object_iterator it, end;
	size_t i, n;
	int ret = 0;

	switch (json_object_get_type(o)) {
	case json_type_int:
	case json_type_double:
		return jtext_number(t, o);
	case json_type_array:
		n = json_object_array_length(o);
		for (i = 0; ret == 0 && i < n; i++)
			ret = jtext_walk(t, json_object_array_get_idx(o, i));
		return ret;
	case json_type_object:
		t->members += (size_t)json_object_object_length(o);
		it = json_object_iter_begin(o);
		end = json_object_iter_end(o);
		for (; ret == 0 && !json_object_iter_equal(&it, &end);
		     json_object_iter_next(&it))
			ret = jtext_walk(t, json_object_iter_peek_value(&it));
		return ret;
	default:
		return 0;
	}
}

/*
 * The text of doc, walked beside it: the numbers of both, and then the
 * rest of the text, its strings and its members: a number or a member
 * more in the text than in the tree is a key json-c took twice.
 */
static int jtext_check(const char *path, const char *buf,
		       json_object *doc, char *err, size_t len)
{
	struct jtext t = { .path = path, .buf = buf, .p = buf, .err = err,
			   .len = len };
	int ret = jtext_walk(&t, doc);

	if (ret == 0)
		ret = jtext_next(&t);
	if (ret < 0)
		return ret;
	if (ret > 0 || t.colons != t.members)
		return jtext_twice(path, err, len);
	return 0;
}

/* json-c 0.17 says when it ran out of memory; 0.16 returns no tree. */
static bool json_out_of_memory(enum json_tokener_error e)
{
#if JSON_C_VERSION_NUM >= 0x1100
	return e == json_tokener_error_memory;
#else
	return e == json_tokener_success;
#endif
}

/* Member key of object o; NULL when it has none, or it is null. */
static json_object *jget(json_object *o, const char *key)
{
	json_object *m = NULL;

	return json_object_object_get_ex(o, key, &m) ? m : NULL;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *m = jget(o, key);

	return json_object_is_type(m, json_type_string) ?
	       json_object_get_string(m) : NULL;
}

/* The items of array a: none when a is no array. */
static size_t jlen(json_object *a)
{
	return json_object_is_type(a, json_type_array) ?
	       json_object_array_length(a) : 0;
}

/*
 * Member key of o as a number of kind k into *d: 1, 0 when it is absent
 * or null, or -EINVAL with the reason, which names it as where says
 * ("run.rank"), in err. Its value and words are its text's (jtext).
 */
static int jfact(const struct merge_file *mf, json_object *o,
		 const char *key, const char *where, const struct kind *k,
		 double *d, char *err, size_t len)
{
	json_object *m = jget(o, key);
	const char *text, *end;
	double v;

	if (!m)
		return 0;
	if (!json_object_is_type(m, json_type_int) &&
	    !json_object_is_type(m, json_type_double))
		return error_say(err, len, "%s: %s is not a number", mf->path,
			   where);
	text = json_object_get_userdata(m);
	v = number(text, &end);
	if (in_bounds(mf->path, where, text, (size_t)(end - text), v, k, err,
		      len) < 0)
		return -EINVAL;
	*d = v;
	return 1;
}

/* The strings of array a joined by spaces, into a new string. */
static char *jjoin(json_object *a)
{
	char *s = NULL;
	size_t n = 0, i;
	FILE *f = open_memstream(&s, &n);

	for (i = 0; f && i < jlen(a); i++)
		if (json_object_is_type(json_object_array_get_idx(a, i),
					json_type_string))
			fprintf(f, "%s%s", i ? " " : "",
				json_object_get_string(
					json_object_array_get_idx(a, i)));
	if (!f || fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* Metric j of event e (name), if one of -M's, into mf. */
static int json_formula(struct merge_file *mf, const char *name,
			json_object *m, size_t i, size_t j, char *err,
			size_t len)
{
	const char *s[5] = { jstr(m, "name"), jstr(m, "unit"),
			     jstr(m, "formula") };
	json_object *scale = jget(m, "scale");
	char *inputs = jjoin(jget(m, "inputs"));
	char *events = jjoin(jget(m, "input_events"));
	char where[64], num[64];
	int ret = -ENOMEM;

	snprintf(where, sizeof(where), "events[%zu].metrics[%zu]", i, j);
	snprintf(num, sizeof(num), "%.17g",
		 json_object_is_type(scale, json_type_double) ||
		 json_object_is_type(scale, json_type_int)
		 ? json_object_get_double(scale) : NAN);
	s[3] = inputs;
	s[4] = events;
	if (!s[0] || !s[1] || !s[2])
		ret = 0;
	else if (inputs && events)
		ret = add_formula(mf, name, s, num, where, err, len);
	free(inputs);
	free(events);
	return ret;
}

/* The metrics of -M of event e (name), when it has no aggregate. */
static int json_formulas(struct merge_file *mf, json_object *e,
			 const char *name, size_t i, char *err, size_t len)
{
	json_object *ms = jget(e, "metrics"), *m;
	size_t j;
	int ret = 0;

	if (jget(e, "aggregate"))
		return 0;
	for (j = 0; ret == 0 && j < jlen(ms); j++) {
		m = json_object_array_get_idx(ms, j);
		if (jstr(m, "name") && jstr(m, "unit") && jstr(m, "formula"))
			ret = json_formula(mf, name, m, i, j, err, len);
	}
	return ret;
}

/* events[i], of the whole run, or of the region named region. */
static int json_event(struct merge_file *mf, json_object *e, size_t i,
		      const char *region, char *err, size_t len)
{
	struct merge_value v = { 0 };
	const char *name = jstr(e, "event"), *unit = jstr(e, "unit");
	const char *status = jstr(e, "status"), *aggr = jstr(e, "aggregate");
	char where[64], label[REGION_LABEL_MAX];
	int ret;

	if (!name)
		return error_say(err, len, "%s: events[%zu] has no \"event\"",
			   mf->path, i);
	snprintf(where, sizeof(where), "events[%zu].value", i);
	ret = jfact(mf, e, "value", where, &k_amount, &v.value, err, len);
	if (ret < 0)
		return ret;
	v.has_value = ret > 0;
	snprintf(where, sizeof(where), "events[%zu].running_pct", i);
	ret = jfact(mf, e, "running_pct", where, &k_pct, &v.running_pct, err,
		    len);
	if ((ret == 0 || ret > 0) && !region)
		ret = json_formulas(mf, e, name, i, err, len);
	if (ret < 0)
		return ret;
	if (region)
		aggr = region_label(label, sizeof(label), region, aggr);
	return add_value(mf, name, aggr, unit ? unit : "",
			 status ? status : "", v);
}

/* regions[i] (--regions): its entries, then its events. */
static int json_region(struct merge_file *mf, json_object *r, size_t i,
		       char *err, size_t len)
{
	json_object *events = jget(r, "events");
	const char *name = jstr(r, "name");
	char where[64];
	double entries;
	size_t k;
	int ret;

	if (!name || !json_object_is_type(events, json_type_array))
		return error_say(err, len,
			   "%s: regions[%zu] has no \"name\" or no \"events\"",
			   mf->path, i);
	snprintf(where, sizeof(where), "regions[%zu].entries", i);
	ret = jfact(mf, r, "entries", where, &k_amount, &entries, err, len);
	if (ret > 0)
		ret = add_entries(mf, name, entries);
	for (k = 0; ret >= 0 && k < jlen(events); k++)
		ret = json_event(mf, json_object_array_get_idx(events, k), k,
				 name, err, len);
	return ret < 0 ? ret : 0;
}

/* Item i of array a when it is a string, or NULL. */
static const char *jitem(json_object *a, size_t i)
{
	json_object *m = json_object_array_get_idx(a, i);

	return json_object_is_type(m, json_type_string) ?
	       json_object_get_string(m) : NULL;
}

/* The words of c that are strings, joined by spaces. */
static int json_command(struct merge_file *mf, json_object *c)
{
	size_t i, words = jlen(c), len = 1, n = 0;

	for (i = 0; i < words; i++)
		len += jitem(c, i) ? strlen(jitem(c, i)) + 1 : 0;
	mf->command = calloc(1, len);
	if (!mf->command)
		return -ENOMEM;
	for (i = 0; i < words; i++)
		if (jitem(c, i))
			n += (size_t)snprintf(mf->command + n, len - n, "%s%s",
					      n ? " " : "", jitem(c, i));
	return 0;
}

/*
 * The facts with a number in object o: format_version alone (version)
 * or the others; in says where o is ("run.") in a reason.
 */
static int json_facts(struct merge_file *mf, json_object *o, const char *in,
		      bool version, char *err, size_t len)
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
		ret = jfact(mf, o, ft->key, where, ft->kind, &d, err, len);
		if (ret < 0)
			return ret;
		if (ret > 0)
			fact_set(mf, ft, d);
	}
	return 0;
}

static int json_run(struct merge_file *mf, json_object *run, char *err,
		    size_t len)
{
	const char *job = jstr(run, "job_id");
	int ret;

	mf->has_run = true;
	if (job && !(mf->job_id = strdup(job)))
		return -ENOMEM;
	ret = json_facts(mf, run, "run.", false, err, len);
	return ret < 0 ? ret : json_command(mf, jget(run, "command"));
}

static int json_doc(struct merge_file *mf, json_object *doc, char *err,
		    size_t len)
{
	json_object *events = jget(doc, "events"), *run = jget(doc, "run");
	json_object *regions = jget(doc, "regions");
	const char *format = jstr(doc, "format");
	size_t i;
	int ret;

	if (!format || strcmp(format, "pstat") != 0 ||
	    !json_object_is_type(events, json_type_array))
		return error_say(err, len,
			   "%s: not a document of pstat --format=json",
			   mf->path);
	ret = json_facts(mf, doc, "", true, err, len);
	for (i = 0; ret == 0 && i < jlen(events); i++)
		ret = json_event(mf, json_object_array_get_idx(events, i), i,
				 NULL, err, len);
	for (i = 0; ret == 0 && i < jlen(regions); i++)
		ret = json_region(mf, json_object_array_get_idx(regions, i), i,
				  err, len);
	if (ret == 0 && json_object_is_type(run, json_type_object))
		ret = json_run(mf, run, err, len);
	return ret;
}

/*
 * Whether the text holds more objects and arrays than pstat writes for
 * its size: each costs json-c about 500 bytes however small, and pstat
 * writes none under 32 bytes. Counted in strings too, which only makes
 * the bound tighter; the first 4096 go free.
 */
static bool crowded(const char *buf)
{
	size_t n = 0, bytes = 0;
	const char *p;

	for (p = buf; *p; p++, bytes++)
		n += *p == '{' || *p == '[';
	return n > 4096 && n > bytes / 32;
}

/* buf, the text of the file at path, as a checked JSON tree in *doc. */
static int json_parse(const char *path, const char *buf, json_object **doc,
		      char *err, size_t len)
{
	struct json_tokener *tok = json_tokener_new_ex(MAX_DEPTH);
	enum json_tokener_error e;
	size_t at;
	int ret;

	*doc = NULL;
	if (!tok)
		return -ENOMEM;
	if (crowded(buf)) {
		json_tokener_free(tok);
		return error_say(err, len,
			   "%s: not a file of pstat --format=json: more objects and arrays than such a file has for its size",
			   path);
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* To the NUL at its end: merge_file_read let no other through. */
	*doc = json_tokener_parse_ex(tok, buf, -1);
	e = json_tokener_get_error(tok);
	at = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	/* A document that is null parses to no tree, as memory running out
	 * does in json-c 0.16: it is no file pstat wrote. */
	if (!*doc && e == json_tokener_success &&
	    strncmp(buf + strspn(buf, " \t\r\n"), "null", 4) == 0)
		return error_say(err, len,
			   "%s: not a file of pstat --format=json: it holds null",
			   path);
	if (!*doc && json_out_of_memory(e))
		return -ENOMEM;
	if (!*doc)
		return error_say(err, len,
			   "%s: not valid JSON (at byte %zu: %s)", path,
			   at, json_tokener_error_desc(e));
	ret = jtext_check(path, buf, *doc, err, len);
	if (ret < 0) {
		json_object_put(*doc);
		*doc = NULL;
	}
	return ret;
}

static int json_read(struct merge_file *mf, const char *buf, char *err,
		     size_t len)
{
	json_object *doc;
	int ret = json_parse(mf->path, buf, &doc, err, len);

	if (ret == 0)
		ret = json_doc(mf, doc, err, len);
	json_object_put(doc);
	return ret;
}

/* The text of the file at path into *buf (to free, NULL when -ENOMEM):
 * 0, -ENOMEM, or -EINVAL when it cannot be read or holds a NUL. */
static int file_text(const char *path, char **buf, char *err, size_t len)
{
	long n = slurp(path, buf);

	if (n == -ENOMEM)
		return -ENOMEM;
	if (n < 0 || !*buf) {
		error_say(err, len, "cannot read '%s': %s", path,
			  strerror(n < 0 ? (int)-n : EIO));
		return -EINVAL;
	}
	if ((size_t)n != strlen(*buf)) {
		error_say(err, len, "%s: a NUL byte: not a file pstat wrote",
			  path);
		return -EINVAL;
	}
	return 0;
}

int merge_json_load(const char *path, json_object **doc, char *err,
		    size_t len)
{
	char *buf;
	int ret;

	*doc = NULL;
	ret = file_text(path, &buf, err, len);
	if (ret == 0)
		ret = json_parse(path, buf, doc, err, len);
	free(buf);
	return ret;
}

/* The text of a file, CSV or JSON as its first bytes say, into mf. */
static int text_read(struct merge_file *mf, char *buf, char *err,
		     size_t len)
{
	const char *p = buf + strspn(buf, " \t\r\n");

	if (!*p)
		return error_say(err, len, "%s is empty: %s", mf->path,
			   killed_hint);
	if (*p == '{')
		return json_read(mf, buf, err, len);
	if (strncmp(p, "record,", 7) == 0)
		return csv_read(mf, buf, err, len);
	return error_say(err, len,
		   "%s: not a file of pstat --format=csv or --format=json",
		   mf->path);
}

int merge_file_read(struct merge_file *mf, const char *path, char *err,
		    size_t len)
{
	char *buf;
	int ret;

	*mf = (struct merge_file){ .path = path, .rank = -1, .size = -1,
				   .format_version = -1, .exit_status = -1 };
	ret = file_text(path, &buf, err, len);
	if (ret == -ENOMEM)
		return ret;
	if (ret == 0)
		ret = text_read(mf, buf, err, len);
	/* What mf holds it has copied: the text goes. */
	free(buf);
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
	for (i = 0; i < mf->n_formulas; i++)
		free(mf->formulas[i].name);
	free(mf->formulas);
	mf->formulas = NULL;
	mf->n_formulas = mf->cap_formulas = 0;
	free(mf->command);
	free(mf->job_id);
	mf->vals = NULL;
	mf->command = NULL;
	mf->job_id = NULL;
	mf->n_vals = mf->cap_vals = 0;
}
