/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf stat's layout for people: aligned, grouped digits, metrics. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aggr.h"
#include "fmt.h"
#include "output_impl.h"
#include "regions.h"
#include "results.h"
#include "stats.h"

/* Columns as perf stat prints them: value, unit, name, '#', metric. */
#define VALUE_WIDTH	18
#define NAME_WIDTH	32
#define METRIC_WIDTH	23
#define TIME_WIDTH	16
/* Where '#' goes: value, space, unit of 4, space, name, space. */
#define HASH_COLUMN	(VALUE_WIDTH + 1 + 4 + 1 + NAME_WIDTH + 1)

static void copy_or(char *dst, size_t len, const char *src, const char *dflt)
{
	snprintf(dst, len, "%s", src && *src && strlen(src) < len ? src : dflt);
}

/*
 * Whether the numeric locale of the environment has C's numbers, told
 * by its name alone: loading one opens the locale archive, locale.alias
 * and the gconv cache. The name is the first of LC_ALL, LC_NUMERIC and
 * LANG that is set and not empty, else "C"; C, POSIX and the C
 * library's C.UTF-8 (any C.codeset) write numbers as C does, unless
 * LOCPATH may hold other locales.
 */
static bool numeric_is_c(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" };
	const char *name = "C";
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v) {
			name = v;
			break;
		}
	}
	if (getenv("LOCPATH"))
		return false;
	return strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 ||
	       (strncmp(name, "C.", 2) == 0 && !strchr(name, '/'));
}

/* perf's colours on a terminal, unless NO_COLOR says otherwise. */
static bool colour_wanted(const struct output *out)
{
	const char *no = getenv("NO_COLOR");

	return out->o.tty && !out->o.no_threshold && !(no && *no);
}

/*
 * Only the human output follows the locale, and only through the two
 * strings copied here: printf itself stays in "C", so no machine format
 * can change. The environment's LC_NUMERIC is set and at once put back
 * to "C" (newlocale(LC_NUMERIC_MASK, "") would do without, but the
 * static C library answers it with C's numbers). A locale without
 * grouping (C, POSIX) still gets commas: big counts must be readable.
 */
int output_numeric_locale(char *thousands, size_t tlen, char *radix,
			  size_t rlen)
{
	bool loaded = false;

	errno = 0;
	if (!numeric_is_c() && setlocale(LC_NUMERIC, "")) {
		copy_or(thousands, tlen, nl_langinfo(THOUSEP), ",");
		copy_or(radix, rlen, nl_langinfo(RADIXCHAR), ".");
		(void)setlocale(LC_NUMERIC, "C");
		loaded = true;
	}
	/* A locale that is not there is "C"; one that did not fit in
	 * memory would print numbers as the user does not read them. */
	if (!loaded && errno == ENOMEM)
		return -ENOMEM;
	if (!loaded) {
		copy_or(thousands, tlen, NULL, ",");
		copy_or(radix, rlen, NULL, ".");
	}
	return 0;
}

static void human_start(struct output *out)
{
	if (output_numeric_locale(out->thousands, sizeof(out->thousands),
				  out->radix, sizeof(out->radix)) < 0) {
		out->failed = true;
		return;
	}
	if (!out->o.big_num)
		out->thousands[0] = '\0';
	out->colour = colour_wanted(out);
}

/*
 * A row is put together here and written at once, without printf: it
 * was most of the cost of a row. These put what "%s", "%*s" and "%-*s"
 * would; what does not fit goes to the stream as it comes.
 */
struct line {
	FILE *f;
	size_t n;
	char buf[256];
};

static void put_n(struct line *l, const char *s, size_t n)
{
	if (l->n + n > sizeof(l->buf)) {
		fwrite(l->buf, 1, l->n, l->f);
		l->n = 0;
		if (n > sizeof(l->buf)) {
			fwrite(s, 1, n, l->f);
			return;
		}
	}
	memcpy(l->buf + l->n, s, n);
	l->n += n;
}

