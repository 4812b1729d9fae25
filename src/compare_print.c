/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pstat compare's output: a human table (with a box plot of each side
 * on a wide terminal), -x rows, -j lines, and pstat's own CSV and JSON
 * with every sample, the order of the runs and the statistics.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_impl.h"
#include "csv.h"
#include "json.h"
#include "options.h"
#include "output.h"

/* The box plot's width, and the terminal it needs. */
#define BOX_WIDTH 48
#define BOX_TERMINAL 100

/* v in the C locale, as short as reads back the same: "nan", "inf". */
static const char *num(char *buf, size_t len, double v)
{
	int prec;

	if (isnan(v))
		return "nan";
	if (isinf(v))
		return v > 0 ? "inf" : "-inf";
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* The human table's numbers as the locale writes them (output.h). */
struct numeric {
	char thousands[8];	/* "" when not grouped (--no-big-num) */
	char radix[8];
};

/*
 * text, a number as printf writes it in C (a sign, digits, maybe a
 * point and decimals, maybe a suffix such as '%'), into buf with n's
 * decimal point and its digits grouped by n's separator.
 */
static const char *localised(char *buf, size_t len, const char *text,
			     const struct numeric *n)
{
	size_t lead = strspn(text, " +-<"), nd, i, o = 0, k;
	size_t sep = strlen(n->thousands), rad = strlen(n->radix);

	nd = strspn(text + lead, "0123456789");
	for (i = 0; text[i] && o + sep + rad + 1 < len; i++) {
		if (i > lead && i < lead + nd && (lead + nd - i) % 3 == 0) {
			for (k = 0; k < sep; k++)
				buf[o++] = n->thousands[k];
		}
		if (i == lead + nd && text[i] == '.') {
			for (k = 0; k < rad; k++)
				buf[o++] = n->radix[k];
			continue;
		}
		buf[o++] = text[i];
	}
	buf[o] = '\0';
	return buf;
}

/* A median as people read it: counts whole, times in msec with 3
 * decimals, others with 3; in n's digits. */
static const char *shown(char *buf, size_t len, double v,
			 const struct compare_row *r, const struct numeric *n)
{
	char plain[64];

	if (!isfinite(v))
		return num(buf, len, v);
	if (r->kind != COMPARE_METRIC && r->kind != COMPARE_WALL &&
	    strcmp(r->unit, "msec") != 0 && v == floor(v) && fabs(v) < 1e15)
		snprintf(plain, sizeof(plain), "%.0f", v);
	else
		snprintf(plain, sizeof(plain), "%.3f", v);
	return localised(buf, len, plain, n);
}

/* "+1.000%", "-inf%", "n/a"; n's decimal point. */
static const char *pct(char *buf, size_t len, double v,
		       const struct numeric *n)
{
	char plain[64];

	if (isnan(v))
		return "n/a";
	if (isinf(v)) {
		snprintf(buf, len, "%s%%", v > 0 ? "+inf" : "-inf");
		return buf;
	}
	snprintf(plain, sizeof(plain), "%+.3f%%", v);
	return localised(buf, len, plain, n);
}

static const char *pvalue(char *buf, size_t len, double p,
			  const struct numeric *n)
{
	char plain[16];

	if (isnan(p))
		return "n/a";
	if (p < 0.001)
		snprintf(plain, sizeof(plain), "<0.001");
	else
		snprintf(plain, sizeof(plain), "%.3f", p);
	return localised(buf, len, plain, n);
}

/* The spread people read beside a median: MAD relative to it. */
static double spread_pct(const struct compare_samples *s)
{
	return s->n && s->sum.median != 0.0
	       ? 100.0 * s->sum.mad / fabs(s->sum.median) : 0.0;
}

/* The median of side s, or why there is none. */
static void side_text(char *buf, size_t len, const struct compare_row *r,
		      size_t s, const struct numeric *n)
{
	const struct compare_samples *sm = &r->side[s];
	struct numeric ungrouped = *n;
	char v[64], spread[32], plain[32];

	if (!sm->n) {
		snprintf(buf, len, "%s",
			 sm->no_number ? "nan" :
			 sm->state == COUNTS_NOT_SUPPORTED ? "<not supported>"
							   : "<not counted>");
		return;
	}
	ungrouped.thousands[0] = '\0';
	snprintf(plain, sizeof(plain), "%5.1f%%", spread_pct(sm));
	snprintf(buf, len, "%s +-%s",
		 shown(v, sizeof(v), sm->sum.median, r, n),
		 localised(spread, sizeof(spread), plain, &ungrouped));
}

/* text as a terminal shows it: a control character (a saved file's
 * names may hold any) as '?', so none moves the cursor or changes
 * colours. Into buf, which may be text itself. */
static const char *plain(char *buf, size_t len, const char *text)
{
	size_t i;

	if (buf != text)
		snprintf(buf, len, "%s", text);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	return buf;
}

/* Where v falls on the box plot's axis [lo, hi]. */
static int at(double v, double lo, double hi)
{
	if (hi <= lo)
		return BOX_WIDTH / 2;
	return (int)lround((v - lo) / (hi - lo) * (BOX_WIDTH - 1));
}

/* One side's box on the axis both share: min and max as '-', the
 * quartiles as [ and ] with '=' between, the median as '|'. */
static void box(FILE *f, const char *label, const struct cmpstats_summary *s,
		double lo, double hi)
{
	char line[BOX_WIDTH + 1];
	int i, a = at(s->min, lo, hi), b = at(s->max, lo, hi);
	int q1 = at(s->q1, lo, hi), q3 = at(s->q3, lo, hi);

	memset(line, ' ', BOX_WIDTH);
	line[BOX_WIDTH] = '\0';
	for (i = a; i <= b; i++)
		line[i] = '-';
	for (i = q1; i <= q3; i++)
		line[i] = '=';
	line[q1] = '[';
	line[q3] = ']';
	line[at(s->median, lo, hi)] = '|';
	fprintf(f, "%22s %s :%s:\n", "", label, line);
}

static void boxes(FILE *f, const struct compare_row *r, size_t s)
{
	const struct compare_samples *a = &r->side[0], *b = &r->side[s];
	char la[16], lb[16];
	double lo, hi;

	if (!a->n || !b->n)
		return;
	lo = fmin(a->sum.min, b->sum.min);
	hi = fmax(a->sum.max, b->sum.max);
	box(f, compare_label(0, la, sizeof(la)), &a->sum, lo, hi);
	box(f, compare_label(s, lb, sizeof(lb)), &b->sum, lo, hi);
}

/* The least running percentage of both sides, or 100. */
static double running(const struct compare_row *r, size_t s)
{
	return fmin(r->side[0].least_running_pct, r->side[s].least_running_pct);
}

static void human_block(FILE *f, const struct compare *c, size_t s,
			const struct numeric *n, bool plot)
{
	struct numeric ungrouped = *n;
	char la[16], lb[16], a[80], b[80], ch[32], lo[32], hi[32], p[32];
	char name[256];
	size_t i;

	snprintf(a, sizeof(a), "%s median +- MAD",
		 compare_label(0, la, sizeof(la)));
	snprintf(b, sizeof(b), "%s median +- MAD",
		 compare_label(s, lb, sizeof(lb)));
	fprintf(f, "\n %24s %24s %10s   %-24s %7s  %-12s %s\n", a, b,
		"change", "95% interval", "p", "verdict", "event");
	for (i = 0; i < c->n_rows; i++) {
		const struct compare_row *r = &c->rows[i];
		const struct compare_change *x = &r->change[s];

		side_text(a, sizeof(a), r, 0, n);
		side_text(b, sizeof(b), r, s, n);
		snprintf(name, sizeof(name), r->unit[0] ? "%s (%s)" : "%s%s",
			 r->name, r->unit);
		plain(name, sizeof(name), name);
		/* pct's text: in its buffer, or "n/a" (NaN) in none. */
		snprintf(ch, sizeof(ch), "[%s, %s]",
			 pct(lo, sizeof(lo), x->lo_pct, &ungrouped),
			 pct(hi, sizeof(hi), x->hi_pct, &ungrouped));
		fprintf(f, " %24s %24s %10s   %-24s %7s  %-12s %s",
			a, b, pct(lo, sizeof(lo), x->ratio, &ungrouped),
			x->hl.has_interval ? ch : "",
			pvalue(p, sizeof(p), x->mwu.p, &ungrouped),
			compare_verdict_name(x->verdict, r->kind), name);
		if (running(r, s) < 100.0)
			fprintf(f, "  (multiplexed: counted %.0f%% of a run's time at least)",
				running(r, s));
		fputc('\n', f);
		if (plot)
			boxes(f, r, s);
	}
}

/* Who ran, how many times, in which order; what failed. */
static void human_head(FILE *f, const struct compare *c)
{
	char label[16], word[512];
	size_t s, k;

	fprintf(f, "\n Performance counter comparison");
	if (c->files)
		fprintf(f, " of saved results");
	else if (c->warmup)
		fprintf(f, ": %zu runs of each command after %zu warm-up run%s, interleaved (%s)",
			c->runs, c->warmup, c->warmup == 1 ? "" : "s",
			c->n_sides == 2 ? "A B B A ..." : "A B C, C B A ...");
	else
		fprintf(f, ": %zu runs of each command, interleaved (%s)",
			c->runs,
			c->n_sides == 2 ? "A B B A ..." : "A B C, C B A ...");
	fprintf(f, "\n\n");
	for (s = 0; s < c->n_sides; s++) {
		fprintf(f, "   %s: ", compare_label(s, label, sizeof(label)));
		for (k = 0; c->argv && c->argv[s][k]; k++)
			fprintf(f, "%s%s", k ? " " : "",
				plain(word, sizeof(word), c->argv[s][k]));
		if (c->files)
			fprintf(f, "%s%s", c->argv && c->argv[s][0] ? ", from "
								    : "",
				plain(word, sizeof(word), c->files[s]));
		fprintf(f, "  (%zu run%s", c->kept[s], c->kept[s] == 1 ? "" : "s");
		if (c->failed[s])
			fprintf(f, ", %zu failed and left out", c->failed[s]);
		fprintf(f, ")\n");
	}
}

static void human_foot(FILE *f, const struct compare *c)
{
	size_t i, s;
	bool few = false;

	for (i = 0; i < c->n_rows; i++)
		for (s = 1; s < c->n_sides; s++)
			few |= c->rows[i].change[s].verdict == COMPARE_TOO_FEW;
	fprintf(f, "\n change: of the medians; 95%% interval: of the shift (Hodges-Lehmann), relative to %s's\n"
		" median; p: Mann-Whitney, two-sided; verdict: where the whole interval lies beyond\n"
		" the threshold (--threshold, 1%% by default)\n", "A");
	if (few)
		fprintf(f, " too few runs: an interval at 95%% needs %zu runs of each command or more (-r)\n",
			cmpstats_min_runs(0.95));
	if (c->interrupted)
		fprintf(f, " interrupted: the runs made before it are compared\n");
	fputc('\n', f);
}

/* The table, in the locale's digits (LC_NUMERIC): 0 or -ENOMEM. */
static int human(FILE *f, const struct compare *c, const struct options *o,
		 bool tty, int width)
{
	struct numeric n;
	size_t s;

	if (output_numeric_locale(n.thousands, sizeof(n.thousands), n.radix,
				  sizeof(n.radix)) < 0)
		return -ENOMEM;
	if (!o->out.big_num)
		n.thousands[0] = '\0';
	human_head(f, c);
	for (s = 1; s < c->n_sides; s++)
		human_block(f, c, s, &n, tty && width >= BOX_TERMINAL);
	human_foot(f, c);
	return 0;
}

/* ---- -x SEP: a row per event and side ---- */

static void sep_field(FILE *f, const char *s, const char *sep, bool last)
{
	csv_field(csv_file_put, f, s, strlen(s), sep);
	fputs(last ? "\n" : sep, f);
}

static void sep_rows(FILE *f, const struct compare *c, const char *sep)
{
	char buf[64], la[16], lb[16];
	size_t i, s;

	compare_label(0, la, sizeof(la));
	for (s = 1; s < c->n_sides; s++) {
		compare_label(s, lb, sizeof(lb));
		for (i = 0; i < c->n_rows; i++) {
			const struct compare_row *r = &c->rows[i];
			const struct compare_change *x = &r->change[s];

			sep_field(f, r->name, sep, false);
			sep_field(f, r->unit, sep, false);
			sep_field(f, lb, sep, false);
			sep_field(f, la, sep, false);
			snprintf(buf, sizeof(buf), "%zu", r->side[0].n);
			sep_field(f, buf, sep, false);
			sep_field(f, r->side[0].n ? num(buf, sizeof(buf), r->side[0].sum.median) : "", sep, false);
			snprintf(buf, sizeof(buf), "%zu", r->side[s].n);
			sep_field(f, buf, sep, false);
			sep_field(f, r->side[s].n ? num(buf, sizeof(buf), r->side[s].sum.median) : "", sep, false);
			sep_field(f, num(buf, sizeof(buf), x->ratio), sep, false);
			sep_field(f, x->hl.has_interval ? num(buf, sizeof(buf), x->lo_pct) : "", sep, false);
			sep_field(f, x->hl.has_interval ? num(buf, sizeof(buf), x->hi_pct) : "", sep, false);
			sep_field(f, num(buf, sizeof(buf), x->mwu.p), sep, false);
			sep_field(f, compare_verdict_name(x->verdict, r->kind), sep, false);
			sep_field(f, num(buf, sizeof(buf), running(r, s)), sep, true);
		}
	}
}

/* ---- JSON ---- */

static void json_key(FILE *f, const char *key, bool first)
{
	if (!first)
		fputs(", ", f);
	json_string(f, key);
	fputs(": ", f);
}

static void json_num_key(FILE *f, const char *key, double v)
{
	json_key(f, key, false);
	json_number(f, v);
}

static void json_summary(FILE *f, const struct compare_samples *s)
{
	fputs("{", f);
	json_key(f, "runs", true);
	json_uint(f, s->n);
	if (s->n) {
		json_num_key(f, "median", s->sum.median);
		json_num_key(f, "mean", s->sum.mean);
		json_num_key(f, "min", s->sum.min);
		json_num_key(f, "max", s->sum.max);
		json_num_key(f, "q1", s->sum.q1);
		json_num_key(f, "q3", s->sum.q3);
		json_num_key(f, "mad", s->sum.mad);
	}
	json_key(f, "missing", false);
	json_uint(f, s->missing);
	json_num_key(f, "least_running_pct", s->least_running_pct);
	fputs("}", f);
}

/* The change of side s against the first: the keys of -j's lines and
 * of --format=json's comparisons. */
static void json_change(FILE *f, const struct compare_row *r, size_t s)
{
	const struct compare_change *x = &r->change[s];
	bool ci = x->hl.has_interval;

	json_num_key(f, "change_pct", x->ratio);
	json_num_key(f, "shift", x->hl.estimate);
	json_num_key(f, "shift_pct", x->est_pct);
	json_num_key(f, "ci_lo_pct", ci ? x->lo_pct : NAN);
	json_num_key(f, "ci_hi_pct", ci ? x->hi_pct : NAN);
	json_num_key(f, "ci_level", ci ? x->hl.level_achieved : NAN);
	json_num_key(f, "u", x->mwu.u);
	json_num_key(f, "p", x->mwu.p);
	json_key(f, "p_exact", false);
	json_bool(f, x->mwu.exact);
	json_key(f, "verdict", false);
	json_string(f, compare_verdict_name(x->verdict, r->kind));
	json_num_key(f, "threshold_pct", r->threshold_pct);
	json_key(f, "fail", false);
	json_bool(f, x->fail);
}

static const char *kind_name(enum compare_kind k)
{
	static const char *const names[] = {
		[COMPARE_EVENT] = "event", [COMPARE_METRIC] = "metric",
		[COMPARE_WALL] = "wall-time", [COMPARE_RSS] = "max-rss",
	};

	return names[k];
}

static void jsonl_rows(FILE *f, const struct compare *c)
{
	char la[16], lb[16];
	size_t i, s;

	compare_label(0, la, sizeof(la));
	for (s = 1; s < c->n_sides; s++) {
		compare_label(s, lb, sizeof(lb));
		for (i = 0; i < c->n_rows; i++) {
			const struct compare_row *r = &c->rows[i];

			fputs("{", f);
			json_key(f, "event", true);
			json_string(f, r->name);
			json_key(f, "unit", false);
			json_string(f, r->unit);
			json_key(f, "kind", false);
			json_string(f, kind_name(r->kind));
			json_key(f, "side", false);
			json_string(f, lb);
			json_key(f, "vs", false);
			json_string(f, la);
			json_key(f, "a", false);
			json_summary(f, &r->side[0]);
			json_key(f, "b", false);
			json_summary(f, &r->side[s]);
			json_change(f, r, s);
			fputs("}\n", f);
		}
	}
}

static void json_samples(FILE *f, const struct compare_samples *s)
{
	size_t i;

	fputs("[", f);
	for (i = 0; i < s->n; i++) {
		if (i)
			fputs(", ", f);
		json_number(f, s->v[i]);
	}
	fputs("]", f);
}

static void json_order(FILE *f, const struct compare *c)
{
	char label[16];
	size_t i;

	fputs(",\n \"order\": [", f);
	for (i = 0; i < c->n_log; i++) {
		const struct compare_run *r = &c->log[i];

		fputs(i ? ",\n   {" : "\n   {", f);
		json_key(f, "side", true);
		json_string(f, compare_label(r->side, label, sizeof(label)));
		json_key(f, "run", false);
		json_uint(f, r->run);
		json_key(f, "warmup", false);
		json_bool(f, r->warmup);
		json_key(f, "exit_status", false);
		if (r->exit_status >= 0)
			json_int(f, r->exit_status);
		else
			json_null(f);
		json_key(f, "signal", false);
		if (r->signal)
			json_int(f, r->signal);
		else
			json_null(f);
		json_key(f, "timed_out", false);
		json_bool(f, r->timed_out);
		json_key(f, "kept", false);
		json_bool(f, r->kept);
		fputs("}", f);
	}
	fputs("]", f);
}

static void json_commands(FILE *f, const struct compare *c)
{
	char label[16];
	size_t s, k;

	fputs(",\n \"commands\": [", f);
	for (s = 0; s < c->n_sides; s++) {
		fputs(s ? ",\n   {" : "\n   {", f);
		json_key(f, "label", true);
		json_string(f, compare_label(s, label, sizeof(label)));
		json_key(f, "command", false);
		if (c->argv) {
			fputs("[", f);
			for (k = 0; c->argv[s][k]; k++) {
				if (k)
					fputs(", ", f);
				json_string(f, c->argv[s][k]);
			}
			fputs("]", f);
		} else {
			json_null(f);
		}
		json_key(f, "file", false);
		if (c->files)
			json_string(f, c->files[s]);
		else
			json_null(f);
		json_key(f, "runs", false);
		json_uint(f, c->kept[s]);
		json_key(f, "failed", false);
		json_uint(f, c->failed[s]);
		fputs("}", f);
	}
	fputs("]", f);
}

static void json_doc(FILE *f, const struct compare *c)
{
	char label[16];
	size_t i, s;

	fprintf(f, "{\"format\": \"pstat-compare\", \"format_version\": 1, \"pstat_version\": \"%s\",\n",
		PACKAGE_VERSION);
	fputs(" \"runs\": ", f);
	json_uint(f, c->runs);
	fputs(", \"warmup\": ", f);
	json_uint(f, c->warmup);
	fputs(", \"interrupted\": ", f);
	json_bool(f, c->interrupted);
	json_commands(f, c);
	json_order(f, c);
	fputs(",\n \"rows\": [", f);
	for (i = 0; i < c->n_rows; i++) {
		const struct compare_row *r = &c->rows[i];

		fputs(i ? ",\n   {" : "\n   {", f);
		json_key(f, "event", true);
		json_string(f, r->name);
		json_key(f, "unit", false);
		json_string(f, r->unit);
		json_key(f, "kind", false);
		json_string(f, kind_name(r->kind));
		json_key(f, "samples", false);
		fputs("{", f);
		for (s = 0; s < c->n_sides; s++) {
			json_key(f, compare_label(s, label, sizeof(label)), !s);
			json_samples(f, &r->side[s]);
		}
		fputs("}", f);
		json_key(f, "stats", false);
		fputs("{", f);
		for (s = 0; s < c->n_sides; s++) {
			json_key(f, compare_label(s, label, sizeof(label)), !s);
			json_summary(f, &r->side[s]);
		}
		fputs("}", f);
		json_key(f, "changes", false);
		fputs("[", f);
		for (s = 1; s < c->n_sides; s++) {
			fputs(s > 1 ? ", {" : "{", f);
			json_key(f, "side", true);
			json_string(f, compare_label(s, label, sizeof(label)));
			json_key(f, "vs", false);
			json_string(f, compare_label(0, label, sizeof(label)));
			json_change(f, r, s);
			fputs("}", f);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
}

/* ---- --format=csv: records of one header ---- */

static const char *const csv_head[] = {
	"record", "side", "vs", "run", "event", "unit", "kind", "value",
	"runs", "median", "mean", "min", "max", "q1", "q3", "mad",
	"missing", "least_running_pct", "change_pct", "shift_pct",
	"ci_lo_pct", "ci_hi_pct", "p", "verdict", "threshold_pct", "fail",
	"warmup", "exit_status", "signal", "timed_out", "kept",
};

#define CSV_COLS (sizeof(csv_head) / sizeof(csv_head[0]))

/* One record: the columns named in cols (name, text pairs), the rest
 * empty. */
static void csv_record(FILE *f, const char *const *cells)
{
	size_t i;

	for (i = 0; i < CSV_COLS; i++)
		csv_cell(f, cells[i] ? cells[i] : "", i + 1 == CSV_COLS);
}

static size_t col(const char *name)
{
	size_t i;

	for (i = 0; i < CSV_COLS; i++)
		if (strcmp(csv_head[i], name) == 0)
			break;
	return i;
}

#define SET(cells, name, text) ((cells)[col(name)] = (text))

static void csv_doc(FILE *f, const struct compare *c)
{
	const char *cells[CSV_COLS];
	char b[16][48], label[16], vs[16], run[24], cmd[4096];
	size_t i, s, k, at;

	csv_record(f, csv_head);
	for (s = 0; s < c->n_sides; s++) {
		memset(cells, 0, sizeof(cells));
		SET(cells, "record", "command");
		SET(cells, "side", compare_label(s, label, sizeof(label)));
		at = 0;
		cmd[0] = '\0';
		for (k = 0; c->argv && c->argv[s][k] && at < sizeof(cmd); k++)
			at += (size_t)snprintf(cmd + at, sizeof(cmd) - at, "%s%s",
					       k ? " " : "", c->argv[s][k]);
		SET(cells, "value", c->argv ? cmd : c->files[s]);
		snprintf(b[0], sizeof(b[0]), "%zu", c->kept[s]);
		SET(cells, "runs", b[0]);
		csv_record(f, cells);
	}
	for (i = 0; i < c->n_log; i++) {
		const struct compare_run *r = &c->log[i];

		memset(cells, 0, sizeof(cells));
		SET(cells, "record", "run");
		SET(cells, "side", compare_label(r->side, label, sizeof(label)));
		snprintf(run, sizeof(run), "%zu", r->run);
		SET(cells, "run", run);
		SET(cells, "warmup", r->warmup ? "true" : "false");
		snprintf(b[0], sizeof(b[0]), "%d", r->exit_status);
		SET(cells, "exit_status", r->exit_status >= 0 ? b[0] : "");
		snprintf(b[1], sizeof(b[1]), "%d", r->signal);
		SET(cells, "signal", r->signal ? b[1] : "");
		SET(cells, "timed_out", r->timed_out ? "true" : "false");
		SET(cells, "kept", r->kept ? "true" : "false");
		csv_record(f, cells);
	}
	for (i = 0; i < c->n_rows; i++) {
		const struct compare_row *r = &c->rows[i];

		for (s = 0; s < c->n_sides; s++) {
			const struct compare_samples *sm = &r->side[s];

			compare_label(s, label, sizeof(label));
			for (k = 0; k < sm->n; k++) {
				memset(cells, 0, sizeof(cells));
				SET(cells, "record", "sample");
				SET(cells, "side", label);
				snprintf(run, sizeof(run), "%zu", k);
				SET(cells, "run", run);
				SET(cells, "event", r->name);
				SET(cells, "unit", r->unit);
				SET(cells, "kind", kind_name(r->kind));
				SET(cells, "value", num(b[0], sizeof(b[0]), sm->v[k]));
				csv_record(f, cells);
			}
			memset(cells, 0, sizeof(cells));
			SET(cells, "record", "stats");
			SET(cells, "side", label);
			SET(cells, "event", r->name);
			SET(cells, "unit", r->unit);
			SET(cells, "kind", kind_name(r->kind));
			snprintf(b[0], sizeof(b[0]), "%zu", sm->n);
			SET(cells, "runs", b[0]);
			if (sm->n) {
				SET(cells, "median", num(b[1], sizeof(b[1]), sm->sum.median));
				SET(cells, "mean", num(b[2], sizeof(b[2]), sm->sum.mean));
				SET(cells, "min", num(b[3], sizeof(b[3]), sm->sum.min));
				SET(cells, "max", num(b[4], sizeof(b[4]), sm->sum.max));
				SET(cells, "q1", num(b[5], sizeof(b[5]), sm->sum.q1));
				SET(cells, "q3", num(b[6], sizeof(b[6]), sm->sum.q3));
				SET(cells, "mad", num(b[7], sizeof(b[7]), sm->sum.mad));
			}
			snprintf(b[8], sizeof(b[8]), "%zu", sm->missing);
			SET(cells, "missing", b[8]);
			SET(cells, "least_running_pct",
			    num(b[9], sizeof(b[9]), sm->least_running_pct));
			csv_record(f, cells);
		}
		for (s = 1; s < c->n_sides; s++) {
			const struct compare_change *x = &r->change[s];
			bool ci = x->hl.has_interval;

			memset(cells, 0, sizeof(cells));
			SET(cells, "record", "change");
			SET(cells, "side", compare_label(s, label, sizeof(label)));
			SET(cells, "vs", compare_label(0, vs, sizeof(vs)));
			SET(cells, "event", r->name);
			SET(cells, "unit", r->unit);
			SET(cells, "kind", kind_name(r->kind));
			SET(cells, "change_pct", num(b[0], sizeof(b[0]), x->ratio));
			SET(cells, "shift_pct", num(b[1], sizeof(b[1]), x->est_pct));
			SET(cells, "ci_lo_pct", ci ? num(b[2], sizeof(b[2]), x->lo_pct) : "");
			SET(cells, "ci_hi_pct", ci ? num(b[3], sizeof(b[3]), x->hi_pct) : "");
			SET(cells, "p", num(b[4], sizeof(b[4]), x->mwu.p));
			SET(cells, "verdict", compare_verdict_name(x->verdict, r->kind));
			SET(cells, "threshold_pct", num(b[5], sizeof(b[5]), r->threshold_pct));
			SET(cells, "fail", x->fail ? "true" : "false");
			csv_record(f, cells);
		}
	}
}

int compare_print(FILE *f, const struct compare *c, const struct options *o,
		  bool tty, int width)
{
	errno = 0;
	switch (o->out.format) {
	case OUTPUT_HUMAN:
		if (human(f, c, o, tty, width) < 0)
			return -ENOMEM;
		break;
	case OUTPUT_CSV:
		sep_rows(f, c, o->out.sep);
		break;
	case OUTPUT_JSONL:
		jsonl_rows(f, c);
		break;
	case OUTPUT_PSTAT_CSV:
		csv_doc(f, c);
		break;
	case OUTPUT_PSTAT_JSON:
		json_doc(f, c);
		break;
	case OUTPUT_OPENMETRICS:	/* options.c refuses it here */
		break;
	}
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