static void put(struct line *l, const char *s)
{
	put_n(l, s, strlen(s));
}

static void put_c(struct line *l, char c)
{
	put_n(l, &c, 1);
}

static void pad(struct line *l, size_t n)
{
	static const char spaces[] = "                                ";
	size_t k;

	while (n > 0) {
		k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		put_n(l, spaces, k);
		n -= k;
	}
}

/* s right-aligned in width bytes, as "%*s" (a width below 0 as "%-*s"). */
static void put_right(struct line *l, const char *s, int width)
{
	size_t n = strlen(s), w = width < 0 ? (size_t)-(long)width
					    : (size_t)width;

	if (width >= 0 && n < w)
		pad(l, w - n);
	put_n(l, s, n);
	if (width < 0 && n < w)
		pad(l, w - n);
}

/* s left-aligned in width bytes, as "%-*s". */
static void put_left(struct line *l, const char *s, int width)
{
	size_t n = strlen(s), w = width < 0 ? (size_t)-(long)width
					    : (size_t)width;

	put_n(l, s, n);
	if (n < w)
		pad(l, w - n);
}

/* The line ends: it goes to the stream. */
static void end_line(struct line *l)
{
	put_c(l, '\n');
	fwrite(l->buf, 1, l->n, l->f);
	l->n = 0;
}

/* "%.*f" with the locale's decimal point. */
static void format_fixed(const struct output *out, char *buf, size_t len,
			 int prec, double v)
{
	size_t radix_len = strlen(out->radix);
	char *dot;

	fmt_fixed(buf, len, prec, v);
	dot = strchr(buf, '.');
	if (!dot || radix_len == 1) {
		if (dot)
			*dot = out->radix[0];
		return;
	}
	/* A multibyte decimal point: make room when there is some. */
	if (strlen(buf) + radix_len < len) {
		memmove(dot + radix_len, dot + 1, strlen(dot + 1) + 1);
		memcpy(dot, out->radix, radix_len);
	}
}

static void format_grouped(const struct output *out, char *buf, size_t len,
			   uint64_t v)
{
	char digits[24];
	size_t n, i, o = 0, sep_len = strlen(out->thousands);

	fmt_u64(digits, sizeof(digits), v);
	n = strlen(digits);
	for (i = 0; i < n && o + sep_len + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0) {
			memcpy(buf + o, out->thousands, sep_len);
			o += sep_len;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/*
 * "%'.2f": the integer digits of buf, as format_fixed wrote them,
 * grouped as format_grouped groups a count (perf: 1.416,10 msec in
 * de_DE).
 */
static void group_integer(const struct output *out, char *buf, size_t len)
{
	size_t sep_len = strlen(out->thousands), n, i, o = 0, rest;
	const char *p = buf;
	char tmp[128];

	if (*p == '-')
		tmp[o++] = *p++;
	for (n = 0; p[n] >= '0' && p[n] <= '9'; n++)
		;
	rest = strlen(p + n);
	/* What would not fit stays as it is, ungrouped. */
	if (!sep_len || o + n + n / 3 * sep_len + rest >= sizeof(tmp) ||
	    o + n + n / 3 * sep_len + rest >= len)
		return;
	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0) {
			memcpy(tmp + o, out->thousands, sep_len);
			o += sep_len;
		}
		tmp[o++] = p[i];
	}
	memcpy(tmp + o, p + n, rest + 1);
	memcpy(buf, tmp, o + rest + 1);
}

static void value_text(const struct output *out, char *buf, size_t len,
		       const struct output_row *row)
{
	switch (row->r.state) {
	case COUNTS_NOT_SUPPORTED:
		fmt_str(buf, len, "<not supported>");
		break;
	case COUNTS_NOT_COUNTED:
		fmt_str(buf, len, "<not counted>");
		break;
	default:
		if (row->fractional) {
			format_fixed(out, buf, len, 2, row->value);
			group_integer(out, buf, len);
		} else
			format_grouped(out, buf, len, row->r.value);
	}
}

static void timestamp(struct output *out, struct line *l)
{
	char buf[64];

	if (!out->interval)
		return;
	/* perf's "%6lu.%09lu": a point in every locale. */
	fmt_fixed(buf, sizeof(buf), 9, out->ts);
	put_right(l, buf, TIME_WIDTH);
	put_c(l, ' ');
}

static enum aggr_kind aggr_kind(const struct output *out)
{
	return out->res->aggr ? out->res->aggr->kind : AGGR_GLOBAL;
}

/*
 * The CPU, core, die, socket, node or thread, padded as perf pads it:
 * the last number left-aligned in perf's width (CPU%-7d, S%d-D%d-C%-8d,
 * S%d-D%-8d, S%-5d, N%-5d), then the CPUs in 4; a thread's comm
 * right-aligned in 16, then '-' and its pid left-aligned in 8. The
 * bytes it took.
 */
static size_t aggregate(const struct output *out, struct line *l,
			const struct output_row *row)
{
	static const int number_width[] = {
		[AGGR_CPU] = 7, [AGGR_CORE] = 8, [AGGR_DIE] = 8,
		[AGGR_SOCKET] = 5, [AGGR_NODE] = 5, [AGGR_THREAD] = 8,
	};
	enum aggr_kind kind = aggr_kind(out);
	const char *s = row->aggr, *num;
	char buf[64];
	size_t n = l->n;

	if (!s)
		return 0;
	if (kind == AGGR_THREAD && (num = strrchr(s, '-'))) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(num - s), s);
		put_right(l, buf, 16);
		num++;
		put_c(l, '-');
	} else {
		for (num = s + strlen(s); num > s && num[-1] >= '0' &&
		     num[-1] <= '9'; num--)
			;
		put_n(l, s, (size_t)(num - s));
	}
	put_left(l, num, number_width[kind]);
	put_c(l, ' ');
	if (row->aggr_cpus) {
		snprintf(buf, sizeof(buf), "%d", row->aggr_cpus);
		put_right(l, buf, 4);
		put_c(l, ' ');
	}
	/* The line is flushed only past its buffer: never this early. */
	return l->n - n;
}

/* The titles above the intervals: perf's, for each aggregation. */
static const char *const interval_titles[] = {
	[AGGR_GLOBAL] = "#           time             counts unit events",
	[AGGR_CPU] = "#           time CPU                    counts unit events",
	[AGGR_CORE] = "#           time core            cpus             counts unit events",
	[AGGR_DIE] = "#           time die          cpus             counts unit events",
	[AGGR_SOCKET] = "#           time socket cpus             counts unit events",
	[AGGR_NODE] = "#           time node   cpus             counts unit events",
	[AGGR_THREAD] = "#           time             comm-pid                  counts unit events",
};

/* "# run 2 of 3", or "# run 2" for -r 0's runs until stopped. */
static void run_line(struct output *out)
{
	fprintf(out->f, "# run %zu", out->run + 1);
	if (out->o.runs != SIZE_MAX)
		fprintf(out->f, " of %zu", out->o.runs);
	fputc('\n', out->f);
}

static void human_section(struct output *out, const struct output_run *run)
{
	char *const *a;

	if (out->interval) {
		/* --interval-clear: each interval on a clear screen, under
		 * its titles, as perf does. */
		if (out->o.interval_clear)
			fputs("\033[H\033[2J", out->f);
		/* -r N: a line names the run its intervals are of. */
		if (out->o.runs > 1 && (out->new_run || out->o.interval_clear))
			run_line(out);
		if ((out->sections == 0 || out->o.interval_clear) &&
		    !out->o.metric_only)
			fprintf(out->f, "%s\n",
				interval_titles[aggr_kind(out)]);
		return;
	}
	fputs("\n Performance counter stats for ", out->f);
	if (run->target) {
		fputs(run->target, out->f);
	} else {
		fputc('\'', out->f);
		for (a = run->argv; a && *a; a++)
			fprintf(out->f, "%s%s", a == run->argv ? "" : " ", *a);
		fputc('\'', out->f);
	}
	if (out->o.runs > 1 && run->partial)
		fputs(" (1 run, cut short)", out->f);
	else if (out->o.runs > 1)
		fprintf(out->f, " (%zu run%s)", run->runs_done,
			run->runs_done == 1 ? "" : "s");
	fputs(":\n\n", out->f);
}

/* perf's colours of a threshold: PERF_COLOR_GREEN and _RED. */
static const char *const colours[] = {
	[METRIC_THRESHOLD_GOOD] = "\033[32m",
	[METRIC_THRESHOLD_BAD] = "\033[31m",
};

/* A metric after '#', in perf's width and precision, padded when
 * something follows it. */
static void metric(const struct output *out, struct line *l,
		   const struct metric *m, bool padded)
{
	const char *colour = out->colour ? colours[m->threshold] : NULL;
	char buf[128];

	/* An input that did not count is named where the number goes. */
	if (m->status != METRIC_COUNTED || !isfinite(m->value))
		metric_value_text(buf, sizeof(buf), m, m->prec);
	else
		format_fixed(out, buf, sizeof(buf), m->prec, m->value);
	put(l, "# ");
	/* perf's colour of the threshold, on the number alone. */
	if (colour)
		put(l, colour);
	put_right(l, buf, m->width);
	if (colour)
		put(l, "\033[m");
	put(l, m->suffix);
	put_c(l, ' ');
	put_left(l, m->unit, padded ? METRIC_WIDTH : 0);
}

static void human_row(struct output *out, const struct output_row *row)
{
	bool scaled = row->r.state == COUNTS_SCALED;
	bool tail = scaled || row->has_variance;
	char value[128], pct[64];
	struct line l = { .f = out->f };
	size_t aggr_width;
	int i;

	timestamp(out, &l);
	aggr_width = aggregate(out, &l, row);
	value_text(out, value, sizeof(value), row);
	put_right(&l, value, VALUE_WIDTH);
	put_c(&l, ' ');
	put_left(&l, row->unit, 4);
	put_c(&l, ' ');
	/* -G's cgroup after the name, as perf: " NAME", or " ". */
	if (row->n_metrics == 0 && !tail && (!row->cgroup || !*row->cgroup)) {
		put(&l, row->name);
		end_line(&l);
		return;
	}
	put_left(&l, row->name, NAME_WIDTH);
	put_c(&l, ' ');
	if (row->n_metrics == 0 && !tail) {
		put(&l, row->cgroup);
		end_line(&l);
		return;
	}
	if (row->cgroup) {
		put(&l, row->cgroup);
		put_c(&l, ' ');
	}
	if (row->n_metrics > 0)
		metric(out, &l, &row->m[0], tail);
	else	/* "  %8s %-*s" of nothing */
		pad(&l, 2 + 8 + 1 + METRIC_WIDTH);
	if (row->has_variance) {
		format_fixed(out, pct, sizeof(pct), 2, row->variance_pct);
		put(&l, "  ( +- ");
		put_right(&l, pct, 5);
		put(&l, "% )");
	}
	if (scaled) {
		format_fixed(out, pct, sizeof(pct), 2, row->r.running_pct);
		put(&l, "  (");
		put(&l, pct);
		put(&l, "%)");
	}
	end_line(&l);
	/* perf puts a second metric on a line of its own, under the first. */
	for (i = 1; i < row->n_metrics; i++) {
		timestamp(out, &l);
		pad(&l, HASH_COLUMN + aggr_width);
		metric(out, &l, &row->m[i], false);
		end_line(&l);
	}
}

static void seconds(struct output *out, double s, const char *what)
{
	char buf[64];

	format_fixed(out, buf, sizeof(buf), 9, s);
	fprintf(out->f, "%*s seconds %s\n", VALUE_WIDTH, buf, what);
}

/* perf does not show it; the command's peak memory is worth a line. */
static void max_rss(struct output *out, long kib)
{
	char buf[64];

	format_grouped(out, buf, sizeof(buf), (uint64_t)(kib > 0 ? kib : 0));
	fprintf(out->f, "%*s KiB max resident set size\n", VALUE_WIDTH, buf);
}

/* perf shows two digits more than the spread makes meaningful. */
static int precision(double sd)
{
	int digits = 0;

	while (sd > 0.0 && sd < 1.0 && digits < 9) {
		sd *= 10.0;
		digits++;
	}
	return digits + 2;
}

/*
 * --table, as perf prints it above the mean: each run's elapsed time,
 * how far it is from the mean, and a bar of one '#' and one more per 5%
 * of that distance; indented as the mean's digits are.
 */
static void human_table(struct output *out, int prec, double avg,
			const char *avg_text)
{
	const struct results *res = out->res;
	int indent = VALUE_WIDTH - (int)strlen(avg_text);
	char run[64], diff[64];
	double s;
	size_t i;
	int n;

	fprintf(out->f, "%*s# Table of individual measurements:\n", indent, "");
	for (i = 0; i < res->n_runs; i++) {
		s = res->run_wall_ns[i] / 1e9;
		format_fixed(out, run, sizeof(run), prec, s);
		format_fixed(out, diff, sizeof(diff), prec, s - avg);
		fprintf(out->f, "%*s (%s%s) ", VALUE_WIDTH, run,
			s - avg >= 0.0 ? "+" : "", diff);
		n = s > 0.0 ? 1 + abs((int)(100.0 * (s - avg) / s) / 5) : 1;
		while (n-- > 0)
			fputc('#', out->f);
		fputc('\n', out->f);
	}
	fprintf(out->f, "\n%*s# Final result:\n", indent, "");
}

static void human_section_end(struct output *out,
			      const struct output_run *run)
{
	const struct stats *wall;
	char avg[64], sd[64], pct[64];
	double mean_sd;
	int prec;

	if (out->interval)
		return;
	fputc('\n', out->f);
	/* One run, even of several asked for, has no spread to show. */
	if (run->runs_done <= 1) {
		seconds(out, run->elapsed_ns / 1e9, "time elapsed");
		fputc('\n', out->f);
		/* One blank line after the last, as perf. */
		if (run->argv) {
			seconds(out, run->user_s, "user");
			seconds(out, run->sys_s, "sys");
			max_rss(out, run->max_rss_kib);
			fputc('\n', out->f);
		}
		return;
	}
	/* As perf: the spread of the mean, not of the runs. */
	wall = &out->res->wall_ns;
	mean_sd = stats_rel_stddev_mean(wall) / 100.0 * stats_mean(wall) / 1e9;
	prec = precision(mean_sd);
	format_fixed(out, avg, sizeof(avg), prec, stats_mean(wall) / 1e9);
	format_fixed(out, sd, sizeof(sd), prec, mean_sd);
	format_fixed(out, pct, sizeof(pct), 2, stats_rel_stddev_mean(wall));
	if (out->o.table)
		human_table(out, prec, stats_mean(wall) / 1e9, avg);
	fprintf(out->f, "%*s +- %s seconds time elapsed  ( +- %5s%% )\n\n",
		VALUE_WIDTH, avg, sd, pct);
}

/* --regions: a title above each region's rows. */
static void human_region(struct output *out, const struct region *g,
			 bool first)
{
	char t[64];

	(void)first;
	format_fixed(out, t, sizeof(t), 2, g->time_ns / 1e6);
	fprintf(out->f, "\n Region '%s' (%" PRIu64 " entr%s, %s msec inside",
		g->name, g->entries, g->entries == 1 ? "y" : "ies", t);
	if (g->open)
		fputs(", open at the end", out->f);
	if (g->unmatched)
		fprintf(out->f, ", %" PRIu64 " end%s without a begin",
			g->unmatched, g->unmatched == 1 ? "" : "s");
	fputs("):\n\n", out->f);
}

/* A spread's number as its rows show theirs: a count grouped, else two
 * decimals (a mean always). */
static void spread_number(const struct output *out, char *buf, size_t len,
			  double v, bool fractional)
{
	if (!fractional && v < 1.8e19) {
		format_grouped(out, buf, len, (uint64_t)(v + 0.5));
		return;
	}
	format_fixed(out, buf, len, 2, v);
	group_integer(out, buf, len);
}

/* --per-thread with a command: a block after the rows, as --merge's. */
static void human_spread(struct output *out, const struct output_spread *s,
			 bool first)
{
	char min[64], max[64], mean[64], imb[64];

	if (first)
		fprintf(out->f, "\n %*s %14s %14s %10s  (over the %s)\n",
			VALUE_WIDTH, "min", "max", "mean", "imbalance",
			s->over);
	spread_number(out, min, sizeof(min), s->min, s->row->fractional);
	spread_number(out, max, sizeof(max), s->max, s->row->fractional);
	spread_number(out, mean, sizeof(mean), s->mean, true);
	format_fixed(out, imb, sizeof(imb), 2, s->imbalance * 100.0);
	fprintf(out->f, " %*s %14s %14s %9s%%  %s%s%s (%zu %s)\n", VALUE_WIDTH,
		min, max, mean, imb, s->row->unit, *s->row->unit ? " " : "",
		s->row->name, s->n, s->over);
}

/*
 * --metric-only: the titles above the intervals once, and above the
 * totals after their banner; each column as wide as its title or its
 * values, the same on every line.
 */
static void human_metric_titles(struct output *out)
{
	const struct output_metric_only *mo = &out->mo;
	bool cpus;
	const char *aggr = output_aggr_title(out->res->aggr, &cpus);
	size_t i;

	if (out->sections > 0 && out->interval && !out->o.interval_clear)
		return;
	if (out->interval)
		fprintf(out->f, "#%*s", TIME_WIDTH - 1, "time");
	if (aggr)
		fprintf(out->f, " %-*s", mo->aggr_width, aggr);
	if (cpus)
		fprintf(out->f, " %4s", "cpus");
	for (i = 0; i < mo->n_cols; i++)
		fprintf(out->f, " %*s", mo->cols[i].width, mo->cols[i].title);
	fputc('\n', out->f);
}

/* One --metric-only cell, as a metric after '#' is shown. */
static void cell(struct output *out, const struct output_cell *c,
		 const struct output_column *col)
{
	const char *colour = out->colour && c->has
			     ? colours[c->m.threshold] : NULL;
	char buf[128] = "";

	if (c->has && (c->m.status != METRIC_COUNTED ||
		       !isfinite(c->m.value)))
		metric_value_text(buf, sizeof(buf), &c->m, col->m.prec);
	else if (c->has)
		format_fixed(out, buf, sizeof(buf), col->m.prec, c->m.value);
	if (colour)
		fputs(colour, out->f);
	fprintf(out->f, "%*s", col->width, buf);
	if (colour)
		fputs("\033[m", out->f);
}

static void human_metric_line(struct output *out,
			      const struct output_row *row,
			      const struct output_cell *cells)
{
	const struct output_metric_only *mo = &out->mo;
	bool cpus;
	const char *aggr = output_aggr_title(out->res->aggr, &cpus);
	char buf[64];
	size_t i;

	if (out->interval) {
		fmt_fixed(buf, sizeof(buf), 9, out->ts);
		fprintf(out->f, "%*s", TIME_WIDTH, buf);
	}
	if (aggr)
		fprintf(out->f, " %-*s", mo->aggr_width, row->aggr);
	if (cpus)
		fprintf(out->f, " %4d", row->aggr_cpus);
	for (i = 0; i < mo->n_cols; i++) {
		fputc(' ', out->f);
		cell(out, &cells[i], &mo->cols[i]);
	}
	fputc('\n', out->f);
}

const struct output_printer output_human = {
	.metric_titles = human_metric_titles,
	.metric_line = human_metric_line,
	.start = human_start,
	.section = human_section,
	.row = human_row,
	.spread = human_spread,
	.region = human_region,
	.section_end = human_section_end,
};
